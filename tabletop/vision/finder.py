"""Finding UNO cards in a picture: four corners per whole card, most prominent card first.

Two small networks, trained by ``train_finder`` on rendered frames, look twice. The first look
(``models/finder.onnx``) takes in the whole picture shrunk to about ``LONG_SIDE`` pixels and marks where the
whole cards lie (cards no other card covers: the top card of a pile or a fan, a card held up, the deck's top
back) and a core in the middle of each: each core is one card, roughly placed. The second look
(``models/outliner.onnx``) is taken at each such card warped upright at the card model's own scale
(``look_at``), and marks that card's outline alone, sharp enough to place its corners to a pixel or two.

A card's corners are where straight lines fitted along its four marked sides meet. The networks see a card's
face, its border and its shape together, so a pale table, a busy cloth or a thumb across the border does not
hide it.
"""

from __future__ import annotations

import functools
import json
import math
from pathlib import Path

import cv2
import numpy as np
import numpy.typing as npt
import onnxruntime

from tabletop.errors import ModelError
from tabletop.vision.crop import Corners, Image
from tabletop.vision.found import FoundCard, Line, Quad, height, meet, portrait
from tabletop.vision.model import MODELS, cpu_session

FIRST_LOOK = "finder.onnx"
SECOND_LOOK = "outliner.onnx"
LONG_SIDE = 256
"""The long side (pixels) of the picture as the first look sees it."""
MARKED = 0.5
"""Least probability of a pixel that is part of a whole card, or of its core."""
LEAST_CORE = 3
"""Fewest pixels (of the first look's output) in a core that counts as a card's."""
SHARPEN = 4
"""How many times finer than a network's output a card's outline is traced."""
SIDE_MIDDLE = 0.7
"""Share of each side, about its middle, whose outline places the side: the corners are rounded."""
SIDE_REACH = 0.15
"""How far from a side of the rectangle round a traced outline (a share of that side's length, plus
``SIDE_SLACK``) the outline may run and still place that side: a card seen in perspective is no rectangle."""
SIDE_SLACK = 2
"""Pixels (of the traced outline) added to ``SIDE_REACH``: on a small card a share of a side is too few pixels
for a soft outline."""
LEAST_SIDE = 3
"""Fewest traced points that place a side; with fewer, the rectangle's own side is taken."""
MIN_SCORE = 0.5
"""Least mean probability over a card's marked pixels for it to be reported."""
SPARE = 2
"""How many more cards than asked for the first look passes on to the second, which may find some no card."""
SETTLED = 0.06
"""A second look whose card lies further than this (a share of its height) from where it was looked for is
taken again, centred on what it found."""
SAME_CARD = 0.5
"""Two finds sharing more than this share of the smaller are one card."""
ROUGH_ASPECTS = (1.3, 1.8)
"""Long over short side that the first look's rough box is held to. Unlike the border finder's ``ASPECTS`` it
judges nothing: the marks are soft and may be cut off by the picture's edge, so their spread can have any shape,
and the box need only put the card in the second look's view, which finds its outline."""

LOOK_CARD = (48, 72)
"""Width and height a card is warped to for the second look: the card model's own crop size."""
LOOK_MARGIN = (24, 28)
"""Table left round the card in the second look, so that a card placed a little off still lies wholly inside."""
LOOK_SIZE = (LOOK_CARD[0] + 2 * LOOK_MARGIN[0], LOOK_CARD[1] + 2 * LOOK_MARGIN[1])

Marks = npt.NDArray[np.float32]
Matrix = npt.NDArray[np.float64]


def _session(path: Path, threads: int) -> tuple[onnxruntime.InferenceSession, dict[str, str]]:
    try:
        session = cpu_session(path, threads)
        return session, dict(session.get_modelmeta().custom_metadata_map)
    except Exception as err:
        raise ModelError(f"cannot load the card finder {path}: {err}") from err


class CardFinder:
    """The two looks' networks, loaded once from ``folder``."""

    def __init__(self, folder: Path | None = None, threads: int = 1) -> None:
        folder = folder or MODELS
        self.first, meta = _session(folder / FIRST_LOOK, threads)
        self.second, _ = _session(folder / SECOND_LOOK, threads)
        try:
            self.multiple = int(json.loads(meta["input"])["multiple"])
        except (KeyError, ValueError, TypeError) as err:
            raise ModelError(f"{folder / FIRST_LOOK} is not a card finder: {err}") from err

    def find(self, image: Image, limit: int = 8) -> list[FoundCard]:
        """The whole cards in ``image`` (BGR), most prominent (large and surely a card) first."""
        rough = self.first_look(image)[:limit + SPARE]
        cards = self.second_look(image, [card.corners for card in rough])
        return _distinct(cards)[:limit]

    def marks(self, image: Image) -> tuple[Marks, Marks, tuple[float, float]]:
        """The first look's whole cards and cores, and the scale (x, y) from their pixels to the image's."""
        height, width = image.shape[:2]
        shrink = LONG_SIDE / max(height, width)
        size = (self._fit(width * shrink), self._fit(height * shrink))
        small = cv2.resize(image, size, interpolation=cv2.INTER_AREA)
        (out,) = self.first.run(None, {"frames": small[None]})
        whole, core = out[0]
        return whole, core, (width / whole.shape[1], height / whole.shape[0])

    def _fit(self, side: float) -> int:
        return max(self.multiple, round(side / self.multiple) * self.multiple)

    def first_look(self, image: Image) -> list[FoundCard]:
        """The whole cards as the first look places them, roughly (see ``_rough``); most prominent first."""
        whole, core, scale = self.marks(image)
        found = []
        for owned in _regions(core):
            placed = _rough(np.where(owned & (whole > MARKED), whole, 0).astype(np.float32))
            if placed is not None:
                quad, score = placed
                found.append(_found([(x * scale[0] - 0.5, y * scale[1] - 0.5) for x, y in quad], score))
        return sorted(found, key=lambda card: card.area * card.score, reverse=True)

    def second_look(self, image: Image, rough: list[Corners]) -> list[FoundCard]:
        """Each card of ``rough`` outlined closely (looked at twice where the first look was far off); those that
        are no whole card are left out."""
        found = self._outline(image, rough)
        moved = {k: card.corners for k, card in enumerate(found) if card is not None and _moved(rough[k], card.corners)}
        for k, card in zip(moved, self._outline(image, list(moved.values())), strict=True):
            found[k] = card
        return [card for card in found if card is not None]

    def _outline(self, image: Image, rough: list[Corners]) -> list[FoundCard | None]:
        if not rough:
            return []
        views, matrices = zip(*(look_at(image, corners) for corners in rough), strict=True)
        (out,) = self.second.run(None, {"views": np.stack(views)})
        found: list[FoundCard | None] = []
        for marks, matrix in zip(out[:, 0], matrices, strict=True):
            placed = _outlined(marks, _middle_part(marks))
            if placed is None:
                found.append(None)
                continue
            quad, score = placed
            scale = LOOK_SIZE[0] / marks.shape[1]
            seen = np.array([[(x * scale, y * scale) for x, y in quad]], np.float64)
            back = cv2.perspectiveTransform(seen, np.linalg.inv(matrix))[0]
            found.append(_found([(float(x), float(y)) for x, y in back], score))
        return found


def look_at(image: Image, corners: Corners) -> tuple[Image, Matrix]:
    """The picture around ``corners`` warped so that they land on a ``LOOK_CARD`` rectangle in the middle of a
    ``LOOK_SIZE`` view, and the warp (from the picture's pixel centres to the view's continuous coordinates).

    A card much larger than the view is warped at twice the size and area-averaged, so that its border and print
    do not alias away.
    """
    (mx, my), (cw, ch) = LOOK_MARGIN, LOOK_CARD
    target = np.array([[mx, my], [mx + cw, my], [mx + cw, my + ch], [mx, my + ch]], np.float32)
    matrix: Matrix = np.asarray(cv2.getPerspectiveTransform(corners.astype(np.float32), target), np.float64)
    factor = 2 if height(corners) > 2 * ch else 1
    to_pixels = np.array([[factor, 0, -0.5], [0, factor, -0.5], [0, 0, 1]], np.float64)
    size = (factor * LOOK_SIZE[0], factor * LOOK_SIZE[1])
    view = cv2.warpPerspective(image, to_pixels @ matrix, size, flags=cv2.INTER_LINEAR,
                               borderMode=cv2.BORDER_REPLICATE)
    if factor > 1:
        view = cv2.resize(view, LOOK_SIZE, interpolation=cv2.INTER_AREA)
    return view, matrix


def _regions(core: Marks) -> list[npt.NDArray[np.bool_]]:
    """One mask per card whose core is big enough to count: the pixels nearer to that core than to any other."""
    cores = (core > MARKED).astype(np.uint8)
    count, labels, stats, _ = cv2.connectedComponentsWithStats(cores, connectivity=8)
    kept = [k for k in range(1, count) if stats[k, cv2.CC_STAT_AREA] >= LEAST_CORE]
    if len(kept) <= 1:
        return [np.ones(core.shape, bool)] if kept else []
    _, nearest = cv2.distanceTransformWithLabels(1 - cores, cv2.DIST_L2, 3, labelType=cv2.DIST_LABEL_CCOMP)
    return [nearest == int(np.bincount(nearest[labels == k]).argmax()) for k in kept]


def _rough(marks: Marks) -> tuple[Quad, float] | None:
    """A card-shaped rectangle with the same middle, area and main axis as the marks, and their mean: where the
    first look's card lies, its size and which way it points, however soft its outline (the second look finds
    the outline). The marks' spread across and along the axis sets the card's shape, within a card's."""
    moments = cv2.moments(marks)
    mass = moments["m00"]
    marked = marks > 0
    if mass <= LEAST_CORE or not marked.any():
        return None
    cx, cy = moments["m10"] / mass, moments["m01"] / mass
    spread = np.array([[moments["mu20"], moments["mu11"]], [moments["mu11"], moments["mu02"]]]) / mass
    values, vectors = np.linalg.eigh(spread)
    aspect = min(max(math.sqrt(max(values[1], 1e-6) / max(values[0], 1e-6)), ROUGH_ASPECTS[0]), ROUGH_ASPECTS[1])
    along = vectors[:, 1] * math.sqrt(mass * aspect) / 2
    across = np.array([-vectors[1, 1], vectors[0, 1]]) * math.sqrt(mass / aspect) / 2
    middle = np.array([cx + 0.5, cy + 0.5])
    box = [middle - along - across, middle + along - across, middle + along + across, middle - along + across]
    return [(float(x), float(y)) for x, y in box], float(marks[marked].mean())


def _middle_part(marks: Marks) -> npt.NDArray[np.bool_]:
    """The pixels of the second look that belong to the card in its middle: the marked part that covers the
    middle most, and what lies just round it (so that its soft rim is traced where it falls)."""
    count, labels = cv2.connectedComponents((marks > MARKED).astype(np.uint8), connectivity=8)
    if count <= 1:
        return np.zeros(marks.shape, bool)
    height, width = marks.shape
    middle = labels[height * 3 // 8:height * 5 // 8, width * 3 // 8:width * 5 // 8]
    votes = np.bincount(middle.ravel(), minlength=count)[1:]
    if votes.max() == 0:
        return np.zeros(marks.shape, bool)
    part = (labels == int(votes.argmax()) + 1).astype(np.uint8)
    return np.asarray(cv2.dilate(part, np.ones((5, 5), np.uint8)) > 0)


def _outlined(marks: Marks, owned: npt.NDArray[np.bool_]) -> tuple[Quad, float] | None:
    """The corners (in the marks' continuous coordinates) and score of the card marked among the pixels
    ``owned``; None if what is marked there is no card's shape."""
    region = owned & (marks > MARKED)
    x, y, w, h = cv2.boundingRect(region.astype(np.uint8))
    if w < 2 or h < 2:
        return None
    score = float(marks[region].mean())
    if score < MIN_SCORE:
        return None
    x0, y0 = max(0, x - 2), max(0, y - 2)
    x1, y1 = min(marks.shape[1], x + w + 2), min(marks.shape[0], y + h + 2)
    patch = np.where(owned[y0:y1, x0:x1], marks[y0:y1, x0:x1], 0).astype(np.float32)
    fine = cv2.resize(patch, None, fx=SHARPEN, fy=SHARPEN, interpolation=cv2.INTER_LINEAR)
    contours, _ = cv2.findContours((fine > MARKED).astype(np.uint8), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    if not contours:
        return None
    outline = max(contours, key=cv2.contourArea).reshape(-1, 2).astype(np.float32)
    quad = _quad(outline)
    if quad is None:
        return None
    return [((px + 0.5) / SHARPEN + x0, (py + 0.5) / SHARPEN + y0) for px, py in quad], score


def _quad(outline: npt.NDArray[np.float32]) -> Quad | None:
    """The four corners of a card's traced outline: a line fitted to the middle of each side of the outline's
    smallest enclosing rectangle, where the outline runs straight, and the lines met."""
    box = cv2.boxPoints(cv2.minAreaRect(outline))
    lines: list[Line] = []
    for k in range(4):
        a, b = box[k], box[(k + 1) % 4]
        along = b - a
        length = float(np.linalg.norm(along))
        if length < 1e-3:
            return None
        unit = along / length
        normal = np.array([-unit[1], unit[0]], np.float32)
        offset = outline - a
        t = offset @ unit / length
        d = np.abs(offset @ normal)
        near = (np.abs(t - 0.5) <= SIDE_MIDDLE / 2) & (d <= SIDE_REACH * length + SIDE_SLACK)
        if np.count_nonzero(near) >= LEAST_SIDE:
            vx, vy, px, py = cv2.fitLine(outline[near], cv2.DIST_HUBER, 0, 0.01, 0.01).ravel()
            lines.append(((float(px), float(py)), (float(vx), float(vy))))
        else:
            lines.append(((float(a[0]), float(a[1])), (float(unit[0]), float(unit[1]))))
    return meet(lines)


def _found(quad: Quad, score: float) -> FoundCard:
    corners = portrait(quad)
    return FoundCard(corners=corners, area=float(cv2.contourArea(corners)), score=score)


def _moved(before: Corners, after: Corners) -> bool:
    """Whether a second look found its card so far from where it looked that it should look again there."""
    tall = height(after)
    shift = float(np.linalg.norm(before.mean(axis=0) - after.mean(axis=0)))
    return shift > SETTLED * tall or abs(height(before) - tall) > 2 * SETTLED * tall


def _distinct(cards: list[FoundCard]) -> list[FoundCard]:
    """Most prominent first, one find per card: of two finds of one card, the surer."""
    kept: list[FoundCard] = []
    for card in sorted(cards, key=lambda card: card.score, reverse=True):
        if all(_shared(card, other) <= SAME_CARD for other in kept):
            kept.append(card)
    return sorted(kept, key=lambda card: card.area * card.score, reverse=True)


def _shared(first: FoundCard, second: FoundCard) -> float:
    shared, _ = cv2.intersectConvexConvex(first.corners, second.corners)
    return float(shared) / max(min(first.area, second.area), 1e-6)


@functools.cache
def default_finder() -> CardFinder:
    """The shipped finder, loaded on first use and shared: onnxruntime sessions may be run from any thread."""
    return CardFinder()


def find_cards(image: Image, limit: int = 8) -> list[FoundCard]:
    """The whole cards in ``image`` (BGR) as the shipped finder sees them, most prominent first."""
    return default_finder().find(image, limit)
