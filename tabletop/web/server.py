"""The scoreboard served by waitress, a production WSGI server, on a thread of the game's own process.

The camera may be held by one process only, so the server cannot be a separate one. Waitress reads requests
and holds idle connections on one event loop, cheaply; only an answer being made takes a thread. Each open
stream or preview holds its thread for as long as the phone stays, so those are counted at the door (see
:mod:`.gate`) and ``API_THREADS`` more are kept for everyone's short requests.

Every limit is set in the server, so that nothing too large is read, or written to disk, before it is refused.
"""

from __future__ import annotations

import resource
import socket
import threading
from collections.abc import Callable
from typing import Any

import waitress
from flask import Flask

from tabletop.web import scoreboard_of, stop_streams

API_THREADS = 16
"""Threads no stream or preview may take: the state, the posts and the pages of every phone and the host."""
CONNECTIONS = 1000
"""Open connections held at once, idle ones included; waitress's default (100) let a few guests hold them all."""
FILES = 4 * CONNECTIONS
"""Open files this process asks to be allowed: every connection is one, and so are the game log, the camera and
the models; in the tests the guests' own sockets share the process too. The usual soft limit, 1024, is not
enough for ``CONNECTIONS``; polling, not select, handles descriptors past 1024."""
EACH_ADDRESS = 64
"""Open connections held at once for one address: a phone's browser opens six or so, with a few live boards.
Past it a new connection is closed as soon as it is accepted, so that one guest holding thousands open (sending
a request a byte at a time, which keeps each from ever being idle) cannot fill ``CONNECTIONS`` and shut the
table's phones out."""
IDLE_S = 30
"""Seconds a connection with nothing to do is kept: a live board sends a comment every 15 s."""
HEADERS = 32 * 1024
"""Largest request line and headers together; a browser's are a few kB."""
OUTBUF = 64 * 1024
"""Bytes a connection may have waiting to be sent. Waitress frees a connection's buffer only when it moves on to
a new one at this size, so its default (16 MB) let every open stream hold megabytes it had long sent; a phone
that falls this far behind makes its stream wait instead."""


class Server:
    """Waitress serving ``app`` on ``host:port`` (port 0 picks a free one) until ``close``."""

    def __init__(self, app: Flask, host: str, port: int) -> None:
        self.app = app
        board = scoreboard_of(app)
        _allow_files(FILES)
        self._server = waitress.create_server(
            app, host=host, port=port, threads=board.streams.total + board.previews.total + API_THREADS,
            connection_limit=CONNECTIONS, asyncore_use_poll=True, channel_timeout=IDLE_S,
            max_request_body_size=board.settings.max_body, max_request_header_size=HEADERS,
            outbuf_high_watermark=OUTBUF, ident="tabletop")
        self._server.channel_class = _each_address_limited(self._server.channel_class)
        self._closing = False
        self._thread = threading.Thread(target=self._serve, name="web", daemon=True)

    @property
    def port(self) -> int:
        return int(self._server.effective_port)

    def url(self, host: str = "127.0.0.1") -> str:
        return f"http://{host}:{self.port}"

    def start(self) -> Server:
        self._thread.start()
        return self

    def close(self) -> None:
        """End the streams and let the worker threads finish, then drop every connection and stop listening."""
        self._closing = True
        stop_streams(self.app)
        self._server.task_dispatcher.shutdown()
        for channel in list(self._server._map.values()):
            channel.close()
        self._server.close()
        self._thread.join(timeout=5)

    def _serve(self) -> None:
        try:
            self._server.run()
        except OSError:
            # Closing the connections under the loop's feet makes its last poll see closed sockets.
            if not self._closing:
                raise

    def __enter__(self) -> Server:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()


def _each_address_limited(channel_class: Any) -> Callable[..., Any]:
    """Waitress's connection maker, closing a new connection from an address that holds ``EACH_ADDRESS``."""

    def channel(server: Any, connection: socket.socket, address: Any, adjustments: Any, map: Any = None) -> Any:
        host = _host(address)
        held = sum(1 for open_channel in server.active_channels.values() if _host(open_channel.addr) == host)
        if held >= EACH_ADDRESS:
            connection.close()
            return None
        return channel_class(server, connection, address, adjustments, map=map)

    return channel


def _host(address: Any) -> Any:
    return address[0] if isinstance(address, tuple) else address


def _allow_files(count: int) -> None:
    """Raise this process's open-file limit to ``count``, as far as the system's hard limit allows."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = count if hard == resource.RLIM_INFINITY else min(count, hard)
    if soft != resource.RLIM_INFINITY and soft < wanted:
        resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
