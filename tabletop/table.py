"""The one thread that owns the game: every input is queued, checked, logged, applied and published.

The camera, the phones and the buttons all post events here from their own threads. Only the table's thread
touches the referee and the game log, so there is no lock around the game; everyone else reads the immutable
snapshot it publishes after each change, or listens for the next one.
"""

from __future__ import annotations

import dataclasses
import queue
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import Future
from dataclasses import dataclass
from typing import Protocol, TypeVar

from tabletop.errors import RecordCode, RecordError, TableError
from tabletop.game.events import Event, Game, State, Verdict
from tabletop.game.referee import Referee
from tabletop.reporting import Report

WAIT = 10.0
"""Seconds a poster waits for the table's thread before giving up on an answer."""


class GameLog(Protocol):
    """Where events are kept so that a game survives the process: written before an event is applied."""

    def append(self, event: Event) -> None: ...

    def restart(self, events: Sequence[Event]) -> None:
        """A new record replaces the old one (a new game, or an imported record)."""


class MemoryLog:
    """A game log that keeps the record in memory only: for the simulator, tests and benchmarks."""

    def __init__(self) -> None:
        self.events: list[Event] = []

    def append(self, event: Event) -> None:
        self.events.append(event)

    def restart(self, events: Sequence[Event]) -> None:
        self.events = list(events)


class Judge(Protocol):
    """What the table needs of a game's rules: check an event before it is logged, push it, and say where the game
    stands. UNO's ``Referee`` is one; a second game's referee would stand beside it, and the table, the log, the
    snapshots and the listeners would serve it unchanged."""

    @property
    def record(self) -> Sequence[Event]:
        """The record as it stands: a value later pushes leave as it is, for snapshots keep it."""

    @property
    def verdicts(self) -> Sequence[Verdict]:
        """The verdicts as they stand, kept as ``record`` is."""

    @property
    def state(self) -> State: ...

    @property
    def next_ref(self) -> int: ...

    def check(self, event: Event) -> None: ...

    def push(self, event: Event) -> Sequence[Verdict]: ...


@dataclass(frozen=True)
class Snapshot:
    """The game as it stood after one change; ``version`` grows by one with every change.

    ``game_number`` counts the records this table has held, so that a seat claimed in one game is not taken for a
    seat in the next. ``latest`` holds the verdicts the last change brought and ``events`` the lines it added, so
    that the buzzer and the voice react to the change without keeping their own place in the record (none for a
    new or imported record: nothing happened at the table).
    """

    version: int
    game_number: int
    record: Sequence[Event]
    verdicts: Sequence[Verdict]
    state: State | None
    latest: tuple[Verdict, ...]
    events: tuple[Event, ...]

    @property
    def players(self) -> tuple[str, ...]:
        first = self.record[0] if self.record else None
        return first.players if isinstance(first, Game) else ()


@dataclass(frozen=True)
class Applied:
    """What became of a posted event: its line in the record, the verdicts it brought, and the game after it."""

    ref: int
    verdicts: tuple[Verdict, ...]
    snapshot: Snapshot


Listener = Callable[[Snapshot], None]
T = TypeVar("T")


class Table:
    """Owns the referee and the game log on one thread; ``post`` from anywhere, read ``snapshot`` anywhere.

    ``clock`` stamps each event's ``t`` (seconds since the game began) when the poster did not; ``report``
    hears of a listener that failed; ``judge`` makes the game's referee from a record (UNO's by default).
    """

    def __init__(self, log: GameLog | None = None, events: Iterable[Event] = (),
                 clock: Callable[[], float] = time.monotonic, report: Report = print,
                 judge: Callable[[Sequence[Event]], Judge] = Referee) -> None:
        self._log = log if log is not None else MemoryLog()
        self._report = report
        self._judge = judge
        self._referee = judge(list(events))
        self._clock = clock
        self._began = clock() - _last_time(self._referee.record)
        self._jobs: queue.SimpleQueue[Callable[[], None] | None] = queue.SimpleQueue()
        self._listeners: list[Listener] = []
        self._changed = threading.Condition()
        self._snapshot = self._snap(0, 1, (), ())
        self._thread = threading.Thread(target=self._run, name="table", daemon=True)

    def start(self) -> Table:
        self._thread.start()
        return self

    def close(self) -> None:
        """Finish the events already posted, then stop the thread."""
        if self._thread.is_alive():
            self._jobs.put(None)
            self._thread.join()

    def __enter__(self) -> Table:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def snapshot(self) -> Snapshot:
        return self._snapshot

    def subscribe(self, listener: Listener) -> None:
        """Call ``listener`` with every new snapshot, on the table's thread: it must be quick and never raise."""
        self._listeners.append(listener)

    def post(self, event: Event) -> Future[Applied]:
        """Queue ``event``; the future holds what became of it, or the RecordError it was refused with."""
        return self._queue(lambda: self._apply(event))

    def submit(self, event: Event, timeout: float = WAIT) -> Applied:
        """Post ``event`` and wait for it to be applied; RecordError if it cannot stand in the record."""
        return _answer(self.post(event), timeout)

    def restart(self, events: Sequence[Event], timeout: float = WAIT) -> Snapshot:
        """Replace the record with ``events`` (a new game, or an imported record) and wait for it."""
        return _answer(self._queue(lambda: self._replace(events)), timeout)

    def call(self, job: Callable[[], T]) -> Future[T]:
        """Run ``job`` on the table's thread after everything queued before it, without waiting for it: an adapter
        that must decide with the record as it stands (see ``camera_inbox``) does so there, through ``apply``."""
        return self._queue(job)

    def apply(self, event: Event) -> Applied:
        """Apply ``event`` at once: for a job on the table's thread (``call``); anywhere else, ``post`` it."""
        if threading.current_thread() is not self._thread:
            raise TableError("events are applied on the table's thread: post them")
        return self._apply(event)

    def flush(self, timeout: float = WAIT) -> Snapshot:
        """Wait until everything queued so far is done; the snapshot then."""
        return _answer(self._queue(lambda: self._snapshot), timeout)

    def wait(self, version: int, timeout: float) -> Snapshot:
        """The first snapshot newer than ``version``, or the current one once ``timeout`` seconds have passed."""
        with self._changed:
            self._changed.wait_for(lambda: self._snapshot.version > version, timeout)
            return self._snapshot

    def _queue(self, job: Callable[[], T]) -> Future[T]:
        """Hand ``job`` to the table's thread. Whatever it raises goes to the poster, never kills the thread."""
        if not self._thread.is_alive():
            raise TableError("the table is not running")
        future: Future[T] = Future()

        def run() -> None:
            if not future.set_running_or_notify_cancel():
                return  # the poster gave up before it began, and was told it was not recorded
            try:
                future.set_result(job())
            except Exception as err:
                future.set_exception(err.with_traceback(None))

        self._jobs.put(run)
        return future

    def _run(self) -> None:
        while (job := self._jobs.get()) is not None:
            job()
            del job  # its future, and any error it holds, go as soon as the poster is done with them

    def _apply(self, event: Event) -> Applied:
        if not self._referee.record and not isinstance(event, Game):
            raise RecordError("no game has been started yet", code=RecordCode.NO_GAME)
        if isinstance(event, Game):
            return Applied(0, (), self._replace([event]))
        event = self._stamped(event)
        self._referee.check(event)
        ref = self._referee.next_ref
        self._log.append(event)
        verdicts = tuple(self._referee.push(event))
        return Applied(ref, verdicts, self._publish(self._snapshot.game_number, verdicts, (event,)))

    def _replace(self, events: Sequence[Event]) -> Snapshot:
        if not events or not isinstance(events[0], Game):
            raise RecordError("a record must start with a 'game' event", 1, code=RecordCode.NO_GAME)
        referee = self._judge(events)
        self._log.restart(events)
        self._referee, self._began = referee, self._clock() - _last_time(events)
        return self._publish(self._snapshot.game_number + 1, (), ())

    def _stamped(self, event: Event) -> Event:
        if event.t is not None:
            return event
        return dataclasses.replace(event, t=round(self._clock() - self._began, 3))

    def _publish(self, game_number: int, latest: tuple[Verdict, ...], events: tuple[Event, ...]) -> Snapshot:
        snapshot = self._snap(self._snapshot.version + 1, game_number, latest, events)
        with self._changed:
            self._snapshot = snapshot
            self._changed.notify_all()
        for listener in self._listeners:
            try:
                listener(snapshot)
            except Exception as err:  # the event is applied and logged: a broken display must not undo that
                self._report(f"table: a listener failed on version {snapshot.version}: {err!r}")
        return snapshot

    def _snap(self, version: int, game_number: int, latest: tuple[Verdict, ...], events: tuple[Event, ...]) -> Snapshot:
        record = self._referee.record
        state = self._referee.state if record else None
        return Snapshot(version, game_number, record, self._referee.verdicts, state, latest, events)


def _answer(future: Future[T], timeout: float) -> T:
    """The job's result; a job still queued after ``timeout`` is called off, so "not done" is the truth.

    A job the table's thread has begun cannot be called off: its answer is awaited, however long it takes.

    An error the job raised comes without the table thread's traceback, and the future is let go before it
    reaches the poster: a traceback holds the frames it passed through, and a future holding its own error in
    one of them is a cycle only the garbage collector breaks, late. The camera posts from deep in its thread, its
    frames hold a camera picture each, and a round's draws seen before its first card (each refused) kept
    hundreds of megabytes of them.
    """
    try:
        return future.result(timeout)
    except TimeoutError:
        if future.cancel():
            raise TableError(f"the table did not take it within {timeout:g} s, so it was called off") from None
        return future.result()
    finally:
        del future


def _last_time(events: Sequence[Event]) -> float:
    """The latest ``t`` in a record, so that a resumed game's clock carries on from where it stopped."""
    return max((event.t for event in events if event.t is not None), default=0.0)
