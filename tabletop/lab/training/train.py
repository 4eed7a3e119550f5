"""Train the card model from rendered cards alone and export it to ONNX: ``tabletop train``.

Torch is imported here and nowhere else; the referee and the camera path run on onnxruntime. The run is seeded
end to end, so the same command on the same machine gives the same model. The real photographs are never read
here: they judge the model, they do not shape it.
"""

from __future__ import annotations

import copy
import json
import math
import multiprocessing
import time
import warnings
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np
import torch
from torch import nn
from torch.nn.utils.fusion import fuse_conv_bn_eval

from tabletop.lab.training import samples
from tabletop.reporting import Report
from tabletop.vision.crop import CROP_SIZE, INDEX_SIZE

NumpyArrays = tuple[np.ndarray, np.ndarray]


@dataclass(frozen=True)
class Recipe:
    """Everything that decides the model; written into the model file so the model card can be checked."""

    seed: int = 1
    samples: int = 120_000
    epochs: int = 20
    batch: int = 128
    learning_rate: float = 3e-3
    weight_decay: float = 5e-4
    label_smoothing: float = 0.05
    calibration_samples: int = 4_000
    test_samples: int = 6_000
    chunk: int = 2_000


class CardNet(nn.Module):
    """Six small convolutions and a linear layer: about 15 million multiply-adds for a 64 x 96 crop.

    The input is the balanced crop as uint8 BGR, height x width x 3, so that callers need no preprocessing
    beyond ``crop.balance``; the scaling happens inside the graph.
    """

    WIDTHS = (16, 32, 32, 64, 80, 160)
    STRIDES = (2, 2, 1, 2, 1, 2)

    def __init__(self, classes: int) -> None:
        super().__init__()
        layers: list[nn.Module] = []
        inputs = 3
        for width, stride in zip(self.WIDTHS, self.STRIDES, strict=True):
            layers += [nn.Conv2d(inputs, width, 3, stride, 1, bias=False), nn.BatchNorm2d(width), nn.ReLU()]
            inputs = width
        self.features = nn.Sequential(*layers)
        self.classify = nn.Sequential(nn.Dropout(0.2), nn.Linear(inputs, classes))

    def forward(self, crops: torch.Tensor) -> torch.Tensor:
        x = crops.permute(0, 3, 1, 2).float() * (1 / 64) - 2
        return self.classify(self.features(x).mean(dim=(2, 3)))


class Calibrated(nn.Module):
    """The trained net with its temperature and softmax, as exported: it outputs probabilities."""

    def __init__(self, net: CardNet, temperature: float) -> None:
        super().__init__()
        self.net, self.temperature = net, temperature

    def forward(self, crops: torch.Tensor) -> torch.Tensor:
        return torch.softmax(self.net(crops) / self.temperature, dim=1)


def render_set(make: Callable[[int, int], tuple[np.ndarray, ...]], first_seed: int, count: int, chunk: int,
               workers: int) -> tuple[np.ndarray, ...]:
    """``count`` samples made by ``make(seed, count)`` in chunks of ``chunk`` with seeds from ``first_seed``, on
    ``workers`` processes; each of the arrays ``make`` returns, joined over the chunks."""
    jobs = [(first_seed + k, min(chunk, count - k * chunk)) for k in range(math.ceil(count / chunk))]
    with multiprocessing.get_context("spawn").Pool(workers) as pool:
        parts = pool.starmap(make, jobs)
    return tuple(np.concatenate([part[k] for part in parts]) for k in range(len(parts[0])))


def _batches(crops: np.ndarray, labels: np.ndarray, size: int, rng: np.random.Generator
             ) -> Iterator[tuple[torch.Tensor, torch.Tensor]]:
    order = rng.permutation(len(crops))
    for start in range(0, len(order), size):
        pick = order[start:start + size]
        yield torch.from_numpy(crops[pick]), torch.from_numpy(labels[pick])


def logits_of(net: nn.Module, crops: np.ndarray, size: int = 512) -> torch.Tensor:
    net.eval()
    with torch.no_grad():
        return torch.cat([net(torch.from_numpy(crops[k:k + size])) for k in range(0, len(crops), size)])


def fit(net: CardNet, data: NumpyArrays, recipe: Recipe, report: Report) -> None:
    """Train with AdamW and a one-cycle schedule; each batch is also shown half-turned at random."""
    crops, labels = data
    rng = np.random.default_rng(recipe.seed)
    steps = recipe.epochs * math.ceil(len(crops) / recipe.batch)
    optimiser = torch.optim.AdamW(net.parameters(), lr=recipe.learning_rate, weight_decay=recipe.weight_decay)
    schedule = torch.optim.lr_scheduler.OneCycleLR(optimiser, recipe.learning_rate, total_steps=steps)
    loss_of = nn.CrossEntropyLoss(label_smoothing=recipe.label_smoothing)
    for epoch in range(recipe.epochs):
        net.train()
        started, total = time.perf_counter(), 0.0
        for x, y in _batches(crops, labels, recipe.batch, rng):
            turned = torch.from_numpy(rng.random(len(x)) < 0.5)
            x = torch.where(turned[:, None, None, None], x.flip(1, 2), x)
            loss = loss_of(net(x), y)
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
            schedule.step()
            total += float(loss.detach()) * len(x)
        report(f"epoch {epoch + 1}/{recipe.epochs}: loss {total / len(crops):.4f} "
               f"({time.perf_counter() - started:.0f} s)")


def temperature_for(logits: torch.Tensor, labels: torch.Tensor) -> float:
    """The softmax temperature that minimises the negative log-likelihood on held-out crops."""
    log_t = torch.zeros(1, requires_grad=True)
    optimiser = torch.optim.LBFGS([log_t], lr=0.1, max_iter=100)

    def closure() -> torch.Tensor:
        optimiser.zero_grad()
        loss = nn.functional.cross_entropy(logits / log_t.exp(), labels)
        loss.backward()  # type: ignore[no-untyped-call]
        return loss

    optimiser.step(closure)  # type: ignore[no-untyped-call]
    return float(log_t.detach().exp())


def export(model: nn.Module, path: Path, example: torch.Tensor, names: tuple[str, str], dynamic: dict[int, str],
           metadata: dict[str, str]) -> None:
    """Write the ONNX file, its input and output called ``names`` and ``dynamic`` in their axes, with
    ``metadata`` (labels, input size, recipe, figures) in it."""
    import onnx

    model = _folded(copy.deepcopy(model).eval())
    with warnings.catch_warnings():
        # The TorchScript exporter is deprecated, but the newer one needs onnxscript; this graph is plain.
        warnings.simplefilter("ignore", DeprecationWarning)
        torch.onnx.export(model, (example,), str(path), input_names=[names[0]], output_names=[names[1]],
                          dynamic_axes={names[0]: dynamic, names[1]: {0: "n"}}, opset_version=17, dynamo=False)
    proto = onnx.load(str(path))
    for key, value in metadata.items():
        entry = proto.metadata_props.add()
        entry.key, entry.value = key, value
    onnx.save(proto, str(path))


def _folded(model: nn.Module) -> nn.Module:
    """``model`` with every batch norm that follows a convolution folded into it. The exporter folds those whose
    norm takes the convolution's output as it is, but not where two convolutions are added first
    (``MarkNet._merged``), and a norm of its own is one more pass over a large map."""
    for sequence in [module for module in model.modules() if isinstance(module, nn.Sequential)]:
        for k in range(len(sequence) - 1):
            conv, norm = sequence[k], sequence[k + 1]
            if isinstance(conv, nn.Conv2d) and isinstance(norm, nn.BatchNorm2d):
                sequence[k], sequence[k + 1] = fuse_conv_bn_eval(conv, norm), nn.Identity()
    return model


@dataclass(frozen=True)
class Network:
    """One of the card reader's two networks: the file it is written to, which of ``samples.reader_batch``'s crops
    it learns from, and their size (width, height)."""

    file: str
    crops: int
    size: tuple[int, int]


NETWORKS = (Network("cards.onnx", 0, CROP_SIZE), Network("index.onnx", 2, INDEX_SIZE))
"""The card model, which reads the whole card, and the index model, which reads its corner indexes."""


def train(folder: Path, recipe: Recipe, report: Report = print, workers: int = 2
          ) -> dict[str, dict[str, float]]:
    """Render the training and held-out scenes once, then train, calibrate, test and export both networks into
    ``folder``; the held-out figures of each, by file."""
    torch.set_num_threads(workers)
    started = time.perf_counter()
    chunks = math.ceil(recipe.samples / recipe.chunk)
    report(f"rendering {recipe.samples:,} training scenes on {workers} processes")
    train_set = render_set(samples.reader_batch, recipe.seed * 100_000, recipe.samples, recipe.chunk, workers)
    held_out = render_set(samples.reader_batch, recipe.seed * 100_000 + chunks + 1,
                          recipe.calibration_samples + recipe.test_samples, recipe.chunk, workers)
    report(f"rendered in {time.perf_counter() - started:.0f} s")
    return {network.file: _trained(network, (train_set[network.crops], train_set[1]),
                                   (held_out[network.crops], held_out[1]), folder, recipe, report)
            for network in NETWORKS}


def _trained(network: Network, train_set: NumpyArrays, held_out: NumpyArrays, folder: Path, recipe: Recipe,
             report: Report) -> dict[str, float]:
    """Train, calibrate, test on held-out renders and export one network; its held-out figures."""
    torch.manual_seed(recipe.seed)
    started = time.perf_counter()
    out, size = folder / network.file, network.size
    report(f"training {network.file}")
    net = CardNet(len(samples.LABELS))
    fit(net, train_set, recipe, report)
    logits, labels = logits_of(net, held_out[0]), torch.from_numpy(held_out[1])
    cut = recipe.calibration_samples
    temperature = temperature_for(logits[:cut], labels[:cut])
    test_probabilities = torch.softmax(logits[cut:] / temperature, dim=1)
    accuracy = float((test_probabilities.argmax(1) == labels[cut:]).float().mean())
    figures = {"rendered_accuracy": accuracy, "temperature": temperature,
               "expected_calibration_error": calibration_error(test_probabilities, labels[cut:]),
               "minutes": (time.perf_counter() - started) / 60}
    metadata = {"labels": json.dumps(samples.LABELS), "shares": json.dumps(samples.LABEL_SHARES),
                "input": json.dumps({"width": size[0], "height": size[1], "channels": "BGR", "dtype": "uint8"}),
                "recipe": json.dumps(asdict(recipe)), "figures": json.dumps(figures)}
    example = torch.zeros(1, size[1], size[0], 3, dtype=torch.uint8)
    export(Calibrated(net, temperature), out, example, ("crops", "probabilities"), {0: "n"}, metadata)
    report(f"held-out rendered crops: {accuracy:.2%} top-1, temperature {temperature:.2f}; wrote {out}")
    return figures


def calibration_error(probabilities: torch.Tensor, labels: torch.Tensor, bins: int = 10) -> float:
    """How far stated confidence is from the accuracy it comes true with, averaged over confidence bins."""
    confidence, guess = probabilities.max(1)
    right = (guess == labels).float()
    error = 0.0
    for k in range(bins):
        inside = (confidence > k / bins) & (confidence <= (k + 1) / bins)
        if inside.any():
            error += float(inside.float().mean()) * abs(float(right[inside].mean() - confidence[inside].mean()))
    return error
