"""The house rules that reshape the hands or the score, as pieces the referee consults: what a laid card does to
every hand (seven-zero's 7 and 0, the special wilds), how hands of known size come out of a pass, a shuffle or a
swap, and how a scored round moves the totals.

Pure and small, each held by its own tests: the referee asks them, and never branches on these options itself.
A hand's size is ``None`` where nobody can know it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum

from tabletop.game.cards import Card, Rank
from tabletop.game.rules import Options, Scoring, action

Sizes = tuple[int | None, ...]
"""How many cards each seat holds, by seat; ``None`` where it is not known."""


class Hands(Enum):
    """What a card laid (and not the last of its hand) does to the hands beside its own."""

    KEPT = "kept"
    SWAP = "swap"
    """Its player names a seat to swap hands with (seven-zero's 7)."""
    SWAP_AND_CALL = "swap-and-call"
    """As SWAP, and a hand left with one card by the swap owes a call (Wild Swap Hands)."""
    PASSED_ON = "passed-on"
    """Every hand passes to the next player in the direction of play (seven-zero's 0)."""
    SHUFFLED = "shuffled"
    """Every hand is gathered and dealt out again (Wild Shuffle Hands, even as a last card)."""
    EVERYONE_DRAWS_ONE = "everyone-draws-one"
    """Every other seat takes a card (a blank wild written so)."""


_SEVEN_ZERO = {Rank.SEVEN: Hands.SWAP, Rank.ZERO: Hands.PASSED_ON}
_BY_ACTION = {"wild-swap-hands": Hands.SWAP_AND_CALL, "wild-shuffle-hands": Hands.SHUFFLED,
              "everyone-draws-one": Hands.EVERYONE_DRAWS_ONE}


def hands_after(card: Card, opts: Options) -> Hands:
    """What ``card`` does to the hands at a table playing ``opts``."""
    if opts.seven_zero and card.rank in _SEVEN_ZERO:
        return _SEVEN_ZERO[card.rank]
    return _BY_ACTION.get(action(card, opts), Hands.KEPT)


def passed_on(held: Sizes, direction: int) -> Sizes:
    """Each seat's hand after every hand passes one seat on in ``direction`` (1 clockwise, -1 against)."""
    seats = len(held)
    return tuple(held[(seat - direction) % seats] for seat in range(seats))


def shuffled(held: Sizes, seat: int) -> Sizes:
    """Each seat's hand after every hand is gathered and dealt out one card at a time from ``seat``'s left: the
    sizes follow from the total only where every hand was known."""
    seats = len(held)
    if None in held:
        return (None,) * seats
    total = sum(size for size in held if size is not None)
    return tuple(total // seats + ((dealt - seat - 1) % seats < total % seats) for dealt in range(seats))


def swapped(held: Sizes, seat: int, other: int) -> Sizes:
    """Each seat's hand after ``seat`` and ``other`` swap theirs."""
    sizes = list(held)
    sizes[seat], sizes[other] = held[other], held[seat]
    return tuple(sizes)


@dataclass(frozen=True, slots=True)
class Totals:
    """The game's totals after a round is scored, and the champion once a total reaches the target."""

    totals: tuple[int, ...]
    champion: int | None


def scored(totals: tuple[int, ...], winner: int, points: Mapping[int, int], opts: Options) -> Totals:
    """The totals once the round ``winner`` went out of is scored with each other seat's ``points``: the winner
    collects them all, or (``own-points``) each seat adds its own and the lowest total wins."""
    own = opts.scoring is Scoring.OWN_POINTS
    new = list(totals)
    if own:
        for seat, value in points.items():
            new[seat] += value
    else:
        new[winner] += sum(points.values())
    if max(new) < opts.target:
        return Totals(tuple(new), None)
    return Totals(tuple(new), new.index(min(new)) if own else winner)
