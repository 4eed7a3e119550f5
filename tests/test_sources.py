"""Where the referee's pictures come from: files played back, cameras that drop out and come back, the Pi camera."""

from __future__ import annotations

import itertools
import re
import sys
import types
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, ClassVar

import cv2
import numpy as np
import pytest

from tabletop.errors import SourceError
from tabletop.sources import Frame, FrameSource, shrunk
from tabletop.sources.files import ImageFolder, VideoFile
from tabletop.sources.open import open_source
from tabletop.sources.opencv import OpenCVCamera
from tabletop.sources.picamera import PiCamera
from tabletop.sources.reopen import Reopening


def take(source: FrameSource, count: int | None = None) -> list[Frame]:
    """What a watcher does: read some frames (all, when ``count`` is None), then let go of the source."""
    frames = list(itertools.islice(source.frames(), count))
    source.close()
    return frames


def increasing(frames: list[Frame]) -> bool:
    return all(later.t > earlier.t for earlier, later in itertools.pairwise(frames))


def grey(level: int, size: tuple[int, int] = (64, 48)) -> np.ndarray:
    return np.full((size[1], size[0], 3), level, np.uint8)


# Files


def test_a_video_comes_back_frame_by_frame_at_its_own_rate(tmp_path: Path) -> None:
    path = tmp_path / "table.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter.fourcc(*"MJPG"), 10.0, (64, 48))
    for level in range(20, 220, 20):
        writer.write(grey(level))
    writer.release()
    frames = take(VideoFile(path))
    assert len(frames) == 10
    assert all(frame.image.shape == (48, 64, 3) and frame.image.dtype == np.uint8 for frame in frames)
    assert [frame.t for frame in frames] == pytest.approx([index / 10 for index in range(10)])
    assert [round(float(frame.image.mean()) / 20) for frame in frames] == list(range(1, 11))
    assert [frame.t for frame in take(VideoFile(path, fps=5.0))] == pytest.approx([i / 5 for i in range(10)])


def test_a_missing_or_unreadable_video_is_named(tmp_path: Path) -> None:
    notes = tmp_path / "notes.avi"
    notes.write_text("this is not a video")
    for path in (tmp_path / "gone.avi", notes):
        with pytest.raises(SourceError, match=re.escape(path.name)):
            take(VideoFile(path))


def test_a_video_that_breaks_off_says_how_far_it_got(tmp_path: Path) -> None:
    path = tmp_path / "table.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter.fourcc(*"MJPG"), 10.0, (64, 48))
    for level in range(100):
        writer.write(grey(level))
    writer.release()
    path.write_bytes(path.read_bytes()[: path.stat().st_size // 2])
    frames: list[Frame] = []
    with pytest.raises(SourceError, match=r"table\.avi broke off after (\d+) of the 100 frames it states") as error:
        frames.extend(VideoFile(path).frames())
    read = re.search(r"after (\d+) of", str(error.value))
    assert read is not None and 0 < len(frames) == int(read[1]) < 90


def test_a_picture_too_small_to_watch_is_named_as_a_video_too(tmp_path: Path) -> None:
    path = tmp_path / "dot.png"
    cv2.imwrite(str(path), grey(50, (1, 1)))
    with pytest.raises(SourceError, match=r"dot\.png is 1x1: too small"):
        take(VideoFile(path))


def test_a_folder_plays_its_pictures_in_name_order(tmp_path: Path) -> None:
    for name, level in (("b.png", 100), ("a.jpg", 50), ("c.bmp", 150)):
        cv2.imwrite(str(tmp_path / name), grey(level))
    (tmp_path / "notes.txt").write_text("not a picture, and not played")
    frames = take(ImageFolder(tmp_path, fps=4.0))
    assert [round(float(frame.image.mean())) for frame in frames] == [50, 100, 150]
    assert [frame.t for frame in frames] == [0.0, 0.25, 0.5]
    assert all(frame.image.shape == (48, 64, 3) for frame in frames)


def test_a_corrupt_picture_is_named(tmp_path: Path) -> None:
    cv2.imwrite(str(tmp_path / "a.png"), grey(50))
    (tmp_path / "b.png").write_text("this is not a picture")
    with pytest.raises(SourceError, match=r"b\.png"):
        take(ImageFolder(tmp_path))


def test_a_picture_of_another_size_than_the_first_is_named(tmp_path: Path) -> None:
    cv2.imwrite(str(tmp_path / "a.png"), grey(50))
    cv2.imwrite(str(tmp_path / "b.png"), grey(50, (80, 48)))
    with pytest.raises(SourceError, match=r"b\.png is 80x48, the pictures before it 64x48"):
        take(ImageFolder(tmp_path))


def test_a_picture_too_small_to_watch_is_named(tmp_path: Path) -> None:
    cv2.imwrite(str(tmp_path / "a.png"), grey(50, (1, 1)))
    with pytest.raises(SourceError, match=r"a\.png is 1x1: too small"):
        take(ImageFolder(tmp_path))


def test_a_missing_or_empty_folder_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(SourceError, match="no folder"):
        take(ImageFolder(tmp_path / "gone"))
    with pytest.raises(SourceError, match="no pictures"):
        take(ImageFolder(tmp_path))


# A USB camera


def test_a_camera_that_is_not_there_is_an_error() -> None:
    with pytest.raises(SourceError, match="camera 99"):
        take(OpenCVCamera(99))


# Reopening


class Flaky:
    """A camera that gives ``count`` frames, 0.1 s apart, then fails (``fails``) or ends; it remembers its frames."""

    def __init__(self, count: int, fails: bool = True, live: bool = True) -> None:
        self.name = "flaky camera"
        self.count = count
        self.fails = fails
        self.live = live
        self.given: list[np.ndarray] = []
        self.closed = False

    def frames(self) -> Iterator[Frame]:
        for index in range(self.count):
            self.given.append(grey(index))
            yield Frame(self.given[-1], index / 10)
        if self.fails:
            raise SourceError("flaky camera came loose")

    def close(self) -> None:
        self.closed = True


def opener(*sources: FrameSource | None) -> Callable[[], FrameSource]:
    """Hands out ``sources`` in turn; None stands for a camera that cannot even be opened."""
    queue = iter(sources)

    def open_next() -> FrameSource:
        source = next(queue)
        if source is None:
            raise SourceError("no camera found")
        return source

    return open_next


def test_a_flaky_camera_is_reopened_and_no_frame_is_lost() -> None:
    cameras = [Flaky(3), Flaky(2), Flaky(4, fails=False, live=False)]
    reports: list[str] = []
    sleeps: list[float] = []
    frames = take(Reopening(opener(*cameras), reports.append, sleeps.append))
    given = [image for camera in cameras for image in camera.given]
    assert len(frames) == len(given) == 9
    assert all(frame.image is image for frame, image in zip(frames, given, strict=True))
    assert reports == ["flaky camera came loose; trying again in 0.5 s"] * 2
    assert sleeps == [0.5, 0.5]
    assert increasing(frames)
    assert all(camera.closed for camera in cameras)


def test_waits_double_up_to_the_longest_and_start_again_after_a_frame() -> None:
    sleeps: list[float] = []
    reports: list[str] = []
    sources = [None] * 6 + [Flaky(1), None, Flaky(1, fails=False, live=False)]
    frames = take(Reopening(opener(*sources), reports.append, sleeps.append, first_wait=0.5, max_wait=6.0))
    assert sleeps == [0.5, 1, 2, 4, 6, 6, 0.5, 1]
    assert reports[0] == "no camera found; trying again in 0.5 s"
    assert reports[5] == "no camera found; trying again in 6 s"
    assert len(frames) == 2
    assert frames[1].t > frames[0].t + 0.5


def test_why_a_camera_is_away_is_kept_until_it_gives_frames_again() -> None:
    while_away: list[str | None] = []
    reopening = Reopening(opener(None, Flaky(1)), lambda _: None, lambda _: while_away.append(reopening.problem))
    assert reopening.problem is None
    frames = reopening.frames()
    next(frames)
    assert while_away == ["no camera found; trying again in 0.5 s"]
    assert reopening.problem is None
    reopening.close()


def test_a_camera_that_simply_stops_is_reopened_but_a_finished_file_ends() -> None:
    reports: list[str] = []
    cameras = opener(Flaky(2, fails=False), Flaky(2, fails=False, live=False))
    frames = take(Reopening(cameras, reports.append, lambda _: None))
    assert len(frames) == 4
    assert increasing(frames)
    assert reports == ["flaky camera stopped giving frames; trying again in 0.5 s"]


class Broken(Flaky):
    def frames(self) -> Iterator[Frame]:
        yield from super().frames()
        raise ValueError("a bug, not a loose cable")


def test_a_bug_is_not_mistaken_for_a_loose_cable() -> None:
    camera = Broken(2, fails=False)
    reports: list[str] = []
    with pytest.raises(ValueError, match="a bug"):
        take(Reopening(opener(camera), reports.append, lambda _: None))
    assert camera.closed
    assert reports == []


class Endless(Flaky):
    """A camera that fails, as real ones do, when it is closed while frames are read."""

    def frames(self) -> Iterator[Frame]:
        for index in itertools.count():
            if self.closed:
                raise SourceError("camera closed")
            yield Frame(grey(0), index / 10)


def test_closing_stops_the_frames_without_reopening() -> None:
    camera = Endless(0)
    reports: list[str] = []
    reopening = Reopening(opener(camera), reports.append, lambda _: None)
    frames = reopening.frames()
    next(frames)
    reopening.close()
    assert list(frames) == []
    assert camera.closed
    assert reports == []


# The Pi camera, with picamera2 played by a fake


class FakePicamera2:
    """Records what tabletop asks of picamera2 and answers as a Pi camera would."""

    COLOUR = (40, 90, 200)
    SETTLED: ClassVar[dict[str, Any]] = {
        "ExposureTime": 12000, "AnalogueGain": 2.5, "ColourGains": (1.8, 1.4), "Lux": 310.0,
    }

    def __init__(self) -> None:
        self.configured: dict[str, Any] = {}
        self.started = self.closed = False
        self.captured: list[str] = []
        self.controls: list[tuple[int, dict[str, Any]]] = []
        self.fail_after: int | None = None

    def create_video_configuration(self, main: dict[str, Any], lores: dict[str, Any] | None = None) -> dict[str, Any]:
        return {"use_case": "video", "main": main, "lores": lores}

    def configure(self, configuration: dict[str, Any]) -> None:
        self.configured = configuration

    def start(self) -> None:
        self.started = True

    def capture_array(self, name: str = "main") -> np.ndarray:
        if len(self.captured) == self.fail_after:
            raise RuntimeError("Camera frontend has timed out!")
        self.captured.append(name)
        width, height = self.configured[name]["size"]
        if name == "main":
            return np.full((height, width, 3), self.COLOUR, np.uint8)
        padded = np.full((height, width + 28, 3), self.COLOUR, np.uint8)  # rows padded to the buffer's stride
        yuv: np.ndarray = cv2.cvtColor(padded, cv2.COLOR_BGR2YUV_I420)
        return yuv

    def capture_arrays(self, names: list[str]) -> tuple[list[np.ndarray], dict[str, Any]]:
        return [self.capture_array(name) for name in names], dict(self.SETTLED)

    def capture_metadata(self) -> dict[str, Any]:
        return dict(self.SETTLED)

    def set_controls(self, controls: dict[str, Any]) -> None:
        self.controls.append((len(self.captured), controls))

    def close(self) -> None:
        self.closed = True


@pytest.fixture
def picamera2(monkeypatch: pytest.MonkeyPatch) -> FakePicamera2:
    camera = FakePicamera2()
    module = types.ModuleType("picamera2")
    monkeypatch.setattr(module, "Picamera2", lambda: camera, raising=False)
    monkeypatch.setitem(sys.modules, "picamera2", module)
    return camera


def test_the_main_stream_alone_gives_bgr_pictures_of_the_asked_size(picamera2: FakePicamera2) -> None:
    frames = take(PiCamera(size=(64, 48), lores=None), 3)
    assert picamera2.configured["main"] == {"size": (64, 48), "format": "RGB888"}
    assert picamera2.configured["lores"] is None
    assert picamera2.started and picamera2.closed
    assert all(frame.image.shape == (48, 64, 3) and frame.image.dtype == np.uint8 for frame in frames)
    assert tuple(frames[0].image[0, 0]) == FakePicamera2.COLOUR
    assert increasing(frames)


def test_the_small_stream_feeds_the_frames_and_the_main_one_their_detail(picamera2: FakePicamera2) -> None:
    """Motion is found in the small picture, cards are read in the large one, both from one request."""
    frames = take(PiCamera(size=(640, 480), lores=(160, 120)), 2)
    assert picamera2.configured["lores"] == {"size": (160, 120), "format": "YUV420"}
    assert picamera2.configured["main"] == {"size": (640, 480), "format": "RGB888"}
    assert picamera2.captured == ["main", "lores", "main", "lores"]
    assert all(frame.image.shape == (120, 160, 3) and frame.image.flags.c_contiguous for frame in frames)
    assert np.abs(frames[0].image.astype(int) - FakePicamera2.COLOUR).max() <= 3
    region = frames[0].cut((10, 20, 30, 35))
    assert region.scale == 4.0 and region.picture.shape == (60, 80, 3)
    assert tuple(region.picture[0, 0]) == FakePicamera2.COLOUR


def test_the_pi_camera_reads_cards_at_its_full_field_of_view_binned(picamera2: FakePicamera2) -> None:
    take(PiCamera(), 1)
    assert picamera2.configured["main"]["size"] == (2304, 1296)
    assert picamera2.configured["lores"]["size"] == (768, 432)


def test_lock_fixes_exposure_and_white_balance_once_settled(picamera2: FakePicamera2) -> None:
    camera = PiCamera(size=(64, 48), lores=None)
    camera.lock(after=3)
    take(camera, 5)
    settled = FakePicamera2.SETTLED
    assert picamera2.controls == [(3, {
        "AeEnable": False,
        "AwbEnable": False,
        "ExposureTime": settled["ExposureTime"],
        "AnalogueGain": settled["AnalogueGain"],
        "ColourGains": settled["ColourGains"],
    })]


def test_a_failed_capture_is_a_source_error(picamera2: FakePicamera2) -> None:
    picamera2.fail_after = 2
    with pytest.raises(SourceError, match=r"stopped giving pictures.*timed out"):
        take(PiCamera())
    assert picamera2.closed


def no_camera() -> FakePicamera2:
    raise IndexError("list index out of range")  # what picamera2 raises when libcamera lists no camera


def test_a_missing_camera_is_a_source_error(monkeypatch: pytest.MonkeyPatch) -> None:
    module = types.ModuleType("picamera2")
    monkeypatch.setattr(module, "Picamera2", no_camera, raising=False)
    monkeypatch.setitem(sys.modules, "picamera2", module)
    with pytest.raises(SourceError, match="could not be opened"):
        take(PiCamera())


def test_without_picamera2_the_error_says_how_to_install_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "picamera2", None)
    with pytest.raises(SourceError) as error:
        take(PiCamera())
    assert "sudo apt install python3-picamera2" in str(error.value)
    assert "--system-site-packages" in str(error.value)


# What a person types


@pytest.mark.parametrize(("spec", "index"), [("camera", 0), ("camera:2", 2), ("3", 3)])
def test_a_camera_by_number(spec: str, index: int) -> None:
    source = open_source(spec)
    assert isinstance(source, OpenCVCamera)
    assert source.index == index


def test_the_pi_camera_a_folder_and_a_video_by_name(tmp_path: Path) -> None:
    video = tmp_path / "game.avi"
    video.write_bytes(b"")
    assert isinstance(open_source("picamera"), PiCamera)
    folder = open_source(str(tmp_path), fps=12.0)
    assert isinstance(folder, ImageFolder)
    assert folder.fps == 12.0
    assert isinstance(open_source(str(video)), VideoFile)


def test_the_table_simulator_by_name_and_seed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "sim").write_text("a file called sim is still the simulator; ./sim names the file")
    source = open_source("sim:7")
    assert source.name == "sim:7" and not source.live
    first = next(iter(source.frames()))
    assert first.image.shape == (480, 640, 3) and first.t == 0.0
    assert open_source("sim").name == "sim:0"


@pytest.mark.parametrize("spec", ["webcam", "camera:one", "camera:-1", "missing.avi", "sim:seven", "sim:-1"])
def test_anything_else_is_refused_with_the_accepted_forms(
    spec: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    accepted = r"picamera .*camera:N.*folder.*video file.*sim:N \(the table simulator\)"
    with pytest.raises(SourceError, match=accepted) as error:
        open_source(spec)
    assert repr(spec) in str(error.value)


def test_a_camera_that_cannot_be_opened_is_told_in_tabletop_s_words_only(capfd: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SourceError, match="camera 99 cannot be opened"):
        next(OpenCVCamera(99).frames())
    assert "WARN" not in capfd.readouterr().err


# A picture with more pixels than the watcher moves on


def test_a_large_picture_is_shrunk_to_move_on_and_kept_whole_to_read_from() -> None:
    """A webcam's 1920x1080: the watcher moves on 640x360, and a card is cut from the whole picture, a point of
    the small picture landing on the same spot of the large one."""
    large = np.zeros((1080, 1920, 3), np.uint8)
    cv2.rectangle(large, (900, 450), (959, 539), (255, 255, 255), -1)
    frame = shrunk(large, 1.5)
    assert frame.image.shape == (360, 640, 3) and frame.t == 1.5
    spot = np.argwhere(frame.image[..., 0] > 200)
    middle = np.array([[spot[:, 1].mean(), spot[:, 0].mean()]], np.float32)
    region = frame.cut((280, 130, 360, 200))
    assert region.scale == 3.0 and region.picture.shape == (210, 240, 3)
    white = np.argwhere(region.picture[..., 0] > 200)
    assert np.abs(region.points(middle)[0] - [white[:, 1].mean(), white[:, 0].mean()]).max() < 0.6
    found_there = np.array([[white[:, 1].mean(), white[:, 0].mean()]], np.float32)
    assert np.abs(region.frame_points(found_there) - middle).max() < 0.2


def test_a_part_of_a_region_kept_is_the_same_as_cut_from_the_whole_large_picture() -> None:
    """A zone at rest keeps only itself and a rim cut from the large picture (a Pi has no memory for whole ones):
    a card read from what it kept is read from the very pixels, and a box reaching past it gets what it holds."""
    large = np.random.default_rng(5).integers(0, 256, (1296, 2304, 3), np.uint8)
    frame = shrunk(large, 0.0, 768)
    kept = frame.cut((300, 100, 500, 300))
    inner = kept.cut((351, 147, 420, 251))
    assert inner.box == (351, 147, 420, 251) and np.array_equal(inner.picture, frame.cut(inner.box).picture)
    assert np.abs(inner.points(np.array([[400.0, 200.0]], np.float32))
                  - frame.cut(inner.box).points(np.array([[400.0, 200.0]], np.float32))).max() == 0
    past = kept.cut((450, 250, 600, 400))
    assert past.box == (450, 250, 500, 300) and past.picture.shape == (150, 150, 3)
    assert np.array_equal(past.picture, frame.cut(past.box).picture)


def test_a_picture_no_wider_than_the_watcher_moves_on_is_its_own_detail() -> None:
    picture = grey(70, (320, 240))
    frame = shrunk(picture, 0.0)
    assert frame.image is picture and frame.detail is None
    region = frame.cut((-5, 10, 40, 30))
    assert region.scale == 1.0 and region.picture.shape == (20, 40, 3)
    assert np.array_equal(region.points(np.array([[12.0, 15.0]], np.float32)), [[12.0, 5.0]])
    assert np.array_equal(region.frame_points(np.array([[12.0, 5.0]], np.float32)), [[12.0, 15.0]])
