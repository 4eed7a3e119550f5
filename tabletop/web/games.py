"""The game nights: the pages and the JSON of every game the log keeps, its statistics and its exports.

Read-only, and read beside the table (see :mod:`tabletop.history`): nothing here waits on the game's thread.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager

from flask import Blueprint, Response, jsonify, render_template, request

from tabletop.errors import HistoryError, StoreError
from tabletop.game.board import record_lines
from tabletop.game.record import write_record
from tabletop.history import EVENING, History
from tabletop.web import scoreboard
from tabletop.web.api import asking_address, paced, refuse

blueprint = Blueprint("games", __name__)


def _history() -> History:
    history = scoreboard().history
    if history is None:
        refuse(404, "this table keeps no game log, so it has no history")
    return history


def _heavy() -> History:
    """The history, for an answer that reads a whole game or every game: a phone may ask for a few at once,
    then a few a second, so that one guest asking without end does not slow the others."""
    paced(scoreboard().history_reads, asking_address(), "too many history requests from this phone")
    return _history()


@contextmanager
def _answering() -> Iterator[None]:
    """A game or a picture the log does not hold is a 404; a log that cannot be read, a 503."""
    try:
        yield
    except HistoryError as err:
        refuse(404, str(err))
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
    with _answering():
        kept = _history().games()
    return jsonify(games=[one.summary() for one in kept])


@blueprint.get("/api/history/<int:number>")
def game(number: int) -> Response:
    """One game's whole story: its rounds and their hands, its penalties, its figures and its record."""
    with _answering():
        kept, record = _history().game(number), _heavy().record(number)
    story = {} if kept.story is None else kept.story.to_json()
    return jsonify({**kept.summary(), **story, "record": record_lines(record)})


@blueprint.get("/api/history/<int:number>/record")
def game_record(number: int) -> Response:
    """One game's record as JSON Lines, as ``tabletop replay`` reads it."""
    with _answering():
        record = _heavy().record(number)
    return _download("".join(line + "\n" for line in write_record(record)), "application/x-ndjson", "jsonl",
                     f"game-{number}")


@blueprint.get("/api/history/<int:number>/pictures/<int:ref>")
def picture(number: int, ref: int) -> Response:
    """What the camera saw of the card at line ``ref`` of game ``number``: a JPEG."""
    with _answering():
        jpeg = _history().picture(number, ref)
    return Response(jpeg, mimetype="image/jpeg", headers={"Cache-Control": "max-age=86400"})


@blueprint.get("/api/statistics")
def statistics() -> Response:
    """Every player's figures over all the games kept, or over one evening's (``?evening=YYYY-MM-DD``)."""
    evening = request.args.get("evening")
    if evening is not None and not EVENING.fullmatch(evening):
        refuse(400, f"evening {evening[:20]!r} is not a date written YYYY-MM-DD")
    with _answering():
        return jsonify(evening=evening, **_history().statistics(evening))


@blueprint.get("/api/evening")
def evening() -> Response:
    """The figures of the evening the newest game belongs to: what every phone shows when a game ends."""
    with _answering():
        kept = _history().games()
        if not kept:
            raise HistoryError("the game log holds no game yet")
        return jsonify(evening=kept[0].evening, **_history().statistics(kept[0].evening))


@blueprint.get("/api/history.csv")
def history_csv() -> Response:
    """The history as a spreadsheet: one row per round, a column of points per player."""
    with _answering():
        text = _heavy().csv()
    return _download(text, "text/csv", "csv")


@blueprint.get("/api/history.jsonl")
def history_records() -> Response:
    """Every game's record as JSON Lines, oldest first, each beginning with its ``game`` line."""
    with _answering():
        text = "".join(line + "\n" for line in _heavy().records())
    return _download(text, "application/x-ndjson", "jsonl")


def _download(text: str, mimetype: str, suffix: str, what: str = "history") -> Response:
    name = f"tabletop-{what}-{time.strftime('%Y-%m-%d')}.{suffix}"
    return Response(text, mimetype=mimetype, headers={"Content-Disposition": f"attachment; filename={name}"})
