"""A frame source watched from start to end: the game record it makes, line by line.

This is what ``tabletop watch`` prints, and what the table's game thread consumes: the record starts with the
``game`` line, and every camera event after it is numbered, so a take-back retracts the line of its card.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator

from tabletop.game.events import Event, Game
from tabletop.sources import Frame
from tabletop.vision.model import CardModel
from tabletop.watcher.calibrate import find_layout
from tabletop.watcher.layout import TableLayout
from tabletop.watcher.recorder import Recorder
from tabletop.watcher.watcher import Watcher


def watch(frames: Iterable[Frame], game: Game, model: CardModel, layout: TableLayout | None = None,
          warn: Callable[[str], None] = lambda _: None) -> Iterator[Event]:
    """The record of the game watched in ``frames``; without ``layout`` the table is measured on the first frame.

    ``warn`` hears, once, of play seen and no card read (see ``UnreadPlay``): the record alone cannot say it.
    """
    recorder = Recorder()
    recorded = recorder.add(game)
    assert recorded is not None
    yield recorded
    watcher: Watcher | None = None
    for frame in frames:
        if watcher is None:
            watcher = Watcher(layout or find_layout(frame.image, len(game.players), model), model,
                              frame.image.shape[:2], warn)
        for item in watcher.observe(frame):
            event = recorder.add(item)
            if event is not None:
                yield event
