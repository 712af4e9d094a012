"""Unit and card sources: the exact resolution rules of both seed documents, as specs.

Each spec holds its resolver and the facts the authoring tools and hosts need: which side of the
battle it reaches relative to the Host, which unit states (or card places) it yields, whether
it reads the submitted selection, how many it yields at most, and why it may come back empty.

Unit sources yield living units on the field, except AllDeadAllies (the dead) and
AllReserveAllies (living units off the field). Units protected from all effects count as
non-existent when a source chooses targets. Target yields the units the card, reaction or call
submitted (any team); if one died since, actions skip it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum

from .context import Context
from .model import PILES, RESOLVING, Pile, Team, Unit, Zone
from .modes import is_protected

# Enum members bound once: reading an attribute of an Enum class is slow on CPython 3.11.
_ENEMY, _RESERVE = Team.ENEMY, Zone.RESERVE


class Side(StrEnum):
    """Which units a unit source reaches, seen from the Host running the Behavior."""

    SELF = "self"  # the Host
    ALLIES = "allies"  # the Host's team, the Host included
    OPPONENTS = "opponents"  # the team opposing the Host
    ALL = "all"  # both teams
    PLAYER_TEAM = "player_team"  # the player team, whoever the Host is
    ENEMY_TEAM = "enemy_team"  # the enemy team, whoever the Host is
    SUBMITTED = "submitted"  # whatever the card, reaction or call submitted


@dataclass(frozen=True, slots=True)
class UnitSourceSpec:
    """``states``: ``field`` (living, on the field), ``dead``, ``reserve``; ``limit``: at most
    this many units (None: no bound); ``whole``: every unit of its side in those states;
    ``selection``: reads the submitted Target or Attacker; ``empty``: why it may yield nothing
    in a battle that is still going on (None: it never does, but for protection)."""

    name: str
    resolve: Callable[[Context], list[Unit]]
    side: Side
    states: frozenset[str]
    limit: int | None
    whole: bool
    doc: str
    selection: bool = False
    empty: str | None = None

    def to_json(self) -> dict[str, object]:
        return {"name": self.name, "side": self.side.value, "states": sorted(self.states),
                "limit": self.limit, "whole": self.whole, "selection": self.selection,
                "may_be_empty": self.empty, "doc": self.doc}  # fmt: skip


@dataclass(frozen=True, slots=True)
class CardSourceSpec:
    """``places``: where its cards are (the piles, ``cut`` for cards waiting to resolve,
    ``resolving`` for the card being played)."""

    name: str
    resolve: Callable[[Context], list[str]]
    places: frozenset[str]
    limit: int | None
    doc: str
    empty: str | None = None

    def to_json(self) -> dict[str, object]:
        return {"name": self.name, "places": sorted(self.places), "limit": self.limit,
                "may_be_empty": self.empty, "doc": self.doc}  # fmt: skip


def _targetable(ctx: Context, units: list[Unit]) -> list[Unit]:
    """``units`` without those protected from every effect (they count as non-existent)."""
    for unit in units:  # a unit without statuses has no protection: most often, none has
        if unit.statuses:
            break
    else:
        return units
    battle = ctx.battle
    return [u for u in units if not u.statuses or not is_protected(battle, u, single_target=False)]


def _opponent(ctx: Context) -> list[Unit]:
    opposing = ctx.host.team.opposite
    for submitted in (*ctx.targets, ctx.attacker):
        if submitted is not None and submitted.in_play and submitted.team is opposing:
            return _targetable(ctx, [submitted])
    return _targetable(ctx, ctx.battle.living(opposing))[:1]


def _active_player(ctx: Context) -> list[Unit]:
    unit = ctx.battle.unit(ctx.battle.active_player)
    return _targetable(ctx, [unit]) if unit is not None and unit.in_play else []


def _dead_allies(ctx: Context) -> list[Unit]:
    return [u for u in ctx.battle.units if u.team is ctx.host.team and not u.alive]


def _reserve_allies(ctx: Context) -> list[Unit]:
    return [u for u in ctx.battle.units
            if u.team is ctx.host.team and u.alive and u.zone is _RESERVE]  # fmt: skip


_FIELD_ONLY, _DEAD, _RESERVE_ONLY = (
    frozenset({"field"}),
    frozenset({"dead"}),
    frozenset({"reserve"}),
)
_U = UnitSourceSpec
UNIT_SOURCES: dict[str, UnitSourceSpec] = {s.name: s for s in (
    _U("Self", lambda ctx: [ctx.host], Side.SELF, _FIELD_ONLY, 1, True,
       "the Host: the player on a player card, the holder of a status, the acting enemy"),
    _U("Opponent", _opponent, Side.OPPONENTS, _FIELD_ONLY, 1, False,
       "the submitted Target or Attacker on the side opposite the Host, else the first living "
       "opposing unit", selection=True),
    _U("AllUnits", lambda ctx: _targetable(ctx, ctx.battle.living()), Side.ALL, _FIELD_ONLY,
       None, True, "every living unit of both teams"),
    _U("ActivePlayer", _active_player, Side.PLAYER_TEAM, _FIELD_ONLY, 1, False,
       "the active living player member"),
    _U("AllAllies", lambda ctx: _targetable(ctx, ctx.battle.living(ctx.host.team)), Side.ALLIES,
       _FIELD_ONLY, None, True, "every living unit on the Host's team"),
    _U("AllOpponents", lambda ctx: _targetable(ctx, ctx.battle.living(ctx.host.team.opposite)),
       Side.OPPONENTS, _FIELD_ONLY, None, True, "every living unit on the opposing team"),
    _U("AllEnemies", lambda ctx: _targetable(ctx, ctx.battle.living(_ENEMY)), Side.ENEMY_TEAM,
       _FIELD_ONLY, None, True, "every living enemy (the enemy team, whoever the Host is)"),
    _U("AllDeadAllies", _dead_allies, Side.ALLIES, _DEAD, None, True,
       "every fallen unit still retained on the Host's team",
       empty="yields fallen allies, and there may be none"),
    _U("AllReserveAllies", _reserve_allies, Side.ALLIES, _RESERVE_ONLY, None, True,
       "every living unit of the Host's team in the reserve",
       empty="yields allies in reserve, and there may be none"),
    _U("Target", lambda ctx: list(ctx.targets), Side.SUBMITTED, _FIELD_ONLY, None, False,
       "the units the card, reaction or call submitted, whatever their team", selection=True),
)}  # fmt: skip


def _this_card(ctx: Context) -> list[str]:
    card = ctx.this_card
    return [] if card is None or ctx.battle.pile_of(card) is None else [card]


def _pile(pile: Pile) -> Callable[[Context], list[str]]:
    return lambda ctx: list(ctx.battle.piles[pile])


def _all_piles(ctx: Context) -> list[str]:
    return [card for pile in PILES for card in ctx.battle.piles[pile]]


def _cut_cards(ctx: Context) -> list[str]:
    """The cards being played (waiting on the Cut), newest first, other than this card."""
    entries = reversed(ctx.battle.cut)
    return [e.card for e in entries if e.card is not None and e.card != ctx.this_card]


def _pile_source(name: str, pile: Pile, what: str) -> CardSourceSpec:
    return CardSourceSpec(name, _pile(pile), frozenset({pile.value}), None, f"the current {what}",
                          empty=f"reads the {what}, which may be empty")  # fmt: skip


def _chosen_cards(ctx: Context) -> list[str]:
    """The cards chosen when this effect resolved (a card that chooses cards on resolve)."""
    return list(ctx.chosen)


CARD_SOURCES: dict[str, CardSourceSpec] = {s.name: s for s in (
    CardSourceSpec("ThisCard", _this_card, frozenset({RESOLVING, *(p.value for p in PILES)}), 1,
                   "the card instance currently resolving"),
    _pile_source("HandPile", Pile.HAND, "hand"),
    _pile_source("DrawPile", Pile.DRAW, "draw pile"),
    _pile_source("DiscardPile", Pile.DISCARD, "discard pile"),
    _pile_source("ExhaustPile", Pile.EXHAUST, "exhaust pile"),
    CardSourceSpec("AllPiles", _all_piles, frozenset(p.value for p in PILES), None,
                   "hand, draw pile, discard pile and exhaust pile together"),
    CardSourceSpec("CutCards", _cut_cards, frozenset({"cut"}), None,
                   "the cards being played (waiting on the Cut), newest first, other than this "
                   "one", empty="reads the cards waiting to resolve, and there may be none"),
    CardSourceSpec("ChosenCards", _chosen_cards, frozenset({*(p.value for p in PILES), "cut"}),
                   None, "the cards chosen when this effect resolves (a card that chooses "
                   "cards on resolve)", empty="yields the cards chosen on resolution: only a "
                   "card that chooses cards on resolve has any"),
)}  # fmt: skip
