"""Situations taken from other UNO engines' test suites, written as our records with the official outcome.

Like python-chess's perft numbers, these hold the referee to cases chosen by other people. Each test names the
peer repository and file it comes from and the situation it takes; the expected verdicts and state are the ones
docs/rules.md (the ``official`` preset, or the option named where the peer plays a house rule) gives, not the
peer's.
Where the peer's outcome differs from ours, the docstring says so under "Differs".

The peers (public GitHub repositories):

- ``danguilherme/uno`` (npm ``uno-engine``): test/game.ts, test/game.js, test/house-rules/cumulative-draw-two.ts,
  test/card.ts, and src/game.ts and its own RULES.md for what its tests leave out.
- ``datamllab/rlcard`` (RLCard's UNO): tests/games/test_uno_game.py and rlcard/games/uno/round.py, dealer.py,
  judger.py, game.py, whose behaviour those tests drive.
- ``uditkarode/unocab`` (Deno): tests/turn-tests.ts, tests/draw-tests.ts, tests/basic-tests.ts,
  tests/rule-violation-tests.ts.
- ``thinkbeforecoding/FsUno`` and ``thinkbeforecoding/FsUno.Prod`` (F#, event sourced): FsUno.Tests/*.fs.

The peers number their players from the one who plays first; here the last seat deals, so seat 0 plays first
and the peer's player N is our seat N.
"""

from __future__ import annotations

from typing import Any

import pytest
from records import (
    ANN,
    BO,
    CY,
    Event,
    ann_goes_out,
    catch,
    challenge,
    color,
    deal,
    draw,
    flip,
    game,
    game_end,
    notice,
    opening,
    pass_,
    penalties,
    penalty,
    play,
    points,
    replay,
    retract,
    reveal,
    round_end,
    score,
    state_of,
    uno,
)

from tabletop.errors import RecordError

DI = 3
NAMES = ("Ann", "Bo", "Cy", "Di")


def table(players: int, first: str = "red-5", **options: Any) -> list[Event]:
    """Lines 0-2: ``players`` seats (at most 4), the last one deals, so seat 0 opens on ``first``."""
    return [game(*NAMES[:players], **options), deal(players - 1), flip(first)]


def two_players(first: str = "red-5", **options: Any) -> list[Event]:
    """Lines 0-2: Ann and Bo; Bo deals, Ann opens on ``first``."""
    return table(2, first, **options)


# --- matching ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("before", "card", "legal"),
    [
        # danguilherme/uno test/card.ts, "#matches()"
        ([], "blue-5", True),  # "should return true if only values match"
        ([], "red-2", True),  # "should return true if only colors match"
        (["red-1"], "red-1", True),  # "should return true if both values and colors match"
        (["red-1"], "yellow-5", False),  # "should return false if value and color doesn't match"
        # thinkbeforecoding/FsUno.Prod FsUno.Tests/When playing card.fs (on a red 3, here after a red 5 and red 3)
        (["red-3"], "red-9", True),  # "Same color should be accepted"
        (["red-3"], "yellow-3", True),  # "Same value should be accepted"
        (["red-3"], "yellow-8", False),  # "Different value and color should be rejected"
    ],
)
def test_peers_a_card_matches_the_top_by_colour_or_by_value(before: list[str], card: str, legal: bool) -> None:
    """danguilherme/uno test/card.ts "#matches()" and test/game.ts "passes turn to next player";
    thinkbeforecoding/FsUno.Prod FsUno.Tests/When playing card.fs and When playing a second turn.fs.

    A card is legal when it shares the top card's colour or its number; the turn then passes clockwise. Four
    players as in FsUno; ``before`` are cards the earlier seats played to put the wanted card on top.

    Differs: both peers refuse a card that does not match (an exception, the hand untouched); the referee
    calls it (``illegal-play``, a warning by default) and counts it as played (see the test after this one).
    """
    events = [*table(4)]
    for seat, earlier in enumerate(before):
        events.append(play(earlier, seat=seat))
    seat = len(before)
    events.append(play(card, seat=seat))
    verdicts, state = replay(*events)
    assert verdicts == ([] if legal else [penalty(seat, 0, "illegal-play", len(events) - 1)])
    assert state["turn"] == seat + 1
    assert state["hands"][seat] == 6
    assert state["top"] == card


def test_uno_engine_a_card_that_does_not_match_is_called_and_stays_unless_retracted() -> None:
    """danguilherme/uno test/game.ts, "#play() throws if the card on discard pile does not match with played card".

    Ann lays a blue 0 on a red 5. The referee calls it, and the card counts as played (the hand shrinks, Bo is
    next) until the table takes it back with a ``retract``; then nothing happened and it is Ann's turn again.

    Differs: uno-engine throws and leaves the hand untouched, as only the ``retract`` does here.
    """
    verdicts, state = replay(*opening(), play("blue-0", seat=ANN))
    assert verdicts == [penalty(ANN, 0, "illegal-play", 3)]
    assert (state["hands"], state["turn"], state["top"]) == ([6, 7, 7], BO, "blue-0")

    verdicts, state = replay(*opening(), play("blue-0", seat=ANN), retract(3))
    assert verdicts == []
    assert (state["hands"], state["turn"], state["top"]) == ([7, 7, 7], ANN, "red-5")


def test_uno_engine_wild_cards_are_accepted_on_any_colour() -> None:
    """danguilherme/uno test/game.ts, "#play() accepts WILD cards no matter their colors".

    Ann plays a wild on a red 5 and names blue; Bo plays a wild draw four on the blue and names green. No
    verdict (nobody challenged); Cy owes 4 and is skipped, so it is Ann's turn.
    """
    verdicts, state = replay(
        *opening(), play("wild", seat=ANN), color("blue", seat=ANN), play("wild-draw-four", seat=BO),
        color("green", seat=BO),
    )
    assert verdicts == []
    assert state["turn"] == ANN
    assert state["hands"] == [6, 6, 11]
    assert state["owed"] == [0, 0, 4]
    assert (state["top"], state["color"]) == ("wild-draw-four", "green")


# --- turn order and the action cards ----------------------------------------------------------------------


def test_peers_a_skip_with_four_players_jumps_to_the_player_after_next() -> None:
    """thinkbeforecoding/FsUno.Prod FsUno.Tests/When playing a skip card.fs ("It should skip the next player",
    "The next player cannot play", "The second next player can play"); danguilherme/uno test/game.js, "should
    skip next player if thrown SKIP" (four players).

    Four players on a red 3: seat 0 plays a green 3, seat 1 a green skip, so seat 3 plays next. Seat 2, the
    skipped player, playing a green 8 is out of turn; seat 3 playing it is fine and passes the turn to seat 0.

    Differs: FsUno records the skipped player's card as rejected (PlayerPlayedAtWrongTurn, nothing changes);
    the referee calls it (``out-of-turn``, a warning by default) and the card counts as played.
    """
    skipped = [*table(4, "red-3"), play("green-3", seat=0), play("green-skip", seat=1)]
    assert state_of(*skipped)["turn"] == DI

    verdicts, _ = replay(*skipped, play("green-8", seat=CY))
    assert verdicts == [penalty(CY, 0, "out-of-turn", 5)]

    verdicts, state = replay(*skipped, play("green-8", seat=DI))
    assert verdicts == []
    assert state["turn"] == ANN


def test_fsuno_a_skip_counter_clockwise_jumps_the_seat_before() -> None:
    """thinkbeforecoding/FsUno.Prod FsUno.Tests/When playing a skip card.fs, "skip should skip when
    counterclockwise".

    Four players on a red 3: green 3, green 8, then seat 2 plays a green reverse (kickback), so seat 1 is
    next, counter-clockwise; seat 1's green skip jumps seat 0 and seat 3 plays.
    """
    reversed_ = [
        *table(4, "red-3"), play("green-3", seat=0), play("green-8", seat=1), play("green-reverse", seat=2),
    ]
    state = state_of(*reversed_)
    assert (state["turn"], state["direction"]) == (BO, "counter-clockwise")
    verdicts, state = replay(*reversed_, play("green-skip", seat=BO))
    assert verdicts == []
    assert state["turn"] == DI


def test_peers_a_reverse_turns_the_direction_and_a_second_turns_it_back() -> None:
    """thinkbeforecoding/FsUno.Prod FsUno.Tests/When playing a kickback.fs ("it should change game direction",
    "after a game change, it should change game direction again"); danguilherme/uno test/game.js, "should
    change the playing direction if thrown REVERSE" (four players: the turn goes to the player before).

    Four players on a red 8: seat 0 a green 8, seat 1 a green reverse: seat 0 again, counter-clockwise; seat 0
    a blue reverse: clockwise, seat 1.
    """
    once = [*table(4, "red-8"), play("green-8", seat=0), play("green-reverse", seat=1)]
    state = state_of(*once)
    assert (state["turn"], state["direction"]) == (ANN, "counter-clockwise")
    verdicts, state = replay(*once, play("blue-reverse", seat=ANN))
    assert verdicts == []
    assert (state["turn"], state["direction"]) == (BO, "clockwise")


def test_unocab_a_reverse_with_three_players_sends_the_turn_back() -> None:
    """uditkarode/unocab tests/turn-tests.ts, "Drawing Reverse with more than 2 (here 3) players reverses turn
    counter".

    Three players on a red 1: Ann, Bo a red 1 each, Cy a red reverse; then Bo and Ann play, and it is Cy's turn.
    """
    verdicts, state = replay(
        *opening("red-1"), play("red-1", seat=ANN), play("red-1", seat=BO), play("red-reverse", seat=CY),
        play("red-1", seat=BO), play("red-1", seat=ANN),
    )
    assert verdicts == []
    assert (state["turn"], state["direction"]) == (CY, "counter-clockwise")
    assert state["hands"] == [5, 5, 6]


@pytest.mark.parametrize(("card", "legal"), [("red-7", True), ("blue-draw-two", True), ("blue-7", False)])
def test_peers_after_a_draw_two_the_next_player_to_play_follows_its_colour_or_symbol(card: str, legal: bool) -> None:
    """danguilherme/uno test/game.ts, "#play() adds 2 cards to next player after a DRAW TWO"; uditkarode/unocab
    tests/basic-tests.ts, "Expected card after +2 and a draw is of +2 or the previous +2's color".

    Three players: Ann's red draw two gives Bo 2 and skips him; Cy plays next, and after Cy, Ann (uno-engine:
    "nextPlayer is curr"). Cy may follow with a red card or any draw two; a blue 7 is illegal.

    Differs: unocab plays with two players, and its +2 does not skip the victim: the victim's draw ends their
    turn. Here the draw two moves the turn past Bo at once.
    """
    hit = [*opening(), play("red-draw-two", seat=ANN)]
    state = state_of(*hit)
    assert (state["turn"], state["hands"], state["owed"]) == (CY, [6, 9, 7], [0, 2, 0])
    verdicts, state = replay(*hit, play(card, seat=CY))
    assert verdicts == ([] if legal else [penalty(CY, 0, "illegal-play", 4)])
    assert state["turn"] == (BO if card == "blue-draw-two" else ANN)


# --- two players ------------------------------------------------------------------------------------------


def test_peers_with_two_players_a_skip_lets_the_player_play_again() -> None:
    """danguilherme/uno test/game.ts, "with two players: should maintain current player turn when played SKIP";
    uditkarode/unocab tests/turn-tests.ts, "Drawing Skip skips the next person's turn"; datamllab/rlcard
    rlcard/games/uno/round.py (``_preform_non_number_action``, skip with two players).

    Ann plays a red skip: her turn again; her red 1 then passes the turn to Bo.
    """
    skipped = [*two_players(), play("red-skip", seat=ANN)]
    assert state_of(*skipped)["turn"] == ANN
    verdicts, state = replay(*skipped, play("red-1", seat=ANN))
    assert verdicts == []
    assert (state["turn"], state["hands"]) == (BO, [5, 7])


@pytest.mark.parametrize(("options", "turn"), [({}, ANN), ({"two_player_reverse": "reverse"}, BO)])
def test_peers_with_two_players_a_reverse(options: dict[str, str], turn: int) -> None:
    """danguilherme/uno test/game.ts, "with two players: maintains current player turn when played REVERSE"
    (and test/game.js, "should skip next player if thrown REVERSE with 2 players"); datamllab/rlcard
    rlcard/games/uno/round.py (``_preform_non_number_action``, reverse).

    Official: with two players a reverse acts as a skip, so Ann plays again (as uno-engine has it).

    Differs: RLCard's round only turns the direction, so Bo plays next; that is our option
    ``two_player_reverse: reverse``, the second case here.
    """
    state = state_of(*two_players(**options), play("red-reverse", seat=ANN))
    assert (state["turn"], state["direction"]) == (turn, "counter-clockwise")


@pytest.mark.parametrize(
    ("card", "named", "count"), [("red-draw-two", None, 2), ("wild-draw-four", "yellow", 4)],
)
def test_peers_with_two_players_the_victim_of_a_draw_card_draws_and_the_player_plays_again(
    card: str, named: str | None, count: int,
) -> None:
    """datamllab/rlcard rlcard/games/uno/round.py (``_preform_non_number_action``: draw_2 and wild_draw_4 with
    two players); uditkarode/unocab tests/turn-tests.ts, "Drawing after +4 forfeits drawing player's turn".

    Ann hits Bo with a draw card: Bo owes the cards and loses the turn, so it is Ann's again; Bo's draw pays
    the debt and leaves the turn with Ann.

    Differs: unocab's victim keeps the turn until they draw (the draw then ends it); the end is the same.
    """
    events = [*two_players(), play(card, seat=ANN)]
    if named:
        events.append(color(named, seat=ANN))
    state = state_of(*events)
    assert (state["turn"], state["owed"]) == (ANN, [0, count])
    state = state_of(*events, draw(seat=BO, count=count))
    assert (state["turn"], state["owed"], state["hands"]) == (ANN, [0, 0], [6, 7 + count])


# --- the first card ---------------------------------------------------------------------------------------


def test_rlcard_a_flipped_skip_skips_the_first_player() -> None:
    """datamllab/rlcard rlcard/games/uno/round.py, ``perform_top_card`` (skip: player 1 starts).

    Four players; the first card is a red skip, so seat 0 is skipped and seat 1 plays first.
    """
    verdicts, state = replay(*table(4, "red-skip"))
    assert verdicts == []
    assert (state["turn"], state["hands"]) == (BO, [7, 7, 7, 7])


def test_rlcard_a_flipped_reverse_makes_the_dealer_play_first() -> None:
    """datamllab/rlcard rlcard/games/uno/round.py, ``perform_top_card`` (reverse: direction -1, the last player
    starts).

    Four players, seat 3 deals; a red reverse first: seat 3 plays first, counter-clockwise.
    """
    state = state_of(*table(4, "red-reverse"))
    assert (state["turn"], state["direction"]) == (DI, "counter-clockwise")


@pytest.mark.parametrize("players", [4, 2])
def test_peers_a_flipped_draw_two_makes_the_first_player_draw_2_and_lose_the_turn(players: int) -> None:
    """datamllab/rlcard rlcard/games/uno/round.py, ``perform_top_card`` (draw_2, four players);
    uditkarode/unocab tests/turn-tests.ts, "Drawing after +2 forfeits drawing player's turn" (two players, the
    first card a red +2).

    The first card is a red draw two: seat 0 owes 2 and seat 1 plays first; seat 0 paying the 2 does not move
    the turn.

    Differs: RLCard deals seat 0 the 2 cards but leaves the first turn with seat 0.
    """
    state = state_of(*table(players, "red-draw-two"))
    assert (state["turn"], state["owed"]) == (BO, [2] + [0] * (players - 1))
    state = state_of(*table(players, "red-draw-two"), draw(seat=ANN, count=2))
    assert (state["turn"], state["owed"]) == (BO, [0] * players)
    assert state["hands"] == [9] + [7] * (players - 1)


def test_rlcard_a_flipped_wild_is_named_by_the_first_player() -> None:
    """datamllab/rlcard rlcard/games/uno/round.py, ``flip_top_card`` (a wild first card).

    Four players; a wild first: no colour until seat 0 names one, and seat 0 then plays.

    Differs: RLCard picks the colour at random; danguilherme/uno (test/game.ts "does not start with a wild
    card") never starts on a wild at all.
    """
    assert state_of(*table(4, "wild"))["color"] is None
    verdicts, state = replay(*table(4, "wild"), color("blue", seat=ANN))
    assert verdicts == []
    assert (state["color"], state["turn"]) == ("blue", ANN)


def test_peers_a_flipped_wild_draw_four_goes_back_and_another_card_is_flipped() -> None:
    """datamllab/rlcard rlcard/games/uno/dealer.py, ``flip_top_card`` (a wild_draw_4 goes back, shuffled, and
    another is turned); danguilherme/uno test/game.ts, "does not start with a wild card".

    Four players; a wild draw four, then a green 2: the green 2 is the first card, nobody owes anything.

    Differs: uno-engine also sends back a plain wild and every action card (src/game.ts ``newGame``).
    """
    verdicts, state = replay(*table(4, "wild-draw-four"), flip("green-2"))
    assert verdicts == []
    assert (state["top"], state["color"], state["turn"]) == ("green-2", "green", ANN)
    assert (state["hands"], state["owed"]) == ([7] * 4, [0] * 4)


# --- drawing and passing ----------------------------------------------------------------------------------


def test_rlcard_a_drawn_card_may_be_played_at_once_or_kept() -> None:
    """datamllab/rlcard rlcard/games/uno/round.py, ``_perform_draw_action`` (a drawn card that matches is played
    at once; one that does not is kept and the turn passes); danguilherme/uno test/game.ts, "#pass() passes the
    play to the next player".

    Ann draws: her turn still; she plays the drawn red 7 (hand back to 7, Bo next), or passes (8 cards, Bo).

    Differs: RLCard plays a playable drawn card for the player; here she may also keep it and pass.
    """
    assert state_of(*opening(), draw(seat=ANN))["turn"] == ANN
    verdicts, state = replay(*opening(), draw(seat=ANN), play("red-7"))
    assert verdicts == []
    assert (state["hands"], state["turn"]) == ([7, 7, 7], BO)
    verdicts, state = replay(*opening(), draw(seat=ANN), pass_(seat=ANN))
    assert verdicts == []
    assert (state["hands"], state["turn"]) == ([8, 7, 7], BO)


def test_uno_engine_a_pass_is_the_end_of_ones_own_turn_only() -> None:
    """danguilherme/uno test/game.ts, "#pass() throws if player did not draw before passing" (the part after
    the draw: pass once, then a second pass throws).

    Ann draws and passes; a second pass by Ann, whose turn it no longer is, changes nothing (a notice).

    Differs: uno-engine also refuses a pass before drawing; docs/rules.md does not make that a verdict.
    """
    verdicts, state = replay(*opening(), draw(seat=ANN), pass_(seat=ANN), pass_(seat=ANN))
    assert verdicts == [notice("not-your-turn", 5)]
    assert (state["hands"], state["turn"]) == ([8, 7, 7], BO)


# --- wild draw four ---------------------------------------------------------------------------------------


def test_unocab_a_failed_bluff_call_makes_the_challenger_draw_6() -> None:
    """uditkarode/unocab tests/basic-tests.ts, "Bluff call fails if the +4 player does not have a card of the
    current color".

    Two players on a red 1; Ann, holding only blue 2s besides, plays a wild draw four and names blue; Bo
    challenges and Ann shows her hand: no red, so Bo draws 6 and loses the turn (Ann plays again).
    """
    verdicts, state = replay(
        *two_players("red-1"), play("wild-draw-four", seat=ANN), color("blue", seat=ANN), challenge(BO),
        reveal(ANN, *["blue-2"] * 6),
    )
    assert verdicts == [penalty(BO, 6, "challenge-lost", 6)]
    assert (state["hands"], state["owed"], state["turn"]) == ([6, 13], [0, 6], ANN)


def test_unocab_a_good_bluff_call_makes_the_wild_draw_four_player_draw_4() -> None:
    """uditkarode/unocab tests/basic-tests.ts, "Bluff call succeeds if the +4 player has a card of the current
    color".

    Two players on a red 1; Ann holds a red 1 and plays a wild draw four anyway, naming blue. Bo challenges and
    Ann shows the red 1: Ann draws 4, Bo owes nothing and plays on.
    """
    verdicts, state = replay(
        *two_players("red-1"), play("wild-draw-four", seat=ANN), color("blue", seat=ANN), challenge(BO),
        reveal(ANN, "red-1", "blue-2", "green-3", "yellow-4", "blue-5", "green-6"),
    )
    assert verdicts == [penalty(ANN, 4, "illegal-wild-draw-four", 6)]
    assert (state["hands"], state["owed"], state["turn"]) == ([10, 7], [4, 0], BO)


@pytest.mark.parametrize(
    ("rule", "hand", "guilty"),
    [
        ("no-active-color", ("green-5", "blue-1", "yellow-2", "blue-9", "green-8", "yellow-7"), False),
        ("no-match", ("green-5", "blue-1", "yellow-2", "blue-9", "green-8", "yellow-7"), True),
        ("no-match", ("wild", "blue-1", "yellow-2", "blue-9", "green-8", "yellow-7"), False),
    ],
)
def test_rlcard_a_wild_draw_four_while_holding_a_card_that_matches_by_number(
    rule: str, hand: tuple[str, ...], guilty: bool,
) -> None:
    """datamllab/rlcard rlcard/games/uno/round.py, ``get_legal_actions`` (a wild_draw_4 is offered only when no
    other card can be played).

    Ann plays a wild draw four on a red 5 holding a green 5 but no red; Bo challenges and she shows her hand.
    Official (``wild_draw_four: no-active-color``): only the active colour counts, so the challenge fails.
    With ``wild_draw_four: no-match`` a card of the same number makes it illegal; a plain wild in hand does not.

    Differs: RLCard forbids it in all three hands (any playable card, a wild included, rules it out): stricter
    than the official rules and than ``no-match``.
    """
    verdicts, _ = replay(
        *opening(wild_draw_four=rule), play("wild-draw-four", seat=ANN), color("blue", seat=ANN), challenge(BO),
        reveal(ANN, *hand),
    )
    expected = penalty(ANN, 4, "illegal-wild-draw-four", 6) if guilty else penalty(BO, 6, "challenge-lost", 6)
    assert verdicts == [expected]


def test_rlcard_a_wild_draw_four_on_a_wild_draw_four() -> None:
    """datamllab/rlcard rlcard/games/uno/round.py, ``get_legal_actions`` (with a wild on top, a wild_draw_4 may
    follow when nothing else can).

    Ann plays a wild draw four and names blue; Bo draws the 4 (skipped); Cy answers with a wild draw four of
    her own and names green: Ann owes 4 and Bo plays next. No verdict: nobody challenged.
    """
    verdicts, state = replay(
        *opening(), play("wild-draw-four", seat=ANN), color("blue", seat=ANN), draw(seat=BO, count=4),
        play("wild-draw-four", seat=CY), color("green", seat=CY),
    )
    assert verdicts == []
    assert (state["owed"], state["hands"], state["turn"]) == ([4, 0, 0], [10, 11, 6], BO)


@pytest.mark.parametrize(("card", "turn", "owed"), [("wild", BO, [0, 0]), ("wild-draw-four", ANN, [0, 4])])
def test_unocab_the_turn_moves_at_the_wild_not_at_the_colour(card: str, turn: int, owed: list[int]) -> None:
    """uditkarode/unocab tests/turn-tests.ts, "Turn is increased only after choosing color after playing one of
    color-chooser/plus-four", and tests/basic-tests.ts, "Color picker changes color".

    Two players on a red 1; Ann plays a wild (Bo is next) or a wild draw four (Bo owes 4 and is skipped: Ann
    is next); naming yellow afterwards sets the colour and leaves the turn where it is.

    Differs: unocab keeps the turn with the wild's player until they choose the colour.
    """
    played = [*two_players("red-1"), play(card, seat=ANN)]
    state = state_of(*played)
    assert (state["turn"], state["color"], state["owed"]) == (turn, None, owed)
    verdicts, state = replay(*played, color("yellow", seat=ANN))
    assert verdicts == []
    assert (state["turn"], state["color"]) == (turn, "yellow")


def test_unocab_a_challenge_with_no_wild_draw_four_and_a_colour_with_no_wild_change_nothing() -> None:
    """uditkarode/unocab tests/rule-violation-tests.ts, "Cannot call bluff when the last card is not a +4 or a
    color has not yet been chosen" and "can only switch colors if you played one of [...] in the last turn".

    Three players on a red 5: a challenge, and then a colour named by Ann, with no wild on the pile, are
    notices that change nothing: the colour stays red and it is still Ann's turn.
    """
    verdicts, state = replay(*opening(), challenge(BO), color("green", seat=ANN))
    assert verdicts == [notice("no-wild-draw-four-to-challenge", 3), notice("no-wild-to-name", 4)]
    assert (state["color"], state["turn"], state["hands"]) == ("red", ANN, [7, 7, 7])


# --- stacking (a house rule: the stacking option) ---------------------------------------------------------


def test_uno_engine_cumulative_draw_two_the_victim_must_answer_or_draw() -> None:
    """danguilherme/uno test/house-rules/cumulative-draw-two.ts, "forces player to draw after a DRAW TWO" (and
    test/game.js "should force player to draw after a DRAW TWO", where it was the default).

    A house rule: our ``stacking: draw-two``. Ann's red draw two leaves Bo on turn to answer; his red reverse is
    no answer (``illegal-play``, the 2 still owed); his draw takes the 2 and ends his turn.
    Official (stacking off): Bo loses his turn at once.

    Differs: uno-engine refuses the reverse outright; here it is called and counts as played.
    """
    assert state_of(*opening(), play("red-draw-two", seat=ANN))["turn"] == CY

    hit = [*opening(stacking="draw-two"), play("red-draw-two", seat=ANN)]
    assert state_of(*hit)["turn"] == BO
    verdicts, state = replay(*hit, play("red-reverse", seat=BO))
    assert verdicts == [penalty(BO, 0, "illegal-play", 4)]
    assert state["owed"] == [0, 2, 0]
    verdicts, state = replay(*hit, draw(seat=BO, count=2))
    assert verdicts == []
    assert (state["hands"], state["owed"], state["turn"]) == ([6, 9, 7], [0, 0, 0], CY)


def test_uno_engine_cumulative_draw_two_stacks_add_up() -> None:
    """danguilherme/uno test/house-rules/cumulative-draw-two.ts, "stacks DRAW TWO values".

    ``stacking: draw-two``: Ann's draw two, Bo's draw two, and Cy, with no draw two, draws 4 and loses the turn.
    """
    verdicts, state = replay(
        *opening(stacking="draw-two"), play("red-draw-two", seat=ANN), play("blue-draw-two", seat=BO),
        draw(seat=CY, count=4),
    )
    assert verdicts == []
    assert (state["hands"], state["owed"], state["turn"]) == ([6, 6, 11], [0, 0, 0], ANN)


def test_uno_engine_cumulative_draw_two_does_not_interfere_without_a_draw_two() -> None:
    """danguilherme/uno test/house-rules/cumulative-draw-two.ts, "does not interfere if no DRAW TWO is played".

    ``stacking: draw-two``: Ann's red reverse (Cy next), Cy's red reverse (Ann next, clockwise again), and Ann
    may simply draw.
    """
    verdicts, state = replay(
        *opening(stacking="draw-two"), play("red-reverse", seat=ANN), play("red-reverse", seat=CY),
        draw(seat=ANN),
    )
    assert verdicts == []
    assert (state["hands"], state["turn"], state["direction"]) == ([7, 7, 6], ANN, "clockwise")


def test_unocab_a_card_of_the_same_colour_does_not_answer_a_draw_two() -> None:
    """uditkarode/unocab tests/rule-violation-tests.ts, "Cannot play a card of the same color on +2, must draw
    or play another +2" (unocab stacks +2s by default: our ``stacking: draw-two``).

    Two players on a red 1: red 1, red 1, Ann's red draw two; Bo's red 1 is no answer: ``illegal-play``, and
    he still owes 2.

    Differs: unocab refuses the red 1 outright; here it is called and counts as played.
    """
    verdicts, state = replay(
        *two_players("red-1", stacking="draw-two"), play("red-1", seat=ANN), play("red-1", seat=BO),
        play("red-draw-two", seat=ANN), play("red-1", seat=BO),
    )
    assert verdicts == [penalty(BO, 0, "illegal-play", 6)]
    assert (state["owed"], state["hands"]) == ([0, 2], [5, 7])


def test_unocab_draw_two_stacks_add_up_and_start_again_after_a_draw() -> None:
    """uditkarode/unocab tests/draw-tests.ts, "+2 stacks only if stackPlusTwos is enabled and resets after draw".

    ``stacking: draw-two``, two players: four draw twos in a row leave Ann owing 8; her draw of 8 ends her
    turn; Bo's next draw two (on a draw two, matching by symbol) makes her owe 2, not 10.
    """
    stacked = [
        *two_players(stacking="draw-two"), play("red-draw-two", seat=ANN), play("blue-draw-two", seat=BO),
        play("green-draw-two", seat=ANN), play("yellow-draw-two", seat=BO),
    ]
    assert state_of(*stacked)["owed"] == [8, 0]
    paid = [*stacked, draw(seat=ANN, count=8)]
    state = state_of(*paid)
    assert (state["owed"], state["turn"], state["hands"]) == ([0, 0], BO, [13, 5])
    verdicts, state = replay(*paid, play("red-draw-two", seat=BO))
    assert verdicts == []
    assert (state["owed"], state["hands"]) == ([2, 0], [15, 4])


# --- UNO --------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("options", "expected"), [({}, []), ({"false_uno_penalty": 2}, [penalty(ANN, 2, "false-uno", 3)])],
)
def test_uno_engine_a_false_uno_call(options: dict[str, int], expected: list[Event]) -> None:
    """danguilherme/uno test/game.ts, "#uno() makes "UNO" yeller to draw 2 cards if there isn't any player with
    1 card".

    Ann calls UNO holding 7 cards. Official: a false call costs nothing (``false_uno_penalty: 0``); with
    ``false_uno_penalty: 2`` she draws 2.

    Differs: uno-engine makes a false caller draw 2 by default.
    """
    verdicts, state = replay(*opening(**options), uno(ANN))
    assert verdicts == expected
    assert state["hands"][ANN] == 7 + (2 if expected else 0)


def test_uno_engine_a_player_left_with_one_card_who_did_not_call_draws_2() -> None:
    """danguilherme/uno test/game.ts, "#uno() makes user with 1 card that not yelled UNO! to draw 2 cards".

    Three players, two cards each: Ann plays a red reverse (one card left, Cy next, counter-clockwise) without
    calling. Cy catches her: Ann draws 2. Without the catch, the referee catches her itself when Cy plays.
    """
    down = [*opening(hand_size=2), play("red-reverse", seat=ANN)]
    verdicts, state = replay(*down, catch(CY, ANN))
    assert verdicts == [penalty(ANN, 2, "missed-uno", 4)]
    assert (state["hands"], state["owed"]) == ([3, 2, 2], [2, 0, 0])
    verdicts, _ = replay(*down, play("red-3", seat=CY))
    assert verdicts == [penalty(ANN, 2, "missed-uno", 4)]


def test_uno_engine_a_missed_uno_is_paid_once() -> None:
    """danguilherme/uno test/game.ts, "#uno() does not make user draw if he has already drawn".

    As above; Cy catches Ann twice. The first catch costs Ann 2; the second catches nothing.

    Differs: uno-engine treats the second call as a false UNO by the caller, who draws 2; a catch here is not
    a call, and a false call would cost nothing anyway by default.
    """
    verdicts, state = replay(*opening(hand_size=2), play("red-reverse", seat=ANN), catch(CY, ANN), catch(CY, ANN))
    assert verdicts == [penalty(ANN, 2, "missed-uno", 4), notice("nothing-to-catch", 5)]
    assert state["hands"] == [3, 2, 2]


def test_uno_engine_a_catch_after_the_call_catches_nothing() -> None:
    """danguilherme/uno test/game.ts, "#uno() does not make user draw if he has already yelled UNO!".

    Ann calls UNO on her turn with two cards, then plays a red reverse; Cy's catch finds nothing to catch.

    Differs: uno-engine makes the catcher draw 2 (a false UNO); here it is a notice.
    """
    verdicts, state = replay(*opening(hand_size=2), uno(ANN), play("red-reverse", seat=ANN), catch(CY, ANN))
    assert verdicts == [notice("nothing-to-catch", 5)]
    assert state["hands"] == [1, 2, 2]


# --- the end of a round and scoring -----------------------------------------------------------------------


@pytest.mark.parametrize("last", ["wild", "wild-draw-four"])
def test_unocab_a_wild_may_be_the_last_card(last: str) -> None:
    """uditkarode/unocab tests/basic-tests.ts, "Cannot play a color switching card as the last card".

    Ann goes out on a wild or a wild draw four: the round ends; after a wild draw four Bo still owes 4.

    Differs: unocab forbids going out on a wild or a wild draw four; the official rules allow it.
    """
    verdicts, state = replay(*ann_goes_out(last))
    assert verdicts == [round_end(1, ANN, 9)]
    assert state["turn"] is None
    assert state["owed"] == ([0, 4, 0] if last == "wild-draw-four" else [0, 0, 0])


def test_peers_a_last_draw_two_still_makes_the_next_player_draw_and_the_cards_count() -> None:
    """datamllab/rlcard rlcard/games/uno/round.py, ``proceed_round`` (the round is over, and the draw_2 still
    deals the next player 2); danguilherme/uno src/game.ts, ``play`` (the game ends before the draw two acts).

    Ann goes out on a red draw two: Bo still owes 2, and the 2 count in the score: Bo's 5 cards (1 to 5, 15)
    and Cy's hand (73) give Ann 88.

    Differs: uno-engine ends the game before the draw two acts, so its victim draws nothing.
    """
    verdicts, state = replay(*ann_goes_out("red-draw-two"))
    assert verdicts == [round_end(1, ANN, 9)]
    assert (state["hands"], state["owed"]) == ([0, 5, 3], [0, 2, 0])
    verdicts, _ = replay(
        *ann_goes_out("red-draw-two"), reveal(BO, "red-1", "red-2", "red-3", "red-4", "red-5"),
        reveal(CY, "blue-skip", "wild", "green-3"),
    )
    assert verdicts[1:] == [score(1, ANN, 88, [88, 0, 0], 11)]


def test_uno_engine_every_card_scores_its_value() -> None:
    """danguilherme/uno test/card.ts, "#score should return the correct score for each card".

    Four players, two cards each; Ann goes out, and the other three show their 3 cards each: a red 0, 3, 5, 9,
    a wild, a wild draw four, a reverse, a skip and a draw two: 0 + 3 + 5 + 9 + 50 + 50 + 20 + 20 + 20 = 177.
    """
    went_out = [
        *table(4, hand_size=2), uno(ANN), play("red-9", seat=ANN),
        draw(seat=BO), pass_(seat=BO), draw(seat=CY), pass_(seat=CY), draw(seat=DI), pass_(seat=DI),
        play("red-1", seat=ANN),
    ]
    verdicts, state = replay(
        *went_out, reveal(BO, "red-0", "red-3", "red-5"), reveal(CY, "red-9", "wild", "wild-draw-four"),
        reveal(DI, "red-reverse", "red-skip", "red-draw-two"),
    )
    assert verdicts == [round_end(1, ANN, 11), score(1, ANN, 177, [177, 0, 0, 0], 14)]
    assert state["totals"] == [177, 0, 0, 0]


def test_rlcard_the_round_winner_scores_the_others_hands() -> None:
    """datamllab/rlcard tests/games/test_uno_game.py, "test_get_payoffs", and rlcard/games/uno/game.py
    ``get_payoffs`` (the winner gets 1, the others -1).

    Two players, two cards each; Ann goes out while Bo holds a wild, a red 7 and a blue skip: Ann scores 77,
    Bo nothing.

    Differs: RLCard pays 1 to the winner and -1 to the loser, whatever the hands hold.
    """
    verdicts, state = replay(
        *two_players(hand_size=2), uno(ANN), play("red-9", seat=ANN), draw(seat=BO), pass_(seat=BO),
        play("red-1", seat=ANN), reveal(BO, "wild", "red-7", "blue-skip"),
    )
    assert verdicts == [round_end(1, ANN, 7), score(1, ANN, 77, [77, 0], 8)]
    assert state["totals"] == [77, 0]


def test_unocab_the_game_does_not_end_with_the_round() -> None:
    """uditkarode/unocab tests/basic-tests.ts, "Game ends when only one player is left with cards and reports
    loser".

    Two players, two cards each, both calling UNO; Ann goes out first. The round ends, the game does not: no
    card can be played until the next deal, and the next deal starts round 2.

    Differs: unocab's game ends when one player alone holds cards, and it names a loser, not a winner.
    """
    went_out = [
        *two_players("red-5", hand_size=2), uno(ANN), play("red-1", seat=ANN), uno(BO), play("red-2", seat=BO),
        play("red-3", seat=ANN),
    ]
    verdicts, state = replay(*went_out, play("red-4", seat=BO))
    assert verdicts == [round_end(1, ANN, 7), notice("no-round-in-play", 8)]
    assert (state["over"], state["turn"], state["hands"]) == (False, None, [0, 1])
    state = state_of(*went_out, deal(ANN), flip("blue-2"))
    assert (state["round"], state["turn"], state["hands"]) == (2, BO, [2, 2])


def test_uno_engine_the_first_to_500_wins_the_game() -> None:
    """danguilherme/uno RULES.md, "The first player to attain 500 points wins the game", with src/game.ts
    ``calculateScore`` (the sum of the hands, reported at the end).

    Ann goes out while the others hold 499 points: the game goes on; holding 500: Ann wins the game.

    Differs: uno-engine scores one round and stops; it keeps no totals and no target.
    """
    verdicts, state = replay(*ann_goes_out(), points(BO, 449), points(CY, 50))
    assert [v["type"] for v in verdicts] == ["round-end", "score"]
    assert state["over"] is False
    verdicts, state = replay(*ann_goes_out(), points(BO, 450), points(CY, 50))
    assert verdicts[1:] == [score(1, ANN, 500, [500, 0, 0], 11), game_end(ANN, [500, 0, 0], 11)]
    assert state["over"] is True


# --- players and mistakes ---------------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "malformed"), [(0, True), (1, True), (2, False), (10, False), (11, True)])
def test_peers_a_game_needs_2_to_10_players(players: int, malformed: bool) -> None:
    """danguilherme/uno test/game.ts, "errors if started with less than 2 players" and "errors if started with
    more than 10 players"; thinkbeforecoding/FsUno.Prod FsUno.Tests/When starting game.fs, "0 players should be
    rejected".

    A record whose game has fewer than 2 or more than 10 players is malformed.
    """
    record = game(*[f"P{seat}" for seat in range(players)])
    if malformed:
        with pytest.raises(RecordError):
            replay(record)
    else:
        assert replay(record)[1]["hands"] == [0] * players


def test_fsuno_a_card_played_out_of_turn_is_called_and_counts() -> None:
    """thinkbeforecoding/FsUno.Prod FsUno.Tests/When playing card.fs, "First player should play at his turn".

    Four players on a red 3; seat 2 plays a green 3 before seat 0 has played: ``out-of-turn``.

    Differs: FsUno rejects the card and nothing changes; here it counts as played, and play goes on from the
    seat that laid it (seat 3 next).
    """
    verdicts, state = replay(*table(4, "red-3"), play("green-3", seat=CY))
    assert verdicts == [penalty(CY, 0, "out-of-turn", 3)]
    assert (state["hands"], state["turn"], state["top"]) == ([7, 7, 6, 7], DI, "green-3")


def test_fsuno_after_a_wrong_colour_taken_back_it_is_still_the_players_turn() -> None:
    """thinkbeforecoding/FsUno.Prod FsUno.Tests/When playing after a player who failed.fs, "After wrong color it
    should still be player's turn".

    Four players on a red 3: seat 0 a red 9; seat 1 a green 7 (``illegal-play``). Taken back with a
    ``retract``, seat 1's green 9 is fine and seat 2 is next.

    Differs: FsUno keeps the turn with seat 1 by itself; here the green 7 counts as played (seat 2 next) until
    it is retracted.
    """
    wrong = [*table(4, "red-3"), play("red-9", seat=ANN), play("green-7", seat=BO)]
    verdicts, state = replay(*wrong)
    assert verdicts == [penalty(BO, 0, "illegal-play", 4)]
    assert (state["turn"], state["top"]) == (CY, "green-7")
    verdicts, state = replay(*wrong, retract(4), play("green-9", seat=BO))
    assert verdicts == []
    assert (state["turn"], state["top"], state["hands"]) == (CY, "green-9", [6, 6, 7, 7])


def test_fsuno_after_a_wrong_turn_taken_back_it_is_still_the_expected_players_turn() -> None:
    """thinkbeforecoding/FsUno.Prod FsUno.Tests/When playing after a player who failed.fs, "After wrong turn it
    should still be expected player's turn".

    Four players on a red 3: seat 0 a red 9; seat 3 a green 7 while it is seat 1's turn (``out-of-turn``).
    Taken back with a ``retract``, seat 1's green 9 is fine and seat 2 is next.

    Differs: FsUno keeps the turn with seat 1 by itself; here seat 3's card counts as played (seat 0 next)
    until it is retracted.
    """
    wrong = [*table(4, "red-3"), play("red-9", seat=ANN), play("green-7", seat=DI)]
    verdicts, state = replay(*wrong)
    assert penalty(DI, 0, "out-of-turn", 4) in penalties(verdicts)
    assert (state["turn"], state["top"]) == (ANN, "green-7")
    verdicts, state = replay(*wrong, retract(4), play("green-9", seat=BO))
    assert verdicts == []
    assert (state["turn"], state["top"], state["hands"]) == (CY, "green-9", [6, 6, 7, 7])
