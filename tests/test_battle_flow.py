"""Behavior hosts and battle flow: control flow, playability, statuses, reactions, enemies,
the turn loop and the battle's end."""

from __future__ import annotations

from typing import Any

import pytest

from pybridge.runtime import FormatError, Pile, errors, load_battle, play, targets
from pybridge.runtime.turns import end_turn, start_battle

from .builders import action, battle_doc, card, hp, make_battle, of_type, party, unit


def cond(cid: str, test: str, inp: str | None = None, **fields: Any) -> dict[str, Any]:
    node: dict[str, Any] = {"id": cid, "type": "Condition", "test": test, **fields}
    if inp is not None:
        node["ports"] = {"input": inp}
    return node


def src(nid: str, source: str) -> dict[str, Any]:
    return {"id": nid, "type": "UnitSource", "source": source}


# -- control flow -------------------------------------------------------------------------
def branch_card(condition: dict[str, Any], *data: dict[str, Any]) -> dict[str, Any]:
    return card("fork", "None", *data, condition,
                {"id": "b", "type": "Branch", "ports": {"condition": condition["id"]},
                 "then": "yes", "else": "no", "next": "after"},
                {"id": "yes", "type": "GainArmor", "amount": 1, "source": "Self"},
                {"id": "no", "type": "GainArmor", "amount": 10, "source": "Self"},
                {"id": "after", "type": "Heal", "amount": 1, "source": "Self"})  # fmt: skip


@pytest.mark.parametrize(
    ("condition", "units", "armor"),
    [
        (cond("c", "empty", "foes"), None, 10),
        (cond("c", "not_empty", "foes"), None, 1),
        (cond("c", "empty", "dead"), None, 1),  # no dead allies: the fallback path is taken
        (cond("c", "alive", "me"), None, 1),
        (cond("c", "has_status", "me", status="burn"), None, 10),
        (
            cond("c", "has_status", "me", status="burn"),
            [unit("hero", "player", statuses={"burn": 1}), unit("orc")],
            1,
        ),
        (cond("c", "compare", "foes", measure="count", op=">=", value=3), None, 1),
        (cond("c", "compare", "foes", measure="count", op=">", value=3), None, 10),
        (
            cond("c", "compare", "me", measure="hp_percent", op="<", value=50),
            [unit("hero", "player", hp=9, max_hp=20), unit("orc")],
            1,
        ),
        (cond("c", "compare", "me", measure="hp", op="==", value=20), None, 1),
        (cond("c", "compare", "me", measure="stacks", status="burn", op="==", value=0), None, 1),
        (cond("c", "compare", None, measure="energy", op="==", value=3), None, 1),
        (cond("c", "compare", None, measure="turn", op="!=", value=1), None, 10),
        (cond("c", "compare", None, measure="hand_size", op="==", value=0), None, 1),
    ],
)
def test_branch_takes_the_arm_its_condition_chooses(condition, units, armor) -> None:
    b = make_battle(branch_card(condition, src("foes", "AllOpponents"), src("me", "Self"),
                                src("dead", "AllDeadAllies")), units=units)  # fmt: skip
    events = play(b, "h1")
    hero = b.unit("hero")
    assert hero is not None and hero.armor == armor
    arm = "then" if armor == 1 else "else"
    assert of_type(events, "branch") == [{"type": "branch", "node": "b", "arm": arm}]
    assert [e["node"] for e in events if e["type"] in ("armor", "heal")] == [
        "yes" if arm == "then" else "no",
        "after",
    ]  # the flow continues after the Branch


def test_an_empty_selector_takes_the_fallback_path() -> None:
    # Guide: "Check whether the collection is empty before the Action and use Branch to enter
    # a fallback path"
    b = make_battle(card("hunt", "None",
        src("foes", "AllOpponents"),
        {"id": "dragons", "type": "Filter", "where": {"tag": "dragon"}, "ports": {"input": "foes"}},
        cond("found", "not_empty", "dragons"),
        {"id": "b", "type": "Branch", "ports": {"condition": "found"}, "then": "slay",
         "else": "fallback"},
        {"id": "slay", "type": "DealDamage", "amount": 50, "ports": {"target": "dragons"}},
        {"id": "fallback", "type": "Draw", "count": 1}), draw=["hunt"])  # fmt: skip
    events = play(b, "h1")
    assert of_type(events, "damage") == [] and b.piles[Pile.HAND] == ["d1"]


def test_a_closed_gate_ends_its_arm_only() -> None:
    b = make_battle(card("g", "None",
        src("dead", "AllDeadAllies"), cond("any_dead", "not_empty", "dead"),
        {"id": "b", "type": "Branch", "ports": {"condition": "any_dead"}, "else": "gate",
         "next": "after"},
        {"id": "gate", "type": "Gate", "ports": {"condition": "any_dead"}, "next": "never"},
        {"id": "never", "type": "GainArmor", "amount": 5, "source": "Self"},
        {"id": "after", "type": "GainArmor", "amount": 1, "source": "Self"}))  # fmt: skip
    events = play(b, "h1")
    assert of_type(events, "gate_closed") == [{"type": "gate_closed", "node": "gate"}]
    assert b.units[0].armor == 1


@pytest.mark.parametrize(
    ("nodes", "where", "message"),
    [
        (
            [{"id": "a", "type": "GainArmor", "amount": 1, "source": "Self", "next": "a"}],
            "nodes[0].next",
            "may not loop or merge",
        ),
        (
            [
                {"id": "a", "type": "GainArmor", "amount": 1, "source": "Self", "next": "b"},
                {"id": "b", "type": "GainArmor", "amount": 1, "source": "Self", "next": "a"},
            ],
            "nodes[1].next",
            "already entered from start",
        ),
        (
            [
                {"id": "a", "type": "GainArmor", "amount": 1, "source": "Self"},
                {"id": "b", "type": "GainArmor", "amount": 1, "source": "Self"},
            ],
            "nodes[1].id",
            "never reached",
        ),
        (
            [
                src("s", "Self"),
                cond("c", "empty", "s"),
                {
                    "id": "a",
                    "type": "Branch",
                    "ports": {"condition": "c"},
                    "then": "x",
                    "else": "x",
                },
                {"id": "x", "type": "Draw", "count": 1},
            ],
            "nodes[2].else",
            "already entered",
        ),
        (
            [
                src("s", "Self"),
                {"id": "a", "type": "Branch", "ports": {"condition": "s"}, "then": "x"},
                {"id": "x", "type": "Draw", "count": 1},
            ],
            "nodes[1].ports.condition",
            "takes condition, but 's' yields units",
        ),
        (
            [{"id": "a", "type": "Gate", "next": "x"}, {"id": "x", "type": "Draw", "count": 1}],
            "nodes[0].ports.condition",
            "missing required field",
        ),
        (
            [
                src("s", "Self"),
                cond("c", "compare", "s", measure="energy", op="<", value=1),
                {"id": "a", "type": "Gate", "ports": {"condition": "c"}},
            ],
            "nodes[1].ports.input",
            "reads the battle",
        ),
        (
            [
                cond("c", "has_status", None, status="burn"),
                {"id": "a", "type": "Gate", "ports": {"condition": "c"}},
            ],
            "nodes[0].ports.input",
            "required by test 'has_status'",
        ),
        (
            [
                src("s", "Self"),
                cond("c", "empty", "s", value=3),
                {"id": "a", "type": "Gate", "ports": {"condition": "c"}},
            ],
            "nodes[1].value",
            "not used by test 'empty'",
        ),
        (
            [{"id": "a", "type": "DealDamage", "amount": "stacks", "source": "Self"}],
            "nodes[0].amount",
            "only allowed in a status Behavior",
        ),
    ],
)
def test_malformed_flows_are_refused(nodes, where: str, message: str) -> None:
    behavior = {
        "start": nodes[-1]["id"] if nodes[-1]["type"] == "Gate" else nodes[0]["id"],
        "nodes": nodes,
    }
    if nodes[0]["type"] == "UnitSource" or nodes[0]["type"] == "Condition":
        behavior["start"] = next(n["id"] for n in nodes if n["type"] in ("Branch", "Gate", "Draw"))
    doc = battle_doc([{"id": "c", "name": "C", "target": "None", "behavior": behavior}])
    with pytest.raises(FormatError) as info:
        load_battle(doc)
    assert info.value.where == f"cards[0].behavior.{where}", str(info.value)
    assert message in str(info.value)


# -- playability --------------------------------------------------------------------------
def finisher(**extra: Any) -> dict[str, Any]:
    return card("finisher", "SingleEnemy",
                src("foes", "AllOpponents"),
                {"id": "weak", "type": "Filter", "where": {"hp_percent_max": 50},
                 "ports": {"input": "foes"}},
                cond("someone_weak", "not_empty", "weak"),
                action("DealDamage", amount=5, source="Opponent"),
                playable_if=[{"condition": "someone_weak", "reason": "No enemy is weakened."}],
                **extra)  # fmt: skip


def test_a_card_whose_condition_fails_is_refused_with_its_reason() -> None:
    b = make_battle(finisher())
    info = targets(b, "h1")
    assert (info.playable, info.reason) == (False, "No enemy is weakened.")
    with pytest.raises(errors.NotPlayable, match="No enemy is weakened"):
        play(b, "h1", "orc")
    assert hp(b)["orc"] == 20


def test_a_card_whose_condition_holds_plays() -> None:
    b = make_battle(finisher(), units=[*party()[:4], unit("orc", hp=5, max_hp=20), unit("troll")])
    assert targets(b, "h1").playable
    play(b, "h1", "troll")
    assert hp(b)["troll"] == 15


def test_playable_if_must_name_a_condition_node() -> None:
    doc = battle_doc([dict(finisher(), playable_if=[{"condition": "foes", "reason": "x"}])])
    with pytest.raises(FormatError, match=r"playable_if\[0\]\.condition"):
        load_battle(doc)


# -- statuses -----------------------------------------------------------------------------
BURN = {
    "id": "burn",
    "name": "Burn",
    "decay_on": "turn_start",
    "decay": 1,
    "hooks": {
        "turn_start": {
            "start": "s",
            "nodes": [{"id": "s", "type": "DealDamage", "amount": "stacks", "source": "Self"}],
        }
    },
}
THORNS = {
    "id": "thorns",
    "name": "Thorns",
    "hooks": {
        "attacked": {
            "start": "p",
            "nodes": [{"id": "p", "type": "DealDamage", "amount": "stacks", "source": "Opponent"}],
        }
    },
}
STRENGTH = {"id": "strength", "name": "Strength", "damage_dealt": 1}
VULNERABLE = {
    "id": "vulnerable",
    "name": "Vulnerable",
    "damage_taken": 2,
    "decay_on": "turn_end",
    "decay": "all",
}
STATUSES = [BURN, THORNS, STRENGTH, VULNERABLE]
SLASH = {
    "id": "slash",
    "name": "Slash",
    "target": "SingleEnemy",
    "behavior": {
        "start": "h",
        "nodes": [{"id": "h", "type": "DealDamage", "amount": 5, "source": "Opponent"}],
    },
}


def test_burn_hurts_its_owner_at_its_turn_start_and_decays() -> None:
    units = [unit("hero", "player", statuses={"burn": 3}), unit("orc", statuses={"burn": 2})]
    b = make_battle(units=units, statuses=STATUSES)
    events = end_turn(b)
    # the enemy's burn ticks at the enemy turn's start, the hero's at the next player turn
    assert [(e["unit"], e["amount"]) for e in of_type(events, "damage")] == [
        ("orc", 2),
        ("hero", 3),
    ]
    assert [u.statuses for u in b.units] == [{"burn": 2}, {"burn": 1}]
    hooks = of_type(events, "status_hook")
    assert hooks[0] == {
        "type": "status_hook",
        "unit": "orc",
        "status": "burn",
        "hook": "turn_start",
    }


def test_burn_that_ends_removes_the_status() -> None:
    b = make_battle(
        units=[unit("hero", "player", statuses={"burn": 1}), unit("orc")], statuses=STATUSES
    )
    end_turn(b)
    assert b.units[0].statuses == {} and hp(b)["hero"] == 19


def test_status_modifiers_change_attacks_only() -> None:
    units = [
        unit("hero", "player", statuses={"strength": 2}),
        unit("orc", statuses={"vulnerable": 1}),
    ]
    b = make_battle(card("hit", "SingleEnemy", action("DealDamage", amount=5, source="Opponent")),
                    card("self_harm", "Self", action("DealDamage", amount=5, source="Self")),
                    units=units, statuses=STATUSES)  # fmt: skip
    events = play(b, "h1", "orc")
    assert of_type(events, "damage")[0] | {} == of_type(events, "damage")[0]
    assert (of_type(events, "damage")[0]["base"], of_type(events, "damage")[0]["amount"]) == (5, 9)
    play(b, "h2")  # hurting yourself is not an attack: no strength bonus
    assert hp(b) == {"hero": 15, "orc": 11}
    end_turn(b)
    assert b.unit("orc").statuses == {}  # type: ignore[union-attr]  # decays "all"


def test_unknown_statuses_are_inert_counters() -> None:
    b = make_battle(units=[unit("hero", "player", statuses={"mark": 4}), unit("orc")])
    end_turn(b)
    assert b.units[0].statuses == {"mark": 4}


# -- reactions ----------------------------------------------------------------------------
def test_thorns_strike_back_at_the_attacker_through_opponent() -> None:
    units = [unit("hero", "player"), unit("orc", statuses={"thorns": 3}), unit("troll")]
    b = make_battle(
        card("hit", "SingleEnemy", action("DealDamage", amount=5, source="Opponent")),
        units=units,
        statuses=STATUSES,
    )
    events = play(b, "h1", "orc")
    assert of_type(events, "reaction") == [
        {"type": "reaction", "unit": "orc", "status": "thorns", "attacker": "hero"}
    ]
    assert hp(b) == {"hero": 17, "orc": 15, "troll": 20}


def test_a_reaction_can_kill_the_attacker_and_the_battle_goes_on_sensibly() -> None:
    units = [
        unit("hero", "player", hp=2, max_hp=20),
        unit("mage", "player"),
        unit("orc", statuses={"thorns": 3}),
    ]
    b = make_battle(card("hit", "SingleEnemy",
                         {"id": "a", "type": "DealDamage", "amount": 5, "source": "Opponent"},
                         {"id": "b", "type": "GainArmor", "amount": 5, "source": "Self"}),
                    units=units, statuses=STATUSES)  # fmt: skip
    events = play(b, "h1", "orc")
    assert of_type(events, "unit_died")[-1]["unit"] == "hero"
    assert of_type(events, "target_skipped")[-1] == {
        "type": "target_skipped",
        "node": "b",
        "unit": "hero",
        "reason": "dead",
    }
    assert b.active_player == "mage"  # the active role passed on
    assert of_type(events, "active_player") == [{"type": "active_player", "unit": "mage"}]


def test_the_active_role_passes_on_when_the_active_player_leaves_the_field() -> None:
    units = [unit("hero", "player"), unit("mage", "player"), unit("orc")]
    b = make_battle(card("retreat", "None",
                         {"id": "w", "type": "Withdraw", "source": "Self"}),
                    units=units)  # fmt: skip
    events = play(b, "h1")
    assert b.unit("hero").zone.value == "reserve"  # type: ignore[union-attr]
    assert b.active_player == "mage"
    assert of_type(events, "active_player") == [{"type": "active_player", "unit": "mage"}]


def test_a_lone_active_player_in_the_reserve_keeps_the_role() -> None:
    """No one on the field can take it; the battle goes on (the team still stands)."""
    b = make_battle(card("retreat", "None", {"id": "w", "type": "Withdraw", "source": "Self"}),
                    units=[unit("hero", "player"), unit("orc")])  # fmt: skip
    events = play(b, "h1")
    assert b.active_player == "hero" and b.result is None
    assert of_type(events, "active_player") == []


def test_reactions_do_not_chain() -> None:
    units = [unit("hero", "player", statuses={"thorns": 1}), unit("orc", statuses={"thorns": 2})]
    b = make_battle(
        card("hit", "SingleEnemy", action("DealDamage", amount=1, source="Opponent")),
        units=units,
        statuses=STATUSES,
    )
    events = play(b, "h1", "orc")
    assert len(of_type(events, "reaction")) == 1 and hp(b) == {"hero": 18, "orc": 19}


def test_statuses_apply_to_enemy_attacks_and_reactions_hit_enemies_too() -> None:
    units = [
        unit("hero", "player", statuses={"thorns": 2}),
        unit("orc", statuses={"strength": 1}, moves=["slash"]),
    ]
    b = make_battle(units=units, statuses=STATUSES, moves=[SLASH])
    start_battle(b)
    end_turn(b)
    assert hp(b) == {"hero": 14, "orc": 18}  # 5 + 1 strength; 2 thorns back


# -- enemy hosts ----------------------------------------------------------------------------
def enemy_move(mid: str, target: str, *nodes: dict[str, Any]) -> dict[str, Any]:
    first = next(n["id"] for n in nodes if n["type"] not in ("UnitSource", "Filter"))
    return {
        "id": mid,
        "name": mid.title(),
        "target": target,
        "behavior": {"start": first, "nodes": list(nodes)},
    }


@pytest.mark.parametrize(
    ("source", "hit"),
    [
        ("Self", {"goblin"}),
        ("Opponent", {"hero"}),  # the enemy's opponent is the player side's first living unit
        ("AllAllies", {"goblin", "orc"}),  # the enemy's own side
        ("AllOpponents", {"hero", "monk"}),
        ("AllEnemies", {"goblin", "orc"}),  # GCS meaning: the enemy team
    ],
)
def test_an_enemy_host_resolves_sources_from_its_own_side(source: str, hit: set[str]) -> None:
    move = enemy_move(
        "m", "None", {"id": "x", "type": "ApplyStatus", "status": "mark", "source": source}
    )
    units = [
        unit("hero", "player"),
        unit("mage", "player", hp=0, max_hp=9),
        unit("monk", "player"),
        unit("goblin", moves=["m"]),
        unit("orc"),
    ]
    b = make_battle(units=units, moves=[move])
    start_battle(b)
    end_turn(b)
    assert {u.id for u in b.units if u.statuses.get("mark")} == hit


def test_enemy_opponent_reads_its_submitted_target() -> None:
    units = [unit("hero", "player"), unit("monk", "player"), unit("orc", moves=["slash"])]
    b = make_battle(units=units, moves=[SLASH], seed=5)
    start_battle(b)
    chosen = b.unit("orc").intent.target  # type: ignore[union-attr]
    assert chosen in ("hero", "monk")
    end_turn(b)
    assert {k: v for k, v in hp(b).items() if v < 20} == {chosen: 15}


def test_intents_are_telegraphed_with_legal_targets_and_deterministic() -> None:
    def intents(seed: int) -> list[tuple[str, str | None]]:
        units = [
            unit("hero", "player"),
            unit("monk", "player", hp=0, max_hp=5),
            unit("orc", moves=["slash", "guard"]),
            unit("imp", moves=["slash"]),
        ]
        guard = enemy_move(
            "guard", "Self", {"id": "g", "type": "GainArmor", "amount": 3, "source": "Self"}
        )
        b = make_battle(units=units, moves=[SLASH, guard], seed=seed)
        start_battle(b)
        return [(u.intent.move, u.intent.target) for u in b.units if u.intent is not None]

    assert intents(1) == intents(1)
    for seed in range(20):
        for move, target in intents(seed):
            assert target == ("hero" if move == "slash" else None)  # never the dead monk
    assert len({tuple(intents(s)) for s in range(20)}) > 1


def test_a_lost_telegraphed_target_is_rechosen_with_the_same_legality() -> None:
    units = [unit("hero", "player"), unit("monk", "player"), unit("orc", moves=["slash"])]
    b = make_battle(
        card("sacrifice", "None", action("DealDamage", amount=99, source="Target")),
        units=units,
        moves=[SLASH],
    )
    start_battle(b)
    b.unit("orc").intent = type(b.unit("orc").intent)("slash", "monk")  # type: ignore[misc,union-attr]
    b.unit("monk").hp = 0  # type: ignore[union-attr]
    events = end_turn(b)
    assert of_type(events, "enemy_acts")[0]["target"] == "hero"
    assert hp(b)["hero"] == 15


def test_enemies_with_a_playable_move_but_no_legal_target_do_nothing_harmful() -> None:
    units = [unit("hero", "player"), unit("orc", moves=["heal_friend"])]
    heal_friend = enemy_move(
        "heal_friend", "OtherAlly", {"id": "h", "type": "Heal", "amount": 5, "source": "Target"}
    )
    b = make_battle(units=units, moves=[heal_friend])
    start_battle(b)
    events = end_turn(b)
    assert of_type(events, "enemy_acts")[0]["target"] is None
    assert of_type(events, "no_targets")[0]["action"] == "Heal"


# -- the turn loop and the end ------------------------------------------------------------
def test_the_turn_loop_order() -> None:
    units = [unit("hero", "player", statuses={"burn": 1}), unit("orc", moves=["slash"])]
    b = make_battle(
        card("x"), units=units, statuses=STATUSES, moves=[SLASH], hand=["x"], draw=["x"] * 6
    )
    start_battle(b)
    kinds = [e["type"] for e in end_turn(b)]
    order = [
        "turn_ended",
        "card_moved",
        "enemy_turn",
        "enemy_acts",
        "damage",
        "turn_started",
        "status_hook",
        "damage",
        "status_decayed",
        "card_moved",
        "intent",
    ]
    assert [k for k in kinds if k in order] == order[:10] + ["card_moved"] * 4 + ["intent"]
    assert (b.turn, b.energy, len(b.piles[Pile.HAND])) == (2, 3, 5)


def test_victory_when_the_last_enemy_falls() -> None:
    b = make_battle(card("kill", "AllEnemies", action("DealDamage", amount=99,
                                                      source="AllOpponents")), card("x"),
                    hand=["kill", "x"])  # fmt: skip
    events = play(b, "h1")
    assert b.result == "victory"
    assert events[-1] == {"type": "battle_ended", "result": "victory", "turn": 1}
    with pytest.raises(errors.BattleOver):
        play(b, "h2")
    with pytest.raises(errors.BattleOver):
        end_turn(b)


def test_defeat_when_the_party_falls_on_the_enemy_turn() -> None:
    units = [
        unit("hero", "player", hp=4, max_hp=20),
        unit("orc", moves=["slash"]),
        unit("imp", moves=["slash"]),
    ]
    b = make_battle(units=units, moves=[SLASH])
    start_battle(b)
    events = end_turn(b)
    assert b.result == "defeat" and events[-1]["type"] == "battle_ended"
    assert len(of_type(events, "enemy_acts")) == 1  # the imp never acts: the battle is over


def test_a_status_tick_can_end_the_battle() -> None:
    units = [unit("hero", "player"), unit("orc", hp=2, max_hp=9, statuses={"burn": 3})]
    b = make_battle(units=units, statuses=STATUSES)
    events = end_turn(b)
    assert b.result == "victory" and events[-1]["result"] == "victory"
    assert b.turn == 1  # ended during the enemy phase


def test_statuses_moves_intents_and_result_round_trip() -> None:
    from pybridge.runtime import canonical_json

    units = [unit("hero", "player", statuses={"burn": 2}), unit("orc", moves=["slash"])]
    b = make_battle(units=units, statuses=STATUSES, moves=[SLASH])
    start_battle(b)
    text = canonical_json(b)
    import json

    assert canonical_json(load_battle(json.loads(text))) == text
    assert json.loads(text)["units"][1]["intent"] == {"move": "slash", "target": "hero"}


@pytest.mark.parametrize(
    ("patch", "where"),
    [
        ({"units": [unit("hero", "player"), unit("orc", moves=["nope"])]}, "units[1].moves[0]"),
        (
            {
                "units": [
                    unit("hero", "player"),
                    unit("orc", moves=["slash"], intent={"move": "guard"}),
                ]
            },
            "units[1].intent.move",
        ),
        (
            {
                "units": [
                    unit("hero", "player"),
                    unit("orc", moves=["slash"], intent={"move": "slash", "target": "x"}),
                ]
            },
            "units[1].intent.target",
        ),
        ({"statuses": [dict(BURN, decay_on="sometimes")]}, "statuses[0].decay_on"),
        ({"statuses": [dict(BURN, hooks={"on_death": {}})]}, "statuses[0].hooks.on_death"),
        ({"statuses": [BURN, BURN]}, "statuses[1].id"),
        ({"moves": [dict(SLASH, weight=0)]}, "moves[0].weight"),
        ({"result": "draw"}, "result"),
    ],
)
def test_bad_flow_documents_name_the_path(patch: dict[str, Any], where: str) -> None:
    doc = battle_doc(**({"moves": [SLASH]} | {k: v for k, v in patch.items() if k != "units"}))
    if "units" in patch:
        doc["units"] = patch["units"]
    with pytest.raises(FormatError) as info:
        load_battle(doc)
    assert info.value.where == where, str(info.value)
