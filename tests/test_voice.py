"""Spoken calls: what the table says, in each language, as real speech, and never at the game's expense."""

from __future__ import annotations

import threading
import time
import wave
from pathlib import Path

import numpy as np
import pytest
from babel.messages.pofile import read_po

from tabletop.game.cards import Card
from tabletop.game.events import Catch, Deal, Draw, Flip, Game, Pass, Play, Uno
from tabletop.game.rules import Rules
from tabletop.languages import LANGUAGES, LOCALES, translations
from tabletop.table import Table
from tabletop.voice import Voice, calls, render

PLAYERS = ("Ann", "Bo", "Cy")


def two_cards_each() -> list:
    """Ann lays her second-to-last card and does not call; Bo catches her."""
    return [Game(players=PLAYERS, rules=Rules.parse({"preset": "official", "hand_size": 2})), Deal(dealer=2),
            Flip(card=Card.from_name("red-5")), Play(card=Card.from_name("red-9"), seat=0)]


class HeldSpeech:
    """A sentence that goes on being spoken until it is let go or cut off: what a slow speaker looks like."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.done = threading.Event()
        self.cut_off = False

    def poll(self) -> int | None:
        return 0 if self.done.is_set() else None

    def wait(self) -> int:
        self.done.wait()
        return 0

    def terminate(self) -> None:
        self.cut_off = True
        self.done.set()


class HeldSpeaker:
    def __init__(self) -> None:
        self.started: list[HeldSpeech] = []
        self.new = threading.Semaphore(0)

    def __call__(self, text: str, language: str) -> HeldSpeech:
        speech = HeldSpeech(text)
        self.started.append(speech)
        self.new.release()
        return speech


def test_the_game_goes_on_while_the_table_speaks_and_a_new_call_cuts_off_a_stale_one() -> None:
    speaker = HeldSpeaker()
    voice = Voice("en", speaker=speaker)
    with Table(events=two_cards_each()) as table:
        table.subscribe(voice.follow)
        table.submit(Catch(seat=1, target=0))
        assert speaker.new.acquire(timeout=5)
        first = speaker.started[0]
        assert first.text == "Ann did not call UNO: draws 2 cards"
        assert first.poll() is None, "the call is still being spoken"
        table.submit(Draw(seat=1))  # the table takes more events while the call goes on
        table.submit(Pass(seat=1))
        assert first.poll() is None
        table.submit(Uno(seat=2))  # Cy, on two cards and in turn: a call to say
        assert speaker.new.acquire(timeout=5)
        assert first.cut_off, "a new call cuts off the stale one"
        assert speaker.started[-1].text == "Cy: UNO!"
    speaker.started[-1].done.set()
    voice.close()


def test_a_record_brought_back_is_not_spoken_again_only_what_happens_next() -> None:
    """A game resumed after a restart, or a record imported, holds calls made long ago: the table does not say them
    again; the next call made at the table is said."""
    speaker = HeldSpeaker()
    voice = Voice("en", speaker=speaker)
    called_before = [*two_cards_each()[:3], Uno(seat=0), Play(card=Card.from_name("red-9"), seat=0), Draw(seat=1),
                     Pass(seat=1)]
    with Table(events=[Game(players=PLAYERS)]) as table:
        table.subscribe(voice.follow)
        assert table.restart(called_before).events == ()
        assert table.submit(Uno(seat=2)).snapshot.events == (Uno(seat=2, t=table.snapshot.record[-1].t),)
        assert speaker.new.acquire(timeout=5)
    assert [speech.text for speech in speaker.started] == ["Cy: UNO!"]
    speaker.started[-1].done.set()
    voice.close()


def test_calls_name_the_player_and_what_they_did() -> None:
    table = Table(events=[*two_cards_each(), Catch(seat=1, target=0)])
    snapshot = table.snapshot
    said = calls(snapshot.verdicts, [Uno(seat=1)], PLAYERS, translations("en"))
    assert said == ["Bo: UNO!", "Ann did not call UNO: draws 2 cards"]


@pytest.mark.parametrize(("language", "words"), [("en", "deal them out again"), ("sv", "dela ut"),
                                                  ("ru", "раздайте")])
def test_a_wild_shuffle_hands_tells_the_table_to_shuffle_and_deal_from_the_players_left(language: str,
                                                                                      words: str) -> None:
    said = calls([], [Play(card=Card.from_name("wild-shuffle-hands"), seat=1)], PLAYERS, translations(language))
    assert len(said) == 1 and words in said[0]
    assert calls([], [Play(card=Card.from_name("wild-swap-hands"), seat=1)], PLAYERS, translations(language)) == []


@pytest.mark.parametrize("language", list(LANGUAGES))
def test_plural_forms_follow_the_language(language: str) -> None:
    """1, 2, 5 and 21 cards: Russian takes three forms (21 the form of 1), the others two (Bulgarian too, as
    CLDR and gettext have it); each count gets its own form's words."""
    text = translations(language)
    forms = {0: "draws {n} card", 1: "draws {n} cards"}
    if language != "en":
        with (LOCALES / language / "LC_MESSAGES" / "messages.po").open("rb") as file:
            forms = dict(enumerate(read_po(file)["draws {n} card"].string))
    chosen = [getattr(text, "plural", lambda n: int(n != 1))(n) for n in (1, 2, 5, 21)]
    assert chosen == ([0, 1, 2, 0] if language == "ru" else [0, 1, 1, 1])
    for n, form in zip((1, 2, 5, 21), chosen, strict=True):
        assert text.ngettext("draws {n} card", "draws {n} cards", n).format(n=n) == forms[form].format(n=n)


@pytest.mark.speech
@pytest.mark.parametrize("language", list(LANGUAGES))
def test_each_call_is_spoken_in_each_language(language: str, tmp_path: Path) -> None:
    """Rendered by espeak-ng to a WAV file: long enough to be the sentence, and loud, not silence."""
    table = Table(events=[*two_cards_each(), Catch(seat=1, target=0)])
    said = calls(table.snapshot.verdicts, [Uno(seat=2)], PLAYERS, translations(language))
    assert len(said) == 2
    for number, sentence in enumerate(said):
        wav = tmp_path / f"{language}-{number}.wav"
        render(sentence, language, str(wav))
        with wave.open(str(wav)) as sound:
            rate, frames = sound.getframerate(), sound.readframes(sound.getnframes())
        samples = np.frombuffer(frames, np.int16).astype(np.float64)
        seconds = len(samples) / rate
        assert 0.6 < seconds < 10, (sentence, seconds)
        loud = np.sqrt(np.mean(samples ** 2))
        assert loud > 1000, (sentence, loud)
        voiced = np.mean(np.abs(samples) > 500)
        assert voiced > 0.3, (sentence, voiced)


def test_a_table_without_espeak_ng_says_so_once_and_plays_on() -> None:
    said: list[str] = []

    def absent(text: str, language: str) -> HeldSpeech:
        raise FileNotFoundError(2, "No such file or directory", "espeak-ng")

    voice = Voice("sv", speaker=absent, report=said.append)
    with Table(events=two_cards_each()) as table:
        table.subscribe(voice.follow)
        for seat in (0, 1, 2, 0):
            table.submit(Uno(seat=seat))
            deadline = time.monotonic() + 5
            while not said and time.monotonic() < deadline:  # the voice's own thread tries, and fails
                time.sleep(0.01)
        assert len(table.snapshot.record) == 8
    voice.close()
    assert len(said) == 1 and "cannot speak" in said[0] and "tabletop doctor" in said[0]
