"""Behavior graphs: the node graph a card (or later a status or enemy) runs when it resolves.

A Behavior is a list of nodes plus ``start``, the first node of its flow. Two roles:

* **data nodes** (sources and selectors) compute a collection of units or cards each time a
  downstream node pulls them, so sources read the battle live;
* **flow nodes** (actions and Snapshot) run one after another along ``next``.

Ports connect nodes: ``"ports": {"target": "lowest"}`` feeds the collection of node
``lowest`` into the ``target`` port, and a connected ``target`` port outranks the node's
``source`` field. Everything is validated when loaded: unknown types and fields, dangling or
mistyped ports (units into a card port), cycles, unreachable ends and size limits.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from .errors import FormatError
from .model import PILES
from .reader import Reader


class Kind(StrEnum):
    """What a data port carries."""

    UNITS = "units"
    CARDS = "cards"


UNIT_SOURCES: tuple[str, ...] = (
    "Self",
    "Opponent",
    "AllUnits",
    "ActivePlayer",
    "AllAllies",
    "AllOpponents",
    "AllEnemies",
    "AllDeadAllies",
    "Target",
)
CARD_SOURCES: tuple[str, ...] = (
    "ThisCard",
    "HandPile",
    "DrawPile",
    "DiscardPile",
    "ExhaustPile",
    "AllPiles",
)
PILE_NAMES: tuple[str, ...] = tuple(p.value for p in PILES)

MAX_NODES = 256
MAX_AMOUNT = 1_000_000
MAX_COUNT = 1_000

UNIT_FILTER_KEYS = frozenset(
    {
        "team",
        "tag",
        "tier",
        "tier_min",
        "tier_max",
        "status",
        "hp_percent_min",
        "hp_percent_max",
        "alive",
    }
)
CARD_FILTER_KEYS = frozenset({"type", "rarity", "keyword", "tag", "cost", "cost_min", "cost_max"})
UNIT_SORT_KEYS = ("hp", "max_hp", "armor", "tier", "hp_percent", "status")
CARD_SORT_KEYS = ("cost",)

_REQUIRED: Any = object()


@dataclass(frozen=True, slots=True)
class FieldSpec:
    name: str
    read: Callable[[Reader], object]
    default: object = _REQUIRED


@dataclass(frozen=True, slots=True)
class NodeType:
    """The schema of one node type.

    ``acts_on`` names what an action's ``source``/``target`` pair addresses; ``output`` is the
    kind a data node yields (``None``: the kind of its ``input`` port).
    """

    name: str
    flow: bool
    fields: tuple[FieldSpec, ...] = ()
    acts_on: Kind | None = None
    input_port: bool = False
    output: Kind | None = None

    @property
    def is_data(self) -> bool:
        return self.output is not None or (self.input_port and not self.flow)


def _amount(r: Reader) -> int:
    return r.integer(0, MAX_AMOUNT)


def _count(r: Reader) -> int:
    return r.integer(0, MAX_COUNT)


def _where(r: Reader) -> dict[str, object]:
    """Filter conditions; which keys apply depends on the input kind, checked later."""
    r.obj(UNIT_FILTER_KEYS | CARD_FILTER_KEYS)
    out: dict[str, object] = {}
    for key, value in r.items():
        if key == "team":
            out[key] = value.choice(("player", "enemy"))
        elif key == "alive":
            out[key] = value.boolean()
        elif key in ("tag", "status", "keyword") or key in ("type", "rarity"):
            out[key] = value.ident()
        elif key.startswith("hp_percent"):
            out[key] = value.integer(0, 100)
        else:  # tier, tier_min, tier_max, cost, cost_min, cost_max
            out[key] = value.integer(-MAX_AMOUNT, MAX_AMOUNT)
    return out


def _unit_action(name: str, *fields: FieldSpec) -> NodeType:
    return NodeType(name, flow=True, acts_on=Kind.UNITS, fields=fields)


def _card_action(name: str, *fields: FieldSpec) -> NodeType:
    return NodeType(name, flow=True, acts_on=Kind.CARDS, fields=fields)


NODE_TYPES: dict[str, NodeType] = {
    t.name: t
    for t in (
        # sources
        NodeType(
            "UnitSource",
            flow=False,
            output=Kind.UNITS,
            fields=(FieldSpec("source", lambda r: r.choice(UNIT_SOURCES)),),
        ),
        NodeType(
            "CardSource",
            flow=False,
            output=Kind.CARDS,
            fields=(FieldSpec("source", lambda r: r.choice(CARD_SOURCES)),),
        ),
        # selectors: output kind follows the input
        NodeType("Filter", flow=False, input_port=True, fields=(FieldSpec("where", _where),)),
        NodeType(
            "Sort",
            flow=False,
            input_port=True,
            fields=(
                FieldSpec("by", lambda r: r.choice(UNIT_SORT_KEYS + CARD_SORT_KEYS)),
                FieldSpec("order", lambda r: r.choice(("asc", "desc")), "asc"),
                FieldSpec("status", lambda r: r.ident(), None),
            ),
        ),
        NodeType(
            "PickElement",
            flow=False,
            input_port=True,
            fields=(FieldSpec("index", lambda r: r.integer(-MAX_COUNT, MAX_COUNT), 0),),
        ),
        NodeType("Take", flow=False, input_port=True, fields=(FieldSpec("count", _count),)),
        NodeType(
            "RandomElements", flow=False, input_port=True, fields=(FieldSpec("count", _count, 1),)
        ),
        # flow node with a data output: freezes its input when it runs
        NodeType("Snapshot", flow=True, input_port=True),
        # actions on units
        _unit_action("DealDamage", FieldSpec("amount", _amount)),
        _unit_action("GainArmor", FieldSpec("amount", _amount)),
        _unit_action("Heal", FieldSpec("amount", _amount)),
        _unit_action(
            "ApplyStatus",
            FieldSpec("status", lambda r: r.ident()),
            FieldSpec("stacks", lambda r: r.integer(1, MAX_AMOUNT), 1),
        ),
        _unit_action("Revive", FieldSpec("hp", lambda r: r.integer(1, MAX_AMOUNT))),
        # actions on cards
        _card_action(
            "MoveCard",
            FieldSpec("to", lambda r: r.choice(PILE_NAMES)),
            FieldSpec("position", lambda r: r.choice(("top", "bottom")), None),
        ),
        _card_action("Discard"),
        _card_action("Exhaust"),
        NodeType("Draw", flow=True, fields=(FieldSpec("count", _count),)),
    )
}

_NODE_KEYS = frozenset({"id", "type", "source", "ports", "next"})


@dataclass(frozen=True, slots=True)
class Node:
    id: str
    type: NodeType
    fields: Mapping[str, Any]
    ports: Mapping[str, str]
    source: str | None = None
    next: str | None = None

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {"id": self.id, "type": self.type.name}
        for spec in self.type.fields:
            value = self.fields[spec.name]
            if value is not None:
                out[spec.name] = dict(value) if isinstance(value, Mapping) else value
        if self.source is not None:
            out["source"] = self.source
        if self.ports:
            out["ports"] = dict(self.ports)
        if self.next is not None:
            out["next"] = self.next
        return out


@dataclass(frozen=True, slots=True)
class Behavior:
    """A validated graph. ``kinds`` maps every data-producing node to what it yields."""

    nodes: Mapping[str, Node]
    start: str | None
    kinds: Mapping[str, Kind]

    def flow(self) -> list[Node]:
        """The flow nodes in the order they run."""
        order: list[Node] = []
        node_id = self.start
        while node_id is not None:
            node = self.nodes[node_id]
            order.append(node)
            node_id = node.next
        return order

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {"nodes": [n.to_json() for n in self.nodes.values()]}
        if self.start is not None:
            out["start"] = self.start
        return out


EMPTY_BEHAVIOR = Behavior(nodes={}, start=None, kinds={})


def parse_behavior(r: Reader) -> Behavior:
    r.obj({"nodes", "start"})
    node_readers = r.field("nodes", []).elements(MAX_NODES)
    nodes: dict[str, Node] = {}
    for nr in node_readers:
        node = _parse_node(nr)
        if node.id in nodes:
            raise nr.field("id").fail("duplicate node id")
        nodes[node.id] = node
    start_r = r.field("start", None)
    start = None if start_r.value is None else start_r.ident()
    _check_links(r, node_readers, nodes, start)
    kinds = _infer_kinds(node_readers, nodes)
    return Behavior(nodes=nodes, start=start, kinds=kinds)


def _parse_node(r: Reader) -> Node:
    r.obj(_NODE_KEYS | {s.name for t in NODE_TYPES.values() for s in t.fields}, ("id", "type"))
    node_id = r.field("id").ident()
    ntype: NodeType = r.field("type").choice(NODE_TYPES)
    allowed = {"id", "type", *(s.name for s in ntype.fields)}
    if ntype.acts_on is not None:
        allowed |= {"source", "ports"}
    if ntype.input_port:
        allowed.add("ports")
    if ntype.flow:
        allowed.add("next")
    r.obj(allowed)
    fields: dict[str, Any] = {}
    for spec in ntype.fields:
        if r.has(spec.name):
            fields[spec.name] = spec.read(r.field(spec.name))
        elif spec.default is _REQUIRED:
            raise FormatError.missing(f"{r.path}.{spec.name}", "missing required field")
        else:
            fields[spec.name] = spec.default
    source = None
    if ntype.acts_on is not None and r.has("source"):
        choices = UNIT_SOURCES if ntype.acts_on is Kind.UNITS else CARD_SOURCES
        source = r.field("source").choice(choices)
    ports: dict[str, str] = {}
    if r.has("ports"):
        port_names = {"input"} if ntype.input_port else {"target"}
        pr = r.field("ports").obj(port_names)
        ports = {name: value.ident() for name, value in pr.items()}
    if ntype.input_port and "input" not in ports:
        raise FormatError.missing(f"{r.path}.ports.input", "missing required field")
    if ntype.acts_on is not None and source is None and "target" not in ports:
        raise FormatError.missing(
            f"{r.path}.source", "an action needs a source field or a connected target port"
        )
    if ntype.name == "Sort":
        _check_sort(r, fields)
    next_id = r.field("next").ident() if r.has("next") else None
    return Node(node_id, ntype, fields, ports, source, next_id)


def _check_sort(r: Reader, fields: dict[str, Any]) -> None:
    if fields["by"] == "status" and fields["status"] is None:
        raise FormatError.missing(f"{r.path}.status", "required when sorting by status")
    if fields["by"] != "status" and fields["status"] is not None:
        raise r.field("status").fail("only allowed when sorting by status")


def _check_links(
    r: Reader, readers: list[Reader], nodes: dict[str, Node], start: str | None
) -> None:
    by_id = dict(zip(nodes, readers, strict=True))
    if start is not None:
        if start not in nodes:
            raise r.field("start").fail("no node with this id")
        if not nodes[start].type.flow:
            raise r.field("start").fail(f"must name a flow node, {nodes[start].type.name} is data")
    elif any(n.type.flow for n in nodes.values()):
        raise FormatError.missing(f"{r.path}.start", "missing: the graph has flow nodes")
    for node in nodes.values():
        nr = by_id[node.id]
        if node.next is not None:
            if node.next not in nodes:
                raise nr.field("next").fail("no node with this id")
            if not nodes[node.next].type.flow:
                raise nr.field("next").fail("must name a flow node (an action or Snapshot)")
        for port, ref in node.ports.items():
            if ref not in nodes:
                raise nr.field("ports").field(port).fail("no node with this id")
            producer = nodes[ref]
            if not (producer.type.output is not None or producer.type.input_port):
                raise (
                    nr.field("ports")
                    .field(port)
                    .fail(f"node {ref!r} ({producer.type.name}) produces no collection")
                )
    # the flow is a simple chain: it must not revisit a node
    seen: set[str] = set()
    node_id = start
    while node_id is not None:
        if node_id in seen:
            raise by_id[node_id].field("next").fail("the flow loops back to this node")
        seen.add(node_id)
        node_id = nodes[node_id].next


def _infer_kinds(readers: list[Reader], nodes: dict[str, Node]) -> dict[str, Kind]:
    """Give every producer its kind, rejecting data cycles and kind mismatches."""
    by_id = dict(zip(nodes, readers, strict=True))
    kinds: dict[str, Kind] = {}
    visiting: set[str] = set()

    def kind_of(node_id: str) -> Kind:
        if node_id in kinds:
            return kinds[node_id]
        node = nodes[node_id]
        if node_id in visiting:
            raise by_id[node_id].field("ports").fail("data ports form a cycle through this node")
        visiting.add(node_id)
        kind = node.type.output if node.type.output is not None else kind_of(node.ports["input"])
        visiting.discard(node_id)
        kinds[node_id] = kind
        return kind

    for node in nodes.values():
        nr = by_id[node.id]
        if node.type.output is not None or node.type.input_port:
            kind = kind_of(node.id)
            _check_selector_fields(nr, node, kind)
        if node.type.acts_on is not None and "target" in node.ports:
            got = kind_of(node.ports["target"])
            if got is not node.type.acts_on:
                raise (
                    nr.field("ports")
                    .field("target")
                    .fail(
                        f"{node.type.name} acts on {node.type.acts_on.value}, "
                        f"but this node yields {got.value}"
                    )
                )
    return kinds


def _check_selector_fields(r: Reader, node: Node, kind: Kind) -> None:
    if node.type.name == "Filter":
        allowed = UNIT_FILTER_KEYS if kind is Kind.UNITS else CARD_FILTER_KEYS
        for key in node.fields["where"]:
            if key not in allowed:
                raise (
                    r.field("where")
                    .field(key)
                    .fail(f"not a filter for {kind.value} (allowed: {', '.join(sorted(allowed))})")
                )
    elif node.type.name == "Sort":
        allowed_sort = UNIT_SORT_KEYS if kind is Kind.UNITS else CARD_SORT_KEYS
        if node.fields["by"] not in allowed_sort:
            raise r.field("by").fail(
                f"cannot sort {kind.value} by this (allowed: {', '.join(allowed_sort)})"
            )
