"""The scoreboard's HTTP interface through Flask's test client: what phones and the host can and cannot do."""

from __future__ import annotations

import itertools
import json
import re
from collections.abc import Iterator
from typing import Any

import cv2
import numpy as np
import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from scanning import scan

from tabletop.game.board import penalty_words
from tabletop.game.cards import Card
from tabletop.game.events import Evidence, Penalty, PenaltyReason, Play, event_from_json
from tabletop.sources import Frame
from tabletop.table import Table
from tabletop.watcher.layout import Circle, Layout, Rect, layout_to_json
from tabletop.web import (
    ADDRESS_BURST,
    ADDRESS_RATE,
    SEAT_BURST,
    SEAT_RATE,
    WebSettings,
    create_app,
    scoreboard_of,
    stop_streams,
)
from tabletop.web.access import ADDRESS_GUESSES, ADDRESS_WINDOW_S, Passes, PinGuard
from tabletop.web.feed import Feed
from tabletop.web.pace import Pace

PIN = "2468"
HOST = {"X-Host-Pin": PIN}
RECORD = [
    {"type": "game", "players": ["Ann", "Bo", "Cy"], "rules": {"preset": "official"}},
    {"type": "deal", "dealer": 2},
    {"type": "flip", "card": "red-5"},
    {"type": "play", "card": "red-9", "seat": 0},
]


class StillCamera:
    """A camera that always shows the same grey table: enough for the preview and the zones."""

    size = (640, 480)
    problem: str | None = None

    def __init__(self) -> None:
        self.layout = Layout(discard=Circle((380.0, 240.0), 60.0), draw=Circle((260.0, 240.0), 60.0),
                             reveal=Rect(200.0, 330.0, 440.0, 450.0), centre=(320.0, 240.0),
                             seats=(0.0, 120.0, 240.0), card_height=90.0)
        self.frame = Frame(np.full((480, 640, 3), 90, np.uint8), 0.0)

    def move_zones(self, layout: Layout) -> None:
        self.layout = layout


@pytest.fixture
def table() -> Iterator[Table]:
    with Table() as running:
        yield running


@pytest.fixture
def app(table: Table) -> Iterator[Flask]:
    made = create_app(table, WebSettings(pin=PIN, max_body=8 * 1024, keepalive=0.05), camera=StillCamera())
    made.config["TESTING"] = True
    yield made
    stop_streams(made)


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


def post(client: FlaskClient, event: dict[str, Any], headers: dict[str, str] | None = None) -> Any:
    return client.post("/api/events", json=event, headers=headers if headers is not None else HOST)


def start(client: FlaskClient, record: list[dict[str, Any]] = RECORD) -> None:
    response = client.post("/api/record", data="\n".join(json.dumps(e) for e in record), headers=HOST)
    assert response.status_code == 201, response.get_json()


def invite(client: FlaskClient, seat: int) -> str:
    """A join code for ``seat`` from the host."""
    response = client.post(f"/api/seats/{seat}/invite", headers=HOST)
    assert response.status_code == 200
    return str(response.get_json()["url"]).split("#join=")[1]


def claim(client: FlaskClient, seat: int, code: str | None = None) -> dict[str, str]:
    response = client.post(f"/api/seats/{seat}/claim", json={"code": code or invite(client, seat)})
    assert response.status_code == 200
    return {"X-Seat-Token": response.get_json()["token"]}


def test_before_a_game_the_board_waits_and_there_is_no_state(client: FlaskClient) -> None:
    assert client.get("/api/view").get_json()["game"] is False
    response = client.get("/api/state")
    assert response.status_code == 404
    assert "no game" in response.get_json()["error"]
    assert post(client, {"type": "deal", "dealer": 0}).status_code == 409


def test_the_host_starts_a_game_with_players_and_rules(client: FlaskClient) -> None:
    response = client.post("/api/game", json={"players": ["Ann", "Bo"], "rules": {"preset": "party",
                                                                                  "hand_size": 5}}, headers=HOST)
    assert response.status_code == 201
    view = response.get_json()
    assert view["players"] == ["Ann", "Bo"]
    assert client.get("/api/state").get_json()["turn"] is None
    first = client.get("/api/record").data.decode().splitlines()[0]
    assert json.loads(first)["rules"] == {"preset": "party", "hand_size": 5}


@pytest.mark.parametrize(("body", "status", "words"), [
    ({"players": ["Ann"]}, 400, "2 to 10"),
    ({"players": ["Ann", "Bo"], "rules": {"preset": "house"}}, 400, "unknown preset"),
    ({"players": ["Ann", "Bo"], "rules": {"hand_size": 99}}, 400, "hand_size"),
    (["Ann", "Bo"], 400, "'players' and 'rules'"),
])
def test_a_bad_new_game_is_refused_with_the_reason(client: FlaskClient, body: Any, status: int, words: str) -> None:
    response = client.post("/api/game", json=body, headers=HOST)
    assert response.status_code == status
    assert words in response.get_json()["error"]
    assert client.get("/api/view").get_json()["game"] is False


@pytest.mark.parametrize(("headers", "status"), [({}, 401), ({"X-Host-Pin": "1111"}, 403)])
def test_host_actions_need_the_right_pin(client: FlaskClient, headers: dict[str, str], status: int) -> None:
    assert client.post("/api/game", json={"players": ["Ann", "Bo"]}, headers=headers).status_code == status
    assert client.post("/api/host/check", headers=headers).status_code == status
    assert client.get("/api/layout", headers=headers).status_code == status
    assert client.post("/api/host/check", headers=HOST).status_code == 200


def test_a_phone_that_keeps_guessing_the_pin_must_wait(app: Flask, client: FlaskClient) -> None:
    now = [100.0]
    app.extensions["tabletop"].guard = PinGuard(clock=lambda: now[0])
    guesser, host = {"REMOTE_ADDR": "192.168.1.31"}, {"REMOTE_ADDR": "192.168.1.20"}
    for guess in ("0000", "1111", "1234", "9999", "4321"):
        assert client.post("/api/host/check", headers={"X-Host-Pin": guess}, environ_base=guesser).status_code == 403
    refused = client.post("/api/host/check", headers=HOST, environ_base=guesser)
    assert refused.status_code == 429
    assert refused.get_json()["error"] == "too many wrong PINs from this phone: try again in 60 s"
    assert client.post("/api/host/check", headers=HOST, environ_base=host).status_code == 200
    now[0] += 60
    assert client.post("/api/host/check", headers=HOST, environ_base=guesser).status_code == 200


def test_a_host_not_yet_signed_in_never_waits_for_a_guest_guessing_from_the_same_address(
        app: Flask, client: FlaskClient) -> None:
    """Behind one router the host's phone and a guest's share an address: each browser spends its own tries."""
    now = [100.0]
    app.extensions["tabletop"].guard = PinGuard(clock=lambda: now[0])
    shared = {"REMOTE_ADDR": "192.168.1.1"}
    guest = {"X-Host-Device": "guest"}
    for guess in ("0000", "1111", "1234", "9999", "4321", "5555"):
        client.post("/api/host/check", headers={**guest, "X-Host-Pin": guess}, environ_base=shared)
    assert client.post("/api/host/check", headers={**HOST, **guest}, environ_base=shared).status_code == 429
    host = client.post("/api/host/check", headers={**HOST, "X-Host-Device": "host"}, environ_base=shared)
    assert host.status_code == 200 and host.get_json()["host_pass"]


def test_a_guest_who_names_every_guess_anew_still_meets_the_address_s_count(app: Flask, client: FlaskClient) -> None:
    now = [100.0]
    app.extensions["tabletop"].guard = PinGuard(clock=lambda: now[0])
    guesser = {"REMOTE_ADDR": "192.168.1.31"}
    for guess in range(ADDRESS_GUESSES):
        now[0] += 1
        answer = client.post("/api/host/check", headers={"X-Host-Pin": f"{guess:04d}x", "X-Host-Device": str(guess)},
                             environ_base=guesser)
        assert answer.status_code == 403
    refused = client.post("/api/host/check", headers={**HOST, "X-Host-Device": "new"}, environ_base=guesser)
    assert refused.status_code == 429 and "try again in 3571 s" in refused.get_json()["error"]
    now[0] += ADDRESS_WINDOW_S
    later = client.post("/api/host/check", headers={**HOST, "X-Host-Device": "new"}, environ_base=guesser)
    assert later.status_code == 200


def test_a_host_who_is_in_cannot_be_shut_out_by_guesses_from_the_same_address(client: FlaskClient) -> None:
    shared = {"REMOTE_ADDR": "192.168.1.20"}
    host_pass = client.post("/api/host/check", headers=HOST, environ_base=shared).get_json()["host_pass"]
    for guess in ("0000", "1111", "1234", "9999", "4321", "5555"):
        client.post("/api/host/check", headers={"X-Host-Pin": guess}, environ_base=shared)
    assert client.post("/api/host/check", headers=HOST, environ_base=shared).status_code == 429
    assert post(client, RECORD[0], {"X-Host-Pass": host_pass}).status_code == 201
    assert client.get("/api/layout", headers={"X-Host-Pass": host_pass}, environ_base=shared).status_code == 200
    assert client.get("/api/layout", headers={"X-Host-Pass": "made-up"}).status_code == 403


def test_the_camera_preview_opens_with_a_single_use_ticket_not_the_pin(client: FlaskClient) -> None:
    assert client.get(f"/camera.mjpg?pin={PIN}").status_code == 403
    assert client.post("/api/camera/ticket").status_code == 401
    url = client.post("/api/camera/ticket", headers=HOST).get_json()["url"]
    assert PIN not in url
    preview = client.get(url, buffered=False)
    assert preview.status_code == 200
    preview.close()
    assert client.get(url).status_code == 403


def test_a_seat_posts_its_own_calls_and_the_referee_hears_them(client: FlaskClient) -> None:
    start(client)
    bo = claim(client, 1)
    response = post(client, {"type": "draw"}, bo)
    assert response.status_code == 201
    assert response.get_json()["state"]["hands"] == [6, 8, 7]
    last = json.loads(client.get("/api/record").data.decode().splitlines()[-1])
    assert last == {"type": "draw", "seat": 1, "t": last["t"], "source": "phone"}


class Clock:
    """The scoreboard's clock, moved by the test."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_a_seat_that_floods_is_told_to_wait_and_the_others_play_on(app: Flask, client: FlaskClient) -> None:
    """One seat's phone posting twenty times a second for three minutes gets no more into the game than the
    pace allows (a player's few taps a turn never meet it), is told with a 429 how long to wait, and the other
    seats and the host post as before."""
    clock = Clock()
    board = scoreboard_of(app)
    board.seat_posts, board.address_posts = Pace(SEAT_BURST, SEAT_RATE, clock), Pace(ADDRESS_BURST, ADDRESS_RATE, clock)
    start(client)
    bo, cy = claim(client, 1), claim(client, 2)
    posts = itertools.cycle([{"type": "draw"}, {"type": "uno", "seat": 1}, {"type": "catch", "seat": 1, "target": 0}])
    answers = []
    for _ in range(180 * 20):
        clock.now += 0.05
        answers.append(client.post("/api/events", json=next(posts), headers=bo,
                                   environ_base={"REMOTE_ADDR": "10.0.0.2"}))
    accepted = sum(answer.status_code == 201 for answer in answers)
    assert accepted <= SEAT_BURST + 180 * SEAT_RATE
    assert len(client.get("/api/record").data.decode().splitlines()) == len(RECORD) + accepted
    waited = next(answer for answer in answers if answer.status_code == 429)
    assert "too many posts from Bo's seat: wait 1 s" in waited.get_json()["error"]
    assert waited.headers["Retry-After"] == "1"
    assert client.post("/api/events", json={"type": "uno", "seat": 2}, headers=cy,
                       environ_base={"REMOTE_ADDR": "10.0.0.3"}).status_code == 201
    assert post(client, {"type": "draw", "seat": 0}).status_code == 201


@pytest.mark.parametrize(("event", "words"), [
    ({"type": "pass"}, "it is not this seat's turn"),
    ({"type": "color", "color": "red"}, "no wild on the pile waiting for its colour"),
])
def test_a_seat_s_post_that_would_change_nothing_is_refused_not_kept(client: FlaskClient, event: dict[str, Any],
                                                                     words: str) -> None:
    start(client)
    response = post(client, event, claim(client, 2))
    assert response.status_code == 409 and words in response.get_json()["error"]
    assert len(client.get("/api/record").data.decode().splitlines()) == len(RECORD)


def test_a_call_tapped_twice_is_kept_once(client: FlaskClient) -> None:
    start(client)
    bo = claim(client, 1)
    assert post(client, {"type": "uno", "seat": 1}, bo).status_code == 201
    again = post(client, {"type": "uno", "seat": 1}, bo)
    assert again.status_code == 409 and "already the last line of the record" in again.get_json()["error"]
    assert len(client.get("/api/record").data.decode().splitlines()) == len(RECORD) + 1
    assert post(client, {"type": "draw"}, bo).status_code == 201
    assert post(client, {"type": "draw"}, bo).status_code == 201, "a player may draw card after card"


@pytest.mark.parametrize(("event", "words"), [
    ({"type": "uno", "seat": 0}, "holds seat 1, not seat 0"),
    ({"type": "deal", "dealer": 1}, "only the host"),
    ({"type": "play", "card": "red-1", "seat": 1}, "only the host"),
    ({"type": "challenge", "seat": 1, "guilty": True}, "only the host or a reveal decides"),
    ({"type": "challenge", "seat": 1, "guilty": False}, "only the host or a reveal decides"),
])
def test_a_seat_cannot_act_for_others_or_as_the_host(client: FlaskClient, event: dict[str, Any], words: str) -> None:
    start(client)
    response = post(client, event, claim(client, 1))
    assert response.status_code == 403
    assert words in response.get_json()["error"]
    assert len(client.get("/api/record").data.decode().splitlines()) == len(RECORD)


def test_a_phone_s_clock_does_not_set_the_table_s(client: FlaskClient) -> None:
    start(client)
    assert post(client, {"type": "uno", "seat": 1, "t": 9e9}, claim(client, 1)).status_code == 201
    last = json.loads(client.get("/api/record").data.decode().splitlines()[-1])
    assert last["type"] == "uno" and last["t"] < 60


def test_a_token_that_is_not_ascii_is_refused_not_a_crash(client: FlaskClient) -> None:
    start(client)
    claim(client, 1)
    response = post(client, {"type": "uno", "seat": 1}, {"X-Seat-Token": "\u00e9t\u00e9"})
    assert response.status_code == 403
    assert len(client.get("/api/record").data.decode().splitlines()) == len(RECORD)


@pytest.mark.parametrize("last_seen", ["\u00b2", "9" * 5000, "-3"])
def test_a_stream_resumed_from_a_nonsense_id_starts_with_the_whole_picture(app: Flask, client: FlaskClient,
                                                                           last_seen: str) -> None:
    start(client)
    (_, kind1, state), (_, kind2, _) = read_messages(app, {"Last-Event-ID": last_seen}, 2)
    assert (kind1, state["type"], kind2) == (None, "state", "view")


def test_a_seat_claimed_again_or_a_new_game_makes_the_old_phone_stale(client: FlaskClient) -> None:
    start(client)
    old = claim(client, 1)
    new = claim(client, 1)
    assert post(client, {"type": "uno", "seat": 1}, old).status_code == 403
    assert post(client, {"type": "uno", "seat": 1}, new).status_code == 201
    start(client)
    response = post(client, {"type": "uno", "seat": 1}, new)
    assert response.status_code == 403
    assert "scan the seat's code again" in response.get_json()["error"]
    assert client.get("/api/seats").get_json()[1] == {"seat": 1, "name": "Bo", "claimed": False}


def test_unknown_seats_are_refused(client: FlaskClient) -> None:
    start(client)
    assert client.post("/api/seats/7/claim").status_code == 404
    response = post(client, {"type": "uno", "seat": 7})
    assert response.status_code == 409
    assert "seats 0 to 2" in response.get_json()["error"]
    assert client.get("/seat/7").status_code == 404


@pytest.mark.parametrize(("body", "status", "words"), [
    (b"{not json", 400, "not valid JSON"),
    (b"", 400, "no body"),
    (b'{"type": "play", "card": "purple-3"}', 400, "unknown card"),
    (b'{"type": "teleport"}', 400, "not a valid event"),
    (b'[1, 2]', 400, "not a valid event"),
    (b'{"type": []}', 400, "not a valid event"),
    (b"[" * 3000 + b"]" * 3000, 400, "nested too deeply"),
    (b'{"type": "draw", "count": ' + b"7" * 4301 + b"}", 400, "not valid JSON"),
    (b'{"type": "uno", "seat": 0, "t": NaN}', 400, "'t' must be a number of seconds"),
    (b'{"type": "uno", "seat": 0, "t": 1' + b"0" * 400 + b"}", 400, "'t' must be a number of seconds"),
    (b'{"type": "play", "card": "red-1", "seat": 0}' + b" " * 9000, 413, "too large"),
])
def test_malformed_requests_are_refused_and_change_nothing(client: FlaskClient, body: bytes, status: int,
                                                            words: str) -> None:
    start(client)
    response = client.post("/api/events", data=body, headers={**HOST, "Content-Type": "application/json"})
    assert response.status_code == status
    assert words in response.get_json()["error"]
    assert len(client.get("/api/record").data.decode().splitlines()) == len(RECORD)


def test_a_wrong_method_is_a_json_refusal(client: FlaskClient) -> None:
    response = client.get("/api/events")
    assert response.status_code == 405
    assert "GET" in response.get_json()["error"]


def test_the_record_exports_and_imports_whole(client: FlaskClient) -> None:
    start(client)
    exported = client.get("/api/record?download=1")
    assert "game.jsonl" in exported.headers["Content-Disposition"]
    lines = exported.data.decode().splitlines()
    assert [json.loads(line)["type"] for line in lines] == ["game", "deal", "flip", "play"]
    client.post("/api/game", json={"players": ["X", "Y"]}, headers=HOST)
    assert client.post("/api/record", data=exported.data, headers=HOST).status_code == 201
    assert client.get("/api/state").get_json()["top"] == "red-9"


def test_an_import_with_a_bad_line_names_it_and_keeps_the_game(client: FlaskClient) -> None:
    start(client)
    broken = "\n".join([json.dumps(RECORD[0]), json.dumps(RECORD[1]), '{"type": "play", "card": "red-99"}'])
    response = client.post("/api/record", data=broken, headers=HOST)
    assert response.status_code == 400
    assert "line 3" in response.get_json()["error"]
    assert client.get("/api/state").get_json()["top"] == "red-9"


def test_a_host_correction_changes_the_board_at_once(client: FlaskClient) -> None:
    start(client)
    unsure = post(client, {"type": "unsure", "guesses": [["red-1", 0.47], ["red-7", 0.4]], "seat": 1})
    ref = unsure.get_json()["ref"]
    view = client.get("/api/view").get_json()
    assert view["unsure"] == [{"ref": ref, "seat": 1, "flip": False, "guesses": [["red-1", 0.47], ["red-7", 0.4]]}]
    fixed = post(client, {"type": "amend", "ref": ref, "event": {"type": "play", "card": "red-7", "seat": 1}})
    assert fixed.status_code == 201
    view = client.get("/api/view").get_json()
    assert (view["top"], view["turn"], view["unsure"]) == ("red-7", 2, [])
    post(client, {"type": "retract", "ref": ref})
    assert client.get("/api/view").get_json()["top"] == "red-9"


def test_penalties_reach_the_board_as_codes_and_the_terminal_in_words(client: FlaskClient) -> None:
    """The pages put a penalty in their own language (test_browser.py); the demo's terminal says it in English."""
    start(client, [RECORD[0], {"type": "deal", "dealer": 2}, {"type": "flip", "card": "red-5"},
                   {"type": "play", "card": "blue-9", "seat": 0}])
    view = client.get("/api/view").get_json()
    assert view["penalties"] == [{"type": "penalty", "seat": 0, "cards": 0, "reason": "illegal-play", "ref": 3}]
    penalty = Penalty(0, 0, PenaltyReason.ILLEGAL_PLAY, 3)
    assert penalty_words(penalty, ("Ann", "Bo", "Cy")) == "Ann played a card that does not match: a warning"


def test_the_rules_list_every_option_with_its_kind(client: FlaskClient) -> None:
    rules = client.get("/api/rules").get_json()
    assert set(rules["presets"]) == {"official", "stacking", "party", "eastern"}
    options = {o["name"]: o for o in rules["options"]}
    assert options["hand_size"] == {"name": "hand_size", "kind": "int", "min": 2, "max": 20, "default": 7}
    assert options["jump_in"]["kind"] == "bool"
    assert "until-playable" in options["draw"]["choices"]
    cards = client.get("/api/cards").get_json()
    assert len(cards) == 57 and {"wild-shuffle-hands", "wild-swap-hands", "wild-customizable"} <= set(cards)


def read_messages(app: Flask, headers: dict[str, str], count: int) -> list[tuple[str, str | None, Any]]:
    """The first ``count`` messages of a fresh stream: (id, event name, data)."""
    response = app.test_client().get("/api/stream", headers=headers, buffered=False)
    text, messages = "", []
    for chunk in itertools.islice(response.response, 200):
        text += chunk.decode()
        while "\n\n" in text:
            block, text = text.split("\n\n", 1)
            fields = dict(line.split(": ", 1) for line in block.splitlines() if not line.startswith((":", "retry")))
            if "data" in fields:
                messages.append((fields["id"], fields.get("event"), json.loads(fields["data"])))
        if len(messages) >= count:
            break
    response.close()
    return messages


def test_the_stream_starts_with_the_whole_picture(app: Flask, client: FlaskClient) -> None:
    start(client)
    (_, kind1, state), (_, kind2, view) = read_messages(app, {}, 2)
    assert (kind1, state["type"], state["top"]) == (None, "state", "red-9")
    assert (kind2, view["players"]) == ("view", ["Ann", "Bo", "Cy"])


def test_a_phone_that_reconnects_gets_every_call_it_missed_and_the_board_as_it_is_now(
        app: Flask, client: FlaskClient) -> None:
    start(client)
    last_seen = read_messages(app, {}, 2)[-1][0]
    post(client, {"type": "play", "card": "blue-3", "seat": 1})
    post(client, {"type": "play", "card": "blue-2", "seat": 2})
    missed = read_messages(app, {"Last-Event-ID": last_seen}, 4)
    assert [int(m[0]) for m in missed] == sorted(int(m[0]) for m in missed)
    assert all(int(m[0]) > int(last_seen) for m in missed)
    assert [(kind, data["type"]) for _, kind, data in missed[:3]] == [(None, "penalty"), (None, "state"),
                                                                       (None, "state")]
    assert missed[0][2] == {"type": "penalty", "seat": 1, "cards": 0, "reason": "illegal-play", "ref": 4}
    assert missed[3][1] == "view"
    assert missed[3][2]["top"] == "blue-2"
    assert missed[3][2]["alerts"] == []


def test_a_phone_away_longer_than_the_kept_history_gets_the_whole_picture() -> None:
    with Table() as table:
        table.restart([event_from_json(line) for line in RECORD])
        feed = Feed(table.snapshot, kept=2)
        table.subscribe(feed.update)
        first = feed.last
        for card in ("red-2", "red-4", "red-6"):
            table.submit(event_from_json({"type": "play", "card": card, "seat": 1}))
        assert [(m.kind, json.loads(m.data).get("top")) for m in feed.since(first)] == [
            (None, "red-6"), ("view", "red-6")]
        recent = feed.last - 3
        assert [m.id for m in feed.since(recent)] == [recent + 1, recent + 2, recent + 3]


def scanned(svg: str) -> str:
    """What a phone's camera reads from one of our QR codes: the SVG's dark runs drawn and decoded."""
    size = int(re.search(r'viewBox="0 0 (\d+) ', svg).group(1))  # type: ignore[union-attr]
    modules = np.zeros((size, size), bool)
    for x, y, run in re.findall(r"M(\d+) (\d+)h(\d+)", svg):
        modules[int(y), int(x):int(x) + int(run)] = True
    return scan(np.where(np.kron(modules, np.ones((8, 8))) > 0, 0, 255).astype(np.uint8))


def test_the_table_shows_a_free_seat_s_code_which_claims_it_once(client: FlaskClient) -> None:
    start(client)
    svg = client.get("/qr/seat/1.svg", base_url="http://192.168.1.20:8000")
    assert svg.mimetype == "image/svg+xml"
    url = scanned(svg.data.decode())
    assert url.startswith("http://192.168.1.20:8000/seat/1#join=")
    code = url.split("#join=")[1]
    assert code in client.get("/join").data.decode()
    claim(client, 1, code)
    assert client.get("/qr/seat/1.svg").status_code == 404
    assert code not in client.get("/join").data.decode()
    again = client.post("/api/seats/1/claim", json={"code": code})
    assert again.status_code == 403
    assert "ask the host for a new code" in again.get_json()["error"]


@pytest.mark.parametrize(("body", "status"), [(None, 400), ({}, 400), ({"code": 7}, 400), ({"code": "guess"}, 403)])
def test_a_seat_is_never_claimed_without_its_code(client: FlaskClient, body: Any, status: int) -> None:
    start(client)
    response = client.post("/api/seats/1/claim", json=body)
    assert response.status_code == status
    assert client.get("/api/seats").get_json()[1]["claimed"] is False


def test_taking_over_a_held_seat_needs_a_code_from_the_host(client: FlaskClient) -> None:
    start(client)
    table_code = scanned(client.get("/qr/seat/1.svg").data.decode()).split("#join=")[1]
    first = claim(client, 1, table_code)
    assert client.post("/api/seats/1/invite").status_code == 401
    moved = claim(client, 1, invite(client, 1))
    assert post(client, {"type": "uno", "seat": 1}, first).status_code == 403
    assert post(client, {"type": "uno", "seat": 1}, moved).status_code == 201


def test_the_pages_are_served(client: FlaskClient) -> None:
    start(client)
    for page in ("/", "/seat/1", "/host", "/join"):
        response = client.get(page)
        assert response.status_code == 200, page
        assert b"<html" in response.data


def test_the_camera_preview_and_zones_need_the_pin(client: FlaskClient) -> None:
    assert client.get("/camera.mjpg").status_code == 403
    preview = client.get(client.post("/api/camera/ticket", headers=HOST).get_json()["url"], buffered=False)
    first = next(iter(preview.response))
    preview.close()
    assert first.startswith(b"--frame\r\nContent-Type: image/jpeg")
    assert b"\xff\xd8" in first
    layout = client.get("/api/layout", headers=HOST).get_json()
    assert (layout["width"], layout["height"]) == (640, 480)


def test_the_host_moves_the_zones(client: FlaskClient) -> None:
    start(client)
    layout = client.get("/api/layout", headers=HOST).get_json()["layout"]
    layout["discard"]["centre"] = [400, 250]
    moved = client.put("/api/layout", json=layout, headers=HOST)
    assert moved.status_code == 200
    assert moved.get_json()["layout"]["discard"]["centre"] == [400, 250]
    layout["seats"] = [0, 180]
    refused = client.put("/api/layout", json=layout, headers=HOST)
    assert refused.status_code == 400
    assert "3 seat angles" in refused.get_json()["error"]
    del layout["draw"]
    assert "draw: missing" in client.put("/api/layout", json=layout, headers=HOST).get_json()["error"]


EVENT_TYPES = ["game", "deal", "flip", "play", "color", "unsure", "draw", "pass", "uno", "catch", "challenge",
               "reveal", "points", "swap", "end", "retract", "amend", "nonsense"]
JSONISH = st.recursive(st.none() | st.booleans() | st.integers(-3, 12) | st.floats(allow_nan=True)
                       | st.sampled_from(["red-1", "wild", "red", "blue-skip", "x", ""]),
                       lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner,
                                                                                    max_size=3), max_leaves=6)
BODIES = st.fixed_dictionaries({"type": st.sampled_from(EVENT_TYPES)}, optional={
    key: JSONISH for key in ("seat", "card", "color", "count", "target", "ref", "event", "guesses", "cards",
                             "points", "with", "dealer", "players", "rules", "guilty")})


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(body=BODIES | JSONISH)
def test_any_body_is_recorded_whole_or_refused_with_a_message(client: FlaskClient, body: Any) -> None:
    start(client)
    before = client.get("/api/record").data
    response = client.post("/api/events", data=json.dumps(body), headers={**HOST,
                                                                         "Content-Type": "application/json"})
    after = client.get("/api/record").data
    if response.status_code == 201:
        lines = 1 if body["type"] == "game" else before.count(b"\n") + 1
        assert after.count(b"\n") == lines
    else:
        assert 400 <= response.status_code < 500
        assert isinstance(response.get_json()["error"], str)
        assert after == before


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(body=BODIES)
def test_a_seat_never_gets_past_its_own_calls(client: FlaskClient, body: dict[str, Any]) -> None:
    start(client)
    token = claim(client, 1)
    before = client.get("/api/record").data
    response = client.post("/api/events", data=json.dumps(body), headers={**token,
                                                                          "Content-Type": "application/json"})
    if response.status_code == 201:
        recorded = json.loads(client.get("/api/record").data.decode().splitlines()[-1])
        assert recorded["type"] in ("uno", "draw", "pass", "color", "challenge", "catch")
        assert (recorded["seat"], recorded["source"]) == (1, "phone")
    else:
        assert client.get("/api/record").data == before


def test_layout_json_round_trips_through_the_api(client: FlaskClient) -> None:
    camera = StillCamera()
    assert client.get("/api/layout", headers=HOST).get_json()["layout"] == json.loads(
        json.dumps(layout_to_json(camera.layout)))


def test_the_view_carries_the_recent_lines_and_the_whole_record_is_a_request_away(client: FlaskClient) -> None:
    start(client)
    for _ in range(70):
        post(client, {"type": "uno", "seat": 0})
    view = client.get("/api/view").get_json()
    assert view["lines"] == len(RECORD) + 70
    assert [line["ref"] for line in view["record"]] == list(range(view["lines"] - 60, view["lines"]))
    whole = client.get("/api/lines").get_json()
    assert [line["ref"] for line in whole] == list(range(view["lines"]))
    assert whole[1]["event"] == {"type": "deal", "dealer": 2}
    assert view["next_dealer"] == 0


def test_a_preview_ticket_left_unused_expires() -> None:
    now = [0.0]
    tickets = Passes(4, lasting=30.0, single_use=True, clock=lambda: now[0])
    early, late = tickets.make(), tickets.make()
    assert tickets.valid(early) and not tickets.valid(early)
    now[0] = 31.0
    assert not tickets.valid(late)


def test_an_amend_of_amends_hundreds_deep_is_refused_by_name(table: Table) -> None:
    """Well within the body limit, yet deep enough to have run the reader past Python's recursion limit."""
    deep = '{"type": "amend", "ref": 1, "event": ' * 600 + '{"type": "pass", "seat": 0}' + "}" * 600
    made = create_app(table, WebSettings(pin=PIN))
    response = made.test_client().post("/api/events", data=deep, headers={**HOST, "Content-Type": "application/json"})
    stop_streams(made)
    assert response.status_code == 400
    assert "a correction cannot hold another correction" in response.get_json()["error"]


def test_a_card_the_camera_read_shows_its_picture_and_how_sure_it_was(client: FlaskClient, table: Table) -> None:
    start(client)
    jpeg = cv2.imencode(".jpg", np.full((144, 96, 3), 200, np.uint8))[1].tobytes()
    seen = Evidence(jpeg, 0.71, ((Card.from_name("red-7"), 0.71), (Card.from_name("red-1"), 0.2)))
    table.submit(Play(card=Card.from_name("red-7"), seat=1, source="camera", evidence=seen))
    response = client.get("/api/pictures/4")
    assert response.status_code == 200 and response.mimetype == "image/jpeg" and response.data == jpeg
    view = client.get("/api/view").get_json()
    assert view["top_line"] == {"ref": 4, "card": "red-7",
                                "seen": {"confidence": 0.71, "guesses": [["red-7", 0.71], ["red-1", 0.2]]}}
    assert view["record"][-1]["seen"]["confidence"] == 0.71
    assert "seen" not in view["record"][-2]
    assert b"red-7" in client.get("/api/record").data and jpeg not in client.get("/api/record").data
    for ref in (3, 99):
        missing = client.get(f"/api/pictures/{ref}")
        assert missing.status_code == 404 and "no card the camera read" in missing.get_json()["error"]
