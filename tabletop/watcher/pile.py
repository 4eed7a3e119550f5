"""The discard pile over time: a card laid on it, the top card taken back, or the whole pile cleared away.

The pile keeps its pictures at rest, one per card, so that a pile that goes back to how it looked before the
last card is recognised as a card taken back rather than read as a new one.
"""

from __future__ import annotations

from dataclasses import dataclass

from tabletop.sources import Frame
from tabletop.vision.crop import Corners, Image
from tabletop.watcher.layout import Layout
from tabletop.watcher.motion import Motion
from tabletop.watcher.zones import Settled, ZoneWatch

SAME = 0.05
"""Two rests of the pile are the same when less than this share of a card's area differs between them.

Small, because a card laid squarely on one of its own colour changes little more than the numeral."""
SAME_MOVED = 30
"""How far (0..255, in the most changed channel) a pixel must differ for two rests not to be the same. Less than
the change that outlines a card: a real, washed-out yellow card laid turned on a bright one, on a pale table,
changes no channel by ``zones.MOVED`` but at its numeral, yet is a new card all the same."""
REMEMBERED = 6
"""Rests kept besides the empty pile: how far back a take-back can be recognised."""


@dataclass(frozen=True, slots=True)
class Landed:
    """A new card on top. ``corners`` is None when the change did not look like one card (the pile was pushed).

    ``beneath`` is where the card now covered lay, and ``before`` the pile as it rested before: a card laid
    squarely on one of its own colour changes little more than the numeral, so the change does not outline it,
    but it lies where the card beneath lay.
    """

    corners: Corners | None
    settled: Settled
    seat: int | None
    on_empty: bool
    beneath: Corners | None
    before: Settled


@dataclass(frozen=True, slots=True)
class TakenBack:
    seat: int | None


@dataclass(frozen=True, slots=True)
class Cleared:
    """The pile was taken away; ``cards`` is how many the watcher had seen on it."""

    cards: int


class DiscardPile:
    def __init__(self, layout: Layout, frame_shape: tuple[int, int]) -> None:
        self.layout = layout
        self.zone = ZoneWatch(layout.discard, frame_shape, layout.card_height)
        self.empty: Image | None = None
        self.rests: list[Image] = []
        self.rest: Settled | None = None
        """The pile at its last rest, to read the card beneath a new one from."""
        self.depth = 0
        self.top: Corners | None = None
        """Where the top card lies: a card that changes too little to be outlined is read there."""

    def see(self, frame: Frame, motion: Motion) -> Landed | TakenBack | Cleared | None:
        if self.empty is None or self.rest is None:
            self.rest = self.zone.settle([frame])
            self.empty = self.rest.views[-1]
            self.rests = [self.empty]
        settled = self.zone.watch(frame, motion)
        if settled is None:
            return None
        now = settled.views[-1]
        arm = self.zone.visited_by
        seat = None if arm is None else self.layout.seat_at(arm.entry)
        if self._same(now, self.rests[-1]):
            self.rests[-1], self.rest = now, settled
            return None
        if self.depth and self._same(now, self.empty):
            cleared, self.depth, self.rests = self.depth, 0, [now]
            self.empty, self.rest = now, settled
            return Cleared(cleared)
        if len(self.rests) > 1 and self._same(now, self.rests[-2]):
            self.rests.pop()
            self.rests[-1], self.rest = now, settled
            self.depth -= 1
            return TakenBack(seat)
        before, beneath = self.rest, self.top
        corners = self.zone.card_outline(self.zone.changes(now, self.rests[-1]))
        corners = beneath if corners is None else corners
        self.rests = [*self.rests, now][-REMEMBERED:]
        self.rest = settled
        self.depth += 1
        self.top = corners
        return Landed(corners, settled, seat, on_empty=self.depth == 1, beneath=beneath, before=before)

    def _same(self, a: Image, b: Image) -> bool:
        return self.zone.changed_area(a, b, SAME_MOVED) < SAME
