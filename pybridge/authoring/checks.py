"""The behaviour checks: one Behavior against its Host and its target mode (PB101..PB121,
PB301, PB302). :class:`Checker` runs them all; those about the target mode are in
:mod:`.mode_checks`.

Every rule reads the runtime's facts, not names: who chooses a mode's units and which side they
are on (:mod:`..runtime.mode_table`), which side, unit states and limit a source has and whether
it reads the selection (:mod:`..runtime.sources`), which role, states and randomness a node type
has (:mod:`..runtime.nodes`). Messages name the card's own mode and sources as written.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ..runtime import sources
from ..runtime.context import HostKind
from ..runtime.graph import Behavior, Kind, Node
from ..runtime.model import PILES, StatusDef
from ..runtime.nodes import Role
from ..runtime.sources import CardSourceSpec, UnitSourceSpec
from ..runtime.vocabulary import words_or_builtin
from .analysis import (
    Chain,
    State,
    Subject,
    action_chain,
    action_states,
    actions,
    affects,
    chain_from,
    condition_chain,
    data_closure,
    emptiness,
    falls_back,
    filters,
    guards,
    is_submitted,
    read_by_flow,
    reduces,
    related,
    source_spec,
    unfrozen,
    unit_reach,
)
from .codes import Scope
from .grammar import third
from .mode_checks import check_mode_reads, check_ranges, mode_name, target_fix
from .phrases import ACTION_WORDS
from .wording import ALL_WORDS, HEDGES

_PILE_PLACES = frozenset(pile.value for pile in PILES)
#: What an action on units in only one state affects, and what it is fed instead (PB112).
#: ``{verb}``: the action's own verb ("revives").
_ONLY_STATE: dict[State | None, tuple[str, str, str]] = {
    State.DEAD: ("fallen units", "living ones: it never {verb} anyone", " (into a Take to "
                 "choose one)"),
    State.RESERVE: ("units in reserve", "units on the field", ""),
}  # fmt: skip


@dataclass(frozen=True, slots=True)
class Read:
    """A place where a Behavior names a unit source: a unit source node or an action field."""

    node: Node
    source: str


class Checker:
    """Checks one Behavior against its Host and target mode."""

    def __init__(
        self,
        scope: Scope,
        behavior: Behavior,
        subject: Subject,
        text: str,
        statuses: Mapping[str, StatusDef] | None,
        playable: Sequence[str] = (),
        empty_at: str = "behavior",
    ) -> None:
        self.scope = scope
        self.behavior = behavior
        self.subject = subject
        self.text = text
        self.statuses = statuses
        self.playable = [p for p in playable if p in behavior.nodes]
        self.empty_at = empty_at
        self.flow_used = read_by_flow(behavior)
        self.playable_used = data_closure(behavior, self.playable) | set(self.playable)
        self.actions = actions(behavior)
        self.flow = {n.id for n in behavior.flow_nodes()}
        self.chains = {a.id: c for a in self.actions if (c := action_chain(behavior, a))}
        self.reads = self._reads()
        self.reported: set[str] = set()

    def _reads(self) -> list[Read]:
        out = []
        acting = {a.id for a in self.actions}
        for node in self.behavior.nodes.values():
            if _reads_units(node) and node.id in self.flow_used:
                out.append(Read(node, str(node.fields["source"])))
            elif (
                node.id in acting
                and node.type.acts_on is Kind.UNITS
                and "target" not in node.ports
                and node.source is not None
            ):
                out.append(Read(node, node.source))
        return out

    def unread_selection(self, chain: Chain) -> bool:
        """Does the chain read the submitted selection where nothing is submitted (PB106)?"""
        return is_submitted(chain.root, self.subject) and not self.subject.submits

    def report(
        self, code: str, message: str, fix: str, node: str | None = None, at: str | None = None
    ) -> None:
        self.reported.add(code)
        self.scope.report(code, message, fix, node, at)

    def run(self) -> None:
        if self.behavior.start is None:
            self.report(
                "PB116",
                f"this {self.scope.kind}'s Behavior has no flow: it does nothing",
                "add the actions the text describes, starting at `start`",
                at=self.empty_at,
            )
        self._ports_and_leftovers()
        self._statuses()
        self._playable()
        self._sources()
        self._source_words()
        self._units_in_state()
        self._random_rereads()
        if self.subject.mode is not None and self.behavior.start is not None:
            check_mode_reads(self)
            check_ranges(self)
        self._empty_chains()

    # -- PB114, PB115 ------------------------------------------------------------------------------
    def _ports_and_leftovers(self) -> None:
        for action in self.actions:
            if action.source is not None and "target" in action.ports:
                self.report(
                    "PB114",
                    f"'{action.id}' names the source {action.source} but its target port is "
                    f"connected to '{action.ports['target']}', which outranks the field: "
                    f"{action.source} is ignored",
                    "remove the source field, or disconnect the port if the field was meant "
                    '(the seed: "Before switching the port, confirm that the original field no '
                    'longer controls the result")',
                    action.id,
                    "source",
                )
        used = self.flow_used | self.playable_used
        for node in self.behavior.nodes.values():
            if not node.type.flow and node.id not in used:
                self.report(
                    "PB115",
                    f"{node.type.name} '{node.id}' is never read: no port "
                    "connects it to an action, a condition or playable_if",
                    "connect it where it was meant to go, or delete it",
                    node.id,
                    "id",
                )

    # -- PB117 -------------------------------------------------------------------------------------
    def _statuses(self) -> None:
        if not self.statuses:
            return
        known = ", ".join(sorted(self.statuses))
        for node in self.behavior.nodes.values():
            wanted: list[tuple[str, object]] = []
            if any(spec.name == "status" for spec in node.type.fields):
                wanted.append(("status", node.fields.get("status")))
            if filters(node.type):
                wanted.append(("where.status", (node.fields.get("where") or {}).get("status")))
            for at, status in wanted:
                if isinstance(status, str) and status not in self.statuses:
                    self.report(
                        "PB117",
                        f"no status {status!r} is defined in this battle "
                        f"(defined: {known}); it would be an inert counter",
                        "use one of the defined ids, or add a definition for it",
                        node.id,
                        at,
                    )

    # -- PB118, PB119 ------------------------------------------------------------------------------
    def _playable(self) -> None:
        for node_id in sorted(self.playable_used, key=list(self.behavior.nodes).index):
            node = self.behavior.nodes[node_id]
            if not _reads_units(node):
                continue
            source = str(node.fields["source"])
            if is_submitted(source, self.subject):
                self.report(
                    "PB118",
                    f"a playable_if condition reads {source}, but playability is "
                    f"checked before anything is selected: {source} is always empty there",
                    "read the units the condition is about through a source that "
                    "does not depend on the selection (AllOpponents, Self, ...)",
                    node.id,
                    "source",
                )
            elif falls_back(source, self.subject):
                self.report(
                    "PB119",
                    f"a playable_if condition reads {source}, but playability "
                    f"is checked before anything is selected: {source} is the first "
                    "living enemy there, not the one the player will pick",
                    "test the whole enemy team (AllOpponents into a Filter) instead",
                    node.id,
                    "source",
                )

    # -- PB211 -----------------------------------------------------------------------------------
    def _source_words(self) -> None:
        """A source a game declared without words: the describer cannot say what it yields."""
        words = words_or_builtin(self.subject.words)
        told: set[tuple[str, str]] = set()
        for node in self.behavior.nodes.values():
            if node.type.role is Role.SOURCE:
                name, kind = str(node.fields.get("source", "")), node.type.output
            elif node.type.acts_on is not None and node.source is not None:
                name, kind = node.source, node.type.acts_on
            else:
                continue
            table = "unit_sources" if kind is Kind.UNITS else "card_sources"
            specs: Mapping[str, UnitSourceSpec | CardSourceSpec] = (
                words.unit_sources if kind is Kind.UNITS else words.card_sources
            )
            spec = specs.get(name)
            if spec is None or spec.words is not None or (table, name) in told:
                continue
            told.add((table, name))
            owner = words.owner_of(table, name)
            by = f"extension {owner!r}" if owner else "the built-in vocabulary"
            what = "unit_source" if kind is Kind.UNITS else "card_source"
            self.report(
                "PB211",
                f"'{node.id}' reads {name}, which {by} declared without words: the generated "
                f'text says it yields "nothing", so no text can match what the card does',
                f"give the source its words where {by} declares it: "
                f'words.{what}("{name}", ..., describe=Message("<id>", "<what it yields>"))',
                node.id,
                "source",
            )

    # -- PB106, PB107, PB111 (sources whatever the mode) -------------------------------------------
    def _sources(self) -> None:
        host = self.subject.host
        for read in self.reads:
            spec = self.subject.unit_source(read.source)
            absolute_enemies = spec is not None and spec.side is sources.Side.ENEMY_TEAM
            if is_submitted(read.source, self.subject) and not self.subject.submits:
                if self.subject.on_status:
                    why = "a status Behavior has no submitted unit"
                else:
                    why = f"the {mode_name(self.subject)} mode submits no unit"
                self.report(
                    "PB106",
                    f"'{read.node.id}' reads {read.source}, but {why}: it resolves "
                    "to nothing and the action does nothing",
                    target_fix(self.subject),
                    read.node.id,
                    "source",
                )
            elif absolute_enemies and host is not HostKind.CARD:
                whose = (
                    "the enemy team, this move's own side"
                    if host is HostKind.MOVE
                    else "the enemy team, whoever holds the status"
                )
                self.report(
                    "PB111",
                    f"'{read.node.id}' reads {read.source}, which always means {whose}",
                    "use AllOpponents (every unit opposing the Host) or "
                    "AllAllies (the Host's side)",
                    read.node.id,
                    "source",
                )
            elif falls_back(read.source, self.subject) and host is HostKind.STATUS:
                # (a reaction submits its attacker)
                self.report(
                    "PB107",
                    f"'{read.node.id}' reads {read.source} in a "
                    f"{self.subject.hook} hook, where nothing is submitted: it is the "
                    "first living unit opposing the holder",
                    "use AllOpponents into a Sort and Take to say which one, or move "
                    "the effect to the attacked hook (Opponent is the attacker there)",
                    read.node.id,
                    "source",
                )

    # -- PB121 -------------------------------------------------------------------------------------
    def _random_rereads(self) -> None:
        """Data nodes are evaluated on every read, so a random selector read by two nodes picks
        twice; only a Snapshot freezes a pick."""
        readers: list[tuple[str, Chain]] = [(a, c) for a, c in self.chains.items()]
        for node in self.behavior.nodes.values():
            port = node.ports.get("input")
            role = node.type.role
            flows = role is Role.SNAPSHOT and node.id in self.flow
            if port is not None and (
                flows or (role is Role.CONDITION and node.id in self.flow_used)
            ):
                readers.append((node.id, chain_from(self.behavior, port)))
        picks: dict[str, list[str]] = {}
        names: dict[str, str] = {}
        for reader, chain in readers:
            for step in unfrozen(chain):
                if step.type.random:
                    picks.setdefault(step.id, []).append(reader)
                    names[step.id] = step.type.name
        for pick, reading in picks.items():
            if len(reading) > 1:
                self.report(
                    "PB121",
                    f"{names[pick]} '{pick}' is read by {', '.join(repr(r) for r in reading)}: "
                    "every read picks again, so they may not get the same elements",
                    'put a Snapshot after it and read the Snapshot (the seed: "Save a snapshot '
                    'first when later logic needs the result from before")',
                    pick,
                    "id",
                )

    # -- PB112, PB113 ------------------------------------------------------------------------------
    def _units_in_state(self) -> None:
        for action in self.actions:
            chain = self.chains.get(action.id)
            if chain is None:
                continue
            if chain.kind is Kind.CARDS:
                self._cards_in_state(action, chain)
                continue
            if self.unread_selection(chain):
                continue
            reach = unit_reach(chain, self.subject)
            if not reach.states or affects(action, reach):
                continue  # PB302, or nothing to say
            node, at = chain.source_location(action)
            name, wanted = action.type.name, action_states(action)
            if State.FIELD in wanted:
                what = "fallen" if State.DEAD in reach.states else "reserve"
                self.report(
                    "PB113",
                    f"{name} '{action.id}' skips every unit that is not "
                    f"alive on the field, and {chain.root} yields only {what} units",
                    "Revive (or Deploy) them first, or read living units",
                    node,
                    at,
                )
                continue
            only = next(iter(wanted)) if len(wanted) == 1 else None
            affected, fed, hint = _ONLY_STATE.get(
                only, (f"{' or '.join(sorted(wanted))} units", "other units", "")
            )
            source = _unit_source_for(self.subject, wanted)
            words = ACTION_WORDS.get(name)
            fed = fed.replace("{verb}", third(words.other.verb) if words else "affects")
            self.report(
                "PB112",
                f"{name} '{action.id}' only affects {affected}, but {chain.root} yields {fed}",
                f"read {source}{hint}" if source else "read units it can affect",
                node,
                at,
            )

    def _cards_in_state(self, action: Node, chain: Chain) -> None:
        """An action affects cards in its places only: cards waiting on the Cut are in no pile,
        and only an action on the Cut (Negate) reaches them."""
        spec = self.subject.card_source(chain.root)
        if spec is None or action.type.states & spec.places:
            return
        node, at = chain.source_location(action)
        name = action.type.name
        if action.type.states & _PILE_PLACES:
            self.report(
                "PB113",
                f"{name} '{action.id}' skips cards that are being played, and "
                f"{chain.root} yields only those",
                "Negate them, or read a pile",
                node,
                at,
            )
            return
        card_sources = words_or_builtin(self.subject.words).card_sources
        source = next(
            (n for n, s in card_sources.items() if s.places <= action.type.states), "a pile"
        )
        self.report(
            "PB112",
            f"{name} '{action.id}' only affects cards waiting to resolve, but "
            f"{chain.root} yields cards that are not being played",
            f"read {source}",
            node,
            at,
        )

    # -- PB301, PB302 ------------------------------------------------------------------------------
    def _empty_chains(self) -> None:
        guard_map = guards(self.behavior)
        conditions = [
            c
            for c in self.behavior.nodes.values()
            if c.type.role is Role.CONDITION
            and (c.id in self.flow_used or c.id in self.playable_used)
        ]
        hedged = bool(HEDGES.search(self.text))
        says_all = bool(ALL_WORDS.search(self.text))
        for action in self.actions:
            chain = self.chains.get(action.id)
            if chain is None or self.unread_selection(chain):
                continue
            found = emptiness(chain, self.subject)
            if found.always is not None:
                node, at, why = found.always
                self.report(
                    "PB302",
                    f"the collection '{action.id}' acts on is always empty: "
                    f"'{node or action.id}' {why}",
                    "fix the selector so it can keep something, or delete the action",
                    node or action.id,
                    at,
                )
                continue
            reduced = any(reduces(s.type) for s in chain.steps)
            selective = reduced or any(filters(s.type) for s in chain.steps)
            spec = source_spec(chain, self.subject)
            # units that may be missing (the fallen, the reserve); a pile read whole may be
            # empty without surprising anyone
            scarce = chain.kind is Kind.UNITS and spec is not None and spec.empty is not None
            if not found.maybe or not (selective or scarce):
                continue
            if hedged or (says_all and not reduced):
                continue  # "If ...", "a random ...", "up to ...", "all fallen allies"
            if self._guarded(chain, guard_map.get(action.id, ())):
                continue
            reasons = "; ".join(f"'{n or action.id}' {why}" for n, _, why in found.maybe)
            where = "ports.target" if chain.via_port else "source"
            self.report(
                "PB301",
                f"'{action.id}' acts on a collection that may be empty "
                f"({reasons}); then it silently does nothing, and neither a condition "
                "nor the card text says so",
                "put a Condition into a Branch or Gate before the action (or a "
                'playable_if), or say it in the text ("If there is ...", "a random '
                '...", "up to ...")',
                action.id,
                where,
            )
        for condition in conditions:
            chain = condition_chain(self.behavior, condition)
            if chain is None or self.unread_selection(chain):
                continue
            found = emptiness(chain, self.subject)
            if found.always is not None:
                node, at, why = found.always
                self.report(
                    "PB302",
                    f"Condition '{condition.id}' reads a collection that is "
                    f"always empty: '{node or condition.id}' {why}",
                    "fix the selector so it can keep something",
                    node or condition.id,
                    at,
                )

    def _guarded(self, chain: Chain, guarding: Sequence[str]) -> bool:
        for condition_id in (*guarding, *self.playable):
            condition = self.behavior.nodes.get(condition_id)
            if condition is None:
                continue
            tested = condition_chain(self.behavior, condition)
            if tested is not None and related(tested, chain):
                return True
        return False


def _reads_units(node: Node) -> bool:
    """A source node that yields units (its ``source`` field names a unit source)."""
    return node.type.role is Role.SOURCE and node.type.output is Kind.UNITS


def _unit_source_for(subject: Subject, states: frozenset[State]) -> str | None:
    """The whole-team unit source of the Host's side that yields units in exactly ``states``."""
    for name, spec in words_or_builtin(subject.words).unit_sources.items():
        if spec.side is sources.Side.ALLIES and spec.whole and spec.states == states:
            return name
    return None
