"""The authoring contract checker.

The seeds call targeting "a contract between what a card says, what the player selects, and
what the graph resolves", and name the most common bug: "An AllEnemyUnits card whose only damage
node targets Opponent looks like AoE in the hand and hits one enemy on resolve." The runtime
does what the graph says; this checker reads card definitions (and enemy moves and statuses)
before they ship and reports, per card, where the three parties disagree.

Every diagnostic has a stable code (docs/lint.md lists them all), a fixed severity, a precise
location (file, card, node, field, and the JSON path inside the document) and a suggested fix.

>>> from pybridge.runtime import load_library
>>> library = load_library({"format": "pybridge/cards@1", "cards": [
...     {"id": "quake", "name": "Quake", "target": "AllEnemies",
...      "text": "Deal 8 damage to all enemies.",
...      "behavior": {"start": "hit", "nodes": [
...          {"id": "hit", "type": "DealDamage", "amount": 8, "source": "Opponent"}]}}]})
>>> [(d.code, d.node, d.field) for d in lint_card(library["quake"])]
[('PB101', 'hit', 'source')]
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from ..runtime.document import LIBRARY_FORMAT, load_battle, load_library
from ..runtime.errors import TargetingError
from ..runtime.graph import Behavior, Kind, Node
from ..runtime.model import CardDef, MoveDef, StatusDef
from ..runtime.modes import TargetMode
from .analysis import (
    OWN_SIDE,
    REDUCERS,
    SELECTION_SOURCES,
    Chain,
    Host,
    Reach,
    Side,
    State,
    Subject,
    action_chain,
    actions,
    chain_from,
    condition_chain,
    data_closure,
    emptiness,
    guards,
    is_random,
    numbers_of,
    read_by_flow,
    related,
    unit_reach,
)
from .describe import describe_card, describe_move, describe_status
from .wording import (
    ALL_WORDS,
    HEDGES,
    claims,
    editor_terms,
    mentions_keyword,
    numbers,
    selected_nouns,
)

__all__ = [
    "CODES",
    "Diagnostic",
    "Severity",
    "lint_card",
    "lint_document",
    "lint_move",
    "lint_status",
    "summary",
]


class Severity(StrEnum):
    ERROR = "error"
    WARNING = "warning"
    INFO = "info"


@dataclass(frozen=True, slots=True)
class Code:
    code: str
    severity: Severity
    title: str


def _codes(*rows: tuple[str, Severity, str]) -> dict[str, Code]:
    return {code: Code(code, severity, title) for code, severity, title in rows}


E, W, N = Severity.ERROR, Severity.WARNING, Severity.INFO
#: Every diagnostic code, its severity and what it is about. Codes never change meaning.
CODES: dict[str, Code] = _codes(
    ("PB001", E, "the file cannot be read as JSON"),
    ("PB002", E, "the document is refused by the loader"),
    ("PB101", E, "an All Enemies mode whose Behavior hits a limited number of enemies"),
    ("PB102", E, "an aimed mode whose Behavior never reads the selected unit"),
    ("PB103", E, "a Random mode whose Behavior never reads the unit the runtime picks"),
    ("PB104", E, "an ally mode read through Opponent, which reads the other side"),
    ("PB105", E, "an Any Unit mode read through Opponent, which drops allies"),
    ("PB106", E, "Target read where nothing is submitted"),
    ("PB107", W, "Opponent read where nothing is submitted: the first living opposing unit"),
    ("PB108", E, "a Self or All Allies mode whose Behavior hits the other side"),
    ("PB109", W, "the range the mode shows is never affected"),
    ("PB110", W, "a Behavior that affects more units than the mode shows"),
    ("PB111", W, "AllEnemies (the enemy team) in an enemy move or a status"),
    ("PB112", E, "Revive, Deploy or Negate fed what it can never affect"),
    ("PB113", E, "an action fed only fallen or reserve units, or cards being played"),
    ("PB114", W, "a source field ignored because the target port is connected"),
    ("PB115", W, "a data node that nothing reads"),
    ("PB116", W, "an empty Behavior"),
    ("PB117", W, "a status that the battle does not define"),
    ("PB118", E, "a playable_if condition that reads Target"),
    ("PB119", W, "a playable_if condition that reads Opponent"),
    ("PB120", E, "a multi-target card read through Opponent, which reads one unit"),
    ("PB121", W, "a RandomElements node read by several nodes: each read picks again"),
    ("PB201", W, "editor vocabulary in player-facing text"),
    ("PB202", W, "text that promises a whole side the Behavior does not cover"),
    ("PB203", W, "text that names a selected unit the mode does not offer"),
    ("PB204", W, 'text that says "another ally" for a mode that can pick the player'),
    ("PB205", W, "text that says random where nothing is random"),
    ("PB206", W, "a random choice the text does not mention"),
    ("PB207", N, "no player-facing text"),
    ("PB208", N, "a number in the text that the definition does not contain"),
    ("PB209", W, "a keyword the text does not mention"),
    ("PB301", N, "a selector chain that may come back empty, with no guard and no word about it"),
    ("PB302", E, "a selector chain that is always empty"),
)


@dataclass(frozen=True, slots=True)
class Diagnostic:
    """One finding. ``kind`` and ``id`` name the card, move or status (``document`` for a
    whole file); ``node`` and ``field`` the place inside it; ``path`` the JSON path in the
    document (relative to the definition when no document was given)."""

    code: str
    severity: Severity
    message: str
    fix: str
    file: str | None = None
    kind: str = "card"
    id: str | None = None
    node: str | None = None
    field: str | None = None
    path: str = ""

    def location(self) -> str:
        """ "card meteor, node hit, field source" """
        parts = []
        if self.id is not None:
            parts.append(f"{self.kind} {self.id}")
        if self.node is not None:
            parts.append(f"node {self.node}")
        if self.field is not None:
            parts.append(f"field {self.field}")
        return ", ".join(parts)

    def to_json(self) -> dict[str, object]:
        return {
            "code": self.code,
            "severity": self.severity.value,
            "message": self.message,
            "fix": self.fix,
            "file": self.file,
            "kind": self.kind,
            "id": self.id,
            "node": self.node,
            "field": self.field,
            "path": self.path,
        }


def summary(diagnostics: Iterable[Diagnostic]) -> dict[str, int]:
    counts = {s.value: 0 for s in Severity}
    for d in diagnostics:
        counts[d.severity.value] += 1
    return counts


# -- where findings are reported ---------------------------------------------------------------
@dataclass
class _Scope:
    """One card, move or status being checked, and where it sits in its document."""

    kind: str
    id: str
    path: str
    file: str | None
    out: list[Diagnostic] = field(default_factory=list)
    behavior_path: str = "behavior"
    node_index: dict[str, int] = field(default_factory=dict)

    def enter(self, behavior: Behavior, behavior_path: str) -> None:
        self.behavior_path = self._join(behavior_path)
        self.node_index = {node_id: i for i, node_id in enumerate(behavior.nodes)}

    def _join(self, tail: str) -> str:
        return f"{self.path}.{tail}" if self.path else tail

    def report(
        self, code: str, message: str, fix: str, node: str | None = None, at: str | None = None
    ) -> None:
        if node is not None:
            path = f"{self.behavior_path}.nodes[{self.node_index.get(node, 0)}]"
            if at:
                path += f".{at}"
        else:
            path = self._join(at or "")
        self.out.append(
            Diagnostic(
                code,
                CODES[code].severity,
                message,
                fix,
                self.file,
                self.kind,
                self.id,
                node,
                at,
                path,
            )
        )


# -- public entry points -----------------------------------------------------------------------
def lint_card(
    card: CardDef,
    statuses: Mapping[str, StatusDef] | None = None,
    *,
    file: str | None = None,
    path: str = "",
) -> list[Diagnostic]:
    """Check one card definition. ``statuses``: the battle's status definitions, if known
    (names in suggested texts, and PB117 for statuses it does not define)."""
    scope = _Scope("card", card.id, path, file)
    subject = Subject.of_card(card)
    scope.enter(card.behavior, "behavior")
    _Checker(
        scope,
        card.behavior,
        subject,
        card.text,
        statuses,
        tuple(p.condition for p in card.playable_if),
    ).run()
    _check_text(
        scope,
        card.behavior,
        subject,
        card.text,
        statuses,
        lambda: describe_card(card, statuses),
        extra_numbers={card.cost, subject.target_count},
    )
    for keyword in card.keywords:
        if card.text and not mentions_keyword(card.text, keyword):
            scope.report(
                "PB209",
                f"the card has the keyword {keyword!r}, but its text never "
                "says so; the player cannot know what happens to the card",
                f'end the text with "{keyword}."',
                at="keywords",
            )
    return _ordered(scope.out)


def lint_move(
    move: MoveDef,
    statuses: Mapping[str, StatusDef] | None = None,
    *,
    file: str | None = None,
    path: str = "",
) -> list[Diagnostic]:
    """Check an enemy move: the same contract as a card, seen from the enemy."""
    scope = _Scope("move", move.id, path, file)
    subject = Subject.of_move(move)
    scope.enter(move.behavior, "behavior")
    _Checker(scope, move.behavior, subject, move.text, statuses).run()
    _check_text(
        scope, move.behavior, subject, move.text, statuses, lambda: describe_move(move, statuses)
    )
    return _ordered(scope.out)


def lint_status(
    status: StatusDef,
    statuses: Mapping[str, StatusDef] | None = None,
    *,
    file: str | None = None,
    path: str = "",
) -> list[Diagnostic]:
    """Check a status: its hooks' Behaviors (no target mode: the owner is the Host) and text."""
    scope = _Scope("status", status.id, path, file)
    known = dict(statuses or {})
    known.setdefault(status.id, status)
    hooks = list(status.hooks.items())
    for hook, behavior in hooks:
        scope.enter(behavior, f"hooks.{hook}")
        subject = Subject(Host.STATUS, hook=hook)
        _Checker(scope, behavior, subject, status.text, statuses, empty_at=f"hooks.{hook}").run()
    extra = {status.decay or 0, abs(status.damage_dealt), abs(status.damage_taken)}
    _check_text(
        scope,
        None,
        Subject(Host.STATUS),
        status.text,
        statuses,
        lambda: describe_status(status, known),
        extra_numbers=extra | {n for _, b in hooks for n in numbers_of(b)},
    )
    return _ordered(scope.out)


def lint_document(document: object, file: str | None = None) -> list[Diagnostic]:
    """Check a battle or card library document. A document the loader refuses becomes one
    PB002 diagnostic naming the loader's JSON path and message."""
    is_library = isinstance(document, Mapping) and document.get("format") == LIBRARY_FORMAT
    try:
        if is_library:
            library = load_library(document)
            statuses: dict[str, StatusDef] = {}
            moves: dict[str, MoveDef] = {}
        else:
            battle = load_battle(document)
            library, statuses, moves = battle.library, battle.statuses, battle.moves
    except TargetingError as exc:
        return [_refused(file, exc.where, exc.message)]
    except (RecursionError, ValueError, TypeError, KeyError) as exc:
        return [_refused(file, "", f"{type(exc).__name__}: {exc}")]
    assert isinstance(document, Mapping)
    out: list[Diagnostic] = []
    known = statuses or None
    for index, card in _indexed(document, "cards", library):
        out.extend(lint_card(card, known, file=file, path=f"cards[{index}]"))
    for index, status in _indexed(document, "statuses", statuses):
        out.extend(lint_status(status, known, file=file, path=f"statuses[{index}]"))
    for index, move in _indexed(document, "moves", moves):
        out.extend(lint_move(move, known, file=file, path=f"moves[{index}]"))
    return out


def _refused(file: str | None, where: str, message: str) -> Diagnostic:
    return Diagnostic(
        "PB002",
        Severity.ERROR,
        message,
        "fix the field the loader names; nothing in this document was checked until it loads",
        file,
        "document",
        None,
        None,
        None,
        where,
    )


def _indexed(
    document: Mapping[str, Any], key: str, definitions: Mapping[str, Any]
) -> list[tuple[int, Any]]:
    """Definitions in document order, with their index in the document's list."""
    entries = document.get(key)
    out = []
    if isinstance(entries, list):
        for index, entry in enumerate(entries):
            if isinstance(entry, Mapping) and entry.get("id") in definitions:
                out.append((index, definitions[entry["id"]]))
    return out


def _ordered(diagnostics: list[Diagnostic]) -> list[Diagnostic]:
    return sorted(diagnostics, key=lambda d: (d.path.split(".nodes[")[0], d.code))


# -- the Behavior checks -----------------------------------------------------------------------
_ALLY_MODES = (TargetMode.SINGLE_ALLY, TargetMode.OTHER_ALLY, TargetMode.RANDOM_ALLY)
_SELECTED_MODES = (TargetMode.SINGLE_ENEMY, TargetMode.RANDOM_OPPONENT)


@dataclass(frozen=True, slots=True)
class _Read:
    """A place where a Behavior names a unit source: a UnitSource node or an action field."""

    node: Node
    source: str


class _Checker:
    """Checks one Behavior against its Host and target mode."""

    def __init__(
        self,
        scope: _Scope,
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

    def _reads(self) -> list[_Read]:
        out = []
        acting = {a.id for a in self.actions}
        for node in self.behavior.nodes.values():
            if node.type.name == "UnitSource" and node.id in self.flow_used:
                out.append(_Read(node, str(node.fields["source"])))
            elif (
                node.id in acting
                and node.type.acts_on is Kind.UNITS
                and "target" not in node.ports
                and node.source is not None
            ):
                out.append(_Read(node, node.source))
        return out

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
        self._units_in_state()
        self._random_rereads()
        if self.subject.mode is not None and self.behavior.start is not None:
            self._mode_reads()
            self._ranges()
        self._empty_chains()

    # -- PB114, PB115 ----------------------------------------------------------------------------
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

    # -- PB117 ------------------------------------------------------------------------------------
    def _statuses(self) -> None:
        if not self.statuses:
            return
        known = ", ".join(sorted(self.statuses))
        for node in self.behavior.nodes.values():
            wanted: list[tuple[str, object]] = []
            if node.type.name in ("ApplyStatus", "RemoveStatus", "Condition", "Sort"):
                wanted.append(("status", node.fields.get("status")))
            if node.type.name == "Filter":
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

    # -- PB118, PB119 -----------------------------------------------------------------------------
    def _playable(self) -> None:
        for node_id in sorted(self.playable_used, key=list(self.behavior.nodes).index):
            node = self.behavior.nodes[node_id]
            if node.type.name != "UnitSource":
                continue
            source = node.fields["source"]
            if source == "Target":
                self.report(
                    "PB118",
                    "a playable_if condition reads Target, but playability is "
                    "checked before anything is selected: Target is always empty there",
                    "read the units the condition is about through a source that "
                    "does not depend on the selection (AllOpponents, Self, ...)",
                    node.id,
                    "source",
                )
            elif source == "Opponent":
                self.report(
                    "PB119",
                    "a playable_if condition reads Opponent, but playability "
                    "is checked before anything is selected: Opponent is the first "
                    "living enemy there, not the one the player will pick",
                    "test the whole enemy team (AllOpponents into a Filter) instead",
                    node.id,
                    "source",
                )

    # -- PB106, PB107, PB111 (sources whatever the mode) ------------------------------------------
    def _sources(self) -> None:
        host = self.subject.host
        for read in self.reads:
            if read.source == "Target" and not self.subject.submits:
                if host is Host.STATUS:
                    why = "a status Behavior has no submitted unit"
                else:
                    why = f"the {_mode(self.subject)} mode submits no unit"
                self.report(
                    "PB106",
                    f"'{read.node.id}' reads Target, but {why}: it resolves "
                    "to nothing and the action does nothing",
                    _target_fix(self.subject),
                    read.node.id,
                    "source",
                )
            elif read.source == "AllEnemies" and host is not Host.CARD:
                whose = (
                    "the enemy team, this move's own side"
                    if host is Host.MOVE
                    else "the enemy team, whoever holds the status"
                )
                self.report(
                    "PB111",
                    f"'{read.node.id}' reads AllEnemies, which always means {whose}",
                    "use AllOpponents (every unit opposing the Host) or "
                    "AllAllies (the Host's side)",
                    read.node.id,
                    "source",
                )
            elif read.source == "Opponent" and host is Host.STATUS and not self.subject.reaction:
                self.report(
                    "PB107",
                    f"'{read.node.id}' reads Opponent in a "
                    f"{self.subject.hook} hook, where nothing is submitted: it is the "
                    "first living unit opposing the holder",
                    "use AllOpponents into a Sort and Take to say which one, or move "
                    "the effect to the attacked hook (Opponent is the attacker there)",
                    read.node.id,
                    "source",
                )

    # -- PB102, PB103, PB104, PB105, PB120 --------------------------------------------------------
    def _mode_reads(self) -> None:
        subject, mode = self.subject, self.subject.mode
        assert mode is not None
        selection = [r for r in self.reads if r.source in SELECTION_SOURCES]
        if mode.requires_target and not selection:
            self.report(
                "PB102",
                f"the {_mode(subject)} mode makes the player select "
                f"{_what_selected(mode)}, but the Behavior never reads the selection "
                "(no Target or Opponent anywhere)",
                _read_fix(mode),
                at="target",
            )
        elif mode.is_random and not selection:
            self.report(
                "PB103",
                f"the {_mode(subject)} mode has the runtime pick "
                f"{_what_selected(mode)} and submit it through Target, but the "
                "Behavior never reads it",
                _read_fix(mode),
                at="target",
            )
        for read in self.reads:
            if read.source != "Opponent":
                continue
            node = read.node.id
            if mode in _ALLY_MODES:
                self.report(
                    "PB104",
                    f"'{node}' reads Opponent, but the {_mode(subject)} mode "
                    "submits an ally; Opponent only reads a unit on the other side, "
                    "so it ignores the ally and falls back to the first living enemy",
                    'read the ally through Target (the seed: "Target reads the submitted ally")',
                    node,
                    "source",
                )
            elif mode is TargetMode.ANY_UNIT:
                self.report(
                    "PB105",
                    f"'{node}' reads Opponent, but the AnyUnit mode lets the "
                    "player select an ally too; then Opponent drops the ally and "
                    "hits the first living enemy instead",
                    'read the selection through Target (the seed: "Target reads the '
                    'submitted unit without a team restriction")',
                    node,
                    "source",
                )
            elif mode in _SELECTED_MODES and subject.target_count > 1:
                self.report(
                    "PB120",
                    f"'{node}' reads Opponent, which yields only the first "
                    f"of the {subject.target_count} selected units",
                    "read the selection through Target, which yields every selected unit",
                    node,
                    "source",
                )

    # -- PB101, PB107, PB108, PB109, PB110 --------------------------------------------------------
    def _ranges(self) -> None:
        subject, mode = self.subject, self.subject.mode
        assert mode is not None
        reported: set[str] = set()
        reaches = []
        for action in self.actions:
            chain = self.chains.get(action.id)
            if chain is None or chain.kind is not Kind.UNITS:
                continue
            if chain.root == "Target" and not subject.submits:
                continue  # PB106 already says it
            reach = unit_reach(chain, subject)
            if _affects(action, reach):  # else PB112 / PB113 already say it
                reaches.append((action, chain, reach))
        for action, chain, reach in reaches:
            node, at = chain.source_location(action)
            if mode in (TargetMode.SELF, TargetMode.ALL_ALLIES) and Side.OTHER in reach.sides:
                shown = "only the card's player" if mode is TargetMode.SELF else "your side"
                self.report(
                    "PB108",
                    f"the {_mode(subject)} mode shows {shown} as its "
                    f"range, but '{action.id}' reaches the other side through "
                    f"{chain.root}",
                    "change the mode to AllEnemies (or None) if the "
                    "card is meant to hit enemies, or read Self / AllAllies",
                    node,
                    at,
                )
                reported.add(node or "")
            elif mode is TargetMode.SELF and Side.OWN in reach.sides:
                self.report(
                    "PB110",
                    f"the Self mode shows only the card's player as its "
                    f"range, but '{action.id}' also affects other allies through "
                    f"{chain.root}",
                    "change the mode to AllAllies, or read Self",
                    node,
                    at,
                )
            elif (
                mode is TargetMode.ALL_ENEMIES
                and reach.whole
                and Side.OTHER in reach.sides
                and reach.sides & OWN_SIDE
            ):
                self.report(
                    "PB110",
                    f"the AllEnemies mode shows the enemies as the card's "
                    f"range, but '{action.id}' reads {chain.root}, which also hits "
                    "your own party",
                    "read AllOpponents",
                    node,
                    at,
                )
        root_caused = bool(self.reported & {"PB106", "PB108", "PB112", "PB113"})
        if mode is TargetMode.ALL_ENEMIES:
            whole = any(Side.OTHER in r.sides and r.whole for _, _, r in reaches)
            limited = [
                (a, c, r) for a, c, r in reaches if Side.OTHER in r.sides and r.limit is not None
            ]
            if not whole and limited:
                for action, chain, reach in limited:
                    node, at = _culprit(chain, action)
                    self.report(
                        "PB101",
                        _aoe_message(action, chain, reach),
                        'read every enemy through AllOpponents (the seed: "All Enemies '
                        "supplies the complete opposing collection through "
                        'AllOpponents"), or make the mode SingleEnemy if one enemy '
                        "is meant",
                        node,
                        at,
                    )
                    reported.add(node or "")
            elif (
                not whole
                and not root_caused
                and not any(Side.OTHER in r.sides for *_, r in reaches)
            ):
                self.report(
                    "PB109",
                    "the AllEnemies mode shows every enemy as the card's "
                    "range, but no action affects an enemy",
                    "make the mode None (or Self), or add the effect on AllOpponents",
                    at="target",
                )
        elif mode is TargetMode.ALL_ALLIES and not root_caused:
            if not any(r.sides >= OWN_SIDE and r.whole for _, _, r in reaches):
                self.report(
                    "PB109",
                    "the AllAllies mode shows every ally as the card's range, "
                    "but no action affects all allies",
                    "read AllAllies, or make the mode Self (or None)",
                    at="target",
                )
        elif (
            mode is TargetMode.SELF
            and not root_caused
            and not any(Side.SELF in r.sides for _, _, r in reaches)
        ):
            self.report(
                "PB109",
                "the Self mode shows the card's player as its range, but no action affects them",
                "make the mode None, or read Self",
                at="target",
            )
        no_pick = (TargetMode.NONE, TargetMode.ALL_ENEMIES, TargetMode.SELF, TargetMode.ALL_ALLIES)
        if mode in no_pick:
            for read in self.reads:
                if read.source == "Opponent" and read.node.id not in reported:
                    self.report(
                        "PB107",
                        f"'{read.node.id}' reads Opponent, but the "
                        f"{_mode(subject)} mode submits nothing: it resolves to the "
                        "first living enemy, a choice neither the player nor the text "
                        "makes",
                        "make the mode SingleEnemy to let the player choose, "
                        "or say which enemy with AllOpponents into Sort and Take",
                        read.node.id,
                        "source",
                    )

    # -- PB121 ------------------------------------------------------------------------------------
    def _random_rereads(self) -> None:
        """Data nodes are evaluated on every read, so a RandomElements read by two nodes picks
        twice; only a Snapshot freezes a pick."""
        readers: list[tuple[str, Chain]] = [(a, c) for a, c in self.chains.items()]
        for node in self.behavior.nodes.values():
            port = node.ports.get("input")
            flows = node.type.name == "Snapshot" and node.id in self.flow
            if port is not None and (
                flows or (node.type.name == "Condition" and node.id in self.flow_used)
            ):
                readers.append((node.id, chain_from(self.behavior, port)))
        picks: dict[str, list[str]] = {}
        for reader, chain in readers:
            names = [step.type.name for step in chain.steps]
            frozen = max((i for i, n in enumerate(names) if n == "Snapshot"), default=-1)
            for step in chain.steps[frozen + 1 :]:
                if step.type.name == "RandomElements":
                    picks.setdefault(step.id, []).append(reader)
        for pick, reading in picks.items():
            if len(reading) > 1:
                self.report(
                    "PB121",
                    f"RandomElements '{pick}' is read by {', '.join(repr(r) for r in reading)}: "
                    "every read picks again, so they may not get the same elements",
                    'put a Snapshot after it and read the Snapshot (the seed: "Save a snapshot '
                    'first when later logic needs the result from before")',
                    pick,
                    "id",
                )

    # -- PB112, PB113 -----------------------------------------------------------------------------
    def _units_in_state(self) -> None:
        for action in self.actions:
            chain = self.chains.get(action.id)
            if chain is None:
                continue
            if chain.kind is Kind.CARDS:
                self._cards_in_state(action, chain)
                continue
            if chain.root == "Target" and not self.subject.submits:
                continue
            reach = unit_reach(chain, self.subject)
            if not reach.states:
                continue  # PB302
            node, at = chain.source_location(action)
            name = action.type.name
            if name == "Revive" and State.DEAD not in reach.states:
                self.report(
                    "PB112",
                    f"Revive '{action.id}' only affects fallen units, but "
                    f"{chain.root} yields living ones: it never revives anyone",
                    "read AllDeadAllies (into a Take to choose one)",
                    node,
                    at,
                )
            elif name == "Deploy" and State.RESERVE not in reach.states:
                self.report(
                    "PB112",
                    f"Deploy '{action.id}' only affects units in reserve, but "
                    f"{chain.root} yields units on the field",
                    "read AllReserveAllies",
                    node,
                    at,
                )
            elif name not in ("Revive", "Deploy") and State.FIELD not in reach.states:
                what = "fallen" if State.DEAD in reach.states else "reserve"
                self.report(
                    "PB113",
                    f"{name} '{action.id}' skips every unit that is not "
                    f"alive on the field, and {chain.root} yields only {what} units",
                    "Revive (or Deploy) them first, or read living units",
                    node,
                    at,
                )

    def _cards_in_state(self, action: Node, chain: Chain) -> None:
        """Cards waiting on the Cut are in no pile: only Negate reaches them."""
        node, at = chain.source_location(action)
        being_played = chain.root == "CutCards"
        if action.type.name == "Negate" and not being_played:
            self.report(
                "PB112",
                f"Negate '{action.id}' only affects cards waiting to resolve, but "
                f"{chain.root} yields cards that are not being played",
                "read CutCards",
                node,
                at,
            )
        elif action.type.name != "Negate" and being_played:
            self.report(
                "PB113",
                f"{action.type.name} '{action.id}' skips cards that are being played, and "
                "CutCards yields only those",
                "Negate them, or read a pile",
                node,
                at,
            )

    # -- PB301, PB302 -----------------------------------------------------------------------------
    def _empty_chains(self) -> None:
        guard_map = guards(self.behavior)
        conditions = [
            c
            for c in self.behavior.nodes.values()
            if c.type.name == "Condition" and (c.id in self.flow_used or c.id in self.playable_used)
        ]
        hedged = bool(HEDGES.search(self.text))
        says_all = bool(ALL_WORDS.search(self.text))
        for action in self.actions:
            chain = self.chains.get(action.id)
            if chain is None or (chain.root == "Target" and not self.subject.submits):
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
            reduced = any(s.type.name in REDUCERS for s in chain.steps)
            selective = reduced or any(s.type.name == "Filter" for s in chain.steps)
            if not found.maybe or not (
                selective or chain.root in ("AllDeadAllies", "AllReserveAllies")
            ):
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
            if chain is None or (chain.root == "Target" and not self.subject.submits):
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


def _affects(action: Node, reach: Reach) -> bool:
    """Can the action affect any unit the chain yields (Revive: fallen; Deploy: reserve)?"""
    wanted = {"Revive": State.DEAD, "Deploy": State.RESERVE}.get(action.type.name, State.FIELD)
    return wanted in reach.states


def _culprit(chain: Chain, action: Node) -> tuple[str | None, str]:
    for step in chain.steps:
        if step.type.name in REDUCERS:
            return step.id, "index" if step.type.name == "PickElement" else "count"
    return chain.source_location(action)


def _aoe_message(action: Node, chain: Chain, reach: Any) -> str:
    how = (
        f"{chain.root} (one enemy)"
        if not chain.steps
        else f"{chain.root} reduced to at most {reach.limit}"
    )
    return (
        f"the AllEnemies mode promises every enemy, but '{action.id}' reads {how} and no "
        "action hits them all: the card looks like an area attack in the hand and hits "
        f"{'one enemy' if reach.limit == 1 else 'fewer enemies'} on resolve"
    )


def _mode(subject: Subject) -> str:
    return subject.mode.value if subject.mode is not None else "(no mode)"


def _what_selected(mode: TargetMode) -> str:
    return {
        TargetMode.SINGLE_ENEMY: "an enemy",
        TargetMode.ANY_UNIT: "a unit",
        TargetMode.RANDOM_OPPONENT: "an enemy",
    }.get(mode, "an ally")


def _read_fix(mode: TargetMode) -> str:
    if mode.is_random:
        return (
            "read the unit the runtime picks through Target, or make the mode None if the "
            "Behavior decides on its own"
        )
    if mode in _SELECTED_MODES:
        return (
            "read the selected enemy through Opponent or Target, or make the mode None if the "
            "Behavior decides on its own"
        )
    return "read the selected unit through Target, or make the mode None"


def _target_fix(subject: Subject) -> str:
    if subject.host is Host.STATUS:
        return "use Self (the holder) or AllOpponents; in an attacked hook Opponent is the attacker"
    return (
        "make the mode one that selects a unit (SingleEnemy, SingleAlly, OtherAlly, AnyUnit, "
        "RandomAlly, RandomOpponent), or read the units through another source"
    )


# -- the text checks ---------------------------------------------------------------------------
def _check_text(
    scope: _Scope,
    behavior: Behavior | None,
    subject: Subject,
    text: str,
    statuses: Mapping[str, StatusDef] | None,
    generate: Any,
    extra_numbers: set[int] | None = None,
) -> None:
    """PB201..PB208 on a definition's text. ``generate`` writes the suggested text lazily."""

    def suggestion() -> str:
        try:
            generated = str(generate())
        except Exception:  # the suggestion is a courtesy; a checker must not crash on it
            return ""
        return f' (generated: "{generated}")' if generated else ""

    if not text.strip():
        scope.report(
            "PB207",
            f"the {scope.kind} has no player-facing text",
            "write what the player experiences" + suggestion(),
            at="text",
        )
        return
    for term in editor_terms(text):
        scope.report(
            "PB201",
            f"the text uses the editor word {term.word!r} (at character "
            f"{term.start}); card text should describe what the player experiences",
            f"say {term.instead} instead" + suggestion(),
            at="text",
        )
    allowed = set(extra_numbers or ())
    if behavior is not None:
        allowed |= numbers_of(behavior)
    for number, start in numbers(text):
        if number not in allowed:
            scope.report(
                "PB208",
                f"the text says {number} (at character {start}), a number the "
                "definition does not contain",
                "make the text and the fields agree" + suggestion(),
                at="text",
            )
    if behavior is None or subject.mode is None:
        return
    _range_text(scope, behavior, subject, text, suggestion)


def _range_text(
    scope: _Scope, behavior: Behavior, subject: Subject, text: str, suggestion: Any
) -> None:
    mode = subject.mode
    assert mode is not None
    used = read_by_flow(behavior)
    promised = claims(text)
    chains = [c for a in actions(behavior) if (c := action_chain(behavior, a)) is not None]
    chains += [
        c
        for n in behavior.nodes.values()
        if n.type.name == "Condition"
        and n.id in used
        and (c := condition_chain(behavior, n)) is not None
    ]
    reaches = [unit_reach(c, subject) for c in chains if c.kind is Kind.UNITS]
    # "all enemies with Burn" is covered by a filtered side; only a reduced one is not.
    unreduced = [r for r in reaches if r.limit is None]
    covers = {
        "all_enemies": any(Side.OTHER in r.sides for r in unreduced),
        "all_allies": any(r.sides >= OWN_SIDE for r in unreduced),
        "all_units": any(r.sides == frozenset(Side) for r in unreduced),
    }
    words = {"all_enemies": "all enemies", "all_allies": "all allies", "all_units": "all units"}
    # When the mode itself promises the side, PB101/PB109 already report a Behavior that
    # does not cover it; PB202 is for text that promises more than mode and Behavior.
    promised_by_mode = {TargetMode.ALL_ENEMIES: "all_enemies", TargetMode.ALL_ALLIES: "all_allies"}
    for claim, word in words.items():
        if claim in promised and not covers[claim] and promised_by_mode.get(mode) != claim:
            scope.report(
                "PB202",
                f"the text promises {word}, but no action or condition of the "
                f"Behavior covers {word} (mode {mode.value})",
                "make the Behavior read the whole side, or say what it really "
                "affects" + suggestion(),
                at="text",
            )
    for noun, start in selected_nouns(text):
        fits = mode.requires_target and (
            noun == "unit"
            or (noun == "enemy" and mode is TargetMode.SINGLE_ENEMY)
            or (noun == "ally" and mode in (TargetMode.SINGLE_ALLY, TargetMode.OTHER_ALLY))
        )
        if not fits:
            offer = (
                "takes no click" if not mode.requires_target else f"selects {_what_selected(mode)}"
            )
            scope.report(
                "PB203",
                f"the text names a selected {noun} (at character {start}), "
                f"but the {mode.value} mode {offer}",
                "make the text and the mode agree" + suggestion(),
                at="text",
            )
    if "another_ally" in promised and mode in (TargetMode.SINGLE_ALLY, TargetMode.RANDOM_ALLY):
        scope.report(
            "PB204",
            f'the text says "another ally", but the {mode.value} mode can '
            "pick the card's player too",
            'make the mode OtherAlly, or say "an ally"' + suggestion(),
            at="text",
        )
    random = mode.is_random or is_random(behavior, used)
    if "random" in promised and not random:
        scope.report(
            "PB205",
            "the text says random, but neither the mode nor the Behavior "
            "chooses anything at random",
            "use a Random mode or a RandomElements node, or drop the word" + suggestion(),
            at="text",
        )
    elif random and "random" not in promised:
        how = f"the {mode.value} mode" if mode.is_random else "a RandomElements node"
        scope.report(
            "PB206",
            f"{how} chooses at random, but the text never says so",
            'say "a random ..." so the player knows' + suggestion(),
            at="text",
        )
