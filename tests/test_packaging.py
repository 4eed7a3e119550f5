"""The wheel: built from the checkout, it carries the models and the web pages, and runs from any folder."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import urllib.request
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Built from a copy of the checkout, so that no build folder left in it (stale modules and all) counts."""
    source, out = tmp_path_factory.mktemp("source") / "tabletop", tmp_path_factory.mktemp("wheel")
    shutil.copytree(ROOT, source, ignore=shutil.ignore_patterns(".*", "build", "tests", "__pycache__", "*.egg-info"))
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation",
                    "--wheel-dir", str(out), str(source)], check=True, capture_output=True, cwd=out)
    return next(out.glob("tabletop-*.whl"))


@pytest.fixture(scope="module")
def installed(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    site = tmp_path_factory.mktemp("site")
    subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--target", str(site), str(wheel)],
                   check=True, capture_output=True)
    return site


def run_installed(site: Path, folder: Path, *args: str) -> subprocess.Popen[str]:
    """``tabletop ARGS`` from the installed wheel alone, started in ``folder``, far from the checkout."""
    environ = {**os.environ, "PYTHONPATH": str(site)}
    return subprocess.Popen([sys.executable, "-m", "tabletop.cli", *args], cwd=folder, env=environ, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT)


def test_the_wheel_carries_every_module_the_models_and_the_pages(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    modules = {str(path.relative_to(ROOT)) for path in (ROOT / "tabletop").rglob("*.py")}
    assert modules <= names, sorted(modules - names)
    shipped = {f"tabletop/models/{path.name}" for path in (ROOT / "models").glob("*.onnx")}
    shipped |= {f"tabletop/webroot/{path.relative_to(ROOT / 'web')}" for path in (ROOT / "web").rglob("*.*")
                if "__pycache__" not in path.parts}
    assert len(shipped) > 10 and shipped <= names, sorted(shipped - names)
    assert {"tabletop/lab/drawing/glyphs.png", "tabletop/models/README.md"} <= names


def test_the_installed_wheel_reads_a_card_from_another_folder(installed: Path, tmp_path: Path) -> None:
    card = ROOT / "tests" / "data" / "real-cards" / "000.jpg"
    process = run_installed(installed, tmp_path, "classify", str(card))
    output, _ = process.communicate(timeout=120)
    assert process.returncode == 0, output
    assert output.strip() == f"{card}: blue-0 (100%)"


def lines(process: subprocess.Popen[str]) -> Iterator[str]:
    assert process.stdout is not None
    yield from process.stdout


def test_the_installed_wheel_plays_the_demo_and_serves_its_pages(installed: Path, tmp_path: Path) -> None:
    demo = run_installed(installed, tmp_path, "demo", "--rounds", "1", "--players", "2", "--seed", "3", "--speed",
                         "500", "--host", "127.0.0.1", "--port", "0")
    try:
        said = lines(demo)
        log = next(Path(match.group(1)) for line in said if (match := re.match(r"game log: (\S+) \(removed", line)))
        assert log.is_dir()
        address = next(match.group(1) for line in said if (match := re.search(r"scoreboard: (\S+)/ ", line)))
        for page in ("/", "/join", "/static/board.js", "/static/tabletop.css"):
            with urllib.request.urlopen(address + page, timeout=10) as response:
                assert response.status == 200 and response.read(), page
        rest = "".join(said)
        assert demo.wait(timeout=300) == 0, rest
        assert "summary:" in rest and "Traceback" not in rest
        assert not log.exists(), "the demo left its temporary game log behind"
    finally:
        demo.kill()
        demo.communicate()
