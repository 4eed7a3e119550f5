"""Property tests: the referee against the truth of simulated games, corrections, and replay.

The simulator plays physical games (real deck, real hands, the real turn) and reaches each penalty from
physical facts by a small predicate, never by reading its own record; these tests push its records through
the referee and hold every verdict and every hand size it claims to that truth. The peer engines' cases
(test_peer_cases.py) are the numbers from outside.
"""

from collections import Counter
from dataclasses import replace
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tabletop.game.cards import ALL_CARDS, COLORS
from tabletop.game.events import (
    Amend,
    Catch,
    Challenge,
    Color,
    Deal,
    Draw,
    Event,
    Flip,
    GameEnd,
    Insert,
    Pass,
    Penalty,
    Play,
    Retract,
    Score,
    Swap,
    Uno,
    Verdict,
)
from tabletop.game.record import read_record, write_record
from tabletop.game.referee import Referee, replay
from tabletop.lab.simulate import CAREFUL, Mistakes, SimulatedGame, simulate_game

PRESETS = ("official", "stacking", "party", "eastern")
SETTINGS = settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow])

#: Options the tables change most, drawn on top of a preset (None: keep the preset's value).
OVERRIDES: dict[str, Any] = {
    "target": (100, 150, 200, None),
    "draw": ("one", "until-playable"),
    "wild_draw_four": ("no-active-color", "no-match", "anytime"),
    "auto_catch": (True, False),
    "uno_penalty": (1, 2, 4),
    "challenge_penalty": (0, 2, 5),
    "misplay_penalty": (0, 0, 2),
    "false_uno_penalty": (0, 2, 2),
    "skip": ("next-player", "play-again"),
    "two_player_reverse": ("skip", "reverse"),
    "challenge": (True, True, False),
    "stacking": ("off", "pass-on", "draw-two", "draw-two-and-four"),
    "jump_in": (True, False),
    "seven_zero": (True, False),
    "scoring": ("winner-collects", "own-points"),
    "hand_size": (2, 5, 7, 9),
    "wild_customizable": ("wild", "wild-draw-two", "everyone-draws-one", "swap-hands"),
    "special_wild_points": (0, 25, 40, 100),
}


@st.composite
def tables(draw: st.DrawFn, seats: bool = True, draws_seen: bool = True) -> dict[str, Any]:
    """simulate_game arguments: a preset, a few overrides, a number of players, a deck and a seed."""
    rules: dict[str, Any] = {"preset": draw(st.sampled_from(PRESETS))}
    for name, values in OVERRIDES.items():
        if draw(st.booleans()):
            value = draw(st.sampled_from(values))
            if value is not None:
                rules[name] = value
    if "target" not in rules and draw(st.integers(0, 3)):
        rules["target"] = 150  # most games short, some to the preset's own target
    return {"seed": draw(st.integers(0, 2**32 - 1)), "rules": rules,
            "players": draw(st.sampled_from((2, 3, 4, 5, 7, 10))), "seats": seats, "draws_seen": draws_seen,
            "deck": draw(st.sampled_from((108, 112)))}


# --- comparing the referee with the truth -------------------------------------------------------------------


def penalties(verdicts: list[Verdict]) -> Counter[tuple[int, int, str, int]]:
    return Counter((v.ref, v.seat, v.reason, v.cards) for v in verdicts if isinstance(v, Penalty))


def scores(verdicts: list[Verdict]) -> list[tuple[int, int, int, tuple[int, ...]]]:
    return [(v.round, v.winner, v.points, v.totals) for v in verdicts if isinstance(v, Score)]


def winners(verdicts: list[Verdict]) -> list[int]:
    return [v.winner for v in verdicts if isinstance(v, GameEnd)]


def follow(game: SimulatedGame) -> Referee:
    """Push the record event by event; every hand size the referee claims must be the real one."""
    referee = Referee()
    for ref, event in enumerate(game.events):
        referee.push(event)
        claimed = referee.state.hands
        real = game.truth.hands[ref]
        wrong = [seat for seat, size in enumerate(claimed) if size is not None and size != real[seat]]
        assert not wrong, f"after event {ref} ({event.to_json()}): referee says {claimed}, really {real}"
        seen = getattr(game.events[0], "draws_seen", None) is not False
        assert None not in claimed or not seen, f"a table that reports draws left a hand unknown at {ref}"
    return referee


def assert_agrees(game: SimulatedGame) -> None:
    """Hands, penalties (as multisets), scores and the game's winner all as the truth has them."""
    referee = follow(game)
    verdicts = referee.verdicts
    said, truth = penalties(verdicts), Counter(game.truth.penalties)
    assert said == truth, f"referee only: {sorted((said - truth).elements())}; " \
                          f"truth only: {sorted((truth - said).elements())}"
    assert_no_legal_wild_draw_four_punished(game, verdicts)
    assert scores(verdicts) == list(game.truth.scores)
    assert winners(verdicts) == ([] if game.truth.winner is None else [game.truth.winner])


def assert_no_legal_wild_draw_four_punished(game: SimulatedGame, verdicts: list[Verdict]) -> None:
    """Straight from the physical game: a seat is never punished for more illegal wild draw fours than it
    really played since the round began."""
    deals = [ref for ref, event in enumerate(game.events) if isinstance(event, Deal)]
    for verdict in verdicts:
        if isinstance(verdict, Penalty) and verdict.reason == "illegal-wild-draw-four":
            start = max(ref for ref in deals if ref < verdict.ref)
            illegal = sum(1 for ref, seat, guilty in game.truth.wild_draw_fours
                          if guilty and seat == verdict.seat and start < ref <= verdict.ref)
            punished = sum(1 for v in verdicts if isinstance(v, Penalty) and v.reason == verdict.reason
                           and v.seat == verdict.seat and start < v.ref <= verdict.ref)
            assert punished <= illegal, f"seat {verdict.seat} punished for a legal wild draw four at {verdict.ref}"


@SETTINGS
@given(tables())
def test_the_referee_reaches_the_truth_at_a_table_that_reports_seats_and_draws(table: dict[str, Any]) -> None:
    assert_agrees(simulate_game(**table))


@SETTINGS
@given(tables(seats=False))
def test_the_referee_reaches_the_truth_at_a_table_that_cannot_see_who_plays(table: dict[str, Any]) -> None:
    assert_agrees(simulate_game(**table))


@SETTINGS
@given(tables(draws_seen=False))
def test_the_referee_reaches_the_truth_at_a_table_that_cannot_see_draws(table: dict[str, Any]) -> None:
    assert_agrees(simulate_game(**table))


@settings(max_examples=15, deadline=None)
@given(st.sampled_from(PRESETS), st.integers(2, 10), st.integers(0, 2**32 - 1))
def test_a_careful_table_to_the_default_target_gets_no_penalties(preset: str, players: int, seed: int) -> None:
    """Whole games to the preset's own target (500, or 200 in eastern) where nobody slips."""
    game = simulate_game(seed, {"preset": preset}, players=players, mistakes=CAREFUL)
    slips = ("missed-uno", "false-uno", "illegal-wild-draw-four", "illegal-play", "out-of-turn")
    assert all(reason not in slips for _, _, reason, _ in game.truth.penalties)
    assert_agrees(game)


def test_every_preset_and_mistake_shows_up_in_the_simulated_games() -> None:
    """The properties mean little unless the games really hold what they are about."""
    reasons: Counter[str] = Counter()
    kinds: Counter[str] = Counter()
    for seed in range(40):
        game = simulate_game(seed, {"preset": PRESETS[seed % 4], "target": 150}, players=2 + seed % 5)
        reasons.update(reason for _, _, reason, _ in game.truth.penalties)
        kinds.update(event.TYPE for event in game.events)
    false_calls = simulate_game(1, {"preset": "official", "false_uno_penalty": 2}, mistakes=Mistakes(false_uno=0.2))
    reasons.update(reason for _, _, reason, _ in false_calls.truth.penalties)
    assert {"missed-uno", "false-uno", "illegal-wild-draw-four", "challenge-lost", "illegal-play",
            "out-of-turn"} <= set(reasons)
    assert {"swap", "challenge", "reveal", "points", "catch", "color", "pass", "uno"} <= set(kinds)


def test_the_special_wilds_of_the_112_card_deck_are_played_in_the_simulated_games() -> None:
    """Each special wild lands, under every rule a table may write on its blank wilds, and the referee agrees."""
    played: Counter[tuple[str, str]] = Counter()
    kinds: Counter[str] = Counter()
    for seed, written in enumerate(("wild", "wild-draw-two", "everyone-draws-one", "swap-hands") * 3):
        game = simulate_game(seed, {"target": 150, "wild_customizable": written}, players=3 + seed % 3, deck=112)
        assert_agrees(game)
        played.update((event.card.name, written) for event in game.events
                      if isinstance(event, Play) and event.card.is_special)
        kinds.update(event.TYPE for event in game.events)
    assert {name for name, _ in played} == {"wild-shuffle-hands", "wild-swap-hands", "wild-customizable"}
    assert {written for name, written in played if name == "wild-customizable"} == {
        "wild", "wild-draw-two", "everyone-draws-one", "swap-hands"}
    assert kinds["swap"] > 0
    assert all(not event.card.is_special for event in simulate_game(3, {"target": 150}).events
               if isinstance(event, Play))


def test_the_simulator_is_seeded() -> None:
    assert simulate_game(7, {"preset": "party"}).events == simulate_game(7, {"preset": "party"}).events
    assert simulate_game(7).events != simulate_game(8).events


# --- corrections ----------------------------------------------------------------------------------------------


def wrong_events(players: int) -> st.SearchStrategy[Event]:
    seat = st.integers(0, players - 1)
    return st.one_of(
        st.builds(Play, card=st.sampled_from(ALL_CARDS), seat=st.none() | seat),
        st.builds(Draw, seat=st.none() | seat, count=st.integers(1, 3)),
        st.builds(Uno, seat=seat),
        st.builds(Pass, seat=st.none() | seat),
        st.builds(Catch, seat=seat, target=seat),
        st.builds(Challenge, seat=seat, guilty=st.none() | st.booleans()),
        st.builds(Color, color=st.sampled_from(COLORS), seat=st.none() | seat),
        st.builds(Swap, seat=seat, with_=seat),
    )


def playable_spots(events: list[Event]) -> list[int]:
    """Positions where a play or a draw may stand: after a round's first flip, not before a re-flip."""
    spots, flipped = [], False
    for index, event in enumerate(events):
        if isinstance(event, Deal | Flip):
            flipped = isinstance(event, Flip)
        elif flipped:
            spots.append(index)
    return spots


def moved(verdicts: list[Verdict], at: int) -> list[Verdict]:
    """The verdicts of a record with one extra line inserted at ``at``: later refs move down by one."""
    return [replace(v, ref=v.ref + 1) if v.ref >= at else v for v in verdicts]  # type: ignore[attr-defined]


@st.composite
def corrections(draw: st.DrawFn) -> tuple[list[Event], list[Event], int | None]:
    """A clean record, the same record with a mistake and its correction, and where a line was inserted."""
    players = draw(st.sampled_from((2, 3, 4, 6)))
    rules = {"preset": draw(st.sampled_from(PRESETS)), "target": 100}
    seats, draws_seen = draw(st.sampled_from(((True, True), (False, True), (True, False))))
    clean = simulate_game(draw(st.integers(0, 2**32 - 1)), rules, players=players, seats=seats,
                          draws_seen=draws_seen).events
    at = draw(st.sampled_from(playable_spots(clean)))
    wrong = draw(wrong_events(players))
    if draw(st.booleans()):
        dirty = [*clean[:at], wrong, *clean[at:], Retract(ref=at)]
        return clean, dirty, at
    dirty = [*clean[:at], wrong, *clean[at + 1:], Amend(ref=at, event=clean[at])]
    return clean, dirty, None


@st.composite
def missed_lines(draw: st.DrawFn) -> tuple[list[Event], list[Event], int]:
    """A clean record, the same record with line ``at`` missed and put back by an ``insert``, and ``at``."""
    rules = {"preset": draw(st.sampled_from(PRESETS)), "target": 100}
    seats, draws_seen = draw(st.sampled_from(((True, True), (False, True), (True, False))))
    clean = simulate_game(draw(st.integers(0, 2**32 - 1)), rules, players=draw(st.sampled_from((2, 3, 4, 6))),
                          seats=seats, draws_seen=draws_seen).events
    at = draw(st.sampled_from([spot for spot in playable_spots(clean) if spot < len(clean) - 1]))
    return clean, [*clean[:at], *clean[at + 1:], Insert(ref=at, event=clean[at])], at


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(missed_lines())
def test_a_missed_event_put_back_by_an_insert_leaves_no_trace(case: tuple[list[Event], list[Event], int]) -> None:
    """The same verdicts as if it had been seen: the ones it brought name the insert's line, later ones move up."""
    clean, dirty, at = case
    last = len(dirty) - 1
    expected = Referee(clean)
    want = [replace(v, ref=v.ref if v.ref < at else last if v.ref == at else v.ref - 1)  # type: ignore[attr-defined]
            for v in expected.verdicts]
    pushed = Referee(dirty)
    assert pushed.verdicts == want
    assert pushed.state == expected.state


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(corrections())
def test_a_corrected_mistake_leaves_no_trace(case: tuple[list[Event], list[Event], int | None]) -> None:
    clean, dirty, inserted = case
    expected = Referee(clean)
    want = expected.verdicts if inserted is None else moved(expected.verdicts, inserted)
    pushed = Referee(dirty)
    assert pushed.verdicts == want
    assert pushed.state == expected.state
    replayed, state = replay(list(enumerate(dirty)))
    assert replayed == want
    assert state == expected.state


# --- replay ---------------------------------------------------------------------------------------------------


@settings(max_examples=150, deadline=None)
@given(tables())
def test_replaying_a_written_record_matches_pushing_it_event_by_event(table: dict[str, Any]) -> None:
    events = simulate_game(**table).events
    pushed = Referee()
    told = [verdict for event in events for verdict in pushed.push(event)]
    assert told == pushed.verdicts
    entries = read_record(list(write_record(events)))
    verdicts, state = replay(entries)
    assert verdicts == pushed.verdicts
    assert state == pushed.state


def test_mistakes_can_be_tuned() -> None:
    sloppy = Mistakes(forget_uno=1.0, catch=0.0, early_uno=0.0, false_uno=0.0)
    game = simulate_game(3, {"preset": "official", "target": 300}, mistakes=sloppy)
    assert any(reason == "missed-uno" for _, _, reason, _ in game.truth.penalties)
    assert not any(isinstance(event, Uno) for event in game.events)
    assert_agrees(game)


# --- records on which the properties once caught the referee wrong, kept as regression tests ------------


def verdicts_of(*lines: str) -> tuple[list[Verdict], Any]:
    return replay(read_record(lines))


def test_a_reveal_after_the_player_received_cards_proves_nothing_about_a_wild_draw_four() -> None:
    """B played a legal wild draw four (no blue), was caught without UNO and drew blue-1 as the penalty.

    The reveal cannot tell the drawn cards from the ones held at the play, so the challenge lapses (docs/rules.md:
    a proof holds only until the player receives a card; README: no penalty rests on what it cannot prove).
    """
    verdicts, state = verdicts_of(
        '{"type": "game", "players": ["A", "B"], "rules": {"preset": "official", "hand_size": 2}}',
        '{"type": "deal", "dealer": 0}',
        '{"type": "flip", "card": "blue-4"}',
        '{"type": "play", "card": "wild-draw-four", "seat": 1}',
        '{"type": "color", "color": "green", "seat": 1}',
        '{"type": "catch", "seat": 0, "target": 1}',
        '{"type": "draw", "seat": 1, "count": 2}',
        '{"type": "challenge", "seat": 0}',
        '{"type": "reveal", "seat": 1, "cards": ["green-4", "blue-1", "green-8"]}',
    )
    assert [(v.reason, v.ref) for v in verdicts if isinstance(v, Penalty)] == [("missed-uno", 5)]
    assert state.hands == (6, 3)


def test_a_swap_after_unseen_draws_counts_the_cards_already_drawn() -> None:
    """B drew the 2 of the draw two when it landed, unseen; C swaps with B and so holds 9 cards, not 7."""
    _, state = verdicts_of(
        '{"type": "game", "players": ["A", "B", "C"], "rules": {"preset": "official", "seven_zero": true}, '
        '"draws_seen": false}',
        '{"type": "deal", "dealer": 2}',
        '{"type": "flip", "card": "red-5"}',
        '{"type": "play", "card": "red-draw-two", "seat": 0}',
        '{"type": "play", "card": "red-7", "seat": 2}',
        '{"type": "swap", "seat": 2, "with": 1}',
    )
    assert state.hands[2] in (9, None)


def test_unseen_draws_leave_the_hands_of_seats_whose_turn_may_have_passed_unknown() -> None:
    """B and C may each have drawn unseen and let the turn go before A played: A's hand size is a guess,
    and no missed-uno may rest on it (README: "No penalty is ever based on an unknown hand")."""
    verdicts, state = verdicts_of(
        '{"type": "game", "players": ["A", "B", "C"], "rules": {"preset": "official", "hand_size": 2}, '
        '"draws_seen": false}',
        '{"type": "deal", "dealer": 0}',
        '{"type": "flip", "card": "red-5"}',
        '{"type": "play", "card": "red-7", "seat": 0}',
        '{"type": "play", "card": "red-3", "seat": 1}',
    )
    assert not [v for v in verdicts if isinstance(v, Penalty) and v.reason == "missed-uno"]
    assert state.hands[2] is None


def test_at_a_table_that_misses_draws_a_card_after_two_quiet_turns_is_not_out_of_turn() -> None:
    """A drew and passed unseen, B too; C's card is C's own turn. The referee once called it out of turn, and
    the simulator, reading its own record the same way, agreed; the physical truth does not."""
    verdicts, state = verdicts_of(
        '{"type": "game", "players": ["A", "B", "C", "D"], "rules": {"preset": "official"}, "draws_seen": false}',
        '{"type": "deal", "dealer": 3}',
        '{"type": "flip", "card": "red-5"}',
        '{"type": "play", "card": "red-9", "seat": 2}',
    )
    assert not [v for v in verdicts if isinstance(v, Penalty)]
    assert state.turn == 3


def test_at_a_table_that_misses_draws_a_card_that_cannot_answer_a_stack_came_after_drawing_it() -> None:
    """B took the draw two unseen, A drew and passed unseen, and B's blue 4 matches the blue on the pile."""
    verdicts, _ = verdicts_of(
        '{"type": "game", "players": ["A", "B"], "rules": {"preset": "stacking"}, "draws_seen": false}',
        '{"type": "deal", "dealer": 1}',
        '{"type": "flip", "card": "blue-5"}',
        '{"type": "play", "card": "blue-draw-two", "seat": 0}',
        '{"type": "play", "card": "blue-4", "seat": 1}',
        '{"type": "play", "card": "green-4", "seat": 0}',
        '{"type": "play", "card": "red-7", "seat": 1}',
    )
    assert [(v.reason, v.ref) for v in verdicts if isinstance(v, Penalty)] == [("illegal-play", 6)]
