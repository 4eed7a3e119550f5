"""Play that the watcher sees but cannot read: people reaching in again and again, and not one card read.

From inside the watcher, a layout measured round the wrong thing, a dark room or a camera turned away all look
the same: nothing happens. This notices that nothing, so that a person is told rather than left with an empty
record. It keeps no clock: time is the frames' own, so a recording warns as the live camera would.
"""

from __future__ import annotations

REACHES = 10
"""Reaches in over the table with no card read that make play seen but unread, once they span ``SPAN``."""
SPAN = 60.0
"""Seconds from the first of those reaches: longer than a shuffle and a deal take before the first card is turned."""


class UnreadPlay:
    """Fed each frame's time, whether an arm is over the table and whether a card was read; says once when play
    has gone on unread.

    Only the first stretch of a watch counts: once a card has been read, the camera can see the cards, and a
    later stretch without any (the cards gathered, shuffled and dealt between rounds) is the game, not trouble.
    After a card is read, or the warning given, there is nothing more to say.
    """

    def __init__(self, reaches: int = REACHES, span: float = SPAN) -> None:
        self.needed, self.span = reaches, span
        self.reaches = 0
        self.since: float | None = None
        self.reaching = False
        self.done = False

    def see(self, t: float, reaching: bool, read: bool) -> str | None:
        """The warning, on the one frame it is due; else None."""
        if self.done or read:
            self.done = True
            return None
        if reaching and not self.reaching:
            self.reaches += 1
            self.since = t if self.since is None else self.since
        self.reaching = reaching
        if self.since is None or self.reaches < self.needed or t - self.since < self.span:
            return None
        self.done = True
        return f"{self.reaches} reaches over the table in {t - self.since:.0f} s, and no card read yet"
