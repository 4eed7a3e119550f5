"""How many long answers (live streams, camera previews) may be open at once, in all and from one address.

Each long answer holds one of the server's threads for as long as it stays open, so without a limit a guest
could open enough of them to leave no thread for anyone's next request. The gate keeps the rest of the
threads for the short requests that every phone and the host need.
"""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Callable, Generator, Iterable, Iterator

Body = Generator[bytes, None, None]


class Gate:
    """Lets in at most ``total`` holders at once, and at most ``each`` from any one address."""

    def __init__(self, total: int, each: int) -> None:
        self.total, self.each = total, each
        self._lock = threading.Lock()
        self._open: Counter[str] = Counter()

    def enter(self, address: str) -> bool:
        """Take a place for ``address``; False when there is none (the caller answers 503)."""
        with self._lock:
            if self._open.total() >= self.total or self._open[address] >= self.each:
                return False
            self._open[address] += 1
            return True

    def leave(self, address: str) -> None:
        with self._lock:
            self._open[address] -= 1
            if self._open[address] <= 0:
                del self._open[address]

    @property
    def held(self) -> int:
        with self._lock:
            return self._open.total()

    def holding(self, address: str, body: Body) -> Iterable[bytes]:
        """``body``, giving back the place taken by ``enter`` when the server closes it, however it ended."""
        return _Held(body, lambda: self.leave(address))


class _Held:
    """An answer's body that gives its place back once: waitress closes it even when it was never read."""

    def __init__(self, body: Body, release: Callable[[], None]) -> None:
        self._body, self._release = body, release
        self._released = False

    def __iter__(self) -> Iterator[bytes]:
        return self._body

    def close(self) -> None:
        self._body.close()
        if not self._released:
            self._released = True
            self._release()
