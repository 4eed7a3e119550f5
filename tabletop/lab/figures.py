"""A measured figure beside its goal, and the long record the benchmarks replay: shared by every benchmark."""

from __future__ import annotations

from dataclasses import dataclass

from tabletop.game.events import Event
from tabletop.lab.simulate import simulate_game


@dataclass(frozen=True)
class Figure:
    """One measured figure, with its goal and whether it meets it (None where there is no goal)."""

    what: str
    measured: str
    goal: str = ""
    met: bool | None = None

    @property
    def line(self) -> str:
        verdict = "" if self.met is None else (": meets" if self.met else ": misses")
        return f"{self.what}: {self.measured}" + (f" (goal {self.goal}{verdict})" if self.goal else "")


def figure(what: str, measured: str, goal: str, met: bool) -> Figure:
    """A figure measured against a goal."""
    return Figure(what, measured, goal, met)


def evening(events: int) -> list[Event]:
    """A long record: simulated games one after another until it holds at least ``events`` events."""
    record: list[Event] = []
    seed = 0
    while len(record) < events:
        preset = ("official", "party", "stacking", "eastern")[seed % 4]
        record.extend(simulate_game(seed, rules={"preset": preset}).events)
        seed += 1
    return record
