"""Posts from a seat's phone that would change nothing, refused rather than kept in the game log by thousands.

The referee records what a table does even when it is against the rules, and answers a post that changes
nothing with a notice: right for a table, where each such line is a person's slip. From a phone a slip is a tap
that can repeat without end, so the scoreboard refuses, before it reaches the table, a seat's post that repeats
the line just recorded (a draw excepted: a player may draw card after card), a pass out of turn, a colour with
no wild to name it for, and a draw when the hands already hold the whole deck.
"""

from __future__ import annotations

from tabletop.game.cards import full_deck
from tabletop.game.events import Color, Draw, Event, Pass
from tabletop.table import Snapshot

DECK = len(full_deck())


def pointless(event: Event, seat: int, snapshot: Snapshot) -> str | None:
    """Why ``event``, posted by ``seat``'s phone, would change nothing now, in words for the phone; None when it
    may go to the table."""
    state = snapshot.state
    if not isinstance(event, Draw) and snapshot.record and event == snapshot.record[-1]:
        return f"it is already the last line of the record ({event.TYPE})"
    if state is None:
        return None
    if isinstance(event, Pass) and state.turn != seat:
        return "it is not this seat's turn, so there is nothing to pass"
    if isinstance(event, Color) and (state.top is None or not state.top.is_wild or state.color is not None):
        return "there is no wild on the pile waiting for its colour"
    if isinstance(event, Draw) and sum(size or 0 for size in state.hands) + event.count >= DECK:
        return f"the hands already hold nearly all {DECK} cards of the deck"
    return None
