"""The JSON interface of docs/record.md and what the pages need: reading snapshots, posting events.

Every refusal is a 4xx with ``{"error": ...}`` in words a person can act on, and nothing is half applied: an
event either goes whole into the table's queue or not at all.
"""

from __future__ import annotations

import dataclasses
import itertools
import json
import math
from typing import Any, NoReturn

from flask import Blueprint, Response, abort, current_app, jsonify, make_response, request, url_for
from werkzeug.exceptions import HTTPException

from tabletop.errors import LayoutError, RecordError, TabletopError
from tabletop.game.board import record_lines
from tabletop.game.cards import ALL_CARDS
from tabletop.game.events import Challenge, Event, event_from_json
from tabletop.game.record import read_record, renumbered, write_record
from tabletop.game.rules import CHOICES, PRESETS, Options
from tabletop.table import Applied
from tabletop.watcher.layout import layout_from_json, layout_to_json
from tabletop.web import scoreboard
from tabletop.web.camera import BOUNDARY, CameraView, mjpeg
from tabletop.web.feed import Feed
from tabletop.web.gate import Body, Gate
from tabletop.web.pace import Pace
from tabletop.web.pointless import pointless
from tabletop.web.qr import qr_svg

blueprint = Blueprint("api", __name__)

SEAT_EVENTS = ("uno", "draw", "pass", "color", "challenge", "catch")
"""What a player may post for their own seat; everything else is the host's."""


BUSY_RETRY_S = 30
"""Seconds a phone refused a live stream waits before asking again; it reads the board meanwhile."""


def refuse(status: int, message: str, headers: dict[str, str] | None = None) -> NoReturn:
    abort(make_response(jsonify(error=message), status, headers or {}))


def asking_address() -> str:
    return request.remote_addr or "unknown"


def _enter(gate: Gate, what: str) -> str:
    """Take a place at ``gate`` for the asking phone, or answer 503 (with when to ask again); the address."""
    address = asking_address()
    if not gate.enter(address):
        refuse(503, f"too many {what} are open (at most {gate.total}, {gate.each} from one phone): close one, or "
                    f"try again in {BUSY_RETRY_S} s", {"Retry-After": str(BUSY_RETRY_S)})
    return address


@blueprint.app_errorhandler(HTTPException)
def _as_json(err: HTTPException) -> Response | HTTPException:
    """Refusals of the API come back as JSON; pages keep Flask's own error pages."""
    if not request.path.startswith("/api/"):
        return err
    response = make_response(jsonify(error=_plain(err)), err.code or 500)
    return response


@blueprint.app_errorhandler(Exception)
def _unexpected(err: Exception) -> tuple[Response, int]:
    """Whatever no check foresaw: one line in the log, and a plain answer without a traceback, on every path.

    A bug still, but one that a guest sees as a sentence and the host finds in the journal."""
    current_app.logger.error("web: %s %s failed: %r", request.method, request.path, err)
    return jsonify(error="the scoreboard failed on this request; the game goes on, and the log says why"), 500


def _plain(err: HTTPException) -> str:
    if err.code == 413:
        return f"the request is too large (at most {scoreboard().settings.max_body // 1024} kB)"
    if err.code == 405:
        return f"{request.method} is not allowed here"
    return err.description or err.name


# --- reading ---------------------------------------------------------------------------------------------


@blueprint.get("/api/state")
def state() -> Response:
    snapshot = scoreboard().table.snapshot
    if snapshot.state is None:
        refuse(404, "no game has been started yet")
    return jsonify(snapshot.state.to_json())


@blueprint.get("/api/view")
def view() -> Response:
    return Response(scoreboard().feed.view, mimetype="application/json")


@blueprint.get("/api/record")
def record() -> Response:
    lines = "".join(line + "\n" for line in write_record(scoreboard().table.snapshot.record))
    response = Response(lines, mimetype="application/x-ndjson")
    if request.args.get("download"):
        response.headers["Content-Disposition"] = "attachment; filename=game.jsonl"
    return response


@blueprint.get("/api/lines")
def lines() -> Response:
    snapshot = scoreboard().table.snapshot
    return jsonify(record_lines(snapshot.record))


@blueprint.get("/api/pictures/<int:ref>")
def picture(ref: int) -> Response:
    """What the camera saw of the card at line ``ref`` (docs/api.md): a JPEG."""
    record = scoreboard().table.snapshot.record
    evidence = record[ref].evidence if ref < len(record) else None
    if evidence is None:
        refuse(404, f"line {ref} holds no card the camera read")
    response = Response(evidence.jpeg, mimetype="image/jpeg")
    response.headers["Cache-Control"] = "no-store"
    return response


@blueprint.get("/api/rules")
def rules() -> Response:
    defaults = dataclasses.asdict(Options())
    return jsonify(presets=PRESETS, options=[_option(name, allowed, defaults[name])
                                             for name, allowed in CHOICES.items()])


def _option(name: str, allowed: Any, default: Any) -> dict[str, Any]:
    if allowed is bool:
        return {"name": name, "kind": "bool", "default": default}
    if isinstance(allowed, range):
        return {"name": name, "kind": "int", "min": allowed.start, "max": allowed.stop - 1, "default": default}
    return {"name": name, "kind": "choice", "choices": list(allowed), "default": default}


@blueprint.get("/api/cards")
def cards() -> Response:
    return jsonify([card.name for card in ALL_CARDS])


@blueprint.get("/api/seats")
def seats() -> Response:
    board = scoreboard()
    snapshot = board.table.snapshot
    claimed = board.seats.claimed(snapshot.game_number)
    return jsonify([{"seat": seat, "name": name, "claimed": seat in claimed}
                    for seat, name in enumerate(snapshot.players)])


LONGEST_ID = 18
"""Most digits a ``Last-Event-ID`` may have; anything else is taken as no id, and the phone gets the board anew."""


@blueprint.get("/api/stream")
def stream() -> Response:
    last = request.headers.get("Last-Event-ID", "")
    last_seen = int(last) if last.isascii() and last.isdigit() and len(last) <= LONGEST_ID else None
    board = scoreboard()
    address = _enter(board.streams, "live boards")
    body = board.streams.holding(address, _events(board.feed, board.settings.keepalive, last_seen))
    return Response(body, mimetype="text/event-stream", headers={"Cache-Control": "no-cache",
                                                                 "X-Accel-Buffering": "no"})


def _events(feed: Feed, keepalive: float, last_seen: int | None) -> Body:
    """The stream's bytes; it reads only the feed, for it runs after the request's context has gone."""
    yield b"retry: 2000\n\n"
    while not feed.closed:
        for message in feed.since(last_seen):
            yield message.encode()
            last_seen = message.id
        if not feed.wait(last_seen or 0, keepalive):
            yield b": still here\n\n"


# --- acting ----------------------------------------------------------------------------------------------


@blueprint.post("/api/events")
def post_event() -> tuple[Response, int]:
    if "X-Seat-Token" in request.headers and not _as_host_asked():
        paced(scoreboard().address_posts, asking_address(), "too many posts from this phone")
        event = _as_seat(_event(_json_body()))
    else:
        event = _as_host(_event(_json_body()))
    applied = _submit(event)
    return jsonify(ref=applied.ref, version=applied.snapshot.version, verdicts=[v.to_json() for v in applied.verdicts],
                   state=applied.snapshot.state.to_json() if applied.snapshot.state else None), 201


@blueprint.post("/api/seats/<int:seat>/claim")
def claim(seat: int) -> Response:
    """Claim ``seat`` with its join code (``{"code": ...}``): the table's code for a free seat, or the host's."""
    board = scoreboard()
    name = _seat_name(seat)
    body = _json_body()
    code = body.get("code") if isinstance(body, dict) else None
    if not isinstance(code, str):
        refuse(400, "send {\"code\": ...}: the join code from the seat's QR code")
    token = board.seats.claim(seat, board.table.snapshot.game_number, code)
    if token is None:
        taken = seat in board.seats.claimed(board.table.snapshot.game_number)
        refuse(403, f"{name}'s seat is taken: ask the host for a new code" if taken else
               "that join code is not valid (it was used, or a new game began): scan the seat's code again")
    return jsonify(seat=seat, name=name, token=token)


@blueprint.post("/api/seats/<int:seat>/invite")
def invite(seat: int) -> Response:
    """A new join code for ``seat`` from the host: the way to move a seat to another phone."""
    _require_host()
    board = scoreboard()
    _seat_name(seat)
    code = board.seats.invite(seat, board.table.snapshot.game_number)
    url = url_for("pages.seat", seat=seat, _anchor=f"join={code}", _external=True)
    return jsonify(seat=seat, url=url, svg=qr_svg(url))


def _seat_name(seat: int) -> str:
    """The name at ``seat``, refusing a seat this game does not have."""
    players = scoreboard().table.snapshot.players
    if not players:
        refuse(409, "no game has been started yet: ask the host to start one")
    if seat >= len(players):
        refuse(404, f"there is no seat {seat}: this game has seats 0 to {len(players) - 1}")
    return players[seat]


@blueprint.post("/api/host/check")
def host_check() -> Response:
    """Trade the PIN (or a pass still valid) for a host pass, which the host's page shows from then on."""
    _require_host()
    return jsonify(host_pass=request.headers.get("X-Host-Pass") or scoreboard().passes.make())


@blueprint.post("/api/game")
def new_game() -> tuple[Response, int]:
    _require_host()
    body = _json_body()
    if not isinstance(body, dict):
        refuse(400, "send an object with 'players' and 'rules'")
    game = _event({"type": "game", "players": body.get("players"), "rules": body.get("rules", {})})
    _restart([dataclasses.replace(game, source="host")])
    return Response(scoreboard().feed.view, status=201, mimetype="application/json"), 201


@blueprint.post("/api/record")
def import_record() -> tuple[Response, int]:
    _require_host()
    try:
        entries = read_record(request.get_data(as_text=True).splitlines())
    except RecordError as err:
        refuse(400, f"the record was not imported: {err}")
    if not entries:
        refuse(400, "the record is empty")
    _restart(renumbered(entries))
    return Response(scoreboard().feed.view, status=201, mimetype="application/json"), 201


# --- the camera ------------------------------------------------------------------------------------------


@blueprint.post("/api/camera/ticket")
def camera_ticket() -> Response:
    """The preview's address with a single-use ticket: an ``<img>`` cannot send the host's headers."""
    _require_host()
    _camera()
    return jsonify(url=f"/camera.mjpg?ticket={scoreboard().tickets.make()}")


@blueprint.get("/camera.mjpg")
def camera_preview() -> Response:
    board = scoreboard()
    if not board.tickets.valid(request.args.get("ticket", "")):
        refuse(403, "the preview needs a ticket from the host page: open the camera section again")
    if board.preview is None:
        refuse(404, "there is no camera")
    address = _enter(board.previews, "camera previews")
    running = itertools.takewhile(lambda _: not board.feed.closed, itertools.repeat(True))
    body = board.previews.holding(address, mjpeg(board.preview, running))
    return Response(body, mimetype=f"multipart/x-mixed-replace; boundary={BOUNDARY}",
                    headers={"Cache-Control": "no-cache"})


@blueprint.get("/api/layout")
def get_layout() -> Response:
    _require_host()
    return _layout_response()


@blueprint.put("/api/layout")
def put_layout() -> Response:
    _require_host()
    camera = _camera()
    width, height = camera.size
    try:
        layout = dataclasses.replace(layout_from_json(_json_body()), picture=(width, height))
    except LayoutError as err:
        refuse(400, f"the zones were not changed: {err}")
    if not (0 <= layout.centre[0] <= width and 0 <= layout.centre[1] <= height):
        refuse(400, f"the zones were not changed: the centre must lie in the {width} x {height} picture")
    snapshot = scoreboard().table.snapshot
    if snapshot.players and len(layout.seats) != len(snapshot.players):
        refuse(400, f"the zones were not changed: give {len(snapshot.players)} seat angles, one per player")
    camera.move_zones(layout)
    return _layout_response()


def _layout_response() -> Response:
    camera = _camera()
    width, height = camera.size
    return jsonify(width=width, height=height, layout=layout_to_json(camera.layout))


def _camera() -> CameraView:
    camera = scoreboard().camera
    if camera is None:
        refuse(404, "there is no camera")
    return camera


# --- checks ----------------------------------------------------------------------------------------------


def _json_body() -> Any:
    if not request.content_length and not request.data:
        refuse(400, "the request has no body: send one JSON object")
    try:
        return json.loads(request.get_data(as_text=True))
    except RecursionError:
        refuse(400, "the body is not valid JSON (nested too deeply)")
    except ValueError as err:  # malformed JSON, bad UTF-8, or a number of more digits than Python converts
        refuse(400, f"the body is not valid JSON ({err})")


def _event(obj: Any) -> Event:
    try:
        return event_from_json(obj)
    except ValueError as err:
        refuse(400, f"not a valid event: {err}")


def _as_host_asked() -> bool:
    return "X-Host-Pin" in request.headers or "X-Host-Pass" in request.headers


def _require_host() -> None:
    """A host pass, else the PIN; a pass is never refused for wrong PINs sent from the same address."""
    if (given_pass := request.headers.get("X-Host-Pass")) is not None:
        if not scoreboard().passes.valid(given_pass):
            refuse(403, "this phone's host pass is no longer valid (the table restarted): give the PIN again")
        return
    given = request.headers.get("X-Host-Pin")
    if given is None:
        refuse(401, "this needs the host's PIN")
    _check_pin(given)


DEVICE_NAME = 64
"""The most characters of a browser's name (``X-Host-Device``) that count: the host page's are 32."""


def _check_pin(given: str) -> None:
    """Refuse a wrong PIN, and a phone that sent too many wrong ones with how long to wait."""
    board = scoreboard()
    address, device = asking_address(), request.headers.get("X-Host-Device", "")[:DEVICE_NAME]
    if (wait := board.guard.wait_for(address, device)) > 0:
        refuse(429, f"too many wrong PINs from this phone: try again in {math.ceil(wait)} s")
    if not board.guard.check(address, given, board.settings.pin, device):
        refuse(403, "wrong PIN")


def _as_host(event: Event) -> Event:
    _require_host()
    paced(scoreboard().host_posts, "host", "too many posts from the host")
    return event if event.source else dataclasses.replace(event, source="host")


def _as_seat(event: Event) -> Event:
    board = scoreboard()
    snapshot = board.table.snapshot
    seat = board.seats.seat_of(request.headers["X-Seat-Token"], snapshot.game_number)
    if seat is None:
        refuse(403, "this phone no longer holds its seat (it was claimed again, or a new game began): "
                    "scan the seat's code again")
    if event.TYPE not in SEAT_EVENTS:
        refuse(403, f"a player may not post {event.TYPE!r}: only the host may")
    if isinstance(event, Challenge) and event.guilty is not None:
        refuse(403, "a player challenges, but only the host or a reveal decides whether the challenge holds")
    own = getattr(event, "seat", None)
    if own is None:
        event = dataclasses.replace(event, seat=seat)  # type: ignore[call-arg]
    elif own != seat:
        refuse(403, f"this phone holds seat {seat}, not seat {own}")
    paced(board.seat_posts, f"{snapshot.game_number}:{seat}", f"too many posts from {snapshot.players[seat]}'s seat")
    if (why := pointless(event, seat, snapshot)) is not None:
        refuse(409, f"the event was not recorded: {why}")
    return dataclasses.replace(event, source="phone", t=None)  # the table's clock, not the phone's, stamps it


def paced(pace: Pace, key: str, who: str) -> None:
    """Count a post by ``key``, or answer 429 with how long to wait: the table serves every phone, and a flood
    from one slows them all."""
    if (wait := pace.take(key)) > 0:
        seconds = math.ceil(wait)
        refuse(429, f"{who}: wait {seconds} s before posting again", {"Retry-After": str(seconds)})


def _submit(event: Event) -> Applied:
    try:
        return scoreboard().table.submit(event)
    except RecordError as err:
        refuse(409, f"the event was not recorded: {err.reason}")
    except TabletopError as err:
        refuse(503, f"the event was not recorded: {err}")


def _restart(events: list[Event]) -> None:
    try:
        scoreboard().table.restart(events)
    except RecordError as err:
        refuse(400, f"the record was not imported: {err}")
    except TabletopError as err:
        refuse(503, f"the record was not imported: {err}")
