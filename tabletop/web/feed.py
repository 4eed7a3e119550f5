"""The messages of the live stream: every new verdict, every new state and the board's view, numbered.

The table's thread turns each snapshot into messages once; every phone's stream only reads them. Numbers
keep growing for the life of the process, so a phone that comes back with ``Last-Event-ID`` is sent every
verdict and state it missed, or the whole picture again when those are no longer kept.

Only the latest board view is kept: each one supersedes the last, and a view grows with the game's history
(about 10 kB late in an evening), so keeping old ones would make the server's memory grow all night.
"""

from __future__ import annotations

import json
import threading
from collections import deque
from dataclasses import dataclass
from itertools import takewhile

from tabletop.game.board import BoardFold
from tabletop.table import Snapshot

KEPT = 2_000
"""Verdicts and states kept for phones that reconnect: several minutes of a lively game."""


@dataclass(frozen=True)
class Message:
    """One Server-Sent Event; ``kind`` None is a plain message (a verdict or the state)."""

    id: int
    kind: str | None
    data: str

    def encode(self) -> bytes:
        kind = f"event: {self.kind}\n" if self.kind else ""
        return f"id: {self.id}\n{kind}data: {self.data}\n\n".encode()


class Feed:
    """Numbered messages made from the table's snapshots, for any number of readers."""

    def __init__(self, snapshot: Snapshot, camera: bool = False, kept: int = KEPT) -> None:
        self.camera = camera
        self._messages: deque[Message] = deque(maxlen=kept)
        self._changed = threading.Condition()
        self._last = 0
        self._forgotten = 0
        self._view: Message | None = None
        self._state: Message | None = None
        self._game, self._fold = snapshot.game_number, BoardFold()
        self.closed = False
        self.update(snapshot)

    def update(self, snapshot: Snapshot) -> None:
        """Add the messages for a new snapshot: the verdicts it brought, then its state, then the view."""
        if snapshot.game_number != self._game:
            self._game, self._fold = snapshot.game_number, BoardFold()
        self._fold = self._fold.follow(snapshot.record, snapshot.verdicts)
        view = self._fold.view(snapshot.record, snapshot.state, snapshot.latest)
        view.update(version=snapshot.version, game_number=snapshot.game_number, camera=self.camera)
        with self._changed:
            for verdict in snapshot.latest:
                self._keep(self._number(None, verdict.to_json()))
            if snapshot.state is not None:
                self._state = self._keep(self._number(None, snapshot.state.to_json()))
            self._view = self._number("view", view)
            self._changed.notify_all()

    def _number(self, kind: str | None, obj: object) -> Message:
        self._last += 1
        return Message(self._last, kind, json.dumps(obj, separators=(",", ":")))

    def _keep(self, message: Message) -> Message:
        if len(self._messages) == self._messages.maxlen:
            self._forgotten = self._messages[0].id
        self._messages.append(message)
        return message

    @property
    def last(self) -> int:
        return self._last

    @property
    def view(self) -> str:
        """The latest board view, as JSON text."""
        assert self._view is not None
        return self._view.data

    def since(self, last_seen: int | None) -> list[Message]:
        """What a reader who has seen up to ``last_seen`` should be sent now: the verdicts and states after it,
        then the latest view if it is newer.

        A new reader, or one whose last message is no longer kept, gets the latest state and view: together
        they are the whole picture.
        """
        with self._changed:
            if last_seen is None or last_seen < self._forgotten or last_seen > self._last:
                return [m for m in (self._state, self._view) if m is not None]
            missed = list(takewhile(lambda m: m.id > last_seen, reversed(self._messages)))[::-1]
            if self._view is not None and self._view.id > last_seen:
                missed.append(self._view)
            return missed

    def wait(self, last_seen: int, timeout: float) -> bool:
        """Wait until there is a message after ``last_seen``; False when ``timeout`` seconds passed first."""
        with self._changed:
            return self._changed.wait_for(lambda: self._last > last_seen or self.closed, timeout)

    def close(self) -> None:
        """Wake every reader for the last time: the server is shutting down."""
        with self._changed:
            self.closed = True
            self._changed.notify_all()
