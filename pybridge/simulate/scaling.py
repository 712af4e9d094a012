"""Throughput with 1 and 2 workers: local processes and a real Dask cluster on loopback
(scheduler and workers started as separate processes, as an operator would), on the
example encounters with the random policy. Prints battles per second, the speed-up over one
worker, the scheduling overhead (the share of worker time not spent playing), battles per
CPU second inside the workers, and the share of the workers' wall time they got a CPU for
(below 100% when other work competes for the cores).

    python -m pybridge.simulate.scaling [--battles N] [--workers 1 2]
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from .batches import Job, Plan
from .examples import EXAMPLE_ENCOUNTERS, EXAMPLE_LIBRARY
from .inputs import prototypes_of, read_spec
from .local import Collector, run_local
from .progress import Progress
from .results import RunResult, card_info


def _run(job: Job, plan: Plan, workers: int, cluster: str | None) -> dict[str, Any]:
    battles, _ = prototypes_of(job.spec)
    origins = {e.id: e.origin for e in job.spec.encounters}
    result = RunResult(job.policy, plan.battles, plan.first_seed, job.max_turns, origins,
                       card_info(battles))  # fmt: skip
    collector = Collector(result, Progress(plan.total, enabled=False))
    if cluster is None:
        run_local(job, plan, workers, collector)
    else:
        from .cluster import run_cluster

        run_cluster(cluster, job, plan, collector)
    collector.finish()
    timing = result.timing
    return {"engine": timing.engine, "workers": timing.slots, "battles": result.played,
            "seconds": timing.wall_seconds, "battles_per_second": result.played /
            timing.wall_seconds, "batches": timing.batches,
            "scheduling_overhead": timing.overhead,
            "battles_per_cpu_second": result.played / timing.cpu_seconds if timing.cpu_seconds
            else 0.0,
            "cpu_share": timing.cpu_seconds / (timing.wall_seconds * timing.slots),
            "tallies": {k: v.to_json() for k, v in result.tallies.items()}}  # fmt: skip


def measure(battles: int, worker_counts: list[int]) -> list[dict[str, Any]]:
    from .loopback import LoopbackCluster

    spec = read_spec(EXAMPLE_LIBRARY, [EXAMPLE_ENCOUNTERS])
    job = Job(spec, "random", 40)
    plan = Plan(tuple(e.id for e in spec.encounters), battles, 0)
    runs = []
    for workers in worker_counts:
        runs.append(_run(job, plan, workers, None))
        with LoopbackCluster(workers) as cluster:
            runs.append(_run(job, plan, workers, cluster.address))
    reference = runs[0]["tallies"]
    for run in runs:
        run["same_results"] = run.pop("tallies") == reference
    return runs


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m pybridge.simulate.scaling",
                                     description=__doc__.split("\n\n")[0])  # fmt: skip
    parser.add_argument("--battles", type=int, default=2000, help="battles per encounter")
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--output", help="also write the numbers as JSON here")
    args = parser.parse_args(argv)
    runs = measure(args.battles, args.workers)
    base = {run["engine"]: run["battles_per_second"] for run in runs if run["workers"] == 1}
    header = ("engine", "workers", "battles", "seconds", "battles/s", "speed-up", "overhead",
              "per CPU s", "CPU got", "same")  # fmt: skip
    widths = (-7, 7, 8, 8, 10, 8, 8, 9, 7, 5)
    print(
        " ".join(
            f"{h:<{-w}}" if w < 0 else f"{h:>{w}}" for h, w in zip(header, widths, strict=True)
        )
    )
    for run in runs:
        speedup = run["battles_per_second"] / base.get(run["engine"], run["battles_per_second"])
        print(
            f"{run['engine']:<7} {run['workers']:>7} {run['battles']:>8} "
            f"{run['seconds']:>8.2f} {run['battles_per_second']:>10.1f} {speedup:>7.2f}x "
            f"{100 * run['scheduling_overhead']:>7.1f}% {run['battles_per_cpu_second']:>9.1f} "
            f"{100 * run['cpu_share']:>6.0f}% {run['same_results']!s:>5}"
        )
    if args.output:
        Path(args.output).write_text(json.dumps(runs, indent=1) + "\n", "utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
