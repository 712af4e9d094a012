"""Answers to read-only questions, kept while the battle they describe stays the same.

While the player drags a card, the scene asks the same ``targets`` and ``preview`` questions
every frame about a battle that does not change in between. A session's *generation* changes
with every change to its battle, and an answer is only ever reused for the generation it was
computed on, so a reused answer is always the one a fresh computation would give.

Bounded: at most ``capacity`` answers in all (least recently used go first), and an answer
longer than ``MAX_ANSWER`` characters is not kept.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Mapping
from typing import Any

#: Answers longer than this (a preview of a huge reaction storm) are computed every time.
MAX_ANSWER = 32 * 1024
#: Answers kept over all sessions together.
DEFAULT_CAPACITY = 128
#: The most a host may ask for with :data:`CAPACITY_VARIABLE`.
MAX_CAPACITY = 4096
#: Sizes the process-wide protocol's cache (the one the C ABI, the GDExtension, Pyodide and
#: stdio use): ``0`` keeps no answers, e.g. to measure what a first ask costs.
CAPACITY_VARIABLE = "PYBRIDGE_ANSWER_CACHE"


def capacity_from(environment: Mapping[str, str]) -> int:
    """The capacity :data:`CAPACITY_VARIABLE` asks for: a whole number up to
    :data:`MAX_CAPACITY`; anything else (or nothing) gives :data:`DEFAULT_CAPACITY`."""
    text = environment.get(CAPACITY_VARIABLE, "").strip()
    if text.isascii() and text.isdigit() and len(text) <= 4 and int(text) <= MAX_CAPACITY:
        return int(text)
    return DEFAULT_CAPACITY


#: (op, session, card, target): a question, as far as its answer depends on it.
Question = tuple[str, str, str, Any]


def question(op: str, request: dict[str, Any]) -> Question | None:
    """The key of a ``targets``/``preview`` request, or None when it cannot be asked again
    cheaply (fields of unexpected types are answered by an error, never from here)."""
    session, card, target = request.get("session"), request.get("card"), request.get("target")
    if not isinstance(session, str) or not isinstance(card, str):
        return None
    if target is None or isinstance(target, str):
        return (op, session, card, target)
    if isinstance(target, list) and all(isinstance(unit, str) for unit in target):
        return (op, session, card, tuple(target))
    return None


class AnswerCache:
    """Result texts by question, each tagged with its session's generation. Not thread-safe:
    the protocol calls it under its own lock."""

    def __init__(self, capacity: int = DEFAULT_CAPACITY) -> None:
        if capacity < 0:
            raise ValueError(f"capacity must be at least 0, got {capacity}")
        self.capacity = capacity
        self._answers: OrderedDict[Question, tuple[int, str]] = OrderedDict()
        self.hits = 0
        self.misses = 0

    def __len__(self) -> int:
        return len(self._answers)

    def get(self, key: Question, generation: int) -> str | None:
        found = self._answers.get(key)
        if found is None or found[0] != generation:
            self.misses += 1
            return None
        self._answers.move_to_end(key)
        self.hits += 1
        return found[1]

    def put(self, key: Question, generation: int, answer: str) -> None:
        if self.capacity == 0 or len(answer) > MAX_ANSWER:
            return
        self._answers[key] = (generation, answer)
        self._answers.move_to_end(key)
        while len(self._answers) > self.capacity:
            self._answers.popitem(last=False)

    def forget(self, session: str) -> None:
        """Drop a closed session's answers (they could never be reused anyway)."""
        for key in [key for key in self._answers if key[1] == session]:
            del self._answers[key]
