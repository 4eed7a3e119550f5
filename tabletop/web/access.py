"""Who may do what: the host by PIN, each player by the token their phone got when it claimed their seat.

A seat belongs to the last phone that claimed it with a join code, and only within one game: a claim with a
new code from the host, or a new game, makes the old token stale. The host's phone trades the PIN for a host
pass once, and shows the pass from then on: wrong PINs from its address (a guest's guesses, or the host's own
typos) never shut out a host who is in. Tokens and passes live in memory; after a restart the host gives the
PIN again and players scan a new code from the table (or the host) again.
"""

from __future__ import annotations

import hmac
import secrets
import threading
import time
from collections import OrderedDict, deque
from collections.abc import Callable

GUESSES = 5
"""Wrong PINs a phone may send in a row before it must wait."""
WAIT_S = 60.0
"""How long a phone that sent ``GUESSES`` wrong PINs is refused: four digits would take days to try."""
ADDRESS_GUESSES = 30
"""Wrong PINs one address may send in ``ADDRESS_WINDOW_S``, over all its browsers, before every one of them waits."""
ADDRESS_WINDOW_S = 3600.0


def same_secret(given: str, held: str) -> bool:
    """Compare in constant time, so that no secret (the PIN, a pass, a token, a join code) can be guessed a
    character at a time from response times; any text, ASCII or not, is compared as its UTF-8 bytes."""
    return hmac.compare_digest(given.encode(), held.encode())


class Seats:
    """Every seat's join code and the token of the phone that claimed it, for the game numbered ``game``.

    A seat is claimed by invitation: with its join code, which only the table shows (the join screen, for a
    seat nobody holds yet) or the host gives (for any seat: the way to take a seat over). A code is spent by
    the claim, so a code seen over a shoulder after the player scanned it opens nothing.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._game = 0
        self._tokens: dict[int, str] = {}
        self._codes: dict[int, str] = {}
        self._invites: dict[int, str] = {}

    def code(self, seat: int, game: int) -> str | None:
        """The code the table shows for ``seat``; None once a phone holds it (the host may give a new one)."""
        with self._lock:
            self._forget_other_games(game)
            if seat in self._tokens:
                return None
            return self._codes.setdefault(seat, secrets.token_urlsafe(9))

    def invite(self, seat: int, game: int) -> str:
        """A new code for ``seat`` from the host (replacing the host's last one for it, not the table's); whoever
        claims with it takes the seat, held or not."""
        code = secrets.token_urlsafe(9)
        with self._lock:
            self._forget_other_games(game)
            self._invites[seat] = code
        return code

    def claim(self, seat: int, game: int, code: str) -> str | None:
        """A fresh token for ``seat`` if ``code`` is its code, which is then spent; any earlier token for the
        seat stops working. None for a wrong or spent code."""
        token = secrets.token_urlsafe(18)
        with self._lock:
            self._forget_other_games(game)
            held = (self._codes.get(seat), self._invites.get(seat))
            if not any(same_secret(code, valid) for valid in held if valid is not None):
                return None
            self._codes.pop(seat, None)
            self._invites.pop(seat, None)
            self._tokens[seat] = token
        return token

    def seat_of(self, token: str, game: int) -> int | None:
        """The seat ``token`` holds in this game, or None for a stale or unknown token."""
        with self._lock:
            self._forget_other_games(game)
            return next((seat for seat, held in self._tokens.items() if same_secret(token, held)), None)

    def claimed(self, game: int) -> set[int]:
        with self._lock:
            self._forget_other_games(game)
            return set(self._tokens)

    def _forget_other_games(self, game: int) -> None:
        if game != self._game:
            self._game, self._tokens, self._codes, self._invites = game, {}, {}, {}


PASSES_KEPT = 8
"""Host passes valid at once, the newest kept: the host's phone, a tablet, a laptop, and some to spare."""
TICKET_S = 30.0
"""How long a camera preview ticket may wait to be used: an ``<img>`` asks for its picture at once."""
TICKETS_KEPT = 16


class Passes:
    """Random passes, each valid until ``kept`` newer ones were made or, with ``lasting``, that many seconds.

    ``single_use`` passes go with their first use: the camera preview's address carries one instead of the
    PIN, so an address seen over someone's shoulder, or kept in the browser's history, opens nothing.
    """

    def __init__(self, kept: int, lasting: float | None = None, single_use: bool = False,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self._kept, self._lasting, self._single_use, self._clock = kept, lasting, single_use, clock
        self._lock = threading.Lock()
        self._made: OrderedDict[str, float] = OrderedDict()

    def make(self) -> str:
        made = secrets.token_urlsafe(18)
        with self._lock:
            self._made[made] = self._clock()
            while len(self._made) > self._kept:
                self._made.popitem(last=False)
        return made

    def valid(self, given: str) -> bool:
        """Whether ``given`` is a pass still valid, compared in constant time; a single-use pass is spent."""
        with self._lock:
            found = next((made for made in self._made if same_secret(given, made)), None)
            if found is None:
                return False
            fresh = self._lasting is None or self._clock() - self._made[found] <= self._lasting
            if self._single_use or not fresh:
                del self._made[found]
            return fresh


class PinGuard:
    """Counts wrong PINs, so that nobody at the table can try every PIN from their phone.

    Each browser counts its own (the host page names itself with ``X-Host-Device``, a random name it keeps): a
    guest guessing from the host's address, as on a Wi-Fi behind one router, spends only its own tries, and a
    host not yet signed in is not made to wait for it. A guest who gives every guess a new name still meets the
    address's own count, ``ADDRESS_GUESSES`` an hour, which is what bounds the guessing: a million PINs at that
    pace take years. A request without a name counts with the address's other nameless ones.

    The clock is a seam for tests; the web adapter owns time, the referee never sees it.
    """

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._lock = threading.Lock()
        self._wrong: dict[tuple[str, str], int] = {}
        self._until: dict[tuple[str, str], float] = {}
        self._recent: dict[str, deque[float]] = {}
        """When each address's wrong PINs of the last ``ADDRESS_WINDOW_S`` came."""

    def wait_for(self, address: str, device: str = "") -> float:
        """Seconds a browser (``device``, at ``address``) must still wait before its next PIN is looked at; 0
        when it may try."""
        with self._lock:
            now = self._clock()
            recent = self._recent.get(address)
            busy = recent[0] + ADDRESS_WINDOW_S if recent and len(recent) >= ADDRESS_GUESSES else 0.0
            return max(0.0, self._until.get((address, device), 0.0) - now, busy - now)

    def check(self, address: str, given: str, pin: str, device: str = "") -> bool:
        """Whether ``given`` is the PIN, counting a wrong one against the browser and its address."""
        right = same_secret(given, pin)
        key = (address, device)
        with self._lock:
            if right:
                self._wrong.pop(key, None)
                return True
            now = self._clock()
            recent = self._recent.setdefault(address, deque())
            while recent and recent[0] <= now - ADDRESS_WINDOW_S:
                recent.popleft()
            recent.append(now)
            self._wrong[key] = self._wrong.get(key, 0) + 1
            if self._wrong[key] >= GUESSES:
                self._wrong[key] = 0
                self._until[key] = now + WAIT_S
            return False
