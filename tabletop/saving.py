"""Files the table unit keeps in its state folder (the camera's layout, the host's PIN, the stories told of past
games), each written whole or not at all."""

from __future__ import annotations

import os
from pathlib import Path


def write_whole(path: Path, text: str, private: bool = False) -> None:
    """``text`` into ``path`` by way of a file beside it, moved into place once on the disk: whoever reads
    ``path`` (the host, a second start, the service after a power cut) finds the old file or the new one, never a
    file made a moment before its text. ``private``: readable by the service's user alone. A file left half
    written beside it is made afresh, so it never lends the new file its permissions."""
    part = path.with_name(path.name + ".part")
    part.unlink(missing_ok=True)
    descriptor = os.open(part, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600 if private else 0o666)
    with os.fdopen(descriptor, "w", encoding="utf-8") as file:
        file.write(text)
        file.flush()
        os.fsync(file.fileno())
    os.replace(part, path)
