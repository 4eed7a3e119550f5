"""The panel at the table, through gpiozero: the buzzer, the turn LEDs, the colour LED and the UNO buttons.

It follows the table's snapshots without ever holding up the game's thread: LEDs are set at once (a pin
write), and buzzer patterns are queued for the panel's own thread to play. A button only posts an event.
Tests pass gpiozero's ``MockFactory`` as ``pin_factory``; on a Pi the default factory is used.
"""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Callable
from typing import Any

from gpiozero import LED, RGBLED, Button, Buzzer

from tabletop.config import Panel as PanelConfig
from tabletop.game.events import Event, Flip, GameEnd, Penalty, PenaltyReason, Play, RoundEnd, Uno
from tabletop.table import Snapshot

Pattern = tuple[float, ...]
"""Seconds on, off, on, off, … for the buzzer."""

PATTERNS: dict[str, Pattern] = {
    PenaltyReason.MISSED_UNO: (0.12, 0.08, 0.12, 0.08, 0.12),
    PenaltyReason.FALSE_UNO: (0.12, 0.08, 0.12),
    PenaltyReason.ILLEGAL_WILD_DRAW_FOUR: (0.7, 0.15, 0.7),
    PenaltyReason.ILLEGAL_PLAY: (0.05, 0.05, 0.05, 0.05, 0.05, 0.05, 0.05, 0.05, 0.05),
    PenaltyReason.OUT_OF_TURN: (0.05, 0.05, 0.05, 0.05, 0.05, 0.05, 0.05, 0.05, 0.05),
    PenaltyReason.CHALLENGE_LOST: (0.5, 0.1, 0.12),
    RoundEnd.TYPE: (0.1, 0.1, 0.1, 0.1, 0.6),
    GameEnd.TYPE: (0.2, 0.1, 0.2, 0.1, 0.2, 0.1, 1.0),
    "chirp": (0.03,),
}
"""Each verdict's sound, by penalty reason or verdict type: three short for a missed UNO, two long for an
illegal Wild Draw Four, a rattle for a card that should not have been played, long-short for a failed challenge,
a fanfare for the end of a round or game, and a click for a card read."""
assert set(PenaltyReason) <= set(PATTERNS)

COLOURS: dict[str | None, tuple[int, int, int]] = {
    "red": (1, 0, 0), "yellow": (1, 1, 0), "green": (0, 1, 0), "blue": (0, 0, 1), None: (0, 0, 0)}
BOUNCE = 0.02
"""Seconds of contact bounce a button's press is allowed (gpiozero filters it on the Pi)."""
REPRESS = 0.5
"""A second press of the same button within this many seconds is a jittery thumb, not a second call."""


def sounds_for(snapshot: Snapshot, chirp: bool) -> list[Pattern]:
    """The patterns a new snapshot calls for: its verdicts, or a chirp for a card read by the camera."""
    patterns = [PATTERNS[verdict.reason] for verdict in snapshot.latest if isinstance(verdict, Penalty)]
    patterns += [PATTERNS[RoundEnd.TYPE] for verdict in snapshot.latest if isinstance(verdict, RoundEnd)]
    patterns += [PATTERNS[GameEnd.TYPE] for verdict in snapshot.latest if isinstance(verdict, GameEnd)]
    if chirp and not patterns and any(_read_by_camera(event) for event in snapshot.events):
        patterns.append(PATTERNS["chirp"])
    return patterns


def _read_by_camera(event: Event) -> bool:
    return isinstance(event, Play | Flip) and event.source == "camera"


class TablePanel:
    """The parts ``config`` says are fitted; ``post`` takes the events the buttons make."""

    def __init__(self, config: PanelConfig, post: Callable[[Event], object], pin_factory: Any = None,
                 sleep: Callable[[float], None] = time.sleep, clock: Callable[[], float] = time.monotonic) -> None:
        self.config, self._post, self._sleep, self._clock = config, post, sleep, clock
        self.buzzer = Buzzer(config.buzzer, pin_factory=pin_factory) if config.buzzer is not None else None
        self.seat_leds = [LED(pin, pin_factory=pin_factory) for pin in config.seat_leds]
        self.color_led = RGBLED(*config.color_led, pwm=False, pin_factory=pin_factory) if config.color_led else None
        self.buttons = [Button(pin, bounce_time=BOUNCE, pin_factory=pin_factory) for pin in config.uno_buttons]
        self._pressed: dict[int, float] = {}
        for seat, button in enumerate(self.buttons):
            button.when_pressed = lambda seat=seat: self._press(seat)
        self._closed = False
        self._sounds: queue.SimpleQueue[Pattern | None] = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._play, name="panel", daemon=True)
        self._thread.start()

    def show(self, snapshot: Snapshot) -> None:
        """Follow a new snapshot (a table listener): light the LEDs and queue its sounds."""
        if self._closed:
            return
        for pattern in sounds_for(snapshot, self.config.chirp):
            self._sounds.put(pattern)
        state = snapshot.state
        turn = state.turn if state is not None else None
        for seat, led in enumerate(self.seat_leds):
            led.value = seat == turn
        if self.color_led is not None:
            self.color_led.value = COLOURS[state.color if state is not None else None]

    def close(self) -> None:
        """Play what is queued, then let go of every pin."""
        self._closed = True
        self._sounds.put(None)
        self._thread.join()
        devices: list[Any] = [self.buzzer, self.color_led, *self.seat_leds, *self.buttons]
        for device in devices:
            if device is not None:
                device.close()

    def _press(self, seat: int) -> None:
        now = self._clock()
        if now - self._pressed.get(seat, -REPRESS) >= REPRESS:
            self._pressed[seat] = now
            self._post(Uno(seat=seat, source="button"))

    def _play(self) -> None:
        while (pattern := self._sounds.get()) is not None:
            if self.buzzer is None:
                continue
            for k, seconds in enumerate(pattern):
                self.buzzer.value = k % 2 == 0
                self._sleep(seconds)
            self.buzzer.off()
            self._sleep(0.3)
