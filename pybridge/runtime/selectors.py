"""Selectors narrow a collection: Filter keeps matches, Sort orders (stable), PickElement,
Take and RandomElements reduce. Unit collections hold units, card collections card ids.

Each selector is a compiler: given a node's fields and the kind of collection it reads, it
returns the function that narrows a collection in a running Behavior. Compiled Behaviors
(:mod:`pybridge.runtime.resolve`) call these functions; :func:`select` compiles one on the spot.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from .context import Context
from .filters import card_predicate, unit_predicate
from .kinds import Kind

#: A compiled selector: (collection, context) -> narrowed collection.
Narrow = Callable[[list[Any], Context], list[Any]]
#: (the node's fields, what it reads, the vocabulary or None for the built-in one) -> Narrow
Compiler = Callable[[Mapping[str, Any], Kind, Any], Narrow]


def _words(words: Any) -> Any:
    if words is None:
        from .vocabulary import builtin

        return builtin()
    return words


def compile_filter(fields: Mapping[str, Any], kind: Kind, words: Any = None) -> Narrow:
    where, words = fields["where"], _words(words)
    if kind is Kind.UNITS:
        keep = unit_predicate(where, words.unit_filters)
        return lambda items, ctx: [u for u in items if keep(u)]
    keep_card = card_predicate(where, words.card_filters)

    def filter_cards(items: list[Any], ctx: Context) -> list[Any]:
        cards = ctx.battle.cards
        return [c for c in items if keep_card(cards[c])]

    return filter_cards


def compile_sort(fields: Mapping[str, Any], kind: Kind, words: Any = None) -> Narrow:
    reverse, words = fields["order"] == "desc", _words(words)
    if kind is Kind.UNITS:
        key = words.unit_sorts[fields["by"]].make(fields)
        return lambda items, ctx: sorted(items, key=key, reverse=reverse)
    card_key = words.card_sorts[fields["by"]].make(fields)

    def sort_cards(items: list[Any], ctx: Context) -> list[Any]:
        # A face-down card has no faces to sort by: such cards follow the others, as they
        # came, so where one lands never tells what it is.
        cards = ctx.battle.cards
        up = [c for c in items if not cards[c].face_down]
        down = [c for c in items if cards[c].face_down] if len(up) < len(items) else []
        return sorted(up, key=lambda card_id: card_key(cards[card_id]), reverse=reverse) + down

    return sort_cards


def compile_pick(fields: Mapping[str, Any], kind: Kind, words: Any = None) -> Narrow:
    index = fields["index"]
    return lambda items, ctx: [items[index]] if -len(items) <= index < len(items) else []


def compile_take(fields: Mapping[str, Any], kind: Kind, words: Any = None) -> Narrow:
    count = fields["count"]
    return lambda items, ctx: items[:count]


def compile_random(fields: Mapping[str, Any], kind: Kind, words: Any = None) -> Narrow:
    count = fields["count"]
    return lambda items, ctx: ctx.battle.rng.sample(items, count)


def select(compiler: Compiler, fields: Mapping[str, Any], kind: Kind, items: list[Any],
           ctx: Context) -> list[Any]:  # fmt: skip
    """Apply one selector to ``items`` at once (units, or card ids when ``kind`` is CARDS)."""
    return compiler(fields, kind, ctx.battle.words)(items, ctx)
