"""Battle simulation: whole demo battles per second with random legal plays.

The battles are played by :mod:`pybridge.simulate` (its engine and random policy, the
same code ``pybridge simulate`` runs): battle ``i`` is the demo battle with seed ``i``. One
core runs in this process; the worker runs split the same seeds over local processes with
the simulation's own local engine.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from ...examples import demo_battle
from ...runtime import load_battle
from ...simulate.batches import Job, Plan
from ...simulate.engine import Prepared, play_battle
from ...simulate.inputs import EncounterSource, SimulationSpec
from ...simulate.local import Collector, run_local
from ...simulate.policies import RandomPolicy
from ...simulate.progress import Progress
from ...simulate.results import RunResult
from ...simulate.tally import EncounterTally
from .plan import BenchPlan
from .stats import quiet_heap

DEMO = "demo"


def _rates(tally: EncounterTally, seconds: float) -> dict[str, Any]:
    battles = tally.battles
    return {
        "battles": battles,
        "seconds": seconds,
        "battles_per_second": battles / seconds,
        "plays_per_second": tally.plays / seconds,
        "mean_turns": tally.turns / battles,
        "mean_plays": tally.plays / battles,
        "results": {r: n for r in ("defeat", "undecided", "victory") if (n := getattr(tally, r))},
        "turns": tally.turns,
        "plays": tally.plays,
    }


def run_one_core(plan: BenchPlan, progress: bool) -> dict[str, Any]:
    prepared = Prepared.of(DEMO, load_battle(demo_battle()))
    tally = EncounterTally()
    with Progress(plan.battles, progress, "battles (one core)") as bar, quiet_heap():
        started = time.perf_counter()
        for seed in range(plan.battles):
            play_battle(prepared, seed, RandomPolicy(), plan.max_turns, tally)
            bar.advance(1)
        seconds = time.perf_counter() - started
    return _rates(tally, seconds)


def run_workers(plan: BenchPlan, workers: int, progress: bool) -> dict[str, Any]:
    """The same seeds over ``workers`` local processes (their start-up is timed too)."""
    spec = SimulationSpec.of([], [EncounterSource(DEMO, "demo_battle.json", demo_battle())])
    result = RunResult("random", plan.battles, 0, plan.max_turns, {DEMO: "demo_battle.json"}, {})
    label = f"battles ({workers} worker{'s' * (workers > 1)})"
    with Progress(plan.battles, progress, label) as bar, quiet_heap():
        collector = Collector(result, bar)
        run_local(Job(spec, "random", plan.max_turns), Plan((DEMO,), plan.battles, 0),
                  workers, collector)  # fmt: skip
        collector.finish()
    return {"workers": workers, **_rates(result.tallies[DEMO], result.timing.wall_seconds)}


def run_simulation(plan: BenchPlan, progress: bool, say: Callable[[str], None]) -> dict[str, Any]:
    say(f"simulation: {plan.battles} battles on one core")
    one_core = run_one_core(plan, progress)
    runs = {}
    for workers in plan.workers:
        say(f"simulation: {plan.battles} battles on {workers} worker process(es)")
        runs[str(workers)] = run_workers(plan, workers, progress)
    first = runs[str(plan.workers[0])]["battles_per_second"] if runs else 0.0
    scaling = {n: run["battles_per_second"] / first for n, run in runs.items()} if first else {}
    return {
        "battle": "pybridge/examples/demo_battle.json, seed = battle number, random legal plays "
        "(pybridge.simulate)",
        "max_turns": plan.max_turns,
        "one_core": one_core,
        "workers": runs,
        "scaling": scaling,
    }
