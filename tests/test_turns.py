"""Turn order, the action cards, the first card, direction, draws and passes (docs/rules.md: the official rules)."""

from records import (
    ANN,
    BO,
    CY,
    color,
    deal,
    draw,
    flip,
    game,
    notice,
    opening,
    pass_,
    play,
    replay,
    state_of,
)


def test_the_game_record_example_ends_on_anns_turn_with_hands_5_6_8() -> None:
    verdicts, state = replay(
        game("Ann", "Bo", "Cy", preset="official"),
        deal(2),
        flip("red-5"),
        play("red-9", seat=0),
        play("red-skip", seat=1),
        play("green-skip", seat=0),
        draw(seat=2),
        pass_(seat=2),
    )
    assert verdicts == []
    assert state == {
        "type": "state", "round": 1, "turn": 0, "direction": "clockwise", "top": "green-skip",
        "color": "green", "hands": [5, 6, 8], "owed": [0, 0, 0], "totals": [0, 0, 0], "over": False,
    }


# --- setup and the first card ---------------------------------------------------------------------------


def test_every_hand_gets_seven_cards_and_the_player_after_the_dealer_opens() -> None:
    state = state_of(game("Ann", "Bo", "Cy", "Di"), deal(1), flip("blue-3"))
    assert state["hands"] == [7, 7, 7, 7]
    assert state["turn"] == 2
    assert state["direction"] == "clockwise"
    assert (state["top"], state["color"]) == ("blue-3", "blue")


def test_the_seat_after_the_last_seat_is_seat_0() -> None:
    assert state_of(*opening())["turn"] == ANN
    ten = [f"P{seat}" for seat in range(10)]
    state = state_of(game(*ten), deal(9), flip("red-5"))
    assert state["turn"] == 0
    assert state["hands"] == [7] * 10
    assert state_of(game(*ten), deal(9), flip("red-5"), play("red-reverse", seat=0))["turn"] == 9


def test_a_number_card_played_passes_the_turn_clockwise() -> None:
    verdicts, state = replay(*opening(), play("red-9", seat=ANN))
    assert verdicts == []
    assert state["turn"] == BO
    assert state["hands"] == [6, 7, 7]
    assert (state["top"], state["color"]) == ("red-9", "red")


def test_a_play_without_a_seat_is_the_current_players() -> None:
    state = state_of(*opening(), play("red-9"), play("red-3"))
    assert state["hands"] == [6, 6, 7]
    assert state["turn"] == CY


def test_a_card_matching_only_by_number_is_legal() -> None:
    verdicts, state = replay(*opening(), play("blue-5", seat=ANN))
    assert verdicts == []
    assert state["color"] == "blue"


def test_a_skip_on_a_skip_of_another_colour_is_legal() -> None:
    verdicts, _ = replay(*opening(), play("red-skip", seat=ANN), play("green-skip", seat=CY))
    assert verdicts == []


def test_a_flipped_skip_skips_the_first_player() -> None:
    state = state_of(*opening("red-skip"))
    assert state["turn"] == BO
    assert state["hands"] == [7, 7, 7]


def test_a_flipped_reverse_makes_the_dealer_play_first_counter_clockwise() -> None:
    state = state_of(*opening("red-reverse"))
    assert state["turn"] == CY
    assert state["direction"] == "counter-clockwise"


def test_after_a_flipped_reverse_play_goes_on_counter_clockwise() -> None:
    state = state_of(*opening("red-reverse"), play("red-3", seat=CY))
    assert state["turn"] == BO


def test_a_flipped_draw_two_makes_the_first_player_owe_2_and_skips_them() -> None:
    verdicts, state = replay(*opening("red-draw-two"))
    assert verdicts == []
    assert state["turn"] == BO
    assert state["hands"] == [9, 7, 7]
    assert state["owed"] == [2, 0, 0]


def test_the_first_player_paying_a_flipped_draw_two_does_not_move_the_turn() -> None:
    state = state_of(*opening("red-draw-two"), draw(seat=ANN, count=2))
    assert state["owed"] == [0, 0, 0]
    assert state["hands"] == [9, 7, 7]
    assert state["turn"] == BO


def test_a_flipped_wild_has_no_colour_until_the_first_player_names_one() -> None:
    assert state_of(*opening("wild"))["color"] is None
    state = state_of(*opening("wild"), color("blue", seat=ANN))
    assert state["color"] == "blue"
    assert state["turn"] == ANN


def test_only_the_first_player_names_the_colour_of_a_flipped_wild() -> None:
    verdicts, state = replay(*opening("wild"), color("blue", seat=BO))
    assert verdicts == [notice("not-the-wild-player", 3)]
    assert state["color"] is None


def test_a_flipped_wild_draw_four_goes_back_and_the_next_flip_counts() -> None:
    verdicts, state = replay(*opening("wild-draw-four"), flip("green-2"))
    assert verdicts == []
    assert (state["top"], state["color"]) == ("green-2", "green")
    assert state["turn"] == ANN
    assert state["hands"] == [7, 7, 7]
    assert state["owed"] == [0, 0, 0]


def test_a_flipped_wild_draw_four_makes_no_one_draw() -> None:
    state = state_of(*opening("wild-draw-four"))
    assert state["owed"] == [0, 0, 0]
    assert state["top"] is None


# --- action cards ---------------------------------------------------------------------------------------


def test_a_skip_jumps_the_next_player() -> None:
    state = state_of(*opening(), play("red-skip", seat=ANN))
    assert state["turn"] == CY
    assert state["hands"] == [6, 7, 7]


def test_a_reverse_turns_the_direction() -> None:
    state = state_of(*opening(), play("red-reverse", seat=ANN))
    assert state["direction"] == "counter-clockwise"
    assert state["turn"] == CY


def test_a_second_reverse_turns_the_direction_back() -> None:
    state = state_of(*opening(), play("red-reverse", seat=ANN), play("red-reverse", seat=CY))
    assert state["direction"] == "clockwise"
    assert state["turn"] == ANN


def test_a_skip_counter_clockwise_jumps_the_seat_before() -> None:
    state = state_of(*opening(), play("red-reverse", seat=ANN), play("red-skip", seat=CY))
    assert state["turn"] == ANN


def test_a_draw_two_makes_the_next_player_owe_2_and_lose_their_turn() -> None:
    verdicts, state = replay(*opening(), play("red-draw-two", seat=ANN))
    assert verdicts == []
    assert state["turn"] == CY
    assert state["hands"] == [6, 9, 7]
    assert state["owed"] == [0, 2, 0]


def test_a_draw_that_pays_a_debt_adds_nothing_new() -> None:
    verdicts, state = replay(*opening(), play("red-draw-two", seat=ANN), draw(seat=BO, count=2))
    assert verdicts == []
    assert state["hands"] == [6, 9, 7]
    assert state["owed"] == [0, 0, 0]
    assert state["turn"] == CY


def test_a_draw_beyond_a_debt_adds_only_the_surplus() -> None:
    state = state_of(*opening(), play("red-draw-two", seat=ANN), draw(seat=BO, count=3))
    assert state["hands"] == [6, 10, 7]
    assert state["owed"] == [0, 0, 0]


def test_a_debt_paid_in_parts_shows_what_is_still_owed() -> None:
    state = state_of(*opening(), play("red-draw-two", seat=ANN), draw(seat=BO))
    assert state["hands"] == [6, 9, 7]
    assert state["owed"] == [0, 1, 0]


def test_a_wild_takes_the_colour_its_player_names() -> None:
    verdicts, state = replay(*opening(), play("wild", seat=ANN), color("green"))
    assert verdicts == []
    assert (state["top"], state["color"]) == ("wild", "green")
    assert state["turn"] == BO


def test_a_wild_may_be_played_on_anything() -> None:
    verdicts, _ = replay(*opening("blue-reverse"), play("wild", seat=CY), color("red", seat=CY))
    assert verdicts == []


def test_after_a_wild_the_named_colour_must_be_followed() -> None:
    verdicts, _ = replay(*opening(), play("wild", seat=ANN), color("green"), play("green-1", seat=BO))
    assert verdicts == []


def test_a_wild_draw_four_makes_the_next_player_owe_4_and_lose_their_turn() -> None:
    verdicts, state = replay(*opening(), play("wild-draw-four", seat=ANN), color("blue", seat=ANN))
    assert verdicts == []
    assert state["turn"] == CY
    assert state["hands"] == [6, 11, 7]
    assert state["owed"] == [0, 4, 0]
    assert state["color"] == "blue"


# --- two players ----------------------------------------------------------------------------------------


def two_players(**options: object) -> list[dict[str, object]]:
    return [game("Ann", "Bo", **options), deal(1), flip("red-5")]


def test_with_two_players_a_reverse_turns_the_direction_and_the_same_player_plays_again() -> None:
    state = state_of(*two_players(), play("red-reverse", seat=ANN))
    assert state["turn"] == ANN
    assert state["direction"] == "counter-clockwise"


def test_with_two_players_and_two_player_reverse_reverse_the_other_player_plays() -> None:
    state = state_of(*two_players(two_player_reverse="reverse"), play("red-reverse", seat=ANN))
    assert state["turn"] == BO
    assert state["direction"] == "counter-clockwise"


def test_with_two_players_a_flipped_reverse_makes_the_dealer_play_first() -> None:
    state = state_of(game("Ann", "Bo"), deal(1), flip("red-reverse"))
    assert (state["turn"], state["direction"]) == (BO, "counter-clockwise")


def test_with_two_players_a_skip_gives_the_same_player_another_turn() -> None:
    state = state_of(*two_players(), play("red-skip", seat=ANN))
    assert state["turn"] == ANN


def test_with_two_players_a_draw_two_victim_loses_the_turn() -> None:
    state = state_of(*two_players(), play("red-draw-two", seat=ANN))
    assert state["turn"] == ANN
    assert state["owed"] == [0, 2]


# --- the skip option ------------------------------------------------------------------------------------


def test_skip_play_again_lets_the_player_of_the_skip_play_again() -> None:
    state = state_of(*opening(skip="play-again"), play("red-skip", seat=ANN))
    assert state["turn"] == ANN
    assert state["hands"] == [6, 7, 7]


def test_skip_play_again_next_card_from_the_same_player_is_legal() -> None:
    verdicts, state = replay(*opening(skip="play-again"), play("red-skip", seat=ANN), play("red-4", seat=ANN))
    assert verdicts == []
    assert state["turn"] == BO


# --- drawing and passing --------------------------------------------------------------------------------


def test_a_player_who_draws_keeps_the_turn_until_they_pass() -> None:
    state = state_of(*opening(), draw(seat=ANN))
    assert state["turn"] == ANN
    assert state["hands"] == [8, 7, 7]
    state = state_of(*opening(), draw(seat=ANN), pass_(seat=ANN))
    assert state["turn"] == BO
    assert state["hands"] == [8, 7, 7]


def test_a_drawn_card_may_be_played_at_once() -> None:
    verdicts, state = replay(*opening(), draw(seat=ANN), play("red-7"))
    assert verdicts == []
    assert state["hands"] == [7, 7, 7]
    assert state["turn"] == BO


def test_the_next_player_acting_after_a_draw_counts_as_the_drawers_pass() -> None:
    verdicts, state = replay(*opening(), draw(seat=ANN), play("red-7", seat=BO))
    assert verdicts == []
    assert state["hands"] == [8, 6, 7]
    assert state["turn"] == CY


def test_the_next_player_drawing_after_a_draw_counts_as_the_drawers_pass() -> None:
    verdicts, state = replay(*opening(), draw(seat=ANN), draw(seat=BO))
    assert verdicts == []
    assert state["hands"] == [8, 8, 7]
    assert state["turn"] == BO


def test_a_pass_without_a_seat_is_the_current_players() -> None:
    state = state_of(*opening(), draw(), pass_())
    assert state["turn"] == BO
    assert state["hands"] == [8, 7, 7]


def test_a_pass_by_a_player_whose_turn_it_is_not_is_a_notice() -> None:
    verdicts, state = replay(*opening(), pass_(seat=CY))
    assert verdicts == [notice("not-your-turn", 3)]
    assert state["turn"] == ANN
    assert state["hands"] == [7, 7, 7]


def test_draw_until_playable_the_drawer_keeps_drawing_then_plays_the_card() -> None:
    verdicts, state = replay(
        *opening(draw="until-playable"), draw(seat=ANN), draw(seat=ANN), draw(seat=ANN), play("red-2"),
    )
    assert verdicts == []
    assert state["hands"] == [9, 7, 7]
    assert state["turn"] == BO


def test_draw_until_playable_a_draw_of_several_cards_at_once_counts_them_all() -> None:
    state = state_of(*opening(draw="until-playable"), draw(seat=ANN, count=4), play("red-2"))
    assert state["hands"] == [10, 7, 7]
    assert state["turn"] == BO
