"""Unit and card sources: the exact resolution rules of both seed documents.

Dead units are excluded from every unit source except AllDeadAllies. Target yields the unit
the card, reaction or call submitted (any team); if it died since, actions skip it.
"""

from __future__ import annotations

from collections.abc import Callable

from .context import Context
from .model import PILES, RESOLVING, Pile, Team, Unit


def _opponent(ctx: Context) -> list[Unit]:
    opposing = ctx.host.team.opposite
    for submitted in (ctx.target, ctx.attacker):
        if submitted is not None and submitted.alive and submitted.team is opposing:
            return [submitted]
    living = ctx.battle.living(opposing)
    return living[:1]


def _active_player(ctx: Context) -> list[Unit]:
    unit = ctx.battle.unit(ctx.battle.active_player)
    return [unit] if unit is not None and unit.alive else []


def _dead_allies(ctx: Context) -> list[Unit]:
    return [u for u in ctx.battle.units if u.team is ctx.host.team and not u.alive]


UNIT_SOURCE_RESOLVERS: dict[str, Callable[[Context], list[Unit]]] = {
    "Self": lambda ctx: [ctx.host],
    "Opponent": _opponent,
    "AllUnits": lambda ctx: ctx.battle.living(),
    "ActivePlayer": _active_player,
    "AllAllies": lambda ctx: ctx.battle.living(ctx.host.team),
    "AllOpponents": lambda ctx: ctx.battle.living(ctx.host.team.opposite),
    "AllEnemies": lambda ctx: ctx.battle.living(Team.ENEMY),
    "AllDeadAllies": _dead_allies,
    "Target": lambda ctx: [] if ctx.target is None else [ctx.target],
}


def _this_card(ctx: Context) -> list[str]:
    card = ctx.this_card
    return [] if card is None or ctx.battle.pile_of(card) is None else [card]


def _pile(pile: Pile) -> Callable[[Context], list[str]]:
    return lambda ctx: list(ctx.battle.piles[pile])


def _all_piles(ctx: Context) -> list[str]:
    return [card for pile in PILES for card in ctx.battle.piles[pile]]


CARD_SOURCE_RESOLVERS: dict[str, Callable[[Context], list[str]]] = {
    "ThisCard": _this_card,
    "HandPile": _pile(Pile.HAND),
    "DrawPile": _pile(Pile.DRAW),
    "DiscardPile": _pile(Pile.DISCARD),
    "ExhaustPile": _pile(Pile.EXHAUST),
    "AllPiles": _all_piles,
}

__all__ = ["CARD_SOURCE_RESOLVERS", "RESOLVING", "UNIT_SOURCE_RESOLVERS"]
