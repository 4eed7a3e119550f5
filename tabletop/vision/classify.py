"""``tabletop classify``: one result object per image, in order, and a per-image error that spares the rest."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

import cv2

from tabletop.vision.model import CardModel
from tabletop.vision.reader import read_card


def classify_files(paths: Iterable[str], model: CardModel) -> Iterator[dict[str, object]]:
    """``{"image", "card", "confidence"}`` per readable image, ``{"image", "error"}`` per unreadable one."""
    for path in paths:
        image = cv2.imread(path, cv2.IMREAD_COLOR)
        if image is None:
            yield {"image": path, "error": _why_unreadable(path)}
            continue
        sighting = read_card(image, model)
        if sighting is None:
            yield {"image": path, "card": None, "confidence": 1.0}
        else:
            reading = sighting.reading
            yield {"image": path, "card": reading.card.name if reading.card else None,
                   "confidence": round(reading.confidence, 4)}


def _why_unreadable(path: str) -> str:
    try:
        with open(path, "rb") as handle:
            handle.read(1)
    except OSError as err:
        return f"cannot open the file: {err.strerror}"
    return "not an image OpenCV can decode (JPEG, PNG, BMP, TIFF, WebP ...)"
