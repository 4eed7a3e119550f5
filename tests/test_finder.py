"""The two card finders, and the reader that asks both, on synthetic table scenes built from real card photos,
and on the real photos themselves.

Each scene pastes real card faces through a known homography onto a generated surface, so the true corners are
known exactly. Everything is seeded: a scene that fails fails on every machine.
"""

from __future__ import annotations

import csv
import functools
from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np
import pytest

from tabletop.vision import borders, finder
from tabletop.vision.crop import CARD_ASPECT, Corners, Image, rectify
from tabletop.vision.found import FoundCard
from tabletop.vision.model import CardModel
from tabletop.vision.reader import read_card

REAL = Path(__file__).parent / "data" / "real-cards"
with (REAL / "labels.csv").open() as labels:
    CARDS = {row["file"]: row["card"] for row in csv.DictReader(labels)}
PHOTOS = sorted(CARDS)
FRAME = (480, 640)
TOLERANCE = 0.04
"""How far a found corner may be from the true one, as a fraction of the card's height."""

Surface = Callable[[np.random.Generator, tuple[int, int]], Image]
Finder = Callable[..., list[FoundCard]]
FINDERS: dict[str, Finder] = {"borders": borders.find_cards, "learned": finder.find_cards}


def wood(rng: np.random.Generator, shape: tuple[int, int]) -> Image:
    """Brown planks: wavy grain along x, a seam every plank, a little noise."""
    height, width = shape
    y, x = np.mgrid[0:height, 0:width].astype(np.float32)
    grain = np.sin(y / 3.0 + 2.0 * np.sin(x / 60.0) + rng.uniform(0, 6)) * 0.5 + 0.5
    shade = 0.75 + 0.25 * grain
    shade[(y.astype(int) % 97) < 2] = 0.45
    base = np.array([40, 85, 140], dtype=np.float32)
    return _finish(base * shade[..., None], rng, 6.0)


def felt(rng: np.random.Generator, shape: tuple[int, int]) -> Image:
    """Green baize: flat colour under grainy noise."""
    base = np.full((*shape, 3), (40, 110, 30), dtype=np.float32)
    return _finish(base, rng, 12.0)


def checked(rng: np.random.Generator, shape: tuple[int, int]) -> Image:
    """A red-and-green checked tablecloth with thin yellow lines, turned a little."""
    height, width = shape
    y, x = np.mgrid[0:height, 0:width].astype(np.float32)
    angle = rng.uniform(0.2, 0.6)
    u, v = x * np.cos(angle) + y * np.sin(angle), -x * np.sin(angle) + y * np.cos(angle)
    stripes = ((u // 24) % 2).astype(np.float32) + ((v // 24) % 2).astype(np.float32)
    green, red = np.array([40, 90, 30], np.float32), np.array([40, 40, 170], np.float32)
    cloth = green + (red - green) * (stripes / 2.0)[..., None]
    cloth[((u % 48) < 2) | ((v % 48) < 2)] = (40, 170, 190)
    return _finish(cloth, rng, 5.0)


def light(rng: np.random.Generator, shape: tuple[int, int]) -> Image:
    """A pale grey laminate table with a soft light fall-off."""
    height, width = shape
    y, x = np.mgrid[0:height, 0:width].astype(np.float32)
    shade = 1.0 - 0.15 * ((x - width / 2) ** 2 + (y - height / 2) ** 2) / (width * width / 4)
    base = np.array([170, 175, 178], dtype=np.float32)
    return _finish(base * shade[..., None], rng, 4.0)


def dark(rng: np.random.Generator, shape: tuple[int, int]) -> Image:
    """A near-black desk."""
    return _finish(np.full((*shape, 3), 35, dtype=np.float32), rng, 5.0)


def room(rng: np.random.Generator, shape: tuple[int, int]) -> Image:
    """A busy room behind a held card: a wall gradient under furniture-like boxes and blobs."""
    height, width = shape
    wall = np.linspace(0.6, 1.0, width, dtype=np.float32)[None, :, None] * np.array([150, 160, 170], np.float32)
    canvas = np.broadcast_to(wall, (height, width, 3)).copy()
    for _ in range(25):
        colour = tuple(float(c) for c in rng.uniform(20, 230, 3))
        x0, y0 = int(rng.integers(0, width)), int(rng.integers(0, height))
        if rng.random() < 0.5:
            size = rng.integers(20, 160, 2)
            cv2.rectangle(canvas, (x0, y0), (x0 + int(size[0]), y0 + int(size[1])), colour, -1)
        else:
            axes = (int(rng.integers(10, 80)), int(rng.integers(10, 80)))
            cv2.ellipse(canvas, (x0, y0), axes, float(rng.uniform(0, 180)), 0, 360, colour, -1)
    return _finish(canvas, rng, 6.0)


def paper(rng: np.random.Generator, shape: tuple[int, int]) -> Image:
    """Cream paper laid over the table: about as bright as a card's white border, with a faint fibre."""
    fibre = cv2.GaussianBlur(rng.standard_normal(shape).astype(np.float32), (0, 0), 1.2)[..., None]
    base = np.array([216, 228, 234], dtype=np.float32) + rng.uniform(-8, 8, 3).astype(np.float32)
    return _finish(base * (1 + 0.03 * fibre), rng, 3.0)


SURFACES: dict[str, Surface] = {"wood": wood, "felt": felt, "checked": checked, "light": light, "dark": dark,
                                "room": room, "paper": paper}


def _finish(canvas: np.ndarray, rng: np.random.Generator, noise: float) -> Image:
    noisy = canvas + noise * rng.standard_normal(canvas.shape, np.float32)
    return np.clip(noisy, 0, 255).astype(np.uint8)


@functools.cache
def texture(name: str) -> tuple[Image, Image]:
    """A real card face without the photo's table margin, and its mask with the card's rounded corners.

    Each side is trimmed to where the white border starts (the margin is 0 to 8 px and differs per side), so
    that the pasted card has its whole border and no strip of the photographer's table.
    """
    photo = cv2.imread(str(REAL / name))
    whiteness = photo.min(axis=2)
    rows, columns = np.percentile(whiteness, 25, axis=1), np.percentile(whiteness, 25, axis=0)
    top, bottom, left, right = _margin(rows), _margin(rows[::-1]), _margin(columns), _margin(columns[::-1])
    height, width = whiteness.shape
    face = np.ascontiguousarray(photo[top:height - bottom, left:width - right])
    height, width = face.shape[:2]
    mask = np.zeros((height, width), np.uint8)
    radius = round(width * 0.07)
    cv2.rectangle(mask, (radius, 0), (width - 1 - radius, height - 1), 255, -1)
    cv2.rectangle(mask, (0, radius), (width - 1, height - 1 - radius), 255, -1)
    for cx in (radius, width - 1 - radius):
        for cy in (radius, height - 1 - radius):
            cv2.circle(mask, (cx, cy), radius, 255, -1, cv2.LINE_AA)
    return face, mask


def _margin(profile: np.ndarray) -> int:
    """How many lines at the start of ``profile`` (whiteness per line) are table, plus one for the blur."""
    return int(np.argmax(profile[:30] >= 150)) + 1


def placement(rng: np.random.Generator, height: float, centre: tuple[float, float] | None = None,
              angle: float | None = None) -> Corners:
    """Where a card lands: portrait corners turned by ``angle`` degrees (any, if None) round ``centre`` (anywhere
    it fits in the frame, if None), each corner nudged by up to 4% of the height for a camera a little off square.
    """
    if centre is None:
        reach = height * 0.62
        centre = (rng.uniform(reach, FRAME[1] - reach), rng.uniform(reach, FRAME[0] - reach))
    theta = np.deg2rad(rng.uniform(0, 360) if angle is None else angle)
    half = np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]], np.float32) * [height / CARD_ASPECT / 2, height / 2]
    turn = np.array([[np.cos(theta), -np.sin(theta)], [np.sin(theta), np.cos(theta)]], np.float32)
    nudge = rng.uniform(-0.04, 0.04, (4, 2)) * height
    return (half @ turn.T + centre + nudge).astype(np.float32)


def paste(scene: Image, name: str, corners: Corners) -> None:
    """Lay a card face onto ``scene`` so that its corners land on ``corners``, with antialiased edges.

    The card casts a soft shadow a pixel or two wide, as a real card does on the table or on the card beneath.
    """
    face, mask = texture(name)
    height, width = face.shape[:2]
    x, y, w, h = cv2.boundingRect(corners)
    x, y = max(x - 8, 0), max(y - 8, 0)
    w, h = min(w + 16, scene.shape[1] - x), min(h + 16, scene.shape[0] - y)
    source = np.array([[0, 0], [width, 0], [width, height], [0, height]], np.float32)
    matrix = cv2.getPerspectiveTransform(source, corners - np.array([x, y], np.float32))
    warped = cv2.warpPerspective(face, matrix, (w, h), flags=cv2.INTER_LINEAR)
    alpha = cv2.warpPerspective(mask, matrix, (w, h), flags=cv2.INTER_LINEAR).astype(np.float32)[..., None] / 255
    shadow = cv2.GaussianBlur(np.roll(alpha, (3, 2), axis=(0, 1)), (0, 0), 1.5)[..., None]
    region = scene[y:y + h, x:x + w]
    region[:] = (region * (1 - 0.45 * shadow) * (1 - alpha) + warped * alpha).astype(np.uint8)


def hand(scene: Image, corners: Corners, rng: np.random.Generator) -> None:
    """A thumb over a long side of the card near a corner, as when the card is held up to the camera."""
    skin = tuple(float(c) for c in rng.uniform([90, 130, 180], [130, 170, 230]))
    start, end = (corners[1], corners[2]) if rng.random() < 0.5 else (corners[3], corners[0])
    height = float(np.linalg.norm(end - start))
    centre = start + (end - start) * rng.uniform(0.1, 0.2) + (corners.mean(axis=0) - (start + end) / 2) * 0.1
    angle = float(np.degrees(np.arctan2(*(end - start)[::-1])))
    size = (round(0.12 * height), round(0.06 * height))
    cv2.ellipse(scene, (int(centre[0]), int(centre[1])), size, angle, 0, 360, skin, -1, cv2.LINE_AA)


def lighting(scene: Image, rng: np.random.Generator) -> Image:
    """A shadow falling across part of the scene and a patch of glare, as from a window or a lamp."""
    height, width = scene.shape[:2]
    y, x = np.mgrid[0:height, 0:width].astype(np.float32)
    angle = rng.uniform(0, 2 * np.pi)
    ramp = np.clip(((x - width / 2) * np.cos(angle) + (y - height / 2) * np.sin(angle)) / 120 + 0.5, 0, 1)
    gy, gx = rng.uniform(0.3, 0.7) * height, rng.uniform(0.3, 0.7) * width
    glare = 70 * np.exp(-((x - gx) ** 2 + (y - gy) ** 2) / (2 * 45.0**2))
    lit = scene * (0.55 + 0.45 * ramp)[..., None] + glare[..., None]
    return np.clip(lit, 0, 255).astype(np.uint8)


def camera(scene: Image, rng: np.random.Generator, blur: float = 0.8, noise: float = 4.0) -> Image:
    """What a cheap camera makes of the scene: a little blur, sensor noise."""
    blurred = cv2.GaussianBlur(scene, (0, 0), blur)
    return np.clip(blurred + noise * rng.standard_normal(scene.shape, np.float32), 0, 255).astype(np.uint8)


def one_card(surface: str, seed: int) -> tuple[Image, Corners]:
    """One card anywhere on ``surface``, any way round; every third scene under a shadow and glare; held in a hand
    in front of the room."""
    rng = np.random.default_rng(seed)
    scene = SURFACES[surface](rng, FRAME)
    corners = placement(rng, rng.uniform(120, 280))
    paste(scene, PHOTOS[int(rng.integers(len(PHOTOS)))], corners)
    if surface == "room":
        hand(scene, corners, rng)
    if seed % 3 == 2:
        scene = lighting(scene, rng)
    return camera(scene, rng), corners


def pile(surface: str, seed: int) -> tuple[Image, Corners, Corners]:
    """A discard pile: one card, and on it another turned by 20 to 70 degrees and shifted a little. The picture,
    the top card's corners and those of the card beneath."""
    rng = np.random.default_rng(seed)
    scene = SURFACES[surface](rng, FRAME)
    height = rng.uniform(150, 250)
    centre = (rng.uniform(250, 390), rng.uniform(200, 280))
    angle = rng.uniform(0, 360)
    bottom = placement(rng, height, centre, angle)
    paste(scene, PHOTOS[int(rng.integers(len(PHOTOS)))], bottom)
    shifted = (centre[0] + rng.uniform(-30, 30), centre[1] + rng.uniform(-30, 30))
    top = placement(rng, height, shifted, angle + rng.uniform(20, 70))
    paste(scene, PHOTOS[int(rng.integers(len(PHOTOS)))], top)
    return camera(scene, rng), top, bottom


def miss(found: FoundCard, truth: Corners) -> float:
    """How far the found corners lie from the true ones, at worst, as a share of the card's height.

    Either short end may be the top, so the truth counts either way round.
    """
    height = float(np.linalg.norm(truth[3] - truth[0]))
    return min(float(np.linalg.norm(found.corners - np.roll(truth, turn, axis=0), axis=1).max()) / height
               for turn in (0, 2))


def assert_portrait(card: FoundCard) -> None:
    """The corners go clockwise from top-left round a card standing on a short side."""
    top_left, top_right, _, bottom_left = card.corners
    assert np.linalg.norm(top_right - top_left) < np.linalg.norm(bottom_left - top_left)
    edges = np.roll(card.corners, -1, axis=0) - card.corners
    turns = edges[:, 0] * np.roll(edges, -1, axis=0)[:, 1] - edges[:, 1] * np.roll(edges, -1, axis=0)[:, 0]
    assert np.all(turns > 0), "corners are not clockwise on screen"
    assert card.corners.dtype == np.float32 and card.corners.shape == (4, 2)
    assert 0 < card.score <= 1 and card.area > 0


ALLOWED_MISSES = {"wood": 1, "felt": 1, "checked": 1, "dark": 1, "light": 3, "room": 3}
"""Misses allowed in eight scenes, for the border finder, whose corners are exact to 4%. Finding is a matter of
odds (a third of the scenes have glare and a shadow), and some surfaces are harder: on the pale table a pale
border barely stands out, and a shadow's edge across the card looks like one of the card's own; in the room,
clutter touches the card and a thumb lies over it. Cream paper as bright as the border leaves it nothing to go
by (it misses 7 of the 8): finding cards there is the learned finder's work, whose corners are rougher (see
the reader's tests below)."""


@pytest.mark.parametrize("surface", ALLOWED_MISSES)
def test_one_card_is_found_with_its_corners(surface: str) -> None:
    """Eight cards of any size, turn and tilt on each surface: each is found first, its corners within 4% of its
    height, but for the few misses allowed. The seeds are fixed, so the same scenes pass or fail everywhere."""
    misses = []
    for seed in range(8):
        image, truth = one_card(surface, seed)
        found = borders.find_cards(image)
        if not found or miss(found[0], truth) > TOLERANCE:
            misses.append(seed)
        for card in found:
            assert_portrait(card)
    assert len(misses) <= ALLOWED_MISSES[surface], f"missed on {surface} with seeds {misses}"


@pytest.mark.parametrize(("surface", "seed"), [("felt", 1), ("wood", 2), ("dark", 3), ("checked", 4)])
def test_two_cards_are_both_found_the_larger_first(surface: str, seed: int) -> None:
    rng = np.random.default_rng(seed)
    scene = SURFACES[surface](rng, FRAME)
    larger = placement(rng, 230, (170, 240))
    smaller = placement(rng, 150, (480, 240))
    paste(scene, PHOTOS[int(rng.integers(len(PHOTOS)))], larger)
    paste(scene, PHOTOS[int(rng.integers(len(PHOTOS)))], smaller)
    found = borders.find_cards(camera(scene, rng))
    assert len(found) == 2
    assert miss(found[0], larger) <= TOLERANCE
    assert miss(found[1], smaller) <= TOLERANCE
    assert found[0].area > found[1].area


NEAR = 0.06
"""How far (a share of the card's height) the middle of a card found roughly may lie from the true one."""


def near(corners: Corners, truth: Corners) -> bool:
    """Whether ``corners`` have their middle within ``NEAR`` of the middle of ``truth``."""
    offset = float(np.linalg.norm(corners.mean(axis=0) - truth.mean(axis=0)))
    return offset <= NEAR * float(np.linalg.norm(truth[3] - truth[0]))


@pytest.mark.parametrize(("name", "on_top", "tops"), [("borders", "corners", 12), ("learned", "middle", 22)])
def test_the_top_card_of_a_discard_pile_is_found_first(name: str, on_top: str, tops: int) -> None:
    """Six piles on each of four surfaces. The top card must come first in ``tops`` of them, and the card
    beneath, partly hidden, must never be taken for the top card. The border finder must place the top card's
    corners (a pile is its hardest case: the top card's border meets the border beneath with no edge between);
    the learned finder's corners are rougher, so it must place the top card's middle (it does in 23 of 24)."""
    found_top = 0
    for surface in ("felt", "wood", "dark", "light"):
        for seed in range(6):
            image, top, bottom = pile(surface, seed)
            found = FINDERS[name](image)
            if found:
                found_top += miss(found[0], top) <= TOLERANCE if on_top == "corners" else near(found[0].corners, top)
            assert not found or miss(found[0], bottom) > TOLERANCE
    assert found_top >= tops


@pytest.mark.parametrize("surface", SURFACES)
@pytest.mark.parametrize("shape", [FRAME, (360, 640)], ids=["4:3", "16:9"])
@pytest.mark.parametrize("name", FINDERS)
def test_an_empty_table_has_no_cards(name: str, surface: str, shape: tuple[int, int]) -> None:
    """No card on any surface, in a 4:3 frame or a 16:9 one, which is card-shaped enough to be taken for a photo
    of a card."""
    rng = np.random.default_rng(100)
    image = camera(SURFACES[surface](rng, shape), rng)
    assert FINDERS[name](image) == []


@pytest.mark.parametrize("photo_name", PHOTOS)
def test_a_photo_of_one_card_is_found_whole_by_its_border(photo_name: str) -> None:
    """The real photos are the card with a few pixels of table round it: the card found fills the photo, and its
    crop is the card, its white border round the edge."""
    photo = cv2.imread(str(REAL / photo_name))
    found = borders.find_cards(photo)
    assert found
    height, width = photo.shape[:2]
    assert found[0].area >= 0.7 * height * width
    assert_portrait(found[0])
    crop = rectify(photo, found[0].corners, (48, 72))
    rim = np.concatenate([crop[1:3].reshape(-1, 3), crop[-3:-1].reshape(-1, 3)]).min(axis=1)
    assert np.median(rim) > np.median(crop[20:52, 12:36].min(axis=2))


@pytest.mark.parametrize("name", FINDERS)
def test_limit_caps_the_number_of_cards(name: str) -> None:
    rng = np.random.default_rng(7)
    scene = felt(rng, FRAME)
    for x in (120, 320, 520):
        paste(scene, PHOTOS[x % len(PHOTOS)], placement(rng, 150, (x, 240)))
    image = camera(scene, rng)
    assert len(FINDERS[name](image)) == 3
    assert len(FINDERS[name](image, limit=2)) == 2


@functools.cache
def model() -> CardModel:
    return CardModel()


def read_at(image: Image, truth: Corners, name: str) -> bool:
    """Whether the reader finds the card at ``truth`` (its middle, see ``near``) and reads it as the card in
    photo ``name``."""
    sighting = read_card(image, model())
    return (sighting is not None and sighting.reading.card is not None and sighting.reading.card.name == CARDS[name]
            and near(sighting.corners, truth))


@pytest.mark.parametrize("height", [85, 150, 300])
def test_a_card_alone_on_pale_paper_is_found_and_read_small_or_large(height: int) -> None:
    """A real card on cream paper, its white border as bright as the paper, the camera straight down: the reader
    finds it and reads it, whatever its size in the frame, in half the scenes (the border finder alone: none)."""
    right = 0
    for seed in range(4):
        rng = np.random.default_rng(200 + seed)
        scene = paper(rng, FRAME)
        truth = placement(rng, height)
        name = PHOTOS[int(rng.integers(len(PHOTOS)))]
        paste(scene, name, truth)
        right += read_at(camera(scene, rng), truth, name)
    assert right >= 2


@pytest.mark.parametrize("surface", ["paper", "wood", "room"])
def test_a_card_held_with_a_thumb_across_its_border_is_found_whole_and_read(surface: str) -> None:
    """A thumb over the border breaks the card's outline; the card the reader finds is still the whole card. On
    cream paper the card model trained with the 112-card deck reads 4 of the 6 (a green 6 as a 3 unsurely, a red 5
    as no card), the one before it 5; on wood and in a room, 6."""
    found_right = 0
    for seed in range(6):
        rng = np.random.default_rng(300 + seed)
        scene = SURFACES[surface](rng, FRAME)
        truth = placement(rng, rng.uniform(150, 260))
        name = PHOTOS[int(rng.integers(len(PHOTOS)))]
        paste(scene, name, truth)
        hand(scene, truth, rng)
        found_right += read_at(camera(scene, rng), truth, name)
    assert found_right >= 4


def dotted(rng: np.random.Generator, shape: tuple[int, int]) -> Image:
    """A pale cloth printed with small dots every 10 pixels: thousands of specks for the finder to sort out."""
    height, width = shape
    cloth = np.empty((height, width, 3), np.float32)
    cloth[:] = np.array([200, 230, 110], np.float32) + rng.uniform(-10, 10, 3)
    y, x = np.mgrid[0:height, 0:width]
    cloth[((y % 10) < 4) & ((x % 10) < 4)] = (170, 150, 230)
    return _finish(cloth, rng, 3.0)


def test_a_card_on_a_dotted_cloth_is_found_by_its_border_the_same_with_the_specks_cleared_first(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The dots are cleared before outlines are traced, because tracing thousands of them is slow; clearing only
    what could never be a card's rim must change nothing that is found."""
    for seed in range(4):
        rng = np.random.default_rng(seed)
        scene = dotted(rng, FRAME)
        truth = placement(rng, rng.uniform(150, 250))
        paste(scene, PHOTOS[int(rng.integers(len(PHOTOS)))], truth)
        image = camera(scene, rng)
        found = borders.find_cards(image, piled=bool(seed % 2))
        assert found and miss(found[0], truth) <= TOLERANCE
        with monkeypatch.context() as never:
            never.setattr(borders, "SPECKLED", 1.0)
            traced = borders.find_cards(image, piled=bool(seed % 2))
        assert [card.corners.tolist() for card in traced] == [card.corners.tolist() for card in found]
