"""The built-in filter keys (what a Filter node, a card's ``target_filter`` and its
``card_targets`` keep units and cards by) and sort keys (what Sort orders them by)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from operator import attrgetter
from typing import Any

from pybridge.extend import Unit, Words


def register(words: Words) -> None:
    # fmt: off
    unit = words.unit_filter
    unit("team", type="choice", test=_team, doc="units of this team", choices=("player", "enemy"))
    unit("tag", type="id", test=lambda want: lambda u: want in u.tags, doc="units with this tag",
         suggests="unit_tags")
    unit("tier", type="integer", test=lambda want: lambda u: u.tier == want,
         doc="units of this tier")
    unit("tier_min", type="integer", test=lambda want: lambda u: u.tier >= want,
         doc="units of this tier or higher")
    unit("tier_max", type="integer", test=lambda want: lambda u: u.tier <= want,
         doc="units of this tier or lower")
    unit("status", type="id", test=_stacks, doc="units carrying this status", suggests="statuses")
    unit("hp_percent_min", type="integer", test=lambda want: lambda u: u.hp_percent >= want,
         doc="units with at least this share of their max HP (0-100)", minimum=0, maximum=100)
    unit("hp_percent_max", type="integer", test=lambda want: lambda u: u.hp_percent <= want,
         doc="units with at most this share of their max HP (0-100)", minimum=0, maximum=100)
    unit("alive", type="boolean", test=lambda want: lambda u: u.alive is want,
         doc="living (true) or fallen (false) units")

    card = words.card_filter
    card("type", type="id", test=lambda want: lambda c: c.card.type == want,
         doc="cards of this type", suggests="card_types")
    card("rarity", type="id", test=lambda want: lambda c: c.card.rarity == want,
         doc="cards of this rarity", suggests="rarities")
    card("keyword", type="id", test=lambda want: lambda c: want in c.card.keywords,
         doc="cards with this keyword", suggests="keywords")
    card("tag", type="id", test=lambda want: lambda c: want in c.card.tags,
         doc="cards with this tag", suggests="card_tags")
    card("cost", type="integer", test=lambda want: lambda c: c.card.cost == want,
         doc="cards that cost exactly this")
    card("cost_min", type="integer", test=lambda want: lambda c: c.card.cost >= want,
         doc="cards that cost this or more")
    card("cost_max", type="integer", test=lambda want: lambda c: c.card.cost <= want,
         doc="cards that cost this or less")

    sort = words.unit_sort
    sort("hp", doc="HP", key=attrgetter("hp"))
    sort("max_hp", doc="max HP", key=attrgetter("max_hp"))
    sort("armor", doc="armor", key=attrgetter("armor"))
    sort("tier", doc="tier", key=attrgetter("tier"))
    sort("hp_percent", doc="share of max HP", key=lambda u: u.hp * 1.0 / u.max_hp)
    sort("status", doc="stacks of a status", compile=_by_status, needs_status=True)
    # Card sort keys read the card instance's definition.
    words.card_sort("cost", doc="cost", key=lambda card: card.card.cost)
    # fmt: on


def _team(want: str) -> Callable[[Unit], bool]:
    return lambda unit: unit.team.value == want


def _stacks(want: str) -> Callable[[Unit], bool]:
    return lambda unit: unit.statuses.get(want, 0) > 0


def _by_status(fields: Mapping[str, Any]) -> Callable[[Unit], int]:
    status = fields["status"]
    return lambda unit: unit.statuses.get(status, 0)
