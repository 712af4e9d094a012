"""Run a Behavior: walk its flow, pull data nodes on demand, apply actions.

Data nodes are evaluated each time they are pulled, so sources read the battle as it is
when the downstream node runs; a Snapshot node freezes its input when it executes.
"""

from __future__ import annotations

from typing import Any

from .actions import CARD_ACTIONS, UNIT_ACTIONS, draw
from .context import Context
from .graph import Behavior, Kind, Node
from .selectors import select
from .sources import CARD_SOURCE_RESOLVERS, UNIT_SOURCE_RESOLVERS


def evaluate(behavior: Behavior, node_id: str, ctx: Context) -> list[Any]:
    """The collection node ``node_id`` yields now (units, or card ids)."""
    node = behavior.nodes[node_id]
    name = node.type.name
    if name == "UnitSource":
        return UNIT_SOURCE_RESOLVERS[node.fields["source"]](ctx)
    if name == "CardSource":
        return CARD_SOURCE_RESOLVERS[node.fields["source"]](ctx)
    if name == "Snapshot":
        return list(ctx.snapshots.get(node_id, ()))
    items = evaluate(behavior, node.ports["input"], ctx)
    return select(node, behavior.kinds[node_id], items, ctx)


def action_targets(behavior: Behavior, node: Node, ctx: Context) -> list[Any]:
    """The connected ``target`` port outranks the ``source`` field."""
    port = node.ports.get("target")
    if port is not None:
        return evaluate(behavior, port, ctx)
    assert node.source is not None and node.type.acts_on is not None
    if node.type.acts_on is Kind.UNITS:
        return UNIT_SOURCE_RESOLVERS[node.source](ctx)
    return CARD_SOURCE_RESOLVERS[node.source](ctx)


def run(behavior: Behavior, ctx: Context) -> None:
    """Execute the flow from ``start`` to its end. The flow is a validated acyclic chain."""
    node_id = behavior.start
    while node_id is not None:
        node = behavior.nodes[node_id]
        _execute(behavior, node, ctx)
        node_id = node.next


def _execute(behavior: Behavior, node: Node, ctx: Context) -> None:
    name = node.type.name
    if name == "Snapshot":
        ctx.snapshots[node.id] = evaluate(behavior, node.ports["input"], ctx)
        return
    if name == "Draw":
        draw(node.id, ctx, node.fields["count"])
        return
    targets = action_targets(behavior, node, ctx)
    if not targets:
        ctx.emit("no_targets", node=node.id, action=name)
        return
    if node.type.acts_on is Kind.UNITS:
        UNIT_ACTIONS[name](node, ctx, targets)
    else:
        CARD_ACTIONS[name](node, ctx, targets)
