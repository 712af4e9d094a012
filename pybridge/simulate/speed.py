"""Battles per second per core on the demo battle: this checkout's runtime against an
earlier revision's, in the same run.

The earlier revision's ``pybridge/`` is read out of git into a temporary directory (no copy
of old code is kept in the package; ``git archive`` would export nothing, as .gitattributes
keeps only the addon in archives). Child processes, one per runtime, are pinned to the same
CPU and take turns playing the same seeds with random legal plays: when the base revision
has the engine (pybridge/simulate/engine.py), every child plays the engine with
``RandomPolicy``, so the ratio compares the runtimes, not two loops. A third child runs this
checkout's compiled build (``python -m pybridge.devtools.compiled build``) when it is there. Each
counts the CPU time its battles took (``time.process_time``): battles per CPU second is
battles per second per core, and other work on a busy machine does not count against any
side. A ratio is the median of the per-round ratios; the wall-clock ratio is reported
beside it. ``--profile`` prints where this checkout's loop spends its time (cProfile).

    python -m pybridge.simulate.speed [--base REV] [--battles N] [--rounds R] [--no-compiled]

``--pyodide`` times the two pure runtimes in Pyodide instead (:mod:`.speed_web`); ``--count``
counts the bytecode instructions a battle executes on each (:mod:`.speed_count`).
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import os
import pstats
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

PROJECT_ROOT = Path(__file__).resolve().parents[2]
MAX_TURNS = 40
#: The base of issue #28's speed aim: the runtime before the work on its speed.
DEFAULT_BASE = "84cdf1c"

#: The child process: puts its roots first on sys.path, pins itself, loads the demo battle,
#: then times batches of seeds read from stdin. A revision without the engine has the loop of
#: pybridge/bench/simulate.py (random legal plays through pybridge/autoplay.py); otherwise
#: every child plays the same battles with its revision's engine and RandomPolicy.
_CHILD = r"""
import gc, os, sys, time
roots, cpu, max_turns = sys.argv[1].split(os.pathsep), int(sys.argv[2]), int(sys.argv[3])
sys.path[:0] = roots
os.sched_setaffinity(0, {cpu})
from pybridge.examples import demo_battle
from pybridge.runtime import load_battle
battle = load_battle(demo_battle())
if not os.path.exists(os.path.join(roots[-1], "pybridge", "simulate", "engine.py")):
    from pybridge.bench.simulate import simulate_one
    def play(seed):
        return simulate_one(battle, seed, max_turns)["result"] == "victory"
else:
    from pybridge.simulate.engine import Prepared, play_battle
    from pybridge.simulate.policies import RandomPolicy
    from pybridge.simulate.tally import EncounterTally
    prepared, tally = Prepared.of("demo", battle), EncounterTally()
    def play(seed):
        return play_battle(prepared, seed, RandomPolicy(), max_turns, tally) == "victory"
import pybridge.runtime.resolve as resolve
print(resolve.__file__, flush=True)
for seed in range(20):
    play(10**6 + seed)  # warm up
gc.collect()
gc.freeze()
for line in sys.stdin:
    first, count = map(int, line.split())
    started, cpu = time.perf_counter(), time.process_time()
    wins = sum(play(seed) for seed in range(first, first + count))
    print(time.process_time() - cpu, time.perf_counter() - started, wins, flush=True)
"""


def _git(*args: str) -> str:
    done = subprocess.run(["git", "-C", str(PROJECT_ROOT), *args], capture_output=True,
                          text=True, check=False)  # fmt: skip
    if done.returncode != 0:
        raise SystemExit(f"speed: git {' '.join(args)} failed: {done.stderr.strip()}")
    return done.stdout.strip()


def default_base() -> str:
    """:data:`DEFAULT_BASE` as a full hash, or ``HEAD`` when this clone lacks it (shallow)."""
    done = subprocess.run(["git", "-C", str(PROJECT_ROOT), "rev-parse", "--verify", "--quiet",
                           DEFAULT_BASE + "^{commit}"], capture_output=True, text=True,
                          check=False)  # fmt: skip
    return done.stdout.strip() if done.returncode == 0 else "HEAD"


def export(revision: str, into: Path) -> None:
    """The revision's ``pybridge/`` written under ``into``, read from git's objects (not
    ``git archive``, which honours the revision's export-ignore attributes)."""
    listing = _git("ls-tree", "-r", "-z", "--full-tree", revision, "pybridge").split("\0")
    entries = [line.split("\t", 1) for line in listing if line]
    blobs = [(meta.split()[2], path) for meta, path in entries if meta.split()[1] == "blob"]
    if not blobs:
        raise SystemExit(f"speed: {revision} has no pybridge/")
    batch = subprocess.run(["git", "-C", str(PROJECT_ROOT), "cat-file", "--batch"],
                           input="".join(f"{sha}\n" for sha, _ in blobs).encode(),
                           capture_output=True, check=True).stdout  # fmt: skip
    at = 0
    for _, path in blobs:
        header_end = batch.index(b"\n", at)
        size = int(batch[at:header_end].split()[2])
        target = into / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(batch[header_end + 1 : header_end + 1 + size])
        at = header_end + 1 + size + 1  # the content, then a newline


class _Child:
    def __init__(self, side: str, roots: list[Path], cpu: int) -> None:
        self.side = side
        path = os.pathsep.join(str(root) for root in roots)
        environment = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
        self.process = subprocess.Popen(
            [sys.executable, "-c", _CHILD, path, str(cpu), str(MAX_TURNS)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=environment,
        )  # fmt: skip
        assert self.process.stdout is not None
        #: Where the child's runtime came from (pybridge/runtime/resolve.py, or its .so).
        self.package = self.process.stdout.readline().strip()
        if not self.package:
            raise SystemExit(f"speed: the {side} loop did not start (exit {self.process.wait()})")

    def time(self, first: int, count: int) -> tuple[float, float, int]:
        """CPU seconds, wall seconds and victories of ``count`` battles from seed ``first``."""
        process = self.process
        assert process.stdin is not None and process.stdout is not None
        process.stdin.write(f"{first} {count}\n")
        process.stdin.flush()
        line = process.stdout.readline()
        if not line:
            raise SystemExit(f"speed: the {self.side} loop stopped (exit {process.wait()})")
        cpu, wall, wins = line.split()
        return float(cpu), float(wall), int(wins)

    def close(self) -> None:
        if self.process.stdin is not None:
            self.process.stdin.close()
        self.process.wait(timeout=30)


def measure(base: str, battles: int, rounds: int, compiled: Path | None = None) -> dict[str, Any]:
    """Play ``battles`` seeds on each side (``old``: the base revision, ``new``: this
    checkout, and ``compiled``: this checkout's compiled build first on the path, when
    ``compiled`` names one), in ``rounds`` rounds whose order rotates."""
    cpu = max(os.sched_getaffinity(0))
    per_round = max(1, battles // rounds)
    with tempfile.TemporaryDirectory(prefix="pybridge-base-") as temp:
        export(base, Path(temp))
        sides = [("old", [Path(temp)]), ("new", [PROJECT_ROOT])]
        if compiled is not None:
            sides.append(("compiled", [compiled, PROJECT_ROOT]))
        children: list[_Child] = []
        try:
            for side, roots in sides:
                children.append(_Child(side, roots, cpu))
            times: dict[str, list[float]] = {child.side: [] for child in children}
            walls: dict[str, list[float]] = {child.side: [] for child in children}
            wins = dict.fromkeys(times, 0)
            for index in range(rounds):
                shift = index % len(children)
                for child in children[shift:] + children[:shift]:
                    used, wall, won = child.time(index * per_round, per_round)
                    times[child.side].append(used)
                    walls[child.side].append(wall)
                    wins[child.side] += won
        finally:
            for child in children:
                child.close()
    played = per_round * rounds
    result: dict[str, Any] = {"base": base, "cpu": cpu, "battles": played, "rounds": rounds,
                              "max_turns": MAX_TURNS}  # fmt: skip
    for child in children:
        side = child.side
        result[f"{side}_package"] = child.package
        result[f"{side}_battles_per_second"] = played / sum(times[side])
        result[f"{side}_battles_per_wall_second"] = played / sum(walls[side])
        result[f"{side}_win_rate"] = wins[side] / played
        if side == "old":
            continue
        ratios = [o / n for o, n in zip(times["old"], times[side], strict=True)]
        prefix = "" if side == "new" else f"{side}_"
        result[f"{prefix}ratio_median"] = statistics.median(ratios)
        result[f"{prefix}ratio_min"], result[f"{prefix}ratio_max"] = min(ratios), max(ratios)
        result[f"{prefix}wall_ratio"] = sum(walls["old"]) / sum(walls[side])
    return result


def profile(battles: int, top: int = 25) -> str:
    """cProfile of this checkout's loop on the demo battle: the top functions by own time."""
    from ..examples import demo_battle
    from ..runtime import load_battle
    from .engine import Prepared, play_battle
    from .policies import RandomPolicy
    from .tally import EncounterTally

    prepared, tally = Prepared.of("demo", load_battle(demo_battle())), EncounterTally()
    profiler = cProfile.Profile()
    profiler.enable()
    for seed in range(battles):
        play_battle(prepared, seed, RandomPolicy(), MAX_TURNS, tally)
    profiler.disable()
    out = io.StringIO()
    pstats.Stats(profiler, stream=out).sort_stats("tottime").print_stats(top)
    return out.getvalue()


def main(argv: list[str] | None = None) -> int:
    from ..devtools.compiled import BUILD_DIR, is_built

    parser = argparse.ArgumentParser(prog="python -m pybridge.simulate.speed",
                                     description=__doc__.split("\n\n")[0])  # fmt: skip
    parser.add_argument("--base", help=f"the earlier revision (default: {DEFAULT_BASE})")
    parser.add_argument("--battles", type=int, default=3000, help="battles per side")
    parser.add_argument("--rounds", type=int, default=15, help="turns the sides take")
    parser.add_argument(
        "--compiled",
        type=Path,
        default=BUILD_DIR,
        help="the compiled build to time as a third side (default: %(default)s)",
    )
    parser.add_argument("--no-compiled", action="store_true", help="time the pure runtimes only")
    parser.add_argument("--output", help="also write the numbers as JSON here")
    parser.add_argument("--profile", action="store_true", help="profile this checkout's loop")
    parser.add_argument("--pyodide", action="store_true",
                        help="time the pure runtimes in Pyodide under Node.js instead (what the "
                        "browser runs; needs web/setup.sh)")  # fmt: skip
    parser.add_argument("--count", action="store_true",
                        help="count the bytecode instructions a battle executes on both "
                        "revisions instead (traced: use about 50 battles)")  # fmt: skip
    args = parser.parse_args(argv)
    if args.profile:
        print(profile(max(1, args.battles // 10)))
        return 0
    if args.count:
        from .speed_count import count_instructions
        from .speed_count import report as count_report

        counted = count_instructions(args.base or default_base(), max(1, args.battles))
        print(count_report(counted))
        if args.output:
            Path(args.output).write_text(json.dumps(counted, indent=1) + "\n", "utf-8")
        return 0
    if args.pyodide:
        from .speed_web import measure_in_pyodide, report

        result = measure_in_pyodide(args.base or default_base(), args.battles, args.rounds)
        print(report(result))
        if args.output:
            Path(args.output).write_text(json.dumps(result, indent=1) + "\n", "utf-8")
        return 0
    compiled = None if args.no_compiled or not is_built(args.compiled) else args.compiled
    result = measure(args.base or default_base(), args.battles, args.rounds, compiled)
    print(
        f"demo battle, random legal plays, {result['battles']} battles per side in "
        f"{result['rounds']} rotating rounds on CPU {result['cpu']}"
    )
    print(
        f"  before ({result['base'][:12]}): {result['old_battles_per_second']:7.1f} battles per "
        "CPU second"
    )
    for side, prefix, label in (("new", "", "pure    "), ("compiled", "compiled_", "compiled")):
        if f"{side}_battles_per_second" not in result:
            continue
        print(
            f"  {label} (this checkout): {result[f'{side}_battles_per_second']:7.1f} battles per "
            f"CPU second, {result[f'{prefix}ratio_median']:.2f}x (median of rounds; "
            f"{result[f'{prefix}ratio_min']:.2f}x-{result[f'{prefix}ratio_max']:.2f}x; by wall "
            f"clock {result[f'{prefix}wall_ratio']:.2f}x)"
        )
    if compiled is None:
        print("  (no compiled build timed: python -m pybridge.devtools.compiled build makes one)")
    if args.output:
        Path(args.output).write_text(json.dumps(result, indent=1) + "\n", "utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
