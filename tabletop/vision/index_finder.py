"""Finding the cards of which no more than an index corner shows: a hand dropped face up in a heap, a row laid
down to be counted, a fan.

Every UNO card prints its numeral or symbol small in two corners, and in a heap of cards that is often all that
shows of most of them. A small network (``models/index-finder.onnx``, trained by ``train_index_finder`` on
rendered heaps) takes in the whole picture shrunk to about ``LONG_SIDES`` pixels and marks the middle of every
index corner it can see, with which way up the card lies there and how tall the card is. From those three the
card is placed as if it were whole, so that its index is cut out exactly as the index model learnt to read it
(``crop.index_corners``): the covered card is read from its corner alone.
"""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
import numpy.typing as npt

from tabletop.errors import ModelError
from tabletop.vision.crop import CARD_ASPECT, INDEX_BOX, Corners, Image, index_corners
from tabletop.vision.found import height
from tabletop.vision.model import MODELS, cpu_session

INDEX_FINDER = "index-finder.onnx"
LONG_SIDES = (384,)
"""The long sides (pixels) of the picture as the index finder sees it, one look at each, where the cards' height is
not known: an index a tenth of a card tall must still be a few pixels."""
CARDS_IN_VIEW = (90.0, 115.0, 140.0)
"""How tall (pixels) the index finder sees a card whose height in the picture is known (the reveal zone of a
measured table), one look at each: well inside the heights it learnt, its index large enough to mark. The larger
looks find the small, blurred corners of a hand dropped in rows that the first misses (bench watcher's dropped
hands, with the reveal zone keeping every index on the cards laid and the index model before the shipped one: 49
of 56 cards at 90 and 115, 51 at 90, 115 and 140, 52 with 165 as well; the shipped models read 50 at the three)."""
HAND_IN_VIEW = (*CARDS_IN_VIEW, 165.0)
"""The heights a hand laid down to be counted is looked at: one look more than a heap given to ``classify --all``,
as a reveal is read once, when the hand lies still, and its time matters less than its every card. Over the
simulator's 20 rounds of hands dropped in rows: 211 of 223 cards read, one read that was not there, against 206
and two with ``CARDS_IN_VIEW``. The fourth look is the largest (``LARGEST_VIEW`` caps it)."""
LARGEST_VIEW = 768
"""The longest side the index finder is given, however small the cards: its time grows with its input."""
AREA_BELOW = 0.5
"""How far the picture must be shrunk for the index finder to be area-averaged rather than resized bilinearly.
Nearer its own size, a bilinear resize loses little to aliasing, and OpenCV's area resize by a factor that is no
whole number is slow: on a 640 x 480 heap the looks at 90 and 115 pixels a card took 1.7 and 2.7 ms to resize
against 0.3 and 0.5, and the heap 51 to 55 ms against 55 to 57, timed in turn. On the real fans: 2,636 of 2,697
cards read right either way, 49 where none lies against 54; over the simulator's 20 rounds of dropped hands,
214 of 223 cards against 212. With OpenCV 5.1 and ``every_card.SHORTEST``: the real fans 2,636 and 45 against
2,635 and 49; the dropped hands 213 and 3 counted that the hand did not hold against 211 and 2 (a yellow reverse
missed one way is read as a yellow 2 the other)."""
PEAK = 0.5
"""Least mark at the middle of an index for it to be one on its own word (fainter marks, down to ``FAINT_PEAK``,
are found too, and read only where a card read vouches for them)."""
FAINT_PEAK = 0.3
"""Least mark at the middle of an index for it to be one where the card read beside it vouches for it (see
``every_card.BESIDE``): the index of a card fanned tight under the next shows as a sliver, and the finder marks
it faintly. Of the 24 cards of the real fans whose index no mark of ``PEAK`` found, most were the bottom card of
a tight fan. On the real fans: 2,619 of 2,697 read right, 58 where none lies; at 0.25, 2,621 and 61; at 0.2, 2,621,
65, and one more read wrong and sure. Over the simulator's 20 rounds of dropped hands, 212 of 223 (211 at
``PEAK``)."""
SIZE_STEPS = 28.0
"""The finder gives a card's height as ``SIZE_STEPS`` times its base-2 logarithm (pixels of its input)."""
INDEX_MIDDLE = ((INDEX_BOX[0] + INDEX_BOX[2]) / 2, (INDEX_BOX[1] + INDEX_BOX[3]) / 2)
"""The middle of the index corner, as shares of the card's width and height from its top left."""
APART = 0.12
"""Two marks nearer than this (a share of the card's height) are one index."""
NEIGHBOURS = np.mgrid[-1:2, -1:2].reshape(2, 1, 9)
"""A mark's own output pixel and its eight neighbours, as steps down and right."""


@dataclass(frozen=True)
class FoundIndex:
    """An index corner in the picture: where the card it belongs to would lie were it whole (``card``, its
    corners clockwise from the top left as ``crop.look`` takes them, so that its top-left index is this one),
    where the index's middle lies, and how sure the finder is (0 to 1)."""

    card: Corners
    middle: npt.NDArray[np.float32]
    score: float

    @functools.cached_property
    def index(self) -> Corners:
        """The quad round the index itself: worked out only for the marks that are read, of the dozens a heap
        shows, faint ones most of all."""
        return index_corners(self.card)[0]


class IndexFinder:
    """The index finder's network, loaded once."""

    def __init__(self, path: Path | None = None, threads: int = 1) -> None:
        path = path or MODELS / INDEX_FINDER
        try:
            self.session = cpu_session(path, threads)
            meta = self.session.get_modelmeta().custom_metadata_map
            self.multiple = int(json.loads(meta["input"])["multiple"])
            self.stride = int(json.loads(meta["output"])["stride"])
        except Exception as err:
            raise ModelError(f"cannot load the index finder {path}: {err}") from err

    def marks(self, image: Image, shrink: float) -> tuple[npt.NDArray[np.float32], float]:
        """The network's four maps (index middles, the card's up direction as cosine and sine, its height) on the
        image shrunk by ``shrink``, and how many of the image's pixels one pixel of its input is."""
        height, width = image.shape[:2]
        size = (self._fit(width * shrink), self._fit(height * shrink))
        small = cv2.resize(image, size, interpolation=cv2.INTER_AREA if shrink < AREA_BELOW else cv2.INTER_LINEAR)
        (out,) = self.session.run(None, {"frames": small[None]})
        return np.asarray(out[0], np.float32), width / size[0]

    def _fit(self, side: float) -> int:
        return max(self.multiple, round(side / self.multiple) * self.multiple)

    def find(self, image: Image, card_height: float | None = None,
             heights: tuple[float, ...] = CARDS_IN_VIEW) -> list[FoundIndex]:
        """Every index corner in ``image`` (BGR), faint ones too (``FAINT_PEAK``), the surest first. Where
        ``card_height`` (pixels of ``image``) is known, the image is looked at so that a card is each of ``heights``
        tall; else at each of ``LONG_SIDES``. An index marked in more than one look is the surest of its marks."""
        found: list[FoundIndex] = []
        for shrink in _shrinks(image, card_height, heights):
            found += self._indexes(*self.marks(image, shrink))
        return _apart(sorted(found, key=lambda index: index.score, reverse=True))

    def _indexes(self, maps: npt.NDArray[np.float32], scale: float) -> list[FoundIndex]:
        """The indexes marked on the network's maps: each middle weighed over the mark and its neighbours, the card's
        direction where the mark peaks and its height over the neighbours; all marks at once, as a heap shows
        dozens."""
        heat = maps[0]
        ys, xs = np.nonzero((heat >= FAINT_PEAK) & (heat == cv2.dilate(heat, np.ones((3, 3), np.uint8))))
        rows, cols = ys[:, None] + NEIGHBOURS[0], xs[:, None] + NEIGHBOURS[1]
        around = np.pad(maps, ((0, 0), (1, 1), (1, 1)), constant_values=np.nan)[:, rows + 1, cols + 1]
        weights = np.nan_to_num(around[0])
        total = weights.sum(axis=1)
        cells = np.stack([(cols * weights).sum(axis=1), (rows * weights).sum(axis=1)], axis=1) / total[:, None] + 0.5
        middles = cells * self.stride * scale
        ups = maps[1:3, ys, xs].T.astype(np.float64)
        ups /= np.maximum(np.linalg.norm(ups, axis=1), 1e-6)[:, None]
        talls = 2 ** (np.nanmean(around[3], axis=1) / SIZE_STEPS) * scale
        cards = card_round(middles, ups, talls)
        return [FoundIndex(card, middle, float(score))
                for card, middle, score in zip(cards, middles.astype(np.float32), heat[ys, xs], strict=True)]


def _shrinks(image: Image, card_height: float | None, heights: tuple[float, ...]) -> list[float]:
    longest = max(image.shape[:2])
    if card_height is None:
        return [side / longest for side in LONG_SIDES]
    return [min(tall / card_height, LARGEST_VIEW / longest) for tall in heights]


def card_round(middle: npt.NDArray[np.float64], up: npt.NDArray[np.float64],
               height: float | npt.NDArray[np.float64]) -> Corners:
    """The corners of the card ``height`` pixels tall, lying with its top toward ``up`` (a unit vector, in the
    picture's x right and y down), whose top-left index has its middle at ``middle``; of many cards at once where
    each is given one per row (a heap's dozens of marks)."""
    right = np.stack([-up[..., 1], up[..., 0]], axis=-1)
    tall = np.asarray(height, np.float64)[..., None]
    width = tall / CARD_ASPECT
    top_left = middle - INDEX_MIDDLE[0] * width * right + INDEX_MIDDLE[1] * tall * up
    top_right = top_left + width * right
    return np.stack([top_left, top_right, top_right - tall * up, top_left - tall * up], axis=-2).astype(np.float32)


def _apart(found: list[FoundIndex]) -> list[FoundIndex]:
    """One index for each group of marks that lie too near each other to be two (``APART``), the surest first:
    one index marked in several looks, or twice in one, placed from all its marks (``_agreed``). Each mark is
    measured against every group's surest mark at once: a heap's 60 to 100 marks, measured group by group in Python,
    took 3.3 to 6.7 ms of its time, against 2.0 to 5.5 ms so."""
    groups: list[list[FoundIndex]] = []
    surest = np.empty((len(found), 2), np.float64)
    for index in found:
        gaps = np.hypot(*(surest[:len(groups)] - index.middle).T)
        if groups and gaps.min() <= APART * height(index.card):
            groups[int(gaps.argmin())].append(index)
        else:
            surest[len(groups)] = index.middle
            groups.append([index])
    return [_agreed(group) for group in groups]


def _agreed(marks: list[FoundIndex]) -> FoundIndex:
    """The index the ``marks`` of one corner agree on, each weighing as sure as the finder is of it: the weighted mean
    of their middles, of their cards' heights (in proportion) and of the ways their cards' tops point, of those that
    point the same way as the surest (within a quarter turn), at the surest's score.

    Each look errs on its own, and the surest mark is not always the best placed: on the real fans, every card was
    read right 2,636 of 2,697 times from the marks' mean, against 2,624 from the surest mark alone, 54 where none
    lies against 56, and none wrong and sure against 1 (F1 0.968 -> 0.973). Over the simulator's 20 rounds of
    dropped hands, 212 of 223 against 213. Their median instead read 2,637 to 2,638 of the real fans' cards and lost
    4 of the first 12 rounds' dropped cards."""
    surest = marks[0]
    if len(marks) == 1:
        return surest
    ups = np.array([mark.card[0] - mark.card[3] for mark in marks], np.float64)
    talls = np.linalg.norm(ups, axis=1)
    ways = ups / talls[:, None]
    weights = np.array([mark.score for mark in marks], np.float64) * (ways @ ways[0] > 0)
    weights /= weights.sum()
    way = weights @ ways
    middle = weights @ np.array([mark.middle for mark in marks], np.float64)
    card = card_round(middle, way / np.linalg.norm(way), float(np.exp(weights @ np.log(talls))))
    return FoundIndex(card, middle.astype(np.float32), surest.score)


@functools.cache
def default_index_finder() -> IndexFinder:
    return IndexFinder()
