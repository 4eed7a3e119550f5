"""The table simulator: simulated games filmed from above, with the truth the watcher is judged by."""

from __future__ import annotations

SOURCE_NAME = "sim"
"""``sim:SEED`` names the simulator's film of game SEED wherever a camera source is asked for."""


def register_source() -> None:
    """Make ``sim:SEED`` a camera source: the command line does this at its start, the table unit never does."""
    from tabletop.lab.tablesim.table import simulated_table
    from tabletop.sources.open import register

    register(SOURCE_NAME, lambda seed: simulated_table(seed).video, "the table simulator")
