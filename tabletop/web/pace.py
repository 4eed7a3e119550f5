"""How fast anyone on the table's network may post: a short burst, then a steady rate, per seat and per address.

One seat's phone posting as fast as it could once put 17,717 events into a game in three minutes; a player taps
a few times a turn. Each key (a seat, an address, the host) has a bucket of ``burst`` posts that refills at
``rate`` a second: a family never meets it, a flood meets it within seconds and is told how long to wait.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

KEYS_KEPT = 1_000
"""Buckets remembered at once; beyond it the full ones (keys that have been quiet a while) are forgotten."""


class Pace:
    """Lets each key post ``burst`` times at once and ``rate`` times a second after that."""

    def __init__(self, burst: int, rate: float, clock: Callable[[], float] = time.monotonic) -> None:
        if burst < 1 or rate <= 0:
            raise ValueError("a pace needs a burst of at least one post and a positive rate")
        self.burst, self.rate, self._clock = burst, rate, clock
        self._lock = threading.Lock()
        self._buckets: dict[str, tuple[float, float]] = {}
        """Each key's posts left and when they were counted."""

    def take(self, key: str) -> float:
        """Count a post by ``key``: 0 when it may go ahead, else the seconds until it may post again (the post
        is then not counted)."""
        with self._lock:
            now = self._clock()
            left = self._left(key, now)
            if left < 1:
                return (1 - left) / self.rate
            if key not in self._buckets and len(self._buckets) >= KEYS_KEPT:
                self._forget_full(now)
            self._buckets[key] = (left - 1, now)
            return 0.0

    def _left(self, key: str, now: float) -> float:
        left, counted = self._buckets.get(key, (self.burst, now))
        return min(self.burst, left + (now - counted) * self.rate)

    def _forget_full(self, now: float) -> None:
        """Forget the keys whose bucket has filled again: they are as good as new. If none has, the oldest go,
        so that a crowd of addresses cannot make this grow without end."""
        self._buckets = {key: bucket for key, bucket in self._buckets.items() if self._left(key, now) < self.burst}
        while len(self._buckets) >= KEYS_KEPT:
            del self._buckets[next(iter(self._buckets))]
