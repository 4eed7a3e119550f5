"""Benchmarks that print figures beside their goals: speed is measured here, never asserted in tests."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable, Iterator

from tabletop.events import Amend, Event
from tabletop.referee import Referee, replay
from tabletop.simulate import simulate_game

REFEREE_GOAL_EVENTS_PER_SECOND = 100_000


def evening(events: int) -> list[Event]:
    """A long record: simulated games one after another until it holds at least ``events`` events."""
    record: list[Event] = []
    seed = 0
    while len(record) < events:
        preset = ("official", "party", "stacking", "eastern")[seed % 4]
        record.extend(simulate_game(seed, rules={"preset": preset}).events)
        seed += 1
    return record


def timed(work: Callable[[], object], repeats: int) -> list[float]:
    """Wall-clock seconds of each of ``repeats`` runs of ``work``."""
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return times


def bench_referee(events: int = 50_000, repeats: int = 5) -> Iterator[str]:
    """Events per second folding a long record, and re-deriving a 500-event record after an amend at its start."""
    record = evening(events)
    entries = list(enumerate(record))
    rate = len(entries) / statistics.median(timed(lambda: replay(entries), repeats))
    verdict = "meets" if rate >= REFEREE_GOAL_EVENTS_PER_SECOND else "misses"
    yield (f"referee fold: {rate:,.0f} events/s over a {len(entries):,}-event record "
           f"(goal {REFEREE_GOAL_EVENTS_PER_SECOND:,}: {verdict})")
    first_500 = record[:500]
    amend = Amend(ref=3, event=first_500[3])
    rederive = statistics.median(rederive_seconds(first_500, amend) for _ in range(repeats))
    yield f"referee correction: {rederive * 1000:.2f} ms to re-derive a 500-event record after an amend at line 3"


def rederive_seconds(record: list[Event], correction: Event) -> float:
    referee = Referee(record)
    start = time.perf_counter()
    referee.push(correction)
    return time.perf_counter() - start


CLASSIFY_GOAL_CARD_MS = 0.5
CLASSIFY_GOAL_FRAME_MS = 5.0


def _percentiles(times: list[float]) -> str:
    ms = sorted(t * 1000 for t in times)
    return f"median {statistics.median(ms):.3f} ms, p90 {ms[int(len(ms) * 0.9)]:.3f} ms"


def bench_classify(repeats: int = 300) -> Iterator[str]:
    """The card model on one core: a rectified card, a batch of 8, and finding and reading a 640x480 frame.

    The process is pinned to one core rather than calling ``cv2.setNumThreads(1)``: OpenCV's single-threaded
    Canny path corrupts the heap on some frames (seen with 4.10 to 5.0).
    """
    import os

    import numpy as np

    from tabletop.cards import Card
    from tabletop.vision.model import CardModel
    from tabletop.vision.reader import read_card
    from tabletop.vision.samples import batch
    from tabletop.vision.scene import card_on_table

    os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    model = CardModel(threads=1)
    crops, _ = batch(seed=7, count=8)
    one = [crops[0]]
    timed(lambda: model.read(one), 20)
    card = timed(lambda: model.read(one), repeats)
    eight = timed(lambda: model.read(list(crops)), repeats)
    frame, _ = card_on_table(np.random.default_rng(3), Card.from_name("green-7"), "modern")
    timed(lambda: read_card(frame, model), 20)
    whole = timed(lambda: read_card(frame, model), repeats)
    per_card = statistics.median(card) * 1000
    per_frame = statistics.median(whole) * 1000
    yield f"classify one card: {_percentiles(card)} (goal {CLASSIFY_GOAL_CARD_MS} ms: " \
          f"{'meets' if per_card <= CLASSIFY_GOAL_CARD_MS else 'misses'})"
    yield f"classify a batch of 8: {_percentiles(eight)} ({statistics.median(eight) * 1000 / 8:.3f} ms a card)"
    yield f"find and classify in a 640x480 frame: {_percentiles(whole)} (goal {CLASSIFY_GOAL_FRAME_MS} ms: " \
          f"{'meets' if per_frame <= CLASSIFY_GOAL_FRAME_MS else 'misses'})"
