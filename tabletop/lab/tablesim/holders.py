"""The players' other hands: each holding a fan of cards, backs up, at the table's edge where the player sits, in
view the whole game from the first card laid on, shifting by a pixel now and then as people fidget. Before that,
while the table is set up (the deck alone in view for calibration, players reaching in to teach their seats),
nobody holds cards.

A player's fan is drawn once, as ``arms.py`` draws a reaching arm (the same sleeve and skin, the same shaped
hand), and laid into every frame where it has fidgeted to. It is kept clear of the zones: a hand over the draw
pile is a draw, and one over the discard pile hides the card the watcher should read.
"""

from __future__ import annotations

import bisect
import math
from dataclasses import dataclass

import cv2
import numpy as np

from tabletop.lab.drawing import hands, scene
from tabletop.lab.tablesim.arms import SHADOW_REACH, SHADOW_SOFTNESS, Painter, Room, Sprite, standing_out
from tabletop.lab.tablesim.script import to_edge
from tabletop.vision.crop import Image
from tabletop.watcher.layout import Layout, Point

SIZE = (0.85, 1.0)
"""How tall the held cards look, in the table's card heights: held tilted up to their player, they look shorter."""
FORESHORTENED = (0.55, 0.85)
"""How much shorter than they are the held cards look along the player's line of sight, tilted toward them."""
INSET = (0.15, 0.45)
"""How far inside the picture's edge the fan's pivot lies, in card heights."""
HELD = (3, 8)
"""How many cards a fan shows, fewest and most (one more than the most)."""
FIDGET_EVERY = 4.0
"""Seconds, on average, between one player's fidgets."""
FIDGET_REACH = 2
"""How many pixels a fidgeting hand strays, at most, from where it first lay."""
CLEAR = 0.15
"""How far a hand keeps from the zones, in card heights."""
PUSH = 2
"""Pixels a hand is moved out of the picture at a time until it is clear of the zones."""
SEEN = 0.15
"""A hand pushed so far out that less than this many card heights squared of it shows is left out."""
STRAIGHT = np.random.default_rng(0)
"""Draws for ``scene.card_corners`` where no skew is wanted: they are multiplied by nought."""


@dataclass(frozen=True)
class Holder:
    """One player's fan: its drawing, where it lies once pushed clear of the zones, and when it fidgets to where
    (from where it first lay)."""

    seat: int
    sprite: Sprite
    base: tuple[int, int]
    times: tuple[float, ...]
    places: tuple[tuple[int, int], ...]

    def shift(self, t: float) -> tuple[int, int]:
        """Where the fan lies at ``t``, from where it was drawn."""
        k = bisect.bisect_right(self.times, t)
        dx, dy = (0, 0) if k == 0 else self.places[k - 1]
        return self.base[0] + dx, self.base[1] + dy


class Holders:
    """Every player's fan, laid into frames as it lies at ``t``, from ``since`` on."""

    def __init__(self, holders: list[Holder], since: float = 0.0) -> None:
        self.holders = holders
        self.since = since
        self.finer: dict[tuple[int, int], Sprite] = {}
        """Fans scaled up for a picture with more pixels, by seat and scale."""

    @staticmethod
    def drawn(layout: Layout, size: tuple[int, int], back: tuple[Image, Image], room: Room,
              dress: dict[int, tuple[tuple[int, int, int], tuple[int, int, int]]], seed: int,
              rng: np.random.Generator, duration: float, since: float) -> Holders:
        """A fan for each seat of ``layout`` (the picture's) that has a ``dress`` (sleeve and skin), of ``back``s,
        with the player's hand shaped as their reaching hand is; held from ``since``, fidgeting over ``duration``
        seconds."""
        clear = _zones(layout, size, max(CLEAR * layout.card_height, FIDGET_REACH + 2))
        holders = []
        for seat, angle in enumerate(layout.seats):
            if seat not in dress:
                continue
            sprite = _fan(layout, size, seat, angle, back, room, dress[seat], seed, rng)
            base = _clear(sprite, clear, _inward(layout, angle), layout.card_height)
            times, places = _fidgets(rng, duration)
            if base is not None:
                holders.append(Holder(seat, sprite, base, times, places))
        return Holders(holders, since)

    def state(self, t: float) -> tuple[tuple[int, int], ...]:
        """Where every fan lies at ``t`` (none before ``since``): frames whose fans lie alike can share them."""
        return () if t < self.since else tuple(holder.shift(t) for holder in self.holders)

    def draw(self, frame: Image, t: float, scale: int = 1, origin: tuple[int, int] = (0, 0)) -> None:
        """Lay every fan onto ``frame`` as it lies at ``t``; ``frame`` may be a region (its top left corner at
        ``origin``) of a picture with ``scale`` times the pixels each way."""
        if t < self.since:
            return
        for holder in self.holders:
            sprite = holder.sprite
            if scale != 1:
                if (holder.seat, scale) not in self.finer:
                    self.finer[(holder.seat, scale)] = sprite.scaled(scale)
                sprite = self.finer[(holder.seat, scale)]
            dx, dy = holder.shift(t)
            sprite.lay(frame, (dx * scale, dy * scale), origin)


def edge_point(layout: Layout, angle: float, size: tuple[int, int]) -> Point:
    """Where the ray from the picture's centre at the seat's ``angle`` (degrees) leaves the picture."""
    cx, cy = layout.centre
    dx, dy = math.cos(math.radians(angle)), math.sin(math.radians(angle))
    step = min(to_edge(cx, dx, size[0]), to_edge(cy, dy, size[1]))
    return cx + dx * step, cy + dy * step


def _inward(layout: Layout, angle: float) -> np.ndarray:
    return -np.array([math.cos(math.radians(angle)), math.sin(math.radians(angle))])


def _fan(layout: Layout, size: tuple[int, int], seat: int, angle: float, back: tuple[Image, Image], room: Room,
         dress: tuple[tuple[int, int, int], tuple[int, int, int]], seed: int, rng: np.random.Generator) -> Sprite:
    """A hand holding a fan of backs just inside the picture's edge at the seat: the fingers behind the cards, the
    thumb across the front one, the sleeve going out of the picture; with its shadow."""
    edge = np.array(edge_point(layout, angle, size))
    inward = _inward(layout, angle)
    height = layout.card_height * float(rng.uniform(*SIZE))
    pivot = edge + inward * height * float(rng.uniform(*INSET))
    corners = _cards(pivot, inward, height, edge, rng)
    length = height * float(rng.uniform(0.9, 1.1))
    wrist = pivot - inward * length * 0.35
    shoulder = wrist - inward * length * 2
    across = np.array([-inward[1], inward[0]]) * length * 0.6
    shadow = np.array(room.shadow) * SHADOW_REACH * length
    softness = SHADOW_SOFTNESS * length
    pad = float(np.abs(shadow).max()) + 3 * softness + 2
    ends = np.array([shoulder, pivot + inward * length * 0.7])
    extent = np.concatenate([ends + across, ends - across, *corners])
    beyond = FIDGET_REACH + 2
    low = np.maximum(np.floor(extent.min(axis=0) - pad), -beyond)
    high = np.minimum(np.ceil(extent.max(axis=0) + pad), np.array(size) + beyond)
    shape = (int(high[1] - low[1]), int(high[0] - low[0]))
    lamp = room.lamp_at((float(edge[0]), float(edge[1])))
    sleeve = standing_out(np.clip(np.array(dress[0], np.float64) * lamp, 0, 255), room.table)
    skin = np.clip(np.array(dress[1], np.float64) * lamp, 0, 255)
    style = np.random.default_rng((seed, seat, 0))
    local = wrist - low
    hand = hands.Hand((float(local[0]), float(local[1])), math.atan2(inward[1], inward[0]) + float(rng.normal(0, 0.2)),
                      length, _bgr(skin), _bgr(sleeve), float(style.uniform(0, 0.35)), float(style.uniform(0, 0.6)),
                      int(style.choice((-1, 1))))
    painter = Painter(shape, rng)
    cuff, forearm = hands.arm(hand, shape, (float(shoulder[0] - low[0]), float(shoulder[1] - low[1])))
    painter.part(cuff, hand.sleeve, length * 0.26)
    painter.part(forearm, hand.skin, length * 0.17)
    painter.part(hands.palm(hand, shape), hand.skin, length * 0.2)
    painter.part(hands.fingers(hand, shape), hand.skin, length * 0.08)
    for card in corners:
        painter.card(back, (card - low).astype(np.float32))
    painter.part(hands.thumb(hand, shape), hand.skin, length * 0.08)
    return painter.sprite((int(low[0]), int(low[1])), (float(shadow[0]), float(shadow[1])), softness,
                          room.strength)


def _cards(pivot: np.ndarray, inward: np.ndarray, height: float, edge: np.ndarray,
           rng: np.random.Generator) -> list[np.ndarray]:
    """The fanned cards' corners, back first: turned about the pivot, their tops away from the player, and
    shortened toward the player as cards held tilted up look from above."""
    count = int(rng.integers(*HELD))
    step = float(rng.uniform(0.12, 0.25))
    short = float(rng.uniform(*FORESHORTENED))
    facing = math.atan2(inward[1], inward[0])
    out = []
    for k in range(count):
        angle = facing + (k - (count - 1) / 2) * step
        centre = pivot + np.array([math.cos(angle), math.sin(angle)]) * height * 0.38
        corners = scene.card_corners((float(centre[0]), float(centre[1])), height, angle + math.pi / 2, STRAIGHT,
                                     perspective=0.0).astype(np.float64)
        along = (corners - edge) @ inward
        out.append(corners - np.outer(along * (1 - short), inward))
    return out


def _zones(layout: Layout, size: tuple[int, int], margin: float) -> np.ndarray:
    """Where in the picture a hand must not lie: the zones, and ``margin`` round them."""
    mask = np.zeros((size[1], size[0]), np.uint8)
    for circle in (layout.discard, layout.draw):
        centre = (round(circle.centre[0]), round(circle.centre[1]))
        cv2.circle(mask, centre, math.ceil(circle.radius + margin), 1, -1)
    box = layout.reveal
    cv2.rectangle(mask, (math.floor(box.left - margin), math.floor(box.top - margin)),
                  (math.ceil(box.right + margin), math.ceil(box.bottom + margin)), 1, -1)
    return mask.astype(bool)


def _clear(sprite: Sprite, zones: np.ndarray, inward: np.ndarray, card_height: float) -> tuple[int, int] | None:
    """How far to move the fan out of the picture for it, its shadow included, to keep clear of ``zones``; None
    if too little of it would show."""
    covers = (sprite.alpha > 0.02) | (sprite.light.min(axis=2) < 250)
    height, width = zones.shape
    for step in range(0, round(4 * card_height), PUSH):
        dx, dy = (round(float(-inward[0] * step)), round(float(-inward[1] * step)))
        x0, y0 = sprite.origin[0] + dx, sprite.origin[1] + dy
        fx0, fy0 = max(x0, 0), max(y0, 0)
        fx1, fy1 = min(x0 + covers.shape[1], width), min(y0 + covers.shape[0], height)
        if fx1 <= fx0 or fy1 <= fy0:
            return None
        shown = covers[fy0 - y0:fy1 - y0, fx0 - x0:fx1 - x0]
        if int(np.count_nonzero(shown)) < (SEEN * card_height) ** 2:
            return None
        if not np.any(shown & zones[fy0:fy1, fx0:fx1]):
            return dx, dy
    return None


def _fidgets(rng: np.random.Generator, duration: float) -> tuple[tuple[float, ...], tuple[tuple[int, int], ...]]:
    """When a player's hand moves, and where to: a pixel at a time, never far from where it first lay."""
    times: list[float] = []
    places: list[tuple[int, int]] = []
    t, x, y = 0.0, 0, 0
    while True:
        t += float(rng.exponential(FIDGET_EVERY))
        if t >= duration:
            return tuple(times), tuple(places)
        step = rng.integers(-1, 2, 2)
        x = int(np.clip(x + step[0], -FIDGET_REACH, FIDGET_REACH))
        y = int(np.clip(y + step[1], -FIDGET_REACH, FIDGET_REACH))
        times.append(t)
        places.append((x, y))


def _bgr(colour: np.ndarray) -> tuple[float, float, float]:
    b, g, r = (float(v) for v in colour)
    return b, g, r
