"""One zone of the table seen over time: whether an arm is over it, whether it has settled, and what changed.

The discard pile and the reveal zone work the same way: wait while a hand is over the zone, wait until the zone
holds still, then compare it with how it last looked at rest. What changed is a card laid, taken or moved.
"""

from __future__ import annotations

import dataclasses
import functools
import math
from collections import deque
from dataclasses import dataclass

import cv2
import numpy as np

from tabletop.sources import Box, Frame, Region
from tabletop.vision.crop import CARD_ASPECT, Corners, Image, Look, look
from tabletop.vision.found import portrait
from tabletop.watcher.layout import Circle, Rect
from tabletop.watcher.motion import SCALE, Arm, Motion, brightening, most_changed

SETTLE_FRAMES = 3
"""Still frames, with no hand over the zone, before the zone counts as settled and is read."""
MOVED = 45
"""How far (0..255, in the most changed channel) a pixel must differ between two rests to count as changed."""
LAID_APART = 20
"""The same for the reveal zone, where cards lie apart on the bare table: nothing there but a card changes, and a
faded deck on a table about as bright as its colours changes no channel by ``MOVED``."""
SHADE = (0.3, 0.9, 0.15)
"""A shadow keeps between these shares of the light in every channel, the channels within this much of another."""
NEAR = 0.3
"""An arm this close to a zone (in card heights) counts as over it: its shadow and blur reach that far. For a zone
by the table's edge (``ZoneWatch``'s ``edge``), only while it moves: there the fingers of a player holding a fan
rest by the zone all round, and it never settled, so that the hands laid in it were never read. Not so for the
pile in the middle of the table, where a hand at rest that near hovers to play: with small cards, its fingertips
and shadow then settled into the pile as plays that were never made."""
FIT = 1.08
"""Pieces of change lie inside one card when the box round them all is at most this much bigger than a card."""
SIZE_LEEWAY = 0.2
"""How much larger or smaller than the layout's card a card may look elsewhere on the table: a camera turned
some degrees off straight down sees the near side of the table larger than the far side."""
SHAPE_LEEWAY = 0.12
"""How far from a card's proportions (long over short side) a change may be and still be a whole card."""
WHITE_MATCH = 0.15
"""How far (a share, in every channel) the rim of a whole card's change is from the whitest within it."""
SOME_OF_A_CARD = 0.25
"""The least share of a card that changes when it is laid: on a pale table its white border and oval do not."""
CARD_SPAN = 1 + 1 / CARD_ASPECT
"""The longest diagonal of an upright box round a card, however it is turned, in card heights."""
STILL_SHARE = 0.02
"""At most this share of the zone (in the quarter-size picture) may change between frames for it to be still."""


@dataclass(frozen=True)
class Settled:
    """A zone at rest after a hand's visit: its pictures in the last few frames, to compare with how it lay before,
    and the zone with half a card's height round it (for a card laid across its edge) cut from those frames with
    all the detail they have, to read its cards from (see ``tabletop.sources.Detail``)."""

    views: list[Image]
    pictures: list[Region]
    """Cut from the newest frame's large picture where the camera gives one (see ``ZoneWatch.watch``), else from
    every frame's picture, to be read together. Cut at once, so that a zone at rest keeps none of the camera's
    large pictures: each is several megabytes, and a Pi has little memory."""
    box: Box

    @functools.cached_property
    def regions(self) -> list[Region]:
        """The zone itself, cut from each of ``pictures``."""
        return [picture.cut(self.box) for picture in self.pictures]

    def cut(self, box: Box) -> Region:
        """Any part of the picture in the zone or half a card's height round it, cut from the newest of
        ``pictures``."""
        return self.pictures[-1].cut(box)


class ZoneWatch:
    """Tracks one zone: returns the settled pictures of it (the last few frames) once a visit by a hand is over.
    ``edge`` marks a zone by the table's edge, where fingers may rest in its margin (see ``NEAR``)."""

    def __init__(self, area: Circle | Rect, frame_shape: tuple[int, int], card_height: float,
                 moved: int = MOVED, edge: bool = False) -> None:
        height, width = frame_shape
        left, top, right, bottom = _bounds(area)
        self.box: Box = (max(0, math.floor(left)), max(0, math.floor(top)), min(width, math.ceil(right)),
                         min(height, math.ceil(bottom)))
        near = round(card_height * NEAR / SCALE)
        self.inside = _small_mask(area, (height // SCALE, width // SCALE))
        self.small = cv2.dilate(self.inside.astype(np.uint8), np.ones((2 * near + 1, 2 * near + 1), np.uint8)
                                ).astype(bool)
        self.card_height, self.moved, self.edge = card_height, moved, edge
        self.card_area = card_height ** 2 / CARD_ASPECT
        self.recent: deque[Frame] = deque(maxlen=SETTLE_FRAMES)
        """The last frames in which the zone held still, whole: cut only once the zone has settled. None keeps its
        large picture: the frame the zone settles on gives its own, and one large picture reads a card more sharply
        than several small ones together; a camera's large pictures are memory a Pi has little of."""
        self.visited_by: Arm | None = None
        """Of the arms over the zone since it last settled, the one that covered most of it: the arm that laid the
        cards, not a player's other arm, holding a fan at the table's edge, whose fingers brush the zone."""
        self.covered = 0
        self.visited = False

    def cut(self, frame: Image) -> Image:
        x0, y0, x1, y1 = self.box
        return frame[y0:y1, x0:x1]

    def watch(self, frame: Frame, motion: Motion) -> Settled | None:
        """The settled zone, on the frame where a visit ends and the zone has held still."""
        near = [arm.mask & self.small for arm in motion.arms]
        if any(self._over(reach, motion) for reach in near):
            covered = [int(np.count_nonzero(reach)) for reach in near]
            widest = int(np.argmax(covered))
            self._visit(motion.arms[widest], covered[widest])
            return None
        if self.recent and float(motion.moving[self.small].mean()) > STILL_SHARE:
            self.recent.clear()
        self.recent.append(dataclasses.replace(frame, detail=None))
        if self.visited and len(self.recent) == SETTLE_FRAMES:
            self.visited = False
            return self.settle([*list(self.recent)[:-1], frame])
        return None

    def settle(self, frames: list[Frame]) -> Settled:
        """The zone at rest in ``frames``, as it is read: see :class:`Settled`."""
        sharpest = [frame for frame in frames if frame.detail is not None] or frames
        reach = math.ceil(self.card_height / 2)
        x0, y0, x1, y1 = self.box
        around = (x0 - reach, y0 - reach, x1 + reach, y1 + reach)
        return Settled([self.cut(frame.image).copy() for frame in frames],
                       [frame.cut(around) for frame in sharpest], self.box)

    def _over(self, near: np.ndarray, motion: Motion) -> bool:
        """Whether an arm that reaches ``near`` (the part of it over the zone and its ``NEAR`` margin) is over it."""
        if not self.edge:
            return bool(near.any())
        return bool(np.any(near & self.inside) or np.any(near & motion.moving))

    def _visit(self, arm: Arm, covered: int) -> None:
        """A frame of a visit: ``arm``, of those over the zone, covers most of it (``covered`` pixels)."""
        if not self.visited or covered >= self.covered:
            self.visited_by, self.covered = arm, covered
        self.visited = True
        self.recent.clear()

    def changes(self, now: Image, before: Image, moved: int | None = None) -> np.ndarray:
        """Where ``now`` differs from ``before`` by ``moved`` (the zone's own threshold unless told), cleaned of
        specks, as a 0/255 mask."""
        moved = self.moved if moved is None else moved
        rough = cv2.dilate((most_changed(now, before) > moved).astype(np.uint8), np.ones((9, 9), np.uint8))
        levelled = cv2.convertScaleAbs(now, alpha=1 / brightening(now, before, rough.astype(bool)))
        changed = (most_changed(levelled, before) > moved) & ~_shaded(levelled, before)
        mask = changed.astype(np.uint8) * 255
        mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
        return cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((5, 5), np.uint8))

    def changed_area(self, now: Image, before: Image, moved: int | None = None) -> float:
        """How much of a card's area changed between two pictures of the zone (0 nothing, 1 a whole card), by
        ``moved`` as ``changes`` has it."""
        return float(np.count_nonzero(self.changes(now, before, moved))) / self.card_area

    def card_outline(self, mask: np.ndarray) -> Corners | None:
        """The card that a change mask shows, as frame corners, when the change is about card-sized.

        The outline takes the card's known size, centred where the change is and turned its way: where a card
        matches what lies under it (a red card on a red cloth, a white border on a pale table) the change shows
        only part of it.
        """
        points = cv2.findNonZero(mask)
        return None if points is None else self._outline(points)

    def _outline(self, points: np.ndarray, view: Image | None = None) -> Corners | None:
        box = cv2.minAreaRect(points)
        (cx, cy), (w, h), angle = box
        if not 0.4 < w * h / self.card_area < 1.5:
            return None
        if view is not None and self._whole(points, box, view):
            return self._in_frame(cv2.boxPoints(box))
        long_side = self.card_height
        size = (long_side / CARD_ASPECT, long_side) if h >= w else (long_side, long_side / CARD_ASPECT)
        return self._in_frame(cv2.boxPoints(((cx, cy), size, angle)))

    def _whole(self, points: np.ndarray, box: tuple[tuple[float, float], tuple[float, float], float],
               view: Image) -> bool:
        """Whether a change is a whole card, white border and all: about a card's size and shape, and its rim
        white. Then its own outline fits the card better than one of the layout's card size, which is measured at
        the draw pile: a camera not straight above the table sees the cards nearer it larger, and a crop too large
        takes in the table round the card, which upsets its colours."""
        (_, _), (w, h), _ = box
        long_side, short_side = max(w, h), max(min(w, h), 1.0)
        return (abs(long_side / self.card_height - 1) <= SIZE_LEEWAY
                and abs(long_side / short_side / CARD_ASPECT - 1) <= SHAPE_LEEWAY and _white_rim(points, box, view))

    def card_outlines(self, mask: np.ndarray, view: Image) -> list[Corners]:
        """Every card-sized patch of a change mask of ``view``, in reading order (top row first, left to right)."""
        gap = max(3, round(self.card_height * 0.05)) | 1
        joined = cv2.dilate(mask, np.ones((gap, gap), np.uint8))
        count, labels = cv2.connectedComponents(joined)
        pieces = [cv2.findNonZero(np.where(labels == label, mask, 0).astype(np.uint8)) for label in range(1, count)]
        found = []
        for piece in self._one_card_each([piece for piece in pieces if piece is not None]):
            outline = self._outline(piece, view) if len(piece) >= self.card_area * SOME_OF_A_CARD else None
            if outline is not None:
                found.append((outline.mean(axis=0), outline))
        row = math.sqrt(self.card_area) * 1.1
        found.sort(key=lambda item: (round(item[0][1] / row), item[0][0]))
        return [outline for _, outline in found]

    def _one_card_each(self, pieces: list[np.ndarray]) -> list[np.ndarray]:
        """Pieces of change (their points) that fit inside one card's outline together, made one. Where the table
        is the colour of a card's white border (a pale table), a card whose white oval crosses it from side to
        side changes in two pieces, too far apart to be joined as touching, each too small to be a card."""
        k = 0
        while k < len(pieces):
            partner = next((j for j in range(k + 1, len(pieces)) if self._one_card(pieces[k], pieces[j])), None)
            if partner is None:
                k += 1
            else:
                pieces[k] = np.concatenate([pieces[k], pieces.pop(partner)])
        return pieces

    def _one_card(self, first: np.ndarray, second: np.ndarray) -> bool:
        """Whether two pieces of change fit inside one card's outline together."""
        both = np.concatenate([first, second])
        width, height = both.reshape(-1, 2).max(axis=0) - both.reshape(-1, 2).min(axis=0)
        if math.hypot(float(width), float(height)) > self.card_height * CARD_SPAN * FIT:
            return False
        (_, _), (w, h), _ = cv2.minAreaRect(both)
        return max(w, h) <= self.card_height * FIT and min(w, h) <= self.card_height / CARD_ASPECT * FIT

    def _in_frame(self, box: np.ndarray) -> Corners:
        quad = [(float(x) + self.box[0], float(y) + self.box[1]) for x, y in box]
        return portrait(quad)


def card_looks(regions: list[Region], corners: Corners, size: tuple[int, int]) -> list[Look]:
    """The card at ``corners`` (pixels of the frames' pictures) in each region, as the card model reads it: cut out
    upright at ``size``, with its index corners."""
    return [look(region.picture, region.points(corners), size) for region in regions]


def _white_rim(points: np.ndarray, box: tuple[tuple[float, float], tuple[float, float], float], view: Image) -> bool:
    """Whether the changed pixels just inside the rim of a change are as white as the whitest of what lies within
    its box (a card's white border and oval, in the lamp's tint), rather than print: where the table is the
    colour of the border, only the print changes."""
    changed = np.zeros(view.shape[:2], np.uint8)
    xs, ys = points.reshape(-1, 2).T
    changed[ys, xs] = 255
    rim = cv2.subtract(cv2.erode(changed, np.ones((3, 3), np.uint8)), cv2.erode(changed, np.ones((7, 7), np.uint8)))
    if not rim.any():
        return False
    within = np.zeros(view.shape[:2], np.uint8)
    cv2.fillConvexPoly(within, np.round(cv2.boxPoints(box)).astype(np.int32), 255)
    inside = view[within > 0].astype(np.float32)
    brightness = inside.sum(axis=1)
    white = np.median(inside[brightness >= np.percentile(brightness, 95)], axis=0)
    edge = np.median(view[rim > 0].astype(np.float32), axis=0)
    return bool(np.all(np.abs(edge - white) <= WHITE_MATCH * white + 8))


def _bounds(area: Circle | Rect) -> tuple[float, float, float, float]:
    if isinstance(area, Circle):
        (x, y), r = area.centre, area.radius
        return x - r, y - r, x + r, y + r
    return area.left, area.top, area.right, area.bottom


def _small_mask(area: Circle | Rect, shape: tuple[int, int]) -> np.ndarray:
    mask = np.zeros(shape, np.uint8)
    if isinstance(area, Circle):
        centre = (round(area.centre[0] / SCALE), round(area.centre[1] / SCALE))
        cv2.circle(mask, centre, max(1, round(area.radius / SCALE)), 1, -1)
    else:
        cv2.rectangle(mask, (round(area.left / SCALE), round(area.top / SCALE)),
                      (round(area.right / SCALE), round(area.bottom / SCALE)), 1, -1)
    return mask.astype(bool)


def _shaded(now: Image, before: Image) -> np.ndarray:
    """Pixels that are as before, only darker by about the same share in every channel: a shadow."""
    ratio = (now.astype(np.float32) + 4) / (before.astype(np.float32) + 4)
    low, high = ratio.min(axis=2), ratio.max(axis=2)
    return np.asarray((low > SHADE[0]) & (high < SHADE[1]) & (high - low < SHADE[2]))

