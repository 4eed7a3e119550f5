"""What makes a card read wrong and sure: rendered cards read through the camera path under one named cause at a
time, so that each cause's share of sure misreadings can be measured, and a cure checked against it.

A reading wrong and sure is the worst thing the table can do: the buzzer accuses someone in front of the family.
The real photographs that went wrong that way were of a few kinds, each a cause of its own: a crop cut off at the
index (the finder a little off, or round the numeral alone), a numeral too blurred or too small to make out, and
a face read upside down. ``CAUSES`` makes each on demand; a "no card" reading is a miss, never a wrong card.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import cv2
import numpy as np

from tabletop.game.cards import Card
from tabletop.lab.drawing import scene
from tabletop.lab.training import augment
from tabletop.lab.training.evaluate import Evaluation
from tabletop.lab.training.samples import FacePool
from tabletop.vision.crop import UNIT_SQUARE, Corners, Image, look, on_card
from tabletop.vision.model import CardModel

Scene = tuple[Image, Corners]
"""A photograph of one card lying on a table, and the corners a finder reports for it."""
CAST = 0.15
"""How far a lamp's colour cast moves each channel. The photographs here are lit, cast and taken as a camera
does (``augment.lighting`` and ``augment.camera``), but not put through the harsher hue drifts and washouts
training uses to be safe: those turn a blue card green where no real camera does, and would hide the causes
measured here behind colours no table shows."""


def _photographed(pool: FacePool, card: Card, height: float, blur: float = 0.0) -> tuple[Image, Corners]:
    rng = pool.rng
    side = round(height * 1.6)
    canvas = scene.surface(rng, (side, side))
    corners = scene.card_corners((side / 2, side / 2), height, rng.uniform(0, 2 * math.pi), rng, perspective=0.02)
    face = pool.face(card.name)
    scene.paste(canvas, augment.wear(face[0], rng), face[1], corners)
    cast = rng.uniform(1 - CAST, 1 + CAST, 3).astype(np.float32)
    lit = np.clip(augment.lighting(canvas, rng) * cast, 0, 255).astype(np.uint8)
    photo = augment.camera(cv2.GaussianBlur(lit, (0, 0), blur) if blur else lit, rng)
    return photo, corners


def clean(pool: FacePool, card: Card) -> Scene:
    """A card about as large as the camera's large picture shows it, found where it lies."""
    return _photographed(pool, card, pool.rng.uniform(90, 160))


def cut_off(pool: FacePool, card: Card) -> Scene:
    """The finder a little off: the outline slid by 6 to 10 per cent of the card's height, one way, so that the crop
    cuts through an index or the numeral's edge."""
    photo, corners = _photographed(pool, card, height := pool.rng.uniform(90, 160))
    way = pool.rng.normal(size=2)
    slid = corners + way / np.linalg.norm(way) * pool.rng.uniform(0.06, 0.10) * height
    return photo, slid.astype(np.float32)


def blurred(pool: FacePool, card: Card) -> Scene:
    """A small card (a camera high above, read from its small picture) out of focus."""
    return _photographed(pool, card, pool.rng.uniform(40, 55), blur=pool.rng.uniform(1.0, 2.0))


def upside_down(pool: FacePool, card: Card) -> Scene:
    """The card lying the other way up from the way it was found: the outline's top is the card's bottom."""
    photo, corners = clean(pool, card)
    return photo, np.roll(corners, 2, axis=0)


def numeral_alone(pool: FacePool, card: Card) -> Scene:
    """The finder fooled by the big numeral's outline: a card-shaped crop round the middle of the card alone."""
    photo, corners = clean(pool, card)
    span = pool.rng.uniform(0.4, 0.55)
    return photo, on_card(corners, (UNIT_SQUARE - 0.5) * span + 0.5 + pool.rng.normal(0, 0.03, 2))


CAUSES: dict[str, Callable[[FacePool, Card], Scene]] = {
    "clean": clean, "cut off at the index": cut_off, "round the numeral alone": numeral_alone,
    "blurred and small": blurred, "upside down": upside_down}


def misreads(model: CardModel, cause: Callable[[FacePool, Card], Scene], count: int, seed: int) -> Evaluation:
    """``count`` cards, each card the model knows alike often, made by ``cause`` and read as the camera path
    reads them."""
    rng = np.random.default_rng(seed)
    pool = FacePool(rng, variants=6)
    known = [card for card in model.cards if card is not None]
    cards = [known[int(rng.integers(len(known)))] for _ in range(count)]
    looks = [look(*cause(pool, card), model.size) for card in cards]
    result = Evaluation()
    for card, reading in zip(cards, model.read(looks), strict=True):
        result.tally(card.name, reading)
    return result
