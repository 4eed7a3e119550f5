"""Where things are on the table, as the camera sees it: the three zones and the seats around the centre.

All positions are in pixels of the picture the watcher moves on (a camera's small stream, where it has two),
whose size the layout keeps: zones set on a picture of another size are scaled to the camera's, or refused where
its shape differs. Seats are angles around the table's centre, measured clockwise from the right-hand edge of the
picture (image y grows downward), so seat order is clockwise seen from above, as docs/record.md numbers it.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tabletop.errors import LayoutError
from tabletop.game.checks import PLAYERS
from tabletop.saving import write_whole

Point = tuple[float, float]
Size = tuple[int, int]
"""Width and height in pixels."""
LEGACY_PICTURE: Size = (640, 480)
"""The picture a layout that does not say its size was set on: every camera gave 640 x 480 before layouts said."""
SHAPE_LEEWAY = 0.02
"""How far two pictures' proportions may differ and still be the same view, one scaled from the other."""


@dataclass(frozen=True, slots=True)
class Circle:
    centre: Point
    radius: float

    def contains(self, point: Point) -> bool:
        return math.dist(point, self.centre) <= self.radius


@dataclass(frozen=True, slots=True)
class Rect:
    left: float
    top: float
    right: float
    bottom: float

    def contains(self, point: Point) -> bool:
        return self.left <= point[0] <= self.right and self.top <= point[1] <= self.bottom


@dataclass(frozen=True, slots=True)
class Layout:
    """The zones and seats; from the config, learned by calibration, or known to the table simulator."""

    discard: Circle
    draw: Circle
    reveal: Rect
    centre: Point
    seats: tuple[float, ...]
    card_height: float
    """How tall a card lies in the picture, in pixels: it sizes everything the watcher looks for."""
    picture: Size = LEGACY_PICTURE
    """The size of the picture these pixels belong to."""

    def angle_of(self, point: Point) -> float:
        """The angle of ``point`` around the centre, in degrees in [0, 360)."""
        return math.degrees(math.atan2(point[1] - self.centre[1], point[0] - self.centre[0])) % 360

    def seat_at(self, point: Point) -> int:
        """The seat whose angle is nearest to where ``point`` lies around the centre."""
        angle = self.angle_of(point)
        return min(range(len(self.seats)), key=lambda seat: _apart(self.seats[seat], angle))


def fitted(layout: Layout, size: Size) -> Layout:
    """``layout`` for a picture of ``size``: as it is when set on one of that size, scaled when set on the same view
    with more or fewer pixels; LayoutError, saying what to do, when set on a picture of another shape (another
    camera, or the same camera's other mode), where scaling would put every zone in the wrong place."""
    if layout.picture == size:
        return layout
    (width, height), (was_width, was_height) = size, layout.picture
    sx, sy = width / was_width, height / was_height
    if abs(sx / sy - 1) > SHAPE_LEEWAY:
        raise LayoutError(f"the zones were set on a {was_width}x{was_height} picture and the camera now gives "
                          f"{width}x{height}, another shape: set the zones again")
    scale = (sx + sy) / 2

    def point(p: Point) -> Point:
        return p[0] * sx, p[1] * sy

    reveal = layout.reveal
    return Layout(discard=Circle(point(layout.discard.centre), layout.discard.radius * scale),
                  draw=Circle(point(layout.draw.centre), layout.draw.radius * scale),
                  reveal=Rect(reveal.left * sx, reveal.top * sy, reveal.right * sx, reveal.bottom * sy),
                  centre=point(layout.centre), seats=layout.seats, card_height=layout.card_height * scale,
                  picture=size)


def _apart(a: float, b: float) -> float:
    return abs((a - b + 180) % 360 - 180)


def layout_to_json(layout: Layout) -> dict[str, Any]:
    return {"discard": {"centre": list(layout.discard.centre), "radius": layout.discard.radius},
            "draw": {"centre": list(layout.draw.centre), "radius": layout.draw.radius},
            "reveal": {"left": layout.reveal.left, "top": layout.reveal.top, "right": layout.reveal.right,
                       "bottom": layout.reveal.bottom},
            "centre": list(layout.centre), "seats": list(layout.seats), "card_height": layout.card_height,
            "picture": list(layout.picture)}


def read_layout(path: Path) -> Layout:
    """The layout in a JSON file, as ``tabletop calibrate`` and the host page write it."""
    try:
        return layout_from_json(json.loads(path.read_text(encoding="utf-8")))
    except OSError as err:
        raise LayoutError(f"cannot read {path}: {err.strerror}") from err
    except json.JSONDecodeError as err:
        raise LayoutError(f"{path} is not JSON: {err}") from err


def write_layout(layout: Layout, path: Path) -> None:
    """Save ``layout`` whole or not at all: a power cut while saving leaves the previous file."""
    write_whole(path, json.dumps(layout_to_json(layout), indent=2))


def layout_from_json(obj: Any) -> Layout:
    """The layout in a JSON object as ``layout_to_json`` writes it; LayoutError names what is wrong."""
    if not isinstance(obj, dict):
        raise LayoutError("a table layout must be a JSON object")
    seats = _get(obj, "seats", list)
    if len(seats) not in PLAYERS:
        raise LayoutError("seats: give one angle (degrees) for each of 2 to 10 seats")
    return Layout(discard=_circle(obj, "discard"), draw=_circle(obj, "draw"), reveal=_rect(obj, "reveal"),
                  centre=_point(obj, "centre"), seats=tuple(_number(v, "seats") % 360 for v in seats),
                  card_height=_positive(obj.get("card_height"), "card_height"), picture=_picture(obj))


def _picture(obj: dict[str, Any]) -> Size:
    """The picture's size, where the layout says it (layouts written before they did were set on 640 x 480)."""
    if "picture" not in obj:
        return LEGACY_PICTURE
    width, height = _point(obj, "picture")
    if not (width >= 1 and height >= 1 and width.is_integer() and height.is_integer()):
        raise LayoutError("picture: must be [width, height], whole numbers of pixels")
    return int(width), int(height)


def _get(obj: dict[str, Any], key: str, kind: type, name: str | None = None) -> Any:
    name = name or key
    if key not in obj:
        raise LayoutError(f"{name}: missing")
    if not isinstance(obj[key], kind):
        raise LayoutError(f"{name}: has the wrong type")
    return obj[key]


LARGEST = 1e6
"""The largest size a layout's number may have (pixels or degrees): anything beyond is no camera's picture, and an
integer of hundreds of digits would overflow on its way to a float."""


def _number(value: Any, name: str) -> float:
    if (isinstance(value, bool) or not isinstance(value, (int, float)) or not -LARGEST <= value <= LARGEST
            or not math.isfinite(value)):
        raise LayoutError(f"{name}: must be a number from {-LARGEST:.0e} to {LARGEST:.0e}")
    return float(value)


def _positive(value: Any, name: str) -> float:
    number = _number(value, name)
    if number <= 0:
        raise LayoutError(f"{name}: must be more than 0")
    return number


def _point(obj: dict[str, Any], key: str, name: str | None = None) -> Point:
    name = name or key
    value = _get(obj, key, list, name)
    if len(value) != 2:
        raise LayoutError(f"{name}: must be [x, y]")
    return _number(value[0], name), _number(value[1], name)


def _circle(obj: dict[str, Any], key: str) -> Circle:
    inner = _get(obj, key, dict)
    return Circle(_point(inner, "centre", f"{key}.centre"), _positive(inner.get("radius"), f"{key}.radius"))


def _rect(obj: dict[str, Any], key: str) -> Rect:
    inner = _get(obj, key, dict)
    sides = ("left", "top", "right", "bottom")
    left, top, right, bottom = (_number(inner.get(side), f"{key}.{side}") for side in sides)
    if right <= left or bottom <= top:
        raise LayoutError(f"{key}: right must be right of left and bottom below top")
    return Rect(left, top, right, bottom)
