"""Tiny builders for game records in the docs/record.md format, replayed through the real code path.

Each builder returns one event as a plain dict, exactly the object a line of a record holds. ``replay`` writes
the events as JSON lines, reads them back with ``read_record`` and folds them with the referee, so a test
reads like the table: a few events in, what the players would see out. Line numbers (``ref``) are the
0-based positions of the events in the call, as in a file without blank lines.
"""

from __future__ import annotations

import json
from typing import Any

from tabletop.game.record import read_record
from tabletop.game.referee import replay as referee_replay

Event = dict[str, Any]


def game(*players: str, preset: str = "official", draws_seen: bool | None = None, **options: Any) -> Event:
    event: Event = {"type": "game", "players": list(players), "rules": {"preset": preset, **options}}
    if draws_seen is not None:
        event["draws_seen"] = draws_seen
    return event


def deal(dealer: int) -> Event:
    return {"type": "deal", "dealer": dealer}


def flip(card: str) -> Event:
    return {"type": "flip", "card": card}


def play(card: str, seat: int | None = None) -> Event:
    return _with_seat({"type": "play", "card": card}, seat)


def color(name: str, seat: int | None = None) -> Event:
    return _with_seat({"type": "color", "color": name}, seat)


def draw(seat: int | None = None, count: int = 1) -> Event:
    event = _with_seat({"type": "draw"}, seat)
    if count != 1:
        event["count"] = count
    return event


def pass_(seat: int | None = None) -> Event:
    return _with_seat({"type": "pass"}, seat)


def uno(seat: int) -> Event:
    return {"type": "uno", "seat": seat}


def catch(seat: int, target: int) -> Event:
    return {"type": "catch", "seat": seat, "target": target}


def challenge(seat: int, guilty: bool | None = None) -> Event:
    event: Event = {"type": "challenge", "seat": seat}
    if guilty is not None:
        event["guilty"] = guilty
    return event


def reveal(seat: int, *cards: str) -> Event:
    return {"type": "reveal", "seat": seat, "cards": list(cards)}


def points(seat: int, value: int) -> Event:
    return {"type": "points", "seat": seat, "points": value}


def swap(seat: int, with_: int) -> Event:
    return {"type": "swap", "seat": seat, "with": with_}


def end(seat: int) -> Event:
    return {"type": "end", "seat": seat}


def unsure(*guesses: tuple[str, float], seat: int | None = None) -> Event:
    return _with_seat({"type": "unsure", "guesses": [list(g) for g in guesses]}, seat)


def retract(ref: int) -> Event:
    return {"type": "retract", "ref": ref}


def amend(ref: int, event: Event) -> Event:
    return {"type": "amend", "ref": ref, "event": event}


def insert(ref: int, event: Event) -> Event:
    return {"type": "insert", "ref": ref, "event": event}


def _with_seat(event: Event, seat: int | None) -> Event:
    if seat is not None:
        event["seat"] = seat
    return event


# --- replaying ------------------------------------------------------------------------------------------


def replay(*events: Event) -> tuple[list[Event], Event]:
    """The verdicts (as JSON objects, in order) and the final state of the record made of ``events``."""
    entries = read_record([json.dumps(event) for event in events])
    verdicts, state = referee_replay(entries)
    return [verdict.to_json() for verdict in verdicts], state.to_json()


def verdicts_of(*events: Event) -> list[Event]:
    return replay(*events)[0]


def state_of(*events: Event) -> Event:
    return replay(*events)[1]


# --- expected verdicts ----------------------------------------------------------------------------------


def penalty(seat: int, cards: int, reason: str, ref: int) -> Event:
    return {"type": "penalty", "seat": seat, "cards": cards, "reason": reason, "ref": ref}


def notice(reason: str, ref: int, seat: int | None = None) -> Event:
    return {"type": "notice", "reason": reason, "ref": ref, **({} if seat is None else {"seat": seat})}


def round_end(round_: int, winner: int, ref: int) -> Event:
    return {"type": "round-end", "round": round_, "winner": winner, "ref": ref}


def score(round_: int, winner: int, points_: int, totals: list[int], ref: int) -> Event:
    return {"type": "score", "round": round_, "winner": winner, "points": points_, "totals": totals, "ref": ref}


def game_end(winner: int, totals: list[int], ref: int) -> Event:
    return {"type": "game-end", "winner": winner, "totals": totals, "ref": ref}


def penalties(verdicts: list[Event]) -> list[Event]:
    return [v for v in verdicts if v["type"] == "penalty"]


# --- a common opening -----------------------------------------------------------------------------------

#: Ann, Bo and Cy; Cy deals, so Ann (seat 0) plays first on a red 5. Lines 0, 1 and 2 of a record.
ANN, BO, CY = 0, 1, 2


def opening(first: str = "red-5", *, preset: str = "official", **options: Any) -> list[Event]:
    return [game("Ann", "Bo", "Cy", preset=preset, **options), deal(CY), flip(first)]


def ann_goes_out(last: str = "red-1", **options: Any) -> list[Event]:
    """Lines 0-9: two cards each; Ann calls and plays one, Bo and Cy draw and pass, Ann plays ``last``."""
    return [
        *opening(hand_size=2, **options),
        uno(ANN),
        play("red-9", seat=ANN),
        draw(seat=BO),
        pass_(seat=BO),
        draw(seat=CY),
        pass_(seat=CY),
        play(last, seat=ANN),
    ]
