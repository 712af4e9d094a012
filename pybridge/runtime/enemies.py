"""Enemy moves: each turn every living enemy with moves telegraphs an intent (a weighted
choice made with the battle's PRNG, plus a target chosen with the same legality function as
the player's arrow) and resolves it on the enemy phase, with itself as Host.

One law for everyone: under the strict profile an enemy, like the player, cannot play a move
without a legal target (an "all ~" move with an empty range included). It telegraphs only
moves it could play now, and a move that has lost every legal target by its turn is not
played at all (``enemy_holds``). Only enemies on the field act."""

from __future__ import annotations

from collections.abc import Set as AbstractSet
from typing import Final

from .context import Context, HostKind
from .model import Battle, Intent, MoveDef, Rules, Team, Unit
from .modes import candidates, is_valid_target
from .outcome import settle
from .play import unit_law_reason, unit_law_refusal
from .resolve import run

# Enum members bound once: reading an attribute of an Enum class is slow on CPython 3.11.
_ENEMY: Final = Team.ENEMY
_STRICT: Final = Rules.STRICT
_MOVE: Final = HostKind.MOVE


def _weighted(battle: Battle, moves: list[MoveDef]) -> MoveDef:
    roll = battle.rng.below(sum([m.weight for m in moves]))  # a list costs less than a generator
    for move in moves:
        if roll < move.weight:
            return move
        roll -= move.weight
    raise AssertionError("weights exhausted")


def choose_target(battle: Battle, enemy: Unit, move: MoveDef) -> Unit | None:
    """A target for modes with a unit choice; the same candidates the arrow would offer."""
    mode = move.target
    if not mode.chooses_units:
        return None
    pool = candidates(battle, enemy, mode)
    return battle.rng.choice(pool) if pool else None


def choose_intents(ctx: Context, only: AbstractSet[str] | None = None) -> None:
    """Every living enemy on the field (or only those named) telegraphs its next move."""
    battle = ctx.battle
    for enemy in battle.living(_ENEMY):
        if only is not None and enemy.id not in only:
            continue
        moves = [battle.moves[m] for m in enemy.moves]
        if battle.rules is _STRICT:  # telegraph only what it could play now
            moves = [m for m in moves if unit_law_reason(battle, enemy, m.target) is None]
        if not moves:
            enemy.intent = None
            continue
        move = _weighted(battle, moves)
        target = choose_target(battle, enemy, move)
        enemy.intent = Intent(move.id, None if target is None else target.id)
        ctx.events.append({"type": "intent", "unit": enemy.id, "move": move.id,
                           "name": move.name, "target": enemy.intent.target})  # fmt: skip


def enemy_phase(ctx: Context) -> bool:
    """Every living enemy on the field resolves its intent in battle order (a unit in the
    reserve never acts). True if the battle ended."""
    battle = ctx.battle
    for enemy in battle.team(_ENEMY):
        intent, enemy.intent = enemy.intent, None
        if not enemy.in_play or intent is None or intent.move not in battle.moves:
            continue
        move = battle.moves[intent.move]
        target = battle.unit(intent.target) if intent.target is not None else None
        chooses = move.target.chooses_units
        if chooses and (target is None or not is_valid_target(battle, enemy, move.target, target)):
            target = choose_target(battle, enemy, move)  # the telegraphed target is gone
        if battle.rules is _STRICT:
            refused = unit_law_refusal(battle, enemy, move.target)
            if refused is not None:  # not played at all: none of its nodes applies
                ctx.emit("enemy_holds", unit=enemy.id, move=move.id, name=move.name,
                         reason=refused.text, reason_message=refused.message)  # fmt: skip
                continue
        ctx.events.append({"type": "enemy_acts", "unit": enemy.id, "move": move.id,
                           "name": move.name,
                           "target": None if target is None else target.id})  # fmt: skip
        chosen = () if target is None else (target,)
        run(move.behavior, ctx.child(enemy, _MOVE, targets=chosen))
        if settle(ctx):
            return True
    return False
