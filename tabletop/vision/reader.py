"""From a picture to a card: find the card-shaped things, crop and balance each, and let the model read them.

Two finders propose cards. The border finder (``borders``) is tried first: where a card's white border stands
out from the table, it places the card exactly in a few milliseconds, and most frames end there. Where none of
its cards reads surely, the learned finder (``finder``) looks too: it finds cards on pale tables, on busy cloths
and under thumbs, where no border stands out. On the 899 real pictures of the development set each finder
alone misses cards the other finds.
"""

from __future__ import annotations

from dataclasses import dataclass

from tabletop.vision import borders, finder
from tabletop.vision.crop import Corners, Image, look
from tabletop.vision.found import FoundCard
from tabletop.vision.model import CardReader, Reading

CANDIDATES = 4
"""How many of each finder's most prominent shapes are read, in one batch, to find the most prominent card."""
GUESS_FLOOR = 0.3


@dataclass(frozen=True)
class Sighting:
    """A card read at a place in the picture."""

    corners: Corners
    reading: Reading


def read_found(image: Image, model: CardReader, found: list[FoundCard]) -> list[Sighting]:
    """Each found card of ``image`` with its reading, in the order found; one batch for the model."""
    if not found:
        return []
    looks = [look(image, card.corners, model.size) for card in found]
    return [Sighting(card.corners, reading) for card, reading in zip(found, model.read(looks), strict=True)]


def read_card(image: Image, model: CardReader) -> Sighting | None:
    """The most prominent card that reads surely, else the most prominent that reads at all; None for no card.

    The border finder's cards come before the learned finder's, which is asked only when none of the border
    finder's reads surely. A shape read below ``GUESS_FLOOR`` is a patch of cloth or a card back the model
    half-recognises: reporting it would put a guess on the table.
    """
    cards = _cards(read_found(image, model, borders.find_cards(image, CANDIDATES)))
    if all(s.reading.unsure for s in cards):
        cards += _cards(read_found(image, model, finder.find_cards(image, CANDIDATES)))
    sure = [s for s in cards if not s.reading.unsure]
    likely = [s for s in cards if s.reading.confidence >= GUESS_FLOOR]
    return next(iter(sure or likely), None)


def _cards(sightings: list[Sighting]) -> list[Sighting]:
    return [s for s in sightings if s.reading.card is not None]
