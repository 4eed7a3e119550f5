"""The layout drawn over the camera's picture, so that a person checks it by looking rather than by reading
numbers: the host's preview, and the picture ``tabletop calibrate --picture`` writes."""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path

import cv2
import numpy as np

from tabletop.errors import PictureError
from tabletop.vision.crop import Corners, Image
from tabletop.watcher.calibrate import Suspect
from tabletop.watcher.layout import Layout

ZONE_COLOUR = (0, 220, 255)
SEAT_COLOUR = (255, 200, 0)
DECK_COLOUR = (60, 220, 60)
REFUSED_COLOUR = (0, 0, 255)
FONT = cv2.FONT_HERSHEY_SIMPLEX
PICTURE_SUFFIXES = (".png", ".jpg", ".jpeg")


def draw_zones(image: Image, layout: Layout) -> Image:
    """A copy of the picture with the zones outlined, the table's centre marked and a line towards each seat."""
    out = np.ascontiguousarray(image.copy())
    for name, zone in (("discard", layout.discard), ("draw", layout.draw)):
        centre = (round(zone.centre[0]), round(zone.centre[1]))
        cv2.circle(out, centre, round(zone.radius), ZONE_COLOUR, 2, cv2.LINE_AA)
        _label(out, name, (centre[0] - 24, centre[1] - round(zone.radius) - 6), ZONE_COLOUR)
    reveal = layout.reveal
    cv2.rectangle(out, (round(reveal.left), round(reveal.top)), (round(reveal.right), round(reveal.bottom)),
                  ZONE_COLOUR, 2, cv2.LINE_AA)
    _label(out, "reveal", (round(reveal.left) + 6, round(reveal.top) + 18), ZONE_COLOUR)
    cx, cy = layout.centre
    reach = max(out.shape[:2])
    for seat, angle in enumerate(layout.seats):
        dx, dy = math.cos(math.radians(angle)), math.sin(math.radians(angle))
        cv2.line(out, (round(cx), round(cy)), (round(cx + dx * reach), round(cy + dy * reach)), SEAT_COLOUR, 1,
                 cv2.LINE_AA)
        _label(out, f"seat {seat}", (round(cx + dx * reach * 0.35), round(cy + dy * reach * 0.35)), SEAT_COLOUR)
    cv2.drawMarker(out, (round(cx), round(cy)), SEAT_COLOUR, cv2.MARKER_CROSS, 24, 2, cv2.LINE_AA)
    return out


def draw_calibration(image: Image, layout: Layout, deck: Corners) -> Image:
    """The zones as ``draw_zones`` shows them, and the outline of the deck they were measured round."""
    out = draw_zones(image, layout)
    _outline(out, deck, "deck", DECK_COLOUR)
    return out


def draw_refusal(image: Image, suspects: Sequence[Suspect]) -> Image:
    """A copy of the picture with each thing that was not taken for the deck outlined in red, with why."""
    out = np.ascontiguousarray(image.copy())
    for suspect in suspects:
        _outline(out, suspect.corners, suspect.why, REFUSED_COLOUR)
    _label(out, "not calibrated: see the message", (8, 20), REFUSED_COLOUR)
    return out


def write_picture(picture: Image, path: Path) -> None:
    """Save ``picture`` as PNG or JPEG, as the file's name says."""
    if path.suffix.lower() not in PICTURE_SUFFIXES:
        raise PictureError(f"cannot write the picture {path}: name it .png or .jpg")
    encoded = cv2.imencode(path.suffix.lower(), picture)[1]
    try:
        path.write_bytes(encoded.tobytes())
    except OSError as err:
        raise PictureError(f"cannot write the picture {path}: {err.strerror}") from err


def _outline(out: Image, corners: Corners, text: str, colour: tuple[int, int, int]) -> None:
    points = np.round(corners).astype(np.int32).reshape(-1, 1, 2)
    cv2.polylines(out, [points], True, colour, 2, cv2.LINE_AA)
    left = int(points[:, 0, 0].min())
    bottom = int(points[:, 0, 1].max())
    _label(out, text, (left, min(bottom + 18, out.shape[0] - 4)), colour)


def _label(out: Image, text: str, at: tuple[int, int], colour: tuple[int, int, int]) -> None:
    """Text on a dark strip, so that it reads on a pale table as on a dark one."""
    (width, height), below = cv2.getTextSize(text, FONT, 0.5, 1)
    x, y = at
    cv2.rectangle(out, (x - 2, y - height - 3), (x + width + 2, y + below), (0, 0, 0), cv2.FILLED)
    cv2.putText(out, text, at, FONT, 0.5, colour, 1, cv2.LINE_AA)
