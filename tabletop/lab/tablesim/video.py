"""The table simulator's camera: the overhead video of a scripted game, frame by frame, deterministic per seed.

The table and whatever lies on it is painted once per change as seen straight down, lit, and seen through the
camera (straight down or turned a little off, ``camera.py``) into a layer; each frame then adds the arms with
their shadows (``arms.py``), the room's drifting and switching light, the camera's exposure following the arms,
and sensor noise. That keeps a frame to a few milliseconds, so whole rounds run inside the tests.

The camera's turn, its exposure and the shadows draw from a generator of their own, so that adding them did not
change the table, the light and the deck that each seed films; so does the film's look (``film.py``): the
webcam's compression, the lights' flicker, the shutter's motion blur, the deck's wear, the players' hands holding
their cards at the table's edge (``holders.py``) and the cups and phones on the table
(``tabletop.lab.drawing.clutter``). With a folder of photographs of real cards, the cards face up are those.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from tabletop.game.cards import Card
from tabletop.lab.drawing import clutter, hands, render, scene
from tabletop.lab.tablesim.arms import Arms, Held, Room
from tabletop.lab.tablesim.camera import Camera
from tabletop.lab.tablesim.film import Look, generator
from tabletop.lab.tablesim.holders import Holders
from tabletop.lab.tablesim.photos import CardPhotos
from tabletop.lab.tablesim.script import Lay, Lift, Placed, Reach, Script
from tabletop.sources import Box, Frame
from tabletop.vision.crop import CARD_ASPECT, Image
from tabletop.watcher.layout import Layout, Point

TABLES = {"wood": scene.wood, "felt": scene.felt, "cloth": scene.cloth, "plain": scene.plain, "pale": scene.pale}
"""The tables filmed: pale ones are white, cream or grey paper, laminate or cloth, on which a card's white
border does not stand out."""
METERING = 2.0
"""How much more the middle of the picture, where arms reach, counts in the camera's exposure than its average."""
STRAIGHT = np.random.default_rng(0)
"""Draws for ``scene.card_corners`` where no skew is wanted: they are multiplied by nought."""


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
        return Lighting(lamp.astype(np.float32), float(rng.uniform(0.04, 0.15)), float(rng.uniform(8, 30)),
                        float(rng.uniform(0, 2 * math.pi)), switches, float(rng.uniform(1.5, 5)))

    def gain(self, t: float) -> float:
        """The room's brightness at ``t``: a slow drift, and a lamp switched on or off now and then."""
        level = 1 + self.drift * math.sin(2 * math.pi * t / self.drift_period + self.phase)
        for when, step in self.switches:
            level += step * min(max((t - when) / 0.4, 0.0), 1.0)
        return level


@dataclass(frozen=True)
class Exposure:
    """The camera's automatic exposure. It keeps a white table from burning out (its mean no brighter than
    ``ceiling``), and it answers how bright the picture was ``lag`` seconds before, ``strength`` of the way: a
    room growing brighter darkens the picture a moment later, and a dark sleeve coming in over a pale table
    brightens it, a pale one over a dark cloth darkens it."""

    ceiling: float
    strength: float
    lag: float

    @staticmethod
    def random(rng: np.random.Generator) -> Exposure:
        return Exposure(float(rng.uniform(185, 230)), float(rng.uniform(0.3, 0.9)), float(rng.uniform(0.1, 0.3)))

    def base(self, table: Image) -> float:
        """The gain for the bare ``table`` as the lamp lights it: a dark table keeps the lamp's exposure."""
        return min(1.0, self.ceiling / max(float(cv2.cvtColor(table, cv2.COLOR_BGR2GRAY).mean()), 1.0))

    def gain(self, room: float, dimming: float) -> float:
        """The gain that answers the room's light at ``room`` times its first, and the arms in view changing the
        picture's mean brightness by ``dimming`` (a share)."""
        return float((room * (1 + METERING * dimming)) ** -self.strength)


@dataclass(frozen=True)
class _Drop:
    """The soft line of shadow a card's edge casts on what lies beneath: it shows how deep a pile is."""

    offset: tuple[float, float]
    softness: float
    strength: float


class TableVideo:
    """A frame source over a script: the frames a camera above the scripted table would take.

    ``layout`` is the table's layout as the camera sees it, which a calibration would measure. With ``detail``
    (a whole number above 1), each frame also carries the same view with that many times the pixels each way, as
    a camera's large stream, painted only where the watcher cuts it (see ``tabletop.sources.Detail``). ``faces``
    names a folder of photographs of real cards to lay face up instead of rendered faces (``photos.py``), and
    ``look`` how the film looks (by default the seed's).
    """

    live = False

    def __init__(self, script: Script, seed: int, fps: float = 30.0, table: str | None = None,
                 tilt: float | None = None, detail: int = 1, faces: Path | None = None,
                 look: Look | None = None) -> None:
        photos = {} if faces is None else CardPhotos.read(faces).faces(generator(seed, "photographs"))
        rng, own = np.random.default_rng(seed), np.random.default_rng((seed, 1))
        self.script, self.fps, self.name, self.seed = script, fps, f"sim:{seed}", seed
        self.look = look or Look.random(seed)
        self.camera = Camera.random(own, script.frame_size, tilt)
        margin = self.camera.margin
        width, height = script.frame_size
        self.kind = table or list(TABLES)[int(rng.integers(len(TABLES)))]
        texture = TABLES[self.kind](rng, (height + 2 * margin, width + 2 * margin))
        light = Lighting.random(rng, (width + 2 * margin, height + 2 * margin), script.duration)
        self.light = light
        focus = float(rng.uniform(0, 0.9))
        design = render.DESIGNS[int(rng.integers(len(render.DESIGNS)))]
        card_height = script.layout.card_height
        self.faces = _Faces(rng, design, photos, self.look, seed)
        self.noise = [_noise(rng, (height, width), light.noise) for _ in range(4)]
        back_pile = [self.faces.placed_back(script.layout.draw.centre, card_height, rng) for _ in range(3)]
        self.exposure = Exposure.random(own)
        towards = own.uniform(0, 2 * math.pi)
        shadow = (math.cos(towards), math.sin(towards))
        strength = float(own.uniform(0.2, 0.5))
        drop = card_height * own.uniform(0.01, 0.03)
        edge = _Drop((shadow[0] * drop, shadow[1] * drop), 0.5 + card_height * 0.01, float(own.uniform(0.2, 0.45)))
        self.layout: Layout = self.camera.layout(script.layout)
        self.piles: dict[str, list[Placed]] = {"discard": [], "reveal": []}
        self.next_change = 0
        self.painted_until = 0.0
        things = clutter.scatter(generator(seed, "things"), self.look.clutter, card_height, script.frame_size,
                                 lambda point: _from_zones(script.layout, point), card_height)
        self.canvas = _Canvas(1, self.camera, texture, light.lamp, focus, self.faces, card_height, edge, back_pile,
                              things)
        self.detail = detail
        self._sharp: _Canvas | None = None
        self.canvas.repaint(self.piles)
        room = Room(light.lamp, margin, shadow, strength, self.canvas.layer.reshape(-1, 3).mean(axis=0))
        self.arms = Arms(self.camera, card_height, room, seed, self.look.shutter)
        self.holders = Holders([])
        if self.look.holding:
            self.holders = Holders.drawn(self.layout, script.frame_size, self.faces.back(self.layout.card_height),
                                         room, _dress(script), seed, generator(seed, "holders"), script.duration,
                                         _first_card(script))
        self._held_layer: tuple[object, Image] | None = None
        self.rows = (np.arange(height) + 0.5) / height
        """Where each row of the frame lies, as a share of its height from the top: the rolling shutter's time."""
        self.dimmings: dict[int, float] = {}
        self.base_gain = self.exposure.base(self.canvas.layer)

    def frames(self) -> Iterator[Frame]:
        for k in range(int(self.script.duration * self.fps)):
            yield self.frame(k / self.fps)

    def frame(self, t: float) -> Frame:
        """The frame at ``t``, with its detail where the video has one."""
        image = self.frame_at(t)
        return Frame(image, t, None if self.detail == 1 else _SimDetail(self, t, self.next_change, image))

    def close(self) -> None:
        """Nothing to let go of: the video is painted as it is read."""

    def frame_at(self, t: float) -> Image:
        """The frame at ``t``. Frames are painted in time order; going back in time lays the table out afresh."""
        if t < self.painted_until:
            self.piles, self.next_change = {"discard": [], "reveal": []}, 0
            self.canvas.repaint(self.piles)
            self._sharp = None
        self.painted_until = t
        self._apply_changes(t)
        frame = self._with_holders(t).copy()
        for index, reach in enumerate(self.script.reaches):
            if reach.start <= t <= reach.end:
                self.arms.draw(frame, index, reach, t, self._held(reach, t))
        frame = cv2.convertScaleAbs(self.look.flicker.banded(frame, t, self.rows), alpha=self._gain(t))
        up, down = self.noise[int(t * self.fps) % len(self.noise)]
        return self.look.compression.apply(cv2.subtract(cv2.add(frame, up), down))

    def sharp_region(self, t: float, box: Box) -> Image:
        """The region ``box`` of the frame at ``t`` painted at ``detail`` times the pixels: the table as it lies
        now (the watcher cuts only zones that held still), the hands and arms as they were at ``t``, the light's
        flicker, sensor noise of its own, and the compression of the whole large picture."""
        k = self.detail
        if self._sharp is None:
            self._sharp = self.canvas.scaled(k)
        self._sharp.catch_up(self.canvas)
        layer = self._sharp.layer
        wanted = (box[0] * k, box[1] * k, box[2] * k, box[3] * k)
        left, top, right, bottom = self.look.compression.blocks(wanted, (layer.shape[1], layer.shape[0]))
        region = layer[top:bottom, left:right].copy()
        self.holders.draw(region, t, k, (left, top))
        for index, reach in enumerate(self.script.reaches):
            if reach.start <= t <= reach.end:
                self.arms.draw(region, index, reach, t, self._held(reach, t), scale=k, origin=(left, top))
        rows = (np.arange(top, top + region.shape[0]) + 0.5) / layer.shape[0]
        region = cv2.convertScaleAbs(self.look.flicker.banded(region, t, rows), alpha=self._gain(t))
        noise = np.random.default_rng((self.seed, 3, round(t * self.fps))).normal(0, self.light.noise, region.shape)
        region = self.look.compression.apply(np.clip(region + noise, 0, 255).astype(np.uint8))
        return region[max(wanted[1] - top, 0):wanted[3] - top, max(wanted[0] - left, 0):wanted[2] - left]

    def _with_holders(self, t: float) -> Image:
        """The table as it lies, with the players' hands holding their cards where they are at ``t``: painted
        again only when a card is laid or a hand fidgets, not every frame."""
        if not self.holders.holders:
            return self.canvas.layer
        key = (self.canvas.repaints, len(self.canvas.laid), self.holders.state(t))
        if self._held_layer is None or self._held_layer[0] != key:
            layer = self.canvas.layer.copy()
            self.holders.draw(layer, t)
            self._held_layer = (key, layer)
        return self._held_layer[1]

    def _gain(self, t: float) -> float:
        return self.light.gain(t) * self.base_gain * self._exposure(t) * self.look.flicker.gain(t)

    def _apply_changes(self, t: float) -> None:
        """Lay the cards that came to the table by ``t`` over what lies there; cards taken away mean the table is
        laid out again."""
        reaches = self.script.reaches
        while self.next_change < len(reaches) and reaches[self.next_change].arrival <= t:
            change = reaches[self.next_change].change
            if isinstance(change, Lay):
                self.piles[change.zone].extend(change.cards)
                self.canvas.lay_cards(list(change.cards))
            elif isinstance(change, Lift):
                pile = self.piles[change.zone]
                del pile[len(pile) - (change.count or len(pile)):]
                self.canvas.repaint(self.piles)
            self.next_change += 1

    def _exposure(self, t: float) -> float:
        """The camera's exposure at ``t``: it answers the room's light and the arms in view a moment before."""
        seen = t - self.exposure.lag
        dimming = 0.0
        for index, reach in enumerate(self.script.reaches):
            extent = reach.extent(seen)
            if extent is not None:
                if index not in self.dimmings:
                    self.dimmings[index] = self.arms.dimming(reach)
                dimming += extent * self.dimmings[index]
        return self.exposure.gain(self.light.gain(seen), dimming)

    def _held(self, reach: Reach, t: float) -> Held | None:
        """The card in the hand: the first card of a lay on the way in, a drawn card on the way out."""
        height = self.script.layout.card_height
        if t < reach.arrival and isinstance(reach.change, Lay):
            card = reach.change.cards[0]
            return Held(self.faces.face(card.card, height), card.angle, "laid")
        if t > reach.arrival + reach.dwell and reach.carries_out:
            return Held(self.faces.back(height), 0.3, "drawn")
        return None


@dataclass(frozen=True)
class _SimDetail:
    """The simulator's frame at ``t`` with ``video.detail`` times the pixels, painted only where it is cut.

    It is painted over the table as it lies when it is cut, so it is cut while the table still lies as it did at
    ``t`` (the watcher cuts the frames a zone held still in, at once). Cut later, after cards came or went (frames
    painted ahead and kept, as a benchmark keeps them), it is the frame's own small picture scaled up: the same
    view and cost, not a table that had not happened yet.
    """

    video: TableVideo
    t: float
    changes: int
    """How many of the script's changes the table had seen at ``t``."""
    image: Image

    @property
    def scale(self) -> float:
        return float(self.video.detail)

    def cut(self, box: Box) -> np.ndarray:
        if self.video.next_change == self.changes:
            return self.video.sharp_region(self.t, box)
        k = self.video.detail
        left, top, right, bottom = box
        region = self.image[top:bottom, left:right]
        return cv2.resize(region, (region.shape[1] * k, region.shape[0] * k), interpolation=cv2.INTER_CUBIC)


class _Canvas:
    """The table with what lies on it, painted as seen straight down at ``scale`` times the frame's pixels, lit,
    and seen through the camera: the layer each frame starts from.

    A point of the straight-down view at ``p`` (frame pixels) lies at ``(p + 0.5) * scale - 0.5`` in a canvas of
    ``scale``, pixel middles on whole numbers, as a camera's large stream lies under its small one.
    """

    def __init__(self, scale: int, camera: Camera, texture: Image, lamp: np.ndarray, focus: float, faces: _Faces,
                 card_height: float, drop: _Drop, back_pile: list[np.ndarray], things: list[clutter.Thing]) -> None:
        self.scale, self.camera, self.bare, self.lamp, self.focus = scale, camera, texture, lamp, focus
        self.faces, self.card_height, self.drop, self.back_pile = faces, card_height, drop, back_pile
        self.things = things
        self.texture = texture.copy() if things else texture
        """The table with the things on it, painted at this canvas's scale: the same cup at every scale."""
        for thing in things:
            clutter.paint(self.texture, thing, scale, camera.margin / scale)
        self.surface = self.texture
        self.layer = self.texture
        self.laid: list[Placed] = []
        """The cards laid since the table was last painted afresh, in order."""
        self.repaints = 0
        """How many times the table was painted afresh (cards taken away), so a sharper canvas knows to."""

    def scaled(self, k: int) -> _Canvas:
        """The same table at ``k`` times this canvas's pixels (an empty canvas, painted on ``repaint``)."""
        size = (self.bare.shape[1] * k, self.bare.shape[0] * k)
        return _Canvas(k, self.camera.scaled(k), cv2.resize(self.bare, size, interpolation=cv2.INTER_LINEAR),
                       cv2.resize(self.lamp, size, interpolation=cv2.INTER_LINEAR), self.focus * k, self.faces,
                       self.card_height, _Drop((self.drop.offset[0] * k, self.drop.offset[1] * k),
                                               self.drop.softness * k, self.drop.strength), self.back_pile,
                       self.things)

    def repaint(self, piles: dict[str, list[Placed]]) -> None:
        """The bare table with the draw pile, and every card of ``piles`` laid on it again."""
        self.repaints += 1
        self.laid = []
        self.surface = self.texture.copy()
        for corners in self.back_pile:
            self._lay(self.faces.back(self.card_height * self.scale), corners)
        self.layer = self._light_layer()
        self.lay_cards(piles["discard"] + piles["reveal"])

    def catch_up(self, other: _Canvas) -> None:
        """Paint what ``other`` (the same table at another scale) has painted since this canvas last looked."""
        if self.repaints != other.repaints:
            self.repaint({"discard": [], "reveal": []})
            self.repaints = other.repaints
        self.lay_cards(other.laid[len(self.laid):])

    def lay_cards(self, cards: list[Placed]) -> None:
        """Lay ``cards`` in turn and light again only the part of the picture they changed."""
        if not cards:
            return
        boxes = [self._lay(self.faces.face(placed.card, self.card_height * self.scale),
                           self.faces.corners(placed.centre, self.card_height, placed.angle)) for placed in cards]
        self.laid += cards
        (x0, y0), (x1, y1) = np.min([b[:2] for b in boxes], axis=0), np.max([b[2:] for b in boxes], axis=0)
        self._relight((int(x0), int(y0), int(x1), int(y1)))

    def _lay(self, face: tuple[Image, Image], corners: np.ndarray) -> tuple[int, int, int, int]:
        """A card (its corners in the straight-down view) on the surface, with the shadow its edge casts on what
        lies beneath; the box of the surface it changed."""
        k = self.scale
        at = ((corners + self.camera.margin / k + 0.5) * k - 0.5).astype(np.float32)
        surface, drop = self.surface, self.drop
        pad = math.ceil(max(abs(drop.offset[0]), abs(drop.offset[1])) + 3 * drop.softness + 2)
        x0, y0 = np.maximum(np.floor(at.min(axis=0)).astype(int) - pad, 0)
        x1, y1 = np.minimum(np.ceil(at.max(axis=0)).astype(int) + pad, (surface.shape[1], surface.shape[0]))
        if x1 > x0 and y1 > y0:
            silhouette = np.zeros((y1 - y0, x1 - x0), np.float32)
            cv2.fillConvexPoly(silhouette, np.round((at - [x0, y0]) * 4).astype(np.int32), 1.0, cv2.LINE_AA, shift=2)
            hands.shadow(surface[y0:y1, x0:x1], silhouette, drop.offset, drop.softness, drop.strength)
        scene.paste(surface, *face, at)
        return int(x0), int(y0), int(x1), int(y1)

    def _light_layer(self) -> Image:
        """The table as the camera sees it: focus, lamp and the camera's turn."""
        return self.camera.view(self._lit(self.surface, self.lamp))

    def _lit(self, surface: Image, lamp: np.ndarray) -> Image:
        if self.focus > 0.3 * self.scale:
            surface = cv2.GaussianBlur(surface, (0, 0), self.focus)
        return np.clip(surface * lamp, 0, 255).astype(np.uint8)

    def _relight(self, changed: tuple[int, int, int, int]) -> None:
        """Light and see again the part of the picture over the surface's ``changed`` box: a card is small beside
        the table, and a sharper canvas has many pixels to light."""
        reach = math.ceil(3 * self.focus) + 2
        height, width = self.surface.shape[:2]
        x0, y0 = max(changed[0] - reach, 0), max(changed[1] - reach, 0)
        x1, y1 = min(changed[2] + reach, width), min(changed[3] + reach, height)
        if x1 <= x0 or y1 <= y0:
            return
        lit = self._lit(self.surface[y0:y1, x0:x1], self.lamp[y0:y1, x0:x1])
        inner = (changed[0] - x0, changed[1] - y0, changed[2] - x0, changed[3] - y0)
        self.camera.view_patch(self.layer, lit, (x0, y0), inner)


class _Faces:
    """One deck's faces, drawn once each and shrunk once to each size they lie on the table at, so that pasting
    them stays cheap."""

    def __init__(self, rng: np.random.Generator, design: render.Design, photos: dict[Card, tuple[Image, Image]],
                 look: Look, seed: int) -> None:
        self.rng, self.design, self.photos, self.look, self.seed = rng, design, photos, look, seed
        self.deck = render.Deck.random(rng, design)
        self.drawn: dict[Card, tuple[Image, Image]] = {}
        self.shrunk: dict[tuple[Card | None, int], tuple[Image, Image]] = {}
        self.back_face = render.render_blank("back", rng)

    def face(self, card: Card, height: float) -> tuple[Image, Image]:
        """The face of ``card`` for a card ``height`` pixels tall: its photograph where there is one, else drawn;
        worn as the film's deck is, each card from a generator of its own, so however the film is read."""
        if card not in self.drawn:
            image, mask = self.photos[card] if card in self.photos else render.render_card(card, self.design,
                                                                                           self.rng, self.deck)
            self.drawn[card] = self.look.worn(image, generator(self.seed, f"wear {card.name}")), mask
        return self._shrink(card, self.drawn[card], height)

    def back(self, height: float) -> tuple[Image, Image]:
        return self._shrink(None, self.back_face, height)

    def corners(self, centre: tuple[float, float], height: float, angle: float) -> np.ndarray:
        return scene.card_corners(centre, height, angle, STRAIGHT, perspective=0.0)

    def placed_back(self, centre: tuple[float, float], height: float, rng: np.random.Generator) -> np.ndarray:
        jitter = rng.normal(0, 1.2, 2)
        return self.corners((centre[0] + jitter[0], centre[1] + jitter[1]), height, float(rng.normal(0, 0.08)))

    def _shrink(self, card: Card | None, face: tuple[Image, Image], height: float) -> tuple[Image, Image]:
        """``face`` at twice the size it lies at: pasting warps it down the rest of the way."""
        key = (card, round(height))
        if key not in self.shrunk:
            tall = min(round(height * 2), face[0].shape[0])
            size = (max(2, round(tall / CARD_ASPECT)), max(2, tall))
            self.shrunk[key] = (cv2.resize(face[0], size, interpolation=cv2.INTER_AREA),
                                cv2.resize(face[1], size, interpolation=cv2.INTER_AREA))
        return self.shrunk[key]


def _first_card(script: Script) -> float:
    """When the first card is laid on the table: players hold their hands from then on. A script that lays none
    (people reaching in to teach the table their seats) has nobody holding cards."""
    return next((reach.start for reach in script.reaches if isinstance(reach.change, Lay)), math.inf)


def _dress(script: Script) -> dict[int, tuple[tuple[int, int, int], tuple[int, int, int]]]:
    """Each seat's sleeve and skin: as the script dressed its players, or, in a script written by hand, as the
    seat's arms come in; a seat that never reaches in has none."""
    dress = dict(enumerate(zip(script.sleeves, script.skins, strict=True)))
    for reach in script.reaches:
        dress.setdefault(reach.seat, (reach.sleeve, reach.skin))
    return dress


def _from_zones(layout: Layout, point: Point) -> float:
    """How far ``point`` lies from the nearest zone of ``layout`` (0 inside one)."""
    piles = [math.dist(point, circle.centre) - circle.radius for circle in (layout.discard, layout.draw)]
    box = layout.reveal
    dx, dy = max(box.left - point[0], 0.0, point[0] - box.right), max(box.top - point[1], 0.0, point[1] - box.bottom)
    return max(0.0, min(*piles, math.hypot(dx, dy)))


def _noise(rng: np.random.Generator, shape: tuple[int, int], sigma: float) -> tuple[Image, Image]:
    """Sensor noise as what to add and what to take away, so that it applies with saturating uint8 sums."""
    values = rng.normal(0, sigma, (*shape, 3))
    return (np.clip(values, 0, 255).astype(np.uint8), np.clip(-values, 0, 255).astype(np.uint8))
