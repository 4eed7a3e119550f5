"""A malformed record gets a clear error that names its line; nothing of it is half applied."""

import json

import pytest

from tabletop.errors import RecordCode, RecordError
from tabletop.game.cards import Card
from tabletop.game.events import Draw, Game, Play, Uno, event_from_json
from tabletop.game.record import read_record, write_record
from tabletop.game.referee import Referee
from tabletop.game.rules import Preset, Rules, Stacking

GAME = '{"type": "game", "players": ["Ann", "Bo", "Cy"], "rules": {"preset": "official"}}'
DEAL = '{"type": "deal", "dealer": 2}'
FLIP = '{"type": "flip", "card": "red-5"}'


def error_of(*lines: str) -> RecordError:
    with pytest.raises(RecordError) as caught:
        read_record(lines)
    return caught.value


@pytest.mark.parametrize(
    ("bad_line", "words"),
    [
        ('{"type": "play", "card": "red-9"', "not valid JSON"),
        ('["play", "red-9"]', "JSON object"),
        ('{"type": "play", "card": "purple-9"}', "unknown card 'purple-9'"),
        ('{"type": "dance"}', "unknown event type 'dance'"),
        ('{"card": "red-9"}', "needs a \"type\""),
        ('{"type": "play"}', "needs 'card'"),
        ('{"type": "play", "card": "red-9", "seat": 3}', "seat 3"),
        ('{"type": "catch", "seat": 0, "target": 7}', "seat 7"),
        ('{"type": "swap", "seat": 0, "with": 5}', "'with' names seat 5"),
        ('{"type": "draw", "count": 0}', "'count'"),
        ('{"type": "color", "color": "pink"}', "'color' must be one of"),
        ('{"type": "play", "card": "red-9", "seat": -1}', "seat number"),
        ('{"type": "uno", "seat": true}', "seat number"),
        ('{"type": "reveal", "seat": 1, "cards": "red-1"}', "list of card names"),
        ('{"type": "retract", "ref": 3}', "point at itself"),
        ('{"type": "retract", "ref": 9}', "later line"),
        ('{"type": "amend", "ref": 2, "event": {"type": "play"}}', "needs 'card'"),
        ('{"type": "play", "card": "red-9", "source": "telepathy"}', "'source'"),
        ('{"type": []}', "unknown event type []"),
        ('{"type": "game", "players": ["A", "B"], "rules": {"preset": []}}', "unknown preset []"),
        ('{"type": "game", "players": ["A"]}', "'players': must be a list of 2 to 10 names"),
        ('{"type": "game", "players": ["A", " "]}', "'players': must be a list of 2 to 10 names"),
        ('{"type": "game", "players": ["A", "B"], "rules": "party"}', "'rules': must be an object of options"),
        ('{"type": "challenge", "seat": 1, "guilty": "yes"}', "'guilty': must be true or false"),
        ('{"type": "points", "seat": 1, "points": -5}', "'points': must be a whole number (0 or more)"),
        ('{"type": "draw", "count": 1.5}', "'count': must be a whole number (1 or more)"),
        ('{"type": "uno", "seat": 0, "t": ' + "9" * 401 + "}", "'t' must be a number of seconds"),
        ('{"type": "uno", "seat": 0, "t": NaN}', "'t' must be a number of seconds"),
        ('{"type": "uno", "seat": 0, "t": Infinity}', "'t' must be a number of seconds"),
        ('{"type": "uno", "seat": 0, "t": 1e999}', "'t' must be a number of seconds"),
    ],
)
def test_a_bad_line_is_named_with_what_is_wrong(bad_line: str, words: str) -> None:
    err = error_of(GAME, DEAL, FLIP, bad_line)
    assert err.line == 4
    assert words in str(err)
    assert str(err).startswith("line 4: ")


def test_an_event_before_the_game_is_malformed() -> None:
    err = error_of(DEAL, GAME)
    assert err.line == 1
    assert "must start with a 'game'" in str(err)


@pytest.mark.parametrize(
    ("rules", "words"),
    [
        ({"preset": "chaos"}, "unknown preset 'chaos'"),
        ({"sudden_death": True}, "unknown option 'sudden_death'"),
        ({"hand_size": 1}, "2 to 20"),
        ({"uno_penalty": 0}, "1 to 10"),
        ({"stacking": "always"}, "one of off, pass-on"),
        ({"jump_in": 1}, "true or false"),
        ({"target": 0}, "'target'"),
    ],
)
def test_unknown_presets_options_and_values_out_of_range_are_malformed(rules: dict[str, object], words: str) -> None:
    err = error_of(json.dumps({"type": "game", "players": ["Ann", "Bo"], "rules": rules}))
    assert err.line == 1
    assert words in str(err)


@pytest.mark.parametrize("players", [["Ann"], [f"P{i}" for i in range(11)], [], "Ann,Bo"])
def test_a_game_needs_two_to_ten_named_players(players: object) -> None:
    err = error_of(json.dumps({"type": "game", "players": players}))
    assert err.line == 1


@pytest.mark.parametrize("event", ['{"type": "play", "card": "red-1", "seat": 0}', '{"type": "draw", "seat": 0}'])
def test_a_play_or_draw_before_the_rounds_first_flip_is_malformed(event: str) -> None:
    err = error_of(GAME, DEAL, event)
    assert err.line == 3
    assert "before the round's first 'flip'" in str(err)
    err = error_of(GAME, DEAL, FLIP, '{"type": "play", "card": "red-1"}', DEAL, event)
    assert err.line == 6


def test_a_correction_cannot_point_at_another_correction() -> None:
    err = error_of(GAME, DEAL, FLIP, '{"type": "retract", "ref": 2}', '{"type": "retract", "ref": 3}')
    assert err.line == 5
    assert "another correction" in str(err)


def test_the_game_line_cannot_be_retracted_or_change_its_number_of_players() -> None:
    assert "amended into another 'game'" in str(error_of(GAME, '{"type": "retract", "ref": 0}'))
    wider = json.dumps({"type": "amend", "ref": 0, "event": {"type": "game", "players": ["A", "B"]}})
    assert "keep the number of players" in str(error_of(GAME, wider))


def test_blank_lines_are_skipped_and_errors_count_lines_as_an_editor_does() -> None:
    entries = read_record([GAME, "", DEAL, "   ", FLIP])
    assert [ref for ref, _ in entries] == [0, 2, 4]
    err = error_of(GAME, "", DEAL, '{"type": "flip", "card": "red"}')
    assert err.line == 4


def test_events_round_trip_through_json() -> None:
    lines = [
        GAME, DEAL, FLIP,
        '{"type": "play", "card": "red-9", "seat": 0, "t": 12.5, "source": "camera"}',
        '{"type": "unsure", "guesses": [["red-6", 0.5], ["red-9", 0.4]]}',
        '{"type": "draw", "seat": 2, "count": 2}',
        '{"type": "swap", "seat": 1, "with": 2}',
        '{"type": "challenge", "seat": 1, "guilty": false}',
        '{"type": "reveal", "seat": 1, "cards": ["wild", "blue-reverse"]}',
        '{"type": "amend", "ref": 3, "event": {"type": "play", "card": "red-6", "seat": 0}}',
    ]
    events = [event for _, event in read_record(lines)]
    assert [json.loads(line) for line in write_record(events)] == [json.loads(line) for line in lines]


def test_a_live_event_that_cannot_stand_is_refused_and_changes_nothing() -> None:
    referee = Referee([event_from_json(json.loads(line)) for line in (GAME, DEAL, FLIP)])
    referee.push(Play(card=Card.from_name("red-9")))
    before = referee.state
    with pytest.raises(RecordError, match="seat 5"):
        referee.push(Uno(seat=5))
    with pytest.raises(RecordError, match="later line"):
        referee.push(event_from_json({"type": "retract", "ref": 10}))
    assert referee.state == before
    assert len(referee.record) == 4
    referee.push(Draw(seat=1))
    assert referee.state.hands == (6, 8, 7)


def test_an_unreadable_first_card_confirmed_as_the_flip_opens_the_round() -> None:
    unsure = '{"type": "unsure", "guesses": [["red-5", 0.4]]}'
    confirmed = '{"type": "amend", "ref": 2, "event": {"type": "flip", "card": "red-5"}}'
    play = '{"type": "play", "card": "red-9", "seat": 0}'
    assert "before the round's first 'flip'" in str(error_of(GAME, DEAL, unsure, play))
    assert len(read_record([GAME, DEAL, unsure, confirmed, play])) == 5
    old_round = '{"type": "amend", "ref": 2, "event": {"type": "flip", "card": "red-5"}}'
    assert "line 6" in str(error_of(GAME, DEAL, FLIP, DEAL, old_round, play))


@pytest.mark.parametrize(
    ("lines", "code"),
    [
        ((GAME, DEAL, '{"type": "play", "card": "purple-9"}'), RecordCode.MALFORMED),
        ((GAME, DEAL, "{"), RecordCode.MALFORMED),
        ((DEAL, GAME), RecordCode.NO_GAME),
        ((GAME, DEAL, '{"type": "draw", "seat": 0}'), RecordCode.ROUND_NOT_OPEN),
        ((GAME, DEAL, FLIP, '{"type": "uno", "seat": 3}'), RecordCode.NO_SUCH_SEAT),
        ((GAME, DEAL, FLIP, '{"type": "amend", "ref": 2, "event": {"type": "uno", "seat": 3}}'),
         RecordCode.NO_SUCH_SEAT),
        ((GAME, DEAL, FLIP, '{"type": "retract", "ref": 7}'), RecordCode.BAD_CORRECTION),
    ],
)
def test_a_bad_line_carries_a_code_for_code_to_act_on(lines: tuple[str, ...], code: RecordCode) -> None:
    assert error_of(*lines).code is code


@pytest.mark.parametrize("rules", [
    {"preset": "party", "hand_size": 5},
    {"hand_size": 5},
    {"target": 300, "preset": "eastern", "stacking": "off"},
    {},
])
def test_rules_are_written_back_exactly_as_they_were_written(rules: dict[str, object]) -> None:
    line = json.dumps({"type": "game", "players": ["Ann", "Bo"], "rules": rules})
    assert list(write_record(event for _, event in read_record([line]))) == [line]


def test_a_game_line_without_rules_is_written_with_the_official_preset() -> None:
    game = event_from_json({"type": "game", "players": ["Ann", "Bo"]})
    assert game.to_json() == {"type": "game", "players": ["Ann", "Bo"], "rules": {"preset": "official"}}


def test_rules_are_a_value_parsed_once_into_their_options() -> None:
    rules = Rules.parse({"preset": "party", "stacking": "pass-on"})
    assert rules == Rules.parse({"preset": "party", "stacking": "pass-on"})
    assert hash(rules) == hash(Rules.parse({"preset": "party", "stacking": "pass-on"}))
    assert rules.preset is Preset.PARTY
    assert rules.options.stacking is Stacking.PASS_ON and rules.options.jump_in
    assert Rules.parse({}).options == Rules().options and Rules.parse({}) != Rules()
    assert len({Game(players=("Ann", "Bo"), rules=rules), Game(players=("Ann", "Bo"), rules=rules)}) == 1
    with pytest.raises(ValueError, match="one of off, pass-on"):
        Rules((("stacking", "always"),))  # type: ignore[arg-type]  # made directly, still checked
