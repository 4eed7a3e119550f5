"""``tabletop demo``: the whole system on the table simulator, in real time, with the scoreboard served.

The simulator films a game; the camera's thread watches that film exactly as it would watch a real table; the
simulated players' phones post what phones post (UNO calls, colours, challenges) when the film reaches them.
"""

from __future__ import annotations

import dataclasses
import itertools
import json
import tempfile
import time
from collections.abc import Iterator
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path

from tabletop.camera_inbox import CameraInbox
from tabletop.config import HOST, KNOWN_PIN, PORT
from tabletop.game.board import penalty_words
from tabletop.game.events import Penalty, Score
from tabletop.history import History
from tabletop.lab.tablesim.table import TableFilm, simulated_table
from tabletop.languages import ENGLISH
from tabletop.reporting import Report
from tabletop.service import serving
from tabletop.sources import Frame
from tabletop.store import GameStore
from tabletop.table import Snapshot, Table
from tabletop.vision.model import CardModel
from tabletop.voice import Voice
from tabletop.watcher.camera import CameraWatch
from tabletop.watcher.layout import Layout


@dataclass
class FilmedGame:
    """A simulated game played back in real time as a frame source, its phones posting to ``table`` on cue."""

    simulated: TableFilm
    table: Table
    speed: float = 1.0
    name: str = "sim"
    live: bool = False

    def frames(self) -> Iterator[Frame]:
        phones = iter(sorted((t for t in self.simulated.script.record if not t.camera), key=lambda t: t.t))
        due = next(phones, None)
        started = time.monotonic()
        for frame in self.simulated.video.frames():
            while due is not None and due.t <= frame.t:
                self.table.post(dataclasses.replace(due.event, source=due.event.source or "phone"))
                due = next(phones, None)
            time.sleep(max(0.0, started + frame.t / self.speed - time.monotonic()))
            yield frame

    def close(self) -> None:
        """Nothing to let go of: the film is made as it is played."""


def announce(snapshot: Snapshot, report: Report) -> None:
    """The mock panel: the buzzer's calls and the scores, in the terminal."""
    for verdict in snapshot.latest:
        if isinstance(verdict, Penalty):
            report(f"BZZT  {penalty_words(verdict, snapshot.players)}")
        elif isinstance(verdict, Score):
            report(f"round {verdict.round}: {snapshot.players[verdict.winner]} went out and scores {verdict.points}")


@dataclass(frozen=True)
class DemoSettings:
    """What ``tabletop demo`` plays and where it serves; ``state`` None keeps the game log in a temporary folder,
    removed at the end."""

    seed: int = 1
    rounds: int | None = None
    players: int = 4
    host: str = HOST
    port: int = PORT
    pin: str = KNOWN_PIN
    speed: float = 1.0
    state: Path | None = None
    linger: float = 2.0
    """Seconds the scoreboard stays up after the last round, so that every phone gets the final board."""
    language: str = ENGLISH
    """The table's language: for a phone whose browser asks for none of ours, and for the spoken calls."""
    voice: bool = False
    """Speak the calls through espeak-ng, as the table unit does with ``[panel] voice``."""
    deck: int = 108
    """The simulated table's deck: 108 cards, or 112 with the special wilds."""


def summary(snapshot: Snapshot) -> str:
    """The end of a filmed game in one line: events, verdicts, and the final state as docs/record.md writes it."""
    state = json.dumps(snapshot.state.to_json() if snapshot.state else None)
    return f"summary: {len(snapshot.record)} events, {len(snapshot.verdicts)} verdicts; final state {state}"


class FilmedCamera:
    """The camera the scoreboard is given once: the film playing now, which changes with every new game."""

    def __init__(self, first: CameraWatch) -> None:
        self.now = first

    @property
    def size(self) -> tuple[int, int]:
        return self.now.size

    @property
    def layout(self) -> Layout:
        return self.now.layout

    @property
    def problem(self) -> str | None:
        return self.now.problem

    @property
    def frame(self) -> Frame | None:
        return self.now.frame

    def move_zones(self, layout: Layout) -> None:
        self.now.move_zones(layout)


def run_demo(settings: DemoSettings, report: Report = print) -> list[Snapshot]:
    """Serve the scoreboard and play simulated games until stopped, or ``rounds`` rounds; the final snapshots.

    Everything is the real thing but the table: the game log is SQLite, the camera thread watches the film.
    """
    seed, rounds, players, speed = settings.seed, settings.rounds, settings.players, settings.speed
    finished: list[Snapshot] = []
    model = CardModel()
    with ExitStack() as stack:
        if settings.state is None:
            state = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="tabletop-demo-")))
            report(f"game log: {state} (removed when the demo ends; --state DIR keeps it)")
        else:
            state = settings.state
            report(f"game log: {state}")
        store = GameStore(state, report=report)
        stack.callback(store.close)
        table = stack.enter_context(Table(log=store, report=report))
        table.subscribe(lambda snapshot: announce(snapshot, report))

        def filmed(game_seed: int) -> CameraWatch:
            simulated = simulated_table(game_seed, players=players, rounds=rounds, deck=settings.deck)
            return CameraWatch(FilmedGame(simulated, table, speed), CameraInbox(table, report).deliver, model,
                               simulated.layout, players, report=report)

        camera = FilmedCamera(filmed(seed))
        if settings.voice:
            voice = Voice(settings.language, report=report)
            stack.callback(voice.close)
            table.subscribe(voice.follow)
        history = History(state)
        stack.callback(history.close)
        stack.enter_context(serving(table, camera, settings.host, settings.port, settings.pin, report,
                                    language=settings.language, pin_told=f"PIN {settings.pin}", history=history))
        for game_seed in itertools.count(seed):
            if game_seed != seed:
                camera.now = filmed(game_seed)
            camera.now.start().wait()
            finished.append(table.snapshot)
            report(summary(table.snapshot))
            report(f"game log now: {store.usage()}")
            if rounds is not None:
                time.sleep(settings.linger)
                break
    return finished
