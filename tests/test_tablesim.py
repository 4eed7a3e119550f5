"""The table simulator: a game filmed from above, deterministic, with the truth the watcher is judged by."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

from tabletop.game.events import Deal, Draw, Flip, Play, Retract, Reveal
from tabletop.lab.drawing import scene
from tabletop.lab.tablesim.arms import Arms, Held, Room
from tabletop.lab.tablesim.camera import Camera
from tabletop.lab.tablesim.scoring import verdicts_agree
from tabletop.lab.tablesim.script import CAMERA_EVENTS, Lay, Pace, Reach
from tabletop.lab.tablesim.table import TableFilm, first_rounds, simulated_table

SHORT = {"preset": "official", "hand_size": 3}


@pytest.fixture(scope="module")
def table() -> TableFilm:
    return simulated_table(11, players=3, rules=SHORT, rounds=1)


def test_the_same_seed_films_the_same_game_and_another_seed_another(table: TableFilm) -> None:
    again = simulated_table(11, players=3, rules=SHORT, rounds=1)
    other = simulated_table(12, players=3, rules=SHORT, rounds=1)
    for t in (0.0, 2.0, 5.0):
        assert np.array_equal(table.video.frame_at(t), again.video.frame_at(t))
    assert not np.array_equal(again.video.frame_at(6.0), other.video.frame_at(6.0))


def test_frames_are_640_by_480_colour_pictures_at_30_per_second(table: TableFilm) -> None:
    frames = [frame for _, frame in zip(range(4), table.video.frames(), strict=False)]
    assert [f.t for f in frames] == pytest.approx([0, 1 / 30, 2 / 30, 3 / 30])
    assert all(f.image.shape == (480, 640, 3) and f.image.dtype == np.uint8 for f in frames)


def test_every_camera_event_of_the_record_is_filmed_in_order(table: TableFilm) -> None:
    camera = [timed.event for timed in table.script.record if timed.camera]
    assert [sight.event for sight in table.script.sights] == camera
    assert all(isinstance(event, CAMERA_EVENTS) for event in camera)
    assert not any(isinstance(timed.event, CAMERA_EVENTS) for timed in table.script.record if not timed.camera)
    times = [timed.t for timed in table.script.record]
    assert times == sorted(times)


def test_a_phone_event_comes_only_after_what_the_camera_saw_before_it_had_come_to_rest(table: TableFilm) -> None:
    rested = 0.0
    sights = iter(table.script.sights)
    for timed in table.script.record:
        if timed.camera:
            rested = max(rested, next(sights).rest)
        else:
            assert timed.t >= rested


def test_each_card_is_laid_by_an_arm_from_its_players_edge(table: TableFilm) -> None:
    layout = table.script.layout
    laid = [reach for reach in table.script.reaches if isinstance(reach.change, Lay) and reach.change.zone == "discard"]
    plays = [sight for sight in table.script.sights if isinstance(sight.event, (Play, Flip))]
    assert len(laid) == len(plays) > 5
    for reach in laid:
        assert layout.seat_at(reach.entry) == reach.seat
        x, y = reach.entry
        assert min(abs(x), abs(x - 640), abs(y), abs(y - 480)) < 1e-6


def test_a_card_laid_shows_on_the_discard_pile_once_the_hand_has_gone(table: TableFilm) -> None:
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


def test_a_round_starts_with_the_deal_seen_at_the_dealers_flip(table: TableFilm) -> None:
    first, second = table.script.sights[:2]
    assert isinstance(first.event, Deal) and isinstance(second.event, Flip)
    assert first.seat == first.event.dealer == second.seat


def test_a_pale_table_is_white_cream_or_grey() -> None:
    table = simulated_table(13, players=3, rules=SHORT, rounds=1, table="pale")
    reveal = table.layout.reveal
    bare = table.video.frame_at(0.0)[round(reveal.top):round(reveal.bottom), round(reveal.left):round(reveal.right)]
    colour = np.median(bare.reshape(-1, 3), axis=0)
    assert colour.min() > 140 and colour.max() - colour.min() < 45, colour


def test_an_arm_is_a_shaded_sleeve_forearm_and_hand_holding_its_card_over_a_soft_shadow() -> None:
    """An arm from the bottom edge up to (320, 200), the card held under the palm, the lamp casting shadows to
    the right."""
    frame = np.full((480, 640, 3), 128, np.uint8)
    room = Room(np.ones((480, 640, 3), np.float32), 0, (1.0, 0.0), 0.5, np.full(3, 128.0))
    reach = Reach(seat=0, entry=(320.0, 480.0), target=(320.0, 200.0), start=0.0, inward=0.4, dwell=0.2,
                  outward=0.4, width=45.0, sleeve=(40, 40, 200), skin=(120, 160, 220))
    green = (np.full((146, 94, 3), (0, 255, 0), np.uint8), np.full((146, 94), 255, np.uint8))
    Arms(Camera.straight((640, 480)), 73.0, room, seed=1).draw(frame, 0, reach, 0.5, Held(green, 0.0, "laid"))
    sleeve, palm = frame[420, 320].astype(int), frame[226, 320].astype(int)
    assert sleeve[2] > 2 * sleeve[0] and palm[2] > palm[1] > palm[0] > 60
    ys, xs = np.nonzero(np.all(frame == (0, 255, 0), axis=2))
    assert xs.max() - xs.min() > 40 and ys.max() - ys.min() > 65 and abs(ys.mean() - 200) < 20
    assert frame[420, 320].sum() > frame[420, 341].sum() + 30
    assert int(frame[420, 350].sum()) < 3 * 128 - 40 and int(frame[420, 290].sum()) > 3 * 128 - 15


def test_a_turned_camera_sees_cards_as_quadrilaterals_and_the_layout_where_they_lie() -> None:
    table = simulated_table(11, players=3, rules=SHORT, rounds=1, tilt=8.0)
    camera, straight = table.video.camera, table.script.layout
    card = camera.points(scene.card_corners(straight.discard.centre, straight.card_height, 0.0,
                                            np.random.default_rng(0), perspective=0.0))
    sides = [card[(k + 1) % 4] - card[k] for k in range(4)]
    corners = [math.degrees(math.atan2(float(a[0] * b[1] - a[1] * b[0]), float(np.dot(a, b))))
               for a, b in itertools.pairwise(sides)]
    assert max(abs(abs(corner) - 90) for corner in corners) > 1
    play = next(sight for sight in table.script.sights if isinstance(sight.event, Play))
    before = table.video.frame_at(play.happened - 0.6).astype(int)
    after = table.video.frame_at(play.rest + 0.3).astype(int)
    ys, xs = np.nonzero(np.abs(after - before).max(axis=2) > 60)
    layout = table.layout
    assert math.dist((xs.mean(), ys.mean()), layout.discard.centre) < 0.4 * layout.card_height
    assert math.dist(layout.discard.centre, straight.discard.centre) > 5
    again = simulated_table(11, players=3, rules=SHORT, rounds=1, tilt=8.0)
    assert np.array_equal(again.video.frame_at(play.rest + 0.3), after.astype(np.uint8))
