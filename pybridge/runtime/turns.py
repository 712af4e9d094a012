"""The turn loop. Ending the player's turn runs, in order:

1. player statuses' ``turn_end`` hooks; the hand is discarded (``Retain`` cards stay);
2. the enemy phase: enemy ``turn_start`` hooks, every enemy's intent, enemy ``turn_end`` hooks;
3. the next turn: turn + 1, energy refilled, player ``turn_start`` hooks, cards drawn, and the
   enemies telegraph their next intents.

The battle ends as soon as one side has no living unit, wherever that happens.
"""

from __future__ import annotations

from .actions import draw, move_cards
from .context import Context, Event
from .enemies import choose_intents, enemy_phase
from .errors import BattleOver
from .keywords import RETAIN
from .model import Battle, Pile, Team
from .outcome import settle
from .statuses import tick


def end_turn(battle: Battle) -> list[Event]:
    if battle.result is not None:
        raise BattleOver(f"the battle is over ({battle.result})", "")
    ctx = Context(battle=battle, host=battle.unit(battle.active_player) or battle.units[0])
    ctx.emit("turn_ended", turn=battle.turn)
    for step in (_player_turn_end, _enemy_turn, _next_turn):
        if step(ctx) or settle(ctx):
            break
    return ctx.events


def _player_turn_end(ctx: Context) -> bool:
    battle = ctx.battle
    tick(ctx, Team.PLAYER, "turn_end")
    hand = battle.piles[Pile.HAND]
    leaving = [c for c in hand if RETAIN not in battle.cards[c].card.keywords]
    move_cards(None, ctx, leaving, Pile.DISCARD, "top")
    return False


def _enemy_turn(ctx: Context) -> bool:
    ctx.emit("enemy_turn", turn=ctx.battle.turn)
    tick(ctx, Team.ENEMY, "turn_start")
    if settle(ctx) or enemy_phase(ctx):
        return True
    tick(ctx, Team.ENEMY, "turn_end")
    return False


def _next_turn(ctx: Context) -> bool:
    battle = ctx.battle
    battle.turn += 1
    battle.energy = battle.max_energy
    ctx.emit("turn_started", turn=battle.turn, energy=battle.energy)
    tick(ctx, Team.PLAYER, "turn_start")
    if settle(ctx):
        return True
    draw(None, ctx, battle.draw_per_turn)
    choose_intents(ctx)
    return False


def start_battle(battle: Battle) -> list[Event]:
    """Telegraph the first intents of enemies that have none (a freshly written battle)."""
    ctx = Context(battle=battle, host=battle.unit(battle.active_player) or battle.units[0])
    if battle.result is None and any(
        u.alive and u.moves and u.intent is None for u in battle.team(Team.ENEMY)
    ):
        choose_intents(ctx, only_missing=True)
    return ctx.events
