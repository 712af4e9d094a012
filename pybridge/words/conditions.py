"""The built-in Condition tests and the measures ``compare`` reads."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from pybridge.extend import COMPARISONS, Context, Pile, Unit, Words

#: A compiled test: (the input collection, context) -> holds?
Check = Callable[[list[Any], Context], bool]


def register(words: Words) -> None:
    # fmt: off
    measure = words.measure
    measure("count", reads="input", doc="how many elements the input holds",
            value=lambda f, items, ctx: len(items))
    measure("hp", reads="unit", doc="the first unit's HP", value=_of_first(lambda u, f: u.hp))
    measure("hp_percent", reads="unit", doc="the first unit's share of its max HP (0-100)",
            value=_of_first(lambda u, f: float(u.hp_percent)))
    measure("armor", reads="unit", doc="the first unit's armor",
            value=_of_first(lambda u, f: u.armor))
    measure("stacks", reads="unit", doc="the first unit's stacks of a status",
            value=_of_first(lambda u, f: u.statuses.get(f["status"], 0)), needs_status=True)
    measure("energy", reads="battle", doc="the energy left this turn",
            value=lambda f, items, ctx: ctx.battle.side(ctx.host.team).energy)
    measure("turn", reads="battle", doc="the turn number",
            value=lambda f, items, ctx: ctx.battle.turn)
    measure("hand_size", reads="battle", doc="how many cards are in the hand",
            value=lambda f, items, ctx: len(ctx.battle.side(ctx.host.team).piles[Pile.HAND]))

    test = words.condition
    test("empty", doc="the input holds nothing", compile=lambda f: lambda items, ctx: not items)
    test("not_empty", doc="the input holds something",
         compile=lambda f: lambda items, ctx: bool(items))
    test("alive", doc="every unit of a non-empty input is alive", units_only=True,
         compile=lambda f: lambda items, ctx: bool(items) and all(u.alive for u in items))
    test("has_status", doc="every unit of a non-empty input carries the status",
         uses=("status",), compile=_has_status, units_only=True)
    test("compare", doc="a measure compared with a value", uses=("measure", "op", "value"),
         compile=_compare)
    # fmt: on


def _of_first(read: Callable[[Unit, Mapping[str, Any]], float]
              ) -> Callable[[Mapping[str, Any], list[Any], Context], float | None]:  # fmt: skip
    def value(fields: Mapping[str, Any], items: list[Any], ctx: Context) -> float | None:
        return read(items[0], fields) if items else None

    return value


def _compare(fields: Mapping[str, Any]) -> Check:
    name, test, wanted = fields["measure"], COMPARISONS[fields["op"]], fields["value"]

    def check(items: list[Any], ctx: Context) -> bool:
        value = ctx.words.measures[name].value(fields, items, ctx)
        return value is not None and test(value, wanted)

    return check


def _has_status(fields: Mapping[str, Any]) -> Check:
    status = fields["status"]
    return lambda items, ctx: bool(items) and all(u.statuses.get(status, 0) > 0 for u in items)
