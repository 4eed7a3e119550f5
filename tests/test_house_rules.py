"""House rules: jump-in, seven-zero, misplays and out-of-turn cards, hand size, and the four presets."""

import pytest
from records import (
    ANN,
    BO,
    CY,
    color,
    deal,
    draw,
    end,
    flip,
    game,
    notice,
    opening,
    penalties,
    penalty,
    play,
    points,
    replay,
    round_end,
    score,
    state_of,
    swap,
    uno,
)

# --- misplays and out-of-turn cards ---------------------------------------------------------------------


def test_a_card_that_does_not_match_is_an_illegal_play_warning_by_default() -> None:
    verdicts, state = replay(*opening(), play("blue-3", seat=ANN))
    assert verdicts == [penalty(ANN, 0, "illegal-play", 3)]
    assert state["hands"] == [6, 7, 7]
    assert state["owed"] == [0, 0, 0]


def test_an_illegal_card_still_counts_as_played() -> None:
    state = state_of(*opening(), play("blue-3", seat=ANN))
    assert (state["top"], state["color"]) == ("blue-3", "blue")
    assert state["turn"] == BO


def test_an_illegal_action_card_still_acts() -> None:
    verdicts, state = replay(*opening(), play("blue-skip", seat=ANN))
    assert verdicts == [penalty(ANN, 0, "illegal-play", 3)]
    assert state["turn"] == CY


def test_misplay_penalty_makes_an_illegal_play_cost_cards() -> None:
    verdicts, state = replay(*opening(misplay_penalty=2), play("blue-3", seat=ANN))
    assert verdicts == [penalty(ANN, 2, "illegal-play", 3)]
    assert state["hands"] == [8, 7, 7]
    assert state["owed"] == [2, 0, 0]


def test_a_card_from_a_seat_that_is_neither_current_nor_next_is_out_of_turn() -> None:
    verdicts, state = replay(*opening(), play("red-3", seat=CY))
    assert verdicts == [penalty(CY, 0, "out-of-turn", 3)]
    assert state["hands"] == [7, 7, 6]


def test_after_an_out_of_turn_card_play_continues_from_its_player() -> None:
    state = state_of(*opening(), play("red-3", seat=CY))
    assert state["turn"] == ANN
    assert state["top"] == "red-3"
    state = state_of(*opening(), play("red-9", seat=ANN), play("red-3", seat=ANN))
    assert state["turn"] == BO


def test_an_out_of_turn_card_costs_misplay_penalty_cards() -> None:
    verdicts, state = replay(*opening(misplay_penalty=3), play("red-3", seat=CY))
    assert verdicts == [penalty(CY, 3, "out-of-turn", 3)]
    assert state["hands"] == [7, 7, 9]


def test_an_out_of_turn_action_card_still_acts() -> None:
    state = state_of(*opening(), play("red-draw-two", seat=CY))
    assert state["owed"] == [2, 0, 0]
    assert state["turn"] == BO


def test_the_next_player_acting_first_is_the_current_players_pass_never_out_of_turn() -> None:
    verdicts, state = replay(*opening(misplay_penalty=2), play("red-3", seat=BO))
    assert verdicts == [notice("unseen-draw", 3, ANN)]
    assert state["turn"] == CY
    assert state["hands"][BO] == 6


def test_a_player_playing_twice_in_a_row_is_out_of_turn() -> None:
    verdicts, _ = replay(*opening(), play("red-9", seat=ANN), play("red-3", seat=ANN))
    assert verdicts == [penalty(ANN, 0, "out-of-turn", 4)]


# --- jump-in --------------------------------------------------------------------------------------------

DI = 3


def four_players(preset: str = "official", **options: object) -> list[dict[str, object]]:
    """Lines 0-2: Ann, Bo, Cy and Di; Di deals and Ann opens on a red 5. After Ann's card Bo is to play and
    Cy is next, so only Di is out of turn (a card from the next seat counts as the current player's pass)."""
    return [game("Ann", "Bo", "Cy", "Di", preset=preset, **options), deal(DI), flip("red-5")]


def test_jump_in_the_exact_card_may_be_played_out_of_turn() -> None:
    verdicts, state = replay(*four_players(jump_in=True), play("red-9", seat=ANN), play("red-9", seat=DI))
    assert verdicts == []
    assert state["hands"] == [6, 7, 7, 6]


def test_jump_in_play_continues_from_the_jumper() -> None:
    state = state_of(*four_players(jump_in=True), play("red-9", seat=ANN), play("red-9", seat=DI))
    assert state["turn"] == ANN


def test_jump_in_the_cards_action_applies() -> None:
    state = state_of(*opening(jump_in=True), play("red-skip", seat=ANN), play("red-skip", seat=BO))
    assert state["turn"] == ANN
    state = state_of(*opening(jump_in=True), play("red-draw-two", seat=ANN), play("red-draw-two", seat=BO))
    assert state["owed"] == [0, 2, 2]


def test_jump_in_needs_the_same_colour() -> None:
    verdicts, _ = replay(*four_players(jump_in=True), play("red-9", seat=ANN), play("blue-9", seat=DI))
    assert verdicts == [penalty(DI, 0, "out-of-turn", 4)]


def test_jump_in_needs_the_same_number() -> None:
    verdicts, _ = replay(*four_players(jump_in=True), play("red-9", seat=ANN), play("red-8", seat=DI))
    assert verdicts == [penalty(DI, 0, "out-of-turn", 4)]


def test_jump_in_wilds_never_jump_in() -> None:
    verdicts, _ = replay(*four_players(jump_in=True), play("wild", seat=ANN), color("red"), play("wild", seat=DI))
    assert verdicts == [penalty(DI, 0, "out-of-turn", 5)]
    # after a wild draw four Cy is to play and Di is next: Bo, its victim, is the one out of turn
    verdicts, _ = replay(
        *four_players(jump_in=True), play("wild-draw-four", seat=ANN), color("red"), play("wild-draw-four", seat=BO),
    )
    assert verdicts == [penalty(BO, 0, "out-of-turn", 5)]


def test_jump_in_no_one_jumps_in_on_the_first_flipped_card() -> None:
    verdicts, _ = replay(*opening(jump_in=True), play("red-5", seat=CY))
    assert verdicts == [penalty(CY, 0, "out-of-turn", 3)]


def test_without_jump_in_the_exact_card_is_out_of_turn() -> None:
    verdicts, _ = replay(*four_players(), play("red-9", seat=ANN), play("red-9", seat=DI))
    assert verdicts == [penalty(DI, 0, "out-of-turn", 4)]


def test_a_jump_in_closes_the_uno_window() -> None:
    verdicts, _ = replay(*opening(jump_in=True, hand_size=2), play("red-9", seat=ANN), play("red-9", seat=CY))
    assert penalties(verdicts) == [penalty(ANN, 2, "missed-uno", 4)]


# --- seven-zero -----------------------------------------------------------------------------------------


def after_bo_drew(**options: object) -> list[dict[str, object]]:
    """Lines 0-5: Ann plays (6 cards), Bo draws and plays (7), Cy is to play holding 7."""
    return [*opening(seven_zero=True, **options), play("red-9", seat=ANN), draw(seat=BO), play("red-2", seat=BO)]


def test_seven_zero_a_7_swaps_hands_with_the_chosen_player() -> None:
    verdicts, state = replay(*opening(seven_zero=True), play("red-7", seat=ANN), swap(ANN, CY))
    assert verdicts == []
    assert state["hands"] == [7, 7, 6]
    assert state["turn"] == BO


def test_seven_zero_a_0_passes_every_hand_on_in_the_direction_of_play() -> None:
    state = state_of(*after_bo_drew(), draw(seat=CY), play("red-0", seat=CY))
    # before the 0: Ann 6, Bo 7, Cy 7 (8 less the 0); each hand moves one seat clockwise
    assert state["hands"] == [7, 6, 7]
    state = state_of(*after_bo_drew(), draw(seat=CY, count=2), play("red-0", seat=CY))
    assert state["hands"] == [8, 6, 7]


def test_seven_zero_a_0_counter_clockwise_passes_hands_the_other_way() -> None:
    state = state_of(
        *opening(seven_zero=True), draw(seat=ANN, count=2), play("red-reverse", seat=ANN), play("red-0", seat=CY),
    )
    # before the 0: Ann 8, Bo 7, Cy 6; counter-clockwise Cy's hand goes to Bo, Bo's to Ann, Ann's to Cy
    assert state["hands"] == [7, 6, 8]


def test_seven_zero_a_swap_keeps_what_each_seat_owes() -> None:
    state = state_of(*opening(seven_zero=True), play("red-draw-two", seat=ANN), play("red-7", seat=CY), swap(CY, BO))
    # before the swap: Bo holds 7 and owes 2, Cy holds 6; Bo still owes the 2 after it
    assert state["hands"] == [6, 8, 7]
    assert state["owed"] == [0, 2, 0]


def test_seven_zero_a_swap_opens_no_uno_call() -> None:
    verdicts, state = replay(
        *opening(seven_zero=True, hand_size=3),
        play("red-9", seat=ANN),
        play("red-3", seat=BO),
        play("red-4", seat=CY),
        uno(ANN),
        play("red-7", seat=ANN),  # 7: Ann holds one, called
        swap(ANN, CY),  # 8: now Cy holds one
        play("red-6", seat=BO),  # 9
    )
    assert verdicts == []
    assert state["hands"] == [2, 1, 1]


def test_seven_zero_a_passed_on_hand_opens_no_uno_call() -> None:
    verdicts, state = replay(
        *opening(seven_zero=True, hand_size=2),
        play("red-0", seat=ANN),  # Ann's second-to-last card; her one card passes on to Bo
        draw(seat=BO),
    )
    assert verdicts == []
    assert state["hands"] == [2, 2, 2]


def test_seven_zero_an_unreported_swap_leaves_known_only_what_no_swap_could_change() -> None:
    state = state_of(*opening(seven_zero=True), play("red-7", seat=ANN), play("red-3", seat=BO))
    # Ann (6) swapped with Bo or Cy (both 7): Ann holds 7 either way; Bo and Cy may hold 6 or 7
    assert state["hands"] == [7, None, None]


def test_seven_zero_an_unreported_swap_keeps_a_hand_the_size_of_the_sevens_player() -> None:
    state = state_of(
        *opening(seven_zero=True),
        draw(seat=ANN),
        play("red-9"),  # Ann 7
        play("red-3", seat=BO),  # Bo 6
        draw(seat=CY, count=2),
        play("red-4"),  # Cy 8
        play("red-7", seat=ANN),  # Ann 6, and the swap is never reported
        play("red-1", seat=BO),
    )
    # Bo holds 6 whether or not Ann swapped with him, and plays one; Ann and Cy hold 6 or 8
    assert state["hands"] == [None, 5, None]


def test_seven_zero_a_swap_without_a_7_is_a_notice() -> None:
    verdicts, state = replay(*opening(seven_zero=True), play("red-8", seat=ANN), swap(ANN, CY))
    assert verdicts == [notice("no-swap-due", 4)]
    assert state["hands"] == [6, 7, 7]


def test_seven_zero_a_swap_by_another_seat_is_a_notice() -> None:
    verdicts, _ = replay(*opening(seven_zero=True), play("red-7", seat=ANN), swap(BO, CY))
    assert verdicts == [notice("no-swap-due", 4)]


def test_without_seven_zero_a_7_swaps_nothing() -> None:
    verdicts, state = replay(*opening(), play("red-7", seat=ANN), swap(ANN, CY))
    assert verdicts == [notice("no-swap-due", 4)]
    assert state["hands"] == [6, 7, 7]
    state = state_of(*opening(), play("red-0", seat=ANN))
    assert state["hands"] == [6, 7, 7]


# --- hand size ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("size", [2, 5, 20])
def test_hand_size_sets_the_cards_dealt(size: int) -> None:
    assert state_of(*opening(hand_size=size))["hands"] == [size] * 3


# --- presets --------------------------------------------------------------------------------------------


def draw_two_on_draw_two(preset: str, **options: object) -> dict[str, object]:
    return state_of(*opening(preset=preset, **options), play("red-draw-two", seat=ANN), play("blue-draw-two"))


def test_preset_official_has_no_stacking_jump_in_or_seven_zero() -> None:
    assert state_of(*opening(preset="official"), play("red-draw-two", seat=ANN))["turn"] == CY
    verdicts, _ = replay(*four_players(preset="official"), play("red-9", seat=ANN), play("red-9", seat=DI))
    assert verdicts == [penalty(DI, 0, "out-of-turn", 4)]
    verdicts, _ = replay(*opening(preset="official"), play("red-7", seat=ANN), swap(ANN, CY))
    assert verdicts == [notice("no-swap-due", 4)]


def test_preset_stacking_adds_up_draw_twos_and_wild_draw_fours() -> None:
    assert draw_two_on_draw_two("stacking")["owed"] == [0, 0, 4]
    verdicts, state = replay(
        *opening(preset="stacking"), play("red-draw-two", seat=ANN), play("wild-draw-four", seat=BO),
    )
    assert verdicts == []
    assert state["owed"] == [0, 0, 6]


def test_preset_stacking_has_no_jump_in() -> None:
    verdicts, _ = replay(*four_players(preset="stacking"), play("red-9", seat=ANN), play("red-9", seat=DI))
    assert verdicts == [penalty(DI, 0, "out-of-turn", 4)]


def test_preset_party_stacks_jumps_in_and_swaps() -> None:
    assert draw_two_on_draw_two("party")["owed"] == [0, 0, 4]
    verdicts, _ = replay(*four_players(preset="party"), play("red-9", seat=ANN), play("red-9", seat=DI))
    assert verdicts == []
    verdicts, state = replay(*opening(preset="party"), play("red-7", seat=ANN), swap(ANN, CY))
    assert verdicts == []
    assert state["hands"] == [7, 7, 6]


def test_preset_eastern_passes_draw_twos_on() -> None:
    assert draw_two_on_draw_two("eastern")["owed"] == [0, 0, 2]


def test_preset_eastern_scores_own_points_to_200() -> None:
    verdicts, state = replay(
        game("Ann", "Bo", "Cy", preset="eastern"), deal(CY), flip("red-5"),
        play("red-9", seat=ANN), end(ANN), points(BO, 150), points(CY, 210),
    )
    assert verdicts == [
        round_end(1, ANN, 4),
        score(1, ANN, 360, [0, 150, 210], 6),
        {"type": "game-end", "winner": ANN, "totals": [0, 150, 210], "ref": 6},
    ]
    assert state["over"] is True


def test_an_option_overrides_its_preset() -> None:
    verdicts, _ = replay(*four_players(preset="party", jump_in=False), play("red-9", seat=ANN), play("red-9", seat=DI))
    assert verdicts == [penalty(DI, 0, "out-of-turn", 4)]
    assert draw_two_on_draw_two("eastern", stacking="draw-two")["owed"] == [0, 0, 4]
