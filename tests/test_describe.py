"""The describer writes card text from Behaviors in the seeds' gameplay language."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from pybridge.authoring.analysis import Subject
from pybridge.authoring.describe import (
    describe_behavior,
    describe_card,
    describe_move,
    describe_status,
)
from pybridge.authoring.speech import render
from pybridge.authoring.wording import editor_terms
from pybridge.examples import demo_battle
from pybridge.runtime import load_battle, load_library
from pybridge.runtime.context import HostKind
from pybridge.runtime.graph import NODE_TYPES, Behavior, parse_behavior
from pybridge.runtime.model import StatusDef
from pybridge.runtime.modes import TargetMode
from pybridge.runtime.nodes import Role
from pybridge.runtime.reader import Reader
from pybridge.runtime.sources import CARD_SOURCES, UNIT_SOURCES
from pybridge.service import new_protocol

from .builders import first_flow_node

DATA = Path(__file__).resolve().parent / "data"


def behavior(*nodes: dict[str, Any], start: str | None = None) -> Behavior:
    """A Behavior of these nodes, starting at ``start`` or at the first flow node."""
    if start is None:
        start = first_flow_node(nodes)
    return parse_behavior(Reader({"start": start, "nodes": list(nodes)}), allow_stacks=True)


def said(
    *nodes: dict[str, Any],
    mode: str = "None",
    host: HostKind = HostKind.CARD,
    hook: str | None = None,
    start: str | None = None,
    statuses: dict[str, StatusDef] | None = None,
) -> str:
    on_status = host in (HostKind.STATUS, HostKind.REACTION)
    subject = Subject(host, None if on_status else TargetMode(mode), hook=hook)
    return describe_behavior(behavior(*nodes, start=start), subject, statuses)


def unit_source(node_id: str, source: str) -> dict[str, Any]:
    return {"id": node_id, "type": "UnitSource", "source": source}


def card_source(node_id: str, source: str) -> dict[str, Any]:
    return {"id": node_id, "type": "CardSource", "source": source}


def step(node_id: str, kind: str, feeds: str, **fields: Any) -> dict[str, Any]:
    return {"id": node_id, "type": kind, "ports": {"input": feeds}, **fields}


# -- the demo battle ---------------------------------------------------------------------------
DEMO_CARDS = {
    "strike": "Deal 6 damage to the selected enemy.",
    "meteor_strike": "Deal 15 damage to all enemies.",
    "defend": "Gain 5 armor.",
    "mend": "Restore 6 health to an ally.",
    "shield_ally": "Give another ally 6 armor.",
    "prayer": "Restore 4 health to all allies.",
    "inspire": "Give a random ally 2 Strength.",
    "wild_shot": "Deal 9 damage to a random enemy.",
    "hex": "Apply 3 Burn to any unit.",
    "quartermaster": "Put a random Basic Attack card from your draw pile into your hand.",
    "execute": "Deal 10 damage to the enemy with the lowest health.",
    "resurrect": "Revive the first fallen ally with 10 health. Exhaust.",
    "coup_de_grace": "Can only be played if there is an enemy with at most 49% health. "
    "Deal 12 damage to the enemy with the lowest health.",
    "second_wind": "If you are below half health, restore 8 health. Otherwise, gain 5 armor.",
    "sap": "Apply 2 Weak to the selected enemy.",
}
DEMO_MOVES = {
    "slash": "Deal 6 damage to the selected enemy.",
    "guard": "Gain 6 armor.",
    "war_cry": "Give all allies 1 Strength.",
    "smash": "Deal 9 damage to the selected enemy.",
    "firebolt": "Deal 4 damage and apply 2 Burn to a random enemy.",
    "dark_mending": "Restore 6 health to another ally.",
}
DEMO_STATUSES = {
    "burn": "At the start of its turn, takes damage equal to its Burn, then Burn goes down by 1.",
    "strength": "Attacks deal 1 more damage per Strength.",
    "thorns": "When attacked, deals damage equal to its Thorns back to the attacker.",
    "weak": "Attacks deal 2 less damage per Weak. Goes down by 1 at the end of its turn.",
}
#: Where the generated text differs from the demo's authored text (a reported decision, not a
#: bug): "armor" is lower case as in "Gain 6 armor"; buffs to allies follow "Give another ally
#: 6 Armor"; a tag is an adjective of "card"; "at most 49%" is exactly what the filter keeps.
DEMO_DIFFERENCES = {"shield_ally", "inspire", "quartermaster", "coup_de_grace", "war_cry"}


def test_demo_cards_moves_and_statuses_are_described_as_expected() -> None:
    battle = load_battle(demo_battle())
    got = {c: describe_card(d, battle.statuses) for c, d in battle.library.items()}
    assert got == DEMO_CARDS
    assert {m: describe_move(d, battle.statuses) for m, d in battle.moves.items()} == DEMO_MOVES
    statuses = {s: describe_status(d, battle.statuses) for s, d in battle.statuses.items()}
    assert statuses == DEMO_STATUSES


def test_the_demo_texts_that_differ_are_the_known_ones() -> None:
    battle = load_battle(demo_battle())
    authored = {
        **{c: d.text for c, d in battle.library.items()},
        **{m: d.text for m, d in battle.moves.items()},
        **{s: d.text for s, d in battle.statuses.items()},
    }
    generated = {**DEMO_CARDS, **DEMO_MOVES, **DEMO_STATUSES}
    assert {key for key, text in generated.items() if authored[key] != text} == DEMO_DIFFERENCES


def test_every_clean_library_card_is_described_as_authored() -> None:
    library = load_library(json.loads((DATA / "clean_cards.json").read_text("utf-8")))
    assert len(library) >= 25
    for card in library.values():
        assert describe_card(card) == card.text, card.id


# -- every action ------------------------------------------------------------------------------
ACTIONS: list[tuple[dict[str, Any], str]] = [
    ({"type": "Call", "card": "fireball"}, "Use the effect of fireball."),
    (
        {"type": "DealDamage", "amount": 8, "source": "AllOpponents"},
        "Deal 8 damage to all enemies.",
    ),
    ({"type": "DealDamage", "amount": 3, "source": "Self"}, "Take 3 damage."),
    ({"type": "GainArmor", "amount": 6, "source": "Self"}, "Gain 6 armor."),
    ({"type": "GainArmor", "amount": 6, "source": "AllAllies"}, "Give all allies 6 armor."),
    ({"type": "Heal", "amount": 4, "source": "AllAllies"}, "Restore 4 health to all allies."),
    ({"type": "Heal", "amount": 8, "source": "Self"}, "Restore 8 health."),
    (
        {"type": "ApplyStatus", "status": "burn", "stacks": 2, "source": "AllOpponents"},
        "Apply 2 Burn to all enemies.",
    ),
    (
        {"type": "ApplyStatus", "status": "strength", "stacks": 2, "source": "AllAllies"},
        "Give all allies 2 Strength.",
    ),
    ({"type": "ApplyStatus", "status": "strength", "source": "Self"}, "Gain 1 Strength."),
    (
        {"type": "RemoveStatus", "status": "burn", "source": "AllAllies"},
        "Remove all Burn from all allies.",
    ),
    (
        {"type": "RemoveStatus", "status": "weak", "stacks": 1, "source": "Self"},
        "Remove 1 Weak from yourself.",
    ),
    (
        {"type": "Revive", "hp": 10, "source": "AllDeadAllies"},
        "Revive all fallen allies with 10 health.",
    ),
    ({"type": "Withdraw", "source": "AllOpponents"}, "Withdraw all enemies from the field."),
    ({"type": "Withdraw", "source": "Self"}, "Withdraw from the field."),
    ({"type": "Deploy", "source": "AllReserveAllies"}, "Deploy all allies in reserve."),
    (
        {"type": "MoveCard", "to": "hand", "source": "DiscardPile"},
        "Put all cards from your discard pile into your hand.",
    ),
    (
        {"type": "MoveCard", "to": "draw", "source": "ThisCard"},
        "Put this card on top of your draw pile.",
    ),
    (
        {"type": "MoveCard", "to": "draw", "position": "bottom", "source": "ThisCard"},
        "Put this card at the bottom of your draw pile.",
    ),
    (
        {"type": "MoveCard", "to": "exhaust", "source": "HandPile"},
        "Put all cards from your hand into your exhaust pile.",
    ),
    ({"type": "Discard", "source": "HandPile"}, "Discard all cards from your hand."),
    ({"type": "Exhaust", "source": "ThisCard"}, "Exhaust this card."),
    (
        {"type": "MoveCard", "to": "discard", "face_down": True, "source": "HandPile"},
        "Put all cards from your hand into your discard pile face down.",
    ),
    ({"type": "Reveal", "source": "DiscardPile"}, "Reveal all cards from your discard pile."),
    ({"type": "Negate", "source": "CutCards"}, "Negate all cards waiting to resolve."),
    ({"type": "Draw", "count": 2}, "Draw 2 cards from your draw pile."),
    ({"type": "Draw", "count": 1}, "Draw 1 card from your draw pile."),
    ({"type": "GainEnergy", "amount": 2}, "Gain 2 energy."),
]


@pytest.mark.parametrize(
    ("node", "text"), ACTIONS, ids=[f"{n['type']}-{i}" for i, (n, _) in enumerate(ACTIONS)]
)
def test_every_action_is_written_in_gameplay_words(node: dict[str, Any], text: str) -> None:
    assert said({"id": "act", **node}) == text


def test_the_action_table_covers_every_action_type() -> None:
    actions = {name for name, t in NODE_TYPES.items() if t.role is Role.ACTION}
    assert actions == {node["type"] for node, _ in ACTIONS}


def test_moves_and_statuses_speak_of_the_player_and_in_the_third_person() -> None:
    draw_energy = (
        {"id": "d", "type": "Draw", "count": 1, "next": "e"},
        {"id": "e", "type": "GainEnergy", "amount": 1},
    )
    assert said(*draw_energy, host=HostKind.MOVE) == (
        "The player draws 1 card from their draw pile. The player gains 1 energy."
    )
    toss = {"id": "t", "type": "Discard", "source": "HandPile"}
    assert said(toss, host=HostKind.MOVE) == "Discard all cards from the player's hand."
    hurt = {"id": "h", "type": "DealDamage", "amount": "stacks", "source": "Self"}
    on_turn = said(hurt, host=HostKind.STATUS, hook="turn_start")
    assert on_turn == "Takes damage equal to its stacks."


# -- every target mode -------------------------------------------------------------------------
MODES = {
    # mode: (through Target, through Opponent)
    "None": ("no one", "the first enemy"),
    "SingleEnemy": ("the selected enemy", "the selected enemy"),
    "AllEnemies": ("no one", "the first enemy"),
    "Self": ("no one", "the first enemy"),
    "SingleAlly": ("an ally", "the first enemy"),
    "OtherAlly": ("another ally", "the first enemy"),
    "AllAllies": ("no one", "the first enemy"),
    "RandomAlly": ("a random ally", "the first enemy"),
    "RandomOpponent": ("a random enemy", "a random enemy"),
    "AnyUnit": ("any unit", "the selected unit if it is an enemy, otherwise the first enemy"),
}


@pytest.mark.parametrize("mode", list(MODES))
def test_every_target_mode_names_its_selection(mode: str) -> None:
    through_target, through_opponent = MODES[mode]
    hit = {"id": "hit", "type": "DealDamage", "amount": 5}
    assert said({**hit, "source": "Target"}, mode=mode) == f"Deal 5 damage to {through_target}."
    assert said({**hit, "source": "Opponent"}, mode=mode) == f"Deal 5 damage to {through_opponent}."


def test_every_mode_is_in_the_table() -> None:
    assert set(MODES) == {m.value for m in TargetMode}


def test_a_second_mention_of_a_random_or_indefinite_pick_says_that() -> None:
    two = (
        {"id": "a", "type": "Heal", "amount": 5, "source": "Target", "next": "b"},
        {"id": "b", "type": "GainArmor", "amount": 3, "source": "Target"},
    )
    assert (
        said(*two, mode="RandomAlly")
        == "Restore 5 health to a random ally. Give that ally 3 armor."
    )
    assert (
        said(*two, mode="OtherAlly") == "Restore 5 health to another ally. Give that ally 3 armor."
    )
    assert said(*two, mode="SingleEnemy") == (
        "Restore 5 health to the selected enemy. Give the selected enemy 3 armor."
    )


def test_multi_target_cards_count_their_selection() -> None:
    library = load_library(
        {
            "format": "pybridge/cards@1",
            "cards": [
                {
                    "id": "twin",
                    "name": "Twin",
                    "target": "SingleEnemy",
                    "target_count": 2,
                    "behavior": {
                        "start": "h",
                        "nodes": [
                            {"id": "h", "type": "DealDamage", "amount": 5, "source": "Target"}
                        ],
                    },
                },
                {
                    "id": "some",
                    "name": "Some",
                    "target": "SingleEnemy",
                    "target_count": 3,
                    "up_to": True,
                    "target_filter": {"status": "burn"},
                    "behavior": {
                        "start": "h",
                        "nodes": [
                            {"id": "h", "type": "DealDamage", "amount": 5, "source": "Target"}
                        ],
                    },
                },
            ],
        }
    )
    assert describe_card(library["twin"]) == "Deal 5 damage to 2 selected enemies."
    assert describe_card(library["some"]) == "Deal 5 damage to up to 3 selected enemies with Burn."


# -- every source in every host ----------------------------------------------------------------
UNIT_PHRASES = {
    # source: (card, enemy move, status turn hook, status reaction)
    "Self": ("Restore 5 health.", "Restore 5 health.", "Restores 5 health.", "Restores 5 health."),
    "Opponent": ("the first enemy", "the first enemy", "the first enemy", "the attacker"),
    "AllUnits": ("all units",) * 4,
    "ActivePlayer": ("the active party member",) * 4,
    "AllAllies": ("all allies",) * 4,
    "AllOpponents": ("all enemies",) * 4,
    "AllEnemies": (
        "all enemies",
        "all allies",
        "all units on the enemy side",
        "all units on the enemy side",
    ),
    "AllDeadAllies": ("all fallen allies",) * 4,
    "AllReserveAllies": ("all allies in reserve",) * 4,
    "Target": ("no one", "no one", "no one", "the attacker"),  # a reaction submits the attacker
}
HOSTS = [(HostKind.CARD, None), (HostKind.MOVE, None), (HostKind.STATUS, "turn_end"),
         (HostKind.REACTION, "attacked")]  # fmt: skip


@pytest.mark.parametrize("source", list(UNIT_PHRASES))
def test_every_unit_source_in_every_host(source: str) -> None:
    heal = {"id": "heal", "type": "Heal", "amount": 5, "source": source}
    for (host, hook), phrase in zip(HOSTS, UNIT_PHRASES[source], strict=True):
        expected = phrase if phrase.endswith(".") else f"Restore 5 health to {phrase}."
        if host in (HostKind.STATUS, HostKind.REACTION) and not phrase.endswith("."):
            expected = f"Restores 5 health to {phrase}."
        assert said(heal, host=host, hook=hook) == expected, (host, hook)


def test_every_unit_source_is_in_the_table() -> None:
    assert set(UNIT_PHRASES) == set(UNIT_SOURCES)


CARD_PHRASES = {
    # source: (on a card, in an enemy move)
    "ThisCard": ("this card", "this card"),
    "HandPile": ("all cards from your hand", "all cards from the player's hand"),
    "DrawPile": ("all cards from your draw pile", "all cards from the player's draw pile"),
    "DiscardPile": ("all cards from your discard pile", "all cards from the player's discard pile"),
    "ExhaustPile": ("all cards from your exhaust pile", "all cards from the player's exhaust pile"),
    "AllPiles": (
        "all cards from your hand and piles",
        "all cards from the player's hand and piles",
    ),
    "CutCards": ("all cards waiting to resolve", "all cards waiting to resolve"),
    "ChosenCards": ("the chosen card", "the chosen card"),
}


@pytest.mark.parametrize("source", list(CARD_PHRASES))
def test_every_card_source_in_every_host(source: str) -> None:
    exhaust = {"id": "x", "type": "Exhaust", "source": source}
    on_card, in_move = CARD_PHRASES[source]
    assert said(exhaust) == f"Exhaust {on_card}."
    assert said(exhaust, host=HostKind.MOVE) == f"Exhaust {in_move}."
    assert said(exhaust, host=HostKind.STATUS, hook="turn_start") == f"Exhausts {in_move}."


def test_every_card_source_is_in_the_table() -> None:
    assert set(CARD_PHRASES) == set(CARD_SOURCES)


# -- selector chains ---------------------------------------------------------------------------
def hit(port: str) -> dict[str, Any]:
    return {"id": "hit", "type": "DealDamage", "amount": 5, "ports": {"target": port}}


def move_to_hand(port: str) -> dict[str, Any]:
    return {"id": "mv", "type": "MoveCard", "to": "hand", "ports": {"target": port}}


FOES = unit_source("foes", "AllOpponents")
DRAW = card_source("pile", "DrawPile")
CHAINS: list[tuple[tuple[dict[str, Any], ...], str]] = [
    (
        (FOES, step("s", "Sort", "foes", by="hp"), step("t", "Take", "s", count=1), hit("t")),
        "Deal 5 damage to the enemy with the lowest health.",
    ),
    (
        (
            FOES,
            step("s", "Sort", "foes", by="hp", order="desc"),
            step("p", "PickElement", "s", index=-1),
            hit("p"),
        ),
        "Deal 5 damage to the enemy with the lowest health.",
    ),
    (
        (
            FOES,
            step("s", "Sort", "foes", by="hp", order="desc"),
            step("p", "PickElement", "s", index=1),
            hit("p"),
        ),
        "Deal 5 damage to the enemy with the 2nd highest health.",
    ),
    (
        (
            FOES,
            step("s", "Sort", "foes", by="status", status="burn", order="desc"),
            step("t", "Take", "s", count=2),
            hit("t"),
        ),
        "Deal 5 damage to the 2 enemies with the most Burn.",
    ),
    (
        (FOES, step("s", "Sort", "foes", by="armor"), step("t", "Take", "s", count=1), hit("t")),
        "Deal 5 damage to the enemy with the least armor.",
    ),
    (
        (
            FOES,
            step("s", "Sort", "foes", by="tier", order="desc"),
            step("t", "Take", "s", count=1),
            hit("t"),
        ),
        "Deal 5 damage to the enemy with the highest tier.",
    ),
    (
        (FOES, step("s", "Sort", "foes", by="max_hp"), step("t", "Take", "s", count=1), hit("t")),
        "Deal 5 damage to the enemy with the lowest maximum health.",
    ),
    ((FOES, step("t", "Take", "foes", count=1), hit("t")), "Deal 5 damage to the first enemy."),
    ((FOES, step("t", "Take", "foes", count=2), hit("t")), "Deal 5 damage to the first 2 enemies."),
    (
        (FOES, step("p", "PickElement", "foes", index=2), hit("p")),
        "Deal 5 damage to the 3rd enemy.",
    ),
    (
        (FOES, step("p", "PickElement", "foes", index=-2), hit("p")),
        "Deal 5 damage to the 2nd to last enemy.",
    ),
    ((FOES, step("r", "RandomElements", "foes"), hit("r")), "Deal 5 damage to a random enemy."),
    (
        (FOES, step("r", "RandomElements", "foes", count=2), hit("r")),
        "Deal 5 damage to up to 2 random enemies.",
    ),
    (
        (
            unit_source("all", "AllUnits"),
            step("f", "Filter", "all", where={"team": "enemy", "tag": "goblin", "status": "burn"}),
            hit("f"),
        ),
        "Deal 5 damage to all Goblin enemies with Burn.",
    ),
    (
        (FOES, step("f", "Filter", "foes", where={"tier": 2, "hp_percent_min": 50}), hit("f")),
        "Deal 5 damage to all tier 2 enemies with at least 50% health.",
    ),
    (
        (FOES, step("f", "Filter", "foes", where={"tier_min": 2, "tier_max": 3}), hit("f")),
        "Deal 5 damage to all enemies of tier 2 to 3.",
    ),
    (
        (
            unit_source("me", "Self"),
            step("f", "Filter", "me", where={"hp_percent_max": 30}),
            {"id": "heal", "type": "Heal", "amount": 5, "ports": {"target": "f"}},
        ),
        "Restore 5 health if you have at most 30% health.",
    ),
    (
        (DRAW, step("t", "Take", "pile", count=1), move_to_hand("t")),
        "Put the top card of your draw pile into your hand.",
    ),
    (
        (DRAW, step("t", "Take", "pile", count=3), move_to_hand("t")),
        "Put the top 3 cards of your draw pile into your hand.",
    ),
    (
        (DRAW, step("p", "PickElement", "pile", index=-1), move_to_hand("p")),
        "Put the bottom card of your draw pile into your hand.",
    ),
    (
        (DRAW, step("p", "PickElement", "pile", index=2), move_to_hand("p")),
        "Put the 3rd card from the top of your draw pile into your hand.",
    ),
    (
        (DRAW, step("r", "RandomElements", "pile"), move_to_hand("r")),
        "Put a random card from your draw pile into your hand.",
    ),
    (
        (
            DRAW,
            step("f", "Filter", "pile", where={"rarity": "rare", "keyword": "Exhaust"}),
            step("r", "RandomElements", "f", count=2),
            move_to_hand("r"),
        ),
        "Put up to 2 random Rare cards from your draw pile with Exhaust into your hand.",
    ),
    (
        (DRAW, step("f", "Filter", "pile", where={"cost": 0}), move_to_hand("f")),
        "Put all cards from your draw pile that cost 0 into your hand.",
    ),
    (
        (
            DRAW,
            step("s", "Sort", "pile", by="cost", order="desc"),
            step("t", "Take", "s", count=1),
            move_to_hand("t"),
        ),
        "Put the card with the highest cost from your draw pile into your hand.",
    ),
    (
        (
            card_source("cut", "CutCards"),
            step("t", "Take", "cut", count=1),
            {"id": "no", "type": "Negate", "ports": {"target": "t"}},
        ),
        "Negate the newest card waiting to resolve.",
    ),
    (
        (
            unit_source("gone", "AllDeadAllies"),
            step("t", "Take", "gone", count=1),
            {"id": "up", "type": "Revive", "hp": 10, "ports": {"target": "t"}},
        ),
        "Revive the first fallen ally with 10 health.",
    ),
    (
        (
            unit_source("bench", "AllReserveAllies"),
            step("t", "Take", "bench", count=1),
            {"id": "go", "type": "Deploy", "ports": {"target": "t"}},
        ),
        "Deploy the first ally in reserve.",
    ),
]


@pytest.mark.parametrize(("nodes", "text"), CHAINS, ids=range(len(CHAINS)))
def test_selector_chains_read_as_a_phrase(nodes: tuple[dict[str, Any], ...], text: str) -> None:
    assert said(*nodes) == text


def test_a_filtered_selection_becomes_a_condition_of_the_sentence() -> None:
    picked = unit_source("picked", "Target")
    burning = step("f", "Filter", "picked", where={"status": "burn", "hp_percent_max": 30})
    assert said(picked, burning, hit("f"), mode="SingleEnemy") == (
        "Deal 5 damage to the selected enemy if it has Burn and has at most 30% health."
    )


def test_a_snapshot_is_read_as_what_it_froze() -> None:
    hand = card_source("hand", "HandPile")
    snap = {"id": "snap", "type": "Snapshot", "ports": {"input": "hand"}, "next": "toss"}
    toss = {"id": "toss", "type": "Discard", "ports": {"target": "snap"}, "next": "draw"}
    draw = {"id": "draw", "type": "Draw", "count": 3}
    assert said(hand, snap, toss, draw, start="snap") == (
        "Discard all cards from your hand. Draw 3 cards from your draw pile."
    )


# -- conditions and flow -----------------------------------------------------------------------
def condition(**fields: Any) -> dict[str, Any]:
    return {"id": "c", "type": "Condition", **fields}


BRANCH = (
    {"id": "b", "type": "Branch", "ports": {"condition": "c"}, "then": "x", "else": "y"},
    {"id": "x", "type": "GainEnergy", "amount": 1},
    {"id": "y", "type": "Draw", "count": 1},
)
CONDITIONS: list[tuple[tuple[dict[str, Any], ...], str]] = [
    (
        (
            FOES,
            condition(test="compare", measure="count", op=">=", value=3, ports={"input": "foes"}),
        ),
        "there are at least 3 enemies",
    ),
    (
        (
            FOES,
            condition(test="compare", measure="count", op="<", value=2, ports={"input": "foes"}),
        ),
        "there are fewer than 2 enemies",
    ),
    (
        (
            FOES,
            condition(test="compare", measure="count", op="==", value=1, ports={"input": "foes"}),
        ),
        "there is exactly 1 enemy",
    ),
    ((FOES, condition(test="alive", ports={"input": "foes"})), "all enemies are alive"),
    (
        (FOES, condition(test="has_status", status="burn", ports={"input": "foes"})),
        "all enemies have Burn",
    ),
    (
        (FOES, condition(test="compare", measure="hp", op=">=", value=20, ports={"input": "foes"})),
        "the first enemy has at least 20 health",
    ),
    (
        (
            unit_source("t", "Target"),
            condition(
                test="compare",
                measure="stacks",
                status="burn",
                op=">=",
                value=3,
                ports={"input": "t"},
            ),
        ),
        "the selected enemy has at least 3 Burn",
    ),
    (
        (
            unit_source("t", "Target"),
            condition(test="has_status", status="weak", ports={"input": "t"}),
        ),
        "the selected enemy has Weak",
    ),
    (
        (
            unit_source("me", "Self"),
            condition(
                test="compare", measure="hp_percent", op=">=", value=100, ports={"input": "me"}
            ),
        ),
        "you are at full health",
    ),
    (
        (
            unit_source("me", "Self"),
            condition(
                test="compare", measure="hp_percent", op="<=", value=30, ports={"input": "me"}
            ),
        ),
        "you are at or below 30% health",
    ),
    (
        (
            unit_source("me", "Self"),
            condition(test="compare", measure="armor", op=">", value=0, ports={"input": "me"}),
        ),
        "you have armor",
    ),
    (
        (condition(test="compare", measure="energy", op=">", value=1),),
        "you have more than 1 energy",
    ),
    ((condition(test="compare", measure="turn", op="==", value=1),), "it is turn 1"),
    (
        (condition(test="compare", measure="hand_size", op="<=", value=3),),
        "you have at most 3 cards in your hand",
    ),
    (
        (card_source("hand", "HandPile"), condition(test="empty", ports={"input": "hand"})),
        "your hand is empty",
    ),
    (
        (
            unit_source("gone", "AllDeadAllies"),
            condition(test="not_empty", ports={"input": "gone"}),
        ),
        "there is a fallen ally",
    ),
    (
        (
            FOES,
            step("f", "Filter", "foes", where={"tier": 3}),
            condition(test="empty", ports={"input": "f"}),
        ),
        "there is no tier 3 enemy",
    ),
    (
        (
            card_source("hand", "HandPile"),
            step("f", "Filter", "hand", where={"type": "attack"}),
            condition(test="not_empty", ports={"input": "f"}),
        ),
        "there is an Attack in your hand",
    ),
]


@pytest.mark.parametrize(("nodes", "clause"), CONDITIONS, ids=range(len(CONDITIONS)))
def test_conditions_read_as_if_clauses(nodes: tuple[dict[str, Any], ...], clause: str) -> None:
    assert said(*nodes, *BRANCH, mode="SingleEnemy", start="b") == (
        f"If {clause}, gain 1 energy. Otherwise, draw 1 card from your draw pile."
    )


def test_branch_without_then_gate_and_nested_branches() -> None:
    me = unit_source("me", "Self")
    hurt = condition(test="compare", measure="hp_percent", op="<", value=50, ports={"input": "me"})
    rich = {
        "id": "c2",
        "type": "Condition",
        "test": "compare",
        "measure": "energy",
        "op": ">=",
        "value": 2,
    }
    only_else = {"id": "b", "type": "Branch", "ports": {"condition": "c"}, "else": "y"}
    assert said(me, hurt, only_else, BRANCH[2], start="b") == (
        "Unless you are below half health, draw 1 card from your draw pile."
    )
    gate = {"id": "g", "type": "Gate", "ports": {"condition": "c"}, "next": "heal"}
    heal = {"id": "heal", "type": "Heal", "amount": 3, "source": "Self"}
    assert said(me, hurt, gate, heal, host=HostKind.STATUS, hook="turn_end", start="g") == (
        "If it is below half health, restores 3 health."
    )
    nested = (
        {
            "id": "b",
            "type": "Branch",
            "ports": {"condition": "c"},
            "then": "b2",
            "else": "z",
            "next": "w",
        },
        {"id": "b2", "type": "Branch", "ports": {"condition": "c2"}, "then": "x", "else": "y"},
        {"id": "x", "type": "Heal", "amount": 8, "source": "Self"},
        {"id": "y", "type": "Heal", "amount": 4, "source": "Self"},
        {"id": "z", "type": "GainArmor", "amount": 5, "source": "Self"},
        {"id": "w", "type": "Draw", "count": 1},
    )
    assert said(me, hurt, rich, *nested, mode="Self", start="b") == (
        "If you are below half health, if you have at least 2 energy, restore 8 health; "
        "otherwise, restore 4 health. Otherwise, gain 5 armor. Draw 1 card from your draw pile."
    )


def test_playable_if_conditions_and_keywords() -> None:
    library = load_library(json.loads((DATA / "clean_cards.json").read_text("utf-8")))
    assert describe_card(library["refill"]).startswith(
        "Can only be played if you have at most 3 cards in your hand. "
    )
    assert describe_card(library["focus"]).endswith(" Exhaust.")
    assert describe_card(library["vigil"]).endswith(" Retain.")


def _strict_card(**fields: Any) -> str:
    hit = {"id": "h", "type": "DealDamage", "amount": 5, "source": "Target"}
    document = {"format": "pybridge/cards@1", "cards": [
        {"id": "c", "name": "C", "target": "SingleEnemy",
         "behavior": {"start": "h", "nodes": [hit]}, **fields}]}  # fmt: skip
    return describe_card(load_library(document)["c"])


@pytest.mark.parametrize(
    ("fields", "text"),
    [
        ({"choose_on_resolve": True},
         "Deal 5 damage to the selected enemy. Choose its target as it resolves."),
        ({"choose_on_resolve": True, "target_count": 2},
         "Deal 5 damage to 2 selected enemies. Choose its targets as it resolves."),
        ({"on_lost_target": "fail"}, "Deal 5 damage to the selected enemy. If a target is lost "
         "before it resolves, it has no effect."),
        ({"on_lost_target": "skip"}, "Deal 5 damage to the selected enemy. A target lost before "
         "it resolves is skipped; the rest still happens."),
        ({"card_targets": {"zones": ["cut"], "where": {"type": "attack"}}},
         "Can only be played while there is an Attack waiting to resolve. Deal 5 damage to the "
         "selected enemy."),
        ({"card_targets": {"zones": ["discard", "hand", "cut"]}},
         "Can only be played while there is a card in your discard pile, in your hand or "
         "waiting to resolve. Deal 5 damage to the selected enemy."),
        ({"card_targets": {"zones": ["draw"], "where": {"type": "skill", "cost_max": 1}}},
         "Can only be played while there is a Skill that costs 1 or less in your draw pile. "
         "Deal 5 damage to the selected enemy."),
    ],
)  # fmt: skip
def test_the_strict_law_fields_are_described(fields: dict[str, Any], text: str) -> None:
    assert _strict_card(**fields) == text


# -- statuses ----------------------------------------------------------------------------------
def test_statuses_are_named_from_the_battle_definitions() -> None:
    frost = StatusDef("deep_freeze", "Frostbite")
    chill = {
        "id": "c",
        "type": "ApplyStatus",
        "status": "deep_freeze",
        "stacks": 2,
        "source": "AllOpponents",
    }
    assert said(chill) == "Apply 2 Deep Freeze to all enemies."
    assert said(chill, statuses={"deep_freeze": frost}) == "Apply 2 Frostbite to all enemies."


def test_status_modifiers_protection_and_decay() -> None:
    document = {
        "format": "pybridge/battle@1",
        "active_player": "a",
        "units": [{"id": "a", "name": "A", "team": "player", "hp": 5, "max_hp": 5}],
        "statuses": [
            {
                "id": "frail",
                "name": "Frail",
                "damage_taken": 2,
                "decay_on": "turn_end",
                "decay": "all",
            },
            {"id": "veil", "name": "Veil", "protection": "single"},
            {
                "id": "ward",
                "name": "Ward",
                "protection": "all",
                "decay_on": "turn_start",
                "hooks": {
                    "turn_end": {
                        "start": "a",
                        "nodes": [
                            {"id": "a", "type": "GainArmor", "amount": "stacks", "source": "Self"}
                        ],
                    }
                },
            },
        ],
    }
    statuses = load_battle(document).statuses
    texts = {s: describe_status(d, statuses) for s, d in statuses.items()}
    assert texts == {
        "frail": "Takes 2 more damage from attacks per Frail. Wears off at the end of its turn.",
        "veil": "Cannot be targeted by effects that target a single unit.",
        "ward": "At the end of its turn, gains armor equal to its Ward. Cannot be targeted. "
        "Goes down by 1 at the start of its turn.",
    }


# -- never editor vocabulary -------------------------------------------------------------------
def test_nothing_the_describer_writes_uses_editor_vocabulary() -> None:
    """Every table above, every mode and host, and every card of the demo and the test data."""
    texts = [said({"id": "act", **node}) for node, _ in ACTIONS]
    texts += [said(*nodes) for nodes, _ in CHAINS]
    texts += [said(*nodes, *BRANCH, mode="SingleEnemy", start="b") for nodes, _ in CONDITIONS]
    for source in UNIT_SOURCES:
        heal = {"id": "heal", "type": "Heal", "amount": 5, "source": source}
        texts += [said(heal, mode=mode.value) for mode in TargetMode]
        texts += [said(heal, host=host, hook=hook) for host, hook in HOSTS]
    for source in CARD_SOURCES:
        exhaust = {"id": "x", "type": "Exhaust", "source": source}
        texts += [said(exhaust, host=host, hook=hook) for host, hook in HOSTS]
    battle = load_battle(demo_battle())
    texts += [describe_card(card, battle.statuses) for card in battle.library.values()]
    texts += [describe_move(move, battle.statuses) for move in battle.moves.values()]
    texts += [describe_status(s, battle.statuses) for s in battle.statuses.values()]
    for name in ("clean_cards.json", "broken_cards.json"):
        library = load_library(json.loads((DATA / name).read_text("utf-8")))
        texts += [describe_card(card) for card in library.values()]
    assert len(texts) > 250
    offenders = {text: [t.word for t in editor_terms(text)] for text in texts}
    assert {text: words for text, words in offenders.items() if words} == {}


# -- the protocol and the command --------------------------------------------------------------
def test_describe_op_for_a_session_card_and_for_a_definition() -> None:
    proto = new_protocol()
    opened = json.loads(proto.call(json.dumps({"op": "open", "battle": demo_battle()})))
    session = opened["result"]["session"]
    got = json.loads(proto.call(json.dumps({"op": "describe", "session": session, "card": "h8"})))
    said = got["result"].pop("text_message")
    assert got["result"] == {
        "card": "wild_shot",
        "name": "Wild Shot",
        "text": "Deal 9 damage to a random enemy.",
        "authored": "Deal 9 damage to a random enemy.",
    }
    assert said["id"] == "describe.sentence"
    assert render(said) == "Deal 9 damage to a random enemy."
    told = said["params"]["clause"]
    assert told["id"] == "describe.to.to"
    assert told["params"]["target"] == {"id": "describe.target.random_enemy", "params": {}}
    assert told["params"]["actions"]["params"]["body"]["params"] == {"amount": 9}
    missing = json.loads(
        proto.call(json.dumps({"op": "describe", "session": session, "card": "zz"}))
    )
    assert missing["error"]["code"] == "unknown_card" and missing["error"]["where"] == "card"
    definition = {
        "id": "guard",
        "name": "Guard",
        "target": "Self",
        "behavior": {
            "start": "a",
            "nodes": [{"id": "a", "type": "GainArmor", "amount": 6, "source": "Self"}],
        },
    }
    got = json.loads(proto.call(json.dumps({"op": "describe", "definition": definition})))
    assert got["result"]["text"] == "Gain 6 armor." and got["result"]["authored"] == ""
    bad = json.loads(proto.call(json.dumps({"op": "describe", "definition": {"id": "x"}})))
    assert bad["error"]["code"] == "invalid_field" and bad["error"]["where"] == "definition.name"
    nothing = json.loads(proto.call(json.dumps({"op": "describe"})))
    assert nothing["error"]["code"] == "invalid_field"


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "pybridge.cli", *args], capture_output=True, text=True, check=False
    )


def test_describe_command_prints_one_card_or_all() -> None:
    one = run_cli("describe", "execute")
    assert one.returncode == 0
    assert one.stdout == "Deal 10 damage to the enemy with the lowest health.\n"
    every = run_cli("describe", "--all")
    assert every.returncode == 0
    assert (
        "card inspire (Inspire)\n  authored:  A random ally gains 2 Strength.\n"
        "  generated: Give a random ally 2 Strength.\n" in every.stdout
    )
    assert (
        "card strike (Strike)\n  authored:  Deal 6 damage to the selected enemy.\n"
        "  generated: same\n" in every.stdout
    )
    assert every.stdout.endswith("25 definitions, 5 with a generated text that differs\n")


def test_describe_command_reads_a_library_and_refuses_unknown_ids() -> None:
    library = str(DATA / "clean_cards.json")
    run = run_cli("describe", "purge", "--file", library)
    assert run.returncode == 0 and run.stdout == "Exhaust up to 2 random cards from your hand.\n"
    unknown = run_cli("describe", "nope")
    assert unknown.returncode == 2 and "no card, move or status 'nope'" in unknown.stderr
    usage = run_cli("describe")
    assert usage.returncode == 2 and "CARD_ID" in usage.stderr
    broken = run_cli("describe", "x", "--file", str(DATA / "missing.json"))
    assert broken.returncode == 2


def test_describe_command_reads_a_battle_with_its_card_library() -> None:
    """A battle whose cards come from a library: its cards and statuses are described once
    the library is named; without it the command says to name it."""
    demo = Path(__file__).resolve().parent.parent / "demo_project"
    battle, library = demo / "battles" / "party_battle.json", demo / "cards" / "mechanics.json"
    common = ["--project", str(demo), "--file", str(battle)]
    card = run_cli("describe", "foresight", *common, "--library", str(library))
    assert card.returncode == 0 and card.stdout == "Scry 3.\n", card.stderr
    status = run_cli("describe", "burn", *common, "--library", str(library))
    assert status.returncode == 0 and status.stdout.startswith("At the start of its turn"), status
    alone = run_cli("describe", "burn", *common)
    assert alone.returncode == 2 and '"foresight"' in alone.stderr
    assert "(name the card library the battle is opened with: --library FILE)" in alone.stderr
