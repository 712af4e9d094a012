"""Running batches on an existing Dask distributed cluster (``--cluster ADDRESS``).

Dask is imported here only, so the local engine works without the ``sim`` extra. The job
(documents, policy, limits) goes to every worker once (``scatter``); each task is a batch of
seeds, and the results come back as they finish. Workers need the same pybridge (and a
custom policy's module) importable.

Dask's own connect waits for the scheduler's handshake without a limit, so a peer that accepts
the connection and never answers would hold the run forever: the scheduler is first asked for
its handshake under a deadline of its own (:func:`reach`), and the run gives up with a
:class:`ClusterError` when it does not come.
"""

from __future__ import annotations

import asyncio
from typing import Any

from .. import __version__
from .arguments import CONNECT_TIMEOUT
from .batches import Batch, BatchResult, Job, Plan, factory_for, prepared_for, run_batch
from .local import Collector


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


def reach(address: str, timeout: float = CONNECT_TIMEOUT) -> None:
    """Connect to the scheduler at ``address`` and read its handshake within ``timeout``
    seconds, or raise :class:`ClusterError`: no answer in time, or an address that cannot be
    reached at all."""
    from distributed.comm.core import connect

    async def handshake() -> None:
        comm = await connect(address, timeout=timeout)
        await comm.close()

    try:
        asyncio.run(asyncio.wait_for(handshake(), timeout))
    except TimeoutError as exc:  # asyncio's too, since Python 3.11
        raise ClusterError(f"the Dask scheduler at {address!r} did not answer within "
                           f"{timeout:g} s (--connect-timeout): is a scheduler listening "
                           "there, and reachable?") from exc  # fmt: skip
    except (OSError, ValueError) as exc:  # refused, unresolvable, or not an address
        raise ClusterError(f"cannot reach the Dask scheduler at {address!r}: {exc}") from exc


def run_cluster(
    address: str, job: Job, plan: Plan, collector: Collector, timeout: float = CONNECT_TIMEOUT
) -> None:
    """Submit every batch to the cluster and collect them as they finish. On a failed
    battle or KeyboardInterrupt the remaining tasks are cancelled; finished ones are kept.
    The clock for the overhead starts once the job has reached every worker. ``timeout``:
    seconds to wait for the scheduler to answer, and then for a first worker to join."""
    try:
        from distributed import Client, as_completed
    except ImportError as exc:
        raise ClusterError("--cluster needs Dask distributed: install the 'sim' extra "
                           "(pip install 'pybridge[sim]')") from exc  # fmt: skip
    reach(address, timeout)
    try:
        client = Client(address, timeout=timeout, set_as_default=False)
    except (OSError, TimeoutError) as exc:
        raise ClusterError(f"cannot reach the Dask scheduler at {address!r}: {exc}") from exc
    futures: list[Any] = []
    try:
        try:
            client.wait_for_workers(1, timeout=timeout)
        except TimeoutError as exc:
            raise ClusterError(f"no worker joined the Dask scheduler at {address!r} within "
                               f"{timeout:g} s (--connect-timeout)") from exc  # fmt: skip
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
