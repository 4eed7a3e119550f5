"""The ``tabletop`` command: the composition root that wires the parts together for each subcommand."""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from tabletop.config import HOST, KNOWN_PIN, PORT
from tabletop.errors import CalibrationError, LayoutError, ModelError, RecordError, TabletopError
from tabletop.game.cards import DECK_SIZES
from tabletop.game.checks import PLAYERS
from tabletop.lab.tablesim import register_source
from tabletop.languages import ENGLISH, LANGUAGES

if TYPE_CHECKING:
    from tabletop.history import History
    from tabletop.sources import Frame
    from tabletop.vision.model import CardModel
    from tabletop.watcher.calibrate import Calibration
    from tabletop.watcher.layout import Layout


def main(argv: Sequence[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    register_source()
    try:
        return int(args.run(args))
    except BrokenPipeError:  # the reader (``| head``) has gone: what is left has nowhere to go, and that is fine
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="tabletop", description="An UNO referee that watches a real card table.")
    commands = parser.add_subparsers(required=True, metavar="COMMAND")

    demo = commands.add_parser("demo", help="the whole system on a simulated table, with the scoreboard served")
    demo.add_argument("--rounds", type=int, help="play this many rounds, print a summary and exit (default: "
                      "play game after game until stopped)")
    demo.add_argument("--seed", type=int, default=1, help="the first simulated game (default 1)")
    demo.add_argument("--players", type=int, default=4, help="2 to 10 (default 4)")
    demo.add_argument("--host", default=HOST, help="address to serve on (default: every interface)")
    demo.add_argument("--port", type=int, default=PORT, help=f"port to serve on (default {PORT}; 0 picks a free "
                      "one)")
    demo.add_argument("--pin", default=KNOWN_PIN, help=f"the host page's PIN (default {KNOWN_PIN})")
    demo.add_argument("--speed", type=float, default=1.0, help="play the film this many times faster")
    demo.add_argument("--state", type=Path, help="keep the game log here (default: a new temporary folder)")
    demo.add_argument("--language", choices=list(LANGUAGES), default=ENGLISH,
                      help="the table's language, for phones whose browser asks for none of these and for the voice "
                           "(default en)")
    demo.add_argument("--voice", action="store_true", help="speak the calls through espeak-ng")
    demo.add_argument("--deck", type=int, default=108, choices=DECK_SIZES,
                      help="the simulated deck: 108 cards, or 112 with the special wilds (default 108)")
    demo.set_defaults(run=_demo)

    serve = commands.add_parser("serve", help="the table unit: camera, referee, panel, game log and scoreboard")
    serve.add_argument("--config", type=Path, help="a TOML settings file (default: /etc/tabletop/config.toml "
                       "when it exists); TABLETOP_* variables override it")
    serve.set_defaults(run=_serve)

    doctor = commands.add_parser("doctor", help="check the camera, model, GPIO parts, config, port and state")
    doctor.add_argument("--config", type=Path, help="the settings file to check (default as for serve)")
    doctor.set_defaults(run=_doctor)

    replay = commands.add_parser("replay", help="replay a game record and print the verdicts and final state")
    replay.add_argument("file", help="a game record (JSON Lines), or - for standard input")
    replay.set_defaults(run=_replay)

    simulate = commands.add_parser("simulate", help="play one simulated game and print its record")
    simulate.add_argument("--seed", type=int, default=0, help="the same seed always gives the same game")
    simulate.add_argument("--players", type=int, default=4, help="2 to 10 (default 4)")
    simulate.add_argument("--preset", default="official", help="official, stacking, party or eastern")
    simulate.add_argument("--no-seats", action="store_true", help="plays and draws without seats")
    simulate.add_argument("--unseen-draws", action="store_true", help="a table that never reports draws")
    simulate.add_argument("--deck", type=int, default=108, choices=DECK_SIZES,
                          help="108 cards, or the 112 sold today with its special wilds (default 108)")
    simulate.set_defaults(run=_simulate)

    classify = commands.add_parser("classify", help="read the most prominent card in each image")
    classify.add_argument("images", nargs="+", metavar="IMAGE", help="photographs or camera frames")
    classify.add_argument("--json", action="store_true", help="one JSON object per image, as docs/record.md says")
    classify.add_argument("--all", action="store_true", help="every card in each image, covered ones read from their "
                          "index corner (a hand laid down to be counted)")
    classify.add_argument("--model", type=Path, help="an ONNX card model (default: models/cards.onnx)")
    classify.set_defaults(run=_classify)

    train = commands.add_parser("train", help="train the card model, the card finder and the index finder from "
                                "rendered cards (needs the train extra)")
    train.add_argument("what", nargs="?", default="all", choices=["all", "cards", "finder", "indexes"],
                       help="the card and index models, the finder's two looks, the index finder, or all three "
                            "(default)")
    train.add_argument("--out", type=Path, default=None, help="the folder to write the models into (default: models/)")
    train.add_argument("--seed", type=int, default=1, help="the same seed gives the same models")
    train.add_argument("--samples", type=int, default=None, help="training crops (card model) or frames (the finders)")
    train.add_argument("--epochs", type=int, default=None, help="passes over the training crops or frames")
    train.add_argument("--workers", type=int, default=2, help="processes rendering, threads training")
    train.set_defaults(run=_train)

    watch = commands.add_parser("watch", help="watch a table and print the game record it makes (JSON Lines)")
    watch.add_argument("source", help="picamera, camera[:N], a video file, a folder of pictures, or sim[:SEED]")
    watch.add_argument("--layout", type=Path, help="the zones and seats as JSON, as tabletop calibrate writes them")
    watch.add_argument("--players", help="the players' names in seat order, comma separated")
    watch.add_argument("--preset", default="official", help="the rules: official, stacking, party or eastern")
    watch.add_argument("--model", type=Path, help="an ONNX card model (default: models/cards.onnx)")
    watch.set_defaults(run=_watch)

    calibrate = commands.add_parser("calibrate", help="measure the table's zones and seats and print them as JSON")
    calibrate.add_argument("source", help="as for watch; the first picture must show the draw pile alone")
    calibrate.add_argument("--players", type=int, default=4, help="how many seats (default 4)")
    calibrate.add_argument("--learn-seats", action="store_true",
                           help="then each player, in seat order, reaches into the middle once")
    calibrate.add_argument("--picture", type=Path, metavar="FILE",
                           help="also draw what was found over the first picture and save it (.png or .jpg): the "
                           "deck, the zones, the centre and the seats; or, if calibration fails, what was refused")
    calibrate.add_argument("--model", type=Path, help="an ONNX card model, to tell the deck's back from a face-up "
                           "card (default: models/cards.onnx)")
    calibrate.set_defaults(run=_calibrate)

    history = commands.add_parser("history", help="every game the log keeps, and each player's figures")
    history.add_argument("--state", type=Path, help="the folder holding the game log (default: the settings' state "
                         "folder, /var/lib/tabletop unless changed)")
    shown = history.add_mutually_exclusive_group()
    shown.add_argument("--csv", action="store_true", help="one row per round of every game, a column of points "
                       "per player (a spreadsheet)")
    shown.add_argument("--records", action="store_true", help="every game's record as JSON Lines, oldest first")
    history.add_argument("--evening", metavar="YYYY-MM-DD", type=_evening, help="the figures of one evening only")
    history.set_defaults(run=_history)

    bench = commands.add_parser("bench", help="measure how fast tabletop is on this machine")
    bench.add_argument("part", nargs="?", default="all",
                       choices=["all", "referee", "classify", "real", "misreads", "pipeline", "watcher", "faces", "web",
                                "crowd", "serve", "history", "voice"],
                       help="what to measure (default: everything, then one table of the figures with goals)")
    bench.add_argument("--seconds", type=float, default=300.0, help="how long the web benchmark runs")
    bench.add_argument("--scenes", type=Path, help="for real: a folder of whole pictures with labels.csv (default: "
                       "the sample in tests/data/real-scenes)")
    bench.add_argument("--faces", type=Path, metavar="DIR", help="for watcher: lay photographs of real cards face up "
                       "instead of rendered faces, from a folder with labels.csv (file,card), as "
                       "tests/data/real-cards")
    bench.set_defaults(run=_bench)
    return parser


def _demo(args: argparse.Namespace) -> int:
    from tabletop.demo import DemoSettings, run_demo

    settings = DemoSettings(args.seed, args.rounds, args.players, args.host, args.port, args.pin, args.speed,
                            args.state, language=args.language, voice=args.voice, deck=args.deck)
    return _until_stopped("demo", lambda: run_demo(settings, report=_say))


def _serve(args: argparse.Namespace) -> int:
    import signal
    import threading

    from tabletop.config import load_config
    from tabletop.service import run_service

    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    return _until_stopped("serve", lambda: run_service(load_config(args.config), stop, report=_say))


def _say(text: str) -> None:
    print(text, flush=True)


def _until_stopped(command: str, run: Callable[[], object]) -> int:
    """Run a long-lived command: Ctrl-C is a normal way to stop it; its own errors exit with status 2."""
    try:
        run()
    except KeyboardInterrupt:
        return 0
    except (TabletopError, OSError) as err:
        print(f"tabletop {command}: {err}", file=sys.stderr)
        return 2
    return 0


def _doctor(args: argparse.Namespace) -> int:
    from tabletop.doctor import examine

    findings = examine(args.config)
    for finding in findings:
        print(finding.line())
    return 0 if all(finding.ok for finding in findings) else 1


def _replay(args: argparse.Namespace) -> int:
    from tabletop.game.record import read_record
    from tabletop.game.referee import replay

    try:
        if args.file == "-":
            entries = read_record(sys.stdin)
        else:
            with open(args.file, encoding="utf-8") as handle:
                entries = read_record(handle)
    except OSError as err:
        print(f"tabletop replay: cannot read {args.file}: {err.strerror}", file=sys.stderr)
        return 2
    except UnicodeDecodeError as err:
        print(f"tabletop replay: {args.file}: not UTF-8 text (byte {err.start}); save the record as UTF-8",
              file=sys.stderr)
        return 2
    except RecordError as err:
        print(f"tabletop replay: {args.file}: {err}", file=sys.stderr)
        return 2
    if not entries:
        print(f"tabletop replay: {args.file}: the record is empty; its first line must be the game",
              file=sys.stderr)
        return 2
    verdicts, state = replay(entries)
    _print_lines([v.to_json() for v in verdicts] + [state.to_json()], sys.stdout)
    return 0


def _evening(text: str) -> str:
    from tabletop.history import EVENING

    if not EVENING.fullmatch(text):
        raise argparse.ArgumentTypeError(f"{text!r} is not a date written YYYY-MM-DD")
    return text


def _history(args: argparse.Namespace) -> int:
    from tabletop.config import load_config
    from tabletop.history import History
    from tabletop.store import FILE_NAME

    try:
        state = args.state if args.state is not None else load_config().state
    except TabletopError as err:
        print(f"tabletop history: {err}; name the folder with --state", file=sys.stderr)
        return 2
    if not (state / FILE_NAME).exists():
        print(f"tabletop history: no game log in {state} (the table keeps {FILE_NAME} in its state folder; "
              "name another with --state)", file=sys.stderr)
        return 2
    history = History(state)
    try:
        if args.csv:
            sys.stdout.write(history.csv())
        elif args.records:
            for line in history.records():
                sys.stdout.write(line + "\n")
        else:
            sys.stdout.write(_history_words(history, args.evening))
    except TabletopError as err:
        print(f"tabletop history: {err}", file=sys.stderr)
        return 2
    finally:
        history.close()
    return 0


def _history_words(history: History, evening: str | None) -> str:
    """The games, newest first, then each player's figures, as a person reads them at a terminal."""
    import time

    from tabletop.game.story import FIGURES

    lines = []
    for kept in history.games():
        when = time.strftime("%Y-%m-%d %H:%M", time.localtime(kept.started))
        if kept.story is None:
            lines.append(f"game {kept.game}  {when}  unreadable: {kept.damage}")
            continue
        story = kept.story
        winner = "no winner yet" if story.winner is None else f"{story.players[story.winner]} won"
        damaged = f"  (damaged, kept aside: {kept.damage})" if kept.damage else ""
        lines.append(f"game {kept.game}  {when}  {', '.join(story.players)}  {winner}  {len(story.rounds)} "
                     f"round{'s' if len(story.rounds) != 1 else ''}  {story.seconds / 60:.0f} min{damaged}")
    players = history.statistics(evening)["players"]
    lines.append("")
    lines.append(f"figures {'of ' + evening if evening else 'over every game'}:" if players else "no figures yet")
    rows = [["", *(str(player["name"]) for player in players)]]
    rows += [[name.replace("_", " "), *("-" if player[name] is None else str(player[name]) for player in players)]
             for name in (*FIGURES, "average_points")]
    widths = [max(len(row[column]) for row in rows) for column in range(len(rows[0]))]
    if players:
        lines += ["  ".join(cell.rjust(width) if column else cell.ljust(width)
                            for column, (cell, width) in enumerate(zip(row, widths, strict=True))) for row in rows]
    return "\n".join(lines) + "\n"


def _print_lines(objects: list[dict[str, object]], out: TextIO) -> None:
    for obj in objects:
        out.write(json.dumps(obj) + "\n")


def _simulate(args: argparse.Namespace) -> int:
    from tabletop.game.record import write_record
    from tabletop.lab.simulate import simulate_game

    try:
        game = simulate_game(args.seed, rules={"preset": args.preset}, players=args.players,
                             seats=not args.no_seats, draws_seen=not args.unseen_draws, deck=args.deck)
    except ValueError as err:
        print(f"tabletop simulate: {err}", file=sys.stderr)
        return 2
    for line in write_record(game.events):
        print(line)
    return 0


def _classify(args: argparse.Namespace) -> int:
    from tabletop.vision.classify import classify_every_card, classify_files
    from tabletop.vision.model import CardModel

    try:
        model = CardModel(args.model)
        results = classify_every_card(args.images, model) if args.all else classify_files(args.images, model)
        failed = False
        for result in results:
            failed = failed or "error" in result
            print(json.dumps(result) if args.json else _describe(result), flush=True)
    except ModelError as err:
        print(f"tabletop classify: {err}", file=sys.stderr)
        return 2
    return 1 if failed else 0


def _describe(result: dict[str, object]) -> str:
    """One line for a person: the card and how sure, marked unsure where the table would ask the phones."""
    from tabletop.vision.model import UNSURE_BELOW

    if "error" in result:
        return f"{result['image']}: error: {result['error']}"
    if "cards" in result:
        cards = result["cards"]
        assert isinstance(cards, list)
        said = "".join(f"\n  {_card_words(card)}" for card in cards)
        return f"{result['image']}: {len(cards)} card{'s' if len(cards) != 1 else ''}{said}"
    confidence = float(result["confidence"])  # type: ignore[arg-type]
    doubt = ", unsure" if result["card"] and confidence < UNSURE_BELOW else ""
    return f"{result['image']}: {result['card'] or 'no card'} ({confidence:.0%}{doubt})"


def _card_words(card: dict[str, object]) -> str:
    """One card of ``classify --all`` for a person: which, how sure, and whether only its index showed."""
    from tabletop.vision.model import UNSURE_BELOW

    confidence = float(card["confidence"])  # type: ignore[arg-type]
    doubt = ", unsure" if confidence < UNSURE_BELOW else ""
    return f"{card['card']} ({confidence:.0%}{doubt}{'' if 'corners' in card else ', read from its index corner'})"


def _train(args: argparse.Namespace) -> int:
    try:
        from tabletop.lab.training.train import Recipe, train
        from tabletop.lab.training.train_finder import FinderRecipe, train_finder
        from tabletop.lab.training.train_index_finder import IndexRecipe, train_index_finder
    except ImportError as err:
        print(f"tabletop train: {err.name} is missing; install the train extra: pip install -e '.[train]'",
              file=sys.stderr)
        return 2
    from tabletop.vision.model import MODELS

    folder = args.out or MODELS
    folder.mkdir(parents=True, exist_ok=True)
    if args.what in ("all", "cards"):
        chosen = {k: v for k, v in (("samples", args.samples), ("epochs", args.epochs)) if v is not None}
        train(folder, Recipe(seed=args.seed, **chosen), workers=args.workers)
    framed = {k: v for k, v in (("frames", args.samples), ("epochs", args.epochs)) if v is not None}
    if args.what in ("all", "finder"):
        train_finder(folder, FinderRecipe(seed=args.seed, **framed), workers=args.workers)
    if args.what in ("all", "indexes"):
        train_index_finder(folder, IndexRecipe(seed=args.seed, **framed), workers=args.workers)
    return 0


def _watch(args: argparse.Namespace) -> int:
    from tabletop.game.events import Game
    from tabletop.game.rules import Rules
    from tabletop.lab.tablesim import SOURCE_NAME
    from tabletop.lab.tablesim.table import simulated_table
    from tabletop.sources.open import numbered, watched_source
    from tabletop.vision.model import CardModel
    from tabletop.watcher.layout import read_layout
    from tabletop.watcher.stream import watch

    layout: Layout | None
    try:
        model = CardModel(args.model)
        seed = numbered(args.source, SOURCE_NAME)
        if seed is not None:
            table = simulated_table(seed)
            layout, frames, players = table.layout, table.video.frames(), _players(args.players, table.layout)
        else:
            layout = read_layout(args.layout) if args.layout else None
            frames = watched_source(args.source, _to_stderr).frames()
            players = _players(args.players, layout)
        game = Game(players=players, rules=Rules.parse({"preset": args.preset}))
        for event in watch(frames, game, model, layout, _unread_play):
            print(json.dumps(event.to_json()), flush=True)
    except TabletopError as err:
        print(f"tabletop watch: {err}", file=sys.stderr)
        return 2
    return 0


def _unread_play(warning: str) -> None:
    """Said on standard error, since standard output is the record."""
    _to_stderr(f"tabletop watch: {warning}: check the layout (tabletop calibrate --picture FILE draws the zones "
               "it measures), the light and the camera")


def _calibrate(args: argparse.Namespace) -> int:
    from tabletop.sources.open import watched_source
    from tabletop.vision.model import CardModel
    from tabletop.watcher.calibrate import learn_seats
    from tabletop.watcher.layout import layout_to_json
    from tabletop.watcher.picture import draw_calibration, write_picture

    try:
        model = CardModel(args.model)
        frames = iter(watched_source(args.source, _to_stderr).frames())
        first = next(frames, None)
        if first is None:
            raise TabletopError(f"{args.source} gave no picture")
        found = _measured(first, args.players, model, args.picture)
        for doubt in found.doubts:
            _to_stderr(f"tabletop calibrate: warning: {doubt}")
        layout = found.layout
        if args.learn_seats:
            _to_stderr(f"{args.players} players: in seat order, each reach into the middle of the table once")
            layout = replace(layout, seats=learn_seats(frames, layout, args.players))
            if args.picture:
                write_picture(draw_calibration(first.image, layout, found.deck), args.picture)
    except TabletopError as err:
        print(f"tabletop calibrate: {err}", file=sys.stderr)
        return 2
    print(json.dumps(layout_to_json(layout), indent=2))
    return 0


def _measured(frame: Frame, players: int, model: CardModel, picture: Path | None) -> Calibration:
    """The table measured on ``frame``; with ``picture``, what was found, or what was refused, drawn there, so
    that whoever mounts the camera can look rather than read numbers."""
    from tabletop.watcher.calibrate import measure_table
    from tabletop.watcher.picture import draw_calibration, draw_refusal, write_picture

    image = frame.image
    try:
        found = measure_table(frame, players, model)
    except CalibrationError as err:
        if picture:
            write_picture(draw_refusal(image, err.suspects), picture)
        raise
    if picture:
        write_picture(draw_calibration(image, found.layout, found.deck), picture)
    return found


def _to_stderr(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def _players(names: str | None, layout: Layout | None) -> tuple[str, ...]:
    """The names given, or one per seat of the layout; and they must match the layout's seats."""

    seats = None if layout is None else len(layout.seats)
    players = tuple(n.strip() for n in names.split(",")) if names else tuple(f"P{k}" for k in range(seats or 4))
    if seats is not None and len(players) != seats:
        raise LayoutError(f"{len(players)} players named, but the layout has {seats} seats")
    if len(players) not in PLAYERS or not all(players):
        raise LayoutError("name 2 to 10 players, comma separated")
    return players


def _bench(args: argparse.Namespace) -> int:
    from tabletop.lab import bench
    from tabletop.lab.bench_web import bench_web

    if args.faces is not None and args.part != "watcher":
        print("tabletop bench: --faces is for the watcher benchmark (tabletop bench watcher --faces DIR)",
              file=sys.stderr)
        return 2
    if args.part == "all":
        bench.bench_all(lambda line: print(line, flush=True))
        return 0
    if args.part == "web":
        figures = bench_web(seconds=args.seconds)
    elif args.part == "real":
        figures = bench.bench_real(args.scenes)
    elif args.part == "watcher":
        figures = bench.bench_watcher(faces=args.faces)
    else:
        figures = bench.parts()[args.part]()
    try:
        for found in figures:
            print(found.line, flush=True)
    except TabletopError as err:
        print(f"tabletop bench: {err}", file=sys.stderr)
        return 2
    return 0

if __name__ == "__main__":
    sys.exit(main())
