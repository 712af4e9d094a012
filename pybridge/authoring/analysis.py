"""Static facts about a Behavior, shared by the checker and the describer.

Nothing here runs a Behavior. It answers questions the seed documents ask authors to answer
before a card ships: which collection does each action read (the connected ``target`` port
outranks the ``source`` field), which side of the battle can that collection reach, can it come
back empty, and which Branch or Gate conditions stand in front of the action.

It reads the runtime's declared facts, never a name: a mode's reach (:mod:`..runtime.mode_table`),
a source's side, unit states, limit and wholeness (:mod:`..runtime.sources`), a node type's role,
fields, ``limit`` and ``random`` (:mod:`..runtime.nodes`). A new mode, source or selector that
states its facts is analysed without a change here.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from functools import cache
from typing import Any, assert_never

from ..runtime import mode_table, sources
from ..runtime.context import HostKind
from ..runtime.graph import Behavior, Kind, Node
from ..runtime.model import CardDef, MoveDef, Team
from ..runtime.modes import TargetMode
from ..runtime.nodes import NodeType, Role
from ..runtime.sources import CardSourceSpec, UnitSourceSpec
from ..runtime.vocabulary import Vocabulary, words_or_builtin


# -- what a node type or a source is, read from the runtime's specs ----------------------------
def reduces(node_type: NodeType) -> bool:
    """A selector that keeps at most a fixed number of elements (PickElement, Take...)."""
    return node_type.limit is not None


def picks(node_type: NodeType) -> bool:
    """A reducer that keeps the one element at a position (its ``index``)."""
    return reduces(node_type) and any(f.name == "index" for f in node_type.fields)


def filters(node_type: NodeType) -> bool:
    """A selector that keeps the elements meeting its ``where`` conditions."""
    return node_type.role is Role.SELECTOR and any(f.type == "where" for f in node_type.fields)


def only_orders(node_type: NodeType) -> bool:
    """A selector that neither filters nor reduces: it keeps every element, reordered."""
    return node_type.role is Role.SELECTOR and not reduces(node_type) and not filters(node_type)


def limit_of(step: Node) -> int:
    """How many elements a reducing step keeps at most."""
    limit = step.type.limit
    assert limit is not None, step.type.name
    return limit(step.fields)


def limit_field(node_type: NodeType) -> str:
    """The field that says how many elements (or which one) a reducer keeps."""
    return next(f.name for f in node_type.fields if f.type == "integer")


def source_spec(chain: Chain, subject: Subject) -> UnitSourceSpec | CardSourceSpec | None:
    """The spec of the unit or card source at the head of ``chain``."""
    if chain.kind is Kind.UNITS:
        return subject.unit_source(chain.root)
    return subject.card_source(chain.root)


def reads_selection(root: str, subject: Subject) -> bool:
    """Does ``root`` read what the card, move or reaction submitted (or its attacker)?"""
    spec = subject.unit_source(root)
    return spec is not None and spec.selection


def is_submitted(root: str, subject: Subject) -> bool:
    """Is ``root`` the submitted selection itself (Target), which holds nothing when the mode
    submits nothing?"""
    spec = subject.unit_source(root)
    return spec is not None and spec.side is sources.Side.SUBMITTED


def falls_back(root: str, subject: Subject) -> bool:
    """Does ``root`` read the submitted unit when it stands on its side, and otherwise pick a
    unit of its own (Opponent: the first living opposing unit)?"""
    spec = subject.unit_source(root)
    return spec is not None and spec.selection and spec.side is not sources.Side.SUBMITTED


#: The status hook the runtime runs as a reaction (``HostKind.REACTION``): the attacked unit's
#: status answers its attacker, who is submitted as Target.
REACTION_HOOK = "attacked"


class Standing(StrEnum):
    """Where one unit stands relative to the Host. Not a team (:class:`~..runtime.model.Team`
    is absolute) nor a range (a source's ``side`` and a mode's ``reach`` name sets of units):
    a set of standings is what a chain can reach."""

    SELF = "self"  # the Host itself
    OWN = "own"  # the Host's other team members
    OTHER = "other"  # the opposing team


ALL_SIDES = frozenset(Standing)
OWN_SIDE = frozenset({Standing.SELF, Standing.OWN})


class State(StrEnum):
    """What kind of unit a collection holds: living on the field, dead, or in reserve."""

    FIELD = "field"
    DEAD = "dead"
    RESERVE = "reserve"


ANY_STATE = frozenset(State)
_STATE_NAMES = frozenset(s.value for s in State)


@dataclass(frozen=True, slots=True)
class Subject:
    """What a Behavior belongs to, and how its player (or enemy) aimed it. ``host`` is who runs
    it, as the runtime names it: a status's attacked hook is a ``REACTION`` (see
    :meth:`of_hook`), its other hooks ``STATUS``."""

    host: HostKind
    mode: TargetMode | None = None
    hook: str | None = None
    target_count: int = 1
    up_to: bool = False
    target_filter: Mapping[str, Any] = field(default_factory=dict)
    #: The vocabulary its Behavior was read with (None: the built-in one): the sources it
    #: may name, with their facts and words.
    words: Vocabulary | None = field(default=None, compare=False, repr=False)

    def unit_source(self, name: str) -> UnitSourceSpec | None:
        return words_or_builtin(self.words).unit_sources.get(name)

    def card_source(self, name: str) -> CardSourceSpec | None:
        return words_or_builtin(self.words).card_sources.get(name)

    def __post_init__(self) -> None:
        # One way to say each Host: the attacked hook is a reaction, and a reaction runs in no
        # other hook, as the runtime runs them.
        if self.hook is not None and (self.hook == REACTION_HOOK) is not self.reaction:
            raise ValueError(f"a {self.host} Behavior does not run in the {self.hook} hook: "
                             f"the {REACTION_HOOK} hook runs as a reaction (of_hook)")  # fmt: skip

    @property
    def team(self) -> Team | None:
        """The Host's team, when the kind of Behavior decides it."""
        if self.host is HostKind.CARD:
            return Team.PLAYER
        if self.host is HostKind.MOVE:
            return Team.ENEMY
        return None

    @property
    def submits(self) -> bool:
        """Does a unit reach the Behavior through ``Target`` (clicked or chosen at random, or
        the attacker a reaction submits)?"""
        return self.reaction or (self.mode is not None and self.mode.chooses_units)

    @property
    def reaction(self) -> bool:
        return self.host is HostKind.REACTION

    @property
    def on_status(self) -> bool:
        """Does a status's hook run the Behavior (its holder is the Host, it has no mode)?"""
        return self.host is HostKind.STATUS or self.host is HostKind.REACTION

    @classmethod
    def of_card(cls, card: CardDef) -> Subject:
        return cls(
            HostKind.CARD,
            card.target,
            target_count=card.target_count,
            up_to=card.up_to,
            target_filter=dict(card.target_filter),
            words=card.behavior.words,
        )

    @classmethod
    def of_move(cls, move: MoveDef) -> Subject:
        return cls(HostKind.MOVE, move.target, words=move.behavior.words)

    @classmethod
    def of_hook(cls, hook: str | None, words: Vocabulary | None = None) -> Subject:
        """A status Behavior run in ``hook`` (None: the status itself, as its text speaks)."""
        host = HostKind.REACTION if hook == REACTION_HOOK else HostKind.STATUS
        return cls(host, hook=hook, words=words)


@dataclass(frozen=True, slots=True)
class Chain:
    """Where a collection comes from: a source, then the selectors applied to it in order.

    ``root_node`` is the UnitSource or CardSource node at its head, or None when the chain is
    an action's own ``source`` field. ``via_port`` is true when an action's connected
    ``target`` port supplies it."""

    kind: Kind
    root: str
    root_node: str | None
    steps: tuple[Node, ...] = ()
    via_port: bool = False

    @property
    def node_ids(self) -> frozenset[str]:
        ids = {step.id for step in self.steps}
        if self.root_node is not None:
            ids.add(self.root_node)
        return frozenset(ids)

    def source_location(self, action: Node | None) -> tuple[str | None, str]:
        """The node and field that name this chain's source."""
        if self.root_node is not None:
            return self.root_node, "source"
        return (None if action is None else action.id), "source"


def chain_from(behavior: Behavior, node_id: str) -> Chain:
    """The chain that ends at data node ``node_id``."""
    steps: list[Node] = []
    current = behavior.nodes[node_id]
    seen: set[str] = set()
    while (
        current.type.role is not Role.SOURCE
        and "input" in current.ports
        and current.id not in seen
        and current.ports["input"] in behavior.nodes
    ):
        seen.add(current.id)
        steps.append(current)
        current = behavior.nodes[current.ports["input"]]
    root = str(current.fields.get("source", "")) if current.type.role is Role.SOURCE else ""
    kind = behavior.kinds.get(node_id, Kind.UNITS)
    return Chain(kind, root, current.id, tuple(reversed(steps)), via_port=True)


def action_chain(behavior: Behavior, action: Node) -> Chain | None:
    """What an action affects: its connected ``target`` port, else its ``source`` field."""
    acts_on = action.type.acts_on
    if acts_on is None:
        return None
    port = action.ports.get("target")
    if port is not None and port in behavior.nodes:
        return chain_from(behavior, port)
    return Chain(acts_on, action.source or "", None)


def condition_chain(behavior: Behavior, condition: Node) -> Chain | None:
    port = condition.ports.get("input")
    return None if port is None or port not in behavior.nodes else chain_from(behavior, port)


def actions(behavior: Behavior) -> list[Node]:
    """Every action the flow can reach, in flow order."""
    return [n for n in behavior.flow_nodes() if n.type.acts_on is not None]


def data_closure(behavior: Behavior, roots: Iterable[str]) -> set[str]:
    """The data nodes that ``roots`` (node ids) read through their ports, transitively."""
    seen: set[str] = set()
    pending = list(roots)
    while pending:
        node_id = pending.pop()
        node = behavior.nodes.get(node_id)
        if node is None:
            continue
        for ref in node.ports.values():
            if ref not in seen and ref in behavior.nodes:
                seen.add(ref)
                pending.append(ref)
    return seen


def read_by_flow(behavior: Behavior) -> set[str]:
    """Data nodes the flow reads (through actions, Snapshot, Branch and Gate ports)."""
    return data_closure(behavior, (n.id for n in behavior.flow_nodes()))


def guards(behavior: Behavior) -> dict[str, tuple[str, ...]]:
    """For each flow node, the Condition nodes that must hold for it to run: the conditions
    of the Branch arms it sits in and of the Gates before it in its arm (and outer arms)."""
    out: dict[str, tuple[str, ...]] = {}

    def arm(node_id: str | None, outer: tuple[str, ...]) -> None:
        current = outer
        while node_id is not None and node_id in behavior.nodes:
            node = behavior.nodes[node_id]
            out[node_id] = current
            condition = node.ports.get("condition")
            role = node.type.role
            if role is Role.BRANCH:
                inner = current if condition is None else (*current, condition)
                for exit_name in node.type.exits:
                    if exit_name != "next":  # its then and else arms
                        arm(node.exits.get(exit_name), inner)
            elif role is Role.GATE and condition is not None:
                current = (*current, condition)
            node_id = node.next

    arm(behavior.start, ())
    return out


# -- what a chain of units can reach -----------------------------------------------------------
@dataclass(frozen=True, slots=True)
class ChainReach:
    """Which units a unit chain can yield (a mode's own ``reach`` fact is one input to it).

    ``whole``: every unit of ``sides`` (nothing narrows or reduces it); ``limit``: at most this
    many units (None: no fixed bound); ``states``: living on the field, dead, or in reserve."""

    sides: frozenset[Standing]
    whole: bool
    limit: int | None
    states: frozenset[State] = frozenset({State.FIELD})

    @property
    def empty(self) -> bool:
        return not self.sides or not self.states or self.limit == 0


def team_sides(team: str, subject: Subject) -> frozenset[Standing]:
    """An absolute team seen from the Host (every side when the Host's team is unknown)."""
    host_team = subject.team
    if host_team is None:
        return ALL_SIDES
    return OWN_SIDE if team == host_team.value else frozenset({Standing.OTHER})


def mode_sides(reach: mode_table.Reach) -> frozenset[Standing]:
    """The sides a target mode reaches (its ``reach`` fact), seen from the unit playing it."""
    match reach:
        case mode_table.Reach.ENEMY:
            return frozenset({Standing.OTHER})
        case mode_table.Reach.ALLY:
            return OWN_SIDE
        case mode_table.Reach.OTHER_ALLY:
            return frozenset({Standing.OWN})
        case mode_table.Reach.ANY:
            return ALL_SIDES
        case mode_table.Reach.SELF:
            return frozenset({Standing.SELF})
        case mode_table.Reach.NONE:
            return frozenset()
        case _:
            assert_never(reach)


def target_sides(subject: Subject) -> frozenset[Standing]:
    """The sides of the unit(s) a mode submits through Target (a reaction's attacker: any)."""
    mode = subject.mode
    if subject.reaction:
        return ALL_SIDES
    if not subject.submits or mode is None:
        return frozenset()
    sides = mode_sides(mode.facts.reach)
    team = subject.target_filter.get("team")
    return sides & team_sides(str(team), subject) if isinstance(team, str) else sides


def source_sides(side: sources.Side, subject: Subject) -> frozenset[Standing]:
    """The sides a unit source reaches (its ``side`` fact), seen from the Host of ``subject``."""
    match side:
        case sources.Side.SELF:
            return frozenset({Standing.SELF})
        case sources.Side.ALLIES:
            return OWN_SIDE
        case sources.Side.OPPONENTS:
            return frozenset({Standing.OTHER})
        case sources.Side.ALL:
            return ALL_SIDES
        case sources.Side.PLAYER_TEAM:
            return team_sides(Team.PLAYER.value, subject)
        case sources.Side.ENEMY_TEAM:
            return team_sides(Team.ENEMY.value, subject)
        case sources.Side.SUBMITTED:
            return target_sides(subject)
        case _:
            assert_never(side)


def root_reach(root: str, subject: Subject) -> ChainReach:
    """What a unit source can yield, seen from the Host of ``subject``: its spec's side, unit
    states, limit and wholeness; the submitted selection (Target) depends on the mode."""
    spec = subject.unit_source(root)
    if spec is None:
        return ChainReach(ALL_SIDES, False, None, ANY_STATE)
    states = unit_states(spec.states)
    if spec.side is sources.Side.SUBMITTED:
        if not subject.submits:
            return ChainReach(frozenset(), False, 0, states)
        return ChainReach(target_sides(subject), spec.whole, subject.target_count, states)
    sides = source_sides(spec.side, subject)
    if State.FIELD not in states:
        sides -= {Standing.SELF}  # the Host runs on the field: the fallen and reserve exclude it
    return ChainReach(sides, spec.whole, spec.limit, states)


def unit_reach(chain: Chain, subject: Subject) -> ChainReach:
    """Apply the chain's selectors to its source's reach."""
    reach = root_reach(chain.root, subject)
    sides, whole, limit, states = reach.sides, reach.whole, reach.limit, reach.states
    for step in chain.steps:
        node_type = step.type
        if filters(node_type):
            where: Mapping[str, Any] = step.fields.get("where") or {}
            for key, want in where.items():
                if key == "team":
                    sides = sides & team_sides(str(want), subject)
                elif key == "alive":
                    states = states & (
                        frozenset({State.FIELD, State.RESERVE}) if want else frozenset({State.DEAD})
                    )
                else:
                    whole = False
        elif reduces(node_type):
            count = limit_of(step)
            limit, whole = (count if limit is None else min(limit, count)), False
        elif node_type.role is Role.SNAPSHOT:
            states = ANY_STATE  # units may die or leave after the snapshot
        elif not only_orders(node_type):
            whole = False
    return ChainReach(sides, whole, limit, states)


@cache
def unit_states(states: frozenset[str]) -> frozenset[State]:
    """The unit states among a spec's ``states`` (an action on cards names places instead)."""
    return frozenset(State(state) for state in states if state in _STATE_NAMES)


def action_states(action: Node) -> frozenset[State]:
    """The unit states an action affects (its spec's ``states``)."""
    return unit_states(action.type.states)


def affects(action: Node, reach: ChainReach) -> bool:
    """Can the action affect any unit the chain yields (Revive: fallen; Deploy: reserve)?"""
    return bool(action_states(action) & reach.states)


# -- can a chain come back empty? --------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Emptiness:
    """``always``: why the chain can never yield anything, and where; ``maybe``: every reason
    it can come back empty in a running battle. A place is (node id or None, field, why)."""

    always: tuple[str | None, str, str] | None = None
    maybe: tuple[tuple[str | None, str, str], ...] = ()


def emptiness(chain: Chain, subject: Subject) -> Emptiness:
    maybe: list[tuple[str | None, str, str]] = []
    spec = source_spec(chain, subject)
    if spec is not None and spec.empty:
        maybe.append((chain.root_node, "source", spec.empty))
    known: int | None = None
    if chain.kind is Kind.UNITS:
        start = root_reach(chain.root, subject)
        # "up to" N submitted units may be fewer: no position is known to exist
        known = None if subject.up_to and is_submitted(chain.root, subject) else start.limit
        sides, states = start.sides, start.states
    else:
        known = None if spec is None else spec.limit
        sides, states = ALL_SIDES, ANY_STATE
    for step in chain.steps:
        node_type = step.type
        if filters(node_type):
            where: Mapping[str, Any] = step.fields.get("where") or {}
            narrowing = False
            for key, want in where.items():
                if key == "team" and chain.kind is Kind.UNITS:
                    narrowed = sides & team_sides(str(want), subject)
                    if sides and not narrowed:
                        why = f"keeps only {want} units, and its input holds none"
                        return Emptiness(always=(step.id, "where.team", why))
                    narrowing = narrowing or narrowed != sides
                    sides = narrowed
                elif key == "alive" and chain.kind is Kind.UNITS:
                    wanted = (
                        frozenset({State.FIELD, State.RESERVE}) if want else frozenset({State.DEAD})
                    )
                    if states and not states & wanted:
                        what = "living" if want else "fallen"
                        why = f"keeps only {what} units, and its input holds none"
                        return Emptiness(always=(step.id, "where.alive", why))
                    narrowing = narrowing or (states & wanted) != states
                    states = states & wanted
                else:
                    narrowing = True
            if narrowing:
                maybe.append((step.id, "where", "keeps only the matching elements, maybe none"))
            known = None
        elif picks(node_type):
            index = int(step.fields.get("index", 0))
            if known is not None and not -known <= index < known:
                why = f"picks element {index} of a collection that holds at most {known}"
                return Emptiness(always=(step.id, "index", why))
            if index not in (0, -1):
                maybe.append((step.id, "index", f"picks element {index}, which may not exist"))
            known = 1
        elif reduces(node_type):
            count = limit_of(step)
            if count == 0:
                return Emptiness(always=(step.id, limit_field(node_type), "takes 0 elements"))
            known = count if known is None else min(known, count)
    return Emptiness(maybe=tuple(maybe))


def unfrozen(chain: Chain) -> tuple[Node, ...]:
    """The steps after the chain's last Snapshot: data nodes are evaluated on every pull, and
    only a Snapshot freezes what came before it."""
    steps = chain.steps
    for last in range(len(steps) - 1, -1, -1):
        if steps[last].type.role is Role.SNAPSHOT:
            return steps[last + 1 :]
    return steps


def rerolls(chain: Chain) -> bool:
    """Does pulling the chain choose at random again (a random selector after any Snapshot)?"""
    return any(step.type.random for step in unfrozen(chain))


def related(a: Chain, b: Chain) -> bool:
    """Do two chains read the same thing (a shared node, or the same source)?"""
    return bool(a.node_ids & b.node_ids) or (a.root == b.root and a.kind is b.kind)


def is_random(behavior: Behavior, used: set[str] | None = None) -> bool:
    """Does the Behavior choose anything at random (a random selector that is read)?"""
    return any(n.type.random and (used is None or n.id in used) for n in behavior.nodes.values())


def numbers_of(behavior: Behavior) -> set[int]:
    """Every number a Behavior's fields state (amounts, counts, thresholds...)."""
    found: set[int] = set()

    def add(value: object) -> None:
        if isinstance(value, bool):
            return
        if isinstance(value, int):
            found.add(abs(value))
        elif isinstance(value, Mapping):
            for item in value.values():
                add(item)

    for node in behavior.nodes.values():
        for name, value in node.fields.items():
            add(value)
            if name == "index" and isinstance(value, int):
                found.add(value + 1 if value >= 0 else -value)
    return found
