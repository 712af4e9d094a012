"""The built-in unit and card sources: the exact resolution rules of both seed documents.

Unit sources yield living units on the field, except AllDeadAllies (the dead) and
AllReserveAllies (living units off the field). Units protected from all effects count as
non-existent when a source chooses targets. Target yields the units the card, reaction or call
submitted (any team); if one died since, actions skip it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from pybridge.extend import (
    PILES,
    RESOLVING,
    CardWords,
    Context,
    Pile,
    Team,
    Unit,
    UnitWords,
    Words,
    Zone,
    targetable,
)

# Enum members bound once: reading an attribute of an Enum class is slow on CPython 3.11.
_ENEMY: Final = Team.ENEMY
_RESERVE: Final = Zone.RESERVE
_PILE_NAMES = tuple(p.value for p in PILES)


def register(words: Words) -> None:
    # fmt: off
    unit = words.unit_source
    unit("Self", resolve=lambda ctx: [ctx.host], side="self", limit=1, whole=True,
         doc="the Host: the player on a player card, the holder of a status, the acting enemy",
         describe=UnitWords(phrase="yourself", third="itself"))
    unit("Opponent", resolve=_opponent, side="opponents", limit=1, selection=True,
         doc="one unit: the submitted Target or Attacker when it stands opposite the Host, else "
         "the first living opposing unit (unlike Target, never one of the Host's own side, and "
         "never nothing while an opponent lives)",
         # when no unit on the other side is submitted
         describe=UnitWords(phrase="the first enemy", again="that enemy"))
    unit("AllUnits", resolve=lambda ctx: targetable(ctx, ctx.battle.living()), side="all",
         whole=True, doc="every living unit of both teams", describe=UnitWords(("unit", "units")))
    unit("ActivePlayer", resolve=_active_player, side="player_team", limit=1,
         doc="the active living player member",
         describe=UnitWords(phrase="the active party member"))
    unit("AllAllies", resolve=lambda ctx: targetable(ctx, ctx.battle.living(ctx.host.team)),
         side="allies", whole=True, doc="every living unit on the Host's team",
         describe=UnitWords(("ally", "allies")))
    unit("AllOpponents",
         resolve=lambda ctx: targetable(ctx, ctx.battle.living(ctx.host.team.opposite)),
         side="opponents", whole=True,
         doc="every living unit of the team opposing the Host: the enemies on a player's card, "
         "the party in an enemy's Behavior (unlike AllEnemies, it follows the Host)",
         describe=UnitWords(("enemy", "enemies")))
    unit("AllEnemies", resolve=lambda ctx: targetable(ctx, ctx.battle.living(_ENEMY)),
         side="enemy_team", whole=True,
         doc="every living unit of the enemy team, whoever the Host is: the same units as "
         "AllOpponents on a player's card, the enemy's own team in an enemy's Behavior",
         describe=UnitWords(("unit", "units"), team="enemy"))
    unit("AllDeadAllies", resolve=_dead_allies, side="allies", states=("dead",), whole=True,
         doc="every fallen unit still retained on the Host's team",
         empty="yields fallen allies, and there may be none",
         describe=UnitWords(("ally", "allies"), pre="fallen"))
    unit("AllReserveAllies", resolve=_reserve_allies, side="allies", states=("reserve",),
         whole=True, doc="every living unit of the Host's team in the reserve",
         empty="yields allies in reserve, and there may be none",
         describe=UnitWords(("ally", "allies"), tail="in reserve"))
    unit("Target", resolve=lambda ctx: list(ctx.targets), side="submitted", selection=True,
         doc="the units the card, reaction or call submitted, whatever their team (unlike "
         "Opponent, no side is checked and nothing is chosen when none was submitted)",
         # the mode's words name the selection; this, when nothing is submitted
         describe=UnitWords(phrase="no one"))

    card = words.card_source
    card("ThisCard", resolve=_this_card, places=(RESOLVING, *_PILE_NAMES), limit=1,
         doc="the card instance currently resolving", describe=CardWords(phrase="this card"))
    for name, pile, what in (("HandPile", Pile.HAND, "hand"),
                             ("DrawPile", Pile.DRAW, "draw pile"),
                             ("DiscardPile", Pile.DISCARD, "discard pile"),
                             ("ExhaustPile", Pile.EXHAUST, "exhaust pile")):
        card(name, resolve=_pile(pile), places=(pile.value,),
             doc=f"the current {what} (the pile a pile field names '{pile.value}')",
             empty=f"reads the {what}, which may be empty",
             describe=CardWords(pile.value))
    card("AllPiles", resolve=_all_piles, places=_PILE_NAMES,
         doc="hand, draw pile, discard pile and exhaust pile together",
         describe=CardWords(where="hand and piles", inside="in"))
    card("CutCards", resolve=_cut_cards, places=("cut",),
         doc="the cards being played (waiting on the Cut), newest first, other than this one",
         empty="reads the cards waiting to resolve, and there may be none",
         describe=CardWords("cut"))
    card("ChosenCards", resolve=_chosen_cards, places=(*_PILE_NAMES, "cut"),
         doc="the cards chosen when this effect resolves (a card that chooses cards on "
         "resolve)", empty="yields the cards chosen on resolution: only a card that chooses "
         "cards on resolve has any",
         # chosen when the card resolves (choose_on_resolve)
         describe=CardWords(phrase="the chosen card", many="the chosen cards"))
    # fmt: on


def _opponent(ctx: Context) -> list[Unit]:
    opposing = ctx.host.team.opposite
    for submitted in (*ctx.targets, ctx.attacker):
        if submitted is not None and submitted.in_play and submitted.team is opposing:
            return targetable(ctx, [submitted])
    return targetable(ctx, ctx.battle.living(opposing))[:1]


def _active_player(ctx: Context) -> list[Unit]:
    unit = ctx.battle.unit(ctx.battle.active_player)
    return targetable(ctx, [unit]) if unit is not None and unit.in_play else []


def _dead_allies(ctx: Context) -> list[Unit]:
    return [u for u in ctx.battle.units if u.team is ctx.host.team and not u.alive]


def _reserve_allies(ctx: Context) -> list[Unit]:
    return [u for u in ctx.battle.units
            if u.team is ctx.host.team and u.alive and u.zone is _RESERVE]  # fmt: skip


def _this_card(ctx: Context) -> list[str]:
    card = ctx.this_card
    return [] if card is None or ctx.battle.pile_of(card) is None else [card]


def _pile(pile: Pile) -> Callable[[Context], list[str]]:
    # The Host's side's pile: in a two-sided battle each side reads its own.
    return lambda ctx: list(ctx.battle.side(ctx.host.team).piles[pile])


def _all_piles(ctx: Context) -> list[str]:
    piles = ctx.battle.side(ctx.host.team).piles
    return [card for pile in PILES for card in piles[pile]]


def _cut_cards(ctx: Context) -> list[str]:
    """The cards being played (waiting on the Cut), newest first, other than this card."""
    entries = reversed(ctx.battle.cut)
    return [e.card for e in entries if e.card is not None and e.card != ctx.this_card]


def _chosen_cards(ctx: Context) -> list[str]:
    """The cards chosen when this effect resolves (a card that chooses cards on resolve)."""
    return list(ctx.chosen)
