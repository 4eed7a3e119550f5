"""The host's window on the camera: a live preview with the zones drawn over it, and moving the zones.

The camera belongs to the watcher's thread (only one process, and one thread, may hold it); it keeps its
latest frame where the web server can read it. The preview draws the zones on that frame, encodes it once however
many are watching (``Preview``) and streams it as MJPEG, which every browser shows in a plain ``<img>``; while
there is no picture, or the camera is in trouble, it streams a picture that says so, since an ``<img>`` can show
nothing else.
"""

from __future__ import annotations

import functools
import textwrap
import time
from collections.abc import Iterator
from typing import Protocol

import cv2
import numpy as np

from tabletop.sources import Frame
from tabletop.watcher.layout import Layout
from tabletop.watcher.picture import draw_zones
from tabletop.web.gate import Body

BOUNDARY = "frame"
PREVIEW_FPS = 8.0
"""Enough to see hands move while dragging zones; more would only load the Pi."""
NO_PICTURE_YET = "no picture from the camera yet"
NOTICE_WIDTH, LINE_HEIGHT = 640, 28
"""The size of the picture that says what is wrong, and of its lines of (about 48) characters."""


class CameraView(Protocol):
    """What the web server may see of the camera."""

    @property
    def size(self) -> tuple[int, int]:
        """Width and height of the camera's pictures, in pixels: the layout's coordinates."""

    @property
    def layout(self) -> Layout: ...

    @property
    def problem(self) -> str | None:
        """Why there are no pictures, or why they cannot be watched, in plain words; None while all is well."""

    @property
    def frame(self) -> Frame | None:
        """The latest frame the camera could watch; None until the first."""

    def move_zones(self, layout: Layout) -> None:
        """Watch the table with ``layout`` from the next picture on."""


class Preview:
    """The camera's latest picture with its zones drawn, as JPEG: encoded once per picture and layout, however many
    phones are watching."""

    def __init__(self, camera: CameraView) -> None:
        self.camera = camera
        self._kept: tuple[Frame | None, Layout | None, bytes | None] = (None, None, None)

    def jpeg(self) -> bytes | None:
        """None until the camera's first picture."""
        frame, layout = self.camera.frame, self.camera.layout
        kept_frame, kept_layout, jpeg = self._kept
        if frame is None or (frame is kept_frame and layout == kept_layout):
            return jpeg
        jpeg = cv2.imencode(".jpg", draw_zones(frame.image, layout), [cv2.IMWRITE_JPEG_QUALITY, 70])[1].tobytes()
        self._kept = (frame, layout, jpeg)
        return jpeg


def mjpeg(preview: Preview, running: Iterator[bool], fps: float = PREVIEW_FPS) -> Body:
    """The preview as parts of a ``multipart/x-mixed-replace`` response, while ``running`` says so.

    A browser shows a part only once the next one begins, so an unchanged picture is sent again every second:
    a camera that stopped still shows its last picture, unless it has said what went wrong.
    """
    last: bytes | None = None
    sent = 0.0
    for _ in running:
        jpeg = _shown(preview)
        if jpeg is not last or time.monotonic() - sent >= 1.0:
            last, sent = jpeg, time.monotonic()
            yield (f"--{BOUNDARY}\r\nContent-Type: image/jpeg\r\nContent-Length: {len(jpeg)}\r\n\r\n".encode()
                   + jpeg + b"\r\n")
        time.sleep(1 / fps)


def _shown(preview: Preview) -> bytes:
    """The camera's trouble, if it has one, rather than the picture it had before."""
    problem = preview.camera.problem
    jpeg = None if problem else preview.jpeg()
    return jpeg if jpeg is not None else notice(problem or NO_PICTURE_YET, preview.camera.size)


@functools.lru_cache(maxsize=8)
def notice(text: str, size: tuple[int, int]) -> bytes:
    """``text`` written on a dark picture of the camera's shape, as JPEG, so that the zones over it stay in place;
    640 pixels wide whatever the camera's size, so that the words stay readable. Each text is drawn once."""
    height = max(1, round(NOTICE_WIDTH * size[1] / size[0]))
    picture = np.full((height, NOTICE_WIDTH, 3), 40, np.uint8)
    lines = textwrap.wrap(text, 48)
    top = (height - LINE_HEIGHT * len(lines)) // 2 + LINE_HEIGHT
    for k, line in enumerate(lines):
        cv2.putText(picture, line, (32, top + k * LINE_HEIGHT), cv2.FONT_HERSHEY_SIMPLEX, 0.6, (235, 235, 235), 1,
                    cv2.LINE_AA)
    return bytes(cv2.imencode(".jpg", picture, [cv2.IMWRITE_JPEG_QUALITY, 80])[1].tobytes())
