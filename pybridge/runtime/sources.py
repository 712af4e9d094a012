"""Unit and card sources: the exact resolution rules of both seed documents.

Unit sources yield living units on the field, except AllDeadAllies (the dead) and
AllReserveAllies (living units off the field). Units protected from all effects count as
non-existent when a source chooses targets. Target yields the units the card, reaction or call
submitted (any team); if one died since, actions skip it.
"""

from __future__ import annotations

from collections.abc import Callable

from .context import Context
from .model import PILES, RESOLVING, Pile, Team, Unit, Zone
from .modes import is_protected

# Enum members bound once: reading an attribute of an Enum class is slow on CPython 3.11.
_ENEMY, _RESERVE = Team.ENEMY, Zone.RESERVE


def _targetable(ctx: Context, units: list[Unit]) -> list[Unit]:
    battle = ctx.battle
    # A unit without statuses has no protection: no need to ask.
    return [u for u in units if not u.statuses or not is_protected(battle, u, single_target=False)]


def _opponent(ctx: Context) -> list[Unit]:
    opposing = ctx.host.team.opposite
    for submitted in (*ctx.targets, ctx.attacker):
        if submitted is not None and submitted.in_play and submitted.team is opposing:
            if not submitted.statuses:  # _targetable(), for one unit without statuses
                return [submitted]
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


UNIT_SOURCE_RESOLVERS: dict[str, Callable[[Context], list[Unit]]] = {
    "Self": lambda ctx: [ctx.host],
    "Opponent": _opponent,
    "AllUnits": lambda ctx: _targetable(ctx, ctx.battle.living()),
    "ActivePlayer": _active_player,
    "AllAllies": lambda ctx: _targetable(ctx, ctx.battle.living(ctx.host.team)),
    "AllOpponents": lambda ctx: _targetable(ctx, ctx.battle.living(ctx.host.team.opposite)),
    "AllEnemies": lambda ctx: _targetable(ctx, ctx.battle.living(_ENEMY)),
    "AllDeadAllies": _dead_allies,
    "AllReserveAllies": _reserve_allies,
    "Target": lambda ctx: list(ctx.targets),
}


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


CARD_SOURCE_RESOLVERS: dict[str, Callable[[Context], list[str]]] = {
    "ThisCard": _this_card,
    "HandPile": _pile(Pile.HAND),
    "DrawPile": _pile(Pile.DRAW),
    "DiscardPile": _pile(Pile.DISCARD),
    "ExhaustPile": _pile(Pile.EXHAUST),
    "AllPiles": _all_piles,
    "CutCards": _cut_cards,
}

__all__ = ["CARD_SOURCE_RESOLVERS", "RESOLVING", "UNIT_SOURCE_RESOLVERS"]
