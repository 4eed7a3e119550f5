"""The reveal zone: a hand laid down face up, its cards apart or over each other, read once it lies still."""

from __future__ import annotations

from dataclasses import dataclass

import cv2

from tabletop.sources import Box, Frame
from tabletop.vision.crop import Corners, Image
from tabletop.watcher.layout import Layout
from tabletop.watcher.motion import Motion
from tabletop.watcher.zones import LAID_APART, Settled, ZoneWatch

EMPTY = 0.3
"""The zone is empty when less than this share of a card's area differs from the empty zone."""

ON_THE_HAND = 0.15
"""How near (a share of a card's height) to where the zone changed an index must lie to be one of the cards laid:
a white border on a pale table hardly changes it, and a card's index lies a little in from its border."""


@dataclass(frozen=True, slots=True)
class Revealed:
    """Cards laid in the zone: ``outlines`` of those lying apart, each changed the zone as one card does; none
    where the cards lie over each other (a hand dropped in a heap), which are then read as every card is."""

    outlines: list[Corners]
    settled: Settled
    seat: int | None
    spread: Box
    """Where in the frame the zone changed: the cards laid, all of them."""
    changed: Image
    """Which pixels of the zone changed, and those ``ON_THE_HAND`` near them (0/255, the zone's box in the frame):
    where the cards lie."""
    origin: tuple[int, int]
    """Where the zone's box begins in the frame."""

    def on_the_hand(self, x: float, y: float) -> bool:
        """Whether the frame's point (x, y) lies on the cards laid, not on the table between or round them."""
        column, row = round(x) - self.origin[0], round(y) - self.origin[1]
        height, width = self.changed.shape[:2]
        return 0 <= row < height and 0 <= column < width and bool(self.changed[row, column])


class RevealZone:
    def __init__(self, layout: Layout, frame_shape: tuple[int, int]) -> None:
        self.layout = layout
        self.zone = ZoneWatch(layout.reveal, frame_shape, layout.card_height, LAID_APART, edge=True)
        self.empty: Image | None = None
        self.reported: Image | None = None
        """The zone as it lay when its cards were last reported."""

    def see(self, frame: Frame, motion: Motion) -> Revealed | None:
        """The cards laid out, once per laying: a hand passing over them reports nothing new, while cards laid
        where others lay a moment ago (the next player's hand, before the zone was seen empty) are a new laying."""
        if self.empty is None:
            self.empty = self.zone.cut(frame.image).copy()
        settled = self.zone.watch(frame, motion)
        if settled is None:
            return None
        now = settled.views[-1]
        mask = self.zone.changes(now, self.empty)
        outlines = self.zone.card_outlines(mask, now)
        if not outlines and self.zone.changed_area(now, self.empty) < EMPTY:
            self.empty, self.reported = now, None
            return None
        if self.reported is not None and self.zone.changed_area(now, self.reported) < EMPTY:
            return None
        self.reported = now
        arm = self.zone.visited_by
        left, top, width, height = cv2.boundingRect(mask)
        x0, y0 = self.zone.box[:2]
        spread = (x0 + left, y0 + top, x0 + left + width, y0 + top + height)
        reach = 2 * round(self.zone.card_height * ON_THE_HAND) + 1
        near = cv2.dilate(mask, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (reach, reach)))
        return Revealed(outlines, settled, None if arm is None else self.layout.seat_at(arm.entry), spread, near,
                        (x0, y0))
