"""The panel through gpiozero's mock pins: what a person at the table would hear and see."""

from __future__ import annotations

import threading
from collections.abc import Iterator

import pytest
from gpiozero.pins.mock import MockFactory

from tabletop.config import Panel
from tabletop.game.cards import Card
from tabletop.game.events import Event, Game, Play, Uno, event_from_json
from tabletop.game.rules import Rules
from tabletop.panel import PATTERNS, REPRESS, TablePanel
from tabletop.table import Table

PARTS = Panel(buzzer=18, chirp=True, seat_leds=(5, 6, 13), color_led=(17, 27, 22), uno_buttons=(4, 23, 24))
OPENING = [{"type": "game", "players": ["Ann", "Bo", "Cy"], "rules": {"preset": "official"}},
           {"type": "deal", "dealer": 2}, {"type": "flip", "card": "red-5"}]


@pytest.fixture
def pins() -> MockFactory:
    return MockFactory()


@pytest.fixture
def table() -> Iterator[Table]:
    with Table() as running:
        running.restart([event_from_json(e) for e in OPENING])
        yield running


def heard(pins: MockFactory) -> list[bool]:
    return [state.state for state in pins.pin(18).states]


def beeps(*patterns: tuple[float, ...]) -> list[bool]:
    """The buzzer pin's states for these patterns played one after another, starting from silence."""
    states = [False]
    for pattern in patterns:
        states += [k % 2 == 0 for k in range(len(pattern))]
        if states[-1]:
            states.append(False)
    return states


def panel_on(table: Table, pins: MockFactory, parts: Panel = PARTS, **kw: object) -> TablePanel:
    panel = TablePanel(parts, table.post, pin_factory=pins, sleep=lambda _: None, **kw)  # type: ignore[arg-type]
    table.subscribe(panel.show)
    return panel


def test_a_missed_uno_sounds_three_short_beeps(table: Table, pins: MockFactory) -> None:
    panel = panel_on(table, pins, Panel(**{**PARTS.__dict__, "chirp": False}))
    table.restart([Game(players=("Ann", "Bo", "Cy"), rules=Rules.parse({"preset": "official", "hand_size": 2})),
                   *(event_from_json(e) for e in OPENING[1:])])
    table.submit(Play(card=Card.from_name("red-7"), seat=0))
    table.submit(Play(card=Card.from_name("red-8"), seat=1))
    panel.close()
    assert heard(pins) == beeps(PATTERNS["missed-uno"])
    assert heard(pins).count(True) == 3  # three beeps, whatever their lengths


def test_a_card_that_does_not_match_rattles(table: Table, pins: MockFactory) -> None:
    panel = panel_on(table, pins, Panel(**{**PARTS.__dict__, "chirp": False}))
    table.submit(Play(card=Card.from_name("blue-3"), seat=0))
    panel.close()
    assert heard(pins) == beeps(PATTERNS["illegal-play"])
    assert len(set(PATTERNS.values())) == len(PATTERNS) - 1  # out of turn and a wrong card share the rattle


def test_a_round_going_out_sounds_its_fanfare(table: Table, pins: MockFactory) -> None:
    panel = panel_on(table, pins, Panel(**{**PARTS.__dict__, "chirp": False}))
    table.restart([Game(players=("Ann", "Bo", "Cy"), rules=Rules.parse({"preset": "official", "hand_size": 2})),
                   *(event_from_json(e) for e in OPENING[1:])])
    for seat, card in ((0, "red-7"), (1, "red-8"), (2, "red-9")):
        table.submit(Play(card=Card.from_name(card), seat=seat))
        table.submit(Uno(seat=seat))
    table.submit(Play(card=Card.from_name("red-1"), seat=0))
    panel.close()
    assert heard(pins) == beeps(PATTERNS["round-end"])


def test_a_card_read_by_the_camera_chirps_unless_switched_off(table: Table, pins: MockFactory) -> None:
    panel = panel_on(table, pins)
    table.submit(Play(card=Card.from_name("red-7"), seat=0, source="camera"))
    table.submit(Play(card=Card.from_name("red-8"), seat=1, source="phone"))
    panel.close()
    assert heard(pins) == beeps(PATTERNS["chirp"])
    quiet = MockFactory()
    panel = panel_on(table, quiet, Panel(**{**PARTS.__dict__, "chirp": False}))
    table.submit(Play(card=Card.from_name("red-9"), seat=2, source="camera"))
    panel.close()
    assert heard(quiet) == [False]


def test_the_turn_led_and_the_colour_led_follow_the_game(table: Table, pins: MockFactory) -> None:
    panel = panel_on(table, pins)
    table.submit(Play(card=Card.from_name("yellow-5"), seat=0))
    assert [pins.pin(p).state for p in (5, 6, 13)] == [False, True, False]
    assert [pins.pin(p).state for p in (17, 27, 22)] == [True, True, False]
    table.submit(Play(card=Card.from_name("wild"), seat=1))
    assert [pins.pin(p).state for p in (5, 6, 13)] == [False, False, True]
    assert [pins.pin(p).state for p in (17, 27, 22)] == [False, False, False]
    panel.close()


def test_a_button_press_is_an_uno_call_from_that_seat_once(table: Table, pins: MockFactory) -> None:
    now = [100.0]
    posted: list[Event] = []
    panel = TablePanel(PARTS, posted.append, pin_factory=pins, sleep=lambda _: None, clock=lambda: now[0])
    button = pins.pin(23)
    button.drive_low()
    button.drive_high()
    now[0] += REPRESS / 2
    button.drive_low()
    button.drive_high()
    now[0] += REPRESS
    button.drive_low()
    panel.close()
    assert posted == [Uno(seat=1), Uno(seat=1)]
    assert {event.source for event in posted} == {"button"}


def test_the_panel_never_holds_up_the_game(table: Table, pins: MockFactory) -> None:
    release = threading.Event()
    panel = TablePanel(PARTS, table.post, pin_factory=pins, sleep=lambda _: release.wait())
    table.subscribe(panel.show)
    for seat in (0, 2, 1, 0):
        table.submit(Play(card=Card.from_name("blue-1"), seat=seat))
    assert len(table.snapshot.record) == len(OPENING) + 4
    release.set()
    panel.close()


def test_parts_that_are_not_fitted_are_left_alone(table: Table, pins: MockFactory) -> None:
    panel = panel_on(table, pins, Panel(buzzer=None, chirp=True))
    table.submit(Play(card=Card.from_name("blue-3"), seat=0, source="camera"))
    panel.close()
    assert panel.buzzer is None and panel.seat_leds == [] and panel.color_led is None and panel.buttons == []
    assert not pins.pins
