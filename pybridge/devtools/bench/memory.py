"""Memory: bytes per battle state, and the C host's resident set over many ABI calls."""

from __future__ import annotations

import gc
import json
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ...examples import demo_battle
from ...runtime import canonical_json, load_battle
from ...runtime.turns import start_battle
from .bridge import run_c_rss
from .plan import BenchPlan
from .progress import ProgressBar


def _traced_bytes(make: Callable[[], object], count: int) -> tuple[float, list[object]]:
    """Bytes allocated (and still held) per object made by ``make``, over ``count`` objects."""
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        kept = [make() for _ in range(count)]
        after = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    return (after - before) / count, kept


def battle_sizes(count: int) -> dict[str, Any]:
    document = demo_battle()
    text = json.dumps(document, separators=(",", ":"))
    loaded, battles = _traced_bytes(lambda: load_battle(json.loads(text)), count)
    del battles
    base = load_battle(json.loads(text))
    start_battle(base)  # as a session holds it
    cloned, _clones = _traced_bytes(base.clone, count)
    return {
        "battles": count,
        "loaded_bytes_per_battle": loaded,
        "cloned_bytes_per_battle": cloned,
        "canonical_json_bytes": len(canonical_json(base).encode("utf-8")),
        "document_json_bytes": len(text.encode("utf-8")),
        "note": "loaded: parsed from JSON with its own card library; cloned: the state a "
        "preview or a session copy adds (card definitions shared)",
    }


def c_rss(
    host: tuple[Path, Path] | str, calls: int, quick: bool, progress: bool = False
) -> dict[str, Any]:
    """RSS of a C host before and after ``calls`` ABI calls (targets and preview in turn)."""
    if isinstance(host, str):
        return {"skipped": host}
    bar = ProgressBar(calls, "C ABI calls", progress)
    report = run_c_rss(*host, calls, lambda done: bar.advance(done - bar.done))
    bar.close()
    growth = report["rss_after_kb"] - report["rss_before_kb"]
    return {
        "calls": report["calls"],
        "rss_before_kb": report["rss_before_kb"],
        "rss_after_kb": report["rss_after_kb"],
        "growth_kb": growth,
        "growth_bytes_per_call": growth * 1024 / report["calls"],
        # After the first tenth of the calls (caches filled): what a leak would show.
        "growth_after_first_checkpoint_kb": report["rss_after_kb"] - report["checkpoints"][0][1],
        "checkpoints": report["checkpoints"],
        "seconds": report["seconds"],
        "calls_per_second": report["calls"] / report["seconds"] if report["seconds"] else 0.0,
        "note": (
            f"quick mode: {calls:,} calls instead of one million"
            if quick
            else "one million calls"
            if calls == 1_000_000
            else f"{calls:,} calls"
        ),
    }


def run_memory(
    plan: BenchPlan, host: tuple[Path, Path] | str, say: Callable[[str], None]
) -> dict[str, Any]:
    say(f"memory: tracemalloc over {plan.memory_battles} battles")
    sizes = battle_sizes(plan.memory_battles)
    say(f"memory: RSS of the C host over {plan.rss_calls:,} calls")
    return {**sizes, "rss": c_rss(host, plan.rss_calls, plan.mode == "quick", plan.progress)}
