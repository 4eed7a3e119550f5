"""A card found in a picture, as both finders (``borders`` and ``finder``) report it, and the geometry of its
four corners that they share."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from tabletop.vision.crop import Corners

Quad = list[tuple[float, float]]
Line = tuple[tuple[float, float], tuple[float, float]]
"""A point on a straight line and its direction."""
CARD_SIZED = (0.6, 1.4)
"""How tall a card found may be beside the card height a camera's layout gives: a camera turned off straight down
sees some cards larger, and the learned finder's outlines are rough, but a numeral is far smaller, and an outline
round a whole row of cards laid over each other far larger."""


@dataclass(frozen=True)
class FoundCard:
    """A card in the picture.

    ``corners`` (float32, 4 x 2, pixels) run clockwise from top-left with a short side on top; of the two short
    sides the higher in the picture is taken for the top, since the model reads a card either way up. ``area``
    is in pixels, ``score`` (0 to 1) how sure the finder is that this is a whole card.
    """

    corners: Corners
    area: float
    score: float


def meet(lines: list[Line]) -> Quad | None:
    """Where each line (in order round the quad) meets the one before it; None when two neighbours run too
    nearly parallel to be the sides of a card."""
    corners = []
    for ((px, py), (ux, uy)), ((qx, qy), (vx, vy)) in zip(lines[-1:] + lines[:-1], lines, strict=True):
        cross = ux * vy - uy * vx
        if abs(cross) < 0.5 * math.hypot(ux, uy) * math.hypot(vx, vy):
            return None
        t = ((qx - px) * vy - (qy - py) * vx) / cross
        corners.append((px + t * ux, py + t * uy))
    return corners


def height(corners: Corners) -> float:
    """How tall a card is in pixels: the mean of its two long sides, its corners as ``portrait`` orders them."""
    return float(np.linalg.norm(corners[3] - corners[0]) + np.linalg.norm(corners[2] - corners[1])) / 2


def card_sized(corners: Corners, card_height: float) -> bool:
    """Whether ``corners`` outline a card of about ``card_height`` pixels (see ``CARD_SIZED``)."""
    return CARD_SIZED[0] <= height(corners) / card_height <= CARD_SIZED[1]


def portrait(quad: Quad) -> Corners:
    """Clockwise from top-left with a short side on top; of the two short sides, the higher one is the top."""
    cx, cy = sum(x for x, _ in quad) / 4, sum(y for _, y in quad) / 4
    quad = sorted(quad, key=lambda point: math.atan2(point[1] - cy, point[0] - cx))
    sides = [math.dist(a, b) for a, b in zip(quad, quad[1:] + quad[:1], strict=True)]
    start = 0 if sides[0] + sides[2] < sides[1] + sides[3] else 1
    if quad[start][1] + quad[start + 1][1] > quad[start + 2][1] + quad[(start + 3) % 4][1]:
        start += 2
    return np.array(quad[start:] + quad[:start], np.float32)
