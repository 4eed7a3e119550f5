"""How the table unit tells people what happened: one seam, a function that takes one line of words.

The command line prints each line; under systemd what is printed goes to the journal; the tests keep the lines in
a list and read them; the web server uses Flask's own logger. Everything that has something to tell (the camera,
the game log, the table's listeners, the voice, the trainers) takes a ``Report`` and says nothing any other way.
"""

from __future__ import annotations

from collections.abc import Callable

Report = Callable[[str], None]
"""Tells one line, in plain words, to whoever runs the table unit."""


def quiet(_: str) -> None:
    """Tells nobody: for watching where no person is waiting to hear (a benchmark, a recorded film)."""
