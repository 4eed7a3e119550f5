"""Hands and arms seen from above: a sleeve from the picture's edge, a forearm, a palm, fingers and a thumb.

Each part is a rounded shape shaded darker towards its rim, so that it reads as a limb rather than a flat
patch, and the hand casts a soft shadow. The card finder learns from them that a thumb over a card's border
does not end the card; the table simulator's players reach in with them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

from tabletop.vision.crop import Image

Point = tuple[float, float]
Mask = npt.NDArray[np.float32]
SKIN = ((70, 95, 140), (235, 230, 250))
"""The darkest and lightest skin, BGR: tones between them are drawn at random."""


@dataclass(frozen=True)
class Hand:
    """Where a hand lies: its wrist, the way its fingers point, its length (wrist to fingertip), and how it is
    dressed."""

    wrist: Point
    angle: float
    length: float
    skin: tuple[float, float, float]
    sleeve: tuple[float, float, float]
    spread: float
    curl: float
    thumb_side: int

    @staticmethod
    def random(rng: np.random.Generator, wrist: Point, angle: float, length: float) -> Hand:
        t = rng.uniform(0, 1)
        skin = tuple(float(a + (b - a) * t + rng.normal(0, 8)) for a, b in zip(*SKIN, strict=True))
        sleeve = tuple(float(v) for v in rng.uniform(0, 255, 3))
        return Hand(wrist, angle, length, (skin[0], skin[1], skin[2]), (sleeve[0], sleeve[1], sleeve[2]),
                    float(rng.uniform(0, 0.35)), float(rng.uniform(0, 0.6)), int(rng.choice((-1, 1))))

    def along(self, forward: float, side: float) -> Point:
        """A point ``forward`` and ``side`` hand-lengths from the wrist, in the hand's own frame."""
        c, s = math.cos(self.angle), math.sin(self.angle)
        x, y = forward * self.length, side * self.length
        return self.wrist[0] + x * c - y * s, self.wrist[1] + x * s + y * c


def _capsule(mask: Mask, a: Point, b: Point, radius: float) -> None:
    cv2.line(mask, _px(a), _px(b), 1.0, max(1, round(2 * radius)), cv2.LINE_AA)


def _px(point: Point) -> tuple[int, int]:
    return round(point[0]), round(point[1])


def fingers(hand: Hand, shape: tuple[int, int]) -> Mask:
    """The four fingers as a mask (0 to 1): spread a little, curled a little."""
    mask = np.zeros(shape, np.float32)
    width = hand.length * 0.085
    for k, (offset, reach) in enumerate(((-0.15, 0.95), (-0.05, 1.0), (0.05, 0.97), (0.15, 0.85))):
        side = offset * (1 + hand.spread)
        knuckle = hand.along(0.5, side)
        tip = hand.along(0.5 + (reach - 0.5) * (1 - hand.curl * (0.5 + 0.2 * (k % 2))), side * (1 + hand.spread))
        _capsule(mask, knuckle, tip, width * (1.05 if k == 1 else 0.95))
    return mask


def palm(hand: Hand, shape: tuple[int, int]) -> Mask:
    """The palm and the wrist."""
    mask = np.zeros(shape, np.float32)
    centre = hand.along(0.28, 0.0)
    axes = (max(1, round(hand.length * 0.27)), max(1, round(hand.length * 0.21)))
    cv2.ellipse(mask, _px(centre), axes, math.degrees(hand.angle), 0, 360, 1.0, -1, cv2.LINE_AA)
    _capsule(mask, hand.along(-0.05, 0.0), centre, hand.length * 0.16)
    return mask


def thumb(hand: Hand, shape: tuple[int, int]) -> Mask:
    """The thumb, from the side of the palm forward and inward."""
    mask = np.zeros(shape, np.float32)
    side = hand.thumb_side
    base = hand.along(0.15, side * 0.17)
    joint = hand.along(0.38, side * 0.27)
    tip = hand.along(0.58 - 0.1 * hand.curl, side * 0.2)
    _capsule(mask, base, joint, hand.length * 0.1)
    _capsule(mask, joint, tip, hand.length * 0.085)
    return mask


def arm(hand: Hand, shape: tuple[int, int], shoulder: Point) -> tuple[Mask, Mask]:
    """The sleeve from ``shoulder`` (outside the picture) to near the wrist, and the bare forearm beyond it."""
    sleeve, forearm = np.zeros(shape, np.float32), np.zeros(shape, np.float32)
    cuff = hand.along(-0.45, 0.0)
    _capsule(forearm, cuff, hand.along(0.0, 0.0), hand.length * 0.17)
    _capsule(sleeve, shoulder, cuff, hand.length * 0.26)
    return sleeve, forearm


def paint(canvas: Image, mask: Mask, colour: tuple[float, float, float], rng: np.random.Generator,
          roundness: float) -> None:
    """Lay a part onto ``canvas`` (in place), lighter along its middle and darker to its rim, with a little grain.

    ``roundness`` is about the part's half-width in pixels: the shading falls off over that distance.
    """
    box = cv2.boundingRect((mask > 0.01).astype(np.uint8))
    if box[2] == 0 or box[3] == 0:
        return
    x, y, w, h = box
    part = mask[y:y + h, x:x + w]
    depth = cv2.GaussianBlur(part, (0, 0), max(0.5, roundness * 0.6), borderType=cv2.BORDER_CONSTANT)
    shade = 0.6 + 0.55 * np.clip(depth, 0, 1)
    grain = 1 + rng.normal(0, 0.025, part.shape).astype(np.float32)
    colour_map = np.array(colour, np.float32)[None, None, :] * (shade * grain)[..., None]
    region = canvas[y:y + h, x:x + w].astype(np.float32)
    alpha = part[..., None]
    canvas[y:y + h, x:x + w] = np.clip(region * (1 - alpha) + colour_map * alpha, 0, 255).astype(np.uint8)


def shadow(canvas: Image, mask: Mask, offset: Point, softness: float, strength: float) -> None:
    """Darken ``canvas`` (in place) under ``mask`` moved by ``offset`` and blurred by ``softness`` pixels.

    Only the patch the shadow can reach is worked on.
    """
    x, y, w, h = cv2.boundingRect((mask > 0.01).astype(np.uint8))
    if w == 0 or h == 0:
        return
    reach = math.ceil(3 * softness + 1)
    x0, y0 = max(0, x + min(0, math.floor(offset[0])) - reach), max(0, y + min(0, math.floor(offset[1])) - reach)
    x1 = min(canvas.shape[1], x + w + max(0, math.ceil(offset[0])) + reach)
    y1 = min(canvas.shape[0], y + h + max(0, math.ceil(offset[1])) + reach)
    turn = np.array([[1, 0, offset[0]], [0, 1, offset[1]]], np.float32)
    moved = cv2.warpAffine(mask[y0:y1, x0:x1], turn, (x1 - x0, y1 - y0))
    soft = cv2.GaussianBlur(moved, (0, 0), max(0.5, softness))
    patch = canvas[y0:y1, x0:x1]
    patch[:] = np.clip(patch * (1 - strength * np.clip(soft, 0, 1))[..., None], 0, 255).astype(np.uint8)


def shoulder_for(hand: Hand, shape: tuple[int, int]) -> Point:
    """Where the arm comes from: straight back from the wrist, beyond the picture's edge."""
    height, width = shape
    reach = 2.0 * math.hypot(height, width)
    return hand.wrist[0] - reach * math.cos(hand.angle), hand.wrist[1] - reach * math.sin(hand.angle)
