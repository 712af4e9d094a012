"""Two-sided matches and a budget bench for the search AI (``python -m pybridge.ai.match``).

``pybridge simulate`` plays one-sided encounters (the party against enemies acting on
intents); a duel needs a controller for each side, so matches of the rivals duel are played
here: ``ai`` (the search, from its own view), ``random`` (a uniformly random legal move) or
``greedy`` (one ply: every legal move tried on a copy of the battle, the best by
:func:`.search.score` for its side; like simulate's greedy it looks at the copy, hidden cards
included, so it is a baseline, not a fair player). Sides alternate between games, so neither
controller always moves first. Each game's seed gives the same game on every machine.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..examples import rivals_battle
from ..runtime import Battle, Pcg32, Team, load_battle
from ..runtime.choices import DEFAULT_ANSWERS
from ..runtime.cut_answers import acting_side
from ..runtime.turns import start_battle
from ..runtime.views import PLAYER, enable, state_view
from .search import Action, apply_action, decide, legal_actions, score
from .seat import seat_move

#: A controller: the move for the acting side of a battle, drawing from its own PRNG.
Controller = Callable[[Battle, Pcg32], Action]
#: A game still going after this many turns is a draw.
MAX_TURNS = 30
#: Moves one game may take in all (a safety net against a controller that never ends).
MAX_MOVES = 2000
_Z95 = 1.959963984540054


def random_controller(battle: Battle, rng: Pcg32) -> Action:
    moves = legal_actions(battle)
    return moves[rng.below(len(moves)) if len(moves) > 1 else 0]


def greedy_controller(battle: Battle, rng: Pcg32) -> Action:
    """The legal move whose result scores best for the acting side (ties: the first)."""
    side = acting_side(battle)
    best, best_score = None, -1.0
    for move in legal_actions(battle):
        copy = battle.clone()
        copy.answers = DEFAULT_ANSWERS
        apply_action(copy, move)
        value = score(copy, side)
        if value > best_score:
            best, best_score = move, value
    assert best is not None
    return best


def ai_controller(iterations: int) -> Controller:
    def controller(battle: Battle, rng: Pcg32) -> Action:
        return seat_move(battle, rng.next_u32(), iterations)[1]

    return controller


def controller_named(spec: str) -> Controller:
    """``random``, ``greedy`` or ``ai:N`` (the search at N iterations a decision; ``ai``
    alone: 50)."""
    kind, _, budget = spec.partition(":")
    if budget and not budget.isdigit():
        raise ValueError(f"controller {spec!r}: the budget after ':' is a number of iterations")
    return controller(kind, int(budget) if budget else 50)


def controller(name: str, iterations: int) -> Controller:
    if name == "ai":
        return ai_controller(iterations)
    found = {"random": random_controller, "greedy": greedy_controller}.get(name)
    if found is None:
        raise ValueError(f"controller {name!r}: expected ai, random or greedy")
    return found


def play_duel(document: dict[str, object], seed: int, player: Controller, enemy: Controller,
              max_turns: int = MAX_TURNS) -> str:  # fmt: skip
    """One game of a two-sided battle with this seed: ``victory`` (the player side won),
    ``defeat`` or ``draw``."""
    battle = load_battle({**document, "seed": seed})
    battle.answers = DEFAULT_ANSWERS
    rng = Pcg32(seed, 0xD0E1)
    enable(battle, b"".join(rng.next_u32().to_bytes(4, "big") for _ in range(4)))
    start_battle(battle)
    sides = {Team.PLAYER: player, Team.ENEMY: enemy}
    for _ in range(MAX_MOVES):
        if battle.result is not None or battle.turn > max_turns:
            break
        apply_action(battle, sides[acting_side(battle)](battle, rng))
    return battle.result or "draw"


@dataclass(frozen=True, slots=True)
class MatchResult:
    games: int
    wins: int
    losses: int
    draws: int

    @property
    def interval(self) -> tuple[float, float]:
        """The 95% Wilson interval of the first controller's win rate."""
        n, p = self.games, self.wins / max(self.games, 1)
        centre = (p + _Z95**2 / (2 * n)) / (1 + _Z95**2 / n)
        half = _Z95 * (p * (1 - p) / n + _Z95**2 / (4 * n * n)) ** 0.5 / (1 + _Z95**2 / n)
        return max(0.0, centre - half), min(1.0, centre + half)


def match(first: Controller, second: Controller, games: int, seed: int = 0,
          document: dict[str, object] | None = None) -> MatchResult:  # fmt: skip
    """``games`` games of ``first`` against ``second`` (the rivals duel by default), the
    sides swapped every other game; game i has seed ``seed + i``."""
    document = document or rivals_battle()
    wins = losses = draws = 0
    for index in range(games):
        swapped = index % 2 == 1
        player, enemy = (second, first) if swapped else (first, second)
        result = play_duel(document, seed + index, player, enemy)
        if result == "draw":
            draws += 1
        elif (result == "victory") != swapped:
            wins += 1
        else:
            losses += 1
    return MatchResult(games, wins, losses, draws)


def iterations_within(seconds: float, budget: int = 40, repeats: int = 3) -> int:
    """About how many iterations one decision on the rivals duel's opening fits in
    ``seconds`` on this machine: the rate of the fastest of ``repeats`` decisions of
    ``budget`` iterations (the fastest, as a shared machine only ever slows a run down)."""
    battle = load_battle(rivals_battle())
    enable(battle, bytes(range(16)))
    start_battle(battle)
    view = state_view(battle, PLAYER)
    decide(view, 0, 2)  # the first call compiles the Behaviors
    fastest = math.inf
    for repeat in range(repeats):
        started = time.perf_counter()
        decide(view, repeat, budget)
        fastest = min(fastest, time.perf_counter() - started)
    return int(budget / fastest * seconds)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m pybridge.ai.match",
                                     description="the search AI against a baseline on the "
                                     "rivals duel, and its budget on this machine")  # fmt: skip
    parser.add_argument("--against", default="greedy", choices=("greedy", "random", "ai"))
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--iterations", type=int, default=30)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--bench-ms", type=float, default=200.0,
                        help="also say how many iterations fit in this many milliseconds "
                        "(0: skip)")  # fmt: skip
    args = parser.parse_args(argv)
    if args.bench_ms > 0:
        fits = iterations_within(args.bench_ms / 1000)
        print(f"about {fits} iterations fit in {args.bench_ms:g} ms per decision here")
    if args.games < 1:
        return 0
    result = match(ai_controller(args.iterations), controller(args.against, args.iterations),
                   args.games, args.seed)  # fmt: skip
    low, high = result.interval
    print(
        f"ai ({args.iterations} iterations) against {args.against} on the rivals duel: "
        f"{result.wins} won, {result.losses} lost, {result.draws} drawn of {result.games}; "
        f"win rate {result.wins / result.games:.0%} (95% CI {low:.0%} to {high:.0%})"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
