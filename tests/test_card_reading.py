"""The shipped card model, read through the whole camera path: finder, crop, balance, model."""

from __future__ import annotations

import copy
import dataclasses
import math
from collections.abc import Sequence
from pathlib import Path

import cv2
import numpy as np
import pytest

from tabletop.game.cards import COLORS, Card
from tabletop.lab.drawing import render, scene
from tabletop.lab.training import samples
from tabletop.lab.training.evaluate import (
    EveryCardEvaluation,
    TableCard,
    cards_on_tables,
    evaluate,
    evaluate_every_card,
    judge,
    labelled_photos,
)
from tabletop.lab.training.misreads import CAUSES, misreads
from tabletop.vision.crop import CARD_ASPECT, INDEX_SIZE, Image, Look, balance, look, rectify
from tabletop.vision.every_card import SeenCard, read_every_card
from tabletop.vision.found import height
from tabletop.vision.index_finder import INDEX_MIDDLE, FoundIndex, card_round
from tabletop.vision.mock import ScriptedReader
from tabletop.vision.model import LOOK_AGAIN_BELOW, UNSURE_BELOW, CardModel, Reading, combine, deck_weights
from tabletop.vision.reader import GUESS_FLOOR, read_card

REAL_CARDS = Path(__file__).parent / "data" / "real-cards"
REAL_SCENES = Path(__file__).parent / "data" / "real-scenes"
REAL_SCENE_FLOOR = 0.98
"""Top cards of fans of real cards in real pictures, found and read (the sample of 60 in tests/data): 60 of 60
on the sample with the shipped networks (59 with the index model before); the whole development set of 899 is
measured by ``tabletop bench real`` (see models/README.md)."""
EVERY_CARD_FLOOR = 0.965
"""Every card of the same 60 fans (180 cards, ``corners.csv``), the covered ones read from their index corner: 178 with
the shipped networks and 3 read where none lies (98.9%; 2,641 of the development set's 2,697, 97.9%, see
models/README.md; the same with covered cards cut at the whole cards' height; 178 and 2 with the index finder's
nearer looks area-averaged, 177 and 5 before each index was placed from all its marks, not the surest alone; 176
before an index beside a whole card's own was counted where it reads as another card, 175 before the index finder's
faint marks beside a card read were read; 177 and 1 with the index model before, 165 and 4 before that), 156 when the
index finder did not take the cards' height from the whole ones. The goal is 97%; this floor, four cards under what
is reached, holds it."""
REAL_CARD_FLOOR = 0.97
"""The goal. Measured 70 of 70 with the model last trained (69 with the network alone, without the second look
turned half round; see models/README.md)."""
TABLE_FLOOR = 0.95
"""Cards on generated tables, found by the finder and read: 159 of 162 (0.981; 157 on the next seed). The finder
is the limit: the model read every card it found."""
CLOTH_FLOOR = 0.93
"""Cards on checked, striped and dotted cloths: 58 of 60, none read wrong (53 before the finder took a second,
softened look at a picture where it found nothing)."""


@pytest.fixture(scope="module")
def model() -> CardModel:
    return CardModel()


def known(model: CardModel) -> list[Card]:
    """The cards the shipped model was trained to read, in its order: every card the reading tests render."""
    return [card for card in model.cards if card is not None]


def test_every_class_of_a_freshly_rendered_card_is_read_right(model: CardModel) -> None:
    """Each card the model knows, in the three designs and both ways up, cropped at its true corners."""
    rng = np.random.default_rng(1)
    whole = np.array([[0, 0], [render.WIDTH, 0], [render.WIDTH, render.HEIGHT], [0, render.HEIGHT]], np.float32)
    wrong: dict[str, int] = {}
    for design in render.DESIGNS:
        for card in known(model):
            face, _ = render.render_card(card, design, rng)
            crops = [balance(rectify(face, corners, model.size)) for corners in (whole, np.roll(whole, 2, axis=0))]
            for reading in model.read(crops):
                if reading.card != card:
                    wrong[card.name] = wrong.get(card.name, 0) + 1
    assert not wrong, wrong


@pytest.mark.parametrize("slant", [-30.0, 25.0])
def test_a_draw_two_whose_two_small_cards_lean_is_read_as_a_draw_two_not_a_reverse(model: CardModel,
                                                                                   slant: float) -> None:
    """Some decks print the draw two's two small cards leaning, like the reverse's arrows: still a draw two."""
    rng = np.random.default_rng(int(slant) + 100)
    whole = np.array([[0, 0], [render.WIDTH, 0], [render.WIDTH, render.HEIGHT], [0, render.HEIGHT]], np.float32)
    for design in render.DESIGNS:
        deck = dataclasses.replace(render.Deck.random(rng, design), two_slant=slant)
        for colour in COLORS:
            card = Card.from_name(f"{colour}-draw-two")
            face, _ = render.render_card(card, design, rng, deck)
            (reading,) = model.read([balance(rectify(face, whole, model.size))])
            assert reading.card == card, (design, colour, reading.guesses)


@pytest.mark.parametrize("inks", [("yellow", "red", "blue", "green"), ("blue", "yellow", "green", "red")])
def test_a_wild_draw_four_whose_four_cards_fill_the_oval_in_any_order_is_read_as_one(
        model: CardModel, inks: tuple[str, ...]) -> None:
    """Newer decks print the wild draw four's four cards large, and not every deck in the same order of colours:
    still a wild draw four, never a plain wild or no card."""
    rng = np.random.default_rng(len(inks[0]))
    whole = np.array([[0, 0], [render.WIDTH, 0], [render.WIDTH, render.HEIGHT], [0, render.HEIGHT]], np.float32)
    card = Card.from_name("wild-draw-four")
    for design in render.DESIGNS:
        for huddle in (False, True):
            deck = dataclasses.replace(render.Deck.random(rng, design), four_scale=1.45, four_inks=inks,
                                       four_huddle=huddle)
            face, _ = render.render_card(card, design, rng, deck)
            (reading,) = model.read([balance(rectify(face, whole, model.size))])
            assert reading.card == card, (design, huddle, reading.guesses)


def test_cards_lying_on_tables_are_found_and_read(model: CardModel) -> None:
    rng = np.random.default_rng(2026)
    right = 0
    for design in render.DESIGNS:
        for card in known(model):
            frame, _ = scene.card_on_table(rng, card, design)
            sighting = read_card(frame, model)
            right += sighting is not None and sighting.reading.card == card
    assert right / (3 * len(known(model))) >= TABLE_FLOOR


def test_cards_on_patterned_cloths_are_found_and_read_and_never_misread(model: CardModel) -> None:
    """A cloth's fine checks, stripes and dots run into a card's outline and break its thin border."""
    rng = np.random.default_rng(31)
    right = wrong = 0
    cards = known(model)
    for k in range(60):
        card = cards[int(rng.integers(len(cards)))]
        height = rng.uniform(90, 160)
        image, _ = scene.card_on_table(rng, card, render.DESIGNS[k % 3], height=height, table=scene.cloth)
        sighting = read_card(image, model)
        right += sighting is not None and sighting.reading.card == card
        wrong += sighting is not None and sighting.reading.card != card
    assert wrong == 0
    assert right / 60 >= CLOTH_FLOOR


@pytest.mark.parametrize("kind", render.BLANKS)
def test_a_card_that_is_none_of_the_57_is_no_card_never_a_guess(model: CardModel, kind: render.Blank) -> None:
    rng = np.random.default_rng(7)
    for _ in range(6):
        frame = scene.surface(rng, (480, 640))
        corners = scene.card_corners((320, 240), 160, rng.uniform(0, 6.3), rng, perspective=0.02)
        scene.paste(frame, *render.render_blank(kind, rng), corners)
        assert read_card(frame, model) is None


def test_an_empty_table_has_no_card(model: CardModel) -> None:
    rng = np.random.default_rng(11)
    for surface in scene.SURFACES:
        assert read_card(surface(rng, (480, 640)), model) is None


def test_real_photographs_stay_above_the_regression_floor(model: CardModel) -> None:
    result = evaluate(model, labelled_photos(REAL_CARDS))
    assert result.total == 70
    assert result.accuracy >= REAL_CARD_FLOOR, result.confusions.most_common()


def test_the_top_card_of_real_cards_in_real_pictures_is_found_and_read(model: CardModel) -> None:
    """Fans of a real deck on real cloths, wood, stone and paper: the card read is the top card, it is read right,
    and a card read wrong is never read surely."""
    result = evaluate(model, labelled_photos(REAL_SCENES))
    assert result.total == 60
    assert result.accuracy >= REAL_SCENE_FLOOR, result.confusions.most_common()
    assert result.wrong_and_sure == 0, result.confusions.most_common()


def test_a_real_fan_whose_bottom_card_shows_a_sliver_of_its_index_is_counted_whole(model: CardModel) -> None:
    """A red 1 fanned tight under a green 9 and a wild shows a sliver of its index, which the index finder marks
    only faintly: all three cards are read, and nothing more."""
    picture = REAL_SCENES / "images" / "488.jpg"
    result = evaluate_every_card(model, {picture: cards_on_tables(REAL_SCENES)[picture]})
    assert (result.cards, result.right, result.invented) == (3, 3, 0), result.confusions


@pytest.mark.parametrize("name", ["668.jpg", "863.jpg"])
def test_a_covered_card_is_placed_from_every_mark_of_its_index_not_the_surest_alone(model: CardModel,
                                                                                    name: str) -> None:
    """The index finder marks each corner in several looks, each a little off its own way: the card under a fan's
    top card, cut where its surest mark alone places it, reads as another card (a red 5 as a 6, a wild draw four as
    a Wild Swap Hands); placed from all its marks, every card of the fan reads right, and nothing else is read as
    surely as a guess (a dark speck on 668's waffle reads as a yellow 7, 25% sure)."""
    picture = REAL_SCENES / "images" / name
    image = cv2.imread(str(picture))
    guessed = [seen for seen in read_every_card(image, model) if seen.reading.confidence >= GUESS_FLOOR]
    result = EveryCardEvaluation()
    judge(result, cards_on_tables(REAL_SCENES)[picture], guessed, image.shape[1], image.shape[0])
    assert (result.cards, result.right, result.invented) == (3, 3, 0), result.confusions


def test_every_card_of_real_fans_is_read_and_none_wrong_and_sure(model: CardModel) -> None:
    """``classify --all`` on fans of a real deck: the top card whole and the cards under it from the index corner
    that shows; a card read wrong is unsure, and little is read where no card lies."""
    result = evaluate_every_card(model, cards_on_tables(REAL_SCENES))
    assert result.cards == 180
    assert result.recall >= EVERY_CARD_FLOOR, result.confusions.most_common(10)
    assert result.wrong_and_sure == 0, result.confusions.most_common(10)
    assert result.invented <= 6


def test_a_card_read_right_beside_the_top_card_s_index_counts_as_read_not_the_top_card_for_it() -> None:
    """Judging every card of a fan: the top card's own index lies beside the index of the card under it, and is
    often nearer to it than the covered card's own reading; each labelled card is paired with a card read right
    at its index before any other, and a card read nowhere near a labelled one is one invented."""
    top = np.array([[110, 100], [210, 100], [210, 250], [110, 250]], np.float32)
    fan = [TableCard("blue-7", (0.236, 0.3), (0.05, 0.05), True), TableCard("red-1", (0.26, 0.3), (0.05, 0.05), True)]
    reading = {name: Reading(Card.from_name(name), 0.95, ((Card.from_name(name), 0.95),)) for name in
               ("red-1", "blue-7", "green-2")}
    under = np.array([[96, 112], [112, 112], [112, 128], [96, 128]], np.float32)
    seen = [SeenCard(reading["red-1"], corners=top), SeenCard(reading["blue-7"], index=under)]
    result = EveryCardEvaluation()
    judge(result, fan, seen, 500, 400)
    assert (result.right, result.invented, result.every_card_right) == (2, 0, 1)
    far = np.array([[396, 312], [412, 312], [412, 328], [396, 328]], np.float32)
    judge(result, fan, [SeenCard(reading["red-1"], corners=top), SeenCard(reading["green-2"], index=far)], 500, 400)
    assert (result.right, result.invented, result.every_card_right) == (3, 1, 1)
    assert result.confusions[("blue-7", "none")] == 1


def test_confidence_is_calibrated_on_held_out_renders(model: CardModel) -> None:
    crops, labels = samples.batch(seed=424_242, count=600)
    probabilities = model.probabilities(list(crops))
    right = probabilities.argmax(axis=1) == labels
    confidence = probabilities.max(axis=1)
    assert abs(float(confidence.mean()) - float(right.mean())) < 0.04
    assert right[confidence >= 0.9].mean() >= 0.9


def test_several_cards_are_read_in_one_batch_with_the_same_answers(model: CardModel) -> None:
    crops, _ = samples.batch(seed=5, count=8)
    one_by_one = [model.read([crop])[0] for crop in crops]
    together = model.read(list(crops))
    assert [r.card for r in together] == [r.card for r in one_by_one]
    assert [r.confidence for r in together] == pytest.approx([r.confidence for r in one_by_one], abs=1e-5)


def test_a_doubtful_card_reads_the_same_whichever_way_up_it_lies(model: CardModel) -> None:
    """The two ways up are read together, so which way a doubtful card landed cannot change the call."""
    crops, _ = samples.batch(seed=424_242, count=600)
    upright = model.probabilities(list(crops))
    turned = model.probabilities([crop[::-1, ::-1] for crop in crops])
    doubtful = (upright.max(axis=1) < LOOK_AGAIN_BELOW) & (turned.max(axis=1) < LOOK_AGAIN_BELOW)
    assert doubtful.sum() >= 5
    np.testing.assert_allclose(upright[doubtful], turned[doubtful], atol=1e-5)


def probabilities(**named: float) -> np.ndarray:
    """A row of probabilities over the card model's labels: the cards named (``red_3=0.6``), the rest shared."""
    labels = list(samples.LABELS)
    row = np.full(len(labels), 1e-4)
    for name, share in named.items():
        row[labels.index(name.replace("_", "-"))] = share
    return row / row.sum()


NONE = samples.LABELS.index("none")


def test_sure_indexes_settle_a_whole_card_in_doubt() -> None:
    """A yellow 3 whose big numeral, outlined and shadowed, reads nearly as an 8: both small indexes say 3."""
    card = probabilities(yellow_3=0.35, yellow_8=0.6)
    indexes = np.stack([probabilities(yellow_3=0.95), probabilities(yellow_3=0.9)])
    row = combine(card[None], indexes[None], NONE)[0]
    assert samples.LABELS[int(row.argmax())] == "yellow-3" and row.max() >= UNSURE_BELOW


def test_indexes_naming_another_card_make_a_sure_whole_card_unsure() -> None:
    """The worst a table can do is buzz on a card read wrong and surely; two looks that disagree are asked about."""
    card = probabilities(red_6=0.9, red_9=0.08)
    indexes = np.stack([probabilities(red_9=0.95), probabilities(red_9=0.95)])
    row = combine(card[None], indexes[None], NONE)[0]
    assert row.max() < UNSURE_BELOW


def test_an_index_that_cannot_be_read_changes_nothing() -> None:
    """A thumb over one corner, the other too small to make out: the whole card's reading stands, card or none."""
    for card in (probabilities(green_7=0.97), probabilities(none=0.97)):
        indexes = np.stack([probabilities(none=0.98), np.full(len(samples.LABELS), 1 / len(samples.LABELS))])
        row = combine(card[None], indexes[None], NONE)[0]
        assert int(row.argmax()) == int(card.argmax()) and abs(row.max() - card.max()) < 0.02


class _Says:
    """An index network that gives every crop the one row of probabilities it is told."""

    def __init__(self, row: np.ndarray) -> None:
        self.row = row

    def run(self, batch: Sequence[Image]) -> np.ndarray:
        return np.stack([self.row] * len(batch))


def test_a_reading_weighs_the_cards_as_the_deck_holds_them(model: CardModel) -> None:
    """A "+4" whose "4" lies under the next card of a fan, ringed like the chasing arrows: the networks saw the one
    Wild Shuffle Hands as often as the four wild draw fours, but the deck holds four of one and one of the other,
    and an index as much the one as the other is the wild draw four. "No card" keeps its weight, and the shipped
    networks carry the proportions they learnt from."""
    np.testing.assert_allclose(model.network.shares, samples.LABEL_SHARES)
    doubtful = copy.copy(model)
    doubtful.index = _Says(probabilities(wild_shuffle_hands=0.5, wild_draw_four=0.4))  # type: ignore[assignment]
    (reading,) = doubtful.vote_indexes([[np.zeros((*INDEX_SIZE[::-1], 3), np.uint8)]])
    assert reading.card == Card.from_name("wild-draw-four")
    assert model.weights[NONE] == 1.0
    five, zero = (model.weights[samples.LABELS.index(name)] for name in ("red-5", "red-0"))
    assert five == pytest.approx(2 * zero)
    even = deck_weights(model.cards, np.full(len(samples.LABELS), 1 / len(samples.LABELS)))
    assert even[samples.LABELS.index("wild")] == pytest.approx(2 * even[samples.LABELS.index("red-5")])


def test_both_index_corners_of_a_card_come_out_alike_either_way_up() -> None:
    """The index printed top left and the one printed bottom right, turned half round, are the same picture, and
    the card's crop shows the card whichever corner the finder took for its top left."""
    rng = np.random.default_rng(3)
    face, _ = render.render_card(Card.from_name("blue-7"), "modern", rng)
    whole = np.array([[0, 0], [render.WIDTH, 0], [render.WIDTH, render.HEIGHT], [0, render.HEIGHT]], np.float32)
    upright, turned = look(face, whole, (64, 96)), look(face, np.roll(whole, 2, axis=0), (64, 96))
    assert upright.indexes[0].shape == (INDEX_SIZE[1], INDEX_SIZE[0], 3)
    assert np.abs(upright.indexes[0].astype(int) - upright.indexes[1].astype(int)).mean() < 12
    assert np.abs(upright.indexes[0].astype(int) - turned.indexes[0].astype(int)).mean() < 12
    assert np.abs(upright.card.astype(int) - turned.card[::-1, ::-1].astype(int)).mean() < 12


def test_a_crop_round_the_big_numeral_alone_is_no_card_and_a_clean_card_is_itself(model: CardModel) -> None:
    """A finder fooled by the big numeral's outline crops the middle of the card alone: read surely as a card, the
    buzzer would accuse someone. It is read as no card (which no one is accused of), or now and then as the card it
    is part of (which accuses no one wrongly; the model trained with the 112-card deck reads one of 54 so), while the
    same cards cropped whole are read as themselves."""
    fooled = misreads(model, CAUSES["round the numeral alone"], 54, seed=8)
    whole = misreads(model, CAUSES["clean"], 54, seed=8)
    assert fooled.total == whole.total == 54
    assert fooled.wrong_and_sure == 0 and fooled.right <= 1
    assert sum(times for (_, said), times in fooled.confusions.items() if said == "none") >= 50
    assert whole.right >= 53 and whole.wrong_and_sure == 0


OUT_OF_FOCUS = 1.6
"""How soft the test's draw twos are, in pixels of the card model's 96-pixel-tall crop: within the focus blur the
table simulator films (up to 0.9 pixels of its small picture, 2 pixels of a crop of its smallest cards)."""


def test_a_real_draw_two_out_of_focus_is_read_as_a_draw_two(model: CardModel) -> None:
    """Out of focus, a real deck's two small white cards run together into one pale blob: read as a reverse or a 4,
    the play is asked about on every phone, or worse. Each real draw two is read as itself, either way up."""
    draw_twos = [photo for photo in labelled_photos(REAL_CARDS) if photo.card.endswith("draw-two")]
    assert len(draw_twos) == 4
    for photo in draw_twos:
        image = cv2.imread(str(photo.path))
        height, width = image.shape[:2]
        soft = cv2.GaussianBlur(image, (0, 0), OUT_OF_FOCUS * height / model.size[1])
        corners = np.array([[0, 0], [width, 0], [width, height], [0, height]], np.float32)
        for lying in (soft, np.ascontiguousarray(soft[::-1, ::-1])):
            reading = model.read([look(lying, corners, model.size)])[0]
            assert reading.card is not None and reading.card.name == photo.card, (photo.path.name, reading.guesses)


@pytest.mark.parametrize("name", ["wild-shuffle-hands", "wild-swap-hands", "wild-customizable"])
def test_each_special_wild_of_the_112_card_deck_is_read_as_itself_never_as_one_of_the_54(model: CardModel,
                                                                                       name: str) -> None:
    """Each of the three on tables, in the three designs and wild prints drawn at random: read as itself, and never
    surely as any card of the classic deck (which would be a play the referee judges wrongly)."""
    rng = np.random.default_rng(len(name))
    card = Card.from_name(name)
    right = 0
    for k in range(12):
        frame, _ = scene.card_on_table(rng, card, render.DESIGNS[k % 3])
        sighting = read_card(frame, model)
        right += sighting is not None and sighting.reading.card == card
        assert sighting is None or sighting.reading.card == card or sighting.reading.unsure, sighting
    assert right >= 11


class _Marks:
    """An index finder that marks where it is told: the index corners of cards ``height`` pixels tall, upright."""

    def __init__(self, middles: list[tuple[float, float]], height: float, faint: int = 0) -> None:
        """The last ``faint`` marks are marked faintly, as the sliver of a card fanned tight under the next."""
        self.middles, self.height = middles, height
        self.scores = [0.9] * (len(middles) - faint) + [0.4] * faint

    def find(self, image: np.ndarray, card_height: float | None = None,
             heights: tuple[float, ...] = ()) -> list[FoundIndex]:
        up = np.array([0.0, -1.0])
        cards = [card_round(np.array(middle), up, self.height) for middle in self.middles]
        return [FoundIndex(card, np.array(middle, np.float32), score)
                for card, middle, score in zip(cards, self.middles, self.scores, strict=True)]


class _IndexesOnly(ScriptedReader):
    """Reads every index as the card it is told, and every whole card as no card."""

    def read(self, looks: Sequence[Look | Image], guesses: int = 3) -> list[Reading]:
        return [Reading(None, 0.99, ((None, 0.99),)) for _ in looks]


def test_an_index_marked_twice_is_one_card_and_two_like_cards_side_by_side_are_two() -> None:
    """The finder may mark one corner twice, a little apart (its numeral, and the corner round it): read alike, the
    two marks are one card, or a hand's size would be one too many. Two red 3s of a hand, side by side in a row,
    are two cards."""
    table = np.full((400, 600, 3), 90, np.uint8)
    reader = _IndexesOnly("red-3")
    anywhere = lambda x, y: True  # noqa: E731
    twice = _Marks([(200.0, 150.0), (200.0, 165.0)], 150.0)
    assert len(read_every_card(table, reader, twice, on_the_hand=anywhere)) == 1
    side_by_side = _Marks([(200.0, 150.0), (235.0, 150.0)], 150.0)
    assert len(read_every_card(table, reader, side_by_side, on_the_hand=anywhere)) == 2
    off_the_hand = lambda x, y: x < 220  # noqa: E731
    assert len(read_every_card(table, reader, side_by_side, on_the_hand=off_the_hand)) == 1


def test_a_fan_whose_top_card_no_finder_outlines_is_read_from_its_corners_and_a_lone_mark_is_not() -> None:
    """``classify --all`` on a fan whose whole top card neither finder finds: the corners in a row, each card lying
    under the next, are the hand; a mark alone on the table, which reads as an index too, lies under nothing."""
    table = np.full((400, 600, 3), 90, np.uint8)
    fan = _Marks([(150.0, 120.0), (185.0, 120.0), (220.0, 120.0), (500.0, 300.0)], 150.0)
    seen = read_every_card(table, _IndexesOnly("red-3"), fan)
    assert [str(card.card) for card in seen] == ["red-3"] * 3
    assert all(math.dist(card.index_middles[0], (500.0, 300.0)) > 100 for card in seen)


def test_a_faintly_marked_index_counts_as_the_next_card_of_a_fan_and_a_faint_mark_on_the_table_does_not() -> None:
    """The index of a card fanned tight under the next shows as a sliver, and the finder marks it faintly: read
    surely beside a card of the hand, as far from its index as a fan's cards lie apart, it is one more card. A faint
    mark alone on the table, or one read unsurely, is none; a surely marked corner there still counts."""
    table = np.full((400, 600, 3), 90, np.uint8)
    anywhere = lambda x, y: True  # noqa: E731
    fan = [(185.0, 120.0), (220.0, 120.0), (150.0, 120.0)]
    assert len(read_every_card(table, _IndexesOnly("red-3"), _Marks(fan, 150.0, faint=1), on_the_hand=anywhere)) == 3
    assert len(read_every_card(table, _IndexesOnly("red-3", 0.6), _Marks(fan, 150.0, faint=1),
                               on_the_hand=anywhere)) == 2
    alone = [(185.0, 120.0), (220.0, 120.0), (500.0, 300.0)]
    assert len(read_every_card(table, _IndexesOnly("red-3"), _Marks(alone, 150.0, faint=1), on_the_hand=anywhere)) == 2
    assert len(read_every_card(table, _IndexesOnly("red-3"), _Marks(alone, 150.0), on_the_hand=anywhere)) == 3


def test_a_covered_index_read_as_one_of_several_like_cards_is_kept_where_it_is_surely_a_card() -> None:
    """What shows of a covered "+4" is shared by the special wilds, and the index model spreads its reading over
    them: read below the usual floor but far likelier a card than none, the card is counted; a reading as likely
    nothing, or spread thinner still, is a mark on the table and left out."""
    table = np.full((400, 600, 3), 90, np.uint8)
    anywhere = lambda x, y: True  # noqa: E731
    corner = _Marks([(200.0, 150.0)], 150.0)
    spread = read_every_card(table, _IndexesOnly("wild-draw-four", 0.25, no_card=0.01), corner, on_the_hand=anywhere)
    assert [seen.card for seen in spread] == [Card.from_name("wild-draw-four")]
    assert spread[0].reading.unsure
    assert read_every_card(table, _IndexesOnly("wild-draw-four", 0.25, no_card=0.1), corner,
                           on_the_hand=anywhere) == []
    assert read_every_card(table, _IndexesOnly("wild-draw-four", 0.1), corner, on_the_hand=anywhere) == []


def test_a_mark_as_the_corner_of_a_card_half_as_tall_as_the_table_s_is_no_card() -> None:
    """A card's big numeral looks to the index finder like the index corner of a card about half as tall: where the
    cards' height is known, such a mark is no card of the hand (a simulated row's yellow 2 read so as a second draw
    two); the corner of a card the finder makes a little short, as it often does, is one."""
    table = np.full((400, 600, 3), 90, np.uint8)
    anywhere = lambda x, y: True  # noqa: E731
    for tall, cards in ((75.0, 0), (110.0, 1), (150.0, 1)):
        seen = read_every_card(table, _IndexesOnly("red-3"), _Marks([(200.0, 150.0)], tall), card_height=150.0,
                               on_the_hand=anywhere)
        assert len(seen) == cards, tall


class _WholeAndIndexes(ScriptedReader):
    """Reads every whole card as the card it is told, and every index as a red 3."""

    def vote_indexes(self, views: Sequence[Sequence[Image]], guesses: int = 3) -> list[Reading]:
        card = Card.from_name("red-3")
        return [Reading(card, 0.9, ((card, 0.9),)) for _ in views]


def test_an_outline_far_larger_than_the_layout_s_card_hides_no_index_of_the_row_inside_it() -> None:
    """A row of cards laid over each other can look, from its white rim, like one big card: where the camera's
    layout says how tall a card is, an outline half as tall again is no card, and the indexes inside it are the
    hand's cards; a card of the layout's size is read whole."""
    table = np.full((400, 600, 3), 60, np.uint8)
    face, _ = render.render_card(Card.from_name("green-5"), "classic", np.random.default_rng(3))
    for (left, top), tall in (((60, 80), 225), ((380, 120), 150)):
        table[top:top + tall, left:left + round(tall / CARD_ASPECT)] = cv2.resize(
            face, (round(tall / CARD_ASPECT), tall), interpolation=cv2.INTER_AREA)
    for left in (70, 110):  # the cards of the row: the left edge, index and border of each
        table[90:240, left:left + 40] = table[120:270, 380:420]
    reader = _WholeAndIndexes("wild-shuffle-hands", 0.9)
    row = _Marks([(90.0, 110.0), (130.0, 110.0)], 150.0)
    anywhere = lambda x, y: True  # noqa: E731
    seen = read_every_card(table, reader, row, card_height=150.0, on_the_hand=anywhere)
    assert sorted(str(card.card) for card in seen) == ["red-3", "red-3", "wild-shuffle-hands"]
    assert [card.corners is not None for card in seen] == [True, False, False]
    assert max(height(card.corners) for card in seen if card.corners is not None) < 160
    unmeasured = read_every_card(table, reader, row, on_the_hand=anywhere)
    assert sorted(str(card.card) for card in unmeasured) == ["wild-shuffle-hands", "wild-shuffle-hands"]


def test_a_corner_beside_a_whole_card_s_own_is_the_card_under_it_unless_it_reads_as_that_card() -> None:
    """In a tight fan the index of the card under the top one lies as near the top card's own index as that index
    found again a little off its outline: read as another card, it is the card under it and counted; read as the
    top card itself, it is its corner found again, and the card is counted once."""
    table = np.full((400, 600, 3), 60, np.uint8)
    wide = round(150 / CARD_ASPECT)
    for left, name in ((358, "blue-7"), (380, "green-5")):
        face, _ = render.render_card(Card.from_name(name), "classic", np.random.default_rng(3))
        table[120:270, left:left + wide] = cv2.resize(face, (wide, 150), interpolation=cv2.INTER_AREA)
    corners = [(left + INDEX_MIDDLE[0] * wide, 120 + INDEX_MIDDLE[1] * 150) for left in (358, 380)]
    marks = _Marks(corners, 150.0)
    fanned = read_every_card(table, _WholeAndIndexes("green-5", 0.9), marks)
    assert sorted(str(card.card) for card in fanned) == ["green-5", "red-3"]
    again = read_every_card(table, _WholeAndIndexes("red-3", 0.9), marks)
    assert [str(card.card) for card in again] == ["red-3"]


def test_an_index_inside_a_whole_card_read_unsurely_is_the_card_beneath_unless_it_reads_as_that_card() -> None:
    """Two cards of one colour laid over each other may be outlined as one whole card, read unsurely as neither:
    the index of the card beneath shows inside that outline, away from its index corners, and is counted. Inside a
    card read surely it is hidden under it; read as the unsure card itself, it is that card's own print."""
    table = np.full((400, 600, 3), 60, np.uint8)
    wide = round(150 / CARD_ASPECT)

    def face(name: str) -> Image:
        drawn, _ = render.render_card(Card.from_name(name), "classic", np.random.default_rng(3))
        return cv2.resize(drawn, (wide, 150), interpolation=cv2.INTER_AREA)

    table[120:270, 250:250 + wide] = face("green-5")
    left, top = 250 + wide - 50, 126
    table[top:top + 45, left:left + 45] = face("blue-7")[:45, :45]
    marks = _Marks([(left + INDEX_MIDDLE[0] * wide, top + INDEX_MIDDLE[1] * 150)], 150.0)
    read = {(name, sure): sorted(str(card.card) for card in read_every_card(table, _WholeAndIndexes(name, sure), marks))
            for name, sure in (("green-5", 0.9), ("green-5", 0.6), ("red-3", 0.6))}
    assert read == {("green-5", 0.9): ["green-5"], ("green-5", 0.6): ["green-5", "red-3"], ("red-3", 0.6): ["red-3"]}


@pytest.mark.parametrize("design", render.DESIGNS)
def test_a_covered_card_is_read_as_itself_however_far_off_the_index_finder_tells_its_height(
        model: CardModel, design: render.Design) -> None:
    """The index finder tells a covered card's height from its corner alone, often a tenth or more off; the whole
    card beside it tells the hand's height well. Cut at the whole card's height, the corner of a card the finder
    makes a fifth too short or a quarter too tall reads as the card it is (cut at the finder's, a 6 read as a 1 or
    a 9, a blue 1 as a yellow one)."""
    wide = round(150 / CARD_ASPECT)

    def face(name: str) -> Image:
        drawn, _ = render.render_card(Card.from_name(name), design, np.random.default_rng(3))
        return cv2.resize(drawn, (wide, 150), interpolation=cv2.INTER_AREA)

    anywhere = lambda x, y: True  # noqa: E731
    for name in ("yellow-6", "blue-1"):
        table = np.full((400, 600, 3), 60, np.uint8)
        table[120:270, 400:400 + wide] = face("green-5")
        table[60:210, 60:100] = face(name)[:, :40]
        corner = (60 + INDEX_MIDDLE[0] * wide, 60 + INDEX_MIDDLE[1] * 150)
        for told in (120.0, 150.0, 190.0):
            seen = read_every_card(table, model, _Marks([corner], told), on_the_hand=anywhere)
            assert sorted(str(card.card) for card in seen) == sorted(["green-5", name]), (name, told)


def test_a_mark_on_the_table_read_as_an_index_is_no_card_where_no_white_border_runs_round_it() -> None:
    """A dark print on a cloth can read as a black card's corner; a covered card's index has its card's white
    border along its top and left, as white as the whole cards' on the same table. The corner of a card that shows
    is counted; the same reading of bare table beside it is not."""
    table = np.full((400, 600, 3), 70, np.uint8)
    face, _ = render.render_card(Card.from_name("green-5"), "classic", np.random.default_rng(3))
    face = cv2.resize(face, (round(150 / CARD_ASPECT), 150), interpolation=cv2.INTER_AREA)
    table[120:270, 400:400 + face.shape[1]] = face
    table[60:210, 60:100] = face[:, :40]
    reader = _WholeAndIndexes("green-5", 0.9)
    marks = _Marks([(60 + INDEX_MIDDLE[0] * face.shape[1], 60 + INDEX_MIDDLE[1] * 150), (250.0, 320.0)], 150.0)
    seen = read_every_card(table, reader, marks, card_height=150.0, on_the_hand=lambda x, y: True)
    assert sorted(str(card.card) for card in seen) == ["green-5", "red-3"]
    assert [card.index_middles[0][0] < 100 for card in seen if card.corners is None] == [True]


class _SurerSecond(_IndexesOnly):
    """Reads the first index it is shown unsurely and every later one surely, all as the card it is told."""

    def vote_indexes(self, views: Sequence[Sequence[Image]], guesses: int = 3) -> list[Reading]:
        card = Card.from_name(str(self.card))
        return [Reading(card, sure, ((card, sure),)) for sure in [0.25, *[0.7] * (len(views) - 1)]]


def test_of_one_index_marked_twice_the_surer_reading_is_kept() -> None:
    """The finder's surer mark of a corner may be read less surely than its second mark: the card kept is the surer
    reading, which the reveal zone counts (it counts no reading under 0.5)."""
    table = np.full((400, 600, 3), 90, np.uint8)
    twice = _Marks([(200.0, 150.0), (200.0, 165.0)], 150.0)
    seen = read_every_card(table, _SurerSecond("red-3"), twice, on_the_hand=lambda x, y: True)
    assert [round(card.reading.confidence, 2) for card in seen] == [0.7]
