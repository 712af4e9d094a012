"""What a running Behavior knows: the battle, its Host, the submitted Target or Attacker."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .model import Battle, Unit

#: A structured event: a JSON-ready dict whose ``type`` names it (see docs/format.md).
Event = dict[str, Any]


@dataclass(slots=True)
class Context:
    """The Host is the unit running the graph: the playing member for a player card, the owner
    for a status, the acting enemy for an enemy Behavior."""

    battle: Battle
    host: Unit
    target: Unit | None = None
    attacker: Unit | None = None
    this_card: str | None = None
    events: list[Event] = field(default_factory=list)
    snapshots: dict[str, list[Any]] = field(default_factory=dict)

    def emit(self, event_type: str, **data: Any) -> None:
        self.events.append({"type": event_type, **data})
