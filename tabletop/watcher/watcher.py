"""The table watcher: camera frames in, game events out (docs/record.md), with the seat whose arm made each move.

It owns no thread and no clock: it is fed frames, each with its time, and answers with what happened on that
frame. A card it cannot read surely becomes an ``unsure`` observation for the players to settle, never a play.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass

import cv2
import numpy as np

from tabletop.game.cards import Card
from tabletop.game.events import Deal, Draw, Event, Evidence, Flip, Play, Reveal, Unsure
from tabletop.reporting import Report, quiet
from tabletop.sources import Frame, Region
from tabletop.vision import borders, finder
from tabletop.vision.crop import Corners, Look, rectify
from tabletop.vision.every_card import read_every_card
from tabletop.vision.found import FoundCard, card_sized
from tabletop.vision.index_finder import HAND_IN_VIEW
from tabletop.vision.model import CardReader, Reading
from tabletop.watcher.draws import DrawWatch
from tabletop.watcher.layout import Layout
from tabletop.watcher.motion import MotionSensor
from tabletop.watcher.pile import Cleared, DiscardPile, Landed, TakenBack
from tabletop.watcher.reveal import Revealed, RevealZone
from tabletop.watcher.unread import UnreadPlay
from tabletop.watcher.zones import Settled, card_looks

SOURCE = "camera"
PICTURE = (96, 144)
"""The size (w, h) a read card's picture is kept at: twice the model's crop, enough for a person to check it."""
PICTURE_QUALITY = 80
"""JPEG quality of a kept picture: about 4 kB each."""


@dataclass(frozen=True, slots=True)
class TakeBack:
    """The last card laid on the pile was taken back; the record turns this into a ``retract`` of its line."""

    t: float
    seat: int | None


Observation = Event | TakeBack


class Watcher:
    """``report`` is told, once, when people go on reaching in and no card is read: see ``UnreadPlay``."""

    def __init__(self, layout: Layout, model: CardReader, frame_shape: tuple[int, int] = (480, 640),
                 report: Report = quiet) -> None:
        self.layout, self.model, self.report = layout, model, report
        self.unread = UnreadPlay()
        self.motion = MotionSensor(layout)
        self.draws = DrawWatch(layout)
        self.pile = DiscardPile(layout, frame_shape)
        self.reveal = RevealZone(layout, frame_shape)
        self.round_open = False

    def observe(self, frame: Frame) -> list[Observation]:
        """What happened on the table as of this frame; usually nothing."""
        motion = self.motion.update(frame.image)
        out: list[Observation] = [Draw(seat=seat, t=frame.t, source=SOURCE) for seat in self.draws.see(motion)]
        change = self.pile.see(frame, motion)
        if isinstance(change, Landed):
            out += self._landed(change, frame.t)
        elif isinstance(change, TakenBack):
            out.append(TakeBack(frame.t, change.seat))
        elif isinstance(change, Cleared) and change.cards > 1:
            self.round_open = False
        revealed = self.reveal.see(frame, motion)
        if revealed is not None:
            out += self._revealed(revealed, frame.t)
        self._check_reading(frame.t, bool(motion.arms), out)
        return out

    def _check_reading(self, t: float, reaching: bool, out: list[Observation]) -> None:
        """Feed ``UnreadPlay``: a draw is seen from arms alone, so only the other observations show that cards
        are read."""
        warning = self.unread.see(t, reaching, any(not isinstance(item, Draw) for item in out))
        if warning is not None:
            self.report(warning)

    def _landed(self, landed: Landed, t: float) -> list[Observation]:
        """A play; or, on an empty pile, the flip that starts a round (and the deal before it, by the flipper)."""
        out: list[Observation] = []
        if landed.on_empty and not self.round_open:
            self.round_open = True
            out.append(Deal(dealer=landed.seat or 0, t=t, source=SOURCE))
        sighting = self._read_new(landed)
        reading, evidence = (None, None) if sighting is None else (sighting[0], self._evidence(landed, *sighting))
        if reading is None or reading.unsure or reading.card is None:
            out.append(Unsure(guesses=_guesses(reading), seat=landed.seat, t=t, source=SOURCE, evidence=evidence))
        elif landed.on_empty:
            out.append(Flip(card=reading.card, t=t, source=SOURCE, evidence=evidence))
        else:
            out.append(Play(card=reading.card, seat=landed.seat, t=t, source=SOURCE, evidence=evidence))
        return out

    def _evidence(self, landed: Landed, reading: Reading, corners: Corners) -> Evidence:
        """The card as the camera saw it in the settled frame, cut out square, with how sure the reading was."""
        region = landed.settled.regions[-1]
        crop = rectify(region.picture, region.points(corners), PICTURE)
        _, jpeg = cv2.imencode(".jpg", crop, [cv2.IMWRITE_JPEG_QUALITY, PICTURE_QUALITY])
        return Evidence(jpeg.tobytes(), reading.confidence, _guesses(reading))

    def _read_new(self, landed: Landed) -> tuple[Reading, Corners] | None:
        """The new top card, voted over the settled frames.

        It is read where the pile changed. When that was not card-like (the pile was pushed), or the card read
        there unsurely (the change also took in a strip of a card beneath, or missed a corner, or showed only the
        numeral of a card laid squarely on one of its colour), it is read again where it may lie instead, and
        the surest reading counts: where the finder sees the most prominent card, then where the card beneath
        lay. Either place must lie over the middle of the change, so that a card beneath is never read as the
        new one; and where the card beneath lay must read differently from before the change.
        """
        sighting = None
        if landed.corners is not None:
            sighting = self._vote(landed.settled, landed.corners), landed.corners
            if _sure(sighting[0]):
                return sighting
        for found in self._rereadings(landed):
            if sighting is None or _surer(found[0], sighting[0]):
                sighting = found
            if _sure(sighting[0]):
                break
        return sighting

    def _rereadings(self, landed: Landed) -> Iterator[tuple[Reading, Corners]]:
        """The new card read where else it may lie, when the change did not outline it well (see ``_read_new``)."""
        corners = _most_prominent(landed.settled.regions[-1], self.pile.zone.card_height)
        if corners is not None and (landed.corners is None or _covers(corners, landed.corners)):
            yield self._vote(landed.settled, corners), corners
        beneath = landed.beneath
        if beneath is None or landed.corners is None or not _covers(beneath, landed.corners):
            return
        before = self.model.read(self._looks(landed.before.regions[-1:], beneath))[0]
        now = self._vote(landed.settled, beneath)
        if now.card != before.card:
            yield now, beneath

    def _vote(self, settled: Settled, corners: Corners) -> Reading:
        """The card at ``corners`` (frame pixels) read in each settled frame, with all the detail it has."""
        return self.model.vote(self._looks(settled.regions, corners))

    def _revealed(self, revealed: Revealed, t: float) -> list[Observation]:
        """The hand laid down: each card lying apart read where the border finder places it on the camera's large
        picture, or where it changed the zone when that finds none there (the change is measured on the small
        picture, and an outline a pixel too wide takes in the table round the card: the card's white is then
        judged with the table's colour in it, and on a red table a green card reads surely as a blue one); and
        every other card in the zone, whole or showing no more than an index corner, read as ``every_card``
        reads a heap. A change the size of one card that reads as no card (two cards dropped one a little over
        the other change the zone about as one card does) claims none of the hand: what lies there is read as a
        heap is."""
        placed = [self._placed(revealed.settled, outline) for outline in revealed.outlines]
        readings = [(corners, self._vote(revealed.settled, corners)) for corners in placed]
        read = [(corners, reading.card) for corners, reading in readings if reading.card is not None]
        cards = tuple(card for _, card in read) + self._overlapping(revealed, [corners for corners, _ in read])
        if revealed.seat is None or not cards:
            return []
        return [Reveal(seat=revealed.seat, cards=cards, t=t, source=SOURCE)]

    def _overlapping(self, revealed: Revealed, apart: list[Corners]) -> tuple[Card, ...]:
        """The cards read (at least ``HAND_FLOOR`` surely) where the zone changed that lie outside every card read
        apart: the cards of a hand laid over each other."""
        tall = self.pile.zone.card_height
        (x0, y0, x1, y1), reach = revealed.spread, math.ceil(tall / 4)
        if x1 <= x0 or y1 <= y0:
            return ()
        region = revealed.settled.cut((x0 - reach, y0 - reach, x1 + reach, y1 + reach))
        cards = []
        def on_the_hand(x: float, y: float) -> bool:
            (frame_x, frame_y), = region.frame_points(np.array([[x, y]], np.float32))
            return revealed.on_the_hand(float(frame_x), float(frame_y))

        for seen in read_every_card(region.picture, self.model, card_height=tall * region.scale,
                                    on_the_hand=on_the_hand, heights=HAND_IN_VIEW):
            middles = region.frame_points(np.array(seen.index_middles, np.float32))
            inside = any(cv2.pointPolygonTest(outline, (float(x), float(y)), False) >= 0
                         for outline in apart for x, y in middles)
            if seen.card is not None and seen.reading.confidence >= HAND_FLOOR and not inside:
                cards.append(seen.card)
        return tuple(cards)

    def _placed(self, settled: Settled, outline: Corners) -> Corners:
        """Where the border finder places the card changed at ``outline``, on the large picture round it alone
        (the zone may be so large that a card is too small a part of it to be looked for). Not the learned
        finder: its outlines are rougher than the change's."""
        tall = self.pile.zone.card_height
        (left, top), (right, bottom) = outline.min(axis=0) - tall / 2, outline.max(axis=0) + tall / 2
        region = settled.cut((math.floor(left), math.floor(top), math.ceil(right), math.ceil(bottom)))
        sure = [card for card in borders.find_cards(region.picture, PROMINENT_LOOKS) if card.score >= PLACED_SCORE]
        found = _card_outlines(region, tall, sure)
        return next((card for card in found if _covers(card, outline) and _covers(outline, card)), outline)

    def _looks(self, regions: list[Region], corners: Corners) -> list[Look]:
        return card_looks(regions, corners, self.model.size)


def _card_outlines(region: Region, card_height: float, found: list[FoundCard]) -> list[Corners]:
    """The cards a finder found on ``region``'s picture, in the frame's pixels, those of about the layout's card
    height alone: with a large picture's pixels the border finder also outlines a big numeral."""
    tall = card_height * region.scale
    return [region.frame_points(card.corners) for card in found if card_sized(card.corners, tall)]


def _most_prominent(region: Region, card_height: float) -> Corners | None:
    """The top card in a zone (in the frame's pixels): by its border where that stands out, else as the learned
    finder sees it. Found on the camera's large picture where it has one: the change that outlined the card was
    measured on the small one, where a pixel is 2% of a card and a card laid on one of its colour changes little
    at its edge, and an outline cut a tenth of the card inside loses an index (real draw twos were read as 4s
    so)."""
    picture = region.picture
    cards = (_card_outlines(region, card_height, borders.find_cards(picture, PROMINENT_LOOKS, piled=True))
             or _card_outlines(region, card_height, finder.find_cards(picture, PROMINENT_LOOKS)))
    return cards[0] if cards else None


HAND_FLOOR = 0.5
"""A card of a hand laid over others, read from what shows of it, is counted in the hand when read at least this
surely, though below the mark where a play is left for a person to confirm: a card left out of a hand makes its
points as wrong as a card misread, and most such readings are right. In the simulator's dropped hands (10
rounds) 76 of 100 revealed cards are read with it, against 67 with only sure readings, and no card more that is
not in the hand. Lower, it counts about as many cards wrongly as it gains: over the benchmark's 20 rounds of
dropped hands, 0.3 read 7 more of 223 cards right and counted 6 more that were not in the hand."""
PROMINENT_LOOKS = 3
"""How many cards a finder offers round a card changed, most prominent first."""
PLACED_SCORE = 0.7
"""How sure the border finder must be of a card it places in the reveal zone for its outline to be taken over the
change's: on a pale table it takes a worn card's coloured face inside its white border for a card, at 0.55 to
0.6, while a card whose edge stands out scores 0.8 to 1."""


def _covers(card: Corners, change: Corners) -> bool:
    """Whether ``card`` lies over the middle of ``change``."""
    middle = change.mean(axis=0)
    return cv2.pointPolygonTest(card, (float(middle[0]), float(middle[1])), False) >= 0


def _sure(reading: Reading) -> bool:
    """Whether ``reading`` names a card surely enough to count as a play."""
    return reading.card is not None and not reading.unsure


def _surer(first: Reading, second: Reading) -> bool:
    """Whether ``first`` names a card and reads it more surely than ``second`` does."""
    return first.card is not None and (second.card is None or first.confidence > second.confidence)


def _guesses(reading: Reading | None) -> tuple[tuple[Card, float], ...]:
    if reading is None:
        return ()
    return tuple((card, confidence) for card, confidence in reading.guesses if card is not None)
