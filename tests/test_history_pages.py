"""The score race, the game nights, the statistics and the evening in numbers in a real headless Chromium, over a
log of simulated games whose truth is known. Screenshots are kept in tests/output/."""

from __future__ import annotations

import csv
import dataclasses
import io
import json
import sqlite3
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import cv2
import numpy as np
import pytest
from chromium import OUTPUT, PHONE
from histories import evening_at, keep, named, truth_figures
from playwright.sync_api import Browser, Page, expect
from untranslated import untranslated

from tabletop.game.events import Event, Evidence, Play
from tabletop.game.record import write_record
from tabletop.game.story import tell
from tabletop.history import History
from tabletop.lab.simulate import SimulatedGame, simulate_game
from tabletop.store import FILE_NAME, GameStore
from tabletop.table import Table
from tabletop.web import WebSettings, create_app
from tabletop.web.server import Server

pytestmark = [pytest.mark.browser, pytest.mark.slow]

PIN = "2468"
KEPT = [(3, ("Ann", "Bo", "Cy")), (8, ("Cy", "Ann", "Bo")), (21, ("Bo", "Dee", "Ann", "Cy"))]
"""The games in the log before the tests begin: seed and players."""
PLAYED = (13, ("Ann", "Bo", "Cy"))
"""The game the table plays during the tests: imported whole, as a finished game."""
DAMAGED = (5, ("Ann", "Eve"))
"""A game of an evening before, the log's first, with a line that cannot be read."""
FIRST = 2
"""The first of the games in KEPT, in the log."""
LIVE = [{"type": "game", "players": ["Ann", "Bo"], "rules": {"preset": "official"}}, {"type": "deal", "dealer": 1},
        {"type": "flip", "card": "red-5"}]


def game_of(seed: int, players: tuple[str, ...]) -> SimulatedGame:
    return simulate_game(seed, players=len(players), rules={"preset": "official", "target": 300})


def with_pictures(events: list[Event]) -> list[Event]:
    """Every card played carries the picture the camera took of it, as the camera's lines do."""
    ok, jpeg = cv2.imencode(".jpg", np.full((96, 64, 3), 200, np.uint8))
    assert ok
    return [dataclasses.replace(e, evidence=Evidence(jpeg.tobytes(), 0.9, ((e.card, 0.9),)))
            if isinstance(e, Play) else e for e in events]


@pytest.fixture(scope="module")
def state(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("history")
    keep(folder, [(evening_at(2, 20), named(game_of(*DAMAGED), DAMAGED[1]))])
    keep(folder, [(evening_at(3, 19 + i), with_pictures(named(game_of(seed, names), names)))
                  for i, (seed, names) in enumerate(KEPT)])
    with sqlite3.connect(folder / FILE_NAME) as db:
        db.execute("UPDATE events SET event = '{broken' WHERE game = 1 AND line = 30")
    return folder


@pytest.fixture(scope="module")
def server(state: Path) -> Iterator[Server]:
    store = GameStore(state, report=lambda _: None)
    with Table(log=store, events=store.events) as table:
        app = create_app(table, WebSettings(pin=PIN), history=History(state))
        with Server(app, host="127.0.0.1", port=0) as running:
            yield running
    store.close()


def load(server: Server, lines: list[str]) -> None:
    """The host imports a record (its JSON lines) as the table's game: a new game in the log."""
    request = urllib.request.Request(server.url() + "/api/record", data="\n".join(lines).encode(), method="POST",
                                     headers={"X-Host-Pin": PIN, "Content-Type": "application/x-ndjson"})
    with urllib.request.urlopen(request, timeout=10) as response:
        assert response.status < 300


def played(server: Server) -> SimulatedGame:
    game = game_of(*PLAYED)
    load(server, list(write_record(named(game, PLAYED[1]))))
    return game


def no_overflow(page: Page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


def race_points(page: Page) -> list[list[tuple[float, float]]]:
    lines = page.locator("#race .race-line").evaluate_all("lines => lines.map(l => l.getAttribute('points'))")
    return [[(float(x), float(y)) for x, y in (p.split(",") for p in line.split())] for line in lines]


def test_the_score_race_after_a_played_game_matches_its_totals(server: Server, page: Page) -> None:
    game = played(server)
    totals = game.truth.scores[-1][3]
    page.goto(server.url() + "/")
    expect(page.locator("#race figure")).to_have_attribute("data-rounds", str(len(game.truth.scores)))
    assert page.locator("#race .race-legend .total").all_text_contents() == [str(t) for t in totals]
    lines = race_points(page)
    assert len(lines) == len(PLAYED[1]) and all(len(line) == len(game.truth.scores) + 1 for line in lines)
    heights = [[y for _, y in line] for line in lines]
    for seat in range(len(PLAYED[1])):  # higher on the page is more points: each step follows the totals
        steps = [0, *(scores[3][seat] for scores in game.truth.scores)]
        assert all((b > a) == (hb < ha) for a, b, ha, hb in zip(steps, steps[1:], heights[seat], heights[seat][1:],
                                                                 strict=False))
    assert sorted(range(3), key=lambda s: -totals[s]) == sorted(range(3), key=lambda s: heights[s][-1])
    expect(page.locator("#race .target-label")).to_have_text("target 300")
    no_overflow(page)
    page.locator("#race-panel").screenshot(path=str(OUTPUT / "score-race.png"))


def test_a_rounds_row_opens_on_the_hands_that_scored_it(server: Server, page: Page) -> None:
    game = played(server)
    story = tell(named(game, PLAYED[1]))
    shown = next(r for r in story.rounds if any("cards" in hand and hand["cards"] for hand in r.hands))
    page.goto(server.url() + "/")
    row = page.locator(f"#rounds tr[data-round='{shown.round}']")
    row.locator(".open-round").click()
    hands = page.locator(f"#rounds tr[data-hands='{shown.round}']")
    expect(hands).to_be_visible()
    for hand in shown.hands:
        item = hands.locator(f"li[data-seat='{hand['seat']}']")
        expect(item.locator(".name")).to_have_text(PLAYED[1][hand["seat"]])
        if "cards" in hand:
            cards = item.locator(".card").evaluate_all("cards => cards.map(c => c.dataset.card)")
            assert cards == hand["cards"]
    page.locator("#rounds").screenshot(path=str(OUTPUT / "round-hands.png"))


def test_the_host_page_draws_the_same_race(server: Server, page: Page) -> None:
    game = played(server)
    page.goto(server.url() + "/host")
    page.locator("#pin").fill(PIN)
    page.locator("#pin-submit").click()
    page.locator("#race-box summary").click()
    expect(page.locator("#race .race-legend .total")).to_have_count(3)
    assert page.locator("#race .race-legend .total").all_text_contents() == [str(t) for t in game.truth.scores[-1][3]]
    no_overflow(page)


def test_game_nights_list_every_game_newest_first_and_open_on_its_story(server: Server, state: Path,
                                                                       page: Page) -> None:
    listed = History(state).games()
    page.goto(server.url() + "/history")
    items = page.locator("#games > li")
    expect(items).to_have_count(len(listed))
    assert items.evaluate_all("items => items.map(i => Number(i.dataset.game))") == [kept.game for kept in listed]
    damaged = page.locator("#games li[data-game='1']")
    expect(damaged).to_have_class("damaged")
    expect(damaged).to_contain_text("damaged: kept aside from the statistics")
    no_overflow(page)
    page.screenshot(path=str(OUTPUT / "history.png"), full_page=True)
    first = History(state).game(FIRST)
    assert first.story is not None
    page.locator(f"#games li[data-game='{FIRST}'] a").click()
    expect(page.locator("#race figure")).to_have_attribute("data-rounds", str(len(first.story.rounds)))
    assert page.locator("#race .race-legend .total").all_text_contents() == [str(t) for t in first.story.totals]
    expect(page.locator("#penalties > li")).to_have_count(len(first.story.penalties))
    pictured = page.locator("#penalties img").first
    pictured.scroll_into_view_if_needed()
    page.wait_for_function("document.querySelector('#penalties img').naturalWidth === 64")
    expect(page.locator("#record > li")).to_have_count(len(History(state).record(FIRST)))
    no_overflow(page)
    page.screenshot(path=str(OUTPUT / "history-game.png"), full_page=True)


def shown_figures(page: Page) -> dict[str, dict[str, str]]:
    """The figures table as shown: by player name, each figure's text."""
    names = page.locator("#figures thead th[scope='col']").all_text_contents()
    out: dict[str, dict[str, str]] = {name: {} for name in names}
    for row in page.locator("#figures tbody tr").all():
        figure = row.get_attribute("data-figure") or ""
        for name, cell in zip(names, row.locator("td").all_text_contents(), strict=True):
            out[name][figure] = cell
    return out


def test_the_statistics_of_an_evening_are_what_the_simulator_knows(server: Server, page: Page) -> None:
    page.goto(server.url() + "/history")
    page.locator("#evening-pick").select_option("2026-12-03")
    expect(page.locator("#figures")).to_have_attribute("data-evening", "2026-12-03")
    expect(page.locator("#figures thead th[scope='col']")).to_have_count(4)
    shown = shown_figures(page)
    expected: dict[str, dict[str, int]] = {}
    for seed, names in KEPT:
        for name, figures in zip(names, truth_figures(game_of(seed, names)), strict=True):
            mine = expected.setdefault(name, {"games": 0})
            mine["games"] += 1
            for key, value in figures.items():
                mine[key] = mine.get(key, 0) + value
    for name, figures in expected.items():
        assert {key: int(shown[name][key]) for key in figures} == figures, name
    page.locator("#figures").screenshot(path=str(OUTPUT / "statistics.png"))


def test_the_spreadsheet_downloaded_from_the_page_sums_to_each_games_totals(server: Server, state: Path,
                                                                            page: Page) -> None:
    page.goto(server.url() + "/history")
    with page.expect_download() as download:
        page.get_by_text("Every game as a spreadsheet (CSV)").click()
    rows = list(csv.DictReader(io.StringIO(Path(download.value.path()).read_text(encoding="utf-8"))))
    assert not [row for row in rows if row["game"] == "1"], "the damaged game is kept out"
    for kept in History(state).games():
        if kept.story is None or not kept.story.rounds or kept.damage:
            continue
        mine = [row for row in rows if row["game"] == str(kept.game)]
        for seat, name in enumerate(kept.story.players):
            assert sum(int(row[name]) for row in mine) == kept.story.totals[seat]


def test_the_evening_in_numbers_shows_on_every_phone_and_saves_as_a_picture(server: Server, browser: Browser,
                                                                           page: Page) -> None:
    game = played(server)
    assert game.truth.winner is not None
    winner = PLAYED[1][game.truth.winner]
    for path in ("/seat/1", "/host", "/"):
        phone = page if path == "/" else browser.new_page(viewport=PHONE)
        phone.goto(server.url() + path)
        if path == "/host":
            phone.locator("#pin").fill(PIN)
            phone.locator("#pin-submit").click()
        expect(phone.locator("#evening")).to_be_visible()
        names = phone.locator("#evening-figures thead th[scope='col']").all_text_contents()
        won = phone.locator("#evening-figures tr[data-figure='games_won'] td").all_text_contents()
        assert int(won[names.index(winner)]) >= 1
        if phone is not page:
            phone.close()
    with page.expect_download() as download:
        page.locator("#evening-save").click()
    picture = cv2.imdecode(np.frombuffer(Path(download.value.path()).read_bytes(), np.uint8), cv2.IMREAD_COLOR)
    assert picture is not None and picture.shape[0] > 300 and picture.shape[1] > 300
    assert download.value.suggested_filename.endswith(".png")
    page.locator("#evening").screenshot(path=str(OUTPUT / "evening.png"))
    page.locator("#evening-close").click()
    expect(page.locator("#evening")).to_be_hidden()


WAKE_LOCK = """
window.wake = {asked: 0, released: 0};
Object.defineProperty(Navigator.prototype, 'wakeLock', {configurable: true, get: () => ({
  request: async () => {
    window.wake.asked += 1;
    const listeners = [];
    const lock = {released: false, addEventListener: (name, f) => listeners.push(f),
      release: async () => { lock.released = true; window.wake.released += 1; listeners.forEach(f => f()); }};
    return lock;
  }})});
"""
NO_WAKE_LOCK = "Object.defineProperty(Navigator.prototype, 'wakeLock', {configurable: true, value: undefined}); " \
               "delete Navigator.prototype.wakeLock;"


def test_the_phone_asks_to_stay_awake_while_a_round_is_live_and_lets_go_after(server: Server, page: Page) -> None:
    page.add_init_script(WAKE_LOCK)
    load(server, [json.dumps(event) for event in LIVE])
    page.goto(server.url() + "/seat/0")
    page.wait_for_function("window.wake.asked === 1")
    assert page.evaluate("window.wake.released") == 0
    played(server)
    page.wait_for_function("window.wake.released === 1")


def test_a_browser_without_a_wake_lock_shows_no_error(server: Server, page: Page) -> None:
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.add_init_script(NO_WAKE_LOCK)
    load(server, [json.dumps(event) for event in LIVE])
    page.goto(server.url() + "/")
    expect(page.locator("#top-card")).to_have_attribute("data-card", "red-5")
    assert page.evaluate("'wakeLock' in navigator") is False
    assert errors == []


@pytest.mark.parametrize("language", ["sv", "da", "bg", "ru"])
def test_the_history_pages_speak_the_phones_language(server: Server, browser: Browser, language: str) -> None:
    played(server)
    context = browser.new_context(viewport=PHONE, locale=language)
    page = context.new_page()
    for path in ("/history", f"/history/{FIRST}", "/"):
        page.goto(server.url() + path)
        expect(page.locator("#figures thead th, #race figure").first).to_be_visible()
        for toggle in page.locator(".open-round").all()[:1]:
            toggle.click()
        assert untranslated(page, language) == [], path
        no_overflow(page)
        page.screenshot(path=str(OUTPUT / f"history-{language}{path.replace('/', '-')}.png"), full_page=True)
    context.close()
