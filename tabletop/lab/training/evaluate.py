"""How well the camera path reads a folder of labelled photographs (``labels.csv``: ``file,card``, and where the
pictures are whole scenes, the box of the card's index corner).

A picture is read as ``tabletop classify`` reads it: the most prominent card, found, cropped and read.
"""

from __future__ import annotations

import csv
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from tabletop.vision.model import NO_CARD, CardModel, Reading
from tabletop.vision.reader import Sighting, read_card


@dataclass(frozen=True)
class Photo:
    """A labelled picture: its file, its card, and where that card's upper-left index lies (as fractions of the
    picture's width and height), if the label says."""

    path: Path
    card: str
    index_corner: tuple[float, float] | None = None


@dataclass
class Evaluation:
    """Right readings out of all, the ways the rest went, and which card was taken for which."""

    total: int = 0
    right: int = 0
    no_card: int = 0
    wrong_and_sure: int = 0
    unsure: int = 0
    elsewhere: int = 0
    """Pictures whose card was read from somewhere other than the labelled card (another card, or none of one)."""
    seconds: float = 0.0
    confusions: Counter[tuple[str, str]] = field(default_factory=Counter)
    sure_confusions: Counter[tuple[str, str]] = field(default_factory=Counter)
    """The confusions read surely: the ones the buzzer would have sounded on."""

    @property
    def accuracy(self) -> float:
        return self.right / self.total if self.total else 0.0

    def add(self, photo: Photo, sighting: Sighting | None, width: int, height: int) -> None:
        self.tally(photo.card, None if sighting is None else sighting.reading)
        self.no_card += sighting is None
        if sighting is not None:
            self.elsewhere += photo.index_corner is not None and not _holds(sighting, photo.index_corner,
                                                                             width, height)

    def tally(self, truth: str, reading: Reading | None) -> None:
        """One card, ``truth`` by name, read as ``reading`` (None where nothing was read). Only a card read surely
        is wrong and sure: "no card", however sure, sounds no buzzer."""
        said = reading.card.name if reading is not None and reading.card is not None else NO_CARD
        self.total += 1
        self.unsure += reading is not None and reading.unsure
        if said == truth:
            self.right += 1
            return
        self.confusions[(truth, said)] += 1
        if reading is not None and reading.card is not None and not reading.unsure:
            self.wrong_and_sure += 1
            self.sure_confusions[(truth, said)] += 1


def labelled_photos(folder: Path) -> list[Photo]:
    with open(folder / "labels.csv", newline="", encoding="utf-8") as handle:
        return [Photo(folder / row["file"], row["card"], _corner(row)) for row in csv.DictReader(handle)]


def _corner(row: dict[str, str]) -> tuple[float, float] | None:
    if not row.get("corner_x") or not row.get("corner_y"):
        return None
    return float(row["corner_x"]), float(row["corner_y"])


def _holds(sighting: Sighting, corner: tuple[float, float], width: int, height: int) -> bool:
    """Whether the card found covers the labelled index corner (a little outside its outline still counts)."""
    corners = sighting.corners
    middle = corners.mean(axis=0)
    grown = (middle + (corners - middle) * 1.1).astype(np.float32)
    point = (corner[0] * width, corner[1] * height)
    return cv2.pointPolygonTest(grown, point, False) >= 0


def evaluate(model: CardModel, photos: list[Photo]) -> Evaluation:
    """Read every photograph through the whole camera path: finder, crop, balance, model."""
    result = Evaluation()
    for photo in photos:
        image = cv2.imread(str(photo.path), cv2.IMREAD_COLOR)
        if image is None:
            raise FileNotFoundError(photo.path)
        started = time.perf_counter()
        sighting = read_card(image, model)
        result.seconds += time.perf_counter() - started
        result.add(photo, sighting, image.shape[1], image.shape[0])
    return result
