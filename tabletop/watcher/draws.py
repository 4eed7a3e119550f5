"""Draws: a hand that reaches into the draw pile and goes back, followed from the edge it came in by."""

from __future__ import annotations

import math
from dataclasses import dataclass

from tabletop.watcher.layout import Layout, Point
from tabletop.watcher.motion import SCALE, Arm, Motion

AIM = 0.8
"""How far, in card heights, a pile may lie to the side of an arm and still be under it."""
OVERSHOOT = 0.65
"""How far, in card heights, an arm's picture reaches past the pile its hand is over."""
MISS = 1.0
"""How far, in card heights, a pile may lie from where the arm's overshoot puts the hand, and still be its aim."""
BROAD = 1.3
"""An arm is at most this many card heights broad on average; anything broader is someone leaning in."""
RETREAT = 0.8
"""A hand that has drawn is on its way back once its tip has withdrawn this many card heights."""
MERGED = 2.0
"""How far, in card heights, an arm seen merged with a hand held beside it may seem to enter from where it did."""
REACH_AGAIN = 0.5
"""An arm that drew, withdrew and reaches in this many card heights again is on a new reach."""
REST = 0.3
"""A hand whose reach stays within this many card heights of its deepest in a frame is at rest there: one that
reaches further in a frame is on its way."""


@dataclass
class _Track:
    entry: Point
    deepest: Point
    depth: float
    tip: Point
    """Where the arm reached to in the last frame."""
    breadth: float = 0.0
    reported: bool = False
    low: float = math.inf
    """Since its deepest point, the least the arm reached in: where it withdrew to."""
    rested: bool = False
    """Whether the hand was seen at rest at its deepest point (see ``REST``), as one taking a card is."""


class DrawWatch:
    """Each arm is followed while it is in the picture; one that went deepest into the draw pile drew a card.

    Going by the deepest point, not by any point, keeps an arm that passes over the draw pile on its way to the
    discard pile from counting as a draw; someone leaning in, far broader than an arm, draws nothing. A hand
    takes a card at rest, so an arm never seen at rest at its deepest point drew nothing: an arm on its way
    over the draw pile to the discard pile, lost from sight in mid-reach as it merges with another, or found
    again only on its way back, would otherwise seem to have stopped short at the draw pile. An arm that
    withdraws and reaches in again is on a new reach, followed afresh from where it withdrew to: a player's other
    hand, holding their cards at the table's edge, can keep their arm in view between two reaches.
    """

    def __init__(self, layout: Layout) -> None:
        self.layout = layout
        self.tracks: list[_Track] = []

    def see(self, motion: Motion) -> list[int]:
        """The seats that drew, reported as their hand leaves the draw pile."""
        seen: list[_Track] = []
        drew = []
        rest = REST * self.layout.card_height
        for arm, track in self._follow(motion.arms):
            track.tip = arm.tip
            depth = math.dist(arm.tip, track.entry)
            again = self._reaches_again(track, depth)
            if depth > track.depth or again:
                track.rested = not again and track.depth > 0 and depth - track.depth < rest
                track.deepest, track.depth, track.low, track.reported = arm.tip, depth, depth, False
                track.breadth = float(arm.mask.sum()) * SCALE ** 2 / depth
            else:
                track.rested = track.rested or depth >= track.depth - rest
                track.low = min(track.low, depth)
                if self._drew(track) and depth < track.depth - RETREAT * self.layout.card_height:
                    drew.append(self._report(track))
            seen.append(track)
        drew += [self._report(track) for track in self.tracks if track not in seen and self._drew(track)]
        self.tracks = seen
        return drew

    def _follow(self, arms: tuple[Arm, ...]) -> list[tuple[Arm, _Track]]:
        """Each arm with the track it continues, or a new one: of the tracks that entered near where it enters,
        the one whose tip was nearest to its own, the closest pairs first.

        Where an arm enters is not enough. An arm reaching in beside a hand held at the edge merges with it now
        and then, and the two, seen as one, enter between the two; the next frame they may be two again.
        Followed by where it entered, or taken in the order the arms come, the reach would pass to the held
        hand's track and back, and be counted as a draw each time."""
        pairs = sorted((math.dist(track.entry, arm.entry) + math.dist(track.tip, arm.tip), a, t)
                       for a, arm in enumerate(arms) for t, track in enumerate(self.tracks)
                       if self._goes_on(track, arm))
        chosen: dict[int, int] = {}
        for _, a, t in pairs:
            if a not in chosen and t not in chosen.values():
                chosen[a] = t
        return [(arm, self.tracks[chosen[a]] if a in chosen else _Track(arm.entry, arm.entry, 0.0, arm.tip))
                for a, arm in enumerate(arms)]

    def _goes_on(self, track: _Track, arm: Arm) -> bool:
        """Whether ``arm`` may be the arm ``track`` follows: it enters near where the track entered, or, merged
        with a hand held beside it (which moves where the two seem to enter), its tip is where the track's was."""
        card = self.layout.card_height
        apart = math.dist(track.entry, arm.entry)
        return apart < card or (apart < MERGED * card and math.dist(track.tip, arm.tip) < card)

    def _drew(self, track: _Track) -> bool:
        """Whether the pile the arm went for is the draw pile.

        Of the piles along the arm, it is the one lying a hand's overshoot short of the arm's deepest point:
        fingers reach past what the palm is over, and the arm's picture includes its shadow. Neither "the tip was
        over the draw pile" nor "the tip was nearest to it" would do, as an arm on its way to the discard pile may
        pass over the draw pile.
        """
        card = self.layout.card_height
        if track.reported or not track.rested or track.breadth > BROAD * card:
            return False
        aimed = track.depth - OVERSHOOT * card
        along = {name: self._along(track, pile.centre) for name, pile in (("draw", self.layout.draw),
                                                                          ("discard", self.layout.discard))}
        missed = {name: abs(value - aimed) for name, value in along.items() if value is not None}
        return bool(missed) and min(missed, key=missed.__getitem__) == "draw" and missed["draw"] < MISS * card

    def _along(self, track: _Track, centre: Point) -> float | None:
        """How far along the arm ``centre`` lies; None if the arm did not reach over it."""
        ax, ay = track.deepest[0] - track.entry[0], track.deepest[1] - track.entry[1]
        px, py = centre[0] - track.entry[0], centre[1] - track.entry[1]
        aside, along = abs(px * ay - py * ax) / track.depth, (px * ax + py * ay) / track.depth
        card = self.layout.card_height
        return along if aside < AIM * card and along < track.depth + AIM * card else None

    def _reaches_again(self, track: _Track, depth: float) -> bool:
        """Whether an arm that withdrew is reaching in again: a new reach, to be followed afresh."""
        card = self.layout.card_height
        return track.low < track.depth - RETREAT * card and depth > track.low + REACH_AGAIN * card

    def _report(self, track: _Track) -> int:
        track.reported = True
        return self.layout.seat_at(track.entry)
