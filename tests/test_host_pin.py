"""The host's PIN made on the table unit when the config sets none."""

from __future__ import annotations

from pathlib import Path

from tabletop.config import Config
from tabletop.host_pin import host_pin, pin_file


def test_a_pin_file_left_empty_gets_six_new_digits_kept_whole_for_the_service_alone(tmp_path: Path) -> None:
    """An empty file (a power cut while an older table wrote it) is not a PIN: a new one is made, the next start
    finds the same, and nothing half-written is left beside it, even where a power cut had left one readable by
    anyone."""
    config = Config(state=tmp_path, pin=None)
    pin_file(config).write_text("")
    half_written = tmp_path / f"{pin_file(config).name}.part"
    half_written.write_text("12")
    half_written.chmod(0o644)
    made = host_pin(config)
    assert len(made) == 6 and made.isdigit()
    assert host_pin(config) == made
    assert pin_file(config).read_text(encoding="ascii") == made + "\n"
    assert pin_file(config).stat().st_mode & 0o777 == 0o600
    assert sorted(path.name for path in tmp_path.iterdir()) == [pin_file(config).name]


def test_a_pin_in_the_config_is_the_pin_and_nothing_is_written(tmp_path: Path) -> None:
    config = Config(state=tmp_path, pin="2468")
    assert host_pin(config) == "2468"
    assert not any(tmp_path.iterdir())
