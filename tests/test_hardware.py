"""The unit's files beyond Python: the systemd service passes systemd-analyze, the mount renders, the wiring
diagram is a valid SVG and the mounting-height table in hardware/README.md is what the script computes."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

pytestmark = [pytest.mark.tools, pytest.mark.slow]

ROOT = Path(__file__).parents[1]


def test_the_systemd_unit_passes_systemd_analyze_verify() -> None:
    result = subprocess.run([str(ROOT / "systemd" / "verify")], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_camera_mount_renders_and_the_hardware_notes_hold() -> None:
    result = subprocess.run([str(ROOT / "hardware" / "check")], capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stdout + result.stderr
