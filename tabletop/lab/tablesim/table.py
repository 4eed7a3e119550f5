"""A whole simulated table: a game from the game simulator, laid out around a table and filmed from above."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from tabletop.game.events import Deal, Event
from tabletop.game.rules import OFFICIAL_RULES, Rules
from tabletop.lab.simulate import Mistakes, SimulatedGame, simulate_game
from tabletop.lab.tablesim.film import Look
from tabletop.lab.tablesim.script import Pace, Script, Scripter, Tidiness
from tabletop.lab.tablesim.video import TableVideo
from tabletop.watcher.layout import Circle, Layout, Rect

FRAME_SIZE = (640, 480)
CARD_HEIGHT = (42.0, 80.0)
"""How tall a card lies in the 640x480 picture, in pixels, smallest and largest: a Pi's or a webcam's lens from
1.3 m above the table down to 0.7 m."""


@dataclass(frozen=True)
class TableFilm:
    """A simulated game (its truth), the script of it played out at a table, and the film the camera makes."""

    game: SimulatedGame
    script: Script
    video: TableVideo

    @property
    def layout(self) -> Layout:
        """The layout as the camera sees it (the script's is the table's, seen straight down)."""
        return self.video.layout


def simulated_table(seed: int, players: int = 4, rules: Rules | Mapping[str, Any] = OFFICIAL_RULES,
                    table: str | None = None, rounds: int | None = None, mistakes: Mistakes | None = None,
                    pace: Pace | None = None, fps: float = 30.0, tilt: float | None = None,
                    detail: int = 3, faces: Path | None = None, look: Look | None = None,
                    deck: int = 108) -> TableFilm:
    """The same seed always gives the same game, table, light and video; ``rounds`` films only the first few.

    ``table`` names the kind of table (see ``video.TABLES``), ``tilt`` how many degrees the camera is turned
    off straight down, and ``look`` the camera's compression, the lights' flicker, the motion blur, the deck's
    wear, the hands and things at the table (``film.Look``); by default the seed chooses them. ``detail`` films
    each frame's detail with that many times the pixels each way too, as a camera's large stream beside its small
    one. ``faces`` names a folder of photographs of real cards (with its ``labels.csv``) to lay face up instead
    of rendered faces; ``photos.FacesError`` says what is wrong with one that cannot be. How tidy the discard
    pile is draws from a generator of its own, so that it did not change the game each seed scripts. ``deck``
    is 108 or 112 cards (``simulate.simulate_game``).
    """
    game = simulate_game(seed, rules, players=players, mistakes=mistakes or Mistakes(), deck=deck)
    rng = np.random.default_rng(seed)
    events = first_rounds(game.events, rounds) if rounds else game.events
    tidiness = Tidiness.random(np.random.default_rng((seed, 2)))
    script = Scripter(random_layout(rng, players), FRAME_SIZE, rng, pace or Pace(), tidiness).run(events)
    return TableFilm(game, script, TableVideo(script, seed, fps, table, tilt, detail, faces, look))


def first_rounds(events: list[Event], rounds: int) -> list[Event]:
    """The record up to the deal of round ``rounds + 1``."""
    deals = [k for k, event in enumerate(events) if isinstance(event, Deal)]
    return events if len(deals) <= rounds else events[:deals[rounds]]


def random_layout(rng: np.random.Generator, players: int, size: tuple[int, int] = FRAME_SIZE) -> Layout:
    """Piles side by side on one half of the picture, the reveal zone on the other, seats evenly round; cards as
    tall as a camera 70 to 130 cm above the table sees them."""
    width, height = size
    card = float(rng.uniform(*CARD_HEIGHT))
    flip = rng.random() < 0.5
    piles_y = height * (0.73 if flip else 0.27) + float(rng.normal(0, 6))
    middle = width / 2 + float(rng.normal(0, 15))
    order = (-1, 1) if rng.random() < 0.5 else (1, -1)
    draw = Circle((middle + order[0] * card * 0.8, piles_y), card * 0.7)
    discard = Circle((middle + order[1] * card * 0.8, piles_y), card * 0.85)
    top = height * (0.04 if flip else 0.5)
    reveal = Rect(width * 0.12, top, width * 0.88, top + height * 0.46)
    first = float(rng.uniform(0, 360))
    seats = tuple((first + k * 360 / players) % 360 for k in range(players))
    return Layout(discard=discard, draw=draw, reveal=reveal, centre=(width / 2, height / 2), seats=seats,
                  card_height=card, picture=size)
