"""The seeded game simulator: whole games of UNO with a real shuffled deck, and the truth about them.

Pure: standard library only, ``random.Random(seed)``, no I/O, no clock. The simulator plays the physical game
(real hands, a real draw pile, real debts, whose turn it really is) and emits the events the table would
report. It never reads its own record back. Beside the game it keeps a few physical facts (how often each
player has received cards, who owes an UNO call, which wild draw fours were laid on what) and reaches every
penalty with a small predicate on them ("What deserves a penalty" below). What the table cannot see is a fact
of the table too: the colour it heard, whether it sees draws. Its players misbehave only where a referee
could tell: a card that does not match is laid only where the colour was heard, and a card out of turn
never comes from the next player (who may take the turn over from a player who drew and said nothing).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from tabletop.game.cards import COLORS, Card, Rank, full_deck, hand_points
from tabletop.game.checks import PLAYERS
from tabletop.game.events import (
    Catch,
    Challenge,
    Color,
    Deal,
    Draw,
    End,
    Event,
    Flip,
    Game,
    Pass,
    PenaltyReason,
    Play,
    Points,
    Reveal,
    Swap,
    Uno,
)
from tabletop.game.rules import (
    OFFICIAL_RULES,
    Drawing,
    Rules,
    Scoring,
    Stacking,
    WildDrawFourRule,
    action,
    can_stack,
    draw_amount,
    forbids,
    jumps_in,
    matches,
    stacked_amount,
    turn_after,
)

#: A round that runs this many turns is stopped: the game ends there, with no winner.
MAX_TURNS_PER_ROUND = 500
MAX_ROUNDS = 60

#: (ref, seat, reason, cards): a penalty verdict the referee must reach.
PenaltyTruth = tuple[int, int, PenaltyReason, int]
#: (round, winner, points, totals): a score verdict the referee must reach.
ScoreTruth = tuple[int, int, int, tuple[int, ...]]


@dataclass(frozen=True, slots=True)
class Mistakes:
    """How often the players slip or use what the rules allow; each is a probability per chance to do it."""

    forget_uno: float = 0.25  # a player down to one card does not call (only where draws are seen)
    catch: float = 0.4  # someone calls out a forgotten UNO before the window closes
    early_uno: float = 0.3  # a player about to play their second-to-last card calls first
    false_uno: float = 0.03  # after a card lands, some seat calls UNO without cause (only where draws are seen)
    cheat: float = 0.3  # a wild draw four is played although the rule forbids it
    challenge: float = 0.4  # the victim of a wild draw four challenges it
    challenge_by_reveal: float = 0.5  # the outcome is left to a reveal instead of given
    illegal_play: float = 0.03  # a player lays a card that does not match
    out_of_turn: float = 0.03  # a seat that is neither in turn nor next lays a card (tables with seats)
    jump_in: float = 0.5  # a player holding the exact top card jumps in (with ``jump_in`` on)
    play_drawn: float = 0.8  # a playable drawn card is played at once
    stack: float = 0.8  # a player hit by a draw card answers it when they can (with stacking on)
    omit_color: float = 0.15  # the colour named for a wild goes unreported
    points: float = 0.3  # a hand is scored with ``points`` instead of a ``reveal``
    pass_after_draw: float = 0.5  # a player who drew and does not play says ``pass`` (tables with seats)


#: A careful table: nobody slips, nobody challenges.
CAREFUL = Mistakes(forget_uno=0, catch=0, early_uno=0, false_uno=0, cheat=0, challenge=0, illegal_play=0, out_of_turn=0,
                   omit_color=0)


@dataclass(frozen=True, slots=True)
class Truth:
    """What really happened: ``hands[i]`` is every hand's size (owed cards included) after event ``i``.

    ``wild_draw_fours`` holds ``(ref, seat, illegal)`` for every wild draw four played: whether its player
    really held a card the ``wild_draw_four`` rule forbids, which no penalty may contradict.
    """

    hands: tuple[tuple[int, ...], ...]
    penalties: tuple[PenaltyTruth, ...]
    scores: tuple[ScoreTruth, ...]
    winner: int | None
    wild_draw_fours: tuple[tuple[int, int, bool], ...] = ()


@dataclass(frozen=True, slots=True)
class SimulatedGame:
    events: list[Event]
    truth: Truth


def simulate_game(seed: int, rules: Rules | Mapping[str, Any] = OFFICIAL_RULES, players: int = 4,
                  seats: bool = True, draws_seen: bool = True, mistakes: Mistakes = Mistakes(),
                  deck: int = 108) -> SimulatedGame:
    """Play one whole game; the same arguments always give the same game.

    ``rules`` may come as a ``rules`` object of a ``game`` line, as a command line or a test writes it.
    ``seats``: plays, colours, passes and draws name their seat. A seatless table sees no out-of-turn play
    or jump-in, every turn without a play ends with a ``pass``, and only a draw that pays another seat's
    debt names its seat (nothing else could say whose it is). ``draws_seen``: the table reports draws;
    otherwise the record has no ``draw`` or ``pass`` and the host ends each round with ``end``. Where draws
    are unseen nobody forgets UNO or calls early: no call can be judged on a hand nobody can count. ``deck``:
    108 cards, or the 112 sold today with its three kinds of special wild.
    """
    if players not in PLAYERS:
        raise ValueError("a game needs 2 to 10 players")
    if not seats and not draws_seen:
        raise ValueError("a table that reports neither seats nor draws cannot be followed")
    full_deck(deck)  # a ValueError for a deck nobody sells, before anything is dealt
    table = _Simulation(seed, rules if isinstance(rules, Rules) else Rules.parse(rules), players, seats, draws_seen,
                        mistakes, deck)
    table.run()
    return table.result()


class _Stop(Exception):
    """The game cannot go on (cards ran out, or a round ran too long): it ends where it is."""


@dataclass(eq=False, slots=True)
class _Four:
    """A wild draw four as it was laid: on what, with which colour heard, and whether its player broke the
    ``wild_draw_four`` rule. ``receipts`` is how often the player had received cards just before: a hand shows
    what it held at the four only while that count has not moved."""

    ref: int
    seat: int
    under: Card | None
    heard: str | None
    forbidden: bool
    receipts: int


class _Simulation:
    """The physical game, and the facts its penalties follow from."""

    def __init__(self, seed: int, rules: Rules, players: int, seats: bool, draws_seen: bool,
                 mistakes: Mistakes, deck: int) -> None:
        self.rng = random.Random(seed)
        self.rules = rules
        self.opts = rules.options
        if self.opts.hand_size * players > 90:
            raise ValueError("not enough cards to deal")
        self.n, self.seats, self.seen, self.odds, self.deck = players, seats, draws_seen, mistakes, deck
        self.events: list[Event] = []
        self.sizes: list[tuple[int, ...]] = []
        self.penalties: list[PenaltyTruth] = []
        self.scores: list[ScoreTruth] = []
        self.fours: list[_Four] = []
        self.winner: int | None = None
        self.totals = [0] * players
        self.hands: list[list[Card]] = [[] for _ in range(players)]
        self.owed = [0] * players
        self.receipts = [0] * players
        self.pile: list[Card] = []
        self.discard: list[Card] = []
        self.round = 0
        self.dealer = 0
        self.new_round()

    def new_round(self) -> None:
        self.direction, self.turn, self.stack = 1, 0, 0
        self.color: str | None = None  # the colour really active
        self.heard: str | None = None  # the colour the table heard: a named colour may go unreported
        self.first_card = False
        self.silent: int | None = None  # drew, let the turn go and has not said "pass" (yet)
        self.due: set[int] = set()  # down to one card by a play, and no call yet
        self.early: int | None = None  # called UNO with two cards, about to play one of them
        self.open_fours: list[_Four] = []  # neither challenged nor proven yet
        self.out: int | None = None

    def result(self) -> SimulatedGame:
        last = len(self.events)
        penalties = tuple(p for p in self.penalties if p[0] < last)
        played = tuple((four.ref, four.seat, four.forbidden) for four in self.fours if four.ref < last)
        truth = Truth(tuple(self.sizes), penalties, tuple(self.scores), self.winner, played)
        return SimulatedGame(list(self.events), truth)

    # --- bookkeeping -----------------------------------------------------------------------------------------

    @property
    def ref(self) -> int:
        """The ref the next event will get: penalties reached at it carry it."""
        return len(self.events)

    @property
    def top(self) -> Card | None:
        return self.discard[-1] if self.discard else None

    def emit(self, event: Event) -> None:
        self.events.append(event)
        self.sizes.append(tuple(len(hand) + owed for hand, owed in zip(self.hands, self.owed, strict=True)))

    def size(self, seat: int) -> int:
        return len(self.hands[seat]) + self.owed[seat]

    def next(self, seat: int, steps: int = 1) -> int:
        return (seat + self.direction * steps) % self.n

    def seat_of(self, seat: int) -> int | None:
        return seat if self.seats else None

    def chance(self, p: float) -> bool:
        return self.rng.random() < p

    def penalize(self, seat: int, reason: PenaltyReason, cards: int, owes: int | None = None) -> None:
        """A penalty of ``cards``; the seat owes ``owes`` of them (a lost challenge's 4 are owed already)."""
        self.penalties.append((self.ref, seat, reason, cards))
        self.owe(seat, cards if owes is None else owes)

    def owe(self, seat: int, cards: int) -> None:
        if cards > 0:
            self.owed[seat] += cards
            self.receive(seat)

    def receive(self, seat: int) -> None:
        """Cards come into the hand (owed ones count from the moment they are owed)."""
        self.receipts[seat] += 1
        self.due.discard(seat)
        if self.early == seat:
            self.early = None

    def take(self, seat: int, count: int) -> None:
        """Move ``count`` cards from the draw pile to the hand, reshuffling the discards when it runs out."""
        for _ in range(count):
            if not self.pile:
                rest, self.discard = self.discard[:-1], self.discard[-1:]
                self.rng.shuffle(rest)
                self.pile = rest
            if not self.pile:
                raise _Stop
            self.hands[seat].append(self.pile.pop())

    # --- what deserves a penalty -----------------------------------------------------------------------------

    def misplay(self, seat: int, card: Card) -> PenaltyReason | None:
        """A card out of turn, or one that does not fit; a card is called once, out of turn first.

        Where draws go unseen, any seat may be in turn after a run of unseen draws and passes: no card is out
        of turn there, and each is held to the pile instead.
        """
        in_turn = seat == self.turn
        if not in_turn and self.seen and not jumps_in(card, self.top, self.first_card, self.opts):
            return PenaltyReason.OUT_OF_TURN
        if (in_turn or not self.seen) and not self.fits(seat, card):
            return PenaltyReason.ILLEGAL_PLAY
        return None

    def fits(self, seat: int, card: Card) -> bool:
        """Whether ``card`` may go on the pile, by the colour the table heard (an unheard one makes none wrong)."""
        top = self.top
        if self.stack and seat == self.turn and top is not None:
            return can_stack(card, top, self.heard, self.opts)
        return matches(card, top, self.heard)

    def forbidden(self, seat: int) -> bool:
        """Whether a wild draw four from ``seat`` now breaks the ``wild_draw_four`` rule."""
        rule = self.opts.wild_draw_four
        return any(forbids(card, self.top, self.color, rule) for card in self.hands[seat])

    def proven(self, seat: int, card: Card) -> list[_Four]:
        """``seat``'s open wild draw fours that ``card`` shows illegal: the rule forbade it when the four was
        laid, and the hand has received nothing since, so it held the card then. Where draws go unseen, no
        hand is ever known to have received nothing."""
        rule = self.opts.wild_draw_four
        return [four for four in self.open_fours
                if self.seen and four.seat == seat and four.receipts == self.receipts[seat]
                and forbids(card, four.under, four.heard, rule)]

    def call_is_good(self, seat: int) -> bool:
        """UNO from one card, or from two on one's own turn."""
        size = self.size(seat)
        return size == 1 or (size == 2 and seat == self.turn)

    def turn_begins(self, actor: int) -> None:
        """``actor`` plays or draws for a turn: whoever still owes an UNO call has missed it."""
        for seat in sorted(self.due - {actor}):
            if self.opts.auto_catch:
                self.penalize(seat, PenaltyReason.MISSED_UNO, self.opts.uno_penalty)
        self.due.clear()
        if self.early != actor:
            self.early = None

    # --- the game --------------------------------------------------------------------------------------------

    def run(self) -> None:
        names = tuple(f"P{seat}" for seat in range(self.n))
        self.emit(Game(players=names, rules=self.rules, draws_seen=None if self.seen else False))
        self.dealer = self.rng.randrange(self.n)
        try:
            for _ in range(MAX_ROUNDS):
                self.play_round()
                if self.winner is not None:
                    return
                self.dealer = (self.dealer + 1) % self.n
        except _Stop:
            return

    def play_round(self) -> None:
        self.round += 1
        self.deal()
        self.flip()
        for _ in range(MAX_TURNS_PER_ROUND):
            if self.out is not None:
                self.score_round(self.out)
                return
            self.step()
        raise _Stop

    def deal(self) -> None:
        deck = list(full_deck(self.deck))
        self.rng.shuffle(deck)
        size = self.opts.hand_size
        self.hands = [deck[seat * size:(seat + 1) * size] for seat in range(self.n)]
        self.pile, self.discard, self.owed = deck[self.n * size:], [], [0] * self.n
        self.new_round()
        self.emit(Deal(dealer=self.dealer))

    def flip(self) -> None:
        """Flip the first card; a wild draw four goes back into the pile and another is flipped."""
        card = self.pile.pop()
        while card.rank == Rank.WILD_DRAW_FOUR:
            self.emit(Flip(card=card))
            self.pile.insert(self.rng.randrange(len(self.pile) + 1), card)
            card = self.pile.pop()
        self.discard.append(card)
        first = (self.dealer + 1) % self.n
        self.turn, self.color, self.heard, self.first_card = first, card.color, card.color, True
        if card.rank == Rank.SKIP:
            self.turn = self.next(first)
        elif card.rank == Rank.REVERSE:
            self.direction, self.turn = -1, self.dealer
        elif card.rank == Rank.DRAW_TWO:
            self.strike(first, 2)
        self.emit(Flip(card=card))
        if card.is_wild:
            self.name_color(first)
        self.pay_debts()

    def step(self) -> None:
        """One turn, or one interruption of it (a jump-in or a card out of turn)."""
        if self.stack:
            self.face_stack(self.turn)
        elif not self.interrupt():
            self.take_turn(self.turn)

    # --- choosing cards --------------------------------------------------------------------------------------

    def allowed(self, seat: int, card: Card) -> bool:
        """A wild draw four the player may not play is only played as a cheat."""
        return card.rank != Rank.WILD_DRAW_FOUR or not self.forbidden(seat) or self.chance(self.odds.cheat)

    def playable(self, seat: int, card: Card) -> bool:
        return matches(card, self.top, self.color) and self.allowed(seat, card)

    def pick_color(self, seat: int) -> str:
        held = Counter(card.color for card in self.hands[seat] if card.color is not None)
        return held.most_common(1)[0][0] if held else self.rng.choice(COLORS)

    # --- turns -----------------------------------------------------------------------------------------------

    def take_turn(self, seat: int) -> None:
        hand = self.hands[seat]
        if self.heard is not None and self.chance(self.odds.illegal_play):
            wrong = [card for card in hand if not card.is_wild and not matches(card, self.top, self.color)]
            if wrong:
                self.play(seat, self.rng.choice(wrong))
                return
        legal = [card for card in hand if self.playable(seat, card)]
        if legal:
            self.maybe_call_early(seat)
            self.play(seat, self.rng.choice(legal))
        else:
            self.draw_turn(seat)

    def maybe_call_early(self, seat: int) -> None:
        """A player about to play their second-to-last card calls UNO first; the call needs their turn."""
        if not self.seen or self.size(seat) != 2 or not self.chance(self.odds.early_uno):
            return
        self.speak_up()
        self.emit(Uno(seat=seat))
        self.early = seat

    def speak_up(self) -> None:
        """A player who drew and let the turn go silently says "pass" before anyone else but the next player
        acts: from the record alone, the turn would still be theirs."""
        if self.silent is not None:
            self.emit(Pass(seat=self.seat_of(self.silent)))
            self.silent = None

    def draw_turn(self, seat: int) -> None:
        """Draw one (maybe play it) or draw until a card can be played, per the ``draw`` option."""
        count = 0
        while True:
            self.take(seat, 1)
            count += 1
            card = self.hands[seat][-1]
            if self.opts.draw is Drawing.ONE or self.playable(seat, card):
                break
        self.fresh_draw(seat, count)
        card = self.hands[seat][-1]
        if (self.opts.draw is Drawing.UNTIL_PLAYABLE
                or (self.playable(seat, card) and self.chance(self.odds.play_drawn))):
            self.play(seat, card)
        else:
            self.end_without_play(seat)

    def fresh_draw(self, seat: int, count: int) -> None:
        """A draw that pays no debt: it begins the drawer's turn at the table."""
        self.receive(seat)
        if not self.seen:
            return
        self.silent = None
        self.turn_begins(seat)
        self.emit(Draw(seat=self.seat_of(seat), count=count))
        self.pay_debts()

    def end_without_play(self, seat: int) -> None:
        if self.seen and (not self.seats or self.chance(self.odds.pass_after_draw)):
            self.emit(Pass(seat=self.seat_of(seat)))
        elif self.seen:
            self.silent = seat
        self.turn = self.next(seat)

    def face_stack(self, seat: int) -> None:
        """Hit by a draw card with stacking on: answer with a draw card, or draw everything owed."""
        top = self.top
        assert top is not None
        answers = [card for card in self.hands[seat]
                   if can_stack(card, top, self.color, self.opts) and self.allowed(seat, card)]
        if answers and self.chance(self.odds.stack):
            self.play(seat, self.rng.choice(answers))
            return
        count, self.owed[seat], self.stack = self.owed[seat], 0, 0
        self.take(seat, count)
        self.turn = self.next(seat)
        if self.early == seat:
            self.early = None
        if self.seen and count:
            self.emit(Draw(seat=seat, count=count))

    def interrupt(self) -> bool:
        """Someone plays before the player in turn: a jump-in, or a card out of turn."""
        if not self.seats:
            return False
        top = self.top
        if self.opts.jump_in and not self.first_card and top is not None and not top.is_wild:
            jumpers = [seat for seat in range(self.n) if seat != self.turn and top in self.hands[seat]]
            if jumpers and self.chance(self.odds.jump_in):
                self.speak_up()
                self.play(self.rng.choice(jumpers), top)
                return True
        others = [seat for seat in range(self.n) if seat not in (self.turn, self.next(self.turn))]
        if others and self.chance(self.odds.out_of_turn):
            seat = self.rng.choice(others)
            cards = [card for card in self.hands[seat] if not card.is_wild]
            if cards:
                self.speak_up()
                self.play(seat, self.rng.choice(cards))
                return True
        return False

    # --- plays -----------------------------------------------------------------------------------------------

    def play(self, seat: int, card: Card) -> None:
        """Lay ``card`` from ``seat``'s hand, with the penalties it earns, its action, and what follows it."""
        self.silent = None
        receipts = self.receipts[seat]
        self.turn_begins(seat)
        reason = self.misplay(seat, card)
        if reason is not None:
            self.penalize(seat, reason, self.opts.misplay_penalty)
        for earlier in self.proven(seat, card):
            self.open_fours.remove(earlier)
            self.penalize(seat, PenaltyReason.ILLEGAL_WILD_DRAW_FOUR, 4)
        answered = self.stack if self.stack and seat == self.turn else 0
        four: _Four | None = None
        if card.rank == Rank.WILD_DRAW_FOUR:
            four = _Four(self.ref, seat, self.top, self.heard, self.forbidden(seat), receipts)
            self.fours.append(four)
            self.open_fours.append(four)
        self.put_down(seat, card, answered)
        shuffled = action(card, self.opts) == "wild-shuffle-hands"
        if shuffled:
            self.shuffle_hands(seat)
        if self.size(seat) == 0:
            self.last_card(seat, card, answered)
            return
        self.carry_out(seat, card, answered)
        passed_on = (self.opts.seven_zero and card.rank == Rank.ZERO) or shuffled
        if self.seen and self.size(seat) == 1 and not passed_on and self.early != seat:
            self.due.add(seat)
        self.early = None
        self.emit(Play(card=card, seat=self.seat_of(seat)))
        self.follow_up(seat, card, four)

    def put_down(self, seat: int, card: Card, answered: int) -> None:
        self.hands[seat].remove(card)
        self.owed[seat] -= answered
        self.stack = 0
        self.discard.append(card)
        self.color = self.heard = card.color
        self.first_card = False

    def last_card(self, seat: int, card: Card, answered: int) -> None:
        """The last card: the round is over; a draw card still makes its victim draw."""
        self.out = seat
        if draw_amount(card, self.opts):
            victim = self.next(seat)
            self.owe(victim, stacked_amount(card, answered, self.opts))
        elif action(card, self.opts) == "everyone-draws-one":
            self.everyone_draws_one(seat)
        self.due.clear()
        self.open_fours.clear()
        self.emit(Play(card=card, seat=self.seat_of(seat)))
        if not self.seen:
            self.emit(End(seat=seat))

    def carry_out(self, seat: int, card: Card, answered: int) -> None:
        """The card's action, and whose turn it really is after it."""
        if draw_amount(card, self.opts):
            self.strike(self.next(seat), stacked_amount(card, answered, self.opts))
            return
        self.turn, self.direction = turn_after(card, seat, self.direction, self.n, self.opts)
        if self.opts.seven_zero and card.rank == Rank.ZERO:
            self.hands = [self.hands[self.next(seat, -1)] for seat in range(self.n)]
            for anyone in range(self.n):
                self.receive(anyone)
        elif action(card, self.opts) == "everyone-draws-one":
            self.everyone_draws_one(seat)

    def everyone_draws_one(self, seat: int) -> None:
        for other in range(self.n):
            if other != seat:
                self.owe(other, 1)

    def shuffle_hands(self, seat: int) -> None:
        """Gather every hand, shuffle, and deal one card at a time from the player's left, clockwise whatever
        the direction of play; a hand dealt one card owes a call."""
        cards = [card for hand in self.hands for card in hand]
        self.rng.shuffle(cards)
        self.hands = [[] for _ in range(self.n)]
        for place, card in enumerate(cards):
            self.hands[(seat + 1 + place) % self.n].append(card)
        for anyone in range(self.n):
            self.receive(anyone)
        if self.seen:
            self.due.update(anyone for anyone in range(self.n) if self.size(anyone) == 1)

    def strike(self, victim: int, cards: int) -> None:
        """A draw card lands: its victim owes the cards, and draws and loses the turn unless it may answer."""
        self.owe(victim, cards)
        if self.opts.stacking is Stacking.OFF:
            self.turn = self.next(victim)
        else:
            self.stack = cards
            self.turn = victim

    def follow_up(self, seat: int, card: Card, four: _Four | None) -> None:
        """What the table does right after a card lands: colour, swap, UNO, catch, challenge, debts."""
        does = action(card, self.opts)
        if card.is_wild:
            self.name_color(seat)
        if self.opts.seven_zero and card.rank == Rank.SEVEN:
            self.swap(seat)
        elif does == "wild-swap-hands":
            self.swap(seat, calls=True)
        elif does == "wild-shuffle-hands":
            for anyone in range(self.n):
                if self.size(anyone) == 1:
                    self.call_uno(anyone)
        elif self.size(seat) == 1 and not (self.opts.seven_zero and card.rank == Rank.ZERO):
            self.call_uno(seat)
        if self.seen and self.chance(self.odds.false_uno):
            self.stray_call(self.rng.randrange(self.n))
        if four is not None:
            self.maybe_challenge(four)
        self.pay_debts()

    def name_color(self, seat: int) -> None:
        self.color = self.pick_color(seat)
        if not self.chance(self.odds.omit_color):
            self.heard = self.color
            self.emit(Color(color=self.color, seat=self.seat_of(seat)))

    def swap(self, seat: int, calls: bool = False) -> None:
        """Swap hands with another seat; after a Wild Swap Hands (``calls``) a hand of one card owes a call."""
        other = self.rng.choice([s for s in range(self.n) if s != seat])
        self.hands[seat], self.hands[other] = self.hands[other], self.hands[seat]
        self.receive(seat)
        self.receive(other)
        self.emit(Swap(seat=seat, with_=other))
        if not calls:
            return
        if self.seen:
            self.due.update(anyone for anyone in (seat, other) if self.size(anyone) == 1)
        for anyone in (seat, other):
            if self.size(anyone) == 1:
                self.call_uno(anyone)

    # --- UNO -------------------------------------------------------------------------------------------------

    def call_uno(self, seat: int) -> None:
        """The player calls UNO, or forgets; someone may catch them before the window closes."""
        if seat not in self.due:
            if not self.seen:
                self.emit(Uno(seat=seat))
            return
        if not self.chance(self.odds.forget_uno):
            self.due.discard(seat)
            self.emit(Uno(seat=seat))
        elif self.chance(self.odds.catch):
            catcher = self.rng.choice([s for s in range(self.n) if s != seat])
            self.due.discard(seat)
            self.penalize(seat, PenaltyReason.MISSED_UNO, self.opts.uno_penalty)
            self.emit(Catch(seat=catcher, target=seat))

    def stray_call(self, seat: int) -> None:
        """A call nobody asked for: it settles a call owed, stands for a play to come, or is false."""
        if not self.call_is_good(seat):
            if self.opts.false_uno_penalty:
                self.penalize(seat, PenaltyReason.FALSE_UNO, self.opts.false_uno_penalty)
        elif self.size(seat) == 1:
            self.due.discard(seat)
        else:
            self.early = seat
        self.emit(Uno(seat=seat))

    # --- wild draw four challenges ---------------------------------------------------------------------------

    def maybe_challenge(self, four: _Four) -> None:
        """The victim may challenge, with the outcome given or left to a reveal of the player's hand.

        A reveal shows what the player held at the four only if no card has come in since (a caught UNO, a
        penalty for the four itself): otherwise it proves nothing either way, and the challenge lapses.
        """
        if not self.opts.challenge or not self.chance(self.odds.challenge):
            return
        victim = self.next(four.seat)
        self.pay_debts(exclude=victim)
        if four in self.open_fours:
            self.open_fours.remove(four)
        decidable = four.heard is not None or self.opts.wild_draw_four is WildDrawFourRule.ANYTIME
        if decidable and self.chance(self.odds.challenge_by_reveal):
            self.emit(Challenge(seat=victim))
            if self.receipts[four.seat] == four.receipts:
                self.settle(four, victim)
            self.emit(Reveal(seat=four.seat, cards=tuple(self.hands[four.seat])))
        else:
            self.settle(four, victim)
            self.emit(Challenge(seat=victim, guilty=four.forbidden))

    def settle(self, four: _Four, victim: int) -> None:
        """Guilty: the player draws the 4 and the victim plays. Not: the victim draws 4 and more, and loses the
        turn a stack had given it."""
        if four.forbidden:
            self.owed[victim] -= 4
            self.stack = max(self.stack - 4, 0)
            self.turn = victim
            self.penalize(four.seat, PenaltyReason.ILLEGAL_WILD_DRAW_FOUR, 4)
            return
        challenge_penalty = self.opts.challenge_penalty
        self.penalize(victim, PenaltyReason.CHALLENGE_LOST, 4 + challenge_penalty, owes=challenge_penalty)
        if self.stack and self.turn == victim:
            self.stack = 0
            self.turn = self.next(victim)

    # --- debts and scoring -----------------------------------------------------------------------------------

    def pay_debts(self, exclude: int | None = None) -> None:
        """Everyone who owes cards draws them at once, except a player hit by a stack, who may answer it."""
        for seat in range(self.n):
            count = self.owed[seat]
            if not count or seat == exclude or (self.stack and seat == self.turn and self.out is None):
                continue
            self.take(seat, count)
            self.owed[seat] = 0
            if self.seen:
                self.emit(Draw(seat=seat, count=count))

    def score_round(self, winner: int) -> None:
        """Every other hand is revealed (or its points entered); the winner, or everyone, scores."""
        self.pay_debts()
        for seat in range(self.n):
            if seat == winner:
                continue
            if self.chance(self.odds.points):
                self.emit(Points(seat=seat, points=hand_points(self.hands[seat], self.opts.special_wild_points)))
            else:
                self.emit(Reveal(seat=seat, cards=tuple(self.hands[seat])))
        values = [0 if seat == winner else hand_points(self.hands[seat], self.opts.special_wild_points)
                  for seat in range(self.n)]
        points = sum(values)
        if self.opts.scoring is Scoring.OWN_POINTS:
            self.totals = [total + value for total, value in zip(self.totals, values, strict=True)]
        else:
            self.totals[winner] += points
        self.scores.append((self.round, winner, points, tuple(self.totals)))
        if max(self.totals) >= self.opts.target:
            own = self.opts.scoring is Scoring.OWN_POINTS
            self.winner = self.totals.index(min(self.totals)) if own else winner
