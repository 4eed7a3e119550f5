"""Training, briefly: a short run of each trainer exports models that the run time loads and uses.

PyTorch comes with the train extra only; without it these tests are skipped, and nothing imports it.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import onnxruntime
import pytest

pytest.importorskip("torch", reason="training needs the train extra (pip install -e '.[train]')")

from tabletop.lab.drawing import scene
from tabletop.lab.training import samples
from tabletop.lab.training.train import Recipe, export, train
from tabletop.lab.training.train_finder import FinderRecipe, finder_net, train_finder
from tabletop.lab.training.train_index_finder import IndexRecipe, train_index_finder
from tabletop.reporting import quiet
from tabletop.vision import finder
from tabletop.vision.crop import CROP_SIZE, INDEX_SIZE, look
from tabletop.vision.index_finder import INDEX_FINDER, IndexFinder
from tabletop.vision.model import CardModel

pytestmark = pytest.mark.slow
CORNERS = np.array([[0, 0], [CROP_SIZE[0], 0], [CROP_SIZE[0], CROP_SIZE[1]], [0, CROP_SIZE[1]]], np.float32)
"""The corners of a whole crop: a crop read again as the picture of its card."""


def test_a_short_training_run_exports_both_card_networks_that_run_time_loads_and_reads_with(tmp_path: Path) -> None:
    recipe = Recipe(samples=256, epochs=1, calibration_samples=64, test_samples=64, chunk=128)
    figures = train(tmp_path, recipe, report=quiet, workers=1).values()
    model = CardModel(tmp_path / "cards.onnx")
    assert model.labels == samples.LABELS
    assert model.size == CROP_SIZE
    assert model.index is not None and model.index.size == INDEX_SIZE
    crops, _ = samples.batch(seed=9, count=2)
    readings = model.read([look(crop, CORNERS, model.size) for crop in crops])
    assert len(readings) == 2 and all(0 <= r.confidence <= 1 for r in readings)
    assert all(0 <= found["rendered_accuracy"] <= 1 for found in figures)


def test_a_short_finder_training_run_exports_two_looks_that_run_time_loads(tmp_path: Path) -> None:
    recipe = FinderRecipe(frames=12, epochs=1, outliner_epochs=1, test_frames=6, chunk=6)
    figures = train_finder(tmp_path, recipe, report=quiet, workers=1)
    found = finder.CardFinder(tmp_path).find(scene.felt(np.random.default_rng(1), (480, 640)))
    assert isinstance(found, list)
    assert 0 <= figures["first_look_overlap"] <= 1 and 0 <= figures["second_look_overlap"] <= 1


def test_a_short_index_finder_training_run_exports_a_network_that_run_time_loads(tmp_path: Path) -> None:
    recipe = IndexRecipe(frames=12, epochs=1, test_frames=6, chunk=6)
    figures = train_index_finder(tmp_path, recipe, report=quiet, workers=1)
    indexes = IndexFinder(tmp_path / INDEX_FINDER)
    maps, scale = indexes.marks(scene.felt(np.random.default_rng(1), (480, 640)), 384 / 640)
    assert maps.shape == (4, 288 // 2, 384 // 2) and scale == pytest.approx(640 / 384)
    assert isinstance(indexes.find(scene.felt(np.random.default_rng(2), (480, 640))), list)
    assert 0 <= figures["indexes_found"] <= 1 and 0 <= figures["stray_marks"] <= 1


def test_an_exported_finder_marks_a_picture_as_the_network_it_was_trained_as(tmp_path: Path) -> None:
    """The export folds each batch norm into the convolutions before it, those the merges add up as well: the
    finder at run time must mark what the network marked when it was measured."""
    import onnx
    import torch

    torch.manual_seed(3)
    net = finder_net()
    for norm in (module for module in net.modules() if isinstance(module, torch.nn.BatchNorm2d)):
        torch.nn.init.uniform_(norm.weight, 0.5, 1.5)
        torch.nn.init.uniform_(norm.bias, -0.5, 0.5)
        norm.running_mean.uniform_(-1, 1)
        norm.running_var.uniform_(0.5, 2)
    picture = scene.felt(np.random.default_rng(3), (192, 256))
    export(net, tmp_path / "finder.onnx", torch.zeros(1, 192, 256, 3, dtype=torch.uint8), ("frames", "marks"),
           {0: "n", 1: "height", 2: "width"}, {})
    session = onnxruntime.InferenceSession(str(tmp_path / "finder.onnx"), providers=["CPUExecutionProvider"])
    (exported,) = session.run(None, {"frames": picture[None]})
    with torch.no_grad():
        trained = net.eval()(torch.from_numpy(picture[None])).numpy()
    assert "BatchNormalization" not in {node.op_type for node in onnx.load(str(tmp_path / "finder.onnx")).graph.node}
    np.testing.assert_allclose(exported, trained, atol=1e-5)
