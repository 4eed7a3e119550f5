"""What the referee cannot see: hands it cannot count become null, and no penalty rests on an unknown hand."""

from records import (
    ANN,
    BO,
    CY,
    catch,
    challenge,
    color,
    deal,
    draw,
    end,
    flip,
    game,
    notice,
    opening,
    pass_,
    penalty,
    play,
    replay,
    reveal,
    round_end,
    state_of,
    uno,
)


def test_a_pass_without_a_seen_draw_makes_the_hand_unknown() -> None:
    verdicts, state = replay(*opening(), pass_(seat=ANN))
    assert verdicts == [notice("unseen-draw", 3, ANN)]
    assert state["hands"] == [None, 7, 7]
    assert state["turn"] == BO


def test_the_next_player_acting_without_a_seen_draw_makes_the_hand_unknown_and_says_whose() -> None:
    verdicts, state = replay(*opening(), play("red-3", seat=BO))
    assert state["hands"] == [None, 6, 7]
    assert verdicts == [notice("unseen-draw", 3, ANN)]
    verdicts, state = replay(*opening(), draw(seat=BO))
    assert state["hands"] == [None, 8, 7]
    assert verdicts == [notice("unseen-draw", 3, ANN)]


def test_an_inserted_draw_puts_a_missed_draw_right() -> None:
    """The camera missed Ann's draw; the host inserts it before Bo's card: her hand is known again, no notice."""
    verdicts, state = replay(*opening(), play("red-3", seat=BO), {"type": "insert", "ref": 3, "event": draw(seat=ANN)})
    assert verdicts == []
    assert state["hands"] == [8, 6, 7]
    assert state["turn"] == CY


def test_no_notice_where_the_table_never_reports_draws() -> None:
    verdicts, state = replay(*opening(draws_seen=False), play("red-3", seat=BO))
    assert verdicts == []
    assert state["hands"] == [None, None, None]


def test_a_pass_after_a_seen_draw_keeps_the_hand_known() -> None:
    assert state_of(*opening(), draw(seat=ANN), pass_(seat=ANN))["hands"] == [8, 7, 7]


def test_an_unknown_hand_stays_unknown_through_plays_and_draws() -> None:
    state = state_of(
        *opening(), pass_(seat=ANN), play("red-3", seat=BO), play("red-4", seat=CY), draw(seat=ANN),
        play("red-6"),
    )
    assert state["hands"] == [None, 6, 6]


def test_an_unknown_hand_still_shows_what_it_owes() -> None:
    state = state_of(*opening(), pass_(seat=ANN), play("red-3", seat=BO), play("red-draw-two", seat=CY))
    assert state["hands"] == [None, 6, 6]
    assert state["owed"] == [2, 0, 0]


def test_a_reveal_makes_an_unknown_hand_known_again() -> None:
    state = state_of(
        *opening(), pass_(seat=ANN), play("red-3", seat=BO), play("red-4", seat=CY),
        play("wild-draw-four", seat=ANN), color("blue"), challenge(BO), reveal(ANN, "blue-1", "green-2", "wild"),
    )
    assert state["hands"] == [3, 12, 6]


def test_without_seen_draws_every_hand_is_unknown_once_anyone_plays() -> None:
    # Any play may follow a whole round of draws and passes nobody saw.
    table = [game("Ann", "Bo", "Cy", draws_seen=False), deal(CY), flip("red-5")]
    assert state_of(*table)["hands"] == [7, 7, 7]
    assert state_of(*table, play("red-9", seat=ANN))["hands"] == [None, None, None]
    assert state_of(*table, play("red-9", seat=ANN), reveal(BO, "red-1", "blue-2"))["hands"] == [None, 2, None]


def test_without_seen_draws_a_reported_draw_keeps_the_hand_unknown() -> None:
    table = [game("Ann", "Bo", "Cy", draws_seen=False), deal(CY), flip("red-5")]
    assert state_of(*table, draw(seat=ANN), pass_(seat=ANN))["hands"] == [None, None, None]


def test_no_missed_uno_on_an_unknown_hand() -> None:
    verdicts, state = replay(
        *opening(hand_size=2),
        pass_(seat=ANN),  # 3: Ann may have drawn: her hand is unknown
        draw(seat=BO),
        pass_(seat=BO),
        draw(seat=CY),
        pass_(seat=CY),
        play("red-9", seat=ANN),  # 8: Ann may hold one card now, or more
        play("red-3", seat=BO),  # 9
        catch(CY, ANN),  # 10
    )
    assert verdicts == [notice("unseen-draw", 3, ANN), notice("nothing-to-catch", 10)]
    assert state["hands"] == [None, 2, 3]


def test_no_false_uno_on_an_unknown_hand() -> None:
    verdicts, _ = replay(*opening(false_uno_penalty=2), pass_(seat=ANN), uno(ANN))
    assert verdicts == [notice("unseen-draw", 3, ANN)]


def test_a_misplay_is_still_called_on_an_unknown_hand() -> None:
    verdicts, state = replay(
        *opening(misplay_penalty=2), pass_(seat=ANN), play("red-3", seat=BO), play("red-4", seat=CY),
        play("blue-1", seat=ANN),
    )
    assert verdicts == [notice("unseen-draw", 3, ANN), penalty(ANN, 2, "illegal-play", 6)]
    assert state["hands"] == [None, 6, 6]
    assert state["owed"] == [2, 0, 0]


def test_an_unknown_hand_going_out_is_declared_by_the_host() -> None:
    unknown = [*opening(hand_size=2), pass_(seat=ANN), draw(seat=BO), pass_(seat=BO), draw(seat=CY),
               pass_(seat=CY), play("red-9", seat=ANN), play("red-1", seat=BO)]
    verdicts, state = replay(*unknown)
    assert verdicts == [notice("unseen-draw", 3, ANN)]
    assert state["hands"] == [None, 2, 3]
    assert state["turn"] == CY
    verdicts, state = replay(*unknown[:-1], end(ANN))
    assert verdicts == [notice("unseen-draw", 3, ANN), round_end(1, ANN, 9)]
    assert state["hands"] == [0, 3, 3]


def test_a_hand_unknown_in_one_round_is_known_again_after_the_next_deal() -> None:
    state = state_of(*opening(), pass_(seat=ANN), end(BO), deal(ANN), flip("blue-2"))
    assert state["hands"] == [7, 7, 7]
    state = state_of(*opening(), pass_(seat=ANN), deal(CY), flip("blue-2"))
    assert state["hands"] == [7, 7, 7]
