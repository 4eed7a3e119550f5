"""The settings file and the environment: what a table unit is told, and how a mistake in it is named."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tabletop.config import Config, Panel, load_config
from tabletop.errors import ConfigError
from tabletop.game.rules import Rules

EXAMPLE = """
state = "/srv/tabletop"

[game]
players = ["Ann", "Bo", "Cy"]
rules = { preset = "party", hand_size = 5 }

[camera]
source = "camera:0"
layout = "/etc/tabletop/table.json"

[web]
port = 8080
pin = "9731"

[panel]
buzzer = 18
chirp = false
seat_leds = [5, 6, 13]
color_led = [17, 27, 22]
uno_buttons = [4, 23, 24]
"""


def config_file(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "config.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_a_whole_config_file_is_read(tmp_path: Path) -> None:
    config = load_config(config_file(tmp_path, EXAMPLE), environ={})
    assert config == Config(players=("Ann", "Bo", "Cy"), rules=Rules.parse({"preset": "party", "hand_size": 5}),
                            camera="camera:0", layout=Path("/etc/tabletop/table.json"), port=8080, pin="9731",
                            state=Path("/srv/tabletop"),
                            panel=Panel(buzzer=18, chirp=False, seat_leds=(5, 6, 13), color_led=(17, 27, 22),
                                        uno_buttons=(4, 23, 24)))


def test_an_empty_file_leaves_the_defaults(tmp_path: Path) -> None:
    config = load_config(config_file(tmp_path, ""), environ={})
    assert config == Config()
    assert (config.port, config.camera, config.panel.buzzer) == (8000, "picamera", 18)


def test_the_environment_overrides_the_file(tmp_path: Path) -> None:
    config = load_config(config_file(tmp_path, EXAMPLE), environ={
        "TABLETOP_WEB_PORT": "9000", "TABLETOP_STATE": "/tmp/state", "TABLETOP_PANEL_SEAT_LEDS": "[5, 6]",
        "TABLETOP_CAMERA_SOURCE": "sim:3", "TABLETOP_PANEL_BUZZER": "false", "PATH": "/usr/bin"})
    assert (config.port, config.state, config.panel.seat_leds) == (9000, Path("/tmp/state"), (5, 6))
    assert (config.camera, config.panel.buzzer) == ("sim:3", None)


@pytest.mark.parametrize(("text", "words"), [
    ("[web]\nport = 80000", "web.port: must be a whole number from 1 to 65535"),
    ("[web]\nprot = 8080", "web.prot: unknown setting (known: web.host, web.port, web.pin)"),
    ("[webb]\nport = 8080", "webb: unknown setting"),
    ("[web]\npin = 12", "web.pin: must be at least 4 characters"),
    ("[game]\nplayers = [\"Ann\"]", "game.players: must be a list of 2 to 10 names"),
    ("[game]\nrules = { preset = \"house\" }", "game.rules: unknown preset 'house'"),
    ("[game]\nrules = { hand_size = 40 }", "game.rules: option 'hand_size' must be a whole number from 2 to 20"),
    ("[panel]\nbuzzer = 40", "panel.buzzer: must be a GPIO number (BCM) from 2 to 27"),
    ("[panel]\ncolor_led = [17, 27]", "panel.color_led: must be a list of 3 to 3 GPIO numbers"),
    ("[panel]\nseat_leds = [5, 18]", "panel: GPIO 18 is given to more than one part"),
    ("[web\nport = 1", "config.toml"),
])
def test_a_bad_setting_is_named_with_what_is_wrong(tmp_path: Path, text: str, words: str) -> None:
    with pytest.raises(ConfigError, match=re.escape(words)):
        load_config(config_file(tmp_path, text), environ={})


def test_a_bad_environment_variable_is_named(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=re.escape("TABLETOP_WEB_PROT: there is no setting web.prot")):
        load_config(config_file(tmp_path, ""), environ={"TABLETOP_WEB_PROT": "1"})
    with pytest.raises(ConfigError, match=re.escape("web.port: must be a whole number")):
        load_config(config_file(tmp_path, ""), environ={"TABLETOP_WEB_PORT": "eighty"})


def test_a_missing_config_file_given_by_name_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="no such file"):
        load_config(tmp_path / "nowhere.toml", environ={})


def test_the_example_config_shipped_for_the_pi_is_valid() -> None:
    example = Path(__file__).parents[1] / "systemd" / "config.example.toml"
    config = load_config(example, environ={})
    assert (config.players, config.camera, config.pin) == (("Ann", "Bo", "Cy", "Di"), "picamera", None)
