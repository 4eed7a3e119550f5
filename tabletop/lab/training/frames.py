"""Training frames for the card finder: cards lying alone, fanned, piled, spread out, stacked face down and held
in hands, over real-looking tables, photographed badly, each with the outline of every whole card.

A card is whole when no other card covers it: the top card of a fan or a pile, a card held up, the deck's top
back. Fingers over a card do not end it; its outline is the card's, not what shows of it. The finder learns to
mark the whole cards and a core in the middle of each (the card shrunk about its centre), so that cards that
touch are still told apart. Cards mostly hidden by other cards, by a hand or by the picture's edge are neither
marked nor counted wrong: the loss ignores them.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal

import cv2
import numpy as np
import numpy.typing as npt

from tabletop.game.cards import ALL_CARDS
from tabletop.lab.drawing import hands, render, scene
from tabletop.lab.training import augment
from tabletop.vision import finder
from tabletop.vision.crop import CARD_ASPECT, Corners, Image, index_corners

SHAPES = ((192, 256), (256, 192), (256, 256))
"""Frame sizes (height, width) the finder trains on: a camera's 4:3 either way, and square photographs."""
SUPERSAMPLE = 2
"""Frames are drawn this many times larger and shrunk, as a camera's picture is shrunk for the finder."""
STRIDE = 2
"""The finder marks cards at half its input's resolution."""
WHOLE = 0.97
"""Share of a card that must show (not under another card) for it to be on top."""
HIDDEN = 0.85
"""A card showing less than this is not on top; between the two, the loss ignores it."""
IN_FRAME = 0.8
"""Share of a card on top that must lie inside the picture for it to be whole; one further out is ignored."""
FINE = 4
"""Targets are drawn this many times finer than the output, then averaged down, so their edges are soft."""
UNDER_HAND = 0.4
"""A card more than this much under a hand is ignored: its outline is more guessed than seen."""
CORE = 0.5
"""The core is the card shrunk to this share of its size about its centre."""
WASHOUT = 0.15
"""How often a frame is washed out as by a cheap webcam: less often than a reading crop, since a whole washed-out
frame is rarer than a washed-out card."""

NEAR = 0.4
"""How far (a share of the card's height) a whole card's middle may lie from a second look's and be the card the
look points at."""
State = Literal["whole", "ignored", "hidden"]
Targets = npt.NDArray[np.uint8]
"""Per output pixel: the whole cards (0-255), their cores (0-255), and whether the pixel counts (0 or 255)."""


@dataclass
class _Laid:
    corners: Corners
    hand_over: float = 0.0
    back: bool = False


@dataclass
class _Frame:
    canvas: Image
    cards: list[_Laid] = field(default_factory=list)
    """Every card laid, bottom first."""
    hands_over: npt.NDArray[np.float32] | None = None


class FacePool:
    """Faces of a few decks, drawn once and reused: drawing a face costs more than the rest of a frame.

    Every deck holds its wilds: their black faces, unlike any coloured card's, must be seen often enough to be
    learnt as a card's and not as a dark table showing through.
    """

    def __init__(self, rng: np.random.Generator, decks: int = 6, per_deck: int = 12) -> None:
        self.rng = rng
        self.faces: list[list[tuple[Image, Image]]] = []
        for k in range(decks):
            design = render.DESIGNS[k % len(render.DESIGNS)]
            deck = render.Deck.random(rng, design)
            wilds = [card for card in ALL_CARDS if card.is_wild]
            coloured = [card for card in ALL_CARDS if not card.is_wild]
            picks = [coloured[int(k)] for k in rng.choice(len(coloured), per_deck - len(wilds), replace=False)]
            faces = [render.render_card(card, design, rng, deck) for card in picks + wilds]
            faces.append(render.render_blank("back", rng))
            self.faces.append(faces)

    def deck(self) -> list[tuple[Image, Image]]:
        return self.faces[int(self.rng.integers(len(self.faces)))]


def _distractors(canvas: Image, rng: np.random.Generator, size: float) -> None:
    """Things on a table that are not cards: paper, a phone, a book, coins, a cup, a pen, a die."""
    height, width = canvas.shape[:2]
    for _ in range(int(rng.integers(1, 6))):
        centre = (float(rng.uniform(0, width)), float(rng.uniform(0, height)))
        colour = scene.colour(rng)
        kind = rng.random()
        if kind < 0.45:
            long, short = size * rng.uniform(0.3, 2.5), size * rng.uniform(0.2, 1.5)
            box = cv2.boxPoints((centre, (long, short), float(rng.uniform(0, 180))))
            fill = scene.colour(rng, 200, 256) if rng.random() < 0.4 else colour
            cv2.fillConvexPoly(canvas, np.round(box).astype(np.int32), fill, cv2.LINE_AA)
            if rng.random() < 0.4:
                _scribble(canvas, box, rng)
        elif kind < 0.7:
            radius = max(2, round(size * rng.uniform(0.08, 0.5)))
            cv2.circle(canvas, (round(centre[0]), round(centre[1])), radius, colour, -1, cv2.LINE_AA)
            if rng.random() < 0.5:
                cv2.circle(canvas, (round(centre[0]), round(centre[1])), max(1, round(radius * 0.8)),
                           scene.colour(rng), max(1, radius // 6), cv2.LINE_AA)
        else:
            end = (centre[0] + size * rng.uniform(-1.2, 1.2), centre[1] + size * rng.uniform(-1.2, 1.2))
            cv2.line(canvas, (round(centre[0]), round(centre[1])), (round(end[0]), round(end[1])), colour,
                     max(1, round(size * rng.uniform(0.02, 0.08))), cv2.LINE_AA)


def _scribble(canvas: Image, box: np.ndarray, rng: np.random.Generator) -> None:
    """Lines of print across a sheet or a cover."""
    low, high = box.min(axis=0), box.max(axis=0)
    ink = scene.colour(rng, 0, 120)
    for y in np.arange(low[1] + 4, high[1] - 4, rng.uniform(5, 14)):
        cv2.line(canvas, (round(low[0] + 4), round(y)), (round(high[0] - rng.uniform(4, 30)), round(y)), ink, 1,
                 cv2.LINE_AA)


def _corners(centre: tuple[float, float], height: float, angle: float, rng: np.random.Generator) -> Corners:
    return scene.card_corners(centre, height, angle, rng, perspective=float(rng.uniform(0, 0.03)))


def _lay(frame: _Frame, face: tuple[Image, Image], corners: Corners, rng: np.random.Generator,
         back: bool = False) -> None:
    """Lay one card: its shadow on what lies beneath, the face, and sometimes the dark line of its edge."""
    if rng.random() < 0.7:
        height = float(np.linalg.norm(corners[3] - corners[0]))
        silhouette = np.zeros(frame.canvas.shape[:2], np.float32)
        cv2.fillConvexPoly(silhouette, np.round(corners * 4).astype(np.int32), 1.0, cv2.LINE_AA, shift=2)
        drop = rng.uniform(0.005, 0.03) * height
        hands.shadow(frame.canvas, silhouette, (drop, drop * rng.uniform(0.5, 1.5)),
                     rng.uniform(0.5, 0.03 * height + 1), float(rng.uniform(0.15, 0.5)))
    scene.paste(frame.canvas, augment.wear(face[0], rng), face[1], corners)
    if rng.random() < 0.4:
        shade = int(rng.integers(60, 190))
        cv2.polylines(frame.canvas, [np.round(corners * 4).astype(np.int32)], True, (shade, shade, shade), 1,
                      cv2.LINE_AA, shift=2)
    frame.cards.append(_Laid(corners, back=back))


def _face(faces: list[tuple[Image, Image]], rng: np.random.Generator) -> tuple[Image, Image]:
    return faces[int(rng.integers(len(faces) - 1))]


def _somewhere(rng: np.random.Generator, shape: tuple[int, int], margin: float) -> tuple[float, float]:
    height, width = shape
    return (float(rng.uniform(min(margin, width / 2), max(width - margin, width / 2))),
            float(rng.uniform(min(margin, height / 2), max(height - margin, height / 2))))


def single(frame: _Frame, faces: list[tuple[Image, Image]], rng: np.random.Generator, size: float) -> None:
    """One card, anywhere; now and then large enough to fill the picture or running off its edge."""
    margin = size * (0.2 if rng.random() < 0.2 else 0.6)
    centre = _somewhere(rng, frame.canvas.shape[:2], margin)
    _lay(frame, _face(faces, rng), _corners(centre, size, rng.uniform(0, 2 * math.pi), rng), rng)


def closeup(frame: _Frame, faces: list[tuple[Image, Image]], rng: np.random.Generator, size: float) -> None:
    """One card filling most of the picture, as a phone held close over it takes it: ``size`` is not used."""
    height, width = frame.canvas.shape[:2]
    centre = (width / 2 * (1 + rng.normal(0, 0.05)), height / 2 * (1 + rng.normal(0, 0.05)))
    angle = rng.normal(0, 0.12) + (math.pi / 2 if rng.random() < 0.3 else 0.0) + (math.pi if rng.random() < 0.5 else 0)
    _lay(frame, _face(faces, rng), _corners(centre, min(height, width) * rng.uniform(0.7, 1.0), angle, rng), rng)


def fan(frame: _Frame, faces: list[tuple[Image, Image]], rng: np.random.Generator, size: float) -> None:
    """Two to five cards fanned on the table, each shifted and turned a little from the one beneath."""
    count = int(rng.integers(2, 6))
    centre = np.array(_somewhere(rng, frame.canvas.shape[:2], size * 0.9))
    angle = rng.uniform(0, 2 * math.pi)
    turn, shift = rng.uniform(-0.35, 0.35), rng.uniform(0.1, 0.45) * size / CARD_ASPECT
    direction = rng.uniform(0, 2 * math.pi)
    step = np.array([math.cos(direction), math.sin(direction)]) * shift
    start = centre - step * (count - 1) / 2
    for k in range(count):
        where = start + step * k
        _lay(frame, _face(faces, rng), _corners((float(where[0]), float(where[1])), size, angle + turn * k, rng), rng)


def pile(frame: _Frame, faces: list[tuple[Image, Image]], rng: np.random.Generator, size: float) -> None:
    """A discard pile: two to twelve cards tossed near one spot, at any angles, the last on top."""
    count = int(rng.integers(2, 13))
    centre = _somewhere(rng, frame.canvas.shape[:2], size * 0.7)
    neat = rng.random() < 0.3
    base = rng.uniform(0, 2 * math.pi)
    for _ in range(count):
        jitter = rng.normal(0, 0.05 if neat else 0.18, 2) * size
        angle = base + rng.normal(0, 0.1) if neat else rng.uniform(0, 2 * math.pi)
        where = (centre[0] + float(jitter[0]), centre[1] + float(jitter[1]))
        _lay(frame, _face(faces, rng), _corners(where, size, angle, rng), rng)


def spread(frame: _Frame, faces: list[tuple[Image, Image]], rng: np.random.Generator, size: float) -> None:
    """Cards laid out apart, as a hand is shown at the end of a round: all of them whole, some nearly touching."""
    laid: list[Corners] = []
    for _ in range(int(rng.integers(2, 7)) * 4):
        corners = _corners(_somewhere(rng, frame.canvas.shape[:2], size * 0.6), size,
                           rng.uniform(0, 2 * math.pi) if rng.random() < 0.5 else rng.normal(0, 0.15), rng)
        if all(_apart(corners, other) for other in laid):
            laid.append(corners)
            _lay(frame, _face(faces, rng), corners, rng)
        if len(laid) >= 6:
            return


def _apart(first: Corners, second: Corners) -> bool:
    shared, _ = cv2.intersectConvexConvex(first, second)
    return float(shared) <= 0.0


def heap(frame: _Frame, faces: list[tuple[Image, Image]], rng: np.random.Generator, size: float) -> None:
    """A hand dropped face up to be counted: three to twelve cards overlapping, most turned about one way, some
    only showing an index corner."""
    count = int(rng.integers(3, 13))
    centre = np.array(_somewhere(rng, frame.canvas.shape[:2], size * 0.8))
    base = rng.uniform(0, 2 * math.pi)
    spread_out = rng.uniform(0.2, 0.6) * size
    for _ in range(count):
        where = centre + rng.normal(0, spread_out, 2)
        angle = base + (rng.normal(0, 0.4) if rng.random() < 0.75 else rng.uniform(0, 2 * math.pi))
        _lay(frame, _face(faces, rng), _corners((float(where[0]), float(where[1])), size, angle, rng), rng)


def row(frame: _Frame, faces: list[tuple[Image, Image]], rng: np.random.Generator, size: float) -> None:
    """A hand laid down in a row to be counted, each card over the last with its index corner left showing."""
    count = int(rng.integers(3, 11))
    angle = rng.uniform(0, 2 * math.pi) if rng.random() < 0.4 else rng.normal(0, 0.2) + math.pi * (rng.random() < 0.3)
    right = np.array([math.cos(angle), math.sin(angle)])
    down = np.array([-math.sin(angle), math.cos(angle)])
    step = right * rng.uniform(0.25, 0.5) * size / CARD_ASPECT + down * rng.normal(0, 0.04) * size
    centre = np.array(_somewhere(rng, frame.canvas.shape[:2], size * 0.7))
    start = centre - step * (count - 1) / 2
    for k in range(count):
        where = start + step * k + rng.normal(0, 0.02 * size, 2)
        _lay(frame, _face(faces, rng), _corners((float(where[0]), float(where[1])), size,
                                                angle + rng.normal(0, 0.06), rng), rng)


def deck(frame: _Frame, faces: list[tuple[Image, Image]], rng: np.random.Generator, size: float) -> None:
    """The draw pile: backs stacked a little askew, its side showing as a band of card edges."""
    centre = np.array(_somewhere(rng, frame.canvas.shape[:2], size * 0.7))
    angle = rng.uniform(0, 2 * math.pi)
    lean = np.array([rng.uniform(-1, 1), rng.uniform(-1, 1)]) * size * 0.004
    for k in range(int(rng.integers(3, 25))):
        where = centre + lean * k + rng.normal(0, 0.004 * size, 2)
        corners = _corners((float(where[0]), float(where[1])), size, angle + rng.normal(0, 0.02), rng)
        _lay(frame, faces[-1], corners, rng, back=True)


def held(frame: _Frame, faces: list[tuple[Image, Image]], rng: np.random.Generator, size: float) -> None:
    """One to seven cards fanned in a hand: the fingers behind them, the thumb across the front card."""
    shape = frame.canvas.shape[:2]
    pivot = np.array(_somewhere(rng, shape, size * 0.5))
    up = rng.uniform(0, 2 * math.pi)
    count = int(rng.integers(1, 8))
    step = rng.uniform(0.12, 0.3)
    hand = hands.Hand.random(rng, (0.0, 0.0), 0.0, size * rng.uniform(0.9, 1.3))
    wrist = pivot - np.array([math.cos(up), math.sin(up)]) * hand.length * 0.35
    hand = hands.Hand.random(rng, (float(wrist[0]), float(wrist[1])), up + rng.normal(0, 0.3), hand.length)
    _paint_hand(frame, hand, hands.fingers(hand, shape), rng, over_cards=False)
    for k in range(count):
        angle = up + math.pi / 2 + (k - (count - 1) / 2) * step
        direction = np.array([math.cos(angle - math.pi / 2), math.sin(angle - math.pi / 2)])
        centre = pivot + direction * size * 0.38
        _lay(frame, _face(faces, rng), _corners((float(centre[0]), float(centre[1])), size, angle, rng), rng)
    thumb = hands.thumb(hand, shape)
    hands.shadow(frame.canvas, thumb, (hand.length * 0.04, hand.length * 0.05), hand.length * 0.04, 0.3)
    hands.paint(frame.canvas, thumb, hand.skin, rng, hand.length * 0.08)
    _mark_over(frame, thumb)


def reaching(frame: _Frame, rng: np.random.Generator, size: float) -> None:
    """An arm reaching in over the table, sometimes over the cards."""
    shape = frame.canvas.shape[:2]
    target = _somewhere(rng, shape, 0)
    if frame.cards and rng.random() < 0.6:
        card = frame.cards[int(rng.integers(len(frame.cards)))].corners
        corner = card[int(rng.integers(4))]
        target = (float(corner[0]), float(corner[1]))
    angle = rng.uniform(0, 2 * math.pi)
    length = size * rng.uniform(0.9, 1.4)
    wrist = (target[0] - math.cos(angle) * length * 0.6, target[1] - math.sin(angle) * length * 0.6)
    hand = hands.Hand.random(rng, wrist, angle, length)
    reach = np.maximum(hands.fingers(hand, shape), hands.thumb(hand, shape))
    _paint_hand(frame, hand, reach, rng, over_cards=True)


def _paint_hand(frame: _Frame, hand: hands.Hand, digits: npt.NDArray[np.float32], rng: np.random.Generator,
                over_cards: bool) -> None:
    """An arm in its sleeve, the bare forearm, the palm and ``digits`` (fingers, and the thumb where it shows),
    with their shadow; marked as lying over the cards if ``over_cards``."""
    shape = frame.canvas.shape[:2]
    sleeve, forearm = hands.arm(hand, shape, hands.shoulder_for(hand, shape))
    palm = hands.palm(hand, shape)
    body = np.maximum.reduce([sleeve, forearm, palm, digits])
    hands.shadow(frame.canvas, body, (hand.length * 0.08, hand.length * 0.1), hand.length * 0.1,
                 float(rng.uniform(0.2, 0.5)))
    hands.paint(frame.canvas, sleeve, hand.sleeve, rng, hand.length * 0.26)
    hands.paint(frame.canvas, forearm, hand.skin, rng, hand.length * 0.17)
    hands.paint(frame.canvas, palm, hand.skin, rng, hand.length * 0.2)
    hands.paint(frame.canvas, digits, hand.skin, rng, hand.length * 0.08)
    if over_cards:
        _mark_over(frame, body)


def _mark_over(frame: _Frame, mask: npt.NDArray[np.float32]) -> None:
    frame.hands_over = mask if frame.hands_over is None else np.maximum(frame.hands_over, mask)


Arrangement = Callable[[_Frame, list[tuple[Image, Image]], np.random.Generator, float], None]
ARRANGEMENTS: tuple[tuple[Arrangement, float], ...] = (
    (single, 0.2), (fan, 0.25), (pile, 0.17), (spread, 0.1), (deck, 0.1), (held, 0.18), (closeup, 0.05))


HAND_ARRANGEMENTS: tuple[tuple[Arrangement, float], ...] = (
    (heap, 0.3), (row, 0.2), (fan, 0.2), (pile, 0.1), (spread, 0.1), (single, 0.05), (held, 0.05))
"""What the index finder learns from: hands laid down to be counted, in heaps, rows and fans, most of their cards
showing no more than an index corner, beside the cards laid alone or apart whose indexes show whole."""


def _arrangement(rng: np.random.Generator, arrangements: tuple[tuple[Arrangement, float], ...]) -> Arrangement:
    weights = np.array([weight for _, weight in arrangements])
    return arrangements[int(rng.choice(len(arrangements), p=weights / weights.sum()))][0]


def _tilted(frame: _Frame, rng: np.random.Generator) -> None:
    """The camera not straight above the table: the whole frame, and every card in it, seen in perspective."""
    height, width = frame.canvas.shape[:2]
    source = np.array([[0, 0], [width, 0], [width, height], [0, height]], np.float32)
    moved = source + rng.uniform(-0.12, 0.12, (4, 2)).astype(np.float32) * np.array([width, height], np.float32)
    matrix = cv2.getPerspectiveTransform(source, moved)
    frame.canvas = cv2.warpPerspective(frame.canvas, matrix, (width, height), borderMode=cv2.BORDER_REFLECT)
    for laid in frame.cards:
        laid.corners = cv2.perspectiveTransform(laid.corners[None], matrix)[0].astype(np.float32)
    if frame.hands_over is not None:
        frame.hands_over = cv2.warpPerspective(frame.hands_over, matrix, (width, height))


@dataclass(frozen=True)
class Drawn:
    """A frame as the camera took it, at ``SUPERSAMPLE`` times the finder's size, and every card in it: its
    corners (in the photo's pixels) and whether it is whole, hidden, or ignored (between the two)."""

    photo: Image
    cards: tuple[tuple[Corners, State], ...]
    indexes: tuple[tuple[float, float], ...] = ()
    """For each card, how much of each of its two index corners (``crop.index_corners``) shows: not under a card
    laid later, inside the picture and not under a hand; 0 for a card back's."""


def draw(faces: FacePool, rng: np.random.Generator, shape: tuple[int, int],
         arrangements: tuple[tuple[Arrangement, float], ...] = ARRANGEMENTS) -> Drawn:
    """One frame for a finder of input ``shape`` (height, width): a table, things on it, cards, hands, a camera."""
    big = (shape[0] * SUPERSAMPLE, shape[1] * SUPERSAMPLE)
    short = min(big)
    size = float(np.exp(rng.uniform(math.log(0.08 * short), math.log(0.9 * short))))
    frame = _Frame(scene.table(rng, big))
    if rng.random() < 0.5:
        _distractors(frame.canvas, rng, size)
    cards = faces.deck()
    if rng.random() > 0.04:
        for _ in range(1 if rng.random() < 0.7 else 2):
            _arrangement(rng, arrangements)(frame, cards, rng,
                                            size * (rng.uniform(0.9, 1.1) if frame.cards else 1.0))
    if rng.random() < 0.3:
        reaching(frame, rng, size)
    if rng.random() < 0.4:
        _tilted(frame, rng)
    photo = augment.photograph(frame.canvas, rng, washout=WASHOUT)
    return Drawn(photo, tuple(zip((laid.corners for laid in frame.cards), _states(frame), strict=True)),
                 _index_shares(frame))


def _index_shares(frame: _Frame) -> tuple[tuple[float, float], ...]:
    """How much of each card's two index corners shows (see ``Drawn.indexes``), judged at the frame's own size."""
    height, width = frame.canvas.shape[:2]
    covered = np.zeros((height, width), np.uint8)
    hands_over = frame.hands_over if frame.hands_over is not None else np.zeros((height, width), np.float32)
    shares: list[tuple[float, float]] = []
    for laid in reversed(frame.cards):
        if laid.back:
            shares.append((0.0, 0.0))
        else:
            first, second = index_corners(laid.corners)
            shares.append((_index_share(first, covered, hands_over), _index_share(second, covered, hands_over)))
        cv2.fillConvexPoly(covered, np.round(laid.corners * 4).astype(np.int32), 1, shift=2)
    return tuple(shares[::-1])


def _index_share(quad: Corners, covered: npt.NDArray[np.uint8], hands_over: npt.NDArray[np.float32]) -> float:
    """The share of the index corner ``quad`` that shows: inside the picture, under no card and no hand."""
    low = np.floor(quad.min(axis=0)).astype(int) - 1
    high = np.ceil(quad.max(axis=0)).astype(int) + 2
    own = np.zeros((int(high[1] - low[1]), int(high[0] - low[0])), np.uint8)
    cv2.fillConvexPoly(own, np.round((quad - low) * 4).astype(np.int32), 1, shift=2)
    area = max(float(own.sum()), 1.0)
    (x0, y0), (x1, y1) = np.maximum(low, 0), np.minimum(high, covered.shape[::-1])
    if x1 <= x0 or y1 <= y0:
        return 0.0
    inside = own[y0 - low[1]:y1 - low[1], x0 - low[0]:x1 - low[0]]
    shown = float((inside & (1 - covered[y0:y1, x0:x1])).sum()) - float((inside * hands_over[y0:y1, x0:x1]).sum())
    return max(shown, 0.0) / area


def _states(frame: _Frame) -> list[State]:
    """Whether each card is whole, hidden or ignored, judged on a grid a quarter of the frame's size, padded by
    half the frame all round so that what of a card lies beyond the picture's edge is known: such a card is on
    top if no card covers it, and whole if enough of it lies inside the picture."""
    height, width = (side // 4 for side in frame.canvas.shape[:2])
    pad = (height // 2, width // 2)
    grid = (height + 2 * pad[0], width + 2 * pad[1])
    inside = (slice(pad[0], pad[0] + height), slice(pad[1], pad[1] + width))
    covered = np.zeros(grid, np.uint8)
    hands_over = np.zeros(grid, np.float32)
    if frame.hands_over is not None:
        hands_over[inside] = cv2.resize(frame.hands_over, (width, height), interpolation=cv2.INTER_AREA)
    states: list[State] = []
    for laid in reversed(frame.cards):
        corners = laid.corners / 4 + np.array(pad[::-1], np.float32)
        own = np.zeros(grid, np.uint8)
        cv2.fillConvexPoly(own, np.round(corners * 4).astype(np.int32), 1, shift=2)
        area = max(float(np.count_nonzero(own)), 1.0)
        showing = float(np.count_nonzero(own & (1 - covered))) / area
        in_frame = float(np.count_nonzero(own[inside])) / area
        under_hand = float(hands_over[own > 0].sum()) / area
        if showing >= WHOLE and in_frame >= IN_FRAME and under_hand <= UNDER_HAND:
            states.append("whole")
        else:
            states.append("ignored" if showing >= HIDDEN else "hidden")
        covered |= own
    return states[::-1]


def targets(drawn: Drawn, shape: tuple[int, int]) -> Targets:
    """The whole cards, their cores and the pixels that count, at ``STRIDE`` below the finder's input ``shape``."""
    out = (shape[0] // STRIDE, shape[1] // STRIDE)
    scale = out[1] / drawn.photo.shape[1]
    grid = (out[0] * FINE, out[1] * FINE)
    whole, core, ignore = (np.zeros(grid, np.uint8) for _ in range(3))
    for corners, state in drawn.cards:
        fine = (corners + 0.5) * scale * FINE
        if state == "whole":
            _fill(whole, fine)
            middle = fine.mean(axis=0)
            _fill(core, middle + (fine - middle) * CORE)
        elif state == "ignored":
            _fill(ignore, fine)
    ignore &= 1 - whole
    layers = [cv2.resize(layer.astype(np.float32), (out[1], out[0]), interpolation=cv2.INTER_AREA)
              for layer in (whole, core, ignore)]
    counts = (layers[2] < 0.5).astype(np.float32)
    return np.clip(np.stack([layers[0], layers[1], counts], axis=2) * 255 + 0.5, 0, 255).astype(np.uint8)


def _fill(mask: npt.NDArray[np.uint8], corners: Corners) -> None:
    """Fill the quad ``corners``, given in the mask's continuous coordinates (a pixel's centre at k + 0.5)."""
    cv2.fillConvexPoly(mask, np.round((corners - 0.5) * 4).astype(np.int32), 1, shift=2)


def looks(drawn: Drawn, rng: np.random.Generator, count: int) -> list[tuple[Image, Targets]]:
    """Up to ``count`` second looks (``finder.look_at``) at the frame, each with the outline it should find.

    Each look is taken where the first look might point: at a whole card, found a little off in place, size and
    angle (now and then turned a quarter round); at a card beneath the top card; or at bare table. Its target
    is the whole card nearest the look's middle, if one lies near enough to be the card it points at.
    """
    wholes = [corners for corners, state in drawn.cards if state == "whole"]
    others = [corners for corners, state in drawn.cards if state == "hidden"]
    out = []
    for _ in range(count):
        pick = rng.random()
        if wholes and pick < 0.75:
            rough = _found_roughly(wholes[int(rng.integers(len(wholes)))], rng)
        elif others and pick < 0.9:
            rough = _found_roughly(others[int(rng.integers(len(others)))], rng)
        else:
            rough = _anywhere(drawn.photo.shape[:2], rng)
        view, matrix = finder.look_at(drawn.photo, rough)
        target = _look_target(drawn, matrix)
        if target is not None:
            out.append((view, target))
    return out


def _found_roughly(corners: Corners, rng: np.random.Generator) -> Corners:
    """A card's corners as the first look may find them: off in place, size, shape and angle."""
    height = float(np.linalg.norm(corners[3] - corners[0]))
    middle = corners.mean(axis=0)
    turn = rng.normal(0, 0.25) if rng.random() < 0.85 else rng.uniform(-0.8, 0.8)
    if rng.random() < 0.1:
        turn += math.pi / 2
    stretch = np.exp(rng.normal(0, 0.18) + rng.normal(0, 0.08, 2)).astype(np.float32)
    rotation = np.array([[math.cos(turn), -math.sin(turn)], [math.sin(turn), math.cos(turn)]], np.float32)
    moved = (corners - middle) * stretch @ rotation.T + middle + rng.normal(0, 0.08 * height, 2)
    return (moved + rng.normal(0, 0.02 * height, (4, 2))).astype(np.float32)


def _anywhere(shape: tuple[int, int], rng: np.random.Generator) -> Corners:
    height = float(np.exp(rng.uniform(math.log(0.08 * min(shape)), math.log(0.9 * min(shape)))))
    centre = (float(rng.uniform(0, shape[1])), float(rng.uniform(0, shape[0])))
    return scene.card_corners(centre, height, rng.uniform(0, 2 * math.pi), rng)


def _look_target(drawn: Drawn, matrix: npt.NDArray[np.float64]) -> Targets | None:
    """The outline a look should find: the whole card whose middle lies nearest the look's, if near enough;
    None when the card nearest the middle is one the finder is not taught either way (``ignored``)."""
    out = (finder.LOOK_SIZE[1] // STRIDE, finder.LOOK_SIZE[0] // STRIDE)
    middle = np.array(finder.LOOK_SIZE, np.float32) / 2
    reach = NEAR * finder.LOOK_CARD[1]
    best, nearest = None, reach
    for corners, state in drawn.cards:
        seen = cv2.perspectiveTransform(corners[None].astype(np.float64), matrix)[0].astype(np.float32)
        distance = float(np.linalg.norm(seen.mean(axis=0) - middle))
        if distance < nearest and state != "hidden":
            best, nearest = (seen, state), distance
    mask = np.zeros((out[0] * FINE, out[1] * FINE), np.uint8)
    if best is not None:
        if best[1] == "ignored":
            return None
        _fill(mask, best[0] / STRIDE * FINE)
    marks = cv2.resize(mask.astype(np.float32), (out[1], out[0]), interpolation=cv2.INTER_AREA)
    return np.clip(np.stack([marks, np.ones_like(marks)], axis=2) * 255 + 0.5, 0, 255).astype(np.uint8)


def batch(seed: int, count: int, shape: tuple[int, int], looks_per_frame: int = 3
          ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """``count`` frames of ``shape`` with their targets, and the second looks taken at them with theirs; the
    same for the same seed."""
    rng = np.random.default_rng(seed)
    faces = FacePool(rng)
    images = np.zeros((count, *shape, 3), np.uint8)
    marks = np.zeros((count, shape[0] // STRIDE, shape[1] // STRIDE, 3), np.uint8)
    views: list[Image] = []
    outlines: list[Targets] = []
    for k in range(count):
        drawn = draw(faces, rng, shape)
        images[k] = cv2.resize(drawn.photo, (shape[1], shape[0]), interpolation=cv2.INTER_AREA)
        marks[k] = targets(drawn, shape)
        for view, outline in looks(drawn, rng, looks_per_frame):
            views.append(view)
            outlines.append(outline)
    return images, marks, np.array(views), np.array(outlines)
