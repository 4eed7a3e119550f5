"""Every game the log keeps, told after the fact: the game nights list, a game's story, the statistics across
evenings and the exports (CSV, JSON Lines).

A reader beside the table, never in its way: it opens the log read-only on a connection of its own (SQLite's
WAL lets it read while the table's thread writes), and tells each game once in its life. A game's story is
kept until that game gains a line, in memory and in a small file beside the log (``history.json``), so that a
restarted table does not fold every game of every evening again before the history page answers; the
statistics are kept until any game changes. A phone asking for the history again costs a few small queries,
however many games the log holds.
"""

from __future__ import annotations

import contextlib
import csv
import io
import json
import os
import re
import sqlite3
import threading
import time
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tabletop.errors import HistoryError, StoreError
from tabletop.game.events import Event
from tabletop.game.record import write_record
from tabletop.game.story import Figures, Story, tell
from tabletop.saving import write_whole
from tabletop.store import FILE_NAME, usable_record

EVENING = re.compile(r"\d{4}-\d{2}-\d{2}")
"""An evening as the history names it: the local date its games began on."""
CACHE_NAME = "history.json"
"""Beside the log: every game's story as told, by game, start and line count (a cache: deleting it loses nothing)."""


@dataclass(frozen=True, slots=True)
class Kept:
    """One game of the log as it was told: its story (none if not even its first line can be read), and what
    was wrong with it."""

    game: int
    started: float
    lines: int
    story: Story | None
    damage: str | None

    @property
    def key(self) -> str:
        return _key(self.game, self.started, self.lines)

    def to_json(self) -> dict[str, Any]:
        return {"story": None if self.story is None else self.story.to_json(), "damage": self.damage}

    @property
    def evening(self) -> str:
        """The local date the game began on: the evening it belongs to."""
        return time.strftime("%Y-%m-%d", time.localtime(self.started))

    def summary(self) -> dict[str, Any]:
        """The game as the list shows it: when, who, who won, how many rounds, how long."""
        out: dict[str, Any] = {"game": self.game, "started": self.started, "evening": self.evening,
                               "lines": self.lines, "damaged": self.damage}
        if self.story is not None:
            story = self.story
            out.update(players=list(story.players), winner=story.winner, rounds=len(story.rounds),
                       totals=list(story.totals), seconds=round(story.seconds, 1))
        return out


class History:
    """The game log in ``directory``, read for the history pages and ``tabletop history``."""

    def __init__(self, directory: Path) -> None:
        self.path = directory / FILE_NAME
        self.cache = directory / CACHE_NAME
        self._lock = threading.Lock()
        self._db: sqlite3.Connection | None = None
        self._opened: tuple[int, int] | None = None
        self._kept: dict[str, Kept] = {}
        self._saved: set[str] = set()
        self._listed: tuple[int, list[tuple[int, float, int]]] | None = None
        """The games as last listed, with the log's data version then: unchanged, they need no listing again."""
        self._told_from: tuple[list[tuple[int, float, int]], list[Kept]] | None = None
        """The games as last told, and the listing they were told from."""
        self._figures: dict[tuple[str, ...], dict[str | None, dict[str, Any]]] = {}

    def games(self) -> list[Kept]:
        """Every game kept, newest first."""
        with self._lock:
            listed = self._listing()
            if self._told_from is not None and self._told_from[0] is listed:
                return list(self._told_from[1])
            if not self._kept:
                self._kept = self._read_cache()
                self._saved = set(self._kept)
            games = [self._told(game, started, lines) for game, started, lines in reversed(listed)]
            self._told_from, self._kept = (listed, games), {kept.key: kept for kept in games}
            if set(self._kept) != self._saved:
                self._write_cache()
            return list(games)

    def game(self, number: int) -> Kept:
        """Game ``number``; HistoryError if the log holds no such game."""
        for kept in self.games():
            if kept.game == number:
                return kept
        raise HistoryError(f"the game log holds no game {number}")

    def record(self, number: int) -> list[Event]:
        """Game ``number``'s lines, up to any damage, with what the camera saw beside them."""
        with self._lock, self._reading():
            return usable_record(self._holding(number), number)[0]

    def picture(self, number: int, ref: int) -> bytes:
        """What the camera saw at line ``ref`` of game ``number`` (a JPEG); HistoryError where it read no card."""
        with self._lock, self._reading():
            row = self._holding(number).execute("SELECT jpeg FROM pictures WHERE game = ? AND line = ?",
                                                (number, ref)).fetchall()
        if not row:
            raise HistoryError(f"line {ref} of game {number} holds no card the camera read")
        return bytes(row[0][0])

    def statistics(self, evening: str | None = None) -> dict[str, Any]:
        """How many games are counted (``games``) and each player's figures over them (``players``): every sound
        game kept, or those of one ``evening`` (YYYY-MM-DD).

        A player is the same person in every game their name is written alike (see ``person``).
        Games with a damaged line are left out: their figures stop where the damage is, wherever that falls.
        """
        games = self.games()
        key = tuple(kept.key for kept in games)
        with self._lock:
            if key not in self._figures:
                self._figures = {key: {}}
            cached = self._figures[key]
            if evening not in cached:
                stories = [kept.story for kept in reversed(games)
                           if kept.story is not None and kept.damage is None and evening in (None, kept.evening)]
                cached[evening] = {"games": len(stories), "players": figures_by_player(stories)}
            return cached[evening]

    def csv(self) -> str:
        """One row per scored round of every sound game, oldest first, with a column of the points each player
        made in it (empty where they did not play): summed, a game's rows give its totals."""
        games = [kept for kept in reversed(self.games()) if kept.story is not None and kept.damage is None]
        names = _names(kept.story.players for kept in games if kept.story is not None)
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(["game", "evening", "round", "went out", "points", *names])
        for kept in games:
            assert kept.story is not None
            writer.writerows(_rows(kept, kept.story, names))
        return out.getvalue()

    def records(self) -> Iterator[str]:
        """Every game's record as JSON Lines, oldest first; each game begins with its ``game`` line."""
        for kept in reversed(self.games()):
            if kept.damage is None:  # every line sound: as the log wrote it, which is as write_record writes it
                with self._lock, self._reading():
                    rows = self._holding(kept.game).execute("SELECT event FROM events WHERE game = ? ORDER BY line",
                                                            (kept.game,)).fetchall()
                yield from (str(text) for text, in rows)
            else:
                yield from write_record(self.record(kept.game))

    def close(self) -> None:
        with self._lock:
            if self._db is not None:
                self._db.close()
            self._db, self._opened = None, None

    def _listing(self) -> list[tuple[int, float, int]]:
        db = self._connection()
        if db is None:
            return []
        with self._reading():
            version = int(db.execute("PRAGMA data_version").fetchone()[0])
            if self._listed is not None and self._listed[0] == version:
                return self._listed[1]
            rows = db.execute("SELECT id, started, (SELECT COALESCE(MAX(line) + 1, 0) FROM events WHERE game = id) "
                              "FROM games ORDER BY id").fetchall()  # the last line of each, found in the index
        listed = [(int(game), float(started), int(lines)) for game, started, lines in rows]
        self._listed = (version, listed)
        return listed

    def _holding(self, number: int) -> sqlite3.Connection:
        """The log, which holds game ``number``; HistoryError if it does not."""
        db = self._connection()
        if db is None or not any(game == number for game, _, _ in self._listing()):
            raise HistoryError(f"the game log holds no game {number}")
        return db

    @contextlib.contextmanager
    def _reading(self) -> Iterator[None]:
        """A read of the log; one that fails becomes a StoreError saying so."""
        try:
            yield
        except sqlite3.DatabaseError as err:
            raise StoreError(f"the game log {self.path} cannot be read: {err}") from err

    def _connection(self) -> sqlite3.Connection | None:
        """The log, opened again when the table set it aside and began a new one (a new file, a new inode)."""
        try:
            stat = os.stat(self.path)
        except FileNotFoundError:
            return None
        if self._db is None or self._opened != (stat.st_dev, stat.st_ino):
            if self._db is not None:
                self._db.close()
            self._db = sqlite3.connect(f"{self.path.as_uri()}?mode=ro", uri=True, check_same_thread=False)
            self._opened, self._listed = (stat.st_dev, stat.st_ino), None
        return self._db

    def _told(self, game: int, started: float, lines: int) -> Kept:
        known = self._kept.get(_key(game, started, lines))
        if known is not None:
            return known
        assert self._db is not None
        with self._reading():
            events, damage = usable_record(self._db, game)
        story = tell(events) if events else None
        return Kept(game, started, lines, story, None if damage is None else str(damage))

    def _read_cache(self) -> dict[str, Kept]:
        """The stories told before, as far as they can be read: a cache that cannot be is told again."""
        try:
            kept = json.loads(self.cache.read_text(encoding="utf-8"))
            out = {}
            for key, told in kept.items():
                game, started, lines = key.split(":")
                story = None if told["story"] is None else Story.from_json(told["story"])
                out[key] = Kept(int(game), float(started), int(lines), story, told["damage"])
            return out
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            return {}

    def _write_cache(self) -> None:
        """Every story told, written whole and then moved into place, so a power cut leaves the old or the new."""
        with contextlib.suppress(OSError):  # a state folder the table cannot write: the stories are told again
            write_whole(self.cache, json.dumps({key: kept.to_json() for key, kept in self._kept.items()}))
            self._saved = set(self._kept)


def _key(game: int, started: float, lines: int) -> str:
    """Which version of which game this is: a new log numbers its games from 1 again, but not at the same time."""
    return f"{game}:{started!r}:{lines}"


def figures_by_player(stories: Sequence[Story]) -> list[dict[str, Any]]:
    """Every player's figures over ``stories``, most games won first; a name is one person across games."""
    people: dict[str, tuple[str, Figures]] = {}
    for story in stories:
        for name, figures in zip(story.players, story.figures, strict=True):
            _, total = people.setdefault(person(name), (name, Figures()))
            total.add(figures)
    ranked = sorted(people.values(), key=lambda pair: (-pair[1].games_won, -pair[1].rounds_won, pair[0]))
    return [{"name": name, **figures.to_json()} for name, figures in ranked]


def person(name: str) -> str:
    """Who a name stands for: the same person wherever it is written alike, letter case and spaces aside."""
    return " ".join(name.split()).casefold()


def _names(players: Iterable[Sequence[str]]) -> list[str]:
    """Every player's name once, in the order they first sat down; the same person under one spelling."""
    seen: dict[str, str] = {}
    for names in players:
        for name in names:
            seen.setdefault(person(name), name)
    return list(seen.values())


def _rows(kept: Kept, story: Story, names: list[str]) -> Iterator[list[object]]:
    column = {person(name): i for i, name in enumerate(names)}
    before = (0,) * len(story.players)
    for played in story.rounds:
        points: list[object] = [""] * len(names)
        for seat, name in enumerate(story.players):
            points[column[person(name)]] = played.totals[seat] - before[seat]
        yield [kept.game, kept.evening, played.round, story.players[played.winner], played.points, *points]
        before = played.totals

