"""The 112-card deck's three special wilds: Wild Shuffle Hands, Wild Swap Hands and Wild Customizable.

Ann, Bo and Cy; Cy deals, Ann plays first on a red 5 (records.opening). Each test is a table's moment as the
players live it: who holds how many cards after the card lands, who owes an UNO call, what a hand scores.
"""

import pytest
from records import (
    ANN,
    BO,
    CY,
    catch,
    color,
    draw,
    opening,
    pass_,
    penalty,
    play,
    replay,
    reveal,
    round_end,
    score,
    state_of,
    swap,
    uno,
)

from tabletop.game.cards import ALL_CARDS, CLASSIC_CARDS, Card, full_deck, hand_points

# --- the deck -------------------------------------------------------------------------------------------


def test_the_112_card_deck_adds_the_three_special_wilds_to_the_108() -> None:
    classic, today = full_deck(108), full_deck(112)
    assert len(classic) == 108 and len(today) == 112
    added = list(today)
    for card in classic:
        added.remove(card)
    assert sorted(card.name for card in added) == [
        "wild-customizable", "wild-customizable", "wild-shuffle-hands", "wild-swap-hands"]
    assert len(ALL_CARDS) == 57 and len(CLASSIC_CARDS) == 54
    with pytest.raises(ValueError, match="108 or 112"):
        full_deck(110)


def test_each_special_wild_scores_special_wild_points() -> None:
    hand = [Card.from_name(name) for name in ("wild-shuffle-hands", "wild-swap-hands", "wild-customizable")]
    assert hand_points(hand) == 120
    assert hand_points(hand, special_wild_points=0) == 0
    assert hand_points([*hand, Card.from_name("wild")], special_wild_points=25) == 125


# --- Wild Shuffle Hands ---------------------------------------------------------------------------------


def test_shuffle_hands_deals_the_total_out_again_starting_at_the_players_left() -> None:
    # Ann 7 -> 6 after the play, Bo 7, Cy 7: 20 cards dealt from Bo: Bo 7, Cy 7, Ann 6
    state = state_of(*opening(), play("wild-shuffle-hands", seat=ANN))
    assert state["hands"] == [6, 7, 7]
    # Bo draws three first: Ann 6 + Bo 9 + Cy 7 = 22 after Bo's shuffle, dealt from Cy: Cy 8, Ann 7, Bo 7
    state = state_of(*opening(), play("red-3", seat=ANN), draw(seat=BO, count=3), play("wild-shuffle-hands", seat=BO))
    assert state["hands"] == [7, 7, 8]


def test_shuffle_hands_deals_clockwise_even_when_play_runs_counter_clockwise() -> None:
    # after a reverse from Ann play goes to Cy; Cy's shuffle deals to Ann first: 6 + 7 + 6 = 19 -> Ann 7, Bo 6, Cy 6
    state = state_of(*opening(), play("red-reverse", seat=ANN), play("wild-shuffle-hands", seat=CY))
    assert state["direction"] == "counter-clockwise"
    assert state["hands"] == [7, 6, 6]
    assert state["turn"] == BO


def test_shuffle_hands_keeps_play_going_from_the_next_player_and_waits_for_a_colour() -> None:
    state = state_of(*opening(), play("wild-shuffle-hands", seat=ANN))
    assert (state["turn"], state["top"], state["color"]) == (BO, "wild-shuffle-hands", None)
    state = state_of(*opening(), play("wild-shuffle-hands", seat=ANN), color("green", seat=ANN))
    assert state["color"] == "green"


def test_shuffle_hands_as_the_last_card_does_not_end_the_round() -> None:
    # two cards each: Ann plays one, then the shuffle as her last: 0 + 3 + 1 = 4 -> Bo 2, Cy 1, Ann 1
    verdicts, state = replay(*opening(hand_size=2), uno(ANN), play("red-9", seat=ANN), draw(seat=BO),
                             pass_(seat=BO), play("red-3", seat=CY), uno(CY), play("wild-shuffle-hands", seat=ANN))
    assert not [v for v in verdicts if v["type"] == "round-end"]
    assert state["hands"] == [1, 2, 1]
    assert state["turn"] == BO


def test_shuffle_hands_leaving_its_player_no_card_ends_the_round() -> None:
    # one card each: Ann's shuffle is her last; Bo 1 + Cy 1 = 2 cards dealt to Bo and Cy, none to Ann
    verdicts, state = replay(*opening(hand_size=2), uno(ANN), play("red-9", seat=ANN), play("red-4", seat=BO),
                             uno(BO), play("red-3", seat=CY), uno(CY), play("wild-shuffle-hands", seat=ANN))
    assert round_end(1, ANN, 9) in verdicts
    assert state["hands"] == [0, 1, 1]


def test_a_hand_dealt_one_card_by_a_shuffle_owes_a_call() -> None:
    # Ann and Bo hold one card each, both called; Cy draws and shuffles: 1 + 1 + 2 = 4, dealt from Ann:
    # Ann 2, Bo 1, Cy 1, and Bo and Cy must call UNO anew
    events = [*opening(hand_size=2), uno(ANN), play("red-9", seat=ANN), play("red-4", seat=BO), uno(BO),
              draw(seat=CY), play("wild-shuffle-hands", seat=CY), color("blue", seat=CY)]
    assert state_of(*events)["hands"] == [2, 1, 1]
    verdicts, state = replay(*events, play("blue-2", seat=ANN))
    assert [v for v in verdicts if v["type"] == "penalty"] == [penalty(BO, 2, "missed-uno", 10),
                                                                penalty(CY, 2, "missed-uno", 10)]
    assert state["hands"] == [1, 3, 3]
    verdicts, _ = replay(*events, uno(BO), catch(ANN, CY))
    assert verdicts == [penalty(CY, 2, "missed-uno", 11)]



def test_after_a_shuffle_with_a_hand_unknown_every_hand_is_unknown_until_shown() -> None:
    events = [*opening(), play("red-3", seat=ANN), play("red-4", seat=CY)]  # Bo passed without a draw seen
    assert state_of(*events)["hands"] == [6, None, 6]
    state = state_of(*events, play("wild-shuffle-hands", seat=ANN))
    assert state["hands"] == [None, None, None]
    state = state_of(*events, play("wild-shuffle-hands", seat=ANN), reveal(BO, "red-1", "blue-2"))
    assert state["hands"] == [None, 2, None]


def test_a_shuffle_ends_any_later_proof_of_an_illegal_wild_draw_four() -> None:
    # Ann lays a wild draw four holding red; after the shuffle her red card proves nothing
    events = [*opening(), play("wild-draw-four", seat=ANN), color("blue", seat=ANN), draw(seat=BO, count=4),
              play("wild-shuffle-hands", seat=CY), color("red", seat=CY)]
    verdicts, _ = replay(*events, play("red-2", seat=ANN))
    assert not [v for v in verdicts if v["type"] == "penalty"]
    verdicts, _ = replay(*opening(), play("wild-draw-four", seat=ANN), color("blue", seat=ANN),
                         draw(seat=BO, count=4), play("blue-1", seat=CY), play("red-1", seat=ANN))
    assert penalty(ANN, 4, "illegal-wild-draw-four", 7) in verdicts


# --- Wild Swap Hands -------------------------------------------------------------------------------------


def test_swap_hands_swaps_with_the_chosen_seat_without_seven_zero() -> None:
    events = [*opening(), play("red-3", seat=ANN), draw(seat=BO), pass_(seat=BO), play("wild-swap-hands", seat=CY)]
    verdicts, state = replay(*events, swap(CY, BO), color("blue", seat=CY))
    assert not verdicts
    assert state["hands"] == [6, 6, 8]
    assert (state["turn"], state["color"]) == (ANN, "blue")


def test_a_swap_with_nothing_due_changes_nothing() -> None:
    verdicts, state = replay(*opening(), play("wild", seat=ANN), swap(ANN, CY))
    assert verdicts == [{"type": "notice", "reason": "no-swap-due", "ref": 4}]
    assert state["hands"] == [6, 7, 7]


def test_a_hand_left_with_one_card_by_a_swap_hands_must_call_uno() -> None:
    # Ann, down to one card, calls, then swaps with Cy: Cy now holds her one card and owes a call
    events = [*opening(hand_size=2), play("wild-swap-hands", seat=ANN), uno(ANN), swap(ANN, CY)]
    assert state_of(*events)["hands"] == [2, 2, 1]
    verdicts, state = replay(*events, play("red-1", seat=BO))
    assert verdicts == [penalty(CY, 2, "missed-uno", 6)]
    assert state["hands"] == [2, 1, 3]
    verdicts, _ = replay(*events, catch(BO, CY))
    assert verdicts == [penalty(CY, 2, "missed-uno", 6)]
    verdicts, _ = replay(*events, uno(CY), play("red-1", seat=BO))
    assert not [v for v in verdicts if v["type"] == "penalty"]


def test_an_unreported_swap_hands_leaves_known_only_what_no_swap_could_change() -> None:
    state = state_of(*opening(), play("wild-swap-hands", seat=ANN), play("red-2", seat=BO))
    assert state["hands"] == [7, None, None]


# --- Wild Customizable -------------------------------------------------------------------------------------


def test_a_customizable_wild_is_a_plain_wild_by_default() -> None:
    verdicts, state = replay(*opening(), play("wild-customizable", seat=ANN), color("green", seat=ANN))
    assert not verdicts
    assert (state["hands"], state["turn"], state["color"]) == ([6, 7, 7], BO, "green")


def test_a_customizable_wild_written_as_a_wild_draw_two_hits_the_next_player() -> None:
    state = state_of(*opening(wild_customizable="wild-draw-two"), play("wild-customizable", seat=ANN))
    assert (state["hands"], state["owed"], state["turn"]) == ([6, 9, 7], [0, 2, 0], CY)


def test_a_customizable_wild_draw_two_stacks_where_wild_draw_cards_stack() -> None:
    events = [*opening(wild_customizable="wild-draw-two", stacking="draw-two-and-four"), play("red-draw-two", seat=ANN),
              play("wild-customizable", seat=BO)]
    verdicts, state = replay(*events)
    assert not verdicts
    assert (state["owed"], state["turn"]) == ([0, 0, 4], CY)
    verdicts, _ = replay(*opening(wild_customizable="wild-draw-two", stacking="draw-two"),
                         play("red-draw-two", seat=ANN), play("wild-customizable", seat=BO))
    assert verdicts == [penalty(BO, 0, "illegal-play", 4)]


def test_a_customizable_wild_written_as_everyone_draws_one() -> None:
    events = [*opening(wild_customizable="everyone-draws-one"), play("wild-customizable", seat=ANN)]
    state = state_of(*events)
    assert (state["hands"], state["owed"], state["turn"]) == ([6, 8, 8], [0, 1, 1], BO)
    state = state_of(*events, draw(seat=BO), draw(seat=CY))
    assert (state["hands"], state["owed"], state["turn"]) == ([6, 8, 8], [0, 0, 0], BO)


def test_a_customizable_wild_written_as_swap_hands_swaps() -> None:
    events = [*opening(wild_customizable="swap-hands"), play("red-3", seat=ANN), draw(seat=BO), pass_(seat=BO),
              play("wild-customizable", seat=CY)]
    verdicts, state = replay(*events, swap(CY, BO))
    assert not verdicts
    assert state["hands"] == [6, 6, 8]
    verdicts, _ = replay(*opening(), play("wild-customizable", seat=ANN), swap(ANN, CY))
    assert verdicts == [{"type": "notice", "reason": "no-swap-due", "ref": 4}]


def test_going_out_on_everyone_draws_one_still_deals_the_others_a_card_that_counts() -> None:
    events = [*opening(hand_size=2, wild_customizable="everyone-draws-one"), uno(ANN), play("red-9", seat=ANN),
              draw(seat=BO), pass_(seat=BO), draw(seat=CY), pass_(seat=CY), play("wild-customizable", seat=ANN)]
    verdicts, state = replay(*events)
    assert round_end(1, ANN, 9) in verdicts
    assert state["hands"] == [0, 4, 4]


# --- scoring --------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("points", "expected"), [(None, 3 * 40 + 3 + 50), (0, 3 + 50), (100, 3 * 100 + 3 + 50)])
def test_special_wilds_left_in_a_hand_score_special_wild_points(points: int | None, expected: int) -> None:
    options = {} if points is None else {"special_wild_points": points}
    events = [*opening(hand_size=2, **options), uno(ANN), play("red-9", seat=ANN), draw(seat=BO), pass_(seat=BO),
              draw(seat=CY), pass_(seat=CY), play("red-1", seat=ANN),
              reveal(BO, "wild-shuffle-hands", "blue-3", "wild-swap-hands"), reveal(CY, "wild-customizable", "wild")]
    verdicts, state = replay(*events)
    assert score(1, ANN, expected, [expected, 0, 0], 11) in verdicts
    assert state["totals"] == [expected, 0, 0]


def test_the_new_options_are_checked_like_every_other() -> None:
    with pytest.raises(Exception, match="wild_customizable"):
        replay(*opening(wild_customizable="draw-four"))
    with pytest.raises(Exception, match="special_wild_points"):
        replay(*opening(special_wild_points=101))
