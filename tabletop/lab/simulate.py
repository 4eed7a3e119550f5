"""The seeded game simulator: whole games of UNO with a real shuffled deck, and the truth about them.

Pure: standard library only, ``random.Random(seed)``, no I/O, no clock. The simulator plays the physical game
(real hands, a real draw pile, real debts) and emits two things: the events the table would report, and the
truth the referee must reach from them. Hand sizes in the truth are physical. Penalties follow the referee's
written contract (README "How the referee decides what it cannot see", docs/rules.md "Fine points"): who is
in turn is decided from what the record shows, and nothing rests on what the record cannot prove.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from tabletop.game.cards import COLORS, Card, full_deck, hand_points
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
    Skipping,
    Stacking,
    TwoPlayerReverse,
    WildDrawFourRule,
    can_stack,
    forbids,
    jumps_in,
    matches,
    stacked_amount,
)

#: A round that runs this many turns is stopped: the game ends there, with no winner.
MAX_TURNS_PER_ROUND = 500
MAX_ROUNDS = 60

#: (ref, seat, reason, cards): a penalty verdict the referee must reach.
PenaltyTruth = tuple[int, int, PenaltyReason, int]
#: (round, winner, points, totals): a score verdict the referee must reach.
ScoreTruth = tuple[int, int, int, tuple[int, ...]]
#: How the referee must judge a play from the record: on a turn, a jump-in, or out of turn.
Standing = Literal["turn", "jump", "out"]


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
                  seats: bool = True, draws_seen: bool = True, mistakes: Mistakes = Mistakes()) -> SimulatedGame:
    """Play one whole game; the same arguments always give the same game.

    ``rules`` may come as a ``rules`` object of a ``game`` line, as a command line or a test writes it.
    ``seats``: plays, colours, passes and draws name their seat. A seatless table sees no out-of-turn play
    or jump-in, every turn without a play ends with a ``pass``, and only a draw that pays another seat's
    debt names its seat (nothing else could say whose it is). ``draws_seen``: the table reports draws;
    otherwise the record has no ``draw`` or ``pass`` and the host ends each round with ``end``. Where draws
    are unseen nobody forgets UNO or calls early: no call can be judged on a hand nobody can count.
    """
    if not 2 <= players <= 10:
        raise ValueError("a game needs 2 to 10 players")
    if not seats and not draws_seen:
        raise ValueError("a table that reports neither seats nor draws cannot be followed")
    table = _Simulation(seed, rules if isinstance(rules, Rules) else Rules.parse(rules), players, seats, draws_seen,
                        mistakes)
    table.run()
    return table.result()


class _Stop(Exception):
    """The game cannot go on (cards ran out, or a round ran too long): it ends where it is."""


@dataclass(frozen=True, slots=True)
class _Suspicion:
    """A wild draw four as the referee remembers it: the card under it and the colour it knew."""

    before: Card | None
    color: str | None


class _Simulation:
    """The physical game, plus the little the truth needs of what the record shows."""

    def __init__(self, seed: int, rules: Rules, players: int, seats: bool, draws_seen: bool,
                 mistakes: Mistakes) -> None:
        self.rng = random.Random(seed)
        self.rules = rules
        self.opts = rules.options
        if self.opts.hand_size * players > 90:
            raise ValueError("not enough cards to deal")
        self.n, self.seats, self.seen, self.odds = players, seats, draws_seen, mistakes
        self.events: list[Event] = []
        self.sizes: list[tuple[int, ...]] = []
        self.penalties: list[PenaltyTruth] = []
        self.scores: list[ScoreTruth] = []
        self.wild_draw_fours: list[tuple[int, int, bool]] = []
        self.winner: int | None = None
        self.totals = [0] * players
        self.hands: list[list[Card]] = [[] for _ in range(players)]
        self.owed = [0] * players
        self.pile: list[Card] = []
        self.discard: list[Card] = []
        self.round = 0
        self.dealer = 0
        self.reset_round()

    def reset_round(self) -> None:
        self.direction, self.turn, self.stack, self.ref_stack = 1, 0, 0, 0
        self.color: str | None = None  # the colour really active
        self.pub: str | None = None  # the colour the record shows
        self.first_card = False
        self.due: set[int] = set()
        self.precalled: int | None = None
        self.suspects: dict[int, list[_Suspicion]] = {}
        self.lagging: int | None = None  # the referee still gives the turn to this seat
        self.out: int | None = None

    def result(self) -> SimulatedGame:
        penalties = tuple(p for p in self.penalties if p[0] < len(self.events))
        played = tuple(w for w in self.wild_draw_fours if w[0] < len(self.events))
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

    def penalize(self, seat: int, cards: int, reason: PenaltyReason) -> None:
        self.penalties.append((self.ref, seat, reason, cards))
        self.owe(seat, cards)

    def owe(self, seat: int, cards: int) -> None:
        if cards > 0:
            self.owed[seat] += cards
            self.received(seat)

    def received(self, seat: int) -> None:
        """Cards came in (or may have, as far as the record shows): no UNO due, no proof of a wild draw four."""
        self.suspects.pop(seat, None)
        self.due.discard(seat)
        if self.precalled == seat:
            self.precalled = None

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
        deck = list(full_deck())
        self.rng.shuffle(deck)
        size = self.opts.hand_size
        self.hands = [deck[seat * size:(seat + 1) * size] for seat in range(self.n)]
        self.pile, self.discard, self.owed = deck[self.n * size:], [], [0] * self.n
        self.reset_round()
        self.emit(Deal(dealer=self.dealer))

    def flip(self) -> None:
        """Flip the first card; a wild draw four goes back into the pile and another is flipped."""
        card = self.pile.pop()
        while card.rank == "wild-draw-four":
            self.emit(Flip(card=card))
            self.pile.insert(self.rng.randrange(len(self.pile) + 1), card)
            card = self.pile.pop()
        self.discard.append(card)
        first = (self.dealer + 1) % self.n
        self.turn, self.color, self.pub, self.first_card = first, card.color, card.color, True
        if card.rank == "skip":
            self.turn = self.next(first)
        elif card.rank == "reverse":
            self.direction, self.turn = -1, self.dealer
        elif card.rank == "draw-two":
            self.hit(first, 2)
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

    def guilty(self, seat: int) -> bool:
        """Whether a wild draw four from ``seat`` now breaks the ``wild_draw_four`` rule."""
        rule = self.opts.wild_draw_four
        return any(forbids(card, self.top, self.color, rule) for card in self.hands[seat])

    def allowed(self, seat: int, card: Card) -> bool:
        """A wild draw four the player may not play is only played as a cheat."""
        return card.rank != "wild-draw-four" or not self.guilty(seat) or self.chance(self.odds.cheat)

    def playable(self, seat: int, card: Card) -> bool:
        return matches(card, self.top, self.color) and self.allowed(seat, card)

    def pick_color(self, seat: int) -> str:
        held = Counter(card.color for card in self.hands[seat] if card.color is not None)
        return held.most_common(1)[0][0] if held else self.rng.choice(COLORS)

    # --- turns -----------------------------------------------------------------------------------------------

    def take_turn(self, seat: int) -> None:
        hand = self.hands[seat]
        if self.pub is not None and self.chance(self.odds.illegal_play):
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
        self.flush_pass()
        self.emit(Uno(seat=seat))
        self.precalled = seat

    def flush_pass(self) -> None:
        """A player who drew and let the turn go says so, so that the record shows whose turn it is."""
        if self.lagging is not None and self.seen:
            seat, self.lagging = self.lagging, None
            self.end_ref_turn(seat)
            self.emit(Pass(seat=self.seat_of(seat)))

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
        """A draw that pays no debt: it ends the drawer's predecessor's turn and closes UNO windows."""
        self.received(seat)
        if not self.seen:
            return
        rt = self.ref_turn()
        if seat != rt and seat == self.next(rt):
            self.end_ref_turn(rt)
        self.lagging = None
        self.close_windows(seat)
        self.emit(Draw(seat=self.seat_of(seat), count=count))
        self.pay_debts()

    def end_without_play(self, seat: int) -> None:
        if self.seen and (not self.seats or self.chance(self.odds.pass_after_draw)):
            self.end_ref_turn(seat)
            self.emit(Pass(seat=self.seat_of(seat)))
        elif self.lagging is None:
            self.lagging = seat
        self.turn = self.next(seat)

    def face_stack(self, seat: int) -> None:
        """Hit by a draw card with stacking on: answer with a draw card, or draw everything owed."""
        top = self.top
        assert top is not None
        answers = [card for card in self.hands[seat]
                   if can_stack(card, top, self.color, self.opts.stacking) and self.allowed(seat, card)]
        if answers and self.chance(self.odds.stack):
            self.play(seat, self.rng.choice(answers))
            return
        count, self.owed[seat], self.stack = self.owed[seat], 0, 0
        self.take(seat, count)
        self.turn = self.next(seat)
        if self.seen:
            self.ref_stack = 0
            if self.precalled == seat:
                self.precalled = None
            if count:
                self.emit(Draw(seat=seat, count=count))
        elif self.lagging is None:
            self.lagging = seat

    def interrupt(self) -> bool:
        """Someone plays before the player in turn: a jump-in, or a card out of turn."""
        if not self.seats:
            return False
        top = self.top
        if self.opts.jump_in and not self.first_card and top is not None and not top.is_wild:
            jumpers = [seat for seat in range(self.n) if seat != self.turn and top in self.hands[seat]]
            if jumpers and self.chance(self.odds.jump_in):
                self.flush_pass()
                self.play(self.rng.choice(jumpers), top)
                return True
        others = [seat for seat in range(self.n) if seat not in (self.turn, self.next(self.turn))]
        if others and self.chance(self.odds.out_of_turn):
            seat = self.rng.choice(others)
            cards = [card for card in self.hands[seat] if not card.is_wild]
            if cards:
                self.flush_pass()
                self.play(seat, self.rng.choice(cards))
                return True
        return False

    # --- what the record shows of turns (README: "The next player acting ends the turn") ---------------------

    def ref_turn(self) -> int:
        return self.turn if self.lagging is None else self.lagging

    def end_ref_turn(self, seat: int) -> None:
        """The referee ends ``seat``'s turn without a play: unseen draws make its hand (and proofs) unknown."""
        if self.ref_stack:
            self.ref_stack = 0
        elif not self.seen:
            self.received(seat)
        if self.precalled == seat:
            self.precalled = None

    def classify(self, seat: int, card: Card) -> Standing:
        """``turn``, ``jump`` or ``out``, as the referee must judge a play from the record."""
        rt = self.ref_turn()
        if seat == rt:
            return "turn"
        if jumps_in(card, self.top, self.first_card, self.opts):
            return "jump"
        return "turn" if seat == self.next(rt) else "out"

    def close_windows(self, actor: int) -> None:
        """``actor`` plays or draws: every other seat's UNO window closes."""
        for seat in sorted(self.due):
            if seat != actor and self.opts.auto_catch:
                self.penalize(seat, self.opts.uno_penalty, PenaltyReason.MISSED_UNO)
        self.due.clear()
        if self.precalled != actor:
            self.precalled = None

    def judge(self, seat: int, card: Card, kind: Standing) -> int:
        """Call an out-of-turn or illegal card as the referee must; return the stack it answers there."""
        stack, self.ref_stack = self.ref_stack, 0
        penalty = self.opts.misplay_penalty
        top = self.top
        if kind == "out":
            self.penalize(seat, penalty, PenaltyReason.OUT_OF_TURN)
        elif kind == "turn" and stack and top is not None:
            if can_stack(card, top, self.pub, self.opts.stacking):
                return stack
            self.penalize(seat, penalty, PenaltyReason.ILLEGAL_PLAY)
        elif kind == "turn" and not matches(card, top, self.pub):
            self.penalize(seat, penalty, PenaltyReason.ILLEGAL_PLAY)
        return 0

    def prove(self, seat: int, card: Card) -> None:
        """Laying a card the player held when they played a wild draw four proves it illegal."""
        suspicions = self.suspects.get(seat, [])
        proven = [s for s in suspicions if forbids(card, s.before, s.color, self.opts.wild_draw_four)]
        for suspicion in proven:
            suspicions.remove(suspicion)
        for _ in proven:
            self.penalize(seat, 4, PenaltyReason.ILLEGAL_WILD_DRAW_FOUR)

    # --- plays -----------------------------------------------------------------------------------------------

    def play(self, seat: int, card: Card) -> None:
        """Lay ``card`` from ``seat``'s hand, with everything it brings, and what follows it at the table."""
        kind = self.classify(seat, card)
        rt = self.ref_turn()
        if kind == "turn" and seat != rt:
            self.end_ref_turn(rt)
        if not self.seen:
            for anyone in range(self.n):
                self.received(anyone)
        self.lagging = None
        self.close_windows(seat)
        judged = len(self.penalties)
        answered_ref = self.judge(seat, card, kind)
        self.prove(seat, card)
        penalised = any(p[1] == seat and p[3] for p in self.penalties[judged:])
        answered = self.stack if self.stack and seat == self.turn else 0
        before, before_color, guilty = self.top, self.pub, self.guilty(seat)
        self.lay(seat, card, answered)
        if card.rank == "wild-draw-four":
            self.wild_draw_fours.append((self.ref, seat, guilty))
            if not penalised:
                self.suspects.setdefault(seat, []).append(_Suspicion(before, before_color))
        if self.size(seat) == 0:
            self.go_out(seat, card, answered)
            return
        self.act(seat, card, answered)
        if card.draw_amount and self.opts.stacking is not Stacking.OFF:
            amount = stacked_amount(card, answered_ref, self.opts.stacking) if answered_ref else card.draw_amount
            self.ref_stack = amount
        self.watch_uno(seat, card)
        self.emit(Play(card=card, seat=self.seat_of(seat)))
        self.follow_up(seat, card, _Suspicion(before, before_color), guilty)

    def lay(self, seat: int, card: Card, answered: int) -> None:
        self.hands[seat].remove(card)
        self.owed[seat] -= answered
        self.stack = 0
        self.discard.append(card)
        self.color = self.pub = card.color
        self.first_card = False

    def go_out(self, seat: int, card: Card, answered: int) -> None:
        """The last card: the round is over; a draw card still makes its victim draw."""
        self.out = seat
        if card.draw_amount:
            victim = self.next(seat)
            self.owe(victim, stacked_amount(card, answered, self.opts.stacking) if answered else card.draw_amount)
        self.due.clear()
        self.suspects.clear()
        self.emit(Play(card=card, seat=self.seat_of(seat)))
        if not self.seen:
            self.emit(End(seat=seat))

    def act(self, seat: int, card: Card, answered: int) -> None:
        """The card's action, and whose turn it is after it."""
        rank = card.rank
        if card.draw_amount:
            self.hit(self.next(seat), stacked_amount(card, answered, self.opts.stacking) if answered
                     else card.draw_amount)
        elif rank == "skip":
            self.turn = seat if self.opts.skip is Skipping.PLAY_AGAIN else self.next(seat, 2)
        elif rank == "reverse":
            self.direction = -self.direction
            two_player_skip = self.n == 2 and self.opts.two_player_reverse is TwoPlayerReverse.SKIP
            self.turn = seat if two_player_skip else self.next(seat)
        else:
            self.turn = self.next(seat)
            if self.opts.seven_zero and rank == "0":
                self.pass_hands_on()

    def hit(self, victim: int, cards: int) -> None:
        self.owe(victim, cards)
        if self.opts.stacking is Stacking.OFF:
            self.turn = self.next(victim)
        else:
            self.stack = self.ref_stack = cards
            self.turn = victim

    def pass_hands_on(self) -> None:
        self.hands = [self.hands[self.next(seat, -1)] for seat in range(self.n)]
        for seat in range(self.n):
            self.received(seat)

    def watch_uno(self, seat: int, card: Card) -> None:
        passed_on = self.opts.seven_zero and card.rank == "0"
        if self.seen and self.size(seat) == 1 and not passed_on and self.precalled != seat:
            self.due.add(seat)
        self.precalled = None

    def follow_up(self, seat: int, card: Card, before: _Suspicion, guilty: bool) -> None:
        """What the table does right after a card lands: colour, swap, UNO, catch, challenge, debts."""
        if card.is_wild:
            self.name_color(seat)
        if self.opts.seven_zero and card.rank == "7":
            self.swap(seat)
        elif self.size(seat) == 1 and not (self.opts.seven_zero and card.rank == "0"):
            self.call_uno(seat)
        if self.seen and self.chance(self.odds.false_uno):
            self.stray_call(self.rng.randrange(self.n))
        if card.rank == "wild-draw-four":
            self.maybe_challenge(seat, before, guilty)
        self.pay_debts()

    def name_color(self, seat: int) -> None:
        self.color = self.pick_color(seat)
        if not self.chance(self.odds.omit_color):
            self.pub = self.color
            self.emit(Color(color=self.color, seat=self.seat_of(seat)))

    def swap(self, seat: int) -> None:
        other = self.rng.choice([s for s in range(self.n) if s != seat])
        self.hands[seat], self.hands[other] = self.hands[other], self.hands[seat]
        self.received(seat)
        self.received(other)
        self.emit(Swap(seat=seat, with_=other))

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
            self.penalize(seat, self.opts.uno_penalty, PenaltyReason.MISSED_UNO)
            self.emit(Catch(seat=catcher, target=seat))

    def stray_call(self, seat: int) -> None:
        """A call nobody owed: good with one card, or with two on one's own turn; otherwise a false UNO."""
        size = self.size(seat)
        if size == 1:
            self.due.discard(seat)
        elif size == 2 and seat == self.ref_turn():
            self.precalled = seat
        elif self.opts.false_uno_penalty:
            self.penalize(seat, self.opts.false_uno_penalty, PenaltyReason.FALSE_UNO)
        self.emit(Uno(seat=seat))

    # --- wild draw four challenges ---------------------------------------------------------------------------

    def maybe_challenge(self, player: int, before: _Suspicion, guilty: bool) -> None:
        """The victim may challenge, with the outcome given or left to a reveal of the player's hand.

        A reveal after the player received cards (a caught UNO) cannot show what they held when they played:
        it proves nothing either way, and the challenge lapses.
        """
        if not self.opts.challenge or not self.chance(self.odds.challenge):
            return
        victim = self.next(player)
        suspicions = self.suspects.get(player, [])
        untouched = before in suspicions
        self.pay_debts(exclude=victim)
        if before in suspicions:
            suspicions.remove(before)
        decidable = before.color is not None or self.opts.wild_draw_four is WildDrawFourRule.ANYTIME
        if decidable and self.chance(self.odds.challenge_by_reveal):
            self.emit(Challenge(seat=victim))
            rule = self.opts.wild_draw_four
            if untouched:
                self.decide(player, victim, any(forbids(card, before.before, before.color, rule)
                                                for card in self.hands[player]))
            self.emit(Reveal(seat=player, cards=tuple(self.hands[player])))
        else:
            self.decide(player, victim, guilty)
            self.emit(Challenge(seat=victim, guilty=guilty))

    def decide(self, player: int, victim: int, guilty: bool) -> None:
        if guilty:
            self.owed[victim] -= 4
            self.stack = max(self.stack - 4, 0)
            self.ref_stack = max(self.ref_stack - 4, 0)
            self.turn = victim
            self.penalize(player, 4, PenaltyReason.ILLEGAL_WILD_DRAW_FOUR)
            return
        self.penalties.append((self.ref, victim, PenaltyReason.CHALLENGE_LOST, 4 + self.opts.challenge_penalty))
        self.owe(victim, self.opts.challenge_penalty)
        if self.ref_stack and self.ref_turn() == victim:
            self.ref_stack = 0
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
                self.emit(Points(seat=seat, points=hand_points(self.hands[seat])))
            else:
                self.emit(Reveal(seat=seat, cards=tuple(self.hands[seat])))
        values = [0 if seat == winner else hand_points(self.hands[seat]) for seat in range(self.n)]
        points = sum(values)
        if self.opts.scoring is Scoring.OWN_POINTS:
            self.totals = [total + value for total, value in zip(self.totals, values, strict=True)]
        else:
            self.totals[winner] += points
        self.scores.append((self.round, winner, points, tuple(self.totals)))
        if max(self.totals) >= self.opts.target:
            own = self.opts.scoring is Scoring.OWN_POINTS
            self.winner = self.totals.index(min(self.totals)) if own else winner
