"""Filter conditions and sort keys: what units and cards can be kept by and ordered by.

Each filter key carries its value type (for validation and the protocol's ``schema``) and
builds the test it stands for; a ``where`` object compiles once into one predicate, which
Filter nodes, a card's ``target_filter`` and ``card_targets`` all use. Likewise each sort key
builds the key function Sort uses. The built-in keys are declared in
:mod:`pybridge.words.filters`, a game's in its extensions.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .model import CardInstance, Unit

UnitTest = Callable[["Unit"], bool]
CardTest = Callable[["CardInstance"], bool]
MAX_BOUND = 1_000_000


@dataclass(frozen=True, slots=True)
class WordList:
    """A list of words a game's data uses (its card tags, its status ids), which a filter key's
    values are drawn from: an editor suggests them while a designer types one. It says where a
    host finds the words in use: ``cards``, a field of card definitions; ``units``, a field of
    a battle's units (a list, or an object keyed by the words); ``battle``, a table of a
    battle document (the ids of its rows); ``schema``, a table of the ``schema`` answer."""

    name: str
    doc: str
    cards: str = ""
    units: str = ""
    battle: str = ""
    schema: str = ""

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {"name": self.name, "doc": self.doc}
        for place in ("cards", "units", "battle", "schema"):
            if getattr(self, place):
                out[place] = getattr(self, place)
        return out


_KEYWORDS_DOC = "the keywords the rules know and the cards list"
_STATUSES_DOC = "the statuses a battle defines and its units carry"
#: The word lists a filter key may say its values are drawn from (its ``suggests``).
WORD_LISTS: dict[str, WordList] = {
    entry.name: entry
    for entry in (
        WordList("card_tags", "the tags the library's cards list", cards="tags"),
        WordList("keywords", _KEYWORDS_DOC, cards="keywords", schema="keywords"),
        WordList("card_types", "the types the library's cards have", cards="type"),
        WordList("rarities", "the rarities the library's cards have", cards="rarity"),
        WordList("unit_tags", "the tags a battle's units carry", units="tags"),
        WordList("statuses", _STATUSES_DOC, units="statuses", battle="statuses"),
    )
}


@dataclass(frozen=True, slots=True)
class FilterKey:
    """One key of a ``where`` object: its value type and the test it builds from a value.

    ``type`` is ``choice`` (one of ``choices``), ``id``, ``boolean`` or ``integer`` (in
    ``minimum..maximum``); ``suggests`` names the word list of :data:`WORD_LISTS` its values
    are drawn from (``""``: none)."""

    name: str
    type: str
    make: Callable[[Any], Callable[[Any], bool]]
    doc: str
    choices: tuple[str, ...] = ()
    minimum: int = -MAX_BOUND
    maximum: int = MAX_BOUND
    suggests: str = ""

    def __post_init__(self) -> None:
        if self.suggests and self.suggests not in WORD_LISTS:
            known = ", ".join(WORD_LISTS)
            raise ValueError(f"filter key {self.name!r}: suggests {self.suggests!r} is not a "
                             f"word list (known: {known})")  # fmt: skip

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {"name": self.name, "type": self.type, "doc": self.doc}
        if self.choices:
            out["choices"] = list(self.choices)
        if self.type == "integer":
            out["minimum"], out["maximum"] = self.minimum, self.maximum
        if self.suggests:
            out["suggests"] = self.suggests
        return out


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
                   keys: Mapping[str, FilterKey] | None = None) -> UnitTest:  # fmt: skip
    """The test a ``where`` object of unit filter keys stands for (every key must hold);
    the built-in keys unless others are given."""
    if keys is None:
        from .vocabulary import builtin

        keys = builtin().unit_filters
    return _all([keys[key].make(want) for key, want in where.items()])


def card_predicate(where: Mapping[str, Any],
                   keys: Mapping[str, FilterKey] | None = None) -> CardTest:  # fmt: skip
    """The test a ``where`` object of card filter keys stands for. A list value (``type``)
    holds when any of its values does. No key holds for a face-down card: the rules read
    none of its faces, so which cards a filter keeps never tells what a hidden one is."""
    if keys is None:
        from .vocabulary import builtin

        keys = builtin().card_filters
    tests: list[CardTest] = []
    for key, want in where.items():
        make = keys[key].make
        if isinstance(want, list | tuple):
            tests.append(_any([make(value) for value in want]))
        else:
            tests.append(make(want))
    if not tests:
        return _all(tests)
    test = _all(tests)
    return lambda card: not card.face_down and test(card)


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


if TYPE_CHECKING:  # the built-in tables, given by __getattr__ below
    UNIT_FILTERS: dict[str, FilterKey]
    CARD_FILTERS: dict[str, FilterKey]
    UNIT_SORTS: dict[str, SortKey]
    CARD_SORTS: dict[str, SortKey]
    UNIT_FILTER_KEYS: frozenset[str]
    CARD_FILTER_KEYS: frozenset[str]


def _module_getattr(name: str) -> Any:
    """The built-in filter and sort keys by name: ``UNIT_FILTERS``, ``CARD_FILTERS``,
    ``UNIT_SORTS``, ``CARD_SORTS``, and the names alone, ``UNIT_FILTER_KEYS`` and
    ``CARD_FILTER_KEYS``."""
    tables = {"UNIT_FILTERS": "unit_filters", "CARD_FILTERS": "card_filters",
              "UNIT_SORTS": "unit_sorts", "CARD_SORTS": "card_sorts"}  # fmt: skip
    if name in tables:
        from .vocabulary import builtin

        return getattr(builtin(), tables[name])
    if name in ("UNIT_FILTER_KEYS", "CARD_FILTER_KEYS"):
        return frozenset(__getattr__(name.replace("_KEYS", "S")))
    raise AttributeError(name)


# Bound, not defined, as __getattr__: mypyc crashes importing a compiled module that
# defines one (see pybridge/devtools/compiled.py).
__getattr__ = _module_getattr
