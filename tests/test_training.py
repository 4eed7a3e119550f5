"""Training, briefly: a short run of each trainer exports models that the run time loads and uses.

PyTorch comes with the train extra only; without it these tests are skipped, and nothing imports it.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("torch", reason="training needs the train extra (pip install -e '.[train]')")

from tabletop.lab.drawing import scene
from tabletop.lab.training import samples
from tabletop.lab.training.train import Recipe, train
from tabletop.lab.training.train_finder import FinderRecipe, train_finder
from tabletop.vision import finder
from tabletop.vision.crop import CROP_SIZE
from tabletop.vision.model import CardModel

pytestmark = pytest.mark.slow


def test_a_short_training_run_exports_a_model_that_run_time_loads(tmp_path: Path) -> None:
    out = tmp_path / "tiny.onnx"
    recipe = Recipe(samples=256, epochs=1, calibration_samples=64, test_samples=64, chunk=128)
    figures = train(out, recipe, log=lambda line: None, workers=1)
    model = CardModel(out)
    assert model.labels == samples.LABELS
    assert model.size == CROP_SIZE
    crops, _ = samples.batch(seed=9, count=2)
    readings = model.read(list(crops))
    assert len(readings) == 2 and all(0 <= r.confidence <= 1 for r in readings)
    assert 0 <= figures["rendered_accuracy"] <= 1


def test_a_short_finder_training_run_exports_two_looks_that_run_time_loads(tmp_path: Path) -> None:
    recipe = FinderRecipe(frames=12, epochs=1, outliner_epochs=1, test_frames=6, chunk=6)
    figures = train_finder(tmp_path, recipe, log=lambda line: None, workers=1)
    found = finder.CardFinder(tmp_path).find(scene.felt(np.random.default_rng(1), (480, 640)))
    assert isinstance(found, list)
    assert 0 <= figures["first_look_overlap"] <= 1 and 0 <= figures["second_look_overlap"] <= 1
