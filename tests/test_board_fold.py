"""The board every phone sees is kept up line by line; it must be the board the whole record gives."""

from __future__ import annotations

import json
import random

import pytest

from tabletop.game.board import board_view
from tabletop.game.cards import Card
from tabletop.game.events import Amend, Event, Play, Retract, Unsure
from tabletop.game.referee import Referee
from tabletop.lab.simulate import simulate_game
from tabletop.table import Snapshot, Table
from tabletop.web.feed import Feed


def messy(seed: int) -> list[Event]:
    """A simulated game as a camera and a host leave it: some plays read unsurely, some confirmed later, some
    lines struck out."""
    rng = random.Random(seed)
    game = simulate_game(seed, rules={"preset": ("official", "party", "stacking")[seed % 3]},
                         draws_seen=seed % 2 == 0).events
    out: list[Event] = []
    for event in game:
        if isinstance(event, Play) and rng.random() < 0.15:
            out.append(Unsure(guesses=((event.card, 0.6), (Card.from_name("red-6"), 0.3)), seat=event.seat))
            if rng.random() < 0.7:
                out.append(Amend(ref=len(out) - 1, event=event))
            continue
        out.append(event)
        if len(out) > 5 and rng.random() < 0.02:
            out.append(Retract(ref=len(out) - 1))
            out.append(event)
    return out


@pytest.mark.parametrize("seed", range(6))
def test_the_board_kept_line_by_line_is_the_board_of_the_whole_record(seed: int) -> None:
    """After every line, unsure readings, the top card, who names the colour, the unseen draws, penalties and
    rounds on the phones are what the whole record says, corrections and all: a reading just made unsure is
    asked about, one just confirmed no longer is, and the line just posted ends the board's record."""
    record = messy(seed)
    referee = Referee(record[:1])
    feed = Feed(Snapshot(1, 1, referee.record, referee.verdicts, referee.state, (), ()))
    for version, event in enumerate(record[1:], 2):
        latest = tuple(referee.push(event))
        snapshot = Snapshot(version, 1, referee.record, referee.verdicts, referee.state, latest, (event,))
        feed.update(snapshot)
        whole = board_view(list(referee.record), list(referee.verdicts), referee.state, latest)
        whole.update(version=version, game_number=1, camera=False)
        assert json.loads(feed.view) == whole, f"line {version - 1}"
        shown = json.loads(feed.view)
        asked = [line["ref"] for line in shown["unsure"]]
        if isinstance(event, Unsure):
            assert version - 1 in asked, f"line {version - 1}: an unsure reading the phones are not asked about"
        if isinstance(event, Amend):
            assert event.ref not in asked, f"line {version - 1}: a confirmed reading still asked about"
        assert shown["record"][-1]["event"] == event.to_json() and shown["lines"] == version


def test_a_snapshot_keeps_the_record_as_it_stood_while_the_game_goes_on() -> None:
    """The table's snapshot holds the record without copying it (a copy per event made a long evening slow):
    what a phone read before still reads the same after the next event."""
    with Table() as table:
        table.restart(simulate_game(1).events[:100])
        early = table.snapshot
        before = list(early.record)
        table.submit(Unsure(guesses=((Card.from_name("red-6"), 0.5),)))
        assert list(early.record) == before and len(table.snapshot.record) == len(before) + 1
        assert table.snapshot.record[: len(before)] == tuple(before)
