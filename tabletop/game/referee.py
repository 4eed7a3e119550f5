"""The referee: folds a game record into the state of the table and the verdicts it reaches.

Pure: standard library only, no I/O, no clock, no threads. Everything is derived from the event list, so a
correction (``retract``, ``amend``) simply derives everything again from the corrected record.

The referee watches and never deals. It knows a hand's size only by counting (the deal, plays, draws it was
told about, penalties); where it cannot be sure, the size is ``None`` and no penalty rests on it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from tabletop.game.cards import Card, Rank, hand_points
from tabletop.game.events import (
    CORRECTIONS,
    Catch,
    Challenge,
    Color,
    Deal,
    Draw,
    End,
    Event,
    Flip,
    Game,
    GameEnd,
    Notice,
    NoticeReason,
    Pass,
    Penalty,
    PenaltyReason,
    Play,
    Points,
    Reveal,
    RoundEnd,
    Score,
    State,
    Swap,
    Uno,
    Verdict,
)
from tabletop.game.prefix import Prefix
from tabletop.game.record import Entry, RecordChecker, corrected
from tabletop.game.rules import (
    Options,
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


@dataclass(frozen=True, slots=True)
class _WildDrawFour:
    """A wild draw four on the pile, remembered for a challenge or a later proof."""

    player: int
    victim: int
    before: Card | None
    color: str | None

    def forbids(self, card: Card, rule: WildDrawFourRule) -> bool:
        return forbids(card, self.before, self.color, rule)


@dataclass(frozen=True, slots=True)
class _SwapDue:
    """A swap the player of a card must still name: seven-zero's 7, or a Wild Swap Hands, after which a hand
    left with one card owes a call (``calls``)."""

    seat: int
    calls: bool


class Referee:
    """A game in progress: push events as the table produces them, read ``state`` and ``verdicts``.

    Like a chess board, it records what the table did even when it was against the rules, and reports the
    breach as a verdict instead of refusing the event.
    """

    def __init__(self, events: Iterable[Event] = ()) -> None:
        self._events: list[Event] = []
        self._checker = RecordChecker()
        self._fold = _Fold()
        for event in events:
            self.push(event)

    def push(self, event: Event) -> list[Verdict]:
        """Add the next event; return the verdicts it brings (after a correction: those it newly brings).

        An event that cannot stand in the record raises RecordError and leaves the game untouched.
        """
        ref = self.next_ref
        self._checker.accept(ref, event)
        self._events.append(event)
        if isinstance(event, CORRECTIONS):
            before = set(self._fold.verdicts)
            self._fold = _Fold.fold(corrected(list(enumerate(self._events))))
            return [verdict for verdict in self._fold.verdicts if verdict not in before]
        seen = len(self._fold.verdicts)
        self._fold.apply(ref, event)
        return self._fold.verdicts[seen:]

    def check(self, event: Event) -> None:
        """Raise RecordError if ``event`` cannot be the next line; nothing changes either way.

        The game log writes an event before it is applied, so it must know first that pushing it will succeed.
        """
        self._checker.check(self.next_ref, event)

    @property
    def next_ref(self) -> int:
        """The line the next event will have."""
        return len(self._events)

    @property
    def record(self) -> Prefix[Event]:
        """The record as it stands now, taken without copying it."""
        return Prefix(self._events)

    @property
    def verdicts(self) -> Prefix[Verdict]:
        """The verdicts as they stand now, taken without copying them."""
        return Prefix(self._fold.verdicts)

    @property
    def state(self) -> State:
        return self._fold.state()


def replay(entries: Sequence[Entry]) -> tuple[list[Verdict], State]:
    """The verdicts and final state of a whole record, corrections applied first."""
    fold = _Fold.fold(corrected(entries))
    return fold.verdicts, fold.state()


class _Fold:
    """The running derivation. Mutable for speed, but only ever built by folding a record from its start."""

    def __init__(self) -> None:
        self.verdicts: list[Verdict] = []
        self.opts = Options()
        self.draws_seen = True
        self.n = 0
        self.totals: list[int] = []
        self.over = False
        self.round = 0
        self._reset_round(dealer=0)
        self.in_round = False
        self.handlers: dict[type, Callable[[int, Any], None]] = {
            Game: self._game, Deal: self._deal, Flip: self._flip, Play: self._play, Color: self._color,
            Draw: self._draw, Pass: self._pass, Uno: self._uno, Catch: self._catch, Challenge: self._challenge,
            Reveal: self._reveal, Points: self._points, Swap: self._swap, End: self._end,
        }

    @classmethod
    def fold(cls, entries: Iterable[Entry]) -> _Fold:
        fold = cls()
        for ref, event in entries:
            fold.apply(ref, event)
        return fold

    def apply(self, ref: int, event: Event) -> None:
        handler = self.handlers.get(type(event))
        if handler is None:
            return
        if self.over and not isinstance(event, Game):
            self.notice(NoticeReason.GAME_OVER, ref)
            return
        handler(ref, event)

    def state(self) -> State:
        return State(
            round=self.round,
            turn=self.turn if self.in_round and self.winner is None else None,
            direction="clockwise" if self.direction == 1 else "counter-clockwise",
            top=self.top,
            color=self.color,
            hands=tuple(self.hands),
            owed=tuple(self.owed),
            totals=tuple(self.totals),
            over=self.over,
        )

    # --- bookkeeping -------------------------------------------------------------------------------------

    def _reset_round(self, dealer: int) -> None:
        size = self.opts.hand_size if self.round else 0
        self.dealer = dealer
        self.turn = (dealer + 1) % self.n if self.n else 0
        self.direction = 1
        self.hands: list[int | None] = [size] * self.n
        self.owed = [0] * self.n
        self.top: Card | None = None
        self.color: str | None = None
        self.opened = False
        self.first_card = False
        self.drawn = False
        self.stack = 0
        self.namer: int | None = None
        self.due: set[int] = set()
        self.precalled: int | None = None
        self.suspects: dict[int, list[_WildDrawFour]] = {}
        self.wild_draw_four: _WildDrawFour | None = None
        self.challenged: _WildDrawFour | None = None
        self.swap_due: _SwapDue | None = None
        self.winner: int | None = None
        self.scored: dict[int, int] = {}

    def next_seat(self, seat: int, steps: int = 1) -> int:
        return (seat + self.direction * steps) % self.n

    def notice(self, reason: NoticeReason, ref: int) -> None:
        self.verdicts.append(Notice(reason, ref))

    def penalize(self, seat: int, cards: int, reason: PenaltyReason, ref: int) -> None:
        self.verdicts.append(Penalty(seat, cards, reason, ref))
        self.owe(seat, cards)

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
        self.suspects.pop(seat, None)
        self.due.discard(seat)
        if self.precalled == seat:
            self.precalled = None

    def unknown(self, seat: int) -> None:
        """``seat`` may have drawn cards nobody saw."""
        self.hands[seat] = None
        self.received(seat)

    def close_windows(self, actor: int, ref: int) -> None:
        """``actor`` began a turn: every other seat's chance to call UNO is over."""
        if self.due:
            for seat in sorted(self.due):
                if seat != actor and self.opts.auto_catch:
                    self.penalize(seat, self.opts.uno_penalty, PenaltyReason.MISSED_UNO, ref)
            self.due.clear()
        if self.precalled != actor:
            self.precalled = None

    def settle_pending(self, actor: int, ref: int) -> None:
        """Things that had to happen before ``actor`` played or drew, and now cannot."""
        self.wild_draw_four = None
        if self.challenged is not None:
            self.challenged = None
            self.notice(NoticeReason.CHALLENGE_UNDECIDED, ref)
        if self.swap_due is not None:
            self.unreported_swap(self.swap_due.seat)

    def end_turn(self, ref: int) -> None:
        """The current player's turn is over without a play of theirs (a pass, or the next player acted).

        Without a draw the table saw, they must have drawn unseen: where the table reports draws, a notice names
        the hand that became unknown, so that the missed draw can be put in.
        """
        current = self.turn
        if self.stack:
            self.stack = 0
        elif not self.drawn:
            self.unknown(current)
            if self.draws_seen:
                self.verdicts.append(Notice(NoticeReason.UNSEEN_DRAW, ref, seat=current))
        self.turn = self.next_seat(current)
        self.drawn = False
        if self.precalled == current:
            self.precalled = None

    def turns_may_have_passed(self) -> None:
        """With draws unseen, any play, pass or draw may follow a whole round of unseen draws and passes."""
        if not self.draws_seen:
            for seat in range(self.n):
                self.unknown(seat)

    # --- game and round ----------------------------------------------------------------------------------

    def _game(self, ref: int, event: Game) -> None:
        self.opts = event.rules.options
        self.draws_seen = event.draws_seen is not False
        self.n = len(event.players)
        self.totals = [0] * self.n
        self.over = False
        self.round = 0
        self.in_round = False
        self._reset_round(dealer=0)

    def _deal(self, ref: int, event: Deal) -> None:
        if not (self.in_round and self.winner is None):
            self.round += 1
        self._reset_round(event.dealer)
        self.in_round = True

    def _flip(self, ref: int, event: Flip) -> None:
        if not self.in_round or self.winner is not None:
            self.notice(NoticeReason.NO_ROUND_IN_PLAY, ref)
            return
        if self.opened:
            self.notice(NoticeReason.ROUND_ALREADY_STARTED, ref)
            return
        self._undo_flip()
        first = (self.dealer + 1) % self.n
        card = event.card
        self.direction, self.turn, self.color = 1, first, card.color
        if card.rank == Rank.WILD_DRAW_FOUR:
            self.top = None
            return
        self.top, self.first_card = card, True
        if card.rank == Rank.SKIP:
            self.turn = self.next_seat(first)
        elif card.rank == Rank.REVERSE:
            self.direction, self.turn = -1, self.dealer
        elif card.rank == Rank.DRAW_TWO:
            self.hit(first, 2)
        elif card.is_wild:
            self.namer = first

    def _undo_flip(self) -> None:
        """A re-flip replaces the first card, and with it the draw two a first flip may have dealt out."""
        if self.top is not None and self.top.rank == Rank.DRAW_TWO:
            first = (self.dealer + 1) % self.n
            self.owed[first] -= 2
            hand = self.hands[first]
            self.hands[first] = None if hand is None else hand - 2
        self.stack, self.namer, self.first_card = 0, None, False

    def hit(self, victim: int, cards: int) -> None:
        """A draw card lands on ``victim``: it draws at once and loses its turn, or (stacking) may answer."""
        self.owe(victim, cards)
        if self.opts.stacking is Stacking.OFF:
            self.turn = self.next_seat(victim)
        else:
            self.stack, self.turn = cards, victim

    # --- plays -------------------------------------------------------------------------------------------

    def _play(self, ref: int, event: Play) -> None:
        if not self.in_round or self.winner is not None:
            self.notice(NoticeReason.NO_ROUND_IN_PLAY, ref)
            return
        card = event.card
        seat = self.turn if event.seat is None else event.seat
        self.turns_may_have_passed()
        in_turn = self.take_turn(seat, card, ref)
        self.close_windows(seat, ref)
        self.settle_pending(seat, ref)
        owed = self.owed[seat]
        answered = self.judge(seat, card, in_turn, ref)
        self.prove(seat, card, ref)
        self.lay(seat, card, answered, penalised=self.owed[seat] > owed)
        if action(card, self.opts) == "wild-shuffle-hands":
            self.shuffle_hands(seat)
        if self.hands[seat] == 0:
            self.go_out(seat, card, answered, ref)
        else:
            self.act(seat, card, answered)
            self.watch_uno(seat, card)

    def take_turn(self, seat: int, card: Card, ref: int) -> bool:
        """Whether ``seat`` plays on its own turn: the current player's, or the next one's after their pass.

        Where draws go unseen, a whole run of unseen draws and passes may come before any play, so any seat
        may be in turn, and the turns before it end.
        """
        if seat == self.turn and not self.left_stack_unseen(card):
            return True
        if self.is_jump_in(card):
            return False
        if seat == self.next_seat(self.turn) or not self.draws_seen:
            self.end_turn(ref)
            while self.turn != seat:
                self.end_turn(ref)
            return True
        return False

    def left_stack_unseen(self, card: Card) -> bool:
        """Where draws go unseen, a player facing a stack who lays a card that cannot answer it drew the stack,
        and the turn came round to them again."""
        top = self.top
        return (not self.draws_seen and self.stack > 0 and top is not None
                and not can_stack(card, top, self.color, self.opts))

    def is_jump_in(self, card: Card) -> bool:
        return jumps_in(card, self.top, self.first_card, self.opts)

    def judge(self, seat: int, card: Card, in_turn: bool, ref: int) -> int:
        """Call an out-of-turn or illegal card; return the stack ``card`` answers (0 when it answers none)."""
        stack, self.stack = self.stack, 0
        if not in_turn:
            if not self.is_jump_in(card):
                self.penalize(seat, self.opts.misplay_penalty, PenaltyReason.OUT_OF_TURN, ref)
            return 0
        top = self.top
        if stack and top is not None:
            if can_stack(card, top, self.color, self.opts):
                return stack
            self.penalize(seat, self.opts.misplay_penalty, PenaltyReason.ILLEGAL_PLAY, ref)
        elif not matches(card, top, self.color):
            self.penalize(seat, self.opts.misplay_penalty, PenaltyReason.ILLEGAL_PLAY, ref)
        return 0

    def prove(self, seat: int, card: Card, ref: int) -> None:
        """A player who lays a card they must have held when they played a wild draw four proves it illegal."""
        suspicions = self.suspects.get(seat)
        if not suspicions:
            return
        rule = self.opts.wild_draw_four
        proven = [s for s in suspicions if s.forbids(card, rule)]
        for suspicion in proven:
            suspicions.remove(suspicion)
        for _ in proven:
            self.penalize(seat, 4, PenaltyReason.ILLEGAL_WILD_DRAW_FOUR, ref)

    def lay(self, seat: int, card: Card, answered: int, penalised: bool) -> None:
        """The card leaves the hand; a stack it answers leaves the seat's debt and goes on with the card.

        A wild draw four whose player is penalised as they lay it can never be proven later: the hand they
        show afterwards holds the penalty cards too.
        """
        hand = self.hands[seat]
        self.owed[seat] -= answered
        self.hands[seat] = None if hand is None or hand <= answered else hand - 1 - answered
        if card.rank == Rank.WILD_DRAW_FOUR:
            victim = self.next_seat(seat)
            self.wild_draw_four = _WildDrawFour(seat, victim, self.top, self.color)
            if not penalised:
                self.suspects.setdefault(seat, []).append(self.wild_draw_four)
        self.top, self.color = card, card.color
        self.namer = seat if card.is_wild else None
        self.opened, self.first_card, self.drawn = True, False, False

    def go_out(self, seat: int, card: Card, answered: int, ref: int) -> None:
        self.verdicts.append(RoundEnd(self.round, seat, ref))
        self.winner = seat
        if draw_amount(card, self.opts):
            victim = self.next_seat(seat)
            self.owe(victim, stacked_amount(card, answered, self.opts))
        elif action(card, self.opts) == "everyone-draws-one":
            self.everyone_draws_one(seat)
        self.wild_draw_four = None
        self.due.clear()
        self.suspects.clear()

    def act(self, seat: int, card: Card, answered: int) -> None:
        """The card's action, and whose turn it is after it."""
        if draw_amount(card, self.opts):
            self.hit(self.next_seat(seat), stacked_amount(card, answered, self.opts))
            return
        self.turn, self.direction = turn_after(card, seat, self.direction, self.n, self.opts)
        does = action(card, self.opts)
        if self.opts.seven_zero and card.rank == Rank.SEVEN:
            self.swap_due = _SwapDue(seat, calls=False)
        elif does == "wild-swap-hands":
            self.swap_due = _SwapDue(seat, calls=True)
        elif self.opts.seven_zero and card.rank == Rank.ZERO:
            self.pass_hands_on()
        elif does == "everyone-draws-one":
            self.everyone_draws_one(seat)

    def watch_uno(self, seat: int, card: Card) -> None:
        """A hand down to one card owes a call, unless it was made on the turn that got it there.

        After a 0 passes the hands on, or a shuffle deals them anew, the hand is no longer the one the card left.
        """
        passed_on = ((self.opts.seven_zero and card.rank == Rank.ZERO)
                     or action(card, self.opts) == "wild-shuffle-hands")
        if self.hands[seat] == 1 and not passed_on and self.precalled != seat:
            self.due.add(seat)
        self.precalled = None

    def pass_hands_on(self) -> None:
        """Seven-zero: a 0 passes every hand to the next player in the direction of play."""
        held = [None if h is None else h - o for h, o in zip(self.hands, self.owed, strict=True)]
        for seat in range(self.n):
            passed = held[self.next_seat(seat, -1)]
            self.hands[seat] = None if passed is None else passed + self.owed[seat]
            self.received(seat)

    def everyone_draws_one(self, seat: int) -> None:
        """A blank wild written as "everyone draws one": every other seat owes a card."""
        for other in range(self.n):
            if other != seat:
                self.owe(other, 1)

    def shuffle_hands(self, seat: int) -> None:
        """Wild Shuffle Hands: every hand is gathered and dealt out one card at a time from ``seat``'s left.

        The new sizes follow from the total only when every hand was known; cards still owed stay owed by the
        seat that owes them. Any hand dealt a single card owes a call.
        """
        held = [None if h is None else h - o for h, o in zip(self.hands, self.owed, strict=True)]
        total = None if None in held else sum(h for h in held if h is not None)
        for place in range(self.n):
            dealt = (seat + 1 + place) % self.n
            share = None if total is None else total // self.n + (place < total % self.n)
            self.hands[dealt] = None if share is None else share + self.owed[dealt]
            self.received(dealt)
        self.due.update(other for other in range(self.n) if self.hands[other] == 1)

    # --- draws and turns -----------------------------------------------------------------------------------

    def _draw(self, ref: int, event: Draw) -> None:
        seat = self.turn if event.seat is None else event.seat
        if self.wild_draw_four is not None and seat == self.wild_draw_four.victim:
            self.wild_draw_four = None
        paid = min(event.count, self.owed[seat])
        self.owed[seat] -= paid
        surplus = event.count - paid
        if not self.in_round or self.winner is not None:
            self.add_cards(seat, surplus)
            return
        self.opened = True
        self.turns_may_have_passed()
        if self.stack and seat == self.turn:
            self.wild_draw_four = None
            self.add_cards(seat, surplus)
            self.end_turn(ref)
        elif surplus:
            self.fresh_draw(seat, surplus, ref)

    def fresh_draw(self, seat: int, count: int, ref: int) -> None:
        if seat != self.turn and seat == self.next_seat(self.turn):
            self.end_turn(ref)
        self.close_windows(seat, ref)
        self.settle_pending(seat, ref)
        if seat == self.turn:
            self.drawn = True
        self.add_cards(seat, count)

    def _pass(self, ref: int, event: Pass) -> None:
        seat = self.turn if event.seat is None else event.seat
        if not self.in_round or self.winner is not None or seat != self.turn:
            self.notice(NoticeReason.NOT_YOUR_TURN, ref)
            return
        self.wild_draw_four = None
        self.turns_may_have_passed()
        self.end_turn(ref)

    def _color(self, ref: int, event: Color) -> None:
        if not self.in_round or self.top is None or not self.top.is_wild or self.winner is not None:
            self.notice(NoticeReason.NO_WILD_TO_NAME, ref)
        elif event.seat is not None and event.seat != self.namer:
            self.notice(NoticeReason.NOT_THE_WILD_PLAYER, ref)
        else:
            self.color = event.color

    # --- UNO ---------------------------------------------------------------------------------------------

    def _uno(self, ref: int, event: Uno) -> None:
        seat = event.seat
        if not self.in_round or self.winner is not None:
            self.notice(NoticeReason.NO_ROUND_IN_PLAY, ref)
            return
        hand = self.hands[seat]
        if hand is None or hand == 1:
            self.due.discard(seat)
        elif hand == 2 and seat == self.turn:
            self.precalled = seat
        elif self.opts.false_uno_penalty:
            self.penalize(seat, self.opts.false_uno_penalty, PenaltyReason.FALSE_UNO, ref)

    def _catch(self, ref: int, event: Catch) -> None:
        if event.target in self.due and event.seat != event.target:
            self.due.discard(event.target)
            self.penalize(event.target, self.opts.uno_penalty, PenaltyReason.MISSED_UNO, ref)
        else:
            self.notice(NoticeReason.NOTHING_TO_CATCH, ref)

    # --- wild draw four challenges -------------------------------------------------------------------------

    def _challenge(self, ref: int, event: Challenge) -> None:
        played = self.wild_draw_four
        if not self.opts.challenge:
            self.notice(NoticeReason.CHALLENGES_ARE_OFF, ref)
        elif played is None or self.winner is not None:
            self.notice(NoticeReason.NO_WILD_DRAW_FOUR_TO_CHALLENGE, ref)
        elif event.seat != played.victim:
            self.notice(NoticeReason.ONLY_THE_VICTIM_MAY_CHALLENGE, ref)
        else:
            self.wild_draw_four = None
            if event.guilty is None:
                self.challenged = played
            else:
                self.decide(played, event.guilty, ref)

    def decide(self, played: _WildDrawFour, guilty: bool, ref: int) -> None:
        """Settle a challenge; a victim who already drew the 4 keeps them (they are in the hand now)."""
        victim = played.victim
        suspicions = self.suspects.get(played.player, [])
        if played in suspicions:
            suspicions.remove(played)
        if guilty:
            spared = min(4, self.owed[victim])
            self.owed[victim] -= spared
            hand = self.hands[victim]
            self.hands[victim] = None if hand is None else hand - spared
            self.stack = max(self.stack - 4, 0)
            self.turn, self.drawn = victim, False
            self.penalize(played.player, 4, PenaltyReason.ILLEGAL_WILD_DRAW_FOUR, ref)
            return
        self.verdicts.append(Penalty(victim, 4 + self.opts.challenge_penalty, PenaltyReason.CHALLENGE_LOST, ref))
        self.owe(victim, self.opts.challenge_penalty)
        if self.stack and self.turn == victim:
            self.stack = 0
            self.turn = self.next_seat(victim)

    # --- reveals and scoring -------------------------------------------------------------------------------

    def _reveal(self, ref: int, event: Reveal) -> None:
        seat = event.seat
        if self.winner is not None and (seat == self.winner or len(self.scored) == self.n - 1):
            self.notice(NoticeReason.NOTHING_TO_SCORE, ref)
            return
        self.hands[seat], self.owed[seat] = len(event.cards), 0
        challenged = self.challenged
        if challenged is not None and seat == challenged.player:
            self.challenged = None
            self.judge_reveal(challenged, event.cards, ref)
        elif self.winner is not None:
            self.record_points(seat, hand_points(event.cards, self.opts.special_wild_points), ref)

    def judge_reveal(self, played: _WildDrawFour, cards: tuple[Card, ...], ref: int) -> None:
        """A hand shown after its player received cards no longer shows what they held at the wild draw four."""
        rule = self.opts.wild_draw_four
        if played not in self.suspects.get(played.player, []):
            self.notice(NoticeReason.CHALLENGE_UNDECIDABLE, ref)
        elif any(played.forbids(card, rule) for card in cards):
            self.decide(played, True, ref)
        elif played.color is None and rule is not WildDrawFourRule.ANYTIME:
            self.notice(NoticeReason.CHALLENGE_UNDECIDABLE, ref)
        else:
            self.decide(played, False, ref)

    def _points(self, ref: int, event: Points) -> None:
        seat = event.seat
        if self.winner is None:
            self.notice(NoticeReason.ROUND_NOT_OVER, ref)
        elif seat == self.winner or len(self.scored) == self.n - 1:
            self.notice(NoticeReason.NOTHING_TO_SCORE, ref)
        else:
            self.record_points(seat, event.points, ref)

    def record_points(self, seat: int, points: int, ref: int) -> None:
        self.scored[seat] = points
        if len(self.scored) == self.n - 1:
            self.score(ref)

    def score(self, ref: int) -> None:
        winner = self.winner
        assert winner is not None
        points = sum(self.scored.values())
        if self.opts.scoring is Scoring.OWN_POINTS:
            for seat, value in self.scored.items():
                self.totals[seat] += value
        else:
            self.totals[winner] += points
        self.verdicts.append(Score(self.round, winner, points, tuple(self.totals), ref))
        if max(self.totals) >= self.opts.target:
            own = self.opts.scoring is Scoring.OWN_POINTS
            champion = self.totals.index(min(self.totals)) if own else winner
            self.verdicts.append(GameEnd(champion, tuple(self.totals), ref))
            self.over = True
            self.in_round = False

    def _end(self, ref: int, event: End) -> None:
        if not self.in_round or self.winner is not None:
            self.notice(NoticeReason.NO_ROUND_IN_PLAY, ref)
            return
        self.hands[event.seat], self.owed[event.seat] = 0, 0
        self.verdicts.append(RoundEnd(self.round, event.seat, ref))
        self.winner = event.seat
        self.wild_draw_four = None
        self.due.clear()
        self.suspects.clear()

    # --- swapping hands: seven-zero's 7 and Wild Swap Hands ------------------------------------------------

    def _swap(self, ref: int, event: Swap) -> None:
        seat, other, due = event.seat, event.with_, self.swap_due
        if due is None or due.seat != seat or other == seat:
            self.notice(NoticeReason.NO_SWAP_DUE, ref)
            return
        self.swap_due = None
        held = [None if h is None else h - o for h, o in zip(self.hands, self.owed, strict=True)]
        for mine, theirs in ((seat, other), (other, seat)):
            given = held[theirs]
            self.hands[mine] = None if given is None else given + self.owed[mine]
            self.received(mine)
        if due.calls:
            self.due.update(s for s in (seat, other) if self.hands[s] == 1)

    def unreported_swap(self, seat: int) -> None:
        """A swap was due and never reported: only the sizes no swap could change stay known."""
        self.swap_due = None
        own = self.hands[seat]
        others = {self.hands[s] for s in range(self.n) if s != seat}
        for other in range(self.n):
            if other != seat and self.hands[other] != own:
                self.unknown(other)
        if len(others) == 1:
            self.hands[seat] = others.pop()
            self.received(seat)
        else:
            self.unknown(seat)
