"""The building blocks of the node schema: what ports carry, and declarative field specs.

A :class:`FieldSpec` says a field's type, range, choices and default once; the loader reads
documents with it and the protocol's ``schema`` operation describes it to hosts (the Workshop
builds its forms from that), so the two cannot disagree.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Final

from .filters import CARD_FILTER_LISTS, WORD_LISTS, FilterKey
from .reader import Reader


class Kind(StrEnum):
    """What a data port carries."""

    UNITS = "units"
    CARDS = "cards"
    BOOL = "condition"


#: ``"amount": "stacks"``: the stacks of the status whose Behavior is running.
STACKS: Final = "stacks"
MAX_AMOUNT: Final = 1_000_000
MAX_COUNT: Final = 1_000
#: Card types one ``type`` filter may list (an OR over them).
MAX_TYPES = 8


class _Required:
    def __repr__(self) -> str:
        return "REQUIRED"


#: The default of a field that must be given.
REQUIRED: Any = _Required()


@dataclass(frozen=True, slots=True)
class FieldSpec:
    """A node field. ``type``: ``integer`` (``minimum..maximum``), ``amount`` (an integer, or
    ``"stacks"`` in a status Behavior), ``choice`` (one of ``choices``), ``id``, ``boolean``
    or ``where`` (filter conditions)."""

    name: str
    type: str
    doc: str
    default: Any = REQUIRED  # Any, not object: mypyc cannot load object for a dataclass
    choices: tuple[str, ...] = ()
    minimum: int = 0
    maximum: int = MAX_AMOUNT
    #: What each of ``choices`` means, for the Workshop's forms and the docs (the built-in
    #: fields describe theirs in their ``doc``).
    choice_docs: Mapping[str, str] = field(default_factory=dict)
    #: The word list of ``filters.WORD_LISTS`` an ``id`` field's values are drawn from (a
    #: status id: ``statuses``), which editors suggest; ``""``: none.
    suggests: str = ""

    def __post_init__(self) -> None:
        if self.suggests and self.suggests not in WORD_LISTS:
            known = ", ".join(WORD_LISTS)
            raise ValueError(f"field {self.name!r}: suggests {self.suggests!r} is not a word "
                             f"list (known: {known})")  # fmt: skip

    @property
    def required(self) -> bool:
        return self.default is REQUIRED

    def read(self, r: Reader) -> object:
        kind = self.type
        if kind == "integer":
            return r.integer(self.minimum, self.maximum)
        if kind == "amount":
            if isinstance(r.value, Mapping):
                return read_counter_amount(r)
            return STACKS if r.value == STACKS else r.integer(self.minimum, self.maximum)
        if kind == "choice":
            return r.choice(self.choices)
        if kind == "id":
            return r.ident()
        if kind == "boolean":
            return r.boolean()
        return parse_where(r)

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {"name": self.name, "type": self.type, "doc": self.doc,
                                  "required": self.required}  # fmt: skip
        if not self.required:
            out["default"] = self.default
        if self.type == "choice":
            out["choices"] = list(self.choices)
        if self.choice_docs:
            out["choice_docs"] = dict(self.choice_docs)
        if self.type in ("integer", "amount"):
            out["minimum"], out["maximum"] = self.minimum, self.maximum
        if self.suggests:
            out["suggests"] = self.suggests
        return out


@dataclass(frozen=True, slots=True)
class PortSpec:
    accepts: frozenset[Kind]
    required: bool = True
    doc: str = ""

    def to_json(self, name: str) -> dict[str, object]:
        return {"name": name, "accepts": sorted(k.value for k in self.accepts),
                "required": self.required, "doc": self.doc}  # fmt: skip


def read_counter_amount(r: Reader) -> dict[str, object]:
    """An amount read from a battle counter: ``{"counter": "combo", "times": 2, "plus": 1}``
    is twice the counter plus one (``times`` 1 and ``plus`` 0 when left out)."""
    r.obj({"counter", "times", "plus"}, ("counter",))
    counters = {} if r.words is None else r.words.counters
    out: dict[str, object] = {"counter": r.field("counter").choice(tuple(counters) or ("",))}
    if r.has("times"):
        out["times"] = r.field("times").integer(-1000, 1000)
    if r.has("plus"):
        out["plus"] = r.field("plus").integer(-MAX_AMOUNT, MAX_AMOUNT)
    return out


def parse_where(r: Reader, built_in_only: bool = False) -> dict[str, object]:
    """Filter conditions over every filter key; which keys apply depends on what is filtered,
    checked by the caller. ``type`` may list several card types (any of them matches).
    ``built_in_only``: a card's ``target_filter`` and ``card_targets`` take only the built-in
    keys (an extension's keys are for Filter nodes)."""
    words = None if built_in_only else r.words
    if words is None:
        from .vocabulary import builtin

        words = builtin()
    keys = {**words.unit_filters, **words.card_filters}
    r.obj(set(keys))
    out: dict[str, object] = {}
    for key, value in r.items():
        if key in CARD_FILTER_LISTS and isinstance(value.value, list):
            out[key] = value.str_list(MAX_TYPES)
            if not out[key]:
                raise value.fail("expected at least one card type")
            continue
        out[key] = read_filter_value(keys[key], value)
    return out


def read_filter_value(spec: FilterKey, r: Reader) -> object:
    if spec.type == "choice":
        return r.choice(spec.choices)
    if spec.type == "boolean":
        return r.boolean()
    if spec.type == "id":
        return r.ident()
    return r.integer(spec.minimum, spec.maximum)


def where_to_json(where: Mapping[str, object]) -> dict[str, object]:
    """A ``where`` object as JSON (lists of card types as lists)."""
    return {key: list(v) if isinstance(v, tuple) else v for key, v in where.items()}
