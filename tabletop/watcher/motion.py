"""Arms over the table: what differs from the quiet table and reaches in from the edge of the picture.

Everything here works on a quarter-size copy of the frame, which is all that telling an arm from a table needs,
and is what keeps the watcher fast enough for a Raspberry Pi. The quiet table is learnt again whenever nothing
moves, wherever no arm reaches in, so slow changes of light and the cards that pile up become part of it.
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
LEARNT_FRAMES = 10
"""While an arm is in view, frames a changed pixel must keep still before it is learnt into the quiet table."""
FURNITURE_FRAMES = 150
"""Whatever has not moved for this many frames is part of the table, even an arm at rest on it, whatever else
moves meanwhile: a ghost left in the quiet table by someone who leant in for a while fades the same way."""
BRIDGED = 2
"""Changed blobs this many pixels apart (of the quarter-size picture) are one."""
FLICKER = 0.15
"""The most a flickering lamp and a rolling shutter's bands brighten or darken a pixel beyond the whole picture's
change of light: pixels that changed more than that changed for another reason."""
BAND = np.array([1, 4, 6, 4, 1], np.float32) / 16
"""How a row's brightness is smoothed with its neighbours' (every other row of the quarter-size picture): a
flicker band spans dozens of rows, a speck of noise one."""
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
        previous = small if self.previous is None else self.previous
        moving = _changed(levelled_rows(small, previous)[0], previous)
        still = moving.mean() < STILL
        self.previous = small
        self.calm = self.calm + 1 if still else 0
        if self.quiet is None or self.unmoved is None or self.settled is None:
            self.quiet, self.settled, self.unmoved = small.copy(), small.copy(), np.zeros(moving.shape, np.int32)
        levelled, gain = levelled_rows(small, self.quiet)
        _settle(levelled, self.settled, self.unmoved)
        changed = _changed(levelled, self.quiet)
        if changed.mean() > LIGHT_CHANGE:
            arms: tuple[Arm, ...] = ()
        else:
            arms = self._arms(changed)
        if self.calm >= QUIET_FRAMES:
            self.quiet, self.settled = _learnt(small, changed, self.quiet, self.settled, self.unmoved)
            gain = 1.0
        else:
            furniture = self.unmoved >= FURNITURE_FRAMES
            self.quiet[furniture] = self.settled[furniture]
        return Motion(arms, still, moving, gain)

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


def _learnt(small: Image, changed: np.ndarray, quiet: Image, settled: Image, unmoved: np.ndarray
            ) -> tuple[Image, Image]:
    """The quiet table learnt again, but where something reaches in from the edge: an arm, or its shadow, held
    still is no more the table than when it moves, however few pixels of the edge it crosses.

    Players who hold their cards at the table's edge keep an arm in view all round: a card just laid on the pile
    must still become part of the table, or the next arm to reach near it would seem to reach on to it. So with
    an arm in view, what changed and has since kept still for ``LEARNT_FRAMES`` is learnt, and nothing else: not
    the soft edge of a shadow creeping in a few levels a frame, never far from the quiet table, which would be
    taken in bit by bit."""
    reaching = _reaching(changed)
    if not reaching.any():
        return small.copy(), small.copy()
    near = cv2.dilate(reaching.astype(np.uint8), np.ones((2 * BRIDGED + 1,) * 2, np.uint8)).astype(bool)
    learnt = changed & ~near & (unmoved >= LEARNT_FRAMES)
    quiet[learnt] = small[learnt]
    settled[learnt] = small[learnt]
    return quiet, settled


def _reaching(changed: np.ndarray) -> np.ndarray:
    """The changed blobs that touch the picture's edge, whatever their size (the last of an arm leaving is one),
    blobs ``BRIDGED`` pixels apart being one."""
    joined = cv2.dilate(changed.astype(np.uint8), np.ones((BRIDGED + 1, BRIDGED + 1), np.uint8))
    _, labels = cv2.connectedComponents(joined, connectivity=8)
    ring = np.concatenate([labels[0], labels[-1], labels[:, 0], labels[:, -1]])
    return np.isin(labels, np.unique(ring[ring > 0])) & changed


def levelled_rows(now: Image, then: Image) -> tuple[Image, float]:
    """``now`` brought to ``then``'s brightness row by row, and how much brighter ``now`` is overall.

    The room's light drifts and lamps are switched, which the whole picture shares: the median of the pixels'
    ratios says by how much, whatever an arm does to some of them. Lamps on the mains also flicker at 100 or
    120 Hz: a camera's frames beat brighter and darker, and its rolling shutter draws soft bands across the
    picture that drift from frame to frame. Those are found row by row from the pixels whose light changed by no
    more than a flicker can (``FLICKER``): an arm, a sleeve or a card changes its pixels far more, so however much
    of a row it covers, it is left out of the row's measure and is not levelled away. A pixel's light is that of
    its brightest channel: on a saturated cloth one channel may be all but dark (a magenta one has next to no
    green), and the ratios of a few levels, rounded by a webcam's compression, are noise; levelled by them, the
    flicker was not levelled at all, and arms were seen all over the table.
    """
    lit = now[::2, ::2].max(axis=2).astype(np.float32) + 4
    before = then[::2, ::2].max(axis=2).astype(np.float32) + 4
    ratios = lit / before
    whole = float(np.median(ratios))
    relative = ratios / whole
    within = (relative > 1 / (1 + FLICKER)) & (relative < 1 + FLICKER)
    counted = within.sum(axis=1)
    rows = np.where(counted > 0, (relative * within).sum(axis=1) / np.maximum(counted, 1), 1.0)
    rows = np.convolve(np.concatenate([rows[:1], rows[:1], rows, rows[-1:], rows[-1:]]), BAND, "valid") * whole
    height, width = now.shape[:2]
    scale = np.empty((height, width * 3), np.float32)
    scale[:] = (1 / np.interp(np.arange(height), np.arange(len(rows)) * 2, rows))[:, None]
    return cv2.multiply(now, scale.reshape(now.shape), dtype=cv2.CV_8U), whole


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


