"""A finished (or unfinished) game told after the fact: its rounds, the hands that scored them, its penalties
and, for every seat, the figures a table asks about across evenings.

Pure like the referee, and derived the same way: the record is corrected, then folded through the referee one
line at a time, so every figure agrees with the verdicts the table announced while it was played.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, fields, replace
from typing import Any

from tabletop.game.events import (
    Catch,
    Challenge,
    Deal,
    Event,
    Game,
    GameEnd,
    Notice,
    Penalty,
    PenaltyReason,
    Play,
    Points,
    Reveal,
    RoundEnd,
    Score,
    Uno,
    Verdict,
)
from tabletop.game.record import corrected
from tabletop.game.referee import Referee


@dataclass(frozen=True, slots=True)
class Shown:
    """A hand laid face up (``cards``) or valued by hand (``points``) at line ``ref`` of the record."""

    ref: int
    seat: int
    cards: tuple[str, ...] | None = None
    points: int | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"seat": self.seat}
        out.update({"cards": list(self.cards)} if self.cards is not None else {"points": self.points})
        return out


def shown_in(event: Event, ref: int) -> Shown | None:
    """The hand ``event`` lays open, if it is a reveal or a hand's points."""
    if isinstance(event, Reveal):
        return Shown(ref, event.seat, cards=tuple(card.name for card in event.cards))
    if isinstance(event, Points):
        return Shown(ref, event.seat, points=event.points)
    return None


def round_hands(shown: Sequence[Shown], went_out: int, scored: int) -> list[dict[str, Any]]:
    """The hands that made a round's points: those laid open from the line its winner went out at to the line it
    was scored at (a challenge's reveal earlier in the round is not one of them). The latest word on a seat wins."""
    hands = {hand.seat: hand for hand in shown if went_out <= hand.ref <= scored}
    return [hands[seat].to_json() for seat in sorted(hands)]


@dataclass(slots=True)
class Figures:
    """One player's figures over the games they are counted in; ``points`` are those their rounds earned them."""

    games: int = 0
    games_won: int = 0
    rounds: int = 0
    rounds_won: int = 0
    points: int = 0
    uno_calls: int = 0
    uno_missed: int = 0
    catches: int = 0
    wild_draw_fours: int = 0
    wild_draw_fours_challenged: int = 0
    challenges_won: int = 0
    challenges_lost: int = 0
    out_of_turn: int = 0
    misplays: int = 0

    def add(self, other: Figures) -> None:
        for name in FIGURES:
            setattr(self, name, getattr(self, name) + getattr(other, name))

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {name: getattr(self, name) for name in FIGURES}
        out["average_points"] = round(self.points / self.rounds, 1) if self.rounds else None
        return out

    @classmethod
    def from_json(cls, obj: dict[str, Any]) -> Figures:
        return cls(**{name: int(obj[name]) for name in FIGURES})


FIGURES = tuple(f.name for f in fields(Figures))
"""The counted figures, in the order the pages and the command line show them."""


@dataclass(frozen=True, slots=True)
class Round:
    round: int
    winner: int
    points: int
    totals: tuple[int, ...]
    hands: tuple[dict[str, Any], ...]

    def to_json(self) -> dict[str, Any]:
        return {"round": self.round, "winner": self.winner, "points": self.points, "totals": list(self.totals),
                "hands": list(self.hands)}

    @classmethod
    def from_json(cls, obj: dict[str, Any]) -> Round:
        return cls(int(obj["round"]), int(obj["winner"]), int(obj["points"]), tuple(obj["totals"]),
                   tuple(obj["hands"]))


@dataclass(frozen=True, slots=True)
class Story:
    """What a game's record adds up to. ``penalties`` are verdicts whose ``ref`` is the line a person would
    look at (the picture of the card, where the camera read one, is that line's)."""

    players: tuple[str, ...]
    target: int
    rounds: tuple[Round, ...]
    penalties: tuple[Penalty, ...]
    winner: int | None
    totals: tuple[int, ...]
    figures: tuple[Figures, ...]
    seconds: float

    def to_json(self) -> dict[str, Any]:
        return {"players": list(self.players), "target": self.target, "winner": self.winner,
                "totals": list(self.totals), "rounds": [r.to_json() for r in self.rounds],
                "penalties": [p.to_json() for p in self.penalties], "seconds": round(self.seconds, 1),
                "figures": [f.to_json() for f in self.figures]}

    @classmethod
    def from_json(cls, obj: dict[str, Any]) -> Story:
        """A story as ``to_json`` wrote it: kept beside the log, so that a game is told once in its life."""
        penalties = tuple(Penalty(int(p["seat"]), int(p["cards"]), PenaltyReason(p["reason"]), int(p["ref"]))
                          for p in obj["penalties"])
        return cls(tuple(obj["players"]), int(obj["target"]), tuple(Round.from_json(r) for r in obj["rounds"]),
                   penalties, obj["winner"], tuple(obj["totals"]), tuple(Figures.from_json(f) for f in obj["figures"]),
                   float(obj["seconds"]))


def tell(record: Sequence[Event]) -> Story:
    """The story of one game's record (it starts with its ``game`` line)."""
    if not record or not isinstance(record[0], Game):
        raise ValueError("a game's record starts with its 'game' line")
    return _Teller(record[0]).tell(corrected(list(enumerate(record))))


@dataclass
class _Teller:
    """Folds a corrected record through a referee, noting who did what as each line's verdicts come."""

    game: Game
    referee: Referee = field(default_factory=Referee)
    shown: list[Shown] = field(default_factory=list)
    went_out: dict[int, int] = field(default_factory=dict)
    rounds: list[Round] = field(default_factory=list)
    penalties: list[Penalty] = field(default_factory=list)
    winner: int | None = None
    wild: int | None = None
    """Who played the latest wild draw four: the player a challenge accuses."""
    challenger: int | None = None
    seconds: float = 0.0
    figures: list[Figures] = field(init=False)

    def __post_init__(self) -> None:
        self.figures = [Figures() for _ in self.game.players]

    def tell(self, entries: Iterable[tuple[int, Event]]) -> Story:
        for ref, event in entries:
            self.seconds = max(self.seconds, event.t or 0.0)
            player = self._player(event)
            verdicts = self.referee.push(event)
            self._count(ref, event, player, verdicts)
        totals = self.referee.state.totals
        for seat, figures in enumerate(self.figures):
            figures.games, figures.games_won = 1, int(seat == self.winner)
        return Story(self.game.players, self.game.rules.options.target, tuple(self.rounds), tuple(self.penalties),
                     self.winner, tuple(totals), tuple(self.figures), self.seconds)

    def _player(self, event: Event) -> int | None:
        """Who laid a card: the seat the line names, or the one whose turn it was."""
        if isinstance(event, Play):
            return event.seat if event.seat is not None else self.referee.state.turn
        return None

    def _count(self, ref: int, event: Event, player: int | None, verdicts: Sequence[Verdict]) -> None:
        hand = shown_in(event, ref)
        if hand is not None:
            self.shown.append(hand)
        reasons = {(v.seat, v.reason) for v in verdicts if isinstance(v, Penalty)}
        if isinstance(event, Uno) and (event.seat, PenaltyReason.FALSE_UNO) not in reasons:
            self.figures[event.seat].uno_calls += 1
        elif isinstance(event, Catch) and any(r is PenaltyReason.MISSED_UNO for _, r in reasons):
            self.figures[event.seat].catches += 1
        elif isinstance(event, Challenge) and not any(isinstance(v, Notice) for v in verdicts):
            self.challenger = event.seat
            if self.wild is not None:
                self.figures[self.wild].wild_draw_fours_challenged += 1
        elif isinstance(event, Play | Deal):
            self.challenger = None
        if isinstance(event, Play) and event.card.name == "wild-draw-four" and player is not None:
            self.figures[player].wild_draw_fours += 1
            self.wild = player
        for verdict in verdicts:
            self._judged(verdict, ref)

    def _judged(self, verdict: Verdict, ref: int) -> None:
        """A verdict reached at line ``ref`` of the record as written (the referee counted corrected lines)."""
        if isinstance(verdict, Penalty):
            self.penalties.append(replace(verdict, ref=ref))
            self._penalty(verdict)
        elif isinstance(verdict, RoundEnd):
            self.went_out[verdict.round] = ref
        elif isinstance(verdict, Score):
            self._score(verdict, ref)
        elif isinstance(verdict, GameEnd) and self.winner is None:
            self.winner = verdict.winner

    def _penalty(self, penalty: Penalty) -> None:
        figures = self.figures[penalty.seat]
        if penalty.reason is PenaltyReason.MISSED_UNO:
            figures.uno_missed += 1
        elif penalty.reason is PenaltyReason.OUT_OF_TURN:
            figures.out_of_turn += 1
        elif penalty.reason is PenaltyReason.ILLEGAL_PLAY:
            figures.misplays += 1
        elif penalty.reason is PenaltyReason.CHALLENGE_LOST and self.challenger == penalty.seat:
            figures.challenges_lost += 1
            self.challenger = None
        elif penalty.reason is PenaltyReason.ILLEGAL_WILD_DRAW_FOUR and self.challenger is not None:
            self.figures[self.challenger].challenges_won += 1
            self.challenger = None

    def _score(self, score: Score, ref: int) -> None:
        before = self.rounds[-1].totals if self.rounds else (0,) * len(self.figures)
        for seat, figures in enumerate(self.figures):
            figures.rounds += 1
            figures.points += score.totals[seat] - before[seat]
        self.figures[score.winner].rounds_won += 1
        hands = round_hands(self.shown, self.went_out.get(score.round, ref), ref)
        self.rounds.append(Round(score.round, score.winner, score.points, score.totals, tuple(hands)))
