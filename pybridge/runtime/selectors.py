"""Selectors narrow a collection: Filter keeps matches, Sort orders (stable), PickElement,
Take and RandomElements reduce. Unit collections hold units, card collections card ids."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .context import Context
from .graph import Kind, Node
from .model import CardInstance, Unit


def unit_matches(unit: Unit, where: Mapping[str, Any]) -> bool:
    for key, want in where.items():
        if key == "team":
            ok = unit.team._value_ == want
        elif key == "tag":
            ok = want in unit.tags
        elif key == "tier":
            ok = unit.tier == want
        elif key == "tier_min":
            ok = unit.tier >= want
        elif key == "tier_max":
            ok = unit.tier <= want
        elif key == "status":
            ok = unit.statuses.get(want, 0) > 0
        elif key == "hp_percent_min":
            ok = unit.hp_percent >= want
        elif key == "hp_percent_max":
            ok = unit.hp_percent <= want
        else:  # alive
            ok = unit.alive is want
        if not ok:
            return False
    return True


def card_matches(card: CardInstance, where: Mapping[str, Any]) -> bool:
    definition = card.card
    for key, want in where.items():
        if key == "type":
            ok = definition.type == want
        elif key == "rarity":
            ok = definition.rarity == want
        elif key == "keyword":
            ok = want in definition.keywords
        elif key == "tag":
            ok = want in definition.tags
        elif key == "cost":
            ok = definition.cost == want
        elif key == "cost_min":
            ok = definition.cost >= want
        else:  # cost_max
            ok = definition.cost <= want
        if not ok:
            return False
    return True


def select(node: Node, kind: Kind, items: list[Any], ctx: Context) -> list[Any]:
    """Apply selector ``node`` to ``items`` (units, or card ids when ``kind`` is CARDS)."""
    name = node.type.name
    fields = node.fields
    if name == "Filter":
        where = fields["where"]
        if kind is Kind.UNITS:
            return [u for u in items if unit_matches(u, where)]
        cards = ctx.battle.cards
        return [c for c in items if card_matches(cards[c], where)]
    if name == "Sort":
        return sorted(items, key=_sort_key(kind, fields, ctx), reverse=fields["order"] == "desc")
    if name == "PickElement":
        index = fields["index"]
        return [items[index]] if -len(items) <= index < len(items) else []
    if name == "Take":
        return items[: fields["count"]]
    if name == "RandomElements":
        return ctx.battle.rng.sample(items, fields["count"])
    raise AssertionError(f"not a selector: {name}")


def _sort_key(kind: Kind, fields: Mapping[str, Any], ctx: Context) -> Any:
    by = fields["by"]
    if kind is Kind.CARDS:
        cards = ctx.battle.cards
        return lambda card_id: cards[card_id].card.cost
    if by == "status":
        status = fields["status"]
        return lambda unit: unit.statuses.get(status, 0)
    if by == "hp_percent":
        return lambda unit: unit.hp * 1.0 / unit.max_hp
    return lambda unit: getattr(unit, by)
