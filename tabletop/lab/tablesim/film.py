"""What a real camera and room do to a film beyond the lens, the lamp and the exposure: a USB webcam's MJPEG, lights
flickering with the mains, an arm blurred by its own speed; and the deck, the hands and the things each film's
table has besides.

Each film draws its ``Look`` from generators of its own, one per part, keyed by the part's name beside the seed:
so that adding the look did not change the game, table, light and deck each seed films, and adding a part to
it will not change the others.
"""

from __future__ import annotations

import math
import zlib
from dataclasses import dataclass
from typing import Literal

import cv2
import numpy as np

from tabletop.lab.drawing.render import pick
from tabletop.lab.training import augment
from tabletop.vision.crop import Image

Wear = Literal["new", "played", "worn"]

LOOKS = 5
"""Beside the seed and a part's name, the key of the look's generators: ``(seed, n)`` keys the arms' drawings,
``(seed, seat, 0)`` the players' hands and ``(seed, 3, frame)`` a detail's noise, none of which this meets."""
MJPEG = 0.5
"""The share of films from a USB webcam sending MJPEG; the others are a Pi camera's, not compressed."""
QUALITY = (55, 90)
"""The JPEG quality of a webcam's frames, lowest and highest: cheap ones squeeze hard to fit USB 2."""
BLOCK = 16
"""A JPEG's blocks of colour (4:2:0) are this many pixels square, from the picture's top left corner."""
FLICKERING = 0.5
"""The share of films under lights that flicker with the mains (LED drivers, fluorescent tubes)."""
BEAT = 0.04
"""The most the whole frame's brightness beats with the lights' flicker, a share."""
BANDS = 0.03
"""The most a rolling shutter's bands darken and lighten rows, a share."""
CLOCK = 0.002
"""The most a camera's frame clock is off: 30 frames a second is never exactly 30, so a 120 Hz flicker that 30
divides still drifts slowly through the picture."""
READOUT = (0.02, 0.033)
"""Seconds a rolling shutter takes to read the picture from top to bottom, shortest and longest."""
SHUTTER = (1 / 250, 1 / 30)
"""How long the shutter is open for a frame, shortest and longest: a dim room keeps it open a whole frame."""
SHARP = 0.25
"""The share of films whose shutter is too short to blur anything."""
WEAR: tuple[tuple[Wear, float], ...] = (("new", 0.5), ("played", 0.25), ("worn", 0.25))
"""How worn a film's deck is, and how often: new; played (dirt, scratches, fading: ``augment.wear``); or worn
hard, every face faded, yellowed and rubbed at its edges (``augment.worn_hard``)."""
HOLDING = 0.75
"""The share of films whose players hold their hands of cards in view at the table's edge."""
CLUTTER = ((0, 0.25), (1, 0.4), (2, 0.35))
"""How many things (a cup, a phone) lie on a film's table, and how often."""


def generator(seed: int, part: str) -> np.random.Generator:
    """The generator ``part`` of the film of ``seed`` draws from, and nothing else does."""
    return np.random.default_rng((seed, LOOKS, zlib.crc32(part.encode())))


@dataclass(frozen=True)
class Compression:
    """A USB webcam's MJPEG: each frame, and each frame of its large stream, a JPEG at ``quality``; None for a
    camera that sends its frames as they are."""

    quality: int | None

    @staticmethod
    def random(rng: np.random.Generator) -> Compression:
        webcam = rng.random() < MJPEG
        quality = int(rng.integers(QUALITY[0], QUALITY[1] + 1))
        return Compression(quality if webcam else None)

    def apply(self, image: Image) -> Image:
        if self.quality is None:
            return image
        ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, self.quality])
        decoded = cv2.imdecode(data, cv2.IMREAD_COLOR) if ok else None
        return image if decoded is None else decoded

    def blocks(self, box: tuple[int, int, int, int], size: tuple[int, int]) -> tuple[int, int, int, int]:
        """``box`` grown to the blocks of the whole picture (``size`` wide and tall) it touches, so that a region
        cut from a compressed picture has its blocks where the whole picture has them; ``box`` kept inside the
        picture where nothing is compressed."""
        left, top, right, bottom = max(box[0], 0), max(box[1], 0), box[2], box[3]
        if self.quality is None:
            return left, top, right, bottom
        return (left // BLOCK * BLOCK, top // BLOCK * BLOCK, min(-(-right // BLOCK) * BLOCK, size[0]),
                min(-(-bottom // BLOCK) * BLOCK, size[1]))


@dataclass(frozen=True)
class Flicker:
    """Lights on the mains flicker at twice its frequency (``light``, 100 or 120 Hz), too fast to see but not for
    a camera: each frame catches them at another moment, so the picture's brightness beats (by ``beat``) at the
    flicker's alias at the frame rate; and a rolling shutter reads the rows one after another over ``readout``
    seconds, so soft bands of light and dark (``bands``) lie across the picture, moving from frame to frame."""

    beat: float
    bands: float
    light: float
    clock: float
    """How much faster than it says the camera's frame clock runs, a share."""
    readout: float
    phase: float

    @staticmethod
    def random(rng: np.random.Generator) -> Flicker:
        flickering = rng.random() < FLICKERING
        beat, bands = float(rng.uniform(0, BEAT)), float(rng.uniform(0, BANDS))
        light = float(rng.choice((100.0, 120.0)))
        clock, readout = float(rng.uniform(-CLOCK, CLOCK)), float(rng.uniform(*READOUT))
        phase = float(rng.uniform(0, 2 * math.pi))
        return Flicker(beat, bands, light, clock, readout, phase) if flickering else Flicker.steady()

    @staticmethod
    def steady() -> Flicker:
        """Lights that do not flicker: daylight, a filament lamp, a good LED driver."""
        return Flicker(0.0, 0.0, 100.0, 0.0, READOUT[0], 0.0)

    def gain(self, t: float) -> float:
        """The whole frame's brightness at ``t``, as a share of the steady light's; times what ``banded`` took."""
        return (1 + self.beat * math.sin(self._phase(t))) * (1 + self.bands)

    def rows(self, t: float, rows: np.ndarray) -> np.ndarray:
        """The brightness of the rows at ``rows`` (shares of the picture's height from its top) at ``t``."""
        turn = 2 * math.pi * self.light * self.readout
        return 1 + self.bands * np.sin(self._phase(t) + turn * rows)

    def banded(self, image: Image, t: float, rows: np.ndarray) -> Image:
        """``image`` with the rolling shutter's bands at ``t``, each row darkened by its share of the brightest
        row's light (``gain`` gives the brightest row's back); ``rows`` says where its rows lie, as ``rows``.
        The rows' shares are in 255ths: finer steps than the sensor's noise shows, and a multiplication of
        bytes costs a tenth of one of floats."""
        if self.bands == 0:
            return image
        shares = np.empty_like(image)
        shares[:] = np.round(self.rows(t, rows) / (1 + self.bands) * 255).astype(np.uint8)[:, None, None]
        return cv2.multiply(image, shares, scale=1 / 255)

    def _phase(self, t: float) -> float:
        """Where the lights' flicker is when the frame of ``t`` starts: the frame clock runs ``clock`` fast."""
        return 2 * math.pi * self.light * t / (1 + self.clock) + self.phase


@dataclass(frozen=True)
class Look:
    """How a film looks beyond its table, light and deck: the camera's compression, the lights' flicker, how long
    the shutter is open (an arm moving blurs over that time; 0 for none), how worn the deck is, whether the
    players hold their hands of cards in view, and how many things lie on the table."""

    compression: Compression
    flicker: Flicker
    shutter: float
    wear: Wear
    holding: bool
    clutter: int

    @staticmethod
    def random(seed: int) -> Look:
        """The look of the film of ``seed``: every part drawn from a generator of its own."""
        shutter = generator(seed, "shutter")
        sharp = shutter.random() < SHARP
        open_for = float(np.exp(shutter.uniform(math.log(SHUTTER[0]), math.log(SHUTTER[1]))))
        wear, holding, clutter = generator(seed, "wear"), generator(seed, "holding"), generator(seed, "clutter")
        return Look(Compression.random(generator(seed, "compression")), Flicker.random(generator(seed, "flicker")),
                    0.0 if sharp else open_for, pick(wear, WEAR), bool(holding.random() < HOLDING),
                    pick(clutter, CLUTTER))

    @staticmethod
    def bare() -> Look:
        """None of it: a Pi camera under steady light with a fast shutter, over a new deck, nothing else about."""
        return Look(Compression(None), Flicker.steady(), 0.0, "new", False, 0)

    def worn(self, face: Image, rng: np.random.Generator) -> Image:
        """``face`` as this film's deck has worn it."""
        if self.wear == "worn":
            return augment.worn_hard(face, rng)
        if self.wear == "played":
            return augment.wear(face, rng)
        return face

    def describe(self) -> str:
        """The look in a few words, for a benchmark's line."""
        flicker = self.flicker
        parts = [f"MJPEG q{self.compression.quality}" if self.compression.quality else "not compressed",
                 f"{flicker.light:.0f} Hz flicker ({flicker.beat:.1%} beat, {flicker.bands:.1%} bands)"
                 if flicker.beat or flicker.bands else "steady light",
                 f"shutter 1/{1 / self.shutter:.0f} s" if self.shutter else "no motion blur",
                 f"{self.wear} deck", "hands held in view" if self.holding else "no hands held in view",
                 f"{self.clutter} {'thing' if self.clutter == 1 else 'things'} on the table"]
        return ", ".join(parts)
