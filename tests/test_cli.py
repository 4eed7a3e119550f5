"""`tabletop replay` as docs/record.md promises it: verdicts then the state, exit 2 naming a bad line."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

EXAMPLE = """\
{"type": "game", "players": ["Ann", "Bo", "Cy"], "rules": {"preset": "official"}}
{"type": "deal", "dealer": 2}
{"type": "flip", "card": "red-5"}
{"type": "play", "card": "red-9", "seat": 0}
{"type": "play", "card": "red-skip", "seat": 1}
{"type": "play", "card": "green-skip", "seat": 0}
{"type": "draw", "seat": 2}
{"type": "pass", "seat": 2}
"""


def tabletop(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "tabletop.cli", *args], input=stdin, capture_output=True, text=True, check=False
    )


def test_replay_prints_the_final_state_of_the_documented_example(tmp_path: Path) -> None:
    record = tmp_path / "game.jsonl"
    record.write_text(EXAMPLE)
    result = tabletop("replay", str(record))
    assert result.returncode == 0, result.stderr
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert lines == [
        {"type": "state", "round": 1, "turn": 0, "direction": "clockwise", "top": "green-skip", "color": "green",
         "hands": [5, 6, 8], "owed": [0, 0, 0], "totals": [0, 0, 0], "over": False}
    ]


def test_replay_reads_standard_input_and_prints_verdicts_before_the_state() -> None:
    missed = EXAMPLE.replace('{"type": "pass", "seat": 2}\n', "") + "".join(
        json.dumps(line) + "\n"
        for line in [
            {"type": "retract", "ref": 6},
            {"type": "play", "card": "green-3", "seat": 1},
            {"type": "play", "card": "green-4", "seat": 2},
        ]
    )
    result = tabletop("replay", "-", stdin=missed)
    assert result.returncode == 0, result.stderr
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert lines[:-1] == [{"type": "penalty", "seat": 1, "cards": 0, "reason": "out-of-turn", "ref": 8}]
    assert lines[-1]["type"] == "state"
    assert lines[-1]["turn"] == 0
    assert lines[-1]["hands"] == [5, 5, 6]


def test_a_malformed_record_exits_2_and_names_the_line(tmp_path: Path) -> None:
    record = tmp_path / "bad.jsonl"
    record.write_text(EXAMPLE + '{"type": "play", "card": "red-10", "seat": 1}\n')
    result = tabletop("replay", str(record))
    assert result.returncode == 2
    assert result.stdout == ""
    assert "line 9" in result.stderr
    assert "unknown card 'red-10'" in result.stderr


@pytest.mark.parametrize(("content", "words"), [
    (EXAMPLE.encode() + b'{"type": "amend", "ref": 1, "event": ' * 600 + b"{}" + b"}" * 600 + b"\n",
     "line 9: a correction cannot hold another correction"),
    (EXAMPLE.encode() + b"[" * 5000 + b"]" * 5000 + b"\n", "line 9: not a record's line: nested too deeply"),
    (EXAMPLE.encode() + b'{"type": "draw", "seat": 1, "count": ' + b"7" * 4301 + b"}\n", "line 9: not valid JSON"),
    (EXAMPLE.encode() + b'{"type": "play", "card": "red-9\t"}\n', "(Invalid control character at column"),
    (EXAMPLE.encode("utf-16"), "not UTF-8 text"),
    (EXAMPLE.encode() + "{\"type\": \"play\", \"card\": \"r\u00f6d\"}\n".encode("latin-1"), "not UTF-8 text"),
    (b"", "the record is empty"),
    (b"\n  \n", "the record is empty"),
])
def test_a_broken_file_exits_2_with_a_message_and_no_traceback(tmp_path: Path, content: bytes, words: str) -> None:
    record = tmp_path / "bad.jsonl"
    record.write_bytes(content)
    result = tabletop("replay", str(record))
    assert result.returncode == 2
    assert words in result.stderr
    assert "Traceback" not in result.stderr


def test_output_cut_short_by_head_is_no_traceback() -> None:
    result = subprocess.run(f"{sys.executable} -m tabletop.cli simulate --seed 3 | head -c 10", shell=True,
                            capture_output=True, text=True, check=False)
    assert len(result.stdout) == 10
    assert "Traceback" not in result.stderr and "Broken pipe" not in result.stderr


def test_a_missing_file_exits_2_with_a_message(tmp_path: Path) -> None:
    result = tabletop("replay", str(tmp_path / "nowhere.jsonl"))
    assert result.returncode == 2
    assert "cannot read" in result.stderr


def test_a_simulated_game_prints_a_record_that_replays_to_its_end() -> None:
    simulated = tabletop("simulate", "--seed", "7", "--players", "3", "--preset", "party")
    assert simulated.returncode == 0, simulated.stderr
    assert json.loads(simulated.stdout.splitlines()[0])["rules"] == {"preset": "party"}
    replayed = tabletop("replay", "-", stdin=simulated.stdout)
    assert replayed.returncode == 0, replayed.stderr
    lines = [json.loads(line) for line in replayed.stdout.splitlines()]
    assert lines[-1]["over"] is True
    assert any(line["type"] == "game-end" for line in lines)
    assert tabletop("simulate", "--seed", "7", "--players", "3", "--preset", "party").stdout == simulated.stdout


def test_a_simulated_game_with_the_112_card_deck_plays_the_special_wilds_and_replays() -> None:
    simulated = tabletop("simulate", "--seed", "3", "--deck", "112")
    assert simulated.returncode == 0, simulated.stderr
    cards = {json.loads(line).get("card") for line in simulated.stdout.splitlines()}
    assert {"wild-shuffle-hands", "wild-customizable"} <= cards
    replayed = tabletop("replay", "-", stdin=simulated.stdout)
    assert replayed.returncode == 0, replayed.stderr
    assert json.loads(replayed.stdout.splitlines()[-1])["over"] is True
    classic = tabletop("simulate", "--seed", "3").stdout
    assert not {"wild-shuffle-hands", "wild-swap-hands", "wild-customizable"} & {
        json.loads(line).get("card") for line in classic.splitlines()}


def test_simulate_refuses_an_impossible_table() -> None:
    result = tabletop("simulate", "--players", "11")
    assert result.returncode == 2
    assert "players" in result.stderr
    result = tabletop("simulate", "--deck", "110")
    assert result.returncode == 2
    assert "108, 112" in result.stderr


def test_bench_referee_prints_its_figures_beside_the_goal() -> None:
    result = tabletop("bench", "referee")
    assert result.returncode == 0, result.stderr
    assert "events/s" in result.stdout
    assert "goal 100,000" in result.stdout
    assert "ms to re-derive a 500-event record" in result.stdout
    assert "at line 100," in result.stdout and "at line 50,000" in result.stdout


@pytest.mark.parametrize(("args", "words"), [
    (("watcher", "--faces", "{tmp}/missing"), "missing: no such folder of card photographs"),
    (("watcher", "--faces", "{tmp}"), "no labels.csv"),
    (("referee", "--faces", "{tmp}"), "--faces is for the watcher benchmark"),
])
def test_bench_with_faces_it_cannot_film_exits_2_with_one_line(tmp_path: Path, args: tuple[str, ...],
                                                               words: str) -> None:
    result = tabletop("bench", *(arg.format(tmp=tmp_path) for arg in args))
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr.startswith("tabletop bench: ") and result.stderr.count("\n") == 1
    assert words in result.stderr
