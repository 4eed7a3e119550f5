"""Finding the table's zones and seats without anyone measuring them.

Before the first card is turned, the only card on the table is the draw pile: the card-shaped thing in the
picture is it, and its size says how big a card looks. The discard pile goes beside it, toward the middle of the
table, and the reveal zone takes the half of the table away from the piles. Seats are learnt by each player, in
seat order, reaching into the middle once. Any of it can be set by hand instead.
"""

from __future__ import annotations

import math
from collections.abc import Iterable

import cv2
import numpy as np

from tabletop.errors import TabletopError
from tabletop.sources import Frame
from tabletop.vision.crop import Corners, Image
from tabletop.vision.finder import ASPECTS, find_cards, portrait
from tabletop.watcher.layout import Circle, Point, Rect, TableLayout
from tabletop.watcher.motion import MotionSensor, most_changed

LARGEST_CARD = 0.1
SMALLEST_CARD = 0.004
"""A card seen from above the table covers between these shares of the picture."""
STANDS_OUT = 60
"""How far (0..255, in the channel that differs most) the deck's colours lie from the table's."""


class CalibrationError(TabletopError):
    """The table could not be measured from the pictures; the message says what to do instead."""


def find_layout(frame: Image, players: int) -> TableLayout:
    """A layout from a picture of the table before the first card is turned (only the draw pile on it).

    Seats are spread evenly, seat 0 nearest the bottom edge, until learnt or set by hand.
    """
    corners = _deck(frame)
    if corners is None:
        raise CalibrationError("no draw pile in the picture: put the deck face down in view, or give the zones "
                               "by hand")
    height = float((math.dist(corners[0], corners[3]) + math.dist(corners[1], corners[2])) / 2)
    cx, cy = (float(v) for v in corners.mean(axis=0))
    frame_height, frame_width = frame.shape[:2]
    toward = 1.0 if cx < frame_width / 2 else -1.0
    discard = (cx + toward * height * 1.6, cy)
    top_half = cy < frame_height / 2
    reveal = Rect(frame_width * 0.12, frame_height * (0.5 if top_half else 0.04), frame_width * 0.88,
                  frame_height * (0.96 if top_half else 0.5))
    return TableLayout(discard=Circle(discard, height * 0.85), draw=Circle((cx, cy), height * 0.7), reveal=reveal,
                       centre=(frame_width / 2, frame_height / 2), seats=even_seats(players), card_height=height)


def _deck(frame: Image) -> Corners | None:
    """The deck's outline: the finder's most prominent card of a likely size, else the one card-shaped patch that
    stands out from the table's colour (the finder looks for a face's white border, which a back may lack)."""
    area = frame.shape[0] * frame.shape[1]
    found = [card.corners for card in find_cards(frame, 4) if card.area < LARGEST_CARD * area]
    return found[0] if found else _patch(frame)


def _patch(frame: Image) -> Corners | None:
    table = np.median(frame[::4, ::4].reshape(-1, 3), axis=0).astype(np.uint8)
    differs = (most_changed(frame, np.full_like(frame, table)) > STANDS_OUT).astype(np.uint8)
    differs = cv2.morphologyEx(differs, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    differs = cv2.morphologyEx(differs, cv2.MORPH_CLOSE, np.ones((9, 9), np.uint8))
    contours, _ = cv2.findContours(differs, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    frame_area = frame.shape[0] * frame.shape[1]
    rects = [cv2.minAreaRect(contour) for contour in contours if _card_like(contour, frame_area)]
    if not rects:
        return None
    box = cv2.boxPoints(max(rects, key=lambda rect: rect[1][0] * rect[1][1]))
    return portrait([(float(x), float(y)) for x, y in box])


def _card_like(contour: np.ndarray, frame_area: int) -> bool:
    """A solid patch of a card's size and proportions."""
    (w, h) = cv2.minAreaRect(contour)[1]
    size = w * h
    aspect = max(w, h) / max(min(w, h), 1)
    return (SMALLEST_CARD * frame_area < size < LARGEST_CARD * frame_area and ASPECTS[0] < aspect < ASPECTS[1]
            and cv2.contourArea(contour) > 0.8 * size)


def even_seats(players: int, first: float = 90.0) -> tuple[float, ...]:
    """Seats evenly round the table, clockwise from ``first`` degrees (90 is the bottom edge of the picture)."""
    return tuple((first + k * 360 / players) % 360 for k in range(players))


def learn_seats(frames: Iterable[Frame], layout: TableLayout, players: int) -> tuple[float, ...]:
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
