"""Make the recorded game the end-to-end test watches: `python tests/data/make_recorded_game.py`.

The table simulator films the start of a three-player round; this writes the film (`recorded-game.mp4`, H.264
by the ffmpeg command, so that it stays small), the table's layout (`recorded-game.layout.json`) and what the
camera truly saw in it, as a game record (`recorded-game.truth.jsonl`). The test only reads these files; this
script is how they were made.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from tabletop.game.events import Event, Game, Retract
from tabletop.lab.tablesim.table import simulated_table
from tabletop.watcher.layout import layout_to_json

SEED = 11
SECONDS = 25.5
HERE = Path(__file__).parent
PLAYERS = ("Ann", "Bo", "Cy")


def main() -> None:
    table = simulated_table(SEED, players=len(PLAYERS), rounds=1)
    encoder = subprocess.Popen(["ffmpeg", "-y", "-loglevel", "error", "-f", "rawvideo", "-pix_fmt", "bgr24",
                                "-s", "640x480", "-r", "30", "-i", "-", "-c:v", "libx264", "-crf", "26",
                                "-pix_fmt", "yuv420p", str(HERE / "recorded-game.mp4")], stdin=subprocess.PIPE)
    assert encoder.stdin is not None
    for frame in table.video.frames():
        if frame.t > SECONDS:
            break
        encoder.stdin.write(frame.image.tobytes())
    encoder.stdin.close()
    encoder.wait()
    (HERE / "recorded-game.layout.json").write_text(json.dumps(layout_to_json(table.layout), indent=2) + "\n")
    whole = [timed.event for timed in table.script.record]
    lines: list[Event] = [Game(players=PLAYERS)]
    for timed in table.script.record:
        if timed.camera and timed.t <= SECONDS - 1.0:
            event = timed.event
            if isinstance(event, Retract):  # its line in the camera's own record, not in the whole game's
                event = Retract(ref=next(k for k, line in enumerate(lines) if line is whole[event.ref]))
            lines.append(event)
    (HERE / "recorded-game.truth.jsonl").write_text("".join(json.dumps(e.to_json()) + "\n" for e in lines))


if __name__ == "__main__":
    main()
