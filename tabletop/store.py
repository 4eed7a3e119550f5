"""The durable game log: SQLite in the state directory, every event committed before the referee sees it.

WAL with full synchronous commits means that once ``append`` returns, the event survives a power cut. Every
game the table has held is kept (a new game or an import starts a new one, it never overwrites), so the
service resumes the latest and the host can still export the earlier ones. A log that cannot be read is
moved aside with its name saying why, and a fresh one is started: it is never written over. A log whose latest
game has a line that cannot be used (one the referee would refuse, or not an event at all) is moved aside the
same way, and the fresh log holds the earlier games as they were and resumes that game from the lines before
it.

Beside each line the camera read a card for, the log keeps what it saw (``Evidence``: a picture of a few kB),
written in the same commit as the line.
"""

from __future__ import annotations

import dataclasses
import json
import sqlite3
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from tabletop.errors import RecordCode, RecordError, StoreError
from tabletop.game.cards import Card
from tabletop.game.events import Event, Evidence
from tabletop.game.record import check_record, parse_line
from tabletop.reporting import Report

FILE_NAME = "game.sqlite3"
KEPT_ASIDE = ".unreadable-"
"""In the name of a log moved aside (``game.sqlite3.unreadable-<when>``), for the doctor to find."""
SCHEMA = """
CREATE TABLE IF NOT EXISTS games (id INTEGER PRIMARY KEY, started REAL NOT NULL);
CREATE TABLE IF NOT EXISTS events (game INTEGER NOT NULL REFERENCES games(id), line INTEGER NOT NULL,
                                   event TEXT NOT NULL, at REAL NOT NULL, PRIMARY KEY (game, line));
CREATE TABLE IF NOT EXISTS pictures (game INTEGER NOT NULL, line INTEGER NOT NULL, jpeg BLOB NOT NULL,
                                     seen TEXT NOT NULL, PRIMARY KEY (game, line));
"""


@dataclass(frozen=True, slots=True)
class Usage:
    """A game's share of the log: its lines and their bytes, and the pictures kept beside them."""

    lines: int
    line_bytes: int
    pictures: int
    picture_bytes: int

    def __str__(self) -> str:
        per_line = (self.line_bytes + self.picture_bytes) / max(self.lines, 1)
        return (f"{self.lines} lines ({self.line_bytes / 1000:.1f} kB) and {self.pictures} pictures of the cards "
                f"read ({self.picture_bytes / 1000:.1f} kB): {per_line:,.0f} bytes a line in all")


class GameStore:
    """The game log in ``directory``; ``report`` hears about a damaged log that was moved aside."""

    def __init__(self, directory: Path, report: Report = print,
                 clock: Callable[[], float] = time.time) -> None:
        directory.mkdir(parents=True, exist_ok=True)
        self.path = directory / FILE_NAME
        self._clock = clock
        try:
            self._db, (self._game, self._lines, self._events), damage = self._load()
        except sqlite3.DatabaseError as err:
            aside = self._set_aside()
            report(f"the game log {self.path} could not be read ({err}); it was kept as {aside} and a new log "
                   f"was started")
            self._db, (self._game, self._lines, self._events), _ = self._load()
        else:
            if damage is not None:
                self._resume_before(damage, report)

    def _resume_before(self, damage: RecordError, report: Report) -> None:
        """Keep the damaged log aside and start a new one holding the earlier games as they were (the evenings'
        history stays whole) and the latest game up to its damage."""
        usable, latest = self._events, self._game
        self._db.close()
        aside = self._set_aside()
        self._db, (self._game, self._lines, self._events), _ = self._load()
        earlier = self._carry_over(aside, before=latest)
        if usable:
            self.restart(usable)
            self._events = usable
        report(f"the game log {self.path} has a line it cannot use in its latest game ({damage}); it was kept as "
               f"{aside}, and a new log resumes the game from the {len(usable)} lines before it{earlier}")

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
            self._keep_evidence(self._game, [(self._lines, event)])
        self._lines += 1

    def restart(self, events: Sequence[Event]) -> None:
        """Begin a new game holding ``events``; the earlier games stay in the log."""
        with self._writing():
            cursor = self._db.execute("INSERT INTO games (started) VALUES (?)", (self._clock(),))
            game = cursor.lastrowid
            rows = [(game, line, json.dumps(e.to_json()), self._clock()) for line, e in enumerate(events)]
            self._db.executemany("INSERT INTO events VALUES (?, ?, ?, ?)", rows)
            assert game is not None
            self._keep_evidence(game, list(enumerate(events)))
        self._game, self._lines = game, len(events)

    def _keep_evidence(self, game: int, lines: Sequence[tuple[int, Event]]) -> None:
        rows = [(game, line, event.evidence.jpeg, json.dumps(event.evidence.to_json()))
                for line, event in lines if event.evidence is not None]
        self._db.executemany("INSERT OR REPLACE INTO pictures VALUES (?, ?, ?, ?)", rows)

    def usage(self) -> Usage:
        """What the log holds for the current game: what a game costs the SD card."""
        counts = [self._db.execute(f"SELECT COUNT(*), COALESCE(SUM(LENGTH({column})), 0) FROM {table} "
                                   "WHERE game = ?", (self._game,)).fetchone()
                  for column, table in (("event", "events"), ("jpeg", "pictures"))]
        (lines, text), (pictures, jpeg) = counts
        return Usage(int(lines), int(text), int(pictures), int(jpeg))

    def games(self) -> list[tuple[int, float, int]]:
        """Every game kept: its number, when it began (seconds since the epoch) and how many events it holds."""
        rows = self._db.execute("SELECT g.id, g.started, COUNT(e.line) FROM games g LEFT JOIN events e "
                                "ON e.game = g.id GROUP BY g.id ORDER BY g.id")
        return [(int(game), float(started), int(count)) for game, started, count in rows]

    def record(self, game: int) -> list[Event]:
        """The events of game ``game``, in order, up to any line that cannot be used."""
        return usable_record(self._db, game)[0]

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

    def _load(self) -> tuple[sqlite3.Connection, tuple[int | None, int, list[Event]], RecordError | None]:
        db = self._open()
        try:
            game = db.execute("SELECT MAX(id) FROM games").fetchone()[0]
            events, damage = ([], None) if game is None else usable_record(db, game)
        except sqlite3.DatabaseError:
            db.close()
            raise
        return db, (game, len(events), events), damage

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

    def _carry_over(self, aside: Path, before: int | None) -> str:
        """Copy the games before game ``before`` from the log kept ``aside`` into this one, pictures and all;
        what became of them, in words for the report."""
        if before is None:
            return ""
        self._db.execute("ATTACH DATABASE ? AS aside", (str(aside),))
        try:
            with self._writing():
                for table, column in (("games", "id"), ("events", "game"), ("pictures", "game")):
                    self._db.execute(f"INSERT INTO {table} SELECT * FROM aside.{table} WHERE {column} < ?", (before,))
        except StoreError as err:
            return f" (the earlier games stay in the log kept aside: {err})"
        finally:
            self._db.execute("DETACH DATABASE aside")
        return ", beside the earlier games"

    def _set_aside(self) -> Path:
        stamp = time.strftime("%Y%m%d-%H%M%S")
        aside = self.path.with_name(f"{self.path.name}{KEPT_ASIDE}{stamp}")
        while aside.exists():  # two in one second: the later gets a longer name, the earlier stays as it is
            aside = aside.with_name(aside.name + "-again")
        for suffix in ("", "-wal", "-shm"):
            part = Path(str(self.path) + suffix)
            if part.exists():
                part.rename(Path(str(aside) + suffix))
        return aside


def usable_record(db: sqlite3.Connection, game: int) -> tuple[list[Event], RecordError | None]:
    """The game's events up to the first line that cannot be used, and what is wrong with that line (None when
    all are sound). A row the referee would refuse is damage like an unreadable one: a record must replay."""
    events: list[Event] = []
    damage = None
    seen = _evidence(db, game)
    for line, (text,) in enumerate(db.execute("SELECT event FROM events WHERE game = ? ORDER BY line", (game,)), 1):
        try:
            if not isinstance(text, str):
                raise RecordError(f"a {type(text).__name__} where an event's text belongs", line,
                                  code=RecordCode.MALFORMED)
            event = parse_line(text, line)
        except RecordError as err:
            damage = err
            break
        evidence = seen.get(line - 1)
        events.append(event if evidence is None else dataclasses.replace(event, evidence=evidence))
    try:
        check_record(list(enumerate(events)))
    except RecordError as err:
        return events[:(err.line or 1) - 1], err
    return events, damage


def _evidence(db: sqlite3.Connection, game: int) -> dict[int, Evidence]:
    """What the camera saw, by line. A picture row that cannot be read is left out: the line stands without it."""
    kept: dict[int, Evidence] = {}
    for line, jpeg, seen in db.execute("SELECT line, jpeg, seen FROM pictures WHERE game = ?", (game,)):
        try:
            about = json.loads(seen)
            guesses = tuple((Card.from_name(name), float(p)) for name, p in about["guesses"])
            kept[int(line)] = Evidence(bytes(jpeg), float(about["confidence"]), guesses)
        except (ValueError, TypeError, KeyError):
            continue
    return kept
