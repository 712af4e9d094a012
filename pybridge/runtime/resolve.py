"""Run a Behavior: walk its flow, pull data nodes on demand, apply actions, run reactions.

Data nodes are evaluated each time they are pulled, so sources read the battle as it is when
the downstream node runs; a Snapshot node freezes its input when it executes. Branch runs one
arm and continues at its ``next``; a closed Gate ends the arm it is in.

A Behavior is compiled before its first run: every node becomes a closure prepared once
(its fields read, its inputs wired to their producers), and a run calls those closures
instead of interpreting the nodes. The compiled form is cached with the battle (clones share
it, like the card definitions) and does exactly what the nodes say, in the same order: data
nodes still evaluate on every pull, and actions and sources are still looked up by name when
they run.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Mapping
from typing import Any

from .actions import CARD_ACTIONS, UNIT_ACTIONS, draw
from .context import Context, HostKind
from .errors import WorkLimit
from .graph import Behavior, Kind, Node, evaluations
from .model import Battle, Pile, Unit
from .selectors import card_matches, select, unit_matches
from .sources import CARD_SOURCE_RESOLVERS, UNIT_SOURCE_RESOLVERS

_COMPARE: dict[str, Callable[[Any, Any], bool]] = {
    "==": operator.eq, "!=": operator.ne, "<": operator.lt,
    "<=": operator.le, ">": operator.gt, ">=": operator.ge,
}  # fmt: skip

Producer = Callable[[Context], list[Any]]
Test = Callable[[Context], bool]
#: A compiled flow node; False when a closed Gate ends the arm it is in.
Step = Callable[[Context], bool]


def evaluate(behavior: Behavior, node_id: str, ctx: Context) -> list[Any]:
    """The collection node ``node_id`` yields now (units, or card ids)."""
    return program_of(behavior, ctx.battle).producer(node_id)(ctx)


def holds(behavior: Behavior, node_id: str, ctx: Context) -> bool:
    """Evaluate Condition node ``node_id``."""
    return program_of(behavior, ctx.battle).test(node_id)(ctx)


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
    return program_of(behavior, ctx.battle).targets_of(node)(ctx)


#: Node evaluations one request (a play, a turn, a Cut step) may spend over all the Behavior
#: runs it causes. One run is bounded when it is loaded; reactions multiply runs, so the
#: request as a whole needs a bound too.
MAX_WORK = 200_000


def run(behavior: Behavior, ctx: Context) -> None:
    """Execute the flow from ``start``. The flow is a validated tree: it always ends."""
    program = program_of(behavior, ctx.battle)
    ctx.work[0] += program.cost
    if ctx.work[0] > MAX_WORK:
        raise WorkLimit(f"this request would evaluate more than {MAX_WORK} nodes "
                        "(reactions multiply Behavior runs); nothing was applied", "")  # fmt: skip
    program.run(ctx)


def program_of(behavior: Behavior, battle: Battle) -> Program:
    """The compiled form of ``behavior``, from the battle's cache (compiled on first use)."""
    programs = battle._programs
    program: Program | None = programs.get(id(behavior))
    if program is None or program.behavior is not behavior:
        program = programs[id(behavior)] = Program(behavior)
    return program


class Program:
    """A Behavior compiled to closures: ``flow(ctx)`` runs it. Data nodes and conditions are
    compiled once each, when first needed."""

    __slots__ = ("_producers", "_tests", "behavior", "cost", "flow")

    def __init__(self, behavior: Behavior) -> None:
        self.behavior = behavior
        self.cost = evaluations(behavior.nodes)  # the most one run can evaluate
        self._producers: dict[str, Producer] = {}
        self._tests: dict[str, Test] = {}
        self.flow: Callable[[Context], object] = self._compile_flow()

    def run(self, ctx: Context) -> None:
        self.flow(ctx)

    def producer(self, node_id: str) -> Producer:
        found = self._producers.get(node_id)
        if found is None:
            found = self._producers[node_id] = self._compile_producer(node_id)
        return found

    def test(self, node_id: str) -> Test:
        found = self._tests.get(node_id)
        if found is None:
            found = self._tests[node_id] = self._compile_test(node_id)
        return found

    # -- data nodes --------------------------------------------------------------------------
    def _compile_producer(self, node_id: str) -> Producer:
        behavior = self.behavior
        node = behavior.nodes[node_id]
        name = node.type.name
        fields = node.fields
        if name == "UnitSource":
            return _resolver(UNIT_SOURCE_RESOLVERS, fields["source"])
        if name == "CardSource":
            return _resolver(CARD_SOURCE_RESOLVERS, fields["source"])
        if name == "Snapshot":
            return lambda ctx: list(ctx.snapshots.get(node_id, ()))
        upstream = self.producer(node.ports["input"])
        kind = behavior.kinds[node_id]
        if name == "Filter":
            where = fields["where"]
            if kind is Kind.UNITS:
                keep = _unit_filter(where)
                return lambda ctx: [u for u in upstream(ctx) if keep(u)]

            def filter_cards(ctx: Context) -> list[Any]:
                items = upstream(ctx)
                cards = ctx.battle.cards
                return [c for c in items if card_matches(cards[c], where)]

            return filter_cards
        if name == "Sort":
            reverse = fields["order"] == "desc"
            if kind is Kind.CARDS:

                def sort_cards(ctx: Context) -> list[Any]:
                    items = upstream(ctx)
                    cards = ctx.battle.cards
                    return sorted(items, key=lambda card_id: cards[card_id].card.cost,
                                  reverse=reverse)  # fmt: skip

                return sort_cards
            key = _unit_sort_key(fields)
            return lambda ctx: sorted(upstream(ctx), key=key, reverse=reverse)
        if name == "PickElement":
            index = fields["index"]

            def pick(ctx: Context) -> list[Any]:
                items = upstream(ctx)
                return [items[index]] if -len(items) <= index < len(items) else []

            return pick
        if name == "Take":
            count = fields["count"]
            return lambda ctx: upstream(ctx)[:count]
        # RandomElements, and anything else the general selector decides about
        return lambda ctx: select(node, kind, upstream(ctx), ctx)

    def _compile_test(self, node_id: str) -> Test:
        node = self.behavior.nodes[node_id]
        fields = node.fields
        test = fields["test"]
        upstream = self.producer(node.ports["input"]) if "input" in node.ports else _nothing
        if test == "empty":
            return lambda ctx: not upstream(ctx)
        if test == "not_empty":
            return lambda ctx: bool(upstream(ctx))

        def condition(ctx: Context) -> bool:
            items = upstream(ctx)
            if test == "alive":
                return bool(items) and all(unit.alive for unit in items)
            if test == "has_status":
                status = fields["status"]
                return bool(items) and all(unit.statuses.get(status, 0) > 0 for unit in items)
            value = measure(fields, items, ctx)
            return value is not None and _COMPARE[fields["op"]](value, fields["value"])

        return condition

    def targets_of(self, node: Node) -> Producer:
        """What an action acts on: its connected ``target`` port, else its ``source``."""
        port = node.ports.get("target")
        if port is not None:
            return self.producer(port)
        source, acts_on = node.source, node.type.acts_on
        table = UNIT_SOURCE_RESOLVERS if acts_on is Kind.UNITS else CARD_SOURCE_RESOLVERS

        def from_source(ctx: Context) -> list[Any]:
            assert source is not None and acts_on is not None  # validated: one or the other
            return table[source](ctx)

        return from_source

    # -- the flow ----------------------------------------------------------------------------
    def _compile_flow(self) -> Callable[[Context], object]:
        steps = self._arm(self.behavior.start)
        if not steps:
            return _nothing
        if len(steps) == 1:
            return steps[0]
        return lambda ctx: _run_steps(steps, ctx)

    def _arm(self, node_id: str | None) -> tuple[Step, ...]:
        """The steps along ``next`` from ``node_id``."""
        steps: list[Step] = []
        nodes = self.behavior.nodes
        while node_id is not None:
            node = nodes[node_id]
            steps.append(self._step(node))
            node_id = node.next
        return tuple(steps)

    def _step(self, node: Node) -> Step:
        name = node.type.name
        node_id = node.id
        if name == "Branch":
            test = self.test(node.ports["condition"])
            then_steps, else_steps = (
                self._arm(node.exits.get("then")),
                self._arm(node.exits.get("else")),
            )

            def branch(ctx: Context) -> bool:
                taken = test(ctx)
                ctx.events.append({"type": "branch", "node": node_id,
                                   "arm": "then" if taken else "else"})  # fmt: skip
                _run_steps(then_steps if taken else else_steps, ctx)
                return True

            return branch
        if name == "Gate":
            test = self.test(node.ports["condition"])

            def gate(ctx: Context) -> bool:
                if not test(ctx):
                    ctx.events.append({"type": "gate_closed", "node": node_id})
                    return False
                return True

            return gate
        if name == "Snapshot":
            upstream = self.producer(node.ports["input"])

            def snapshot(ctx: Context) -> bool:
                ctx.snapshots[node_id] = upstream(ctx)
                return True

            return snapshot
        if name == "Draw":
            count = node.fields["count"]

            def draw_cards(ctx: Context) -> bool:
                draw(node_id, ctx, count)
                return True

            return draw_cards
        if name == "GainEnergy":
            amount = node.fields["amount"]

            def gain_energy(ctx: Context) -> bool:
                battle = ctx.battle
                before = battle.energy
                battle.energy = min(999, before + amount)
                ctx.events.append({"type": "energy", "node": node_id, "energy_before": before,
                                   "energy_after": battle.energy})  # fmt: skip
                return True

            return gain_energy
        return self._action(node)

    def _action(self, node: Node) -> Step:
        name = node.type.name
        targets_of = self.targets_of(node)
        if node.type.acts_on is Kind.UNITS:
            unit_actions, sources = UNIT_ACTIONS, UNIT_SOURCE_RESOLVERS
            source = node.source if "target" not in node.ports else None  # else: targets_of

            def unit_action(ctx: Context) -> bool:
                targets = sources[source](ctx) if source is not None else targets_of(ctx)
                if not targets:
                    ctx.events.append({"type": "no_targets", "node": node.id, "action": name})
                    return True
                unit_actions[name](node, ctx, targets)
                attacked = ctx.attacked
                if attacked:
                    for unit, _attacker in attacked:
                        if unit.statuses:
                            run_reactions(ctx)
                            break
                    else:  # no status, no reaction: all run_reactions would do
                        attacked.clear()
                return True

            return unit_action
        card_actions = CARD_ACTIONS

        def card_action(ctx: Context) -> bool:
            targets = targets_of(ctx)
            if not targets:
                ctx.events.append({"type": "no_targets", "node": node.id, "action": name})
                return True
            card_actions[name](node, ctx, targets)
            return True

        return card_action


def _run_steps(steps: tuple[Step, ...], ctx: Context) -> None:
    for step in steps:
        if not step(ctx):
            return


def _nothing(ctx: Context) -> list[Any]:
    return []


def _resolver(table: Mapping[str, Callable[[Context], list[Any]]], name: str) -> Producer:
    """A source, looked up by name when it runs (as the table says then)."""
    return lambda ctx: table[name](ctx)


def _unit_filter(where: Mapping[str, Any]) -> Callable[[Unit], bool]:
    """``unit_matches`` for one ``where``, with a one-condition filter spelled out."""
    if len(where) != 1:
        return lambda unit: unit_matches(unit, where)
    ((key, want),) = where.items()
    if key == "team":
        return lambda unit: unit.team.value == want
    if key == "tag":
        return lambda unit: want in unit.tags
    if key == "tier":
        return lambda unit: unit.tier == want
    if key == "tier_min":
        return lambda unit: unit.tier >= want
    if key == "tier_max":
        return lambda unit: unit.tier <= want
    if key == "status":
        return lambda unit: unit.statuses.get(want, 0) > 0
    return lambda unit: unit_matches(unit, where)


def _unit_sort_key(fields: Mapping[str, Any]) -> Callable[[Unit], Any]:
    by = fields["by"]
    if by == "status":
        status = fields["status"]
        return lambda unit: unit.statuses.get(status, 0)
    if by == "hp_percent":
        return lambda unit: unit.hp * 1.0 / unit.max_hp
    return operator.attrgetter(by)


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
