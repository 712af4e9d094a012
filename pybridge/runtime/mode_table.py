"""The card target modes as a fact table: one row per mode, read by every consumer.

A row says who chooses the target (the player with the aiming arrow, the runtime at random, or
nobody), which units the mode reaches relative to the card's source, whether it covers an area
(an "all ~" effect, collected again whenever the Cut changes) and whether the pick is random.
Legality, strict playability, the Cut, lint, describe and the protocol's ``schema`` read these
facts; none of them branches on a mode's name. The GCS spellings and the guide's spaced names
are aliases in the same rows.

Adding a mode: add a member to :class:`TargetMode` and its row to :data:`MODE_FACTS` (a test
checks that every member has one), then its describe words (pybridge/authoring/phrases.py).
This module imports nothing from the runtime.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Final


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
    def facts(self) -> ModeFacts:
        return MODE_FACTS[self]

    @property
    def requires_target(self) -> bool:
        """True exactly for the modes that draw the aiming arrow (the player chooses)."""
        return MODE_FACTS[self].requires_target

    @property
    def is_random(self) -> bool:
        return MODE_FACTS[self].random

    @property
    def chooses_units(self) -> bool:
        """Does a chosen unit reach the Behavior through Target (clicked or picked)?"""
        return MODE_FACTS[self].chooses_units

    @property
    def is_area(self) -> bool:
        """An "all ~" mode: its range is collected again whenever the Cut changes."""
        return MODE_FACTS[self].area


class Chooser(StrEnum):
    """Who picks the unit a mode submits."""

    PLAYER = "player"  # with the aiming arrow, before the card leaves the hand
    RUNTIME = "runtime"  # at random, when the card is played
    NOBODY = "nobody"  # the mode submits no unit


class Reach(StrEnum):
    """Which units a mode reaches, relative to the unit that plays the card (its source)."""

    ENEMY = "enemy"  # the opposing team
    ALLY = "ally"  # the source's team, the source included
    OTHER_ALLY = "other_ally"  # the source's team without the source
    ANY = "any"  # both teams
    SELF = "self"  # the source alone
    NONE = "none"  # no unit: the Behavior decides everything


@dataclass(frozen=True, slots=True)
class ModeFacts:
    """One row of the table. ``label`` names the mode on a card; ``action`` is the player's
    action as the guide words it."""

    mode: TargetMode
    chooser: Chooser
    reach: Reach
    area: bool
    random: bool
    label: str
    action: str
    aliases: tuple[str, ...] = ()

    @property
    def requires_target(self) -> bool:
        return self.chooser is Chooser.PLAYER

    @property
    def chooses_units(self) -> bool:
        return self.chooser is not Chooser.NOBODY

    @property
    def has_range(self) -> bool:
        """Does the mode itself promise units (a choice, an area or the source)?"""
        return self.reach is not Reach.NONE

    def to_json(self) -> dict[str, object]:
        return {
            "mode": self.mode.value, "chooser": self.chooser.value, "reach": self.reach.value,
            "area": self.area, "random": self.random, "requires_target": self.requires_target,
            "chooses_units": self.chooses_units, "label": self.label, "action": self.action,
            "label_message": {"id": f"mode.{self.mode.value}.label", "params": {}},
            "action_message": {"id": f"mode.{self.mode.value}.action", "params": {}},
            "aliases": list(self.aliases),
        }  # fmt: skip


_PLAYER: Final = Chooser.PLAYER
_RUNTIME: Final = Chooser.RUNTIME
_NOBODY: Final = Chooser.NOBODY
_ROWS = (
    ModeFacts(TargetMode.NONE, _NOBODY, Reach.NONE, False, False, "No target", "Select no unit"),
    ModeFacts(TargetMode.SINGLE_ENEMY, _PLAYER, Reach.ENEMY, False, False, "Single enemy",
              "Select one living enemy", ("Single Enemy", "SingleEnemyUnit")),
    ModeFacts(TargetMode.ALL_ENEMIES, _NOBODY, Reach.ENEMY, True, False, "All enemies",
              "Select no unit: every living enemy", ("All Enemies", "AllEnemyUnits")),
    ModeFacts(TargetMode.SELF, _NOBODY, Reach.SELF, False, False, "Self",
              "Select no unit: the member playing the card"),
    ModeFacts(TargetMode.SINGLE_ALLY, _PLAYER, Reach.ALLY, False, False, "Single ally",
              "Select one living ally, including the source", ("Single Ally",)),
    ModeFacts(TargetMode.OTHER_ALLY, _PLAYER, Reach.OTHER_ALLY, False, False, "Other ally",
              "Select one living ally other than the source", ("Other Ally",)),
    ModeFacts(TargetMode.ALL_ALLIES, _NOBODY, Reach.ALLY, True, False, "All allies",
              "Select no unit: every living ally", ("All Allies",)),
    ModeFacts(TargetMode.RANDOM_ALLY, _RUNTIME, Reach.ALLY, False, True, "Random ally",
              "Select no unit: the runtime picks one living ally", ("Random Ally",)),
    ModeFacts(TargetMode.RANDOM_OPPONENT, _RUNTIME, Reach.ENEMY, False, True, "Random enemy",
              "Select no unit: the runtime picks one living enemy", ("Random Opponent",)),
    ModeFacts(TargetMode.ANY_UNIT, _PLAYER, Reach.ANY, False, False, "Any unit",
              "Select any living player or enemy unit", ("Any Unit",)),
)  # fmt: skip

#: Every mode's row.
MODE_FACTS: Final[dict[TargetMode, ModeFacts]] = {row.mode: row for row in _ROWS}

#: Every accepted spelling: the canonical names, the guide's spaced names, and GCS aliases.
MODE_NAMES: dict[str, TargetMode] = {
    **{mode.value: mode for mode in TargetMode},
    **{alias: row.mode for row in _ROWS for alias in row.aliases},
}


def single_target(facts: ModeFacts, count: int) -> bool:
    """An effect that can only choose one unit (by the player or at random) is a
    single-target effect; an "all ~" effect, or one choosing several, never is, even when it
    happens to affect one (the rulebook's "Effects that Target a Single Card")."""
    return facts.chooser is not Chooser.NOBODY and count == 1
