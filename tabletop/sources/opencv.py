"""A USB webcam through OpenCV: the camera for a laptop, or for a Pi without its own camera module."""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable, Iterator
from typing import Any

import cv2
import numpy as np

from tabletop.errors import SourceError
from tabletop.sources import Frame, shrunk

SETTLE_FRAMES = 30
"""Frames (about a second) a webcam's automatic exposure and white balance need to find the table's light."""
V4L2_MANUAL_EXPOSURE = 1
"""What Linux's V4L2 backend takes for CAP_PROP_AUTO_EXPOSURE to mean 'manual'; other backends may differ."""


class OpenCVCamera:
    """OpenCV camera number ``index``, asked for ``width`` x ``height`` pictures (the camera may pick another size).

    Webcams give their largest pictures over USB only compressed (MJPEG), so that is asked for too. A picture
    wider than the watcher moves on is shrunk for it and kept whole as the frame's detail, to read cards from.
    """

    live = True

    def __init__(self, index: int = 0, width: int = 1920, height: int = 1080) -> None:
        self.index = index
        self.width = width
        self.height = height
        self.name = f"camera {index}"
        self._capture: Any = None
        self._lock_after: int | None = None

    def frames(self) -> Iterator[Frame]:
        capture = self._open()
        start = time.monotonic()
        try:
            for count in itertools.count(1):
                yield shrunk(self._read(capture), time.monotonic() - start)
                self._lock_if_due(capture, count)
        finally:
            self.close()

    def lock(self, after: int = SETTLE_FRAMES) -> None:
        """Fix exposure and white balance once ``after`` frames have settled them, so colours hold still.

        Card colours are told apart by hue, and a camera that re-balances whenever a hand covers the table shifts
        them. Best effort: the settings are applied where the backend and the camera accept them and silently
        left alone where not; a camera reopened later starts unlocked again.
        """
        self._lock_after = after

    def close(self) -> None:
        if self._capture is not None:
            self._capture.release()
            self._capture = None

    def _open(self) -> Any:
        self._capture = _quietly(lambda: cv2.VideoCapture(self.index))
        if not self._capture.isOpened():
            self.close()
            raise SourceError(f"{self.name} cannot be opened (is it plugged in and not used by another program?)")
        self._capture.set(cv2.CAP_PROP_FOURCC, cv2.VideoWriter.fourcc(*"MJPG"))
        self._capture.set(cv2.CAP_PROP_FRAME_WIDTH, self.width)
        self._capture.set(cv2.CAP_PROP_FRAME_HEIGHT, self.height)
        return self._capture

    def _read(self, capture: Any) -> np.ndarray:
        ok, image = capture.read()
        if not ok:
            raise SourceError(f"{self.name} stopped giving pictures (is it still plugged in?)")
        return np.asarray(image)

    def _lock_if_due(self, capture: Any, count: int) -> None:
        if self._lock_after is not None and count >= self._lock_after:
            self._lock_after = None
            _hold_exposure_and_balance(capture)


def _hold_exposure_and_balance(capture: Any) -> None:
    """Write back the values the automatics chose, as switching them off may otherwise fall back to defaults."""
    exposure = capture.get(cv2.CAP_PROP_EXPOSURE)
    temperature = capture.get(cv2.CAP_PROP_WB_TEMPERATURE)
    capture.set(cv2.CAP_PROP_AUTO_EXPOSURE, V4L2_MANUAL_EXPOSURE)
    capture.set(cv2.CAP_PROP_EXPOSURE, exposure)
    capture.set(cv2.CAP_PROP_AUTO_WB, 0)
    capture.set(cv2.CAP_PROP_WB_TEMPERATURE, temperature)


def _quietly(make: Callable[[], Any]) -> Any:
    """``make()`` with OpenCV's own warnings held back: a camera that cannot be opened is told once, in
    tabletop's words (the SourceError), not also in OpenCV's ``[ WARN ]`` lines on every try."""
    logging = cv2.utils.logging
    before = logging.getLogLevel()
    logging.setLogLevel(logging.LOG_LEVEL_ERROR)
    try:
        return make()
    finally:
        logging.setLogLevel(before)
