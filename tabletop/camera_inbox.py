"""What the camera sees, written into the table's record on the table's own thread.

The camera's thread hands each observation over and goes on to the next picture: a frame travels one way, from the
source through the watcher to the table, and the camera never waits on the game. Here, on the table's thread and
in the order seen, each observation is written down: a take-back retracts the line the table gave its card, a
card or a draw seen before the round is open is held until it is, and what cannot be recorded is told.
"""

from __future__ import annotations

import dataclasses
from collections import Counter

from tabletop.errors import RecordCode, RecordError, TableError, TabletopError
from tabletop.game.events import Deal, Event
from tabletop.reporting import Report
from tabletop.table import Table
from tabletop.watcher.recorder import Recorder
from tabletop.watcher.watcher import Observation


class CameraInbox:
    """Takes the camera's observations for ``table``; ``report`` hears, in plain words, of what was not recorded."""

    def __init__(self, table: Table, report: Report = print) -> None:
        self.table, self.report = table, report
        self._game = table.snapshot.game_number
        self._recorder = Recorder(self._keep)
        self._held: list[Event] = []

    def deliver(self, item: Observation) -> None:
        """Hand ``item`` to the table's thread and return at once (the camera's thread calls this)."""
        try:
            self.table.call(lambda: self._take(item))
        except TableError as err:
            self.report(f"camera: what was seen is not recorded: {err}")

    def _take(self, item: Observation) -> None:
        """Write ``item`` down; the cards laid and held in a game the table has since left are forgotten, so that a
        take-back in a new game retracts nothing of it."""
        game = self.table.snapshot.game_number
        if game != self._game:
            self._game, self._recorder, self._held = game, Recorder(self._keep), []
        self._recorder.add(item)

    def _keep(self, event: Event) -> list[tuple[Event, int]]:
        """Apply one event, the camera's frame time giving way to the game's clock; the events that landed, with
        their lines.

        A card or a draw seen before the round's first card is confirmed (the host has yet to say what an
        unsure first card was) is held, and applied in order once the round is open: nothing seen is lost. What is
        still held when the next deal is seen was seen before any round began (a deal taken for a draw): it is
        told and set aside, or it would hold up the new round's every event behind it.
        """
        if isinstance(event, Deal) and self._held:
            self.report(f"camera: {_counted(self._held)} seen before the deal set aside: no round was open for it")
            self._held.clear()
        self._held.append(dataclasses.replace(event, t=None))
        landed: list[tuple[Event, int]] = []
        while self._held:
            held = self._held[0]
            try:
                landed.append((held, self.table.apply(held).ref))
            except RecordError as err:
                if err.code is RecordCode.ROUND_NOT_OPEN:
                    break
                self.report(f"camera: {held.TYPE} not recorded: {err}")
            except TabletopError as err:
                self.report(f"camera: {held.TYPE} not recorded: {err}")
            self._held.pop(0)
        return landed


def _counted(events: list[Event]) -> str:
    """``events`` in words: "a draw", "2 plays and a draw"."""
    kinds = Counter(event.TYPE for event in events)
    return " and ".join(f"a {kind}" if count == 1 else f"{count} {kind}s" for kind, count in sorted(kinds.items()))
