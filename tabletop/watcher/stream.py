"""Frames in, record lines out: the one path from a camera to a game record.

``tabletop watch`` prints what it records (:class:`Recording`); the table unit's camera thread (``camera``)
watches the same way (:class:`Watching`: the zones measured on the first frame unless given, then the watcher)
and hands what it sees to the table's thread, where the same recorder turns take-backs into retracts
(``tabletop.camera_inbox``).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Iterator

from tabletop.game.events import Event, Game
from tabletop.reporting import Report, quiet
from tabletop.sources import Frame
from tabletop.vision.model import CardReader
from tabletop.watcher.calibrate import find_layout
from tabletop.watcher.layout import Layout, fitted
from tabletop.watcher.recorder import Keep, Lines, Recorder
from tabletop.watcher.watcher import Observation, Watcher


class Watching:
    """Watches frames: the zones laid on the first (``zones`` gives them: given, measured, or a start for the host
    to drag), the watcher on every one. ``report`` hears, once, of play seen and no card read (see ``UnreadPlay``):
    the record alone cannot say it."""

    def __init__(self, model: CardReader, zones: Callable[[Frame], Layout],
                 report: Report = quiet) -> None:
        self.model, self.zones, self.report = model, zones, report
        self._watcher: Watcher | None = None

    def observe(self, frame: Frame) -> list[Observation]:
        """What the watcher makes of ``frame``, the zones laid on the first."""
        if self._watcher is None:
            self._watcher = Watcher(self.zones(frame), self.model, frame.image.shape[:2], self.report)
        return self._watcher.observe(frame)

    def start_afresh(self) -> None:
        """Lay the zones again on the next frame and watch the table as it is then (the host moved them)."""
        self._watcher = None


class Recording(Watching):
    """Watches frames and writes what it sees through ``keep``, take-backs as retracts."""

    def __init__(self, model: CardReader, keep: Keep, zones: Callable[[Frame], Layout],
                 report: Report = quiet) -> None:
        super().__init__(model, zones, report)
        self.recorder = Recorder(keep)

    def see(self, frame: Frame) -> None:
        """Observe ``frame`` and write down what it shows."""
        for item in self.observe(frame):
            self.recorder.add(item)


def zones_for(frame: Frame, layout: Layout | None, players: int, model: CardReader) -> Layout:
    """The zones given, fitted to the frame's picture (LayoutError where it has another shape), else measured on
    it (CalibrationError where it cannot be)."""
    if layout is None:
        return find_layout(frame, players, model)
    height, width = frame.image.shape[:2]
    return fitted(layout, (width, height))


def watch(frames: Iterable[Frame], game: Game, model: CardReader, layout: Layout | None = None,
          report: Report = quiet) -> Iterator[Event]:
    """The record of the game watched in ``frames``, line by line; without ``layout`` the table is measured on
    the first frame. The first frame is taken before the ``game`` line is given, so that a source that cannot
    be read says so before any record begins."""
    record = Lines([game])
    recording = Recording(model, record.keep, lambda frame: zones_for(frame, layout, len(game.players), model),
                          report)
    frames = iter(frames)
    first = next(frames, None)
    yield game
    for frame in itertools.chain([first] if first is not None else [], frames):
        written = len(record.lines)
        recording.see(frame)
        yield from record.lines[written:]
