"""The table remembers: every game kept, each player's figures checked against simulated games whose truth is
known, the exports, a damaged game set aside, and `tabletop history`."""

from __future__ import annotations

import csv
import io
import json
import sqlite3
import subprocess
import sys
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask.testing import FlaskClient
from histories import evening_at, keep, named, truth_figures

from tabletop.game.cards import Card
from tabletop.game.events import Deal, Evidence, Flip, Game, Reveal
from tabletop.game.record import read_record
from tabletop.game.story import tell
from tabletop.history import History
from tabletop.lab.simulate import simulate_game
from tabletop.store import GameStore
from tabletop.table import Table
from tabletop.web import WebSettings, create_app

SEEDS = (3, 8, 21, 34)


@pytest.mark.parametrize("seed", SEEDS)
def test_each_players_figures_are_what_really_happened_in_a_simulated_game(seed: int) -> None:
    game = simulate_game(seed, players=4)
    story = tell(game.events)
    assert [r.totals for r in story.rounds] == [totals for *_, totals in game.truth.scores]
    assert story.winner == game.truth.winner
    for seat, expected in enumerate(truth_figures(game)):
        told = story.figures[seat].to_json()
        assert {key: told[key] for key in expected} == expected, f"seat {seat}"


def test_a_rounds_hands_are_those_laid_down_to_score_it() -> None:
    game = simulate_game(5, players=3)
    story = tell(game.events)
    reveals = [e for e in game.events if isinstance(e, Reveal)]
    shown = [hand for played in story.rounds for hand in played.hands if "cards" in hand]
    assert shown, "a simulated game reveals some hands to score them"
    for hand in shown:
        assert any(e.seat == hand["seat"] and [c.name for c in e.cards] == hand["cards"] for e in reveals)
    for played in story.rounds:
        assert played.winner not in {hand["seat"] for hand in played.hands}, "the winner has no hand to show"


@pytest.fixture
def log(tmp_path: Path) -> Path:
    """Four games over two evenings; the same people under different seats and spellings."""
    keep(tmp_path, [
        (evening_at(1, 20), named(simulate_game(SEEDS[0], players=3), ("Ann", "Bo", "Cy"))),
        (evening_at(1, 21), named(simulate_game(SEEDS[1], players=3), ("Cy", "ann", "Bo"))),
        (evening_at(2, 19), named(simulate_game(SEEDS[2], players=4), ("Bo", "Dee", "Ann", "Cy"))),
        (evening_at(2, 20), named(simulate_game(SEEDS[3], players=2), ("Dee ", "Bo"))),
    ])
    return tmp_path


def test_the_games_are_listed_newest_first_with_who_won_and_how_many_rounds(log: Path) -> None:
    games = History(log).games()
    assert [kept.game for kept in games] == [4, 3, 2, 1]
    first = games[-1].summary()
    truth = simulate_game(SEEDS[0], players=3).truth
    assert first["players"] == ["Ann", "Bo", "Cy"] and first["evening"] == "2026-12-01"
    assert first["winner"] == truth.winner and first["rounds"] == len(truth.scores)
    assert first["totals"] == list(truth.scores[-1][3])


def test_a_name_is_one_person_across_games_and_evenings(log: Path) -> None:
    games = [(simulate_game(SEEDS[0], players=3), ("Ann", "Bo", "Cy")),
             (simulate_game(SEEDS[1], players=3), ("Cy", "ann", "Bo")),
             (simulate_game(SEEDS[2], players=4), ("Bo", "Dee", "Ann", "Cy")),
             (simulate_game(SEEDS[3], players=2), ("Dee ", "Bo"))]
    expected: dict[str, Counter[str]] = {}
    for game, names in games:
        for name, figures in zip(names, truth_figures(game), strict=True):
            expected.setdefault(name.strip().casefold(), Counter()).update({**figures, "games": 1})
    history = History(log)
    assert history.statistics()["games"] == 4
    people = {player["name"].casefold(): player for player in history.statistics()["players"]}
    assert set(people) == {"ann", "bo", "cy", "dee"}
    for name, figures in expected.items():
        assert {key: people[name][key] for key in figures} == dict(figures), name
        assert people[name]["average_points"] == round(figures["points"] / figures["rounds"], 1)
    assert history.statistics("2026-12-01")["games"] == 2
    first_evening = {p["name"].casefold(): p for p in history.statistics("2026-12-01")["players"]}
    assert set(first_evening) == {"ann", "bo", "cy"} and first_evening["ann"]["games"] == 2


def test_statistics_are_computed_once_and_again_when_the_log_changes(log: Path) -> None:
    history = History(log)
    once = history.statistics()
    assert history.statistics() is once
    store = GameStore(log, report=lambda _: None)
    store.restart(named(simulate_game(55, players=2), ("Ann", "Eve")))
    store.close()
    again = history.statistics()
    assert again is not once and {p["name"] for p in again["players"]} >= {"Eve"}


def test_the_csv_has_a_row_per_round_and_its_columns_sum_to_each_games_totals(log: Path) -> None:
    rows = list(csv.DictReader(io.StringIO(History(log).csv())))
    for game in History(log).games():
        assert game.story is not None
        mine = [row for row in rows if row["game"] == str(game.game)]
        assert len(mine) == len(game.story.rounds)
        for seat, name in enumerate(game.story.players):
            column = next(key for key in mine[0] if key.strip().casefold() == name.strip().casefold())
            assert sum(int(row[column]) for row in mine) == game.story.totals[seat]
        outside = {key for key in rows[0] if key not in ("game", "evening", "round", "went out", "points")} - {
            next(key for key in rows[0] if key.strip().casefold() == n.strip().casefold()) for n in game.story.players}
        assert all(row[key] == "" for row in mine for key in outside), "a player not at the table has no points"


def test_the_records_export_replays_as_each_game(log: Path) -> None:
    lines = list(History(log).records())
    games = [line for line in lines if json.loads(line)["type"] == "game"]
    assert len(games) == 4
    first = read_record(lines[:lines.index(games[1])])
    assert [event for _, event in first] == named(simulate_game(SEEDS[0], players=3), ("Ann", "Bo", "Cy"))


def damage(directory: Path, game: int, line: int) -> None:
    with sqlite3.connect(directory / "game.sqlite3") as db:
        db.execute("UPDATE events SET event = ? WHERE game = ? AND line = ?", ("{not json", game, line))


def test_a_damaged_game_is_kept_aside_and_the_others_still_listed(log: Path) -> None:
    damage(log, game=2, line=40)
    history = History(log)
    games = {kept.game: kept for kept in history.games()}
    assert set(games) == {1, 2, 3, 4}
    assert games[2].damage is not None and "line 41" in games[2].damage
    assert all(games[n].damage is None for n in (1, 3, 4))
    assert history.statistics()["games"] == 3, "the damaged game is not counted"
    assert sum(player["games"] for player in history.statistics()["players"]) == 3 + 4 + 2
    assert {row["game"] for row in csv.DictReader(io.StringIO(history.csv()))} == {"1", "3", "4"}


def test_a_damaged_latest_game_is_kept_aside_and_the_earlier_games_stay_in_the_history(log: Path) -> None:
    history = History(log)
    before = {kept.game: kept.summary() for kept in history.games()}
    damage(log, game=4, line=3)  # the latest game damaged: the table keeps the log aside and begins a new one
    heard: list[str] = []
    GameStore(log, report=heard.append).close()
    assert "beside the earlier games" in heard[0]
    after = {kept.game: kept.summary() for kept in history.games()}
    assert [after[n] for n in (1, 2, 3)] == [before[n] for n in (1, 2, 3)], "the earlier games, as they were"
    assert after[4]["lines"] == 3 and after[4]["players"] == before[4]["players"], "the latest, up to its damage"


@pytest.fixture
def client(log: Path) -> Iterator[FlaskClient]:
    store = GameStore(log, report=lambda _: None)
    card = Card.from_name("red-7")
    picture = Evidence(b"\xff\xd8picture\xff\xd9", 0.93, ((card, 0.93),))
    store.restart([Game(players=("Ann", "Bo")), Deal(dealer=0), Flip(card=card, evidence=picture)])
    with Table() as table:
        yield create_app(table, WebSettings(pin="2468"), history=History(log)).test_client()
    store.close()


def test_the_api_lists_games_and_tells_one(client: FlaskClient) -> None:
    listed = client.get("/api/history").get_json()["games"]
    assert [game["game"] for game in listed] == [5, 4, 3, 2, 1]
    game = client.get("/api/history/1").get_json()
    assert game["players"] == ["Ann", "Bo", "Cy"] and len(game["rounds"]) == game["rounds"][-1]["round"]
    assert game["record"][0]["event"]["type"] == "game"
    assert client.get("/api/history/5/pictures/2").data == b"\xff\xd8picture\xff\xd9"


@pytest.mark.parametrize(("path", "status", "words"), [
    ("/api/history/99", 404, "no game 99"),
    ("/api/history/1/pictures/0", 404, "no card the camera read"),
    ("/api/history/5/pictures/9999", 404, "no card the camera read"),
    ("/api/statistics?evening=yesterday", 400, "YYYY-MM-DD"),
])
def test_a_bad_history_request_is_a_4xx_that_says_why(client: FlaskClient, path: str, status: int, words: str) -> None:
    response = client.get(path)
    assert response.status_code == status and words in response.get_json()["error"]


def test_the_exports_download_as_files(client: FlaskClient) -> None:
    spreadsheet = client.get("/api/history.csv")
    assert spreadsheet.mimetype == "text/csv" and "attachment" in spreadsheet.headers["Content-Disposition"]
    assert spreadsheet.get_data(as_text=True).startswith("game,evening,round,went out,points,")
    records = client.get("/api/history.jsonl").get_data(as_text=True).splitlines()
    assert sum(json.loads(line)["type"] == "game" for line in records) == 5
    one = client.get("/api/history/2/record").get_data(as_text=True).splitlines()
    assert json.loads(one[0])["players"] == ["Cy", "ann", "Bo"]


def test_a_guest_asking_for_whole_games_without_end_is_told_to_wait_and_others_are_not(client: FlaskClient) -> None:
    guest, phone = {"REMOTE_ADDR": "10.0.0.9"}, {"REMOTE_ADDR": "10.0.0.7"}
    answers = [client.get("/api/history.jsonl", environ_base=guest) for _ in range(15)]
    assert answers[0].status_code == 200
    refused = [answer for answer in answers if answer.status_code == 429]
    assert refused and "too many history requests" in refused[0].get_json()["error"]
    assert client.get("/api/history/1", environ_base=phone).status_code == 200
    assert client.get("/api/history", environ_base=guest).status_code == 200, "the list of games is never held back"


def test_a_table_without_a_log_says_so() -> None:
    with Table() as table:
        response = create_app(table, WebSettings(pin="2468")).test_client().get("/api/history")
    assert response.status_code == 404 and "keeps no game log" in response.get_json()["error"]


def tabletop(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "tabletop.cli", *args], capture_output=True, text=True, check=False)


def test_tabletop_history_lists_the_games_and_each_players_figures(log: Path) -> None:
    result = tabletop("history", "--state", str(log))
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].startswith("game 4") and lines[3].startswith("game 1")
    truth = simulate_game(SEEDS[0], players=3).truth
    assert f"{('Ann', 'Bo', 'Cy')[truth.winner or 0]} won" in lines[3]
    games_row = next(line for line in lines if line.startswith("games "))
    assert games_row.split()[1:] != [] and sum(int(n) for n in games_row.split()[1:]) == 3 + 3 + 4 + 2


def test_tabletop_history_csv_and_records(log: Path) -> None:
    spreadsheet = tabletop("history", "--state", str(log), "--csv")
    assert spreadsheet.returncode == 0 and spreadsheet.stdout == History(log).csv()
    records = tabletop("history", "--state", str(log), "--records")
    assert records.returncode == 0 and records.stdout.count('"type": "game"') == 4


def test_tabletop_history_refuses_an_evening_that_is_not_a_date(log: Path) -> None:
    result = tabletop("history", "--state", str(log), "--evening", "friday")
    assert result.returncode == 2 and "not a date written YYYY-MM-DD" in result.stderr


def test_tabletop_history_without_a_log_exits_2_and_says_where_it_looked(tmp_path: Path) -> None:
    result = tabletop("history", "--state", str(tmp_path / "nowhere"))
    assert result.returncode == 2 and "no game log in" in result.stderr and "Traceback" not in result.stderr


def test_a_restarted_table_reads_its_stories_back_instead_of_telling_every_game_again(log: Path) -> None:
    first = History(log)
    told, figures = [kept.summary() for kept in first.games()], first.statistics()
    damage(log, game=2, line=40)  # a log line only ever changes by damage: a game is told once in its life
    restarted = History(log)
    assert [kept.summary() for kept in restarted.games()] == told, "told from the stories kept beside the log"
    assert restarted.statistics() == figures
    (log / "history.json").write_text("{not json", encoding="utf-8")
    retold = {kept.game: kept for kept in History(log).games()}
    assert retold[2].damage is not None, "a cache that cannot be read is set aside and every game told again"
