"""How well the card model reads a folder of labelled photographs (``labels.csv``: ``file,card``)."""

from __future__ import annotations

import csv
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import cv2

from tabletop.vision.model import CardModel
from tabletop.vision.reader import read_card


@dataclass
class Evaluation:
    """Right readings out of all, and which card was taken for which."""

    total: int = 0
    right: int = 0
    confusions: Counter[tuple[str, str]] = field(default_factory=Counter)

    @property
    def accuracy(self) -> float:
        return self.right / self.total if self.total else 0.0


def labelled_photos(folder: Path) -> list[tuple[Path, str]]:
    with open(folder / "labels.csv", newline="", encoding="utf-8") as handle:
        return [(folder / row["file"], row["card"]) for row in csv.DictReader(handle)]


def evaluate(model: CardModel, photos: list[tuple[Path, str]]) -> Evaluation:
    """Read every photograph through the whole camera path: finder, crop, balance, model."""
    result = Evaluation()
    for path, truth in photos:
        image = cv2.imread(str(path), cv2.IMREAD_COLOR)
        if image is None:
            raise FileNotFoundError(path)
        sighting = read_card(image, model)
        said = sighting.reading.card.name if sighting and sighting.reading.card else "none"
        result.total += 1
        if said == truth:
            result.right += 1
        else:
            result.confusions[(truth, said)] += 1
    return result
