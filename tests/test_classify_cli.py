"""`tabletop classify --json` exactly as docs/record.md promises, bad files included."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np

from tabletop.game.cards import Card
from tabletop.lab.drawing import render, scene

REAL_CARDS = Path(__file__).parent / "data" / "real-cards"


def classify(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "tabletop.cli", "classify", *args], capture_output=True, text=True,
                          check=False)


def test_one_json_line_per_image_in_order_with_card_and_confidence(tmp_path: Path) -> None:
    rng = np.random.default_rng(3)
    table, _ = scene.card_on_table(rng, Card.from_name("yellow-draw-two"), "classic")
    on_table = tmp_path / "table.png"
    cv2.imwrite(str(on_table), table)
    photo = str(REAL_CARDS / "020.jpg")
    result = classify("--json", photo, str(on_table))
    assert result.returncode == 0, result.stderr
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert [(line["image"], line["card"]) for line in lines] == [(photo, "green-6"), (str(on_table), "yellow-draw-two")]
    assert all(set(line) == {"image", "card", "confidence"} and 0 <= line["confidence"] <= 1 for line in lines)


def test_a_card_back_and_an_empty_table_are_null(tmp_path: Path) -> None:
    rng = np.random.default_rng(4)
    back = scene.surface(rng, (480, 640))
    scene.paste(back, *render.render_blank("back", rng), scene.card_corners((320, 240), 170, 0.4, rng))
    empty = scene.surface(rng, (480, 640))
    paths = [tmp_path / "back.png", tmp_path / "empty.jpg"]
    for path, image in zip(paths, (back, empty), strict=True):
        cv2.imwrite(str(path), image)
    result = classify("--json", *map(str, paths))
    assert result.returncode == 0, result.stderr
    assert [json.loads(line)["card"] for line in result.stdout.splitlines()] == [None, None]


def test_unreadable_files_get_their_own_error_and_the_rest_go_on(tmp_path: Path) -> None:
    text = tmp_path / "notes.jpg"
    text.write_text("this is not a photograph")
    missing = tmp_path / "missing.png"
    photo = str(REAL_CARDS / "040.jpg")
    result = classify("--json", str(text), str(missing), photo)
    assert result.returncode == 1
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert [line["image"] for line in lines] == [str(text), str(missing), photo]
    assert "not an image" in lines[0]["error"]
    assert "No such file" in lines[1]["error"]
    assert lines[2]["card"] == "wild-draw-four"


def test_without_json_it_prints_a_line_a_person_can_read_and_marks_a_doubtful_one(tmp_path: Path) -> None:
    """A card photographed so blurred that its numeral cannot be made out is read, but marked unsure."""
    card = cv2.imread(str(REAL_CARDS / "030.jpg"))
    height, width = card.shape[:2]
    tiny = cv2.resize(card, (width * 10 // height, 10), interpolation=cv2.INTER_AREA)
    cv2.imwrite(str(tmp_path / "blurred.png"), cv2.resize(tiny, (width, height), interpolation=cv2.INTER_LINEAR))
    result = classify(str(REAL_CARDS / "012.jpg"), str(tmp_path / "blurred.png"))
    assert result.returncode == 0, result.stderr
    sure, doubtful = result.stdout.splitlines()
    assert re.fullmatch(rf"{re.escape(str(REAL_CARDS / '012.jpg'))}: blue-skip \(\d+%\)", sure)
    assert re.fullmatch(rf"{re.escape(str(tmp_path / 'blurred.png'))}: \S+ \(\d+%, unsure\)", doubtful)


def test_a_missing_model_is_a_clear_error(tmp_path: Path) -> None:
    result = classify("--model", str(tmp_path / "nope.onnx"), str(REAL_CARDS / "012.jpg"))
    assert result.returncode == 2
    assert "cannot load the card model" in result.stderr


REAL_SCENES = Path(__file__).parent / "data" / "real-scenes"


def test_all_prints_every_card_of_a_fan_the_covered_ones_by_their_index_corner() -> None:
    """A fan of three real cards: the top card whole, with its four corners; the two under it, of which only the
    index corners show, each with the box round its index; every card named in corners.csv."""
    picture = str(REAL_SCENES / "images" / "008.jpg")
    result = classify("--all", "--json", picture)
    assert result.returncode == 0, result.stderr
    (line,) = [json.loads(text) for text in result.stdout.splitlines()]
    assert set(line) == {"image", "cards"} and line["image"] == picture
    cards = line["cards"]
    assert sorted(card["card"] for card in cards) == ["blue-4", "red-draw-two", "yellow-1"]
    whole = [card for card in cards if "corners" in card]
    covered = [card for card in cards if "index" in card]
    assert [card["card"] for card in whole] == ["yellow-1"]
    assert len(covered) == 2 and cards[0] is whole[0]
    for card in cards:
        quad = card.get("corners") or card["index"]
        assert len(quad) == 4 and all(len(point) == 2 and 0 <= point[0] <= 416 for point in quad)
        assert set(card) in ({"card", "confidence", "corners"}, {"card", "confidence", "index"})


def test_all_on_an_empty_table_and_a_bad_file(tmp_path: Path) -> None:
    empty = tmp_path / "empty.png"
    cv2.imwrite(str(empty), scene.surface(np.random.default_rng(8), (480, 640)))
    broken = tmp_path / "broken.jpg"
    broken.write_text("no picture here")
    result = classify("--all", "--json", str(empty), str(broken))
    assert result.returncode == 1
    first, second = (json.loads(text) for text in result.stdout.splitlines())
    assert first == {"image": str(empty), "cards": []}
    assert "not an image" in second["error"]
    words = classify("--all", str(REAL_SCENES / "images" / "008.jpg"))
    assert words.returncode == 0
    assert "3 cards" in words.stdout.splitlines()[0] and "read from its index corner" in words.stdout
