"""The table watcher on simulated tables: the events it reports against what really happened."""

from __future__ import annotations

import dataclasses
import itertools
import json
import math
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

import cv2
import numpy as np
import pytest
from reaching import FPS, LAYOUT, reaching_frames

from tabletop.cli import main
from tabletop.errors import CalibrationError, LayoutError
from tabletop.game.cards import Card
from tabletop.game.events import Deal, Draw, Flip, Play, Retract, Reveal, Unsure
from tabletop.lab.tablesim.scoring import WatchScore, score, verdicts_agree, watch_alike, watch_table, watched_record
from tabletop.lab.tablesim.script import Pace, Reach, Script
from tabletop.lab.tablesim.table import TableFilm, first_rounds, simulated_table
from tabletop.lab.tablesim.video import TableVideo
from tabletop.sources import Frame
from tabletop.sources.files import VideoFile
from tabletop.vision.crop import Corners, Image, Look, balance
from tabletop.vision.mock import ScriptedReader
from tabletop.vision.model import CardModel, Reading
from tabletop.watcher.calibrate import find_layout, learn_seats
from tabletop.watcher.draws import DrawWatch
from tabletop.watcher.layout import Circle, Layout, Rect, fitted, layout_from_json, layout_to_json
from tabletop.watcher.motion import FURNITURE_FRAMES, LEARNT_FRAMES, QUIET_FRAMES, SCALE, MotionSensor
from tabletop.watcher.recorder import Lines, Recorder
from tabletop.watcher.reveal import Revealed, RevealZone
from tabletop.watcher.unread import REACHES, SPAN, UnreadPlay
from tabletop.watcher.watcher import Observation, TakeBack, Watcher
from tabletop.watcher.zones import ZoneWatch

SHORT = {"preset": "official", "hand_size": 3}
REAL_CARDS = Path(__file__).parent / "data" / "real-cards"


@pytest.fixture(scope="module")
def model() -> CardModel:
    return CardModel()


@pytest.fixture(scope="module")
def rounds(model: CardModel) -> list[tuple[TableFilm, list[Observation]]]:
    """A few short rounds on different tables, seats and lights, each watched once for the tests below."""
    tables = [simulated_table(seed, players=players, rules=SHORT, rounds=1, table=kind)
              for seed, players, kind in ((21, 2, "wood"), (22, 3, "felt"), (23, 5, "cloth"))]
    return [(table, watch_table(table, model)) for table in tables]


def total(rounds: Sequence[tuple[TableFilm, list[Observation]]]) -> WatchScore:
    result = WatchScore()
    for table, seen in rounds:
        result.add(score(table.script, seen))
    return result


def test_every_card_read_keeps_a_small_picture_of_what_the_camera_saw(rounds: list) -> None:
    """The evidence a player can check: the card cut out square, a few kB, read as the event says, as surely."""
    cards = [item for _, seen in rounds for item in seen if isinstance(item, Play | Flip | Unsure)]
    assert len(cards) > 10
    model = CardModel()
    for item in cards:
        evidence = item.evidence
        assert evidence is not None, item
        picture = cv2.imdecode(np.frombuffer(evidence.jpeg, np.uint8), cv2.IMREAD_COLOR)
        assert picture.shape == (144, 96, 3)
        assert 1000 < len(evidence.jpeg) < 8000
        if isinstance(item, Play | Flip):
            assert evidence.guesses[0] == (item.card, evidence.confidence)
            assert model.read([balance(cv2.resize(picture, model.size, interpolation=cv2.INTER_AREA))])[0].card \
                == item.card, "the picture shows a card other than the one read"
        else:
            assert evidence.guesses == item.guesses


def test_plays_are_found_with_their_card_and_the_seat_that_played(rounds: list) -> None:
    result = total(rounds)
    assert result.plays > 40
    assert result.plays_right >= result.plays - 1, result.summary()
    assert result.plays_wrong_seat == 0 and result.plays_wrong_card == 0, result.summary()


def test_no_play_is_invented_and_none_is_counted_twice(rounds: list) -> None:
    assert total(rounds).extra["play"] == 0


def test_draws_are_found_with_the_seat_that_drew(rounds: list) -> None:
    result = total(rounds)
    assert result.draws > 10
    assert result.draws_right >= result.draws - 1, result.summary()
    assert result.extra["draw"] <= 1, result.summary()


def test_hands_laid_out_are_read_card_by_card(rounds: list) -> None:
    result = total(rounds)
    assert result.revealed_cards > 5
    assert result.revealed_right >= result.revealed_cards - 1, result.summary()
    assert result.revealed_invented == 0, result.summary()


def test_each_round_starts_with_the_deal_by_the_seat_that_turned_the_first_card(rounds: list) -> None:
    for table, seen in rounds:
        deal = next(item for item in seen if isinstance(item, Deal))
        assert deal.dealer == first_rounds(table.game.events, 1)[1].dealer  # type: ignore[attr-defined]
        assert isinstance(seen[seen.index(deal) + 1], (Flip, Unsure))


def test_an_event_comes_within_300_ms_of_its_card_coming_to_rest(rounds: list) -> None:
    delays = total(rounds).delays
    assert delays and max(delays) <= 0.3


def test_the_referee_rules_the_same_on_what_the_camera_saw_as_on_what_happened(rounds: list) -> None:
    for table, seen in rounds:
        truth = [timed.event for timed in table.script.record]
        assert verdicts_agree(truth, watched_record(table.script, seen))


def test_a_hand_hovering_over_the_pile_or_a_player_leaning_in_is_no_play(model: CardModel) -> None:
    table = simulated_table(31, players=3, rules=SHORT, rounds=1, pace=Pace(hover=0.6, lean=0.6))
    seen = watch_table(table, model)
    result = score(table.script, seen)
    assert sum(reach.leaning for reach in table.script.reaches) > 5
    assert result.extra["play"] == 0 and result.extra["draw"] == 0, result.summary()


def test_a_card_taken_back_retracts_its_play(model: CardModel) -> None:
    table = simulated_table(32, players=3, rules=SHORT, rounds=1, pace=Pace(take_back=0.4))
    seen = watch_table(table, model)
    result = score(table.script, seen)
    assert result.take_backs >= 3 and result.take_backs_found == result.take_backs
    record = watched_record(table.script, seen)
    for event in record:
        if isinstance(event, Retract):
            assert isinstance(record[event.ref], (Play, Unsure))
    assert verdicts_agree([timed.event for timed in table.script.record], record)


class Doubtful:
    """The real model, but doubtful of every card: what a badly lit table looks like to the watcher."""

    def __init__(self) -> None:
        self.model = CardModel()
        self.size = self.model.size

    def read(self, looks: Sequence[Look | Image], guesses: int = 3) -> list[Reading]:
        return self.model.read(looks, guesses)

    def vote(self, looks: Sequence[Look | Image], guesses: int = 3) -> Reading:
        reading = self.model.vote(looks, guesses)
        return Reading(reading.card, 0.4, tuple((card, 0.4) for card, _ in reading.guesses))

    def vote_indexes(self, views: Sequence[Sequence[Image]], guesses: int = 3) -> list[Reading]:
        return self.model.vote_indexes(views, guesses)


def test_a_card_the_model_is_unsure_of_is_asked_about_never_played() -> None:
    table = simulated_table(21, players=2, rules=SHORT, rounds=1)
    seen = watch_table(table, Doubtful())
    assert not any(isinstance(item, (Play, Flip)) for item in seen)
    unsure = [item for item in seen if isinstance(item, Unsure)]
    plays = [s for s in table.script.sights if isinstance(s.event, (Play, Flip))]
    assert len(unsure) == len(plays)
    assert sum(item.guesses[0][0] == sight.event.card for item, sight in zip(unsure, plays, strict=True)) \
        >= len(plays) - 1  # type: ignore[attr-defined]


def test_the_watcher_plays_what_its_reader_reads_surely_and_asks_about_what_it_doubts() -> None:
    """The watcher's own rule, with no network between: each card landing on the pile is played as read where
    the reading is sure, and asked about, with the reader's guess, where it is not; a reader that sees no card
    plays nothing."""
    table = simulated_table(21, players=2, rules=SHORT, rounds=1)
    landed = [s.event for s in table.script.sights if isinstance(s.event, (Play, Flip))]
    blind = ScriptedReader(None)
    sure_seen, doubt_seen, blind_seen = watch_alike(
        table, [ScriptedReader("blue-9"), ScriptedReader("blue-9", confidence=0.5), blind])
    sure = [item for item in sure_seen if isinstance(item, (Play, Flip))]
    assert len(sure) == len(landed) and {str(item.card) for item in sure} == {"blue-9"}  # type: ignore[union-attr]
    asked = [item for item in doubt_seen if isinstance(item, (Play, Flip, Unsure))]
    assert all(isinstance(item, Unsure) for item in asked) and len(asked) == len(landed)
    assert {str(item.guesses[0][0]) for item in asked} == {"blue-9"}  # type: ignore[union-attr]
    assert not any(isinstance(item, (Play, Flip)) for item in blind_seen) and blind.asked > 0


def test_a_card_whose_change_shows_only_part_of_it_is_read_where_the_finder_sees_it(
        model: CardModel, monkeypatch: pytest.MonkeyPatch) -> None:
    """As when a red card lands on a red card: what changed is off the card's middle, so the card is looked for.

    The finder does not find every top card of a pile; those it misses are asked about, never guessed."""
    outline = ZoneWatch.card_outline

    def off_centre(self: ZoneWatch, mask: np.ndarray) -> Corners | None:
        corners = outline(self, mask)
        return None if corners is None else corners + np.float32(self.card_height * 0.2)

    monkeypatch.setattr(ZoneWatch, "card_outline", off_centre)
    table = simulated_table(21, players=2, rules=SHORT, rounds=1)
    result = score(table.script, watch_table(table, model))
    assert result.plays > 10
    assert result.plays_right >= result.plays / 2, result.summary()
    assert result.plays_wrong_card == 0 and result.plays_wrong_seat == 0, result.summary()


def test_a_card_laid_almost_exactly_over_one_of_its_colour_is_read_where_that_card_lay(model: CardModel) -> None:
    """A red 1 laid over a red skip on a red cloth, turned as the skip was: only the numeral changes, so the
    change is outlined at the wrong angle, and the finder sees no edge between red and red. The 1 lies where the
    skip lay, and reads there as a card other than the skip."""
    table = simulated_table(1003, players=5, rounds=1, table="plain")
    seen = watch_table(table, model)
    result = score(table.script, seen)
    assert result.plays > 20
    assert result.plays_unsure == 0 and result.plays_wrong_card == 0, result.summary()
    assert verdicts_agree([timed.event for timed in table.script.record], watched_record(table.script, seen))


@pytest.mark.parametrize(("seed", "players", "kind", "tilt"), [(24, 3, "pale", 0.0), (25, 3, "pale", 9.0),
                                                         (26, 4, "wood", 9.0)])
def test_a_round_on_a_pale_table_or_under_a_turned_camera_is_watched_as_it_was_played(
        model: CardModel, seed: int, players: int, kind: str, tilt: float) -> None:
    """White, cream or grey paper, where a card's white border does not stand out; a camera turned 9 degrees
    off straight down, which sees the cards as quadrilaterals, larger on its near side of the table."""
    table = simulated_table(seed, players=players, rules=SHORT, rounds=1, table=kind, tilt=tilt)
    seen = watch_table(table, model)
    result = score(table.script, seen)
    assert result.plays > 10 and result.draws > 10 and result.revealed_cards > 3
    assert result.plays_right == result.plays and result.extra["play"] == 0, result.summary()
    assert result.draws_right == result.draws and result.extra["draw"] == 0, result.summary()
    assert result.revealed_right == result.revealed_cards, result.summary()
    assert verdicts_agree([timed.event for timed in table.script.record], watched_record(table.script, seen))


@pytest.mark.parametrize("seed", [1, 23])
def test_the_special_wilds_of_the_112_card_deck_are_played_and_read_as_themselves(model: CardModel, seed: int
                                                                                 ) -> None:
    """A round with today's deck: each Wild Shuffle Hands, Wild Swap Hands and Wild Customizable laid on the pile
    is the play of that card, so the referee deals, swaps and scores as the table did."""
    table = simulated_table(seed, players=3, rules=SHORT, rounds=1, deck=112)
    specials = [timed.event.card for timed in table.script.record
                if isinstance(timed.event, Play) and timed.event.card.is_special]
    assert len(set(specials)) == 2
    seen = watch_table(table, model)
    result = score(table.script, seen)
    assert result.plays_right == result.plays and result.extra["play"] == 0, result.summary()
    assert sorted(item.card.name for item in seen if isinstance(item, Play) and item.card.is_special) == sorted(
        card.name for card in specials)
    assert verdicts_agree([timed.event for timed in table.script.record], watched_record(table.script, seen))


def test_a_slim_arm_held_still_is_still_an_arm() -> None:
    """A hand waiting over the draw pile, its sleeve crossing the picture's edge no wider than a few specks of
    glare would (a slim arm, or a camera high above the table): the table must not be learnt with it in it."""
    layout = simulated_table(45, players=3, rules=SHORT, rounds=1).layout
    sensor = MotionSensor(layout)
    table = np.full((480, 640, 3), 200, np.uint8)
    arm = table.copy()
    cv2.rectangle(arm, (0, 230), (300, 230 + 7 * SCALE), (60, 40, 150), -1)
    for _ in range(5):
        sensor.update(table)
    held = [len(sensor.update(arm).arms) for _ in range(QUIET_FRAMES + 5)]
    assert held == [1] * len(held)


def test_a_hand_whose_wrist_matches_what_lies_under_it_is_still_the_arms() -> None:
    """A brown wrist over the deck's red back changes nothing there: the hand beyond it is cut off from the
    sleeve by a few pixels, and must still count as the arm's, or a hand resting on the pile goes unseen."""
    layout = simulated_table(45, players=3, rules=SHORT, rounds=1).layout
    sensor = MotionSensor(layout)
    table = np.full((480, 640, 3), 200, np.uint8)
    arm = table.copy()
    cv2.rectangle(arm, (420, 220), (639, 260), (40, 40, 200), -1)
    cv2.rectangle(arm, (340, 210), (411, 270), (90, 120, 170), -1)
    for _ in range(5):
        sensor.update(table)
    (reaching,) = sensor.update(arm).arms
    assert reaching.tip[0] < 350


def test_a_shadow_creeping_in_is_not_learnt_into_the_table_bit_by_bit() -> None:
    """The soft edge of a shadow on a pale table comes in a few levels a frame, too slowly to count as moving
    from one frame to the next, while an arm keeps the table from being learnt afresh. Taken into the table bit
    by bit, it would linger as an arm after it had gone."""
    layout = simulated_table(45, players=3, rules=SHORT, rounds=1).layout
    sensor = MotionSensor(layout)
    table = np.full((480, 640, 3), 220, np.uint8)
    for _ in range(FURNITURE_FRAMES + 5):
        sensor.update(table)
    arm = table.copy()
    cv2.rectangle(arm, (400, 300), (440, 479), (60, 40, 150), -1)
    for level in [*range(215, 100, -5), *[100] * 5]:
        shaded = arm.copy()
        shaded[200:280, :300] = level
        sensor.update(shaded)
    gone = [sensor.update(table).arms for _ in range(QUIET_FRAMES + 3)]
    assert gone[-1] == ()


def test_a_card_whose_white_oval_splits_its_change_in_two_is_one_card() -> None:
    """Laid out on a pale table, a card changes only where it is coloured: its white border and the white oval
    crossing its middle from side to side leave two pieces of change, apart and each too small to be a card."""
    zone = ZoneWatch(Rect(0, 0, 300, 120), (480, 640), 70)
    mask = np.zeros((120, 300), np.uint8)
    cv2.rectangle(mask, (24, 29), (60, 91), 255, -1)
    cv2.line(mask, (20, 75), (64, 45), 0, 22)
    cv2.rectangle(mask, (154, 29), (190, 91), 255, -1)
    outlines = zone.card_outlines(mask, np.full((120, 300, 3), 230, np.uint8))
    assert [(round(float(x)), round(float(y))) for x, y in (outline.mean(axis=0) for outline in outlines)] == \
        [(42, 60), (172, 60)]


def test_a_whole_card_seen_smaller_than_at_the_draw_pile_is_outlined_as_it_is_seen() -> None:
    """A camera turned off straight down sees the cards laid out on the far side of the table a tenth smaller
    than the deck it was measured by: read in an outline of the deck's size, a card would take in the table round
    it, and its colours with it."""
    zone = ZoneWatch(Rect(0, 0, 300, 120), (480, 640), 70)
    view = np.full((120, 300, 3), (30, 120, 220), np.uint8)
    cv2.rectangle(view, (100, 29), (139, 91), (235, 240, 240), -1)
    cv2.rectangle(view, (104, 33), (135, 87), (60, 160, 40), -1)
    mask = np.zeros((120, 300), np.uint8)
    cv2.rectangle(mask, (100, 29), (139, 91), 255, -1)
    (outline,) = zone.card_outlines(mask, view)
    sides = sorted(round(float(np.linalg.norm(outline[k] - outline[k - 1]))) for k in range(4))
    assert sides == [39, 39, 62, 62]


def test_the_table_is_measured_from_a_picture_of_the_draw_pile_alone(model: CardModel) -> None:
    """On plain surfaces; on a busy cloth the zones may have to be given by hand."""
    for seed, kind in ((41, "wood"), (42, "felt"), (43, "plain"), (44, "wood")):
        table = simulated_table(seed, players=4, rules=SHORT, rounds=1, table=kind)
        truth = table.layout
        found = find_layout(table.video.frame(0.0), 4, model)
        card = truth.card_height
        assert math.dist(found.draw.centre, truth.draw.centre) < 0.2 * card
        assert abs(found.card_height - card) < 0.15 * card
        assert math.dist(found.discard.centre, truth.discard.centre) < 0.5 * card


def test_an_empty_table_cannot_be_measured(model: CardModel) -> None:
    with pytest.raises(CalibrationError, match="draw pile"):
        find_layout(Frame(np.full((480, 640, 3), 90, np.uint8), 0.0), 4, model)


def test_seats_are_learnt_from_each_player_reaching_in_once_in_seat_order() -> None:
    table = simulated_table(44, players=5, rules=SHORT, rounds=1)
    layout = table.script.layout
    script = Script(layout, table.script.frame_size, duration=len(layout.seats) * 1.5 + 1)
    for seat in range(len(layout.seats)):
        template = next(r for r in table.script.reaches if r.seat == seat and not r.leaning)
        script.reaches.append(Reach(seat=seat, entry=template.entry, target=layout.centre, start=0.5 + 1.5 * seat,
                                    inward=0.4, dwell=0.2, outward=0.4, width=template.width,
                                    sleeve=template.sleeve, skin=template.skin))
    video = TableVideo(script, seed=44)
    angles = learn_seats(video.frames(), video.layout, len(layout.seats))
    for learnt, true in zip(angles, video.layout.seats, strict=True):
        assert abs((learnt - true + 180) % 360 - 180) < 10


def test_a_take_back_becomes_a_retract_of_the_line_that_laid_the_card() -> None:
    record = Lines()
    recorder = Recorder(record.keep)
    recorder.add(TakeBack(0.5, 1))
    assert record.lines == []
    recorder.add(Deal(dealer=0))
    recorder.add(Flip(card=Card.from_name("red-5")))
    recorder.add(Play(card=Card.from_name("red-7"), seat=1))
    recorder.add(TakeBack(3.0, 1))
    recorder.add(TakeBack(4.0, 1))
    assert record.lines[3:] == [Retract(ref=2, t=3.0, source="camera"), Retract(ref=1, t=4.0, source="camera")]


def test_a_layout_round_trips_through_json_and_a_bad_one_names_its_key() -> None:
    layout = simulated_table(45, players=3, rules=SHORT, rounds=1).layout
    assert layout_from_json(json.loads(json.dumps(layout_to_json(layout)))) == layout
    broken = layout_to_json(layout)
    broken["discard"]["radius"] = -3
    with pytest.raises(LayoutError, match=r"discard\.radius"):
        layout_from_json(broken)
    broken["discard"]["radius"] = 10**400
    with pytest.raises(LayoutError, match=r"discard\.radius: must be a number"):
        layout_from_json(broken)
    del broken["seats"]
    with pytest.raises(LayoutError, match="seats"):
        layout_from_json(broken)


def test_zones_set_on_a_smaller_picture_of_the_same_view_are_scaled_to_the_camera_s() -> None:
    """A layout keeps the size of the picture it was set on: after the camera gives more pixels of the same view,
    the zones still lie on the piles."""
    layout = simulated_table(45, players=3, rules=SHORT, rounds=1).layout
    assert layout.picture == (640, 480)
    larger = fitted(layout, (960, 720))
    assert larger.picture == (960, 720)
    assert larger.discard.centre == pytest.approx((layout.discard.centre[0] * 1.5, layout.discard.centre[1] * 1.5))
    assert larger.card_height == pytest.approx(layout.card_height * 1.5)
    assert larger.seats == layout.seats
    assert fitted(layout, (640, 480)) is layout


def test_zones_set_on_a_picture_of_another_shape_are_refused_saying_to_set_them_again() -> None:
    """Pi cameras gave 640 x 480 before they gave 768 x 432 beside their large picture: the old zones cannot be
    scaled onto the new view, and a wrong zone silences the watcher, so they are refused out loud."""
    old = layout_from_json({key: value for key, value in layout_to_json(LAYOUT).items() if key != "picture"})
    assert old.picture == (640, 480)
    with pytest.raises(LayoutError, match="set on a 640x480 picture and the camera now gives 768x432, another shape"):
        fitted(old, (768, 432))


def test_tabletop_watch_refuses_zones_set_for_another_shape_of_picture(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write_video(tmp_path / "table.avi", reaching_frames(2.0), FPS)
    (tmp_path / "layout.json").write_text(json.dumps(layout_to_json(dataclasses.replace(LAYOUT, picture=(400, 400)))))
    assert main(["watch", str(tmp_path / "table.avi"), "--layout", str(tmp_path / "layout.json")]) == 2
    assert "set on a 400x400 picture and the camera now gives 320x240" in capsys.readouterr().err


def write_video(path: Path, frames: list[Frame], fps: float = 30) -> None:
    height, width = frames[0].image.shape[:2]
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), fps, (width, height))
    for frame in frames:
        writer.write(frame.image)
    writer.release()


def test_tabletop_watch_turns_a_video_into_a_record_that_replays(tmp_path: Path, capsys: pytest.CaptureFixture[str]
                                                                   ) -> None:
    table = simulated_table(21, players=2, rules=SHORT, rounds=1)
    end = table.script.sights[12].rest + 1.0
    write_video(tmp_path / "game.avi", [f for f in table.video.frames() if f.t <= end])
    (tmp_path / "layout.json").write_text(json.dumps(layout_to_json(table.layout)))
    assert main(["watch", str(tmp_path / "game.avi"), "--layout", str(tmp_path / "layout.json"),
                 "--players", "Ann,Bo"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert json.loads(lines[0]) == {"type": "game", "players": ["Ann", "Bo"], "rules": {"preset": "official"}}
    cards = [json.loads(line).get("card") for line in lines[1:]]
    truth = [s.event.card.name for s in table.script.sights[:13] if isinstance(s.event, (Play, Flip))]
    assert [c for c in cards if c] == truth
    (tmp_path / "record.jsonl").write_text("\n".join(lines) + "\n")
    assert main(["replay", str(tmp_path / "record.jsonl")]) == 0


def test_tabletop_watch_refuses_a_source_it_does_not_know(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["watch", "no-such-camera"]) == 2
    assert "not a source tabletop knows" in capsys.readouterr().err


def test_play_seen_with_no_card_read_is_warned_of_once_on_standard_error(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """As with zones measured round the wrong thing: people reach in for minutes and the record stays empty."""
    write_video(tmp_path / "table.avi", reaching_frames(SPAN * 2.5), FPS)
    (tmp_path / "layout.json").write_text(json.dumps(layout_to_json(LAYOUT)))
    assert main(["watch", str(tmp_path / "table.avi"), "--layout", str(tmp_path / "layout.json")]) == 0
    out, err = capsys.readouterr()
    assert [json.loads(line)["type"] for line in out.splitlines()] == ["game"]
    assert err.count("\n") == 1 and err.startswith("tabletop watch: ")
    assert "no card read yet: check the layout (tabletop calibrate --picture FILE" in err


def unread_warnings(unread: UnreadPlay, reaches: int, every: float, read_at: int | None = None) -> list[str]:
    """What ``unread`` says, and when, over ``reaches`` reaches in, one every ``every`` seconds, a frame each half
    second; a card is read on frame ``read_at``."""
    said = []
    for k in range(round(reaches * every * 2)):
        t = k * 0.5
        warning = unread.see(t, reaching=t % every < 1, read=k == read_at)
        if warning is not None:
            said.append(f"{t}: {warning}")
    return said


def test_play_is_unread_only_after_enough_reaches_over_long_enough() -> None:
    assert unread_warnings(UnreadPlay(), REACHES - 1, SPAN) == []
    assert unread_warnings(UnreadPlay(), REACHES * 10, SPAN / REACHES / 2) == \
        [f"{SPAN}: {REACHES * 2 + 1} reaches over the table in {SPAN:.0f} s, and no card read yet"]


def test_an_arm_resting_on_the_table_is_not_play() -> None:
    unread = UnreadPlay()
    assert all(unread.see(t / 2, reaching=True, read=False) is None for t in range(round(SPAN * 10)))


def test_once_a_card_is_read_a_long_stretch_without_one_is_the_game_not_trouble() -> None:
    """Between rounds the cards are gathered, shuffled and dealt: many reaches, and no card read for minutes."""
    assert unread_warnings(UnreadPlay(), REACHES * 10, SPAN / 4, read_at=3) == []


def test_lights_flickering_with_the_mains_are_no_motion_and_no_arm() -> None:
    """Lamps on the mains beat the frames' brightness and draw drifting bands across a rolling shutter's picture:
    the table holds still all the same, or no pile would ever settle and no card be read."""
    layout = simulated_table(45, players=3, rules=SHORT, rounds=1).layout
    sensor = MotionSensor(layout)
    table = simulated_table(45, players=3, rules=SHORT, rounds=1).video.frame_at(0.0).astype(np.float32)
    rows = np.arange(480, dtype=np.float32)[:, None, None]
    for k in range(40):
        beat = 1 + 0.04 * np.sin(k * 2.1)
        bands = 1 + 0.03 * np.sin(2 * np.pi * (rows / 160 + k * 0.37))
        motion = sensor.update(np.clip(table * beat * bands, 0, 255).astype(np.uint8))
        if k >= QUIET_FRAMES:
            assert motion.still and not motion.arms, k


def test_a_magenta_cloth_under_a_flickering_lamp_through_a_webcam_s_mjpeg_shows_only_the_draws_made(
        tmp_path: Path) -> None:
    """A magenta cloth has next to no green, and a lamp on the mains flickers over it; a webcam sends it as MJPEG,
    rounding its colours frame by frame. The flicker must still be levelled away: no arm is seen where none
    reaches, and the draws counted are the draws made."""
    table = simulated_table(5, rounds=1)
    assert "100 Hz flicker" in table.video.look.describe()
    film = tmp_path / "table.avi"
    writer = cv2.VideoWriter(str(film), cv2.VideoWriter.fourcc(*"MJPG"), 30.0, (640, 480))
    for frame in table.video.frames():
        if frame.t > 6:
            break
        writer.write(frame.image)
    writer.release()
    draws = DrawWatch(table.layout)
    sensor = MotionSensor(table.layout)
    drew = [seat for frame in VideoFile(film).frames() for seat in draws.see(sensor.update(frame.image))]
    made = [sight.seat for sight in table.script.sights if isinstance(sight.event, Draw) and sight.happened < 6]
    assert drew == made


def _two_seats(card_height: float) -> Layout:
    """Two seats, the first to the right and the second to the left, the discard pile and the draw pile to its
    right along the top, and the reveal zone across the lower half."""
    return Layout(discard=Circle((230, 136), 34), draw=Circle((350, 136), 28), reveal=Rect(80, 260, 560, 460),
                  centre=(320, 240), seats=(0.0, 180.0), card_height=card_height)


def _reaching(picture: np.ndarray, tip: int) -> np.ndarray:
    """``picture`` with the first seat's arm reaching in from the right, along the piles, to ``tip`` (x)."""
    cv2.rectangle(picture, (tip, 122), (639, 152), (60, 70, 90), -1)
    return picture


def test_a_player_holding_cards_at_the_edge_between_reaches_is_seen_to_draw_each_time() -> None:
    """A player's other hand holds their cards at the table's edge, fidgeting, so their arm never quite leaves the
    picture between reaches: after laying a card on the discard pile (a longer reach than to the deck), each reach
    into the draw pile is a draw all the same."""
    layout = _two_seats(40.0)
    sensor, draws = MotionSensor(layout), DrawWatch(layout)
    table = np.full((480, 640, 3), 200, np.uint8)

    def frame(k: int, tip: int) -> np.ndarray:
        picture = table.copy()
        if k >= 10:
            fidget = 4 * ((k // 7) % 2)
            cv2.rectangle(picture, (590 + fidget, 150), (639, 215), (60, 70, 90), -1)
        return _reaching(picture, tip) if tip < 600 else picture

    def reach(to: int) -> list[int]:
        return [*range(639, to, -25), *[to] * 4, *range(to, 640, 25)]

    tips = [640] * 20 + reach(205) + [640] * 8 + reach(330) + [640] * 8 + reach(330) + [640] * 8
    drew = [seat for k, tip in enumerate(tips) for seat in draws.see(sensor.update(frame(k, tip)))]
    assert drew == [0, 0]


def test_an_arm_lost_from_sight_as_it_passes_over_the_draw_pile_draws_nothing() -> None:
    """An arm reaching over the draw pile to lay a card on the discard pile is lost from sight for a frame just
    past the draw pile, on its way in and again on its way back (merged with a speckle of motion where the light
    changed, a real camera's motion lost it so): it never stopped there, so nobody drew. A reach that rests on
    the draw pile, lost from sight as it withdraws, is still a draw."""
    layout = _two_seats(40.0)
    sensor, draws = MotionSensor(layout), DrawWatch(layout)
    table = np.full((480, 640, 3), 200, np.uint8)
    away: list[int | None] = [None] * 8
    laying = [*range(639, 314, -25), None, *range(264, 205, -25), *[205] * 6, None, *range(314, 640, 25)]
    drawing = [*range(639, 330, -25), *[330] * 4, None]
    tips = away * 3 + laying + away + drawing + away
    drew = [seat for tip in tips
            for seat in draws.see(sensor.update(table.copy() if tip is None else _reaching(table.copy(), tip)))]
    assert drew == [0]


def test_a_card_laid_while_a_hand_is_held_at_the_edge_becomes_part_of_the_table() -> None:
    """A player holds their fan at the table's edge all round, so an arm is always in view. A card laid on the
    pile must still become part of the table once all lies still, or the next arm to reach beside it would seem
    to reach on to it (and draw from the discard pile), once it has lain still a third of a second; the held arm
    stays an arm."""
    layout = simulated_table(45, players=3, rules=SHORT, rounds=1).layout
    sensor = MotionSensor(layout)
    table = np.full((480, 640, 3), 200, np.uint8)
    cv2.rectangle(table, (590, 150), (639, 215), (60, 70, 90), -1)
    laid = table.copy()
    cv2.rectangle(laid, (300, 200), (340, 260), (40, 40, 200), -1)
    reaching = laid.copy()
    cv2.rectangle(reaching, (270, 0), (296, 230), (90, 120, 170), -1)
    sensor.update(np.full((480, 640, 3), 200, np.uint8))
    held = [len(sensor.update(frame).arms) for frame in [table] * 3 + [laid] * (LEARNT_FRAMES + 2)]
    (arm,) = (arm for arm in sensor.update(reaching).arms if arm.entry[1] < 10)
    assert held == [1] * len(held)
    assert arm.tip[1] < 240 and arm.tip[0] < 300


def _laid(picture: np.ndarray, k: int, laying: bool) -> Frame:
    """Frame ``k`` (30 a second) of ``picture``, the first seat's arm reaching in from the right while ``laying``."""
    seen = picture.copy()
    if laying:
        cv2.rectangle(seen, (380, 290), (639, 320), (60, 70, 90), -1)
    return Frame(seen, k / 30)


def test_the_seat_laying_a_hand_is_the_arm_over_the_zone_not_fingers_brushing_its_edge() -> None:
    """While one player lays their hand out, the other's fingers, holding a fan at the table's edge, brush the
    reveal zone's rim now and then: the cards are the hand's that covered the zone."""
    layout = _two_seats(40.0)
    sensor, zone = MotionSensor(layout), RevealZone(layout, (480, 640))
    table = np.full((480, 640, 3), 200, np.uint8)
    cards = table.copy()
    for x in (200, 260, 320):
        cv2.rectangle(cards, (x, 330), (x + 26, 370), (40, 40, 200), -1)

    def frame(picture: np.ndarray, k: int, laying: bool) -> Frame:
        seen = _laid(picture, k, laying)
        if k:
            cv2.rectangle(seen.image, (0, 400), (90 if laying and k % 2 else 40, 430), (60, 110, 90), -1)
        return seen

    shown = [frame(table, k, False) for k in range(6)] + [frame(cards, k, True) for k in range(6, 14)] + \
        [frame(cards, k, False) for k in range(14, 30)]
    laid = [revealed for picture in shown if (revealed := zone.see(picture, sensor.update(picture.image)))]
    assert [revealed.seat for revealed in laid] == [0]


def test_a_hand_laid_while_fingers_rest_on_the_zone_s_rim_is_still_read() -> None:
    """A player holding a fan at the table's edge rests their fingers on the reveal zone's rim the whole round: a
    hand laid out there is read once the arm that laid it has gone, though the fingers never leave."""
    layout = _two_seats(60.0)
    sensor, zone = MotionSensor(layout), RevealZone(layout, (480, 640))
    table = np.full((480, 640, 3), 200, np.uint8)
    fingers = table.copy()
    cv2.rectangle(fingers, (0, 400), (76, 411), (60, 110, 90), -1)
    cards = fingers.copy()
    for x in (200, 260, 320):
        cv2.rectangle(cards, (x, 330), (x + 39, 390), (40, 40, 200), -1)
    shown = [_laid(table, 0, False)] + [_laid(fingers, k, False) for k in range(1, 6)] + \
        [_laid(cards, k, True) for k in range(6, 14)] + [_laid(cards, k, False) for k in range(14, 30)]
    sensor.update(shown[0].image)
    fingers_alone = sensor.update(shown[1].image)
    assert len(fingers_alone.arms) == 1 and np.count_nonzero(fingers_alone.arms[0].mask & zone.zone.small)
    laid = [revealed for picture in shown[2:] if (revealed := zone.see(picture, sensor.update(picture.image)))]
    assert [revealed.seat for revealed in laid] == [0]


def test_a_worn_photographed_hand_laid_out_on_a_pale_table_is_outlined_card_by_card() -> None:
    """A real deck, worn and faded, photographed and laid out on a pale grey cloth: its colours change the table's
    little, but nothing else lies in the reveal zone, so every card is outlined, one by one."""
    film = simulated_table(1004, players=6, rounds=1, table="pale", faces=REAL_CARDS)
    shown = next(sight for sight in film.script.sights if isinstance(sight.event, Reveal))
    zone = RevealZone(film.layout, (480, 640)).zone
    before = zone.cut(film.video.frame_at(0.0)).copy()
    now = zone.cut(film.video.frame_at(shown.rest + 0.3))
    assert isinstance(shown.event, Reveal) and len(shown.event.cards) == 10
    assert len(zone.card_outlines(zone.changes(now, before), now)) == 10


def test_a_washed_out_real_card_laid_turned_on_a_bright_one_of_its_colour_is_a_new_card(model: CardModel) -> None:
    """A real deck's yellow reverse, its print paler than the yellow 5 beneath it, laid turned on it on a pale
    table: it changes no colour channel by as much as a card's outline needs, yet it is a new card on the pile and
    must be read, not taken for the pile as it lay."""
    film = simulated_table(1002, players=4, rounds=1, table="pale", faces=REAL_CARDS)
    laid = [sight for sight in film.script.sights if isinstance(sight.event, Play)]
    five, reverse = next((a, b) for a, b in itertools.pairwise(laid)
                         if (a.event.card.name, b.event.card.name) == ("yellow-5", "yellow-reverse"))
    watcher = Watcher(film.layout, model)
    seen = [item for frame in film.video.frames() if frame.t < reverse.rest + 0.5 for item in watcher.observe(frame)]
    assert any(isinstance(item, (Play, Unsure)) and five.rest + 0.2 < (item.t or 0) for item in seen)


def test_a_real_hand_laid_out_on_a_red_table_is_read_in_its_own_colours(model: CardModel) -> None:
    """A real deck's red 6 and green 4 laid out on a red cloth: outlined from the small picture, a card's crop
    takes in a rim of red table, its white is judged with red in it, and the red 6 reads surely as a yellow one.
    Each card is read where the finders place it on the large picture."""
    film = simulated_table(1007, players=4, rounds=1, table="plain", faces=REAL_CARDS)
    shown = [sight for sight in film.script.sights if isinstance(sight.event, Reveal)][1]
    assert isinstance(shown.event, Reveal) and [card.name for card in shown.event.cards] == ["red-6", "green-4"]
    watcher = Watcher(film.layout, model)
    seen = [item for t in np.arange(shown.happened - 3, shown.rest + 0.5, 1 / film.video.fps)
            for item in watcher.observe(film.video.frame(float(t)))]
    assert [item.cards for item in seen if isinstance(item, Reveal)] == [shown.event.cards]


def test_a_hand_dropped_in_a_row_each_card_over_the_last_is_read_card_by_card(model: CardModel) -> None:
    """A hand laid down to be counted the way people do it: each card over the one before, a row over the row
    before, little more than an index corner of most cards showing. Every card read is a card of the hand, once:
    the top card's own "+2", printed well in from its corner, is not counted again. The row of five is read whole:
    a blurred 6 in it is found from a larger look, and the 2 before it, though no card read lies over it, is on
    the cards the zone saw laid. (The other hand's covered 4, small and blurred, is read right but less than
    50% surely, and left out: ``tabletop bench watcher`` measures the share of such hands read.)"""
    film = simulated_table(2003, players=3, rounds=1, pace=Pace(dropped=1.0))
    shown = [sight for sight in film.script.sights if isinstance(sight.event, Reveal)]
    assert [len(sight.event.cards) for sight in shown] == [5, 2]
    for sight in shown:
        watcher = Watcher(film.layout, model)
        seen = [item for t in np.arange(sight.happened - 3, sight.rest + 0.5, 1 / film.video.fps)
                for item in watcher.observe(film.video.frame(float(t)))]
        (revealed,) = [item for item in seen if isinstance(item, Reveal)]
        assert not Counter(revealed.cards) - Counter(sight.event.cards), (revealed.cards, sight.event.cards)
        if sight is shown[0]:
            assert Counter(revealed.cards) == Counter(sight.event.cards), "the row of five is read whole"


class NothingApart(Doubtful):
    """The real model, but reading no card wherever the watcher takes a card to lie apart and reads it whole: what
    two cards dropped almost one over the other, changing the zone about as one card does, look like to it."""

    def vote(self, looks: Sequence[Look | Image], guesses: int = 3) -> Reading:
        return Reading(None, 0.9, ((None, 0.9),))


def test_an_outline_laid_apart_that_reads_as_no_card_hides_none_of_the_hand() -> None:
    """Two cards dropped almost one over the other change the zone about as one card does, and that outline may
    read as no card: the hand is then read as a heap is, and the card on top is counted, not hidden behind the
    outline that claimed it (the simulator's first dropped hand went unrevealed so)."""
    film = simulated_table(2000, players=2, rounds=1, table="pale", pace=Pace(dropped=1.0))
    sight = next(sight for sight in film.script.sights if isinstance(sight.event, Reveal))
    assert isinstance(sight.event, Reveal) and len(sight.event.cards) == 2
    watcher = Watcher(film.layout, NothingApart())  # type: ignore[arg-type]
    seen = [item for t in np.arange(sight.happened - 3, sight.rest + 0.5, 1 / film.video.fps)
            for item in watcher.observe(film.video.frame(float(t)))]
    (revealed,) = [item for item in seen if isinstance(item, Reveal)]
    assert revealed.cards and not Counter(revealed.cards) - Counter(sight.event.cards), revealed.cards


def test_only_indexes_on_the_cards_the_reveal_zone_saw_laid_are_cards_of_the_hand() -> None:
    """A hand dropped in a heap is read from every index in the zone, whether or not a card read lies over it; a
    mark on the cloth that was there before the hand (a printed corner, a pattern) is not where the zone changed,
    and is no card of it. Near the change counts: a white border on a pale table hardly changes it."""
    changed = np.zeros((100, 200), np.uint8)
    changed[40:60, 50:150] = 255
    revealed = Revealed([], None, 1, (350, 240, 450, 260), changed, (300, 200))  # type: ignore[arg-type]
    assert revealed.on_the_hand(400, 250)
    assert not revealed.on_the_hand(400, 280)
    assert not revealed.on_the_hand(250, 250)
    assert not revealed.on_the_hand(600, 250)
