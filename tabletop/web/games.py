"""The game nights: the pages and the JSON of every game the log keeps, its statistics and its exports.

Read-only, and read beside the table (see :mod:`tabletop.history`): nothing here waits on the game's thread.
"""

from __future__ import annotations

import re
import time

from flask import Blueprint, Response, jsonify, render_template, request

from tabletop.game.board import record_lines
from tabletop.game.record import write_record
from tabletop.history import History, HistoryError, Kept
from tabletop.store import StoreError
from tabletop.web import scoreboard
from tabletop.web.api import refuse

blueprint = Blueprint("games", __name__)

EVENING = re.compile(r"\d{4}-\d{2}-\d{2}")


def _history() -> History:
    history = scoreboard().history
    if history is None:
        refuse(404, "this table keeps no game log, so it has no history")
    return history


def _kept(number: int) -> Kept:
    try:
        return _history().game(number)
    except HistoryError as err:
        refuse(404, str(err))
    except StoreError as err:
        refuse(503, str(err))


def _games() -> list[Kept]:
    try:
        return _history().games()
    except StoreError as err:
        refuse(503, str(err))


@blueprint.get("/history")
def history_page() -> str:
    return render_template("history.html")


@blueprint.get("/history/<int:number>")
def game_page(number: int) -> str:
    return render_template("game.html", number=number)


@blueprint.get("/api/history")
def games() -> Response:
    """Every game kept, newest first, as the list shows it."""
    return jsonify(games=[kept.summary() for kept in _games()])


@blueprint.get("/api/history/<int:number>")
def game(number: int) -> Response:
    """One game's whole story: its rounds and their hands, its penalties, its figures and its record."""
    kept = _kept(number)
    story = {} if kept.story is None else kept.story.to_json()
    return jsonify({**kept.summary(), **story, "record": record_lines(kept.record)})


@blueprint.get("/api/history/<int:number>/record")
def game_record(number: int) -> Response:
    """One game's record as JSON Lines, as ``tabletop replay`` reads it."""
    return _download("".join(line + "\n" for line in write_record(_kept(number).record)), "application/x-ndjson",
                     "jsonl", f"game-{number}")


@blueprint.get("/api/history/<int:number>/pictures/<int:ref>")
def picture(number: int, ref: int) -> Response:
    """What the camera saw of the card at line ``ref`` of game ``number``: a JPEG."""
    _kept(number)
    try:
        evidence = _history().picture(number, ref)
    except HistoryError as err:
        refuse(404, str(err))
    return Response(evidence.jpeg, mimetype="image/jpeg", headers={"Cache-Control": "max-age=86400"})


@blueprint.get("/api/statistics")
def statistics() -> Response:
    """Every player's figures over all the games kept, or over one evening's (``?evening=YYYY-MM-DD``)."""
    evening = request.args.get("evening")
    if evening is not None and not EVENING.fullmatch(evening):
        refuse(400, f"evening {evening[:20]!r} is not a date written YYYY-MM-DD")
    kept = _games()
    return jsonify(evening=evening, games=sum(1 for k in kept if evening in (None, k.evening)),
                   players=_history().statistics(evening))


@blueprint.get("/api/evening")
def evening() -> Response:
    """The figures of the evening the newest game belongs to: what every phone shows when a game ends."""
    kept = _games()
    if not kept:
        refuse(404, "the game log holds no game yet")
    date = kept[0].evening
    return jsonify(evening=date, games=sum(1 for k in kept if k.evening == date), players=_history().statistics(date))


@blueprint.get("/api/history.csv")
def history_csv() -> Response:
    """The history as a spreadsheet: one row per round, a column of points per player."""
    try:
        text = _history().csv()
    except StoreError as err:
        refuse(503, str(err))
    return _download(text, "text/csv", "csv")


@blueprint.get("/api/history.jsonl")
def history_records() -> Response:
    """Every game's record as JSON Lines, oldest first, each beginning with its ``game`` line."""
    try:
        text = "".join(line + "\n" for line in _history().records())
    except StoreError as err:
        refuse(503, str(err))
    return _download(text, "application/x-ndjson", "jsonl")


def _download(text: str, mimetype: str, suffix: str, what: str = "history") -> Response:
    name = f"tabletop-{what}-{time.strftime('%Y-%m-%d')}.{suffix}"
    return Response(text, mimetype=mimetype, headers={"Content-Disposition": f"attachment; filename={name}"})
