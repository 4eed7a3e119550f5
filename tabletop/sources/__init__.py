"""Where frames come from: one small interface over cameras, files and the table simulator.

A source yields :class:`Frame` values in time order. It raises :class:`tabletop.errors.SourceError` when it
fails; deciding whether to reopen it is the caller's business (see :mod:`tabletop.sources.reopen`), so a source
itself stays simple and honest about what happened.

A source, and everything that passes its frames on, lets go of a frame once it has handed it over: none keeps
it while the next is taken. A camera's large picture is megabytes, and the Pi has no room for two at once.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Protocol

import cv2
import numpy as np

Box = tuple[int, int, int, int]
"""A region of a frame's picture: left, top, right and bottom, in its pixels."""


class Detail(Protocol):
    """The same view as a frame's picture, with more pixels in it: cards are read from it, never looked for.

    Finding motion wants a small picture, fast to compare; reading a card wants every pixel the sensor has. A
    camera that gives both (the Pi camera's two streams, a webcam's large picture shrunk) keeps the large one
    here, and only the zones where cards are read are ever cut out of it.
    """

    @property
    def scale(self) -> float:
        """How many of its pixels make one of the picture's, along each side."""
        ...

    def cut(self, box: Box) -> np.ndarray:
        """The region ``box`` (in the picture's pixels) at this detail, as a new array."""
        ...


@dataclass(frozen=True, slots=True)
class Sharp:
    """A detail held as a whole picture: a camera's large stream."""

    picture: np.ndarray
    scale: float

    def cut(self, box: Box) -> np.ndarray:
        left, top, right, bottom = (round(side * self.scale) for side in box)
        return np.array(self.picture[top:bottom, left:right])


@dataclass(frozen=True, slots=True)
class Region:
    """A region of a frame, cut with all the detail there is: ``picture``, where ``box`` of the frame's picture
    lies, ``scale`` of its pixels to one of the frame's."""

    picture: np.ndarray
    box: Box
    scale: float

    def points(self, points: np.ndarray) -> np.ndarray:
        """Points of the frame's picture (x, y in its pixels, an N x 2 array) where they lie in ``picture``.

        A pixel's middle is its whole number in both pictures, so a pixel of the frame spans ``scale`` of the
        region's from half a pixel before its middle."""
        left, top = (round(side * self.scale) for side in self.box[:2])
        return np.asarray((points + 0.5) * self.scale - 0.5 - np.array([left, top]), np.float32)

    def frame_points(self, points: np.ndarray) -> np.ndarray:
        """Points of ``picture`` where they lie in the frame's picture: the way back of ``points``."""
        left, top = (round(side * self.scale) for side in self.box[:2])
        return np.asarray((points + np.array([left, top]) + 0.5) / self.scale - 0.5, np.float32)

    def cut(self, box: Box) -> Region:
        """The part of ``box`` (in the frame's pixels) that this region holds, pixel for pixel as the frame's
        detail would cut it."""
        inside = (max(box[0], self.box[0]), max(box[1], self.box[1]), min(box[2], self.box[2]),
                  min(box[3], self.box[3]))
        left, top = (round(side * self.scale) for side in self.box[:2])
        x0, y0, x1, y1 = (round(side * self.scale) for side in inside)
        return Region(self.picture[y0 - top:max(y0, y1) - top, x0 - left:max(x0, x1) - left], inside, self.scale)


@dataclass(frozen=True, slots=True)
class Frame:
    """One picture of the table: BGR uint8, height x width x 3, taken ``t`` seconds after the source opened.

    ``detail``, where the source has one, is the same view with more pixels (see :class:`Detail`).
    """

    image: np.ndarray
    t: float
    detail: Detail | None = None

    def cut(self, box: Box) -> Region:
        """The region ``box`` of the picture (as much of it as lies in the picture), with the most pixels there
        are."""
        height, width = self.image.shape[:2]
        left, top, right, bottom = box
        inside = (max(0, left), max(0, top), min(width, right), min(height, bottom))
        if self.detail is None:
            return Region(self.image[inside[1]:inside[3], inside[0]:inside[2]].copy(), inside, 1.0)
        return Region(self.detail.cut(inside), inside, self.detail.scale)


MOTION_WIDTH = 640
"""How wide a picture the watcher moves on: a larger one is shrunk to this, and kept whole as the frame's detail."""


def shrunk(picture: np.ndarray, t: float, width: int = MOTION_WIDTH) -> Frame:
    """A frame of a large ``picture``: shrunk to ``width`` for the watcher to move on, kept whole to read from.
    A picture no wider than ``width`` is the frame as it is."""
    height, full = picture.shape[:2]
    if full <= width:
        return Frame(picture, t)
    scale = full / width
    small = cv2.resize(picture, (width, round(height / scale)), interpolation=cv2.INTER_AREA)
    return Frame(small, t, Sharp(picture, scale))


class FrameSource(Protocol):
    """Something that gives frames until it ends (a file) or fails (a camera that drops out)."""

    name: str
    live: bool
    """A camera (reopened when it stops) rather than a file (which ends)."""

    def frames(self) -> Iterator[Frame]:
        """Open the source and yield its frames; raise SourceError on failure; return at its natural end."""
        ...

    def close(self) -> None:
        """Let go of the device or file; safe to call more than once."""
        ...
