"""What a real table, lamp and camera do to a card: the model trains on rendered cards put through all of it.

Each effect takes an image and a random generator and returns a new image; ``photograph`` chains them with the
probabilities the training set uses. The effects are deliberately harsher than most tables, so that real ones
fall inside what the model has seen.
"""

from __future__ import annotations

import cv2
import numpy as np
import numpy.typing as npt

from tabletop.vision.crop import Image

Floats = npt.NDArray[np.float32]


def wear(face: Image, rng: np.random.Generator) -> Image:
    """Dirt, scratches and fading on a card that has been played for years; now and then a deck worn hard: its
    inks faded toward grey, its whites gone cream, its edges rubbed white."""
    out = face.copy()
    height, width = out.shape[:2]
    for _ in range(int(rng.integers(0, 8))):
        centre = (int(rng.integers(width)), int(rng.integers(height)))
        shade = int(rng.integers(60, 200))
        cv2.circle(out, centre, int(rng.integers(1, 5)), (shade, shade, shade), -1, cv2.LINE_AA)
    for _ in range(int(rng.integers(0, 5))):
        a = (int(rng.integers(width)), int(rng.integers(height)))
        b = (a[0] + int(rng.integers(-60, 60)), a[1] + int(rng.integers(-60, 60)))
        cv2.line(out, a, b, (225, 225, 225), 1, cv2.LINE_AA)
    if rng.random() < WORN_HARD:
        out = worn_hard(out, rng)
    fade = rng.uniform(0, 0.25)
    return cv2.addWeighted(out, 1 - fade, np.full_like(out, 235), fade, 0)


WORN_HARD = 0.25
"""The share of faces from decks worn hard (``worn_hard``)."""


def worn_hard(face: Image, rng: np.random.Generator) -> Image:
    """Inks faded toward their own grey, whites yellowed, and the print rubbed off in nicks along the edges where
    hands shuffle the cards."""
    grey = cv2.cvtColor(cv2.cvtColor(face, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR)
    faded = cv2.addWeighted(face, 1 - (share := rng.uniform(0.15, 0.55)), grey, share, rng.uniform(0, 25))
    cream = np.array([rng.uniform(0.8, 1.0), rng.uniform(0.93, 1.0), 1.0], np.float32)
    out = np.clip(faded.astype(np.float32) * cream, 0, 255).astype(np.uint8)
    height, width = out.shape[:2]
    for _ in range(int(rng.integers(10, 60))):
        side = int(rng.integers(4))
        along = rng.uniform(0, 1)
        depth = abs(rng.normal(0, 0.06)) * width
        x = along * width if side < 2 else (depth if side == 2 else width - depth)
        y = (depth if side == 0 else height - depth) if side < 2 else along * height
        cv2.circle(out, (round(x), round(y)), int(rng.integers(1, 4)), (235, 235, 235), -1, cv2.LINE_AA)
    return out


def _gaussian_spot(shape: tuple[int, int], rng: np.random.Generator, stretch: float) -> Floats:
    """A soft blob of light, round or drawn out into a streak."""
    height, width = shape
    ys, xs = np.mgrid[0:height, 0:width].astype(np.float32)
    cx, cy = rng.uniform(0, width), rng.uniform(0, height)
    angle = rng.uniform(0, np.pi)
    u = (xs - cx) * np.cos(angle) + (ys - cy) * np.sin(angle)
    v = -(xs - cx) * np.sin(angle) + (ys - cy) * np.cos(angle)
    sigma = rng.uniform(0.03, 0.12) * max(height, width)
    spot: Floats = np.exp(-(u**2 / (2 * (sigma * stretch) ** 2) + v**2 / (2 * sigma**2))).astype(np.float32)
    return spot


def lighting(img: Image, rng: np.random.Generator) -> Image:
    """Uneven lamp light, a shadow across the table, glare spots and specular streaks."""
    height, width = img.shape[:2]
    light = np.ones((height, width), np.float32)
    ys, xs = np.mgrid[0:height, 0:width].astype(np.float32)
    tilt = rng.uniform(-0.5, 0.5, 2)
    light *= 1 + (tilt[0] * (xs / width - 0.5) + tilt[1] * (ys / height - 0.5))
    if rng.random() < 0.4:
        shadow = np.zeros((height, width), np.uint8)
        points = rng.uniform([-0.2 * width, -0.2 * height], [1.2 * width, 1.2 * height], (5, 2)).astype(np.int32)
        cv2.fillPoly(shadow, [cv2.convexHull(points)], 255)
        softness = float(rng.uniform(1, 0.05 * max(height, width) + 2))
        soft = cv2.GaussianBlur(shadow.astype(np.float32) / 255, (0, 0), softness)
        light *= 1 - rng.uniform(0.25, 0.65) * soft
    out = img.astype(np.float32) * light[..., None]
    for _ in range(int(rng.poisson(0.7))):
        stretch = 1.0 if rng.random() < 0.5 else rng.uniform(3, 8)
        out += rng.uniform(40, 200) * _gaussian_spot((height, width), rng, stretch)[..., None]
    return np.clip(out, 0, 255).astype(np.uint8)


def colours(img: Image, rng: np.random.Generator, washout: float = 0.4) -> Image:
    """Warm and cool casts, exposure, and a cheap webcam's washout (``washout`` of the time): blue drifts to cyan
    and yellow to olive."""
    hsv = cv2.cvtColor(img, cv2.COLOR_BGR2HSV).astype(np.float32)
    hue = hsv[..., 0]
    drift = rng.uniform(-4, 4) + rng.uniform(0, 5) * np.sin(hue / 90 * np.pi + rng.uniform(0, 2 * np.pi))
    blue = (hue > 95) & (hue < 125)
    drift = drift - blue * rng.uniform(0, 14)
    hsv[..., 0] = np.mod(hue + drift, 180)
    hsv[..., 1] *= rng.uniform(0.45, 1.1)
    out = cv2.cvtColor(np.clip(hsv, 0, 255).astype(np.uint8), cv2.COLOR_HSV2BGR).astype(np.float32)
    gains = np.array([1.0, 1.0, 1.0]) + rng.uniform(-0.3, 0.3) * np.array([1.0, 0.0, -1.0])
    gains *= rng.uniform(0.85, 1.15, 3)
    out *= gains.astype(np.float32) * rng.uniform(0.5, 1.5)
    gamma = rng.uniform(0.6, 1.6)
    out = 255 * (np.clip(out, 0, 255) / 255) ** gamma
    if rng.random() < washout:
        share = rng.uniform(0.1, 0.45)
        out = out * (1 - share) + share * rng.uniform(120, 220)
    return np.clip(out, 0, 255).astype(np.uint8)


def camera(img: Image, rng: np.random.Generator) -> Image:
    """Focus and motion blur, sensor noise and JPEG compression."""
    out = img
    if rng.random() < 0.5:
        out = cv2.GaussianBlur(out, (0, 0), rng.uniform(0.3, 1.3))
    if rng.random() < 0.2:
        length = int(rng.integers(3, 9))
        kernel = np.zeros((length, length), np.float32)
        kernel[length // 2, :] = 1 / length
        turn = cv2.getRotationMatrix2D((length / 2 - 0.5, length / 2 - 0.5), rng.uniform(0, 180), 1.0)
        out = cv2.filter2D(out, -1, cv2.warpAffine(kernel, turn, (length, length)))
    noisy = out + rng.standard_normal(out.shape, dtype=np.float32) * rng.uniform(0, 12)
    out = np.clip(noisy, 0, 255).astype(np.uint8)
    if rng.random() < 0.7:
        ok, data = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(20, 95))])
        decoded = cv2.imdecode(data, cv2.IMREAD_COLOR) if ok else None
        out = out if decoded is None else decoded
    return out


def finger(img: Image, rng: np.random.Generator, near: tuple[float, float], size: float) -> None:
    """A fingertip over ``near`` (a card corner), in place: people hold and straighten cards as they play."""
    skin = np.array([rng.uniform(60, 170), rng.uniform(90, 190), rng.uniform(130, 240)])
    centre = (round(near[0] + rng.normal(0, size * 0.1)), round(near[1] + rng.normal(0, size * 0.1)))
    axes = (round(size * rng.uniform(0.08, 0.14)), round(size * rng.uniform(0.2, 0.4)))
    shade = tuple(int(c) for c in skin * 0.6)
    cv2.ellipse(img, (centre[0] + 3, centre[1] + 3), axes, rng.uniform(0, 180), 0, 360, shade, -1, cv2.LINE_AA)
    cv2.ellipse(img, centre, axes, rng.uniform(0, 180), 0, 360, tuple(int(c) for c in skin), -1, cv2.LINE_AA)


def photograph(img: Image, rng: np.random.Generator, washout: float = 0.4) -> Image:
    """A scene as a camera returns it: light, colour and camera effects, each applied most of the time."""
    if rng.random() < 0.8:
        img = lighting(img, rng)
    if rng.random() < 0.9:
        img = colours(img, rng, washout)
    return camera(img, rng)
