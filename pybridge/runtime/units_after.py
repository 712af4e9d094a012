"""The events of a request a host reads, each told with what its unit looks like after it.

Its own module, kept pure in the compiled build (pybridge/devtools/compiled.py): it is a
subclass of ``list``, which compiled code cannot define.
"""

from __future__ import annotations

from typing import Any

from .model import Battle, Unit

Event = dict[str, Any]


class UnitsAfter(list[Event]):
    """A request's events as a host reads them: an event that names a unit (``unit``) whose
    looks changed since it was last told gets ``unit_after``, the unit as it is once the event
    happened (the rules change a unit, then tell it), so a host plays events back by showing
    them, never by knowing what an event type does to a unit. Only a request whose events a
    host reads makes one (``Battle.unit_after``): the simulation's loop pays nothing."""

    __slots__ = ("_index", "_told")

    def __init__(self, battle: Battle) -> None:
        super().__init__()
        self._index = battle._index
        self._told = {unit.id: unit_looks(unit) for unit in battle.units}

    def append(self, event: Event) -> None:
        unit_id = event.get("unit")
        unit = self._index.get(unit_id) if isinstance(unit_id, str) else None
        if unit is not None:
            looks = unit_looks(unit)
            if looks != self._told.get(unit.id):
                self._told[unit.id] = event["unit_after"] = looks
        super().append(event)


def unit_looks(unit: Unit) -> dict[str, object]:
    """What a host draws of ``unit`` that the rules change (``unit_after``)."""
    intent = unit.intent
    return {
        "hp": unit.hp, "max_hp": unit.max_hp, "armor": unit.armor,
        "statuses": dict(sorted(unit.statuses.items())), "alive": unit.alive,
        "zone": unit.zone.value,
        "intent": None if intent is None else {"move": intent.move, "target": intent.target},
    }  # fmt: skip
