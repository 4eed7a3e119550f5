"""The table unit's settings: defaults, then one TOML file, then ``TABLETOP_*`` environment variables.

Every key is checked: an unknown key or a bad value is an error that names it (``web.port``), so a typo in
``/etc/tabletop/config.toml`` is found at start, not halfway through a game.
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

from tabletop.errors import ConfigError
from tabletop.game import checks
from tabletop.game.rules import OFFICIAL_RULES, Rules
from tabletop.languages import ENGLISH, LANGUAGES

SYSTEM_CONFIG = Path("/etc/tabletop/config.toml")
PINS = range(2, 28)
"""The BCM numbers of the Pi's 40-pin header."""


def _text(value: Any) -> str:
    if not isinstance(value, str) or not value:
        raise ValueError("must be a non-empty string")
    return value


def _path(value: Any) -> Path:
    return Path(_text(value))


def _pin(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value not in PINS:
        raise ValueError(f"must be a GPIO number (BCM) from {PINS.start} to {PINS.stop - 1}")
    return value


def _fitted(value: Any) -> int | None:
    """A pin, or false for a part that is not fitted."""
    return None if value is False else _pin(value)


def _pins(count: range) -> Callable[[Any], tuple[int, ...]]:
    def check(value: Any) -> tuple[int, ...]:
        if not isinstance(value, list) or len(value) not in count:
            raise ValueError(f"must be a list of {count.start} to {count.stop - 1} GPIO numbers")
        return tuple(_pin(item) for item in value)
    return check


def _pin_code(value: Any) -> str:
    text = str(value) if isinstance(value, int) and not isinstance(value, bool) else _text(value)
    if len(text) < 4:
        raise ValueError("must be at least 4 characters, so that it cannot be guessed in a few tries")
    return text


def _language(value: Any) -> str:
    if not isinstance(value, str) or value not in LANGUAGES:
        raise ValueError(f"must be one of {', '.join(LANGUAGES)}")
    return str(value)


def setting(default: Any, check: checks.Check, key: str = "") -> Any:
    """A setting's one declaration: its default, the check that turns a value from the file or the environment into
    Python (ValueError, in words, when it cannot), and where it is written (``web.port``; a panel part's key is its
    name in ``[panel]``)."""
    return field(default=default, metadata={"check": check, "key": key})


@dataclass(frozen=True)
class Panel:
    """Which parts are fitted and on which pins (BCM numbers); an empty list or no pin means not fitted."""

    buzzer: int | None = setting(18, _fitted)
    chirp: bool = setting(True, checks.flag)
    voice: bool = setting(False, checks.flag)
    """Speak each call through espeak-ng, in the table's language (a speaker on the Pi's sound output)."""
    seat_leds: tuple[int, ...] = setting((), _pins(range(0, 11)))
    color_led: tuple[int, ...] = setting((), _pins(range(3, 4)))
    uno_buttons: tuple[int, ...] = setting((), _pins(range(0, 11)))

    @property
    def pins(self) -> tuple[int, ...]:
        """Every pin a fitted part uses."""
        buzzer = () if self.buzzer is None else (self.buzzer,)
        return (*buzzer, *self.seat_leds, *self.color_led, *self.uno_buttons)

    @property
    def fitted(self) -> bool:
        """Whether any part is fitted at all: a table without one runs no panel."""
        return bool(self.pins)


HOST = "0.0.0.0"
"""Where the scoreboard listens unless told: every interface, so that phones on the table's Wi-Fi reach it."""
PORT = 8000
KNOWN_PIN = "1234"
"""The PIN this project's own examples use: the doctor says FIX while a config sets it."""
SHORTEST_PIN = 6
"""The fewest characters of a PIN the doctor calls safe: a guest at the pace the PIN guard allows would need
months to try a million."""


@dataclass(frozen=True)
class Config:
    """Every setting of the table unit, each declared once: its default, its check and its key."""

    players: tuple[str, ...] = setting(("Player 1", "Player 2", "Player 3", "Player 4"), checks.players, "game.players")
    rules: Rules = setting(OFFICIAL_RULES, checks.rules, "game.rules")
    camera: str = setting("picamera", _text, "camera.source")
    layout: Path | None = setting(None, _path, "camera.layout")
    host: str = setting(HOST, _text, "web.host")
    port: int = setting(PORT, checks.whole(1, 65535), "web.port")
    pin: str | None = setting(None, _pin_code, "web.pin")
    """None: six random digits are made at the first start (see ``tabletop.host_pin``)."""
    panel: Panel = field(default=Panel(), metadata={"section": True})
    language: str = setting(ENGLISH, _language, "table.language")
    state: Path = setting(Path("/var/lib/tabletop"), _path, "state")
    model: Path | None = setting(None, _path, "model")


def _sections() -> dict[str, dict[str, tuple[str, checks.Check]]]:
    """Every setting, by section (``""`` is the top level): the field it fills and the check that turns its value
    into Python, read from the one declaration of each (``setting``)."""
    found: dict[str, dict[str, tuple[str, checks.Check]]] = {"": {}}
    for spec in fields(Config):
        if spec.metadata.get("section"):
            found[spec.name] = {part.name: (part.name, part.metadata["check"]) for part in fields(Panel)}
            continue
        section, _, key = spec.metadata["key"].rpartition(".")
        found.setdefault(section, {})[key] = (spec.name, spec.metadata["check"])
    return found


KEYS = _sections()
"""Every setting, by section, with the field it fills and its check."""


def load_config(path: Path | None = None, environ: Mapping[str, str] | None = None) -> Config:
    """The settings from ``path`` (the system file when it exists, if None) and then the environment."""
    environ = os.environ if environ is None else environ
    settings = _read(path if path is not None else SYSTEM_CONFIG, required=path is not None)
    for name, value in _from_environment(environ).items():
        section, key = name
        settings.setdefault(section, {})[key] = value
    return _build(settings)


def _read(path: Path, required: bool) -> dict[str, dict[str, Any]]:
    if not path.exists():
        if required:
            raise ConfigError(f"{path}: no such file")
        return {}
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as err:
        raise ConfigError(f"{path}: {err}") from None
    settings: dict[str, dict[str, Any]] = {"": {}}
    for key, value in raw.items():
        if isinstance(value, dict) and key in KEYS and key:
            settings[key] = dict(value)
        else:
            settings[""][key] = value
    return settings


def _from_environment(environ: Mapping[str, str]) -> dict[tuple[str, str], Any]:
    """``TABLETOP_WEB_PORT=8080`` sets ``web.port``; ``TABLETOP_STATE`` the top-level ``state``.

    A value is read as TOML when it is one (``8080``, ``true``, ``[5, 6]``), else taken as text.
    """
    found: dict[tuple[str, str], Any] = {}
    for name, text in environ.items():
        if not name.startswith("TABLETOP_"):
            continue
        rest = name[len("TABLETOP_"):].lower()
        section = next((s for s in KEYS if s and rest.startswith(s + "_")), "")
        key = rest[len(section) + 1:] if section else rest
        if key not in KEYS[section]:
            where = f"{section}.{key}" if section else key
            raise ConfigError(f"{name}: there is no setting {where}")
        found[(section, key)] = _toml_value(text)
    return found


def _toml_value(text: str) -> Any:
    try:
        return tomllib.loads(f"v = {text}")["v"]
    except tomllib.TOMLDecodeError:
        return text


def _build(settings: dict[str, dict[str, Any]]) -> Config:
    values: dict[str, Any] = {}
    panel: dict[str, Any] = {}
    for section, table in settings.items():
        for key, value in table.items():
            name = f"{section}.{key}" if section else key
            known = KEYS.get(section, {}).get(key)
            if known is None:
                raise ConfigError(f"{name}: unknown setting (known: {', '.join(_known(section))})")
            target, check = known
            try:
                checked = check(value)
            except ValueError as err:
                raise ConfigError(f"{name}: {err}") from None
            (panel if section == "panel" else values)[target] = checked
    config = Config(**values, panel=Panel(**panel))
    _check_pins(config.panel)
    return config


def _known(section: str) -> list[str]:
    if not section:
        return [*KEYS[""], *(f"[{name}]" for name in KEYS if name)]
    return [f"{section}.{key}" for key in KEYS.get(section, {})]


def _check_pins(panel: Panel) -> None:
    used = panel.pins
    twice = sorted({p for p in used if used.count(p) > 1})
    if twice:
        raise ConfigError(f"panel: GPIO {', '.join(map(str, twice))} is given to more than one part")
