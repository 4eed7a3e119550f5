"""QR codes for joining a seat, made by OpenCV's encoder: no extra library, nothing fetched."""

from __future__ import annotations

import cv2
import numpy as np
import numpy.typing as npt

QUIET = 4
"""Light modules around the code, as the QR standard asks, so phones find it on a busy screen."""


def qr_modules(text: str) -> npt.NDArray[np.bool_]:
    """The code's modules, True for dark, with the standard quiet zone around them."""
    image = cv2.QRCodeEncoder.create().encode(text)
    dark = np.asarray(image) < 128
    rows, cols = np.nonzero(dark)
    code = dark[rows.min():rows.max() + 1, cols.min():cols.max() + 1]
    return np.pad(code, QUIET)


def qr_svg(text: str, module: int = 8) -> str:
    """The code as a small SVG: one path of dark runs, crisp at any size."""
    modules = qr_modules(text)
    runs = []
    for y, row in enumerate(modules):
        x = 0
        while x < len(row):
            if row[x]:
                end = x
                while end < len(row) and row[end]:
                    end += 1
                runs.append(f"M{x} {y}h{end - x}v1h{x - end}z")
                x = end
            x += 1
    size = len(modules)
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {size} {size}" width="{size * module}" '
            f'height="{size * module}" shape-rendering="crispEdges"><rect width="100%" height="100%" fill="#fff"/>'
            f'<path fill="#000" d="{"".join(runs)}"/></svg>')


def qr_text(text: str) -> str:
    """The code drawn with half-block characters, two rows of modules per line, for a terminal."""
    modules = qr_modules(text)
    if len(modules) % 2:
        modules = np.vstack([modules, np.zeros((1, modules.shape[1]), bool)])
    glyphs = {(False, False): "\u2588", (True, False): "\u2584", (False, True): "\u2580", (True, True): " "}
    return "\n".join("".join(glyphs[(bool(top), bool(bottom))] for top, bottom in zip(upper, lower, strict=True))
                     for upper, lower in zip(modules[::2], modules[1::2], strict=True))
