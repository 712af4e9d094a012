"""Legality: which units a card target mode reaches, reading the facts of :mod:`.mode_table`.

One function, :func:`is_valid_target`, decides whether a unit may be chosen for a mode; the
aiming arrow's candidates, the play check, random picks, enemy AI and the loss check at
resolution all go through it. :func:`affected_range` is what a UI highlights.
"""

from __future__ import annotations

from typing import Final

from .mode_table import (
    MODE_FACTS,
    MODE_NAMES,
    Chooser,
    ModeFacts,
    Reach,
    TargetMode,
    single_target,
)
from .model import Battle, CardDef, StatusDef, Team, Unit

__all__ = [
    "MODE_FACTS",
    "MODE_NAMES",
    "PROTECTIONS",
    "Chooser",
    "ModeFacts",
    "Reach",
    "TargetMode",
    "affected_range",
    "candidates",
    "in_reach",
    "is_protected",
    "is_valid_target",
    "protecting_status",
    "protections",
    "single_target",
]

_ENEMY: Final = Reach.ENEMY
_ALLY: Final = Reach.ALLY
_OTHER_ALLY: Final = Reach.OTHER_ALLY
_ANY: Final = Reach.ANY
_SELF: Final = Reach.SELF
_NOBODY: Final = Chooser.NOBODY


def in_reach(reach: Reach, source: Unit, unit: Unit) -> bool:
    """Is ``unit`` on the side ``reach`` names, seen from ``source``?"""
    if reach is _ENEMY:
        return unit.team is not source.team
    if reach is _ALLY:
        return unit.team is source.team
    if reach is _OTHER_ALLY:
        return unit.team is source.team and unit.id != source.id
    if reach is _SELF:
        return unit.id == source.id
    return reach is _ANY


#: A status's ``protection`` values, each with what it keeps its unit out of, in the words
#: of "will not be the target of" (the refusals quote them).
PROTECTIONS: dict[str, str] = {
    "all": "will not be the target of any effect",
    "single": "will not be the target of a single-target effect",
}


def is_protected(battle: Battle, unit: Unit, single_target: bool) -> bool:
    """Does a status make ``unit`` "not the target of" this effect? Protection ``all`` covers
    every effect; ``single`` only single-target effects."""
    definitions = battle.statuses
    for status, stacks in unit.statuses.items():
        definition = definitions.get(status)
        if definition is None or stacks <= 0:
            continue
        protection = definition.protection
        if protection == "all" or (protection == "single" and single_target):
            return True
    return False


def protecting_status(battle: Battle, unit: Unit, single_target: bool) -> StatusDef | None:
    """The status that makes ``unit`` "not the target of" this effect (the first by id, so
    the answer is stable), else None: what :func:`is_protected` found, named."""
    for status in sorted(unit.statuses):
        definition = battle.statuses.get(status)
        if definition is None or unit.statuses[status] <= 0:
            continue
        protection = definition.protection
        if protection == "all" or (protection == "single" and single_target):
            return definition
    return None


def protections(
    battle: Battle, source: Unit, mode: TargetMode, card: CardDef | None = None
) -> list[tuple[Unit, StatusDef]]:
    """The units ``mode`` would reach now (living, on the field, on its side, through the
    card's filter) that a status keeps out of it, each with that status, in battle order:
    why they are not candidates (or, for an area, not in its range)."""
    facts = MODE_FACTS[mode]
    if facts.chooser is _NOBODY and not facts.area:
        return []
    # A chosen unit is judged as is_valid_target judges it; an area as affected_range does.
    single = False if facts.chooser is _NOBODY else (True if card is None else card.single_target)
    found = []
    for unit in battle.units:
        if not unit.statuses or not unit.in_play or not in_reach(facts.reach, source, unit):
            continue
        if card is not None and card.target_filter and not card.target_test(unit):
            continue
        status = protecting_status(battle, unit, single)
        if status is not None:
            found.append((unit, status))
    return found


def is_valid_target(
    battle: Battle, source: Unit, mode: TargetMode, unit: Unit, card: CardDef | None = None
) -> bool:
    """May ``unit`` be chosen (by the player's arrow, the runtime or an enemy) for an effect in
    ``mode``, and is it still a legal target at resolution?

    Living units on the field only, within the mode's reach; a card's ``target_filter`` must
    match; protected units count as non-existent. Modes that choose no unit accept nothing.
    """
    # The battle's own unit: Battle.unit() read directly, as every target check asks this.
    if not unit.in_play or battle._index.get(unit.id) is not unit:
        return False
    return _choosable(battle, source, MODE_FACTS[mode], unit, card)


def _choosable(battle: Battle, source: Unit, facts: ModeFacts, unit: Unit,
               card: CardDef | None) -> bool:  # fmt: skip
    """:func:`is_valid_target` for a unit in play that is the battle's own."""
    if facts.chooser is _NOBODY or not in_reach(facts.reach, source, unit):
        return False
    if card is not None and card.target_filter and not card.target_test(unit):
        return False
    if not unit.statuses:  # no status, no protection
        return True
    single = True if card is None else card.single_target  # a move chooses exactly one unit
    return not is_protected(battle, unit, single)


def candidates(
    battle: Battle, source: Unit, mode: TargetMode, card: CardDef | None = None
) -> list[Unit]:
    """Units the player (or the runtime, for Random modes) may choose, in battle order: those
    :func:`is_valid_target` accepts (the battle's own units in play, as ``Battle.living``
    lists them, need no look-up of their id)."""
    facts = MODE_FACTS[mode]
    if facts.chooser is _NOBODY:
        return []
    pool = battle.living(_team_reached(facts.reach, source))
    return [u for u in pool if _choosable(battle, source, facts, u, card)]


def _team_reached(reach: Reach, source: Unit) -> Team | None:
    """The one team whose units :func:`in_reach` may accept for ``reach`` (None: both), so a
    search for candidates need not look at the other team's units at all."""
    if reach is _ENEMY:
        return source.team.opposite
    if reach is _ANY:
        return None
    return source.team  # ally, other ally, self (and none, which accepts no unit)


def affected_range(
    battle: Battle, source: Unit, mode: TargetMode, card: CardDef | None = None
) -> list[Unit]:
    """What a UI highlights for the card: the units it may choose, or, for a mode that
    chooses none, every unit its reach covers now (an area skips protected units)."""
    facts = MODE_FACTS[mode]
    if facts.chooser is not _NOBODY:
        return candidates(battle, source, mode, card)
    reach, area = facts.reach, facts.area
    return [
        u
        for u in battle.units
        if u.in_play
        and in_reach(reach, source, u)
        and not (area and u.statuses and is_protected(battle, u, single_target=False))
    ]
