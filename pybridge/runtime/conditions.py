"""Condition tests and the measures ``compare`` reads, as tables.

A Condition node names a test; each test says which fields it uses, whether it reads an input
collection, and builds the check it stands for. ``compare`` reads a measure: the input's size,
a number of its first unit, or a number of the battle.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from .context import Context
from .model import Pile, Unit

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


def _of_first(read: Callable[[Unit, Mapping[str, Any]], float]) -> Reading:
    def value(fields: Mapping[str, Any], items: list[Any], ctx: Context) -> float | None:
        return read(items[0], fields) if items else None

    return value


MEASURES: dict[str, Measure] = {m.name: m for m in (
    Measure("count", "input", "how many elements the input holds",
            lambda f, items, ctx: len(items)),
    Measure("hp", "unit", "the first unit's HP", _of_first(lambda u, f: u.hp)),
    Measure("hp_percent", "unit", "the first unit's share of its max HP (0-100)",
            _of_first(lambda u, f: float(u.hp_percent))),
    Measure("armor", "unit", "the first unit's armor", _of_first(lambda u, f: u.armor)),
    Measure("stacks", "unit", "the first unit's stacks of a status",
            _of_first(lambda u, f: u.statuses.get(f["status"], 0)), needs_status=True),
    Measure("energy", "battle", "the energy left this turn",
            lambda f, items, ctx: ctx.battle.energy),
    Measure("turn", "battle", "the turn number", lambda f, items, ctx: ctx.battle.turn),
    Measure("hand_size", "battle", "how many cards are in the hand",
            lambda f, items, ctx: len(ctx.battle.piles[Pile.HAND])),
)}  # fmt: skip


def measure(fields: Mapping[str, Any], items: list[Any], ctx: Context) -> float | None:
    """The number a ``compare`` Condition reads; None when there is no unit to read it from."""
    return MEASURES[fields["measure"]].value(fields, items, ctx)


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


def _compare(fields: Mapping[str, Any]) -> Check:
    name, test, wanted = fields["measure"], COMPARISONS[fields["op"]], fields["value"]
    builtin = MEASURES.get(name)
    if builtin is not None:
        read = builtin.value

        def check(items: list[Any], ctx: Context) -> bool:
            value = read(fields, items, ctx)
            return value is not None and test(value, wanted)

        return check

    def check_extension(items: list[Any], ctx: Context) -> bool:  # a measure of an extension
        words = ctx.battle.words
        value = words.measures[name].value(fields, items, ctx)
        return value is not None and test(value, wanted)

    return check_extension


def _has_status(fields: Mapping[str, Any]) -> Check:
    status = fields["status"]
    return lambda items, ctx: bool(items) and all(u.statuses.get(status, 0) > 0 for u in items)


CONDITION_TESTS: dict[str, ConditionTest] = {t.name: t for t in (
    ConditionTest("empty", "the input holds nothing", frozenset(),
                  lambda f: lambda items, ctx: not items),
    ConditionTest("not_empty", "the input holds something", frozenset(),
                  lambda f: lambda items, ctx: bool(items)),
    ConditionTest("alive", "every unit of a non-empty input is alive", frozenset(),
                  lambda f: lambda items, ctx: bool(items) and all(u.alive for u in items),
                  units_only=True),
    ConditionTest("has_status", "every unit of a non-empty input carries the status",
                  frozenset({"status"}), _has_status, units_only=True),
    ConditionTest("compare", "a measure compared with a value",
                  frozenset({"measure", "op", "value"}), _compare),
)}  # fmt: skip


def fields_used(fields: Mapping[str, Any], tests: Mapping[str, ConditionTest] = CONDITION_TESTS,
                measures: Mapping[str, Measure] = MEASURES) -> frozenset[str]:  # fmt: skip
    """The fields a Condition's test takes: its own, and ``status`` for a stacks measure."""
    used = tests[fields["test"]].uses
    measured = fields.get("measure")
    if measured is not None and measures[measured].needs_status:
        used = used | {"status"}
    return used


def reads_input(fields: Mapping[str, Any], measures: Mapping[str, Measure] = MEASURES) -> bool:
    """Does the Condition read an input collection? (Battle measures read none.)"""
    measured = fields.get("measure")
    return measured is None or measures[measured].reads != "battle"


def needs_units(fields: Mapping[str, Any], tests: Mapping[str, ConditionTest] = CONDITION_TESTS,
                measures: Mapping[str, Measure] = MEASURES) -> bool:  # fmt: skip
    measured = fields.get("measure")
    return tests[fields["test"]].units_only or (
        measured is not None and measures[measured].reads == "unit"
    )
