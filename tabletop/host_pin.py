"""The host's PIN when the config sets none: six random digits made at the service's first start.

A PIN printed in a README, or four digits, can be looked up or tried by a guest in days; one made on the
table unit is known only to whoever can read its state directory. It is kept there, readable by the service's
user alone, so it stays the same from one start to the next; the service never writes it to its log.
"""

from __future__ import annotations

import secrets
from pathlib import Path

from tabletop.config import Config
from tabletop.saving import write_whole

PIN_FILE = "host-pin"
DIGITS = 6


def pin_file(config: Config) -> Path:
    return config.state / PIN_FILE


def where_told(config: Config) -> str:
    """Where the host finds the PIN, in words the service's log may carry: never the PIN itself."""
    return "the PIN set in the config" if config.pin is not None else f"the PIN in {pin_file(config)}: sudo cat it"


def host_pin(config: Config) -> str:
    """The config's PIN, else the one made at the first start, made now if there is none yet."""
    if config.pin is not None:
        return config.pin
    path = pin_file(config)
    kept = path.read_text(encoding="ascii").strip() if path.exists() else ""
    if len(kept) >= DIGITS and kept.isdigit():
        return kept
    pin = f"{secrets.randbelow(10 ** DIGITS):0{DIGITS}d}"
    write_whole(path, pin + "\n", private=True)
    return pin

