"""Train the card finder from rendered frames alone and export it to ONNX: ``tabletop train finder``.

The finder is a small encoder-decoder network. It marks, at half its input's resolution, where the whole cards
lie and a core in the middle of each, over the whole picture at once; ``finder`` turns the marks into corners.
Like the card model it never sees a photograph: the frames come from ``frames``, and the real photographs only
judge the result.
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Iterator
from dataclasses import asdict, dataclass
from functools import partial
from pathlib import Path

import numpy as np
import torch
from torch import nn

from tabletop.lab.drawing import textures
from tabletop.lab.training import frames
from tabletop.lab.training.train import export, render_set
from tabletop.reporting import Report
from tabletop.vision import finder

Arrays = tuple[np.ndarray, np.ndarray]


@dataclass(frozen=True)
class FinderRecipe:
    """Everything that decides the finder; written into the model file."""

    seed: int = 1
    frames: int = 30_000
    looks_per_frame: int = 2
    epochs: int = 8
    outliner_epochs: int = 10
    batch: int = 32
    learning_rate: float = 3e-3
    weight_decay: float = 1e-4
    test_frames: int = 600
    chunk: int = 200


def _conv(inputs: int, outputs: int, kernel: int = 3, stride: int = 1, groups: int = 1, dilation: int = 1
          ) -> nn.Sequential:
    padding = dilation * (kernel // 2)
    return nn.Sequential(nn.Conv2d(inputs, outputs, kernel, stride, padding, dilation=dilation, groups=groups,
                                   bias=False), nn.BatchNorm2d(outputs), nn.ReLU(inplace=True))


class _Block(nn.Module):
    """A depthwise 3 x 3 then a pointwise convolution, added to its input where the shapes allow."""

    def __init__(self, inputs: int, outputs: int, stride: int = 1, dilation: int = 1) -> None:
        super().__init__()
        self.body = nn.Sequential(_conv(inputs, inputs, 3, stride, inputs, dilation),
                                  nn.Conv2d(inputs, outputs, 1, bias=False), nn.BatchNorm2d(outputs))
        self.residual = inputs == outputs and stride == 1
        self.act = nn.ReLU(inplace=True)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = self.body(x)
        return self.act(y + x if self.residual else y)


class MarkNet(nn.Module):
    """Stages down to 1/2 ** len(widths) with a whole-picture summary, then back up to 1/2 along skip connections.

    The summary lets a card that fills the picture be seen as one card; the skips keep its edges sharp. The
    outputs are probabilities, one channel each. The input is a picture as uint8 BGR, height x width x 3, either
    side a multiple of 2 ** len(widths).
    """

    def __init__(self, widths: tuple[int, ...], outputs: int) -> None:
        super().__init__()
        w = self.widths = widths
        self.stem = _conv(3, w[0], 3, 2)
        self.down = nn.ModuleList([
            nn.Sequential(_Block(w[k], w[k + 1], 2), _Block(w[k + 1], w[k + 1]),
                          *([_Block(w[k + 1], w[k + 1], dilation=2)] if k >= len(w) - 3 else []))
            for k in range(len(w) - 1)])
        self.summary = nn.Sequential(nn.Conv2d(w[-1], w[-1], 1), nn.ReLU(inplace=True))
        self.merge = nn.ModuleList([_conv(w[k + 1] + w[k], w[k], 1) for k in range(len(w) - 1)])
        self.up = nn.ModuleList([_Block(w[k], w[k]) for k in range(len(w) - 1)])
        self.head = nn.Conv2d(w[0], outputs, 1)

    def logits(self, pictures: torch.Tensor) -> torch.Tensor:
        x = pictures.permute(0, 3, 1, 2).float() * (1 / 64) - 2
        skips = [self.stem(x)]
        for stage in self.down:
            skips.append(stage(skips[-1]))
        y = skips.pop()
        y = y + self.summary(y.mean(dim=(2, 3), keepdim=True))
        for k in reversed(range(len(skips))):
            y = self.up[k](self._merged(k, y, skips[k]))
        return self.head(y)

    def _merged(self, k: int, y: torch.Tensor, skip: torch.Tensor) -> torch.Tensor:
        """``merge[k]`` of ``y`` brought up to ``skip``'s size beside ``skip``, worked out without laying them side
        by side: the merge's 1 x 1 convolution is split in two, and ``y``'s part taken before it is brought up,
        where it has fewer channels and a quarter of the pixels. The numbers are the same, but on a CPU the large
        side-by-side map and the bringing up of ``y`` were most of the time the network took (the index finder's
        largest look at a 640 x 480 heap: 37 ms, 16 ms so). ``y`` is brought up by a fixed factor, not to ``skip``'s
        size, which is the same where the picture's sides are multiples of ``2 ** len(widths)``: onnxruntime then
        brings it up in its own channel layout, without converting it there and back (16 ms, 11 ms so)."""
        merge = self.merge[k]
        assert isinstance(merge, nn.Sequential)
        conv, split = merge[0], self.widths[k + 1]
        assert isinstance(conv, nn.Conv2d)
        near = nn.functional.conv2d(y, conv.weight[:, :split])
        near = nn.functional.interpolate(near, scale_factor=2.0, mode="bilinear", align_corners=False)
        return merge[1:](near + nn.functional.conv2d(skip, conv.weight[:, split:], conv.bias))

    def forward(self, pictures: torch.Tensor) -> torch.Tensor:
        return torch.sigmoid(self.logits(pictures))


def finder_net() -> MarkNet:
    """The first look, over the whole picture: the whole cards and their cores, down to 1/32 for the context a
    card that fills the picture needs."""
    return MarkNet((16, 24, 48, 64, 96), 2)


def outliner_net() -> MarkNet:
    """The second look, at one card warped upright (``finder.look_at``): that card's outline alone."""
    return MarkNet((16, 32, 48, 64), 1)


def render_frames(first_seed: int, count: int, recipe: FinderRecipe, workers: int) -> tuple[list[Arrays], Arrays]:
    """``count`` frames split evenly over ``frames.SHAPES`` with their targets, one pair of arrays per shape, and
    the second looks taken at them with their outlines, all shapes together; rendered in chunks."""
    per_shape = math.ceil(count / len(frames.SHAPES))
    chunks = math.ceil(per_shape / recipe.chunk)
    parts = [render_set(partial(frames.batch, shape=shape, looks_per_frame=recipe.looks_per_frame),
                        first_seed + k * chunks, per_shape, recipe.chunk, workers)
             for k, shape in enumerate(frames.SHAPES)]
    return ([(part[0], part[1]) for part in parts],
            (np.concatenate([part[2] for part in parts]), np.concatenate([part[3] for part in parts])))


def _batches(sets: list[Arrays], size: int, rng: np.random.Generator) -> Iterator[tuple[torch.Tensor, torch.Tensor]]:
    """Batches of one shape each, in random order, each mirrored across or along at random (targets alike)."""
    jobs = [(k, start) for k, (images, _) in enumerate(sets) for start in range(0, len(images), size)]
    orders = [rng.permutation(len(images)) for images, _ in sets]
    for k, start in (jobs[j] for j in rng.permutation(len(jobs))):
        pick = np.sort(orders[k][start:start + size])
        images, targets = torch.from_numpy(sets[k][0][pick]), torch.from_numpy(sets[k][1][pick])
        for axis in (1, 2):
            if rng.random() < 0.5:
                images, targets = images.flip(axis), targets.flip(axis)
        yield images, targets


def loss_of(logits: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
    """Cross-entropy on every mark where the pixels count (the targets' last channel), plus a soft Dice on the
    first mark (the cards), so that a small card weighs as much as its few pixels deserve and no more."""
    wanted = targets.permute(0, 3, 1, 2).float() / 255
    counts = wanted[:, -1:]
    entropy = nn.functional.binary_cross_entropy_with_logits(logits, wanted[:, :-1], reduction="none")
    entropy = (entropy * counts).sum() / counts.sum().clamp(min=1) / logits.shape[1]
    marked = torch.sigmoid(logits[:, :1]) * counts
    truth = wanted[:, :1] * counts
    dice = 1 - (2 * (marked * truth).sum((1, 2, 3)) + 1) / (marked.sum((1, 2, 3)) + truth.sum((1, 2, 3)) + 1)
    return entropy + 0.5 * dice.mean()


def fit(net: MarkNet, sets: list[Arrays], epochs: int, recipe: FinderRecipe, report: Report) -> None:
    """AdamW with a one-cycle schedule over ``epochs`` passes of ``sets``."""
    rng = np.random.default_rng(recipe.seed)
    steps = epochs * sum(math.ceil(len(images) / recipe.batch) for images, _ in sets)
    optimiser = torch.optim.AdamW(net.parameters(), lr=recipe.learning_rate, weight_decay=recipe.weight_decay)
    schedule = torch.optim.lr_scheduler.OneCycleLR(optimiser, recipe.learning_rate, total_steps=steps)
    for epoch in range(epochs):
        net.train()
        started, total, seen = time.perf_counter(), 0.0, 0
        for images, targets in _batches(sets, recipe.batch, rng):
            loss = loss_of(net.logits(images), targets)
            optimiser.zero_grad()
            loss.backward()  # type: ignore[no-untyped-call]
            optimiser.step()
            schedule.step()
            total += float(loss.detach()) * len(images)
            seen += len(images)
        report(f"epoch {epoch + 1}/{epochs}: loss {total / seen:.4f} ({time.perf_counter() - started:.0f} s)")


def overlap(net: MarkNet, sets: list[Arrays]) -> float:
    """Intersection over union of the whole cards marked and the true ones, over every counted pixel."""
    net.eval()
    shared = union = 0.0
    with torch.no_grad():
        for images, targets in sets:
            for start in range(0, len(images), 64):
                marked = net(torch.from_numpy(images[start:start + 64]))[:, 0] > 0.5
                wanted = torch.from_numpy(targets[start:start + 64])
                truth, counts = wanted[..., 0] > 127, wanted[..., -1] > 127
                shared += float((marked & truth & counts).sum())
                union += float(((marked | truth) & counts).sum())
    return shared / max(union, 1.0)


def train_finder(folder: Path, recipe: FinderRecipe, report: Report = print, workers: int = 2
                 ) -> dict[str, float]:
    """Render, train both looks, measure them on held-out frames and export them into ``folder``; returns the
    held-out figures. The first look is written as soon as it is trained."""
    torch.manual_seed(recipe.seed)
    torch.set_num_threads(workers)
    started = time.perf_counter()
    report(f"rendering {recipe.frames:,} training frames on {workers} processes, on drawn tables and "
           f"{len(textures.patterns())} GIMP patterns and {len(textures.photos())} scikit-image photographs")
    train_sets, train_looks = render_frames(recipe.seed * 100_000, recipe.frames, recipe, workers)
    test_sets, test_looks = render_frames(recipe.seed * 100_000 + 50_000, recipe.test_frames, recipe, workers)
    report(f"rendered in {time.perf_counter() - started:.0f} s ({len(train_looks[0]):,} second looks)")
    first, second = finder_net(), outliner_net()
    fit(first, train_sets, recipe.epochs, recipe, report)
    figures = {"first_look_overlap": overlap(first, test_sets)}
    _export_first(first, folder, recipe, figures)
    fit(second, [train_looks], recipe.outliner_epochs, recipe, report)
    figures |= {"second_look_overlap": overlap(second, [test_looks]), "minutes": (time.perf_counter() - started) / 60}
    _export_first(first, folder, recipe, figures)
    size = finder.LOOK_SIZE
    export(second, folder / finder.SECOND_LOOK, torch.zeros(1, size[1], size[0], 3, dtype=torch.uint8),
           ("views", "marks"), {0: "n"},
           {"input": json.dumps({"width": size[0], "height": size[1], "card": finder.LOOK_CARD, "channels": "BGR",
                                 "dtype": "uint8"}),
            "output": json.dumps({"stride": frames.STRIDE, "channels": ["card"]}),
            "recipe": json.dumps(asdict(recipe)), "figures": json.dumps(figures)})
    report(f"held-out rendered frames: whole cards {figures['first_look_overlap']:.1%} overlap at the first look, "
           f"{figures['second_look_overlap']:.1%} at the second; wrote {finder.FIRST_LOOK} and {finder.SECOND_LOOK} "
           f"into {folder}")
    return figures


def _export_first(net: MarkNet, folder: Path, recipe: FinderRecipe, figures: dict[str, float]) -> None:
    export(net, folder / finder.FIRST_LOOK, torch.zeros(1, 192, 256, 3, dtype=torch.uint8), ("frames", "marks"),
           {0: "n", 1: "height", 2: "width"},
           {"input": json.dumps({"multiple": 32, "channels": "BGR", "dtype": "uint8"}),
            "output": json.dumps({"stride": frames.STRIDE, "core": frames.CORE, "channels": ["whole", "core"]}),
            "recipe": json.dumps(asdict(recipe)), "figures": json.dumps(figures)})
