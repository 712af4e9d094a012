"""The turn step: end the player's turn and start the next one.

Ending a turn discards the hand (cards with the keyword ``Retain`` stay), advances the turn,
refills energy and draws ``draw_per_turn`` cards.
"""

from __future__ import annotations

from .actions import draw, move_cards
from .context import Context, Event
from .model import Battle, Pile


def end_turn(battle: Battle) -> list[Event]:
    host = battle.unit(battle.active_player) or battle.units[0]
    ctx = Context(battle=battle, host=host)
    ctx.emit("turn_ended", turn=battle.turn)
    leaving = [c for c in battle.piles[Pile.HAND] if "Retain" not in battle.cards[c].card.keywords]
    move_cards(None, ctx, leaving, Pile.DISCARD, "top")
    battle.turn += 1
    battle.energy = battle.max_energy
    ctx.emit("turn_started", turn=battle.turn, energy=battle.energy)
    draw(None, ctx, battle.draw_per_turn)
    return ctx.events
