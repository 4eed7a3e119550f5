"""The watcher's observations written down as record lines: a take-back becomes the retract of its card's line.

Whoever keeps the record numbers its lines: a list for ``tabletop watch`` and the benchmarks, the table's game
thread for the table unit. ``Keep`` is that seam, so both write through the same recorder.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from tabletop.game.events import Event, Flip, Play, Retract, Unsure
from tabletop.watcher.watcher import Observation, TakeBack

Keep = Callable[[Event], Sequence[tuple[Event, int]]]
"""Writes an event into the record; the events that landed there by it, with their lines. That may be none (the
record refused it, or holds it back for now) or several (it let events held back before land with it)."""


class Recorder:
    """Keeps which of the record's lines laid a card, so that a take-back retracts the right one."""

    def __init__(self, keep: Keep) -> None:
        self.keep = keep
        self.laid: list[int] = []

    def add(self, item: Observation) -> None:
        """Write ``item`` down; a take-back with no card laid to take back is passed over."""
        if isinstance(item, TakeBack):
            if not self.laid:
                return
            event: Event = Retract(ref=self.laid.pop(), t=item.t, source="camera")
        else:
            event = item
        for landed, line in self.keep(event):
            if isinstance(landed, Play | Flip | Unsure):
                self.laid.append(line)


class Lines:
    """A record kept in a list and numbered from 0, for ``tabletop watch`` and for scoring the watcher."""

    def __init__(self, first: Sequence[Event] = ()) -> None:
        self.lines: list[Event] = list(first)

    def keep(self, event: Event) -> list[tuple[Event, int]]:
        self.lines.append(event)
        return [(event, len(self.lines) - 1)]
