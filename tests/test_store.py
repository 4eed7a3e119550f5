"""The game log: every acknowledged event survives a kill, a restart resumes the game, a damaged log is kept."""

from __future__ import annotations

import dataclasses
import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Sequence
from pathlib import Path

import pytest

from tabletop.errors import RecordCode, RecordError, TableError
from tabletop.game.cards import Card
from tabletop.game.events import Event, Evidence, Game, Play, State, Verdict, event_from_json
from tabletop.game.referee import replay
from tabletop.lab.simulate import simulate_game
from tabletop.store import FILE_NAME, KEPT_ASIDE, GameStore
from tabletop.table import MemoryLog, Snapshot, Table

# A table process as the service runs one: it resumes from the log, then acknowledges each event it is sent
# once the table has applied it.
SERVICE = """
import json, sys
from pathlib import Path
from dataclasses import replace
from tabletop.game.events import Evidence, Play, event_from_json
from tabletop.store import GameStore
from tabletop.table import MemoryLog, Snapshot, Table
from tabletop.errors import TableError
store = GameStore(Path(sys.argv[1]))
with Table(log=store, events=store.events) as table:
    print("ready", len(table.snapshot.record), flush=True)
    for line in sys.stdin:
        event = event_from_json(json.loads(line))
        if isinstance(event, Play):  # a card the camera read comes with its picture, written in the same commit
            event = replace(event, evidence=Evidence(PICTURE, 0.9, ((event.card, 0.9),)))
        applied = table.submit(event)
        print("ack", applied.snapshot.version, flush=True)
"""
PICTURE = bytes(range(256)) * 16


KILLS = 10


def service(directory: Path) -> tuple[subprocess.Popen[str], int]:
    process = subprocess.Popen([sys.executable, "-c", f"PICTURE = {PICTURE!r}\n{SERVICE}", str(directory)],
                               stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, text=True)
    assert process.stdout is not None
    ready = process.stdout.readline().split()
    assert ready[0] == "ready"
    return process, int(ready[1])


def test_a_process_killed_at_random_points_loses_no_acknowledged_event(tmp_path: Path) -> None:
    events = simulate_game(11, rules={"preset": "official", "hand_size": 4}, players=3).events[:300]
    rng = random.Random(5)
    acknowledged = kills = 0
    while acknowledged < len(events):
        process, resumed = service(tmp_path)
        # The log holds every event acknowledged before the kill, and at most the one that was on its way.
        assert resumed - acknowledged in (0, 1), (resumed, acknowledged)
        acknowledged = resumed
        batch = events[acknowledged:acknowledged + rng.randint(1, 25)]
        kill = kills < KILLS and acknowledged + len(batch) < len(events)
        assert process.stdin is not None and process.stdout is not None
        for k, event in enumerate(batch):
            process.stdin.write(json.dumps(event.to_json()) + "\n")
            process.stdin.flush()
            if kill and k == len(batch) - 1:
                time.sleep(rng.uniform(0, 0.004))
                os.kill(process.pid, signal.SIGKILL)
                kills += 1
            else:
                assert process.stdout.readline().startswith("ack")
                acknowledged += 1
        process.stdin.close()
        process.wait(timeout=10)
        process.stdout.close()
    assert kills == KILLS
    store = GameStore(tmp_path)
    assert store.events == events
    assert replay(list(enumerate(store.events))) == replay(list(enumerate(events)))
    assert all(event.evidence is not None and event.evidence.jpeg == PICTURE
               for event in store.events if isinstance(event, Play))
    store.close()


def test_a_card_read_keeps_its_picture_beside_its_line_and_the_record_stays_text(tmp_path: Path) -> None:
    events = simulate_game(12, players=3).events[:40]
    first = next(ref for ref, event in enumerate(events) if isinstance(event, Play))
    seen = Evidence(b"\xff\xd8 a picture \xff\xd9", 0.62, ((events[first].card, 0.62), (Card.from_name("red-6"), 0.3)))
    events[first] = dataclasses.replace(events[first], evidence=seen)
    store = GameStore(tmp_path)
    played(store, events)
    usage = store.usage()
    store.close()
    assert (usage.lines, usage.pictures, usage.picture_bytes) == (40, 1, len(seen.jpeg))
    reopened = GameStore(tmp_path)
    assert reopened.events[first].evidence == seen
    assert [event.evidence for event in reopened.events].count(None) == 39
    assert "picture" not in json.dumps(reopened.events[first].to_json())
    reopened.close()


def played(store: GameStore, events: list[Event]) -> Snapshot:
    """The table's last snapshot after ``events`` were posted one by one to a table logging to ``store``."""
    with Table(log=store) as table:
        for event in events:
            table.submit(event)
        return table.snapshot


def test_a_restarted_table_resumes_the_game_where_it_was(tmp_path: Path) -> None:
    events = simulate_game(12, players=3).events[:40]
    store = GameStore(tmp_path)
    state = played(store, events).state
    store.close()
    reopened = GameStore(tmp_path)
    with Table(log=reopened, events=reopened.events) as table:
        assert table.snapshot.state == state
        assert table.snapshot.record == tuple(events)


def test_a_new_game_keeps_the_old_one_in_the_log(tmp_path: Path) -> None:
    first = simulate_game(13, players=2).events[:10]
    store = GameStore(tmp_path)
    played(store, [*first, Game(players=("Ann", "Bo", "Cy"))])
    assert [count for _, _, count in store.games()] == [10, 1]
    assert store.record(store.games()[0][0]) == first
    assert GameStore(tmp_path).events == [Game(players=("Ann", "Bo", "Cy"))]


def test_a_damaged_log_is_reported_kept_aside_and_never_overwritten(tmp_path: Path) -> None:
    (tmp_path / FILE_NAME).write_bytes(b"this is not a database, it is a shopping list" * 100)
    heard: list[str] = []
    store = GameStore(tmp_path, report=heard.append)
    kept = [path for path in tmp_path.iterdir() if ".unreadable-" in path.name]
    assert len(kept) == 1 and kept[0].read_bytes().startswith(b"this is not a database")
    assert "could not be read" in heard[0] and kept[0].name in heard[0]
    assert store.events == []
    store.restart([Game(players=("Ann", "Bo"))])
    assert GameStore(tmp_path).events == [Game(players=("Ann", "Bo"))]


@pytest.mark.parametrize(("row", "words"), [
    ('{"type": "teleport"}', "unknown event type 'teleport'"),
    ('{"type": "deal", "dealer": 9}', "seat 9"),
    ('{"type": ["play"]}', "unknown event type ['play']"),
    ('{"type": "retract", "ref": 70}', "later line"),
    ('{"type": "uno", "seat": 0, "t": 1e999}', "'t'"),
    ("[" * 5000 + "]" * 5000, "nested too deeply"),
    ("not json", "not valid JSON"),
    (b"\xff\xfe", "a bytes where an event's text belongs"),
])
def test_a_log_with_a_line_it_cannot_use_resumes_the_game_before_it(tmp_path: Path, row: object, words: str
                                                                     ) -> None:
    events = simulate_game(16, players=3).events[:30]
    store = GameStore(tmp_path)
    store.restart(events[:20])
    store.close()
    with sqlite3.connect(tmp_path / FILE_NAME) as db:
        db.execute("INSERT INTO events VALUES (1, 20, ?, 0)", (row,))
        db.executemany("INSERT INTO events VALUES (1, ?, ?, 0)",
                       [(21 + k, json.dumps(event.to_json())) for k, event in enumerate(events[20:])])
    heard: list[str] = []
    resumed = GameStore(tmp_path, report=heard.append)
    assert resumed.events == events[:20]
    assert words in heard[0] and "line 21" in heard[0] and "from the 20 lines before it" in heard[0]
    kept = [path for path in tmp_path.iterdir() if path.name.startswith(FILE_NAME + KEPT_ASIDE)
            and not path.name.endswith(("-wal", "-shm"))]
    assert len(kept) == 1 and kept[0].name in heard[0]
    with Table(log=resumed, events=resumed.events) as table:
        table.submit(events[20])
    resumed.close()
    again: list[str] = []
    assert GameStore(tmp_path, report=again.append).events == events[:21] and again == []


def test_the_log_holds_events_as_game_record_lines(tmp_path: Path) -> None:
    store = GameStore(tmp_path)
    events: list[Event] = [Game(players=("Ann", "Bo")), event_from_json({"type": "deal", "dealer": 1}),
                           event_from_json({"type": "flip", "card": "red-5"})]
    store.restart(events[:1])
    for event in events[1:]:
        store.append(event)
    store.append(Play(card=events[2].card, seat=0, source="camera"))  # type: ignore[attr-defined]
    with sqlite3.connect(tmp_path / FILE_NAME) as db:
        lines = [json.loads(text) for (text,) in db.execute("SELECT event FROM events ORDER BY line")]
    assert lines[-1] == {"type": "play", "card": "red-5", "seat": 0, "source": "camera"}


class SlowLog(MemoryLog):
    """A log whose writes wait for the test to let them through, as an SD card sometimes makes them."""

    def __init__(self) -> None:
        super().__init__()
        self.writing = threading.Event()
        self.go_on = threading.Event()

    def append(self, event: Event) -> None:
        self.writing.set()
        self.go_on.wait(10)
        super().append(event)


def test_a_poster_told_an_event_was_not_recorded_is_told_the_truth() -> None:
    """A slow write makes the poster behind it give up; that event must then never be recorded later."""
    log, events = SlowLog(), simulate_game(14, players=2).events[:3]
    with Table(log=log, events=events[:1]) as table:
        first = table.post(events[1])
        assert log.writing.wait(5)
        with pytest.raises(TableError, match="called off"):
            table.submit(events[2], timeout=0.05)
        log.go_on.set()
        assert first.result(5).ref == 1
    assert log.events == [events[1]]


def test_a_slow_write_already_begun_is_awaited_not_called_off() -> None:
    log, events = SlowLog(), simulate_game(14, players=2).events[:2]
    with Table(log=log, events=events[:1]) as table:
        threading.Timer(0.2, log.go_on.set).start()
        applied = table.submit(events[1], timeout=0.01)
    assert applied.ref == 1 and log.events == [events[1]]


class OneCardEach:
    """A second game's referee, as small as one can be: each seat lays one card, in turn, and nothing else."""

    def __init__(self, events: Sequence[Event]) -> None:
        self.events: list[Event] = list(events)
        self.verdicts: tuple[Verdict, ...] = ()
        self.state = State(round=1, turn=None, direction="clockwise", top=None, color=None, hands=(1, 1), owed=(0, 0),
                           totals=(0, 0), over=False)

    @property
    def record(self) -> tuple[Event, ...]:
        return tuple(self.events)

    @property
    def next_ref(self) -> int:
        return len(self.events)

    def check(self, event: Event) -> None:
        if not isinstance(event, Play) or event.seat != len(self.events) - 1:
            raise RecordError("each seat lays one card, in turn", code=RecordCode.MALFORMED)

    def push(self, event: Event) -> list[Verdict]:
        self.check(event)
        self.events.append(event)
        return []


def test_the_table_and_its_log_serve_another_games_referee_unchanged(tmp_path: Path) -> None:
    """The table depends on a referee's few words (check, push, record, verdicts, state): the log, the snapshots and
    the refusals work the same for a game that is not UNO."""
    store = GameStore(tmp_path)
    seen: list[Snapshot] = []
    with Table(log=store, judge=OneCardEach) as table:
        table.subscribe(seen.append)
        table.restart([Game(players=("Ann", "Bo"))])
        table.submit(Play(card=Card.from_name("red-5"), seat=0))
        with pytest.raises(RecordError, match="one card, in turn"):
            table.submit(Play(card=Card.from_name("red-6"), seat=0))
        table.submit(Play(card=Card.from_name("blue-2"), seat=1))
    with sqlite3.connect(tmp_path / FILE_NAME) as db:
        logged = [json.loads(row[0])["type"] for row in db.execute("SELECT event FROM events ORDER BY line")]
    db.close()
    assert logged == ["game", "play", "play"]
    assert [len(snapshot.record) for snapshot in seen] == [1, 2, 3]
    assert seen[-1].events == (table.snapshot.record[-1],)
