"""The scoreboard's pages in a real headless Chromium (Debian's, driven by Playwright), served by waitress.

Screenshots of every page are saved in tests/output/ for a person to look at.
"""

from __future__ import annotations

import json
import re
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from typing import Any

import cv2
import numpy as np
import pytest
from chromium import OUTPUT, PHONE
from playwright.sync_api import Browser, Page, expect
from scanning import scan
from untranslated import untranslated

from tabletop.camera_inbox import CameraInbox
from tabletop.game.cards import Card
from tabletop.game.events import Evidence, Play, Uno, Unsure
from tabletop.lab.tablesim.table import simulated_table
from tabletop.table import Table
from tabletop.vision.model import CardModel
from tabletop.watcher.camera import CameraWatch
from tabletop.web import WebSettings, create_app, scoreboard_of
from tabletop.web.access import PinGuard
from tabletop.web.server import Server

pytestmark = [pytest.mark.browser, pytest.mark.slow]

PIN = "2468"
RECORD = [
    {"type": "game", "players": ["Ann", "Bo", "Cy"], "rules": {"preset": "official"}},
    {"type": "deal", "dealer": 2},
    {"type": "flip", "card": "red-5"},
    {"type": "play", "card": "red-9", "seat": 0},
]


@pytest.fixture(scope="module")
def table() -> Iterator[Table]:
    with Table() as running:
        yield running


@pytest.fixture(scope="module")
def server(table: Table) -> Iterator[Server]:
    simulated = simulated_table(33, players=3, rules={"preset": "official", "hand_size": 3}, rounds=1)
    with Table() as filmed:  # the camera watches a game of its own, so the tests' records stay theirs
        camera = CameraWatch(simulated.video, CameraInbox(filmed, lambda _: None).deliver, CardModel(),
                             simulated.layout, report=lambda _: None)
        app = create_app(table, WebSettings(pin=PIN), camera=camera)
        camera.start()
        with Server(app, host="127.0.0.1", port=0) as running:
            yield running
        camera.close()


def call(server: Server, path: str, body: Any, method: str = "POST") -> Any:
    data = None if body is None else body.encode() if isinstance(body, str) else json.dumps(body).encode()
    request = urllib.request.Request(server.url() + path, data=data, method=method,
                                     headers={"X-Host-Pin": PIN, "Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.loads(response.read() or b"null")


def eventually(condition: Callable[[], bool], seconds: float = 2.0) -> bool:
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.02)
    return True


def overlaps(one: Any, other: Any) -> bool:
    return bool(one["x"] < other["x"] + other["width"] and other["x"] < one["x"] + one["width"]
                and one["y"] < other["y"] + other["height"] and other["y"] < one["y"] + one["height"])


def host_page(server: Server, page: Page) -> None:
    page.goto(server.url() + "/host")
    page.locator("#pin").fill(PIN)
    page.locator("#pin-submit").click()


def start(server: Server) -> None:
    call(server, "/api/record", "\n".join(json.dumps(event) for event in RECORD))


def test_the_board_changes_within_a_second_of_an_event(server: Server, page: Page) -> None:
    start(server)
    page.goto(server.url() + "/")
    expect(page.locator("#top-card")).to_have_attribute("data-card", "red-9")
    call(server, "/api/events", {"type": "play", "card": "red-7", "seat": 1})
    expect(page.locator("#top-card")).to_have_attribute("data-card", "red-7", timeout=1000)
    expect(page.locator("#turn")).to_have_text("Cy", timeout=1000)
    expect(page.locator(".player[data-seat='1'] .hand")).to_have_text("6")
    page.screenshot(path=str(OUTPUT / "board.png"), full_page=True)


def test_a_penalty_is_impossible_to_miss(server: Server, page: Page) -> None:
    start(server)
    page.goto(server.url() + "/")
    expect(page.locator("#top-card")).to_have_attribute("data-card", "red-9")
    call(server, "/api/events", {"type": "play", "card": "blue-3", "seat": 1})
    expect(page.locator("#alert")).to_be_visible(timeout=1000)
    expect(page.locator("#alert")).to_contain_text("Bo played a card that does not match")
    expect(page.locator("#penalties")).to_contain_text("Bo played a card that does not match")
    page.screenshot(path=str(OUTPUT / "board-alert.png"), full_page=True)


def test_pressing_uno_on_a_seat_page_reaches_the_referee(server: Server, table: Table, page: Page) -> None:
    start(server)
    page.goto(server.url() + "/seat/1")
    page.locator("#claim").click()
    expect(page.locator("#claim-message")).to_contain_text("Scan this seat")
    page.goto(call(server, "/api/seats/1/invite", None)["url"])
    page.locator("#claim").click()
    expect(page.locator("#uno")).to_be_visible()
    assert "join=" not in page.url
    said, players = page.locator("#message"), page.locator("#players")
    expect(said).to_contain_text("This phone is now Bo's")
    assert not overlaps(said.bounding_box(), players.bounding_box()), "the message covers the players"
    expect(page.locator("#sound")).to_have_text("♪ Sound is off")
    page.locator("#sound").click()
    expect(page.locator("#sound")).to_have_text("♪ Sound is on")
    expect(page.locator("#sound")).to_have_attribute("aria-pressed", "true")
    page.locator("#uno").click()
    assert eventually(lambda: isinstance(table.snapshot.record[-1], Uno))
    assert table.snapshot.record[-1] == Uno(seat=1)
    assert table.snapshot.record[-1].source == "phone"
    page.screenshot(path=str(OUTPUT / "seat.png"), full_page=True)


def test_a_host_correction_changes_the_board(server: Server, browser: Browser, page: Page) -> None:
    start(server)
    call(server, "/api/events", {"type": "unsure", "guesses": [["red-1", 0.47], ["red-7", 0.41]], "seat": 1})
    board = browser.new_context(viewport=PHONE).new_page()
    board.goto(server.url() + "/")
    expect(board.locator("#top-card")).to_have_attribute("data-card", "red-9")
    page.goto(server.url() + "/host")
    page.locator("#pin").fill(PIN)
    page.locator("#pin-submit").click()
    unsure = page.locator("#unsure [data-ref='4']")
    expect(unsure).to_be_visible()
    expect(page.locator("#record")).to_contain_text("Ann played Red 9")
    unsure.locator("button.guess[data-card='red-7']").click()
    expect(board.locator("#top-card")).to_have_attribute("data-card", "red-7", timeout=1000)
    page.screenshot(path=str(OUTPUT / "host.png"), full_page=True)
    board.context.close()


def test_the_host_page_signs_in_while_a_guest_at_the_same_address_is_made_to_wait(server: Server,
                                                                                    page: Page) -> None:
    """A guest's script guessing PINs from the host's own address (one router) is told to wait; the host page,
    which names its browser, spends only its own tries and opens at once."""
    start(server)
    guessed = []
    try:
        for guess in ("0000", "1111", "1234", "9999", "4321", "5555"):
            request = urllib.request.Request(server.url() + "/api/host/check", method="POST",
                                             headers={"X-Host-Pin": guess})
            try:
                urllib.request.urlopen(request, timeout=10).close()
            except urllib.error.HTTPError as refused:
                guessed.append(refused.code)
                refused.close()
        assert guessed[-1] == 429
        host_page(server, page)
        expect(page.locator("#record")).to_contain_text("Ann played Red 9")
    finally:
        scoreboard_of(server.app).guard = PinGuard()  # the other tests' host calls share the guest's address


def test_the_join_page_shows_a_code_a_phone_can_scan(server: Server, page: Page) -> None:
    start(server)
    page.goto(server.url() + "/join")
    code = page.locator("img[src*='/qr/seat/2.svg']")
    expect(code).to_be_visible()
    picture = cv2.imdecode(np.frombuffer(code.screenshot(), np.uint8), cv2.IMREAD_GRAYSCALE)
    scanned = scan(picture)
    assert scanned.startswith(server.url() + "/seat/2#join=")
    page.screenshot(path=str(OUTPUT / "join.png"), full_page=True)
    phone = page.context.browser.new_context(viewport=PHONE).new_page()  # type: ignore[union-attr]
    phone.goto(scanned)
    phone.locator("#claim").click()
    expect(phone.locator("#uno")).to_be_visible()
    expect(page.locator("figure[data-seat='2'][data-joined='true']")).to_be_visible(timeout=8000)
    phone.context.close()


@pytest.mark.parametrize("path", ["/", "/seat/0", "/host", "/join"])
def test_every_page_fits_a_360_pixel_phone(server: Server, page: Page, path: str) -> None:
    start(server)
    page.goto(server.url() + path)
    page.wait_for_load_state("load")
    page.wait_for_timeout(300)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


def grip(page: Page, zone: str) -> tuple[float, float]:
    """A point in view where the zone itself is on top (other zones and seat marks may lie over its middle)."""
    page.locator(f"[data-zone='{zone}']").scroll_into_view_if_needed()
    box = page.locator(f"[data-zone='{zone}']").bounding_box()
    assert box is not None
    for fx, fy in ((0.5, 0.5), (0.5, 0.3), (0.3, 0.5), (0.7, 0.5), (0.5, 0.7), (0.35, 0.35), (0.65, 0.65)):
        x, y = box["x"] + box["width"] * fx, box["y"] + box["height"] * fy
        hit = page.evaluate(f"document.elementFromPoint({x}, {y})?.closest('[data-zone]')?.dataset.zone")
        if hit == zone:
            return x, y
    raise AssertionError(f"the {zone} zone is covered everywhere")


def test_the_host_drags_a_zone_over_the_live_preview_and_saves_it(server: Server, page: Page) -> None:
    start(server)
    page.goto(server.url() + "/host")
    page.locator("#pin").fill(PIN)
    page.locator("#pin-submit").click()
    page.locator("#camera summary").click()
    expect(page.locator("[data-zone='discard']")).to_be_visible()
    page.wait_for_function("document.getElementById('camera-img').naturalWidth === 640")
    assert "ticket=" in page.locator("#camera-img").get_attribute("src") and PIN not in page.content()
    before = call(server, "/api/layout", None, method="GET")["layout"]["discard"]["centre"]
    x, y = grip(page, "discard")
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x + 30, y + 15, steps=5)
    page.mouse.up()
    page.locator("#save-layout").click()
    expect(page.locator("#camera-message")).to_contain_text("saved")
    after = call(server, "/api/layout", None, method="GET")["layout"]["discard"]["centre"]
    shown = page.evaluate("document.getElementById('camera-view').clientWidth")
    assert after[0] - before[0] == pytest.approx(30 * 640 / shown, abs=2)
    assert after[1] - before[1] == pytest.approx(15 * 640 / shown, abs=2)
    page.screenshot(path=str(OUTPUT / "host-camera.png"), full_page=True)


def test_a_board_refused_a_live_stream_still_follows_the_game(browser: Browser, page: Page) -> None:
    """With every stream taken (here the limit is none), the page reads the board every few seconds instead."""
    with Table() as table:
        app = create_app(table, WebSettings(pin=PIN, streams=0))
        with Server(app, host="127.0.0.1", port=0) as crowded:
            start(crowded)
            page.goto(crowded.url() + "/")
            expect(page.locator("#top-card")).to_have_attribute("data-card", "red-9")
            call(crowded, "/api/events", {"type": "play", "card": "red-7", "seat": 1})
            expect(page.locator("#top-card")).to_have_attribute("data-card", "red-7", timeout=5000)


def test_the_host_gives_a_code_that_moves_a_seat_to_another_phone(server: Server, browser: Browser, page: Page
                                                                  ) -> None:
    start(server)
    page.goto(server.url() + "/host")
    page.locator("#pin").fill(PIN)
    page.locator("#pin-submit").click()
    page.locator("details:has(#join-codes) summary").click()
    page.locator("#join-codes figure[data-seat='1'] button").click()
    link = page.locator("#join-codes figure[data-seat='1'] a")
    expect(link).to_have_attribute("href", re.compile(r"/seat/1#join="))
    phone = browser.new_context(viewport=PHONE).new_page()
    phone.goto(str(link.get_attribute("href")))
    phone.locator("#claim").click()
    expect(phone.locator("#uno")).to_be_visible()
    phone.context.close()


def test_while_a_wild_waits_for_its_colour_the_board_says_who_is_choosing(server: Server, page: Page) -> None:
    start(server)
    page.goto(server.url() + "/")
    call(server, "/api/events", {"type": "play", "card": "wild", "seat": 1})
    expect(page.locator("#active-color")).to_contain_text("Bo is choosing", timeout=1000)
    call(server, "/api/events", {"type": "color", "color": "blue", "seat": 1})
    expect(page.locator("#active-color")).to_have_attribute("data-color", "blue", timeout=1000)
    expect(page.locator("#active-color")).not_to_contain_text("choosing")


def test_the_host_page_sums_the_game_up_at_the_top_and_puts_a_missed_draw_right_in_one_tap(
        server: Server, table: Table, page: Page) -> None:
    """Bo plays while Ann's draw went unseen: the summary says Ann's hand is unknown, and one tap inserts her draw
    before Bo's card, which makes her hand known again."""
    start(server)
    call(server, "/api/events", {"type": "play", "card": "red-3", "seat": 2})
    host_page(server, page)
    expect(page.locator("#summary-line")).to_have_text("Round 1: Ann to play, Red 3 on top.")
    expect(page.locator("#summary-hands")).to_contain_text("Cards: Ann 6 · Bo ? · Cy 6.")
    need = page.locator("#needs li.unseen-draw[data-seat='1']")
    expect(need).to_contain_text("Bo's hand is unknown")
    page.screenshot(path=str(OUTPUT / "host-summary.png"), full_page=True)
    need.locator("button.put-draw").click()
    expect(page.locator("#summary-hands")).to_contain_text("Bo 8", timeout=2000)
    expect(need).to_have_count(0)
    inserted = table.snapshot.record[-1].to_json()
    assert (inserted["type"], inserted["ref"], inserted["event"]) == ("insert", 4, {"type": "draw", "seat": 1})
    assert page.evaluate("document.getElementById('summary').getBoundingClientRect().top") < \
        page.evaluate("document.getElementById('record-box').getBoundingClientRect().top")


def test_the_host_puts_in_a_missed_uno_call_from_the_record(server: Server, table: Table, page: Page) -> None:
    """Ann laid her second-to-last card and called UNO, but nobody pressed it; Bo's catch then found her owing
    one. Inserting her call before the catch takes the penalty away."""
    lines = [{"type": "game", "players": ["Ann", "Bo", "Cy"], "rules": {"preset": "official", "hand_size": 2}},
             {"type": "deal", "dealer": 2}, {"type": "flip", "card": "red-5"},
             {"type": "play", "card": "red-9", "seat": 0}, {"type": "catch", "seat": 1, "target": 0}]
    call(server, "/api/record", "\n".join(json.dumps(line) for line in lines))
    host_page(server, page)
    expect(page.locator("#summary-hands")).to_contain_text("1 penalty so far")
    row = page.locator("#record li[data-ref='4']")
    row.locator("button.missed").click()
    row.locator(".missed-form select[aria-label='who']").select_option("0")
    row.locator(".missed-form select[aria-label='what happened']").select_option("uno")
    expect(row.locator(".missed-form input[aria-label='cards drawn']")).to_be_hidden()
    row.locator(".missed-form button.save").click()
    expect(page.locator("#record-message")).to_contain_text("Put in before #4: Ann called UNO")
    expect(page.locator("#summary-hands")).to_contain_text("0 penalties so far")
    expect(page.locator("#record li[data-ref='5']")).to_contain_text("Missed before #4: Ann called UNO")
    assert [v.to_json()["reason"] for v in table.snapshot.verdicts if v.TYPE == "penalty"] == []


def test_the_host_record_shows_a_page_of_the_newest_lines_and_more_on_request(server: Server, page: Page) -> None:
    start(server)
    for card in ("red-7", "red-2", "red-8", "red-4", "red-6", "red-1", "red-3", "red-0", "red-7", "red-2", "red-8"):
        call(server, "/api/events", {"type": "play", "card": card})
    host_page(server, page)
    expect(page.locator("#record li")).to_have_count(12)
    expect(page.locator("#record li").first).to_have_attribute("data-ref", "14")
    expect(page.locator("#record-older")).to_have_text("Show older lines (12 of 15 shown)")
    page.locator("#record-older").click()
    expect(page.locator("#record li")).to_have_count(15)
    expect(page.locator("#record-older")).to_be_hidden()


def camera_play(table: Table, card: str, seat: int, guesses: tuple[tuple[str, float], ...]) -> None:
    """A play as the camera reports it: with what it saw (here a plain red card) and how sure it was."""
    jpeg = cv2.imencode(".jpg", np.full((144, 96, 3), (40, 40, 200), np.uint8))[1].tobytes()
    seen = Evidence(jpeg, guesses[0][1], tuple((Card.from_name(name), p) for name, p in guesses))
    table.submit(Play(card=Card.from_name(card), seat=seat, source="camera", evidence=seen))


def test_anyone_can_see_what_the_camera_saw_of_the_card_on_top(server: Server, table: Table, page: Page) -> None:
    start(server)
    page.goto(server.url() + "/")
    expect(page.locator("#seen-top")).to_be_hidden()
    camera_play(table, "red-7", 1, (("red-7", 0.71), ("red-1", 0.2)))
    expect(page.locator("#seen-top")).to_be_visible(timeout=1000)
    page.locator("#seen-top").click()
    box = page.locator("#seen-box .evidence")
    expect(box).to_contain_text("Read as Red 7: 71% sure.")
    expect(box).to_contain_text("Also thought of: Red 1 20%.")
    page.wait_for_function("document.querySelector('#seen-box img').naturalWidth === 96")
    page.screenshot(path=str(OUTPUT / "board-evidence.png"), full_page=True)
    call(server, "/api/events", {"type": "play", "card": "red-2", "seat": 2})
    expect(page.locator("#seen-top")).to_be_hidden(timeout=1000)
    expect(box).to_have_count(0)


def test_the_host_puts_a_misread_right_from_its_picture_in_two_taps(server: Server, table: Table,
                                                                     browser: Browser, page: Page) -> None:
    start(server)
    camera_play(table, "red-7", 1, (("red-7", 0.71), ("red-1", 0.2)))
    board = browser.new_context(viewport=PHONE).new_page()
    board.goto(server.url() + "/")
    expect(board.locator("#top-card")).to_have_attribute("data-card", "red-7")
    host_page(server, page)
    row = page.locator("#record li[data-ref='4']")
    row.locator("button.picture").click()
    page.wait_for_function("document.querySelector(\"#record li[data-ref='4'] .evidence img\").naturalWidth === 96")
    row.locator(".evidence button.guess[data-card='red-1']").click()
    expect(board.locator("#top-card")).to_have_attribute("data-card", "red-1", timeout=2000)
    amend = table.snapshot.record[-1].to_json()
    assert (amend["type"], amend["ref"], amend["event"]) == ("amend", 4, {"type": "play", "card": "red-1", "seat": 1})
    board.context.close()


def test_an_unsure_reading_shows_its_picture_beside_the_guesses(server: Server, table: Table, page: Page) -> None:
    start(server)
    jpeg = cv2.imencode(".jpg", np.full((144, 96, 3), 128, np.uint8))[1].tobytes()
    guesses = ((Card.from_name("red-1"), 0.47), (Card.from_name("red-7"), 0.41))
    table.submit(Unsure(guesses=guesses, seat=1, source="camera", evidence=Evidence(jpeg, 0.47, guesses)))
    host_page(server, page)
    unsure = page.locator("#unsure [data-ref='4']")
    expect(unsure.locator("img.seen")).to_be_visible()
    page.wait_for_function("document.querySelector(\"#unsure [data-ref='4'] img.seen\").naturalWidth === 96")
    expect(unsure.locator("button.guess")).to_have_count(2)


@pytest.mark.parametrize("language", ["sv", "da", "bg", "ru"])
def test_every_page_speaks_the_phones_language_with_no_english_left(server: Server, browser: Browser,
                                                                    language: str) -> None:
    """A phone whose browser asks for the language: the board, a seat, the join screen and the whole host page
    (every section open), with their scripts' words, and screenshots kept."""
    start(server)
    call(server, "/api/events", {"type": "play", "card": "blue-9", "seat": 1})
    context = browser.new_context(viewport=PHONE, locale=language)
    page = context.new_page()
    for name, path in (("board", "/"), ("seat", "/seat/2"), ("join", "/join")):
        page.goto(server.url() + path)
        page.wait_for_timeout(400)
        assert page.locator("html").get_attribute("lang") == language
        assert untranslated(page, language) == [], f"{name} in {language}"
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"], f"{name} in {language}"
        page.screenshot(path=str(OUTPUT / f"{language}-{name}.png"), full_page=True)
    host_page(server, page)
    expect(page.locator("#summary-line")).not_to_be_empty()
    for section in page.locator("details:not([open]) > summary").all():
        if section.is_visible():
            section.click()
    page.locator("#record li[data-ref='4'] button.missed").click()
    page.wait_for_timeout(400)
    assert untranslated(page, language) == [], f"host in {language}"
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"], f"host in {language}"
    page.screenshot(path=str(OUTPUT / f"{language}-host.png"), full_page=True)
    context.close()


def test_a_phone_switches_language_on_the_page_and_keeps_it(server: Server, browser: Browser) -> None:
    start(server)
    context = browser.new_context(viewport=PHONE, locale="en-GB")
    page = context.new_page()
    page.goto(server.url() + "/")
    expect(page.locator("h2").first).to_have_text("Penalties")
    page.locator("#language").select_option("ru")
    expect(page.locator("html")).to_have_attribute("lang", "ru")
    assert page.locator("h2").first.inner_text() != "Penalties"
    page.goto(server.url() + "/seat/1")
    expect(page.locator("html")).to_have_attribute("lang", "ru")
    forms = page.evaluate("import('/static/i18n.js').then(m => [1, 2, 5, 21].map(n => m.ngettext('card', 'cards', n)))")
    assert len(set(forms[:3])) == 3 and forms[3] == forms[0], forms
    context.close()


@pytest.mark.parametrize(("language", "shuffle", "group"), [("en-GB", "Wild shuffle hands", "Wild cards"),
                                                            ("sv", "Välj färg: blanda händerna", "Svarta kort")])
def test_the_special_wilds_of_the_112_card_deck_show_on_the_board_and_in_the_hosts_picker(
        server: Server, browser: Browser, language: str, shuffle: str, group: str) -> None:
    """A Wild Shuffle Hands laid is drawn on the board under its own name; the host can flip or correct any of the
    three special wilds, and sets what the blank one does and what they score."""
    start(server)
    call(server, "/api/events", {"type": "play", "card": "wild-shuffle-hands", "seat": 1})
    context = browser.new_context(viewport=PHONE, locale=language)
    page = context.new_page()
    page.goto(server.url() + "/")
    top = page.locator("#top-card")
    expect(top).to_have_attribute("data-card", "wild-shuffle-hands", timeout=2000)
    expect(top).to_have_attribute("aria-label", shuffle)
    expect(top).to_have_class(re.compile(r"\bwild\b"))
    page.screenshot(path=str(OUTPUT / f"special-wild-board-{language}.png"), full_page=True)
    host_page(server, page)
    wilds = page.locator(f"#flip-picker optgroup[label='{group}'] option")
    expect(wilds).to_have_count(5)
    assert [option.get_attribute("value") for option in wilds.all()] == [
        "wild", "wild-draw-four", "wild-shuffle-hands", "wild-swap-hands", "wild-customizable"]
    page.locator("#new-game > summary").click()
    choices = page.locator("#option-wild_customizable option")
    assert [option.get_attribute("value") for option in choices.all()] == [
        "wild", "wild-draw-two", "everyone-draws-one", "swap-hands"]
    expect(page.locator("#option-special_wild_points")).to_have_value("40")
    if language == "sv":
        assert untranslated(page, language) == []
    page.screenshot(path=str(OUTPUT / f"special-wild-host-{language}.png"), full_page=True)
    context.close()
