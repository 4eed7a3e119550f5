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
    return render_template("join.html", players=_players())


@blueprint.get("/qr/seat/<int:seat>.svg")
def seat_code(seat: int) -> Response:
    """The code of the seat page's full address, as the phone that shows it reached this server."""
    if seat >= max(len(_players()), 10):
        abort(404)
    svg = qr_svg(url_for("pages.seat", seat=seat, _external=True))
    return Response(svg, mimetype="image/svg+xml", headers={"Cache-Control": "no-cache"})
