"""Corrections: ``retract``, ``amend`` and ``insert`` re-derive everything after them, as if the mistake never happened.

Verdicts keep the line numbers of the record as written, so a person can find the line to look at.
"""

import json

import pytest
from records import (
    ANN,
    BO,
    CY,
    amend,
    ann_goes_out,
    challenge,
    color,
    deal,
    draw,
    flip,
    game,
    game_end,
    insert,
    notice,
    opening,
    pass_,
    penalty,
    play,
    points,
    replay,
    retract,
    round_end,
    score,
    state_of,
    uno,
    unsure,
)

from tabletop.errors import RecordCode, RecordError
from tabletop.game.record import read_record


def test_a_retracted_illegal_card_leaves_no_penalty_and_no_trace() -> None:
    verdicts, state = replay(*opening(), play("blue-3", seat=ANN), retract(3))
    assert verdicts == []
    assert state == state_of(*opening())


def test_an_amended_misread_card_is_judged_as_the_real_card() -> None:
    verdicts, state = replay(*opening(), play("blue-3", seat=ANN), amend(3, play("red-3", seat=ANN)))
    assert verdicts == []
    assert (state["top"], state["color"]) == ("red-3", "red")
    assert state["hands"] == [6, 7, 7]


def test_an_amended_card_re_derives_every_turn_after_it() -> None:
    # Ann's card was a skip, so Cy played on her own turn, and Bo never had a turn to pass
    mistaken = [*opening(), play("red-9", seat=ANN), play("red-4", seat=CY)]
    assert state_of(*mistaken)["hands"] == [6, None, 6]
    verdicts, state = replay(*mistaken, amend(3, play("red-skip", seat=ANN)))
    assert verdicts == []
    assert state == state_of(*opening(), play("red-skip", seat=ANN), play("red-4", seat=CY))
    assert state["hands"] == [6, 7, 6]
    assert state["turn"] == ANN


def test_amending_the_game_line_changes_the_rules_for_the_whole_record() -> None:
    verdicts, state = replay(
        *opening(), play("blue-3", seat=ANN), amend(0, game("Ann", "Bo", "Cy", misplay_penalty=2)),
    )
    assert verdicts == [penalty(ANN, 2, "illegal-play", 3)]
    assert state["hands"] == [8, 7, 7]


def test_a_retracted_draw_makes_the_pass_after_it_an_unseen_draw() -> None:
    state = state_of(*opening(), draw(seat=ANN), pass_(seat=ANN), retract(3))
    assert state["hands"] == [None, 7, 7]
    assert state["turn"] == BO


def test_a_retracted_challenge_leaves_the_victim_owing_4() -> None:
    verdicts, state = replay(
        *opening(), play("wild-draw-four", seat=ANN), color("blue"), challenge(BO, guilty=True), retract(5),
    )
    assert verdicts == []
    assert state["owed"] == [0, 4, 0]
    assert state["hands"] == [6, 11, 7]


def test_a_retraction_removes_a_verdict_and_the_window_closes_at_the_next_real_event() -> None:
    verdicts, _ = replay(
        *opening(hand_size=2),
        play("red-9", seat=ANN),  # 3: Ann holds one and does not call
        draw(seat=BO),  # 4: a draw the camera imagined
        play("red-3", seat=BO),  # 5: closes Ann's window
        retract(4),
    )
    assert verdicts == [penalty(ANN, 2, "missed-uno", 5)]


def test_a_verdict_after_a_correction_keeps_its_original_line_number() -> None:
    verdicts, _ = replay(
        *opening(),
        play("green-8", seat=ANN),  # 3: misread
        play("red-3", seat=BO),  # 4
        amend(3, play("red-8", seat=ANN)),  # 5
        play("blue-1", seat=CY),  # 6: illegal on the red 3
    )
    assert verdicts == [penalty(CY, 0, "illegal-play", 6)]


def test_a_seat_amended_on_a_play_changes_who_is_called_for_what() -> None:
    verdicts, state = replay(
        *opening(hand_size=2), play("red-9", seat=ANN), play("red-3", seat=CY), amend(4, play("red-3", seat=BO)),
    )
    assert verdicts == [penalty(ANN, 2, "missed-uno", 4)]
    assert state["hands"] == [3, 1, 2]


def test_a_correction_before_the_game_ended_brings_the_game_back() -> None:
    record = [
        *ann_goes_out(target=100),  # 9: Ann goes out
        points(BO, 73),
        points(CY, 99),  # 11: misentered; the game ends at 172
        deal(BO),  # 12
        flip("green-3"),
    ]
    verdicts, state = replay(*record)
    assert verdicts[2:] == [game_end(ANN, [172, 0, 0], 11), notice("game-over", 12), notice("game-over", 13)]
    verdicts, state = replay(*record, amend(11, points(CY, 0)))
    assert verdicts == [round_end(1, ANN, 9), score(1, ANN, 73, [73, 0, 0], 11)]
    assert (state["round"], state["over"], state["turn"]) == (2, False, CY)


def test_an_unsure_card_changes_nothing_until_it_is_confirmed() -> None:
    unread = [*opening(), unsure(("red-9", 0.6), ("red-6", 0.3), seat=ANN)]
    assert replay(*unread) == replay(*opening())
    state = state_of(*unread, amend(3, play("red-6", seat=ANN)))
    assert (state["top"], state["hands"]) == ("red-6", [6, 7, 7])
    state = state_of(*unread, play("red-9", seat=ANN))
    assert (state["top"], state["hands"]) == ("red-9", [6, 7, 7])


#: A record with a mistake and its corrections at the end, and the record as it really happened: every line
#: the two share has the same number, so even the refs must agree.
SAME_AS_NEVER_MISTAKEN = {
    "a phantom illegal card": (
        [*opening(), play("red-9", seat=ANN), play("red-4", seat=BO), play("blue-1", seat=CY), retract(5)],
        [*opening(), play("red-9", seat=ANN), play("red-4", seat=BO)],
    ),
    "a phantom draw": (
        [*opening(), play("red-9", seat=ANN), draw(seat=BO, count=3), retract(4)],
        [*opening(), play("red-9", seat=ANN)],
    ),
    "a misread draw two": (
        [*opening(), play("red-9", seat=ANN), play("red-draw-two", seat=BO), amend(4, play("red-2", seat=BO))],
        [*opening(), play("red-9", seat=ANN), play("red-2", seat=BO)],
    ),
    "a misread reverse": (
        [*opening(), play("red-reverse", seat=ANN), play("red-2", seat=CY), amend(3, play("red-1", seat=ANN)),
         amend(4, play("red-2", seat=BO))],
        [*opening(), play("red-1", seat=ANN), play("red-2", seat=BO)],
    ),
    "a misread wild draw four": (
        [*opening(), play("wild-draw-four", seat=ANN), color("blue"), amend(3, play("wild", seat=ANN))],
        [*opening(), play("wild", seat=ANN), color("blue")],
    ),
}


@pytest.mark.parametrize("mistake", SAME_AS_NEVER_MISTAKEN)
def test_a_corrected_record_ends_as_the_record_that_never_had_the_mistake(mistake: str) -> None:
    corrected, real = SAME_AS_NEVER_MISTAKEN[mistake]
    assert replay(*corrected) == replay(*real)


def test_an_inserted_uno_call_takes_back_the_missed_uno_it_brought() -> None:
    """Ann called as she laid her second-to-last card, and nobody pressed UNO: Bo's catch found her owing the
    call. With the call put in before the catch, the catch finds nothing."""
    two_cards = [*opening(hand_size=2), play("red-9", seat=ANN), {"type": "catch", "seat": BO, "target": ANN}]
    verdicts, _ = replay(*two_cards)
    assert verdicts == [penalty(ANN, 2, "missed-uno", 4)]
    verdicts, state = replay(*two_cards, insert(4, uno(ANN)))
    assert verdicts == [notice("nothing-to-catch", 4)]
    assert state["hands"] == [1, 2, 2]


def test_a_verdict_an_inserted_event_brings_names_the_insert_line() -> None:
    """A card the camera missed, put in before Bo's: it is Ann's illegal play, found at the insert's line."""
    verdicts, state = replay(*opening(), play("red-3", seat=BO), insert(3, play("blue-3", seat=ANN)))
    assert verdicts == [penalty(ANN, 0, "illegal-play", 4)]
    assert state["turn"] == CY
    assert state["top"] == "red-3"


@pytest.mark.parametrize(("correction", "words"), [
    (insert(0, draw(seat=ANN)), "before the record's first line"),
    (insert(2, game("Ann", "Bo", "Cy")), "'game' event cannot be inserted"),
    (insert(2, retract(2)), "cannot hold another correction"),
    (insert(4, draw(seat=ANN)), "later line"),
    (insert(2, draw(seat=7)), "seat 7"),
])
def test_an_insert_that_cannot_stand_is_malformed(correction: dict[str, object], words: str) -> None:
    with pytest.raises(RecordError, match=words) as caught:
        read_record([json.dumps(line) for line in (*opening(), correction)])
    assert caught.value.line == 4
    assert caught.value.code in (RecordCode.BAD_CORRECTION, RecordCode.MALFORMED, RecordCode.NO_SUCH_SEAT)
