"""The watcher's observations written down as a game record: numbered lines, take-backs turned into retracts."""

from __future__ import annotations

from tabletop.game.events import Event, Flip, Play, Retract, Unsure
from tabletop.watcher.watcher import Observation, TakeBack


class Recorder:
    """Keeps the record's lines, and which of them laid a card, so that a take-back retracts the right one."""

    def __init__(self) -> None:
        self.lines: list[Event] = []
        self.laid: list[int] = []

    def add(self, item: Observation) -> Event | None:
        """The event as recorded (None for a take-back with no card to take back)."""
        if isinstance(item, TakeBack):
            if not self.laid:
                return None
            event: Event = Retract(ref=self.laid.pop(), t=item.t, source="camera")
        else:
            event = item
            if isinstance(event, (Play, Flip, Unsure)):
                self.laid.append(len(self.lines))
        self.lines.append(event)
        return event
