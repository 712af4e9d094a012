"""Running batches on an existing Dask distributed cluster (``--cluster ADDRESS``).

Dask is imported here only, so the local engine works without the ``sim`` extra. The job
(documents, policy, limits) goes to every worker once (``scatter``); each task is a batch of
seeds, and the results come back as they finish. Workers need the same pybridge (and a
custom policy's module) importable.
"""

from __future__ import annotations

from typing import Any

from .. import __version__
from .batches import Batch, BatchResult, Job, Plan, factory_for, prepared_for, run_batch
from .local import Collector

#: Seconds to wait for the scheduler to answer and for a first worker to join.
CONNECT_TIMEOUT = 30


class ClusterError(RuntimeError):
    """The cluster cannot run the simulation (unreachable, no workers, other versions)."""


def worker_version() -> str:
    """Run on each worker: the pybridge version it imports."""
    return __version__


def warm_worker(job: Job) -> int:
    """Run on each worker before the clock starts: load the documents and the policy, so
    the first batch is not charged with imports and parsing."""
    factory_for(job.policy)
    return len(prepared_for(job.spec))


def _run_on_worker(job: Job, batch: Batch) -> BatchResult:
    return run_batch(job, batch)


def run_cluster(address: str, job: Job, plan: Plan, collector: Collector) -> None:
    """Submit every batch to the cluster and collect them as they finish. On a failed
    battle or KeyboardInterrupt the remaining tasks are cancelled; finished ones are kept.
    The clock for the overhead starts once the job has reached every worker."""
    try:
        from distributed import Client, as_completed
    except ImportError as exc:
        raise ClusterError("--cluster needs Dask distributed: install the 'sim' extra "
                           "(pip install 'pybridge[sim]')") from exc  # fmt: skip
    try:
        client = Client(address, timeout=CONNECT_TIMEOUT, set_as_default=False)
    except (OSError, TimeoutError) as exc:
        raise ClusterError(f"cannot reach the Dask scheduler at {address!r}: {exc}") from exc
    futures: list[Any] = []
    try:
        client.wait_for_workers(1, timeout=CONNECT_TIMEOUT)
        versions = client.run(worker_version)
        other = {addr: v for addr, v in versions.items() if v != __version__}
        if other:
            raise ClusterError(f"workers run other pybridge versions than {__version__}: "
                               f"{other}")  # fmt: skip
        workers = client.scheduler_info(n_workers=-1)["workers"]
        slots = sum(int(w.get("nthreads", 1)) for w in workers.values())
        collector.result.timing.slots = slots
        collector.result.timing.engine = "dask"
        shared = client.scatter(job, broadcast=True, hash=False)
        try:
            client.run(warm_worker, job)
        except Exception as exc:  # raised on a worker: its message says what is missing
            raise ClusterError(
                f"a worker cannot prepare the run: {exc} (install pybridge "
                "and any custom policy's module on every worker)"
            ) from exc
        collector.restart_clock()
        futures = [client.submit(_run_on_worker, shared, batch, pure=False)
                   for batch in plan.batches(slots)]  # fmt: skip
        for future in as_completed(futures, loop=client.loop, raise_errors=False):
            if future.status == "error":
                raise ClusterError(f"a task failed on a worker: {future.exception()!r}")
            if not collector.take(future.result()):
                break
    finally:
        if futures:
            client.cancel(futures)
        client.close()
