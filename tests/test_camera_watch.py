"""The camera's thread: what the watcher sees reaches the table, and the host sees what the camera sees."""

from __future__ import annotations

import gc
import weakref
from collections.abc import Iterator

import cv2
import numpy as np
import pytest
from reaching import LAYOUT, Film, reaching_frames

from tabletop.camera_inbox import CameraInbox
from tabletop.game.board import board_view
from tabletop.game.cards import Card
from tabletop.game.events import Amend, Deal, Draw, Flip, Game, Play, Retract, Unsure
from tabletop.game.referee import replay
from tabletop.game.rules import Rules
from tabletop.lab.tablesim.script import Pace
from tabletop.lab.tablesim.table import simulated_table
from tabletop.reporting import Report
from tabletop.sources import Frame, FrameSource, Sharp
from tabletop.sources.reopen import Reopening
from tabletop.table import Table
from tabletop.vision.model import CardModel, CardReader
from tabletop.watcher.camera import CameraWatch, starting_layout
from tabletop.watcher.layout import Layout
from tabletop.watcher.picture import ZONE_COLOUR, draw_zones
from tabletop.watcher.unread import SPAN
from tabletop.watcher.watcher import TakeBack
from tabletop.web.camera import Preview

SHORT = Rules.parse({"preset": "official", "hand_size": 3})


def watching(source: FrameSource, table: Table, model: CardReader, layout: Layout,
             report: Report) -> CameraWatch:
    """The camera's thread as the table unit runs it: what it sees handed to the table's thread."""
    return CameraWatch(source, CameraInbox(table, report).deliver, model, layout, report=report)


def test_the_camera_posts_plays_and_takes_back_the_line_the_table_gave_them() -> None:
    simulated = simulated_table(32, players=3, rules=SHORT, rounds=1, pace=Pace(take_back=0.4))
    truth = [timed.event for timed in simulated.script.record]
    reports: list[str] = []
    with Table() as table:
        table.restart([Game(players=("Ann", "Bo", "Cy"), rules=SHORT)])
        camera = watching(simulated.video, table, CardModel(), simulated.layout, reports.append)
        camera.start().wait()
        record = table.flush().record
    retracts = [event for event in record if isinstance(event, Retract)]
    assert len(retracts) >= 3
    assert all(isinstance(record[event.ref], Play | Unsure) for event in retracts)
    assert {event.source for event in record[1:]} == {"camera"}
    assert replay(list(enumerate(record)))[1].top == replay(list(enumerate(truth)))[1].top
    assert reports == []
    assert camera.problem is None


def test_the_preview_shows_the_picture_with_the_zones_the_host_can_move() -> None:
    simulated = simulated_table(33, players=3, rules=SHORT, rounds=1)
    with Table() as table:
        saved: list[Layout] = []
        camera = CameraWatch(simulated.video, CameraInbox(table).deliver, CardModel(), simulated.layout,
                             report=lambda _: None, moved=saved.append)
        preview = Preview(camera)
        assert preview.jpeg() is None
        camera.start()
        while preview.jpeg() is None:
            camera.wait(0.05)
        picture = cv2.imdecode(np.frombuffer(preview.jpeg() or b"", np.uint8), cv2.IMREAD_COLOR)
        assert picture.shape == (480, 640, 3)
        moved = starting_layout(camera.size, 3)
        camera.move_zones(moved)
        assert camera.layout is moved and saved == [moved]
        camera.close()


def test_the_zones_are_drawn_where_they_lie() -> None:
    layout = starting_layout((640, 480), 4)
    drawn = draw_zones(np.zeros((480, 640, 3), np.uint8), layout)
    x, y = layout.discard.centre
    ring = drawn[round(y), round(x + layout.discard.radius) - 1: round(x + layout.discard.radius) + 2]
    assert any(tuple(pixel) == ZONE_COLOUR for pixel in ring)
    assert not drawn[round(y), round(x)].any()


def test_what_the_camera_sees_before_an_unsure_first_card_is_confirmed_waits_for_it() -> None:
    with Table() as table:
        table.restart([Game(players=("Ann", "Bo", "Cy"), rules=SHORT)])
        inbox = CameraInbox(table, pytest.fail)
        inbox.deliver(Deal(dealer=2))
        inbox.deliver(Unsure(guesses=((Card.from_name("red-5"), 0.5),)))
        inbox.deliver(Play(card=Card.from_name("red-9"), seat=0))
        inbox.deliver(Draw(seat=1))
        assert [event.TYPE for event in table.flush().record] == ["game", "deal", "unsure"]
        view = board_view(table.snapshot.record, table.snapshot.verdicts, table.snapshot.state)
        assert view["unsure"][0]["flip"] is True
        table.submit(Amend(ref=2, event=Flip(card=Card.from_name("red-5"))))
        inbox.deliver(Play(card=Card.from_name("red-2"), seat=1))
        record = table.flush().record
    assert [event.TYPE for event in record] == ["game", "deal", "unsure", "amend", "play", "draw", "play"]
    assert replay(list(enumerate(record)))[1].top == Card.from_name("red-2")


def test_a_take_back_in_a_new_game_retracts_nothing_of_the_game_before() -> None:
    """The host starts a new game while the camera watches: a hand reaching back for a card before any card is laid
    in the new game must not retract a line of the new record that happens to have the old card's number."""
    with Table() as table:
        table.restart([Game(players=("Ann", "Bo", "Cy"), rules=SHORT), Deal(dealer=2)])
        inbox = CameraInbox(table, pytest.fail)
        inbox.deliver(Flip(card=Card.from_name("red-5")))
        inbox.deliver(Play(card=Card.from_name("red-9"), seat=0))
        table.flush()
        table.restart([Game(players=("Ann", "Bo", "Cy"), rules=SHORT), Deal(dealer=0),
                       Flip(card=Card.from_name("blue-1")), Play(card=Card.from_name("blue-2"), seat=1)])
        inbox.deliver(TakeBack(t=9.0, seat=None))
        assert [event.TYPE for event in table.flush().record] == ["game", "deal", "flip", "play"]
        inbox.deliver(Play(card=Card.from_name("blue-7"), seat=2))
        inbox.deliver(TakeBack(t=10.0, seat=None))
        record = table.flush().record
    assert [event.TYPE for event in record] == ["game", "deal", "flip", "play", "play", "retract"]
    assert record[-1].ref == 4  # type: ignore[attr-defined]


def test_a_draw_seen_before_the_deal_is_told_and_set_aside_not_left_to_hold_up_the_round() -> None:
    """Cards dealt from the deck can look like a draw to the camera before any round is open: that draw cannot
    stand in the record. Once the deal is seen, it is told and set aside, and the round's flip and plays are
    recorded as they come."""
    told: list[str] = []
    with Table() as table:
        table.restart([Game(players=("Ann", "Bo", "Cy"), rules=SHORT)])
        inbox = CameraInbox(table, told.append)
        inbox.deliver(Draw(seat=1))
        inbox.deliver(Draw(seat=2))
        inbox.deliver(Deal(dealer=2))
        inbox.deliver(Flip(card=Card.from_name("red-5")))
        inbox.deliver(Play(card=Card.from_name("red-9"), seat=0))
        record = table.flush().record
    assert [event.TYPE for event in record] == ["game", "deal", "flip", "play"]
    assert told == ["camera: 2 draws seen before the deal set aside: no round was open for it"]


def test_a_camera_picture_is_let_go_as_soon_as_a_play_seen_before_the_round_opens_is_held() -> None:
    """Plays and draws seen before the round's first card are refused by the table and held: the refusal must not
    keep the camera's picture alive (several megabytes each, a frame at a time), not even until the garbage
    collector comes round, or a Pi runs out of memory while the host has yet to confirm the first card."""

    class Picture:
        """Stands for a camera's large picture, held by the frame being watched when the play is posted."""

    def watch_one(inbox: CameraInbox) -> weakref.ref[Picture]:
        picture = Picture()
        inbox.deliver(Play(card=Card.from_name("red-9"), seat=0))
        inbox.table.flush()
        return weakref.ref(picture)

    with Table() as table:
        table.restart([Game(players=("Ann", "Bo", "Cy"), rules=SHORT)])
        inbox = CameraInbox(table, pytest.fail)
        gc.disable()
        try:
            gone = watch_one(inbox)() is None
        finally:
            gc.enable()
        assert [event.TYPE for event in table.snapshot.record] == ["game"]
    assert gone


def test_a_camera_picture_is_let_go_before_the_next_is_taken() -> None:
    """A Pi has room for one of its camera's large pictures at a time (megabytes each): neither the camera's
    thread nor the reopening round the camera keeps the last one while the camera takes the next."""
    kept: list[bool] = []

    class Camera:
        name, live = "camera with a large stream", False

        def frames(self) -> Iterator[Frame]:
            last: weakref.ref[np.ndarray] | None = None
            for frame in reaching_frames(SPAN * 2.5):
                kept.append(last is not None and last() is not None)
                large = cv2.resize(frame.image, None, fx=3, fy=3, interpolation=cv2.INTER_LINEAR)
                last = weakref.ref(large)
                yield Frame(frame.image, frame.t, Sharp(large, 3.0))
                del large

        def close(self) -> None:
            """Nothing to let go."""

    with Table() as table:
        table.restart([Game(players=("Ann", "Bo"), rules=SHORT)])
        camera = watching(Reopening(Camera, report=pytest.fail), table, CardModel(), LAYOUT, lambda _: None)
        gc.disable()
        try:
            camera.start().wait()
        finally:
            gc.enable()
    assert len(kept) > 20 and not any(kept)


def test_the_host_is_told_once_when_play_goes_on_and_no_card_is_read() -> None:
    reports: list[str] = []
    with Table() as table:
        table.restart([Game(players=("Ann", "Bo"), rules=SHORT)])
        camera = watching(Film(reaching_frames(SPAN * 2.5)), table, CardModel(), LAYOUT, reports.append)
        camera.start().wait()
        record = table.flush().record
    assert [event.TYPE for event in record] == ["game"]
    assert len(reports) == 1 and reports[0].startswith("camera: ")
    assert reports[0].endswith("no card read yet: check the zones on the host page, the light and the camera")
