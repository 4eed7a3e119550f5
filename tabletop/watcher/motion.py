"""Arms over the table: what differs from the quiet table and reaches in from the edge of the picture.

Everything here works on a quarter-size copy of the frame, which is all that telling an arm from a table needs,
and is what keeps the watcher fast enough for a Raspberry Pi. The quiet table is learnt again whenever nothing
moves, so slow changes of light and the cards that pile up become part of it.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from tabletop.vision.crop import Image
from tabletop.watcher.layout import Layout, Point

SCALE = 4
"""The motion picture is the frame shrunk this many times each way."""
CHANGED = 18
"""How far (0..255, in the most changed channel) a pixel must move from the quiet table to count as changed."""
STILL = 0.002
"""A frame is still when less than this share of it changed since the last one."""
QUIET_FRAMES = 3
"""Frames without change after which the table is quiet and its picture is learnt again."""
FURNITURE_FRAMES = 150
"""Whatever has not moved for this many frames is part of the table, even an arm at rest on it, whatever else
moves meanwhile: a ghost left in the quiet table by someone who leant in for a while fades the same way."""
EDGE_SPECKS = 8
"""Changed pixels (of the quarter-size picture) along its edge that are still only specks, not an arm."""
BRIDGED = 2
"""Changed blobs this many pixels apart (of the quarter-size picture) are one."""
LIGHT_CHANGE = 0.4
"""A change over more than this share of the picture is the light changing, not an arm."""


@dataclass(frozen=True, slots=True)
class Arm:
    """Something reaching in from the edge: where it crosses the edge and how far in it reaches (full-size px)."""

    entry: Point
    tip: Point
    mask: np.ndarray
    """Where the arm is, in the quarter-size picture."""


@dataclass(frozen=True, slots=True)
class Motion:
    arms: tuple[Arm, ...]
    still: bool
    """Nothing changed since the last frame (arms that do not move included)."""
    moving: np.ndarray
    """Where the quarter-size picture changed since the last frame."""
    gain: float
    """How much brighter the room is than when the quiet table was learnt."""


class MotionSensor:
    """Compares each frame with the quiet table; what changed and touches the picture's edge is an arm."""

    def __init__(self, layout: Layout) -> None:
        self.layout = layout
        self.quiet: Image | None = None
        self.previous: Image | None = None
        self.calm = 0
        self.unmoved: np.ndarray | None = None
        """Per pixel, the frames it has kept within ``CHANGED`` of ``settled``."""
        self.settled: Image | None = None
        """Per pixel, where it last came to rest, levelled to the quiet table's light."""
        area = layout.card_height ** 2 * 56 / 87 / SCALE ** 2
        self.smallest_arm = area * 0.25

    def update(self, frame: Image) -> Motion:
        small = cv2.resize(frame, (frame.shape[1] // SCALE, frame.shape[0] // SCALE), interpolation=cv2.INTER_LINEAR)
        moving = _changed(small, small if self.previous is None else self.previous)
        still = moving.mean() < STILL
        self.previous = small
        self.calm = self.calm + 1 if still else 0
        if self.quiet is None or self.unmoved is None or self.settled is None:
            self.quiet, self.settled, self.unmoved = small.copy(), small.copy(), np.zeros(moving.shape, np.int32)
        gain = brightening(small, self.quiet)
        levelled = cv2.convertScaleAbs(small, alpha=1 / gain)
        _settle(levelled, self.settled, self.unmoved)
        changed = _changed(levelled, self.quiet)
        if changed.mean() > LIGHT_CHANGE:
            arms: tuple[Arm, ...] = ()
        else:
            arms = self._arms(changed)
        if self._quiet(arms, changed):
            self.quiet, self.settled, gain = small.copy(), small.copy(), 1.0
        else:
            furniture = self.unmoved >= FURNITURE_FRAMES
            self.quiet[furniture] = self.settled[furniture]
        return Motion(arms, still, moving, gain)

    def _quiet(self, arms: tuple[Arm, ...], changed: np.ndarray) -> bool:
        """Whether the table may be learnt again: still for a few frames, with no arm in view and nothing else at
        the edge. An arm is one however few pixels of the edge it crosses (a slim arm, a camera high above the
        table): held still, it is no more the table than when it moves."""
        return self.calm >= QUIET_FRAMES and not arms and not _at_edge(changed)

    def _arms(self, changed: np.ndarray) -> tuple[Arm, ...]:
        """The changed blobs that touch the picture's edge. Blobs a gap of ``BRIDGED`` pixels apart are one: a
        wrist over something of its own colour (a brown wrist over the deck's red back) changes nothing there,
        and the hand beyond it would be cut off from the arm."""
        mask = cv2.morphologyEx(changed.astype(np.uint8), cv2.MORPH_OPEN, np.ones((2, 2), np.uint8))
        joined = cv2.dilate(mask, np.ones((BRIDGED + 1, BRIDGED + 1), np.uint8))
        count, labels, stats, _ = cv2.connectedComponentsWithStats(joined, connectivity=8)
        height, width = mask.shape
        arms = []
        for label in range(1, count):
            x, y, w, h, _ = stats[label]
            if not (x == 0 or y == 0 or x + w == width or y + h == height):
                continue
            blob = (labels == label) & (mask > 0)
            if np.count_nonzero(blob) >= self.smallest_arm and _touches_edge(blob):
                arms.append(_arm(blob))
        return tuple(arms)


def _settle(levelled: Image, settled: Image, unmoved: np.ndarray) -> None:
    """Count, in place, how long each pixel has kept to where it came to rest. A pixel that creeps (the soft
    edge of a shadow coming in, an arm easing to a stop) moves as surely as one that jumps, though never far
    from one frame to the next: judged frame by frame it would pass for still, and be taken into the quiet
    table bit by bit, to linger there as an arm once the arm had gone."""
    drifted = _changed(levelled, settled)
    unmoved[:] = np.where(drifted, 0, unmoved + 1)
    settled[drifted] = levelled[drifted]


def _changed(a: Image, b: Image) -> np.ndarray:
    """Which pixels differ by more than ``CHANGED`` in any channel."""
    return np.asarray(most_changed(a, b) > CHANGED)


def most_changed(a: Image, b: Image) -> Image:
    """How much each pixel differs between two pictures, in its most changed channel (OpenCV: numpy's
    ``max(axis=2)`` over three channels is twenty times slower)."""
    blue, green, red = cv2.split(cv2.absdiff(a, b))
    return cv2.max(cv2.max(blue, green), red)


def _at_edge(changed: np.ndarray) -> bool:
    """Whether something changed at the picture's edge: the last of an arm, or of its shadow, leaving. A few
    specks (glare that clips, noise) are not an arm, and must not keep the quiet table from being learnt again."""
    ring = int(changed[0].sum() + changed[-1].sum() + changed[:, 0].sum() + changed[:, -1].sum())
    return ring > EDGE_SPECKS


def brightening(now: Image, then: Image, changed: np.ndarray | None = None) -> float:
    """How much brighter ``now`` is than ``then``: the median of the pixels' ratios, so that an arm or a new card
    (a part of the picture that really changed) does not sway it; pixels marked ``changed`` are left out."""
    lit = cv2.cvtColor(now, cv2.COLOR_BGR2GRAY)[::3, ::3].astype(np.float32) + 4
    before = cv2.cvtColor(then, cv2.COLOR_BGR2GRAY)[::3, ::3].astype(np.float32) + 4
    ratios = lit / before
    if changed is not None and (kept := ~changed[::3, ::3]).mean() > 0.1:
        ratios = ratios[kept]
    return float(np.median(ratios))


def _touches_edge(blob: np.ndarray) -> bool:
    return bool(blob[0].any() or blob[-1].any() or blob[:, 0].any() or blob[:, -1].any())


def _arm(blob: np.ndarray) -> Arm:
    """Where a blob touches the edge, and its point farthest from there."""
    edge = np.zeros_like(blob)
    edge[0, :] = edge[-1, :] = edge[:, 0] = edge[:, -1] = True
    ey, ex = np.nonzero(blob & edge)
    entry = (float(ex.mean()), float(ey.mean()))
    ys, xs = np.nonzero(blob)
    far = int(np.argmax((xs - entry[0]) ** 2 + (ys - entry[1]) ** 2))
    tip = (float(xs[far]), float(ys[far]))
    return Arm(_full(entry), _full(tip), blob)


def _full(point: Point) -> Point:
    return (point[0] + 0.5) * SCALE, (point[1] + 0.5) * SCALE


