"""A camera or a file that goes wrong: said in plain words on the host page and by `tabletop watch`, never a
traceback, and the host's preview never left hanging."""

from __future__ import annotations

import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import cv2
import numpy as np
import pytest
from reaching import LAYOUT, Film, reaching_frames

from tabletop.camera_inbox import CameraInbox
from tabletop.cli import main
from tabletop.errors import SourceError
from tabletop.game.events import Game
from tabletop.sources import Frame, FrameSource
from tabletop.sources.files import ImageFolder, VideoFile
from tabletop.sources.reopen import Reopening
from tabletop.table import Table
from tabletop.vision.mock import ScriptedReader
from tabletop.watcher.camera import CameraWatch, starting_layout
from tabletop.watcher.layout import write_layout
from tabletop.web.camera import NO_PICTURE_YET, Preview, mjpeg, notice

SIZE = (64, 48)
"""The pictures of the files made here: small, and big enough to watch."""


@pytest.fixture
def thread_deaths(monkeypatch: pytest.MonkeyPatch) -> list[threading.ExceptHookArgs]:
    """Each exception that ended a thread: what Python would print as 'Exception in thread camera'."""
    deaths: list[threading.ExceptHookArgs] = []
    monkeypatch.setattr(threading, "excepthook", deaths.append)
    return deaths


def picture(level: int = 90, size: tuple[int, int] = SIZE) -> np.ndarray:
    return np.full((size[1], size[0], 3), level, np.uint8)


def video(path: Path, fourcc: str = "MJPG", keep: float = 1.0) -> Path:
    """A 100-frame video at 10 fps, of which only the first ``keep`` share of the bytes is kept."""
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter.fourcc(*fourcc), 10.0, SIZE)
    for k in range(100):
        writer.write(picture(k * 2))
    writer.release()
    data = path.read_bytes()
    path.write_bytes(data[: int(len(data) * keep)])
    return path


def folder(path: Path, *pictures: tuple[str, np.ndarray | str]) -> Path:
    """A folder of pictures; a text instead of a picture makes a fake one, a text file with a picture's name."""
    path.mkdir()
    for name, content in pictures:
        if isinstance(content, str):
            (path / name).write_text(content)
        else:
            cv2.imwrite(str(path / name), content)
    return path


def empty_folder(tmp_path: Path) -> FrameSource:
    return ImageFolder(folder(tmp_path / "empty"))


def fake_pictures(tmp_path: Path) -> FrameSource:
    return ImageFolder(folder(tmp_path / "fake", ("a.jpg", "not a picture"), ("b.jpg", "nor this")))


def unreadable_video(tmp_path: Path) -> FrameSource:
    return VideoFile(video(tmp_path / "cut.mp4", "mp4v", keep=0.5))


def broken_off_video(tmp_path: Path) -> FrameSource:
    return VideoFile(video(tmp_path / "cut.avi", keep=0.5))


class Failing:
    """A source with a fault in its code: a few pictures, then an error that is no SourceError."""

    name = "failing"
    live = False

    def frames(self) -> Iterator[Frame]:
        for k in range(3):
            yield Frame(picture(), k / 10)
        raise ValueError("a fault, not a loose cable")

    def close(self) -> None:
        """Nothing is held open."""


def faulty(_: Path) -> FrameSource:
    return Failing()


@pytest.mark.parametrize(("source", "words"), [
    (empty_folder, "has no pictures"),
    (fake_pictures, "a.jpg cannot be read as a picture"),
    (unreadable_video, "cut.mp4 cannot be read as a video"),
    (broken_off_video, "broke off after"),
    (faulty, "ValueError: a fault, not a loose cable"),
])
def test_a_source_that_fails_ends_the_watch_cleanly_and_the_host_is_told_why(
        tmp_path: Path, thread_deaths: list[threading.ExceptHookArgs],
        source: Callable[[Path], FrameSource], words: str) -> None:
    reports: list[str] = []
    with Table() as table:
        camera = CameraWatch(source(tmp_path), CameraInbox(table, reports.append).deliver, ScriptedReader(),
                             starting_layout(SIZE, 2), report=reports.append)
        assert camera.start().wait(5)
    assert camera.problem is not None and words in camera.problem
    assert camera.problem.endswith("(watching stopped)")
    assert reports == [f"camera: {camera.problem}"]
    assert thread_deaths == []
    part = next(mjpeg(Preview(camera), iter([True])))
    assert part.endswith(notice(camera.problem, camera.size) + b"\r\n")


def test_pictures_the_watcher_cannot_take_are_told_once_and_passed_over(
        thread_deaths: list[threading.ExceptHookArgs]) -> None:
    broken = [Frame(picture(size=(1, 1)), k / 2) for k in range(5)]
    good = [Frame(frame.image, frame.t + 3) for frame in reaching_frames(3)]
    reports: list[str] = []
    with Table() as table:
        table.restart([Game(players=("Ann", "Bo"))])
        camera = CameraWatch(Film(broken), CameraInbox(table, reports.append).deliver, ScriptedReader(), LAYOUT,
                             report=reports.append)
        assert camera.start().wait(5)
        assert camera.problem is not None
        assert camera.problem.startswith("a picture could not be watched (a 1x1 picture is too small to watch")
        assert camera.frame is None
        camera = CameraWatch(Film(broken + good), CameraInbox(table, reports.append).deliver, ScriptedReader(),
                             LAYOUT, report=reports.append)
        assert camera.start().wait(5)
    assert camera.problem is None
    assert camera.frame is not None
    assert len(reports) == 2 and reports[0] == reports[1]
    assert thread_deaths == []


def test_a_camera_that_is_away_is_tried_again_and_the_host_sees_why_until_it_is_back(
        thread_deaths: list[threading.ExceptHookArgs]) -> None:
    away, back = threading.Event(), threading.Event()

    def sleep(_: float) -> None:
        away.set()
        back.wait(5)

    cameras = iter([None, Film(reaching_frames(3))])

    def open_camera() -> FrameSource:
        camera = next(cameras)
        if camera is None:
            raise SourceError("camera 0 cannot be opened")
        return camera

    reports: list[str] = []
    with Table() as table:
        table.restart([Game(players=("Ann", "Bo"))])
        camera = CameraWatch(Reopening(open_camera, reports.append, sleep),
                             CameraInbox(table, reports.append).deliver, ScriptedReader(), LAYOUT,
                             report=reports.append)
        camera.start()
        assert away.wait(5)
        assert camera.problem == "camera 0 cannot be opened; trying again in 0.5 s"
        assert not camera.wait(0.01)
        assert next(mjpeg(Preview(camera), iter([True]))).endswith(notice(camera.problem, camera.size) + b"\r\n")
        back.set()
        assert camera.wait(5)
    assert camera.problem is None
    assert reports == ["camera 0 cannot be opened; trying again in 0.5 s"]
    assert thread_deaths == []


def test_the_preview_says_there_is_no_picture_yet_instead_of_hanging() -> None:
    with Table() as table:
        camera = CameraWatch(Film([]), CameraInbox(table, pytest.fail).deliver, ScriptedReader(), LAYOUT,
                             report=pytest.fail)
        started = time.monotonic()
        parts = list(mjpeg(Preview(camera), iter([True])))
    assert time.monotonic() - started < 1.0
    assert len(parts) == 1 and parts[0].startswith(b"--frame\r\nContent-Type: image/jpeg\r\n")
    jpeg = notice(NO_PICTURE_YET, (640, 480))
    assert parts[0].endswith(jpeg + b"\r\n")
    shown = cv2.imdecode(np.frombuffer(jpeg, np.uint8), cv2.IMREAD_COLOR)
    assert shown.shape == (480, 640, 3)
    assert shown.mean() < 60 and shown.max() > 200


# tabletop watch


@pytest.fixture
def layout(tmp_path: Path) -> Path:
    path = tmp_path / "layout.json"
    write_layout(starting_layout(SIZE, 4), path)
    return path


@pytest.mark.parametrize(("make", "words"), [
    (lambda tmp: folder(tmp / "mixed", ("a.png", picture()), ("b.png", picture(size=(80, 48)))),
     "b.png is 80x48, the pictures before it 64x48"),
    (lambda tmp: folder(tmp / "tiny", ("a.png", picture(size=(1, 1)))), "a.png is 1x1: too small to watch"),
    (lambda tmp: folder(tmp / "fake", ("a.jpg", "not a picture")), "a.jpg cannot be read as a picture"),
    (lambda tmp: folder(tmp / "empty"), "has no pictures"),
    (lambda tmp: folder(tmp / "one", ("a.png", picture(size=(1, 1)))) / "a.png", "a.png is 1x1: too small to watch"),
    (lambda tmp: video(tmp / "cut.mp4", "mp4v", keep=0.5), "cut.mp4 cannot be read as a video"),
    (lambda tmp: video(tmp / "cut.avi", keep=0.5), "broke off after"),
], ids=["mixed sizes", "a 1x1 picture", "fake JPEGs", "no pictures", "a 1x1 picture file", "an unreadable video",
        "a broken-off video"])
def test_watch_on_a_bad_source_exits_2_with_a_message(
        tmp_path: Path, layout: Path, capsys: pytest.CaptureFixture[str],
        make: Callable[[Path], Path], words: str) -> None:
    assert main(["watch", str(make(tmp_path)), "--layout", str(layout)]) == 2
    out, error = capsys.readouterr()
    assert error.startswith("tabletop watch: ") and words in error
    assert "Traceback" not in error
    if not any(late in words for late in ("broke off", "the pictures before it")):
        assert out == ""  # a source that gives no picture at all begins no record


def test_watch_says_how_much_of_a_broken_off_video_it_read_and_no_traceback(tmp_path: Path, layout: Path) -> None:
    cut = video(tmp_path / "cut.avi", keep=0.5)
    done = subprocess.run([sys.executable, "-m", "tabletop.cli", "watch", str(cut), "--layout", str(layout)],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 2
    assert done.stdout.startswith('{"type": "game"')
    assert f"tabletop watch: the video {cut} broke off after " in done.stderr
    assert " of the 100 frames it states: it is damaged or was cut short" in done.stderr
    assert "Traceback" not in done.stderr
