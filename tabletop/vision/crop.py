"""The canonical card crop that the model reads, made the same way from a rendered card and from a photograph.

Training and inference share this module so that the model never sees a crop made any other way.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

Image = npt.NDArray[np.uint8]
Corners = npt.NDArray[np.float32]

CARD_ASPECT = 87 / 56
"""Height over width of an UNO card (56 x 87 mm)."""

BORDER_BAND = (0.02, 0.07)
"""Where the white border lies, as fractions of the crop's width in from each edge."""

WHITE_LEVEL = 235.0
CROP_SIZE = (64, 96)
"""Width and height of the crop the card model reads; the finder judges outlines at the same size."""


def rectify(image: Image, corners: Corners, size: tuple[int, int]) -> Image:
    """Warp the quadrilateral ``corners`` (top-left, top-right, bottom-right, bottom-left) to ``size`` (w, h).

    Large cards are warped to twice the size and then area-averaged, so that fine strokes (the underline of a 6)
    survive instead of aliasing away.
    """
    width, height = size
    quad_height = float(np.linalg.norm(corners[3] - corners[0]))
    scale = 2 if quad_height > 2 * height else 1
    target = np.array([[0, 0], [width * scale, 0], [width * scale, height * scale], [0, height * scale]],
                      dtype=np.float32)
    matrix = cv2.getPerspectiveTransform(corners.astype(np.float32), target)
    warped = cv2.warpPerspective(image, matrix, (width * scale, height * scale), flags=cv2.INTER_LINEAR,
                                 borderMode=cv2.BORDER_REPLICATE)
    if scale == 1:
        return warped
    return cv2.resize(warped, (width, height), interpolation=cv2.INTER_AREA)


@functools.cache
def _border_band(height: int, width: int) -> npt.NDArray[np.intp]:
    """Where, in a crop flattened to pixels, the band of its white border lies (see ``BORDER_BAND``)."""
    outer, inner = (max(1, round(width * f)) for f in BORDER_BAND)
    mask = np.zeros((height, width), dtype=bool)
    mask[outer:height - outer, outer:width - outer] = True
    mask[inner:height - inner, inner:width - inner] = False
    return np.flatnonzero(mask)


@dataclass(frozen=True)
class Levels:
    """How a crop's colours are put right: each channel's white (the card's border as the camera saw it) and the
    black a washed-out picture lifted, after the white is put right."""

    white: npt.NDArray[np.float64]
    black: float

    def apply(self, crop: Image) -> Image:
        scaled = cv2.multiply(crop, (*(WHITE_LEVEL / self.white), 0.0), dtype=cv2.CV_32F)
        stretched = (scaled - self.black) * (WHITE_LEVEL / (WHITE_LEVEL - self.black))
        return np.clip(stretched, 0, 255).astype(np.uint8)


def levels(crop: Image) -> Levels:
    """The levels that make a card's own white border come out white, and lift a washed-out black.

    A colour cast or an exposure error touches the border and the printed colour alike, so dividing by the border
    cancels it: a webcam's cyan-drifting blue is compared with the same webcam's white.
    """
    band = crop.reshape(-1, 3)[_border_band(*crop.shape[:2])]
    luminance = band.sum(axis=1, dtype=np.uint16)
    low, high = percentile(luminance, 50), percentile(luminance, 95)
    bright = band[(luminance >= low) & (luminance <= high)]
    white = np.maximum(percentile(bright, 50), 1.0) if len(bright) else np.full(3, 255.0)
    scaled = cv2.multiply(crop, (*(WHITE_LEVEL / white), 0.0), dtype=cv2.CV_32F)
    blue, green, red = cv2.split(scaled)
    black = min(max(float(percentile(cv2.min(cv2.min(blue, green), red).ravel(), 1)), 0.0), WHITE_LEVEL / 2)
    return Levels(white, black)


def balance(crop: Image) -> Image:
    """``crop`` with its colours put right against the card's own white border (see ``levels``)."""
    return levels(crop).apply(crop)


INDEX_BOX = (0.0, 0.0, 0.4, 0.27)
"""Round a card's top-left index, as shares of its width and height (left, top, right, bottom): every printing
puts its small numeral or symbol inside, with room to spare for corners found a little off."""
INDEX_SIZE = (32, 32)
"""Width and height of an index crop, as the index model reads it."""


@dataclass(frozen=True)
class Look:
    """A card as the models read it: the whole card upright, and its two index corners, each upright (the one at
    the bottom right turned half round), all balanced against the card's own border."""

    card: Image
    indexes: tuple[Image, ...]
    """Both index corners; none where only the card's crop was given."""


def look(image: Image, corners: Corners, size: tuple[int, int]) -> Look:
    """The card at ``corners`` in ``image`` cut out at ``size``, and its index corners at ``INDEX_SIZE``."""
    crop = rectify(image, corners, size)
    card_levels = levels(crop)
    first, second = (card_levels.apply(rectify(image, quad, INDEX_SIZE)) for quad in index_corners(corners))
    return Look(card_levels.apply(crop), (first, second))


def index_cuts(image: Image, cards: list[Corners]) -> list[Image]:
    """The top-left index of one card placed several ways (``cards``), each cut at ``INDEX_SIZE`` as the camera saw
    it."""
    return [rectify(image, index_corners(card)[0], INDEX_SIZE) for card in cards]


def index_views(image: Image, card: Corners, cuts: list[Image], size: tuple[int, int]) -> list[Image]:
    """``cuts`` of one card's index (``index_cuts``) balanced as ``look`` balances them, against the border of the
    card as ``card`` places it: a card of which only its index shows, placed from that index alone, is cut a little
    tight or loose, and one balance serves every cut."""
    card_levels = levels(rectify(image, card, size))
    return [card_levels.apply(cut) for cut in cuts]


def index_corners(corners: Corners) -> tuple[Corners, Corners]:
    """The quads round a card's two indexes (see ``INDEX_BOX``), each clockwise from its own top left: the top-left
    index, and the bottom-right one as it lies on the card turned half round, so that both come out alike."""
    left, top, right, bottom = INDEX_BOX
    box = np.array([[left, top], [right, top], [right, bottom], [left, bottom]], np.float32)
    return on_card(corners, box), on_card(corners, 1 - box)


UNIT_SQUARE = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], np.float32)
"""A card's corners as shares of its width and height, clockwise from its top left."""


def on_card(corners: Corners, shares: npt.NDArray[np.floating]) -> Corners:
    """Points given as shares of a card's width and height (N x 2, x then y) where they lie in the picture, for the
    card at ``corners``: a part of it, seen in the same perspective as the card."""
    onto = cv2.getPerspectiveTransform(UNIT_SQUARE, corners.astype(np.float32))
    return cv2.perspectiveTransform(np.asarray(shares, np.float32)[None], onto)[0].astype(np.float32)


def middle_card(width: int, height: int, tall: float) -> Corners:
    """The corners of a card ``tall`` pixels high lying square in the middle of a ``width`` x ``height`` picture,
    clockwise from its top left: where the doctor's test picture has its card."""
    half = np.array([tall / CARD_ASPECT, tall], np.float32) / 2
    return (np.array([width, height], np.float32) / 2 + (UNIT_SQUARE * 2 - 1) * half).astype(np.float32)


def percentile(values: npt.NDArray[np.number], q: float) -> npt.NDArray[np.float64]:
    """``np.percentile`` along the first axis, with its linear interpolation, by a partial sort: the same numbers
    in a third of the time."""
    at = (len(values) - 1) * q / 100
    low = int(at)
    high = min(low + 1, len(values) - 1)
    part = np.partition(values, [low, high], axis=0)
    return np.asarray(part[low] + (part[high] - part[low]) * (at - low), np.float64)
