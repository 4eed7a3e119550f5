"""Finding the table's zones and seats without anyone measuring them.

Before the first card is turned, the only card on the table is the draw pile: the card-shaped thing in the
picture is it, and its size says how big a card looks. The discard pile goes beside it, toward the middle of the
table, and the reveal zone takes the half of the table away from the piles. Seats are learnt by each player, in
seat order, reaching into the middle once. Any of it can be set by hand instead.

A wrong guess is worse than none: zones measured round a face-up card, a phone or one of two decks put the
discard pile where no card lands, and the watcher then sees nothing, silently. So every card-shaped thing is
read with the card model, and the picture is refused, saying what was seen, unless exactly one of them can be
the deck: face down (a back reads as no card), of a card's size, and clearly likelier than any other.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from tabletop.errors import CalibrationError
from tabletop.sources import Frame
from tabletop.vision import borders, finder
from tabletop.vision.crop import Corners, Image
from tabletop.vision.found import portrait
from tabletop.vision.model import CardReader, Reading
from tabletop.vision.reader import GUESS_FLOOR
from tabletop.watcher.layout import Circle, Layout, Point, Rect
from tabletop.watcher.motion import MotionSensor, most_changed
from tabletop.watcher.zones import card_looks

LARGEST_CARD = 0.1
SMALLEST_CARD = 0.0025
"""A card seen from above the table covers between these shares of the picture: the smallest, a camera 130 cm
above a table reading it from its small picture, about 40 pixels tall in 640 x 480."""
SPECK = SMALLEST_CARD / 4
"""Patches smaller than this share of the picture are specks, not worth a word; a deck seen smaller than a card
can be, but larger than a speck, is told that it looks too small."""
GROUND = 0.25
"""Patches larger than this share of the picture are the table's own parts (a cloth on it, the floor round it),
not something lying on it."""
STANDS_OUT = 60
"""How far (0..255, in the channel that differs most) the deck's colours lie from the table's."""
LIKELY = 0.5
"""A card-shaped thing the finder scores at least this share of the best one's score is as likely to be the deck:
its score says how clearly the outline is a card's, which two face-down cards show about as clearly."""
CANDIDATES = 4
"""How many of the finder's most prominent shapes, and of the largest patches, may be the deck."""
PUT_DECK = "put the deck face down in view, alone, or give the zones by hand"


@dataclass(frozen=True, slots=True)
class Suspect:
    """A card-shaped thing that was not taken for the deck, and why, in a few words."""

    corners: Corners
    why: str


@dataclass(frozen=True, slots=True)
class Calibration:
    """The table measured from one picture, with the deck it was measured round."""

    layout: Layout
    deck: Corners
    doubts: tuple[str, ...]
    """Why the deck may not be the deck after all: it reads a little like a face-up card, or something less
    likely lies in view too."""


@dataclass(frozen=True, slots=True)
class _Candidate:
    corners: Corners
    score: float
    """The finder's score; 0 for a patch seen by its colour alone, which any outline the finder saw outranks and
    every other patch equals."""
    reading: Reading


def find_layout(frame: Frame, players: int, model: CardReader) -> Layout:
    """A layout from a picture of the table before the first card is turned (only the draw pile on it).

    Seats are spread evenly, seat 0 nearest the bottom edge, until learnt or set by hand.
    """
    return measure_table(frame, players, model).layout


def measure_table(frame: Frame, players: int, model: CardReader) -> Calibration:
    """As ``find_layout``, keeping the deck's outline and any doubt about it, for a person to check."""
    deck, others = _deck(frame, model)
    return Calibration(_around(deck.corners, frame.image.shape[:2], players), deck.corners, _doubts(deck, others))


def _around(deck: Corners, shape: tuple[int, ...], players: int) -> Layout:
    height = float((math.dist(deck[0], deck[3]) + math.dist(deck[1], deck[2])) / 2)
    cx, cy = (float(v) for v in deck.mean(axis=0))
    frame_height, frame_width = shape[:2]
    toward = 1.0 if cx < frame_width / 2 else -1.0
    discard = (cx + toward * height * 1.6, cy)
    top_half = cy < frame_height / 2
    reveal = Rect(frame_width * 0.12, frame_height * (0.5 if top_half else 0.04), frame_width * 0.88,
                  frame_height * (0.96 if top_half else 0.5))
    return Layout(discard=Circle(discard, height * 0.85), draw=Circle((cx, cy), height * 0.7), reveal=reveal,
                  centre=(frame_width / 2, frame_height / 2), seats=even_seats(players), card_height=height,
                  picture=(frame_width, frame_height))


def _deck(frame: Frame, model: CardReader) -> tuple[_Candidate, list[_Candidate]]:
    """The one card-shaped thing likeliest to be the deck, and the less likely others that could be; a
    CalibrationError, naming what was seen, if none can be or several are as likely."""
    candidates = _candidates(frame, model)
    area = frame.image.shape[0] * frame.image.shape[1]
    objections = [_objection(candidate, area) for candidate in candidates]
    kept = [candidate for candidate, objection in zip(candidates, objections, strict=True) if objection is None]
    if not kept:
        suspects = [Suspect(c.corners, why) for c, why in zip(candidates, objections, strict=True) if why is not None]
        raise CalibrationError(_nothing_but(suspects), suspects)
    best = kept[0]
    alike = [best] + [candidate for candidate in kept[1:] if candidate.score >= best.score * LIKELY]
    if len(alike) > 1:
        places = ", ".join(_place(candidate.corners) for candidate in alike)
        raise CalibrationError(f"{len(alike)} card-shaped things, each as likely to be the draw pile, at {places}: "
                               f"{PUT_DECK}", [Suspect(c.corners, "as likely as another") for c in alike])
    return best, kept[1:]


def _candidates(frame: Frame, model: CardReader) -> list[_Candidate]:
    """Everything that may be the deck, each read (with all the detail the frame has): the border finder's
    shapes, most prominent first; the card-shaped patches that stand out from the table's colour and that it
    missed (it looks for a face's white border, which a back may lack), largest first; then the learned finder's
    shapes that neither found."""
    image = frame.image
    shapes = [(card.corners, card.score) for card in borders.find_cards(image, CANDIDATES)]
    shapes += _missed([(corners, 0.0) for corners in _patches(image)], shapes)[:CANDIDATES]
    shapes += _missed([(card.corners, card.score) for card in finder.find_cards(image, CANDIDATES)], shapes)
    if not shapes:
        return []
    whole = [frame.cut((0, 0, image.shape[1], image.shape[0]))]
    readings = model.read([card_looks(whole, corners, model.size)[0] for corners, _ in shapes])
    return [_Candidate(corners, score, reading) for (corners, score), reading in zip(shapes, readings, strict=True)]


def _missed(shapes: list[tuple[Corners, float]], found: list[tuple[Corners, float]]) -> list[tuple[Corners, float]]:
    return [(corners, score) for corners, score in shapes if not any(_inside(corners, c) for c, _ in found)]


def _inside(patch: Corners, outline: Corners) -> bool:
    middle = patch.mean(axis=0)
    return cv2.pointPolygonTest(outline, (float(middle[0]), float(middle[1])), False) >= 0


def _objection(candidate: _Candidate, frame_area: int) -> str | None:
    """Why ``candidate`` cannot be the deck, in a few words; None if it can."""
    reading = candidate.reading
    if reading.card is not None and not reading.unsure:
        return f"a face-up {reading.card} ({reading.confidence:.0%} sure)"
    share = cv2.contourArea(candidate.corners) / frame_area
    if not SMALLEST_CARD <= share <= LARGEST_CARD:
        size = "big" if share > LARGEST_CARD else "small"
        return f"something too {size} for a card seen from above ({share:.1%} of the picture)"
    return None


def _nothing_but(suspects: Sequence[Suspect]) -> str:
    if not suspects:
        return f"no draw pile in the picture: {PUT_DECK}"
    seen = "; ".join(f"{suspect.why} at {_place(suspect.corners)}" for suspect in suspects)
    return f"no draw pile in the picture, only {seen}: {PUT_DECK}"


def _doubts(deck: _Candidate, others: Sequence[_Candidate]) -> tuple[str, ...]:
    doubts = [f"something else card-shaped lies at {_place(other.corners)}, less likely the draw pile than the one "
              f"at {_place(deck.corners)}; if it is the deck, {PUT_DECK}" for other in others]
    reading = deck.reading
    if reading.card is not None and reading.confidence >= GUESS_FLOOR:
        doubts.insert(0, f"the draw pile at {_place(deck.corners)} reads a little like a face-up {reading.card} "
                         f"({reading.confidence:.0%}); if it is one, {PUT_DECK}")
    return tuple(doubts)


def _place(corners: Corners) -> str:
    x, y = corners.mean(axis=0)
    return f"({x:.0f}, {y:.0f})"


def _patches(frame: Image) -> list[Corners]:
    """Solid card-shaped patches that stand out from the table's colour, largest first."""
    table = np.median(frame[::4, ::4].reshape(-1, 3), axis=0).astype(np.uint8)
    differs = (most_changed(frame, np.full_like(frame, table)) > STANDS_OUT).astype(np.uint8)
    differs = cv2.morphologyEx(differs, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    differs = cv2.morphologyEx(differs, cv2.MORPH_CLOSE, np.ones((9, 9), np.uint8))
    contours, _ = cv2.findContours(differs, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    frame_area = frame.shape[0] * frame.shape[1]
    rects = sorted((cv2.minAreaRect(contour) for contour in contours if _card_like(contour, frame_area)),
                   key=lambda rect: rect[1][0] * rect[1][1], reverse=True)
    return [portrait([(float(x), float(y)) for x, y in cv2.boxPoints(rect)]) for rect in rects]


def _card_like(contour: np.ndarray, frame_area: int) -> bool:
    """A solid patch of a card's proportions, more than a speck (whether its size fits a card is judged later,
    so that a deck seen too small or too big can be told so)."""
    (w, h) = cv2.minAreaRect(contour)[1]
    size = w * h
    aspect = max(w, h) / max(min(w, h), 1)
    return (SPECK * frame_area < size < GROUND * frame_area and borders.ASPECTS[0] < aspect < borders.ASPECTS[1]
            and cv2.contourArea(contour) > 0.8 * size)


def even_seats(players: int, first: float = 90.0) -> tuple[float, ...]:
    """Seats evenly round the table, clockwise from ``first`` degrees (90 is the bottom edge of the picture)."""
    return tuple((first + k * 360 / players) % 360 for k in range(players))


def learn_seats(frames: Iterable[Frame], layout: Layout, players: int) -> tuple[float, ...]:
    """Seat angles from each player, in seat order, reaching into the middle once and withdrawing.

    Stops as soon as every seat has reached in; CalibrationError if the frames end first.
    """
    motion = MotionSensor(layout)
    angles: list[float] = []
    reaching: Point | None = None
    for frame in frames:
        arms = motion.update(frame.image).arms
        if arms and reaching is None:
            reaching = arms[0].entry
        elif not arms and reaching is not None:
            angles.append(layout.angle_of(reaching))
            reaching = None
            if len(angles) == players:
                return tuple(angles)
    raise CalibrationError(f"saw {len(angles)} of {players} players reach in; each player, in seat order, "
                           "reaches into the middle of the table once")
