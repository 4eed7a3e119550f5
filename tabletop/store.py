"""The durable game log: SQLite in the state directory, every event committed before the referee sees it.

WAL with full synchronous commits means that once ``append`` returns, the event survives a power cut. Every
game the table has held is kept (a new game or an import starts a new one, it never overwrites), so the
service resumes the latest and the host can still export the earlier ones. A log that cannot be read is
moved aside with its name saying why, and a fresh one is started: it is never written over.
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

from tabletop.errors import TabletopError
from tabletop.events import Event, event_from_json
from tabletop.record import check_record

FILE_NAME = "game.sqlite3"
SCHEMA = """
CREATE TABLE IF NOT EXISTS games (id INTEGER PRIMARY KEY, started REAL NOT NULL);
CREATE TABLE IF NOT EXISTS events (game INTEGER NOT NULL REFERENCES games(id), line INTEGER NOT NULL,
                                   event TEXT NOT NULL, at REAL NOT NULL, PRIMARY KEY (game, line));
"""


class StoreError(TabletopError):
    """The game log cannot be opened or written."""


class GameStore:
    """The game log in ``directory``; ``report`` hears about a damaged log that was moved aside."""

    def __init__(self, directory: Path, report: Callable[[str], None] = print,
                 clock: Callable[[], float] = time.time) -> None:
        directory.mkdir(parents=True, exist_ok=True)
        self.path = directory / FILE_NAME
        self._clock = clock
        try:
            self._db, (self._game, self._lines, self._events) = self._load()
        except (sqlite3.DatabaseError, ValueError) as err:
            aside = self._set_aside()
            report(f"the game log {self.path} could not be read ({err}); it was kept as {aside} and a new log "
                   f"was started")
            self._db, (self._game, self._lines, self._events) = self._load()

    @property
    def events(self) -> list[Event]:
        """The latest game's record, as it was when the log was opened: what the table resumes."""
        return list(self._events)

    def append(self, event: Event) -> None:
        """Add ``event`` to the current game; it is on disk when this returns."""
        if self._game is None:
            raise StoreError("the game log holds no game yet: a record must start with a 'game' event")
        with self._writing():
            self._db.execute("INSERT INTO events VALUES (?, ?, ?, ?)",
                             (self._game, self._lines, json.dumps(event.to_json()), self._clock()))
        self._lines += 1

    def restart(self, events: Sequence[Event]) -> None:
        """Begin a new game holding ``events``; the earlier games stay in the log."""
        with self._writing():
            cursor = self._db.execute("INSERT INTO games (started) VALUES (?)", (self._clock(),))
            game = cursor.lastrowid
            rows = [(game, line, json.dumps(e.to_json()), self._clock()) for line, e in enumerate(events)]
            self._db.executemany("INSERT INTO events VALUES (?, ?, ?, ?)", rows)
        self._game, self._lines = game, len(events)

    def games(self) -> list[tuple[int, float, int]]:
        """Every game kept: its number, when it began (seconds since the epoch) and how many events it holds."""
        rows = self._db.execute("SELECT g.id, g.started, COUNT(e.line) FROM games g LEFT JOIN events e "
                                "ON e.game = g.id GROUP BY g.id ORDER BY g.id")
        return [(int(game), float(started), int(count)) for game, started, count in rows]

    def record(self, game: int) -> list[Event]:
        """The events of game ``game``, in order."""
        return _record(self._db, game)

    def close(self) -> None:
        self._db.close()

    def _open(self) -> sqlite3.Connection:
        db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=FULL")
        check = db.execute("PRAGMA quick_check").fetchone()[0]
        if check != "ok":
            db.close()
            raise sqlite3.DatabaseError(f"integrity check: {check}")
        db.executescript(SCHEMA)
        return db

    def _load(self) -> tuple[sqlite3.Connection, tuple[int | None, int, list[Event]]]:
        db = self._open()
        try:
            game = db.execute("SELECT MAX(id) FROM games").fetchone()[0]
            events = [] if game is None else _record(db, game)
        except (sqlite3.DatabaseError, ValueError):
            db.close()
            raise
        return db, (game, len(events), events)

    @contextmanager
    def _writing(self) -> Iterator[None]:
        """One committed write; a failure rolls back and becomes a StoreError saying what went wrong."""
        self._db.execute("BEGIN IMMEDIATE")
        try:
            yield
        except sqlite3.Error as err:
            self._db.execute("ROLLBACK")
            raise StoreError(f"the game log could not be written: {err}") from err
        self._db.execute("COMMIT")

    def _set_aside(self) -> Path:
        stamp = time.strftime("%Y%m%d-%H%M%S")
        aside = self.path.with_name(f"{self.path.name}.unreadable-{stamp}")
        for suffix in ("", "-wal", "-shm"):
            part = Path(str(self.path) + suffix)
            if part.exists():
                part.rename(Path(str(aside) + suffix))
        return aside



def _record(db: sqlite3.Connection, game: int) -> list[Event]:
    """The game's events, checked as a record is: a row the referee would refuse is damage like any other."""
    rows = db.execute("SELECT event FROM events WHERE game = ? ORDER BY line", (game,))
    try:
        events = [event_from_json(json.loads(text)) for (text,) in rows]
    except RecursionError:
        raise ValueError("an event nested too deeply") from None
    check_record(list(enumerate(events)))
    return events
