"""The camera's thread: frames in, the watcher's events posted to the table, the latest picture kept for the host.

This is the one place that holds the camera. Frames become record lines as for ``tabletop watch`` (one
:class:`~tabletop.watcher.stream.Recording`); this adapter gives that a thread, writes into the table's record
(so a take-back retracts the line the table gave its card), and keeps the latest picture so that the host's
preview needs no second hold on the camera. Whatever goes wrong there is kept as a ``problem`` in plain words
for the host page, never a traceback on a thread nobody watches.
"""

from __future__ import annotations

import dataclasses
import threading
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import cv2

from tabletop.errors import CalibrationError, LayoutError, RecordCode, RecordError, SourceError, TabletopError
from tabletop.game.events import Deal, Event
from tabletop.sources import Frame, FrameSource
from tabletop.sources.files import SMALLEST_SIDE
from tabletop.sources.reopen import Reopening
from tabletop.table import Table
from tabletop.vision.model import CardReader
from tabletop.watcher.calibrate import even_seats
from tabletop.watcher.layout import Circle, Layout, Rect, write_layout
from tabletop.watcher.picture import draw_zones
from tabletop.watcher.stream import Recording, zones_for
from tabletop.watcher.watcher import Observation


class CameraWatch:
    """Watches ``source`` on its own thread and posts what it sees to ``table``.

    Without a layout, the zones are measured on the first picture, or placed in the middle for the host to drag
    into place. ``report`` hears about trouble (a misread record, a failed calibration, play seen and no card
    read, a source that fails) in plain words. A live camera should come reopening (see
    :func:`tabletop.sources.open.watched_source`), so that only a file or a fault in the code ends the watch.
    """

    def __init__(self, source: FrameSource, table: Table, model: CardReader, layout: Layout | None = None,
                 players: int = 4, report: Callable[[str], None] = print, keep: Path | None = None) -> None:
        self.source, self.table, self.model, self.report, self.keep = source, table, model, report, keep
        self._layout, self._players = layout, players
        self._recording = Recording(model, self._submit, self._calibrated, self._unread)
        self._frame: Frame | None = None
        self._problem: str | None = None
        self._jpeg: tuple[Frame | None, Layout | None, bytes | None] = (None, None, None)
        self._held: list[Event] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="camera", daemon=True)

    @property
    def size(self) -> tuple[int, int]:
        frame = self._frame
        if frame is None:
            return 640, 480
        height, width = frame.image.shape[:2]
        return width, height

    @property
    def problem(self) -> str | None:
        """Why there are no pictures, or why they cannot be watched, in plain words; None while all is well.

        A reopening camera's own trouble (unplugged, tried again in a few seconds) shows here too, so that the
        host page can say why it is blind.
        """
        if self._problem is None and isinstance(self.source, Reopening):
            return self.source.problem
        return self._problem

    @property
    def layout(self) -> Layout:
        return self._layout or starting_layout(self.size, self._players)

    def move_zones(self, layout: Layout) -> None:
        """Watch with ``layout`` from the next frame: the watcher starts afresh on the table as it is now.

        With ``keep``, the layout is saved there too, so the host's zones outlive a restart.
        """
        self._layout = layout
        self._recording.start_afresh()
        if self.keep is not None:
            write_layout(layout, self.keep)

    def preview(self) -> bytes | None:
        """The latest picture with the zones drawn, as JPEG; encoded once however many are watching."""
        frame, layout = self._frame, self._layout
        cached_frame, cached_layout, jpeg = self._jpeg
        if frame is None or (frame is cached_frame and layout is cached_layout):
            return jpeg
        picture = draw_zones(frame.image, self.layout)
        jpeg = cv2.imencode(".jpg", picture, [cv2.IMWRITE_JPEG_QUALITY, 70])[1].tobytes()
        self._jpeg = (frame, layout, jpeg)
        return jpeg

    def start(self) -> CameraWatch:
        self._thread.start()
        return self

    def wait(self, timeout: float | None = None) -> bool:
        """Wait for the source to run out (a video's end) or fail, or for ``timeout`` seconds; whether it has."""
        self._thread.join(timeout)
        return not self._thread.is_alive()

    def close(self) -> None:
        self._stop.set()
        self._thread.join(timeout=5)
        self.source.close()

    def _run(self) -> None:
        """The camera's thread ends without a traceback whatever the source does: its trouble is told and kept
        as ``problem``, an unforeseen one with its type, since a thread's traceback reaches no host page."""
        try:
            for frame in self.source.frames():
                if self._stop.is_set():
                    return
                self._see(frame)
                del frame
        except Exception as err:
            self._trouble(f"{_described(err)} (watching stopped)")

    def _see(self, frame: Frame) -> None:
        """Watch one picture. One that cannot be watched is told and passed over, the next may well do; the
        preview keeps the last picture that could, without its large picture: a Pi has no memory to spare for
        a second one nobody reads."""
        try:
            seen = self._recording.observe(frame)
        except Exception as err:
            self._trouble(f"a picture could not be watched ({_described(err)})")
            return
        self._frame, self._problem = dataclasses.replace(frame, detail=None), None
        for item in seen:
            self.post(item)

    def post(self, item: Observation) -> None:
        """Write one observation into the table's record, as the camera's own are."""
        self._recording.recorder.add(item)

    def _trouble(self, problem: str) -> None:
        """Keep ``problem`` for the host page and tell it once, not again for every picture it spoils."""
        if problem != self._problem:
            self.report(f"camera: {problem}")
        self._problem = problem

    def _unread(self, warning: str) -> None:
        self.report(f"camera: {warning}: check the zones on the host page, the light and the camera")

    def _calibrated(self, frame: Frame) -> Layout:
        """The zones for ``frame``'s picture: those given, fitted to its size, else measured on it, else placed in
        the middle for the host to drag."""
        height, width = frame.image.shape[:2]
        if min(width, height) < SMALLEST_SIDE:
            raise SourceError(f"a {width}x{height} picture is too small to watch")
        try:
            self._layout = zones_for(frame, self._layout, self._players, self.model)
        except (CalibrationError, LayoutError) as err:
            self.report(f"camera: {err}; drag the zones into place on the host page")
            self._layout = starting_layout((width, height), self._players)
        return self._layout

    def _submit(self, event: Event) -> list[tuple[Event, int]]:
        """Hand one event to the table, the camera's frame time giving way to the game's clock; the events that
        landed, with the lines the table gave them.

        A card or a draw seen before the round's first card is confirmed (the host has yet to say what an
        unsure first card was) is held, and posted in order once the round is open: nothing seen is lost. What is
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
                landed.append((held, self.table.submit(held).ref))
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


def _described(err: Exception) -> str:
    """A trouble of tabletop's own in its words; an unforeseen one on one line, its type named in full, as
    ``cv2.error: ...`` says more than ``error: ...``."""
    if isinstance(err, TabletopError):
        return str(err)
    kind = type(err)
    name = kind.__qualname__ if kind.__module__ == "builtins" else f"{kind.__module__}.{kind.__qualname__}"
    return f"{name}: {' '.join(str(err).split())}"


def starting_layout(size: tuple[int, int], players: int) -> Layout:
    """Zones in the middle of the picture, sized for a camera about 70 cm above the table: a start to drag."""
    width, height = size
    card = height * 0.18
    cx, cy = width / 2, height / 2
    return Layout(discard=Circle((cx + card, cy - card * 0.3), card * 0.85),
                  draw=Circle((cx - card, cy - card * 0.3), card * 0.7),
                  reveal=Rect(width * 0.15, cy + card * 0.6, width * 0.85, height * 0.95),
                  centre=(cx, cy), seats=even_seats(players), card_height=card, picture=size)
