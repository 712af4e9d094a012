"""The ``pybridge`` command."""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from . import __version__
from .authoring.cli import add_authoring_commands
from .autoplay import living_summary, play_out
from .demo import add_demo_command
from .devtools.bench import add_bench_command
from .devtools.build.command import add_build_command
from .devtools.fuzzing import add_fuzz_command
from .devtools.release import add_dist_command
from .examples import demo_battle
from .messages_command import add_messages_command
from .online.command import add_replay_command, add_ws_options
from .pack import add_pack_command
from .runtime import Battle, load_battle
from .runtime.narrate import Line, narrate_all
from .simulate import add_simulate_command
from .transports.stdio import add_serve_command
from .workshop import add_workshop_command


def battle_log(battle: Battle, max_turns: int = 50,
               say: Callable[[Line], str] | None = None) -> list[str]:  # fmt: skip
    """The whole battle as a player reads it; ``say`` words each log line (its English by
    default, a :class:`.translating.Translator`'s language with ``--po``)."""
    lines = ["Turn 1. " + living_summary(battle)]
    for kind, events in play_out(battle, max_turns):
        told = narrate_all(battle, events)
        lines.extend("  " * line["indent"] + (say or _english)(line) for line in told)
        if kind == "turn" and battle.result is None:
            lines.append("  " + living_summary(battle))
    lines.append(
        f"Result: {battle.result or 'undecided'} after {battle.turn} turns. "
        + living_summary(battle)
    )
    return lines


def _english(line: Line) -> str:
    return str(line["text"])


def _cmd_battle(args: argparse.Namespace) -> int:
    try:
        document = json.loads(Path(args.file).read_text("utf-8")) if args.file else demo_battle()
        battle = load_battle(document)
        say = None
        if args.po:
            from .translating import Translator

            translator = Translator(args.po)
            say = lambda line: translator.say(line["message"])  # noqa: E731
    except (OSError, ValueError, ImportError) as exc:
        print(f"pybridge battle: {exc}", file=sys.stderr)
        return 2
    for line in battle_log(battle, args.max_turns, say):
        print(line)
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="pybridge", description=__doc__)
    parser.add_argument("--version", action="version", version=f"pybridge {__version__}")
    commands = parser.add_subparsers(dest="command", required=True)
    battle = commands.add_parser("battle", help="play a battle headlessly and print its log")
    battle.add_argument("file", nargs="?", help="battle document (default: the demo battle)")
    battle.add_argument("--max-turns", type=int, default=50, help="stop after this many turns")
    battle.add_argument("--po", metavar="FILE", help="print the log in this PO file's language")
    battle.set_defaults(run=_cmd_battle)
    add_ws_options(*add_serve_command(commands))
    add_replay_command(commands)
    add_pack_command(commands)
    add_build_command(commands)
    add_fuzz_command(commands)
    add_authoring_commands(commands)
    add_bench_command(commands)
    add_simulate_command(commands)
    add_demo_command(commands)
    add_dist_command(commands)
    add_workshop_command(commands)
    add_messages_command(commands)
    return parser


#: The status a process killed by SIGPIPE reports (128 + 13), as ``yes | head`` does.
CLOSED_PIPE = 141


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        code: int = args.run(args)
        sys.stdout.flush()
    except BrokenPipeError:
        # The reader went away (``pybridge battle | head``): stop quietly. Python would flush
        # stdout again at exit and complain, so point it at the null device first.
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, sys.stdout.fileno())
        os.close(null)
        return CLOSED_PIPE
    return code


if __name__ == "__main__":
    raise SystemExit(main())
