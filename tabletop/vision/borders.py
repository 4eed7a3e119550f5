"""Finding UNO cards by their white border: four corners per card, most prominent card first.

The quick finder, tried first (see ``reader``): where a card's border stands out from the table it places the
card to a pixel in a few milliseconds. The learned ``finder`` backs it where it does not (a pale table, a thumb
across the border, a busy cloth).

Outlines are looked for on a copy shrunk to about ``WORK_SIDE`` pixels, because edge and contour work grows with
the pixel count and the referee has a few milliseconds per frame. Each outline is then settled onto the card's
edge and judged on the full-resolution picture, because a card's white border is only a few pixels wide and
shrinking blurs it into the table.

Geometry on four points is done in plain floats: at this size numpy's per-call cost would dominate the budget.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from typing import NamedTuple

import cv2
import numpy as np
import numpy.typing as npt
from cv2.typing import MatLike

from tabletop.vision.crop import CARD_ASPECT, Corners, Image
from tabletop.vision.found import FoundCard, Quad, meet, portrait

WORK_SIDE = 320
"""About how many pixels the long side of the shrunk copy has."""
MIN_AREA = 0.01
"""Smallest card worth finding, as a fraction of the picture."""
ASPECTS = (1.3, 1.85)
"""Long over short side that can still be a card: one seen with a little perspective, or a picture that is a photo
of one card, whose outline is the picture's own edge (``_whole``)."""
HULL_ASPECTS = (1.15, 2.3)
"""Long over short side of the rectangle round a lone curve's hull that may hold a card. Looser than ``ASPECTS``
because it is only a quick check before the costlier search for the card's sides, and must drop nothing that
those sides would pass: the rectangle round a tilted card, or round a card with a finger over its edge, is
squatter or longer than the card's own sides."""
RECTANGULAR = 0.8
"""Least share of that rectangle a lone curve's hull must fill: a card's hull is a rectangle, give or take its
rounded corners and a little perspective."""
SOLID = 0.7
"""Least share of its hull that a lone curve must fill to be a solid outline (a card's or its face's), measured by
its own area; a thinner one is a ring (a border with a thumb across it), measured by its hull."""
SPARSE = 0.1
"""Share of its hull below which a curve is too sparse to be a card: scattered specks or lines of the table."""
LARGEST_HULL = 0.97
"""Largest share of the picture a curve's hull may cover: one that covers more runs round the picture's own edge,
and a card that fills the picture is judged whole instead (``_whole``)."""
FILLED = (0.85, 1.15)
"""How much of the quad found from a curve's sides the curve must cover (its area, or its hull's if it is no solid
outline, over the quad's): a card's or a face's whole outline fills its quad closely."""
FILLED_ROUGHLY = (0.5, 2.0)
"""The same for pieces or a ring, which cover their card only roughly: the pieces of a face cut by its oval
fall short of its sides, a finger over a border sticks out of them."""
SAME_BOX = 2
"""How far (pixels of the shrunk copy) the bounding boxes of two curves may differ and still be one outline: an
edge loop comes as two contours, its inside and its outside."""
SAME_QUAD = 3
"""How far (pixels of the shrunk copy) two quads' corners may lie apart and still be one card's: one card's
outline comes from several kinds of curve."""
PIECE = 1 / 16
"""Smallest hole in a white area worth keeping, as a share of the smallest card: the oval cuts a face into
pieces this small, which only together show its four sides."""
POLYGON = 0.01
"""How far (a share of a curve's length) the polygon drawn along a curve may stray from it: enough to straighten
a side's pixel steps, too little to cut off a card's corner."""
ONE_LINE = 0.1
"""Largest sine of the angle between two pieces of outline that lie along one straight side (about 6 degrees)."""
PARALLEL = 0.25
"""Largest sine of the angle between a card's opposite sides (about 14 degrees): perspective turns them apart."""
ACROSS = 0.9
"""Least sine of the angle between a card's neighbouring sides (about 64 degrees): perspective turns them off
square."""
WHOLE_EVEN = 0.97
"""Share of the rim of a picture that is a photo of one card (``_whole``) that must be white."""
RIDGE = cv2.getStructuringElement(cv2.MORPH_RECT, (7, 7))
"""Bright lines narrower than this (in the shrunk copy) count as a possible white border."""
RIDGE_LEVEL = 30
"""How much whiter than its surroundings a ridge must be."""
SPECKLED = 0.1
"""Share of the shrunk picture in ridges beyond which a cloth's pattern speckles it (dots, a fine weave)."""
THIN = cv2.getStructuringElement(cv2.MORPH_RECT, (3, 3))
"""White lines this thin (the oval on a face, a numeral's rim) are wiped before looking for faces."""
STRAIGHT = 2.0
"""How far (pixels of the shrunk copy) two pieces of outline may lie apart and still be one straight side."""
SIDES = 8
"""How many of the longest straight lines along a curve may be a card's sides."""
BORDER = 0.06
"""Width of a card's white border as a fraction of the card's width."""
GREW = 1.12
"""Growth in settling beyond which an outline may have been the face's rather than the card's."""

PROBE = (48, 72)
"""Size (width, height) the card is warped to for settling and judging its outline: small enough to be quick,
large enough to show the border. Its own, not the card model's crop, which is larger to read fine print."""
REACH = 6
"""How far (probe pixels) a side may move when settled onto the card's edge."""
BAR = (2, 5)
"""Widths (probe pixels) a card's white border can have in the probe: 6% of its width, give or take blur."""
RISE = 20.0
"""Least contrast of a border-wide bar, against the table outside and the face inside, to count as the border."""
CLEAR = 0.3
"""Least contrast of a bar, as a share of the strongest bar across its stretch, to count as clear (as well as
``RISE``): the faint bars that wood grain makes beside a border do not."""
NUDGE = 0.25
"""Least shift (probe pixels) of a side that is worth settling."""
RELOOK = 2.5
"""Shift (probe pixels) beyond which the settled outline is looked at again before it is judged."""
FIT = 1.5
"""How far (probe pixels) the edge may lie from a settled outline and still count as on it."""
ALL_ROUND = 0.75
"""Share of the stretches where the card's edge must be seen for its outline to count as seen all round: its fit
then counts, and the border need stand out from the table only by ``SEEN_LIFT``."""
TWIST = 3
"""Most that the two stretches of one side may disagree (probe pixels) before the nearer one sets the side."""
DEPTH = REACH + 1 + BAR[1]
"""How far (probe pixels) each side's profile reaches either side of the outline: far enough for any bar."""
MARGIN = DEPTH + 1
"""Probe pixels of table kept round the card in the warp: one more than each side's profile reaches."""
RIM = 5
"""How many probe pixels in from the outline the white border is looked for when judging."""
EDGE_LEVELS = (40, 100)
"""Canny's two levels on the blend of whiteness and value: a card's border against a table steps by far more than
the high one, a cloth's weave or a wood grain mostly by less than the low one."""
STEP = 2
"""Pixels before and after a bar of the profile that its step up and step down are measured against: one is
blurred into the bar by the warp, two reach the table and the face beyond."""
TABLE_STRIP = (4, 1)
"""The table beside an outline: from this many pixels outside it to this many, clear of the outline's own blur."""
FULL_CONTRAST = 0.5
"""How much darker than its border a face must be, as a share of the border's whiteness, to count fully: even a
yellow face is that much darker in whiteness, a pale patch of table is not."""
FRAME_INSET = 25
"""A picture that is a photograph of one card has its rim looked at this fraction (1/FRAME_INSET) of its long side
in from the edge: past the dark fringe a lens leaves at a picture's very edge, still on the card's border."""
MIN_SCORE = 0.4
"""Least score of a card that is reported."""
TIE = 0.1
"""Scores closer than this count as equally sure."""
INSIDE = 0.9
"""Share of an outline that must lie inside a card already found to count as inside it; where the card lies as
much inside the outline too, the two are one card's."""
SAME_SIZE = 0.95
"""An outline inside a card already found, with more than this share of the card's area, is that card's own."""
SURE = 0.98
"""Quality of a find beyond which whatever lies inside it is taken for a part of that card."""
RIVALS = 0.5
"""Share of the smaller of two detections that must lie inside the other for the two to be rivals for one card."""
PART = 0.75
"""Of two overlapping detections about as sure, a smaller one with less than this share of the other's area is
a part of that card, not the card."""
MAX_TINT = 0.3
"""How far the border's smallest channel may fall below its largest: a camera's cream or cyan cast, no more."""
SEEN_LIFT = 0.08
"""How much brighter than the table just outside the outline the border must be, as a fraction of the border."""
INFERRED_LIFT = 0.4
"""The same where the border's outer edge was not seen, so that a pale table could pass for the border."""
SOFTEN = 1.0
"""How much the second look softens the shrunk copy: a Gaussian's sigma, in its pixels."""

Curve = list[MatLike]
"""One closed outline, or several pieces of one."""
Channels = npt.NDArray[np.float32]
Matrix = npt.NDArray[np.float64]

_LENGTHS = (PROBE[0], PROBE[1], PROBE[0], PROBE[1])
_OFFSETS = (0, PROBE[0], PROBE[0] + PROBE[1], 2 * PROBE[0] + PROBE[1])
CORNER = 5
"""A side's rounded corner takes up 1/CORNER of its length at each end: rims and faces are judged away from it."""
STRETCHES = ((0.2, 0.45), (0.55, 0.8))
"""Two stretches of each side, as fractions of its length, that settle where it lies: clear of the corners and
of the middle, where a pale numeral or a finger is likeliest."""
FACE_PERCENTILE = 0.3
"""The face's level is its 30th percentile: below the white numeral and oval."""
_STRETCHES = [(side, start, stop) for side in range(4) for start, stop in STRETCHES]
"""The stretches of each side in turn (top, right, bottom, left)."""
_MIDDLE = np.concatenate([np.arange(offset + length // CORNER, offset + length - length // CORNER)
                          for offset, length in zip(_OFFSETS, _LENGTHS, strict=True)])
"""Where along the sides the rim is judged: away from the rounded corners."""
_STARTS = range(DEPTH - REACH, DEPTH + REACH + 1)
_DEPTHS = np.array(_STARTS, np.float32) - DEPTH - 0.5
"""Depth of the outer edge of a bar starting at each of ``_STARTS``: the nearest clear bar is the border."""
FACE_SHARE = int((PROBE[0] - 2 * (PROBE[0] // CORNER)) * (PROBE[1] - 2 * (PROBE[0] // CORNER)) * FACE_PERCENTILE)
"""Rank of the face pixel taken as the face's level (``FACE_PERCENTILE``)."""


def _stretch_weights() -> Channels:
    """Weights that turn the unrolled sides into each stretch's mean profile across the outline."""
    weights = np.zeros((2 * (PROBE[0] + PROBE[1]), len(_STRETCHES)), np.float32)
    for column, (side, start, stop) in enumerate(_STRETCHES):
        first, last = (_OFFSETS[side] + round(fraction * _LENGTHS[side]) for fraction in (start, stop))
        weights[first:last, column] = 1 / (last - first)
    return weights


def _bar_weights() -> tuple[Channels, Channels]:
    """Weights that turn a profile into, for each bar a border could make (each width, each start), its step up
    from the two pixels before it and its step down to the two pixels after it."""
    up = np.zeros((2 * DEPTH + 1, BAR[1] - BAR[0] + 1, len(_STARTS)), np.float32)
    down = np.zeros_like(up)
    for row, width in enumerate(range(BAR[0], BAR[1] + 1)):
        for column, start in enumerate(_STARTS):
            up[start:start + width, row, column] = down[start:start + width, row, column] = 1 / width
            up[start - STEP:start, row, column] = -1 / STEP
            down[start + width:start + width + STEP, row, column] = -1 / STEP
    return up.reshape(2 * DEPTH + 1, -1), down.reshape(2 * DEPTH + 1, -1)


_STRETCH_WEIGHTS = _stretch_weights()
_UP, _DOWN = _bar_weights()
_ALONG = np.arange(len(_MIDDLE))
_STRETCH_ROWS = np.arange(len(_STRETCHES))
_RISE_STEPS = np.arange(-3, 1)


class _View(NamedTuple):
    """A card warped upright (see ``_look``): its sides unrolled, its face, and the warp from the picture."""

    sides: Channels
    face: Image
    matrix: Matrix


class _Find(NamedTuple):
    """A card found, with how good a find it is: its score, less where the card's edge was not seen.

    Its quality chooses between sightings of one card, found from different outlines.
    """

    card: FoundCard
    quality: float


def find_cards(image: Image, limit: int = 8, piled: bool = False) -> list[FoundCard]:
    """The cards in ``image`` (BGR), most prominent (large and clearly a card) first; empty when there are none.

    The picture is shrunk by a whole factor, which OpenCV does several times faster than by any other. With
    ``piled``, the picture is known to show a pile, where the top card's outline runs into the outlines of the
    cards beneath: every curve is then searched for a card's four sides, which costs more.

    Where nothing is found, the shrunk copy is looked at once more softened (``SOFTEN``): the edges of a finely
    striped, checked or dotted cloth run into a card's outline and break its border, and softening fades them
    while the card's outline stays. The outlines found so are still settled and judged on the sharp picture. It
    is only a second look, taken where the first finds nothing, so that a card the sharp copy shows is placed
    from the sharp copy, and a picture with a card in it costs no more.
    """
    step = max(1, round(max(image.shape[:2]) / WORK_SIDE))
    small = cv2.resize(image, None, fx=1 / step, fy=1 / step, interpolation=cv2.INTER_AREA) if step > 1 else image
    whiteness, value = _extremes(small)
    found = _distinct(_outlined(image, whiteness, value, piled) + _whole(image, whiteness))
    if not found and not piled:
        found = _distinct(_outlined(image, *_extremes(cv2.GaussianBlur(small, (0, 0), SOFTEN)), piled))
    return found[:limit]


def _extremes(small: Image) -> tuple[MatLike, MatLike]:
    """The smallest and the largest channel: whiteness (a white border's) and value (brightness)."""
    blue, green, red = cv2.split(small)
    return cv2.min(cv2.min(blue, green), red), cv2.max(cv2.max(blue, green), red)


def _outlined(image: Image, whiteness: MatLike, value: MatLike, piled: bool) -> list[_Find]:
    """The cards settled and judged on ``image`` from the outlines in its shrunk ``whiteness`` and ``value``."""
    scale = image.shape[1] / whiteness.shape[1]
    found: list[_Find] = []
    for quad in _quads(whiteness, value, piled):
        corners = quad * np.float32(scale)
        if any(_known(corners, sighting) for sighting in found):
            continue
        if (sighting := _settled(image, corners)) is not None:
            found.append(sighting)
    return found


def _settled(image: Image, corners: Corners) -> _Find | None:
    """The card whose outline, or whose face's outline, ``corners`` is.

    A face's outline settles outwards onto the card's edge, but only roughly; so an outline that grew is also
    tried as a face, widened by the border, and kept instead if clearly better.
    """
    sighting = _judge(image, corners)
    if sighting is None or sighting.card.area > GREW * cv2.contourArea(corners):
        wider = _judge(image, _widen(corners))
        if sighting is None or (wider is not None and wider.quality > sighting.quality + TIE / 2):
            sighting = wider
    return sighting


def _quads(whiteness: MatLike, value: MatLike, piled: bool) -> list[Corners]:
    """Card-shaped quadrilaterals around closed curves in the shrunk picture, largest first, each once.

    Curves come from edges in whiteness and value together (the smallest and largest channel: a yellow face
    differs from its white border only in the one, a pale grey table only in the other); from the rims of thin
    bright ridges, which a top-hat keeps while it drops wide pale areas such as a pale wall or a cloth's squares;
    and from the holes in those ridges and in the white of the picture once thin white lines are wiped, all the
    holes in one white area counting together as one curve. A thumb across a card's border breaks its edges but
    leaves the ridge of the border a rim; the oval on a face cuts the face into pieces that only together show
    its four sides; on a pile, the top card's own outline runs into the border of the card beneath, while its
    face is whole.
    """
    edges = cv2.Canny(cv2.addWeighted(whiteness, 0.5, value, 0.5, 0), *EDGE_LEVELS, L2gradient=True)
    _, ring = cv2.threshold(cv2.morphologyEx(whiteness, cv2.MORPH_TOPHAT, RIDGE), RIDGE_LEVEL, 255, cv2.THRESH_BINARY)
    _, white = cv2.threshold(whiteness, 0, 255, cv2.THRESH_BINARY | cv2.THRESH_OTSU)
    frame = whiteness.shape[0] * whiteness.shape[1]
    least = MIN_AREA * frame
    curves: list[Curve] = [[contour] for contour in cv2.findContours(edges, cv2.RETR_LIST, cv2.CHAIN_APPROX_SIMPLE)[0]
                           if cv2.contourArea(contour) >= least]
    wiped = cv2.morphologyEx(white, cv2.MORPH_OPEN, THIN)
    if cv2.countNonZero(ring) > SPECKLED * frame:
        ring = _without_specks(ring, least)
    curves += _areas(ring, least, rims=True) + _areas(wiped, least, rims=False)
    return sorted(_shapes(curves, frame, piled), key=cv2.contourArea, reverse=True)


def _shapes(curves: list[Curve], frame: float, piled: bool) -> list[Corners]:
    """The quad of each card-shaped curve, once: an edge loop comes as two contours (its inside and its outside),
    and one card's outline comes from several kinds of curve."""
    boxes: list[Sequence[int]] = []
    quads: list[Corners] = []
    for curve in curves:
        box = cv2.boundingRect(curve[0] if len(curve) == 1 else np.concatenate(curve))
        if any(max(abs(a - b) for a, b in zip(box, other, strict=True)) <= SAME_BOX for other in boxes):
            continue
        if (quad := _quad(curve, frame, piled)) is not None:
            boxes.append(box)
            if all(np.abs(quad - other).max() > SAME_QUAD for other in quads):
                quads.append(quad)
    return quads


def _areas(mask: MatLike, least: float, rims: bool) -> list[Curve]:
    """For each white area in ``mask`` big enough for a card: its rim (if ``rims``), and the holes in it that are
    not specks, together as one curve."""
    contours, hierarchy = cv2.findContours(mask, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    if not contours:
        return []
    areas = _contour_areas(contours)
    parents = hierarchy[0][:, 3]
    outer = (parents < 0) & (areas >= least) if rims else np.zeros(len(contours), bool)
    inner = (parents >= 0) & (areas >= PIECE * least)
    inner[inner] &= areas[parents[inner]] >= least
    holes: dict[int, Curve] = {}
    for k in np.flatnonzero(inner):
        holes.setdefault(int(parents[k]), []).append(contours[k])
    return [[contours[k]] for k in np.flatnonzero(outer)] + list(holes.values())


def _without_specks(mask: MatLike, least: float) -> MatLike:
    """``mask`` without the white specks whose bounding box is smaller than ``least``.

    Such a speck can be neither a card's rim nor hold a card-sized hole, so ``_areas`` would drop it anyway; but
    a dotted cloth leaves thousands, and tracing their outlines costs several times more than finding them.
    """
    _, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    keep = (stats[:, cv2.CC_STAT_WIDTH] * stats[:, cv2.CC_STAT_HEIGHT] >= least).astype(np.uint8) * np.uint8(255)
    keep[0] = 0
    cleared: MatLike = keep[labels]
    return cleared


def _contour_areas(contours: Sequence[np.ndarray]) -> npt.NDArray[np.float64]:
    """``cv2.contourArea`` of every contour at once (the shoelace formula over all their points together): a
    busy cloth gives thousands of specks, too many to measure one call at a time."""
    lengths = np.fromiter(map(len, contours), np.int64, len(contours))
    points = np.concatenate(contours).reshape(-1, 2).astype(np.float64)
    starts = np.cumsum(lengths) - lengths
    following = np.arange(1, len(points) + 1)
    following[starts + lengths - 1] = starts
    x, y = points[:, 0], points[:, 1]
    cross = x * y[following] - x[following] * y
    return np.abs(np.add.reduceat(cross, starts)) / 2


def _quad(curve: Curve, frame: float, piled: bool) -> Corners | None:
    """Four corners of a card-shaped curve (one or more pieces), or None when it is not a card's shape.

    A solid closed curve must fill its quad. Pieces, such as a face cut up by its oval, and a ring, such as the
    border of a card with a thumb across it, need only come near it. A lone curve whose hull is no rectangle of
    about a card's shape is dropped at once, before the costlier search for its sides; unless ``piled``, where
    the outline of the whole pile holds the top card's sides, and the card is left for judging to confirm.
    """
    area = sum(cv2.contourArea(piece) for piece in curve)
    if area < MIN_AREA * frame:
        return None
    hull = cv2.convexHull(curve[0] if len(curve) == 1 else np.concatenate(curve))
    hull_area = cv2.contourArea(hull)
    solid = len(curve) == 1 and area >= SOLID * hull_area
    if hull_area > LARGEST_HULL * frame or area < SPARSE * hull_area:
        return None
    if len(curve) == 1 and not piled and not _rectangular(hull, hull_area):
        return None
    quad = _four(_lines(curve))
    if quad is None or not ASPECTS[0] <= _aspect(quad) <= ASPECTS[1]:
        return None
    corners = portrait(quad)
    fill = (area if solid else hull_area) / max(cv2.contourArea(corners), 1.0)
    return corners if piled or _fills(fill, solid) else None


def _rectangular(hull: MatLike, hull_area: float) -> bool:
    """Whether ``hull`` is about a rectangle of about a card's shape (``RECTANGULAR``, ``HULL_ASPECTS``)."""
    width, height = cv2.minAreaRect(hull)[1]
    aspect = max(width, height) / max(min(width, height), 1)
    return hull_area >= RECTANGULAR * width * height and HULL_ASPECTS[0] < aspect < HULL_ASPECTS[1]


def _fills(fill: float, solid: bool) -> bool:
    """Whether a curve covering ``fill`` of its quad is that card's outline (``FILLED``, ``FILLED_ROUGHLY``)."""
    return FILLED[0] < fill < FILLED[1] or (not solid and FILLED_ROUGHLY[0] < fill < FILLED_ROUGHLY[1])


def _lines(curve: Curve) -> list[list[float]]:
    """The longest straight lines along the pieces of a curve, each as (angle, length, a point on it).

    Pieces of outline on one line count together, so a side broken by a finger still counts whole.
    """
    edges: list[tuple[float, list[float], list[float]]] = []
    for piece in curve:
        polygon = cv2.approxPolyDP(piece, POLYGON * cv2.arcLength(piece, True), True).reshape(-1, 2).tolist()
        edges += [(math.dist(start, end), start, end)
                  for start, end in zip(polygon, polygon[1:] + polygon[:1], strict=True)]
    edges.sort(key=lambda edge: edge[0], reverse=True)
    lines: list[list[float]] = []
    for length, (x, y), (u, v) in edges[:2 * SIDES]:
        angle, middle = math.atan2(v - y, u - x), ((x + u) / 2, (y + v) / 2)
        for line in lines:
            if abs(math.sin(angle - line[0])) < ONE_LINE and _distance(middle, line) < STRAIGHT:
                line[1] += length
                break
        else:
            lines.append([angle, length, *middle])
    return sorted(lines, key=lambda line: -line[1])[:SIDES]


def _four(lines: list[list[float]]) -> Quad | None:
    """Four corners where the card's four sides, picked from ``lines``, meet.

    Lines through the straight sides put the corners where the sides meet, not on the card's rounded corners.
    """
    sides = _card_sides(lines)
    return None if sides is None else meet([((x, y), (math.cos(angle), math.sin(angle))) for angle, _, x, y in sides])


def _card_sides(lines: list[list[float]]) -> list[list[float]] | None:
    """The four lines that make the best-supported card: two pairs of near-parallel lines, across each other, as
    far apart as a card is wide and tall. In order round the card.

    Not simply the four longest: on a pile, sides of the card beneath can outlast the top card's own.
    """
    pairs = [(first, second, _distance(second[2:], first)) for first, second in itertools.combinations(lines, 2)
             if abs(math.sin(second[0] - first[0])) < PARALLEL]
    best: list[list[float]] | None = None
    support = 0.0
    for (first, partner, across), (one, two, along) in itertools.combinations(pairs, 2):
        if (abs(math.sin(one[0] - first[0])) < ACROSS
                or not ASPECTS[0] * min(across, along) <= max(across, along) <= ASPECTS[1] * min(across, along)):
            continue
        total = first[1] + partner[1] + one[1] + two[1]
        if total > support:
            best, support = [first, one, partner, two], total
    return best


def _distance(point: list[float] | tuple[float, float], line: list[float]) -> float:
    """How far ``point`` lies from ``line`` (angle, length, then a point on it)."""
    return abs(math.cos(line[0]) * (point[1] - line[3]) - math.sin(line[0]) * (point[0] - line[2]))


def _aspect(quad: Quad) -> float:
    sides = [math.dist(a, b) for a, b in zip(quad, quad[1:] + quad[:1], strict=True)]
    first, second = sides[0] + sides[2], sides[1] + sides[3]
    return max(first, second) / max(min(first, second), 1e-6)


def _widen(face: Corners) -> Corners:
    """The card around ``face`` if ``face`` is the coloured face inside a card's white border.

    An outline is often only found around the face: where the table is as pale as the border, or where the border
    is a pixel or two wide in the shrunk copy and its two edges run together.
    """
    across, along = BORDER / (1 - 2 * BORDER), BORDER / (CARD_ASPECT - 2 * BORDER)
    square = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], np.float32)
    grown = square * np.array([1 + 2 * across, 1 + 2 * along], np.float32) - np.array([across, along], np.float32)
    card: Corners = np.asarray(cv2.perspectiveTransform(grown[None], cv2.getPerspectiveTransform(square, face)))[0]
    return card


def _judge(image: Image, corners: Corners, framed: bool = True) -> _Find | None:
    """The card at ``corners`` once settled onto its edge, if it looks enough like one.

    Where the border's outer edge was not seen, the rim must stand out from the table much more, or any coloured
    patch on a pale wall would pass for a card's face in its border. Unless ``framed`` is false: the outline is
    the picture's own edge, which stays put, with no table beyond it to compare with.
    """
    view = _look(image, corners)
    if not framed:
        return _found(corners, _score(view, 0.0), 1.0)
    corners, view, seen, fit = _place(image, corners, view)
    all_round = float(seen.mean()) >= ALL_ROUND
    score = (fit if all_round else 1.0) * _score(view, SEEN_LIFT if all_round else INFERRED_LIFT)
    return _found(corners, score, float(seen.mean()))


def _place(image: Image, corners: Corners, view: _View) -> tuple[Corners, _View, npt.NDArray[np.bool_], float]:
    """``corners`` settled onto the card's edge, the view there, where the edge was seen, and how well it fits.

    An outline that had to move far is looked at again and settled once more. The fit is then the share of the
    stretches where the edge lies within ``FIT`` of the settled outline, squared: an outline that takes in a
    strip of the card beneath still misses the edge on that side.
    """
    depths, seen = _settle(view.sides)
    if float(np.abs(depths).max()) < NUDGE or (settled := _move(depths, view.matrix)) is None:
        return corners, view, seen, 1.0
    if float(np.abs(depths).max()) < RELOOK:
        return settled, view, seen, 1.0
    view = _look(image, settled)
    depths, seen = _settle(view.sides)
    fit = float(np.mean(np.abs(depths[seen]) <= FIT)) ** 2 if seen.any() else 1.0
    again = _move(depths, view.matrix) if float(np.abs(depths).max()) >= NUDGE else None
    return settled if again is None else again, view, seen, fit


def _found(corners: Corners, score: float, seen: float) -> _Find | None:
    if score < MIN_SCORE:
        return None
    quality = score * (1 + seen) / 2
    return _Find(FoundCard(corners=corners, area=float(cv2.contourArea(corners)), score=score), quality)


def _look(image: Image, corners: Corners) -> _View:
    """The card warped upright to ``PROBE``: its sides unrolled, its face, and the warp.

    The sides come as one strip, top, right, bottom then left (each left to right or top to bottom), with depth
    from ``DEPTH`` pixels outside the outline to ``DEPTH`` inside. Two channels: whiteness (the smallest of B, G,
    R), which parts the border from a coloured face, and value (the largest), which parts it from a pale grey
    table even when the camera tints the border cream or cyan.
    """
    width, height = PROBE
    target = np.array([[0, 0], [width, 0], [width, height], [0, height]], np.float32) + MARGIN
    matrix: Matrix = np.asarray(cv2.getPerspectiveTransform(corners, target))
    warped = cv2.warpPerspective(image, matrix, (width + 2 * MARGIN, height + 2 * MARGIN), flags=cv2.INTER_LINEAR,
                                 borderMode=cv2.BORDER_REPLICATE)
    blue, green, red = cv2.split(warped)
    whiteness = cv2.min(cv2.min(blue, green), red)
    probe = np.stack([whiteness, cv2.max(cv2.max(blue, green), red)])
    across, down = slice(MARGIN, MARGIN + width), slice(MARGIN, MARGIN + height)
    right, bottom = MARGIN + width, MARGIN + height
    sides: Channels = np.concatenate([probe[:, MARGIN - DEPTH:MARGIN + DEPTH + 1, across],
                                      probe[:, down, right + DEPTH:right - DEPTH - 1:-1].transpose(0, 2, 1),
                                      probe[:, bottom + DEPTH:bottom - DEPTH - 1:-1, across],
                                      probe[:, down, MARGIN - DEPTH:MARGIN + DEPTH + 1].transpose(0, 2, 1)],
                                     axis=2).astype(np.float32)
    inset = width // CORNER
    return _View(sides, whiteness[MARGIN + inset:MARGIN + height - inset, MARGIN + inset:MARGIN + width - inset],
                 matrix)


def _settle(sides: Channels) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.bool_]]:
    """How far in (probe pixels) each stretch of each side the card's edge lies, and whether it was seen there:
    the outside of a bar as wide as a border, brighter than the table and whiter than the face.

    A stretch with no clear bar (a table as pale as the border) stays where it is. A thin line (the oval on the
    face) or a wide pale patch (a cloth's squares) is not a bar of the border's width, so neither pulls a side
    onto itself. Of several clear bars the nearest wins, not the strongest: on a pale table the border stands out
    less than the oval on the face, and on wood the grain makes faint bars of its own.
    """
    profiles = sides @ _STRETCH_WEIGHTS
    whiteness, value = profiles[0].T, profiles[1].T
    bars = np.minimum(value @ _UP, whiteness @ _DOWN).reshape(len(_STRETCHES), -1, len(_STARTS)).max(axis=1)
    clear = bars >= np.maximum(RISE, CLEAR * bars.max(axis=1, keepdims=True))
    index = np.argmin(np.where(clear, np.abs(_DEPTHS), np.inf), axis=1)
    seen = clear[_STRETCH_ROWS, index]
    return np.where(seen, _edge(whiteness + value, index + _STARTS[0]) - DEPTH, 0).astype(np.float32), seen


def _edge(profiles: Channels, starts: npt.NDArray[np.intp]) -> npt.NDArray[np.float32]:
    """Where, to a fraction of a pixel, each profile steps up into the bar that starts at ``starts``: the centre of
    the rise just before it, so that a side can settle closer than a whole probe pixel."""
    steps = starts[:, None] + _RISE_STEPS
    rows = _STRETCH_ROWS[:, None]
    rises = np.maximum(profiles[rows, steps + 1] - profiles[rows, steps], 0)
    edges: npt.NDArray[np.float32] = ((rises * (steps + 0.5)).sum(axis=1) / np.maximum(rises.sum(axis=1), 1e-6))
    return edges.astype(np.float32)


def _move(depths: npt.NDArray[np.float32], matrix: Matrix) -> Corners | None:
    """The corners once each side is moved in by its stretches' depths.

    Each side is placed by its two stretches, so a side can turn as well as move; where they disagree by more
    than ``TWIST``, the one that moves less sets the whole side.
    """
    lines = []
    for side in range(4):
        first, second = float(depths[2 * side]), float(depths[2 * side + 1])
        if abs(first - second) > TWIST:
            first = second = min(first, second, key=abs)
        marks = [_mark(side, MARGIN + (start + stop) / 2 * _LENGTHS[side], depth)
                 for (_, start, stop), depth in zip(_STRETCHES[2 * side:2 * side + 2], (first, second), strict=True)]
        lines.append((marks[0], (marks[1][0] - marks[0][0], marks[1][1] - marks[0][1])))
    quad = meet(lines)
    if quad is None:
        return None
    corners: Corners = np.asarray(cv2.perspectiveTransform(np.array([quad], np.float32), cv2.invert(matrix)[1]))[0]
    return corners


def _mark(side: int, along: float, depth: float) -> tuple[float, float]:
    """Probe coordinates of a point ``depth`` pixels in from ``side`` (top, right, bottom, left) at ``along``."""
    width, height = PROBE
    return [(along, MARGIN + depth), (MARGIN + width - depth, along), (along, MARGIN + height - depth),
            (MARGIN + depth, along)][side]


def _score(view: _View, least_lift: float) -> float:
    """How much the probe looks like a card: an even white rim, darker or coloured inside, brighter or whiter than
    the table.

    Along each side the rim takes the whitest pixel a little way in, so that a border of any printed width counts;
    that pixel, not the brightest there, is compared with the table, so that a bright face does not pass for a
    border. It is compared in value (a pale grey table) and in whiteness (a saturated red or blue cloth as bright
    as the border), and the larger lift counts. With no table to compare (``least_lift`` 0: the outline is the
    picture's edge) the rim must instead be white all round (``WHOLE_EVEN``): a room's pale wall round the edge of
    a frame is broken somewhere. A rim tinted more than ``MAX_TINT`` is a coloured thing, not a border.
    """
    sides = view.sides
    band = sides[:, DEPTH + 1:DEPTH + RIM, _MIDDLE]
    rim = band[:, np.argmax(band[0], axis=0), _ALONG]
    whiteness, value = _middle(rim[0]), _middle(rim[1])
    if whiteness < (1 - MAX_TINT) * value:
        return 0.0
    outside, near = TABLE_STRIP
    table = sides[:, DEPTH - outside:DEPTH - near, _MIDDLE].sum(axis=1) / (outside - near)
    lift = max(_middle(rim[channel] - table[channel]) / max(level, 1.0)
               for channel, level in enumerate((whiteness, value)))
    face_level = float(np.partition(view.face, FACE_SHARE, axis=None)[FACE_SHARE])
    contrast = (whiteness - face_level) / max(whiteness, 1.0)
    even = float(np.count_nonzero(rim[0] > (whiteness + face_level) / 2)) / rim.shape[1]
    standing = min(max(lift / least_lift, 0.0), 1.0) if least_lift else float(even >= WHOLE_EVEN)
    return float(min(max(contrast / FULL_CONTRAST, 0.0), 1.0) * even**2 * standing)


def _middle(values: npt.NDArray[np.float32]) -> float:
    """The median, cheaply: ``np.median`` costs several times more on arrays this small."""
    half = len(values) // 2
    return float(np.partition(values, half)[half])


def _known(corners: Corners, sighting: _Find) -> bool:
    """Whether judging ``corners`` would be waste: it is the outline of a card already found, or that card's face
    (widened by the border, it is the card), or lies inside one found sure, its edge seen all round, so is a part
    of it (the ring of the oval on its face).

    An unsure find does not hide the rest of what lies inside it: it may be the top card of a pile with a strip
    of the card beneath, and the top card alone may lie inside.
    """
    area = float(cv2.contourArea(corners))
    shared, _ = cv2.intersectConvexConvex(corners, sighting.card.corners)
    if float(shared) <= INSIDE * area:
        return False
    if area > SAME_SIZE * sighting.card.area or sighting.quality >= SURE:
        return True
    card = _widen(corners)
    shared_as_card, _ = cv2.intersectConvexConvex(card, sighting.card.corners)
    return float(shared_as_card) >= INSIDE * max(float(cv2.contourArea(card)), sighting.card.area)


def _distinct(found: list[_Find]) -> list[FoundCard]:
    """Most prominent (large and clearly a card) first, one detection per card.

    Of two that mostly overlap, the better is the card. When they are about as good, a much smaller one inside is
    a part of the card that looks like a card (the ring of the oval on its face), so the larger is kept; one
    nearly as large is the card itself without a strip of the card beneath, so the smaller, tighter one is kept.
    """
    kept: list[_Find] = []
    for sighting in sorted(found, key=lambda sighting: (round(sighting.quality / TIE), sighting.card.area),
                           reverse=True):
        rivals = [other for other in kept if _overlap(sighting.card, other.card) >= RIVALS]
        tighter = [other for other in rivals if round(other.quality / TIE) == round(sighting.quality / TIE)
                   and sighting.card.area >= PART * other.card.area]
        if rivals == tighter:
            beaten = {id(other) for other in tighter}
            kept = [other for other in kept if id(other) not in beaten] + [sighting]
    return sorted((sighting.card for sighting in kept), key=lambda card: card.area * card.score, reverse=True)


def _overlap(first: FoundCard, second: FoundCard) -> float:
    shared, _ = cv2.intersectConvexConvex(first.corners, second.corners)
    return float(shared) / max(min(first.area, second.area), 1e-6)


def _whole(image: Image, whiteness: MatLike) -> list[_Find]:
    """A picture that is already a photo of one card: the whole picture, if it is card-shaped and looks like one.

    Tried even when outlines were found: in such a photo the card's own outline touches the picture's edge and
    is seldom found, while its numeral, white in a dark outline, may pass for a small card. A glance at the
    shrunk copy first spares a camera frame, whose edge is table, not a white border round a darker face: nearly
    all of a card's rim is whiter than its face (``WHOLE_EVEN``), so a rim whose lower quarter is not is no card,
    however pale the rest of it (a lamp's bright patch on a table's edge).
    """
    height, width = image.shape[:2]
    if not ASPECTS[0] <= max(height, width) / min(height, width) <= ASPECTS[1]:
        return []
    rows, columns = whiteness.shape
    inset = max(rows, columns) // FRAME_INSET
    rim = np.concatenate([whiteness[inset], whiteness[-1 - inset], whiteness[:, inset], whiteness[:, -1 - inset]])
    middle = whiteness[rows // 4:rows - rows // 4:2, columns // 4:columns - columns // 4:2].ravel()
    quarter, third = len(rim) // 4, len(middle) // 3
    if float(np.partition(rim, quarter)[quarter]) < float(np.partition(middle, third)[third]) + RISE:
        return []
    sighting = _judge(image, portrait([(0, 0), (width, 0), (width, height), (0, height)]), framed=False)
    return [] if sighting is None else [sighting]
