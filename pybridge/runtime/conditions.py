"""Condition tests and the measures ``compare`` reads: what each declares.

A Condition node names a test; each test says which fields it uses, whether it reads an input
collection, and builds the check it stands for. ``compare`` reads a measure: the input's size,
a number of its first unit, or a number of the battle. The built-in tests and measures are
declared in :mod:`pybridge.words.conditions`, a game's in its extensions.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .context import Context

#: A compiled test: (the input collection, context) -> holds?
Check = Callable[[list[Any], Context], bool]
#: How a measure reads its number: (the Condition's fields, the input, context) -> number.
Reading = Callable[[Mapping[str, Any], list[Any], Context], float | None]

COMPARISONS: dict[str, Callable[[Any, Any], bool]] = {
    "==": operator.eq, "!=": operator.ne, "<": operator.lt,
    "<=": operator.le, ">": operator.gt, ">=": operator.ge,
}  # fmt: skip


@dataclass(frozen=True, slots=True)
class Measure:
    """A number ``compare`` reads. ``reads``: ``input`` (its size), ``unit`` (the input's
    first unit; none when it is empty) or ``battle`` (no input)."""

    name: str
    reads: str
    doc: str
    value: Reading
    needs_status: bool = False

    def to_json(self) -> dict[str, object]:
        return {"name": self.name, "reads": self.reads, "doc": self.doc,
                "needs_status": self.needs_status}  # fmt: skip


@dataclass(frozen=True, slots=True)
class ConditionTest:
    """``uses``: the fields the test takes (exactly those); ``units_only``: its input must hold
    units; ``make`` builds the check from the node's fields."""

    name: str
    doc: str
    uses: frozenset[str]
    make: Callable[[Mapping[str, Any]], Check]
    units_only: bool = False

    def to_json(self) -> dict[str, object]:
        return {"name": self.name, "doc": self.doc, "uses": sorted(self.uses),
                "units_only": self.units_only}  # fmt: skip


if TYPE_CHECKING:  # the built-in tables, given by __getattr__ below
    CONDITION_TESTS: dict[str, ConditionTest]
    MEASURES: dict[str, Measure]


def _module_getattr(name: str) -> Any:
    """``CONDITION_TESTS``, ``MEASURES``: the built-in ones, by name."""
    if name in ("CONDITION_TESTS", "MEASURES"):
        from .vocabulary import builtin

        return builtin().condition_tests if name == "CONDITION_TESTS" else builtin().measures
    raise AttributeError(name)


# Bound, not defined, as __getattr__: mypyc crashes importing a compiled module that
# defines one (see pybridge/devtools/compiled.py).
__getattr__ = _module_getattr


def _builtin_tests() -> Mapping[str, ConditionTest]:
    from .vocabulary import builtin

    return builtin().condition_tests


def _builtin_measures() -> Mapping[str, Measure]:
    from .vocabulary import builtin

    return builtin().measures


def fields_used(fields: Mapping[str, Any], tests: Mapping[str, ConditionTest] | None = None,
                measures: Mapping[str, Measure] | None = None) -> frozenset[str]:  # fmt: skip
    """The fields a Condition's test takes: its own, and ``status`` for a stacks measure
    (the built-in tests and measures unless others are given)."""
    tests = _builtin_tests() if tests is None else tests
    measures = _builtin_measures() if measures is None else measures
    used = tests[fields["test"]].uses
    measured = fields.get("measure")
    if measured is not None and measures[measured].needs_status:
        used = used | {"status"}
    return used


def reads_input(fields: Mapping[str, Any], measures: Mapping[str, Measure] | None = None) -> bool:
    """Does the Condition read an input collection? (Battle measures read none.)"""
    measures = _builtin_measures() if measures is None else measures
    measured = fields.get("measure")
    return measured is None or measures[measured].reads != "battle"


def needs_units(fields: Mapping[str, Any], tests: Mapping[str, ConditionTest] | None = None,
                measures: Mapping[str, Measure] | None = None) -> bool:  # fmt: skip
    tests = _builtin_tests() if tests is None else tests
    measures = _builtin_measures() if measures is None else measures
    measured = fields.get("measure")
    return tests[fields["test"]].units_only or (
        measured is not None and measures[measured].reads == "unit"
    )
