"""Filter conditions and sort keys: what units and cards can be kept by and ordered by.

One table per collection kind. Each filter key carries its value type (for validation and the
protocol's ``schema``) and builds the test it stands for; a ``where`` object compiles once into
one predicate, which Filter nodes, a card's ``target_filter`` and ``card_targets`` all use.
Likewise each sort key builds the key function Sort uses. Standard library only.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from operator import attrgetter
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .model import CardInstance, Unit

UnitTest = Callable[["Unit"], bool]
CardTest = Callable[["CardInstance"], bool]
MAX_BOUND = 1_000_000


@dataclass(frozen=True, slots=True)
class FilterKey:
    """One key of a ``where`` object: its value type and the test it builds from a value.

    ``type`` is ``choice`` (one of ``choices``), ``id``, ``boolean`` or ``integer`` (in
    ``minimum..maximum``)."""

    name: str
    type: str
    make: Callable[[Any], Callable[[Any], bool]]
    doc: str
    choices: tuple[str, ...] = ()
    minimum: int = -MAX_BOUND
    maximum: int = MAX_BOUND

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {"name": self.name, "type": self.type, "doc": self.doc}
        if self.choices:
            out["choices"] = list(self.choices)
        if self.type == "integer":
            out["minimum"], out["maximum"] = self.minimum, self.maximum
        return out


def _team(want: str) -> UnitTest:
    return lambda unit: unit.team._value_ == want


def _stacks(want: str) -> UnitTest:
    return lambda unit: unit.statuses.get(want, 0) > 0


UNIT_FILTERS: dict[str, FilterKey] = {key.name: key for key in (
    FilterKey("team", "choice", _team, "units of this team", ("player", "enemy")),
    FilterKey("tag", "id", lambda want: lambda u: want in u.tags, "units with this tag"),
    FilterKey("tier", "integer", lambda want: lambda u: u.tier == want, "units of this tier"),
    FilterKey("tier_min", "integer", lambda want: lambda u: u.tier >= want,
              "units of this tier or higher"),
    FilterKey("tier_max", "integer", lambda want: lambda u: u.tier <= want,
              "units of this tier or lower"),
    FilterKey("status", "id", _stacks, "units carrying this status"),
    FilterKey("hp_percent_min", "integer", lambda want: lambda u: u.hp_percent >= want,
              "units with at least this share of their max HP (0-100)", minimum=0, maximum=100),
    FilterKey("hp_percent_max", "integer", lambda want: lambda u: u.hp_percent <= want,
              "units with at most this share of their max HP (0-100)", minimum=0, maximum=100),
    FilterKey("alive", "boolean", lambda want: lambda u: u.alive is want,
              "living (true) or fallen (false) units"),
)}  # fmt: skip

CARD_FILTERS: dict[str, FilterKey] = {key.name: key for key in (
    FilterKey("type", "id", lambda want: lambda c: c.card.type == want, "cards of this type"),
    FilterKey("rarity", "id", lambda want: lambda c: c.card.rarity == want,
              "cards of this rarity"),
    FilterKey("keyword", "id", lambda want: lambda c: want in c.card.keywords,
              "cards with this keyword"),
    FilterKey("tag", "id", lambda want: lambda c: want in c.card.tags, "cards with this tag"),
    FilterKey("cost", "integer", lambda want: lambda c: c.card.cost == want,
              "cards that cost exactly this"),
    FilterKey("cost_min", "integer", lambda want: lambda c: c.card.cost >= want,
              "cards that cost this or more"),
    FilterKey("cost_max", "integer", lambda want: lambda c: c.card.cost <= want,
              "cards that cost this or less"),
)}  # fmt: skip

UNIT_FILTER_KEYS = frozenset(UNIT_FILTERS)
CARD_FILTER_KEYS = frozenset(CARD_FILTERS)
#: Keys a card filter's ``type`` may list several values for (an OR over them).
CARD_FILTER_LISTS = frozenset({"type"})


def _all(tests: list[Callable[[Any], bool]]) -> Callable[[Any], bool]:
    if not tests:
        return lambda item: True
    if len(tests) == 1:
        return tests[0]
    return lambda item: all(test(item) for test in tests)


def _any(tests: list[Callable[[Any], bool]]) -> Callable[[Any], bool]:
    return lambda item: any(test(item) for test in tests)


def unit_predicate(where: Mapping[str, Any],
                   keys: Mapping[str, FilterKey] = UNIT_FILTERS) -> UnitTest:  # fmt: skip
    """The test a ``where`` object of unit filter keys stands for (every key must hold)."""
    return _all([keys[key].make(want) for key, want in where.items()])


def card_predicate(where: Mapping[str, Any],
                   keys: Mapping[str, FilterKey] = CARD_FILTERS) -> CardTest:  # fmt: skip
    """The test a ``where`` object of card filter keys stands for. A list value (``type``)
    holds when any of its values does."""
    tests: list[CardTest] = []
    for key, want in where.items():
        make = keys[key].make
        if isinstance(want, list | tuple):
            tests.append(_any([make(value) for value in want]))
        else:
            tests.append(make(want))
    return _all(tests)


def unit_matches(unit: Unit, where: Mapping[str, Any]) -> bool:
    return unit_predicate(where)(unit)


def card_matches(card: CardInstance, where: Mapping[str, Any]) -> bool:
    return card_predicate(where)(card)


@dataclass(frozen=True, slots=True)
class SortKey:
    """What Sort may order a collection by; ``make`` takes the Sort node's fields."""

    name: str
    doc: str
    make: Callable[[Mapping[str, Any]], Callable[[Any], Any]]
    needs_status: bool = False

    def to_json(self) -> dict[str, object]:
        return {"name": self.name, "doc": self.doc, "needs_status": self.needs_status}


def _by_status(fields: Mapping[str, Any]) -> Callable[[Unit], int]:
    status = fields["status"]
    return lambda unit: unit.statuses.get(status, 0)


UNIT_SORTS: dict[str, SortKey] = {key.name: key for key in (
    SortKey("hp", "HP", lambda f: attrgetter("hp")),
    SortKey("max_hp", "max HP", lambda f: attrgetter("max_hp")),
    SortKey("armor", "armor", lambda f: attrgetter("armor")),
    SortKey("tier", "tier", lambda f: attrgetter("tier")),
    SortKey("hp_percent", "share of max HP", lambda f: lambda u: u.hp * 1.0 / u.max_hp),
    SortKey("status", "stacks of a status", _by_status, needs_status=True),
)}  # fmt: skip

#: Card sort keys read the card instance's definition.
CARD_SORTS: dict[str, SortKey] = {
    "cost": SortKey("cost", "cost", lambda f: lambda card: card.card.cost),
}
