"""Diagnostics: every code with its severity and title, the finding itself, and where it is
reported (the card, move or status, and the JSON path inside its document).

A code never changes meaning or severity; docs/lint.md lists them all.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from ..runtime.graph import Behavior


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
    ("PB122", E, "Call nodes that call each other in a cycle, or nest too deep"),
    ("PB201", W, "editor vocabulary in player-facing text"),
    ("PB202", W, "text that promises a whole side the Behavior does not cover"),
    ("PB203", W, "text that names a selected unit the mode does not offer"),
    ("PB204", W, 'text that says "another ally" for a mode that can pick the player'),
    ("PB205", W, "text that says random where nothing is random"),
    ("PB206", W, "a random choice the text does not mention"),
    ("PB207", N, "no player-facing text"),
    ("PB208", N, "a number in the text that the definition does not contain"),
    ("PB209", W, "a keyword the text does not mention"),
    ("PB210", W, "text that drops a restriction of the range: tier, tag, status or health"),
    ("PB211", W, "a source that declared no words: the generated text says it yields nothing"),
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
class Scope:
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


def refused(file: str | None, where: str, message: str, document: object = None,
            fix: str = "fix the field the loader names; nothing in this document was checked "
            "until it loads", code: str = "PB002") -> Diagnostic:  # fmt: skip
    """A diagnostic for what the loader refuses, at the loader's JSON path. When the path
    leads into a card, move or status of ``document``, it names that definition, the node and
    the field by their ids, so an editor can put it where it belongs."""
    kind, ident, node, field = _located(document, where)
    return Diagnostic(code, CODES[code].severity, message, fix, file, kind, ident, node, field,
                      where)  # fmt: skip


_DEFINITION = re.compile(r"^(cards|moves|statuses)\[(\d+)\](?:\.(.*))?$")
_NODE = re.compile(r"^(behavior|hooks\.\w+)\.nodes\[(\d+)\](?:\.(.*))?$")
_KINDS = {"cards": "card", "moves": "move", "statuses": "status"}


def _located(document: object, where: str) -> tuple[str, str | None, str | None, str | None]:
    """(kind, definition id, node id, field) of a loader path in ``document``."""
    found = _DEFINITION.match(where)
    entries = document.get(found.group(1)) if found and isinstance(document, Mapping) else None
    if found is None or not isinstance(entries, list) or int(found.group(2)) >= len(entries):
        return "document", None, None, None
    definition = entries[int(found.group(2))]
    ident = definition.get("id") if isinstance(definition, Mapping) else None
    rest = found.group(3)
    in_node = _NODE.match(rest or "")
    if in_node is None or not isinstance(definition, Mapping):
        return _KINDS[found.group(1)], _text(ident), None, rest
    holder: Any = definition
    for key in in_node.group(1).split("."):
        holder = holder.get(key) if isinstance(holder, Mapping) else None
    nodes = holder.get("nodes") if isinstance(holder, Mapping) else None
    index = int(in_node.group(2))
    raw = nodes[index] if isinstance(nodes, list) and index < len(nodes) else None
    node_id = raw.get("id") if isinstance(raw, Mapping) else None
    return _KINDS[found.group(1)], _text(ident), _text(node_id), in_node.group(3)


def _text(value: object) -> str | None:
    return value if isinstance(value, str) else None


def indexed(
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


def ordered(diagnostics: list[Diagnostic]) -> list[Diagnostic]:
    """Diagnostics of one definition in a stable order: by Behavior, then by code."""
    return sorted(diagnostics, key=lambda d: (d.path.split(".nodes[")[0], d.code))
