"""The one exception root of tabletop, so callers can catch everything the project raises."""

from enum import StrEnum


class TabletopError(Exception):
    """Anything tabletop reports as an error of its own."""


class RecordCode(StrEnum):
    """Why a line cannot stand in a record, for code that acts on it: the message is for people and may change."""

    MALFORMED = "malformed"
    """Not an event of docs/record.md, whatever comes before it."""
    NO_GAME = "no-game"
    """Anything before the record's first ``game`` line."""
    ROUND_NOT_OPEN = "round-not-open"
    """A play or draw before the round's first ``flip``: it may stand once the round is open."""
    NO_SUCH_SEAT = "no-such-seat"
    """A seat the game does not have."""
    BAD_CORRECTION = "bad-correction"
    """A ``retract`` or ``amend`` that points at a line it cannot change."""


class RecordError(TabletopError, ValueError):
    """A game record or an event that does not follow docs/record.md.

    ``line`` counts from 1, as an editor does, so the message points a person at the right line; ``code`` says
    what kind of problem it is, for code that decides what to do about it.
    """

    def __init__(self, reason: str, line: int | None = None, *, code: RecordCode) -> None:
        self.reason = reason
        self.line = line
        self.code = code
        super().__init__(reason if line is None else f"line {line}: {reason}")
