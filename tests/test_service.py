"""The table unit as the Pi runs it, on the simulator's camera and gpiozero's mock pins; and `tabletop doctor`."""

from __future__ import annotations

import dataclasses
import json
import shutil
import socket
import sqlite3
import threading
import time
import urllib.request
import warnings
from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np
import pytest
from gpiozero.pins.mock import MockFactory

from tabletop.config import Config, Panel
from tabletop.doctor import examine
from tabletop.game.events import Event, Game
from tabletop.lab.drawing.scene import draw_test_card
from tabletop.lab.simulate import simulate_game
from tabletop.service import LAYOUT_FILE, run_service
from tabletop.store import FILE_NAME, GameStore
from tabletop.vision.model import MODELS, TEST_PICTURE
from tabletop.watcher.camera import starting_layout
from tabletop.watcher.layout import read_layout


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def unit(tmp_path: Path, port: int) -> Config:
    return Config(players=("Ann", "Bo", "Cy", "Di"), camera="sim:3", host="127.0.0.1", port=port, pin="2468",
                  state=tmp_path, panel=Panel(buzzer=None))


def run_until(config: Config, done: Callable[[], bool]) -> list[str]:
    """Run the service on a thread until ``done(store)`` holds (or 60 s pass); what it said."""
    said: list[str] = []
    stop = threading.Event()
    thread = threading.Thread(target=run_service, args=(config, stop, said.append))
    thread.start()
    deadline = time.monotonic() + 60
    while not done() and time.monotonic() < deadline:
        time.sleep(0.1)
    stop.set()
    thread.join(timeout=30)
    assert not thread.is_alive()
    return said


def logged(tmp_path: Path) -> list[Event]:
    if not (tmp_path / FILE_NAME).exists():
        return []
    store = GameStore(tmp_path)
    events = store.events
    store.close()
    return events


def test_without_a_pin_in_the_config_the_service_makes_six_digits_kept_for_its_user_alone(tmp_path: Path) -> None:
    """The host finds the PIN on the table unit (the journal says where, never what), it is the same after a
    restart, and the host page takes it."""
    config = dataclasses.replace(unit(tmp_path, free_port()), pin=None)
    pins: list[str] = []

    def signed_in() -> bool:
        path = tmp_path / "host-pin"
        if not path.exists():
            return False
        pins.append(path.read_text().strip())
        request = urllib.request.Request(f"http://127.0.0.1:{config.port}/api/host/check", method="POST",
                                         headers={"X-Host-Pin": pins[-1]})
        try:
            with urllib.request.urlopen(request, timeout=2) as response:
                return response.status == 200
        except OSError:
            return False

    said = run_until(config, signed_in) + run_until(config, signed_in)
    assert len(pins[-1]) == 6 and pins[-1].isdigit() and set(pins) == {pins[-1]}
    assert (tmp_path / "host-pin").stat().st_mode & 0o777 == 0o600
    assert any(f"(the PIN in {tmp_path / 'host-pin'}: sudo cat it)" in line for line in said)
    assert not any(pins[-1] in line for line in said), "the PIN must stay out of the journal"
    doctor = next(f for f in examine(None, environ={"TABLETOP_STATE": str(tmp_path)}, pin_factory=MockFactory())
                  if f.what == "host PIN")
    assert doctor.ok and "made at the first start" in doctor.detail


def test_the_service_records_what_the_camera_sees_and_resumes_after_a_restart(tmp_path: Path) -> None:
    config = unit(tmp_path, free_port())
    said = run_until(config, lambda: len(logged(tmp_path)) > 6)
    first = logged(tmp_path)
    assert first[0] == Game(players=("Ann", "Bo", "Cy", "Di"))
    assert {event.source for event in first[1:]} == {"camera"}
    assert any(line.startswith("scoreboard: http://127.0.0.1:") for line in said)
    assert any("host page:" in line and "(the PIN set in the config)" in line for line in said)
    assert not any(f"PIN {config.pin}" in line for line in said), "the PIN must stay out of the journal"
    state: dict[str, list[str]] = {}

    def answered() -> bool:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{config.port}/api/record", timeout=2) as response:
                state["lines"] = response.read().decode().splitlines()
            return True
        except OSError:
            return False

    run_until(config, answered)
    resumed = [json.loads(line) for line in state["lines"]]
    assert resumed[:len(first)] == [event.to_json() for event in first]


def test_the_hosts_zones_are_kept_in_the_state_directory(tmp_path: Path) -> None:
    config = unit(tmp_path, free_port())
    zones = starting_layout((640, 480), 4)
    body = json.dumps({"discard": {"centre": list(zones.discard.centre), "radius": zones.discard.radius},
                       "draw": {"centre": list(zones.draw.centre), "radius": zones.draw.radius},
                       "reveal": {"left": 100, "top": 300, "right": 500, "bottom": 460},
                       "centre": [320, 240], "seats": [90, 180, 270, 0], "card_height": 86}).encode()

    def moved() -> bool:
        request = urllib.request.Request(f"http://127.0.0.1:{config.port}/api/layout", data=body, method="PUT",
                                         headers={"X-Host-Pin": "2468", "Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=2):
                return True
        except OSError:
            return False

    run_until(config, moved)
    kept = read_layout(tmp_path / LAYOUT_FILE)
    assert (kept.seats, kept.card_height) == ((90, 180, 270, 0), 86)


def test_the_doctor_passes_a_sound_unit(tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    config.write_text(f'state = "{tmp_path}"\n[camera]\nsource = "sim:2"\n[web]\nport = {free_port()}\n'
                      'pin = "864297"\n[panel]\nbuzzer = 18\nseat_leds = [5, 6]\n', encoding="utf-8")
    findings = examine(config, environ={}, pin_factory=MockFactory())
    assert all(finding.ok for finding in findings), [f.line() for f in findings]
    assert [finding.what for finding in findings] == ["config", "host PIN", "state directory", "card model",
                                                     "card finder", "camera", "panel", "voice", "port"]


def test_the_doctors_test_picture_is_the_green_seven_the_lab_draws_where_the_doctor_looks() -> None:
    """The doctor, on the Pi, checks the models with a shipped picture instead of drawing one: the picture must be
    the lab's drawing (JPEG aside), so the card lies where the doctor cuts it."""
    shipped = cv2.imread(str(TEST_PICTURE), cv2.IMREAD_COLOR)
    drawn = draw_test_card()
    assert shipped is not None and shipped.shape == drawn.shape
    assert float(np.abs(shipped.astype(float) - drawn).mean()) < 2.0


def test_the_doctor_says_when_its_test_picture_is_missing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("tabletop.vision.model.TEST_PICTURE", tmp_path / "test-card.jpg")
    config = tmp_path / "config.toml"
    config.write_text(f'state = "{tmp_path}"\n[panel]\nbuzzer = false\n', encoding="utf-8")
    findings = {finding.what: finding for finding in examine(config, environ={})}
    for what in ("card model", "card finder"):
        assert not findings[what].ok and "test-card.jpg" in findings[what].detail
        assert "reinstall tabletop" in findings[what].detail


def test_the_doctor_says_when_the_card_model_has_no_index_model_beside_it(tmp_path: Path) -> None:
    """A card model put somewhere by hand, without the index model that reads its corners: it still reads cards,
    but more often unsure, and the doctor says how to put it right."""
    shutil.copy(MODELS / "cards.onnx", tmp_path / "cards.onnx")
    config = tmp_path / "config.toml"
    config.write_text(f'state = "{tmp_path}"\nmodel = "{tmp_path / "cards.onnx"}"\n[panel]\nbuzzer = false\n',
                      encoding="utf-8")
    model = next(finding for finding in examine(config, environ={}) if finding.what == "card model")
    assert not model.ok and "index.onnx" in model.detail and "reinstall tabletop" in model.detail


def test_the_doctor_says_when_the_voice_cannot_speak(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A table set to speak on a Pi without espeak-ng: the doctor says how to fix it; nothing crashes."""
    config = tmp_path / "config.toml"
    config.write_text(f'state = "{tmp_path}"\n[table]\nlanguage = "ru"\n[panel]\nbuzzer = false\nvoice = true\n',
                      encoding="utf-8")
    monkeypatch.setenv("PATH", str(tmp_path))  # no espeak-ng to be found
    voice = next(finding for finding in examine(config, environ={}) if finding.what == "voice")
    assert not voice.ok and "espeak-ng is not installed" in voice.detail and "apt install espeak-ng" in voice.detail


@pytest.mark.parametrize(("text", "what", "words"), [
    ("[web]\nprot = 1\n", "config", "web.prot: unknown setting"),
    ('[web]\npin = "1234"\n', "host PIN", "which anyone can look up in the README"),
    ('[web]\npin = "4321"\n', "host PIN", "has 4 characters, which a guest can try in days"),
    ('state = "/nonexistent/tabletop"\n', "state directory", "does not exist"),
    ('[camera]\nsource = "camera:7"\n', "camera", "camera:7"),
    ('[camera]\nsource = "/no/such/video.mp4"\n', "camera", "not a source tabletop knows"),
])
def test_the_doctor_says_what_to_fix(tmp_path: Path, text: str, what: str, words: str) -> None:
    config = tmp_path / "config.toml"
    config.write_text(text, encoding="utf-8")
    findings = examine(config, environ={"TABLETOP_STATE": str(tmp_path)} if "state" not in text else {},
                       pin_factory=MockFactory())
    bad = [finding for finding in findings if not finding.ok and finding.what == what]
    assert bad and words in bad[0].detail, [f.line() for f in findings]


def test_the_doctor_finds_a_busy_port_and_a_damaged_log_and_changes_neither(tmp_path: Path) -> None:
    (tmp_path / FILE_NAME).write_bytes(b"scribbles" * 200)
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        config = tmp_path / "config.toml"
        config.write_text(f'state = "{tmp_path}"\n[camera]\nsource = "sim:2"\n[web]\nhost = "127.0.0.1"\n'
                          f'port = {port}\n', encoding="utf-8")
        findings = {finding.what: finding for finding in examine(config, environ={}, pin_factory=MockFactory())}
    assert not findings["port"].ok and "another program" in findings["port"].detail
    assert not findings["game log"].ok
    assert (tmp_path / FILE_NAME).read_bytes() == b"scribbles" * 200


def test_the_doctor_says_where_a_damaged_game_stops_and_what_the_service_kept_aside(tmp_path: Path) -> None:
    events = simulate_game(16, players=3).events[:12]
    store = GameStore(tmp_path)
    store.restart(events)
    store.close()
    with sqlite3.connect(tmp_path / FILE_NAME) as db:
        db.execute("INSERT INTO events VALUES (1, 12, '{\"type\": \"teleport\"}', 0)")
    config = tmp_path / "config.toml"
    config.write_text(f'state = "{tmp_path}"\n', encoding="utf-8")
    log = next(f for f in examine(config, environ={}, pin_factory=MockFactory()) if f.what == "game log")
    assert not log.ok and "line 13" in log.detail and "resume the game from the 12 lines before it" in log.detail
    GameStore(tmp_path, report=lambda _: None).close()
    log = next(f for f in examine(config, environ={}, pin_factory=MockFactory()) if f.what == "game log")
    assert log.ok and "kept aside as damaged: game.sqlite3.unreadable-" in log.detail


def test_a_panel_counts_as_fitted_when_any_part_is() -> None:
    assert Panel().fitted and Panel(buzzer=None, uno_buttons=(5,)).fitted
    assert not Panel(buzzer=None).fitted
    assert Panel(seat_leds=(5, 6), color_led=(13, 19, 26)).pins == (18, 5, 6, 13, 19, 26)


def test_the_doctor_says_once_that_the_pins_cannot_be_used_without_gpiozero_s_warnings(tmp_path: Path) -> None:
    """Off a Pi, gpiozero warns of every pin library it lacks; the doctor's one finding is what the host reads."""
    config = tmp_path / "config.toml"
    config.write_text(f'state = "{tmp_path}"\n[camera]\nsource = "sim:2"\n', encoding="utf-8")
    with warnings.catch_warnings(record=True) as warned:
        warnings.simplefilter("always")
        panel = next(f for f in examine(config, environ={}) if f.what == "panel")
    assert not panel.ok and "cannot use the GPIO pins" in panel.detail
    assert [str(w.message) for w in warned] == []


def test_the_doctor_says_when_a_languages_catalogue_is_missing(tmp_path: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    config = tmp_path / "config.toml"
    config.write_text(f'state = "{tmp_path}"\n[table]\nlanguage = "bg"\n[panel]\nbuzzer = false\n', encoding="utf-8")
    assert next(f for f in examine(config, environ={}) if f.what == "voice").ok
    monkeypatch.setattr("tabletop.languages.LOCALES", tmp_path)  # a wheel built without its catalogues
    voice = next(f for f in examine(config, environ={}) if f.what == "voice")
    assert not voice.ok and "catalogue is missing" in voice.detail
