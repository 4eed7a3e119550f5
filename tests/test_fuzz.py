"""A hostile guest's requests and a careless hand's records, generated: never a 5xx, never a traceback.

Hypothesis drives Flask's test client over every route the scoreboard has, with the credentials a guest could
send (none, wrong ones, a seat's own), odd headers, and bodies from valid events bent out of shape to plain
garbage. ``tabletop replay`` gets records made the same way: it must answer every one with its verdicts (exit
0) or with the line at fault (exit 2), and never raise.
"""

from __future__ import annotations

import itertools
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_web_api import HOST, PIN, RECORD, StillCamera

from tabletop.cli import main
from tabletop.lab.simulate import simulate_game
from tabletop.table import Table
from tabletop.web import WebSettings, create_app, stop_streams
from tabletop.web.access import WAIT_S, PinGuard

EVENTS = [event.to_json() for event in simulate_game(21, players=3).events[:60]]
TYPES = sorted({event["type"] for event in EVENTS} | {"game", "amend", "retract", "unsure", "reveal", "swap"})

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=12)
    | st.sampled_from([10**400, -1, 2**63, "red-5", "wild", "official", "clockwise"]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12)


@st.composite
def bent_events(draw: st.DrawFn) -> Any:
    """An event the table might take, with some of its keys dropped, retyped or added, or something else."""
    if draw(st.integers(0, 5)) == 0:
        return draw(json_values)
    event = dict(draw(st.sampled_from(EVENTS)))
    event["type"] = draw(st.sampled_from([event["type"], *TYPES]))
    for key in draw(st.lists(st.sampled_from([*event, "seat", "t", "ref", "event", "card", "players", "rules",
                                              "guilty", "source", "target", "count", "color"]), max_size=3)):
        if draw(st.booleans()):
            event.pop(key, None)
        else:
            event[key] = draw(json_values)
    return event


def deep(depth: int) -> str:
    return "[" * depth + "]" * depth


AMENDS = '{"type": "amend", "ref": 1, "event": ' * 600 + '{"type": "pass", "seat": 0}' + "}" * 600
"""An amend of an amend of ... 600 deep: valid JSON, and no event (an amend holds no correction)."""

bodies = st.one_of(
    bent_events().map(json.dumps),
    bent_events().map(json.dumps),
    st.sampled_from(EVENTS).map(json.dumps),
    st.lists(bent_events(), max_size=5).map(lambda events: "\n".join(json.dumps(e) for e in events)),
    st.sampled_from([deep(20_000), AMENDS, "9" * 5000, '{"t": NaN}', "\ufeff{}", "", "{", "\x00", "null"]),
    st.binary(max_size=64).map(lambda raw: raw.decode("latin-1")),
)


@pytest.fixture(scope="module")
def app() -> Iterator[Flask]:
    with Table() as table:
        made = create_app(table, WebSettings(pin=PIN, max_body=64 * 1024, keepalive=0.01), camera=StillCamera())
        # A clock that moves a whole wait on at every look: the real guard runs, and never locks the host out.
        made.extensions["tabletop"].guard = PinGuard(clock=itertools.count(step=WAIT_S).__next__)
        yield made
        stop_streams(made)


ACTING = [("POST", "/api/events"), ("POST", "/api/game"), ("POST", "/api/record"), ("PUT", "/api/layout"),
          ("POST", "/api/seats/<int:seat>/claim")]
"""The routes that read a body, asked for more often: that is where a guest's bytes go deepest."""


def routes(app: Flask) -> list[tuple[str, str]]:
    """Every (method, rule) the app serves, static files aside."""
    return sorted((method, rule.rule) for rule in app.url_map.iter_rules() if rule.endpoint != "static"
                  for method in rule.methods - {"HEAD", "OPTIONS"})


def filled(rule: str, number: int) -> str:
    return re.sub(r"<int:\w+>", str(number), rule)


@st.composite
def requests(draw: st.DrawFn, app: Flask, keys: dict[str, str]) -> tuple[str, str, dict[str, str], str | None]:
    """A request to one of the app's routes, mostly with its own method, as the host, a seat or a stranger."""
    method, rule = draw(st.sampled_from(routes(app) + ACTING * 4))
    if draw(st.integers(0, 7)) == 0:
        method = draw(st.sampled_from(["POST", "PUT", "DELETE", "GET"]))
    path = filled(rule, draw(st.integers(0, 3) | st.integers(0, 12) | st.sampled_from([10**30, 2**63])))
    if draw(st.integers(0, 3)) == 0:
        path += "?" + draw(st.sampled_from(["download=1", "ticket=x", "pin=2468", "ticket=" + "a" * 5000]))
    text = st.text(st.characters(min_codepoint=32, max_codepoint=255), max_size=20)
    headers = draw(st.sampled_from([{}, HOST, {"X-Host-Pass": keys["pass"]}, {"X-Seat-Token": keys["seat"]},
                                    {"X-Host-Pin": "0000"}]))
    if draw(st.integers(0, 3)) == 0:
        headers = headers | draw(st.fixed_dictionaries({}, optional={
            "X-Host-Pass": text, "X-Seat-Token": text, "Last-Event-ID": text | st.just("9" * 40),
            "Content-Type": st.sampled_from(["application/json", "text/plain", "application/x-ndjson"])}))
    return method, path, headers, None if draw(st.integers(0, 7)) == 0 else draw(bodies)


def test_no_request_from_a_guest_or_the_host_gets_a_5xx(app: Flask) -> None:
    client = app.test_client()
    assert client.post("/api/record", data="\n".join(json.dumps(e) for e in RECORD), headers=HOST).status_code == 201
    code = client.post("/api/seats/1/invite", headers=HOST).get_json()["url"].split("#join=")[1]
    keys = {"pass": client.post("/api/host/check", headers=HOST).get_json()["host_pass"],
            "seat": client.post("/api/seats/1/claim", json={"code": code}).get_json()["token"]}

    @settings(max_examples=800, deadline=None, suppress_health_check=list(HealthCheck))
    @given(requests(app, keys))
    def asks(request: tuple[str, str, dict[str, str], str | None]) -> None:
        method, path, headers, body = request
        response = client.open(path, method=method, headers=headers, data=body, buffered=False)
        try:
            assert response.status_code < 500, (method, path, headers, body, response.get_data()[:300])
        finally:
            response.close()

    asks()


def records() -> st.SearchStrategy[str]:
    lines = st.one_of(bent_events().map(json.dumps),
                      st.sampled_from(["", "   ", "{", "[]", deep(5000), "1e999", AMENDS]))
    return st.lists(lines, max_size=12).map(lambda rows: "\n".join([json.dumps(EVENTS[0]), *rows]) + "\n")


def test_replay_answers_every_record_with_its_verdicts_or_the_line_at_fault(tmp_path: Path,
                                                                           capsys: pytest.CaptureFixture[str]
                                                                           ) -> None:
    record = tmp_path / "record.jsonl"

    @settings(max_examples=400, deadline=None, suppress_health_check=list(HealthCheck))
    @given(records() | st.binary(max_size=200).map(lambda raw: raw.decode("latin-1")))
    def replays(text: str) -> None:
        record.write_bytes(text.encode("latin-1", "replace") if text.isascii() else text.encode("utf-8"))
        code = main(["replay", str(record)])
        out, err = capsys.readouterr()
        assert code in (0, 2), (text, err)
        if code == 2:
            assert re.search(r"line \d+|empty|not UTF-8", err), (text, err)
            assert "Traceback" not in err
        else:
            assert json.loads(out.splitlines()[-1])["type"] == "state"

    replays()
