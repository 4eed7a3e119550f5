"""The scoreboard: a Flask app over the table's snapshots. ``create_app`` builds it; views only read or post.

Pages and assets live in the repository's top-level ``web/`` folder; the routes are in :mod:`.api` and
:mod:`.pages`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from flask import Flask, current_app

from tabletop.history import History
from tabletop.shipped import WEB_PACKAGE, shipped
from tabletop.table import Table
from tabletop.web.access import PASSES_KEPT, TICKET_S, TICKETS_KEPT, Passes, PinGuard, Seats
from tabletop.web.camera import CameraView, Preview
from tabletop.web.feed import Feed
from tabletop.web.gate import Gate
from tabletop.web.pace import Pace

WEB_ROOT = shipped(WEB_PACKAGE)


@dataclass(frozen=True)
class WebSettings:
    """What the scoreboard needs to know beyond the game: the host's PIN and its limits."""

    pin: str
    max_body: int = 256 * 1024
    """Largest request body accepted: a whole imported game record fits easily."""
    keepalive: float = 15.0
    """Seconds between comments on an idle stream, so a phone that left is noticed and its thread freed."""
    streams: int = 40
    """Live streams open at once: ten players with a phone and a board screen each, twice over for reconnects."""
    streams_each: int = 6
    """Live streams open at once from one address: a phone with a few tabs, or a board and a phone behind one."""
    previews: int = 2
    """Camera previews open at once (host only): each holds a thread and encodes pictures."""
    language: str = "en"
    """The table's language: pages use it where neither the phone nor its browser asks for one of ours."""
    root: Path = WEB_ROOT


SEAT_BURST, SEAT_RATE = 10, 2.0
"""Events a seat's phone may post at once, and a second after that: a player taps a few times a turn."""
ADDRESS_BURST, ADDRESS_RATE = 20, 5.0
"""The same for everything posted from one address: a phone holding a seat, or a guest with none."""
HISTORY_BURST, HISTORY_RATE = 10, 2.0
"""Whole games (or the whole history) one address may read at once, and a second after that."""
HOST_BURST, HOST_RATE = 200, 50.0
"""The same for the host, who corrects, inserts and confirms whole rounds at a time."""


@dataclass
class Scoreboard:
    """Everything the views share, kept in ``app.extensions``."""

    table: Table
    feed: Feed
    settings: WebSettings
    camera: CameraView | None = None
    history: History | None = None
    """The games the log keeps, for the history pages; None where the table keeps no log (tests, benchmarks)."""
    seats: Seats = field(default_factory=Seats)
    guard: PinGuard = field(default_factory=PinGuard)
    passes: Passes = field(default_factory=lambda: Passes(PASSES_KEPT))
    tickets: Passes = field(default_factory=lambda: Passes(TICKETS_KEPT, lasting=TICKET_S, single_use=True))
    seat_posts: Pace = field(default_factory=lambda: Pace(SEAT_BURST, SEAT_RATE))
    address_posts: Pace = field(default_factory=lambda: Pace(ADDRESS_BURST, ADDRESS_RATE))
    host_posts: Pace = field(default_factory=lambda: Pace(HOST_BURST, HOST_RATE))
    history_reads: Pace = field(default_factory=lambda: Pace(HISTORY_BURST, HISTORY_RATE))
    streams: Gate = field(init=False)
    previews: Gate = field(init=False)
    preview: Preview | None = field(init=False)

    def __post_init__(self) -> None:
        self.streams = Gate(self.settings.streams, self.settings.streams_each)
        self.previews = Gate(self.settings.previews, self.settings.previews)
        self.preview = Preview(self.camera) if self.camera is not None else None


def create_app(table: Table, settings: WebSettings, camera: CameraView | None = None,
               history: History | None = None) -> Flask:
    """The scoreboard for ``table``. The table must be started; the app subscribes to its snapshots."""
    from tabletop.web import api, games, language, pages

    app = Flask(__name__, template_folder=str(settings.root / "templates"),
                static_folder=str(settings.root / "static"))
    app.config["MAX_CONTENT_LENGTH"] = settings.max_body
    app.json.sort_keys = False  # type: ignore[attr-defined]
    feed = Feed(table.snapshot, camera=camera is not None)
    table.subscribe(feed.update)
    app.extensions["tabletop"] = Scoreboard(table, feed, settings, camera, history)
    app.register_blueprint(api.blueprint)
    app.register_blueprint(pages.blueprint)
    app.register_blueprint(games.blueprint)
    language.install(app, settings.language)
    return app


def scoreboard() -> Scoreboard:
    return scoreboard_of(current_app)


def scoreboard_of(app: Flask) -> Scoreboard:
    board = app.extensions["tabletop"]
    assert isinstance(board, Scoreboard)
    return board


def stop_streams(app: Flask) -> None:
    """End every open stream, so that the server can shut down without waiting for phones."""
    scoreboard_of(app).feed.close()
