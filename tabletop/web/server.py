"""The scoreboard served by waitress, a production WSGI server, on a thread of the game's own process.

The camera may be held by one process only, so the server cannot be a separate one. Each open stream holds
one of waitress's threads for as long as the phone stays, hence a thread count well above the table's phones.
"""

from __future__ import annotations

import threading

import waitress
from flask import Flask

from tabletop.web import stop_streams

THREADS = 48
"""Ten players with a phone and a board screen each, the host, and room for phones that reconnect."""
OUTBUF = 64 * 1024
"""Bytes a connection may have waiting to be sent. Waitress frees a connection's buffer only when it moves on to
a new one at this size, so its default (16 MB) let every open stream hold megabytes it had long sent; a phone
that falls this far behind makes its stream wait instead."""


class Server:
    """Waitress serving ``app`` on ``host:port`` (port 0 picks a free one) until ``close``."""

    def __init__(self, app: Flask, host: str = "0.0.0.0", port: int = 8000, threads: int = THREADS) -> None:
        self.app = app
        self._server = waitress.create_server(app, host=host, port=port, threads=threads, channel_timeout=60,
                                              outbuf_high_watermark=OUTBUF, ident="tabletop")
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
