"""Run every section of a bench plan in this process and gather the results."""

from __future__ import annotations

import os
import platform
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from ... import __version__
from .bridge import build_c_host, run_bridge
from .browser import bench_web
from .memory import run_memory
from .plan import BenchPlan, cpu_count
from .progress import status
from .project import GameBattles, run_project
from .resolution import run_resolution
from .simulate import run_simulation


def load_average() -> list[float] | None:
    """The 1, 5 and 15 minute load averages, where the system reports them: others' work
    on the machine shows up in every number."""
    try:
        return [round(x, 2) for x in os.getloadavg()]
    except (AttributeError, OSError):
        return None


def environment() -> dict[str, Any]:
    return {
        "pybridge": __version__,
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "platform": platform.platform(),
        "machine": platform.machine(),
        "cpus": cpu_count(),
        "load_average_before": load_average(),
    }


def run_bench(plan: BenchPlan, game: GameBattles | None = None) -> dict[str, Any]:
    """Run every section of ``plan`` (and ``game``'s battles, when given); the whole result,
    ready for JSON."""

    def say(message: str) -> None:
        status(message, plan.progress)

    started, stamp = time.perf_counter(), datetime.now(UTC).isoformat(timespec="seconds")
    env = environment()
    with tempfile.TemporaryDirectory(prefix="pybridge-bench-") as tmp:
        say("building libpybridge and the C host")
        host = build_c_host(Path(tmp))

        def web() -> dict[str, Any] | str:
            if not plan.browser:
                return "skipped: no browser (--no-browser)"
            return bench_web(plan.web_calls)

        bridge = run_bridge(plan, host, web, say)
        resolution = run_resolution(plan, say)
        simulation = run_simulation(plan, plan.progress, say)
        memory = run_memory(plan, host, say)
    project = None if game is None else run_project(game, plan, say)
    targets = [*bridge["targets"]]
    targets += [
        {
            "name": f"{name}: runtime within {s['limit']:g}x of the floor",
            "value": s["ratio"],
            "limit": s["limit"],
            "unit": "x floor",
            "met": s["met"],
        }
        for name, s in resolution["scenarios"].items()
    ]
    result = {
        "format": "pybridge/bench@1",
        "started": stamp,
        "seconds": time.perf_counter() - started,
        "environment": {**env, "load_average_after": load_average()},
        "plan": plan.to_json(),
        "bridge": bridge,
        "resolution": resolution,
        "simulation": simulation,
        "memory": memory,
        "targets": targets,
    }
    if project is not None:
        result["project"] = project
    return result
