"""After every step: pass the active role on if the active player fell or left the field,
and end the battle when one side has no living unit."""

from __future__ import annotations

from typing import Final

from .context import Context
from .hiding import moved
from .model import RESOLVING, Pile, Team
from .vocabulary import count_events

# Enum members bound once: reading an attribute of an Enum class is slow on CPython 3.11.
_PLAYER: Final = Team.PLAYER
_ENEMY: Final = Team.ENEMY
_DISCARD: Final = Pile.DISCARD


def settle(ctx: Context) -> bool:
    """Update the active player and the result; True when the battle is over."""
    battle = ctx.battle
    words = battle.words
    if words is not None and words.counting:  # extension counters count events
        count_events(battle, ctx.events, ctx.counted)
        ctx.counted = len(ctx.events)
    if battle.result is not None:
        return True
    index = battle._index  # what Battle.unit() reads
    sides = battle.sides
    for team, side in sides.items():  # the player side's first
        active = index.get(side.active_player)
        if active is None or not active.in_play:  # fallen or withdrawn
            successor = next(iter(battle.living(team)), None)
            if successor is not None:
                side.active_player = successor.id
                ctx.emit("active_player", unit=successor.id)
    if not battle.standing(_ENEMY):
        battle.result = "victory"
    elif not battle.standing(_PLAYER):
        battle.result = "defeat"
    else:
        return False
    for entry in battle.cut:  # the battle is decided: what still waits on the Cut is spent
        if entry.card is not None:
            battle.resolving.remove(entry.card)
            battle.side(entry.side).piles[_DISCARD].insert(0, entry.card)
            if battle.secret is not None:
                moved(battle, entry.card, RESOLVING, _DISCARD, len(ctx.events))
    battle.cut.clear()
    ctx.emit("battle_ended", result=battle.result, turn=battle.turn)
    return True
