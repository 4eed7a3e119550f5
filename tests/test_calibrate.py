"""`tabletop calibrate` on pictures of a table: it measures round the deck, or says plainly why it cannot."""

from __future__ import annotations

import json
import math
import re
from pathlib import Path

import cv2
import numpy as np
import pytest

from tabletop.cli import main
from tabletop.errors import CalibrationError
from tabletop.game.cards import Card
from tabletop.lab.drawing import render, scene
from tabletop.sources import Frame
from tabletop.vision.crop import Image
from tabletop.vision.model import CardModel
from tabletop.watcher.calibrate import measure_table
from tabletop.watcher.picture import DECK_COLOUR, REFUSED_COLOUR, ZONE_COLOUR

PALE = (228, 226, 220)
FELT = (60, 110, 40)
DECK = None
"""A card lying face down: the draw pile."""


@pytest.fixture(scope="module")
def model() -> CardModel:
    return CardModel()


def table(*cards: tuple[Card | None, tuple[float, float]], colour: tuple[int, int, int] = PALE) -> Image:
    """A plain table seen from above, each card lying at its place, face up or (``DECK``) face down."""
    rng = np.random.default_rng(0)
    image = np.full((480, 640, 3), colour, np.uint8)
    for card, centre in cards:
        face = render.render_blank("back", rng) if card is None else render.render_card(card, "classic", rng)
        scene.paste(image, *face, scene.card_corners(centre, 76, float(rng.uniform(0, math.pi)), rng, 0.01))
    return image


def calibrate(tmp_path: Path, image: Image, *options: str) -> int:
    folder = tmp_path / "camera"
    folder.mkdir(exist_ok=True)
    cv2.imwrite(str(folder / "0000.png"), image)
    return main(["calibrate", str(folder), *options])


def test_an_empty_table_exits_2_and_says_to_put_the_deck_in_view(tmp_path: Path,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    assert calibrate(tmp_path, table()) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err == ("tabletop calibrate: no draw pile in the picture: put the deck face down in view, alone, or give "
                   "the zones by hand\n")


def test_a_face_up_card_lying_alone_is_not_taken_for_the_deck(tmp_path: Path,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    """As on the pale table where a face-up wild was measured as the deck and nothing was ever read after."""
    assert calibrate(tmp_path, table((Card.from_name("wild"), (220, 240)))) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith("tabletop calibrate: no draw pile in the picture, only a face-up wild")
    (x, y), = re.findall(r"at \((\d+), (\d+)\)", err)
    assert math.dist((int(x), int(y)), (220, 240)) <= 3
    assert err.endswith("put the deck face down in view, alone, or give the zones by hand\n")
    assert "Traceback" not in err


def test_a_face_up_card_beside_the_deck_is_passed_over(model: CardModel) -> None:
    found = measure_table(Frame(table((Card.from_name("wild"), (220, 240)), (DECK, (420, 250))), 0.0), 4, model)
    assert math.dist(found.layout.draw.centre, (420, 250)) < 5
    assert found.doubts == ()


def test_two_decks_are_refused_since_either_could_be_the_draw_pile(model: CardModel) -> None:
    with pytest.raises(CalibrationError, match="2 card-shaped things, each as likely") as refused:
        measure_table(Frame(table((DECK, (200, 240)), (DECK, (440, 240)), colour=FELT), 0.0), 4, model)
    assert len(refused.value.suspects) == 2


def test_the_picture_shows_the_deck_and_the_zones_measured_round_it(tmp_path: Path,
                                                                    capsys: pytest.CaptureFixture[str]) -> None:
    image = table((DECK, (420, 250)))
    assert calibrate(tmp_path, image, "--picture", str(tmp_path / "table.png")) == 0
    layout = json.loads(capsys.readouterr().out)
    picture = cv2.imread(str(tmp_path / "table.png"))
    assert picture.shape == image.shape
    (x, y), radius = layout["discard"]["centre"], layout["discard"]["radius"]
    assert _drawn(picture, (x + radius, y), ZONE_COLOUR)
    assert _drawn(picture, (x - radius, y), ZONE_COLOUR)
    assert not _drawn(picture, (x, y), ZONE_COLOUR)
    assert (picture == DECK_COLOUR).all(axis=2).sum() > 100


def test_the_picture_of_a_refusal_outlines_what_was_refused_in_red(tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    image = table((Card.from_name("wild"), (220, 240)))
    assert calibrate(tmp_path, image, "--picture", str(tmp_path / "refused.png")) == 2
    assert "face-up wild" in capsys.readouterr().err
    picture = cv2.imread(str(tmp_path / "refused.png"))
    assert picture.shape == image.shape
    red = np.argwhere((picture == REFUSED_COLOUR).all(axis=2))
    assert len(red) > 100
    near = red[np.abs(red - (240, 220)).max(axis=1) < 60]
    assert len(near) > 100


def test_a_picture_of_a_kind_it_cannot_write_is_refused_by_name(tmp_path: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    assert calibrate(tmp_path, table((DECK, (420, 250))), "--picture", str(tmp_path / "table.gif")) == 2
    assert capsys.readouterr().err == f"tabletop calibrate: cannot write the picture {tmp_path / 'table.gif'}: " \
                                      "name it .png or .jpg\n"


def _drawn(picture: Image, at: tuple[float, float], colour: tuple[int, int, int]) -> bool:
    """Whether ``colour`` is drawn within two pixels of ``at``."""
    x, y = round(at[0]), round(at[1])
    return bool((picture[y - 2:y + 3, x - 2:x + 3] == colour).all(axis=2).any())
