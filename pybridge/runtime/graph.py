"""Behavior graphs: the node graph a card, status or enemy move runs when it resolves.

A Behavior is a list of nodes plus ``start``, the first node of its flow. Node roles:

* **data nodes** (sources, selectors, Condition) compute a value each time a downstream node
  pulls it, so sources read the battle live;
* **flow nodes** (actions, Snapshot, Branch, Gate) run one after another along ``next``;
  Branch runs its ``then`` or ``else`` arm and then continues at its own ``next``; a Gate
  whose condition is false ends the arm it is in.

Ports connect nodes: ``"ports": {"target": "lowest"}`` feeds the collection of node ``lowest``
into the ``target`` port, and a connected ``target`` port outranks the action's ``source``
field. Everything is validated when loaded: unknown types and fields, dangling or mistyped
ports (units into a card port), data cycles, flows that loop, merge or never run, and limits.
The flow is a tree, so a run executes each flow node at most once.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .conditions import fields_used, needs_units, reads_input
from .errors import FormatError
from .kinds import REQUIRED, STACKS, Kind
from .nodes import SAME_AS_INPUT, NodeType, Role
from .reader import Reader
from .vocabulary import Vocabulary, words_or_builtin

__all__ = ["STACKS", "Behavior", "Kind", "Node", "NodeType", "parse_behavior"]


if TYPE_CHECKING:  # the built-in table, given by __getattr__ below
    NODE_TYPES: dict[str, NodeType]


def _module_getattr(name: str) -> Any:
    """``NODE_TYPES``: the built-in vocabulary's node types, by name."""
    if name == "NODE_TYPES":
        from .vocabulary import builtin

        return builtin().node_types
    raise AttributeError(name)


# Bound, not defined, as __getattr__: mypyc crashes importing a compiled module that
# defines one (see pybridge/devtools/compiled.py).
__getattr__ = _module_getattr


MAX_NODES = 256
#: The work one run of a Behavior may do: every flow node counts 1, plus the data nodes it
#: evaluates through its ports (a chain of selectors is evaluated whole on every read).
MAX_EVALUATIONS = 2_048


@dataclass(frozen=True, slots=True)
class Node:
    id: str
    type: NodeType
    fields: Mapping[str, Any]
    ports: Mapping[str, str]
    source: str | None = None
    exits: Mapping[str, str] = field(default_factory=dict)
    #: Where an editor draws the node ([x, y]); kept, never read by the rules.
    at: tuple[int, int] | None = None

    @property
    def next(self) -> str | None:
        return self.exits.get("next")

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
        out.update(self.exits)
        if self.at is not None:
            out["at"] = list(self.at)
        return out


@dataclass(frozen=True, slots=True)
class Behavior:
    """A validated graph. ``kinds`` maps every data-producing node to what it yields."""

    nodes: Mapping[str, Node]
    start: str | None
    kinds: Mapping[str, Kind]
    #: The vocabulary it was read with (None: the built-in one), whose sources' facts and
    #: words the authoring tools read; never compared.
    words: Vocabulary | None = field(default=None, compare=False, repr=False)

    def flow_nodes(self) -> list[Node]:
        """Every flow node reachable from ``start``, depth first."""
        order: list[Node] = []
        pending = [] if self.start is None else [self.start]
        while pending:
            node = self.nodes[pending.pop()]
            order.append(node)
            pending.extend(reversed([node.exits[e] for e in node.type.exits if e in node.exits]))
        return order

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {"nodes": [n.to_json() for n in self.nodes.values()]}
        if self.start is not None:
            out["start"] = self.start
        return out


EMPTY_BEHAVIOR = Behavior(nodes={}, start=None, kinds={})


def parse_behavior(r: Reader, allow_stacks: bool = False) -> Behavior:
    """Parse and validate a Behavior. ``allow_stacks``: a status Behavior may use
    ``"amount": "stacks"``."""
    r.obj({"nodes", "start"})
    words = words_or_builtin(r.words)
    node_readers = r.field("nodes", []).elements(MAX_NODES)
    nodes: dict[str, Node] = {}
    for nr in node_readers:
        node = _parse_node(nr, allow_stacks, words)
        if node.id in nodes:
            raise nr.field("id").fail("duplicate node id")
        nodes[node.id] = node
    start_r = r.field("start", None)
    start = None if start_r.value is None else start_r.ident()
    by_id = dict(zip(nodes, node_readers, strict=True))
    _check_flow(r, by_id, nodes, start)
    kinds = _check_ports(by_id, nodes, words)
    work = evaluations(nodes)
    if work > MAX_EVALUATIONS:
        raise FormatError(r.path or "behavior", work, f"a run may evaluate at most "
                          f"{MAX_EVALUATIONS} nodes (each flow node, and every data node "
                          "it reads through its ports, again on every read)")  # fmt: skip
    return Behavior(nodes=nodes, start=start, kinds=kinds, words=r.words)


def evaluations(nodes: Mapping[str, Node]) -> int:
    """How many node evaluations one run of a validated graph does at most: each flow node
    once, plus, for each of its ports, the whole chain of data nodes behind it."""
    chains: dict[str, int] = {}

    def chain(node_id: str) -> int:
        if node_id not in chains:
            node = nodes[node_id]
            upstream = node.ports.get("input") if not node.type.flow else None
            chains[node_id] = 1 + (chain(upstream) if upstream is not None else 0)
        return chains[node_id]

    return sum(
        1 + sum(chain(ref) for ref in node.ports.values())
        for node in nodes.values()
        if node.type.flow
    )


#: How far from the origin an editor may place a node.
MAX_POSITION = 100_000


def _parse_node(r: Reader, allow_stacks: bool, words: Vocabulary) -> Node:
    r = r.named("node")
    types = words.node_types
    declared = r.value.get("type") if isinstance(r.value, Mapping) else None
    if isinstance(declared, str) and declared in types:  # only its own fields are allowed
        r.obj(words.allowed_keys[declared], ("id", "type"), whose=declared)
    else:
        r.obj(words.node_keys, ("id", "type"))
    node_id = r.field("id").ident()
    ntype: NodeType = r.field("type").choice(types)
    fields: dict[str, Any] = {}
    for spec in ntype.fields:
        if r.has(spec.name):
            fields[spec.name] = spec.read(r.field(spec.name))
        elif spec.default is REQUIRED:
            raise FormatError.missing(f"{r.path}.{spec.name}", subject=r.subject)
        else:
            fields[spec.name] = spec.default
    if fields.get("amount") == STACKS and not allow_stacks:
        raise r.field("amount").fail('"stacks" is only allowed in a status Behavior')
    source = None
    if ntype.acts_on is not None and r.has("source"):
        source = r.field("source").choice(tuple(words.sources_for(ntype)))
    ports: dict[str, str] = {}
    if r.has("ports"):
        pr = r.field("ports").obj(set(ntype.ports))
        ports = {name: value.ident() for name, value in pr.items()}
    for name, port_spec in ntype.ports.items():
        if port_spec.required and name not in ports:
            raise FormatError.missing(f"{r.path}.ports.{name}", subject=r.subject)
    if ntype.acts_on is not None and source is None and "target" not in ports:
        raise FormatError.missing(
            f"{r.path}.source",
            "an action needs a source field or a connected target port",
            subject=r.subject,
        )
    if ntype.role is Role.CONDITION:
        _check_condition(r, fields, ports, words)
    elif "by" in fields and ntype.role is Role.SELECTOR:  # Sort: a status key needs the status
        _check_sort(r, fields, words)
    exits = {name: r.field(name).ident() for name in ntype.exits if r.has(name)}
    return Node(node_id, ntype, fields, ports, source, exits, _position(r))


def _position(r: Reader) -> tuple[int, int] | None:
    if not r.has("at"):
        return None
    at = r.field("at").elements(2)
    if len(at) != 2:
        raise r.field("at").fail("expected [x, y]")
    x, y = (p.integer(-MAX_POSITION, MAX_POSITION) for p in at)
    return x, y


def _check_sort(r: Reader, fields: dict[str, Any], words: Vocabulary) -> None:
    sorts = {**words.unit_sorts, **words.card_sorts}
    needs = sorts[fields["by"]].needs_status
    if needs and fields["status"] is None:
        raise FormatError.missing(
            f"{r.path}.status", f"required when sorting by {fields['by']}", subject=r.subject
        )
    if not needs and fields["status"] is not None:
        raise r.field("status").fail(f"not used when sorting by {fields['by']}")


def _check_condition(r: Reader, fields: dict[str, Any], ports: dict[str, str],
                     words: Vocabulary) -> None:  # fmt: skip
    """Each test takes exactly the fields it uses, so a typo cannot be silently ignored."""
    test = fields["test"]
    used = fields_used(fields, words.condition_tests, words.measures)
    for name in ("status", "measure", "op", "value"):
        if name in used and fields[name] is None:
            raise FormatError.missing(
                f"{r.path}.{name}", f"required by test {test!r}", subject=r.subject
            )
        if name not in used and fields[name] is not None:
            raise r.field(name).fail(f"not used by test {test!r}")
    if not reads_input(fields, words.measures):
        if "input" in ports:
            raise (
                r.field("ports")
                .field("input")
                .fail(f"measure {fields['measure']!r} reads the battle, not an input")
            )
    elif "input" not in ports:
        raise FormatError.missing(
            f"{r.path}.ports.input", f"required by test {test!r}", subject=r.subject
        )


def _check_flow(
    r: Reader, by_id: dict[str, Reader], nodes: dict[str, Node], start: str | None
) -> None:
    """The flow must be a tree rooted at ``start``: no loops, no merges, nothing unreachable."""
    has_flow = any(n.type.flow for n in nodes.values())
    if start is None:
        if has_flow:
            raise FormatError.missing(
                f"{r.path}.start", "missing: the graph has flow nodes", subject=r.subject
            )
        return
    if start not in nodes:
        raise r.field("start").fail("no node with this id")
    if not nodes[start].type.flow:
        raise r.field("start").fail(f"must name a flow node, {nodes[start].type.name} is data")
    entered: dict[str, str] = {start: "start"}
    for node in nodes.values():
        for exit_name, target in node.exits.items():
            er = by_id[node.id].field(exit_name)
            if target not in nodes:
                raise er.fail("no node with this id")
            if not nodes[target].type.flow:
                raise er.fail("must name a flow node (an action, Snapshot, Branch or Gate)")
            if target in entered:
                raise er.fail(
                    f"node {target!r} is already entered from {entered[target]}; "
                    "the flow may not loop or merge"
                )
            entered[target] = f"{node.id}.{exit_name}"
    for node in nodes.values():
        if node.type.flow and node.id not in entered:
            raise by_id[node.id].field("id").fail("this flow node is never reached from start")
    # Every flow node now has exactly one entry; a loop would be unreachable from start.
    reached = {n.id for n in Behavior(nodes, start, {}).flow_nodes()}
    for node in nodes.values():
        if node.type.flow and node.id not in reached:
            raise by_id[node.id].field("id").fail("this flow node is part of a loop")


def _check_ports(by_id: dict[str, Reader], nodes: dict[str, Node],
                 words: Vocabulary) -> dict[str, Kind]:  # fmt: skip
    """Give every producer its kind, rejecting data cycles and kind mismatches."""
    kinds: dict[str, Kind] = {}
    visiting: set[str] = set()

    def kind_of(node_id: str) -> Kind:
        if node_id in kinds:
            return kinds[node_id]
        node = nodes[node_id]
        if node_id in visiting:
            raise by_id[node_id].field("ports").fail("data ports form a cycle through this node")
        visiting.add(node_id)
        output = node.type.output
        kind = kind_of(node.ports["input"]) if output == SAME_AS_INPUT else Kind(str(output))
        visiting.discard(node_id)
        kinds[node_id] = kind
        return kind

    for node in nodes.values():  # first: every port names a node that yields something
        for port, ref in node.ports.items():
            pr = by_id[node.id].field("ports").field(port)
            if ref not in nodes:
                raise pr.fail("no node with this id")
            if nodes[ref].type.output is None:
                raise pr.fail(f"node {ref!r} ({nodes[ref].type.name}) produces nothing to read")
    for node in nodes.values():
        nr = by_id[node.id]
        if node.type.output is not None:
            kind_of(node.id)
        for port, ref in node.ports.items():
            pr = nr.field("ports").field(port)
            got = kind_of(ref)
            accepts = node.type.ports[port].accepts
            if got not in accepts:
                wanted = " or ".join(sorted(k.value for k in accepts))
                raise pr.fail(
                    f"{node.type.name}.{port} takes {wanted}, but {ref!r} yields {got.value}"
                )
        if node.type.narrow is not None and node.type.limit is None:  # Filter and Sort
            _check_selector_fields(nr, node, kind_of(node.id), words)
        elif node.type.role is Role.CONDITION and "input" in node.ports:
            _check_condition_kind(nr, node, kind_of(node.ports["input"]), words)
    return kinds


def _check_selector_fields(r: Reader, node: Node, kind: Kind, words: Vocabulary) -> None:
    """A Filter's conditions and a Sort's key must fit what the selector reads."""
    if "where" in node.fields:
        allowed = words.unit_filters if kind is Kind.UNITS else words.card_filters
        for key in node.fields["where"]:
            if key not in allowed:
                raise (
                    r.field("where")
                    .field(key)
                    .fail(f"not a filter for {kind.value} (allowed: {', '.join(sorted(allowed))})")
                )
    if "by" in node.fields:
        allowed_sort = tuple(words.unit_sorts if kind is Kind.UNITS else words.card_sorts)
        if node.fields["by"] not in allowed_sort:
            raise r.field("by").fail(
                f"cannot sort {kind.value} by this (allowed: {', '.join(allowed_sort)})"
            )


def _check_condition_kind(r: Reader, node: Node, kind: Kind, words: Vocabulary) -> None:
    if kind is Kind.CARDS and needs_units(node.fields, words.condition_tests, words.measures):
        test = node.fields["test"]
        raise r.field("ports").field("input").fail(f"test {test!r} needs units, got cards")
