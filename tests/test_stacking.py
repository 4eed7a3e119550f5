"""The ``stacking`` option: answering a draw card with another (off, pass-on, draw-two, draw-two-and-four).

Ann (seat 0) opens on a red 5 and hits Bo (seat 1) with a draw card at line 3; Cy (seat 2) sits after Bo.
"""

import pytest
from records import (
    ANN,
    BO,
    CY,
    challenge,
    color,
    draw,
    opening,
    penalty,
    play,
    replay,
    reveal,
    round_end,
    score,
    state_of,
)

STACKING_ON = ("pass-on", "draw-two", "draw-two-and-four")


# --- off ------------------------------------------------------------------------------------------------


def test_stacking_off_the_victim_of_a_draw_two_loses_the_turn_at_once() -> None:
    state = state_of(*opening(), play("red-draw-two", seat=ANN))
    assert state["turn"] == CY
    assert state["owed"] == [0, 2, 0]


def test_stacking_off_a_draw_two_from_the_victim_is_out_of_turn_and_adds_nothing_up() -> None:
    verdicts, state = replay(*opening(), play("red-draw-two", seat=ANN), play("blue-draw-two", seat=BO))
    assert verdicts == [penalty(BO, 0, "out-of-turn", 4)]
    assert state["owed"] == [0, 2, 2]


# --- every stacking value -------------------------------------------------------------------------------


@pytest.mark.parametrize("stacking", STACKING_ON)
def test_with_stacking_the_victim_keeps_the_turn_to_answer(stacking: str) -> None:
    state = state_of(*opening(stacking=stacking), play("red-draw-two", seat=ANN))
    assert state["turn"] == BO
    assert state["hands"] == [6, 9, 7]
    assert state["owed"] == [0, 2, 0]


@pytest.mark.parametrize("stacking", STACKING_ON)
def test_with_stacking_a_draw_by_the_victim_takes_the_total_and_ends_the_turn(stacking: str) -> None:
    verdicts, state = replay(*opening(stacking=stacking), play("red-draw-two", seat=ANN), draw(seat=BO, count=2))
    assert verdicts == []
    assert state["turn"] == CY
    assert state["hands"] == [6, 9, 7]
    assert state["owed"] == [0, 0, 0]


@pytest.mark.parametrize("stacking", STACKING_ON)
def test_with_stacking_a_card_that_is_no_draw_card_is_illegal_and_the_victim_keeps_the_debt(stacking: str) -> None:
    verdicts, state = replay(*opening(stacking=stacking), play("red-draw-two", seat=ANN), play("red-4", seat=BO))
    assert verdicts == [penalty(BO, 0, "illegal-play", 4)]
    assert state["owed"] == [0, 2, 0]
    assert state["hands"] == [6, 8, 7]
    assert state["top"] == "red-4"


@pytest.mark.parametrize(("stacking", "cy_owes"), [("pass-on", 2), ("draw-two", 4), ("draw-two-and-four", 4)])
def test_a_draw_two_on_a_draw_two(stacking: str, cy_owes: int) -> None:
    verdicts, state = replay(*opening(stacking=stacking), play("red-draw-two", seat=ANN), play("blue-draw-two"))
    assert verdicts == []
    assert state["owed"] == [0, 0, cy_owes]
    assert state["hands"] == [6, 6, 7 + cy_owes]
    assert state["turn"] == CY


def test_draw_two_stacks_add_up_until_someone_draws_the_total() -> None:
    verdicts, state = replay(
        *opening(stacking="draw-two"),
        play("red-draw-two", seat=ANN),
        play("blue-draw-two", seat=BO),
        play("blue-draw-two", seat=CY),
        draw(seat=ANN, count=6),
    )
    assert verdicts == []
    assert state["hands"] == [12, 6, 6]
    assert state["owed"] == [0, 0, 0]
    assert state["turn"] == BO


def test_draw_two_a_wild_draw_four_does_not_answer_a_draw_two() -> None:
    verdicts, state = replay(
        *opening(stacking="draw-two"), play("red-draw-two", seat=ANN), play("wild-draw-four", seat=BO),
        color("green", seat=BO),
    )
    assert verdicts == [penalty(BO, 0, "illegal-play", 4)]
    assert state["owed"][BO] == 2


def test_draw_two_a_wild_draw_four_does_not_answer_a_wild_draw_four() -> None:
    verdicts, state = replay(
        *opening(stacking="draw-two"), play("wild-draw-four", seat=ANN), color("blue", seat=ANN),
        play("wild-draw-four", seat=BO),
    )
    assert verdicts == [penalty(BO, 0, "illegal-play", 5)]
    assert state["owed"][BO] == 4


def test_draw_two_and_four_a_wild_draw_four_answers_a_draw_two() -> None:
    verdicts, state = replay(
        *opening(stacking="draw-two-and-four"), play("red-draw-two", seat=ANN), play("wild-draw-four", seat=BO),
        color("green", seat=BO),
    )
    assert verdicts == []
    assert state["owed"] == [0, 0, 6]
    assert state["hands"] == [6, 6, 13]
    assert state["turn"] == CY


def test_draw_two_and_four_a_wild_draw_four_answers_a_wild_draw_four() -> None:
    verdicts, state = replay(
        *opening(stacking="draw-two-and-four"), play("wild-draw-four", seat=ANN), color("blue", seat=ANN),
        play("wild-draw-four", seat=BO), color("green", seat=BO),
    )
    assert verdicts == []
    assert state["owed"] == [0, 0, 8]
    assert state["turn"] == CY


def test_draw_two_and_four_a_draw_two_of_the_named_colour_answers_a_wild_draw_four() -> None:
    verdicts, state = replay(
        *opening(stacking="draw-two-and-four"), play("wild-draw-four", seat=ANN), color("blue", seat=ANN),
        play("blue-draw-two", seat=BO),
    )
    assert verdicts == []
    assert state["owed"] == [0, 0, 6]
    assert state["turn"] == CY


def test_draw_two_and_four_a_draw_two_of_another_colour_does_not_answer_a_wild_draw_four() -> None:
    verdicts, state = replay(
        *opening(stacking="draw-two-and-four"), play("wild-draw-four", seat=ANN), color("blue", seat=ANN),
        play("green-draw-two", seat=BO),
    )
    assert verdicts == [penalty(BO, 0, "illegal-play", 5)]
    assert state["owed"][BO] == 4


def test_pass_on_a_draw_two_of_the_named_colour_turns_a_wild_draw_four_into_a_draw_two() -> None:
    verdicts, state = replay(
        *opening(stacking="pass-on"), play("wild-draw-four", seat=ANN), color("blue", seat=ANN),
        play("blue-draw-two", seat=BO),
    )
    assert verdicts == []
    assert state["owed"] == [0, 0, 2]
    assert state["hands"] == [6, 6, 9]
    assert state["turn"] == CY


def test_pass_on_a_draw_two_of_another_colour_does_not_answer_a_wild_draw_four() -> None:
    verdicts, state = replay(
        *opening(stacking="pass-on"), play("wild-draw-four", seat=ANN), color("blue", seat=ANN),
        play("red-draw-two", seat=BO),
    )
    assert verdicts == [penalty(BO, 0, "illegal-play", 5)]
    assert state["owed"][BO] == 4


def test_pass_on_a_wild_draw_four_does_not_answer_a_draw_two() -> None:
    verdicts, _ = replay(
        *opening(stacking="pass-on"), play("red-draw-two", seat=ANN), play("wild-draw-four", seat=BO),
    )
    assert verdicts == [penalty(BO, 0, "illegal-play", 4)]


def test_pass_on_the_two_keeps_moving_and_never_adds_up() -> None:
    state = state_of(
        *opening(stacking="pass-on"),
        play("red-draw-two", seat=ANN),
        play("blue-draw-two", seat=BO),
        play("green-draw-two", seat=CY),
    )
    assert state["owed"] == [2, 0, 0]
    assert state["hands"] == [8, 6, 6]
    assert state["turn"] == ANN


def test_an_illegal_answer_with_a_misplay_penalty_adds_to_the_debt() -> None:
    verdicts, state = replay(
        *opening(stacking="draw-two", misplay_penalty=2), play("red-draw-two", seat=ANN), play("red-4", seat=BO),
    )
    assert verdicts == [penalty(BO, 2, "illegal-play", 4)]
    assert state["owed"] == [0, 4, 0]
    assert state["hands"] == [6, 10, 7]


# --- challenges and going out inside a stack -------------------------------------------------------------


def test_a_guilty_challenge_inside_a_stack_takes_only_the_4_off_the_victim() -> None:
    verdicts, state = replay(
        *opening(stacking="draw-two-and-four"),
        play("red-draw-two", seat=ANN),
        play("wild-draw-four", seat=BO),
        color("green", seat=BO),
        challenge(CY, guilty=True),
    )
    assert verdicts == [penalty(BO, 4, "illegal-wild-draw-four", 6)]
    assert state["owed"] == [0, 4, 2]
    assert state["hands"] == [6, 10, 9]
    assert state["turn"] == CY


def test_a_failed_challenge_inside_a_stack_adds_the_penalty_and_ends_the_turn() -> None:
    verdicts, state = replay(
        *opening(stacking="draw-two-and-four"),
        play("red-draw-two", seat=ANN),
        play("wild-draw-four", seat=BO),
        color("green", seat=BO),
        challenge(CY, guilty=False),
    )
    assert verdicts == [penalty(CY, 6, "challenge-lost", 6)]
    assert state["owed"] == [0, 0, 8]
    assert state["hands"] == [6, 6, 15]
    assert state["turn"] == ANN


def test_with_stacking_a_victim_may_challenge_before_answering() -> None:
    verdicts, state = replay(
        *opening(stacking="draw-two-and-four"), play("wild-draw-four", seat=ANN), color("blue", seat=ANN),
        challenge(BO), reveal(ANN, "red-1", "blue-2"),
    )
    assert verdicts == [penalty(ANN, 4, "illegal-wild-draw-four", 6)]
    assert state["owed"] == [4, 0, 0]
    assert state["turn"] == BO


def test_going_out_on_a_stacked_draw_two_the_next_player_still_owes_the_total() -> None:
    going_out = [
        *opening(stacking="draw-two", hand_size=2, auto_catch=False),
        play("red-3", seat=ANN),
        play("red-4", seat=BO),
        play("red-draw-two", seat=CY),
        play("blue-draw-two", seat=ANN),  # 6: Ann's last card answers Cy's draw two
    ]
    verdicts, state = replay(*going_out)
    assert verdicts == [round_end(1, ANN, 6)]
    assert state["owed"] == [0, 4, 0]
    assert state["hands"] == [0, 5, 1]
    verdicts, _ = replay(
        *going_out, reveal(BO, "red-1", "red-2", "blue-3", "green-4", "yellow-5"), reveal(CY, "blue-skip"),
    )
    assert verdicts[1:] == [score(1, ANN, 15 + 20, [35, 0, 0], 8)]
