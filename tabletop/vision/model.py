"""The card model at run time: onnxruntime and numpy only, loaded once, reading a batch of cards per call.

Two networks read a card. The card network reads the whole card, upright either way; the index network reads
the two small indexes in its corners, which print the same numeral or symbol again, smaller and in another
style. They are two looks at the card: where both can be read they must agree for the reading to be sure, and
where the whole card leaves a doubt that the indexes settle, the indexes decide (see ``combine``).
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

import numpy as np
import onnxruntime

from tabletop.errors import ModelError
from tabletop.game.cards import Card, full_deck
from tabletop.shipped import MODELS_PACKAGE, shipped
from tabletop.vision.crop import Image, Look

MODELS = shipped(MODELS_PACKAGE)
"""Where the shipped networks are: the card model, its index model and the finder's two looks."""
DEFAULT_MODEL = MODELS / "cards.onnx"
INDEX_MODEL = "index.onnx"
"""The index network's file, beside the card network's."""
NO_CARD = "none"
UNSURE_BELOW = 0.8
"""Readings less confident than this are reported as unsure: a person should confirm them."""
LOOK_AGAIN_BELOW = 0.95
"""Crops read less confidently than this are read a second time, turned half round (see ``probabilities``)."""
INDEX_FLOOR = 0.05
"""What an index reading leaves of a card it rules out: an index may be hidden under a thumb or misplaced, so it
can outvote the whole card only where the whole card is in doubt, never silence it."""
DECK = 112
"""The deck whose cards a reading is weighed by (see ``deck_weights``): the 112-card deck, whose special wilds a
table of the 108 never shows, so that they stay readable where they are played."""
TEST_PICTURE = MODELS / "test-card.jpg"
"""The picture the doctor checks the shipped models with: a clean ``TEST_CARD`` lying square in the middle of a
felt table, 640 x 480, ``TEST_CARD_HEIGHT`` pixels tall (``crop.middle_card``); drawn by
``tabletop.lab.drawing.scene.draw_test_card``."""
TEST_CARD = "green-7"
TEST_CARD_HEIGHT = 300.0


def cpu_session(path: Path, threads: int) -> onnxruntime.InferenceSession:
    """An onnxruntime session for the networks ``path`` holds, on the CPU: ``threads`` share each call, and calls
    are not run in parallel with one another (the callers batch their work instead). Without onnxruntime's own
    memory arena, which would keep the largest batch's memory for good: these networks are small enough for the
    system's allocator, at no cost in time (``tabletop bench classify``)."""
    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = threads
    options.inter_op_num_threads = 1
    options.enable_cpu_mem_arena = False
    return onnxruntime.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])


@dataclass(frozen=True)
class Reading:
    """What the model makes of one card: its best guess (None for "no card") and the runners-up.

    ``confidence`` is calibrated: over many readings of 0.9, about nine in ten are right.
    """

    card: Card | None
    confidence: float
    guesses: tuple[tuple[Card | None, float], ...]
    no_card: float = 0.0
    """How likely it is that no card is there at all (0 where the reader does not say): a covered index read as
    one of several like cards is still surely a card (see ``every_card.COVERED_FLOOR``)."""

    @property
    def unsure(self) -> bool:
        return self.confidence < UNSURE_BELOW


class CardReader(Protocol):
    """What reads cards for the watcher, the calibration and the every-card reader: the shipped networks
    (``CardModel``), or a reader told what to read (``tabletop.vision.mock.ScriptedReader``), as gpiozero's devices
    take a real pin or a mock one."""

    size: tuple[int, int]
    """The card crop's width and height, as the reader takes it."""

    def read(self, looks: Sequence[Look | Image], guesses: int = 3) -> list[Reading]:
        """A reading per card."""

    def vote(self, looks: Sequence[Look | Image], guesses: int = 3) -> Reading:
        """One reading from several looks at the same card."""

    def vote_indexes(self, views: Sequence[Sequence[Image]], guesses: int = 3) -> list[Reading]:
        """A reading per index corner, from several crops of it."""


class _Network:
    """One ONNX classifier, with the labels and input size written into its metadata."""

    def __init__(self, path: Path, threads: int) -> None:
        try:
            self.session = cpu_session(path, threads)
            meta = self.session.get_modelmeta().custom_metadata_map
            self.labels: tuple[str, ...] = tuple(json.loads(meta["labels"]))
            self.shares = np.array(json.loads(meta["shares"]) if "shares" in meta else
                                   [1 / len(self.labels)] * len(self.labels), np.float64)
            shape = json.loads(meta["input"])
            self.input = self.session.get_inputs()[0].name
        except Exception as err:
            raise ModelError(f"cannot load the card model {path}: {err}") from err
        self.size: tuple[int, int] = (int(shape["width"]), int(shape["height"]))

    def run(self, batch: Sequence[Image]) -> np.ndarray:
        """One inference call; the rows are a fresh array the caller may change."""
        (out,) = self.session.run(None, {self.input: np.ascontiguousarray(np.stack(batch), dtype=np.uint8)})
        return np.asarray(out)


class CardModel:
    """The card network, and the index network where its file lies beside it (``index.onnx``).

    A card is read from a :class:`~tabletop.vision.crop.Look` (the card and its two indexes), or from the card's
    crop alone, which the card network reads by itself.
    """

    def __init__(self, path: Path | None = None, threads: int = 1) -> None:
        path = path or DEFAULT_MODEL
        self.network = _Network(path, threads)
        index = path.with_name(INDEX_MODEL)
        self.index = _Network(index, threads) if index.is_file() else None
        self.labels = self.network.labels
        self.size = self.network.size
        self.cards = tuple(None if label == NO_CARD else Card.from_name(label) for label in self.labels)
        self.none = self.labels.index(NO_CARD)
        self.weights = deck_weights(self.cards, self.network.shares)

    def probabilities(self, crops: Sequence[Image]) -> np.ndarray:
        """The card network's class probabilities for balanced crops of ``self.size``, one row a crop.

        A card reads the same turned half round, so a crop read with any doubt is read again that way up and
        the two readings are averaged: blur, glare and a crop cut a little off fall differently on the model's
        strides the other way up. The average is right more often than either reading, and where the two
        disagree it is unsure, so fewer wrong readings pass as sure. Crops read with no doubt, most of them, cost
        nothing more.
        """
        rows = self.network.run(crops)
        doubtful = rows.max(axis=1) < LOOK_AGAIN_BELOW
        if doubtful.any():
            turned = [crop[::-1, ::-1] for crop, again in zip(crops, doubtful, strict=True) if again]
            rows[doubtful] = (rows[doubtful] + self.network.run(turned)) / 2
        return rows

    def read(self, looks: Sequence[Look | Image], guesses: int = 3) -> list[Reading]:
        """A reading per card, batched: one call of each network, and one more for cards read with doubt."""
        if not looks:
            return []
        return [self._reading(row, guesses) for row in self._combined([_as_look(look) for look in looks])]

    def vote_indexes(self, views: Sequence[Sequence[Image]], guesses: int = 3) -> list[Reading]:
        """A reading per index corner from several crops of it, each cut where it may lie (a card placed from
        its index alone is placed roughly), their probabilities averaged: the crops that show the index well
        outweigh those cut off it."""
        if self.index is None:
            raise ModelError(f"no index model ({INDEX_MODEL}) beside the card model")
        if not views:
            return []
        rows = self.index.run([crop for crops in views for crop in crops])
        ends = np.cumsum([len(crops) for crops in views])
        return [self._reading(rows[end - len(crops):end].mean(axis=0), guesses)
                for crops, end in zip(views, ends, strict=True)]

    def vote(self, looks: Sequence[Look | Image], guesses: int = 3) -> Reading:
        """One reading from several looks at the same card (successive frames), their probabilities averaged."""
        return self._reading(self._combined([_as_look(look) for look in looks]).mean(axis=0), guesses)

    def _combined(self, looks: list[Look]) -> np.ndarray:
        """Each look's probabilities: the whole card's, weighed by its indexes' where it has them."""
        rows = self.probabilities([look.card for look in looks])
        if self.index is None or not all(look.indexes for look in looks):
            return rows
        corners = self.index.run([index for look in looks for index in look.indexes])
        return combine(rows, corners.reshape(len(looks), -1, corners.shape[1]), self.none)

    def _reading(self, row: np.ndarray, guesses: int) -> Reading:
        row = row * self.weights
        row = row / row.sum()
        order = np.argsort(row)[::-1][:guesses]
        ranked = tuple((self.cards[k], float(row[k])) for k in order)
        return Reading(card=ranked[0][0], confidence=ranked[0][1], guesses=ranked, no_card=float(row[self.none]))


def deck_weights(cards: Sequence[Card | None], shares: np.ndarray) -> np.ndarray:
    """What each class's probability is multiplied by so that a reading weighs the cards as a deck holds them
    rather than as the networks saw them in training (``shares``, one per class, from the model's metadata).

    The networks learnt every wild twice as often as a coloured card, and a 0 as often as a 5; a deck holds four
    of each of the wild and the wild draw four, two of a 5, one 0, one Wild Shuffle Hands. Read with the
    networks' own proportions, an index that could be either (a "+4" whose "4" lies under the next card of a fan,
    ringed as the chasing arrows are) was as likely the one shuffle-hands card as one of the four wild draw
    fours; weighed by the deck, each is as likely as the table makes it. "No card" keeps its weight: how much of
    what is looked at is a card is the finders' business, not the deck's.
    """
    held = Counter(full_deck(DECK))
    weights = np.ones(len(cards))
    known = np.array([card is not None for card in cards])
    weights[known] = np.array([held[card] for card in cards if card is not None]) / DECK / (
        shares[known] / shares[known].sum())
    return weights


def combine(cards: np.ndarray, indexes: np.ndarray, none: int) -> np.ndarray:
    """The whole card's probabilities (N x classes) weighed by its indexes' (N x corners x classes), as two
    experts' opinions are multiplied: where the whole card leaves a doubt, sure indexes settle it. Where the whole
    card is sure and the indexes outweigh it with another card, the two looks disagree, and the reading is the
    mean of both opinions, unsure: a person is asked rather than the buzzer sounding on a guess.

    An index that shows no card (hidden under a thumb, too small to read, the corner of a back) says nothing of
    which card it is: its "no card" is spread evenly over the cards, and "no card" itself is weighed as the
    average card is, so that only the whole card says whether there is a card at all. ``none`` is the column of
    "no card".
    """
    spread = np.delete(indexes, none, axis=2) + indexes[..., none:none + 1] / (indexes.shape[2] - 1)
    weights = np.prod(spread + INDEX_FLOOR, axis=1)
    weights = np.insert(weights, none, weights.mean(axis=1), axis=1)
    product = cards * weights
    combined = product / product.sum(axis=1, keepdims=True)
    overruled = (combined.argmax(axis=1) != cards.argmax(axis=1)) & (cards.max(axis=1) >= UNSURE_BELOW)
    combined[overruled] = (combined[overruled] + cards[overruled]) / 2
    return np.asarray(combined)


def _as_look(look: Look | Image) -> Look:
    return look if isinstance(look, Look) else Look(look, ())
