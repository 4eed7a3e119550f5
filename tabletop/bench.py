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
