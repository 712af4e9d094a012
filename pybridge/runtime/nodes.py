"""Behavior node types as specs, and the graph's own grammar.

A spec carries the fields (types, enums, defaults) and ports (with the kinds they accept) the
loader validates and the protocol's ``schema`` describes; its role (source, selector,
condition, flow control, action), which the compiler (:mod:`.resolve`) and the authoring tools
read instead of the node's name; for a selector, the function that narrows a collection; for an
action, the function it applies, the unit states (or card places) it affects and the events it
emits.

The grammar is defined here: the UnitSource and CardSource nodes, the selectors, Condition,
Branch, Gate, Snapshot, and ``Call``, which runs another card's Behavior (:mod:`.calls`).
Actions are words: the built-in ones are declared through the extension API in
:mod:`pybridge.words.actions`, a game's in its extensions.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING, Any

from .calls import call
from .conditions import COMPARISONS
from .kinds import MAX_AMOUNT, MAX_COUNT, FieldSpec, Kind, PortSpec
from .selectors import (
    Compiler,
    compile_filter,
    compile_pick,
    compile_random,
    compile_sort,
    compile_take,
)

#: ``output`` of a selector: the kind of whatever feeds its ``input`` port.
SAME_AS_INPUT = "same as input"


class Role(StrEnum):
    SOURCE = "source"  # yields a collection read live from the battle
    SELECTOR = "selector"  # narrows the collection on its input port
    CONDITION = "condition"  # yields true or false
    BRANCH = "branch"  # flow: runs its then or else arm, then continues
    GATE = "gate"  # flow: ends its arm when its condition is false
    SNAPSHOT = "snapshot"  # flow: freezes its input when it runs
    ACTION = "action"  # flow: changes the battle


#: The palette groups, as the targeting guide groups nodes.
GROUPS = ("unit sources", "card sources", "selectors", "flow and conditions", "actions")


@dataclass(frozen=True, slots=True)
class NodeType:
    """The spec of one node type.

    ``output``: what it yields to ports (None: nothing); ``exits``: its flow links;
    ``acts_on``: what an action's ``source`` field and ``target`` port address; ``states``:
    the unit states (``field``, ``dead``, ``reserve``) or card places an action affects;
    ``apply``: an action's function (``(node, ctx, targets)``, or ``(node, ctx)`` without
    ``acts_on``); ``narrow``: a selector's compiler; ``limit``: how many elements a reducing
    selector keeps at most, from its fields; ``random``: it chooses with the battle's PRNG.
    """

    name: str
    role: Role
    doc: str
    fields: tuple[FieldSpec, ...] = ()
    ports: Mapping[str, PortSpec] = field(default_factory=dict)
    output: Kind | str | None = None
    exits: tuple[str, ...] = ()
    acts_on: Kind | None = None
    states: frozenset[str] = frozenset()
    events: tuple[str, ...] = ()
    apply: Callable[..., None] | None = None
    narrow: Compiler | None = None
    limit: Callable[[Mapping[str, Any]], int] | None = None
    random: bool = False
    #: The kinds of player choice the action may ask while it resolves (``Context.ask``).
    asks: tuple[str, ...] = ()
    #: The extension that declared it ("" for the built-in vocabulary).
    extension: str = ""
    #: An extension action's words in generated card text (a ``vocabulary.Message`` whose
    #: parameters name its fields, and ``target`` for the units or cards it acts on).
    describe: Any = None

    @property
    def flow(self) -> bool:
        return bool(self.exits)

    @property
    def group(self) -> str:
        if self.role is Role.SOURCE:
            return GROUPS[0] if self.output is Kind.UNITS else GROUPS[1]
        if self.role is Role.SELECTOR:
            return GROUPS[2]
        return GROUPS[4] if self.role is Role.ACTION else GROUPS[3]

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {
            "name": self.name, "role": self.role.value, "group": self.group, "doc": self.doc,
            "fields": [f.to_json() for f in self.fields],
            "ports": [spec.to_json(name) for name, spec in self.ports.items()],
            "output": None if self.output is None else str(self.output),
            "exits": list(self.exits), "events": list(self.events), "random": self.random,
        }  # fmt: skip
        if self.asks:
            out["asks"] = list(self.asks)
        if self.extension:
            out["extension"] = self.extension
        if self.acts_on is not None:  # the schema adds the sources its source field may name
            out["acts_on"] = self.acts_on.value
            out["states"] = sorted(self.states)
        return out


_COLLECTION = frozenset({Kind.UNITS, Kind.CARDS})
_INPUT = {"input": PortSpec(_COLLECTION, doc="the collection to narrow")}
_CONDITION_PORT = {"condition": PortSpec(frozenset({Kind.BOOL}), doc="a Condition node")}
_FLOW = ("next",)


def _selector(name: str, doc: str, narrow: Compiler, *fields: FieldSpec,
              limit: Callable[[Mapping[str, Any]], int] | None = None,
              random: bool = False) -> NodeType:  # fmt: skip
    return NodeType(name, Role.SELECTOR, doc, fields, _INPUT, SAME_AS_INPUT, narrow=narrow,
                    limit=limit, random=random)  # fmt: skip


_COUNT = FieldSpec("count", "integer", "how many elements to keep", maximum=MAX_COUNT)
_N = NodeType
# Field choices that list the vocabulary's sources, tests, measures and sort keys are filled in
# when a vocabulary is sealed (:meth:`.vocabulary.Vocabulary.seal`).
GRAMMAR: tuple[NodeType, ...] = (
    # sources
    _N("UnitSource", Role.SOURCE, "yields units, read from the battle each time it is pulled",
       (FieldSpec("source", "choice", "which units"),),
       output=Kind.UNITS),
    _N("CardSource", Role.SOURCE, "yields card instances, read from the piles each time",
       (FieldSpec("source", "choice", "which cards"),),
       output=Kind.CARDS),
    # selectors
    _selector("Filter", "keeps the elements that meet every condition", compile_filter,
              FieldSpec("where", "where", "filter conditions, all must hold")),
    _selector("Sort", "orders the elements (stable)", compile_sort,
              FieldSpec("by", "choice", "what to order by"),
              FieldSpec("order", "choice", "ascending or descending", "asc", ("asc", "desc")),
              FieldSpec("status", "id", "the status to order by (with by: status)", None,
                        suggests="statuses")),
    _selector("PickElement", "one element by position, or none if out of range", compile_pick,
              FieldSpec("index", "integer", "the position; negative counts from the end", 0,
                        minimum=-MAX_COUNT, maximum=MAX_COUNT), limit=lambda f: 1),
    _selector("Take", "the first elements", compile_take, _COUNT,
              limit=lambda f: int(f["count"])),
    _selector("RandomElements", "distinct elements chosen with the battle's PRNG",
              compile_random, FieldSpec("count", "integer", "how many to choose", 1,
                                        maximum=MAX_COUNT),
              limit=lambda f: int(f["count"]), random=True),
    # conditions and control flow
    _N("Condition", Role.CONDITION, "yields true or false", (
        FieldSpec("test", "choice", "what to test"),
        FieldSpec("status", "id", "the status (has_status, or the stacks measure)", None,
                  suggests="statuses"),
        FieldSpec("measure", "choice", "what compare reads", None),
        FieldSpec("op", "choice", "how compare compares", None, tuple(COMPARISONS)),
        FieldSpec("value", "integer", "what compare compares with", None,
                  minimum=-MAX_AMOUNT, maximum=MAX_AMOUNT),
    ), ports={"input": PortSpec(_COLLECTION, required=False, doc="the collection it tests")},
       output=Kind.BOOL),
    _N("Branch", Role.BRANCH, "runs its then or else arm, then continues at next",
       ports=_CONDITION_PORT, exits=("then", "else", "next"), events=("branch",)),
    _N("Gate", Role.GATE, "when its condition is false, ends the arm it is in",
       ports=_CONDITION_PORT, exits=_FLOW, events=("gate_closed",)),
    _N("Snapshot", Role.SNAPSHOT, "freezes its input when it runs; yields that afterwards",
       ports=_INPUT, output=SAME_AS_INPUT, exits=_FLOW),
)  # fmt: skip

#: Listed after the actions, as the palette shows it.
CALL = NodeType(
    "Call", Role.ACTION, "runs the Behavior of a card of the battle (its cards or library) with "
    "this Host; that Behavior's Target is what the target port yields, else this one's",
    (FieldSpec("card", "id", "the id of the card whose Behavior runs"),),
    {"target": PortSpec(frozenset({Kind.UNITS}), required=False,
                        doc="the units the called Behavior reads as Target; unconnected: the "
                        "Target of this Behavior")},
    exits=_FLOW, events=("called",), apply=call,
)  # fmt: skip


if TYPE_CHECKING:  # the built-in table, given by __getattr__ below
    NODE_TYPES: dict[str, NodeType]


def _module_getattr(name: str) -> Any:
    """``NODE_TYPES``: the built-in vocabulary's node types, grammar and actions, by name."""
    if name == "NODE_TYPES":
        from .vocabulary import builtin

        return builtin().node_types
    raise AttributeError(name)


# Bound, not defined, as __getattr__: mypyc crashes importing a compiled module that
# defines one (see pybridge/devtools/compiled.py).
__getattr__ = _module_getattr
