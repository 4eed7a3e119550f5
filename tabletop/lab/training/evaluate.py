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

from tabletop.vision.every_card import SeenCard, read_every_card
from tabletop.vision.model import NO_CARD, CardReader, Reading
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


def evaluate(model: CardReader, photos: list[Photo]) -> Evaluation:
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


@dataclass(frozen=True)
class TableCard:
    """A card of a labelled picture (``corners.csv``): its name, where its upper-left index lies and how large
    the index is (fractions of the picture's width and height), and whether its colour is sure (else only its
    value counts)."""

    card: str
    middle: tuple[float, float]
    size: tuple[float, float]
    colour_sure: bool


@dataclass
class EveryCardEvaluation:
    """Every card of every picture: found and read right, read wrong (surely or not), missed, and cards read
    where the labels name none."""

    pictures: int = 0
    cards: int = 0
    right: int = 0
    wrong_and_sure: int = 0
    unsure: int = 0
    invented: int = 0
    """Cards read where no labelled card lies."""
    reported: int = 0
    every_card_right: int = 0
    """Pictures whose every card was read right, and nothing more."""
    seconds: list[float] = field(default_factory=list)
    confusions: Counter[tuple[str, str]] = field(default_factory=Counter)

    @property
    def recall(self) -> float:
        return self.right / self.cards if self.cards else 0.0

    @property
    def precision(self) -> float:
        return self.right / self.reported if self.reported else 0.0

    @property
    def f1(self) -> float:
        total = self.recall + self.precision
        return 2 * self.recall * self.precision / total if total else 0.0


def cards_on_tables(folder: Path) -> dict[Path, list[TableCard]]:
    """The pictures of ``folder`` and every card in each, from its ``corners.csv``."""
    tables: dict[Path, list[TableCard]] = {}
    with open(folder / "corners.csv", newline="", encoding="utf-8") as handle:
        for row in csv.DictReader(handle):
            tables.setdefault(folder / row["file"], []).append(TableCard(
                row["card"], (float(row["corner_x"]), float(row["corner_y"])),
                (float(row["corner_w"]), float(row["corner_h"])), row.get("colour_sure", "1") == "1"))
    return tables


def evaluate_every_card(model: CardReader, tables: dict[Path, list[TableCard]]) -> EveryCardEvaluation:
    """Read every card of every picture as ``tabletop classify --all`` does and hold it to the labels."""
    result = EveryCardEvaluation()
    for path, truth in tables.items():
        image = cv2.imread(str(path), cv2.IMREAD_COLOR)
        if image is None:
            raise FileNotFoundError(path)
        started = time.perf_counter()
        seen = read_every_card(image, model)
        result.seconds.append(time.perf_counter() - started)
        judge(result, truth, seen, image.shape[1], image.shape[0])
    return result


def judge(result: EveryCardEvaluation, truth: list[TableCard], seen: list[SeenCard], width: int,
           height: int) -> None:
    """Pair each labelled card with a card read within its index's size of its index, and count. A card read
    right there is paired first: the top card's own index lies beside the index of the card under it, and the
    nearer of the two must not take the other's place."""
    result.pictures += 1
    result.cards += len(truth)
    result.reported += len(seen)
    near = [_within_reach(card, seen, width, height) for card in truth]
    paired: dict[int, int] = {}
    for k, card in enumerate(truth):
        right = [(distance, pick) for distance, pick in near[k] if _said(seen[pick]) == card.card]
        if right and right[0][1] not in paired.values():
            paired[k] = right[0][1]
    for k in range(len(truth)):
        free = [pick for _, pick in near[k] if pick not in paired.values()]
        if k not in paired and free:
            paired[k] = free[0]
    right_here = 0
    for k, card in enumerate(truth):
        if k not in paired:
            result.confusions[(card.card, NO_CARD)] += 1
            continue
        reading = seen[paired[k]].reading
        said = _said(seen[paired[k]])
        result.unsure += reading.unsure
        if said == card.card or (not card.colour_sure and _value(said) == _value(card.card)):
            result.right += 1
            right_here += 1
        else:
            result.confusions[(card.card, said)] += 1
            result.wrong_and_sure += not reading.unsure
    result.invented += len(seen) - len(paired)
    result.every_card_right += right_here == len(truth) and len(paired) == len(seen)


def _within_reach(card: TableCard, seen: list[SeenCard], width: int, height: int) -> list[tuple[float, int]]:
    """The cards read whose index lies within the labelled index's size of it, nearest first."""
    middle = np.array([card.middle[0] * width, card.middle[1] * height])
    reach = max(card.size[0] * width, card.size[1] * height)
    distances = [(min(float(np.linalg.norm(np.array(point) - middle)) for point in one.index_middles), k)
                 for k, one in enumerate(seen)]
    return sorted(pair for pair in distances if pair[0] <= reach)


def _said(seen: SeenCard) -> str:
    return seen.card.name if seen.card is not None else NO_CARD


def _value(name: str) -> str:
    """A card's number or symbol without its colour."""
    return name if name.startswith("wild") or name == NO_CARD else name.split("-", 1)[1]
