"""The ``tabletop`` command: the composition root that wires the parts together for each subcommand."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import TextIO

from tabletop.errors import RecordError


def main(argv: Sequence[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    return int(args.run(args))


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="tabletop", description="An UNO referee that watches a real card table.")
    commands = parser.add_subparsers(required=True, metavar="COMMAND")

    replay = commands.add_parser("replay", help="replay a game record and print the verdicts and final state")
    replay.add_argument("file", help="a game record (JSON Lines), or - for standard input")
    replay.set_defaults(run=_replay)

    simulate = commands.add_parser("simulate", help="play one simulated game and print its record")
    simulate.add_argument("--seed", type=int, default=0, help="the same seed always gives the same game")
    simulate.add_argument("--players", type=int, default=4, help="2 to 10 (default 4)")
    simulate.add_argument("--preset", default="official", help="official, stacking, party or eastern")
    simulate.add_argument("--no-seats", action="store_true", help="plays and draws without seats")
    simulate.add_argument("--unseen-draws", action="store_true", help="a table that never reports draws")
    simulate.set_defaults(run=_simulate)

    bench = commands.add_parser("bench", help="measure how fast tabletop is on this machine")
    bench.add_argument("part", nargs="?", default="referee", choices=["referee"], help="what to measure")
    bench.set_defaults(run=_bench)
    return parser


def _replay(args: argparse.Namespace) -> int:
    from tabletop.record import read_record
    from tabletop.referee import replay

    try:
        if args.file == "-":
            entries = read_record(sys.stdin)
        else:
            with open(args.file, encoding="utf-8") as handle:
                entries = read_record(handle)
    except OSError as err:
        print(f"tabletop replay: cannot read {args.file}: {err.strerror}", file=sys.stderr)
        return 2
    except RecordError as err:
        print(f"tabletop replay: {args.file}: {err}", file=sys.stderr)
        return 2
    verdicts, state = replay(entries)
    _print_lines([v.to_json() for v in verdicts] + [state.to_json()], sys.stdout)
    return 0


def _print_lines(objects: list[dict[str, object]], out: TextIO) -> None:
    for obj in objects:
        out.write(json.dumps(obj) + "\n")


def _simulate(args: argparse.Namespace) -> int:
    from tabletop.record import write_record
    from tabletop.simulate import simulate_game

    try:
        game = simulate_game(args.seed, rules={"preset": args.preset}, players=args.players,
                             seats=not args.no_seats, draws_seen=not args.unseen_draws)
    except ValueError as err:
        print(f"tabletop simulate: {err}", file=sys.stderr)
        return 2
    for line in write_record(game.events):
        print(line)
    return 0


def _bench(args: argparse.Namespace) -> int:
    from tabletop.bench import bench_referee

    for line in bench_referee():
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
