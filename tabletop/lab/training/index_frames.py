"""Training frames for the index finder: hands laid down to be counted, each index corner that shows marked.

The frames are the card finder's (``frames.draw``), laid out as hands are dropped on a table at the end of a
round (``frames.HAND_ARRANGEMENTS``: heaps, rows, fans). Each index corner that shows nearly whole gets a soft
mark at its middle, and there the way the card's top points and the card's height, which the runtime turns back
into the card's place (``index_finder.card_round``). An index half covered, or on a card too small to read, is
neither marked nor counted wrong.
"""

from __future__ import annotations

import math

import cv2
import numpy as np
import numpy.typing as npt

from tabletop.lab.training import frames
from tabletop.vision.crop import Corners, index_corners
from tabletop.vision.found import height
from tabletop.vision.index_finder import SIZE_STEPS

STRIDE = 2
"""The index finder marks at half its input's resolution."""
SHOWN = 0.85
"""Share of an index corner that must show for it to be marked."""
HIDDEN = 0.5
"""An index corner showing less than this is no index; between the two the loss ignores it."""
SMALLEST = 24.0
"""Height (pixels of the finder's input) of the smallest card whose index is marked: below it the index is a few
pixels and ignored."""
SPREAD = 0.03
"""How wide a mark is: its standard deviation, a share of the card's height (at least ``LEAST_SPREAD``)."""
LEAST_SPREAD = 0.7

Targets = npt.NDArray[np.uint8]
"""Per output pixel: the mark (0-255), the card's up direction as cosine and sine (0-255 for -1 to 1), its height
(``SIZE_STEPS`` times its base-2 logarithm), and whether the pixel counts (0 or 255)."""


def targets(drawn: frames.Drawn, shape: tuple[int, int]) -> Targets:
    """The index marks of ``drawn`` at ``STRIDE`` below the finder's input ``shape`` (height, width)."""
    out = (shape[0] // STRIDE, shape[1] // STRIDE)
    scale = out[1] / drawn.photo.shape[1]
    marks = np.zeros(out, np.float32)
    up = np.zeros((*out, 2), np.float32)
    size = np.zeros(out, np.float32)
    counts = np.ones(out, np.float32)
    ys, xs = np.mgrid[0:out[0], 0:out[1]].astype(np.float32) + 0.5
    for (corners, _), shares in zip(drawn.cards, drawn.indexes, strict=True):
        tall = height(corners) * scale
        for quad, share, pointing in zip(index_corners(corners), shares, _ups(corners), strict=True):
            middle = quad.mean(axis=0) * scale
            spread = max(LEAST_SPREAD, SPREAD * tall)
            near = (xs - middle[0]) ** 2 + (ys - middle[1]) ** 2
            if share >= SHOWN and tall * STRIDE >= SMALLEST:
                mark = np.exp(-near / (2 * spread ** 2))
                mine = mark > marks
                marks[mine] = mark[mine]
                up[mine] = pointing
                size[mine] = SIZE_STEPS * math.log2(tall * STRIDE)
            elif share > HIDDEN or share >= SHOWN:
                counts[near < (2 * spread) ** 2] = 0
    counts[marks > 0.1] = 1
    layers = [marks, (up[..., 0] + 1) / 2, (up[..., 1] + 1) / 2, np.clip(size, 0, 255) / 255, counts]
    return np.clip(np.stack([np.asarray(layer, np.float32) for layer in layers], axis=2) * 255 + 0.5, 0, 255
                   ).astype(np.uint8)


def _ups(corners: Corners) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
    """Which way the card's top points, seen from each index: the top-left index's, and the bottom-right's (the
    card turned half round)."""
    up = (corners[0] + corners[1] - corners[3] - corners[2]) / 2
    up = (up / max(float(np.linalg.norm(up)), 1e-6)).astype(np.float32)
    return up, -up


def batch(seed: int, count: int, shape: tuple[int, int]) -> tuple[np.ndarray, np.ndarray]:
    """``count`` frames of ``shape`` (height, width) with their index targets; the same for the same seed."""
    rng = np.random.default_rng(seed)
    faces = frames.FacePool(rng)
    images = np.zeros((count, *shape, 3), np.uint8)
    marks = np.zeros((count, shape[0] // STRIDE, shape[1] // STRIDE, 5), np.uint8)
    for k in range(count):
        drawn = frames.draw(faces, rng, shape, frames.HAND_ARRANGEMENTS)
        images[k] = cv2.resize(drawn.photo, (shape[1], shape[0]), interpolation=cv2.INTER_AREA)
        marks[k] = targets(drawn, shape)
    return images, marks
