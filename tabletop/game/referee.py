"""The referee: folds a game record into the state of the table and the verdicts it reaches.

Pure: standard library only, no I/O, no clock, no threads. Everything is derived from the event list, so a
correction (``retract``, ``amend``) simply derives everything again from the corrected record.

Its knowledge lies in ``spans`` by how long it lasts (the game, the round, the turn), and the house rules that
reshape hands or the score are pieces of ``house`` it consults; what it judges lies here.

The referee watches and never deals. It knows a hand's size only by counting (the deal, plays, draws it was
told about, penalties); where it cannot be sure, the size is ``None`` and no penalty rests on it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
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
from tabletop.game.house import Hands, hands_after, passed_on, scored, shuffled, swapped
from tabletop.game.prefix import Prefix
from tabletop.game.record import Entry, RecordChecker, corrected
from tabletop.game.rules import (
    Stacking,
    WildDrawFourRule,
    can_stack,
    draw_amount,
    jumps_in,
    matches,
    stacked_amount,
    turn_after,
)
from tabletop.game.spans import GameSpan, RoundSpan, SwapDue, WildDrawFour


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


_SWAPS = frozenset({Hands.SWAP, Hands.SWAP_AND_CALL})
_DEALT_ANEW = frozenset({Hands.PASSED_ON, Hands.SHUFFLED})
"""After these a hand is no longer the one the card left."""


class _Fold:
    """The running derivation: the verdicts, the game and the round in play. Mutable for speed, but only ever
    built by folding a record from its start."""

    def __init__(self) -> None:
        self.verdicts: list[Verdict] = []
        self.game = GameSpan()
        self.opts = self.game.opts
        """The game's rules, asked on every event."""
        self.round = RoundSpan(0)
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
        if self.game.over and not isinstance(event, Game):
            self.notice(NoticeReason.GAME_OVER, ref)
            return
        handler(ref, event)

    def state(self) -> State:
        game, round_ = self.game, self.round
        return State(
            round=game.rounds,
            turn=round_.turn.seat if round_.in_play else None,
            direction="clockwise" if round_.direction == 1 else "counter-clockwise",
            top=round_.top,
            color=round_.color,
            hands=tuple(round_.hands),
            owed=tuple(round_.owed),
            totals=tuple(game.totals),
            over=game.over,
        )

    # --- verdicts and turns --------------------------------------------------------------------------------

    def notice(self, reason: NoticeReason, ref: int) -> None:
        self.verdicts.append(Notice(reason, ref))

    def penalize(self, seat: int, cards: int, reason: PenaltyReason, ref: int) -> None:
        self.verdicts.append(Penalty(seat, cards, reason, ref))
        self.round.owe(seat, cards)

    def close_windows(self, actor: int, ref: int) -> None:
        """``actor`` began a turn: every other seat's chance to call UNO is over."""
        calls = self.round.calls
        if calls.due:
            for seat in sorted(calls.due):
                if seat != actor and self.opts.auto_catch:
                    self.penalize(seat, self.opts.uno_penalty, PenaltyReason.MISSED_UNO, ref)
            calls.due.clear()
        if calls.precalled != actor:
            calls.precalled = None

    def settle_pending(self, ref: int) -> None:
        """Things that had to happen before the next card was played or drawn, and now cannot."""
        fours = self.round.fours
        fours.last = None
        if fours.challenged is not None:
            fours.challenged = None
            self.notice(NoticeReason.CHALLENGE_UNDECIDED, ref)
        if self.round.swap_due is not None:
            self.unreported_swap(self.round.swap_due.seat)

    def end_turn(self, ref: int) -> None:
        """The current player's turn is over without a play of theirs (a pass, or the next player acted).

        Without a draw the table saw, they must have drawn unseen: where the table reports draws, a notice names
        the hand that became unknown, so that the missed draw can be put in.
        """
        round_ = self.round
        turn, current = round_.turn, round_.turn.seat
        if not turn.stack and not turn.drawn:
            round_.unknown(current)
            if self.game.draws_seen:
                self.verdicts.append(Notice(NoticeReason.UNSEEN_DRAW, ref, seat=current))
        round_.move_turn(round_.next_seat(current))
        if round_.calls.precalled == current:
            round_.calls.precalled = None

    def turns_may_have_passed(self) -> None:
        """With draws unseen, any play, pass or draw may follow a whole round of unseen draws and passes."""
        if not self.game.draws_seen:
            for seat in range(self.game.seats):
                self.round.unknown(seat)

    # --- game and round ----------------------------------------------------------------------------------

    def _game(self, ref: int, event: Game) -> None:
        seats = len(event.players)
        self.game = GameSpan(event.rules.options, event.draws_seen is not False, seats, [0] * seats)
        self.opts = self.game.opts
        self.round = RoundSpan(seats)

    def _deal(self, ref: int, event: Deal) -> None:
        if not self.round.in_play:
            self.game.rounds += 1
        self.round = RoundSpan(self.game.seats, event.dealer, self.opts.hand_size, dealt=True)

    def _flip(self, ref: int, event: Flip) -> None:
        round_ = self.round
        if not round_.in_play:
            self.notice(NoticeReason.NO_ROUND_IN_PLAY, ref)
            return
        if round_.opened:
            self.notice(NoticeReason.ROUND_ALREADY_STARTED, ref)
            return
        self._undo_flip()
        first = (round_.dealer + 1) % round_.seats
        card = event.card
        round_.direction, round_.color = 1, card.color
        round_.move_turn(first)
        if card.rank == Rank.WILD_DRAW_FOUR:
            round_.top = None
            return
        round_.top, round_.first_card = card, True
        if card.rank == Rank.SKIP:
            round_.move_turn(round_.next_seat(first))
        elif card.rank == Rank.REVERSE:
            round_.direction = -1
            round_.move_turn(round_.dealer)
        elif card.rank == Rank.DRAW_TWO:
            self.hit(first, 2)
        elif card.is_wild:
            round_.namer = first

    def _undo_flip(self) -> None:
        """A re-flip replaces the first card, and with it the draw two a first flip may have dealt out."""
        round_ = self.round
        if round_.top is not None and round_.top.rank == Rank.DRAW_TWO:
            first = (round_.dealer + 1) % round_.seats
            round_.owed[first] -= 2
            hand = round_.hands[first]
            round_.hands[first] = None if hand is None else hand - 2
        round_.turn.stack, round_.namer, round_.first_card = 0, None, False

    def hit(self, victim: int, cards: int) -> None:
        """A draw card lands on ``victim``: it draws at once and loses its turn, or (stacking) may answer."""
        round_ = self.round
        round_.owe(victim, cards)
        if self.opts.stacking is Stacking.OFF:
            round_.move_turn(round_.next_seat(victim))
        else:
            round_.move_turn(victim, stack=cards)

    # --- plays -------------------------------------------------------------------------------------------

    def _play(self, ref: int, event: Play) -> None:
        round_ = self.round
        if not round_.in_play:
            self.notice(NoticeReason.NO_ROUND_IN_PLAY, ref)
            return
        card = event.card
        seat = round_.turn.seat if event.seat is None else event.seat
        self.turns_may_have_passed()
        in_turn = self.take_turn(seat, card, ref)
        self.close_windows(seat, ref)
        self.settle_pending(ref)
        owed = round_.owed[seat]
        answered = self.judge(seat, card, in_turn, ref)
        self.prove(seat, card, ref)
        self.lay(seat, card, answered, penalised=round_.owed[seat] > owed)
        hands = hands_after(card, self.opts)
        if hands is Hands.SHUFFLED:
            self.shuffle_hands(seat)
        if round_.hands[seat] == 0:
            self.go_out(seat, card, answered, hands, ref)
        else:
            self.act(seat, card, answered, hands)
            self.watch_uno(seat, hands)

    def take_turn(self, seat: int, card: Card, ref: int) -> bool:
        """Whether ``seat`` plays on its own turn: the current player's, or the next one's after their pass.

        Where draws go unseen, a whole run of unseen draws and passes may come before any play, so any seat
        may be in turn, and the turns before it end.
        """
        round_ = self.round
        if seat == round_.turn.seat and not self.left_stack_unseen(card):
            return True
        if self.is_jump_in(card):
            return False
        if seat == round_.next_seat(round_.turn.seat) or not self.game.draws_seen:
            self.end_turn(ref)
            while round_.turn.seat != seat:
                self.end_turn(ref)
            return True
        return False

    def left_stack_unseen(self, card: Card) -> bool:
        """Where draws go unseen, a player facing a stack who lays a card that cannot answer it drew the stack,
        and the turn came round to them again."""
        top = self.round.top
        return (not self.game.draws_seen and self.round.turn.stack > 0 and top is not None
                and not can_stack(card, top, self.round.color, self.opts))

    def is_jump_in(self, card: Card) -> bool:
        return jumps_in(card, self.round.top, self.round.first_card, self.opts)

    def judge(self, seat: int, card: Card, in_turn: bool, ref: int) -> int:
        """Call an out-of-turn or illegal card; return the stack ``card`` answers (0 when it answers none)."""
        round_ = self.round
        stack, round_.turn.stack = round_.turn.stack, 0
        if not in_turn:
            if not self.is_jump_in(card):
                self.penalize(seat, self.opts.misplay_penalty, PenaltyReason.OUT_OF_TURN, ref)
            return 0
        top = round_.top
        if stack and top is not None:
            if can_stack(card, top, round_.color, self.opts):
                return stack
            self.penalize(seat, self.opts.misplay_penalty, PenaltyReason.ILLEGAL_PLAY, ref)
        elif not matches(card, top, round_.color):
            self.penalize(seat, self.opts.misplay_penalty, PenaltyReason.ILLEGAL_PLAY, ref)
        return 0

    def prove(self, seat: int, card: Card, ref: int) -> None:
        """A player who lays a card they must have held when they played a wild draw four proves it illegal."""
        suspicions = self.round.fours.suspects.get(seat)
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
        round_ = self.round
        hand = round_.hands[seat]
        round_.owed[seat] -= answered
        round_.hands[seat] = None if hand is None or hand <= answered else hand - 1 - answered
        if card.rank == Rank.WILD_DRAW_FOUR:
            fours = round_.fours
            fours.last = WildDrawFour(seat, round_.next_seat(seat), round_.top, round_.color)
            if not penalised:
                fours.suspects.setdefault(seat, []).append(fours.last)
        round_.top, round_.color = card, card.color
        round_.namer = seat if card.is_wild else None
        round_.opened, round_.first_card, round_.turn.drawn = True, False, False

    def go_out(self, seat: int, card: Card, answered: int, hands: Hands, ref: int) -> None:
        round_ = self.round
        self.verdicts.append(RoundEnd(self.game.rounds, seat, ref))
        round_.winner = seat
        if draw_amount(card, self.opts):
            round_.owe(round_.next_seat(seat), stacked_amount(card, answered, self.opts))
        elif hands is Hands.EVERYONE_DRAWS_ONE:
            self.everyone_draws_one(seat)
        self.round_decided()

    def act(self, seat: int, card: Card, answered: int, hands: Hands) -> None:
        """The card's action, and whose turn it is after it."""
        round_ = self.round
        if draw_amount(card, self.opts):
            self.hit(round_.next_seat(seat), stacked_amount(card, answered, self.opts))
            return
        turn, round_.direction = turn_after(card, seat, round_.direction, round_.seats, self.opts)
        round_.move_turn(turn)
        if hands is Hands.KEPT:
            return
        if hands in _SWAPS:
            round_.swap_due = SwapDue(seat, calls=hands is Hands.SWAP_AND_CALL)
        elif hands is Hands.PASSED_ON:
            round_.rehand(passed_on(round_.held(), round_.direction), range(round_.seats))
        elif hands is Hands.EVERYONE_DRAWS_ONE:
            self.everyone_draws_one(seat)

    def watch_uno(self, seat: int, hands: Hands) -> None:
        """A hand down to one card owes a call, unless it was made on the turn that got it there.

        After a 0 passes the hands on, or a shuffle deals them anew, the hand is no longer the one the card left.
        """
        calls = self.round.calls
        if self.round.hands[seat] == 1 and hands not in _DEALT_ANEW and calls.precalled != seat:
            calls.due.add(seat)
        calls.precalled = None

    def everyone_draws_one(self, seat: int) -> None:
        """A blank wild written as "everyone draws one": every other seat owes a card."""
        for other in range(self.round.seats):
            if other != seat:
                self.round.owe(other, 1)

    def shuffle_hands(self, seat: int) -> None:
        """Wild Shuffle Hands: every hand is dealt anew from ``seat``'s left; any hand dealt a single card owes a
        call."""
        round_ = self.round
        round_.rehand(shuffled(round_.held(), seat), range(round_.seats))
        round_.calls.due.update(other for other in range(round_.seats) if round_.hands[other] == 1)

    # --- draws and turns -----------------------------------------------------------------------------------

    def _draw(self, ref: int, event: Draw) -> None:
        round_ = self.round
        seat = round_.turn.seat if event.seat is None else event.seat
        fours = round_.fours
        if fours.last is not None and seat == fours.last.victim:
            fours.last = None
        paid = min(event.count, round_.owed[seat])
        round_.owed[seat] -= paid
        surplus = event.count - paid
        if not round_.in_play:
            round_.add_cards(seat, surplus)
            return
        round_.opened = True
        self.turns_may_have_passed()
        if round_.turn.stack and seat == round_.turn.seat:
            fours.last = None
            round_.add_cards(seat, surplus)
            self.end_turn(ref)
        elif surplus:
            self.fresh_draw(seat, surplus, ref)

    def fresh_draw(self, seat: int, count: int, ref: int) -> None:
        round_ = self.round
        if seat != round_.turn.seat and seat == round_.next_seat(round_.turn.seat):
            self.end_turn(ref)
        self.close_windows(seat, ref)
        self.settle_pending(ref)
        if seat == round_.turn.seat:
            round_.turn.drawn = True
        round_.add_cards(seat, count)

    def _pass(self, ref: int, event: Pass) -> None:
        round_ = self.round
        seat = round_.turn.seat if event.seat is None else event.seat
        if not round_.in_play or seat != round_.turn.seat:
            self.notice(NoticeReason.NOT_YOUR_TURN, ref)
            return
        round_.fours.last = None
        self.turns_may_have_passed()
        self.end_turn(ref)

    def _color(self, ref: int, event: Color) -> None:
        round_ = self.round
        if not round_.in_play or round_.top is None or not round_.top.is_wild:
            self.notice(NoticeReason.NO_WILD_TO_NAME, ref)
        elif event.seat is not None and event.seat != round_.namer:
            self.notice(NoticeReason.NOT_THE_WILD_PLAYER, ref)
        else:
            round_.color = event.color

    # --- UNO ---------------------------------------------------------------------------------------------

    def _uno(self, ref: int, event: Uno) -> None:
        round_, seat = self.round, event.seat
        if not round_.in_play:
            self.notice(NoticeReason.NO_ROUND_IN_PLAY, ref)
            return
        hand = round_.hands[seat]
        if hand is None or hand == 1:
            round_.calls.due.discard(seat)
        elif hand == 2 and seat == round_.turn.seat:
            round_.calls.precalled = seat
        elif self.opts.false_uno_penalty:
            self.penalize(seat, self.opts.false_uno_penalty, PenaltyReason.FALSE_UNO, ref)

    def _catch(self, ref: int, event: Catch) -> None:
        due = self.round.calls.due
        if event.target in due and event.seat != event.target:
            due.discard(event.target)
            self.penalize(event.target, self.opts.uno_penalty, PenaltyReason.MISSED_UNO, ref)
        else:
            self.notice(NoticeReason.NOTHING_TO_CATCH, ref)

    # --- wild draw four challenges -------------------------------------------------------------------------

    def _challenge(self, ref: int, event: Challenge) -> None:
        fours = self.round.fours
        played = fours.last
        if not self.opts.challenge:
            self.notice(NoticeReason.CHALLENGES_ARE_OFF, ref)
        elif played is None or self.round.winner is not None:
            self.notice(NoticeReason.NO_WILD_DRAW_FOUR_TO_CHALLENGE, ref)
        elif event.seat != played.victim:
            self.notice(NoticeReason.ONLY_THE_VICTIM_MAY_CHALLENGE, ref)
        else:
            fours.last = None
            if event.guilty is None:
                fours.challenged = played
            else:
                self.decide(played, event.guilty, ref)

    def decide(self, played: WildDrawFour, guilty: bool, ref: int) -> None:
        """Settle a challenge; a victim who already drew the 4 keeps them (they are in the hand now)."""
        round_, victim = self.round, played.victim
        suspicions = round_.fours.suspects.get(played.player, [])
        if played in suspicions:
            suspicions.remove(played)
        if guilty:
            spared = min(4, round_.owed[victim])
            round_.owed[victim] -= spared
            hand = round_.hands[victim]
            round_.hands[victim] = None if hand is None else hand - spared
            round_.move_turn(victim, stack=max(round_.turn.stack - 4, 0))
            self.penalize(played.player, 4, PenaltyReason.ILLEGAL_WILD_DRAW_FOUR, ref)
            return
        self.verdicts.append(Penalty(victim, 4 + self.opts.challenge_penalty, PenaltyReason.CHALLENGE_LOST, ref))
        round_.owe(victim, self.opts.challenge_penalty)
        if round_.turn.stack and round_.turn.seat == victim:
            round_.move_turn(round_.next_seat(victim))

    # --- reveals and scoring -------------------------------------------------------------------------------

    def _reveal(self, ref: int, event: Reveal) -> None:
        round_, seat = self.round, event.seat
        if round_.winner is not None and (seat == round_.winner or len(round_.scored) == round_.seats - 1):
            self.notice(NoticeReason.NOTHING_TO_SCORE, ref)
            return
        round_.hands[seat], round_.owed[seat] = len(event.cards), 0
        challenged = round_.fours.challenged
        if challenged is not None and seat == challenged.player:
            round_.fours.challenged = None
            self.judge_reveal(challenged, event.cards, ref)
        elif round_.winner is not None:
            self.record_points(seat, hand_points(event.cards, self.opts.special_wild_points), ref)

    def judge_reveal(self, played: WildDrawFour, cards: tuple[Card, ...], ref: int) -> None:
        """A hand shown after its player received cards no longer shows what they held at the wild draw four."""
        rule = self.opts.wild_draw_four
        if played not in self.round.fours.suspects.get(played.player, []):
            self.notice(NoticeReason.CHALLENGE_UNDECIDABLE, ref)
        elif any(played.forbids(card, rule) for card in cards):
            self.decide(played, True, ref)
        elif played.color is None and rule is not WildDrawFourRule.ANYTIME:
            self.notice(NoticeReason.CHALLENGE_UNDECIDABLE, ref)
        else:
            self.decide(played, False, ref)

    def _points(self, ref: int, event: Points) -> None:
        round_, seat = self.round, event.seat
        if round_.winner is None:
            self.notice(NoticeReason.ROUND_NOT_OVER, ref)
        elif seat == round_.winner or len(round_.scored) == round_.seats - 1:
            self.notice(NoticeReason.NOTHING_TO_SCORE, ref)
        else:
            self.record_points(seat, event.points, ref)

    def record_points(self, seat: int, points: int, ref: int) -> None:
        round_ = self.round
        round_.scored[seat] = points
        if len(round_.scored) == round_.seats - 1:
            self.score(ref)

    def score(self, ref: int) -> None:
        game, round_ = self.game, self.round
        winner = round_.winner
        assert winner is not None
        after = scored(tuple(game.totals), winner, round_.scored, self.opts)
        game.totals = list(after.totals)
        self.verdicts.append(Score(game.rounds, winner, sum(round_.scored.values()), after.totals, ref))
        if after.champion is not None:
            self.verdicts.append(GameEnd(after.champion, after.totals, ref))
            game.over = True
            round_.dealt = False

    def _end(self, ref: int, event: End) -> None:
        round_ = self.round
        if not round_.in_play:
            self.notice(NoticeReason.NO_ROUND_IN_PLAY, ref)
            return
        round_.hands[event.seat], round_.owed[event.seat] = 0, 0
        self.verdicts.append(RoundEnd(self.game.rounds, event.seat, ref))
        round_.winner = event.seat
        self.round_decided()

    def round_decided(self) -> None:
        """Someone went out: no wild draw four can be challenged or proven now, and no call is owed."""
        fours = self.round.fours
        fours.last = None
        fours.suspects.clear()
        self.round.calls.due.clear()

    # --- swapping hands: seven-zero's 7 and Wild Swap Hands ------------------------------------------------

    def _swap(self, ref: int, event: Swap) -> None:
        round_ = self.round
        seat, other, due = event.seat, event.with_, round_.swap_due
        if due is None or due.seat != seat or other == seat:
            self.notice(NoticeReason.NO_SWAP_DUE, ref)
            return
        round_.swap_due = None
        round_.rehand(swapped(round_.held(), seat, other), (seat, other))
        if due.calls:
            round_.calls.due.update(s for s in (seat, other) if round_.hands[s] == 1)

    def unreported_swap(self, seat: int) -> None:
        """A swap was due and never reported: only the sizes no swap could change stay known."""
        round_ = self.round
        round_.swap_due = None
        own = round_.hands[seat]
        others = {round_.hands[s] for s in range(round_.seats) if s != seat}
        for other in range(round_.seats):
            if other != seat and round_.hands[other] != own:
                round_.unknown(other)
        if len(others) == 1:
            round_.hands[seat] = others.pop()
            round_.received(seat)
        else:
            round_.unknown(seat)
