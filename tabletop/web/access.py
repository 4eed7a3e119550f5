"""Who may do what: the host by PIN, each player by the token their phone got when it claimed their seat.

A seat belongs to the last phone that claimed it, and only within one game: claiming again, or a new game,
makes the old token stale. Tokens live in memory; after a restart players scan their seat's code again.
"""

from __future__ import annotations

import hmac
import secrets
import threading


class Seats:
    """The current token of every claimed seat, for the game numbered ``game``."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._game = 0
        self._tokens: dict[int, str] = {}

    def claim(self, seat: int, game: int) -> str:
        """A fresh token for ``seat``; any earlier token for it stops working."""
        token = secrets.token_urlsafe(18)
        with self._lock:
            self._forget_other_games(game)
            self._tokens[seat] = token
        return token

    def seat_of(self, token: str, game: int) -> int | None:
        """The seat ``token`` holds in this game, or None for a stale or unknown token."""
        with self._lock:
            self._forget_other_games(game)
            return next((seat for seat, held in self._tokens.items() if hmac.compare_digest(held, token)), None)

    def claimed(self, game: int) -> set[int]:
        with self._lock:
            self._forget_other_games(game)
            return set(self._tokens)

    def _forget_other_games(self, game: int) -> None:
        if game != self._game:
            self._game, self._tokens = game, {}


def pin_matches(given: str | None, pin: str) -> bool:
    """Compare in constant time, so the PIN cannot be guessed digit by digit from response times."""
    return given is not None and hmac.compare_digest(given.encode(), pin.encode())
