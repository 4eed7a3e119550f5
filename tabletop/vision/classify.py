"""``tabletop classify``: one result object per image, in order, and a per-image error that spares the rest; with
``--all`` every card in each image."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

import cv2

from tabletop.vision.every_card import SeenCard, read_every_card
from tabletop.vision.model import CardReader
from tabletop.vision.reader import read_card


def classify_files(paths: Iterable[str], model: CardReader) -> Iterator[dict[str, object]]:
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


def classify_every_card(paths: Iterable[str], model: CardReader) -> Iterator[dict[str, object]]:
    """``{"image", "cards"}`` per readable image, every card found in it (``every_card``): each with its
    ``card``, ``confidence`` and where it lies, ``corners`` (a whole card's four, clockwise from its top left) or
    ``index`` (the four corners round the index of a card of which only that shows), in the image's pixels;
    ``{"image", "error"}`` per unreadable one."""
    for path in paths:
        image = cv2.imread(path, cv2.IMREAD_COLOR)
        if image is None:
            yield {"image": path, "error": _why_unreadable(path)}
            continue
        yield {"image": path, "cards": [_seen(card) for card in read_every_card(image, model)]}


def _seen(card: SeenCard) -> dict[str, object]:
    assert card.card is not None
    place = {"corners": card.corners} if card.corners is not None else {"index": card.index}
    return {"card": card.card.name, "confidence": round(card.reading.confidence, 4),
            **{key: [[round(float(x), 1), round(float(y), 1)] for x, y in quad] for key, quad in place.items()
               if quad is not None}}


def _why_unreadable(path: str) -> str:
    try:
        with open(path, "rb") as handle:
            handle.read(1)
    except OSError as err:
        return f"cannot open the file: {err.strerror}"
    return "not an image OpenCV can decode (JPEG, PNG, BMP, TIFF, WebP ...)"
