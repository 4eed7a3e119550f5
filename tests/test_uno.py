"""Calling UNO: when a call is due, its window, the referee's own catch, catches by players, false calls."""

from records import (
    ANN,
    BO,
    CY,
    catch,
    deal,
    draw,
    flip,
    game,
    notice,
    opening,
    pass_,
    penalties,
    penalty,
    play,
    replay,
    uno,
)

#: Everyone holds two cards, so Ann's first card is her second-to-last.
TWO_CARDS = {"hand_size": 2}


def test_a_player_who_calls_after_their_second_to_last_card_is_safe() -> None:
    verdicts, state = replay(*opening(**TWO_CARDS), play("red-9", seat=ANN), uno(ANN), play("red-3", seat=BO))
    assert verdicts == []
    assert state["hands"] == [1, 1, 2]


def test_a_call_at_the_start_of_the_turn_with_two_cards_covers_the_play() -> None:
    verdicts, state = replay(*opening(**TWO_CARDS), uno(ANN), play("red-9", seat=ANN), play("red-3", seat=BO))
    assert verdicts == []
    assert state["hands"] == [1, 1, 2]


def test_the_referee_catches_a_missed_uno_when_the_next_player_plays() -> None:
    verdicts, state = replay(*opening(**TWO_CARDS), play("red-9", seat=ANN), play("red-3", seat=BO))
    assert verdicts == [penalty(ANN, 2, "missed-uno", 4)]
    assert state["hands"] == [3, 1, 2]
    assert state["owed"] == [2, 0, 0]


def test_the_referee_catches_a_missed_uno_when_the_next_player_draws() -> None:
    verdicts, _ = replay(*opening(**TWO_CARDS), play("red-9", seat=ANN), draw(seat=BO))
    assert verdicts == [penalty(ANN, 2, "missed-uno", 4)]


def test_the_missed_uno_penalty_draws_uno_penalty_cards() -> None:
    verdicts, state = replay(
        *opening(hand_size=2, uno_penalty=4), play("red-9", seat=ANN), play("red-3", seat=BO),
    )
    assert verdicts == [penalty(ANN, 4, "missed-uno", 4)]
    assert state["hands"] == [5, 1, 2]


def test_a_call_late_but_inside_the_window_is_good() -> None:
    verdicts, _ = replay(
        *opening(**TWO_CARDS), play("red-9", seat=ANN), uno(CY), uno(ANN), play("red-3", seat=BO),
    )
    assert verdicts == []


def test_a_call_after_the_window_closed_comes_too_late() -> None:
    verdicts, _ = replay(*opening(**TWO_CARDS), play("red-9", seat=ANN), play("red-3", seat=BO), uno(ANN))
    assert penalty(ANN, 2, "missed-uno", 4) in verdicts


def test_without_auto_catch_the_referee_lets_a_missed_uno_go() -> None:
    verdicts, state = replay(
        *opening(hand_size=2, auto_catch=False), play("red-9", seat=ANN), play("red-3", seat=BO),
    )
    assert verdicts == []
    assert state["hands"] == [1, 1, 2]


def test_a_player_catching_inside_the_window_gives_the_penalty_at_the_catch() -> None:
    verdicts, state = replay(*opening(**TWO_CARDS), play("red-9", seat=ANN), catch(CY, ANN))
    assert verdicts == [penalty(ANN, 2, "missed-uno", 4)]
    assert state["hands"] == [3, 2, 2]


def test_a_catch_settles_the_missed_uno_so_the_window_brings_no_second_penalty() -> None:
    verdicts, _ = replay(*opening(**TWO_CARDS), play("red-9", seat=ANN), catch(CY, ANN), play("red-3", seat=BO))
    assert verdicts == [penalty(ANN, 2, "missed-uno", 4)]


def test_a_catch_draws_uno_penalty_cards() -> None:
    verdicts, state = replay(*opening(hand_size=2, uno_penalty=3), play("red-9", seat=ANN), catch(BO, ANN))
    assert verdicts == [penalty(ANN, 3, "missed-uno", 4)]
    assert state["hands"] == [4, 2, 2]


def test_a_catch_works_without_auto_catch() -> None:
    verdicts, _ = replay(*opening(hand_size=2, auto_catch=False), play("red-9", seat=ANN), catch(BO, ANN))
    assert verdicts == [penalty(ANN, 2, "missed-uno", 4)]


def test_a_catch_after_the_call_catches_nothing() -> None:
    verdicts, state = replay(*opening(**TWO_CARDS), play("red-9", seat=ANN), uno(ANN), catch(CY, ANN))
    assert verdicts == [notice("nothing-to-catch", 5)]
    assert state["hands"] == [1, 2, 2]


def test_a_catch_after_the_window_closed_catches_nothing() -> None:
    verdicts, _ = replay(
        *opening(hand_size=2, auto_catch=False), play("red-9", seat=ANN), play("red-3", seat=BO), catch(CY, ANN),
    )
    assert verdicts == [notice("nothing-to-catch", 5)]


def test_a_catch_of_a_player_with_many_cards_catches_nothing() -> None:
    verdicts, state = replay(*opening(), play("red-9", seat=ANN), catch(CY, ANN))
    assert verdicts == [notice("nothing-to-catch", 4)]
    assert state["hands"] == [6, 7, 7]


def test_a_player_cannot_catch_themself() -> None:
    verdicts, _ = replay(*opening(hand_size=2, auto_catch=False), play("red-9", seat=ANN), catch(ANN, ANN))
    assert verdicts == [notice("nothing-to-catch", 4)]


def test_a_draw_that_pays_a_debt_does_not_close_the_window() -> None:
    verdicts, state = replay(
        *opening(**TWO_CARDS),
        play("red-draw-two", seat=ANN),
        draw(seat=BO, count=2),
        uno(ANN),
        play("red-3", seat=CY),
    )
    assert verdicts == []
    assert state["hands"] == [1, 4, 1]


def test_the_missed_uno_carries_the_ref_of_the_event_that_closed_the_window() -> None:
    verdicts, _ = replay(
        *opening(**TWO_CARDS),
        play("red-draw-two", seat=ANN),
        draw(seat=BO, count=2),
        play("red-3", seat=CY),
    )
    assert penalties(verdicts) == [penalty(ANN, 2, "missed-uno", 5)]


def test_every_time_a_hand_goes_back_to_one_card_a_new_call_is_due() -> None:
    verdicts, _ = replay(
        *opening(**TWO_CARDS),
        uno(ANN),
        play("red-9", seat=ANN),  # 4: Ann holds one, called
        draw(seat=BO),
        pass_(seat=BO),
        draw(seat=CY),
        pass_(seat=CY),
        draw(seat=ANN),  # 9: Ann holds two again
        play("red-4"),  # 10: and one again, without a call
        play("red-6", seat=BO),  # 11
    )
    assert verdicts == [penalty(ANN, 2, "missed-uno", 11)]


def test_a_call_on_ones_turn_with_two_cards_lapses_when_the_player_draws_instead() -> None:
    verdicts, _ = replay(
        game("Ann", "Bo", hand_size=2),
        deal(1),
        flip("red-5"),
        uno(ANN),  # 3: a good call, Ann holds two on her turn
        draw(seat=ANN),  # 4: but she draws: the call lapses
        play("red-reverse"),  # 5: two players: Ann plays again
        play("red-7", seat=ANN),  # 6: Ann holds one, with no call standing
        draw(seat=BO),  # 7
    )
    assert verdicts == [penalty(ANN, 2, "missed-uno", 7)]


def test_a_missed_uno_is_caught_only_once() -> None:
    verdicts, _ = replay(
        *opening(hand_size=2, auto_catch=False), play("red-9", seat=ANN), catch(BO, ANN), catch(BO, ANN),
    )
    assert verdicts == [penalty(ANN, 2, "missed-uno", 4), notice("nothing-to-catch", 5)]


# --- false calls ----------------------------------------------------------------------------------------


def test_a_false_call_costs_nothing_by_default() -> None:
    verdicts, state = replay(*opening(), uno(BO))
    assert verdicts == []
    assert state["hands"] == [7, 7, 7]


def test_a_false_call_draws_false_uno_penalty_cards() -> None:
    verdicts, state = replay(*opening(false_uno_penalty=2), uno(BO))
    assert verdicts == [penalty(BO, 2, "false-uno", 3)]
    assert state["hands"] == [7, 9, 7]
    assert state["owed"] == [0, 2, 0]


def test_a_call_with_two_cards_off_ones_turn_is_false() -> None:
    verdicts, _ = replay(*opening(hand_size=2, false_uno_penalty=1), uno(BO))
    assert verdicts == [penalty(BO, 1, "false-uno", 3)]


def test_a_call_with_two_cards_on_ones_turn_is_good() -> None:
    verdicts, _ = replay(*opening(hand_size=2, false_uno_penalty=1), uno(ANN))
    assert verdicts == []


def test_a_call_with_one_card_off_ones_turn_is_good() -> None:
    verdicts, _ = replay(
        *opening(hand_size=2, false_uno_penalty=1), uno(ANN), play("red-9", seat=ANN), uno(ANN),
    )
    assert verdicts == []


def test_a_call_with_one_card_after_the_window_is_never_false() -> None:
    verdicts, _ = replay(
        *opening(hand_size=2, false_uno_penalty=3),
        uno(ANN),
        play("red-9", seat=ANN),
        draw(seat=BO),
        uno(ANN),
    )
    assert verdicts == []


def test_calls_by_other_players_do_not_close_the_window() -> None:
    verdicts, _ = replay(
        game("Ann", "Bo", "Cy", "Di", hand_size=2),
        deal(3),
        flip("red-5"),
        play("red-9", seat=ANN),
        uno(3),
        catch(3, ANN),
    )
    assert verdicts == [penalty(ANN, 2, "missed-uno", 5)]


def test_calls_need_a_round_in_play() -> None:
    verdicts, _ = replay(game("Ann", "Bo"), uno(ANN))
    assert verdicts == [notice("no-round-in-play", 1)]



def test_answering_a_stack_down_to_one_card_makes_a_call_due() -> None:
    verdicts, _ = replay(
        *opening(hand_size=2, stacking="draw-two"),
        uno(ANN),
        play("red-draw-two", seat=ANN),  # 4: Ann holds one, called; Bo owes 2
        play("blue-draw-two", seat=BO),  # 5: Bo passes the stack on and holds one card, without a call
        draw(seat=CY, count=4),  # 6: Cy pays: that closes no window
        play("blue-1", seat=ANN),  # 7: Ann goes out
    )
    assert verdicts == [penalty(BO, 2, "missed-uno", 7), {"type": "round-end", "round": 1, "winner": ANN, "ref": 7}]
