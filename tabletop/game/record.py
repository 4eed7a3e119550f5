"""Reading a game record (JSON Lines), checking it as a whole, and applying its corrections.

A record is a list of entries ``(ref, event)``: ``ref`` is the event's 0-based line, the number verdicts and
corrections use. Lines in files may be blank; the refs of a record read from a file are its line indexes.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterable, Iterator, Sequence

from tabletop.errors import RecordCode, RecordError
from tabletop.game.events import (
    CORRECTIONS,
    Amend,
    Deal,
    Draw,
    Event,
    Flip,
    Game,
    Insert,
    Play,
    Retract,
    event_from_json,
    seat_fields,
)

Entry = tuple[int, Event]
Problem = tuple[RecordCode, str]
"""What kind of problem a line has, and what it is in words."""

NESTED = "not a record's line: nested too deeply"


def read_record(lines: Iterable[str]) -> list[Entry]:
    """The record in ``lines``, checked; RecordError names the first bad line and what is wrong with it."""
    entries = [(index, parse_line(text, index + 1)) for index, text in enumerate(lines) if text.strip()]
    check_record(entries)
    return entries


def parse_line(text: str, line: int) -> Event:
    """The event on one line of a record (``line`` counts from 1, for the message)."""
    try:
        obj = json.loads(text)
    except json.JSONDecodeError as err:
        raise _malformed(f"not valid JSON ({err.msg.removesuffix(' at')} at column {err.colno})", line) from None
    except RecursionError:
        raise _malformed(NESTED, line) from None
    except ValueError as err:  # a number of more digits than Python converts
        raise _malformed(f"not valid JSON ({err})", line) from None
    try:
        return event_from_json(obj)
    except ValueError as err:
        raise _malformed(str(err), line) from None


def _malformed(reason: str, line: int) -> RecordError:
    return RecordError(reason, line, code=RecordCode.MALFORMED)


def check_record(entries: Sequence[Entry]) -> None:
    """Raise RecordError for the first entry that cannot stand where it is in the record."""
    checker = RecordChecker()
    for ref, event in entries:
        checker.accept(ref, event)


class RecordChecker:
    """Walks a record once, remembering what the cross-line checks need."""

    def __init__(self) -> None:
        self.players = 0
        self.flipped = False
        self.dealt = 0
        self.events: dict[int, Event] = {}

    def accept(self, ref: int, event: Event) -> None:
        """Remember ``event`` at line ``ref``; RecordError, and nothing remembered, if it cannot stand there."""
        self.check(ref, event)
        self._remember(ref, event)

    def check(self, ref: int, event: Event) -> None:
        """RecordError if ``event`` cannot stand at line ``ref``; nothing is remembered either way."""
        problem = self._problem(ref, event)
        if problem:
            code, reason = problem
            raise RecordError(reason, ref + 1, code=code)

    def _problem(self, ref: int, event: Event) -> Problem | None:
        if not self.players and not isinstance(event, Game):
            return RecordCode.NO_GAME, "the record must start with a 'game' event"
        if isinstance(event, CORRECTIONS):
            reason = self._correction_problem(ref, event)
            if reason:
                return RecordCode.BAD_CORRECTION, reason
        elif isinstance(event, Play | Draw) and not self.flipped:
            return RecordCode.ROUND_NOT_OPEN, f"a {event.TYPE!r} before the round's first 'flip'"
        reason = seat_problem(event.event if isinstance(event, Amend | Insert) else event, self.players)
        return (RecordCode.NO_SUCH_SEAT, reason) if reason else None

    def _remember(self, ref: int, event: Event) -> None:
        self.events[ref] = event
        if isinstance(event, Game):
            self.players, self.flipped = len(event.players), False
        elif isinstance(event, Deal | Flip):
            self.flipped = isinstance(event, Flip)
            self.dealt = ref if isinstance(event, Deal) else self.dealt
        elif isinstance(event, Amend | Insert) and isinstance(event.event, Flip) and event.ref > self.dealt:
            # The host says what an unreadable (or unseen) first card was: the round is open from then on.
            self.flipped = True

    def _correction_problem(self, ref: int, event: Retract | Amend | Insert) -> str | None:
        if event.ref == ref:
            return "a correction cannot point at itself"
        if event.ref > ref:
            return f"a correction cannot point at a later line ({event.ref})"
        target = self.events.get(event.ref)
        if target is None:
            return f"a correction points at line {event.ref}, which holds no event"
        if isinstance(target, CORRECTIONS):
            return "a correction cannot point at another correction"
        if isinstance(event, Insert):
            return _insert_problem(event, first=event.ref == min(self.events))
        return _game_correction_problem(target, event)


def _insert_problem(insert: Insert, first: bool) -> str | None:
    if isinstance(insert.event, Game):
        return "a 'game' event cannot be inserted: start a new game instead"
    if first:
        return "nothing can be inserted before the record's first line"
    return None


def _game_correction_problem(target: Event, correction: Retract | Amend) -> str | None:
    replacement = correction.event if isinstance(correction, Amend) else None
    if isinstance(target, Game):
        if not isinstance(replacement, Game):
            return "a 'game' event can only be amended into another 'game' event"
        if len(replacement.players) != len(target.players):
            return "an amended 'game' must keep the number of players"
    elif isinstance(replacement, Game):
        return "only a 'game' event can be amended into a 'game' event"
    return None


def seat_problem(event: Event, players: int) -> str | None:
    """What is wrong with the seats ``event`` names at a table of ``players``, if anything."""
    for key, seat in seat_fields(event):
        if seat >= players:
            return f"{key!r} names seat {seat}, but the game has seats 0 to {players - 1}"
    return None


def corrected(entries: Sequence[Entry]) -> list[Entry]:
    """The record as it really happened: retracted events gone, amended ones replaced, inserted ones in place,
    corrections dropped.

    Every event keeps the ref of its own line (an inserted one, its ``insert`` line's), so verdicts point at the
    line a person would fix.
    """
    fate: dict[int, Event | None] = {}
    missed: dict[int, list[Entry]] = {}
    for ref, event in entries:
        if isinstance(event, Retract):
            fate[event.ref] = None
        elif isinstance(event, Amend):
            fate[event.ref] = event.event
        elif isinstance(event, Insert):
            missed.setdefault(event.ref, []).append((ref, event.event))
    if not fate and not missed:
        return [entry for entry in entries if not isinstance(entry[1], CORRECTIONS)]
    out: list[Entry] = []
    for ref, event in entries:
        if isinstance(event, CORRECTIONS):
            continue
        out.extend(missed.get(ref, ()))
        replacement = fate.get(ref, event)
        if replacement is not None:
            out.append((ref, replacement))
    return out


def renumbered(entries: Sequence[Entry]) -> list[Event]:
    """The events of a record read from a file, with corrections pointing at lines counted without blanks."""
    index = {ref: position for position, (ref, _) in enumerate(entries)}
    out: list[Event] = []
    for _, event in entries:
        if isinstance(event, CORRECTIONS):
            event = dataclasses.replace(event, ref=index[event.ref])
        out.append(event)
    return out




def write_record(events: Iterable[Event]) -> Iterator[str]:
    """Each event as one line of JSON, the form read_record reads back."""
    for event in events:
        yield json.dumps(event.to_json())
