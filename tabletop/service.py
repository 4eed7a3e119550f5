"""``tabletop serve``: the table unit itself — camera, watcher, referee, game log, panel and scoreboard.

This is the composition root of the Pi's service. Each part is a thin adapter around the table's one game
thread; this module only wires them together, in an order that lets go of them cleanly when the service stops.
"""

from __future__ import annotations

import ctypes
import socket
import threading
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager

from tabletop.camera_inbox import CameraInbox
from tabletop.config import HOST, Config
from tabletop.game.events import Game
from tabletop.history import History
from tabletop.host_pin import host_pin, where_told
from tabletop.languages import ENGLISH
from tabletop.panel import TablePanel
from tabletop.reporting import Report
from tabletop.sources.open import watched_source
from tabletop.store import GameStore
from tabletop.table import Table
from tabletop.vision.model import CardModel
from tabletop.voice import Voice
from tabletop.watcher.camera import CameraWatch
from tabletop.watcher.layout import Layout, read_layout, write_layout
from tabletop.web import WebSettings, create_app
from tabletop.web.camera import CameraView
from tabletop.web.qr import qr_text
from tabletop.web.server import Server

LAYOUT_FILE = "layout.json"
"""Where the host's zones are kept in the state directory; they win over the config's layout file."""


def lan_address() -> str:
    """The address phones on the same Wi-Fi reach this machine at; no packet is sent to find it."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("10.255.255.255", 1))
            return str(probe.getsockname()[0])
        except OSError:
            return "127.0.0.1"


@contextmanager
def serving(table: Table, camera: CameraView | None, host: str, port: int, pin: str,
            report: Report, pin_told: str, language: str = ENGLISH,
            history: History | None = None) -> Iterator[Server]:
    """The scoreboard for ``table`` on ``host:port``, its address and join code told to ``report``, and where the
    host finds the PIN (``pin_told``): the PIN itself only at the demo's terminal, for the service's messages go
    to the system journal, which the host's PIN has no business in."""
    app = create_app(table, WebSettings(pin=pin, language=language), camera=camera, history=history)
    with Server(app, host=host, port=port) as server:
        address = f"http://{lan_address() if host == HOST else host}:{server.port}"
        report(f"scoreboard: {address}/   host page: {address}/host ({pin_told})\n"
               f"scan to join a seat:\n{qr_text(address + '/join')}")
        yield server


def starting_zones(config: Config) -> Layout | None:
    """The host's last zones, else the config's layout file, else None (measure the table)."""
    kept = config.state / LAYOUT_FILE
    if kept.exists():
        return read_layout(kept)
    return read_layout(config.layout) if config.layout else None


LARGE_BLOCK = 256 * 1024
"""Blocks of memory this large or larger are handed back to the system as soon as they are freed."""
M_MMAP_THRESHOLD = -3
"""glibc's ``mallopt`` parameter for that size (malloc.h)."""
ARENAS = 2
"""How many memory pools the service's threads share."""
M_ARENA_MAX = -8
"""glibc's ``mallopt`` parameter for that number (malloc.h)."""


def fit_memory() -> None:
    """Have every camera picture's memory go back to the system once the picture is done with, and the threads
    share a few memory pools rather than keep one each.

    glibc raises the first threshold to the size of each large block freed, so that, after the first, a camera's
    large pictures (megabytes each, one a frame) are kept in the heap to be reused, where they pile up as the
    threads take turns; and it gives threads that meet in malloc pools of their own (up to eight per core), each
    keeping what its thread freed. The service runs dozens of threads (one per phone's stream): together tens of
    megabytes a Pi Zero 2 W does not have. Fixing both keeps the service's memory near what it holds. Nothing
    changes where the C library is not glibc."""
    try:
        libc = ctypes.CDLL("libc.so.6")
    except OSError:
        return
    libc.mallopt(M_MMAP_THRESHOLD, LARGE_BLOCK)
    libc.mallopt(M_ARENA_MAX, ARENAS)


def run_service(config: Config, stop: threading.Event, report: Report = print) -> None:
    """Run the table unit until ``stop`` is set; the game resumes from the log where it was."""
    fit_memory()
    store = GameStore(config.state, report=report)
    with ExitStack() as stack:
        stack.callback(store.close)
        table = stack.enter_context(Table(log=store, events=store.events, report=report))
        if not store.events:
            table.restart([Game(players=config.players, rules=config.rules, source="host")])
        if config.panel.fitted:
            panel = TablePanel(config.panel, table.post)
            stack.callback(panel.close)
            table.subscribe(panel.show)
        if config.panel.voice:
            voice = Voice(config.language, report=report)
            stack.callback(voice.close)
            table.subscribe(voice.follow)
        camera = CameraWatch(watched_source(config.camera, report), CameraInbox(table, report).deliver,
                             CardModel(config.model), starting_zones(config), len(table.snapshot.players),
                             report=report, moved=lambda layout: write_layout(layout, config.state / LAYOUT_FILE))
        history = History(config.state)
        stack.callback(history.close)
        stack.enter_context(serving(table, camera, config.host, config.port, host_pin(config), report,
                                    pin_told=where_told(config), language=config.language, history=history))
        camera.start()
        stack.callback(camera.close)
        stop.wait()

