"""Run a Behavior: walk its flow, pull data nodes on demand, apply actions, run reactions.

Data nodes are evaluated each time they are pulled, so sources read the battle as it is when
the downstream node runs; a Snapshot node freezes its input when it executes. Branch runs one
arm and continues at its ``next``; a closed Gate ends the arm it is in.
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Any

from .actions import CARD_ACTIONS, UNIT_ACTIONS, draw
from .context import Context, HostKind
from .graph import Behavior, Kind, Node
from .model import Pile, Unit
from .selectors import select
from .sources import CARD_SOURCE_RESOLVERS, UNIT_SOURCE_RESOLVERS

_COMPARE: dict[str, Callable[[Any, Any], bool]] = {
    "==": operator.eq, "!=": operator.ne, "<": operator.lt,
    "<=": operator.le, ">": operator.gt, ">=": operator.ge,
}  # fmt: skip


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


def holds(behavior: Behavior, node_id: str, ctx: Context) -> bool:
    """Evaluate Condition node ``node_id``."""
    node = behavior.nodes[node_id]
    fields = node.fields
    test = fields["test"]
    items = evaluate(behavior, node.ports["input"], ctx) if "input" in node.ports else []
    if test == "empty":
        return not items
    if test == "not_empty":
        return bool(items)
    if test == "alive":
        return bool(items) and all(unit.alive for unit in items)
    if test == "has_status":
        return bool(items) and all(unit.statuses.get(fields["status"], 0) > 0 for unit in items)
    value = measure(fields, items, ctx)
    return value is not None and _COMPARE[fields["op"]](value, fields["value"])


def measure(fields: Any, items: list[Any], ctx: Context) -> float | None:
    """The number a ``compare`` Condition reads; None when there is no unit to read it from."""
    what = fields["measure"]
    battle = ctx.battle
    if what == "count":
        return len(items)
    if what == "energy":
        return battle.energy
    if what == "turn":
        return battle.turn
    if what == "hand_size":
        return len(battle.piles[Pile.HAND])
    if not items:
        return None
    unit: Unit = items[0]
    if what == "stacks":
        return unit.statuses.get(fields["status"], 0)
    return float(unit.hp_percent) if what == "hp_percent" else getattr(unit, what)


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
    """Execute the flow from ``start``. The flow is a validated tree: it always ends."""
    _run_arm(behavior, behavior.start, ctx)


def _run_arm(behavior: Behavior, node_id: str | None, ctx: Context) -> None:
    while node_id is not None:
        node = behavior.nodes[node_id]
        name = node.type.name
        if name == "Branch":
            arm = "then" if holds(behavior, node.ports["condition"], ctx) else "else"
            ctx.emit("branch", node=node.id, arm=arm)
            _run_arm(behavior, node.exits.get(arm), ctx)
        elif name == "Gate":
            if not holds(behavior, node.ports["condition"], ctx):
                ctx.emit("gate_closed", node=node.id)
                return
        else:
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
    if name == "GainEnergy":
        before = ctx.battle.energy
        ctx.battle.energy = min(999, before + node.fields["amount"])
        ctx.emit("energy", node=node.id, energy_before=before, energy_after=ctx.battle.energy)
        return
    targets = action_targets(behavior, node, ctx)
    if not targets:
        ctx.emit("no_targets", node=node.id, action=name)
        return
    if node.type.acts_on is Kind.UNITS:
        UNIT_ACTIONS[name](node, ctx, targets)
        run_reactions(ctx)
    else:
        CARD_ACTIONS[name](node, ctx, targets)


def run_reactions(ctx: Context) -> None:
    """After an attack, each attacked unit's ``attacked`` status Behaviors run with the unit as
    Host and the attacker in context. Reactions do not attack, so they never chain."""
    attacked, ctx.attacked = ctx.attacked, []
    for unit, attacker in attacked:
        for status in sorted(unit.statuses):
            definition = ctx.battle.statuses.get(status)
            hook = None if definition is None else definition.hooks.get("attacked")
            if hook is None or not unit.alive or unit.statuses.get(status, 0) <= 0:
                continue
            ctx.emit("reaction", unit=unit.id, status=status, attacker=attacker.id)
            run(hook, ctx.child(unit, HostKind.REACTION, attacker=attacker, status=status))
