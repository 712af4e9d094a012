"""Every event type the runtime reports, with its fields: the one list hosts, docs and the
narrator are checked against (docs/format.md shows the same table).

Events are plain JSON objects whose ``type`` names them; this table describes them and is
what the protocol's ``schema`` operation lists. Tests check that every event the runtime
emits is listed here, that docs/format.md names each one, and that the narrator has words for
each (or says it is bookkeeping).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class EventSpec:
    type: str
    fields: tuple[str, ...]
    doc: str

    def to_json(self) -> dict[str, object]:
        return {"type": self.type, "fields": list(self.fields), "doc": self.doc}


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

_E = EventSpec
EVENTS: dict[str, EventSpec] = {e.type: e for e in (
    _E("card_played", ("card", "name", "source", "mode", "target", "energy_before",
                       "energy_after"), "a card left the hand and its cost was paid"),
    _E("random_target", ("card", "mode", "unit"),
       "the runtime picked a unit for a Random mode (unit null: nobody could be picked)"),
    _E("targets_chosen", ("card", "units"),
       "several units were chosen, or units were chosen on resolution (units may be empty "
       "under soft rules when none could be)"),
    _E("cards_chosen", ("card", "cards"),
       "cards were chosen on resolution by a card that chooses cards"),
    _E("damage", ("node", "source", "unit", "base", "amount", "blocked", "hp_before", "hp_after",
                  "armor_before", "armor_after"),
       "a unit took damage: base is the action's amount, amount after status modifiers"),
    _E("unit_died", ("node", "unit"), "a unit fell to 0 HP"),
    _E("armor", ("node", "unit", "amount", "armor_before", "armor_after"), "a unit gained armor"),
    _E("heal", ("node", "unit", "amount", "hp_before", "hp_after"),
       "a unit recovered HP (amount: what was actually restored)"),
    _E("revived", ("node", "unit", "hp"), "a fallen unit rose again"),
    _E("status", ("node", "unit", "status", "stacks", "total"),
       "a status changed (stacks: the change, negative when removed)"),
    _E("withdrawn", ("node", "unit"), "a unit left the field for the reserve"),
    _E("deployed", ("node", "unit"), "a unit entered the field from the reserve"),
    _E("card_moved", ("node", "card", "from", "to"),
       "a card moved between piles (node null when the rules moved it)"),
    _E("reshuffled", ("node", "cards"), "the discard pile was shuffled into a new draw pile"),
    _E("negated", ("node", "card", "entry"), "a card's play was negated on the Cut"),
    _E("energy", ("node", "energy_before", "energy_after"), "energy was gained"),
    _E("counter", ("node", "counter", "before", "after"),
       "a battle counter an extension declares changed (node null when the rules counted it)"),
    _E("choice_made", ("node", "entry", "choice", "options", "chosen"),
       "the player answered a choice an action asked for while it resolved"),
    _E("target_skipped", ("node", "unit", "card", "reason"),
       "an action skipped a unit or card (unit or card, and a reason from SKIP_REASONS)"),
    _E("no_targets", ("node", "action"), "an action found nothing to act on and did nothing"),
    _E("called", ("node", "card", "unit", "targets", "depth"),
       "a Call node ran the Behavior of card (a definition id) with unit as Host and targets as "
       "its Target; depth: how deep in calls it runs (1: called by the card, move or status)"),
    _E("branch", ("node", "arm"), "a Branch took its then or else arm"),
    _E("gate_closed", ("node",), "a Gate's condition was false: the rest of its arm is skipped"),
    _E("card_resolved", ("card",), "a played card finished resolving"),
    _E("turn_ended", ("turn",), "the player ended the turn"),
    _E("enemy_turn", ("turn",), "the enemies act"),
    _E("turn_started", ("turn", "energy"), "a new turn began with this much energy"),
    _E("intent", ("unit", "move", "name", "target"), "an enemy telegraphed its next move"),
    _E("enemy_acts", ("unit", "move", "name", "target"), "an enemy used its move"),
    _E("enemy_holds", ("unit", "move", "name", "reason"),
       "under strict rules an enemy's move had no legal target, so it was not played"),
    _E("status_hook", ("unit", "status", "hook"), "a status's Behavior ran at a turn boundary"),
    _E("status_decayed", ("unit", "status", "stacks_before", "stacks_after"),
       "a status lost stacks"),
    _E("reaction", ("unit", "status", "attacker"), "an attacked unit's status struck back"),
    _E("active_player", ("unit",), "another party member took the lead"),
    _E("battle_ended", ("result", "turn"), "one side has no living unit"),
    _E("activated", ("entry", "card", "targets", "collected", "responding"),
       "a card went onto the Cut with its targets locked"),
    _E("enemy_responds", ("entry", "unit", "move", "name", "target"),
       "an enemy answered on the Cut"),
    _E("resolving", ("entry", "card", "move", "name"), "the top entry of the Cut resolves"),
    _E("recollected", ("entry", "units"), "an \"all ~\" effect collected its range again"),
    _E("target_lost", ("entry", "unit", "reason"),
       "a locked target was lost at resolution (a reason from LOSS_REASONS)"),
    _E("effect_failed", ("entry", "card", "move", "reason", "lost"),
       "an effect failed to resolve (a reason from FAILURE_REASONS)"),
)}  # fmt: skip


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
