"""Turn runtime events into the sentences a player reads in a battle log."""

from __future__ import annotations

from collections.abc import Iterable

from .runtime import Battle, Event


def _name(battle: Battle, unit_id: object) -> str:
    unit = battle.unit(unit_id) if isinstance(unit_id, str) else None
    return unit.name if unit is not None else str(unit_id)


def _card(battle: Battle, card_id: object) -> str:
    card = battle.cards.get(card_id) if isinstance(card_id, str) else None
    return card.card.name if card is not None else str(card_id)


def narrate(battle: Battle, event: Event) -> str | None:
    """One line for an event, or None for bookkeeping a player does not need to read."""
    kind = event["type"]

    def n(key: str) -> str:
        return _name(battle, event.get(key))

    if kind == "card_played":
        aim = f" at {n('target')}" if event.get("target") else ""
        return f"{n('source')} plays {event['name']}{aim}."
    if kind == "random_target":
        return f"  Fate picks {n('unit')}." if event.get("unit") else "  Fate finds no one to pick."
    if kind == "damage":
        blocked = f" ({event['blocked']} blocked by armor)" if event["blocked"] else ""
        return (
            f"  {n('unit')} takes {event['amount'] - event['blocked']} damage{blocked}: "
            f"HP {event['hp_before']} -> {event['hp_after']}."
        )
    if kind == "unit_died":
        return f"  {n('unit')} falls."
    if kind == "armor":
        return f"  {n('unit')} gains {event['amount']} armor ({event['armor_after']} total)."
    if kind == "heal":
        return (
            f"  {n('unit')} recovers {event['amount']} HP: "
            f"{event['hp_before']} -> {event['hp_after']}."
        )
    if kind == "status":
        return f"  {n('unit')} gains {event['stacks']} {event['status']} ({event['total']} total)."
    if kind == "revived":
        return f"  {n('unit')} rises again with {event['hp']} HP."
    if kind == "card_moved" and event.get("node") is not None:
        return f"  {_card(battle, event['card'])} moves from {event['from']} to {event['to']}."
    if kind == "no_targets":
        return f"  {event['action']} finds no target and does nothing."
    if kind == "target_skipped":
        who = n("unit") if "unit" in event else _card(battle, event.get("card"))
        if event["reason"] == "draw_pile_empty":
            return f"  The draw pile runs out ({event['available']} of {event['wanted']} drawn)."
        return f"  {who} is skipped ({event['reason']})."
    return None


def narrate_all(battle: Battle, events: Iterable[Event]) -> list[str]:
    return [line for line in (narrate(battle, e) for e in events) if line is not None]
