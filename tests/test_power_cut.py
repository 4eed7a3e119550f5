"""A power cut is not a SIGKILL: the page cache goes too. Every event the game log acknowledged must be on disk.

The log runs in a process of its own with ``tests/powercut/shim.c`` between SQLite and the C library, which
copies each file of the log as it stands whenever it is fsynced. At random moments the process is frozen and
the copies are taken as the disk after a power cut: the database and its write-ahead log each as at their last
fsync, anything written since gone, a file never fsynced missing. The log must open from them, hold every event
whose ``append`` had returned, and take the next.
"""

from __future__ import annotations

import os
import random
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tabletop.game.cards import Card
from tabletop.game.events import Game, Play
from tabletop.store import GameStore

HERE = Path(__file__).parent / "powercut"
CUTS = 200


@pytest.fixture
def shim(tmp_path: Path) -> Path:
    built = tmp_path / "shim.so"
    subprocess.run(["cc", "-shared", "-fPIC", "-O1", "-o", str(built), str(HERE / "shim.c"), "-ldl"], check=True)
    return built


def frozen(pid: int) -> None:
    """Stop ``pid`` and wait until it is stopped: a signal is delivered in its own time."""
    os.kill(pid, signal.SIGSTOP)
    stat = Path(f"/proc/{pid}/stat")
    while stat.read_text().rsplit(")", 1)[1].split()[0] != "T":
        time.sleep(0.0005)


def acknowledged(pipe: int, last: int) -> int:
    """The highest line count the writer printed, reading all it wrote before it was frozen."""
    text = b""
    while True:
        try:
            chunk = os.read(pipe, 65536)
        except BlockingIOError:
            break
        if not chunk:
            break
        text += chunk
    lines = text.split()
    return int(lines[-1]) if lines else last


def after_the_cut(disk: Path, into: Path) -> Path:
    """The log's directory as the disk holds it after a power cut now: each file as at its last fsync."""
    into.mkdir()
    for synced in disk.glob("*.synced"):
        shutil.copyfile(synced, into / synced.name.removesuffix(".synced"))
    return into


def test_a_power_cut_at_any_moment_loses_no_acknowledged_event(shim: Path, tmp_path: Path) -> None:
    disk = tmp_path / "disk"
    disk.mkdir()
    environment = {**os.environ, "LD_PRELOAD": str(shim), "POWERCUT_DIR": str(disk)}
    writer = subprocess.Popen([sys.executable, str(HERE / "writer.py"), str(disk)], stdout=subprocess.PIPE,
                              env=environment)
    assert writer.stdout is not None
    pipe = writer.stdout.fileno()
    os.set_blocking(pipe, False)
    rng = random.Random(7)
    acked, checked = 0, []
    try:
        for cut in range(CUTS):
            time.sleep(rng.uniform(0, 0.02))
            frozen(writer.pid)
            acked = acknowledged(pipe, acked)
            kept = after_the_cut(disk, tmp_path / f"cut-{cut}")
            os.kill(writer.pid, signal.SIGCONT)
            store = GameStore(kept, report=pytest.fail)
            lines = len(store.events)
            assert lines >= acked, f"cut {cut}: {acked} lines acknowledged, {lines} on disk"
            if lines:
                assert isinstance(store.events[0], Game)
                store.append(Play(card=Card.from_name("red-1"), seat=0))
            store.close()
            if lines:
                resumed = GameStore(kept, report=pytest.fail)
                assert len(resumed.events) == lines + 1, f"cut {cut}: the game did not go on after the cut"
                resumed.close()
            checked.append(acked)
            shutil.rmtree(kept)
    finally:
        writer.kill()
        writer.wait()
        writer.stdout.close()
    assert len(checked) == CUTS and checked[-1] > 100, "the cuts fell while the log was being written"
