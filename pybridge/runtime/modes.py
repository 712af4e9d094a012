"""Card target modes: what the player must click before a card can leave the hand.

The ten modes of the target-selection guide, with the GCS spellings as aliases. One function,
:func:`is_valid_target`, decides whether a unit may be submitted for a mode; candidates for
the aiming arrow, the play check and enemy AI all go through it.
"""

from __future__ import annotations

from enum import StrEnum

from .model import Battle, Unit


class TargetMode(StrEnum):
    NONE = "None"
    SINGLE_ENEMY = "SingleEnemy"
    ALL_ENEMIES = "AllEnemies"
    SELF = "Self"
    SINGLE_ALLY = "SingleAlly"
    OTHER_ALLY = "OtherAlly"
    ALL_ALLIES = "AllAllies"
    RANDOM_ALLY = "RandomAlly"
    RANDOM_OPPONENT = "RandomOpponent"
    ANY_UNIT = "AnyUnit"

    @property
    def requires_target(self) -> bool:
        """True exactly for the modes that draw the aiming arrow."""
        return self in _ARROW_MODES

    @property
    def is_random(self) -> bool:
        return self in (TargetMode.RANDOM_ALLY, TargetMode.RANDOM_OPPONENT)


_ARROW_MODES = frozenset(
    {TargetMode.SINGLE_ENEMY, TargetMode.SINGLE_ALLY, TargetMode.OTHER_ALLY, TargetMode.ANY_UNIT}
)

#: Every accepted spelling: the canonical names, the guide's spaced names, and GCS aliases.
MODE_NAMES: dict[str, TargetMode] = {
    **{mode.value: mode for mode in TargetMode},
    "Single Enemy": TargetMode.SINGLE_ENEMY,
    "All Enemies": TargetMode.ALL_ENEMIES,
    "Single Ally": TargetMode.SINGLE_ALLY,
    "Other Ally": TargetMode.OTHER_ALLY,
    "All Allies": TargetMode.ALL_ALLIES,
    "Random Ally": TargetMode.RANDOM_ALLY,
    "Random Opponent": TargetMode.RANDOM_OPPONENT,
    "Any Unit": TargetMode.ANY_UNIT,
    "SingleEnemyUnit": TargetMode.SINGLE_ENEMY,
    "AllEnemyUnits": TargetMode.ALL_ENEMIES,
}


def is_valid_target(battle: Battle, source: Unit, mode: TargetMode, unit: Unit) -> bool:
    """May ``unit`` be submitted (or chosen by the runtime) for a card in ``mode``?

    Living units only; ally modes keep to the source's party, Other Ally also excludes the
    source, Any Unit has no team restriction. Modes without a unit choice accept nothing.
    """
    if unit.hp <= 0 or battle.unit(unit.id) is not unit:
        return False
    if mode is TargetMode.SINGLE_ENEMY or mode is TargetMode.RANDOM_OPPONENT:
        return unit.team is not source.team
    if mode is TargetMode.SINGLE_ALLY or mode is TargetMode.RANDOM_ALLY:
        return unit.team is source.team
    if mode is TargetMode.OTHER_ALLY:
        return unit.team is source.team and unit.id != source.id
    return mode is TargetMode.ANY_UNIT


def candidates(battle: Battle, source: Unit, mode: TargetMode) -> list[Unit]:
    """Units the player (or the runtime, for Random modes) may choose, in battle order."""
    return [u for u in battle.units if is_valid_target(battle, source, mode, u)]


def affected_range(battle: Battle, source: Unit, mode: TargetMode) -> list[Unit]:
    """What a UI highlights for the card: its candidates, or the whole range it will hit."""
    if mode is TargetMode.ALL_ENEMIES:
        return battle.living(source.team.opposite)
    if mode is TargetMode.ALL_ALLIES:
        return battle.living(source.team)
    if mode is TargetMode.SELF:
        return [source] if source.alive else []
    return candidates(battle, source, mode)
