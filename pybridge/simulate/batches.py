"""The unit of work: a batch of consecutive seeds of one encounter, played in one process.

Battle ``i`` of every encounter has seed ``first_seed + i`` (the same seeds for every
encounter, so encounters and runs are compared on the same draws). A batch adds its battles
to a fresh tally and reports how long it computed, which is how scheduling overhead is
measured. Each process loads the documents once per spec (cached by digest) and resolves
the policy once; a fresh policy object plays each battle where the policy is a class.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from .engine import BattleError, Prepared, play_battle
from .inputs import Problem, SimulationSpec, prototypes_of
from .policies import Policy, PolicyError, policy_factory
from .tally import EncounterTally

#: Battles per batch when not told: about a third of a second for the random policy, so a
#: task's scheduling costs (milliseconds on Dask) stay far below 5%.
DEFAULT_BATCH = 100
#: Enough batches per worker that the last ones finish together.
BATCHES_PER_WORKER = 8
#: But no batch so small that a cluster's per-task cost (a few ms) would show.
MIN_BATCH = 25


@dataclass(frozen=True, slots=True)
class Job:
    """What every batch of a run shares."""

    spec: SimulationSpec
    policy: str
    max_turns: int


@dataclass(frozen=True, slots=True)
class Batch:
    encounter: str
    first_seed: int
    count: int


@dataclass(slots=True)
class BatchResult:
    batch: Batch
    tally: EncounterTally
    seconds: float  # time spent playing, inside the worker
    error: Problem | None = None
    cpu_seconds: float = 0.0  # CPU time of that (less than ``seconds`` on a busy machine)


@dataclass(frozen=True, slots=True)
class Plan:
    """Which seeds of which encounters a run plays, to be cut into batches once the number
    of workers is known (a cluster says how many it has only when connected)."""

    encounters: tuple[str, ...]
    battles: int  # per encounter
    first_seed: int
    batch_size: int | None = None  # None: chosen from the number of workers

    @property
    def total(self) -> int:
        return self.battles * len(self.encounters)

    def batches(self, workers: int) -> list[Batch]:
        """Batches of consecutive seeds, interleaving encounters so that a partial run
        (Ctrl+C) has covered all of them alike."""
        size = self.batch_size
        if size is None:
            wanted = -(-self.total // (workers * BATCHES_PER_WORKER))
            size = max(MIN_BATCH, min(DEFAULT_BATCH, wanted))
        chunks = [[Batch(e, self.first_seed + start, min(size, self.battles - start))
                   for start in range(0, self.battles, size)]
                  for e in self.encounters]  # fmt: skip
        return [batch for row in _interleave(chunks) for batch in row]


def _interleave(chunks: list[list[Batch]]) -> Iterator[list[Batch]]:
    for index in range(max((len(c) for c in chunks), default=0)):
        yield [c[index] for c in chunks if index < len(c)]


_PREPARED: dict[str, dict[str, Prepared]] = {}
_FACTORIES: dict[str, Callable[[], Policy]] = {}


def prepared_for(spec: SimulationSpec) -> dict[str, Prepared]:
    """The spec's encounters, loaded once per process."""
    found = _PREPARED.get(spec.digest)
    if found is None:
        battles, _problems = prototypes_of(spec)  # the driver reports the problems
        found = {eid: Prepared.of(eid, battle) for eid, battle in battles.items()}
        _PREPARED.clear()  # one spec at a time is what a worker serves
        _PREPARED[spec.digest] = found
    return found


def factory_for(spec: str) -> Callable[[], Policy]:
    """The policy's factory, resolved once per process."""
    found = _FACTORIES.get(spec)
    if found is None:
        _FACTORIES[spec] = found = policy_factory(spec)
    return found


def run_batch(job: Job, batch: Batch) -> BatchResult:
    """Play the batch's battles. A battle that fails stops the batch; the battles before
    it are kept and the failure is returned as a problem naming encounter, seed and card."""
    tally = EncounterTally()
    prepared = prepared_for(job.spec)[batch.encounter]
    try:
        factory = factory_for(job.policy)
    except PolicyError as exc:  # this process cannot import what the driver could
        return BatchResult(batch, tally, 0.0, Problem(str(exc), batch.encounter))
    error = None
    started, cpu = time.perf_counter(), time.process_time()
    for seed in range(batch.first_seed, batch.first_seed + batch.count):
        try:
            play_battle(prepared, seed, factory(), job.max_turns, tally)
        except BattleError as exc:
            error = Problem(exc.message, exc.encounter, exc.card, exc.seed)
            break
    return BatchResult(batch, tally, time.perf_counter() - started, error,
                       time.process_time() - cpu)  # fmt: skip
