"""Running batches: the :class:`Collector` that adds finished batches up, and the default
engine, local processes (``multiprocessing``, nothing to set up).

Ctrl+C (SIGINT) stops the run and keeps every batch that finished: worker processes ignore
the signal, so only this process sees it, stops the pool and returns what it has.
"""

from __future__ import annotations

import multiprocessing
import signal
import sys
import time

from .batches import Batch, BatchResult, Job, Plan, run_batch
from .progress import Progress
from .results import RunResult


class Collector:
    """Adds finished batches to a result; a failed battle stops the run."""

    def __init__(self, result: RunResult, progress: Progress) -> None:
        self.result, self.progress = result, progress
        self.started = time.perf_counter()

    def take(self, done: BatchResult) -> bool:
        """Count a finished batch; False when the run should stop."""
        result = self.result
        tally = result.tallies.get(done.batch.encounter)
        if tally is None:
            result.tallies[done.batch.encounter] = done.tally
        else:
            tally.add(done.tally)
        result.timing.compute_seconds += done.seconds
        result.timing.cpu_seconds += done.cpu_seconds
        result.timing.batches += 1
        self.progress.advance(done.tally.battles)
        if done.error is not None:
            result.problems.append(done.error)
            print(f"pybridge simulate: {done.error.message}", file=sys.stderr, flush=True)
            return False
        return True

    def restart_clock(self) -> None:
        """Time from now: the workers are ready and the batches are about to go."""
        self.started = time.perf_counter()

    def finish(self) -> None:
        self.result.timing.wall_seconds = time.perf_counter() - self.started


_JOB: Job | None = None


def _start_worker(job: Job) -> None:
    global _JOB
    _JOB = job
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent alone handles Ctrl+C


def _run_in_worker(batch: Batch) -> BatchResult:
    assert _JOB is not None
    return run_batch(_JOB, batch)


def run_local(job: Job, plan: Plan, workers: int, collector: Collector) -> None:
    """Play the plan's batches in this process (``workers == 1``) or in a pool of processes.
    KeyboardInterrupt propagates after the pool is stopped; finished batches are kept."""
    collector.result.timing.slots = workers
    batches = plan.batches(workers)
    if workers == 1:
        for batch in batches:
            if not collector.take(run_batch(job, batch)):
                return
        return
    with multiprocessing.get_context().Pool(workers, _start_worker, (job,)) as pool:
        for done in pool.imap_unordered(_run_in_worker, batches):
            if not collector.take(done):
                return  # leaving the block terminates the pool
