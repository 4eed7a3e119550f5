"""The host's list of events reads as people speak at the table: names, cards and outcomes in words."""

from __future__ import annotations

from typing import Any

import pytest

from tabletop.game.board import describe
from tabletop.game.events import event_from_json

PLAYERS = ("Ann", "Bo", "Cy")


@pytest.mark.parametrize(("event", "words"), [
    ({"type": "game", "players": ["Ann", "Bo", "Cy"], "rules": {"preset": "party"}},
     "New game: Ann, Bo, Cy (party rules)"),
    ({"type": "deal", "dealer": 2}, "Cy dealt"),
    ({"type": "flip", "card": "green-draw-two"}, "Flipped green draw two"),
    ({"type": "play", "card": "wild-draw-four", "seat": 0}, "Ann played wild draw four"),
    ({"type": "play", "card": "red-9"}, "The player to play played red 9"),
    ({"type": "color", "color": "blue", "seat": 0}, "Ann named blue"),
    ({"type": "draw", "seat": 1, "count": 4}, "Bo drew 4 cards"),
    ({"type": "draw", "seat": 1}, "Bo drew 1 card"),
    ({"type": "pass", "seat": 1}, "Bo passed"),
    ({"type": "uno", "seat": 2}, "Cy called UNO"),
    ({"type": "catch", "seat": 0, "target": 2}, "Ann caught Cy without UNO"),
    ({"type": "challenge", "seat": 1}, "Bo challenged the wild draw four"),
    ({"type": "challenge", "seat": 1, "guilty": False}, "Bo challenged the wild draw four: not guilty"),
    ({"type": "challenge", "seat": 1, "guilty": True}, "Bo challenged the wild draw four: guilty"),
    ({"type": "reveal", "seat": 0, "cards": ["blue-3", "wild"]}, "Ann showed blue 3, wild"),
    ({"type": "points", "seat": 2, "points": 37}, "Cy's hand scored 37 points"),
    ({"type": "swap", "seat": 0, "with": 1}, "Ann swapped hands with Bo"),
    ({"type": "end", "seat": 1}, "Round over: Bo went out"),
    ({"type": "retract", "ref": 7}, "Undo #7"),
    ({"type": "amend", "ref": 4, "event": {"type": "play", "card": "red-1", "seat": 2}},
     "#4 was really: Cy played red 1"),
    ({"type": "insert", "ref": 9, "event": {"type": "draw", "seat": 0, "count": 2}},
     "Missed before #9: Ann drew 2 cards"),
])
def test_every_event_reads_as_a_sentence(event: dict[str, Any], words: str) -> None:
    text = describe(event_from_json(event), PLAYERS)
    assert text == words
    assert "False" not in text and "True" not in text and "-" not in text.split(": ")[-1]
