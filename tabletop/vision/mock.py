"""A card reader that reads what it is told, for tests and rehearsals: the card model's seam, as gpiozero's mock
pins are the pins'.

The watcher's own decisions (when a card has landed, whose turn it was, what to ask a person about) can then be
held to a test without a network's judgement in between. As a mock pin is driven high or low, the reader is told
which card it sees (``card``), how sure it is (``confidence``) and how likely it finds no card there at all
(``no_card``), and may be told otherwise at any time; it counts
how many cards it was asked about, for the watcher looks at a card more than once.
"""

from __future__ import annotations

from collections.abc import Sequence

from tabletop.game.cards import Card
from tabletop.vision.crop import CROP_SIZE, Image, Look
from tabletop.vision.model import Reading


class ScriptedReader:
    """Reads every card it is asked about as ``card`` (a card's name, or None for no card) at ``confidence``."""

    def __init__(self, card: str | None = None, confidence: float = 0.99, size: tuple[int, int] = CROP_SIZE,
                 no_card: float = 0.0) -> None:
        self.card = card
        self.confidence = confidence
        self.no_card = no_card
        self.size = size
        self.asked = 0

    def read(self, looks: Sequence[Look | Image], guesses: int = 3) -> list[Reading]:
        return [self._reading() for _ in looks]

    def vote(self, looks: Sequence[Look | Image], guesses: int = 3) -> Reading:
        return self._reading()

    def vote_indexes(self, views: Sequence[Sequence[Image]], guesses: int = 3) -> list[Reading]:
        return [self._reading() for _ in views]

    def _reading(self) -> Reading:
        self.asked += 1
        card = None if self.card is None else Card.from_name(self.card)
        return Reading(card, self.confidence, ((card, self.confidence),), self.no_card)
