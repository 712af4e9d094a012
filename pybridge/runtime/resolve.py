"""Run a Behavior: walk its flow, pull data nodes on demand, apply actions, run reactions.

Data nodes are evaluated each time they are pulled, so sources read the battle as it is when
the downstream node runs; a Snapshot node freezes its input when it executes. Branch runs one
arm and continues at its ``next``; a closed Gate ends the arm it is in.

A Behavior is compiled before its first run: every node becomes a closure prepared once from
its spec (:mod:`.nodes`): a source's resolver, a selector's compiled narrowing, a condition's
check, an action's function, wired to their producers. The compiled form is cached with the
battle (clones share it, like the card definitions) and does exactly what the nodes say, in the
same order: data nodes still evaluate on every pull.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from .context import Context, HostKind
from .errors import ExtensionFailed, WorkLimit
from .graph import Behavior, Kind, Node, evaluations
from .guards import MAX_EVENTS, at_node, too_many_events
from .model import Battle, statuses_in_order
from .nodes import Role
from .vocabulary import Vocabulary, words_of

_REACTION: Final = HostKind.REACTION  # bound once: reading an Enum class attribute is slow

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


#: Work one request (a play, a turn, a whole Cut resolved) may spend over all the Behavior runs
#: it causes: one unit per node evaluation (charged up front, each run at its load-time bound)
#: and one per unit or card an action acts on. One run is bounded when it is loaded; reactions
#: multiply runs, Cut entries add up and an action may act on 2,000 cards, so the request as a
#: whole needs a bound too.
MAX_WORK: Final = 200_000


def charge(ctx: Context, amount: int) -> None:
    """Spend ``amount`` of the request's work; refuse the request past either bound."""
    work = ctx.work
    work[0] += amount
    if work[0] > MAX_WORK:
        raise WorkLimit(f"this request would do more than {MAX_WORK} units of work (node "
                        "evaluations and units or cards acted on; reactions multiply Behavior "
                        "runs); nothing was applied", "")  # fmt: skip
    if len(ctx.events) > MAX_EVENTS:
        raise too_many_events()


def run(behavior: Behavior, ctx: Context) -> None:
    """Execute the flow from ``start``. The flow is a validated tree: it always ends."""
    program = program_of(behavior, ctx.battle)
    work = ctx.work  # charge(ctx, program.cost), inline: reactions run often
    work[0] += program.cost
    if work[0] > MAX_WORK or len(ctx.events) > MAX_EVENTS:
        charge(ctx, 0)  # raises
    program.flow(ctx)  # the compiled flow itself: every play and reaction comes here


def program_of(behavior: Behavior, battle: Battle) -> Program:
    """The compiled form of ``behavior``, from the battle's cache (compiled on first use)."""
    programs = battle._programs
    program: Program | None = programs.get(id(behavior))
    if program is None or program.behavior is not behavior:
        program = programs[id(behavior)] = Program(behavior, words_of(battle))
    return program


class Program:
    """A Behavior compiled to closures: ``flow(ctx)`` runs it. Data nodes and conditions are
    compiled once each, when first needed."""

    __slots__ = ("_producers", "_tests", "behavior", "cost", "flow", "words")

    def __init__(self, behavior: Behavior, words: Vocabulary) -> None:
        self.behavior = behavior
        self.words = words
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
        role = node.type.role
        if role is Role.SOURCE:
            words = self.words
            units = node.type.output is Kind.UNITS
            table = words.unit_sources if units else words.card_sources
            name = node.fields["source"]
            return self._naming(node, name, table[name].resolve, units)
        if role is Role.SNAPSHOT:
            return lambda ctx: list(ctx.snapshots.get(node_id, ()))
        narrow = node.type.narrow
        assert narrow is not None, f"{node.type.name} yields no collection"
        upstream = self.producer(node.ports["input"])
        compiled = narrow(node.fields, behavior.kinds[node_id], self.words)
        return lambda ctx: compiled(upstream(ctx), ctx)

    def _compile_test(self, node_id: str) -> Test:
        node = self.behavior.nodes[node_id]
        check = self.words.condition_tests[node.fields["test"]].make(node.fields)
        if "input" not in node.ports:
            return lambda ctx: check([], ctx)
        upstream = self.producer(node.ports["input"])
        return lambda ctx: check(upstream(ctx), ctx)

    def targets_of(self, node: Node) -> Producer:
        """What an action acts on: its connected ``target`` port, else its ``source``."""
        port = node.ports.get("target")
        if port is not None:
            return self.producer(port)
        assert node.source is not None  # validated: a source field or a connected port
        resolve = self.words.sources_for(node.type)[node.source].resolve
        return self._naming(node, node.source, resolve, node.type.acts_on is Kind.UNITS)

    def _naming(self, node: Node, source: str, resolve: Producer, units: bool) -> Producer:
        """An extension's source, whose failure names ``node`` too (a source is not told which
        node it runs for); a built-in source as it is."""
        table = "unit_sources" if units else "card_sources"
        if not self.words.owner_of(table, source):
            return resolve
        node_id = node.id

        def named(ctx: Context) -> list[Any]:
            try:
                return resolve(ctx)
            except ExtensionFailed as failed:
                raise at_node(failed, node_id) from None

        return named

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
        role = node.type.role
        node_id = node.id
        if role is Role.BRANCH:
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
        if role is Role.GATE:
            test = self.test(node.ports["condition"])

            def gate(ctx: Context) -> bool:
                if not test(ctx):
                    ctx.events.append({"type": "gate_closed", "node": node_id})
                    return False
                return True

            return gate
        if role is Role.SNAPSHOT:
            upstream = self.producer(node.ports["input"])

            def snapshot(ctx: Context) -> bool:
                ctx.snapshots[node_id] = upstream(ctx)
                return True

            return snapshot
        return self._action(node)

    def _action(self, node: Node) -> Step:
        apply = node.type.apply
        assert apply is not None, f"{node.type.name} is not an action"
        if node.type.acts_on is None:  # an action on the battle itself (Draw, GainEnergy)
            port = node.ports.get("target")
            if port is not None:  # a Call hands what its port yields to the Behavior it runs
                given = self.producer(port)

                def handing_action(ctx: Context) -> bool:
                    apply(node, ctx, given(ctx))
                    return True

                return handing_action

            def battle_action(ctx: Context) -> bool:
                apply(node, ctx)
                return True

            return battle_action
        targets_of = self.targets_of(node)
        name = node.type.name

        def action(ctx: Context) -> bool:
            targets = targets_of(ctx)
            if not targets:
                ctx.events.append({"type": "no_targets", "node": node.id, "action": name})
                return True
            apply(node, ctx, targets)
            work = ctx.work  # charge(ctx, len(targets)), inline: 2,000 cards are 2,000 moves
            work[0] += len(targets)
            if work[0] > MAX_WORK or len(ctx.events) > MAX_EVENTS:
                charge(ctx, 0)  # raises
            if ctx.attacked:  # only attacks on units fill it
                run_reactions(ctx)
            return True

        return action


def _run_steps(steps: tuple[Step, ...], ctx: Context) -> None:
    for step in steps:
        if not step(ctx):
            return


def _nothing(ctx: Context) -> list[Any]:
    return []


def run_reactions(ctx: Context) -> None:
    """After an attack, each attacked unit's ``attacked`` status Behaviors run with the unit as
    Host and the attacker submitted: the other party of the attack is both the Attacker and
    the reaction's Target. Reactions do not attack, so they never chain."""
    attacked, ctx.attacked = ctx.attacked, []
    for unit, attacker in attacked:
        if not unit.statuses:  # no status, no reaction
            continue
        for status in statuses_in_order(unit.statuses):
            definition = ctx.battle.statuses.get(status)
            hook = None if definition is None else definition.hooks.get("attacked")
            if hook is None or not unit.alive or unit.statuses.get(status, 0) <= 0:
                continue
            ctx.events.append({"type": "reaction", "unit": unit.id, "status": status,
                               "attacker": attacker.id})  # fmt: skip
            run(hook, ctx.child(unit, _REACTION, targets=(attacker,), attacker=attacker,
                                status=status))  # fmt: skip
