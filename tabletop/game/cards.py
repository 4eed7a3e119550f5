"""UNO cards as small values: the 57 names of docs/record.md, the 108- and 112-card decks and card points."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from functools import cache


class Color(StrEnum):
    """A card's colour, as docs/record.md spells it; each equals its word, so records and JSON carry it as is."""

    RED = "red"
    YELLOW = "yellow"
    GREEN = "green"
    BLUE = "blue"


class Rank(StrEnum):
    """What a card is, colour aside: a numeral, an action or a wild, as docs/record.md spells it."""

    ZERO = "0"
    ONE = "1"
    TWO = "2"
    THREE = "3"
    FOUR = "4"
    FIVE = "5"
    SIX = "6"
    SEVEN = "7"
    EIGHT = "8"
    NINE = "9"
    SKIP = "skip"
    REVERSE = "reverse"
    DRAW_TWO = "draw-two"
    WILD = "wild"
    WILD_DRAW_FOUR = "wild-draw-four"
    WILD_SHUFFLE_HANDS = "wild-shuffle-hands"
    WILD_SWAP_HANDS = "wild-swap-hands"
    WILD_CUSTOMIZABLE = "wild-customizable"


COLORS = tuple(Color)
NUMBERS = (Rank.ZERO, Rank.ONE, Rank.TWO, Rank.THREE, Rank.FOUR, Rank.FIVE, Rank.SIX, Rank.SEVEN, Rank.EIGHT,
           Rank.NINE)
ACTIONS = (Rank.SKIP, Rank.REVERSE, Rank.DRAW_TWO)
WILDS = (Rank.WILD, Rank.WILD_DRAW_FOUR)
#: The wilds decks sold since about 2018 add to the 108 cards.
SPECIAL_WILDS = (Rank.WILD_SHUFFLE_HANDS, Rank.WILD_SWAP_HANDS, Rank.WILD_CUSTOMIZABLE)
#: What each special wild scores unless the table's ``special_wild_points`` says otherwise.
SPECIAL_WILD_POINTS = 40
#: The decks a table may play with: the classic one and the one sold today.
DECK_SIZES = (108, 112)


@dataclass(frozen=True, slots=True)
class Card:
    """One face of the deck. ``color`` is None for the wilds; ``rank`` is a digit, an action or a wild."""

    color: Color | None
    rank: Rank

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
    def is_special(self) -> bool:
        """One of the three wilds the 112-card deck adds, which the table may score differently."""
        return self.rank in SPECIAL_WILDS

    def points(self, special_wild_points: int = SPECIAL_WILD_POINTS) -> int:
        """The card's value when a round is scored."""
        if self.is_number:
            return int(self.rank)
        if self.is_special:
            return special_wild_points
        return 50 if self.is_wild else 20

    def __str__(self) -> str:
        return self.name


def _classic_faces() -> tuple[Card, ...]:
    coloured = [Card(c, r) for c in COLORS for r in NUMBERS + ACTIONS]
    return (*coloured, *(Card(None, w) for w in WILDS))


#: The distinct faces of the 108-card deck, in a fixed order (54 cards).
CLASSIC_CARDS = _classic_faces()
#: Every distinct face a record may name, in a fixed order: the classic 54, then the three special wilds.
ALL_CARDS = (*CLASSIC_CARDS, *(Card(None, w) for w in SPECIAL_WILDS))
_BY_NAME = {card.name: card for card in ALL_CARDS}

#: How many of each special wild the 112-card deck holds. Printings differ (some have three blank wilds and no
#: swap-hands card); this is the one that puts every special card in play.
_SPECIAL_COPIES = {Rank.WILD_SHUFFLE_HANDS: 1, Rank.WILD_SWAP_HANDS: 1, Rank.WILD_CUSTOMIZABLE: 2}


@cache
def full_deck(size: int = 108) -> tuple[Card, ...]:
    """The cards of a standard deck of ``size`` (108 or 112), in a fixed order (shuffle a copy)."""
    if size not in DECK_SIZES:
        raise ValueError(f"a deck holds 108 or 112 cards, not {size}")
    deck: list[Card] = []
    for card in CLASSIC_CARDS:
        if card.is_wild:
            copies = 4
        elif card.rank is Rank.ZERO:
            copies = 1
        else:
            copies = 2
        deck.extend([card] * copies)
    if size == 112:
        for rank, copies in _SPECIAL_COPIES.items():
            deck.extend([Card(None, rank)] * copies)
    return tuple(deck)


def hand_points(cards: list[Card] | tuple[Card, ...], special_wild_points: int = SPECIAL_WILD_POINTS) -> int:
    return sum(card.points(special_wild_points) for card in cards)
