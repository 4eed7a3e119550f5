"""A table where people keep reaching in and no card can be read: what a wrong layout looks like to the watcher."""

from __future__ import annotations

from collections.abc import Iterator

import cv2
import numpy as np

from tabletop.sources import Frame
from tabletop.watcher.layout import Circle, Layout, Rect

FPS = 2.0
"""Few frames a second, so that a minute of play is quick to watch."""
LAYOUT = Layout(discard=Circle((200, 50), 30), draw=Circle((120, 50), 25), reveal=Rect(40, 130, 280, 230),
                centre=(160, 120), seats=(90.0, 270.0), card_height=40.0, picture=(320, 240))
"""Zones on a 320 x 240 picture, the piles along its top, well away from where the arm reaches in."""


def reaching_frames(seconds: float) -> list[Frame]:
    """An arm reaching in from the bottom edge for two frames, then four of the bare table, over and over."""
    table = np.full((240, 320, 3), (150, 160, 170), np.uint8)
    frames = []
    for k in range(int(seconds * FPS)):
        image = table.copy()
        if k % 6 in (3, 4):
            x = 40 + 6 * (k % 6)
            cv2.rectangle(image, (x, 140), (x + 30, 239), (40, 60, 90), -1)
        frames.append(Frame(image, k / FPS))
    return frames


class Film:
    """The frames as a source, as a camera would give them."""

    name = "film"
    live = False

    def __init__(self, frames: list[Frame]) -> None:
        self._frames = frames

    def frames(self) -> Iterator[Frame]:
        yield from self._frames

    def close(self) -> None:
        """Nothing is held open."""
