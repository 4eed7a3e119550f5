"""The table simulator's camera: the overhead video of a scripted game, frame by frame, deterministic per seed.

The table and whatever lies on it is painted once per change into a lit layer; each frame then adds the arms
with their shadows, the room's drifting and switching light, and sensor noise. That keeps a frame to a few
milliseconds, so whole rounds run inside the tests.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass

import cv2
import numpy as np

from tabletop.cards import Card
from tabletop.sources import Frame
from tabletop.tablesim.script import Lay, Lift, Placed, Reach, Script
from tabletop.vision import render, scene
from tabletop.vision.crop import CARD_ASPECT, Image

CONTRAST = 70
"""How far a sleeve's colour stays from the table's, in the channel that differs most."""
TABLES = {"wood": scene.wood, "felt": scene.felt, "cloth": scene.cloth, "plain": scene.plain}


@dataclass(frozen=True)
class Lighting:
    """A lamp's pool of light and tint, a glare spot, and how the room's brightness drifts and jumps."""

    lamp: np.ndarray
    drift: float
    drift_period: float
    phase: float
    switches: tuple[tuple[float, float], ...]
    noise: float

    @staticmethod
    def random(rng: np.random.Generator, size: tuple[int, int], duration: float) -> Lighting:
        width, height = size
        ys, xs = np.mgrid[0:height, 0:width].astype(np.float32)
        cx, cy = rng.uniform(0, width), rng.uniform(0, height)
        spread = rng.uniform(0.5, 1.2) * width
        pool = 0.75 + 0.4 * np.exp(-((xs - cx) ** 2 + (ys - cy) ** 2) / (2 * spread ** 2))
        tint = np.array([rng.uniform(0.75, 1.1), rng.uniform(0.92, 1.05), rng.uniform(0.9, 1.15)], np.float32)
        gx, gy = rng.uniform(0, width), rng.uniform(0, height)
        glare = rng.uniform(0, 0.5) * np.exp(-((xs - gx) ** 2 + (ys - gy) ** 2) / (2 * rng.uniform(8, 30) ** 2))
        lamp = pool[..., None] * tint + glare[..., None]
        count = int(rng.poisson(duration / 60))
        switches = tuple(sorted((float(rng.uniform(0, duration)), float(rng.uniform(-0.2, 0.2))) for _ in range(count)))
        return Lighting(lamp.astype(np.float32), float(rng.uniform(0.02, 0.08)), float(rng.uniform(8, 30)),
                        float(rng.uniform(0, 2 * math.pi)), switches, float(rng.uniform(1.5, 5)))

    def gain(self, t: float) -> float:
        """The room's brightness at ``t``: a slow drift, and a lamp switched on or off now and then."""
        level = 1 + self.drift * math.sin(2 * math.pi * t / self.drift_period + self.phase)
        for when, step in self.switches:
            level += step * min(max((t - when) / 0.4, 0.0), 1.0)
        return level


class TableVideo:
    """A frame source over a script: the frames a camera above the scripted table would take."""

    live = False

    def __init__(self, script: Script, seed: int, fps: float = 30.0, table: str | None = None) -> None:
        rng = np.random.default_rng(seed)
        self.script, self.fps, self.name = script, fps, f"sim:{seed}"
        width, height = script.frame_size
        kind = table or list(TABLES)[int(rng.integers(len(TABLES)))]
        self.table = TABLES[kind](rng, (height, width))
        self.table_colour = self.table.reshape(-1, 3).mean(axis=0)
        self.light = Lighting.random(rng, script.frame_size, script.duration)
        self.focus = float(rng.uniform(0, 0.9))
        design = render.DESIGNS[int(rng.integers(len(render.DESIGNS)))]
        self.faces = _Faces(rng, design, script.layout.card_height)
        self.noise = [_noise(rng, (height, width), self.light.noise) for _ in range(4)]
        self.back_pile = [self.faces.placed_back(script.layout.draw.centre, rng) for _ in range(3)]
        self.piles: dict[str, list[Placed]] = {"discard": [], "reveal": []}
        self.next_change = 0
        self.painted_until = 0.0
        self.layer = self._paint_layer()

    def frames(self) -> Iterator[Frame]:
        for k in range(int(self.script.duration * self.fps)):
            t = k / self.fps
            yield Frame(self.frame_at(t), t)

    def close(self) -> None:
        """Nothing to let go of: the video is painted as it is read."""

    def frame_at(self, t: float) -> Image:
        """The frame at ``t``. Frames are painted in time order; going back in time lays the table out afresh."""
        if t < self.painted_until:
            self.piles, self.next_change = {"discard": [], "reveal": []}, 0
            self.layer = self._paint_layer()
        self.painted_until = t
        self._apply_changes(t)
        frame = self.layer.copy()
        arms = [reach for reach in self.script.reaches if reach.start <= t <= reach.end]
        if arms:
            _shadow(frame, arms, t)
            for reach in arms:
                self._paint_arm(frame, reach, t)
        frame = cv2.convertScaleAbs(frame, alpha=self.light.gain(t))
        up, down = self.noise[int(t * self.fps) % len(self.noise)]
        return cv2.subtract(cv2.add(frame, up), down)

    def _apply_changes(self, t: float) -> None:
        reaches = self.script.reaches
        changed = False
        while self.next_change < len(reaches) and reaches[self.next_change].arrival <= t:
            change = reaches[self.next_change].change
            if isinstance(change, Lay):
                self.piles[change.zone].extend(change.cards)
                changed = True
            elif isinstance(change, Lift):
                pile = self.piles[change.zone]
                del pile[len(pile) - (change.count or len(pile)):]
                changed = True
            self.next_change += 1
        if changed:
            self.layer = self._paint_layer()

    def _paint_layer(self) -> Image:
        canvas = self.table.copy()
        for corners in self.back_pile:
            _paste(canvas, self.faces.back, corners)
        for placed in self.piles["discard"] + self.piles["reveal"]:
            _paste(canvas, self.faces.face(placed.card), self.faces.corners(placed.centre, placed.angle))
        if self.focus > 0.3:
            canvas = cv2.GaussianBlur(canvas, (0, 0), self.focus)
        return np.clip(canvas * self.light.lamp, 0, 255).astype(np.uint8)

    def _paint_arm(self, frame: Image, reach: Reach, t: float) -> None:
        tip = reach.tip(t)
        assert tip is not None
        direction = np.subtract(reach.target, reach.entry)
        direction = direction / (np.linalg.norm(direction) or 1.0)
        held = self._held(reach, t)
        if held is not None:
            at = np.asarray(tip) - direction * reach.hand * 0.45
            _paste(frame, held[0], self.faces.corners((float(at[0]), float(at[1])), held[1]))
        row, column = int(min(max(tip[1], 0), frame.shape[0] - 1)), int(min(max(tip[0], 0), frame.shape[1] - 1))
        lit = self.light.lamp[row, column]
        skin = _lit(reach.skin, lit)
        wrist = np.asarray(tip) - direction * reach.hand
        shoulder = np.asarray(reach.entry) - direction * reach.width * 3
        width = max(2, round(reach.width))
        cv2.line(frame, _px(shoulder), _px(wrist), _lit(self._sleeve(reach.sleeve), lit), width, cv2.LINE_AA)
        forearm = wrist - direction * reach.width * 0.8
        cv2.line(frame, _px(forearm), _px(wrist), skin, max(2, round(reach.width * 0.8)), cv2.LINE_AA)
        palm = wrist + direction * reach.hand * 0.5
        angle = math.degrees(math.atan2(direction[1], direction[0]))
        axes = (max(1, round(reach.hand * 0.5)), max(1, round(reach.width * (1.5 if reach.leaning else 0.6))))
        cv2.ellipse(frame, _px(palm), axes, angle, 0, 360, _lit(reach.skin, lit * 0.8), -1, cv2.LINE_AA)
        inner = (max(1, axes[0] - 2), max(1, axes[1] - 2))
        cv2.ellipse(frame, _px(palm), inner, angle, 0, 360, skin, -1, cv2.LINE_AA)

    def _sleeve(self, colour: tuple[int, int, int]) -> tuple[int, int, int]:
        """The sleeve's colour, made to stand out from the table: nobody is invisible to a camera above them.

        A sleeve the exact colour of the cloth would still show by its folds and shading, which are not painted.
        """
        table = self.table_colour
        if max(abs(c - t) for c, t in zip(colour, table, strict=True)) >= CONTRAST:
            return colour
        b, g, r = (int(c + CONTRAST if t < 128 else c - CONTRAST) for c, t in zip(colour, table, strict=True))
        return min(max(b, 0), 255), min(max(g, 0), 255), min(max(r, 0), 255)

    def _held(self, reach: Reach, t: float) -> tuple[tuple[Image, Image], float] | None:
        """The card in the hand and its angle: the first card of a lay on the way in, a drawn card on the way out."""
        if t < reach.arrival and isinstance(reach.change, Lay):
            card = reach.change.cards[0]
            return self.faces.face(card.card), card.angle
        if t > reach.arrival + reach.dwell and reach.carries_out:
            return self.faces.back, 0.3
        return None


class _Faces:
    """One deck's faces, shrunk once to the size they lie on the table so that pasting them stays cheap."""

    def __init__(self, rng: np.random.Generator, design: render.Design, card_height: float) -> None:
        self.rng, self.design = rng, design
        self.deck = render.Deck.random(rng, design)
        self.height = card_height
        self.size = (max(2, round(card_height / CARD_ASPECT * 2)), max(2, round(card_height * 2)))
        self.cache: dict[Card, tuple[Image, Image]] = {}
        self.back = self._shrink(render.render_blank("back", rng))

    def face(self, card: Card) -> tuple[Image, Image]:
        if card not in self.cache:
            self.cache[card] = self._shrink(render.render_card(card, self.design, self.rng, self.deck))
        return self.cache[card]

    def corners(self, centre: tuple[float, float], angle: float) -> np.ndarray:
        return scene.card_corners(centre, self.height, angle, self.rng, perspective=0.0)

    def placed_back(self, centre: tuple[float, float], rng: np.random.Generator) -> np.ndarray:
        jitter = rng.normal(0, 1.2, 2)
        return self.corners((centre[0] + jitter[0], centre[1] + jitter[1]), float(rng.normal(0, 0.08)))

    def _shrink(self, face: tuple[Image, Image]) -> tuple[Image, Image]:
        return (cv2.resize(face[0], self.size, interpolation=cv2.INTER_AREA),
                cv2.resize(face[1], self.size, interpolation=cv2.INTER_AREA))


def _paste(canvas: Image, face: tuple[Image, Image], corners: np.ndarray) -> None:
    """``scene.paste`` into the patch of ``canvas`` the card covers: a card is small beside a whole frame."""
    x0, y0 = np.maximum(np.floor(corners.min(axis=0)).astype(int) - 1, 0)
    x1, y1 = np.minimum(np.ceil(corners.max(axis=0)).astype(int) + 2, (canvas.shape[1], canvas.shape[0]))
    if x1 > x0 and y1 > y0:
        scene.paste(canvas[y0:y1, x0:x1], *face, (corners - np.array([x0, y0], np.float32)).astype(np.float32))


def _noise(rng: np.random.Generator, shape: tuple[int, int], sigma: float) -> tuple[Image, Image]:
    """Sensor noise as what to add and what to take away, so that it applies with saturating uint8 sums."""
    values = rng.normal(0, sigma, (*shape, 3))
    return (np.clip(values, 0, 255).astype(np.uint8), np.clip(-values, 0, 255).astype(np.uint8))


def _shadow(frame: Image, arms: list[Reach], t: float) -> None:
    """Darken the table under the arms, offset and soft, as a lamp above one side would."""
    height, width = frame.shape[:2]
    small = np.zeros((height // 4, width // 4), np.uint8)
    for reach in arms:
        tip = reach.tip(t)
        assert tip is not None
        offset = np.array([reach.width * 0.25, reach.width * 0.3])
        start, end = (np.asarray(reach.entry) + offset) / 4, (np.asarray(tip) + offset) / 4
        cv2.line(small, _px(start), _px(end), 255, max(1, round(reach.width / 4)))
    small = cv2.blur(small, (5, 5))
    mask = cv2.resize(small, (width, height), interpolation=cv2.INTER_LINEAR)
    darken = cv2.multiply(frame, cv2.merge([mask, mask, mask]), scale=0.4 / 255)
    cv2.subtract(frame, darken, dst=frame)


def _lit(colour: tuple[int, int, int], light: np.ndarray | float) -> tuple[int, int, int]:
    b, g, r = (int(min(255, max(0, c * float(k)))) for c, k in zip(colour, np.broadcast_to(light, 3), strict=True))
    return b, g, r


def _px(point: np.ndarray | tuple[float, float]) -> tuple[int, int]:
    return round(float(point[0])), round(float(point[1]))
