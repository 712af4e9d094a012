"""Events: what an event type declares (:class:`EventSpec`), the reasons its fields name, and
whether an event is JSON every host reads.

Events are plain JSON objects whose ``type`` names them. The built-in types are declared in
:mod:`pybridge.words.events`, a game's in its extensions; the protocol's ``schema`` lists
them, and tests check that every event the runtime emits is declared, that docs/format.md
names each built-in one, and that the narrator has words for each (or says it is bookkeeping).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any


@dataclass(frozen=True, slots=True)
class EventSpec:
    type: str
    fields: tuple[str, ...]
    doc: str
    #: Each field's type (:mod:`.shapes`), in the order of ``fields``; ``any`` where none is
    #: declared.
    types: tuple[str, ...] = ()

    def field_types(self) -> dict[str, str]:
        """Field name -> its type (``any`` for a field declared without one)."""
        return {name: self.types[i] if i < len(self.types) else "any"
                for i, name in enumerate(self.fields)}  # fmt: skip

    def to_json(self) -> dict[str, object]:
        return {"type": self.type, "fields": list(self.fields), "doc": self.doc,
                "field_types": self.field_types()}  # fmt: skip


#: Why an action skipped a unit or card (``target_skipped``'s ``reason``).
SKIP_REASONS: dict[str, str] = {
    "dead": "the unit has fallen",
    "missing": "the unit or card is no longer in the battle",
    "left_field": "the unit is not on the field (it is in the reserve)",
    "alive": "Revive skips a unit that is alive",
    "on_field": "Deploy skips a unit already on the field",
    "being_played": "the card is being played (only Negate reaches it)",
    "not_being_played": "Negate skips a card that is not waiting on the Cut",
    "draw_pile_empty": "the draw pile ran out",
}
#: Why a locked target is lost at resolution (``target_lost``'s ``reason``).
LOSS_REASONS: dict[str, str] = {
    "dead": "the unit has fallen",
    "left_field": "the unit left the field",
    "protected": "the unit gained protection from this effect",
    "no_longer_legal": "the unit no longer fits the effect (its side or its filter)",
    "missing": "the unit is no longer in the battle",
}
#: Why an effect failed to resolve (``effect_failed``'s ``reason``).
FAILURE_REASONS: dict[str, str] = {
    "lost_target": "a locked target was lost",
    "no_targets": "nothing is left to target",
    "source_gone": "the enemy that used the move is down",
}


if TYPE_CHECKING:  # the built-in table, given by __getattr__ below
    EVENTS: dict[str, EventSpec]


def _module_getattr(name: str) -> Any:
    """``EVENTS``: the built-in event types (:mod:`pybridge.words.events` declares them)."""
    if name == "EVENTS":
        from .vocabulary import builtin

        return {t: w.spec for t, w in builtin().events.items() if not w.owner}
    raise AttributeError(name)


# Bound, not defined, as __getattr__: mypyc crashes importing a compiled module that
# defines one (see pybridge/devtools/compiled.py).
__getattr__ = _module_getattr


#: The largest integer every host's JSON reader holds exactly (Godot's reads doubles).
EXACT_INT = 2**53


def json_plain(value: object, depth: int = 0) -> bool:
    """Is ``value`` JSON every host reads: strings, integers within 2^53, finite numbers,
    booleans, None, and lists and objects (string keys) of them, not too deep?"""
    if value is None or isinstance(value, (str, bool)):
        return True
    if isinstance(value, int):
        return -EXACT_INT <= value <= EXACT_INT
    if isinstance(value, float):
        return value == value and value not in (float("inf"), float("-inf"))
    if depth > 16:
        return False
    if isinstance(value, list):
        return all(json_plain(item, depth + 1) for item in value)
    if isinstance(value, dict):
        return all(isinstance(k, str) and json_plain(v, depth + 1) for k, v in value.items())
    return False


def first_unplain(events: list[dict[str, object]]) -> dict[str, object] | None:
    """The first event holding a value that is not :func:`json_plain` (an extension's)."""
    return next((e for e in events if not json_plain(e)), None)
