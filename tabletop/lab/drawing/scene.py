"""Surfaces that cards lie on or are held in front of: drawn wood, felt, patterned cloth and a cluttered room, pale
paper and laminate, and photographed surfaces (``textures``).

The models learn that whatever shows around a card's border is not the card, and that a table's pattern seen
through a gap in a hand is no index; the table simulator lays its games out on the drawn surfaces.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import cv2
import numpy as np

from tabletop.game.cards import Card
from tabletop.lab.drawing import render, textures
from tabletop.vision.crop import CARD_ASPECT, Corners, Image, middle_card
from tabletop.vision.model import TEST_CARD, TEST_CARD_HEIGHT

Shape = tuple[int, int]


def colour(rng: np.random.Generator, low: int = 0, high: int = 256) -> tuple[int, int, int]:
    b, g, r = rng.integers(low, high, 3)
    return int(b), int(g), int(r)


def wood(rng: np.random.Generator, shape: Shape) -> Image:
    height, width = shape
    ys, xs = np.mgrid[0:height, 0:width].astype(np.float32)
    angle = rng.uniform(0, np.pi)
    along = xs * np.cos(angle) + ys * np.sin(angle)
    across = -xs * np.sin(angle) + ys * np.cos(angle)
    period = rng.uniform(6, 30)
    grain = np.sin(across / period * 2 * np.pi + 3 * np.sin(along / rng.uniform(40, 200)))
    base = np.array([rng.uniform(20, 90), rng.uniform(50, 130), rng.uniform(90, 200)], np.float32)
    tone = 1 + 0.18 * grain[..., None] + rng.normal(0, 0.04, (height, width, 1)).astype(np.float32)
    return np.clip(base * tone, 0, 255).astype(np.uint8)


def felt(rng: np.random.Generator, shape: Shape) -> Image:
    height, width = shape
    base = np.array(colour(rng, 10, 200), np.float32)
    noise = cv2.GaussianBlur(rng.normal(0, 1, (height, width)).astype(np.float32), (0, 0), 1.5)
    return np.clip(base * (1 + 0.12 * noise[..., None]), 0, 255).astype(np.uint8)


def cloth(rng: np.random.Generator, shape: Shape) -> Image:
    """Checks, stripes or dots in two or three colours: the hardest surface to tell a card's edge from."""
    height, width = shape
    img = np.zeros((height, width, 3), np.uint8)
    img[:] = colour(rng)
    step = int(rng.integers(8, 40))
    second, third = colour(rng), colour(rng)
    pattern = int(rng.integers(3))
    for k in range(-max(shape), 2 * max(shape), step):
        if pattern == 0:
            cv2.line(img, (k, 0), (k, height), second, step // 2)
            cv2.line(img, (0, k), (width, k), third, step // 3)
        elif pattern == 1:
            cv2.line(img, (k, 0), (k + height, height), second, max(1, step // 3))
        else:
            for j in range(0, height + step, step):
                cv2.circle(img, (k, j), step // 4, second, -1, cv2.LINE_AA)
    return img


def room(rng: np.random.Generator, shape: Shape) -> Image:
    """Clutter behind a card held up in a hand: furniture, shelves, lamps, a window."""
    height, width = shape
    img = np.zeros((height, width, 3), np.uint8)
    img[:] = colour(rng, 30, 220)
    for _ in range(int(rng.integers(6, 25))):
        x, y = int(rng.integers(-width // 4, width)), int(rng.integers(-height // 4, height))
        w, h = int(rng.integers(5, width // 2 + 6)), int(rng.integers(5, height // 2 + 6))
        if rng.random() < 0.6:
            cv2.rectangle(img, (x, y), (x + w, y + h), colour(rng), -1)
        else:
            cv2.ellipse(img, (x, y), (w // 2, h // 2), float(rng.uniform(0, 180)), 0, 360, colour(rng), -1)
    return img


def plain(rng: np.random.Generator, shape: Shape) -> Image:
    img = np.zeros((*shape, 3), np.uint8)
    img[:] = colour(rng)
    return img


Surface = Callable[[np.random.Generator, Shape], Image]
SURFACES: tuple[Surface, ...] = (wood, felt, cloth, room, plain)


def surface(rng: np.random.Generator, shape: Shape) -> Image:
    """A random surface of one of the kinds above."""
    return SURFACES[int(rng.integers(len(SURFACES)))](rng, shape)


def table(rng: np.random.Generator, shape: Shape) -> Image:
    """A real surface, a pale one (paper, laminate, a white cloth) or a drawn one."""
    pick = rng.random()
    if pick < 0.45 and (photo := textures.photographed(rng, shape)) is not None:
        return _tinted(photo, rng)
    if pick < 0.72:
        return pale(rng, shape)
    return surface(rng, shape)


def _tinted(image: Image, rng: np.random.Generator) -> Image:
    """A surface made lighter or darker and pulled toward a colour: the same wood in another room."""
    gain = rng.uniform(0.6, 1.4, 3) if rng.random() < 0.5 else np.full(3, rng.uniform(0.6, 1.4))
    lift = rng.uniform(0, 120) if rng.random() < 0.25 else 0.0
    return np.clip(image * gain.astype(np.float32) + lift, 0, 255).astype(np.uint8)


def pale(rng: np.random.Generator, shape: Shape) -> Image:
    """White, cream or grey: paper, laminate, a pale cloth; with fibre, a light fall-off and sometimes ruled lines
    or a faint weave. The surface on which a card's white border does not stand out."""
    height, width = shape
    level = rng.uniform(150, 250)
    tint = np.array([rng.uniform(-25, 5), rng.uniform(-12, 6), rng.uniform(-5, 10)]) * float(rng.random() < 0.6)
    base = np.clip(level + tint * (level / 220), 0, 255).astype(np.float32)
    fibre = cv2.GaussianBlur(rng.normal(0, 1, (height, width)).astype(np.float32), (0, 0), rng.uniform(0.5, 3))
    ys, xs = np.mgrid[0:height, 0:width].astype(np.float32)
    fall = 1 + rng.uniform(-0.12, 0.12) * (xs / width - 0.5) + rng.uniform(-0.12, 0.12) * (ys / height - 0.5)
    image = base * (fall + rng.uniform(0.01, 0.06) * fibre)[..., None]
    kind = rng.random()
    if kind < 0.2:
        step = rng.uniform(12, 40)
        ink = rng.uniform(0.75, 0.95, 3).astype(np.float32)
        lines = (np.mod(ys + rng.uniform(0, step), step) < 1.5)
        image[lines] *= ink
    elif kind < 0.4:
        step = rng.uniform(4, 16)
        weave = 0.5 + 0.5 * np.sin(xs * 2 * np.pi / step) * np.sin(ys * 2 * np.pi / step)
        image *= (1 - rng.uniform(0.02, 0.1) * weave)[..., None]
    return np.clip(image, 0, 255).astype(np.uint8)


def paste(canvas: Image, face: Image, mask: Image, corners: Corners) -> None:
    """Lay ``face`` on ``canvas`` so that its corners land on ``corners`` (TL, TR, BR, BL), in place.

    Only the patch the card covers is warped and blended: a card is small beside a whole frame.
    """
    x0, y0 = np.maximum(np.floor(corners.min(axis=0)).astype(int) - 1, 0)
    x1, y1 = np.minimum(np.ceil(corners.max(axis=0)).astype(int) + 2, (canvas.shape[1], canvas.shape[0]))
    if x1 <= x0 or y1 <= y0:
        return
    patch = canvas[y0:y1, x0:x1]
    height, width = face.shape[:2]
    source = np.array([[0, 0], [width, 0], [width, height], [0, height]], np.float32)
    target = (corners - np.array([x0, y0], np.float32)).astype(np.float32)
    matrix = cv2.getPerspectiveTransform(source, target)
    size = (patch.shape[1], patch.shape[0])
    warped = cv2.warpPerspective(face, matrix, size, flags=cv2.INTER_LINEAR)
    alpha = cv2.warpPerspective(mask, matrix, size, flags=cv2.INTER_LINEAR).astype(np.float32)[..., None] / 255
    patch[:] = (patch * (1 - alpha) + warped * alpha).astype(np.uint8)


def card_corners(centre: tuple[float, float], height: float, angle: float, rng: np.random.Generator,
                 perspective: float = 0.05) -> Corners:
    """Where a card's corners land on the table (TL, TR, BR, BL of the card), with a little camera perspective."""
    width = height / CARD_ASPECT
    local = np.array([[-width, -height], [width, -height], [width, height], [-width, height]], np.float32) / 2
    turn = np.array([[math.cos(angle), -math.sin(angle)], [math.sin(angle), math.cos(angle)]], np.float32)
    skew = rng.normal(0, perspective * height, (4, 2)).astype(np.float32)
    placed: Corners = (local @ turn.T + skew + np.array(centre, np.float32)).astype(np.float32)
    return placed


def card_on_table(rng: np.random.Generator, card: Card, design: render.Design, shape: Shape = (480, 640),
                  height: float = 150.0, table: Surface = surface) -> tuple[Image, Corners]:
    """A camera frame of one card lying on ``table`` (a random surface unless given), and where its corners are."""
    image = table(rng, shape)
    centre = (shape[1] / 2 + rng.uniform(-0.2, 0.2) * shape[1], shape[0] / 2 + rng.uniform(-0.15, 0.15) * shape[0])
    corners = card_corners(centre, height, rng.uniform(0, 2 * math.pi), rng, perspective=0.02)
    paste(image, *render.render_card(card, design, rng), corners)
    return image, corners


def draw_test_card() -> Image:
    """``model.TEST_PICTURE``, the picture the doctor checks the shipped models with."""
    rng = np.random.default_rng(0)
    image = felt(rng, (480, 640))
    paste(image, *render.render_card(Card.from_name(TEST_CARD), "classic", rng),
          middle_card(640, 480, TEST_CARD_HEIGHT))
    return image
