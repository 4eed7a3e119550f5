"""Ending a round, scoring it (winner-collects and own-points), the target, ties, and the game's end."""

from records import (
    ANN,
    BO,
    CY,
    ann_goes_out,
    deal,
    draw,
    end,
    flip,
    game_end,
    notice,
    opening,
    play,
    points,
    replay,
    reveal,
    round_end,
    score,
    state_of,
)

#: Bo's and Cy's hands at the end of the round below: 20 + 50 + 3 = 73 and 2 + 20 + 50 = 72.
BO_HAND = ("blue-skip", "wild", "green-3")
CY_HAND = ("red-2", "yellow-draw-two", "wild-draw-four")


def scored(**options: object) -> list[dict[str, object]]:
    """Lines 0-11: the round above, with Bo's and Cy's hands revealed (145 points)."""
    return [*ann_goes_out(**options), reveal(BO, *BO_HAND), reveal(CY, *CY_HAND)]


# --- the end of a round ---------------------------------------------------------------------------------


def test_the_round_ends_when_a_player_plays_their_last_card() -> None:
    verdicts, state = replay(*ann_goes_out())
    assert verdicts == [round_end(1, ANN, 9)]
    assert state["hands"] == [0, 3, 3]
    assert state["turn"] is None
    assert state["over"] is False
    assert state["round"] == 1


def test_no_card_can_be_played_after_the_round_ended() -> None:
    verdicts, state = replay(*ann_goes_out(), play("red-3", seat=BO))
    assert verdicts[1:] == [notice("no-round-in-play", 10)]
    assert state["hands"] == [0, 3, 3]


def test_the_host_may_declare_that_a_player_went_out() -> None:
    verdicts, state = replay(*opening(), play("red-9", seat=ANN), end(BO))
    assert verdicts == [round_end(1, BO, 4)]
    assert state["hands"][BO] == 0
    assert state["turn"] is None


def test_an_end_with_no_round_in_play_is_a_notice() -> None:
    verdicts, _ = replay(*ann_goes_out(), end(BO))
    assert verdicts[1:] == [notice("no-round-in-play", 10)]


def test_a_last_draw_two_still_makes_the_next_player_draw_2_and_they_count() -> None:
    verdicts, state = replay(*ann_goes_out("red-draw-two"))
    assert verdicts == [round_end(1, ANN, 9)]
    assert state["hands"] == [0, 5, 3]
    assert state["owed"] == [0, 2, 0]
    verdicts, _ = replay(
        *ann_goes_out("red-draw-two"), reveal(BO, *BO_HAND, "red-4", "blue-6"), reveal(CY, *CY_HAND),
    )
    assert verdicts[1:] == [score(1, ANN, 73 + 10 + 72, [155, 0, 0], 11)]


def test_a_last_wild_draw_four_still_makes_the_next_player_draw_4() -> None:
    state = state_of(*ann_goes_out("wild-draw-four"))
    assert state["hands"] == [0, 7, 3]
    assert state["owed"] == [0, 4, 0]


def test_a_reveal_is_the_whole_hand_with_what_was_owed_already_taken() -> None:
    state = state_of(*ann_goes_out("red-draw-two"), reveal(BO, "red-4", "blue-6", "green-1", "yellow-1"))
    assert state["hands"] == [0, 4, 3]
    assert state["owed"] == [0, 0, 0]


# --- scoring --------------------------------------------------------------------------------------------


def test_the_winner_scores_the_value_of_every_other_hand() -> None:
    verdicts, state = replay(*scored())
    assert verdicts == [round_end(1, ANN, 9), score(1, ANN, 145, [145, 0, 0], 11)]
    assert state["totals"] == [145, 0, 0]
    assert state["over"] is False


def test_card_values_numbers_their_number_actions_20_wilds_50() -> None:
    verdicts, _ = replay(
        *ann_goes_out(),
        reveal(BO, "red-0", "blue-9", "green-skip", "yellow-reverse", "red-draw-two"),
        reveal(CY, "wild", "wild-draw-four"),
    )
    assert verdicts[-1] == score(1, ANN, 9 + 60 + 100, [169, 0, 0], 11)


def test_the_round_is_scored_only_when_every_other_hand_is_known() -> None:
    verdicts, state = replay(*ann_goes_out(), reveal(BO, *BO_HAND))
    assert verdicts == [round_end(1, ANN, 9)]
    assert state["totals"] == [0, 0, 0]


def test_points_may_be_entered_instead_of_a_reveal() -> None:
    verdicts, _ = replay(*ann_goes_out(), points(BO, 40), reveal(CY, *CY_HAND))
    assert verdicts[1:] == [score(1, ANN, 112, [112, 0, 0], 11)]
    verdicts, _ = replay(*ann_goes_out(), points(CY, 5), points(BO, 0))
    assert verdicts[1:] == [score(1, ANN, 5, [5, 0, 0], 11)]


def test_points_before_the_round_is_over_are_a_notice() -> None:
    verdicts, state = replay(*opening(), points(BO, 40))
    assert verdicts == [notice("round-not-over", 3)]
    assert state["totals"] == [0, 0, 0]


def test_the_winners_own_hand_is_nothing_to_score() -> None:
    verdicts, _ = replay(*ann_goes_out(), points(ANN, 10), reveal(ANN))
    assert verdicts[1:] == [notice("nothing-to-score", 10), notice("nothing-to-score", 11)]


def test_a_hand_after_the_round_was_scored_is_nothing_to_score() -> None:
    verdicts, state = replay(*scored(), points(BO, 99), reveal(CY, "wild"))
    assert verdicts[2:] == [notice("nothing-to-score", 12), notice("nothing-to-score", 13)]
    assert state["totals"] == [145, 0, 0]


def test_totals_add_up_over_rounds() -> None:
    verdicts, state = replay(
        *scored(), deal(ANN), flip("blue-2"), play("blue-3", seat=BO), end(BO), points(ANN, 30), points(CY, 8),
    )
    assert verdicts[2:] == [round_end(2, BO, 15), score(2, BO, 38, [145, 38, 0], 17)]
    assert state["totals"] == [145, 38, 0]
    assert state["round"] == 2


# --- rounds ---------------------------------------------------------------------------------------------


def test_rounds_count_from_1() -> None:
    assert state_of(*opening())["round"] == 1


def test_between_a_rounds_end_and_the_next_deal_no_one_is_to_play() -> None:
    assert state_of(*scored())["turn"] is None


def test_a_new_deal_starts_the_next_round_with_full_hands() -> None:
    state = state_of(*scored(), deal(ANN), flip("blue-2"))
    assert state["round"] == 2
    assert state["hands"] == [2, 2, 2]
    assert state["owed"] == [0, 0, 0]
    assert state["turn"] == BO
    assert state["direction"] == "clockwise"
    assert state["totals"] == [145, 0, 0]


def test_a_deal_in_the_middle_of_a_round_is_a_redeal_that_keeps_the_round_number() -> None:
    state = state_of(*opening(), play("red-9", seat=ANN), deal(BO), flip("green-4"))
    assert state["round"] == 1
    assert state["hands"] == [7, 7, 7]
    assert state["turn"] == CY


def test_a_re_flip_replaces_the_first_card_and_what_it_did() -> None:
    verdicts, state = replay(*opening("red-draw-two"), flip("blue-5"))
    assert verdicts == []
    assert state["owed"] == [0, 0, 0]
    assert state["hands"] == [7, 7, 7]
    assert state["turn"] == ANN
    assert (state["top"], state["color"]) == ("blue-5", "blue")
    state = state_of(*opening("red-reverse"), flip("blue-5"))
    assert (state["turn"], state["direction"]) == (ANN, "clockwise")


def test_a_flip_after_someone_drew_is_a_notice() -> None:
    verdicts, state = replay(*opening(), draw(seat=ANN), flip("blue-5"))
    assert verdicts == [notice("round-already-started", 4)]
    assert (state["top"], state["turn"], state["hands"]) == ("red-5", ANN, [8, 7, 7])


def test_a_flip_after_a_flipped_draw_two_was_paid_is_a_notice_and_keeps_the_hands() -> None:
    verdicts, state = replay(*opening("red-draw-two"), draw(seat=ANN, count=2), flip("blue-5"))
    assert verdicts == [notice("round-already-started", 4)]
    assert state["hands"] == [9, 7, 7]
    assert state["owed"] == [0, 0, 0]
    assert state["turn"] == BO


def test_a_flip_after_someone_played_is_a_notice() -> None:
    verdicts, state = replay(*opening(), play("red-9", seat=ANN), flip("blue-5"))
    assert verdicts == [notice("round-already-started", 4)]
    assert state["top"] == "red-9"


def test_a_flip_with_no_round_in_play_is_a_notice() -> None:
    verdicts, _ = replay(*ann_goes_out(), flip("blue-5"))
    assert verdicts[1:] == [notice("no-round-in-play", 10)]


# --- target and the end of the game ---------------------------------------------------------------------


def test_the_game_ends_when_the_winners_total_reaches_the_target() -> None:
    verdicts, state = replay(*scored(target=145))
    assert verdicts[1:] == [score(1, ANN, 145, [145, 0, 0], 11), game_end(ANN, [145, 0, 0], 11)]
    assert state["over"] is True
    assert state["turn"] is None


def test_a_total_below_the_target_does_not_end_the_game() -> None:
    verdicts, state = replay(*scored(target=146))
    assert [v["type"] for v in verdicts] == ["round-end", "score"]
    assert state["over"] is False


def test_the_default_target_is_500() -> None:
    verdicts, _ = replay(*ann_goes_out(), points(BO, 499), points(CY, 0))
    assert [v["type"] for v in verdicts] == ["round-end", "score"]
    verdicts, _ = replay(*ann_goes_out(), points(BO, 450), points(CY, 50))
    assert verdicts[-1] == game_end(ANN, [500, 0, 0], 11)


def test_after_the_game_is_over_every_event_is_a_notice() -> None:
    verdicts, state = replay(*scored(target=100), deal(BO), flip("red-3"), play("red-4", seat=CY))
    assert verdicts[3:] == [notice("game-over", 12), notice("game-over", 13), notice("game-over", 14)]
    assert state["round"] == 1
    assert state["over"] is True


# --- own-points -----------------------------------------------------------------------------------------


def test_own_points_every_player_adds_their_own_hand_and_the_one_who_went_out_adds_0() -> None:
    verdicts, state = replay(*scored(scoring="own-points"))
    assert verdicts[1:] == [score(1, ANN, 145, [0, 73, 72], 11)]
    assert state["totals"] == [0, 73, 72]


def test_own_points_the_game_ends_when_a_total_reaches_the_target_and_the_lowest_wins() -> None:
    verdicts, state = replay(*scored(scoring="own-points", target=73))
    assert verdicts[2:] == [game_end(ANN, [0, 73, 72], 11)]
    assert state["over"] is True


def test_own_points_lowest_total_wins_even_when_it_is_not_the_rounds_winner() -> None:
    verdicts, _ = replay(
        *scored(scoring="own-points"), deal(ANN), flip("blue-2"), play("blue-3", seat=BO), end(BO),
        points(ANN, 500), points(CY, 0),
    )
    assert verdicts[-1] == game_end(CY, [500, 73, 72], 17)


def test_a_tie_for_the_game_goes_to_the_tied_seat_that_comes_first() -> None:
    verdicts, _ = replay(
        *opening(scoring="own-points", target=50), play("red-9", seat=ANN), end(CY), points(ANN, 0), points(BO, 60),
    )
    assert verdicts[1:] == [score(1, CY, 60, [0, 60, 0], 6), game_end(ANN, [0, 60, 0], 6)]
