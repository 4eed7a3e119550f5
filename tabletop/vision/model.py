"""The card model at run time: onnxruntime and numpy only, loaded once, reading a batch of crops per call."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import onnxruntime

from tabletop.errors import TabletopError
from tabletop.game.cards import Card
from tabletop.shipped import MODELS_PACKAGE, shipped
from tabletop.vision.crop import Image

MODELS = shipped(MODELS_PACKAGE)
"""Where the shipped networks are: the card model and the finder's two looks."""
DEFAULT_MODEL = MODELS / "cards.onnx"
NO_CARD = "none"
UNSURE_BELOW = 0.8
"""Readings less confident than this are reported as unsure: a person should confirm them."""
LOOK_AGAIN_BELOW = 0.95
"""Crops read less confidently than this are read a second time, turned half round (see ``probabilities``)."""


def cpu_session(path: Path, threads: int) -> onnxruntime.InferenceSession:
    """An onnxruntime session for the networks ``path`` holds, on the CPU: ``threads`` share each call, and calls
    are not run in parallel with one another (the callers batch their work instead)."""
    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = threads
    options.inter_op_num_threads = 1
    return onnxruntime.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])


class ModelError(TabletopError):
    """The card model file is missing or is not a card model."""


@dataclass(frozen=True)
class Reading:
    """What the model makes of one crop: its best guess (None for "no card") and the runners-up.

    ``confidence`` is calibrated: over many readings of 0.9, about nine in ten are right.
    """

    card: Card | None
    confidence: float
    guesses: tuple[tuple[Card | None, float], ...]

    @property
    def unsure(self) -> bool:
        return self.confidence < UNSURE_BELOW


class CardModel:
    """The ONNX card classifier and the labels and crop size written into its metadata."""

    def __init__(self, path: Path | None = None, threads: int = 1) -> None:
        path = path or DEFAULT_MODEL
        try:
            self.session = cpu_session(path, threads)
            meta = self.session.get_modelmeta().custom_metadata_map
            self.labels: tuple[str, ...] = tuple(json.loads(meta["labels"]))
            shape = json.loads(meta["input"])
        except Exception as err:
            raise ModelError(f"cannot load the card model {path}: {err}") from err
        self.size: tuple[int, int] = (int(shape["width"]), int(shape["height"]))
        self.cards = tuple(None if label == NO_CARD else Card.from_name(label) for label in self.labels)

    def probabilities(self, crops: Sequence[Image]) -> np.ndarray:
        """Class probabilities for balanced crops of ``self.size``, one row a crop.

        A card reads the same turned half round, so a crop read with any doubt is read again that way up and
        the two readings are averaged: blur, glare and a crop cut a little off fall differently on the model's
        strides the other way up. The average is right more often than either reading, and where the two
        disagree it is unsure, so fewer wrong readings pass as sure. Crops read with no doubt, most of them, cost
        nothing more.
        """
        batch = np.ascontiguousarray(np.stack(crops), dtype=np.uint8)
        rows = self._run(batch)
        doubtful = rows.max(axis=1) < LOOK_AGAIN_BELOW
        if doubtful.any():
            turned = np.ascontiguousarray(batch[doubtful, ::-1, ::-1])
            rows[doubtful] = (rows[doubtful] + self._run(turned)) / 2
        return rows

    def _run(self, batch: np.ndarray) -> np.ndarray:
        """One inference call on a contiguous uint8 batch; the rows are a fresh array the caller may change."""
        (out,) = self.session.run(None, {"crops": batch})
        return np.asarray(out)

    def read(self, crops: Sequence[Image], guesses: int = 3) -> list[Reading]:
        """A reading per crop, batched: one inference call, and one more for any crops read with doubt."""
        if not crops:
            return []
        return [self._reading(row, guesses) for row in self.probabilities(crops)]

    def vote(self, crops: Sequence[Image], guesses: int = 3) -> Reading:
        """One reading from several crops of the same card (successive frames), their probabilities averaged."""
        return self._reading(self.probabilities(crops).mean(axis=0), guesses)

    def _reading(self, row: np.ndarray, guesses: int) -> Reading:
        order = np.argsort(row)[::-1][:guesses]
        ranked = tuple((self.cards[k], float(row[k])) for k in order)
        return Reading(card=ranked[0][0], confidence=ranked[0][1], guesses=ranked)
