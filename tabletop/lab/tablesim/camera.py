"""The table simulator's camera: straight above the table, or turned a few degrees off, as a mount often leaves it.

The table is painted as a camera straight above it would see it; a turned camera sees the same table through a
homography, the turn's (``K R K⁻¹``), zoomed out just enough that all of the straight-down view stays in the
picture. So that the picture has no empty border, the table is painted a margin wider than that view. The
layout the watcher is given is the one a calibration would measure in the picture: zones, seats and the card's
size moved through the same homography.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from tabletop.vision.crop import Image
from tabletop.watcher.layout import Circle, Layout, Point, Rect

FOCAL = 0.77
"""The lens's focal length in picture widths: about 66° across, as the Pi's Camera Module 3."""
MOST_TILT = 10.0
"""Degrees from straight down of the most turned camera the simulator films with."""


@dataclass(frozen=True)
class Camera:
    matrix: np.ndarray
    """From where a point lies in the straight-down view to where it lies in the picture."""
    size: tuple[int, int]
    """The picture's width and height."""
    margin: int
    """How far the painted table must reach beyond the straight-down view on every side."""
    tilt: float
    """Degrees from straight down."""

    @staticmethod
    def straight(size: tuple[int, int]) -> Camera:
        return Camera(np.eye(3), size, 0, 0.0)

    @staticmethod
    def turned(size: tuple[int, int], degrees: float, towards: float) -> Camera:
        """A camera turned ``degrees`` off straight down, about the axis at ``towards`` radians in the picture."""
        if degrees == 0:
            return Camera.straight(size)
        width, height = size
        focal = FOCAL * width
        lens = np.array([[focal, 0, width / 2], [0, focal, height / 2], [0, 0, 1]])
        axis = np.array([math.cos(towards), math.sin(towards), 0.0]) * math.radians(degrees)
        rotation, _ = cv2.Rodrigues(axis)
        turn = _aimed(lens @ rotation @ np.linalg.inv(lens), size)
        matrix = _zoom_to_fit(turn, size) @ turn
        matrix = matrix / matrix[2, 2]
        return Camera(matrix, size, _margin(matrix, size), degrees)

    @staticmethod
    def random(rng: np.random.Generator, size: tuple[int, int], degrees: float | None = None) -> Camera:
        """A camera turned up to ``MOST_TILT`` (or ``degrees``) off straight down, any way."""
        tilt, towards = float(rng.uniform(0, MOST_TILT)), float(rng.uniform(0, 2 * math.pi))
        return Camera.turned(size, tilt if degrees is None else degrees, towards)

    def scaled(self, k: int) -> Camera:
        """This camera as a sensor with ``k`` times the pixels each way: it sees the table painted ``k`` times as
        finely, a point ``p`` of either picture at ``(p + 0.5) * k - 0.5`` in the finer one."""
        finer = np.array([[k, 0, (k - 1) / 2], [0, k, (k - 1) / 2], [0, 0, 1]], np.float64)
        return Camera(finer @ self.matrix @ np.linalg.inv(finer), (self.size[0] * k, self.size[1] * k),
                      self.margin * k, self.tilt)

    def point(self, point: Point) -> Point:
        x, y = self.points(np.array([point], np.float32))[0]
        return float(x), float(y)

    def points(self, points: np.ndarray) -> np.ndarray:
        """Points of the straight-down view (an N by 2 array) where they lie in the picture."""
        moved = cv2.perspectiveTransform(points.reshape(1, -1, 2).astype(np.float64), self.matrix)
        return moved[0].astype(np.float32)

    def scale_at(self, point: Point) -> float:
        """How much larger than in the straight-down view a small thing at ``point`` looks in the picture."""
        x, y = point
        here, right, down = self.points(np.array([[x, y], [x + 1, y], [x, y + 1]], np.float32))
        (ax, ay), (bx, by) = right - here, down - here
        return math.sqrt(abs(float(ax * by - ay * bx)))

    def view(self, table: Image) -> Image:
        """The picture of ``table``, painted as seen straight down with ``margin`` to spare on every side."""
        if self.margin == 0 and self.tilt == 0:
            return table
        shift = np.array([[1, 0, -self.margin], [0, 1, -self.margin], [0, 0, 1]], np.float64)
        return cv2.warpPerspective(table, self.matrix @ shift, self.size, flags=cv2.INTER_LINEAR,
                                   borderMode=cv2.BORDER_REPLICATE)

    def view_patch(self, picture: Image, patch: Image, at: tuple[int, int], inner: tuple[int, int, int, int]) -> None:
        """Lay into ``picture`` (in place) what the camera sees of a patch of the painted table, as ``view`` would:
        ``patch`` lies at ``at`` in the painted table, and only the part of the picture over ``inner`` (a box of
        the patch) changes, the rest of the patch being there for the pixels round it."""
        shift = np.array([[1, 0, at[0] - self.margin], [0, 1, at[1] - self.margin], [0, 0, 1]], np.float64)
        onto = self.matrix @ shift
        left, top, right, bottom = inner
        seen = cv2.perspectiveTransform(np.array([[[left, top], [right, top], [right, bottom], [left, bottom]]],
                                                 np.float64), onto)[0]
        width, height = self.size
        x0, y0 = (max(0, math.floor(v) - 1) for v in seen.min(axis=0))
        x1, y1 = min(width, math.ceil(seen[:, 0].max()) + 1), min(height, math.ceil(seen[:, 1].max()) + 1)
        if x1 <= x0 or y1 <= y0:
            return
        into = np.array([[1, 0, -x0], [0, 1, -y0], [0, 0, 1]], np.float64) @ onto
        warped = cv2.warpPerspective(patch, into, (x1 - x0, y1 - y0), flags=cv2.INTER_LINEAR,
                                     borderMode=cv2.BORDER_REPLICATE)
        over = np.zeros(patch.shape[:2], np.uint8)
        over[top:bottom, left:right] = 255
        covered = cv2.warpPerspective(over, into, (x1 - x0, y1 - y0), flags=cv2.INTER_NEAREST) > 0
        picture[y0:y1, x0:x1][covered] = warped[covered]

    def layout(self, straight: Layout) -> Layout:
        """``straight`` as a calibration would measure it in the picture."""
        if self.tilt == 0:
            return straight
        centre = self.point(straight.centre)
        return Layout(discard=self._circle(straight.discard), draw=self._circle(straight.draw),
                      reveal=self._rect(straight.reveal), centre=centre,
                      seats=tuple(self._seat(straight, angle, centre) for angle in straight.seats),
                      card_height=straight.card_height * self.scale_at(straight.draw.centre), picture=straight.picture)

    def _circle(self, circle: Circle) -> Circle:
        return Circle(self.point(circle.centre), circle.radius * self.scale_at(circle.centre))

    def _rect(self, rect: Rect) -> Rect:
        """The upright box round ``rect`` as it lies in the picture, kept inside the picture."""
        corners = self.points(np.array([[rect.left, rect.top], [rect.right, rect.top], [rect.right, rect.bottom],
                                        [rect.left, rect.bottom]], np.float32))
        (left, top), (right, bottom) = corners.min(axis=0), corners.max(axis=0)
        width, height = self.size
        return Rect(max(0.0, float(left)), max(0.0, float(top)), min(float(width), float(right)),
                    min(float(height), float(bottom)))

    def _seat(self, straight: Layout, angle: float, centre: Point) -> float:
        """The seat's angle round the picture's centre: a homography keeps the ray from the centre a ray."""
        cx, cy = straight.centre
        reach = straight.card_height
        x, y = self.point((cx + reach * math.cos(math.radians(angle)), cy + reach * math.sin(math.radians(angle))))
        return math.degrees(math.atan2(y - centre[1], x - centre[0])) % 360


def _aimed(turn: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    """``turn`` moved so that the middle of the table stays in the middle of the picture: the camera is aimed at
    the table, as whoever mounted it would."""
    middle = np.array([[[size[0] / 2, size[1] / 2]]], np.float64)
    dx, dy = (middle - cv2.perspectiveTransform(middle, turn))[0, 0]
    return np.array([[1, 0, dx], [0, 1, dy], [0, 0, 1]]) @ turn


def _zoom_to_fit(turn: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    """The zoom about the picture's centre that brings the straight-down view's corners, turned, into it."""
    width, height = size
    corners = np.array([[0, 0], [width, 0], [width, height], [0, height]], np.float64)
    turned = cv2.perspectiveTransform(corners[None], turn)[0] - np.array([width / 2, height / 2])
    scale = min(1.0, *(min(width / 2 / max(abs(x), 1e-6), height / 2 / max(abs(y), 1e-6)) for x, y in turned))
    return np.array([[scale, 0, width / 2 * (1 - scale)], [0, scale, height / 2 * (1 - scale)], [0, 0, 1]])


def _margin(matrix: np.ndarray, size: tuple[int, int]) -> int:
    """How far beyond the straight-down view the picture's corners reach, in its pixels, with a pixel to spare."""
    width, height = size
    corners = np.array([[[0, 0], [width, 0], [width, height], [0, height]]], np.float64)
    back = cv2.perspectiveTransform(corners, np.linalg.inv(matrix))[0]
    beyond = max(0.0, float(-back.min()), float(back[:, 0].max() - width), float(back[:, 1].max() - height))
    return math.ceil(beyond) + 1
