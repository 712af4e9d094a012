"""Built-in actions fail soft: skip dead, missing or invalid targets; empty does nothing."""

from __future__ import annotations

from typing import Any

import pytest

from pybridge.runtime import Pile, play

from .builders import action, card, hp, make_battle, of_type, party, unit


def one(node_type: str, mode: str = "None", **fields: Any) -> dict[str, Any]:
    return card("c", mode, action(node_type, **fields))


def test_damage_is_absorbed_by_armor_first() -> None:
    b = make_battle(
        one("DealDamage", "SingleEnemy", amount=8, source="Opponent"),
        units=[unit("hero", "player"), unit("orc", armor=5)],
    )
    events = play(b, "h1", "orc")
    assert of_type(events, "damage") == [
        {
            "type": "damage",
            "node": "act",
            "source": "hero",
            "unit": "orc",
            "base": 8,
            "amount": 8,
            "blocked": 5,
            "hp_before": 20,
            "hp_after": 17,
            "armor_before": 5,
            "armor_after": 0,
        }
    ]


def test_armor_larger_than_damage_blocks_all_of_it() -> None:
    b = make_battle(
        one("DealDamage", "SingleEnemy", amount=3, source="Opponent"),
        units=[unit("hero", "player"), unit("orc", armor=5)],
    )
    play(b, "h1", "orc")
    orc = b.unit("orc")
    assert orc is not None and (orc.hp, orc.armor) == (20, 2)


def test_lethal_damage_stops_at_zero_and_the_unit_stays_retained() -> None:
    b = make_battle(one("DealDamage", "SingleEnemy", amount=50, source="Opponent"))
    events = play(b, "h1", "goblin")
    assert hp(b)["goblin"] == 0 and b.unit("goblin") is not None  # dead, still in the battle
    assert of_type(events, "unit_died") == [{"type": "unit_died", "node": "act", "unit": "goblin"}]


def test_all_enemies_hits_only_the_living() -> None:
    units = [unit("hero", "player"), unit("a"), unit("b", hp=0, max_hp=5), unit("c")]
    b = make_battle(one("DealDamage", "AllEnemies", amount=4, source="AllOpponents"), units=units)
    events = play(b, "h1")
    assert [e["unit"] for e in of_type(events, "damage")] == ["a", "c"]
    assert of_type(events, "target_skipped") == []  # a collective source never yields the dead


def test_damage_with_no_enemy_left_deals_nothing_and_does_not_block() -> None:
    # GCS: "A Deal Damage aimed at AllEnemies when no enemy is left alive deals no damage and
    # does not block the battle."
    units = [unit("hero", "player"), unit("a", hp=0, max_hp=5)]
    b = make_battle(
        card(
            "c",
            "AllEnemies",
            {"id": "boom", "type": "DealDamage", "amount": 9, "source": "AllEnemies"},
            {"id": "guard", "type": "GainArmor", "amount": 2, "source": "Self"},
        ),
        units=units,
    )
    events = play(b, "h1")
    assert of_type(events, "no_targets") == [
        {"type": "no_targets", "node": "boom", "action": "DealDamage"}
    ]
    assert of_type(events, "damage") == []
    assert b.units[0].armor == 2  # the Behavior continued after the empty action
    assert b.piles[Pile.DISCARD] == ["h1"]


def test_an_empty_selector_result_never_picks_a_substitute() -> None:
    # Guide: "the Action produces no effect and does not select another object automatically"
    b = make_battle(
        card(
            "c",
            "None",
            {"id": "foes", "type": "UnitSource", "source": "AllOpponents"},
            {
                "id": "dragons",
                "type": "Filter",
                "where": {"tag": "dragon"},
                "ports": {"input": "foes"},
            },
            {"id": "hit", "type": "DealDamage", "amount": 5, "ports": {"target": "dragons"}},
        )
    )
    play(b, "h1")
    assert set(hp(b).values()) == {20}


def test_duplicates_in_a_collection_are_hit_once() -> None:
    b = make_battle(
        card(
            "c",
            "None",
            {"id": "foes", "type": "UnitSource", "source": "Opponent"},
            {"id": "snap", "type": "Snapshot", "ports": {"input": "foes"}},
            {"id": "hit", "type": "DealDamage", "amount": 5, "ports": {"target": "snap"}},
        )
    )
    b.cards["h1"].card.behavior.nodes  # noqa: B018 - the graph loaded
    play(b, "h1")
    assert hp(b)["goblin"] == 15


def test_heal_never_exceeds_max_hp_and_skips_the_dead() -> None:
    units = [
        unit("hero", "player", hp=15, max_hp=20),
        unit("mage", "player", hp=0, max_hp=20),
        unit("monk", "player", hp=19, max_hp=20),
        unit("orc"),
    ]
    b = make_battle(one("Heal", "AllAllies", amount=4, source="AllAllies"), units=units)
    events = play(b, "h1")
    assert hp(b) == {"hero": 19, "mage": 0, "monk": 20, "orc": 20}
    assert [(e["unit"], e["amount"]) for e in of_type(events, "heal")] == [("hero", 4), ("monk", 1)]


def test_heal_of_a_target_that_died_is_skipped() -> None:
    b = make_battle(
        card(
            "c",
            "SingleAlly",
            {"id": "hurt", "type": "DealDamage", "amount": 99, "source": "Target"},
            {"id": "heal", "type": "Heal", "amount": 5, "source": "Target"},
        )
    )
    events = play(b, "h1", "mage")
    assert hp(b)["mage"] == 0
    assert of_type(events, "target_skipped")[0]["reason"] == "dead"


def test_gain_armor_and_apply_status_stack() -> None:
    b = make_battle(
        card(
            "c",
            "OtherAlly",
            {"id": "a", "type": "GainArmor", "amount": 6, "source": "Target"},
            {"id": "b", "type": "GainArmor", "amount": 2, "source": "Target"},
            {
                "id": "s",
                "type": "ApplyStatus",
                "status": "burn",
                "stacks": 2,
                "source": "AllOpponents",
            },
            {
                "id": "t",
                "type": "ApplyStatus",
                "status": "burn",
                "stacks": 1,
                "source": "AllOpponents",
            },
        )
    )
    events = play(b, "h1", "monk")
    monk = b.unit("monk")
    assert monk is not None and monk.armor == 8
    assert [u.statuses for u in b.units[3:]] == [{"burn": 3}] * 3
    assert of_type(events, "status")[-1] == {
        "type": "status",
        "node": "t",
        "unit": "troll",
        "status": "burn",
        "stacks": 1,
        "total": 3,
    }


def test_revive_raises_the_dead_and_skips_the_living() -> None:
    units = [
        *party()[:1],
        unit("mage", "player", hp=0, max_hp=20, armor=3, statuses={"burn": 2}),
        *party()[2:],
    ]
    b = make_battle(
        card(
            "c",
            "None",
            {"id": "r1", "type": "Revive", "hp": 50, "source": "AllDeadAllies"},
            {"id": "r2", "type": "Revive", "hp": 5, "source": "Self"},
        ),
        units=units,
    )
    events = play(b, "h1")
    mage = b.unit("mage")
    assert mage is not None and (mage.hp, mage.armor, mage.statuses) == (20, 0, {})
    assert of_type(events, "revived") == [
        {"type": "revived", "node": "r1", "unit": "mage", "hp": 20}
    ]
    assert of_type(events, "target_skipped") == [
        {"type": "target_skipped", "node": "r2", "unit": "hero", "reason": "alive"}
    ]


def test_revive_with_no_dead_ally_does_nothing() -> None:
    b = make_battle(one("Revive", hp=5, source="AllDeadAllies"))
    assert of_type(play(b, "h1"), "no_targets")[0]["action"] == "Revive"


# -- card actions ---------------------------------------------------------------------------
def card_battle(*nodes: dict[str, Any]) -> Any:
    return make_battle(
        card("c", "None", *nodes),
        card("x"),
        hand=["c", "x", "x"],
        draw=["x", "x", "x"],
        discard=["x"],
    )


def test_draw_takes_from_the_top_of_the_draw_pile() -> None:
    b = card_battle(action("Draw", count=2))
    play(b, "h1")
    assert b.piles[Pile.HAND] == ["h2", "h3", "d1", "d2"] and b.piles[Pile.DRAW] == ["d3"]


def test_draw_more_than_the_pile_holds_draws_what_there_is() -> None:
    b = make_battle(
        card("c", "None", action("Draw", count=5)),
        card("x"),
        hand=["c"],
        draw=["x"] * 3,
        discard=["x"],
        reshuffle=False,
    )
    events = play(b, "h1")
    assert b.piles[Pile.DRAW] == [] and b.piles[Pile.HAND] == ["d1", "d2", "d3"]
    assert of_type(events, "target_skipped") == [
        {
            "type": "target_skipped",
            "node": "act",
            "reason": "draw_pile_empty",
            "wanted": 5,
            "available": 3,
        }
    ]


def test_an_empty_draw_pile_is_refilled_from_the_shuffled_discard_pile() -> None:
    b = make_battle(
        card("c", "None", action("Draw", count=4)),
        card("x"),
        hand=["c"],
        draw=["x"] * 2,
        discard=["x"] * 3,
    )
    events = play(b, "h1")
    assert b.piles[Pile.HAND][:2] == ["d1", "d2"]  # the old draw pile first
    assert len(b.piles[Pile.HAND]) == 4 and len(b.piles[Pile.DRAW]) == 1
    assert sorted(b.piles[Pile.HAND][2:] + b.piles[Pile.DRAW]) == ["x1", "x2", "x3"]
    assert of_type(events, "reshuffled") == [{"type": "reshuffled", "node": "act", "cards": 3}]


@pytest.mark.parametrize(
    ("position", "expected"),
    [("top", ["x1", "d1", "d2", "d3"]), ("bottom", ["d1", "d2", "d3", "x1"])],
)
def test_move_card_to_the_top_or_bottom(position: str, expected: list[str]) -> None:
    b = card_battle(action("MoveCard", source="DiscardPile", to="draw", position=position))
    play(b, "h1")
    assert b.piles[Pile.DRAW] == expected


def test_move_card_to_hand_defaults_to_the_right_end() -> None:
    b = card_battle(action("MoveCard", source="DiscardPile", to="hand"))
    play(b, "h1")
    assert b.piles[Pile.HAND] == ["h2", "h3", "x1"]


def test_discard_and_exhaust_move_cards_and_report_it() -> None:
    b = card_battle(
        {"id": "hand", "type": "CardSource", "source": "HandPile"},
        {"id": "first", "type": "Take", "count": 1, "ports": {"input": "hand"}},
        {"id": "dis", "type": "Discard", "ports": {"target": "first"}},
        {"id": "exh", "type": "Exhaust", "ports": {"target": "first"}},
    )
    events = play(b, "h1")
    assert [(e["card"], e["from"], e["to"]) for e in of_type(events, "card_moved")] == [
        ("h2", "hand", "discard"),
        ("h3", "hand", "exhaust"),
        ("h1", "resolving", "discard"),
    ]
    assert b.piles[Pile.EXHAUST] == ["h3"]


def test_played_card_goes_to_discard_or_exhaust() -> None:
    b = make_battle(card("a"), card("b", keywords=["Exhaust"]))
    play(b, "h1")
    play(b, "h2")
    assert b.piles[Pile.DISCARD] == ["h1"] and b.piles[Pile.EXHAUST] == ["h2"]


def test_energy_is_paid() -> None:
    b = make_battle(card("a", cost=2), energy=3)
    events = play(b, "h1")
    assert b.energy == 1
    assert (events[0]["energy_before"], events[0]["energy_after"]) == (3, 1)
