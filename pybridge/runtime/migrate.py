"""Older battle and library documents brought up to the current format version before they
are read (docs/format.md, "Versions and migrations").

A document names its format and version in ``format`` (``pybridge/battle@2``). Every version
the project has ever written has one step in :data:`STEPS` to the version after it; loading
applies the steps in turn, so a document of any older version is read as the current one and
dumped in it. A step is pure: it takes the document as JSON values, changes nothing it was
given (it returns a new top-level object) and does a bounded amount of work; there are at most
``len(STEPS)`` of them per document. A document that is not an object, or whose ``format``
is no older version, is passed on as it is: the reader judges it and names the field.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

BATTLE = "pybridge/battle"
LIBRARY = "pybridge/cards"
#: The version each family is written in.
CURRENT = {BATTLE: f"{BATTLE}@2", LIBRARY: f"{LIBRARY}@1"}


@dataclass(frozen=True, slots=True)
class Step:
    """From one format version to the next: ``change`` returns the document in ``after``."""

    before: str
    after: str
    change: Callable[[Mapping[str, Any]], dict[str, Any]]
    doc: str


def _battle_1_to_2(document: Mapping[str, Any]) -> dict[str, Any]:
    # @1 grew by optional keys only, each with a default that says what a document without it
    # said; @2 is @1 with "counters" and "extensions" declared. An @1 document written before
    # those keys existed lacks both (no counters, no extensions needed), one written after may
    # hold them already: either way the rest is read as it stands.
    return {**document, "format": f"{BATTLE}@2"}


#: One step from each older version, by the version it starts from.
_BATTLE_1_TO_2 = Step(
    f"{BATTLE}@1",
    f"{BATTLE}@2",
    _battle_1_to_2,
    "declares the battle's counters and the extensions (with their versions) it needs; "
    "nothing else changes",
)
STEPS: Mapping[str, Step] = {step.before: step for step in (_BATTLE_1_TO_2,)}


def versions(family: str) -> tuple[str, ...]:
    """Every version of ``family`` a document may name, oldest first (the current one last)."""
    older = [s.before for s in STEPS.values() if s.before.startswith(f"{family}@")]
    return (*sorted(older, key=_number), CURRENT[family])


def _number(version: str) -> int:
    return int(version.rpartition("@")[2])


def to_current(document: object, family: str) -> object:
    """``document`` in the current version of ``family``: each older version's step applied
    in turn. Anything else (not an object, no ``format``, an unknown or newer version) is
    returned unchanged for the reader to refuse."""
    if not isinstance(document, Mapping):
        return document
    current = CURRENT[family]
    for _ in range(len(STEPS)):  # bounded: each step leads to a later version
        version = document.get("format")
        if version == current or not isinstance(version, str) or version not in STEPS:
            break
        step = STEPS[version]
        if not step.after.startswith(f"{family}@"):
            break
        document = step.change(document)
    return document
