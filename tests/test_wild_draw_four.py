"""The wild draw four: naming the colour, challenges, later proof, and the ``wild_draw_four`` option.

Most records here start with ``four_on_bo``: Ann (seat 0) opens on a red 5 and plays a wild draw four at
line 3, naming a colour at line 4; Bo (seat 1) is its victim, so red was the colour active before it.
"""

from records import (
    ANN,
    BO,
    CY,
    challenge,
    color,
    deal,
    draw,
    end,
    flip,
    notice,
    opening,
    penalty,
    play,
    replay,
    reveal,
    state_of,
    swap,
    uno,
)


def four_on_bo(named: str = "blue", **options: object) -> list[dict[str, object]]:
    """Lines 0-4: Ann plays a wild draw four on a red 5 and names ``named``."""
    return [*opening(**options), play("wild-draw-four", seat=ANN), color(named, seat=ANN)]


# --- naming the colour ----------------------------------------------------------------------------------


def test_the_wild_player_names_the_colour() -> None:
    verdicts, state = replay(*four_on_bo("green"))
    assert verdicts == []
    assert state["color"] == "green"


def test_a_colour_without_a_seat_is_named_by_the_player_of_the_last_wild() -> None:
    state = state_of(*opening(), play("wild-draw-four", seat=ANN), color("yellow"))
    assert state["color"] == "yellow"


def test_the_colour_is_null_until_it_is_named() -> None:
    state = state_of(*opening(), play("wild-draw-four", seat=ANN))
    assert state["color"] is None


def test_a_colour_named_by_another_seat_is_a_notice() -> None:
    verdicts, state = replay(*opening(), play("wild", seat=ANN), color("green", seat=CY))
    assert verdicts == [notice("not-the-wild-player", 4)]
    assert state["color"] is None


def test_a_colour_with_no_wild_on_top_is_a_notice() -> None:
    verdicts, state = replay(*opening(), play("red-9", seat=ANN), color("green", seat=ANN))
    assert verdicts == [notice("no-wild-to-name", 4)]
    assert state["color"] == "red"


def test_an_unnamed_colour_is_inferred_from_the_next_card() -> None:
    verdicts, state = replay(*opening(), play("wild", seat=ANN), play("green-4", seat=BO))
    assert verdicts == []
    assert state["color"] == "green"


# --- challenges -----------------------------------------------------------------------------------------


def test_a_guilty_challenge_makes_the_player_draw_4_and_the_challenger_plays_on() -> None:
    verdicts, state = replay(*four_on_bo(), challenge(BO, guilty=True))
    assert verdicts == [penalty(ANN, 4, "illegal-wild-draw-four", 5)]
    assert state["hands"] == [10, 7, 7]
    assert state["owed"] == [4, 0, 0]
    assert state["turn"] == BO
    assert (state["top"], state["color"]) == ("wild-draw-four", "blue")


def test_after_a_guilty_challenge_the_challenger_plays_the_named_colour() -> None:
    verdicts, state = replay(*four_on_bo(), challenge(BO, guilty=True), play("blue-2", seat=BO))
    assert verdicts == [penalty(ANN, 4, "illegal-wild-draw-four", 5)]
    assert state["turn"] == CY


def test_a_failed_challenge_makes_the_challenger_draw_6_and_lose_the_turn() -> None:
    verdicts, state = replay(*four_on_bo(), challenge(BO, guilty=False))
    assert verdicts == [penalty(BO, 6, "challenge-lost", 5)]
    assert state["hands"] == [6, 13, 7]
    assert state["owed"] == [0, 6, 0]
    assert state["turn"] == CY


def test_challenge_penalty_sets_the_extra_cards_of_a_failed_challenge() -> None:
    verdicts, state = replay(*four_on_bo(challenge_penalty=0), challenge(BO, guilty=False))
    assert verdicts == [penalty(BO, 4, "challenge-lost", 5)]
    assert state["hands"] == [6, 11, 7]
    verdicts, state = replay(*four_on_bo(challenge_penalty=5), challenge(BO, guilty=False))
    assert verdicts == [penalty(BO, 9, "challenge-lost", 5)]
    assert state["owed"] == [0, 9, 0]


def test_a_reveal_with_a_card_of_the_earlier_colour_decides_a_challenge_guilty() -> None:
    verdicts, state = replay(
        *four_on_bo(), challenge(BO), reveal(ANN, "red-3", "blue-1", "green-2", "wild", "yellow-skip", "blue-9"),
    )
    assert verdicts == [penalty(ANN, 4, "illegal-wild-draw-four", 6)]
    assert state["hands"] == [10, 7, 7]
    assert state["turn"] == BO


def test_a_reveal_without_the_earlier_colour_decides_a_challenge_lost() -> None:
    verdicts, state = replay(
        *four_on_bo(), challenge(BO), reveal(ANN, "blue-1", "green-5", "wild", "yellow-skip", "blue-9", "wild"),
    )
    assert verdicts == [penalty(BO, 6, "challenge-lost", 6)]
    assert state["hands"] == [6, 13, 7]
    assert state["turn"] == CY


def test_a_reveal_gives_the_size_of_the_challenged_hand() -> None:
    state = state_of(*four_on_bo(), challenge(BO), reveal(ANN, "blue-1", "green-2"))
    assert state["hands"][ANN] == 2


def test_a_challenge_the_reveal_never_decides_lapses_with_a_notice() -> None:
    verdicts, _ = replay(*four_on_bo(), challenge(BO), play("blue-3", seat=CY))
    assert verdicts == [notice("challenge-undecided", 6)]


def test_a_challenge_whose_earlier_colour_nobody_knew_is_undecidable() -> None:
    verdicts, _ = replay(
        *opening("wild"), play("wild-draw-four", seat=ANN), color("blue", seat=ANN), challenge(BO),
        reveal(ANN, "green-1", "yellow-2"),
    )
    assert verdicts == [notice("challenge-undecidable", 6)]


def test_a_victim_who_draws_the_4_while_the_challenge_waits_for_a_reveal_holds_them_and_owes_nothing() -> None:
    state = state_of(*four_on_bo(), challenge(BO), draw(seat=BO, count=4), reveal(ANN, "red-3", "blue-1"))
    assert state["owed"][BO] == 0
    assert state["hands"][BO] == 11


def test_only_the_victim_may_challenge() -> None:
    verdicts, state = replay(*four_on_bo(), challenge(CY, guilty=True))
    assert verdicts == [notice("only-the-victim-may-challenge", 5)]
    assert state["owed"] == [0, 4, 0]


def test_a_challenge_with_no_wild_draw_four_just_played_is_a_notice() -> None:
    verdicts, _ = replay(*opening(), play("red-9", seat=ANN), challenge(BO, guilty=True))
    assert verdicts == [notice("no-wild-draw-four-to-challenge", 4)]


def test_a_challenge_after_the_victim_drew_comes_too_late() -> None:
    verdicts, state = replay(*four_on_bo(), draw(seat=BO, count=4), challenge(BO, guilty=True))
    assert verdicts == [notice("no-wild-draw-four-to-challenge", 6)]
    assert state["hands"] == [6, 11, 7]


def test_a_challenge_after_the_next_play_comes_too_late() -> None:
    verdicts, _ = replay(*four_on_bo(), play("blue-3", seat=CY), challenge(BO, guilty=True))
    assert verdicts == [notice("no-wild-draw-four-to-challenge", 6)]


def test_with_challenges_off_a_challenge_is_a_notice_and_the_victim_still_owes_4() -> None:
    verdicts, state = replay(*four_on_bo(challenge=False), challenge(BO, guilty=True))
    assert verdicts == [notice("challenges-are-off", 5)]
    assert state["owed"] == [0, 4, 0]
    assert state["turn"] == CY


# --- the wild_draw_four option --------------------------------------------------------------------------


def test_no_active_color_a_card_of_the_same_number_does_not_make_it_illegal() -> None:
    verdicts, _ = replay(*four_on_bo(), challenge(BO), reveal(ANN, "green-5", "blue-1"))
    assert verdicts == [penalty(BO, 6, "challenge-lost", 6)]


def test_no_match_a_card_of_the_same_number_makes_it_illegal() -> None:
    verdicts, _ = replay(*four_on_bo(wild_draw_four="no-match"), challenge(BO), reveal(ANN, "green-5", "blue-1"))
    assert verdicts == [penalty(ANN, 4, "illegal-wild-draw-four", 6)]


def test_no_match_a_card_of_the_active_colour_still_makes_it_illegal() -> None:
    verdicts, _ = replay(*four_on_bo(wild_draw_four="no-match"), challenge(BO), reveal(ANN, "red-8", "blue-1"))
    assert verdicts == [penalty(ANN, 4, "illegal-wild-draw-four", 6)]


def test_no_match_a_card_of_the_same_symbol_makes_it_illegal() -> None:
    verdicts, _ = replay(
        *opening("red-skip", wild_draw_four="no-match"), play("wild-draw-four", seat=BO), color("blue", seat=BO),
        challenge(CY), reveal(BO, "green-skip", "blue-1"),
    )
    assert verdicts == [penalty(BO, 4, "illegal-wild-draw-four", 6)]


def test_anytime_a_card_of_the_active_colour_is_allowed() -> None:
    verdicts, _ = replay(*four_on_bo(wild_draw_four="anytime"), challenge(BO), reveal(ANN, "red-8", "blue-1"))
    assert verdicts == [penalty(BO, 6, "challenge-lost", 6)]


def test_anytime_a_later_red_card_proves_nothing() -> None:
    verdicts, _ = replay(
        *four_on_bo("red", wild_draw_four="anytime"), draw(seat=BO, count=4), play("red-2", seat=CY),
        play("red-7", seat=ANN),
    )
    assert verdicts == []


# --- later proof ----------------------------------------------------------------------------------------


def test_a_later_card_of_the_earlier_colour_proves_the_wild_draw_four_illegal() -> None:
    verdicts, state = replay(
        *four_on_bo(), draw(seat=BO, count=4), play("blue-7", seat=CY), play("red-7", seat=ANN),
    )
    assert verdicts == [penalty(ANN, 4, "illegal-wild-draw-four", 7)]
    assert state["hands"] == [9, 11, 6]
    assert state["owed"] == [4, 0, 0]


def test_a_later_proof_is_called_even_where_challenges_are_off() -> None:
    verdicts, _ = replay(
        *four_on_bo(challenge=False), draw(seat=BO, count=4), play("blue-7", seat=CY), play("red-7", seat=ANN),
    )
    assert verdicts == [penalty(ANN, 4, "illegal-wild-draw-four", 7)]


def test_a_later_card_of_another_colour_proves_nothing() -> None:
    verdicts, _ = replay(*four_on_bo(), draw(seat=BO, count=4), play("blue-7", seat=CY), play("green-7", seat=ANN))
    assert verdicts == []


def test_a_draw_in_between_cancels_the_later_proof() -> None:
    verdicts, _ = replay(
        *four_on_bo(), draw(seat=BO, count=4), play("blue-7", seat=CY), draw(seat=ANN), play("red-7"),
    )
    assert verdicts == []


def test_a_penalty_in_between_cancels_the_later_proof() -> None:
    verdicts, _ = replay(
        *four_on_bo(false_uno_penalty=1), uno(ANN), draw(seat=BO, count=4), play("blue-7", seat=CY),
        play("red-7", seat=ANN),
    )
    assert verdicts == [penalty(ANN, 1, "false-uno", 5)]


def test_a_swap_in_between_cancels_the_later_proof() -> None:
    verdicts, _ = replay(
        *four_on_bo(seven_zero=True), draw(seat=BO, count=4), play("blue-7", seat=CY), swap(CY, ANN),
        play("red-7", seat=ANN),
    )
    assert verdicts == []


def test_the_end_of_the_round_cancels_the_later_proof() -> None:
    verdicts, _ = replay(
        *four_on_bo(), draw(seat=BO, count=4), end(CY), deal(CY), flip("red-5"), play("red-7", seat=ANN),
    )
    assert verdicts == [{"type": "round-end", "round": 1, "winner": CY, "ref": 6}]


def test_no_later_proof_after_a_challenge_found_the_player_innocent() -> None:
    verdicts, _ = replay(
        *four_on_bo(), challenge(BO, guilty=False), draw(seat=BO, count=6), play("blue-7", seat=CY),
        play("red-7", seat=ANN),
    )
    assert verdicts == [penalty(BO, 6, "challenge-lost", 5)]


def test_a_challenge_that_lapsed_undecided_leaves_the_later_proof_standing() -> None:
    verdicts, _ = replay(
        *four_on_bo(),
        challenge(BO),  # 5: left to a reveal that never comes
        draw(seat=BO, count=4),
        play("blue-7", seat=CY),  # 7: the challenge lapses
        play("red-7", seat=ANN),  # 8: Ann held red when she played the wild draw four
    )
    assert verdicts == [notice("challenge-undecided", 7), penalty(ANN, 4, "illegal-wild-draw-four", 8)]


def test_a_later_proof_is_called_once() -> None:
    verdicts, _ = replay(
        *four_on_bo(), draw(seat=BO, count=4), play("blue-7", seat=CY), play("red-7", seat=ANN),
        play("red-1", seat=BO), play("red-2", seat=CY), play("red-3", seat=ANN),
    )
    assert verdicts == [penalty(ANN, 4, "illegal-wild-draw-four", 7)]
