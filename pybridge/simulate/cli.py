"""``pybridge simulate``: play many battles per encounter and report per encounter and per
card; ``--compare BEFORE AFTER`` tells which differences between two runs are significant."""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

from .. import extensions
from .arguments import CONNECT_TIMEOUT, policy_spec
from .batches import Job, Plan
from .examples import EXAMPLE_ENCOUNTERS, EXAMPLE_LIBRARY
from .inputs import InputError, prototypes_of, read_spec
from .local import Collector, run_local
from .output import RESULTS_FILE, summary_lines, write_results
from .policies import PolicyError, policy_factory
from .progress import Progress
from .results import RunResult, Timing, card_info

#: The exit status of a run stopped by Ctrl+C (128 + SIGINT), after writing what it has.
INTERRUPTED = 130


def _say(message: str) -> None:
    print(f"pybridge simulate: {message}", file=sys.stderr, flush=True)


def cpu_count() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def run_command(args: argparse.Namespace) -> int:
    if args.compare:
        from .compare import compare_command

        code: int = compare_command(Path(args.compare[0]), Path(args.compare[1]), Path(args.out))
        return code
    if args.duel:
        from .duels import duel_command

        return duel_command(args)
    try:
        args.policy = policy_spec(args)  # ai with its budget: one spec for every worker
    except argparse.ArgumentTypeError as exc:
        _say(str(exc))
        return 2
    encounters = [Path(p) for p in args.encounters]
    library = Path(args.library) if args.library else None
    if not encounters and library is None:
        encounters, library = [EXAMPLE_ENCOUNTERS], EXAMPLE_LIBRARY
    try:
        files = extensions.from_options(args.project, args.extension)
        spec = read_spec(library, encounters, files)
        policy_factory(args.policy)
    except (InputError, PolicyError, extensions.ExtensionError) as exc:
        _say(str(exc))
        return 2
    battles, problems = prototypes_of(spec)
    for problem in problems:
        _say(problem.message)
    result = RunResult(args.policy, args.battles, args.seed, args.max_turns,
                       {e.id: e.origin for e in spec.encounters}, card_info(battles),
                       problems=problems)  # fmt: skip
    job = Job(spec, args.policy, args.max_turns)
    slots = args.workers or cpu_count()
    ready = [e.id for e in spec.encounters if e.id in battles]
    plan = Plan(tuple(ready), args.battles, args.seed, args.batch_size)
    code = play_all(result, job, plan, slots, args.cluster, not args.no_progress,
                    connect_timeout=args.connect_timeout)  # fmt: skip
    out = Path(args.out)
    written = write_results(result, out)
    if not args.no_report and result.played:  # a report of no battle would read as a run
        written += _report(result, out)
    for line in summary_lines(result):
        print(line)
    print("wrote " + ", ".join(str(p) for p in written))
    if code == 0 and result.problems:
        code = 1
    return code


def play_all(result: RunResult, job: Job, plan: Plan, slots: int, cluster: str | None,
             progress: bool, connect_timeout: float = CONNECT_TIMEOUT) -> int:  # fmt: skip
    """Run the batches locally or on the cluster; 0, or INTERRUPTED after Ctrl+C, or 2 when
    the cluster cannot be used (``connect_timeout``: seconds to wait for it). The result
    holds whatever finished."""
    with Progress(plan.total, progress) as bar:
        collector = Collector(result, bar)
        try:
            if cluster:
                from .cluster import ClusterError, run_cluster

                try:
                    run_cluster(cluster, job, plan, collector, timeout=connect_timeout)
                except ClusterError as exc:
                    _say(str(exc))
                    return 2
            else:
                run_local(job, plan, slots, collector)
        except KeyboardInterrupt:
            result.interrupted = True
        finally:
            collector.finish()
    if result.interrupted:
        _say(f"interrupted: keeping the {result.played} battles that finished")
        return INTERRUPTED
    return 0


def _report(result: RunResult, out: Path) -> list[Path]:
    try:
        from .report import write_report
    except ImportError:
        _say("the HTML report needs the 'sim' extra (pip install 'pybridge[sim]')")
        return []
    return [write_report(result, out / "report.html")]


def load_result(path: Path) -> RunResult:
    """A run's results from its results.json (or the directory holding it)."""
    file = path / RESULTS_FILE if path.is_dir() else path
    try:
        return RunResult.from_json(json.loads(file.read_text("utf-8")))
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise InputError(f"{str(file)!r}: cannot read simulation results ({exc})") from exc


__all__ = ["Timing", "load_result", "run_command"]
