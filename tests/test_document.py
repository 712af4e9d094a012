"""Loading validates everything and names the path; dumping is canonical and round-trips."""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path
from typing import Any

import pytest

from pybridge.runtime import (
    FormatError,
    canonical_json,
    dump_battle,
    load_battle,
    load_library,
    play,
)

from .builders import battle_doc, card, party, unit

ROOT = Path(__file__).resolve().parent.parent


def format_md_example() -> dict[str, Any]:
    text = (ROOT / "docs" / "format.md").read_text("utf-8")
    block = re.search(r"## A complete battle\s+```json\n(.*?)```", text, re.S)
    assert block is not None
    doc: dict[str, Any] = json.loads(block.group(1))
    return doc


def test_the_documented_example_loads_and_plays() -> None:
    b = load_battle(format_md_example())
    assert [u.id for u in b.units] == ["knight", "cleric", "slime", "golem"]
    events = play(b, "c2")
    assert [e["unit"] for e in events if e["type"] == "damage"] == ["slime"]
    assert [c for c in b.piles["hand"]] == ["c1", "c3"]  # type: ignore[index]


def test_demo_battle_loads() -> None:
    from pybridge.examples import demo_battle as demo_battle_document

    assert len(load_battle(demo_battle_document()).units) == 6


@pytest.mark.parametrize(
    "doc",
    [
        format_md_example,
        lambda: battle_doc(
            [
                card(
                    "a",
                    "SingleEnemyUnit",
                    {"id": "n", "type": "DealDamage", "amount": 1, "source": "Opponent"},
                )
            ],
            hand=["a"],
        ),
    ],
)
def test_canonical_form_round_trips_identically(doc: Any) -> None:
    b = load_battle(doc())
    text = canonical_json(b)
    again = load_battle(json.loads(text))
    assert canonical_json(again) == text
    assert json.loads(text)["cards"][0]["target"] in ("SingleEnemy", "None")  # aliases resolved


def test_round_trip_after_play_continues_identically() -> None:
    doc = battle_doc(
        [
            card(
                "r",
                "RandomOpponent",
                {"id": "n", "type": "DealDamage", "amount": 1, "source": "Target"},
            )
        ],
        hand=["r", "r", "r"],
    )
    b = load_battle(doc)
    play(b, "h1")
    saved = load_battle(json.loads(canonical_json(b)))
    assert play(saved, "h2") == play(b, "h2")  # the PRNG state travelled with the save
    assert canonical_json(saved) == canonical_json(b)


def test_dump_is_json_ready_and_sorted_keys_are_stable() -> None:
    b = load_battle(format_md_example())
    assert json.loads(json.dumps(dump_battle(b))) == dump_battle(b)


def mutate(path: str, value: Any) -> dict[str, Any]:
    """The documented example with one value replaced (``None`` deletes)."""
    doc = format_md_example()
    target: Any = doc
    keys = [int(k) if k.isdigit() else k for k in re.findall(r"[^.\[\]]+", path)]
    for key in keys[:-1]:
        target = target[key]
    if value is None:
        del target[keys[-1]]
    else:
        target[keys[-1]] = value
    return doc


@pytest.mark.parametrize(
    ("path", "value", "where", "message"),
    [
        ("units[2].hp", -5, "units[2].hp", "0..1000000000, got -5"),
        ("units[2].hp", 13, "units[2].hp", "cannot exceed max_hp (12), got 13"),
        ("units[1].hp", "18", "units[1].hp", 'expected an integer, got "18"'),
        ("units[1].hp", 2.5, "units[1].hp", "expected an integer, got 2.5"),
        ("units[1].hp", True, "units[1].hp", "expected an integer, got true"),
        ("units[0].max_hp", 0, "units[0].max_hp", "1..1000000000, got 0"),
        ("units[0].team", "neutral", "units[0].team", 'player, enemy, got "neutral"'),
        ("units[0].mana", 3, "units[0].mana", "unknown field"),
        (
            "units[3].id",
            "slime",
            "units[3].id",
            'duplicate unit id (the first is units[2]), got "slime"',
        ),
        ("units[3].statuses", {"burn": 0}, "units[3].statuses.burn", "1..1000000000, got 0"),
        ("units[3].tags", ["a", "a"], "units[3].tags[1]", "duplicate entry"),
        ("units[0].art", "art/knight.png", "units[0].art", "a res:// path"),
        ("units[0].art", "res://../secrets.png", "units[0].art", "'..' part"),
        ("units[0].art", "res://art//knight.png", "units[0].art", "no empty"),
        ("units[0].art", "res://art/knight.gd", "units[0].art", 'got "res://art/knight.gd"'),
        ("units[0].art", "res://art/kn\u00eff.png", "units[0].art", "ASCII letters"),
        ("units[0].art", "res://" + "a" * 300 + ".png", "units[0].art", "at most 256"),
        ("units[0].art", 7, "units[0].art", "expected a string, got 7"),
        ("cards[0].art", "user://strike.png", "cards[0].art", "a res:// path"),
        ("cards[0].art", "res://art/strike", "cards[0].art", "png, jpg"),
        ("units[0].name", None, "units[0].name", "missing required field"),
        ("active_player", "slime", "active_player", 'the id of a player unit, got "slime"'),
        ("active_player", "ghost", "active_player", 'got "ghost"'),
        ("format", "pybridge/battle@9", "format", "pybridge/battle@1"),
        ("seed", -1, "seed", "got -1"),
        ("energy", "lots", "energy", 'got "lots"'),
        ("piles.hand[0].card", "fireball", "piles.hand[0].card", "no card with this id"),
        ("piles.hand[0].owner", "slime", "piles.hand[0].owner", "a player unit"),
        (
            "piles.draw[0].id",
            "c1",
            "piles.draw[0].id",
            "duplicate card instance id (the first is piles.hand[0])",
        ),
        ("piles.graveyard", [], "piles.graveyard", "unknown field"),
        ("cards[1].id", "strike", "cards[1].id", "duplicate card id (the first is cards[0])"),
        ("cards[0].target", "Everyone", "cards[0].target", 'got "Everyone"'),
        ("cards[0].cost", 100, "cards[0].cost", "0..99, got 100"),
        ("cards[0].keywords", "Exhaust", "cards[0].keywords", "expected a list"),
        (
            "cards[0].behavior.nodes[0].type",
            "Nuke",
            "cards[0].behavior.nodes[0].type",
            'got "Nuke"',
        ),
        ("cards[0].behavior.nodes[0].amount", -1, "cards[0].behavior.nodes[0].amount", "got -1"),
        (
            "cards[0].behavior.nodes[0].source",
            "Everyone",
            "cards[0].behavior.nodes[0].source",
            'got "Everyone"',
        ),
        (
            "cards[0].behavior.nodes[0].source",
            None,
            "cards[0].behavior.nodes[0].source",
            "needs a source field or a connected target port",
        ),
        (
            "cards[0].behavior.nodes[0].color",
            "red",
            "cards[0].behavior.nodes[0].color",
            "unknown field",
        ),
        ("cards[0].behavior.start", "nope", "cards[0].behavior.start", "no node with this id"),
        (
            "cards[0].behavior.start",
            None,
            "cards[0].behavior.start",
            "missing: the graph has flow nodes",
        ),
        (
            "cards[1].behavior.nodes[1].ports.input",
            "sorted",
            "cards[1].behavior.nodes[1].ports",
            "cycle",
        ),
        (
            "cards[1].behavior.nodes[1].ports.input",
            "ghost",
            "cards[1].behavior.nodes[1].ports.input",
            "no node with this id",
        ),
        (
            "cards[1].behavior.nodes[1].ports.input",
            "hit",
            "cards[1].behavior.nodes[1].ports.input",
            "produces nothing to read",
        ),
        (
            "cards[1].behavior.nodes[1]",
            {"id": "sorted", "type": "CardSource", "source": "HandPile"},
            "cards[1].behavior.nodes[3].ports.target",
            "DealDamage.target takes units, but 'lowest' yields cards",
        ),
        (
            "cards[1].behavior.nodes[1].by",
            "cost",
            "cards[1].behavior.nodes[1].by",
            "cannot sort units by this",
        ),
        (
            "cards[1].behavior.nodes[1].where",
            {"rarity": "rare"},
            "cards[1].behavior.nodes[1].where",
            "unknown field",
        ),
        (
            "cards[1].behavior.nodes[3].next",
            "hit",
            "cards[1].behavior.nodes[3].next",
            "may not loop or merge",
        ),
        (
            "cards[1].behavior.nodes[3].next",
            "foes",
            "cards[1].behavior.nodes[3].next",
            "must name a flow node",
        ),
        (
            "cards[1].behavior.nodes[2].id",
            "foes",
            "cards[1].behavior.nodes[2].id",
            "duplicate node id",
        ),
    ],
)
def test_malformed_documents_name_the_path_and_value(
    path: str, value: Any, where: str, message: str
) -> None:
    doc = mutate(path, value)
    original = copy.deepcopy(doc)
    with pytest.raises(FormatError) as info:
        load_battle(doc)
    assert info.value.where == where, str(info.value)
    assert message in str(info.value)
    assert doc == original  # the input was not touched


def test_filter_conditions_must_suit_the_collection_kind() -> None:
    doc = mutate(
        "cards[1].behavior.nodes[1]",
        {"id": "sorted", "type": "Filter", "where": {"cost_max": 1}, "ports": {"input": "foes"}},
    )
    with pytest.raises(FormatError, match="not a filter for units"):
        load_battle(doc)


def test_top_level_must_be_an_object_and_have_player_units() -> None:
    with pytest.raises(FormatError, match="expected an object"):
        load_battle([1, 2])
    with pytest.raises(FormatError, match="at least one player unit"):
        load_battle(battle_doc(units=[unit("a")]))


def test_unit_limit_and_huge_values_are_refused() -> None:
    with pytest.raises(FormatError, match="at most 64"):
        load_battle(battle_doc(units=party() + [unit(f"u{i}") for i in range(60)]))
    with pytest.raises(FormatError, match=r"units\[0\]\.max_hp"):
        load_battle(battle_doc(units=[unit("hero", "player", hp=10**30)]))
    with pytest.raises(FormatError, match=r"units\[0\]\.id"):
        load_battle(battle_doc(units=[unit("x" * 65, "player")]))


def test_library_documents_load_and_feed_battles() -> None:
    library = load_library({"format": "pybridge/cards@1", "cards": [card("zap")]})
    b = load_battle(battle_doc(hand=["zap"]), library=library)
    assert b.cards["h1"].card is library["zap"]
    with pytest.raises(FormatError, match=r"cards\[1\]\.id"):
        load_library({"format": "pybridge/cards@1", "cards": [card("zap"), card("zap")]})
    with pytest.raises(FormatError, match="defined differently"):
        load_battle(battle_doc([card("zap", "Self")], hand=["zap"]), library=library)


def test_a_clone_is_canonically_identical_and_independent() -> None:
    from pybridge.examples import demo_battle
    from pybridge.runtime.turns import start_battle

    b = load_battle(demo_battle())
    start_battle(b)
    b.units[4].zone = type(b.units[4].zone)("reserve")
    copy = b.clone()
    assert canonical_json(copy) == canonical_json(b)
    play(copy, "h2")
    copy.units[0].statuses["burn"] = 1
    assert canonical_json(copy) != canonical_json(b)
    assert b.units[0].statuses == {} and b.piles != copy.piles


def test_art_paths_are_kept_through_save_and_load_and_never_change_a_play() -> None:
    plain = format_md_example()
    dressed = copy.deepcopy(plain)
    dressed["units"][0]["art"] = "res://art/knight portrait.png"
    dressed["cards"][0]["art"] = "res://art/cards/strike.webp"
    battle = load_battle(dressed)
    text = canonical_json(battle)
    saved = json.loads(text)
    assert saved["units"][0]["art"] == "res://art/knight portrait.png"
    assert saved["cards"][1]["art"] == "res://art/cards/strike.webp"  # cards are sorted by id
    assert "art" not in saved["units"][1] and "art" not in saved["cards"][0]
    assert canonical_json(load_battle(saved)) == text
    assert battle.clone().units[0].art == "res://art/knight portrait.png"
    # The rules never read it: the same plays give the same events.
    assert play(battle, "c1", "slime") == play(load_battle(plain), "c1", "slime")
