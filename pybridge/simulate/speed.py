"""Battles per second per core on the demo battle: this checkout's simulation loop against
the loop of an earlier revision, in the same run.

The earlier revision is exported with ``git archive`` into a temporary directory (no copy
of old code is kept in the package). Two child processes, one per revision, are pinned to
the same CPU and take turns playing the same seeds (random legal plays, as the benchmark
has always done). Each counts the CPU time its battles took (``time.process_time``): battles
per CPU second is battles per second per core, and other work on a busy machine does not
count against either side. The ratio is the median of the per-round ratios; the wall-clock
ratio is reported beside it. ``--profile`` prints where this checkout's loop spends its time
(cProfile).

    python -m pybridge.simulate.speed [--base REV] [--battles N] [--rounds R]
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
import tarfile
import tempfile
from pathlib import Path
from typing import Any

PROJECT_ROOT = Path(__file__).resolve().parents[2]
MAX_TURNS = 40

#: The child process: pins itself, loads the demo battle, then times batches of seeds read
#: from stdin. ``old`` uses the loop of pybridge/bench/simulate.py (random legal plays through
#: pybridge/autoplay.py); ``new`` plays the same battles with this package's engine.
_CHILD = r"""
import gc, os, sys, time
root, side, cpu, max_turns = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
sys.path.insert(0, root)
os.sched_setaffinity(0, {cpu})
from pybridge.examples import demo_battle
from pybridge.runtime import load_battle
battle = load_battle(demo_battle())
if side == "old":
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
import pybridge
print(os.path.dirname(pybridge.__file__), flush=True)
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
    """The revision before this package existed (the parent of the commit adding it)."""
    added = _git("log", "--diff-filter=A", "--format=%H", "--", "pybridge/simulate/__init__.py")
    if not added:
        return "HEAD"  # not committed yet: HEAD is still the earlier code
    return _git("rev-parse", added.splitlines()[-1] + "^")


def export(revision: str, into: Path) -> None:
    """``git archive REV pybridge`` unpacked into ``into``."""
    archive = subprocess.run(["git", "-C", str(PROJECT_ROOT), "archive", "--format=tar",
                              revision, "pybridge"], capture_output=True, check=False)  # fmt: skip
    if archive.returncode != 0:
        raise SystemExit(f"speed: git archive {revision} failed: {archive.stderr.decode()}")
    with tarfile.open(fileobj=io.BytesIO(archive.stdout)) as tar:
        tar.extractall(into, filter="data")


class _Child:
    def __init__(self, root: Path, side: str, cpu: int) -> None:
        self.side = side
        self.process = subprocess.Popen(
            [sys.executable, "-c", _CHILD, str(root), side, str(cpu), str(MAX_TURNS)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
        )  # fmt: skip
        assert self.process.stdout is not None
        self.package = self.process.stdout.readline().strip()

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


def measure(base: str, battles: int, rounds: int) -> dict[str, Any]:
    cpu = max(os.sched_getaffinity(0))
    per_round = max(1, battles // rounds)
    with tempfile.TemporaryDirectory(prefix="pybridge-base-") as temp:
        export(base, Path(temp))
        old, new = _Child(Path(temp), "old", cpu), _Child(PROJECT_ROOT, "new", cpu)
        try:
            times: dict[str, list[float]] = {"old": [], "new": []}
            walls: dict[str, list[float]] = {"old": [], "new": []}
            wins = {"old": 0, "new": 0}
            for index in range(rounds):
                order = (old, new) if index % 2 == 0 else (new, old)
                for child in order:
                    used, wall, won = child.time(index * per_round, per_round)
                    times[child.side].append(used)
                    walls[child.side].append(wall)
                    wins[child.side] += won
        finally:
            old.close()
            new.close()
    played = per_round * rounds
    ratios = [o / n for o, n in zip(times["old"], times["new"], strict=True)]
    return {
        "base": base, "cpu": cpu, "battles": played, "rounds": rounds, "max_turns": MAX_TURNS,
        "old_package": old.package, "new_package": new.package,
        "old_battles_per_second": played / sum(times["old"]),
        "new_battles_per_second": played / sum(times["new"]),
        "old_battles_per_wall_second": played / sum(walls["old"]),
        "new_battles_per_wall_second": played / sum(walls["new"]),
        "wall_ratio": sum(walls["old"]) / sum(walls["new"]),
        "old_win_rate": wins["old"] / played, "new_win_rate": wins["new"] / played,
        "ratio_median": statistics.median(ratios), "ratio_min": min(ratios),
        "ratio_max": max(ratios),
    }  # fmt: skip


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
    parser = argparse.ArgumentParser(prog="python -m pybridge.simulate.speed",
                                     description=__doc__.split("\n\n")[0])  # fmt: skip
    parser.add_argument("--base", help="the earlier revision (default: before pybridge/simulate)")
    parser.add_argument("--battles", type=int, default=3000, help="battles per side")
    parser.add_argument("--rounds", type=int, default=15, help="turns the two sides take")
    parser.add_argument("--output", help="also write the numbers as JSON here")
    parser.add_argument("--profile", action="store_true", help="profile this checkout's loop")
    args = parser.parse_args(argv)
    if args.profile:
        print(profile(max(1, args.battles // 10)))
        return 0
    result = measure(args.base or default_base(), args.battles, args.rounds)
    print(
        f"demo battle, random legal plays, {result['battles']} battles per side in "
        f"{result['rounds']} alternating rounds on CPU {result['cpu']}"
    )
    print(
        f"  before ({result['base'][:12]}): {result['old_battles_per_second']:7.1f} battles per "
        "CPU second"
    )
    print(
        f"  after  (this checkout): {result['new_battles_per_second']:7.1f} battles per CPU second"
    )
    print(
        f"  speed-up: {result['ratio_median']:.2f}x (median of rounds; "
        f"{result['ratio_min']:.2f}x-{result['ratio_max']:.2f}x; by wall clock "
        f"{result['wall_ratio']:.2f}x)"
    )
    if args.output:
        Path(args.output).write_text(json.dumps(result, indent=1) + "\n", "utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
