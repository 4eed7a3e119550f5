"""The table simulator's arms as the camera sees them: a sleeve from the picture's edge, the bare forearm, the
palm, fingers and thumb (``tabletop.lab.drawing.hands``), the card the hand holds, and their soft shadow.

An arm keeps its pose while it reaches in and out, so each reach is drawn once, as it looks at full reach, and
every frame lays that drawing where the arm has got to: drawing a shaded hand costs more than the rest of a
frame. Arms are drawn in the picture, over the table the camera sees, so that a turned camera needs no second
warp per frame; the way each arm goes is the way its reach goes on the table, seen through the camera. An arm
moving while the shutter is open is smeared along its way, each drawing once for each of a few lengths of smear.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from tabletop.lab.drawing import hands, scene
from tabletop.lab.tablesim.camera import Camera
from tabletop.lab.tablesim.script import Reach, to_edge
from tabletop.vision.crop import Image
from tabletop.watcher.layout import Point

CONTRAST = 70
"""How far a sleeve's colour stays from the table's, in the channel that differs most."""
CARD_AT = 0.55
"""Where along the hand (wrist 0, fingertips 1) the middle of a held card lies: under the palm's front."""
SHADOW_REACH = 0.12
"""How far an arm's shadow falls from it, in hand lengths: the lamp is off to one side of the table."""
SHADOW_SOFTNESS = 0.1
"""How soft an arm's shadow is, in hand lengths."""
STREAK = 1.5
"""An arm's smear while the shutter is open is rounded to a power of this many pixels, so that each arm is
smeared once for each of a few lengths, not once a frame."""


@dataclass(frozen=True)
class Held:
    """A card in the hand: its face and mask, how it is turned, and a name that tells it from the other cards
    the same reach may hold (a card laid on the way in, a card drawn on the way out)."""

    face: tuple[Image, Image]
    angle: float
    name: str


@dataclass(frozen=True)
class Room:
    """The room's light as the arms meet it: the lamp's colour over the painted table (the straight-down view
    with ``margin`` round it), which way shadows fall and how dark they are, and the bare table's mean colour."""

    lamp: np.ndarray
    margin: int
    shadow: Point
    """The direction a shadow falls, as a unit vector in the picture."""
    strength: float
    table: np.ndarray
    """The table's mean colour in the picture, BGR."""

    def lamp_at(self, point: Point) -> np.ndarray:
        height, width = self.lamp.shape[:2]
        row = min(max(round(point[1]) + self.margin, 0), height - 1)
        column = min(max(round(point[0]) + self.margin, 0), width - 1)
        return np.asarray(self.lamp[row, column], np.float64)


@dataclass(frozen=True)
class _Path:
    """Where a reach goes in the picture: the held card's middle at full reach, the way the arm points, the hand's
    length, where the arm crosses the picture's edge, and the fingertips' way in, from a hand's length outside
    the picture to just past the card."""

    anchor: np.ndarray
    direction: np.ndarray
    hand: float
    edge: np.ndarray
    travel: np.ndarray

    def shift(self, extent: float) -> tuple[int, int]:
        """How far from full reach the arm is drawn at ``extent`` (0 outside the picture, 1 at full reach)."""
        dx, dy = -(1 - extent) * self.travel
        return round(float(dx)), round(float(dy))

    def along(self, forward: float) -> np.ndarray:
        """The point ``forward`` hand lengths past the held card's middle, at full reach."""
        return self.anchor + self.direction * forward * self.hand


@dataclass(frozen=True)
class Sprite:
    """An arm drawn at full reach (or a hand holding its cards): its colours, how much of each pixel it covers, and
    the light its shadow leaves (255 none taken, the same in each channel), over a box whose top left corner lies
    at ``origin`` in the picture."""

    colour: Image
    alpha: np.ndarray
    light: Image
    origin: tuple[int, int]

    def lay(self, frame: Image, shift: tuple[int, int], origin: tuple[int, int] = (0, 0)) -> None:
        """Shade and cover ``frame`` (in place) with the arm moved by ``shift`` from full reach; ``frame`` is the
        region of the picture whose top left corner lies at ``origin``."""
        x0, y0 = self.origin[0] + shift[0] - origin[0], self.origin[1] + shift[1] - origin[1]
        height, width = self.alpha.shape
        fx0, fy0 = max(x0, 0), max(y0, 0)
        fx1, fy1 = min(x0 + width, frame.shape[1]), min(y0 + height, frame.shape[0])
        if fx1 <= fx0 or fy1 <= fy0:
            return
        inside = (slice(fy0 - y0, fy1 - y0), slice(fx0 - x0, fx1 - x0))
        patch = frame[fy0:fy1, fx0:fx1]
        shaded = cv2.multiply(patch, self.light[inside], scale=1 / 255)
        alpha = np.ascontiguousarray(self.alpha[inside])
        patch[:] = cv2.blendLinear(shaded, np.ascontiguousarray(self.colour[inside]), 1 - alpha, alpha)

    def scaled(self, k: int) -> Sprite:
        """The same arm in a picture with ``k`` times the pixels each way."""
        height, width = self.alpha.shape
        size = (width * k, height * k)
        return Sprite(cv2.resize(self.colour, size, interpolation=cv2.INTER_LINEAR),
                      cv2.resize(self.alpha, size, interpolation=cv2.INTER_LINEAR),
                      cv2.resize(self.light, size, interpolation=cv2.INTER_LINEAR),
                      (self.origin[0] * k, self.origin[1] * k))

    def smeared(self, direction: Point, length: int) -> Sprite:
        """The arm as a shutter sees it that stays open while it moves ``length`` pixels along ``direction``: each
        of its pixels spread along that line, its colour weighing as much as it covers, in a box grown to hold
        the smear."""
        pad = length // 2 + 2
        grown = (pad, pad, pad, pad, cv2.BORDER_CONSTANT)
        alpha = cv2.convertScaleAbs(self.alpha, alpha=255)
        covered = cv2.merge([*cv2.split(cv2.multiply(self.colour, cv2.merge([alpha] * 3), scale=1 / 255)), alpha])
        covered = smear(cv2.copyMakeBorder(covered, *grown, value=(0, 0, 0, 0)), direction, length, 0)
        shade = np.ascontiguousarray(self.light[..., 0])
        light = cv2.merge([smear(cv2.copyMakeBorder(shade, *grown, value=255), direction, length, 255)] * 3)
        alpha = np.ascontiguousarray(covered[..., 3])
        colour = cv2.divide(np.ascontiguousarray(covered[..., :3]), cv2.merge([alpha] * 3), scale=255)
        return Sprite(colour, alpha.astype(np.float32) / 255, light, (self.origin[0] - pad, self.origin[1] - pad))


def smear(image: Image, direction: Point, length: int, outside: int) -> Image:
    """``image`` with each pixel spread evenly along a line ``length`` pixels long through it, along
    ``direction``; ``outside`` is what lies beyond the image. The image is turned so that the line runs along
    its rows, smeared there (as fast for a long line as for a short one), and turned back."""
    height, width = image.shape[:2]
    angle = math.degrees(math.atan2(direction[1], direction[0]))
    cos, sin = abs(math.cos(math.radians(angle))), abs(math.sin(math.radians(angle)))
    size = (math.ceil(width * cos + height * sin) + 2, math.ceil(width * sin + height * cos) + 2)
    turn = cv2.getRotationMatrix2D((width / 2, height / 2), angle, 1.0)
    turn[:, 2] += (size[0] / 2 - width / 2, size[1] / 2 - height / 2)
    border = (outside,) * (image.shape[2] if image.ndim == 3 else 1)
    turned = cv2.warpAffine(image, turn, size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT,
                            borderValue=border)
    smeared = cv2.blur(turned, (length + 1, 1), borderType=cv2.BORDER_REPLICATE)
    return cv2.warpAffine(smeared, cv2.invertAffineTransform(turn), (width, height), flags=cv2.INTER_LINEAR,
                          borderMode=cv2.BORDER_CONSTANT, borderValue=border)


class Arms:
    """Draws the players' arms into frames, each reach once (as it looks at full reach) and moved frame by frame.

    Drawings are made from a generator of their own per reach, so that a frame looks the same however the
    video was read up to it.
    """

    def __init__(self, camera: Camera, card_height: float, room: Room, seed: int, shutter: float = 0.0) -> None:
        self.camera, self.card_height, self.room, self.seed = camera, card_height, room, seed
        self.shutter = shutter
        """Seconds the shutter is open for a frame: an arm moving meanwhile is smeared along its way."""
        self.sprites: dict[tuple[int, str], Sprite] = {}
        self.seen: dict[tuple[tuple[int, str], int, int], Sprite] = {}
        """Sprites as frames show them, smeared by moving and scaled up for a picture with more pixels: by their
        sprite's key, the smear's length and the scale."""

    def draw(self, frame: Image, index: int, reach: Reach, t: float, held: Held | None, scale: int = 1,
             origin: tuple[int, int] = (0, 0)) -> None:
        """Lay reach number ``index`` onto ``frame`` as it is at ``t``, holding ``held``. ``frame`` may be a region
        (its top left corner at ``origin``) of a picture with ``scale`` times the pixels each way.

        While the shutter is open the arm moves on: it is drawn where it was halfway through, smeared along its
        way by as far as it went."""
        extent = reach.extent(t)
        if extent is None:
            return
        path = self._path(reach)
        key = (index, "" if held is None else held.name)
        if key not in self.sprites:
            self.sprites = {k: v for k, v in self.sprites.items() if k[0] >= index}
            self.sprites[key] = self._sprite(reach, path, held, np.random.default_rng((self.seed, index)))
        moved = abs(extent - _extent(reach, t - self.shutter)) * float(np.linalg.norm(path.travel))
        sprite = self._seen(key, _streak(moved), scale, path.direction)
        dx, dy = path.shift(_extent(reach, t - self.shutter / 2))
        sprite.lay(frame, (dx * scale, dy * scale), origin)

    def _seen(self, key: tuple[int, str], streak: int, scale: int, direction: np.ndarray) -> Sprite:
        """The sprite of ``key`` smeared ``streak`` pixels along ``direction`` and scaled ``scale`` times, each
        made once: the smear is made at the frame's scale and scaled up with the rest."""
        if streak == 0 and scale == 1:
            return self.sprites[key]
        wanted = (key, streak, scale)
        if wanted not in self.seen:
            self.seen = {k: v for k, v in self.seen.items() if k[0][0] >= key[0]}
            if scale == 1:
                self.seen[wanted] = self.sprites[key].smeared((float(direction[0]), float(direction[1])), streak)
            else:
                self.seen[wanted] = self._seen(key, streak, 1, direction).scaled(scale)
        return self.seen[wanted]

    def dimming(self, reach: Reach) -> float:
        """How much the picture's mean brightness changes, as a share, with ``reach`` at full reach: negative for
        a dark sleeve over a pale table, positive for a pale one over a dark cloth."""
        path = self._path(reach)
        width, height = self.camera.size
        covered = float(np.linalg.norm(path.along(0.45) - path.edge)) * path.hand * 0.5 / (width * height)
        table = float(self.room.table.mean()) + 1
        return covered * (float(np.mean(self._sleeve(reach))) - table) / table

    def _path(self, reach: Reach) -> _Path:
        camera = self.camera
        anchor = np.array(camera.point(reach.target), np.float64)
        toward = anchor - np.array(camera.point(reach.entry), np.float64)
        direction = toward / (np.linalg.norm(toward) or 1.0)
        hand = reach.hand * camera.scale_at(reach.target)
        width, height = camera.size
        back = min(to_edge(float(anchor[0]), -float(direction[0]), width),
                   to_edge(float(anchor[1]), -float(direction[1]), height))
        edge = anchor - direction * max(back, 0.0)
        start = edge - direction * hand
        goal = anchor + direction * (1 - CARD_AT) * hand
        return _Path(anchor, direction, hand, edge, goal - start)

    def _sprite(self, reach: Reach, path: _Path, held: Held | None, rng: np.random.Generator) -> Sprite:
        """The arm at full reach, the card it holds and their shadow, in a box big enough for them."""
        hand = path.hand
        shadow = np.array(self.room.shadow) * SHADOW_REACH * hand
        softness = SHADOW_SOFTNESS * hand
        shoulder = path.edge - path.direction * hand
        corners = None if held is None else self._held_corners(reach, held, rng)
        origin, shape = _box(path, shoulder, reach.leaning, corners, float(np.abs(shadow).max()) + 3 * softness + 2)
        figure = self._figure(reach, path, origin)
        painter = Painter(shape, rng)
        if corners is not None and held is not None:
            painter.card(held.face, (corners - origin).astype(np.float32))
        sleeve, forearm = hands.arm(figure, shape, _point(shoulder - origin))
        if reach.leaning:
            painter.part(_shoulders(figure, shape, path.edge - origin), figure.sleeve, hand * 0.5)
        painter.part(sleeve, figure.sleeve, hand * 0.26)
        painter.part(forearm, figure.skin, hand * 0.17)
        painter.part(hands.palm(figure, shape), figure.skin, hand * 0.2)
        painter.part(np.maximum(hands.fingers(figure, shape), hands.thumb(figure, shape)), figure.skin, hand * 0.08)
        return painter.sprite((round(origin[0]), round(origin[1])), _point(shadow), softness, self.room.strength)

    def _figure(self, reach: Reach, path: _Path, origin: np.ndarray) -> hands.Hand:
        """The hand at full reach, in the box at ``origin``: dressed as its player, and shaped as the player's hand
        always is (how spread and curled its fingers, which side its thumb)."""
        wrist = path.along(-CARD_AT) - origin
        style = np.random.default_rng((self.seed, reach.seat, 0))
        return hands.Hand((float(wrist[0]), float(wrist[1])), math.atan2(path.direction[1], path.direction[0]),
                          path.hand, _float3(self._lit(reach.skin, reach)), _float3(self._sleeve(reach)),
                          float(style.uniform(0, 0.35)), float(style.uniform(0, 0.6)), int(style.choice((-1, 1))))

    def _held_corners(self, reach: Reach, held: Held, rng: np.random.Generator) -> np.ndarray:
        """Where the held card's corners lie in the picture at full reach: over the reach's target."""
        corners = scene.card_corners(reach.target, self.card_height, held.angle, rng, perspective=0.0)
        return self.camera.points(corners).astype(np.float64)

    def _lit(self, colour: tuple[int, int, int], reach: Reach) -> np.ndarray:
        return np.clip(np.array(colour, np.float64) * self.room.lamp_at(reach.target), 0, 255)

    def _sleeve(self, reach: Reach) -> np.ndarray:
        return standing_out(self._lit(reach.sleeve, reach), self.room.table)


def standing_out(colour: np.ndarray, table: np.ndarray) -> np.ndarray:
    """A sleeve's colour under the lamp, made to stand out from the ``table``'s: nobody is invisible to a camera
    above them (a sleeve the exact colour of the cloth would still show by its folds, which are not drawn)."""
    if float(np.abs(colour - table).max()) >= CONTRAST:
        return colour
    return np.clip(np.where(table < 128, colour + CONTRAST, colour - CONTRAST), 0, 255)


class Painter:
    """Lays parts onto an empty box, keeping their colours and how much of each pixel they cover apart, so that
    the drawing can be laid over any frame."""

    def __init__(self, shape: tuple[int, int], rng: np.random.Generator) -> None:
        self.rng = rng
        self.covered = np.zeros((*shape, 3), np.uint8)
        """Each part's colour times how much of the pixel it covers, the parts laid one over another."""
        self.alpha = np.zeros(shape, np.float32)
        self.body = np.zeros(shape, np.float32)

    def card(self, face: tuple[Image, Image], corners: np.ndarray) -> None:
        """The card, and how much of each pixel it covers, warped alike: so its edge keeps its colour."""
        scene.paste(self.covered, *face, corners)
        cover = np.zeros_like(self.covered)
        scene.paste(cover, np.full_like(face[0], 255), face[1], corners)
        self._cover(cover[..., 0].astype(np.float32) / 255)

    def part(self, mask: np.ndarray, colour: tuple[float, float, float], roundness: float) -> None:
        hands.paint(self.covered, mask, colour, self.rng, roundness)
        self._cover(mask)

    def _cover(self, mask: np.ndarray) -> None:
        self.alpha = self.alpha + (1 - self.alpha) * mask
        self.body = np.maximum(self.body, mask)

    def sprite(self, origin: tuple[int, int], shadow: Point, softness: float, strength: float) -> Sprite:
        light = np.full(self.covered.shape, 255, np.uint8)
        hands.shadow(light, self.body, shadow, softness, strength)
        alpha = np.clip(self.alpha, 0, 1)
        colour = np.clip(self.covered / np.maximum(alpha, 1e-3)[..., None], 0, 255).astype(np.uint8)
        return Sprite(colour, alpha, light, origin)


def _box(path: _Path, shoulder: np.ndarray, leaning: bool, corners: np.ndarray | None,
         pad: float) -> tuple[np.ndarray, tuple[int, int]]:
    """The top left corner and the shape of a box round an arm from ``shoulder`` to its fingertips, as broad as a
    hand with its thumb (or someone's shoulders, leaning in), round the card it holds, and ``pad`` more."""
    across = np.array([-path.direction[1], path.direction[0]]) * path.hand * (0.9 if leaning else 0.4)
    ends = np.array([shoulder, path.along(1 - CARD_AT + 0.1)])
    extent = np.concatenate([ends + across, ends - across, *([] if corners is None else [corners])])
    low, high = np.floor(extent.min(axis=0) - pad), np.ceil(extent.max(axis=0) + pad)
    return low, (int(high[1] - low[1]), int(high[0] - low[0]))


def _shoulders(figure: hands.Hand, shape: tuple[int, int], edge: np.ndarray) -> np.ndarray:
    """Someone leaning in shows their shoulders at the table's edge, as broad as two arms and more."""
    mask = np.zeros(shape, np.float32)
    axes = (max(1, round(figure.length * 0.5)), max(1, round(figure.length * 0.8)))
    cv2.ellipse(mask, _pixel(edge), axes, math.degrees(figure.angle), 0, 360, 1.0, -1, cv2.LINE_AA)
    return mask


def _float3(colour: np.ndarray) -> tuple[float, float, float]:
    b, g, r = (float(v) for v in colour)
    return b, g, r


def _point(vector: np.ndarray) -> Point:
    return float(vector[0]), float(vector[1])


def _pixel(vector: np.ndarray) -> tuple[int, int]:
    return round(float(vector[0])), round(float(vector[1]))


def _extent(reach: Reach, t: float) -> float:
    """How far in the hand is at ``t``; before the reach, outside the picture."""
    extent = reach.extent(t)
    return 0.0 if extent is None else extent


def _streak(moved: float) -> int:
    """How many pixels long a smear over ``moved`` pixels is drawn: none under a pixel and a half."""
    if moved < 1.5:
        return 0
    return round(STREAK ** round(math.log(moved, STREAK)))
