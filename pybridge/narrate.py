"""Turn runtime events into the sentences a player reads in a battle log."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from .runtime import Battle, Event


def _unit(battle: Battle, unit_id: object) -> str:
    unit = battle.unit(unit_id) if isinstance(unit_id, str) else None
    return unit.name if unit is not None else str(unit_id)


def _card(battle: Battle, card_id: object) -> str:
    card = battle.cards.get(card_id) if isinstance(card_id, str) else None
    return card.card.name if card is not None else str(card_id)


def _status(battle: Battle, status: object) -> str:
    definition = battle.statuses.get(status) if isinstance(status, str) else None
    return definition.name if definition is not None else str(status).replace("_", " ").title()


def _damage(b: Battle, e: Event) -> str:
    taken = e["amount"] - e["blocked"]
    notes = []
    if e["amount"] != e["base"]:
        notes.append(f"{e['base']} {'+' if e['amount'] > e['base'] else '-'} "
                     f"{abs(e['amount'] - e['base'])} from statuses")  # fmt: skip
    if e["blocked"]:
        notes.append(f"{e['blocked']} blocked by armor")
    extra = f" ({'; '.join(notes)})" if notes else ""
    hp = f"HP {e['hp_before']} -> {e['hp_after']}"
    return f"  {_unit(b, e['unit'])} takes {taken} damage{extra}: {hp}."


def _played(b: Battle, e: Event) -> str:
    aim = f" at {_unit(b, e['target'])}" if e.get("target") else ""
    return f"{_unit(b, e['source'])} plays {e['name']}{aim}."


def _skipped(b: Battle, e: Event) -> str:
    if e["reason"] == "draw_pile_empty":
        return f"  The draw pile runs out ({e['available']} of {e['wanted']} drawn)."
    who = _unit(b, e["unit"]) if "unit" in e else _card(b, e.get("card"))
    return f"  {who} is skipped ({e['reason']})."


def _status_change(b: Battle, e: Event) -> str:
    verb = "gains" if e["stacks"] > 0 else "loses"
    return (f"  {_unit(b, e['unit'])} {verb} {abs(e['stacks'])} {_status(b, e['status'])} "
            f"({e['total']} total).")  # fmt: skip


_LINES: dict[str, Callable[[Battle, Event], str | None]] = {
    "card_played": _played,
    "random_target": lambda b, e: (
        f"  Fate picks {_unit(b, e['unit'])}." if e.get("unit") else "  Fate finds no one to pick."
    ),
    "damage": _damage,
    "unit_died": lambda b, e: f"  {_unit(b, e['unit'])} falls.",
    "armor": lambda b, e: (
        f"  {_unit(b, e['unit'])} gains {e['amount']} armor ({e['armor_after']} total)."
    ),
    "heal": lambda b, e: (
        f"  {_unit(b, e['unit'])} recovers {e['amount']} HP: {e['hp_before']} -> {e['hp_after']}."
    ),
    "status": _status_change,
    "revived": lambda b, e: f"  {_unit(b, e['unit'])} rises again with {e['hp']} HP.",
    "card_moved": lambda b, e: (
        None
        if e.get("node") is None
        else f"  {_card(b, e['card'])} moves from {e['from']} to {e['to']}."
    ),
    "no_targets": lambda b, e: f"  {e['action']} finds no target and does nothing.",
    "target_skipped": _skipped,
    "energy": lambda b, e: f"  Energy {e['energy_before']} -> {e['energy_after']}.",
    "reshuffled": lambda b, e: (
        f"  The discard pile is shuffled into a new draw pile ({e['cards']} cards)."
    ),
    "turn_ended": lambda b, e: f"End of turn {e['turn']}.",
    "enemy_turn": lambda b, e: "The enemies act.",
    "turn_started": lambda b, e: f"--- Turn {e['turn']} ({e['energy']} energy) ---",
    "intent": lambda b, e: (
        f"  {_unit(b, e['unit'])} intends {e['name']}"
        + (f" on {_unit(b, e['target'])}." if e.get("target") else ".")
    ),
    "enemy_acts": lambda b, e: (
        f"{_unit(b, e['unit'])} uses {e['name']}"
        + (f" on {_unit(b, e['target'])}." if e.get("target") else ".")
    ),
    "enemy_holds": lambda b, e: f"{_unit(b, e['unit'])} holds back {e['name']}: {e['reason']}.",
    "status_hook": lambda b, e: f"  {_status(b, e['status'])} acts on {_unit(b, e['unit'])}.",
    "status_decayed": lambda b, e: (
        f"  {_unit(b, e['unit'])}'s {_status(b, e['status'])} fades to {e['stacks_after']}."
    ),
    "reaction": lambda b, e: (
        f"  {_unit(b, e['unit'])}'s {_status(b, e['status'])} strikes "
        f"back at {_unit(b, e['attacker'])}."
    ),
    "active_player": lambda b, e: f"  {_unit(b, e['unit'])} takes the lead.",
    "battle_ended": lambda b, e: "Victory!" if e["result"] == "victory" else "Defeat.",
}


def narrate(battle: Battle, event: Event) -> str | None:
    """One line for an event, or None for bookkeeping a player does not need to read."""
    line = _LINES.get(event["type"])
    return None if line is None else line(battle, event)


def narrate_all(battle: Battle, events: Iterable[Event]) -> list[str]:
    return [line for line in (narrate(battle, e) for e in events) if line is not None]
