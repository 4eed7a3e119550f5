"""Every error tabletop raises, in one catalogue under one root, as gpiozero keeps its own.

Catch ``TabletopError`` for anything the project reports; each error is also the builtin exception of its kind
(a ``ValueError`` for a bad value, an ``OSError`` for a file or a device, a ``LookupError`` for something not
there, a ``RuntimeError`` for a thread that does not answer), so code that knows nothing of tabletop catches it
too. Only the standard library is imported here: the pure game raises from this module as well.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tabletop.watcher.calibrate import Suspect


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


class ConfigError(TabletopError, ValueError):
    """A setting that is unknown or has a bad value; the message names it."""


class LayoutError(TabletopError, ValueError):
    """A table layout (from a file or the config) that is missing a key or has a bad value; names the key."""


class FacesError(TabletopError, ValueError):
    """A folder of card photographs that cannot be filmed: the message names the folder, file or line."""


class ModelError(TabletopError, OSError):
    """A network file (the card model, the finder, the index finder) or the doctor's test picture that is missing
    or is not what it should be."""


class SourceError(TabletopError, OSError):
    """A frame source could not be opened or stopped giving frames."""


class StoreError(TabletopError, OSError):
    """The game log cannot be opened or written."""


class PictureError(TabletopError, OSError):
    """A picture that cannot be written where asked."""


class HistoryError(TabletopError, LookupError):
    """A game the log does not hold, or a line of one where the camera read no card."""


class TableError(TabletopError, RuntimeError):
    """The table's thread is not running, or did not answer in time."""


class CalibrationError(TabletopError, RuntimeError):
    """The table could not be measured from the pictures; the message says what to do instead.

    ``suspects`` are the card-shaped things that were seen and not taken for the deck, so that a picture can
    show them.
    """

    def __init__(self, message: str, suspects: Sequence[Suspect] = ()) -> None:
        super().__init__(message)
        self.suspects = tuple(suspects)
