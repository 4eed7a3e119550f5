"""Spoken calls: the table says what happened, in its own language, through espeak-ng and a small speaker.

"Bo: UNO!", "Ann did not call UNO: draws 2 cards", "Cy played out of turn", the round's winner and points.
Speech runs on the voice's own thread, so the game's thread only hands over a sentence; a new call cuts off
one still being spoken, as a stale call only gets in the way. The buzzer stays: the voice says what it means.
"""

from __future__ import annotations

import shutil
import subprocess
import threading
from collections.abc import Callable, Sequence
from gettext import NullTranslations
from typing import Protocol

from tabletop.game.board import penalty_words
from tabletop.game.cards import Rank
from tabletop.game.events import Event, GameEnd, Penalty, Play, RoundEnd, Score, Uno, Verdict
from tabletop.languages import translations
from tabletop.reporting import Report
from tabletop.table import Snapshot

PROGRAM = "espeak-ng"
VOICES = {"en": "en", "sv": "sv", "da": "da", "bg": "bg", "ru": "ru"}
"""espeak-ng's voice for each language the table speaks."""
SPEED = 150
"""Words a minute: a little slower than espeak-ng's own, for a noisy table."""


class Speech(Protocol):
    """A sentence being spoken: it can be waited for, and cut off."""

    def wait(self) -> int: ...

    def terminate(self) -> None: ...


Speaker = Callable[[str, str], Speech]
"""Starts saying a sentence in a language (one of VOICES) and returns at once."""


def espeak(text: str, language: str) -> Speech:
    """Say ``text`` through espeak-ng on the default sound output."""
    return subprocess.Popen([PROGRAM, "-v", VOICES[language], "-s", str(SPEED), "--", text],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def render(text: str, language: str, wav: str) -> None:
    """Write ``text`` spoken in ``language`` to the WAV file ``wav`` instead of the speaker (tests, benchmarks)."""
    subprocess.run([PROGRAM, "-v", VOICES[language], "-s", str(SPEED), "-w", wav, "--", text], check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=30)


def missing() -> str | None:
    """What stops the table from speaking, or None: the doctor says it."""
    return None if shutil.which(PROGRAM) else f"{PROGRAM} is not installed (sudo apt install {PROGRAM})"


class Voice:
    """Speaks the calls of each new snapshot in ``language``; ``follow`` is the table's listener."""

    def __init__(self, language: str, speaker: Speaker = espeak, report: Report = print) -> None:
        self.language, self._speaker, self._report = language, speaker, report
        self._text = translations(language)
        self._next: str | None = None
        self._speaking: Speech | None = None
        self._closed = False
        self._changed = threading.Condition()
        self._reported = False
        self._thread = threading.Thread(target=self._run, name="voice", daemon=True)
        self._thread.start()

    def follow(self, snapshot: Snapshot) -> None:
        """Say what the snapshot brings; called on the table's thread, so it only hands the sentence over."""
        sentence = " ".join(calls(snapshot.latest, snapshot.events, snapshot.players, self._text))
        if sentence:
            self.say(sentence)

    def say(self, sentence: str) -> None:
        """Speak ``sentence`` as soon as may be, cutting off whatever is being said; never waits."""
        with self._changed:
            self._next = sentence
            if self._speaking is not None:
                self._speaking.terminate()
            self._changed.notify()

    def close(self) -> None:
        with self._changed:
            self._closed = True
            if self._speaking is not None:
                self._speaking.terminate()
            self._changed.notify()
        self._thread.join(timeout=5)

    def _run(self) -> None:
        while True:
            with self._changed:
                self._changed.wait_for(lambda: self._next is not None or self._closed)
                if self._closed:
                    return
                sentence, self._next = self._next, None
                assert sentence is not None
                try:
                    self._speaking = self._speaker(sentence, self.language)
                except OSError as err:
                    if not self._reported:  # once: a missing espeak-ng is missing all evening
                        self._report(f"voice: cannot speak ({err}); `tabletop doctor` says how to fix it")
                        self._reported = True
                    continue
                speaking = self._speaking
            speaking.wait()
            with self._changed:
                if self._speaking is speaking:
                    self._speaking = None


def calls(verdicts: Sequence[Verdict], new: Sequence[Event], players: Sequence[str],
          text: NullTranslations) -> list[str]:
    """What the table says about a change: UNO calls, penalties, and the end of a round or the game."""
    _, ngettext = text.gettext, text.ngettext
    said = [_("{name}: UNO!").format(name=players[event.seat]) for event in new if isinstance(event, Uno)]
    if any(isinstance(event, Play) and event.card.rank == Rank.WILD_SHUFFLE_HANDS for event in new):
        said.append(_("Shuffle every hand together and deal them out again, one card at a time, "
                      "from the player's left."))
    for verdict in verdicts:
        if isinstance(verdict, Penalty):
            said.append(penalty_words(verdict, players, text))
        elif isinstance(verdict, Score):
            said.append(ngettext("{name} went out: {n} point", "{name} went out: {n} points", verdict.points)
                        .format(name=players[verdict.winner], n=verdict.points))
        elif isinstance(verdict, GameEnd):
            said.append(_("{name} wins the game!").format(name=players[verdict.winner]))
        elif isinstance(verdict, RoundEnd):
            said.append(_("{name} went out.").format(name=players[verdict.winner]))
    return said

