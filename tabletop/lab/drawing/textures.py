"""Photographed surfaces for training: GIMP's tileable patterns (wood, paper, stone, cloth) and scikit-image's
sample photographs, found where their packages installed them.

They are lab material: training reads them, the table unit never needs them. Where neither package is
installed the training frames fall back to the drawn surfaces of ``scene`` (``tabletop train`` says how many
real surfaces it found).
"""

from __future__ import annotations

import functools
import importlib.util
import struct
from pathlib import Path

import cv2
import numpy as np

from tabletop.vision.crop import Image

GIMP_PATTERNS = Path("/usr/share/gimp/2.0/patterns")
"""Where Debian's ``gimp-data`` puts its patterns."""
MIN_SIDE = 48
"""Patterns smaller than this are icons rather than surfaces."""


def read_pat(path: Path) -> Image | None:
    """A GIMP ``.pat`` pattern as BGR, or None if the file is not one.

    The format is a big-endian header (its own size, version, width, height, bytes per pixel, ``GPAT``), a name,
    then the pixels row by row.
    """
    data = path.read_bytes()
    if len(data) < 24 or data[20:24] != b"GPAT":
        return None
    header, _, width, height, depth = struct.unpack(">5I", data[:20])
    pixels = np.frombuffer(data, np.uint8, width * height * depth, header) if depth in (1, 2, 3, 4) else None
    if pixels is None or len(pixels) < width * height * depth or min(width, height) < MIN_SIDE:
        return None
    image = pixels.reshape(height, width, depth)
    if depth <= 2:
        return cv2.cvtColor(np.ascontiguousarray(image[..., 0]), cv2.COLOR_GRAY2BGR)
    return cv2.cvtColor(np.ascontiguousarray(image[..., :3]), cv2.COLOR_RGB2BGR)


def _sample_photo_folder() -> Path | None:
    spec = importlib.util.find_spec("skimage")
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(next(iter(spec.submodule_search_locations))) / "data"


@functools.cache
def patterns() -> tuple[Image, ...]:
    """Every tileable GIMP pattern big enough to be a surface."""
    found = (read_pat(path) for path in sorted(GIMP_PATTERNS.rglob("*.pat")))
    return tuple(image for image in found if image is not None)


@functools.cache
def photos() -> tuple[Image, ...]:
    """scikit-image's sample photographs (a cat, coffee, bricks, gravel, grass, a page of text ...), in colour."""
    folder = _sample_photo_folder()
    if folder is None:
        return ()
    found = []
    for path in sorted([*folder.glob("*.png"), *folder.glob("*.jpg")]):
        image = cv2.imread(str(path), cv2.IMREAD_COLOR)
        if image is not None and min(image.shape[:2]) >= 4 * MIN_SIDE:
            found.append(image)
    return tuple(found)


def tiled(pattern: Image, shape: tuple[int, int], rng: np.random.Generator) -> Image:
    """``pattern`` scaled, turned and repeated to cover ``shape`` (height, width)."""
    scale = float(np.exp(rng.uniform(np.log(0.5), np.log(3.0))))
    tile = cv2.resize(pattern, None, fx=scale, fy=scale, interpolation=cv2.INTER_LINEAR)
    side = int(np.hypot(*shape)) + 2
    reps = (side // tile.shape[0] + 2, side // tile.shape[1] + 2, 1)
    big = np.tile(tile, reps)
    turn = cv2.getRotationMatrix2D((big.shape[1] / 2, big.shape[0] / 2), float(rng.uniform(0, 360)), 1.0)
    turn[:, 2] -= (big.shape[1] - shape[1]) / 2, (big.shape[0] - shape[0]) / 2
    return cv2.warpAffine(big, turn, (shape[1], shape[0]), flags=cv2.INTER_LINEAR)


def cropped(photo: Image, shape: tuple[int, int], rng: np.random.Generator) -> Image:
    """A piece of ``photo`` scaled to cover ``shape`` (height, width), sometimes mirrored."""
    height, width = shape
    fit = max(height / photo.shape[0], width / photo.shape[1])
    scale = fit * float(np.exp(rng.uniform(0, np.log(3.0))))
    big = cv2.resize(photo, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR)
    y = int(rng.integers(0, big.shape[0] - height + 1))
    x = int(rng.integers(0, big.shape[1] - width + 1))
    piece = big[y:y + height, x:x + width]
    return np.ascontiguousarray(piece[:, ::-1] if rng.random() < 0.5 else piece)


def photographed(rng: np.random.Generator, shape: tuple[int, int]) -> Image | None:
    """A real surface (a GIMP pattern or a sample photograph) covering ``shape``; None where none is installed."""
    tiles, pictures = patterns(), photos()
    if not tiles and not pictures:
        return None
    if pictures and (not tiles or rng.random() < 0.3):
        return cropped(pictures[int(rng.integers(len(pictures)))], shape, rng)
    return tiled(tiles[int(rng.integers(len(tiles)))], shape, rng)
