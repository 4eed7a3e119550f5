"""The Raspberry Pi's own camera module, through picamera2.

picamera2 comes with the Pi's operating system and needs libcamera even to be imported, so it is imported only
when the camera opens: the rest of tabletop, and its tests, run on any machine.
"""

from __future__ import annotations

import importlib
import itertools
import time
from collections.abc import Iterator
from contextlib import contextmanager
from types import ModuleType
from typing import Any

import cv2
import numpy as np

from tabletop.errors import SourceError
from tabletop.sources import Frame, Sharp

Size = tuple[int, int]
"""Width and height in pixels, the order picamera2 takes them in."""
MAIN = (2304, 1296)
"""The main stream: the Camera Module 3's full field of view binned, to read cards from."""
LORES = (768, 432)
"""The small stream beside it, a third the size each way, for the watcher to move on."""

SETTLE_FRAMES = 30
"""Frames (about a second) the automatic exposure and white balance need to find the table's light."""
INSTALL_HINT = (
    "picamera2 is not available to this Python. On the Raspberry Pi, install it with "
    "'sudo apt install python3-picamera2' and create the virtualenv with --system-site-packages so it can see it"
)


class PiCamera:
    """The Pi camera: ``size`` pictures on its main stream and, when ``lores`` is given, smaller ones beside them.

    With both, a frame's picture is the small one, which the camera's image processor shrinks for free (shrinking
    it in Python would cost part of each frame's budget), and its detail the main one, taken at the same moment:
    motion is found in the small picture, cards are read in the large one. Without ``lores`` a frame is the main
    picture alone.
    """

    live = True

    def __init__(self, size: Size = MAIN, lores: Size | None = LORES) -> None:
        if lores is not None and (lores[0] > size[0] or lores[1] > size[1]):
            raise ValueError("the lores stream must be no larger than the main one")
        self.size = size
        self.lores = lores
        self.name = "Pi camera"
        self._camera: Any = None
        self._lock_after: int | None = None

    def frames(self) -> Iterator[Frame]:
        try:
            camera = self._open()
            start = time.monotonic()
            for count in itertools.count(1):
                yield self._capture(camera, time.monotonic() - start)
                self._lock_if_due(camera, count)
        finally:
            self.close()

    def lock(self, after: int = SETTLE_FRAMES) -> None:
        """Fix exposure and white balance at what they settled on after ``after`` frames, so colours hold still.

        Card colours are told apart by hue, and a camera that re-balances whenever a hand covers the table shifts
        them. A camera reopened later starts unlocked again.
        """
        self._lock_after = after

    def close(self) -> None:
        camera, self._camera = self._camera, None
        if camera is not None:
            with _blamed_on_camera("the Pi camera could not be closed"):
                camera.close()

    def _open(self) -> Any:
        picamera2 = _import_picamera2()
        with _blamed_on_camera("the Pi camera could not be opened (is its ribbon cable seated?)"):
            self._camera = picamera2.Picamera2()
            self._camera.configure(self._configuration(self._camera))
            self._camera.start()
        return self._camera

    def _configuration(self, camera: Any) -> Any:
        """RGB888 is laid out B, G, R by picamera2: OpenCV's own order, so the main stream needs no conversion.

        The small stream is asked for as YUV420 because a Pi 4 or older cannot give it in RGB (a Pi 5 can).
        """
        lores = None if self.lores is None else {"size": self.lores, "format": "YUV420"}
        return camera.create_video_configuration(main={"size": self.size, "format": "RGB888"}, lores=lores)

    def _capture(self, camera: Any, t: float) -> Frame:
        """One frame: both streams from one request, so that the detail is the same moment as the picture."""
        with _blamed_on_camera("the Pi camera stopped giving pictures"):
            if self.lores is None:
                return Frame(camera.capture_array("main"), t)
            (main, small), _ = camera.capture_arrays(["main", "lores"])
        return Frame(_bgr_from_yuv420(small, self.lores[0]), t, Sharp(main, self.size[0] / self.lores[0]))

    def _lock_if_due(self, camera: Any, count: int) -> None:
        if self._lock_after is not None and count >= self._lock_after:
            self._lock_after = None
            with _blamed_on_camera("the Pi camera could not fix its exposure and white balance"):
                _hold_exposure_and_balance(camera)


def _import_picamera2() -> ModuleType:
    try:
        return importlib.import_module("picamera2")
    except ImportError as error:
        raise SourceError(INSTALL_HINT) from error


@contextmanager
def _blamed_on_camera(what: str) -> Iterator[None]:
    """picamera2 and libcamera raise all sorts (RuntimeError, IndexError, OSError...); all mean the camera failed."""
    try:
        yield
    except Exception as error:
        raise SourceError(f"{what} ({type(error).__name__}: {error})") from error


def _bgr_from_yuv420(yuv: np.ndarray, width: int) -> np.ndarray:
    """picamera2 hands YUV420 rows over padded to the buffer's stride; the padding is cut off after conversion."""
    bgr: np.ndarray = cv2.cvtColor(yuv, cv2.COLOR_YUV2BGR_I420)
    return np.ascontiguousarray(bgr[:, :width])


def _hold_exposure_and_balance(camera: Any) -> None:
    settled = camera.capture_metadata()
    camera.set_controls({
        "AeEnable": False,
        "AwbEnable": False,
        "ExposureTime": settled["ExposureTime"],
        "AnalogueGain": settled["AnalogueGain"],
        "ColourGains": settled["ColourGains"],
    })
