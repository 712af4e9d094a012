"""How much each section measures: the quick plan (CI, under a minute) and the full plan."""

from __future__ import annotations

import os
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any

PACKAGE_ROOT = Path(__file__).resolve().parents[2]
PROJECT_ROOT = PACKAGE_ROOT.parent
#: The C host that times libpybridge (compiled on the fly with the system's C compiler).
C_BENCH_SOURCE = PROJECT_ROOT / "tests" / "c" / "bench.c"
DEMO_CARD, DEMO_TARGET = "h1", "orc"  # Strike, from the knight, at the armored orc


@dataclass(frozen=True)
class BenchPlan:
    """How many of each measurement one bench run takes (a simulation's own plan of batches is
    :class:`pybridge.simulate.batches.Plan`)."""

    mode: str
    bridge_calls: int  # timed calls per operation and path (direct, protocol, C, stdio)
    bridge_rounds: int  # the paths take turns this many times (each times a share of calls)
    web_calls: int  # timed calls per operation in the browser
    plays: int  # timed plays per resolution scenario, for the runtime and for the floor
    battles: int  # whole battles per simulation run
    max_turns: int
    memory_battles: int  # battles held at once while tracemalloc counts
    rss_calls: int  # C ABI calls between the two RSS readings
    workers: tuple[int, ...]  # worker-process counts for the simulation
    browser: bool = True  # run the web engine when chromium and web/node_modules exist
    progress: bool = True  # a progress line on stderr for the long parts

    def to_json(self) -> dict[str, Any]:
        return {**asdict(self), "workers": list(self.workers)}


QUICK = BenchPlan(
    mode="quick",
    bridge_calls=2_000,
    bridge_rounds=10,
    web_calls=300,
    plays=3_000,
    battles=60,
    max_turns=40,
    memory_battles=200,
    rss_calls=100_000,
    workers=(1, 2),
)
FULL = BenchPlan(
    mode="full",
    bridge_calls=20_000,
    bridge_rounds=50,
    web_calls=2_000,
    plays=30_000,
    battles=600,
    max_turns=40,
    memory_battles=1_000,
    rss_calls=1_000_000,
    workers=(1, 2),
)


def make_plan(quick: bool, scale: float = 1.0, **overrides: Any) -> BenchPlan:
    """The quick or full plan, every count multiplied by ``scale`` (at least a few each)."""
    base = QUICK if quick else FULL
    if scale != 1.0:

        def scaled(n: int, least: int) -> int:
            return max(least, round(n * scale))

        base = replace(
            base,
            bridge_calls=scaled(base.bridge_calls, 20),
            web_calls=scaled(base.web_calls, 10),
            plays=scaled(base.plays, 20),
            battles=scaled(base.battles, 4),
            memory_battles=scaled(base.memory_battles, 4),
            rss_calls=scaled(base.rss_calls, 100),
        )
    return replace(base, **overrides)


def cpu_count() -> int:
    """CPUs this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1
