"""Game logs of simulated games for the history tests, and what the simulator knows each player did."""

from __future__ import annotations

import dataclasses
import time
from collections import Counter
from pathlib import Path

from tabletop.game.events import Catch, Challenge, Event, Game, PenaltyReason, Reveal, Uno
from tabletop.lab.simulate import SimulatedGame
from tabletop.store import GameStore


def evening_at(day: int, hour: int) -> float:
    """Seconds since the epoch at ``hour`` o'clock local time on December ``day``, 2026."""
    return time.mktime((2026, 12, day, hour, 0, 0, 0, 0, -1))


def named(game: SimulatedGame, names: tuple[str, ...]) -> list[Event]:
    first = game.events[0]
    assert isinstance(first, Game)
    return [dataclasses.replace(first, players=names), *game.events[1:]]


def keep(directory: Path, games: list[tuple[float, list[Event]]]) -> None:
    """A game log holding ``games``, each begun at its time."""
    for started, events in games:
        store = GameStore(directory, report=lambda _: None, clock=lambda started=started: started)
        store.restart(events)
        store.close()


def truth_figures(game: SimulatedGame) -> list[dict[str, int]]:
    """Each seat's figures as the simulator knows them: its penalties, scores and wild draw fours, with who
    challenged and who caught read from the lines those penalties were reached at."""
    truth, events = game.truth, game.events
    seats = len(truth.scores[0][3]) if truth.scores else 0
    figures = [Counter[str]() for _ in range(seats)]
    for ref, seat, reason, _ in truth.penalties:
        figures[seat][reason.value] += 1
        event = events[ref]
        if reason is PenaltyReason.MISSED_UNO and isinstance(event, Catch):
            figures[event.seat]["catches"] += 1
        if reason is PenaltyReason.ILLEGAL_WILD_DRAW_FOUR and isinstance(event, Challenge | Reveal):
            challenge = next(e for e in reversed(events[:ref + 1]) if isinstance(e, Challenge))
            figures[challenge.seat]["challenges_won"] += 1
    for _, seat, _ in truth.wild_draw_fours:
        figures[seat]["wild_draw_fours"] += 1
    false_calls = {ref for ref, _, reason, _ in truth.penalties if reason is PenaltyReason.FALSE_UNO}
    for ref, event in enumerate(events):
        if isinstance(event, Uno) and ref not in false_calls:
            figures[event.seat]["uno_calls"] += 1
        elif isinstance(event, Challenge):
            accused = max((four for four in truth.wild_draw_fours if four[0] < ref), key=lambda four: four[0])
            figures[accused[1]]["wild_draw_fours_challenged"] += 1
    before = (0,) * seats
    for _, winner, _, totals in truth.scores:
        figures[winner]["rounds_won"] += 1
        for seat in range(seats):
            figures[seat]["points"] += totals[seat] - before[seat]
        before = totals
    return [{"games_won": int(seat == truth.winner), "rounds": len(truth.scores), "rounds_won": f["rounds_won"],
             "points": f["points"], "uno_calls": f["uno_calls"], "uno_missed": f["missed-uno"],
             "catches": f["catches"], "wild_draw_fours": f["wild_draw_fours"],
             "wild_draw_fours_challenged": f["wild_draw_fours_challenged"], "challenges_won": f["challenges_won"],
             "challenges_lost": f["challenge-lost"], "out_of_turn": f["out-of-turn"],
             "misplays": f["illegal-play"]} for seat, f in enumerate(figures)]
