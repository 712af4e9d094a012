"""The authoring tools read the runtime's facts, not names: a mode by who chooses and which side,
a source by its spec, a node type by its role, states and limits. Every target mode, source and
action has its describe words, and one without them is caught."""

from __future__ import annotations

import dataclasses
from enum import StrEnum

import pytest

from pybridge.authoring.analysis import (
    ALL_SIDES,
    OWN_SIDE,
    Chain,
    ChainReach,
    Standing,
    State,
    Subject,
    emptiness,
    filters,
    only_orders,
    picks,
    reduces,
    root_reach,
    target_sides,
)
from pybridge.authoring.checks import Checker
from pybridge.authoring.codes import Scope
from pybridge.authoring.describe import describe_behavior
from pybridge.authoring.grammar import article
from pybridge.authoring.phrases import MODE_WORDS, missing_words
from pybridge.runtime.context import HostKind
from pybridge.runtime.graph import NODE_TYPES, Behavior, Kind, Node, parse_behavior
from pybridge.runtime.mode_table import TargetMode
from pybridge.runtime.model import StatusDef
from pybridge.runtime.nodes import NodeType, Role
from pybridge.runtime.reader import Reader
from pybridge.runtime.sources import (
    CARD_SOURCES,
    UNIT_SOURCES,
    CardWords,
    UnitSourceSpec,
    UnitWords,
)
from pybridge.runtime.sources import Side as SourceSide

OTHER, OWN, SELF = (frozenset({s}) for s in (Standing.OTHER, Standing.OWN, Standing.SELF))
FIELD, DEAD, RESERVE = (
    frozenset({State.FIELD}),
    frozenset({State.DEAD}),
    frozenset({State.RESERVE}),
)


# -- describe words for every mode, source and action ------------------------------------------
def test_every_mode_source_and_action_has_describe_words() -> None:
    missing = missing_words()
    assert missing == [], (
        "add their words (pybridge/authoring/phrases.py for modes and actions, "
        "a source's describe= where it is declared): " + ", ".join(missing)
    )


def test_a_new_mode_or_action_without_describe_words_is_named() -> None:
    extended = StrEnum(  # type: ignore[misc]
        "Extended", [(m.name, m.value) for m in TargetMode] + [("SPLASH", "Splash")]
    )
    smite = NodeType("Smite", Role.ACTION, "a new action", exits=("next",))
    probe = NodeType("Probe", Role.SELECTOR, "a new selector: not said on its own")
    node_types = {**NODE_TYPES, "Smite": smite, "Probe": probe}
    assert missing_words(extended, node_types) == ["target mode Splash", "action Smite"]


def test_the_runtime_tables_growing_without_words_is_caught(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The same check over the runtime's own tables, as a new row would leave them."""
    monkeypatch.setitem(NODE_TYPES, "Smite", NodeType("Smite", Role.ACTION, "new", exits=("n",)))
    monkeypatch.setitem(UNIT_SOURCES, "AllFallenFoes", _fallen_foes())
    monkeypatch.delitem(MODE_WORDS, TargetMode.OTHER_ALLY)
    assert missing_words() == [
        "target mode OtherAlly",
        "action Smite",
        "unit source AllFallenFoes",
    ]


def test_a_card_source_row_must_name_a_place_the_source_is_in(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    draw = dataclasses.replace(CARD_SOURCES["DrawPile"], words=CardWords("hand"))
    monkeypatch.setitem(CARD_SOURCES, "DrawPile", draw)
    assert missing_words() == ["card source DrawPile (place hand)"]


@pytest.mark.parametrize("mode", [m for m in TargetMode if m.chooses_units])
def test_a_mode_s_words_are_what_the_describer_says_for_its_selection(mode: TargetMode) -> None:
    hit = {"id": "hit", "type": "DealDamage", "amount": 5, "source": "Target"}
    behavior = _behavior(hit)
    said = describe_behavior(behavior, Subject(HostKind.CARD, mode))
    assert said == f"Deal 5 damage to {MODE_WORDS[mode].shows}."


# -- modes, by who chooses and which side ------------------------------------------------------
#: The sides each mode submits through Target, seen from the card's player.
SUBMITTED_SIDES = {
    TargetMode.NONE: frozenset(),
    TargetMode.SINGLE_ENEMY: OTHER,
    TargetMode.ALL_ENEMIES: frozenset(),
    TargetMode.SELF: frozenset(),
    TargetMode.SINGLE_ALLY: OWN_SIDE,
    TargetMode.OTHER_ALLY: OWN,
    TargetMode.ALL_ALLIES: frozenset(),
    TargetMode.RANDOM_ALLY: OWN_SIDE,
    TargetMode.RANDOM_OPPONENT: OTHER,
    TargetMode.ANY_UNIT: ALL_SIDES,
}


@pytest.mark.parametrize("mode", list(TargetMode))
def test_the_selection_a_mode_submits_follows_its_facts(mode: TargetMode) -> None:
    subject = Subject(HostKind.CARD, mode)
    assert subject.submits is mode.chooses_units
    assert target_sides(subject) == SUBMITTED_SIDES[mode]
    filtered = Subject(HostKind.CARD, mode, target_filter={"team": "enemy"})
    assert target_sides(filtered) == SUBMITTED_SIDES[mode] & OTHER


def test_every_mode_is_in_the_sides_table() -> None:
    assert set(SUBMITTED_SIDES) == set(TargetMode)


# -- sources, by their spec --------------------------------------------------------------------
#: (sides, whole, limit, states) of each unit source on a player card in mode None.
CARD_REACH: dict[str, tuple[frozenset[Standing], bool, int | None, frozenset[State]]] = {
    "Self": (SELF, True, 1, FIELD),
    "Opponent": (OTHER, False, 1, FIELD),
    "AllUnits": (ALL_SIDES, True, None, FIELD),
    "ActivePlayer": (OWN_SIDE, False, 1, FIELD),
    "AllAllies": (OWN_SIDE, True, None, FIELD),
    "AllOpponents": (OTHER, True, None, FIELD),
    "AllEnemies": (OTHER, True, None, FIELD),
    "AllDeadAllies": (OWN, True, None, DEAD),  # the Host is on the field: never fallen
    "AllReserveAllies": (OWN, True, None, RESERVE),
    "Target": (frozenset(), False, 0, FIELD),  # nothing is submitted in mode None
}


@pytest.mark.parametrize("source", list(CARD_REACH))
def test_what_a_source_reaches_comes_from_its_spec(source: str) -> None:
    card = Subject(HostKind.CARD, TargetMode.NONE)
    assert root_reach(source, card) == ChainReach(*CARD_REACH[source])


def test_every_unit_source_is_in_the_reach_table() -> None:
    assert set(CARD_REACH) == set(UNIT_SOURCES)


def test_absolute_teams_and_the_selection_depend_on_the_host_and_the_mode() -> None:
    move = Subject(HostKind.MOVE, TargetMode.NONE)
    assert root_reach("AllEnemies", move).sides == OWN_SIDE  # the enemy team is the mover's
    assert root_reach("ActivePlayer", move).sides == OTHER
    assert root_reach("AllEnemies", Subject(HostKind.STATUS)).sides == ALL_SIDES
    pair = Subject(HostKind.CARD, TargetMode.SINGLE_ALLY, target_count=2)
    assert root_reach("Target", pair) == ChainReach(OWN_SIDE, False, 2, FIELD)


def _fallen_foes(words: UnitWords | None = None) -> UnitSourceSpec:
    return UnitSourceSpec(
        "AllFallenFoes",
        lambda ctx: [],
        SourceSide.OPPONENTS,
        frozenset({"dead"}),
        None,
        True,
        "every fallen opposing unit",
        empty="yields fallen enemies, and there may be none",
        words=words,
    )


def test_a_new_source_is_analysed_and_checked_from_its_spec_alone(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    words = UnitWords(("enemy", "enemies"), pre="fallen")
    monkeypatch.setitem(UNIT_SOURCES, "AllFallenFoes", _fallen_foes(words))
    card = Subject(HostKind.CARD, TargetMode.NONE)
    assert root_reach("AllFallenFoes", card) == ChainReach(OTHER, True, None, DEAD)
    chain = Chain(Kind.UNITS, "AllFallenFoes", None)
    assert emptiness(chain, card).maybe == (
        (None, "source", "yields fallen enemies, and there may be none"),
    )
    hit = Node("hit", NODE_TYPES["DealDamage"], {"amount": 3}, {}, "AllFallenFoes")
    told = "Deal 3 damage to all fallen enemies."
    assert _codes(hit, card, told) == ["PB113"]  # damage skips the fallen
    assert _codes(hit, card, "Deal 3 damage.") == ["PB113", "PB301"]  # and there may be none
    raise_dead = Node("rise", NODE_TYPES["Revive"], {"hp": 3}, {}, "AllFallenFoes")
    assert _codes(raise_dead, card, "Revive all fallen enemies with 3 health.") == []


def test_a_new_action_is_checked_by_the_unit_states_it_affects() -> None:
    exhume = NodeType(
        "Exhume", Role.ACTION, "raises the fallen", exits=("next",), acts_on=Kind.UNITS,
        states=frozenset({"dead"}),
    )  # fmt: skip
    node = Node("dig", exhume, {}, {}, "AllAllies")
    scope = _check(node, Subject(HostKind.CARD, TargetMode.NONE), "Exhume all allies.")
    (found,) = scope.out
    assert (found.code, found.node, found.field) == ("PB112", "dig", "source")
    assert found.message == (
        "Exhume 'dig' only affects fallen units, but AllAllies yields living ones: "
        "it never affects anyone"
    )
    assert found.fix == "read AllDeadAllies (into a Take to choose one)"


def _behavior(*nodes: dict[str, object]) -> Behavior:
    first = str(nodes[0]["id"])
    return parse_behavior(Reader({"start": first, "nodes": list(nodes)}), allow_stacks=True)


def _check(node: Node, subject: Subject, text: str = "Do it.") -> Scope:
    behavior = Behavior({node.id: node}, node.id, {})
    scope = Scope("card", "c", "", None)
    scope.enter(behavior, "behavior")
    Checker(scope, behavior, subject, text, None).run()
    return scope


def _codes(node: Node, subject: Subject, text: str = "Do it.") -> list[str]:
    return [d.code for d in _check(node, subject, text).out]


# -- node types, by their role and facts -------------------------------------------------------
def test_selectors_are_told_apart_by_their_facts() -> None:
    kinds = {}
    for name, node_type in NODE_TYPES.items():
        if node_type.role is not Role.SELECTOR:
            continue
        found = [
            what
            for what, test in (
                ("filters", filters),
                ("orders", only_orders),
                ("picks", picks),
                ("reduces", reduces),
            )
            if test(node_type)
        ]
        kinds[name] = (*found, "random") if node_type.random else tuple(found)
    assert kinds == {
        "Filter": ("filters",),
        "Sort": ("orders",),
        "PickElement": ("picks", "reduces"),
        "Take": ("reduces",),
        "RandomElements": ("reduces", "random"),
    }


# -- words -------------------------------------------------------------------------------------
def test_articles_follow_the_sound() -> None:
    said = {noun: article(noun) + noun for noun in ("unit", "ally", "enemy", "card", "Undead")}
    assert said == {
        "unit": "a unit",
        "ally": "an ally",
        "enemy": "an enemy",
        "card": "a card",
        "Undead": "an Undead",
    }


def test_words_from_the_battle_data_are_never_read_as_a_template() -> None:
    statuses = {"curse": StatusDef("curse", "Curse {target} {body}")}
    lift = {"id": "lift", "type": "RemoveStatus", "status": "curse", "stacks": 1, "source": "Self"}
    said = describe_behavior(_behavior(lift), Subject(HostKind.CARD, TargetMode.NONE), statuses)
    assert said == "Remove 1 Curse {target} {body} from yourself."


def test_every_source_has_words_to_say_instead_of_its_name() -> None:
    from pybridge.authoring import wording
    from pybridge.runtime.sources import CARD_SOURCES, UNIT_SOURCES

    assert set(UNIT_SOURCES) | set(CARD_SOURCES) <= set(wording._INSTEAD)
    (term,) = wording.editor_terms("Heal 3 to AllReserveAllies.")
    assert term.instead == '"all allies in reserve"'
    (term,) = wording.editor_terms("Exhaust CutCards.")
    assert term.instead == '"the cards waiting to resolve"'
