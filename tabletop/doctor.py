"""``tabletop doctor``: look over the table unit and say in plain words what to fix.

Each check tries the real thing (open the camera, load the model, claim the pins, bind the port) and lets
go again, changing nothing: a damaged game log is reported here, not moved aside, and the logs the service
moved aside are named.
"""

from __future__ import annotations

import os
import socket
import sqlite3
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2

from tabletop.config import KNOWN_PIN, SHORTEST_PIN, SYSTEM_CONFIG, Config, load_config
from tabletop.errors import ConfigError, ModelError, TabletopError
from tabletop.host_pin import DIGITS, pin_file
from tabletop.store import FILE_NAME, KEPT_ASIDE, usable_record
from tabletop.vision.crop import Image


@dataclass(frozen=True)
class Finding:
    ok: bool
    what: str
    detail: str

    def line(self) -> str:
        return f"{'ok ' if self.ok else 'FIX'}  {self.what}: {self.detail}"


def examine(path: Path | None, environ: dict[str, str] | None = None, pin_factory: Any = None) -> list[Finding]:
    """Every check, in the order a person would fix things; later checks need a readable config."""
    try:
        config = load_config(path, environ)
    except ConfigError as err:
        return [Finding(False, "config", f"{err}: correct it in {path or SYSTEM_CONFIG} (or the TABLETOP_* "
                                         "variable)")]
    read = path or (SYSTEM_CONFIG if SYSTEM_CONFIG.exists() else None)
    findings = [Finding(True, "config", f"read {read}" if read else "no config file; using the defaults")]
    checks: list[Callable[[Config], Finding]] = [_host_pin, _state, _model, _finder, _camera,
                                                 lambda c: _panel(c, pin_factory), _voice, _port]
    return findings + [check(config) for check in checks]


def _state(config: Config) -> Finding:
    directory = config.state
    if not directory.exists():
        return Finding(False, "state directory", f"{directory} does not exist: create it, owned by the user the "
                                                 "service runs as (systemd's StateDirectory does this)")
    if not os.access(directory, os.W_OK):
        return Finding(False, "state directory", f"{directory} is not writable by this user")
    log = directory / FILE_NAME
    if not log.exists():
        return Finding(True, "state directory", f"{directory} is writable; no game log yet")
    kept = _kept_aside(directory)
    try:
        with sqlite3.connect(f"file:{log}?mode=ro", uri=True) as db:
            check = db.execute("PRAGMA quick_check").fetchone()[0]
            games = db.execute("SELECT COUNT(*) FROM games").fetchone()[0]
            latest = db.execute("SELECT MAX(id) FROM games").fetchone()[0]
            usable, damage = ([], None) if latest is None else usable_record(db, latest)
    except sqlite3.Error as err:
        return Finding(False, "game log", f"{log} cannot be read ({err}); the service will keep it aside and "
                                          f"start a new one{kept}")
    if check != "ok":
        return Finding(False, "game log", f"{log} is damaged ({check}); the service will keep it aside{kept}")
    if damage is not None:
        return Finding(False, "game log", f"{log}: the latest game has a line that cannot be used ({damage}); "
                                          f"the service will keep the log aside and resume the game from the "
                                          f"{len(usable)} lines before it{kept}")
    return Finding(True, "game log", f"{log} holds {games} game(s){kept}")


def _kept_aside(directory: Path) -> str:
    """The logs the service found damaged and moved aside, for the host to look at or delete."""
    kept = sorted(path.name for path in directory.glob(f"{FILE_NAME}{KEPT_ASIDE}*")
                  if not path.name.endswith(("-wal", "-shm")))
    return f"; kept aside as damaged: {', '.join(kept)}" if kept else ""


def _voice(config: Config) -> Finding:
    from babel.support import Translations

    from tabletop.languages import ENGLISH, LANGUAGES, translations
    from tabletop.voice import missing

    language = f"{LANGUAGES[config.language]} ({config.language})"
    if not isinstance(translations(config.language), Translations) and config.language != ENGLISH:
        return Finding(False, "voice", f"{language}: its catalogue is missing (reinstall tabletop: its build "
                                       "compiles them), so the table would speak and show English")
    if not config.panel.voice:
        return Finding(True, "voice", f"off (`[panel] voice = true` speaks the calls); pages default to {language}")
    problem = missing()
    if problem:
        return Finding(False, "voice", f"{problem}, or set `[panel] voice = false`")
    return Finding(True, "voice", f"espeak-ng speaks the calls in {language}")


def _test_card() -> Image:
    from tabletop.vision.model import TEST_PICTURE

    picture: Image | None = cv2.imread(str(TEST_PICTURE), cv2.IMREAD_COLOR)
    if picture is None:
        raise ModelError(f"cannot read the test picture {TEST_PICTURE}")
    return picture


def _model(config: Config) -> Finding:
    from tabletop.game.cards import Card
    from tabletop.vision.crop import look, middle_card
    from tabletop.vision.model import INDEX_MODEL, TEST_CARD, TEST_CARD_HEIGHT, CardModel

    try:
        model = CardModel(config.model)
        picture = _test_card()
    except TabletopError as err:
        return Finding(False, "card model", f"{err}: reinstall tabletop, or point `model` at a cards.onnx")
    height, width = picture.shape[:2]
    reading = model.read([look(picture, middle_card(width, height, TEST_CARD_HEIGHT), model.size)])[0]
    if reading.card != Card.from_name(TEST_CARD):
        return Finding(False, "card model", "the model loads but misreads a clean green 7: it is not the "
                                            "model tabletop ships")
    if model.index is None:
        return Finding(False, "card model", f"reads a test card, but no {INDEX_MODEL} lies beside it: cards are "
                                            "read without their index corners, more often unsure; reinstall "
                                            "tabletop, or put the index model beside the card model")
    return Finding(True, "card model", "loads, with its index model, and reads a test card")


def _finder(config: Config) -> Finding:
    from tabletop.vision.finder import CardFinder

    try:
        finder = CardFinder()
        picture = _test_card()
    except TabletopError as err:
        return Finding(False, "card finder", f"{err}: reinstall tabletop")
    found = finder.find(picture, 1)
    middle = (picture.shape[1] / 2, picture.shape[0] / 2)
    if not found or cv2.pointPolygonTest(found[0].corners, middle, False) < 0:
        return Finding(False, "card finder", "the finder loads but misses a card alone on felt: it is not the "
                                             "finder tabletop ships")
    return Finding(True, "card finder", "loads and finds a test card")


def _camera(config: Config) -> Finding:
    from tabletop.sources.open import open_source

    try:
        source = open_source(config.camera)
        frame = next(iter(source.frames()), None)
        source.close()
    except TabletopError as err:
        return Finding(False, "camera", f"{config.camera}: {err}. If the service is running it holds the camera: "
                                        "stop it first (sudo systemctl stop tabletop)")
    if frame is None:
        return Finding(False, "camera", f"{config.camera} gave no picture: check the ribbon cable or USB plug, "
                                        "and that the user is in the video group")
    height, width = frame.image.shape[:2]
    return Finding(True, "camera", f"{config.camera} gives {width}x{height} pictures")


def _panel(config: Config, pin_factory: Any) -> Finding:
    parts = config.panel
    if not parts.fitted:
        return Finding(True, "panel", "no parts fitted")
    from gpiozero.exc import PinFactoryFallback

    from tabletop.panel import TablePanel

    try:
        with warnings.catch_warnings():  # each library gpiozero tries and lacks: the finding says it once
            warnings.simplefilter("ignore", PinFactoryFallback)
            TablePanel(parts, lambda _: None, pin_factory=pin_factory).close()
    except Exception as err:  # gpiozero raises many kinds, from a missing library to a pin in use
        return Finding(False, "panel", f"cannot use the GPIO pins ({err}): on a Pi, check the user is in the gpio "
                                       "group and no other program holds the pins; elsewhere set "
                                       "GPIOZERO_PIN_FACTORY=mock or fit no parts")
    return Finding(True, "panel", f"{len(parts.pins)} pin(s) claimed and released")


def _host_pin(config: Config) -> Finding:
    """A PIN printed in this project's README, or a short one, lets anyone at the table be the host."""
    if config.pin is None:
        path = pin_file(config)
        if path.exists():
            return Finding(True, "host PIN", f"made at the first start: {DIGITS} digits in {path} (read it with "
                                             f"sudo cat {path})")
        return Finding(True, "host PIN", f"none set: {DIGITS} random digits are made at the first start, in {path}")
    if config.pin == KNOWN_PIN:
        return Finding(False, "host PIN", f"web.pin is {KNOWN_PIN}, which anyone can look up in the README: set "
                                          f"your own of at least {SHORTEST_PIN} characters, or remove it to have "
                                          f"one made")
    if len(config.pin) < SHORTEST_PIN:
        return Finding(False, "host PIN", f"web.pin has {len(config.pin)} characters, which a guest can try in "
                                          f"days: set at least {SHORTEST_PIN}, or remove it to have {DIGITS} "
                                          f"random digits made")
    return Finding(True, "host PIN", f"set ({len(config.pin)} characters)")


def _port(config: Config) -> Finding:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        try:
            probe.bind((config.host, config.port))
        except OSError as err:
            return Finding(False, "port", f"cannot listen on {config.host}:{config.port} ({err.strerror}): "
                                          "another program uses it (the service itself?), or choose web.port")
    return Finding(True, "port", f"{config.host}:{config.port} is free")
