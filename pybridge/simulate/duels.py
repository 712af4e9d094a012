"""``pybridge simulate --duel FIRST SECOND``: two controllers against each other on a
two-sided battle (the rivals duel by default), the sides swapped every other game, with the
first one's win rate and its 95 % Wilson interval (:mod:`pybridge.ai.match` plays them)."""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from ..ai.match import controller_named, match
from ..examples import rivals_battle


def duel_command(args: argparse.Namespace) -> int:
    first, second = args.duel
    try:
        players = controller_named(first), controller_named(second)
    except ValueError as exc:
        print(f"pybridge simulate: {exc}")
        return 2
    if len(args.encounters) > 1:
        print("pybridge simulate --duel: give at most one two-sided battle document")
        return 2
    document = json.loads(Path(args.encounters[0]).read_text("utf-8")) if args.encounters \
        else rivals_battle()  # fmt: skip
    if "sides" not in document:
        print("pybridge simulate --duel: the battle has one card-playing side; a duel needs two")
        return 2
    started = time.process_time()
    result = match(*players, args.battles, args.seed, document)
    seconds = time.process_time() - started
    low, high = result.interval
    rate = result.wins / result.games
    print(f"{first} against {second}: {result.wins} won, {result.losses} lost, "
          f"{result.draws} drawn of {result.games} (sides swapped every other game)")  # fmt: skip
    print(f"{first}'s win rate {rate:.1%}, 95 % CI {low:.1%} to {high:.1%}; {seconds:.0f} s CPU")
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    path = out / "duels.json"
    path.write_text(json.dumps({"first": first, "second": second, "games": result.games,
                                "wins": result.wins, "losses": result.losses,
                                "draws": result.draws, "win_rate": rate,
                                "interval": [low, high], "seed": args.seed},
                               indent=2) + "\n", "utf-8")  # fmt: skip
    print(f"wrote {path}")
    return 0
