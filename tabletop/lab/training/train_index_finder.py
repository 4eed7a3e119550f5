"""Train the index finder from rendered heaps of cards and export it to ONNX: ``tabletop train indexes``.

The network is the card finder's encoder-decoder (``train_finder.MarkNet``) with four outputs: the middle of each
index corner, as a probability, and there the card's up direction (cosine and sine) and its height (see
``index_frames``). Like every model of the project it never sees a photograph.
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Iterator
from dataclasses import asdict, dataclass
from functools import partial
from pathlib import Path

import cv2
import numpy as np
import torch
from torch import nn

from tabletop.lab.training import frames, index_frames
from tabletop.lab.training.train import export, render_set
from tabletop.lab.training.train_finder import MarkNet
from tabletop.reporting import Report
from tabletop.vision.index_finder import INDEX_FINDER, PEAK, SIZE_STEPS

Arrays = tuple[np.ndarray, np.ndarray]


@dataclass(frozen=True)
class IndexRecipe:
    """Everything that decides the index finder; written into the model file."""

    seed: int = 1
    frames: int = 12_000
    epochs: int = 8
    batch: int = 24
    learning_rate: float = 3e-3
    weight_decay: float = 1e-4
    test_frames: int = 300
    chunk: int = 100
    mark_weight: float = 30.0
    """How much more an index's own pixels weigh than bare table's: indexes are a few pixels of each frame."""


class IndexNet(MarkNet):
    """``MarkNet`` whose first output is a probability (an index's middle) and the other three plain numbers."""

    def forward(self, pictures: torch.Tensor) -> torch.Tensor:
        logits = self.logits(pictures)
        return torch.cat([torch.sigmoid(logits[:, :1]), logits[:, 1:]], 1)


def index_net() -> IndexNet:
    return IndexNet((16, 24, 32, 48, 64), 4)


def render_frames(first_seed: int, count: int, recipe: IndexRecipe, workers: int) -> list[Arrays]:
    """``count`` frames split over ``frames.SHAPES`` with their targets, one pair of arrays per shape."""
    per_shape = math.ceil(count / len(frames.SHAPES))
    chunks = math.ceil(per_shape / recipe.chunk)
    sets = [render_set(partial(index_frames.batch, shape=shape), first_seed + k * chunks, per_shape, recipe.chunk,
                       workers) for k, shape in enumerate(frames.SHAPES)]
    return [(images, marks) for images, marks in sets]


def _batches(sets: list[Arrays], size: int, rng: np.random.Generator) -> Iterator[tuple[torch.Tensor, torch.Tensor]]:
    """Batches of one shape each, in random order (never mirrored: a mirrored card is no card)."""
    jobs = [(k, start) for k, (images, _) in enumerate(sets) for start in range(0, len(images), size)]
    orders = [rng.permutation(len(images)) for images, _ in sets]
    for k, start in (jobs[j] for j in rng.permutation(len(jobs))):
        pick = np.sort(orders[k][start:start + size])
        yield torch.from_numpy(sets[k][0][pick]), torch.from_numpy(sets[k][1][pick])


def loss_of(logits: torch.Tensor, targets: torch.Tensor, recipe: IndexRecipe) -> torch.Tensor:
    """Cross-entropy on the marks where the pixels count, an index's pixels weighing ``mark_weight`` more; and
    near each index's middle, how far the direction and height are off."""
    wanted = targets.permute(0, 3, 1, 2).float() / 255
    marks, counts = wanted[:, :1], wanted[:, 4:5]
    weights = counts * (1 + recipe.mark_weight * marks)
    entropy = nn.functional.binary_cross_entropy_with_logits(logits[:, :1], marks, weight=weights, reduction="sum")
    entropy = entropy / weights.sum().clamp(min=1)
    near = (marks > 0.5).float()
    direction = (logits[:, 1:3] - (wanted[:, 1:3] * 2 - 1)).abs().sum(1, keepdim=True)
    size = (logits[:, 3:4] - wanted[:, 3:4] * 255).abs() / SIZE_STEPS
    off = ((direction + size) * near).sum() / near.sum().clamp(min=1)
    return entropy + 0.5 * off


def fit(net: IndexNet, sets: list[Arrays], recipe: IndexRecipe, report: Report) -> None:
    """AdamW with a one-cycle schedule over the recipe's epochs."""
    rng = np.random.default_rng(recipe.seed)
    steps = recipe.epochs * sum(math.ceil(len(images) / recipe.batch) for images, _ in sets)
    optimiser = torch.optim.AdamW(net.parameters(), lr=recipe.learning_rate, weight_decay=recipe.weight_decay)
    schedule = torch.optim.lr_scheduler.OneCycleLR(optimiser, recipe.learning_rate, total_steps=steps)
    for epoch in range(recipe.epochs):
        net.train()
        started, total, seen = time.perf_counter(), 0.0, 0
        for images, targets in _batches(sets, recipe.batch, rng):
            loss = loss_of(net.logits(images), targets, recipe)
            optimiser.zero_grad()
            loss.backward()  # type: ignore[no-untyped-call]
            optimiser.step()
            schedule.step()
            total += float(loss.detach()) * len(images)
            seen += len(images)
        report(f"epoch {epoch + 1}/{recipe.epochs}: loss {total / seen:.4f} ({time.perf_counter() - started:.0f} s)")


def found_share(net: IndexNet, sets: list[Arrays]) -> dict[str, float]:
    """On held-out frames: the share of marked indexes the network marks (its marks are the blobs above
    ``PEAK``, as run time takes them; one within two output pixels of the index's middle finds it), and the
    share of its blobs, where the frame counts, that lie on no index."""
    net.eval()
    hit = total = blobs = stray = 0
    with torch.no_grad():
        for images, targets in sets:
            out = net(torch.from_numpy(images)).numpy()
            for maps, wanted in zip(out, targets, strict=True):
                truth = wanted[..., 0] / 255
                theirs = (truth > 0.9) & (truth == _dilate(truth))
                _, labels = cv2.connectedComponents((maps[0] >= PEAK).astype(np.uint8))
                near = _dilate((labels > 0).astype(np.float32), 5) > 0
                total += int(theirs.sum())
                hit += int((theirs & near).sum())
                on_index = set(np.unique(labels[_dilate(theirs.astype(np.float32), 5) > 0]))
                counted = set(np.unique(labels[wanted[..., 4] > 127])) - {0}
                blobs += len(counted)
                stray += len(counted - on_index)
    return {"indexes_found": hit / max(total, 1), "stray_marks": stray / max(blobs, 1)}


def _dilate(values: np.ndarray, size: int = 3) -> np.ndarray:
    return cv2.dilate(np.ascontiguousarray(values, np.float32), np.ones((size, size), np.uint8))


def train_index_finder(folder: Path, recipe: IndexRecipe, report: Report = print, workers: int = 2
                       ) -> dict[str, float]:
    """Render, train, measure on held-out frames and export into ``folder``; returns the held-out figures."""
    torch.manual_seed(recipe.seed)
    torch.set_num_threads(workers)
    started = time.perf_counter()
    report(f"rendering {recipe.frames:,} frames of hands laid down on {workers} processes")
    train_sets = render_frames(recipe.seed * 100_000 + 70_000, recipe.frames, recipe, workers)
    test_sets = render_frames(recipe.seed * 100_000 + 90_000, recipe.test_frames, recipe, workers)
    report(f"rendered in {time.perf_counter() - started:.0f} s")
    net = index_net()
    fit(net, train_sets, recipe, report)
    figures = found_share(net, test_sets) | {"minutes": (time.perf_counter() - started) / 60}
    export(net, folder / INDEX_FINDER, torch.zeros(1, 192, 256, 3, dtype=torch.uint8), ("frames", "marks"),
           {0: "n", 1: "height", 2: "width"},
           {"input": json.dumps({"multiple": 32, "channels": "BGR", "dtype": "uint8"}),
            "output": json.dumps({"stride": index_frames.STRIDE, "size_steps": SIZE_STEPS,
                                  "channels": ["index", "up-cosine", "up-sine", "card-height"]}),
            "recipe": json.dumps(asdict(recipe)), "figures": json.dumps(figures)})
    report(f"held-out rendered frames: {figures['indexes_found']:.1%} of index corners found, "
           f"{figures['stray_marks']:.1%} of marks on none; wrote {folder / INDEX_FINDER}")
    return figures
