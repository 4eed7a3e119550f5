"""UNO cards as small values: the 54 names of docs/record.md, the 108-card deck and card points."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

COLORS = ("red", "yellow", "green", "blue")
NUMBERS = tuple(str(n) for n in range(10))
ACTIONS = ("skip", "reverse", "draw-two")
WILDS = ("wild", "wild-draw-four")

#: Cards a draw card makes its victim take.
DRAW_AMOUNTS = {"draw-two": 2, "wild-draw-four": 4}


@dataclass(frozen=True, slots=True)
class Card:
    """One face of the deck. ``color`` is None for the two wilds; ``rank`` is a digit, an action or a wild."""

    color: str | None
    rank: str

    @staticmethod
    def from_name(name: str) -> Card:
        """The card called ``name`` (``red-7``, ``blue-draw-two``, ``wild``); ValueError for anything else."""
        try:
            return _BY_NAME[name]
        except (KeyError, TypeError):
            raise ValueError(f"unknown card {name!r}") from None

    @property
    def name(self) -> str:
        return self.rank if self.color is None else f"{self.color}-{self.rank}"

    @property
    def is_wild(self) -> bool:
        return self.color is None

    @property
    def is_number(self) -> bool:
        return self.rank in NUMBERS

    @property
    def draw_amount(self) -> int:
        """How many cards the victim of this card draws (0 for cards that are not draw cards)."""
        return DRAW_AMOUNTS.get(self.rank, 0)

    @property
    def points(self) -> int:
        """The card's value when a round is scored."""
        if self.is_number:
            return int(self.rank)
        return 50 if self.is_wild else 20

    def __str__(self) -> str:
        return self.name


def _all_faces() -> tuple[Card, ...]:
    coloured = [Card(c, r) for c in COLORS for r in NUMBERS + ACTIONS]
    return (*coloured, *(Card(None, w) for w in WILDS))


#: Every distinct face, in a fixed order (54 cards).
ALL_CARDS = _all_faces()
_BY_NAME = {card.name: card for card in ALL_CARDS}


@cache
def full_deck() -> tuple[Card, ...]:
    """The 108 cards of a standard deck, in a fixed order (shuffle a copy)."""
    deck: list[Card] = []
    for card in ALL_CARDS:
        if card.is_wild:
            copies = 4
        elif card.rank == "0":
            copies = 1
        else:
            copies = 2
        deck.extend([card] * copies)
    return tuple(deck)


def hand_points(cards: list[Card] | tuple[Card, ...]) -> int:
    return sum(card.points for card in cards)
