"""The worked examples of the seed documents, and the battle log's determinism."""

from __future__ import annotations

import json

from pybridge.runtime import Pile, canonical_json, load_battle, play, preview

from .builders import card, hp, make_battle, of_type, unit


def test_meteor_strike_hits_three_living_enemies_at_once() -> None:
    # Guide: "Meteor Strike above resolves 15 damage on three living enemies at the same time."
    meteor = card(
        "meteor",
        "AllEnemies",
        {"id": "hit", "type": "DealDamage", "amount": 15, "source": "AllOpponents"},
    )
    units = [
        unit("hero", "player"),
        unit("a", hp=30, max_hp=30),
        unit("dead", hp=0, max_hp=9),
        unit("b", hp=30, max_hp=30),
        unit("c", hp=10, max_hp=30),
    ]
    b = make_battle(meteor, units=units)
    events = play(b, "h1")
    assert [(e["unit"], e["amount"]) for e in of_type(events, "damage")] == [
        ("a", 15),
        ("b", 15),
        ("c", 15),
    ]
    assert hp(b) == {"hero": 20, "a": 15, "dead": 0, "b": 15, "c": 0}


def test_draw_pile_basic_attack_random_one_into_hand() -> None:
    # Guide: "filters the draw pile to Basic Attack cards, selects one at random, and moves it
    # into the hand."
    tutor = card(
        "tutor",
        "None",
        {"id": "draw", "type": "CardSource", "source": "DrawPile"},
        {
            "id": "basic",
            "type": "Filter",
            "where": {"tag": "basic_attack"},
            "ports": {"input": "draw"},
        },
        {"id": "one", "type": "RandomElements", "count": 1, "ports": {"input": "basic"}},
        {"id": "move", "type": "MoveCard", "to": "hand", "ports": {"target": "one"}},
    )
    strike = card("strike", tags=["basic_attack"])
    defend = card("defend")
    picked = set()
    for seed in range(25):
        b = make_battle(
            tutor,
            strike,
            defend,
            hand=["tutor"],
            draw=["defend", "strike", "defend", "strike", "strike"],
            seed=seed,
        )
        play(b, "h1")
        (moved,) = b.piles[Pile.HAND]
        assert b.cards[moved].card.id == "strike"
        picked.add(moved)
    assert picked == {"d2", "d4", "d5"}


def test_lowest_hp_living_opponent_by_sort_then_take() -> None:
    # Guide: "sort AllOpponents by HP in ascending order, then take the first element"
    snipe = card(
        "snipe",
        "None",
        {"id": "foes", "type": "UnitSource", "source": "AllOpponents"},
        {"id": "sorted", "type": "Sort", "by": "hp", "ports": {"input": "foes"}},
        {"id": "first", "type": "Take", "count": 1, "ports": {"input": "sorted"}},
        {"id": "hit", "type": "DealDamage", "amount": 5, "ports": {"target": "first"}},
    )
    units = [
        unit("hero", "player"),
        unit("a", hp=12),
        unit("corpse", hp=0, max_hp=5),
        unit("b", hp=7),
        unit("c", hp=7),
    ]
    b = make_battle(snipe, units=units)
    play(b, "h1")
    assert hp(b) == {"hero": 20, "a": 12, "corpse": 0, "b": 2, "c": 7}


def test_the_most_common_targeting_bug_behaves_as_the_seed_warns() -> None:
    # GCS: "An AllEnemyUnits card whose only damage node targets Opponent looks like AoE in the
    # hand and hits one enemy on resolve." The runtime does exactly what the graph says.
    fake_aoe = card(
        "fake",
        "AllEnemyUnits",
        {"id": "hit", "type": "DealDamage", "amount": 5, "source": "Opponent"},
    )
    b = make_battle(fake_aoe)
    play(b, "h1")
    assert hp(b) == {"hero": 20, "mage": 20, "monk": 20, "goblin": 15, "orc": 20, "troll": 20}


def test_preview_reports_the_play_without_changing_the_battle() -> None:
    b = make_battle(
        card(
            "zap",
            "RandomOpponent",
            {"id": "hit", "type": "DealDamage", "amount": 5, "source": "Target"},
        )
    )
    before = canonical_json(b)
    previewed = preview(b, "h1")
    assert canonical_json(b) == before
    assert previewed == play(b, "h1")  # the same random pick: the preview used a copy of the PRNG


def demo_document() -> object:
    from pybridge.examples import demo_battle as demo_battle_document

    return demo_battle_document()


def test_same_seed_and_inputs_give_the_same_event_log() -> None:
    def log(seed: int) -> str:
        doc = demo_document()
        assert isinstance(doc, dict)
        doc["seed"] = seed
        b = load_battle(doc)
        b.energy = 99
        events = []
        for card_id in ("h8", "h7", "h10", "h11", "h8"):
            if card_id in b.piles[Pile.HAND]:
                events += play(b, card_id)
        return json.dumps(events, sort_keys=True)

    assert log(11) == log(11)
    assert len({log(s) for s in range(8)}) > 1
