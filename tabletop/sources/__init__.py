"""Where frames come from: one small interface over cameras, files and the table simulator.

A source yields :class:`Frame` values in time order. It raises :class:`SourceError` when it fails; deciding
whether to reopen it is the caller's business (see :mod:`tabletop.sources.reopen`), so a source itself stays
simple and honest about what happened.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Protocol

import numpy as np

from tabletop.errors import TabletopError


class SourceError(TabletopError):
    """A frame source could not be opened or stopped giving frames."""


@dataclass(frozen=True, slots=True)
class Frame:
    """One picture of the table: BGR uint8, height x width x 3, taken ``t`` seconds after the source opened."""

    image: np.ndarray
    t: float


class FrameSource(Protocol):
    """Something that gives frames until it ends (a file) or fails (a camera that drops out)."""

    name: str
    live: bool
    """A camera (reopened when it stops) rather than a file (which ends)."""

    def frames(self) -> Iterator[Frame]:
        """Open the source and yield its frames; raise SourceError on failure; return at its natural end."""
        ...

    def close(self) -> None:
        """Let go of the device or file; safe to call more than once."""
        ...
