"""The table simulator's script: when each arm reaches in, from which seat, to where, and what it changes.

A simulated game (tabletop.lab.simulate) says what happened; the script says how it looks over time. Cards are
laid and taken by arms reaching in from the players' edges of the picture; everything a phone or the host
reports (UNO calls, colours, challenges, points) happens between the reaches. Beside the reaches the script
keeps the truth: the whole record with times, and for each thing the camera should see, when the card came
to rest in view.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Literal

import numpy as np

from tabletop.game.cards import Card, full_deck
from tabletop.game.events import Deal, Draw, Event, Flip, Play, Retract, Reveal
from tabletop.lab.drawing import scene
from tabletop.watcher.layout import Circle, Layout, Point, Rect

Zone = Literal["discard", "reveal"]
CAMERA_EVENTS = (Deal, Flip, Play, Draw, Reveal, Retract)
"""What the watcher reports; everything else in a record comes from phones, buttons or the host."""


@dataclass(frozen=True, slots=True)
class Placed:
    """A card lying on the table: where its centre is, how it is turned (radians), and which face shows."""

    card: Card
    centre: Point
    angle: float


@dataclass(frozen=True, slots=True)
class Lay:
    zone: Zone
    cards: tuple[Placed, ...]


@dataclass(frozen=True, slots=True)
class Lift:
    """Cards taken from a zone: the top ``count`` of it, or all when ``count`` is None."""

    zone: Zone
    count: int | None = None


@dataclass(frozen=True, slots=True)
class Reach:
    """One arm going in and out again. The change happens the moment the hand arrives."""

    seat: int
    entry: Point
    target: Point
    start: float
    inward: float
    dwell: float
    outward: float
    width: float
    sleeve: tuple[int, int, int]
    skin: tuple[int, int, int]
    change: Lay | Lift | None = None
    carries_out: bool = False
    leaning: bool = False

    @property
    def arrival(self) -> float:
        return self.start + self.inward

    @property
    def end(self) -> float:
        return self.start + self.inward + self.dwell + self.outward

    def extent(self, t: float) -> float | None:
        """How far in the hand is at ``t``, from 0 (outside the picture) to 1 (at the target); None when away."""
        if not self.start <= t <= self.end:
            return None
        if t < self.arrival:
            return _ease((t - self.start) / self.inward)
        if t <= self.arrival + self.dwell:
            return 1.0
        return _ease(1 - (t - self.arrival - self.dwell) / self.outward)

    @property
    def hand(self) -> float:
        """The hand's length in pixels (wrist to fingertips)."""
        return self.width * 1.9

    def tip(self, t: float) -> Point | None:
        """Where the fingertips are at ``t``: from a hand's length outside the picture's edge to just past the
        target, so that the palm, and the card held under it, arrive over the target."""
        extent = self.extent(t)
        if extent is None:
            return None
        start = _beyond(self.entry, self.target, self.hand)
        goal = _beyond(self.target, self.entry, self.hand * 0.45)
        return start[0] + extent * (goal[0] - start[0]), start[1] + extent * (goal[1] - start[1])


def _ease(x: float) -> float:
    x = min(max(x, 0.0), 1.0)
    return x * x * (3 - 2 * x)


def _beyond(point: Point, away_from: Point, distance: float) -> Point:
    """``point`` moved ``distance`` further along the line from ``away_from`` through it."""
    dx, dy = point[0] - away_from[0], point[1] - away_from[1]
    norm = math.hypot(dx, dy) or 1.0
    return point[0] + dx / norm * distance, point[1] + dy / norm * distance


@dataclass(frozen=True, slots=True)
class Sight:
    """An event the camera should report, when the change happened and when it could first be seen at rest."""

    event: Event
    seat: int
    happened: float
    rest: float


@dataclass(frozen=True, slots=True)
class Timed:
    t: float
    event: Event
    camera: bool


@dataclass
class Script:
    layout: Layout
    frame_size: tuple[int, int]
    reaches: list[Reach] = field(default_factory=list)
    record: list[Timed] = field(default_factory=list)
    sights: list[Sight] = field(default_factory=list)
    duration: float = 0.0
    sleeves: list[tuple[int, int, int]] = field(default_factory=list)
    """Each seat's sleeve colour, BGR: the arm that reaches in and the hand that holds the cards are one player's."""
    skins: list[tuple[int, int, int]] = field(default_factory=list)


@dataclass(frozen=True)
class Pace:
    """How fast the table plays, and how often people do things the watcher must not mistake for a move."""

    take_back: float = 0.03
    hover: float = 0.05
    lean: float = 0.05
    phone_delay: float = 0.6
    dropped: float = 0.0
    """The share of hands laid down to be counted over each other, in rows, each card over the last with an index
    corner showing, rather than card by card apart."""


@dataclass(frozen=True)
class Tidiness:
    """How tidily a table's players lay their cards on the discard pile: how far from its middle a card lands (in
    card heights) and how far it is turned from square to its player (radians). A messy table's pile grows broad
    and ragged, its cards' corners sticking out every way."""

    scatter: float = 0.08
    turn: float = 0.6

    @staticmethod
    def random(rng: np.random.Generator) -> Tidiness:
        return Tidiness(float(rng.uniform(0.06, 0.14)), float(rng.uniform(0.4, 1.5)))


class Scripter:
    """Turns a simulated game's record into reaches, in order, keeping the table's physical piles."""

    def __init__(self, layout: Layout, frame_size: tuple[int, int], rng: np.random.Generator,
                 pace: Pace = Pace(), tidiness: Tidiness = Tidiness()) -> None:
        self.layout, self.rng, self.pace, self.tidiness = layout, rng, pace, tidiness
        self.script = Script(layout, frame_size)
        self.now = 0.5
        self.seen_at = 0.0
        self.pile: list[Placed] = []
        self.pending_deal: Deal | None = None
        self.sleeves = [scene.colour(rng, 20, 230) for _ in layout.seats]
        self.skins = [_skin(rng) for _ in layout.seats]
        self.script.sleeves, self.script.skins = self.sleeves, self.skins

    def run(self, events: list[Event]) -> Script:
        dealer = 0
        for event in events:
            self._distract()
            if isinstance(event, Deal):
                dealer = event.dealer
                self._clear_table(dealer)
                continue
            if isinstance(event, Flip):
                self._flip(dealer, event)
            elif isinstance(event, Play):
                self._play(event)
            elif isinstance(event, Draw):
                self._draw(event)
            elif isinstance(event, Reveal):
                self._reveal(event)
            else:
                self._phone(event)
        self.script.duration = self.now + 1.0
        return self.script

    # --- what the camera sees ----------------------------------------------------------------------------------

    def _clear_table(self, dealer: int) -> None:
        """Before each round the last round's discard pile goes; the first round starts on a clear table."""
        if self.pile:
            self._reach(dealer, self.layout.discard.centre, Lift("discard"))
            self.pile = []
        self.pending_deal = Deal(dealer=dealer)

    def _flip(self, dealer: int, event: Flip) -> None:
        if self.pile:
            self._reach(dealer, self.layout.discard.centre, Lift("discard"))
            self.pile = []
        reach = self._lay_on_pile(dealer, event.card)
        if self.pending_deal is not None:
            self._seen(self.pending_deal, reach, self.layout.discard)
            self.pending_deal = None
        self._seen(event, reach, self.layout.discard)

    def _play(self, event: Play) -> None:
        assert event.seat is not None, "the table simulator needs a game whose plays name their seat"
        if self.rng.random() < self.pace.take_back:
            wrong = full_deck()[int(self.rng.integers(108))]
            ref = len(self.script.record)
            reach = self._lay_on_pile(event.seat, wrong)
            self._seen(Play(card=wrong, seat=event.seat), reach, self.layout.discard)
            self.pile.pop()
            reach = self._reach(event.seat, self.layout.discard.centre, Lift("discard", 1))
            self._seen(Retract(ref=ref), reach, self.layout.discard)
        reach = self._lay_on_pile(event.seat, event.card)
        self._seen(event, reach, self.layout.discard)

    def _draw(self, event: Draw) -> None:
        assert event.seat is not None, "the table simulator needs a game whose draws name their seat"
        for _ in range(event.count):
            reach = self._reach(event.seat, self._near(self.layout.draw.centre, 0.1), None, carries_out=True)
            self._seen(Draw(seat=event.seat), reach, self.layout.draw)

    def _reveal(self, event: Reveal) -> None:
        dropped = self.rng.random() < self.pace.dropped
        places = self._overlapping(len(event.cards)) if dropped else self._spread(len(event.cards))
        laid = tuple(Placed(card, place, self._tilt(0.06)) for card, place in zip(event.cards, places, strict=True))
        box = self.layout.reveal
        middle = ((box.left + box.right) / 2, (box.top + box.bottom) / 2)
        reach = self._reach(event.seat, middle, Lay("reveal", laid), dwell=0.6)
        self._seen(event, reach, _covering(box))
        self.now += self.rng.uniform(0.8, 1.5)
        self._reach(event.seat, middle, Lift("reveal"))

    def _lay_on_pile(self, seat: int, card: Card) -> Reach:
        tidiness = self.tidiness
        placed = Placed(card, self._near(self.layout.discard.centre, tidiness.scatter), self._tilt(tidiness.turn))
        self.pile.append(placed)
        return self._reach(seat, placed.centre, Lay("discard", (placed,)))

    def _seen(self, event: Event, reach: Reach, zone: Circle) -> None:
        rest = _clear_of(reach, zone)
        self.script.record.append(Timed(reach.arrival, event, camera=True))
        self.script.sights.append(Sight(event, reach.seat, reach.arrival, rest))
        self.seen_at = max(self.seen_at, rest)

    # --- what the camera must not mistake for a move -------------------------------------------------------------

    def _distract(self) -> None:
        if self.rng.random() < self.pace.hover:
            seat = int(self.rng.integers(len(self.layout.seats)))
            self._reach(seat, self._near(self.layout.discard.centre, 0.2), None, dwell=self.rng.uniform(0.3, 0.8))
        if self.rng.random() < self.pace.lean:
            seat = int(self.rng.integers(len(self.layout.seats)))
            edge = self._entry(seat)
            inward = (edge[0] + (self.layout.centre[0] - edge[0]) * 0.25,
                      edge[1] + (self.layout.centre[1] - edge[1]) * 0.25)
            self._reach(seat, inward, None, dwell=self.rng.uniform(0.5, 2.0), leaning=True)

    def _phone(self, event: Event) -> None:
        """A phone or host input: after the last thing the camera saw has been reported, before the next reach."""
        self.now = max(self.now, self.seen_at + self.pace.phone_delay)
        self.script.record.append(Timed(self.now, event, camera=False))
        self.now += 0.1

    # --- geometry and timing --------------------------------------------------------------------------------------

    def _reach(self, seat: int, target: Point, change: Lay | Lift | None, dwell: float | None = None,
               carries_out: bool = False, leaning: bool = False) -> Reach:
        start = self.now + self.rng.uniform(0.1, 0.4)
        width = self.layout.card_height * self.rng.uniform(0.55, 0.7) * (1.8 if leaning else 1.0)
        reach = Reach(seat=seat, entry=self._entry(seat), target=target, start=start,
                      inward=self.rng.uniform(0.3, 0.5), dwell=self.rng.uniform(0.12, 0.3) if dwell is None else dwell,
                      outward=self.rng.uniform(0.3, 0.5), width=width, sleeve=self.sleeves[seat], skin=self.skins[seat],
                      change=change, carries_out=carries_out, leaning=leaning)
        self.script.reaches.append(reach)
        self.now = reach.end
        return reach

    def _entry(self, seat: int) -> Point:
        """Where the seat's arm crosses the edge of the picture: the ray from the centre at the seat's angle."""
        width, height = self.script.frame_size
        angle = math.radians(self.layout.seats[seat] + self.rng.normal(0, 4))
        cx, cy = self.layout.centre
        dx, dy = math.cos(angle), math.sin(angle)
        step = min(to_edge(cx, dx, width), to_edge(cy, dy, height))
        return cx + dx * step, cy + dy * step

    def _near(self, point: Point, spread: float) -> Point:
        jitter = self.rng.normal(0, spread * self.layout.card_height, 2)
        return point[0] + float(jitter[0]), point[1] + float(jitter[1])

    def _tilt(self, spread: float) -> float:
        """A card's angle as laid: roughly square to its player, either way up."""
        return float(self.rng.normal(0, spread) + (math.pi if self.rng.random() < 0.5 else 0.0))

    def _spread(self, count: int) -> list[Point]:
        """Places for ``count`` cards laid apart in the reveal zone, row by row, closer together for a big hand
        (past about 18 cards they touch, and the watcher reads them as one)."""
        box, height = self.layout.reveal, self.layout.card_height
        width = height * 56 / 87
        rows_fit = max(1, int((box.bottom - box.top) // (height * 1.15)))
        columns = max(1, int((box.right - box.left) // (width * 1.45)), math.ceil(count / rows_fit))
        rows = max(1, math.ceil(count / columns))
        step_x = (box.right - box.left) / columns
        step_y = (box.bottom - box.top) / max(rows, rows_fit)
        return [(box.left + step_x * (k % columns + 0.5) + float(self.rng.normal(0, 1.5)),
                 box.top + step_y * (k // columns + 0.5) + float(self.rng.normal(0, 1.5))) for k in range(count)]


    def _overlapping(self, count: int) -> list[Point]:
        """Places for ``count`` cards laid over each other in rows across the reveal zone: each card a third of a
        card's width or so right of the last, covering all of it but its left edge, each row half a card below
        the last, covering all of it but its top half."""
        box, height = self.layout.reveal, self.layout.card_height
        width = height * 56 / 87
        step = width * float(self.rng.uniform(0.32, 0.45))
        per_row = max(1, int((box.right - box.left - width) // step) + 1)
        drop = height * float(self.rng.uniform(0.45, 0.6))
        return [(box.left + width / 2 + step * (k % per_row) + float(self.rng.normal(0, 1.0)),
                 box.top + height / 2 + drop * (k // per_row) + float(self.rng.normal(0, 1.0)))
                for k in range(count)]


def to_edge(position: float, direction: float, size: float) -> float:
    """How many steps of ``direction`` take ``position`` to the edge at 0 or ``size``."""
    if direction == 0:
        return math.inf
    return ((size if direction > 0 else 0) - position) / direction


def _skin(rng: np.random.Generator) -> tuple[int, int, int]:
    """A skin tone in BGR, from pale to dark."""
    shade = rng.uniform(0, 1)
    pale, dark = np.array([170, 190, 235]), np.array([45, 70, 110])
    tone = pale + (dark - pale) * shade + rng.normal(0, 8, 3)
    b, g, r = (int(v) for v in np.clip(tone, 0, 255))
    return b, g, r


def _covering(box: Rect) -> Circle:
    """The circle around a rectangle, for deciding when an arm has left it."""
    centre = ((box.left + box.right) / 2, (box.top + box.bottom) / 2)
    return Circle(centre, math.dist(centre, (box.left, box.top)))


def _clear_of(reach: Reach, zone: Circle) -> float:
    """The first moment after the hand arrives at which no part of the arm is over ``zone``."""
    t = reach.arrival + reach.dwell
    while t < reach.end:
        tip = reach.tip(t)
        if tip is None or _distance_to_segment(zone.centre, reach.entry, tip) > zone.radius + reach.width / 2:
            return t
        t += 1 / 240
    return reach.end


def _distance_to_segment(point: Point, a: Point, b: Point) -> float:
    ax, ay = a
    bx, by = b
    length2 = (bx - ax) ** 2 + (by - ay) ** 2
    if length2 == 0:
        return math.dist(point, a)
    s = max(0.0, min(1.0, ((point[0] - ax) * (bx - ax) + (point[1] - ay) * (by - ay)) / length2))
    return math.dist(point, (ax + s * (bx - ax), ay + s * (by - ay)))
