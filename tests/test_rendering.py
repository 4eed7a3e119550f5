"""Rendered decks and training crops: what the model learns from has to look like the cards people own."""

from __future__ import annotations

import dataclasses

import cv2
import numpy as np
import pytest

from tabletop.game.cards import ALL_CARDS, COLORS, Card
from tabletop.lab.drawing import render
from tabletop.lab.training import augment, frames, index_frames, samples
from tabletop.vision import finder
from tabletop.vision.crop import CROP_SIZE, balance, rectify

HUES = {"red": 0, "yellow": 28, "green": 60, "blue": 105}


def hue_distance(a: float, b: float) -> float:
    return min(abs(a - b), 180 - abs(a - b))


def body_hue(face: np.ndarray) -> tuple[float, float]:
    """Hue and saturation below the top-left index (which reaches down to a quarter of the card's height where a
    deck prints it large), where every design shows the card's own colour."""
    patch = face[104:112, 20:26]
    hsv = cv2.cvtColor(patch, cv2.COLOR_BGR2HSV).reshape(-1, 3).astype(float)
    return float(np.median(hsv[:, 0])), float(np.median(hsv[:, 1]))


@pytest.mark.parametrize("design", render.DESIGNS)
def test_every_card_has_its_own_colour_and_the_wilds_are_black(design: render.Design) -> None:
    rng = np.random.default_rng(1)
    for card in ALL_CARDS:
        face, mask = render.render_card(card, design, rng)
        assert face.shape == (render.HEIGHT, render.WIDTH, 3) and mask.shape == face.shape[:2]
        hue, saturation = body_hue(face)
        if card.color is None:
            assert face[108, 23].max() < 80, card
        else:
            assert saturation > 120 and hue_distance(hue, HUES[card.color]) < 15, card


def test_faces_of_different_cards_differ_and_the_same_seed_draws_the_same_face() -> None:
    faces = [render.render_card(card, "modern", np.random.default_rng(5))[0] for card in ALL_CARDS]
    assert len({face.tobytes() for face in faces}) == len(ALL_CARDS)
    again = render.render_card(ALL_CARDS[0], "modern", np.random.default_rng(5))[0]
    assert np.array_equal(again, faces[0])


def test_the_white_border_cancels_a_colour_cast() -> None:
    face, _ = render.render_card(ALL_CARDS[COLORS.index("blue") * 13 + 4], "classic", np.random.default_rng(2))
    cast = np.clip(face * np.array([0.55, 0.9, 1.3]), 0, 255).astype(np.uint8)
    corners = np.array([[0, 0], [render.WIDTH, 0], [render.WIDTH, render.HEIGHT], [0, render.HEIGHT]], np.float32)
    clean, fixed = (balance(rectify(img, corners, CROP_SIZE)) for img in (face, cast))
    border = fixed[1:3, 10:38].reshape(-1, 3).mean(axis=0)
    assert np.all(np.abs(border - border.mean()) < 12), border
    assert hue_distance(body_hue_of_crop(fixed), body_hue_of_crop(clean)) < 8


def body_hue_of_crop(crop: np.ndarray) -> float:
    hsv = cv2.cvtColor(crop[34:38, 5:8], cv2.COLOR_BGR2HSV)
    return float(np.median(hsv[..., 0]))


def test_training_crops_are_the_size_the_model_reads_with_every_label_in_reach() -> None:
    crops, labels = samples.batch(seed=3, count=400)
    assert crops.shape == (400, CROP_SIZE[1], CROP_SIZE[0], 3)
    assert set(labels) <= set(range(len(samples.LABELS)))
    assert len(set(labels)) > 40
    again, _ = samples.batch(seed=3, count=3)
    assert np.array_equal(again, crops[:3])


def test_finder_frames_mark_whole_cards_with_their_cores_the_same_for_the_same_seed() -> None:
    """The finder's training pictures: the same for the same seed, every whole card's core inside the card, most
    pixels counted, and second looks of the size the outliner reads."""
    images, marks, views, outlines = frames.batch(seed=5, count=6, shape=(192, 256))
    assert images.shape == (6, 192, 256, 3) and marks.shape == (6, 96, 128, 3)
    again = frames.batch(seed=5, count=2, shape=(192, 256))
    assert np.array_equal(again[0], images[:2]) and np.array_equal(again[1], marks[:2])
    whole, core, counts = marks[..., 0] > 127, marks[..., 1] > 127, marks[..., 2] > 127
    assert whole.any() and not (core & ~whole).any()
    assert counts.mean() > 0.9
    assert views.shape[1:] == (finder.LOOK_SIZE[1], finder.LOOK_SIZE[0], 3)
    assert outlines.shape[1:] == (finder.LOOK_SIZE[1] // 2, finder.LOOK_SIZE[0] // 2, 2)


@pytest.mark.parametrize("print_", ["oval", "word", "circle"])
def test_every_wild_print_shows_its_four_quarters_and_its_wild_draw_four_its_cards(print_: str) -> None:
    """Families own decks of three wild prints: the tilted four-colour oval, the oval ringed in white with the
    word-art WILD, and the newest: a full circle cut in four quarters on black, no oval, no word."""
    rng = np.random.default_rng(8)
    design: render.Design = "modern" if print_ == "word" else "classic"
    deck = dataclasses.replace(render.Deck.random(rng, design), wild_print=print_, oval_size=1.0, oval_tilt=30.0,
                               four_on_white=False)
    wild, _ = render.render_card(Card.from_name("wild"), design, rng, deck)
    cx, cy = render.WIDTH // 2, render.HEIGHT // 2
    reach = render.WIDTH * 0.25
    quarters = [wild[round(cy + dy * reach), round(cx + dx * reach)] for dx, dy in ((0, -1.3), (0, 1.3))]
    if print_ == "circle":
        assert wild[round(cy - render.WIDTH * 0.47), cx].max() < 80, "outside the circle the card is black"
        seen = {nearest_ink(wild[round(cy + dy * reach), round(cx + dx * reach)], deck)
                for dx, dy in ((-0.7, -0.7), (0.7, -0.7), (0.7, 0.7), (-0.7, 0.7))}
        assert seen == set(render.QUARTER_INKS)
    else:
        assert all(nearest_ink(pixel, deck) in render.QUARTER_INKS for pixel in quarters)
    four, _ = render.render_card(Card.from_name("wild-draw-four"), design, rng, deck)
    assert not np.array_equal(four, wild)
    assert (four.reshape(-1, 3) < 60).all(axis=1).mean() > 0.15, "the wild draw four is printed on black too"


def test_a_ringed_deck_prints_its_black_cards_indexes_as_a_white_ring_round_a_dark_band() -> None:
    """Some decks ring the "+4" of the black card in white outside a thick black outline: in the corner, a dark band
    closed in by white, where an unringed deck's index shows white straight on the black. The corner is looked at
    a little wider than the index crop, which a wide "+4" runs past."""
    deck = dataclasses.replace(render.Deck.random(np.random.default_rng(3), "classic"), index_size=0.15)
    enclosed = {}
    for ringed in (False, True):
        four, _ = render.render_card(Card.from_name("wild-draw-four"), "classic", np.random.default_rng(0),
                                     dataclasses.replace(deck, index_ringed=ringed))
        corner = cv2.cvtColor(four[:round(render.HEIGHT * 0.3), :round(render.WIDTH * 0.55)], cv2.COLOR_BGR2GRAY)
        count, _, stats, _ = cv2.connectedComponentsWithStats((corner < 80).astype(np.uint8))
        height, width = corner.shape
        enclosed[ringed] = sum(int(stats[k, cv2.CC_STAT_AREA]) for k in range(1, count)
                               if stats[k, cv2.CC_STAT_LEFT] > 0 and stats[k, cv2.CC_STAT_TOP] > 0
                               and stats[k, cv2.CC_STAT_LEFT] + stats[k, cv2.CC_STAT_WIDTH] < width
                               and stats[k, cv2.CC_STAT_TOP] + stats[k, cv2.CC_STAT_HEIGHT] < height)
    assert enclosed[True] > 3 * enclosed[False] + 100, enclosed
    red, _ = render.render_card(Card.from_name("red-4"), "classic", np.random.default_rng(0),
                                dataclasses.replace(deck, index_ringed=True))
    plain, _ = render.render_card(Card.from_name("red-4"), "classic", np.random.default_rng(0),
                                  dataclasses.replace(deck, index_ringed=False))
    assert np.array_equal(red, plain), "a coloured card's index is printed as before"


@pytest.mark.parametrize("name", ["wild-draw-four", "wild", "red-draw-two"])
def test_a_large_index_is_printed_inside_the_border_with_the_cards_body_all_round_it(name: str) -> None:
    """A deck that prints its indexes large keeps them off the white border, as real decks do: a large "+4"
    ringed in white stands alone on the black. Run into the border, the ring taught the index model that a ring
    standing alone on the black is a special wild's symbol, and it read the real deck's "+4" so."""
    deck = dataclasses.replace(render.Deck.random(np.random.default_rng(3), "classic"), index_size=0.24,
                               index_ringed=True)
    face, _ = render.render_card(Card.from_name(name), "classic", np.random.default_rng(0), deck)
    inset, rounding = round(render.WIDTH * deck.border), round(render.WIDTH * 0.05)
    along_top = face[inset + 2, inset + rounding:round(render.WIDTH * 0.4)]
    down_the_side = face[inset + rounding:round(render.HEIGHT * 0.27), inset + 2]
    body = face[inset + 2, inset + rounding].astype(int)
    for band in (along_top, down_the_side):
        assert (np.abs(band.astype(int) - body).sum(axis=1) < 60).all(), "only the body between border and index"
    corner = face[inset + 3:round(render.HEIGHT * 0.27), inset + 3:round(render.WIDTH * 0.4)]
    assert (np.abs(corner.astype(int) - body).sum(axis=2) > 150).mean() > 0.05, "the index itself is printed"


def test_a_deck_that_shadows_its_indexes_prints_the_shadow_left_of_and_below_each_one_inside_the_border() -> None:
    """Some decks print their corner indexes white, outlined and shadowed to the left and down as their big
    numeral is. The shadow fills the open left side of a "2", and an index model that never saw one read the real
    deck's yellow 2s as 9s. The bottom-right index is the top-left one turned half round (its shadow falls right and
    up), and is looked at turned. Shadow and index keep off the white border."""
    deck = dataclasses.replace(render.Deck.random(np.random.default_rng(3), "classic"), index_size=0.2,
                               index_ringed=False, index_shadow=0.08)
    card = Card.from_name("yellow-2")
    shadowed, _ = render.render_card(card, "classic", np.random.default_rng(0), deck)
    plain, _ = render.render_card(card, "classic", np.random.default_rng(0), dataclasses.replace(deck, index_shadow=0))
    inset, rounding = round(render.WIDTH * deck.border), round(render.WIDTH * 0.05)
    body = shadowed[inset + 2, inset + rounding].astype(int)
    along_top = shadowed[inset + 2, inset + rounding:round(render.WIDTH * 0.4)]
    down_the_side = shadowed[inset + rounding:round(render.HEIGHT * 0.27), inset + 2]
    for band in (along_top, down_the_side):
        assert (np.abs(band.astype(int) - body).sum(axis=1) < 60).all(), "only the body between border and index"
    for turned in (False, True):
        offsets = [_dark_past_white(face[::-1, ::-1] if turned else face, inset + 3) for face in (shadowed, plain)]
        across, down = offsets[0]
        assert across < -2 and down > 2, f"the shadow falls to the left and down: {offsets}"
        assert np.abs(offsets[1]).max() < 1, f"without it the outline lies evenly round the index: {offsets}"


def _dark_past_white(face: np.ndarray, inside: int) -> np.ndarray:
    """How far (x, y pixels) the middle of the top-left index's dark print lies from the middle of its white."""
    corner = face[inside:round(render.HEIGHT * 0.3), inside:round(render.WIDTH * 0.45)].astype(int).sum(axis=2)
    rows, columns = np.nonzero(corner < 200)
    box = corner[rows.min():rows.max() + 1, columns.min():columns.max() + 1]
    white_rows, white_columns = np.nonzero(box > 700)
    return np.array([columns.mean() - columns.min() - white_columns.mean(),
                     rows.mean() - rows.min() - white_rows.mean()])


def nearest_ink(pixel: np.ndarray, deck: render.Deck) -> str:
    return min(deck.inks, key=lambda name: float(np.abs(np.array(deck.inks[name]) - pixel.astype(float)).sum()))


def test_a_deck_worn_hard_keeps_its_colours_but_fades_them() -> None:
    """Years of play fade the inks toward grey and rub the edges white: still each card's own colour."""
    rng = np.random.default_rng(4)
    for card in (Card.from_name("red-3"), Card.from_name("green-draw-two"), Card.from_name("blue-8")):
        face, _ = render.render_card(card, "classic", rng)
        worn = augment.worn_hard(face, rng)
        _, fresh_saturation = body_hue(face)
        worn_hue, worn_saturation = body_hue(worn)
        assert worn_saturation < fresh_saturation
        assert hue_distance(worn_hue, HUES[str(card.color)]) < 15


def test_an_index_corner_that_shows_is_marked_with_its_cards_direction_and_a_covered_one_is_not() -> None:
    """An upright card whose top-left index shows and whose bottom-right one lies half under another card: one
    mark, at the top-left index, pointing up, with the card's height; the half-covered index neither marked nor
    counted; bare table counted as no index."""
    photo = np.zeros((512, 512, 3), np.uint8)
    corners = np.array([[156, 100], [316, 100], [316, 348], [156, 348]], np.float32)
    drawn = frames.Drawn(photo, ((corners, "whole"),), ((1.0, 0.6),))
    marks = index_frames.targets(drawn, (256, 256))
    heat, up_x, up_y, size, counts = (marks[..., k].astype(np.float32) / 255 for k in range(5))
    top_left = (np.array([156 + 0.2 * 160, 100 + 0.135 * 248]) / 4).astype(int)
    peak = np.unravel_index(int(heat.argmax()), heat.shape)
    assert abs(peak[0] - top_left[1]) <= 1 and abs(peak[1] - top_left[0]) <= 1 and heat.max() > 0.9
    assert up_x[peak] * 2 - 1 == pytest.approx(0, abs=0.02) and up_y[peak] * 2 - 1 == pytest.approx(-1, abs=0.02)
    assert 2 ** (size[peak] * 255 / 28) == pytest.approx(248 / 2, rel=0.03)
    bottom_right = (np.array([316 - 0.2 * 160, 348 - 0.135 * 248]) / 4).astype(int)
    assert heat[bottom_right[1], bottom_right[0]] == 0 and counts[bottom_right[1], bottom_right[0]] == 0
    assert counts[5, 5] == 1 and heat[5, 5] == 0


def test_index_finder_frames_are_hands_laid_down_with_their_indexes_marked() -> None:
    images, marks = index_frames.batch(seed=4, count=6, shape=(192, 256))
    assert images.shape == (6, 192, 256, 3) and marks.shape == (6, 96, 128, 5)
    assert (marks[..., 0] > 230).sum() >= 6
    again, _ = index_frames.batch(seed=4, count=2, shape=(192, 256))
    assert np.array_equal(again, images[:2])
