"""Debian's Chromium, driven by Playwright, for the tests of the pages: the browser, a phone's screen and where
the screenshots go. Its fixtures are in conftest.py."""

from __future__ import annotations

import shutil
from pathlib import Path

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync"]
OUTPUT = Path(__file__).parent / "output"
PHONE = {"width": 360, "height": 740}
