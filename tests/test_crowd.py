"""The real server (waitress) under guests who hold connections open: the table's phones are still answered.

Nothing here is timed: each check waits long enough that only a server that stopped answering fails it.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import socket
import time
from collections.abc import Iterator

import pytest

from tabletop.game.events import Game
from tabletop.table import Table
from tabletop.web import WebSettings, create_app, stop_streams
from tabletop.web.gate import Gate
from tabletop.web.server import EACH_ADDRESS, Server

PIN = "2468"
ANSWER_S = 10.0
"""Longer than any answer takes, so that a check fails only on a server that does not answer at all."""


@pytest.fixture
def server() -> Iterator[Server]:
    with Table() as table:
        table.restart([Game(players=("Ann", "Bo", "Cy"))])
        app = create_app(table, WebSettings(pin=PIN, streams=6, streams_each=3, keepalive=0.5))
        with Server(app, host="127.0.0.1", port=0) as running:
            yield running
        stop_streams(app)


def connect(server: Server) -> socket.socket:
    return socket.create_connection(("127.0.0.1", server.port), timeout=ANSWER_S)


PHONE = "127.0.0.2"
"""The table's phone: its own address, as on the Wi-Fi, where the guests connect from 127.0.0.1."""


def get(server: Server, path: str) -> tuple[int, bytes]:
    """``path`` asked for by the table's phone."""
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=ANSWER_S, source_address=(PHONE, 0))
    try:
        connection.request("GET", path)
        response = connection.getresponse()
        return response.status, response.read()
    finally:
        connection.close()


def open_stream(server: Server) -> tuple[http.client.HTTPConnection, http.client.HTTPResponse]:
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=ANSWER_S)
    connection.request("GET", "/api/stream")
    return connection, connection.getresponse()


def test_hundreds_of_idle_and_slow_connections_leave_the_board_answering(server: Server) -> None:
    idle = [connect(server) for _ in range(500)]
    slow = [connect(server) for _ in range(100)]
    for sock in slow:
        sock.sendall(b"GET /api/state HTTP/1.1\r\nHost: table\r\nX-Slow: ")  # and never the rest
    try:
        for _ in range(20):
            status, body = get(server, "/api/state")
            assert status == 200 and json.loads(body)["type"] == "state"
    finally:
        for sock in idle + slow:
            sock.close()


def test_two_thousand_dribbling_connections_from_a_guest_leave_the_phones_answered(server: Server) -> None:
    """A guest opening connection after connection, each sending its request a byte now and then so that none
    is ever idle: past its own share each is closed at once, and the phones never wait for a place."""
    dribbling = []
    for _ in range(2000):
        try:
            sock = connect(server)
            sock.sendall(b"GET /api/state HTTP/1.1\r\nHost: table\r\nX-Dribble: a")
        except OSError:
            continue  # closed by the server before the request was sent: the guest is at its share
        dribbling.append(sock)
    try:
        for sock in dribbling:
            with contextlib.suppress(OSError):  # one the server has closed
                sock.send(b"b")
        for _ in range(10):
            status, body = get(server, "/api/state")
            assert status == 200 and json.loads(body)["type"] == "state"
        assert sum(1 for channel in server._server.active_channels.values() if channel.addr[0] == "127.0.0.1") \
            <= EACH_ADDRESS
    finally:
        for sock in dribbling:
            sock.close()


def test_streams_past_the_limit_are_refused_and_the_api_keeps_answering(server: Server) -> None:
    streams = [open_stream(server) for _ in range(3)]
    try:
        assert [response.status for _, response in streams] == [200, 200, 200]
        refusing, refused = open_stream(server)
        assert refused.status == 503
        assert refused.getheader("Retry-After") == "30"
        assert "too many live boards" in json.loads(refused.read())["error"]
        refusing.close()
        assert get(server, "/api/state")[0] == 200
        close(*streams.pop())
        for _ in range(50):  # the server notices the closed stream at its next keep-alive comment
            again, answer = open_stream(server)
            if answer.status == 200:
                streams.append((again, answer))
                break
            close(again, answer)
            time.sleep(0.1)
        assert len(streams) == 3
    finally:
        for stream in streams:
            close(*stream)


def close(connection: http.client.HTTPConnection, response: http.client.HTTPResponse) -> None:
    response.close()
    connection.close()


def test_a_huge_upload_is_refused_before_its_body_is_read(server: Server) -> None:
    with connect(server) as sock:
        sock.sendall(b"POST /api/record HTTP/1.1\r\nHost: table\r\nX-Host-Pin: 2468\r\n"
                     b"Content-Type: application/x-ndjson\r\nContent-Length: 800000000\r\n\r\n")
        answer = sock.recv(4096)
    assert answer.split(b" ")[1] == b"413"


def test_headers_past_the_limit_are_refused(server: Server) -> None:
    with connect(server) as sock:
        sock.sendall(b"GET /api/state HTTP/1.1\r\nHost: table\r\nX-Big: " + b"a" * 40_000 + b"\r\n\r\n")
        answer = sock.recv(4096)
    assert answer.split(b" ")[1] == b"431"


def test_the_gate_counts_places_in_all_and_per_address() -> None:
    gate = Gate(total=2, each=1)
    assert gate.enter("ann") and not gate.enter("ann")
    assert gate.enter("bo") and not gate.enter("cy")
    body = gate.holding("ann", (chunk for chunk in [b"x"]))
    body.close()  # type: ignore[attr-defined]
    body.close()  # type: ignore[attr-defined]
    assert gate.held == 1 and gate.enter("cy") and not gate.enter("dan")
