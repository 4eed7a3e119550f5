"""The host's window on the camera: a live preview with the zones drawn over it, and moving the zones.

The camera belongs to the watcher's thread (only one process, and one thread, may hold it); it keeps its
latest picture where the web server can read it. The preview streams that picture as MJPEG, which every
browser shows in a plain ``<img>``.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Protocol

from tabletop.watcher.layout import TableLayout

BOUNDARY = "frame"
PREVIEW_FPS = 8.0
"""Enough to see hands move while dragging zones; more would only load the Pi."""


class CameraView(Protocol):
    """What the web server may see of the camera."""

    @property
    def size(self) -> tuple[int, int]:
        """Width and height of the camera's pictures, in pixels: the layout's coordinates."""

    @property
    def layout(self) -> TableLayout: ...

    def move_zones(self, layout: TableLayout) -> None:
        """Watch the table with ``layout`` from the next picture on."""

    def preview(self) -> bytes | None:
        """The latest picture as JPEG with the zones drawn over it; None until the first picture."""


def mjpeg(camera: CameraView, running: Iterator[bool], fps: float = PREVIEW_FPS) -> Iterator[bytes]:
    """The preview as parts of a ``multipart/x-mixed-replace`` response, while ``running`` says so.

    A browser shows a part only once the next one begins, so an unchanged picture is sent again every second:
    a camera that stopped still shows its last picture.
    """
    last: bytes | None = None
    sent = 0.0
    for _ in running:
        jpeg = camera.preview()
        if jpeg is not None and (jpeg is not last or time.monotonic() - sent >= 1.0):
            last, sent = jpeg, time.monotonic()
            yield (f"--{BOUNDARY}\r\nContent-Type: image/jpeg\r\nContent-Length: {len(jpeg)}\r\n\r\n".encode()
                   + jpeg + b"\r\n")
        time.sleep(1 / fps)
