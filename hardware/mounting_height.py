#!/usr/bin/env python3
"""How high above the table each camera must hang to see the whole table.

The camera looks straight down at the centre of the table. To see a table W wide and D deep, its
horizontal field of view must cover W and its vertical one D:

    h = max(W/2 / tan(hfov/2), D/2 / tan(vfov/2)) * (1 + margin)

The camera can also be turned by 90 degrees (its long side along the table's depth); the lower of the two
heights is the one to use, and the table says when it is the rotated one.

Run without arguments, it prints the Markdown table that is in hardware/README.md (hardware/check compares
the two). Other tables: ``python3 hardware/mounting_height.py --table 140x90 --table 200x100``; a camera mode
of another aspect ratio than the sensor's (it crops the picture): ``--aspect 4:3``.
Standard library only.
"""

from __future__ import annotations

import argparse
import math
from typing import NamedTuple


class Camera(NamedTuple):
    name: str
    hfov: float  # degrees, along the sensor's long side
    vfov: float  # degrees, along its short side
    aspect: str  # of the sensor's full field of view


CAMERAS = [
    Camera("Raspberry Pi Camera Module 3", 66.0, 41.0, "16:9"),
    Camera("Raspberry Pi Camera Module 3 Wide", 102.0, 67.0, "16:9"),
    Camera("Typical 1080p USB webcam", 70.0, 43.0, "16:9"),
]

TABLES = [(80.0, 80.0), (120.0, 80.0), (160.0, 90.0)]  # width x depth, cm

MARGIN = 0.10

TIMES = "\u00d7"  # the multiplication sign, as printed in the table


def height_for(hfov: float, vfov: float, width: float, depth: float, margin: float) -> float:
    """Height (same unit as width and depth) at which a camera with this FOV sees width x depth."""
    half_h = math.tan(math.radians(hfov) / 2)
    half_v = math.tan(math.radians(vfov) / 2)
    return max(width / 2 / half_h, depth / 2 / half_v) * (1 + margin)


def ratio(aspect: str) -> float:
    """``"16:9"`` as a number (width / height)."""
    across, _, down = aspect.partition(":")
    return float(across) / float(down)


def cropped(camera: Camera, aspect: str | None) -> Camera:
    """The camera in an output mode of another aspect ratio (e.g. 640 x 480 is 4:3), which crops the sensor:
    a narrower mode loses the sides, a wider one the top and bottom."""
    if aspect is None or math.isclose(ratio(aspect), ratio(camera.aspect)):
        return camera
    half_h, half_v = math.tan(math.radians(camera.hfov) / 2), math.tan(math.radians(camera.vfov) / 2)
    if ratio(aspect) < ratio(camera.aspect):
        half_h = half_v * ratio(aspect)
    else:
        half_v = half_h / ratio(aspect)
    hfov, vfov = (round(math.degrees(2 * math.atan(half)), 1) for half in (half_h, half_v))
    return Camera(camera.name, hfov, vfov, aspect)


def best_height(camera: Camera, width: float, depth: float, margin: float = MARGIN) -> tuple[float, bool]:
    """The lower of the two heights (as is, rotated 90 degrees) and whether it is the rotated one."""
    upright = height_for(camera.hfov, camera.vfov, width, depth, margin)
    rotated = height_for(camera.vfov, camera.hfov, width, depth, margin)
    if rotated < upright - 1e-9:
        return rotated, True
    return upright, False


def _cm(value: float) -> str:
    return f"{value:g}"


def markdown_table(
    cameras: list[Camera] = CAMERAS,
    tables: list[tuple[float, float]] = TABLES,
    margin: float = MARGIN,
) -> str:
    header = ["Camera", f"FOV (h {TIMES} v)", "Aspect"]
    header += [f"{_cm(w)} {TIMES} {_cm(d)} cm table" for w, d in tables]
    lines = [
        "| " + " | ".join(header) + " |",
        "|" + "|".join(["---"] * 3 + ["--:"] * len(tables)) + "|",
    ]
    for camera in cameras:
        cells = [camera.name, f"{camera.hfov:g}° {TIMES} {camera.vfov:g}°", camera.aspect]
        for width, depth in tables:
            height, rotated = best_height(camera, width, depth, margin)
            cells.append(f"{math.ceil(height)} cm" + (" (rotated)" if rotated else ""))
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def _table_size(text: str) -> tuple[float, float]:
    try:
        width, depth = (float(part) for part in text.lower().replace(TIMES, "x").split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected WIDTHxDEPTH in cm, e.g. 120x80, not {text!r}") from None
    if width <= 0 or depth <= 0:
        raise argparse.ArgumentTypeError("width and depth must be positive")
    return width, depth


def _aspect(text: str) -> str:
    try:
        if ratio(text) <= 0:
            raise ValueError
    except (ValueError, ZeroDivisionError):
        raise argparse.ArgumentTypeError(f"expected an aspect ratio like 4:3, not {text!r}") from None
    return text


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--table",
        action="append",
        type=_table_size,
        metavar="WxD",
        help="table width x depth in cm (repeatable; default: 80x80, 120x80, 160x90)",
    )
    parser.add_argument(
        "--margin",
        type=float,
        default=MARGIN * 100,
        metavar="PERCENT",
        help="extra height beyond the table's edges, in percent (default: 10)",
    )
    parser.add_argument(
        "--aspect",
        type=_aspect,
        metavar="W:H",
        help="the output mode's aspect ratio when it is not the sensor's (e.g. 4:3 for 640x480)",
    )
    args = parser.parse_args()
    cameras = [cropped(camera, args.aspect) for camera in CAMERAS]
    print(markdown_table(cameras, args.table or TABLES, args.margin / 100))


if __name__ == "__main__":
    main()
