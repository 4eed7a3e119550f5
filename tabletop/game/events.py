"""The events, verdicts and state of docs/record.md as frozen values that round-trip to JSON objects.

Field checks here are the ones a single line can fail on its own (a missing field, an unknown card); checks
that need the rest of the record (a seat that does not exist) live in :mod:`tabletop.game.record`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import MISSING, Field, dataclass, field, fields
from enum import StrEnum
from typing import Any, ClassVar

from tabletop.game import checks
from tabletop.game.cards import COLORS, Card
from tabletop.game.rules import OFFICIAL_RULES, Rules

SOURCES = ("camera", "phone", "button", "host")


# --- reading a line's fields -----------------------------------------------------------------------------


def _seat(value: Any, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ValueError(f"{name!r} must be a seat number (0 or more)")
    return value


def _card(value: Any, name: str) -> Card:
    if not isinstance(value, str):
        raise ValueError(f"{name!r} must be a card name")
    return Card.from_name(value)


def _cards(value: Any, name: str) -> tuple[Card, ...]:
    if not isinstance(value, list):
        raise ValueError(f"{name!r} must be a list of card names")
    return tuple(_card(item, name) for item in value)


def _color(value: Any, name: str) -> str:
    if value not in COLORS:
        raise ValueError(f"{name!r} must be one of {', '.join(COLORS)}")
    return str(value)


def _guesses(value: Any, name: str) -> tuple[tuple[Card, float], ...]:
    if not isinstance(value, list):
        raise ValueError(f"{name!r} must be a list of [card, confidence] pairs")
    guesses = []
    for item in value:
        if not (isinstance(item, list) and len(item) == 2 and isinstance(item[1], int | float)
                and not isinstance(item[1], bool) and 0 <= item[1] <= 1):
            raise ValueError(f"{name!r} must be a list of [card, confidence] pairs")
        guesses.append((_card(item[0], name), float(item[1])))
    return tuple(guesses)


def _nested(value: Any, name: str) -> Event:
    """The event an ``amend`` puts in place of a line, or an ``insert`` before one. A correction is refused by its
    type before it is read, so that no amend of an amend of ... (hundreds deep) can take the reader past
    Python's recursion limit."""
    if not isinstance(value, dict):
        raise ValueError(f"{name!r} must be an event object")
    if value.get("type") in tuple(kind.TYPE for kind in CORRECTIONS):  # a tuple: the type may be unhashable
        raise ValueError("a correction cannot hold another correction")
    return event_from_json(value)


Reader = Callable[[Any, str], Any]
"""Turns a field's JSON value into Python; ValueError, naming the field, where it cannot."""


def _named(check: checks.Check) -> Reader:
    """One of the checks the record shares with the settings, as a line's reader: its words after the field's
    name."""
    def read(value: Any, name: str) -> Any:
        try:
            return check(value)
        except ValueError as err:
            raise ValueError(f"{name!r}: {err}") from None
    return read


_whole = _named(checks.whole())
_count = _named(checks.whole(1))
_flag = _named(checks.flag)
_players = _named(checks.players)
_rules = _named(checks.rules)


def line_field(read: Reader, default: Any = MISSING, *, key: str | None = None, quiet_default: bool = False) -> Any:
    """An event's field, declared once: how it is read from a record line (``read``), its key there where that is
    not its name (``with``, a Python keyword), and whether a line may leave it out (it has a ``default``;
    ``quiet_default``: a line written leaves it out while it is the default). Reading, writing and the record's
    checks all follow from it."""
    meta = {"read": read, "key": key, "quiet_default": quiet_default}
    return field(metadata=meta) if default is MISSING else field(default=default, metadata=meta)


@dataclass(frozen=True, slots=True)
class Evidence:
    """What the camera saw of a card it read: the card cut out square (a JPEG of a few kB), how sure the reading
    was, and its best guesses. Players trust a referee they can check."""

    jpeg: bytes = field(repr=False)
    confidence: float
    guesses: tuple[tuple[Card, float], ...] = ()

    def to_json(self) -> dict[str, Any]:
        """How sure, and the guesses; the picture itself is fetched on its own."""
        return {"confidence": round(self.confidence, 3),
                "guesses": [[card.name, round(p, 3)] for card, p in self.guesses]}


@dataclass(frozen=True, slots=True, kw_only=True)
class Event:
    """One thing the table did. ``t`` (seconds since the game started) and ``source`` ride along untouched.

    ``evidence`` is what the camera saw of a card it read. It is kept in the game log beside its line, never in
    the record's text, and two events that differ only in it are the same event.
    """

    TYPE: ClassVar[str] = ""
    t: float | None = field(default=None, compare=False)
    source: str | None = field(default=None, compare=False)
    evidence: Evidence | None = field(default=None, compare=False, repr=False)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.TYPE}
        for f in LINE_FIELDS[type(self)]:
            value = getattr(self, f.name)
            if value is not None and not (f.metadata["quiet_default"] and value == f.default):
                out[f.metadata["key"] or f.name] = _encode(value)
        if self.t is not None:
            out["t"] = self.t
        if self.source is not None:
            out["source"] = self.source
        return out


@dataclass(frozen=True, slots=True, kw_only=True)
class Game(Event):
    TYPE: ClassVar[str] = "game"
    players: tuple[str, ...] = line_field(_players)
    rules: Rules = line_field(_rules, OFFICIAL_RULES)
    draws_seen: bool | None = line_field(_flag, None)


@dataclass(frozen=True, slots=True, kw_only=True)
class Deal(Event):
    TYPE: ClassVar[str] = "deal"
    dealer: int = line_field(_seat)


@dataclass(frozen=True, slots=True, kw_only=True)
class Flip(Event):
    TYPE: ClassVar[str] = "flip"
    card: Card = line_field(_card)


@dataclass(frozen=True, slots=True, kw_only=True)
class Play(Event):
    TYPE: ClassVar[str] = "play"
    card: Card = line_field(_card)
    seat: int | None = line_field(_seat, None)


@dataclass(frozen=True, slots=True, kw_only=True)
class Color(Event):
    TYPE: ClassVar[str] = "color"
    color: str = line_field(_color)
    seat: int | None = line_field(_seat, None)


@dataclass(frozen=True, slots=True, kw_only=True)
class Unsure(Event):
    TYPE: ClassVar[str] = "unsure"
    guesses: tuple[tuple[Card, float], ...] = line_field(_guesses)
    seat: int | None = line_field(_seat, None)


@dataclass(frozen=True, slots=True, kw_only=True)
class Draw(Event):
    TYPE: ClassVar[str] = "draw"
    seat: int | None = line_field(_seat, None)
    count: int = line_field(_count, 1, quiet_default=True)


@dataclass(frozen=True, slots=True, kw_only=True)
class Pass(Event):
    TYPE: ClassVar[str] = "pass"
    seat: int | None = line_field(_seat, None)


@dataclass(frozen=True, slots=True, kw_only=True)
class Uno(Event):
    TYPE: ClassVar[str] = "uno"
    seat: int = line_field(_seat)


@dataclass(frozen=True, slots=True, kw_only=True)
class Catch(Event):
    TYPE: ClassVar[str] = "catch"
    seat: int = line_field(_seat)
    target: int = line_field(_seat)


@dataclass(frozen=True, slots=True, kw_only=True)
class Challenge(Event):
    TYPE: ClassVar[str] = "challenge"
    seat: int = line_field(_seat)
    guilty: bool | None = line_field(_flag, None)


@dataclass(frozen=True, slots=True, kw_only=True)
class Reveal(Event):
    TYPE: ClassVar[str] = "reveal"
    seat: int = line_field(_seat)
    cards: tuple[Card, ...] = line_field(_cards)


@dataclass(frozen=True, slots=True, kw_only=True)
class Points(Event):
    TYPE: ClassVar[str] = "points"
    seat: int = line_field(_seat)
    points: int = line_field(_whole)


@dataclass(frozen=True, slots=True, kw_only=True)
class Swap(Event):
    TYPE: ClassVar[str] = "swap"
    seat: int = line_field(_seat)
    with_: int = line_field(_seat, key="with")


@dataclass(frozen=True, slots=True, kw_only=True)
class End(Event):
    TYPE: ClassVar[str] = "end"
    seat: int = line_field(_seat)


@dataclass(frozen=True, slots=True, kw_only=True)
class Retract(Event):
    TYPE: ClassVar[str] = "retract"
    ref: int = line_field(_whole)


@dataclass(frozen=True, slots=True, kw_only=True)
class Amend(Event):
    TYPE: ClassVar[str] = "amend"
    ref: int = line_field(_whole)
    event: Event = line_field(_nested)


@dataclass(frozen=True, slots=True, kw_only=True)
class Insert(Event):
    """An event the table missed (a draw the camera did not see, an UNO call nobody pressed) that happened just
    before line ``ref``."""

    TYPE: ClassVar[str] = "insert"
    ref: int = line_field(_whole)
    event: Event = line_field(_nested)


EVENT_TYPES: dict[str, type[Event]] = {
    cls.TYPE: cls
    for cls in (Game, Deal, Flip, Play, Color, Unsure, Draw, Pass, Uno, Catch, Challenge, Reveal, Points, Swap,
                End, Retract, Amend, Insert)
}
CORRECTIONS = (Retract, Amend, Insert)


LINE_FIELDS: dict[type[Event], tuple[Field[Any], ...]] = {
    kind: tuple(spec for spec in fields(kind) if "read" in spec.metadata) for kind in EVENT_TYPES.values()}
"""The fields a record line of each kind holds, as each was declared (``line_field``)."""


def seat_fields(event: Event) -> Iterator[tuple[str, int]]:
    """The seats ``event`` names, each with its key in the record line."""
    for spec in LINE_FIELDS[type(event)]:
        seat = getattr(event, spec.name)
        if spec.metadata["read"] is _seat and seat is not None:
            yield spec.metadata["key"] or spec.name, seat


def _encode(value: Any) -> Any:
    if isinstance(value, Card):
        return value.name
    if isinstance(value, Event | Rules):
        return value.to_json()
    if isinstance(value, StrEnum):
        return str(value)
    if isinstance(value, tuple):
        return [_encode(item) for item in value]
    return value


LATEST_TIME = 1e10
"""The latest time an event may carry (seconds; the year 2286 as a Unix time): a bigger or non-finite ``t``
would overflow the table's clock arithmetic, or put NaN on every phone."""


def event_from_json(obj: Any) -> Event:
    """The event a decoded JSON object stands for; ValueError says, in words, what is wrong with it."""
    if not isinstance(obj, dict):
        raise ValueError("an event must be a JSON object")
    kind = obj.get("type")
    if not isinstance(kind, str) or kind not in EVENT_TYPES:
        raise ValueError("an event needs a \"type\"" if kind is None else f"unknown event type {kind!r}")
    values: dict[str, Any] = {}
    for spec in LINE_FIELDS[EVENT_TYPES[kind]]:
        key = spec.metadata["key"] or spec.name
        if key in obj and obj[key] is not None:
            values[spec.name] = spec.metadata["read"](obj[key], key)
        elif spec.default is MISSING:
            raise ValueError(f"a {kind!r} event needs {key!r}")
    values.update(_extras(obj))
    return EVENT_TYPES[kind](**values)


def _extras(obj: dict[str, Any]) -> dict[str, Any]:
    extras: dict[str, Any] = {}
    t = obj.get("t")
    if t is not None:
        if isinstance(t, bool) or not isinstance(t, int | float) or not 0 <= t <= LATEST_TIME:
            raise ValueError(f"'t' must be a number of seconds from 0 to {LATEST_TIME:.0e}")
        extras["t"] = t
    source = obj.get("source")
    if source is not None:
        if source not in SOURCES:
            raise ValueError(f"'source' must be one of {', '.join(SOURCES)}")
        extras["source"] = source
    return extras


# --- verdicts and state ------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Verdict:
    """Something the referee concluded; ``ref`` is the 0-based line of the event at which it was reached."""

    TYPE: ClassVar[str] = ""

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.TYPE}
        out.update((f.name, _encode(getattr(self, f.name))) for f in fields(self))
        return out


class PenaltyReason(StrEnum):
    """What a penalty is for; the words of docs/record.md."""

    MISSED_UNO = "missed-uno"
    FALSE_UNO = "false-uno"
    ILLEGAL_WILD_DRAW_FOUR = "illegal-wild-draw-four"
    CHALLENGE_LOST = "challenge-lost"
    ILLEGAL_PLAY = "illegal-play"
    OUT_OF_TURN = "out-of-turn"


class NoticeReason(StrEnum):
    """Why a notice: an event the referee could not use, or a draw it did not see; the words of docs/record.md."""

    GAME_OVER = "game-over"
    NO_ROUND_IN_PLAY = "no-round-in-play"
    ROUND_ALREADY_STARTED = "round-already-started"
    NO_WILD_TO_NAME = "no-wild-to-name"
    NOT_THE_WILD_PLAYER = "not-the-wild-player"
    NOT_YOUR_TURN = "not-your-turn"
    NOTHING_TO_CATCH = "nothing-to-catch"
    CHALLENGES_ARE_OFF = "challenges-are-off"
    NO_WILD_DRAW_FOUR_TO_CHALLENGE = "no-wild-draw-four-to-challenge"
    ONLY_THE_VICTIM_MAY_CHALLENGE = "only-the-victim-may-challenge"
    CHALLENGE_UNDECIDED = "challenge-undecided"
    CHALLENGE_UNDECIDABLE = "challenge-undecidable"
    ROUND_NOT_OVER = "round-not-over"
    NOTHING_TO_SCORE = "nothing-to-score"
    NO_SWAP_DUE = "no-swap-due"
    UNSEEN_DRAW = "unseen-draw"


@dataclass(frozen=True, slots=True)
class Penalty(Verdict):
    TYPE: ClassVar[str] = "penalty"
    seat: int
    cards: int
    reason: PenaltyReason
    ref: int


@dataclass(frozen=True, slots=True)
class RoundEnd(Verdict):
    TYPE: ClassVar[str] = "round-end"
    round: int
    winner: int
    ref: int


@dataclass(frozen=True, slots=True)
class Score(Verdict):
    TYPE: ClassVar[str] = "score"
    round: int
    winner: int
    points: int
    totals: tuple[int, ...]
    ref: int


@dataclass(frozen=True, slots=True)
class GameEnd(Verdict):
    TYPE: ClassVar[str] = "game-end"
    winner: int
    totals: tuple[int, ...]
    ref: int


@dataclass(frozen=True, slots=True)
class Notice(Verdict):
    """``seat``, where a notice is about one: the player whose draw went unseen."""

    TYPE: ClassVar[str] = "notice"
    reason: NoticeReason
    ref: int
    seat: int | None = None

    def to_json(self) -> dict[str, Any]:
        out = Verdict.to_json(self)
        if self.seat is None:
            del out["seat"]
        return out


@dataclass(frozen=True, slots=True)
class State:
    """What the table looks like after the record: the ``state`` object of docs/record.md."""

    round: int
    turn: int | None
    direction: str
    top: Card | None
    color: str | None
    hands: tuple[int | None, ...]
    owed: tuple[int, ...]
    totals: tuple[int, ...]
    over: bool

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": "state"}
        out.update((f.name, _encode(getattr(self, f.name))) for f in fields(self))
        return out
