"""Where the files shipped with tabletop lie: the repository's ``models/`` and ``web/``, mapped into the package.

An editable install finds them in the checkout and a wheel inside the installed package, so that tabletop runs
the same from any folder; nothing looks for them relative to this file's own place.
"""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path

MODELS_PACKAGE = "tabletop.models"
WEB_PACKAGE = "tabletop.webroot"


def shipped(package: str) -> Path:
    """The folder holding the data package ``package`` (one of the two above)."""
    return Path(str(files(package)))
