"""What the referee knows, in the shapes of how long it lasts: the game's (its rules, seats and totals, from a
``game`` line to the next), a round's (the hands, the pile, the calls and challenges pending, from a deal to the
next) and a turn's (whose it is, whether they drew, the stack of draw cards they face, until the turn moves on).

A round starts afresh at every deal and a turn at every move of the turn, so nothing of one can leak into the next.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from tabletop.game.cards import Card
from tabletop.game.house import Sizes
from tabletop.game.rules import Options, WildDrawFourRule, forbids


@dataclass(slots=True)
class GameSpan:
    """What lasts the whole game: its rules, how many seats, their totals, how many rounds were dealt."""

    opts: Options = field(default_factory=Options)
    draws_seen: bool = True
    seats: int = 0
    totals: list[int] = field(default_factory=list)
    rounds: int = 0
    over: bool = False


@dataclass(slots=True)
class TurnSpan:
    """What lasts one turn: whose it is, whether they drew on it, the stack of draw cards they face."""

    seat: int
    drawn: bool = False
    stack: int = 0


@dataclass(frozen=True, slots=True)
class WildDrawFour:
    """A wild draw four on the pile, remembered for a challenge or a later proof."""

    player: int
    victim: int
    before: Card | None
    color: str | None

    def forbids(self, card: Card, rule: WildDrawFourRule) -> bool:
        return forbids(card, self.before, self.color, rule)


@dataclass(slots=True)
class Fours:
    """The round's wild draw fours: the last one, while its victim may still challenge it; the one challenged,
    while the table has yet to show the hand that decides it; and each seat's not yet proven legal, which a card
    it lays later may prove illegal."""

    last: WildDrawFour | None = None
    challenged: WildDrawFour | None = None
    suspects: dict[int, list[WildDrawFour]] = field(default_factory=dict)


@dataclass(slots=True)
class Calls:
    """The round's UNO calls: the seats that owe one, and the seat that called on its turn before playing its
    second-to-last card."""

    due: set[int] = field(default_factory=set)
    precalled: int | None = None


@dataclass(frozen=True, slots=True)
class SwapDue:
    """A swap the player of a card must still name: seven-zero's 7, or a Wild Swap Hands, after which a hand
    left with one card owes a call (``calls``)."""

    seat: int
    calls: bool


class RoundSpan:
    """What lasts from a deal to the next: the hands and what each still owes, the pile, the direction and the
    turn, and what is pending (calls, challenges, a swap). ``dealt`` is false for the round before the first
    deal of a game, and again once the game is over."""

    def __init__(self, seats: int, dealer: int = 0, hand_size: int = 0, dealt: bool = False) -> None:
        self.seats = seats
        self.dealer = dealer
        self.dealt = dealt
        self.direction = 1
        self.turn = TurnSpan((dealer + 1) % seats if seats else 0)
        self.hands: list[int | None] = [hand_size] * seats
        self.owed = [0] * seats
        self.top: Card | None = None
        self.color: str | None = None
        self.namer: int | None = None
        """The seat that names the colour of the wild on the pile."""
        self.first_card = False
        """The top card is the one flipped to start the round."""
        self.opened = False
        """A card was played or drawn: the first card can no longer be flipped again."""
        self.calls = Calls()
        self.fours = Fours()
        self.swap_due: SwapDue | None = None
        self.winner: int | None = None
        self.scored: dict[int, int] = {}

    @property
    def in_play(self) -> bool:
        """Dealt and nobody has gone out yet."""
        return self.dealt and self.winner is None

    def next_seat(self, seat: int, steps: int = 1) -> int:
        return (seat + self.direction * steps) % self.seats

    def move_turn(self, seat: int, stack: int = 0) -> None:
        """The turn moves to ``seat``: nothing of the turn before stays with it."""
        turn = self.turn
        turn.seat, turn.drawn, turn.stack = seat, False, stack

    def owe(self, seat: int, cards: int) -> None:
        """``seat`` must take ``cards`` more: they count in its hand from now, and it has received cards."""
        if cards <= 0:
            return
        self.owed[seat] += cards
        self.add_cards(seat, cards)

    def add_cards(self, seat: int, cards: int) -> None:
        hand = self.hands[seat]
        if hand is not None:
            self.hands[seat] = hand + cards
        self.received(seat)

    def received(self, seat: int) -> None:
        """A seat that receives cards is no longer on UNO and can no longer be proven to have held a card."""
        self.fours.suspects.pop(seat, None)
        self.calls.due.discard(seat)
        if self.calls.precalled == seat:
            self.calls.precalled = None

    def unknown(self, seat: int) -> None:
        """``seat`` may have drawn cards nobody saw."""
        self.hands[seat] = None
        self.received(seat)

    def held(self) -> Sizes:
        """The cards each seat holds in its hand, without those it still owes."""
        return tuple(None if h is None else h - o for h, o in zip(self.hands, self.owed, strict=True))

    def rehand(self, held: Sizes, seats: range | tuple[int, ...]) -> None:
        """``seats`` receive the hands ``held`` gives them; cards still owed stay owed by the seat that owes them."""
        for seat in seats:
            given = held[seat]
            self.hands[seat] = None if given is None else given + self.owed[seat]
            self.received(seat)
