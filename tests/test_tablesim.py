"""The table simulator: a game filmed from above, deterministic, with the truth the watcher is judged by."""

from __future__ import annotations

import numpy as np
import pytest

from tabletop.events import Deal, Draw, Flip, Play, Retract, Reveal
from tabletop.tablesim.scoring import verdicts_agree
from tabletop.tablesim.script import CAMERA_EVENTS, Lay, Pace
from tabletop.tablesim.table import SimulatedTable, first_rounds, simulated_table

SHORT = {"preset": "official", "hand_size": 3}


@pytest.fixture(scope="module")
def table() -> SimulatedTable:
    return simulated_table(11, players=3, rules=SHORT, rounds=1)


def test_the_same_seed_films_the_same_game_and_another_seed_another(table: SimulatedTable) -> None:
    again = simulated_table(11, players=3, rules=SHORT, rounds=1)
    other = simulated_table(12, players=3, rules=SHORT, rounds=1)
    for t in (0.0, 2.0, 5.0):
        assert np.array_equal(table.video.frame_at(t), again.video.frame_at(t))
    assert not np.array_equal(again.video.frame_at(6.0), other.video.frame_at(6.0))


def test_frames_are_640_by_480_colour_pictures_at_30_per_second(table: SimulatedTable) -> None:
    frames = [frame for _, frame in zip(range(4), table.video.frames(), strict=False)]
    assert [f.t for f in frames] == pytest.approx([0, 1 / 30, 2 / 30, 3 / 30])
    assert all(f.image.shape == (480, 640, 3) and f.image.dtype == np.uint8 for f in frames)


def test_every_camera_event_of_the_record_is_filmed_in_order(table: SimulatedTable) -> None:
    camera = [timed.event for timed in table.script.record if timed.camera]
    assert [sight.event for sight in table.script.sights] == camera
    assert all(isinstance(event, CAMERA_EVENTS) for event in camera)
    assert not any(isinstance(timed.event, CAMERA_EVENTS) for timed in table.script.record if not timed.camera)
    times = [timed.t for timed in table.script.record]
    assert times == sorted(times)


def test_a_phone_event_comes_only_after_what_the_camera_saw_before_it_had_come_to_rest(table: SimulatedTable) -> None:
    rested = 0.0
    sights = iter(table.script.sights)
    for timed in table.script.record:
        if timed.camera:
            rested = max(rested, next(sights).rest)
        else:
            assert timed.t >= rested


def test_each_card_is_laid_by_an_arm_from_its_players_edge(table: SimulatedTable) -> None:
    layout = table.layout
    laid = [reach for reach in table.script.reaches if isinstance(reach.change, Lay) and reach.change.zone == "discard"]
    plays = [sight for sight in table.script.sights if isinstance(sight.event, (Play, Flip))]
    assert len(laid) == len(plays) > 5
    for reach in laid:
        assert layout.seat_at(reach.entry) == reach.seat
        x, y = reach.entry
        assert min(abs(x), abs(x - 640), abs(y), abs(y - 480)) < 1e-6


def test_a_card_laid_shows_on_the_discard_pile_once_the_hand_has_gone(table: SimulatedTable) -> None:
    play = next(sight for sight in table.script.sights if isinstance(sight.event, Play))
    (cx, cy), r = table.layout.discard.centre, int(table.layout.discard.radius)
    box = (slice(int(cy) - r, int(cy) + r), slice(int(cx) - r, int(cx) + r))
    video = table.video
    before = video.frame_at(play.happened - 0.6)[box].astype(int)
    after = video.frame_at(play.rest + 0.3)[box].astype(int)
    changed = np.abs(after - before).max(axis=2) > 40
    assert changed.mean() > 0.1


def test_the_filmed_record_means_what_the_simulated_game_meant() -> None:
    """Draws are filmed one card at a time and a card may be taken back; the referee's verdicts do not change."""
    table = simulated_table(4, players=4, rules=SHORT, rounds=1, pace=Pace(take_back=0.3))
    filmed = [timed.event for timed in table.script.record]
    assert any(isinstance(event, Retract) for event in filmed)
    assert all(event.count == 1 for event in filmed if isinstance(event, Draw))
    assert any(isinstance(event, Reveal) for event in filmed)
    assert verdicts_agree(first_rounds(table.game.events, 1), filmed)


def test_a_round_starts_with_the_deal_seen_at_the_dealers_flip(table: SimulatedTable) -> None:
    first, second = table.script.sights[:2]
    assert isinstance(first.event, Deal) and isinstance(second.event, Flip)
    assert first.seat == first.event.dealer == second.seat
