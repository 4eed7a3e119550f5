"""The host's list of events reads as people speak at the table: names, cards and outcomes in words.

The pages write each line from the record's codes (web/static/words.js), so this reads them in a real page.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Page, sync_playwright

from tabletop.table import Table
from tabletop.web import WebSettings, create_app
from tabletop.web.server import Server

pytestmark = [pytest.mark.browser]

PLAYERS = ("Ann", "Bo", "Cy")
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"


@pytest.fixture(scope="module")
def page() -> Iterator[Page]:
    with Table() as table, Server(create_app(table, WebSettings(pin="2468")), host="127.0.0.1", port=0) as server, \
            sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
        opened = browser.new_page(locale="en")
        opened.goto(server.url() + "/join")
        yield opened
        browser.close()


@pytest.mark.parametrize(("event", "words"), [
    ({"type": "game", "players": ["Ann", "Bo", "Cy"], "rules": {"preset": "party"}},
     "New game: Ann, Bo, Cy (party rules)"),
    ({"type": "deal", "dealer": 2}, "Cy dealt"),
    ({"type": "flip", "card": "green-draw-two"}, "Flipped Green draw two"),
    ({"type": "play", "card": "wild-draw-four", "seat": 0}, "Ann played Wild draw four"),
    ({"type": "play", "card": "red-9"}, "The player to play played Red 9"),
    ({"type": "color", "color": "blue", "seat": 0}, "Ann named Blue"),
    ({"type": "draw", "seat": 1, "count": 4}, "Bo drew 4 cards"),
    ({"type": "draw", "seat": 1}, "Bo drew 1 card"),
    ({"type": "pass", "seat": 1}, "Bo passed"),
    ({"type": "uno", "seat": 2}, "Cy called UNO"),
    ({"type": "catch", "seat": 0, "target": 2}, "Ann caught Cy without UNO"),
    ({"type": "challenge", "seat": 1}, "Bo challenged the Wild Draw Four"),
    ({"type": "challenge", "seat": 1, "guilty": False}, "Bo challenged the Wild Draw Four: not guilty"),
    ({"type": "challenge", "seat": 1, "guilty": True}, "Bo challenged the Wild Draw Four: guilty"),
    ({"type": "reveal", "seat": 0, "cards": ["blue-3", "wild"]}, "Ann showed Blue 3, Wild"),
    ({"type": "points", "seat": 2, "points": 37}, "Cy\u2019s hand scored 37 points"),
    ({"type": "swap", "seat": 0, "with": 1}, "Ann swapped hands with Bo"),
    ({"type": "play", "card": "wild-shuffle-hands", "seat": 1}, "Bo played Wild shuffle hands"),
    ({"type": "play", "card": "wild-swap-hands", "seat": 2}, "Cy played Wild swap hands"),
    ({"type": "flip", "card": "wild-customizable"}, "Flipped Wild customizable"),
    ({"type": "reveal", "seat": 0, "cards": ["wild-customizable", "wild-swap-hands"]},
     "Ann showed Wild customizable, Wild swap hands"),
    ({"type": "end", "seat": 1}, "Round over: Bo went out"),
    ({"type": "retract", "ref": 7}, "Undo #7"),
    ({"type": "amend", "ref": 4, "event": {"type": "play", "card": "red-1", "seat": 2}},
     "#4 was really: Cy played Red 1"),
    ({"type": "insert", "ref": 9, "event": {"type": "draw", "seat": 0, "count": 2}},
     "Missed before #9: Ann drew 2 cards"),
])
def test_every_event_reads_as_a_sentence(page: Page, event: dict[str, Any], words: str) -> None:
    text = page.evaluate("([event, players]) => import('/static/words.js').then(m => m.describe(event, players))",
                         [event, list(PLAYERS)])
    assert text == words
    assert "False" not in text and "True" not in text and "-" not in text.split(": ")[-1]
