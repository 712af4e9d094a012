"""The turn loop. Ending the player's turn runs, in order:

1. player statuses' ``turn_end`` hooks; the hand is discarded (``Retain`` cards stay);
2. the enemy phase: enemy ``turn_start`` hooks, every enemy's intent, enemy ``turn_end`` hooks;
3. the next turn: turn + 1, energy refilled, player ``turn_start`` hooks, cards drawn, and the
   enemies telegraph their next intents.

In a two-sided battle (both teams play cards) there is no enemy phase: ending the turn side's
turn runs its statuses' ``turn_end`` hooks and discards its hand (or keeps it, as the side's
``hand_at_turn_end`` says), then the turn passes to the other side (turn + 1, that side's
energy refilled, its ``turn_start`` hooks, its draw).

The battle ends as soon as one side has no living unit, wherever that happens.
"""

from __future__ import annotations

from typing import Final

from .context import Context, Event
from .cut import battle_over, side_refused
from .effects import draw, move_cards
from .enemies import choose_intents, enemy_phase
from .errors import CutError, LimitReached, PlayError
from .keywords import RETAIN
from .model import Battle, Pile, Team, Unit
from .outcome import settle
from .reader import MAX_INT
from .sentences import refused, said
from .statuses import tick
from .vocabulary import reset_counters

# Enum members bound once: reading an attribute of an Enum class is slow on CPython 3.11.
_PLAYER: Final = Team.PLAYER
_ENEMY: Final = Team.ENEMY
_HAND: Final = Pile.HAND
_DISCARD: Final = Pile.DISCARD


def end_turn_refused(battle: Battle, side: Team | None = None) -> PlayError | None:
    """Why ``end_turn`` is refused now: the battle is over, it is not ``side``'s turn (when a
    request names whose turn it ends), effects wait on the Cut (they were activated in this
    turn and resolve in it, never against the next turn's battle), or the battle is at its
    last turn. None when the turn may end."""
    if side is not None:  # only a request that names a side may name the wrong one
        turn_side = battle.turn_side
        turn_refused = side_refused(battle, side, turn_side,
                                    f"it is the {turn_side.value} side's turn")  # fmt: skip
        if battle.result is None and turn_refused is not None:
            return turn_refused
    if battle.result is not None:
        return battle_over(battle)
    if battle.cut:
        return refused(CutError, battle, said("cut.waiting", count=len(battle.cut)), "")
    if battle.turn >= MAX_INT:  # one more and the saved battle would not load
        return LimitReached(f"the battle is at its last turn ({MAX_INT})", "")
    return None


def end_turn(battle: Battle, side: Team | None = None) -> list[Event]:
    """End the player's turn (in a two-sided battle, the turn side's: ``side`` may say whose
    the request means). Refused while effects wait on the Cut (pass or resolve first)."""
    refused = end_turn_refused(battle, side)
    if refused is not None:
        raise refused
    if battle.two_sided:
        return _pass_turn(battle)
    ctx = Context(battle, _host_of(battle, _PLAYER))
    ctx.events.append({"type": "turn_ended", "turn": battle.turn})
    # The three steps in order, each followed by settling the battle, up to the first that
    # ends it; called by name, not from a tuple, so a compiled build calls them directly.
    _player_turn_end(ctx) or settle(ctx) or _enemy_turn(ctx) or settle(ctx) \
        or _next_turn(ctx) or settle(ctx)  # fmt: skip
    return ctx.told()


def _player_turn_end(ctx: Context) -> bool:
    battle = ctx.battle
    tick(ctx, _PLAYER, "turn_end")
    hand = battle.sides[_PLAYER].piles[_HAND]
    cards = battle.cards
    leaving = [c for c in hand if RETAIN not in cards[c].card.keywords]
    move_cards(None, ctx, leaving, _DISCARD, "top")
    return False


def _enemy_turn(ctx: Context) -> bool:
    ctx.events.append({"type": "enemy_turn", "turn": ctx.battle.turn})
    tick(ctx, _ENEMY, "turn_start")
    if settle(ctx) or enemy_phase(ctx):
        return True
    tick(ctx, _ENEMY, "turn_end")
    return False


def _next_turn(ctx: Context) -> bool:
    battle = ctx.battle
    battle.turn += 1
    side = battle.sides[_PLAYER]
    side.energy = side.max_energy
    ctx.events.append({"type": "turn_started", "turn": battle.turn, "energy": side.energy})
    if battle.counters:
        reset_counters(battle, ctx.events, "turn_start")
    tick(ctx, _PLAYER, "turn_start")
    if settle(ctx):
        return True
    draw(None, ctx, side.draw_per_turn)
    choose_intents(ctx)
    return False


def _pass_turn(battle: Battle) -> list[Event]:
    """End the turn side's turn in a two-sided battle and give the turn to the other side."""
    ending = battle.turn_side
    ctx = Context(battle=battle, host=_host_of(battle, ending))
    ctx.emit("turn_ended", turn=battle.turn, side=ending.value)
    tick(ctx, ending, "turn_end")
    if settle(ctx):
        return ctx.told()
    if battle.sides[ending].hand_at_turn_end == "discard":  # else the hand is kept
        hand = battle.sides[ending].piles[Pile.HAND]
        leaving = [c for c in hand if RETAIN not in battle.cards[c].card.keywords]
        move_cards(None, ctx, leaving, Pile.DISCARD, "top")
    starting = battle.turn_side = ending.opposite
    battle.turn += 1
    side = battle.sides[starting]
    side.energy = energy = side.max_energy
    ctx.host = _host_of(battle, starting)
    ctx.emit("turn_started", turn=battle.turn, energy=energy, side=starting.value)
    if battle.counters:
        reset_counters(battle, ctx.events, "turn_start")
    tick(ctx, starting, "turn_start")
    if settle(ctx):
        return ctx.told()
    ctx.host = _host_of(battle, starting)  # a hook may have felled the side's active player
    draw(None, ctx, side.draw_per_turn, starting)
    settle(ctx)
    return ctx.told()


def _host_of(battle: Battle, team: Team) -> Unit:
    return battle.unit(battle.side(team).active_player) or battle.units[0]


def start_battle(battle: Battle) -> list[Event]:
    """What ``open`` does to a loaded battle: settle it as after any step (an active player who
    has fallen or left the field passes the role on; a battle one side has already lost gets
    its result), then telegraph the intents of enemies whose document gave none (a freshly
    written battle). A saved battle, which says ``"intent": null`` where an enemy has none,
    opens unchanged."""
    ctx = Context(battle=battle, host=_host_of(battle, Team.PLAYER))
    unset, battle._unset_intents = set(battle._unset_intents), ()
    if not settle(ctx) and any(
        u.id in unset and u.in_play and u.moves for u in battle.team(Team.ENEMY)
    ):
        choose_intents(ctx, only=unset)
    return ctx.told()
