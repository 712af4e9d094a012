"""``pybridge bench``: bridge latency, resolution throughput, battle simulation and memory,
measured in one process run, printed as tables and written as JSON.

Numbers are compared only within one run (ratios against a floor measured alongside), never
against fixed wall-clock times. The measuring modules are imported only when the command
runs, so the other ``pybridge`` commands (``serve --stdio`` among them) start as fast as
before.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from ... import extensions

DEFAULT_OUTPUT = Path("artifacts") / "bench.json"
ONLINE_OUTPUT = Path("artifacts") / "bench-online.json"

__all__ = ["DEFAULT_OUTPUT", "add_bench_command"]


def _cmd_online(args: argparse.Namespace) -> int:
    from .online import render_online, run_online

    online = run_online(args.online, args.online_pace)
    result = {"format": "pybridge/bench-online@1", "online": online}
    output = Path(args.output) if args.output != str(DEFAULT_OUTPUT) else ONLINE_OUTPUT
    output.parent.mkdir(parents=True, exist_ok=True)
    output.write_text(json.dumps(result, indent=2) + "\n", "utf-8")
    sys.stdout.write(render_online(online))
    print(f"\nwrote {output}")
    return 0


def _cmd_bench(args: argparse.Namespace) -> int:
    if args.online:
        return _cmd_online(args)
    from .plan import make_plan
    from .project import ProjectError, read_game
    from .report import render
    from .run import run_bench

    game = None
    if args.battle or args.library or args.project or args.extension:
        try:  # the game's files are read before anything is measured
            game = read_game(args.project, args.extension, args.battle, args.library)
        except (ProjectError, extensions.ExtensionError) as exc:
            print(f"pybridge bench: {exc}", file=sys.stderr)
            return 2

    overrides: dict[str, Any] = {"browser": not args.no_browser, "progress": not args.no_progress}
    if args.workers:
        overrides["workers"] = tuple(args.workers)
    plan = make_plan(args.quick, args.scale, **overrides)
    result = run_bench(plan, game)
    output = Path(args.output)
    output.parent.mkdir(parents=True, exist_ok=True)
    output.write_text(json.dumps(result, indent=2) + "\n", "utf-8")
    sys.stdout.write(render(result))
    print(f"\nwrote {output}")
    return 0


def _positive(text: str) -> float:
    value = float(text)
    if not value > 0:
        raise argparse.ArgumentTypeError(f"must be positive, got {text!r}")
    return value


def _workers(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {text!r}")
    return value


def add_bench_command(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``pybridge bench [--quick | --full] [--output FILE] [--project DIR] [--battle FILE]
    ...``."""
    cmd = subparsers.add_parser(
        "bench",
        help="measure bridge latency, resolution throughput, battle simulation and memory",
        description="Measure, in one run: bridge round trips (direct API, protocol.call, C ABI, "
        "stdio, Godot web + Pyodide), resolution throughput against hand-written floors, whole "
        "battles per second on one and more cores, and memory. Prints Markdown tables and "
        "writes the numbers as JSON. Only ratios within one run are compared.",
    )
    mode = cmd.add_mutually_exclusive_group()
    mode.add_argument("--quick", action="store_true", help="fewer calls: under a minute (CI)")
    mode.add_argument(
        "--full",
        action="store_false",
        dest="quick",
        help="the full plan (default): 1,000,000 C ABI calls for RSS",
    )
    cmd.add_argument(
        "--output",
        metavar="FILE",
        default=str(DEFAULT_OUTPUT),
        help=f"where to write the JSON results (default: {DEFAULT_OUTPUT})",
    )
    cmd.add_argument(
        "--no-browser",
        action="store_true",
        help="skip the web engine even when chromium is available",
    )
    cmd.add_argument(
        "--online",
        metavar="N",
        type=_workers,
        help="only the online section: N scripted duels at once against one server process "
        "on the loopback (move p50 and p99, duels per core second, memory per match)",
    )
    cmd.add_argument(
        "--online-pace",
        metavar="SECONDS",
        type=float,
        default=0.0,
        help="with --online: each duel's seats think about this long before a move "
        "(random, 0 to twice as long; default 0: flat out)",
    )
    cmd.add_argument("--no-progress", action="store_true", help="no status lines on stderr")
    cmd.add_argument(
        "--workers",
        metavar="N",
        type=_workers,
        nargs="+",
        help="worker-process counts for the simulation (default: 1 2)",
    )
    cmd.add_argument(
        "--scale",
        metavar="FACTOR",
        type=_positive,
        default=1.0,
        help="multiply every count by FACTOR (tests use a small one)",
    )
    # A game's own battles, read with its words: played to their end, its extensions' words counted.
    cmd.add_argument("--battle", metavar="FILE", action="append", default=[],
                     help="also play this battle document of the game with random legal plays, "
                     "with the game's extensions loaded (again for more)")  # fmt: skip
    cmd.add_argument("--library", metavar="FILE", action="append", default=[],
                     help="a card library the --battle documents name cards from (again for "
                     "more)")  # fmt: skip
    extensions.add_options(cmd, "play the --battle documents with")
    cmd.set_defaults(run=_cmd_bench)
