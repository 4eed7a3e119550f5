"""The three wings and the arrows between them: the game is pure, the table unit never needs the lab.

``tabletop/game`` (cards, events, rules, record, referee, board view) uses the standard library only;
the appliance (vision runtime, watcher, sources, table, store, panel, web, config, service, the doctor) and the
lab (simulators, rendering, training, benchmarks) both build on it, and only the entry points (the command line,
the demo) reach into the lab: the doctor runs on the Pi and checks the models with a shipped picture.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "tabletop"
ENTRY_POINTS = {"cli.py", "demo.py"}
BLOCKED = ("cv2", "numpy", "flask", "werkzeug", "onnxruntime", "gpiozero", "waitress", "torch")


def imported(path: Path) -> set[str]:
    """Every module ``path`` imports, at its top or inside a function."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.add(node.module)
    return names


def modules(where: Path) -> list[Path]:
    return sorted(where.rglob("*.py"))


@pytest.mark.parametrize("path", modules(PACKAGE / "game"), ids=lambda p: p.name)
def test_the_game_imports_only_the_standard_library_and_itself(path: Path) -> None:
    outside = {name for name in imported(path) if name.split(".")[0] not in sys.stdlib_module_names
               and not name.startswith(("tabletop.game", "tabletop.errors"))}
    assert not outside, f"{path.name} imports {sorted(outside)}"


def test_the_game_loads_with_every_outside_library_blocked() -> None:
    blocker = f"""
import sys
class Blocked:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in {BLOCKED!r}:
            raise ImportError("blocked: " + name)
sys.meta_path.insert(0, Blocked())
import tabletop.game.board, tabletop.game.cards, tabletop.game.events, tabletop.game.record
import tabletop.game.referee, tabletop.game.rules, tabletop.game.story
print(sorted(name for name in sys.modules if name.split(".")[0] in {BLOCKED!r}))
"""
    result = subprocess.run([sys.executable, "-c", blocker], capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[]"


@pytest.mark.parametrize("path", [p for p in modules(PACKAGE) if "lab" not in p.relative_to(PACKAGE).parts
                                  and p.name not in ENTRY_POINTS], ids=lambda p: str(p.relative_to(PACKAGE)))
def test_the_table_unit_never_imports_the_lab(path: Path) -> None:
    lab = {name for name in imported(path) if name.startswith("tabletop.lab")}
    assert not lab, f"{path.relative_to(PACKAGE)} imports {sorted(lab)}"
