"""What the scoreboard shows, derived from the record, the verdicts and the state, in words a table understands.

Pure like the referee: the web pages, the terminal and the panel all show the same view of one snapshot.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tabletop.game.cards import Card
from tabletop.game.events import (
    Amend,
    Catch,
    Challenge,
    Color,
    Deal,
    Draw,
    End,
    Event,
    Flip,
    Game,
    GameEnd,
    Insert,
    Notice,
    NoticeReason,
    Pass,
    Penalty,
    PenaltyReason,
    Play,
    Points,
    Retract,
    Reveal,
    Score,
    State,
    Swap,
    Uno,
    Unsure,
    Verdict,
)
from tabletop.game.record import corrected

RECENT = 60
"""Lines of the record the board's view carries: enough to correct what just happened, small enough to send to
every phone after every event. The host page fetches the whole record when asked."""

REASONS: dict[PenaltyReason, str] = {
    PenaltyReason.MISSED_UNO: "did not call UNO",
    PenaltyReason.FALSE_UNO: "called UNO without one card left",
    PenaltyReason.ILLEGAL_WILD_DRAW_FOUR: "played a Wild Draw Four while holding the active colour",
    PenaltyReason.CHALLENGE_LOST: "lost a Wild Draw Four challenge",
    PenaltyReason.ILLEGAL_PLAY: "played a card that does not match",
    PenaltyReason.OUT_OF_TURN: "played out of turn",
}
assert set(REASONS) == set(PenaltyReason)


def board_view(record: Sequence[Event], verdicts: Sequence[Verdict], state: State | None,
               latest: Sequence[Verdict] = ()) -> dict[str, Any]:
    """The board's whole picture as one JSON object; ``latest`` are the verdicts to sound and flash now."""
    if state is None or not record or not isinstance(record[0], Game):
        return {"game": False, "players": [], "penalties": [], "alerts": [], "rounds": [], "unsure": [],
                "unseen_draws": [], "record": []}
    players = record[0].players
    view: dict[str, Any] = {"game": True, "players": list(players), **state.to_json()}
    del view["type"]
    view.update(
        uno=[seat for seat, size in enumerate(state.hands) if size == 1],
        choosing_color=choosing_color(record, state),
        penalties=[penalty_json(v, players) for v in verdicts if isinstance(v, Penalty)],
        alerts=[penalty_json(v, players) for v in latest if isinstance(v, Penalty)],
        rounds=[{"round": v.round, "winner": v.winner, "name": players[v.winner], "points": v.points,
                 "totals": list(v.totals)} for v in verdicts if isinstance(v, Score)],
        winner=next((v.winner for v in verdicts if isinstance(v, GameEnd)), None),
        unsure=unsure_readings(record),
        unseen_draws=unseen_draws(record, verdicts),
        top_line=top_line(record),
        record=record_lines(record, players, len(record) - RECENT),
        lines=len(record),
        next_dealer=next_dealer(record),
    )
    return view


def record_lines(record: Sequence[Event], players: Sequence[str], start: int = 0) -> list[dict[str, Any]]:
    """The record from line ``start`` on, each line with its ref, what it says in words, and how sure the camera
    was of a card it read there (its picture is at /api/pictures/<ref>)."""
    first = max(0, start)
    return [{"ref": ref, "event": event.to_json(), "text": describe(event, players), **seen(event)}
            for ref, event in enumerate(record[first:], first)]


def seen(event: Event) -> dict[str, Any]:
    return {} if event.evidence is None else {"seen": event.evidence.to_json()}


def top_line(record: Sequence[Event]) -> dict[str, Any] | None:
    """The line that laid the card on top, with what the camera saw of it: tap the top card to check it."""
    for ref, event in reversed(corrected(list(enumerate(record)))):
        if isinstance(event, Deal):
            return None
        if isinstance(event, Play | Flip):
            return {"ref": ref, "card": event.card.name, **seen(record[ref])}
    return None


def next_dealer(record: Sequence[Event]) -> int:
    """The seat after the last dealer: the deal passes round the table (seat 0 deals first)."""
    players = len(record[0].players) if record and isinstance(record[0], Game) else 1
    dealers = [event.dealer for event in _standing(record) if isinstance(event, Deal)]
    return (dealers[-1] + 1) % players if dealers else 0


def penalty_json(penalty: Penalty, players: Sequence[str]) -> dict[str, Any]:
    name = players[penalty.seat]
    why = REASONS[penalty.reason]
    owes = f"draws {penalty.cards}" if penalty.cards else "a warning"
    return {**penalty.to_json(), "name": name, "text": f"{name} {why}: {owes}"}


def choosing_color(record: Sequence[Event], state: State) -> int | None:
    """The seat that still has to name a colour for the wild on top, or None.

    The colour of a wild is named after it lands; until then the active colour is null. The first player names
    it for a flipped wild.
    """
    if state.top is None or not state.top.is_wild or state.color is not None or state.turn is None:
        return None
    for event in reversed(_standing(record)):
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


def _standing(record: Sequence[Event]) -> list[Event]:
    """The record with its corrections applied (a retracted play is not the wild on top)."""
    return [event for _, event in corrected(list(enumerate(record)))]


def describe(event: Event, players: Sequence[str]) -> str:
    """One line a person reads in the host's list of events, in words, as they would say it at the table."""
    def name(seat: int | None) -> str:
        return "The player to play" if seat is None else players[seat]

    match event:
        case Game():
            return f"New game: {', '.join(event.players)} ({event.rules.preset} rules)"
        case Deal():
            return f"{players[event.dealer]} dealt"
        case Flip():
            return f"Flipped {card_words(event.card)}"
        case Play():
            return f"{name(event.seat)} played {card_words(event.card)}"
        case Color():
            return f"{name(event.seat)} named {event.color}"
        case Unsure():
            guesses = ", ".join(f"{card_words(card)} {p:.0%}" for card, p in event.guesses[:3])
            return f"A card from {name(event.seat)} the camera could not read surely ({guesses})"
        case Draw():
            count = event.count or 1
            return f"{name(event.seat)} drew {count} card{'s' if count != 1 else ''}"
        case Pass():
            return f"{name(event.seat)} passed"
        case Uno():
            return f"{name(event.seat)} called UNO"
        case Catch():
            return f"{name(event.seat)} caught {players[event.target]} without UNO"
        case Challenge():
            outcome = "" if event.guilty is None else ": guilty" if event.guilty else ": not guilty"
            return f"{name(event.seat)} challenged the wild draw four{outcome}"
        case Reveal():
            return f"{name(event.seat)} showed {', '.join(card_words(card) for card in event.cards) or 'no cards'}"
        case Points():
            return f"{name(event.seat)}'s hand scored {event.points} points"
        case Swap():
            return f"{name(event.seat)} swapped hands with {players[event.with_]}"
        case End():
            return f"Round over: {name(event.seat)} went out"
        case Retract():
            return f"Undo #{event.ref}"
        case Amend():
            return f"#{event.ref} was really: {describe(event.event, players)}"
        case Insert():
            return f"Missed before #{event.ref}: {describe(event.event, players)}"
    return event.TYPE


def card_words(card: Card) -> str:
    """A card as people say it: "red 9", "green draw two", "wild draw four"."""
    return card.name.replace("-", " ")
