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


def test_every_error_is_in_one_catalogue_and_is_also_a_builtin_error() -> None:
    """One place lists what tabletop can raise, as gpiozero's does: each error under the one root, and each also the
    builtin exception of its kind, so that code knowing nothing of tabletop still catches it."""
    import tabletop.errors as errors

    elsewhere = [f"{path.relative_to(PACKAGE)}: {node.name}" for path in modules(PACKAGE) if path.name != "errors.py"
                 for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
                 if isinstance(node, ast.ClassDef) and node.name.endswith("Error")]
    assert not elsewhere
    catalogue = [value for value in vars(errors).values()
                 if isinstance(value, type) and issubclass(value, errors.TabletopError)]
    assert len(catalogue) >= 12
    for error in catalogue:
        if error is not errors.TabletopError:
            builtin = [base for base in error.__mro__ if base.__module__ == "builtins" and base is not Exception
                       and base not in (BaseException, object)]
            assert builtin, f"{error.__name__} is not also a builtin error"


@pytest.mark.parametrize("path", modules(PACKAGE / "watcher"), ids=lambda p: p.name)
def test_a_frame_travels_one_way_the_watcher_never_reaches_back_into_the_table(path: Path) -> None:
    """Source, watcher, events, table: the camera's thread lives in watcher/ and hands what it sees on; nothing in
    watcher/ knows the table, its log or the web, so no answer can come back into the camera's thread."""
    from tabletop.watcher.camera import CameraWatch

    assert CameraWatch.__module__.startswith("tabletop.watcher.")
    back = {name for name in imported(path)
            if name.startswith(("tabletop.table", "tabletop.store", "tabletop.web", "tabletop.camera_inbox"))}
    assert not back, f"{path.name} imports {sorted(back)}"
