"""Timing samples and their summaries: every path is timed one call at a time, so each
summary has a median and a 99th percentile, and ratios compare medians within one run."""

from __future__ import annotations

import gc
import math
import statistics
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from time import perf_counter_ns
from typing import Any

Summary = dict[str, Any]


def percentile(ordered: Sequence[float], fraction: float) -> float:
    """The nearest-rank percentile of an ascending sequence (``fraction`` in 0..1)."""
    if not ordered:
        raise ValueError("no samples")
    rank = max(1, math.ceil(fraction * len(ordered)))
    return float(ordered[rank - 1])


def summarize_ns(samples: Sequence[int | float]) -> Summary:
    """Median, p99, mean, min and max of nanosecond samples, in microseconds."""
    ordered = sorted(samples)
    return {
        "n": len(ordered),
        "median_us": statistics.median(ordered) / 1000,
        "p99_us": percentile(ordered, 0.99) / 1000,
        "mean_us": statistics.fmean(ordered) / 1000,
        "min_us": ordered[0] / 1000,
        "max_us": ordered[-1] / 1000,
    }


def summarize_us(samples: Sequence[int | float]) -> Summary:
    """The same summary for samples already in microseconds."""
    return summarize_ns([s * 1000 for s in samples])


def ratio(value: float, floor: float) -> float:
    """How many times the floor ``value`` is (a floor of zero reads as the smallest tick)."""
    return value / floor if floor > 0 else value / 0.001


@contextmanager
def quiet_heap() -> Iterator[None]:
    """Collect, then freeze what exists, so the garbage collector keeps running for what the
    timed code allocates but no longer walks the bench's own objects (prepared battles, the
    samples) on every full collection."""
    gc.collect()
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()


def time_calls(call: Callable[[], object], calls: int, warmup: int = 50) -> list[int]:
    """Nanoseconds of each of ``calls`` calls of ``call``, after ``warmup`` untimed ones."""
    for _ in range(warmup):
        call()
    clock = perf_counter_ns
    samples = [0] * calls
    with quiet_heap():
        for i in range(calls):
            start = clock()
            call()
            samples[i] = clock() - start
    return samples


def with_ratios(summary: Summary, floor: Summary) -> Summary:
    """``summary`` plus its median and p99 as multiples of ``floor``'s."""
    return {
        **summary,
        "ratio": ratio(summary["median_us"], floor["median_us"]),
        "p99_ratio": ratio(summary["p99_us"], floor["p99_us"]),
    }
