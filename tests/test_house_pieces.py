"""The house rules' pieces on their own, as the referee consults them: what a card does to the hands, how hands
pass, shuffle and swap, and how a scored round moves the totals (the whole games are in test_house_rules.py and
test_special_wilds.py)."""

import pytest

from tabletop.game.cards import Card
from tabletop.game.house import Hands, Totals, hands_after, passed_on, scored, shuffled, swapped
from tabletop.game.rules import Customizable, Options, Scoring


@pytest.mark.parametrize(("name", "options", "expected"), [
    ("red-7", {}, Hands.KEPT),
    ("red-7", {"seven_zero": True}, Hands.SWAP),
    ("red-0", {}, Hands.KEPT),
    ("red-0", {"seven_zero": True}, Hands.PASSED_ON),
    ("wild-swap-hands", {}, Hands.SWAP_AND_CALL),
    ("wild-shuffle-hands", {}, Hands.SHUFFLED),
    ("wild-customizable", {}, Hands.KEPT),
    ("wild-customizable", {"wild_customizable": Customizable.SWAP_HANDS}, Hands.SWAP_AND_CALL),
    ("wild-customizable", {"wild_customizable": Customizable.EVERYONE_DRAWS_ONE}, Hands.EVERYONE_DRAWS_ONE),
    ("wild-customizable", {"wild_customizable": Customizable.WILD_DRAW_TWO}, Hands.KEPT),
    ("wild-draw-four", {"seven_zero": True}, Hands.KEPT),
])
def test_what_a_card_does_to_the_hands_follows_the_tables_options(name: str, options: dict[str, object],
                                                                  expected: Hands) -> None:
    assert hands_after(Card.from_name(name), Options(**options)) is expected  # type: ignore[arg-type]


def test_hands_passed_on_clockwise_go_to_the_next_seat_and_against_it_to_the_one_before() -> None:
    assert passed_on((5, 3, None, 1), 1) == (1, 5, 3, None)
    assert passed_on((5, 3, None, 1), -1) == (3, None, 1, 5)


def test_a_shuffle_deals_the_total_out_from_the_players_left_and_the_extra_cards_go_first() -> None:
    assert shuffled((1, 4, 6), seat=0) == (3, 4, 4)
    assert shuffled((1, 4, 6), seat=2) == (4, 4, 3)
    assert sum(size or 0 for size in shuffled((0, 0, 7, 3), seat=1)) == 10


def test_a_shuffle_with_a_hand_unknown_leaves_every_hand_unknown() -> None:
    assert shuffled((1, None, 6), seat=0) == (None, None, None)


def test_a_swap_exchanges_two_hands_and_no_other() -> None:
    assert swapped((2, None, 7, 1), 0, 2) == (7, None, 2, 1)
    assert swapped((2, None, 7, 1), 3, 1) == (2, 1, 7, None)


def test_the_winner_collects_the_points_and_wins_the_game_at_the_target() -> None:
    opts = Options(target=100)
    assert scored((40, 10), 0, {1: 30}, opts) == Totals((70, 10), None)
    assert scored((40, 10), 0, {1: 60}, opts) == Totals((100, 10), 0)


def test_with_own_points_each_seat_adds_its_own_and_the_lowest_total_wins_at_the_target() -> None:
    opts = Options(scoring=Scoring.OWN_POINTS, target=50)
    assert scored((0, 20, 30), 0, {1: 10, 2: 15}, opts) == Totals((0, 30, 45), None)
    assert scored((5, 20, 30), 0, {1: 40, 2: 15}, opts) == Totals((5, 60, 45), 0)
