"""From a picture to a card: find the card-shaped things, crop and balance each, and let the model read them."""

from __future__ import annotations

from dataclasses import dataclass

from tabletop.vision.crop import Corners, Image, balance, rectify
from tabletop.vision.finder import find_cards
from tabletop.vision.model import CardModel, Reading

CANDIDATES = 4
"""How many of the finder's most prominent shapes are read, in one batch, to find the most prominent card."""
GUESS_FLOOR = 0.3


@dataclass(frozen=True)
class Sighting:
    """A card read at a place in the picture."""

    corners: Corners
    reading: Reading


def read_cards(image: Image, model: CardModel, limit: int = CANDIDATES) -> list[Sighting]:
    """Every card-shaped thing the finder sees (up to ``limit``), most prominent first, each with its reading."""
    shapes = [found.corners for found in find_cards(image, limit)]
    if not shapes:
        return []
    crops = [balance(rectify(image, corners, model.size)) for corners in shapes]
    return [Sighting(corners, reading) for corners, reading in zip(shapes, model.read(crops), strict=True)]


def read_card(image: Image, model: CardModel) -> Sighting | None:
    """The most prominent card that reads surely, else the most prominent that reads at all; None for no card.

    A shape read below ``GUESS_FLOOR`` is a patch of cloth or a card back the model half-recognises: reporting
    it would put a guess on the table.
    """
    cards = [s for s in read_cards(image, model) if s.reading.card is not None]
    sure = [s for s in cards if not s.reading.unsure]
    likely = [s for s in cards if s.reading.confidence >= GUESS_FLOOR]
    return next(iter(sure or likely), None)
