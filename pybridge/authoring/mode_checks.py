"""The checks of a Behavior against its card's target mode (PB101..PB105, PB107..PB110,
PB120): does it read the unit the mode submits, and does it cover the range the mode shows?

A mode is known by its facts (who chooses, which side, area or single) and its words
(:data:`.phrases.MODE_WORDS`); messages name the card's own mode and sources as written.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..runtime.graph import Kind, Node
from ..runtime.mode_table import TargetMode
from .analysis import (
    OWN_SIDE,
    Chain,
    ChainReach,
    Standing,
    Subject,
    affects,
    falls_back,
    limit_field,
    mode_sides,
    reads_selection,
    reduces,
    unit_reach,
)
from .grammar import indefinite
from .phrases import MODE_WORDS

if TYPE_CHECKING:
    from .checks import Checker

_ENEMY_SIDE = frozenset({Standing.OTHER})
_SELF_SIDE = frozenset({Standing.SELF})


# -- PB102, PB103, PB104, PB105, PB120 ---------------------------------------------------------
def check_mode_reads(checker: Checker) -> None:
    """Does the Behavior read the unit the mode submits, through a source that can read it?"""
    subject, mode = checker.subject, checker.subject.mode
    assert mode is not None
    selection = [r for r in checker.reads if reads_selection(r.source, checker.subject)]
    if mode.requires_target and not selection:
        checker.report(
            "PB102",
            f"the {mode_name(subject)} mode makes the player select "
            f"{_what_selected(mode)}, but the Behavior never reads the selection "
            "(no Target or Opponent anywhere)",
            _read_fix(mode),
            at="target",
        )
    elif mode.is_random and not selection:
        checker.report(
            "PB103",
            f"the {mode_name(subject)} mode has the runtime pick "
            f"{_what_selected(mode)} and submit it through Target, but the "
            "Behavior never reads it",
            _read_fix(mode),
            at="target",
        )
    if not mode.chooses_units:
        return  # check_ranges says what a fallback read does where nothing is submitted
    chosen = mode_sides(mode.facts.reach)  # the side of the units the mode submits
    for read in checker.reads:
        if not falls_back(read.source, checker.subject):
            continue
        node = read.node.id
        if chosen <= OWN_SIDE:
            checker.report(
                "PB104",
                f"'{node}' reads {read.source}, but the {mode_name(subject)} mode "
                f"submits an ally; {read.source} only reads a unit on the other side, "
                "so it ignores the ally and falls back to the first living enemy",
                'read the ally through Target (the seed: "Target reads the submitted ally")',
                node,
                "source",
            )
        elif chosen & OWN_SIDE:
            checker.report(
                "PB105",
                f"'{node}' reads {read.source}, but the {mode_name(subject)} mode lets the "
                f"player select an ally too; then {read.source} drops the ally and "
                "hits the first living enemy instead",
                'read the selection through Target (the seed: "Target reads the '
                'submitted unit without a team restriction")',
                node,
                "source",
            )
        elif subject.target_count > 1:
            checker.report(
                "PB120",
                f"'{node}' reads {read.source}, which yields only the first "
                f"of the {subject.target_count} selected units",
                "read the selection through Target, which yields every selected unit",
                node,
                "source",
            )


# -- PB101, PB107, PB108, PB109, PB110 ---------------------------------------------------------
def check_ranges(checker: Checker) -> None:
    """Does the Behavior cover the range a mode that chooses nothing shows, and no more?"""
    subject, mode = checker.subject, checker.subject.mode
    assert mode is not None
    facts = mode.facts
    # the range a mode that chooses nothing shows: the other side, your side, the player
    shown = frozenset() if facts.chooses_units else mode_sides(facts.reach)
    reported: set[str] = set()
    reaches = []
    for action in checker.actions:
        chain = checker.chains.get(action.id)
        if chain is None or chain.kind is not Kind.UNITS:
            continue
        if checker.unread_selection(chain):
            continue  # PB106 already says it
        reach = unit_reach(chain, subject)
        if affects(action, reach):  # else PB112 / PB113 already say it
            reaches.append((action, chain, reach))
    for action, chain, reach in reaches:
        node, at = chain.source_location(action)
        if shown and shown <= OWN_SIDE and Standing.OTHER in reach.sides:
            what = "only the card's player" if shown == _SELF_SIDE else "your side"
            checker.report(
                "PB108",
                f"the {mode_name(subject)} mode shows {what} as its "
                f"range, but '{action.id}' reaches the other side through "
                f"{chain.root}",
                "change the mode to AllEnemies (or None) if the "
                "card is meant to hit enemies, or read Self / AllAllies",
                node,
                at,
            )
            reported.add(node or "")
        elif shown == _SELF_SIDE and Standing.OWN in reach.sides:
            checker.report(
                "PB110",
                f"the {mode_name(subject)} mode shows only the card's player as its "
                f"range, but '{action.id}' also affects other allies through "
                f"{chain.root}",
                "change the mode to AllAllies, or read Self",
                node,
                at,
            )
        elif (
            facts.area
            and shown == _ENEMY_SIDE
            and reach.whole
            and Standing.OTHER in reach.sides
            and reach.sides & OWN_SIDE
        ):
            checker.report(
                "PB110",
                f"the {mode_name(subject)} mode shows the enemies as the card's "
                f"range, but '{action.id}' reads {chain.root}, which also hits "
                "your own party",
                "read AllOpponents",
                node,
                at,
            )
    root_caused = bool(checker.reported & {"PB106", "PB108", "PB112", "PB113"})
    if facts.area and shown == _ENEMY_SIDE:
        whole = any(Standing.OTHER in r.sides and r.whole for _, _, r in reaches)
        limited = [
            (a, c, r) for a, c, r in reaches if Standing.OTHER in r.sides and r.limit is not None
        ]
        if not whole and limited:
            for action, chain, reach in limited:
                node, at = _culprit(chain, action)
                checker.report(
                    "PB101",
                    _aoe_message(mode, action, chain, reach),
                    'read every enemy through AllOpponents (the seed: "All Enemies '
                    "supplies the complete opposing collection through "
                    'AllOpponents"), or make the mode SingleEnemy if one enemy '
                    "is meant",
                    node,
                    at,
                )
                reported.add(node or "")
        elif not (whole or root_caused or any(Standing.OTHER in r.sides for *_, r in reaches)):
            checker.report(
                "PB109",
                f"the {mode_name(subject)} mode shows every enemy as the card's "
                "range, but no action affects an enemy",
                "make the mode None (or Self), or add the effect on AllOpponents",
                at="target",
            )
    elif facts.area and shown == OWN_SIDE and not root_caused:
        if not any(r.sides >= OWN_SIDE and r.whole for _, _, r in reaches):
            checker.report(
                "PB109",
                f"the {mode_name(subject)} mode shows every ally as the card's range, "
                "but no action affects all allies",
                "read AllAllies, or make the mode Self (or None)",
                at="target",
            )
    elif (
        shown == _SELF_SIDE
        and not root_caused
        and not any(Standing.SELF in r.sides for _, _, r in reaches)
    ):
        checker.report(
            "PB109",
            f"the {mode_name(subject)} mode shows the card's player as its range, but no "
            "action affects them",
            "make the mode None, or read Self",
            at="target",
        )
    if not facts.chooses_units:
        for read in checker.reads:
            if falls_back(read.source, subject) and read.node.id not in reported:
                checker.report(
                    "PB107",
                    f"'{read.node.id}' reads {read.source}, but the "
                    f"{mode_name(subject)} mode submits nothing: it resolves to the "
                    "first living enemy, a choice neither the player nor the text "
                    "makes",
                    "make the mode SingleEnemy to let the player choose, "
                    "or say which enemy with AllOpponents into Sort and Take",
                    read.node.id,
                    "source",
                )


def _culprit(chain: Chain, action: Node) -> tuple[str | None, str]:
    """Where a chain gets limited: its first reducing selector, else its source."""
    for step in chain.steps:
        if reduces(step.type):
            return step.id, limit_field(step.type)
    return chain.source_location(action)


def _aoe_message(mode: TargetMode, action: Node, chain: Chain, reach: ChainReach) -> str:
    how = (
        f"{chain.root} (one enemy)"
        if not chain.steps
        else f"{chain.root} reduced to at most {reach.limit}"
    )
    return (
        f"the {mode.value} mode promises every enemy, but '{action.id}' reads {how} and no "
        "action hits them all: the card looks like an area attack in the hand and hits "
        f"{'one enemy' if reach.limit == 1 else 'fewer enemies'} on resolve"
    )


def mode_name(subject: Subject) -> str:
    """The card's mode as the author spelled it in the schema ("SingleEnemy")."""
    return subject.mode.value if subject.mode is not None else "(no mode)"


def _what_selected(mode: TargetMode) -> str:
    """What a mode that submits units submits, with its article: "an enemy", "a unit"."""
    return indefinite(MODE_WORDS[mode].noun or "unit")


def _read_fix(mode: TargetMode) -> str:
    if mode.is_random:
        return (
            "read the unit the runtime picks through Target, or make the mode None if the "
            "Behavior decides on its own"
        )
    if mode_sides(mode.facts.reach) == _ENEMY_SIDE:
        return (
            "read the selected enemy through Opponent or Target, or make the mode None if the "
            "Behavior decides on its own"
        )
    return "read the selected unit through Target, or make the mode None"


def target_fix(subject: Subject) -> str:
    """How to fix a read of the submitted selection where nothing is submitted (PB106)."""
    if subject.on_status:
        return "use Self (the holder) or AllOpponents; in an attacked hook Opponent is the attacker"
    aimed = sorted((m for m in TargetMode if m.chooses_units), key=lambda m: not m.requires_target)
    return (
        f"make the mode one that selects a unit ({', '.join(m.value for m in aimed)}), "
        "or read the units through another source"
    )
