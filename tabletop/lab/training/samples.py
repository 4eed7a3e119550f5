"""Labelled training crops: a rendered card laid on a surface, photographed, found a little off, and cropped.

A sample is made the way the camera path makes a crop at run time (a scene, then ``crop.rectify`` and
``crop.balance``), with the finder's small errors in the corners, so the model trains on what it will read.
"""

from __future__ import annotations

import math

import numpy as np

from tabletop.game.cards import ALL_CARDS, CLASSIC_CARDS, Card
from tabletop.lab.drawing import render, scene
from tabletop.lab.training import augment
from tabletop.vision.crop import CROP_SIZE, UNIT_SQUARE, Corners, Image, look, on_card
from tabletop.vision.index_finder import INDEX_MIDDLE, card_round
from tabletop.vision.model import NO_CARD

LABELS: tuple[str, ...] = (*(card.name for card in ALL_CARDS), NO_CARD)
"""The model's classes: the 57 cards of the 112-card deck in ``ALL_CARDS`` order (the classic 54, then the
special wilds), then "no card"."""

NO_CARD_SHARE = 0.08
PART_SHARE = 0.35
"""The share of "no card" crops that are a part of a number card (its middle, its numeral): a finder that outlines
the big numeral as a card must not be told a card by the model, and surely not a wrong one. Only number cards:
the draw two's and the wild draw four's symbols are small cards, and the wilds' prints fill the card, so a part
of those looks like a card and would teach the model to miss them."""
NUMBER_LABELS = tuple(card.name for card in CLASSIC_CARDS if card.is_number)
PART = (0.3, 0.5)
"""How much of a card's height such a part spans: half the card at most, well short of the card a rough finder
outlines a little small (often 80% of it), which must still be read."""
WILD_WEIGHT = 2.0
"""How much more often each wild is drawn than a coloured card: the wilds come in more prints (see
``render.WILD_PRINTS``), each of which has to be learnt."""
CARD_SHARES = np.array([WILD_WEIGHT if card.is_wild else 1.0 for card in ALL_CARDS]) / sum(
    WILD_WEIGHT if card.is_wild else 1.0 for card in ALL_CARDS)
LABEL_SHARES = (*(float(share) * (1 - NO_CARD_SHARE) for share in CARD_SHARES), NO_CARD_SHARE)
"""How often each of ``LABELS`` is drawn: written into the models, which read a deck's cards by it
(``model.deck_weights``)."""


def _found_corners(corners: Corners, height: float, rng: np.random.Generator) -> Corners:
    """The corners as a finder reports them: a few per cent off, a little wide or tight, either way up."""
    centre = corners.mean(axis=0)
    grown = centre + (corners - centre) * rng.uniform(0.95, 1.07)
    jitter = np.clip(rng.normal(0, 0.02 * height, (4, 2)), -0.055 * height, 0.055 * height)
    found = (grown + jitter).astype(np.float32)
    return np.roll(found, 2, axis=0) if rng.random() < 0.5 else found


class FacePool:
    """Rendered faces kept for reuse: drawing a face costs more than everything else a sample does."""

    def __init__(self, rng: np.random.Generator, variants: int = 3) -> None:
        self.rng, self.variants = rng, variants
        self.faces: dict[str, list[tuple[Image, Image]]] = {}

    def face(self, label: str) -> tuple[Image, Image]:
        """A face of ``label`` (a card name or one of ``render.BLANKS``), fresh until ``variants`` are kept."""
        kept = self.faces.setdefault(label, [])
        if len(kept) < self.variants:
            kept.append(self._render(label))
            return kept[-1]
        return kept[int(self.rng.integers(len(kept)))]

    def _render(self, label: str) -> tuple[Image, Image]:
        if label in render.BLANKS:
            return render.render_blank(label, self.rng)
        design = render.DESIGNS[int(self.rng.integers(len(render.DESIGNS)))]
        return render.render_card(Card.from_name(label), design, self.rng)


def _lay_neighbours(canvas: Image, pool: FacePool, centre: tuple[float, float], height: float) -> None:
    """Other cards under or beside the sample: a discard pile, a hand of cards, the draw pile."""
    rng = pool.rng
    for _ in range(int(rng.integers(1, 4))):
        offset = rng.normal(0, 0.6 * height, 2)
        where = (centre[0] + offset[0], centre[1] + offset[1])
        corners = scene.card_corners(where, height * rng.uniform(0.9, 1.1), rng.uniform(0, 2 * math.pi), rng)
        label = "back" if rng.random() < 0.2 else LABELS[int(rng.integers(len(LABELS) - 1))]
        scene.paste(canvas, *pool.face(label), corners)


def _face_for(label: str, pool: FacePool) -> tuple[Image, Image] | None:
    if label != NO_CARD:
        return pool.face(label)
    if pool.rng.random() < 0.55:
        return pool.face(render.BLANKS[int(pool.rng.integers(len(render.BLANKS)))])
    return None


def reader_sample(pool: FacePool, label: str) -> tuple[Image, Image]:
    """One scene of ``label`` as both networks read it: the card's crop, and the crop of one of its index corners;
    ``COVERED_SHARE`` of the cards' index crops are cut instead from a scene where other cards lie over all of the
    card but that corner (``_covered_index``)."""
    photo, corners = _scene(pool, label)
    seen = look(photo, corners, CROP_SIZE)
    if label != NO_CARD and pool.rng.random() < COVERED_SHARE:
        return seen.card, _covered_index(pool, label)
    return seen.card, seen.indexes[int(pool.rng.integers(2))]


COVERED_SHARE = 0.4
"""The share of a card's index crops taken from a card of which only that index corner shows."""
PLACED_OFF = (0.12, 0.035, 0.07)
"""How far the index finder places a covered card off (``index_finder.card_round``): its height by this share
(the standard deviation of its logarithm), the index's middle by this share of the card's height, the card's
direction by this many radians."""
OVER_BESIDE = (0.25, 0.75)
"""Where the left edge of a card laid over the covered one beside it falls, a share of the covered card's width
from its own left edge: in a tight fan it cuts through the index (a large index reaches 35% of the card's width in
from its edge), hiding the "4" of a "+4" or half a wild's oval, and the card must still be read from what shows."""
OVER_BELOW = (0.2, 0.6)
"""Where the top edge of a card laid over the covered one below it falls, a share of the covered card's height."""


def _covered_index(pool: FacePool, label: str) -> Image:
    """The index crop of ``label`` lying under one to three other cards that leave only one of its index corners
    showing, as in a hand dropped to be counted, cut where the index finder would place it."""
    rng = pool.rng
    tall = float(np.exp(rng.uniform(math.log(40), math.log(200))))
    side = round(tall * 1.8)
    canvas = scene.table(rng, (side, side))
    corners = scene.card_corners((side / 2, side / 2), tall, rng.uniform(0, 2 * math.pi), rng)
    face = pool.face(label)
    scene.paste(canvas, augment.wear(face[0], rng), face[1], corners)
    card = corners if rng.random() < 0.5 else np.roll(corners, 2, axis=0)
    right, down = card[1] - card[0], card[3] - card[0]
    for _ in range(int(rng.integers(1, 4))):
        shift = (right * rng.uniform(*OVER_BESIDE) + down * rng.uniform(-0.15, 0.4) if rng.random() < 0.6
                 else right * rng.uniform(-0.2, 0.6) + down * rng.uniform(*OVER_BELOW))
        middle = card.mean(axis=0) + shift
        over = scene.card_corners((float(middle[0]), float(middle[1])), tall * rng.uniform(0.97, 1.03),
                                  math.atan2(float(right[1]), float(right[0])) + rng.normal(0, 0.12)
                                  + (math.pi if rng.random() < 0.5 else 0.0), rng)
        other = "back" if rng.random() < 0.1 else LABELS[int(rng.integers(len(LABELS) - 1))]
        scene.paste(canvas, *pool.face(other), over)
    photo = augment.photograph(canvas, rng)
    up = (card[0] - card[3]) / tall
    turn = rng.normal(0, PLACED_OFF[2])
    up = np.array([up[0] * math.cos(turn) - up[1] * math.sin(turn), up[0] * math.sin(turn) + up[1] * math.cos(turn)])
    middle = on_card(card, np.array([INDEX_MIDDLE], np.float32))[0] + rng.normal(0, PLACED_OFF[1] * tall, 2)
    placed = card_round(middle.astype(np.float64), up, tall * float(np.exp(rng.normal(0, PLACED_OFF[0]))))
    return look(photo, placed, CROP_SIZE).indexes[0]


def _scene(pool: FacePool, label: str) -> tuple[Image, Corners]:
    """A photograph of ``label`` lying on a table, and its corners as a finder would report them."""
    rng = pool.rng
    if label == NO_CARD and rng.random() < PART_SHARE:
        return _part_of_a_card(pool)
    card_height = float(np.exp(rng.uniform(math.log(40), math.log(200))))
    side = round(card_height * 1.4)
    canvas = scene.table(rng, (side, side))
    centre = (side / 2 + rng.normal(0, 2), side / 2 + rng.normal(0, 2))
    if rng.random() < 0.5:
        _lay_neighbours(canvas, pool, centre, card_height)
    corners = scene.card_corners(centre, card_height, rng.uniform(0, 2 * math.pi), rng)
    face = _face_for(label, pool)
    if face is not None:
        scene.paste(canvas, augment.wear(face[0], rng), face[1], corners)
    if rng.random() < 0.25:
        corner = corners[int(rng.integers(4))]
        augment.finger(canvas, rng, (float(corner[0]), float(corner[1])), card_height)
    photo = augment.photograph(canvas, rng)
    return photo, _found_corners(corners, card_height, rng)


def _part_of_a_card(pool: FacePool) -> tuple[Image, Corners]:
    """A crop of a card-shaped part inside a card, such as its numeral, as a finder fooled by the numeral's
    outline would cut it: the crop is as large as a card's, the card round it larger."""
    rng = pool.rng
    span = rng.uniform(*PART)
    crop_height = float(np.exp(rng.uniform(math.log(40), math.log(200))))
    card_height = crop_height / span
    side = round(card_height * 1.2)
    canvas = scene.table(rng, (side, side))
    corners = scene.card_corners((side / 2, side / 2), card_height, rng.uniform(0, 2 * math.pi), rng)
    face = pool.face(NUMBER_LABELS[int(rng.integers(len(NUMBER_LABELS)))])
    scene.paste(canvas, augment.wear(face[0], rng), face[1], corners)
    middle = rng.uniform(-(1 - span) / 2, (1 - span) / 2, 2)
    inside = on_card(corners, (UNIT_SQUARE - 0.5) * span + 0.5 + middle)
    photo = augment.photograph(canvas, rng)
    return photo, _found_corners(inside, crop_height, rng)


def batch(seed: int, count: int) -> tuple[np.ndarray, np.ndarray]:
    """``count`` card crops (N, 96, 64, 3 uint8) and their label indices, as the card model learns from them: the
    card crops of ``reader_batch``, the same for the same seed."""
    cards, labels, _ = reader_batch(seed, count)
    return cards, labels


def reader_batch(seed: int, count: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``count`` scenes as both networks read them, each drawn once: the card crops (N, 96, 64, 3 uint8), their
    label indices, and an index crop of each (N, 32, 32, 3 uint8); the same for the same seed."""
    rng = np.random.default_rng(seed)
    pool = FacePool(rng)
    labels = np.zeros(count, np.int64)
    cards, indexes = [], []
    for k in range(count):
        labels[k] = _label(rng)
        card, index = reader_sample(pool, LABELS[labels[k]])
        cards.append(card)
        indexes.append(index)
    return np.stack(cards), labels, np.stack(indexes)


def _label(rng: np.random.Generator) -> int:
    """A label: "no card" ``NO_CARD_SHARE`` of the time, else a card, each wild ``WILD_WEIGHT`` times as often.
    Drawn one sample at a time, so that a batch's first crops are the same however many follow."""
    if rng.random() < NO_CARD_SHARE:
        return len(LABELS) - 1
    return int(rng.choice(len(CARD_SHARES), p=CARD_SHARES))
