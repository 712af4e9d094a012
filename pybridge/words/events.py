"""The built-in event types: what the rules and the built-in actions report.

Their log lines are the battle log's own sentences (:mod:`pybridge.runtime.narrate`), so they
declare no narration message here.
"""

from __future__ import annotations

from pybridge.extend import Words

#: (type, fields, doc) of each built-in event, in the order ``schema`` lists them.
EVENTS: tuple[tuple[str, tuple[str, ...], str], ...] = (
    ("card_played", ("card", "name", "source", "mode", "target", "energy_before",
                     "energy_after"), "a card left the hand and its cost was paid"),
    ("random_target", ("card", "mode", "unit"),
     "the runtime picked a unit for a Random mode (unit null: nobody could be picked)"),
    ("targets_chosen", ("card", "units"),
     "several units were chosen, or units were chosen on resolution (units may be empty "
     "under soft rules when none could be)"),
    ("cards_chosen", ("card", "cards"),
     "cards were chosen on resolution by a card that chooses cards"),
    ("damage", ("node", "source", "unit", "base", "amount", "blocked", "hp_before", "hp_after",
                "armor_before", "armor_after"),
     "a unit took damage: base is the action's amount, amount after status modifiers"),
    ("unit_died", ("node", "unit"), "a unit fell to 0 HP"),
    ("armor", ("node", "unit", "amount", "armor_before", "armor_after"), "a unit gained armor"),
    ("heal", ("node", "unit", "amount", "hp_before", "hp_after"),
     "a unit recovered HP (amount: what was actually restored)"),
    ("revived", ("node", "unit", "hp"), "a fallen unit rose again"),
    ("status", ("node", "unit", "status", "stacks", "total"),
     "a status changed (stacks: the change, negative when removed)"),
    ("withdrawn", ("node", "unit"), "a unit left the field for the reserve"),
    ("deployed", ("node", "unit"), "a unit entered the field from the reserve"),
    ("card_moved", ("node", "card", "from", "to", "face_down"),
     "a card moved between piles (node null when the rules moved it); face_down is there, "
     "true, only when the card now lies face down"),
    ("card_revealed", ("node", "card", "pile"),
     "a face-down card was turned face up where it lies (pile); everyone sees the event"),
    ("reshuffled", ("node", "cards"), "the discard pile was shuffled into a new draw pile"),
    ("negated", ("node", "card", "entry"), "a card's play was negated on the Cut"),
    ("energy", ("node", "energy_before", "energy_after"), "energy was gained"),
    ("counter", ("node", "counter", "before", "after"),
     "a battle counter an extension declares changed (node null when the rules counted it)"),
    ("choice_made", ("node", "entry", "choice", "options", "chosen"),
     "the player answered a choice an action asked for while it resolved"),
    ("target_skipped", ("node", "unit", "card", "reason", "wanted", "available"),
     "an action skipped a unit or card (unit or card, and a reason from SKIP_REASONS); a draw "
     "from a pile that ran out says how many cards it wanted and how many it found"),
    ("no_targets", ("node", "action"), "an action found nothing to act on and did nothing"),
    ("called", ("node", "card", "unit", "targets", "depth"),
     "a Call node ran the Behavior of card (a definition id) with unit as Host and targets as "
     "its Target; depth: how deep in calls it runs (1: called by the card, move or status)"),
    ("branch", ("node", "arm"), "a Branch took its then or else arm"),
    ("gate_closed", ("node",), "a Gate's condition was false: the rest of its arm is skipped"),
    ("card_resolved", ("card",), "a played card finished resolving"),
    ("turn_ended", ("turn", "side"),
     "the player ended the turn (side: the side that ended it, two sides only)"),
    ("enemy_turn", ("turn",), "the enemies act"),
    ("turn_started", ("turn", "energy", "side"),
     "a new turn began with this much energy (side: whose turn, two sides only)"),
    ("intent", ("unit", "move", "name", "target"), "an enemy telegraphed its next move"),
    ("enemy_acts", ("unit", "move", "name", "target"), "an enemy used its move"),
    ("enemy_holds", ("unit", "move", "name", "reason", "reason_message"),
     "under strict rules an enemy's move had no legal target, so it was not played (reason: "
     "the refusal's words, reason_message: the same as a message)"),
    ("status_hook", ("unit", "status", "hook"), "a status's Behavior ran at a turn boundary"),
    ("status_decayed", ("unit", "status", "stacks_before", "stacks_after"),
     "a status lost stacks"),
    ("reaction", ("unit", "status", "attacker"), "an attacked unit's status struck back"),
    ("active_player", ("unit",), "another party member took the lead"),
    ("battle_ended", ("result", "turn"), "one side has no living unit"),
    ("activated", ("entry", "card", "targets", "collected", "responding"),
     "a card went onto the Cut with its targets locked"),
    ("enemy_responds", ("entry", "unit", "move", "name", "target"),
     "an enemy answered on the Cut"),
    ("resolving", ("entry", "card", "move", "name"), "the top entry of the Cut resolves"),
    ("recollected", ("entry", "units"), "an \"all ~\" effect collected its range again"),
    ("target_lost", ("entry", "unit", "reason"),
     "a locked target was lost at resolution (a reason from LOSS_REASONS)"),
    ("effect_failed", ("entry", "card", "move", "reason", "lost"),
     "an effect failed to resolve (a reason from FAILURE_REASONS)"),
)  # fmt: skip


#: The type of each field (pybridge.runtime.shapes), by its name: a name means the same thing
#: in every event that has it, except where ``TYPE_EXCEPTIONS`` says otherwise.
FIELD_TYPES: dict[str, str] = {
    "node": "string?", "card": "string", "name": "string", "source": "string",
    "mode": "string", "target": "string?", "energy_before": "int", "energy_after": "int",
    "unit": "string", "units": "list<string>", "cards": "list<string>", "base": "int",
    "amount": "int", "blocked": "int", "hp_before": "int", "hp_after": "int",
    "armor_before": "int", "armor_after": "int", "hp": "int", "status": "string",
    "stacks": "int", "total": "int", "from": "string", "to": "string", "face_down": "bool?",
    "pile": "string", "entry": "string", "energy": "int", "counter": "string",
    "before": "int", "after": "int", "choice": "string", "options": "list<string>",
    "chosen": "list<string>", "reason": "string", "action": "string",
    "targets": "list<string>", "depth": "int", "arm": "string", "turn": "int",
    "move": "string", "reason_message": "object", "stacks_before": "int",
    "stacks_after": "int", "hook": "string", "attacker": "string", "result": "string",
    "collected": "list<string>", "responding": "bool", "lost": "list<object>?",
    "wanted": "int?", "available": "int?", "side": "string?",
}  # fmt: skip
#: (event type, field) -> its type, where it differs from ``FIELD_TYPES``.
TYPE_EXCEPTIONS: dict[tuple[str, str], str] = {
    ("random_target", "unit"): "string?",  # nobody could be picked
    ("target_skipped", "unit"): "string?", ("target_skipped", "card"): "string?",
    ("reshuffled", "cards"): "int",  # how many cards
    ("choice_made", "entry"): "string?",  # asked by an immediate play
    ("resolving", "card"): "string?", ("resolving", "move"): "string?",
    ("effect_failed", "card"): "string?", ("effect_failed", "move"): "string?",
}  # fmt: skip


def field_types(event_type: str, fields: tuple[str, ...]) -> dict[str, str]:
    """The types of the fields of the built-in event ``event_type``."""
    return {f: TYPE_EXCEPTIONS.get((event_type, f), FIELD_TYPES[f]) for f in fields}


def register(words: Words) -> None:
    for event_type, fields, doc in EVENTS:
        words.event(event_type, doc=doc, fields=fields, narration=None,
                    field_types=field_types(event_type, fields))  # fmt: skip
