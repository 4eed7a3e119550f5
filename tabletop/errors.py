"""The one exception root of tabletop, so callers can catch everything the project raises."""


class TabletopError(Exception):
    """Anything tabletop reports as an error of its own."""


class RecordError(TabletopError, ValueError):
    """A game record or an event that does not follow GAME-RECORD.md.

    ``line`` counts from 1, as an editor does, so the message points a person at the right line.
    """

    def __init__(self, reason: str, line: int | None = None) -> None:
        self.reason = reason
        self.line = line
        super().__init__(reason if line is None else f"line {line}: {reason}")
