"""The game log under a flood of events, each with a camera picture: prints how many were acknowledged (their
``append`` returned) after each one, until it is stopped."""

import sys
from pathlib import Path

from tabletop.game.cards import Card
from tabletop.game.events import Deal, Evidence, Flip, Game, Play
from tabletop.store import GameStore

store = GameStore(Path(sys.argv[1]), report=print)
store.restart([Game(players=("Ann", "Bo", "Cy")), Deal(dealer=0), Flip(card=Card.from_name("red-5"))])
picture = bytes(range(256)) * 12
line = 3
while True:
    store.append(Play(card=Card.from_name("red-9"), seat=line % 3,
                      evidence=Evidence(picture, 0.9 + line % 10 / 100)))
    line += 1
    print(line, flush=True)
