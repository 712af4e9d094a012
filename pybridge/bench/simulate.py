"""Battle simulation: whole demo battles per second with random legal plays.

Battle ``i`` is the demo battle with seed ``i`` (so the enemies choose differently), played
out by :func:`pybridge.autoplay.play_out` with its own PRNG, as a designer's batch run would.
One core runs in this process; the worker runs split the same battles over processes.
"""

from __future__ import annotations

import multiprocessing
import time
from collections import Counter
from collections.abc import Callable
from typing import Any

from ..autoplay import play_out
from ..examples import demo_battle
from ..runtime import Battle, Pcg32, load_battle
from .plan import Plan
from .progress import ProgressBar
from .stats import quiet_heap

PLAYER_SEED_OFFSET = 1_000_003
CHUNKS_PER_WORKER = 8


def simulate_one(base: Battle, seed: int, max_turns: int) -> dict[str, Any]:
    """Play the battle with this seed to its end; what happened, in numbers."""
    battle = base.clone()
    battle.seed, battle.rng = seed, Pcg32(seed)
    plays = events = 0
    for kind, batch in play_out(battle, max_turns, Pcg32(seed + PLAYER_SEED_OFFSET)):
        plays += kind == "play"
        events += len(batch)
    return {
        "result": battle.result or "undecided",
        "turns": battle.turn,
        "plays": plays,
        "events": events,
    }


def _tally(outcomes: list[dict[str, Any]]) -> dict[str, Any]:
    results = Counter(o["result"] for o in outcomes)
    return {
        "results": dict(sorted(results.items())),
        "turns": sum(o["turns"] for o in outcomes),
        "plays": sum(o["plays"] for o in outcomes),
        "events": sum(o["events"] for o in outcomes),
    }


def simulate_range(bounds: tuple[int, int, int]) -> dict[str, Any]:
    """Battles ``first`` to ``last - 1`` (a worker's chunk); their tally."""
    first, last, max_turns = bounds
    base = load_battle(demo_battle())
    return _tally([simulate_one(base, seed, max_turns) for seed in range(first, last)])


def _merge(tallies: list[dict[str, Any]]) -> dict[str, Any]:
    results: Counter[str] = Counter()
    for tally in tallies:
        results.update(tally["results"])
    merged = {key: sum(t[key] for t in tallies) for key in ("turns", "plays", "events")}
    return {"results": dict(sorted(results.items())), **merged}


def _rates(battles: int, seconds: float, tally: dict[str, Any]) -> dict[str, Any]:
    return {
        "battles": battles,
        "seconds": seconds,
        "battles_per_second": battles / seconds,
        "plays_per_second": tally["plays"] / seconds,
        "mean_turns": tally["turns"] / battles,
        "mean_plays": tally["plays"] / battles,
        **tally,
    }


def run_one_core(plan: Plan, progress: bool) -> dict[str, Any]:
    base = load_battle(demo_battle())
    bar = ProgressBar(plan.battles, "battles (one core)", progress)
    outcomes = []
    with quiet_heap():  # as the forked workers, which inherit the frozen heap
        started = time.perf_counter()
        for seed in range(plan.battles):
            outcomes.append(simulate_one(base, seed, plan.max_turns))
            bar.advance()
        seconds = time.perf_counter() - started
    bar.close()
    return _rates(plan.battles, seconds, _tally(outcomes))


def run_workers(plan: Plan, workers: int, progress: bool) -> dict[str, Any]:
    """The same battles over ``workers`` processes (started before the clock starts)."""
    chunk = max(1, plan.battles // (workers * CHUNKS_PER_WORKER))
    bounds = [
        (first, min(first + chunk, plan.battles), plan.max_turns)
        for first in range(0, plan.battles, chunk)
    ]
    bar = ProgressBar(plan.battles, f"battles ({workers} worker{'s' * (workers > 1)})", progress)
    with quiet_heap(), multiprocessing.get_context().Pool(workers) as pool:
        pool.map(simulate_range, [(0, 0, plan.max_turns)] * workers)  # start every worker
        started = time.perf_counter()
        tallies = []
        for tally in pool.imap_unordered(simulate_range, bounds):
            tallies.append(tally)
            bar.advance(sum(tally["results"].values()))
        seconds = time.perf_counter() - started
    bar.close()
    return {"workers": workers, **_rates(plan.battles, seconds, _merge(tallies))}


def run_simulation(plan: Plan, progress: bool, say: Callable[[str], None]) -> dict[str, Any]:
    say(f"simulation: {plan.battles} battles on one core")
    one_core = run_one_core(plan, progress)
    runs = {}
    for workers in plan.workers:
        say(f"simulation: {plan.battles} battles on {workers} worker process(es)")
        runs[str(workers)] = run_workers(plan, workers, progress)
    first = runs[str(plan.workers[0])]["battles_per_second"] if runs else 0.0
    scaling = {n: run["battles_per_second"] / first for n, run in runs.items()} if first else {}
    return {
        "battle": "pybridge/examples/demo_battle.json, seed = battle number, random legal plays",
        "max_turns": plan.max_turns,
        "one_core": one_core,
        "workers": runs,
        "scaling": scaling,
    }
