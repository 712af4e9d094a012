"""Every Behavior node type as a spec: its schema, its role, and what it does.

A spec carries the fields (types, enums, defaults) and ports (with the kinds they accept) the
loader validates and the protocol's ``schema`` describes; its role (source, selector,
condition, flow control, action), which the compiler (:mod:`.resolve`) and the authoring tools
read instead of the node's name; for a selector, the function that narrows a collection; for an
action, the function it applies, the unit states (or card places) it affects and the events it
emits. Adding an action means adding its function to :mod:`.actions` and one row here (and its
describe words and narration, which tests check). ``Call`` runs another card's Behavior
(:mod:`.calls`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from . import actions
from .calls import call
from .conditions import COMPARISONS, CONDITION_TESTS, MEASURES
from .filters import CARD_SORTS, UNIT_SORTS
from .kinds import MAX_AMOUNT, MAX_COUNT, FieldSpec, Kind, PortSpec
from .model import PILES
from .selectors import (
    Compiler,
    compile_filter,
    compile_pick,
    compile_random,
    compile_sort,
    compile_take,
)
from .sources import CARD_SOURCES, UNIT_SOURCES

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
        if self.acts_on is not None:
            choices = UNIT_SOURCES if self.acts_on is Kind.UNITS else CARD_SOURCES
            out["acts_on"] = self.acts_on.value
            out["states"] = sorted(self.states)
            out["source"] = {"choices": list(choices), "overridden_by": "target"}
        return out


_COLLECTION = frozenset({Kind.UNITS, Kind.CARDS})
_INPUT = {"input": PortSpec(_COLLECTION, doc="the collection to narrow")}
_CONDITION_PORT = {"condition": PortSpec(frozenset({Kind.BOOL}), doc="a Condition node")}
_FLOW = ("next",)
_FIELD, _DEAD, _RESERVE = frozenset({"field"}), frozenset({"dead"}), frozenset({"reserve"})
_PILES = frozenset({*(p.value for p in PILES), "resolving"})
_SKIPS = ("target_skipped", "no_targets")


def _amount(doc: str) -> FieldSpec:
    return FieldSpec("amount", "amount", doc)


def _status(doc: str = "the status id") -> FieldSpec:
    return FieldSpec("status", "id", doc)


def _selector(name: str, doc: str, narrow: Compiler, *fields: FieldSpec,
              limit: Callable[[Mapping[str, Any]], int] | None = None,
              random: bool = False) -> NodeType:  # fmt: skip
    return NodeType(name, Role.SELECTOR, doc, fields, _INPUT, SAME_AS_INPUT, narrow=narrow,
                    limit=limit, random=random)  # fmt: skip


def _action(name: str, acts_on: Kind, states: frozenset[str], apply: Callable[..., None],
            events: tuple[str, ...], doc: str, *fields: FieldSpec) -> NodeType:  # fmt: skip
    what = "units" if acts_on is Kind.UNITS else "cards"
    doc_port = f"the {what} to act on; outranks the source field"
    ports = {"target": PortSpec(frozenset({acts_on}), required=False, doc=doc_port)}
    return NodeType(name, Role.ACTION, doc, fields, ports, exits=_FLOW, acts_on=acts_on,
                    states=states, events=(*events, *_SKIPS), apply=apply)  # fmt: skip


_COUNT = FieldSpec("count", "integer", "how many elements to keep", maximum=MAX_COUNT)
_N = NodeType
NODE_TYPES: dict[str, NodeType] = {t.name: t for t in (
    # sources
    _N("UnitSource", Role.SOURCE, "yields units, read from the battle each time it is pulled",
       (FieldSpec("source", "choice", "which units", choices=tuple(UNIT_SOURCES)),),
       output=Kind.UNITS),
    _N("CardSource", Role.SOURCE, "yields card instances, read from the piles each time",
       (FieldSpec("source", "choice", "which cards", choices=tuple(CARD_SOURCES)),),
       output=Kind.CARDS),
    # selectors
    _selector("Filter", "keeps the elements that meet every condition", compile_filter,
              FieldSpec("where", "where", "filter conditions, all must hold")),
    _selector("Sort", "orders the elements (stable)", compile_sort,
              FieldSpec("by", "choice", "what to order by",
                        choices=(*UNIT_SORTS, *(k for k in CARD_SORTS if k not in UNIT_SORTS))),
              FieldSpec("order", "choice", "ascending or descending", "asc", ("asc", "desc")),
              FieldSpec("status", "id", "the status to order by (with by: status)", None)),
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
        FieldSpec("test", "choice", "what to test", choices=tuple(CONDITION_TESTS)),
        FieldSpec("status", "id", "the status (has_status, or the stacks measure)", None),
        FieldSpec("measure", "choice", "what compare reads", None, tuple(MEASURES)),
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
    # actions on units
    _action("DealDamage", Kind.UNITS, _FIELD, actions.deal_damage,
            ("damage", "unit_died", "reaction"), "armor absorbs first; 0 HP is a fall",
            _amount("the damage before status modifiers")),
    _action("GainArmor", Kind.UNITS, _FIELD, actions.gain_armor, ("armor",),
            "armor absorbs damage", _amount("the armor gained")),
    _action("Heal", Kind.UNITS, _FIELD, actions.heal, ("heal",), "never above max HP",
            _amount("the HP restored")),
    _action("ApplyStatus", Kind.UNITS, _FIELD, actions.apply_status, ("status",),
            "stacks add up", _status(),
            FieldSpec("stacks", "integer", "stacks to add", 1, minimum=1)),
    _action("RemoveStatus", Kind.UNITS, _FIELD, actions.remove_status, ("status",),
            "removes stacks of a status", _status(),
            FieldSpec("stacks", "integer", "stacks to remove (default: all)", None, minimum=1)),
    _action("Revive", Kind.UNITS, _DEAD, actions.revive, ("revived",),
            "fallen units rise with this much HP; armor and statuses cleared",
            FieldSpec("hp", "integer", "the HP they rise with", minimum=1)),
    _action("Withdraw", Kind.UNITS, _FIELD, actions.withdraw, ("withdrawn",),
            "units leave the field for the reserve"),
    _action("Deploy", Kind.UNITS, _RESERVE, actions.deploy, ("deployed",),
            "units in the reserve enter the field"),
    # actions on cards
    _action("MoveCard", Kind.CARDS, _PILES, actions.move_card, ("card_moved",),
            "moves cards to a pile",
            FieldSpec("to", "choice", "the pile", choices=tuple(p.value for p in PILES)),
            FieldSpec("position", "choice", "top or bottom (default: the hand's bottom, other "
                      "piles' top)", None, ("top", "bottom"))),
    _action("Discard", Kind.CARDS, _PILES, actions.discard, ("card_moved",),
            "moves cards to the top of the discard pile"),
    _action("Exhaust", Kind.CARDS, _PILES, actions.exhaust, ("card_moved",),
            "moves cards to the top of the exhaust pile"),
    _action("Negate", Kind.CARDS, frozenset({"cut"}), actions.negate, ("negated", "card_moved"),
            "negates the play of cards waiting on the Cut"),
    # actions on the battle
    _N("Draw", Role.ACTION, "moves cards from the top of the draw pile to the hand",
       (FieldSpec("count", "integer", "how many cards", maximum=MAX_COUNT),), exits=_FLOW,
       events=("card_moved", "reshuffled", "target_skipped"), apply=actions.draw_cards),
    _N("GainEnergy", Role.ACTION, "gains energy for this turn",
       (FieldSpec("amount", "integer", "the energy gained", maximum=99),), exits=_FLOW,
       events=("energy",), apply=actions.gain_energy),
    # calls
    _N("Call", Role.ACTION, "runs the Behavior of a card of the battle (its cards or library) "
       "with this Host; that Behavior's Target is what the target port yields, else this one's",
       (FieldSpec("card", "id", "the id of the card whose Behavior runs"),),
       {"target": PortSpec(frozenset({Kind.UNITS}), required=False,
                           doc="the units the called Behavior reads as Target; unconnected: "
                           "the Target of this Behavior")},
       exits=_FLOW, events=("called",), apply=call),
)}  # fmt: skip
