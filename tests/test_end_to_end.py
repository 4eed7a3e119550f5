"""Everything together, as a newcomer meets it: `tabletop demo` in a real browser, and a recorded video that
goes through `tabletop watch` and `tabletop replay`."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from playwright.sync_api import expect, sync_playwright
from untranslated import untranslated

from tabletop.demo import DemoSettings, run_demo
from tabletop.game.board import penalty_words
from tabletop.game.events import Flip, Penalty, Play, Unsure
from tabletop.game.referee import replay
from tabletop.lab.tablesim.table import simulated_table
from tabletop.store import GameStore

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync"]
DATA = Path(__file__).parent / "data"
OUTPUT = Path(__file__).parent / "output"
SEED, PLAYERS = 4, 3


@pytest.mark.browser
@pytest.mark.slow
def test_the_demo_shows_the_truth_on_the_board_and_logs_every_event(tmp_path: Path) -> None:
    said: list[str] = []
    served = threading.Event()
    finished = threading.Event()

    def say(text: str) -> None:
        said.append(text)
        served.set() if text.startswith("scoreboard:") else None
        finished.set() if text.startswith("summary:") else None

    settings = DemoSettings(seed=SEED, rounds=1, players=PLAYERS, host="127.0.0.1", port=0, speed=40.0,
                            state=tmp_path, linger=30.0)
    demo = threading.Thread(target=run_demo, args=(settings, say))
    demo.start()
    assert served.wait(120)
    address = re.search(r"scoreboard: (http://\S+)/ ", next(t for t in said if t.startswith("scoreboard:")))
    assert address is not None
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        page = browser.new_page(viewport={"width": 360, "height": 740})
        page.goto(address.group(1) + "/")
        phones = {language: browser.new_page(viewport={"width": 360, "height": 740}, locale=language)
                  for language in ("sv", "da", "bg", "ru")}  # the same round on phones in the players' languages
        for phone in phones.values():
            phone.goto(address.group(1) + "/")
        assert finished.wait(300)
        final = json.loads(next(t for t in said if t.startswith("summary:")).split("final state ", 1)[1])
        truth_verdicts, truth = replay(list(enumerate(e.event for e in simulated_table(
            SEED, players=PLAYERS, rounds=1).script.record)))
        assert final == truth.to_json()
        players = [f"P{seat}" for seat in range(PLAYERS)]
        expect(page.locator("#top-card")).to_have_attribute("data-card", final["top"] or "")
        for seat, (size, total) in enumerate(zip(final["hands"], final["totals"], strict=True)):
            expect(page.locator(f".player[data-seat='{seat}'] .hand")).to_have_text("?" if size is None
                                                                                     else str(size))
            expect(page.locator(f".player[data-seat='{seat}'] .total")).to_have_text(str(total))
        for penalty in (v for v in truth_verdicts if isinstance(v, Penalty)):
            expect(page.locator("#penalties")).to_contain_text(penalty_words(penalty, players))
        page.locator("#seen-top").click()  # the evidence for the card on top: what the camera saw
        expect(page.locator("#seen-box .evidence")).to_contain_text("% sure.")
        page.wait_for_function("document.querySelector('#seen-box img').naturalWidth === 96")
        OUTPUT.mkdir(exist_ok=True)
        page.screenshot(path=str(OUTPUT / "demo-board.png"), full_page=True)
        for language, phone in phones.items():
            expect(phone.locator("#top-card")).to_have_attribute("data-card", final["top"] or "")
            expect(phone.locator("#penalties li")).to_have_count(len(page.locator("#penalties li").all()))
            assert untranslated(phone, language) == [], language
            phone.screenshot(path=str(OUTPUT / f"demo-board-{language}.png"), full_page=True)
        browser.close()
    demo.join(timeout=60)
    store = GameStore(tmp_path)
    logged = store.events
    store.close()
    assert replay(list(enumerate(logged)))[1].to_json() == final
    assert sum(1 for event in logged if event.source == "camera") > 20
    read = [event for event in logged if event.source == "camera" and isinstance(event, Play | Flip | Unsure)]
    assert read and all(event.evidence is not None for event in read)
    usage = next(text for text in said if text.startswith("game log now:"))
    per_line = re.search(r"([\d,]+) bytes a line in all", usage)
    assert per_line is not None and int(per_line.group(1).replace(",", "")) < 3000, usage


def replayed(record: Path) -> str:
    result = subprocess.run([sys.executable, "-m", "tabletop.cli", "replay", str(record)], capture_output=True,
                            text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_a_recorded_game_is_watched_into_a_record_that_replays_to_the_expected_verdicts(tmp_path: Path) -> None:
    record = tmp_path / "game.jsonl"
    with record.open("w", encoding="utf-8") as out:
        watched = subprocess.run([sys.executable, "-m", "tabletop.cli", "watch", str(DATA / "recorded-game.mp4"),
                                  "--layout", str(DATA / "recorded-game.layout.json"), "--players", "Ann,Bo,Cy"],
                                 stdout=out, stderr=subprocess.PIPE, text=True, timeout=300)
    assert watched.returncode == 0, watched.stderr
    truth = DATA / "recorded-game.truth.jsonl"
    plays = [line for line in truth.read_text().splitlines() if '"play"' in line]
    assert len(plays) >= 8
    assert replayed(record) == replayed(truth)
