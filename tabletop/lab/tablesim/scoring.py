"""How well the watcher followed a simulated table: its observations matched against the script's truth.

The figures are those the watcher's goals name: plays found with the right card and seat, plays invented,
draws with the right seat, revealed cards read, and the delay from a card coming to rest to its event.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from tabletop.game.events import Deal, Draw, Event, Flip, Play, Retract, Reveal, Unsure, Verdict
from tabletop.game.referee import replay
from tabletop.lab.tablesim.script import Script, Sight
from tabletop.lab.tablesim.table import TableFilm
from tabletop.vision.model import CardReader
from tabletop.watcher.recorder import Lines, Recorder
from tabletop.watcher.watcher import Observation, TakeBack, Watcher

WINDOW = 1.5
"""An observation answers a sight when it comes at most this long after the card came to rest."""
EARLY = 0.3
"""Or at most this long before the hand arrived: a draw is seen as the hand turns back, which can look early."""


@dataclass
class WatchScore:
    plays: int = 0
    plays_right: int = 0
    plays_unsure: int = 0
    plays_wrong_card: int = 0
    plays_wrong_seat: int = 0
    draws: int = 0
    draws_right: int = 0
    revealed_cards: int = 0
    revealed_right: int = 0
    revealed_invented: int = 0
    """Cards a reveal counted that the hand did not hold: each costs the round's points as much as a card missed."""
    take_backs: int = 0
    take_backs_found: int = 0
    deals_right: int = 0
    deals: int = 0
    extra: Counter[str] = field(default_factory=Counter)
    delays: list[float] = field(default_factory=list)
    """From each card laid on the pile coming to rest in view to the watcher's event for it."""

    def add(self, other: WatchScore) -> None:
        for name, value in vars(other).items():
            mine = getattr(self, name)
            setattr(self, name, mine + value)

    def summary(self) -> dict[str, float]:
        delays = sorted(self.delays) or [0.0]
        return {"plays": self.plays, "plays_right": _share(self.plays_right, self.plays),
                "plays_unsure": self.plays_unsure, "plays_wrong_card": self.plays_wrong_card,
                "plays_wrong_seat": self.plays_wrong_seat, "plays_invented": self.extra["play"],
                "draws": self.draws, "draws_right": _share(self.draws_right, self.draws),
                "draws_invented": self.extra["draw"], "revealed_cards": self.revealed_cards,
                "revealed_right": _share(self.revealed_right, self.revealed_cards),
                "revealed_invented": self.revealed_invented,
                "take_backs_found": _share(self.take_backs_found, self.take_backs),
                "deals_right": _share(self.deals_right, self.deals),
                "delay_median_ms": 1000 * delays[len(delays) // 2],
                "delay_max_ms": 1000 * delays[-1]}


def _share(part: int, whole: int) -> float:
    return part / whole if whole else 1.0


def watch_table(table: TableFilm, model: CardReader) -> list[Observation]:
    """Everything the watcher reports over the whole video of a simulated table."""
    return watch_alike(table, [model])[0]


def watch_alike(table: TableFilm, models: Sequence[CardReader]) -> list[list[Observation]]:
    """What a watcher with each of ``models`` reports over the same video, filmed once: filming costs more than
    watching."""
    watchers = [Watcher(table.layout, model) for model in models]
    seen: list[list[Observation]] = [[] for _ in models]
    for frame in table.video.frames():
        for watcher, items in zip(watchers, seen, strict=True):
            items.extend(watcher.observe(frame))
    return seen


def score(script: Script, seen: list[Observation]) -> WatchScore:
    """Match every sight of the script with an unmatched observation of its kind in its time window: a card laid
    with the play that names it, where there is one, else with the first of its kind. A play the watcher missed
    is then a play missed, not the next card's play taken for it (a wrong card), and that next card's too."""
    result = WatchScore()
    left = list(seen)
    named = {id(sight): _take(left, sight, _names(sight.event)) for sight in script.sights}
    for sight in script.sights:
        _count(result, sight, named[id(sight)] or _take(left, sight, lambda _: True))
    for observation in left:
        result.extra[_kind(observation)] += 1
    return result


def _names(event: Event) -> Callable[[Observation], bool]:
    """Whether an observation names the card ``event`` laid (never, for an event that lays none)."""
    card = event.card if isinstance(event, (Play, Flip)) else None
    return lambda observation: card is not None and isinstance(observation, (Play, Flip)) and \
        observation.card == card


def _take(left: list[Observation], sight: Sight, wanted: Callable[[Observation], bool]) -> Observation | None:
    kind = _kind(sight.event)
    for k, observation in enumerate(left):
        t = observation.t
        if _kind(observation) == kind and t is not None and sight.happened - EARLY <= t <= sight.rest + WINDOW \
                and wanted(observation):
            return left.pop(k)
    return None


def _kind(item: Event | Observation) -> str:
    if isinstance(item, (Play, Unsure, Flip)):
        return "play"
    if isinstance(item, (TakeBack, Retract)):
        return "take-back"
    return item.TYPE


def _count(result: WatchScore, sight: Sight, match: Observation | None) -> None:
    event = sight.event
    if isinstance(event, (Play, Flip)) and match is not None and match.t is not None:
        result.delays.append(max(0.0, match.t - sight.rest))
    if isinstance(event, (Play, Flip)):
        result.plays += 1
        if isinstance(match, Unsure):
            result.plays_unsure += 1
        elif isinstance(match, (Play, Flip)):
            right_card = match.card == event.card
            right_seat = not isinstance(match, Play) or match.seat == sight.seat
            result.plays_right += right_card and right_seat
            result.plays_wrong_card += not right_card
            result.plays_wrong_seat += right_card and not right_seat
    elif isinstance(event, Draw):
        result.draws += 1
        result.draws_right += isinstance(match, Draw) and match.seat == sight.seat
    elif isinstance(event, Reveal):
        result.revealed_cards += len(event.cards)
        if isinstance(match, Reveal):
            result.revealed_right += sum((Counter(event.cards) & Counter(match.cards)).values())
            result.revealed_invented += sum((Counter(match.cards) - Counter(event.cards)).values())
    elif isinstance(event, Retract):
        result.take_backs += 1
        result.take_backs_found += match is not None
    elif isinstance(event, Deal):
        result.deals += 1
        result.deals_right += isinstance(match, Deal) and match.dealer == event.dealer


def watched_record(script: Script, seen: list[Observation]) -> list[Event]:
    """The record a table would keep: the phones' and host's events from the script, the camera's from ``seen``."""
    phones = [(timed.t, 0, timed.event) for timed in script.record if not timed.camera]
    camera = [(item.t or 0.0, 1, item) for item in seen]
    record = Lines()
    recorder = Recorder(record.keep)
    for _, _, item in sorted(phones + camera, key=lambda entry: (entry[0], entry[1])):
        recorder.add(item)
    return record.lines


def verdicts_agree(truth: list[Event], watched: list[Event]) -> bool:
    """Whether the referee reaches the same verdicts and final state from both records (lines may differ)."""
    expected, watched_state = replay(list(enumerate(truth))), replay(list(enumerate(watched)))
    return [_verdict(v) for v in expected[0]] == [_verdict(v) for v in watched_state[0]] and \
        expected[1] == watched_state[1]


def _verdict(verdict: Verdict) -> dict[str, Any]:
    """A verdict without the line it was reached at, which shifts when the camera's lines come in another order."""
    out = verdict.to_json()
    out.pop("ref", None)
    return out
