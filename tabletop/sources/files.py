"""Recorded tables: a video file or a folder of pictures, played back as if a camera were watching.

They let the referee be tried, timed and tested on the same footage every run. Their times come from the
frame count, not the clock, so a slow machine sees the same game as a fast one.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from tabletop.errors import SourceError
from tabletop.sources import Frame

SMALLEST_SIDE = 32
"""The fewest pixels a picture's short side may have: the watcher shrinks it fourfold to look for arms."""
SHORT_BY = 0.1
"""The share of its stated frames a video may end short of: counts estimated from the duration are a few frames
out, never a tenth; more is a file that could not be decoded to its end."""
IMAGE_SUFFIXES = frozenset({".jpg", ".jpeg", ".png", ".bmp"})
"""Picture files an image folder plays; anything else there (notes, a README) is left alone."""


class VideoFile:
    """A video played from its first frame to its last; ``fps`` replaces the rate the file states."""

    live = False

    def __init__(self, path: str | Path, fps: float | None = None) -> None:
        self.path = Path(path)
        self.fps = fps
        self.name = f"video {self.path}"
        self._capture: Any = None

    def frames(self) -> Iterator[Frame]:
        """Raise rather than end quietly when nothing at all can be read, or when the video breaks off well
        before the end it states, so a wrong or damaged file is not a silent game (or half of one)."""
        capture = self._open()
        try:
            fps = self.fps or _stated_fps(capture, self.path)
            stated = float(capture.get(cv2.CAP_PROP_FRAME_COUNT))
            read = 0
            for read, image in enumerate(_images_of(capture), 1):
                if read == 1:
                    _check_size(image, str(self.path))
                yield Frame(image, (read - 1) / fps)
            self._check_end(read, stated)
        finally:
            self.close()

    def close(self) -> None:
        if self._capture is not None:
            self._capture.release()
            self._capture = None

    def _check_end(self, read: int, stated: float) -> None:
        """Raise when fewer than nine tenths (``1 - SHORT_BY``) of the frames the video states were decoded: it is
        damaged or was cut short, and OpenCV's ``read`` just stops early, as at a true end.

        A smaller shortfall passes, since some containers state a count worked out from the duration, a few
        frames out; a video that states no count (0, less, or not a number) is not checked.
        """
        if read == 0:
            raise SourceError(f"no pictures could be read from the video {self.path}")
        if read < stated * (1 - SHORT_BY):
            raise SourceError(f"the video {self.path} broke off after {read} of the {stated:.0f} frames it states: "
                              "it is damaged or was cut short")

    def _open(self) -> Any:
        if not self.path.is_file():
            raise SourceError(f"there is no video file at {self.path}")
        self._capture = cv2.VideoCapture(str(self.path))
        if not self._capture.isOpened():
            self.close()
            raise SourceError(f"{self.path} cannot be read as a video")
        return self._capture


def _images_of(capture: Any) -> Iterator[np.ndarray]:
    ok, image = capture.read()
    while ok:
        yield image
        ok, image = capture.read()


def _stated_fps(capture: Any, path: Path) -> float:
    fps = float(capture.get(cv2.CAP_PROP_FPS))
    if not fps > 0:
        raise SourceError(f"the video {path} does not say its frame rate; give one (fps)")
    return fps


class ImageFolder:
    """The pictures of a folder in name order, ``1 / fps`` seconds apart: name them so they sort in time."""

    live = False

    def __init__(self, path: str | Path, fps: float = 30.0) -> None:
        self.path = Path(path)
        self.fps = fps
        self.name = f"pictures in {self.path}"

    def frames(self) -> Iterator[Frame]:
        """Raise on a picture too small to watch, or of another size than the first: a camera's pictures are all
        one size, and the table's zones are measured on it."""
        size: tuple[int, ...] | None = None
        for index, path in enumerate(self._pictures()):
            image = _read_picture(path)
            _check_size(image, str(path))
            size = size or image.shape
            if image.shape != size:
                raise SourceError(f"{path} is {image.shape[1]}x{image.shape[0]}, the pictures before it "
                                  f"{size[1]}x{size[0]}: a folder must hold pictures of one size, as a camera takes")
            yield Frame(image, index / self.fps)

    def close(self) -> None:
        """Nothing is held open between pictures; here so a folder stands in for a camera."""

    def _pictures(self) -> list[Path]:
        if not self.path.is_dir():
            raise SourceError(f"there is no folder at {self.path}")
        pictures = sorted((p for p in self.path.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES), key=lambda p: p.name)
        if not pictures:
            raise SourceError(f"the folder {self.path} has no pictures (jpg, jpeg, png or bmp)")
        return pictures


def _check_size(image: np.ndarray, name: str) -> None:
    if min(image.shape[:2]) < SMALLEST_SIDE:
        raise SourceError(f"{name} is {image.shape[1]}x{image.shape[0]}: too small to watch a table "
                          f"(at least {SMALLEST_SIDE} pixels a side)")


def _read_picture(path: Path) -> np.ndarray:
    image: np.ndarray | None = cv2.imread(str(path), cv2.IMREAD_COLOR)
    if image is None:
        raise SourceError(f"{path} cannot be read as a picture")
    return image
