"""The camera's thread: frames in, the watcher's observations handed on, the latest picture kept for the host.

This is the one place that holds the camera. Frames are watched as for ``tabletop watch`` (one
:class:`~tabletop.watcher.stream.Watching`); what is seen is handed to ``deliver`` (on the table unit,
``camera_inbox.CameraInbox.deliver``, which writes it into the table's record on the table's thread), and the
thread goes on to the next picture: nothing comes back to it. The latest picture is kept so that the host's
preview needs no second hold on the camera. Whatever goes wrong is kept as a ``problem`` in plain words for the
host page, never a traceback on a thread nobody watches.
"""

from __future__ import annotations

import dataclasses
import threading
from collections.abc import Callable

from tabletop.errors import CalibrationError, LayoutError, SourceError, TabletopError
from tabletop.reporting import Report
from tabletop.sources import Frame, FrameSource
from tabletop.sources.files import SMALLEST_SIDE
from tabletop.sources.reopen import Reopening
from tabletop.vision.model import CardReader
from tabletop.watcher.calibrate import even_seats
from tabletop.watcher.layout import Circle, Layout, Rect
from tabletop.watcher.stream import Watching, zones_for
from tabletop.watcher.watcher import Observation


class CameraWatch:
    """Watches ``source`` on its own thread and hands what it sees to ``deliver``, which must return at once.

    Without a layout, the zones are measured on the first picture, or placed in the middle for the host to drag
    into place. ``report`` hears about trouble (a misread record, a failed calibration, play seen and no card
    read, a source that fails) in plain words. A live camera should come reopening (see
    :func:`tabletop.sources.open.watched_source`), so that only a file or a fault in the code ends the watch.
    """

    def __init__(self, source: FrameSource, deliver: Callable[[Observation], None], model: CardReader,
                 layout: Layout | None = None, players: int = 4, report: Report = print,
                 moved: Callable[[Layout], None] = lambda _: None) -> None:
        self.source, self.deliver, self.model, self.report, self.moved = source, deliver, model, report, moved
        self._layout, self._players = layout, players
        self._watching = Watching(model, self._calibrated, self._unread)
        self._frame: Frame | None = None
        self._problem: str | None = None
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

    @property
    def frame(self) -> Frame | None:
        """The latest frame that could be watched, without its large picture; None before the first."""
        return self._frame

    def move_zones(self, layout: Layout) -> None:
        """Watch with ``layout`` from the next frame: the watcher starts afresh on the table as it is now.
        ``moved`` hears of it (the table unit saves the host's zones, so that they outlive a restart)."""
        self._layout = layout
        self._watching.start_afresh()
        self.moved(layout)

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
            seen = self._watching.observe(frame)
        except Exception as err:
            self._trouble(f"a picture could not be watched ({_described(err)})")
            return
        self._frame, self._problem = dataclasses.replace(frame, detail=None), None
        for item in seen:
            self.deliver(item)

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
