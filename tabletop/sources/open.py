"""The source a person names on the command line: ``picamera``, ``camera:1``, ``2``, a folder, a video file,
or a numbered source registered by name, such as the lab's table simulator (``sim:SEED``).

The lab registers its simulator from the command line's start (:func:`register`), so that the table unit's
sources never import the lab.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from tabletop.errors import SourceError
from tabletop.reporting import Report
from tabletop.sources import FrameSource
from tabletop.sources.files import ImageFolder, VideoFile
from tabletop.sources.opencv import OpenCVCamera
from tabletop.sources.picamera import PiCamera
from tabletop.sources.reopen import Reopening

ACCEPTED = (
    "picamera (the Pi's camera module), camera or camera:N or N (USB camera number N, 0 being the first), "
    "a folder of pictures, a video file"
)
_NUMBERED: dict[str, tuple[Callable[[int], FrameSource], str]] = {}


def register(name: str, make: Callable[[int], FrameSource], what: str) -> None:
    """Let ``name`` (number 0) or ``name:N`` name the source ``make(N)``; ``what`` says what it is, for help."""
    _NUMBERED[name] = (make, what)


def open_source(spec: str, *, fps: float = 30.0) -> FrameSource:
    """Make the source ``spec`` names, without opening it yet; ``fps`` paces a folder of pictures.

    Names are tried before paths, so a file called ``camera`` needs to be given as ``./camera``.
    """
    if spec == "picamera":
        return PiCamera()
    index = _camera_index(spec)
    if index is not None:
        return OpenCVCamera(index)
    for name, (make, _) in _NUMBERED.items():
        if (number := numbered(spec, name)) is not None:
            return make(number)
    path = Path(spec)
    if path.is_dir():
        return ImageFolder(path, fps)
    if path.is_file():
        return VideoFile(path)
    raise _unknown(spec)


def watched_source(spec: str, report: Report) -> FrameSource:
    """The named source as the watcher needs it: a camera is locked once settled, and reopened when it drops
    out, its troubles told to ``report``; files and the simulator are returned as they are."""
    source = open_source(spec)
    if not source.live:
        return source
    return Reopening(lambda: _locked(open_source(spec)), report=report)


def _locked(camera: FrameSource) -> FrameSource:
    """A camera whose exposure and white balance will hold still once it has settled, so that the quiet table
    the watcher learns stays the quiet table."""
    lock = getattr(camera, "lock", None)
    if lock is not None:
        lock()
    return camera


def numbered(spec: str, name: str) -> int | None:
    """The number of ``name`` (0) or ``name:N``; None for anything else."""
    if spec == name:
        return 0
    number = spec.removeprefix(f"{name}:")
    return int(number) if spec.startswith(f"{name}:") and number.isdecimal() else None


def _camera_index(spec: str) -> int | None:
    """Camera number of ``camera``, ``camera:N`` or a bare ``N``; None for anything else."""
    if spec == "camera":
        return 0
    number = spec.removeprefix("camera:")
    return int(number) if number.isdecimal() else None


def _unknown(spec: str) -> SourceError:
    named = "".join(f", or {name} or {name}:N ({what})" for name, (_, what) in _NUMBERED.items())
    return SourceError(f"{spec!r} is not a source tabletop knows, nor an existing file or folder. Use {ACCEPTED}"
                       f"{named}")
