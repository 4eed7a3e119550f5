"""The options of RULES.md, the four presets, and the card-level rules both the referee and the simulator use.

Presets are data: a preset is only a set of option overrides, and a table's rules are a preset plus its own
overrides.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import Any

from tabletop.game.cards import Card


@dataclass(frozen=True, slots=True)
class Options:
    """Every option of RULES.md, defaulting to the official rules."""

    hand_size: int = 7
    draw: str = "one"
    wild_draw_four: str = "no-active-color"
    challenge: bool = True
    challenge_penalty: int = 2
    uno_penalty: int = 2
    auto_catch: bool = True
    false_uno_penalty: int = 0
    misplay_penalty: int = 0
    stacking: str = "off"
    jump_in: bool = False
    seven_zero: bool = False
    two_player_reverse: str = "skip"
    skip: str = "next-player"
    scoring: str = "winner-collects"
    target: int = 500


#: What each option accepts: a tuple of choices, a (low, high) range of integers, or bool.
CHOICES: dict[str, Any] = {
    "hand_size": range(2, 21),
    "draw": ("one", "until-playable"),
    "wild_draw_four": ("no-active-color", "no-match", "anytime"),
    "challenge": bool,
    "challenge_penalty": range(0, 11),
    "uno_penalty": range(1, 11),
    "auto_catch": bool,
    "false_uno_penalty": range(0, 11),
    "misplay_penalty": range(0, 11),
    "stacking": ("off", "pass-on", "draw-two", "draw-two-and-four"),
    "jump_in": bool,
    "seven_zero": bool,
    "two_player_reverse": ("skip", "reverse"),
    "skip": ("next-player", "play-again"),
    "scoring": ("winner-collects", "own-points"),
    "target": range(1, 1_000_000),
}

PRESETS: dict[str, dict[str, Any]] = {
    "official": {},
    "stacking": {"stacking": "draw-two-and-four"},
    "party": {"stacking": "draw-two-and-four", "jump_in": True, "seven_zero": True},
    "eastern": {"stacking": "pass-on", "scoring": "own-points", "target": 200},
}

assert set(CHOICES) == {f.name for f in fields(Options)}


def check_option(name: str, value: Any) -> str | None:
    """What is wrong with ``name: value``, or None when the option and its value are good."""
    allowed = CHOICES.get(name)
    if allowed is None:
        return f"unknown option {name!r}"
    if allowed is bool:
        return None if isinstance(value, bool) else f"option {name!r} must be true or false"
    if isinstance(allowed, range):
        if isinstance(value, int) and not isinstance(value, bool) and value in allowed:
            return None
        return f"option {name!r} must be a whole number from {allowed.start} to {allowed.stop - 1}"
    if value in allowed:
        return None
    return f"option {name!r} must be one of {', '.join(allowed)}"


def options_from_rules(rules: dict[str, Any]) -> Options:
    """The options a ``rules`` object of a ``game`` event describes; ValueError says what is wrong."""
    preset = rules.get("preset", "official")
    if not isinstance(preset, str) or preset not in PRESETS:
        raise ValueError(f"unknown preset {preset!r} (presets: {', '.join(PRESETS)})")
    overrides = {key: value for key, value in rules.items() if key != "preset"}
    for key, value in overrides.items():
        problem = check_option(key, value)
        if problem:
            raise ValueError(problem)
    return replace(Options(), **{**PRESETS[preset], **overrides})


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


def can_stack(card: Card, top: Card, color: str | None, stacking: str) -> bool:
    """Whether a player hit by ``top`` (a draw card) may answer with ``card`` under the ``stacking`` option."""
    if stacking == "off" or card.draw_amount == 0:
        return False
    if top.rank == "draw-two":
        return card.rank == "draw-two" or (stacking == "draw-two-and-four" and card.is_wild)
    if card.is_wild:
        return stacking == "draw-two-and-four"
    return stacking != "draw-two" and (color is None or card.color == color)


def stacked_amount(card: Card, owed: int, stacking: str) -> int:
    """What the next player owes once ``card`` answers a stack of ``owed`` cards."""
    if stacking == "pass-on":
        return card.draw_amount
    return owed + card.draw_amount


def forbids(card: Card, before: Card | None, color: str | None, rule: str) -> bool:
    """Whether holding ``card`` made a wild draw four illegal on ``before`` with ``color`` active."""
    if rule == "anytime" or card.is_wild:
        return False
    if color is not None and card.color == color:
        return True
    return rule == "no-match" and before is not None and not before.is_wild and card.rank == before.rank
