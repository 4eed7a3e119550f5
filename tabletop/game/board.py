"""What the scoreboard shows, derived from the record, the verdicts and the state, in words a table understands.

Pure like the referee: the web pages, the terminal and the panel all show the same view of one snapshot.
"""

from __future__ import annotations

from collections.abc import Sequence
from gettext import NullTranslations
from typing import Any

from tabletop.game.events import (
    Amend,
    Deal,
    Event,
    Flip,
    Game,
    GameEnd,
    Notice,
    NoticeReason,
    Penalty,
    PenaltyReason,
    Play,
    Retract,
    Score,
    State,
    Unsure,
    Verdict,
)
from tabletop.game.record import Entry, corrected

RECENT = 60
"""Lines of the record the board's view carries: enough to correct what just happened, small enough to send to
every phone after every event. The host page fetches the whole record when asked."""

ENGLISH = NullTranslations()
"""The messages as written: English."""


def board_view(record: Sequence[Event], verdicts: Sequence[Verdict], state: State | None,
               latest: Sequence[Verdict] = ()) -> dict[str, Any]:
    """The board's whole picture as one JSON object; ``latest`` are the verdicts to sound and flash now."""
    if state is None or not record or not isinstance(record[0], Game):
        return {"game": False, "players": [], "penalties": [], "alerts": [], "rounds": [], "unsure": [],
                "unseen_draws": [], "record": []}
    players = record[0].players
    standing = corrected(list(enumerate(record)))
    view: dict[str, Any] = {"game": True, "players": list(players), **state.to_json()}
    del view["type"]
    view.update(
        uno=[seat for seat, size in enumerate(state.hands) if size == 1],
        choosing_color=choosing_color(standing, state),
        penalties=[v.to_json() for v in verdicts if isinstance(v, Penalty)],
        alerts=[v.to_json() for v in latest if isinstance(v, Penalty)],
        rounds=[{"round": v.round, "winner": v.winner, "name": players[v.winner], "points": v.points,
                 "totals": list(v.totals)} for v in verdicts if isinstance(v, Score)],
        winner=next((v.winner for v in verdicts if isinstance(v, GameEnd)), None),
        unsure=unsure_readings(record),
        unseen_draws=unseen_draws(record, verdicts),
        top_line=top_line(record, standing),
        record=record_lines(record, len(record) - RECENT),
        lines=len(record),
        next_dealer=next_dealer(standing, len(players)),
    )
    return view


def record_lines(record: Sequence[Event], start: int = 0) -> list[dict[str, Any]]:
    """The record from line ``start`` on, each line with its ref and how sure the camera was of a card it read
    there (its picture is at /api/pictures/<ref>). The pages put each line in words, in their own language."""
    first = max(0, start)
    return [{"ref": ref, "event": event.to_json(), **seen(event)} for ref, event in enumerate(record[first:], first)]


def seen(event: Event) -> dict[str, Any]:
    return {} if event.evidence is None else {"seen": event.evidence.to_json()}


def top_line(record: Sequence[Event], standing: Sequence[Entry]) -> dict[str, Any] | None:
    """The line that laid the card on top, with what the camera saw of it: tap the top card to check it.

    ``standing`` is the record with its corrections applied; the picture stays with the line as it was read.
    """
    for ref, event in reversed(standing):
        if isinstance(event, Deal):
            return None
        if isinstance(event, Play | Flip):
            return {"ref": ref, "card": event.card.name, **seen(record[ref])}
    return None


def next_dealer(standing: Sequence[Entry], players: int) -> int:
    """The seat after the last dealer: the deal passes round the table (seat 0 deals first)."""
    dealers = [event.dealer for _, event in standing if isinstance(event, Deal)]
    return (dealers[-1] + 1) % players if dealers else 0


def penalty_words(penalty: Penalty, players: Sequence[str], text: NullTranslations = ENGLISH) -> str:
    """A penalty in words, as the terminal announces it and the voice says it in the table's language (the
    pages write the same messages in their scripts, in the phone's)."""
    _, name = text.gettext, players[penalty.seat]
    why = {
        PenaltyReason.MISSED_UNO: _("{name} did not call UNO"),
        PenaltyReason.FALSE_UNO: _("{name} called UNO without one card left"),
        PenaltyReason.ILLEGAL_WILD_DRAW_FOUR: _("{name} played a Wild Draw Four while holding the active colour"),
        PenaltyReason.CHALLENGE_LOST: _("{name} lost a Wild Draw Four challenge"),
        PenaltyReason.ILLEGAL_PLAY: _("{name} played a card that does not match"),
        PenaltyReason.OUT_OF_TURN: _("{name} played out of turn"),
    }[penalty.reason].format(name=name)
    owes = (text.ngettext("draws {n} card", "draws {n} cards", penalty.cards).format(n=penalty.cards)
            if penalty.cards else _("a warning"))
    return _("{why}: {owes}").format(why=why, owes=owes)


def choosing_color(standing: Sequence[Entry], state: State) -> int | None:
    """The seat that still has to name a colour for the wild on top, or None.

    The colour of a wild is named after it lands; until then the active colour is null. The first player names
    it for a flipped wild.
    """
    if state.top is None or not state.top.is_wild or state.color is not None or state.turn is None:
        return None
    for _, event in reversed(standing):
        if isinstance(event, Play) and event.card.is_wild:
            return event.seat
        if isinstance(event, Flip):
            return state.turn
    return None


def unsure_readings(record: Sequence[Event]) -> list[dict[str, Any]]:
    """The cards the camera could not read that nobody has confirmed or struck out yet, oldest first.

    A reading is settled by a correction pointing at it, or once a later card lands on the pile. ``flip`` marks
    the first card of a round: confirming it turns it into the round's ``flip``, not a play.
    """
    settled = {event.ref for event in record if isinstance(event, Retract | Amend)}
    pending: list[dict[str, Any]] = []
    flipped = True
    for ref, event in enumerate(record):
        if isinstance(event, Play | Flip | Game):
            pending, flipped = [], not isinstance(event, Game)
        elif isinstance(event, Deal):
            flipped = False
        elif isinstance(event, Unsure) and ref not in settled:
            pending.append({"ref": ref, "seat": event.seat, "flip": not flipped,
                            "guesses": [[card.name, round(p, 3)] for card, p in event.guesses], **seen(event)})
    return pending


def unseen_draws(record: Sequence[Event], verdicts: Sequence[Verdict]) -> list[dict[str, Any]]:
    """This round's turns that ended without a draw the table saw, oldest first: each hand stays unknown until
    the host puts the missed draw in, with an ``insert`` before line ``ref``."""
    start = max((ref for ref, event in enumerate(record) if isinstance(event, Deal)), default=0)
    return [{"ref": v.ref, "seat": v.seat} for v in verdicts
            if isinstance(v, Notice) and v.reason is NoticeReason.UNSEEN_DRAW and v.ref > start]
