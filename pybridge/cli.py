"""The ``pybridge`` command."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from . import __version__
from .examples import demo_battle
from .ffi.build import add_build_command
from .narrate import narrate_all
from .pack import add_pack_command
from .runtime import Battle, Pile, TargetingError, Team, load_battle, play, targets
from .transports.stdio import add_serve_command


def _status_line(battle: Battle) -> str:
    parts = []
    for team in Team:
        units = [
            f"{u.name} {u.hp}/{u.max_hp}"
            + (f" [{u.armor} armor]" if u.armor else "")
            + ("" if u.alive else " (down)")
            for u in battle.team(team)
        ]
        parts.append(f"{team.value}: " + ", ".join(units))
    return " | ".join(parts)


def play_scripted_battle(battle: Battle) -> list[str]:
    """Play the whole hand once, in order, aiming each card at its first candidate."""
    lines = [f"Turn {battle.turn}. " + _status_line(battle)]
    battle.energy = 99  # the scripted tour plays every card regardless of cost
    for card_id in list(battle.piles[Pile.HAND]):
        if card_id not in battle.piles[Pile.HAND]:
            continue
        info = targets(battle, card_id)
        target = info.candidates[-1] if info.requires_target and info.candidates else None
        try:
            events = play(battle, card_id, target)
        except TargetingError as exc:
            lines.append(f"{battle.cards[card_id].card.name} cannot be played: {exc}")
            continue
        lines.extend(narrate_all(battle, events))
    lines.append("End. " + _status_line(battle))
    return lines


def _cmd_battle(args: argparse.Namespace) -> int:
    try:
        document = json.loads(Path(args.file).read_text("utf-8")) if args.file else demo_battle()
        battle = load_battle(document)
    except (OSError, ValueError) as exc:
        print(f"pybridge battle: {exc}", file=sys.stderr)
        return 2
    for line in play_scripted_battle(battle):
        print(line)
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="pybridge", description=__doc__)
    parser.add_argument("--version", action="version", version=f"pybridge {__version__}")
    commands = parser.add_subparsers(dest="command", required=True)
    battle = commands.add_parser("battle", help="play a battle headlessly and print its log")
    battle.add_argument("file", nargs="?", help="battle document (default: the demo battle)")
    battle.set_defaults(run=_cmd_battle)
    add_serve_command(commands)
    add_pack_command(commands)
    add_build_command(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    code: int = args.run(args)
    return code


if __name__ == "__main__":
    raise SystemExit(main())
