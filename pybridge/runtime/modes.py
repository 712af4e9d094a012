"""Card target modes: what the player must click before a card can leave the hand.

The ten modes of the target-selection guide, with the GCS spellings as aliases. One function,
:func:`is_valid_target`, decides whether a unit may be submitted for a mode; candidates for
the aiming arrow, the play check and enemy AI all go through it.
"""

from __future__ import annotations

from enum import StrEnum

from .model import Battle, CardDef, Unit
from .selectors import unit_matches


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


def is_protected(battle: Battle, unit: Unit, single_target: bool) -> bool:
    """Does a status make ``unit`` "not the target of" this effect? Protection ``all`` covers
    every effect; ``single`` only single-target effects."""
    for status, stacks in unit.statuses.items():
        definition = battle.statuses.get(status)
        protection = None if definition is None or stacks <= 0 else definition.protection
        if protection == "all" or (protection == "single" and single_target):
            return True
    return False


def is_valid_target(
    battle: Battle, source: Unit, mode: TargetMode, unit: Unit, card: CardDef | None = None
) -> bool:
    """May ``unit`` be chosen (by the player's arrow, the runtime or an enemy) for an effect in
    ``mode``, and is it still a legal target at resolution?

    Living units on the field only; ally modes keep to the source's party, Other Ally also
    excludes the source, Any Unit has no team restriction; a card's ``target_filter`` must
    match; protected units count as non-existent. Modes without a unit choice accept nothing.
    """
    if not unit.in_play or battle.unit(unit.id) is not unit:
        return False
    if mode is TargetMode.SINGLE_ENEMY or mode is TargetMode.RANDOM_OPPONENT:
        fits = unit.team is not source.team
    elif mode is TargetMode.SINGLE_ALLY or mode is TargetMode.RANDOM_ALLY:
        fits = unit.team is source.team
    elif mode is TargetMode.OTHER_ALLY:
        fits = unit.team is source.team and unit.id != source.id
    else:
        fits = mode is TargetMode.ANY_UNIT
    if not fits:
        return False
    if card is not None and card.target_filter and not unit_matches(unit, card.target_filter):
        return False
    single = card.single_target if card is not None else mode.requires_target
    return not is_protected(battle, unit, single)


def candidates(
    battle: Battle, source: Unit, mode: TargetMode, card: CardDef | None = None
) -> list[Unit]:
    """Units the player (or the runtime, for Random modes) may choose, in battle order."""
    return [u for u in battle.units if is_valid_target(battle, source, mode, u, card)]


def affected_range(
    battle: Battle, source: Unit, mode: TargetMode, card: CardDef | None = None
) -> list[Unit]:
    """What a UI highlights for the card: its candidates, or the whole range it will hit."""
    if mode is TargetMode.ALL_ENEMIES:
        team = battle.living(source.team.opposite)
    elif mode is TargetMode.ALL_ALLIES:
        team = battle.living(source.team)
    elif mode is TargetMode.SELF:
        return [source] if source.in_play else []
    else:
        return candidates(battle, source, mode, card)
    return [u for u in team if not is_protected(battle, u, single_target=False)]
