"""Numerals and letters from real typefaces, as masks, so rendered cards carry the heavy sans digits real decks do.

OpenCV's own vector fonts are thin strokes; real UNO digits are heavy, round sans glyphs. The masks are drawn once
from free fonts (DejaVu, Liberation, URW Gothic, Nimbus Sans, FreeSans) by ``python -m tabletop.lab.drawing.glyphs``,
which needs Pillow and the Debian font packages, and are shipped as ``glyphs.png`` and ``glyphs.json`` so that
rendering needs only OpenCV.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import cv2
import numpy as np

from tabletop.vision.crop import Image

HERE = Path(__file__).resolve().parent
ATLAS, INDEX = HERE / "glyphs.png", HERE / "glyphs.json"
CHARACTERS = "0123456789+WILDUNO"
SIZE = 112
FONTS = {
    "dejavu": "truetype/dejavu/DejaVuSans-Bold.ttf",
    "dejavu-condensed": "truetype/dejavu/DejaVuSansCondensed-Bold.ttf",
    "liberation": "truetype/liberation2/LiberationSans-Bold.ttf",
    "gothic": "opentype/urw-base35/URWGothic-Demi.otf",
    "nimbus": "opentype/urw-base35/NimbusSans-Bold.otf",
    "free": "truetype/freefont/FreeSansBold.ttf",
    "dejavu-italic": "truetype/dejavu/DejaVuSans-BoldOblique.ttf",
    "liberation-italic": "truetype/liberation2/LiberationSans-BoldItalic.ttf",
    "gothic-italic": "opentype/urw-base35/URWGothic-DemiOblique.otf",
    "nimbus-italic": "opentype/urw-base35/NimbusSans-BoldItalic.otf",
}


@cache
def _atlas() -> tuple[Image, dict[str, dict[str, list[int]]]]:
    atlas = cv2.imread(str(ATLAS), cv2.IMREAD_GRAYSCALE)
    if atlas is None:
        raise FileNotFoundError(ATLAS)
    with open(INDEX, encoding="utf-8") as handle:
        return atlas, json.load(handle)


def fonts(italic: bool) -> tuple[str, ...]:
    return tuple(name for name in _atlas()[1] if name.endswith("-italic") == italic)


def glyph(font: str, character: str) -> Image:
    """The mask of one character, cropped to its ink, 0 to 255."""
    atlas, index = _atlas()
    x, y, w, h = index[font][character]
    mask: Image = atlas[y:y + h, x:x + w]
    return mask


def text_mask(font: str, text: str) -> Image:
    """A line of text as one mask, the glyphs set side by side on a common baseline."""
    masks = [glyph(font, c) for c in text]
    height = max(m.shape[0] for m in masks)
    gap = SIZE // 14
    padded = [np.pad(m, ((height - m.shape[0], 0), (0, gap))) for m in masks]
    return np.hstack(padded)[:, :-gap]


def build(fonts_folder: Path = Path("/usr/share/fonts")) -> None:
    """Draw every character in every font and write the atlas beside this module."""
    from PIL import Image as PilImage
    from PIL import ImageDraw, ImageFont

    rows: list[np.ndarray] = []
    index: dict[str, dict[str, list[int]]] = {}
    for row, (name, file) in enumerate(FONTS.items()):
        font = ImageFont.truetype(str(fonts_folder / file), SIZE)
        cells, x = [], 0
        for character in CHARACTERS:
            canvas = PilImage.new("L", (SIZE * 2, SIZE * 2))
            ImageDraw.Draw(canvas).text((SIZE // 2, SIZE // 4), character, fill=255, font=font)
            ink = np.asarray(canvas)
            ys, xs = np.nonzero(ink > 0)
            cell = ink[ys.min():ys.max() + 1, xs.min():xs.max() + 1]
            index.setdefault(name, {})[character] = [x, row * SIZE * 2, cell.shape[1], cell.shape[0]]
            cells.append(np.pad(cell, ((0, SIZE * 2 - cell.shape[0]), (0, 0))))
            x += cell.shape[1]
        rows.append(np.hstack(cells))
    width = max(r.shape[1] for r in rows)
    cv2.imwrite(str(ATLAS), np.vstack([np.pad(r, ((0, 0), (0, width - r.shape[1]))) for r in rows]))
    INDEX.write_text(json.dumps(index) + "\n", encoding="utf-8")


if __name__ == "__main__":
    build()
