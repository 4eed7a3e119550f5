"""``tabletop bench web``: phones on the live stream while the game moves, as a long evening would have it;
``tabletop bench crowd``: the board still answering while guests hold hundreds of connections open.

The server runs here, as in the Pi's service; the phones run in a second process, so that their work neither
slows the server's threads nor counts in its memory. Each phone notes when every board view reached it;
latency is from the moment the event was posted to the moment a phone had the view it brought.
"""

from __future__ import annotations

import collections
import contextlib
import dataclasses
import http.client
import itertools
import json
import multiprocessing
import queue
import re
import socket
import statistics
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import cv2
import numpy as np

from tabletop.game.cards import Card
from tabletop.game.events import Deal, Event, Flip, Game
from tabletop.lab.figures import Figure, evening, figure
from tabletop.sources import Frame, Sharp
from tabletop.sources.files import VideoFile
from tabletop.table import Table
from tabletop.web import WebSettings, create_app, scoreboard_of
from tabletop.web.server import EACH_ADDRESS, Server

PIN = "bench"
GOAL_MISSED = 0
FLAT_MB = 2.0
"""Growth in the second half of the run still counted as flat. The first half fills the bounded buffers (the
messages kept for phones that reconnect), so only what comes after says whether memory keeps growing."""


def bench_web(phones: int = 20, seconds: float = 300.0, interval: float = 0.2) -> Iterator[Figure]:
    """Delivery latency, missed updates and the server's memory with ``phones`` streams open."""
    events = evening(int(seconds / interval) + 50)
    with Table() as table:
        app = create_app(table, WebSettings(pin=PIN))
        with Server(app, host="127.0.0.1", port=0) as server:
            context = multiprocessing.get_context("spawn")
            results = context.Queue()
            ready = context.Barrier(phones + 1)
            crowd = context.Process(target=_phones, args=(server.port, phones, seconds + 5, ready, results))
            crowd.start()
            ready.wait()
            memory = [_resident_kb()]
            posted = _post_events(server.port, events, seconds, interval, memory)
            seen = [results.get(timeout=seconds + 60) for _ in range(phones)]
            crowd.join()
    yield from _report(posted, seen, phones, seconds, interval, memory)


def _post_events(port: int, events: list[Event], seconds: float, interval: float, memory: list[int]
                 ) -> dict[int, float]:
    """Post one event every ``interval`` seconds; the version each brought and when it was posted. The server's
    memory is added to ``memory`` halfway through and at the end."""
    posted: dict[int, float] = {}
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    started = time.monotonic()
    for k, event in enumerate(events):
        due = started + k * interval
        if due - started >= seconds:
            break
        if k == round(seconds / interval / 2):
            memory.append(_resident_kb())
        time.sleep(max(0.0, due - time.monotonic()))
        at = time.monotonic()
        path = "/api/game" if isinstance(event, Game) else "/api/events"
        body = ({"players": list(event.players), "rules": event.rules.to_json()} if isinstance(event, Game)
                else event.to_json())
        connection.request("POST", path, json.dumps(body), {"X-Host-Pin": PIN, "Content-Type": "application/json"})
        response = connection.getresponse()
        answer = json.loads(response.read())
        if response.status == 201:
            posted[int(answer["version"])] = at
    connection.close()
    memory.append(_resident_kb())
    return posted


def _phones(port: int, phones: int, seconds: float, ready: threading.Barrier,
            results: multiprocessing.Queue) -> None:  # type: ignore[type-arg]
    """Open ``phones`` streams, note every view's arrival for ``seconds``, then report them."""
    threads = [threading.Thread(target=_phone, args=(port, seconds, ready, results)) for _ in range(phones)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()


def _phone(port: int, seconds: float, ready: threading.Barrier, results: multiprocessing.Queue  # type: ignore[type-arg]
           ) -> None:
    arrivals: dict[int, float] = {}
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=seconds + 30)
    connection.request("GET", "/api/stream")
    stream = connection.getresponse()
    ready.wait()
    until = time.monotonic() + seconds
    kind = None
    while time.monotonic() < until:
        line = stream.fp.readline().decode().rstrip("\n")
        if line.startswith("event: "):
            kind = line[7:]
        elif line.startswith("data: ") and kind == "view":
            arrivals[int(json.loads(line[6:])["version"])] = time.monotonic()
        elif not line:
            kind = None
    connection.close()
    results.put(arrivals)


def _resident_kb() -> int:
    """This process's resident memory, from /proc (Linux, as on the Pi)."""
    return _memory_kb("self").get("VmRSS", 0)


def _memory_kb(process: int | str) -> dict[str, int]:
    """Each of a process's memory figures in kB, from one read of /proc: ``VmRSS`` all it has resident, ``RssFile``
    the pages of its library files it has mapped."""
    lines = (line.split() for line in Path(f"/proc/{process}/status").read_text().splitlines())
    return {words[0].rstrip(":"): int(words[1]) for words in lines if len(words) == 3 and words[2] == "kB"}


def _report(posted: dict[int, float], seen: list[dict[int, float]], phones: int, seconds: float,
            interval: float, memory: list[int]) -> Iterator[Figure]:
    latencies = sorted(arrivals[version] - at for arrivals in seen for version, at in posted.items()
                       if version in arrivals)
    missed = sum(1 for arrivals in seen for version in posted if version not in arrivals)
    yield Figure("web", f"{phones} phones on the live stream for {seconds:.0f} s, an event every "
                        f"{interval * 1000:.0f} ms ({len(posted)} events, {len(latencies):,} deliveries)")
    if latencies:
        p99 = latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))]
        yield Figure("  delivery latency", f"median {statistics.median(latencies) * 1000:.1f} ms, "
                                           f"p99 {p99 * 1000:.1f} ms")
    yield figure("  missed updates", f"{missed}", f"{GOAL_MISSED}", missed <= GOAL_MISSED and bool(latencies))
    start, middle, end = (kb / 1024 for kb in memory)
    yield figure("  server memory", f"{start:.1f} MB at start, {middle:.1f} MB halfway, {end:.1f} MB at the end",
                 f"flat: the second half within {FLAT_MB:g} MB", abs(end - middle) <= FLAT_MB)


GOAL_STATE_P99_MS = 200.0


def bench_crowd(idle: int = 500, slow: int = 2000, asks: int = 500) -> Iterator[Figure]:
    """``/api/state`` answer times for a phone at its own address while a guest (127.0.0.1) opens ``idle``
    silent connections and ``slow`` requests sent a byte a second, and every live stream the server allows is
    held, each from its own address (127.0.0.x)."""
    with Table() as table:
        table.restart([Game(players=("Ann", "Bo", "Cy")), Deal(dealer=0), Flip(card=Card.from_name("red-5"))])
        app = create_app(table, WebSettings(pin=PIN))
        board = scoreboard_of(app)
        streams = board.streams.total
        with Server(app, host="127.0.0.1", port=0) as server:
            context = multiprocessing.get_context("spawn")
            results = context.Queue()
            crowd = context.Process(target=_crowd, args=(server.port, idle, slow, streams + 5, asks, results))
            crowd.start()
            answers, refused, kept = results.get(timeout=600)
            crowd.join()
            game = table.snapshot.game_number
            token = board.seats.claim(1, game, board.seats.invite(1, game))
            assert token is not None
            flooding, stop, posted = context.Event(), context.Event(), context.Queue()
            flood = context.Process(target=_flood, args=(server.port, token, flooding, stop, posted))
            flood.start()
            flooding.wait(60)
            during: list[float] = []
            until = time.monotonic() + FLOOD_SECONDS
            while time.monotonic() < until:
                during += _phone_reads(server.port, asks)
            stop.set()
            statuses = posted.get(timeout=60)
            flood.join()
    times, flooded = sorted(answers), sorted(during)
    p99 = _p99_ms(times)
    yield Figure("crowd", f"{idle} idle connections and {slow} dribbling ones opened by one guest ({kept} held "
                          f"open by the server, at most {EACH_ADDRESS} an address), {streams + 5} streams asked for "
                          f"from as many addresses ({refused} refused past the limit of {streams}); {asks} state "
                          f"reads by a phone")
    yield figure("  /api/state under the crowd", f"median {statistics.median(times) * 1000:.1f} ms, p99 {p99:.1f} ms, "
                 f"{asks - len(times)} unanswered", f"p99 <= {GOAL_STATE_P99_MS:g} ms, all answered",
                 p99 <= GOAL_STATE_P99_MS and len(times) == asks)
    yield Figure("seat flood", f"Bo's phone posting as fast as it can for {FLOOD_SECONDS:g} s while a phone reads "
                               f"the state ({len(during):,} reads): "
                               f"{sum(statuses.values()):,} posts, {statuses.get(201, 0)} recorded, "
                               f"{statuses.get(429, 0):,} told to wait (429), {statuses.get(409, 0)} refused as "
                               f"changing nothing (409)")
    flooded_p99 = _p99_ms(flooded)
    yield figure("  /api/state during the seat's flood", f"median {statistics.median(flooded) * 1000:.1f} ms, p99 "
                 f"{flooded_p99:.1f} ms", f"p99 <= {GOAL_STATE_P99_MS:g} ms", flooded_p99 <= GOAL_STATE_P99_MS)


FLOOD_SECONDS = 20.0
"""How long a seat floods the table while a phone reads it."""


def _p99_ms(times: list[float]) -> float:
    return times[min(len(times) - 1, int(len(times) * 0.99))] * 1000 if times else float("inf")


def _phone_reads(port: int, asks: int) -> list[float]:
    """Seconds each of ``asks`` reads of the state took, asked by a phone at its own address; none for a read
    that got no answer."""
    answers: list[float] = []
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10, source_address=(PHONE, 0))
    for _ in range(asks):
        at = time.perf_counter()
        try:
            connection.request("GET", "/api/state")
            connection.getresponse().read()
        except OSError:
            connection.close()
            continue
        answers.append(time.perf_counter() - at)
    connection.close()
    return answers


def _flood(port: int, token: str, flooding: threading.Event, stop: threading.Event,
           posted: multiprocessing.Queue) -> None:  # type: ignore[type-arg]
    """Post Bo's draws, UNO calls and catches as fast as the server answers until ``stop``; the statuses."""
    events = itertools.cycle([{"type": "draw", "seat": 1}, {"type": "uno", "seat": 1},
                              {"type": "catch", "seat": 1, "target": 0}])
    statuses: collections.Counter[int] = collections.Counter()
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10, source_address=(SEAT, 0))
    while not stop.is_set():
        connection.request("POST", "/api/events", body=json.dumps(next(events)),
                           headers={"Content-Type": "application/json", "X-Seat-Token": token})
        response = connection.getresponse()
        response.read()
        statuses[response.status] += 1
        flooding.set()
    connection.close()
    posted.put(statuses)


def _crowd(port: int, idle: int, slow: int, streams: int, asks: int,
           results: multiprocessing.Queue) -> None:  # type: ignore[type-arg]
    """Open the crowd, keep the slow ones dribbling on a thread, then time ``asks`` reads of the state."""
    silent = [socket.create_connection(("127.0.0.1", port)) for _ in range(idle)]
    dribbling = [socket.create_connection(("127.0.0.1", port)) for _ in range(slow)]
    opened = [_stream(port, f"127.0.0.{2 + k}") for k in range(streams)]
    stop = threading.Event()
    dribbler = threading.Thread(target=_dribble, args=(dribbling, stop))
    dribbler.start()
    answers = _phone_reads(port, asks)
    stop.set()
    dribbler.join()
    results.put((answers, sum(1 for _, status in opened if status == 503), sum(map(_still_open, silent + dribbling))))
    for sock in silent + dribbling + [sock for sock, _ in opened]:
        sock.close()


def _stream(port: int, address: str) -> tuple[socket.socket, int]:
    """Ask for a live stream from ``address``; the connection, to be held open, and the answer's status."""
    sock = socket.create_connection(("127.0.0.1", port), source_address=(address, 0))
    sock.sendall(b"GET /api/stream HTTP/1.1\r\nHost: table\r\n\r\n")
    return sock, int(sock.recv(64).split(b" ")[1])


PHONE = "127.0.1.1"
"""The phone's own address, as on the table's Wi-Fi: the guest is 127.0.0.1, the streams 127.0.0.2 on."""
SEAT = "127.0.2.1"
"""The flooding seat's phone."""


def _dribble(socks: list[socket.socket], stop: threading.Event) -> None:
    """Send each slow request one more header byte a second, never finishing it (where the server has closed
    the connection, the guest tries again the next second)."""
    _send_all(socks, b"GET /api/state HTTP/1.1\r\nHost: table\r\nX-Slow: ")
    while not stop.wait(1.0):
        _send_all(socks, b"a")


def _send_all(socks: list[socket.socket], data: bytes) -> None:
    for sock in socks:
        with contextlib.suppress(OSError):
            sock.sendall(data)


def _still_open(sock: socket.socket) -> bool:
    """Whether the server still holds ``sock``: a closed one reads as the end at once."""
    sock.setblocking(False)
    try:
        return sock.recv(1) != b""
    except BlockingIOError:
        return True
    except OSError:
        return False


SERVE_GOAL_MB = 150.0
"""The table unit's resident memory with 20 phones: a Pi Zero 2 W has 512 MB for everything."""
LARGE_PICTURE = 3
"""How many times the camera's large picture is the small one, each way: a Pi camera's 2304 x 1296 beside 768 x 432."""


class _LargePictures:
    """A filmed round as a camera with two streams gives it, at the camera's pace: each frame with a large
    picture of its own, newly made as picamera2 makes one per frame (here the small picture scaled up: the same
    memory, a frame at a time)."""

    live = False

    def __init__(self, film: Path) -> None:
        self.video = VideoFile(film)
        self.name = f"camera with a large stream, {film.name}"

    def frames(self) -> Iterator[Frame]:
        started = time.monotonic()
        for frame in self.video.frames():
            time.sleep(max(0.0, started + frame.t - time.monotonic()))
            yield Frame(frame.image, frame.t, Sharp(_enlarged(frame.image), LARGE_PICTURE))

    def close(self) -> None:
        self.video.close()


def _enlarged(picture: np.ndarray) -> np.ndarray:
    height, width = picture.shape[:2]
    return cv2.resize(picture, (width * LARGE_PICTURE, height * LARGE_PICTURE), interpolation=cv2.INTER_LINEAR)


def bench_serve(phones: int = 20, seed: int = 5) -> Iterator[Figure]:
    """``tabletop serve``'s resident memory while its camera watches a simulated round (every frame with a large
    picture three times the small one, as the Pi camera's two streams) and ``phones`` phones follow the board.

    The round is filmed first and the service runs in a process of its own, as on the Pi: the simulator that
    paints the film and the phones each live in another, and count in neither its memory nor its time.

    The library files' part is given apart: the same files map in 20 to 30 MB more once the kernel holds them in
    its page cache in large blocks, as it does after many processes read them (a test suite run on the same
    install), with nothing else changed."""
    with tempfile.TemporaryDirectory(prefix="tabletop-bench-") as folder:
        film = _filmed(seed, Path(folder) / "round.avi")
        context = multiprocessing.get_context("spawn")
        said = context.Queue()
        service = context.Process(target=_serve, args=(film, Path(folder) / "state", said), daemon=True)
        service.start()
        assert service.pid is not None
        try:
            port = _served_port(said)
            results, ready = context.Queue(), context.Barrier(phones + 1)
            crowd = context.Process(target=_phones, args=(port, phones, SERVE_SECONDS, ready, results))
            crowd.start()
            ready.wait()
            memory: list[tuple[float, float]] = []
            until = time.monotonic() + SERVE_SECONDS
            while time.monotonic() < until:
                status = _memory_kb(service.pid)
                memory.append((status.get("VmRSS", 0) / 1024, status.get("RssFile", 0) / 1024))
                time.sleep(0.5)
            seen = [results.get(timeout=SERVE_SECONDS + 60) for _ in range(phones)]
            crowd.join()
        finally:
            service.terminate()
            service.join(timeout=30)
    peak, files = max(memory)
    views = sum(len(arrivals) for arrivals in seen)
    yield figure("serve", f"{peak:.1f} MB resident at most ({files:.1f} MB of it library files mapped), "
                 f"{memory[-1][0]:.1f} MB at the end, over {SERVE_SECONDS:.0f} s of a simulated round watched with "
                 f"its large pictures and {phones} phones on the board ({views:,} board views delivered)",
                 f"{SERVE_GOAL_MB:g} MB", peak <= SERVE_GOAL_MB)


def _filmed(seed: int, path: Path) -> Path:
    """The first ``SERVE_SECONDS`` of a simulated round (and a little more), written to ``path`` as a webcam's
    MJPEG video."""
    from tabletop.lab.tablesim.table import simulated_table

    video = simulated_table(seed, rounds=1).video
    writer: cv2.VideoWriter | None = None
    for frame in video.frames():
        if frame.t > SERVE_SECONDS + 10:
            break
        if writer is None:
            height, width = frame.image.shape[:2]
            writer = cv2.VideoWriter(str(path), cv2.VideoWriter.fourcc(*"MJPG"), FILM_FPS, (width, height))
        writer.write(frame.image)
    video.close()
    if writer is not None:
        writer.release()
    return path


FILM_FPS = 30.0


def _serve(film: Path, state: Path, said: multiprocessing.Queue) -> None:  # type: ignore[type-arg]
    """The table unit watching ``film`` as its camera, run until this process is ended."""
    from tabletop.config import Config, Panel
    from tabletop.service import run_service
    from tabletop.sources.open import register

    register("large", lambda _: _LargePictures(film), "a filmed round as a camera with a large stream")
    config = Config(players=("Ann", "Bo", "Cy", "Di"), camera="large", host="127.0.0.1", port=0, pin=PIN,
                    state=state, panel=Panel(buzzer=None))
    run_service(config, threading.Event(), said.put)


SERVE_SECONDS = 60.0
"""How long the service runs under watch: long enough for the camera to read many cards and the phones to follow."""


def _served_port(said: multiprocessing.Queue) -> int:  # type: ignore[type-arg]
    """The port the service says it serves on, once it has said so."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            line = said.get(timeout=max(0.1, deadline - time.monotonic()))
        except queue.Empty:
            break
        found = re.search(r"scoreboard: http://[^:]+:(\d+)/", line)
        if found:
            return int(found.group(1))
    raise TimeoutError("the service did not say where it serves")


HISTORY_GOAL_MS = 300.0
"""The history page's answer over 200 stored games."""
NAMES = ("Ann", "Bo", "Cy", "Dee", "Eli", "Fay")


def bench_history(games: int = 200, stats_games: int = 50, repeats: int = 20) -> Iterator[Figure]:
    """The game nights page over a log of ``games`` simulated games, served as the Pi serves it: its first answer
    with nothing told yet, a restarted table's first (the stories kept beside the log), and then each answer; and
    the statistics of ``stats_games`` games, computed once and then kept until the log changes."""
    from tabletop.history import CACHE_NAME, History, figures_by_player
    from tabletop.lab.bench import timed

    with tempfile.TemporaryDirectory(prefix="tabletop-bench-history-") as folder:
        state = Path(folder)
        _keep_games(state, games)
        times: dict[str, list[float]] = {}
        for when in ("first", "restarted", "then"):
            if when != "then":
                history = History(state)
            if when == "first":
                (state / CACHE_NAME).unlink(missing_ok=True)
            with Table() as table, Server(create_app(table, WebSettings(pin=PIN), history=history),
                                          host="127.0.0.1", port=0) as server:
                times[when] = [_page_seconds(server.port) for _ in range(repeats if when == "then" else 1)]
        first, restarted, then = times["first"][0], times["restarted"][0], statistics.median(times["then"])
        yield figure(f"history page, {games} games", f"{first:.2f} s the first time (every game told), "
                     f"{restarted * 1000:.0f} ms after a restart, then {then * 1000:.0f} ms median",
                     f"≤ {HISTORY_GOAL_MS:.0f} ms", max(restarted, then) * 1000 <= HISTORY_GOAL_MS)
        stories = [kept.story for kept in history.games()[:stats_games] if kept.story is not None]
        computed = min(timed(lambda: figures_by_player(stories), 5))
        history.statistics()
        kept = min(timed(history.statistics, 5))
        yield Figure(f"statistics of {stats_games} games", f"{computed * 1000:.1f} ms computed, {kept * 1000:.2f} ms "
                     "once kept (until the log changes)")


def _keep_games(state: Path, games: int) -> None:
    from tabletop.lab.simulate import simulate_game
    from tabletop.store import GameStore

    store = GameStore(state, report=lambda _: None)
    for seed in range(games):
        played = simulate_game(seed, players=2 + seed % 4).events
        first = played[0]
        assert isinstance(first, Game)
        store.restart([dataclasses.replace(first, players=NAMES[:len(first.players)]), *played[1:]])
    store.close()


def _page_seconds(port: int) -> float:
    """The game nights page as a phone loads it: the page, the list of games and the statistics."""
    started = time.perf_counter()
    for path in ("/history", "/api/history", "/api/statistics"):
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        connection.request("GET", path)
        response = connection.getresponse()
        response.read()
        connection.close()
        assert response.status == 200, path
    return time.perf_counter() - started
