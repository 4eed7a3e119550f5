"""Photographs of real cards for the table simulator to lay instead of its rendered faces.

A folder holds one photograph per card, cut at the card's outer edge, and a ``labels.csv`` of ``file,card`` (as
``tests/data/real-cards``). Several photographs may show the same card; each film lays one of them, chosen by its
seed. A card the folder has no photograph of keeps its rendered face, so a folder of a few cards is still of use;
but a folder that names a card or a file that is not there is refused, naming the line, rather than filmed
without it.
"""

from __future__ import annotations

import csv
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from tabletop.errors import FacesError
from tabletop.game.cards import Card
from tabletop.lab.drawing import render
from tabletop.vision.crop import Image

LABELS = "labels.csv"
"""The file in a folder of photographs that says which card each photograph shows."""
COLUMNS = ("file", "card")


@dataclass(frozen=True)
class CardPhotos:
    """The photographs of a folder by the card they show, each card's in the order ``labels.csv`` lists them."""

    folder: Path
    photos: dict[Card, tuple[Path, ...]]

    @staticmethod
    def read(folder: Path) -> CardPhotos:
        """The folder's photographs as its ``labels.csv`` names them; FacesError for a missing folder or labels
        file, and for a line naming an unknown card or a file the folder lacks."""
        if not folder.is_dir():
            raise FacesError(f"{folder}: no such folder of card photographs")
        labels = folder / LABELS
        if not labels.is_file():
            raise FacesError(f"{folder}: no {LABELS} (a line 'file,card' for each photograph, e.g. '000.jpg,red-7')")
        photos: dict[Card, list[Path]] = {}
        try:
            with open(labels, newline="", encoding="utf-8") as handle:
                for line, file, card in _rows(labels, handle):
                    photos.setdefault(card, []).append(_photo(labels, line, folder / file))
        except (UnicodeDecodeError, csv.Error) as err:
            raise FacesError(f"{labels}: not a CSV file of UTF-8 text ({err})") from err
        if not photos:
            raise FacesError(f"{labels}: names no photograph")
        return CardPhotos(folder, {card: tuple(paths) for card, paths in photos.items()})

    def faces(self, rng: np.random.Generator) -> dict[Card, tuple[Image, Image]]:
        """One photograph of each card, drawn by ``rng``, as a face the size and shape of a rendered one."""
        return {card: _face(paths[int(rng.integers(len(paths)))]) for card, paths in sorted(
            self.photos.items(), key=lambda item: item[0].name)}


def _rows(labels: Path, handle: Iterator[str]) -> list[tuple[int, str, Card]]:
    """Each line after the header as its line number, file name and card; blank lines are skipped."""
    rows = csv.reader(handle)
    header = next(rows, None)
    if header is None or tuple(cell.strip() for cell in header[:2]) != COLUMNS:
        raise FacesError(f"{labels}: line 1: the header must be 'file,card'")
    out = []
    for cells in rows:
        if not any(cell.strip() for cell in cells):
            continue
        line = rows.line_num
        if len(cells) < 2:
            raise FacesError(f"{labels}: line {line}: a file and a card are needed, comma separated")
        file, name = cells[0].strip(), cells[1].strip()
        try:
            card = Card.from_name(name)
        except ValueError:
            raise FacesError(f"{labels}: line {line}: unknown card {name!r} (cards are named as red-7, "
                             "blue-draw-two, wild, wild-draw-four)") from None
        out.append((line, file, card))
    return out


def _photo(labels: Path, line: int, path: Path) -> Path:
    if not path.is_file():
        raise FacesError(f"{labels}: line {line}: no photograph {path.name} in {path.parent}")
    return path


def _face(path: Path) -> tuple[Image, Image]:
    """The photograph squeezed to a rendered card's size, under its rounded corners: the photograph is cut at the
    card's edge, and what shows of the background at its corners goes."""
    image = cv2.imread(str(path), cv2.IMREAD_COLOR)
    if image is None:
        raise FacesError(f"{path}: not a picture that can be read")
    face = cv2.resize(image, (render.WIDTH, render.HEIGHT), interpolation=cv2.INTER_AREA)
    return face, render.card_mask()
