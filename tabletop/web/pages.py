"""The four pages (board, seat, host, join) and the QR codes that lead phones to their seats."""

from __future__ import annotations

from flask import Blueprint, Response, abort, render_template, url_for

from tabletop.web import scoreboard
from tabletop.web.qr import qr_svg

blueprint = Blueprint("pages", __name__)


def _players() -> list[str]:
    return list(scoreboard().table.snapshot.players)


@blueprint.get("/")
def board() -> str:
    return render_template("board.html", players=_players())


@blueprint.get("/seat/<int:seat>")
def seat(seat: int) -> str:
    players = _players()
    if players and seat >= len(players):
        abort(404)
    return render_template("seat.html", players=players, seat=seat)


@blueprint.get("/host")
def host() -> str:
    return render_template("host.html", players=_players())


@blueprint.get("/join")
def join() -> str:
    board = scoreboard()
    codes = [board.seats.code(seat, board.table.snapshot.game_number) for seat in range(len(_players()))]
    return render_template("join.html", players=_players(), codes=codes)


@blueprint.get("/qr/seat/<int:seat>.svg")
def seat_code(seat: int) -> Response:
    """The seat page's full address (as the phone that shows it reached this server) with the seat's join code,
    for a seat nobody holds yet: a held seat changes phones only with a code from the host."""
    board = scoreboard()
    code = board.seats.code(seat, board.table.snapshot.game_number) if seat < len(_players()) else None
    if code is None:
        abort(404)
    svg = qr_svg(url_for("pages.seat", seat=seat, _anchor=f"join={code}", _external=True))
    return Response(svg, mimetype="image/svg+xml", headers={"Cache-Control": "no-cache"})
