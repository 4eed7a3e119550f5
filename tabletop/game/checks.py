"""The checks a value from outside passes before the game takes it, shared by the record's lines and the table's
settings: a whole number, a flag, the players' names, a table's rules.

Each returns the value as Python or raises ValueError saying what it must be ("must be true or false"); the one
who asked names the field ("'guilty'", ``game.players``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tabletop.game.rules import Rules

PLAYERS = range(2, 11)
"""How many players a game seats."""

Check = Callable[[Any], Any]
"""Turns a value from outside into Python; ValueError, in words, where it cannot."""


def whole(low: int = 0, high: int | None = None) -> Callable[[Any], int]:
    """A whole number of at least ``low`` and, where it is given, at most ``high``."""
    words = f"from {low} to {high}" if high is not None else f"({low} or more)"

    def check(value: Any) -> int:
        if (isinstance(value, bool) or not isinstance(value, int) or value < low
                or (high is not None and value > high)):
            raise ValueError(f"must be a whole number {words}")
        return value
    return check


def flag(value: Any) -> bool:
    if not isinstance(value, bool):
        raise ValueError("must be true or false")
    return value


def players(value: Any) -> tuple[str, ...]:
    """The players' names, in seat order: 2 to 10, none of them blank."""
    if (not isinstance(value, list) or len(value) not in PLAYERS
            or not all(isinstance(name, str) and name.strip() for name in value)):
        raise ValueError(f"must be a list of {PLAYERS.start} to {PLAYERS.stop - 1} names")
    return tuple(value)


def rules(value: Any) -> Rules:
    """A table's rules: an object of a preset and the options it changes."""
    if not isinstance(value, dict):
        raise ValueError("must be an object of options: a preset and the options it changes")
    return Rules.parse(value)
