"""Things that lie on a card table beside the cards, seen from above: a cup or a mug, a phone.

A thing is described once (where it lies, how big, its colours) and painted from the description at any scale,
so that the table simulator's frame and its detail, painted at three times the pixels, show the same cup.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

import cv2
import numpy as np

from tabletop.lab.drawing import hands, scene
from tabletop.vision.crop import Image

Point = tuple[float, float]
BGR = tuple[int, int, int]
Kind = Literal["cup", "phone"]

CUP = (0.85, 1.1)
"""A cup's or mug's width across its rim, in card heights, smallest and largest (a card is 8.7 cm tall)."""
PHONE = (1.6, 1.9)
"""A phone's length in card heights, shortest and longest; it is about half as wide."""
DRINKS: tuple[BGR, ...] = ((20, 45, 75), (30, 70, 120), (60, 120, 170), (200, 205, 210))
"""What a cup holds, seen from above: black coffee, tea, coffee with milk, or nothing (its white inside)."""
FINE = 4
"""Shapes are drawn with this many subpixel bits (``cv2``'s ``shift``), so that they lie where they should at
every scale."""
SHADOW = (0.04, 0.06)
"""How far a thing's shadow falls from it, in its own sizes: a cup stands taller than a phone lies."""
SHADE = 0.45
"""How much of the lamp's light a thing's shadow takes at its darkest."""


@dataclass(frozen=True)
class Thing:
    """A thing on the table: what it is, its middle and size (the straight-down frame's pixels), how it is turned
    (radians), its body's colour and its inside's (a cup's drink, a phone's screen), and whether a phone's
    screen is lit."""

    kind: Kind
    centre: Point
    size: float
    angle: float
    body: BGR
    inside: BGR
    lit: bool

    @property
    def reach(self) -> float:
        """How far from its middle the thing and its shadow reach: a cup's handle, a phone's corners."""
        return self.size * (0.75 if self.kind == "cup" else 0.6)


def random_thing(rng: np.random.Generator, centre: Point, card_height: float) -> Thing:
    """A cup or a phone lying at ``centre`` on a table whose cards are ``card_height`` tall."""
    angle = float(rng.uniform(0, 2 * math.pi))
    if rng.random() < 0.5:
        drink = DRINKS[int(rng.integers(len(DRINKS)))]
        return Thing("cup", centre, card_height * float(rng.uniform(*CUP)), angle, scene.colour(rng, 40, 250),
                     drink, False)
    case = scene.colour(rng, 10, 90) if rng.random() < 0.6 else scene.colour(rng)
    lit = bool(rng.random() < 0.3)
    screen = scene.colour(rng, 120, 256) if lit else (18, 16, 16)
    return Thing("phone", centre, card_height * float(rng.uniform(*PHONE)), angle, case, screen, lit)


def scatter(rng: np.random.Generator, count: int, card_height: float, size: tuple[int, int],
            clear_of: Callable[[Point], float], clearance: float) -> list[Thing]:
    """Up to ``count`` things in the picture (``size``), each lying at least ``clearance`` from whatever
    ``clear_of`` measures the distance to, and apart from the others; fewer where the table has no room."""
    width, height = size
    things: list[Thing] = []
    for _ in range(200):
        if len(things) == count:
            break
        centre = (float(rng.uniform(0, width)), float(rng.uniform(0, height)))
        thing = random_thing(rng, centre, card_height)
        far = clear_of(centre) >= clearance + thing.reach
        apart = all(math.dist(centre, other.centre) > thing.reach + other.reach for other in things)
        if far and apart:
            things.append(thing)
    return things


def paint(surface: Image, thing: Thing, scale: int, offset: float) -> None:
    """Lay ``thing`` on ``surface`` (in place), a table painted at ``scale`` times the frame's pixels whose point
    ``p`` of the frame lies at ``(p + offset + 0.5) * scale - 0.5``, with its soft shadow."""
    centre = ((thing.centre[0] + offset + 0.5) * scale - 0.5, (thing.centre[1] + offset + 0.5) * scale - 0.5)
    size = thing.size * scale
    reach = math.ceil((thing.reach + thing.size * SHADOW[1] * 2) * scale) + 2
    x0, y0 = max(round(centre[0]) - reach, 0), max(round(centre[1]) - reach, 0)
    x1, y1 = min(round(centre[0]) + reach, surface.shape[1]), min(round(centre[1]) + reach, surface.shape[0])
    if x1 <= x0 or y1 <= y0:
        return
    patch = surface[y0:y1, x0:x1]
    local = (centre[0] - x0, centre[1] - y0)
    outline = np.zeros(patch.shape[:2], np.float32)
    _outline(outline, thing, local, size)
    fall = size * (SHADOW[0] if thing.kind == "phone" else SHADOW[1])
    hands.shadow(patch, outline, (fall, fall * 0.8), max(0.5, fall * 0.8), SHADE)
    (_cup if thing.kind == "cup" else _phone)(patch, thing, local, size)


def _outline(mask: np.ndarray, thing: Thing, centre: Point, size: float) -> None:
    """Where the thing lies, into ``mask``: what casts its shadow."""
    if thing.kind == "cup":
        _disc(mask, centre, size / 2, 1.0)
        _bar(mask, centre, _handle(thing, centre, size), size / 2 * 0.28, 1.0)
    else:
        _rounded(mask, centre, (size, size * 0.48), thing.angle, size * 0.48 * 0.18, 1.0)


def _handle(thing: Thing, centre: Point, size: float) -> Point:
    """Where a cup's handle ends: beyond its rim, the way the cup is turned."""
    reach = size / 2 * 1.15
    return centre[0] + math.cos(thing.angle) * reach, centre[1] + math.sin(thing.angle) * reach


def _cup(patch: Image, thing: Thing, centre: Point, size: float) -> None:
    """A cup from above: its handle, its rim, and the drink (or its white inside) within, darker at its edge, with
    the lamp's gleam on it."""
    radius = size / 2
    body = thing.body
    shade = _times(body, 0.75)
    handle = _handle(thing, centre, size)
    _bar(patch, centre, handle, radius * 0.28, shade)
    _bar(patch, centre, handle, radius * 0.16, body)
    _disc(patch, centre, radius, shade)
    _disc(patch, centre, radius * 0.94, body)
    _disc(patch, centre, radius * 0.82, _times(thing.inside, 0.7))
    _disc(patch, centre, radius * 0.74, thing.inside)
    gleam = (centre[0] - radius * 0.3, centre[1] - radius * 0.35)
    _disc(patch, gleam, radius * 0.09, _times(thing.inside, 1.6, 60))


def _phone(patch: Image, thing: Thing, centre: Point, size: float) -> None:
    """A phone from above, face up: its case round the screen's glass, dark or lit, with a window's reflection
    across it."""
    long, short = size, size * 0.48
    _rounded(patch, centre, (long, short), thing.angle, short * 0.18, thing.body)
    _rounded(patch, centre, (long * 0.93, short * 0.86), thing.angle, short * 0.12, thing.inside)
    if thing.lit:
        top = (centre[0] - math.cos(thing.angle) * long * 0.3, centre[1] - math.sin(thing.angle) * long * 0.3)
        _rounded(patch, top, (long * 0.2, short * 0.7), thing.angle, short * 0.05, _times(thing.inside, 0.6))
    glass = np.zeros(patch.shape[:2], np.float32)
    _rounded(glass, centre, (long * 0.93, short * 0.86), thing.angle, short * 0.12, 1.0)
    ys, xs = np.mgrid[0:patch.shape[0], 0:patch.shape[1]].astype(np.float32)
    across = (xs - centre[0]) * math.cos(thing.angle + 0.7) + (ys - centre[1]) * math.sin(thing.angle + 0.7)
    shine = (glass * np.exp(-(across / (short * 0.2)) ** 2) * 0.12)[..., None]
    patch[:] = np.clip(patch * (1 - shine) + 235 * shine, 0, 255).astype(np.uint8)


def _disc(canvas: np.ndarray, centre: Point, radius: float, colour: BGR | float) -> None:
    cv2.circle(canvas, _fine(centre), round(radius * 2 ** FINE), _ink(colour), -1, cv2.LINE_AA, FINE)


def _bar(canvas: np.ndarray, a: Point, b: Point, radius: float, colour: BGR | float) -> None:
    cv2.line(canvas, _fine(a), _fine(b), _ink(colour), max(1, round(2 * radius)), cv2.LINE_AA, FINE)


def _rounded(canvas: np.ndarray, centre: Point, sides: tuple[float, float], angle: float, corner: float,
             colour: BGR | float) -> None:
    """A rectangle ``sides`` long and wide with round corners, turned ``angle``, filled."""
    box = cv2.boxPoints((centre, (sides[0] - 2 * corner, sides[1] - 2 * corner), math.degrees(angle)))
    cv2.fillConvexPoly(canvas, np.round(box * 2 ** FINE).astype(np.int32), _ink(colour), cv2.LINE_AA, FINE)
    for k in range(4):
        _bar(canvas, (float(box[k][0]), float(box[k][1])), (float(box[k - 1][0]), float(box[k - 1][1])), corner,
             colour)


def _times(colour: BGR, factor: float, lift: float = 0.0) -> BGR:
    b, g, r = (min(255, round(c * factor + lift)) for c in colour)
    return b, g, r


def _ink(colour: BGR | float) -> tuple[float, ...]:
    return (colour,) if isinstance(colour, float) else tuple(float(c) for c in colour)


def _fine(point: Point) -> tuple[int, int]:
    return round(point[0] * 2 ** FINE), round(point[1] * 2 ** FINE)
