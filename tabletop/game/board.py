"""What the scoreboard shows, derived from the record, the verdicts and the state, in words a table understands.

Pure like the referee, and held to the whole record line by line (``BoardFold``). The view is the scoreboard's:
the phones' pages get it as JSON (``RECENT`` lines of the record, sized for a phone). The words for a penalty
(``penalty_words``) are shared with the demo's terminal and the spoken calls; the panel's buzzer and lights read
the snapshot's verdicts and state directly, for they show no words.
"""

from __future__ import annotations

from collections.abc import Sequence
from gettext import NullTranslations
from typing import Any

from tabletop.game.events import (
    CORRECTIONS,
    Amend,
    Deal,
    Event,
    Flip,
    Game,
    GameEnd,
    Notice,
    NoticeReason,
    Penalty,
    PenaltyReason,
    Play,
    Retract,
    RoundEnd,
    Score,
    State,
    Unsure,
    Verdict,
)
from tabletop.game.record import corrected
from tabletop.game.story import Shown, round_hands, shown_in

RECENT = 60
"""Lines of the record the board's view carries: enough to correct what just happened, small enough to send to
every phone after every event. The host page fetches the whole record when asked."""

AS_WRITTEN = NullTranslations()
"""The messages as the code writes them (English), untranslated: `languages.ENGLISH` is the language's code."""


def board_view(record: Sequence[Event], verdicts: Sequence[Verdict], state: State | None,
               latest: Sequence[Verdict] = ()) -> dict[str, Any]:
    """The board's whole picture as one JSON object; ``latest`` are the verdicts to sound and flash now."""
    return BoardFold(record, verdicts).view(record, state, latest)


class BoardFold:
    """What the board's view needs from the record and the verdicts, folded in line by line as they come.

    A phone's view is made after every event; made from the whole record each time, its cost grew with the
    evening, and one seat posting thousands of lines slowed the table for everyone. Folded, a plain line costs
    the same at the 50,000th line as at the 100th; a correction folds everything again, as the referee does.
    """

    def __init__(self, record: Sequence[Event] = (), verdicts: Sequence[Verdict] = ()) -> None:
        entries = list(enumerate(record))
        self.lines = 0
        self.verdicts = 0
        self.settled = {event.ref for event in record if isinstance(event, Retract | Amend)}
        """Lines holding an unsure reading that a correction points at: nobody need confirm them any more."""
        self.pending: list[dict[str, Any]] = []
        self.flipped = True
        self.deal = 0
        """The latest deal's line in the record as written: the unseen draws shown are this round's."""
        self.dealer: int | None = None
        self.top: tuple[int, Play | Flip] | None = None
        self.wild: Play | Flip | None = None
        """The latest wild played or first card flipped (corrections applied): who names the colour."""
        self.penalties: list[dict[str, Any]] = []
        self.rounds: list[Score] = []
        self.shown: list[Shown] = []
        """Every hand laid open (corrections applied): a round's row opens on those that scored it."""
        self.went_out: dict[int, int] = {}
        self.winner: int | None = None
        self.unseen: list[Notice] = []
        for ref, event in corrected(entries):
            self._stand(ref, event)
        for ref, event in entries:
            self._write(ref, event)
        self._judge(verdicts)

    def follow(self, record: Sequence[Event], verdicts: Sequence[Verdict]) -> BoardFold:
        """This fold brought up to ``record``: line by line where it only grew by lines that correct nothing,
        folded anew otherwise."""
        new = record[self.lines:]
        if len(record) < self.lines or any(isinstance(event, CORRECTIONS) for event in new):
            return BoardFold(record, verdicts)
        for ref, event in enumerate(new, self.lines):
            self._stand(ref, event)
            self._write(ref, event)
        self._judge(verdicts)
        return self

    def view(self, record: Sequence[Event], state: State | None, latest: Sequence[Verdict] = ()) -> dict[str, Any]:
        """The board's whole picture for ``record`` (the one folded) as it stands in ``state``."""
        if state is None or not record or not isinstance(record[0], Game):
            return {"game": False, "players": [], "penalties": [], "alerts": [], "rounds": [], "unsure": [],
                    "unseen_draws": [], "record": []}
        players = record[0].players
        view: dict[str, Any] = {"game": True, "players": list(players), **state.to_json()}
        del view["type"]
        view.update(
            uno=[seat for seat, size in enumerate(state.hands) if size == 1],
            choosing_color=self._chooser(state),
            penalties=list(self.penalties),
            alerts=[v.to_json() for v in latest if isinstance(v, Penalty)],
            target=record[0].rules.options.target,
            rounds=[{"round": v.round, "winner": v.winner, "name": players[v.winner], "points": v.points,
                     "totals": list(v.totals), "hands": self._hands(v)} for v in self.rounds],
            winner=self.winner,
            unsure=list(self.pending),
            unseen_draws=[{"ref": v.ref, "seat": v.seat} for v in self.unseen],
            top_line=None if self.top is None else {"ref": self.top[0], "card": self.top[1].card.name,
                                                    **seen(record[self.top[0]])},
            record=record_lines(record, len(record) - RECENT),
            lines=len(record),
            next_dealer=0 if self.dealer is None else (self.dealer + 1) % len(players),
        )
        return view

    def _hands(self, score: Score) -> list[dict[str, Any]]:
        return round_hands(self.shown, self.went_out.get(score.round, score.ref), score.ref)

    def _stand(self, ref: int, event: Event) -> None:
        """A line of the record as it really happened (see ``corrected``): the top card, the dealer, the wild."""
        if (hand := shown_in(event, ref)) is not None:
            self.shown.append(hand)
        if isinstance(event, Deal):
            self.dealer, self.top = event.dealer, None
        elif isinstance(event, Play | Flip):
            self.top = (ref, event)
            if isinstance(event, Flip) or event.card.is_wild:
                self.wild = event

    def _write(self, ref: int, event: Event) -> None:
        """A line of the record as written: the readings still unsure, and where this round was dealt."""
        self.lines = ref + 1
        if isinstance(event, Play | Flip | Game):
            self.pending, self.flipped = [], not isinstance(event, Game)
        elif isinstance(event, Deal):
            self.flipped, self.deal, self.unseen = False, ref, []
        elif isinstance(event, Unsure) and ref not in self.settled:
            self.pending.append({"ref": ref, "seat": event.seat, "flip": not self.flipped,
                                 "guesses": [[card.name, round(p, 3)] for card, p in event.guesses], **seen(event)})

    def _judge(self, verdicts: Sequence[Verdict]) -> None:
        """The verdicts not yet folded: the game's penalties and rounds, its winner, this round's unseen draws."""
        for verdict in verdicts[self.verdicts:]:
            if isinstance(verdict, Penalty):
                self.penalties.append(verdict.to_json())
            elif isinstance(verdict, RoundEnd):
                self.went_out[verdict.round] = verdict.ref
            elif isinstance(verdict, Score):
                self.rounds.append(verdict)
            elif isinstance(verdict, GameEnd) and self.winner is None:
                self.winner = verdict.winner
            elif isinstance(verdict, Notice) and verdict.reason is NoticeReason.UNSEEN_DRAW and verdict.ref > self.deal:
                self.unseen.append(verdict)
        self.verdicts = len(verdicts)

    def _chooser(self, state: State) -> int | None:
        """The seat that still has to name a colour for the wild on top, or None.

        The colour of a wild is named after it lands; until then the active colour is null. The first player
        names it for a flipped wild.
        """
        if state.top is None or not state.top.is_wild or state.color is not None or state.turn is None:
            return None
        if isinstance(self.wild, Play):
            return self.wild.seat
        return state.turn if isinstance(self.wild, Flip) else None


def record_lines(record: Sequence[Event], start: int = 0) -> list[dict[str, Any]]:
    """The record from line ``start`` on, each line with its ref and how sure the camera was of a card it read
    there (its picture is at /api/pictures/<ref>). The pages put each line in words, in their own language."""
    first = max(0, start)
    return [{"ref": ref, "event": event.to_json(), **seen(event)} for ref, event in enumerate(record[first:], first)]


def seen(event: Event) -> dict[str, Any]:
    return {} if event.evidence is None else {"seen": event.evidence.to_json()}






def penalty_words(penalty: Penalty, players: Sequence[str], text: NullTranslations = AS_WRITTEN) -> str:
    """A penalty in words, as the terminal announces it and the voice says it in the table's language (the
    pages write the same messages in their scripts, in the phone's)."""
    _, name = text.gettext, players[penalty.seat]
    why = {
        PenaltyReason.MISSED_UNO: _("{name} did not call UNO"),
        PenaltyReason.FALSE_UNO: _("{name} called UNO without one card left"),
        PenaltyReason.ILLEGAL_WILD_DRAW_FOUR: _("{name} played a Wild Draw Four while holding the active colour"),
        PenaltyReason.CHALLENGE_LOST: _("{name} lost a Wild Draw Four challenge"),
        PenaltyReason.ILLEGAL_PLAY: _("{name} played a card that does not match"),
        PenaltyReason.OUT_OF_TURN: _("{name} played out of turn"),
    }[penalty.reason].format(name=name)
    owes = (text.ngettext("draws {n} card", "draws {n} cards", penalty.cards).format(n=penalty.cards)
            if penalty.cards else _("a warning"))
    return _("{why}: {owes}").format(why=why, owes=owes)
