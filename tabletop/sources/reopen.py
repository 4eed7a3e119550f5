"""Keeping a camera going through the drop-outs of a long evening: a loose cable, a USB reset, a driver hiccup.

A game should survive a camera that vanishes for a few seconds, so the source is reopened with a growing wait
rather than the referee stopping; each failure is reported so the table knows why it went blind.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable, Iterator

from tabletop.errors import SourceError
from tabletop.reporting import Report
from tabletop.sources import Frame, FrameSource


class Reopening:
    """The frames of ``open_source()``'s source, reopened whenever it fails; itself a :class:`FrameSource`."""

    def __init__(
        self,
        open_source: Callable[[], FrameSource],
        report: Report,
        sleep: Callable[[float], None] = time.sleep,
        first_wait: float = 0.5,
        max_wait: float = 10.0,
    ) -> None:
        if not 0 < first_wait <= max_wait:
            raise ValueError("waits must be positive, the first no longer than the longest")
        self.open_source = open_source
        self.report = report
        self.sleep = sleep
        self.first_wait = first_wait
        self.max_wait = max_wait
        self.name = "reopening source"
        self.live = True
        self.problem: str | None = None
        """Why no frames come now, as last reported; None once they come again, so the host can be shown it."""
        self._source: FrameSource | None = None
        self._closed = False

    def frames(self) -> Iterator[Frame]:
        """Each new source's times continue from the last frame plus the wait, so time never runs backwards."""
        wait, offset = self.first_wait, 0.0
        while not self._closed:
            try:
                for frame in self._one_opening(offset):
                    wait, offset, self.problem = self.first_wait, frame.t, None
                    yield frame
                    del frame
                return
            except SourceError as error:
                if self._closed:
                    return
                self.problem = f"{error}; trying again in {wait:g} s"
                self.report(self.problem)
            self.sleep(wait)
            offset += wait
            wait = min(2 * wait, self.max_wait)

    def close(self) -> None:
        self._closed = True
        if self._source is not None:
            self._source.close()

    def _one_opening(self, offset: float) -> Iterator[Frame]:
        self._source = source = self.open_source()
        self.name = source.name
        try:
            for frame in source.frames():
                yield dataclasses.replace(frame, t=offset + frame.t)
                del frame
        finally:
            self._let_go(source)
        if source.live:
            raise SourceError(f"{source.name} stopped giving frames")

    def _let_go(self, source: FrameSource) -> None:
        """A source that fails even to close is reported, not raised: the next opening may well succeed."""
        try:
            source.close()
        except SourceError as error:
            self.report(f"{error}; going on")
