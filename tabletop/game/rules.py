"""The options of docs/rules.md, the four presets, a table's rules, and the card-level rules both the referee and the
simulator use.

Presets are data: a preset is only a set of option overrides, and a table's rules are a preset plus its own
overrides. The words an option takes are enums of ``str``: mypy checks them, and they compare, hash and write to
JSON as the very words of docs/record.md.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from enum import StrEnum
from typing import Any

from tabletop.game.cards import SPECIAL_WILD_POINTS, Card, Rank


class Preset(StrEnum):
    OFFICIAL = "official"
    STACKING = "stacking"
    PARTY = "party"
    EASTERN = "eastern"


class Drawing(StrEnum):
    """``draw``: one card (which may then be played), or cards until one can be played."""

    ONE = "one"
    UNTIL_PLAYABLE = "until-playable"


class WildDrawFourRule(StrEnum):
    """``wild_draw_four``: what a player may not hold when they lay a wild draw four."""

    NO_ACTIVE_COLOR = "no-active-color"
    NO_MATCH = "no-match"
    ANYTIME = "anytime"


class Stacking(StrEnum):
    """``stacking``: which draw cards answer a draw card."""

    OFF = "off"
    PASS_ON = "pass-on"
    DRAW_TWO = "draw-two"
    DRAW_TWO_AND_FOUR = "draw-two-and-four"


class TwoPlayerReverse(StrEnum):
    SKIP = "skip"
    REVERSE = "reverse"


class Skipping(StrEnum):
    """``skip``: who a skip leaves out."""

    NEXT_PLAYER = "next-player"
    PLAY_AGAIN = "play-again"


class Scoring(StrEnum):
    WINNER_COLLECTS = "winner-collects"
    OWN_POINTS = "own-points"


class Customizable(StrEnum):
    """``wild_customizable``: the rule a table wrote on its blank wilds."""

    WILD = "wild"
    WILD_DRAW_TWO = "wild-draw-two"
    EVERYONE_DRAWS_ONE = "everyone-draws-one"
    SWAP_HANDS = "swap-hands"


Value = bool | int | StrEnum
"""What an option (or the preset) is set to: a flag, a number or one of its words."""
Choices = tuple[StrEnum, ...] | range | type[bool]
"""What an option accepts: its words, a range of whole numbers, or bool."""


def option(default: bool | StrEnum | int, numbers: range | None = None) -> Any:
    """An option's one declaration: its official value, and what it accepts: the whole numbers ``numbers`` for a
    number, else every word of its enum, or true and false. Parsing, the host's option form and the docs' table
    follow from it."""
    choices: Choices
    if numbers is not None:
        choices = numbers
    elif isinstance(default, StrEnum):
        choices = tuple(type(default))
    elif isinstance(default, bool):
        choices = bool
    else:
        raise TypeError("a number option is declared with the whole numbers it takes")
    return field(default=default, metadata={"choices": choices})


@dataclass(frozen=True, slots=True)
class Options:
    """Every option of docs/rules.md, defaulting to the official rules."""

    hand_size: int = option(7, range(2, 21))
    draw: Drawing = option(Drawing.ONE)
    wild_draw_four: WildDrawFourRule = option(WildDrawFourRule.NO_ACTIVE_COLOR)
    challenge: bool = option(True)
    challenge_penalty: int = option(2, range(0, 11))
    uno_penalty: int = option(2, range(1, 11))
    auto_catch: bool = option(True)
    false_uno_penalty: int = option(0, range(0, 11))
    misplay_penalty: int = option(0, range(0, 11))
    stacking: Stacking = option(Stacking.OFF)
    jump_in: bool = option(False)
    seven_zero: bool = option(False)
    two_player_reverse: TwoPlayerReverse = option(TwoPlayerReverse.SKIP)
    skip: Skipping = option(Skipping.NEXT_PLAYER)
    scoring: Scoring = option(Scoring.WINNER_COLLECTS)
    target: int = option(500, range(1, 1_000_000))
    wild_customizable: Customizable = option(Customizable.WILD)
    special_wild_points: int = option(SPECIAL_WILD_POINTS, range(0, 101))


CHOICES: dict[str, Choices] = {spec.name: spec.metadata["choices"] for spec in fields(Options)}
"""What each option accepts, in the order docs/rules.md lists them."""

PRESETS: dict[Preset, dict[str, Value]] = {
    Preset.OFFICIAL: {},
    Preset.STACKING: {"stacking": Stacking.DRAW_TWO_AND_FOUR},
    Preset.PARTY: {"stacking": Stacking.DRAW_TWO_AND_FOUR, "jump_in": True, "seven_zero": True},
    Preset.EASTERN: {"stacking": Stacking.PASS_ON, "scoring": Scoring.OWN_POINTS, "target": 200},
}


def parse_option(name: str, value: Any) -> Value:
    """``value`` as option ``name`` takes it (a word becomes its enum); ValueError says what is wrong."""
    allowed = CHOICES.get(name)
    if allowed is None:
        raise ValueError(f"unknown option {name!r}")
    if isinstance(allowed, range):
        if isinstance(value, int) and not isinstance(value, bool) and value in allowed:
            return value
        raise ValueError(f"option {name!r} must be a whole number from {allowed.start} to {allowed.stop - 1}")
    if isinstance(allowed, tuple):
        if isinstance(value, str) and value in allowed:
            return allowed[allowed.index(value)]
        raise ValueError(f"option {name!r} must be one of {', '.join(allowed)}")
    if isinstance(value, bool):
        return value
    raise ValueError(f"option {name!r} must be true or false")


def parse_preset(value: Any) -> Preset:
    if isinstance(value, str) and value in PRESETS:
        return Preset(value)
    raise ValueError(f"unknown preset {value!r} (presets: {', '.join(PRESETS)})")


@dataclass(frozen=True, slots=True)
class Rules:
    """A table's rules: the preset and overrides of a ``game`` line, and the Options they come to.

    Kept as written, keys in their order, so that a record writes back the very ``rules`` object it was read
    from (a line that names no preset names none when written again). Every value is checked, and the options
    resolved, once, when the rules are made: ValueError says what is wrong, the preset first.
    """

    written: tuple[tuple[str, Value], ...] = (("preset", Preset.OFFICIAL),)
    preset: Preset = field(init=False, repr=False, compare=False)
    options: Options = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        settings = dict(self.written)
        preset = parse_preset(settings.pop("preset", Preset.OFFICIAL))
        overrides = {name: parse_option(name, value) for name, value in settings.items()}
        written = tuple((name, preset if name == "preset" else overrides[name]) for name, _ in self.written)
        object.__setattr__(self, "written", written)
        object.__setattr__(self, "preset", preset)
        changes: dict[str, Any] = {**PRESETS[preset], **overrides}  # each value checked for its option above
        object.__setattr__(self, "options", replace(Options(), **changes))

    @classmethod
    def parse(cls, rules: Mapping[str, Any]) -> Rules:
        """The rules a ``rules`` object of a ``game`` line (or a config file) describes."""
        return cls(tuple(rules.items()))

    def to_json(self) -> dict[str, Any]:
        return {name: str(value) if isinstance(value, StrEnum) else value for name, value in self.written}


OFFICIAL_RULES = Rules()
"""The rules of a game that names nothing but the official preset: the default wherever rules are asked for."""


#: What a Wild Customizable does under each ``wild_customizable``, named as the card whose action it takes
#: (``wild-draw-two`` and ``everyone-draws-one`` are actions no printed card has).
_CUSTOM_ACTIONS = {
    Customizable.WILD: "wild",
    Customizable.WILD_DRAW_TWO: "wild-draw-two",
    Customizable.EVERYONE_DRAWS_ONE: "everyone-draws-one",
    Customizable.SWAP_HANDS: "wild-swap-hands",
}

#: Cards a draw card makes its victim take, by the action it has.
_DRAW_AMOUNTS = {"draw-two": 2, "wild-draw-four": 4, "wild-draw-two": 2}


def action(card: Card, opts: Options) -> str:
    """What ``card`` does at this table: its own rank, or for a Wild Customizable the action the table gave it.

    The referee and the simulator ask this, never the rank, wherever a card acts, so that a blank wild is held
    to the rule written on it.
    """
    if card.rank == Rank.WILD_CUSTOMIZABLE:
        return _CUSTOM_ACTIONS[opts.wild_customizable]
    return card.rank


def draw_amount(card: Card, opts: Options) -> int:
    """How many cards the victim of ``card`` draws at this table (0 for a card that is no draw card)."""
    return _DRAW_AMOUNTS.get(action(card, opts), 0)


def matches(card: Card, top: Card | None, color: str | None) -> bool:
    """Whether ``card`` may be laid on ``top`` while ``color`` is active.

    A wild whose colour nobody named yet accepts anything: the colour is inferred from the card laid on it.
    """
    if card.color is None or top is None or color is None:
        return True
    return card.color == color or (top.color is not None and card.rank == top.rank)


def jumps_in(card: Card, top: Card | None, first_card: bool, opts: Options) -> bool:
    """Whether ``card`` may be played out of turn on ``top``: the exact same card, never a wild, never on the
    first flipped card, and only with ``jump_in`` on."""
    return opts.jump_in and not first_card and not card.is_wild and card == top


def can_stack(card: Card, top: Card, color: str | None, opts: Options) -> bool:
    """Whether a player hit by ``top`` (a draw card) may answer with ``card`` under the ``stacking`` option.

    A wild that makes its victim draw (a Wild Draw Four, a blank wild written as a wild draw two) answers only
    where wild draw cards stack.
    """
    stacking = opts.stacking
    if stacking is Stacking.OFF or draw_amount(card, opts) == 0:
        return False
    if top.rank == Rank.DRAW_TWO:
        return card.rank == Rank.DRAW_TWO or (stacking is Stacking.DRAW_TWO_AND_FOUR and card.is_wild)
    if card.is_wild:
        return stacking is Stacking.DRAW_TWO_AND_FOUR
    return stacking is not Stacking.DRAW_TWO and (color is None or card.color == color)


def stacked_amount(card: Card, owed: int, opts: Options) -> int:
    """What the next player owes once ``card`` answers a stack of ``owed`` cards (0: it answers none)."""
    if opts.stacking is Stacking.PASS_ON:
        return draw_amount(card, opts)
    return owed + draw_amount(card, opts)


def turn_after(card: Card, seat: int, direction: int, players: int, opts: Options) -> tuple[int, int]:
    """Who plays after ``card`` from ``seat``, and the direction of play then; a draw card's victim aside.

    The referee and the game simulator both follow it: the one rule for what a skip and a reverse do.
    """
    if card.rank == Rank.REVERSE:
        direction = -direction
        if players == 2 and opts.two_player_reverse is TwoPlayerReverse.SKIP:
            return seat, direction
    elif card.rank == Rank.SKIP:
        return (seat if opts.skip is Skipping.PLAY_AGAIN else (seat + 2 * direction) % players), direction
    return (seat + direction) % players, direction


def forbids(card: Card, before: Card | None, color: str | None, rule: WildDrawFourRule) -> bool:
    """Whether holding ``card`` made a wild draw four illegal on ``before`` with ``color`` active."""
    if rule is WildDrawFourRule.ANYTIME or card.is_wild:
        return False
    if color is not None and card.color == color:
        return True
    return (rule is WildDrawFourRule.NO_MATCH and before is not None and not before.is_wild
            and card.rank == before.rank)
