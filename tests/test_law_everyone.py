"""One law for everyone, through the protocol: enemies under the strict law, single-target
protection and random picks, several card types, battle order, the turn and the Cut, units in
the reserve.

Each test is a reproduction kept from issue 20 (its item number is in the test's docstring).
"""

from __future__ import annotations

from typing import Any

import pytest

from pybridge.runtime import load_battle
from pybridge.runtime.model import Zone
from pybridge.runtime.turns import end_turn

from .builders import action, battle_doc, card, move, unit
from .protocol_support import Session, refused_document, types

WARD = {"id": "ward", "name": "Ward", "protection": "all"}
VEIL = {"id": "veil", "name": "Veil", "protection": "single"}
BITE = move(
    "bite",
    "SingleEnemy",
    {"id": "hit", "type": "DealDamage", "amount": 4, "source": "Target"},
    {"id": "guard", "type": "GainArmor", "amount": 5, "source": "Self"},
    response=False,
)
HIDE = card("hide", "Self", action("ApplyStatus", status="ward", source="Self"))


def of(events: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    return [e for e in events if e["type"] == kind]


# -- 2. one law for everyone -----------------------------------------------------------------
def hidden_party(rules: str, *moves: dict[str, Any], **kw: Any) -> Session:
    """The lone hero can ward itself; the orc's intent is a bite at the hero."""
    ids = [m["id"] for m in moves] or ["bite"]
    units = [unit("hero", "player"), unit("orc", moves=ids)]
    doc = battle_doc([HIDE], units=units, hand=["hide"], rules=rules, statuses=[WARD],
                     moves=list(moves) or [BITE], **kw)  # fmt: skip
    return Session(doc)


def test_under_strict_an_enemy_move_with_no_legal_target_is_not_played() -> None:
    """Item 2: none of its nodes applies, not even the Self armor."""
    s = hidden_party("strict")
    assert s.opened["result"]["events"][0]["move"] == "bite"
    s.events("play", card="h1")  # the hero is warded: the bite has no legal target
    events = s.events("end_turn")
    why = "no legal target: Ward on Hero (will not be the target of any effect)"
    spent = {"hp": 20, "max_hp": 20, "armor": 0, "statuses": {}, "alive": True, "zone": "field",
             "intent": None}  # its intent is spent  # fmt: skip
    (held,) = of(events, "enemy_holds")
    assert held.pop("reason_message")["id"] == "refusal.explained"
    assert held == {"type": "enemy_holds", "unit": "orc", "move": "bite", "name": "Bite",
                    "reason": why, "unit_after": spent}  # fmt: skip
    assert "enemy_acts" not in types(events) and "armor" not in types(events)
    orc = next(u for u in s.state()["units"] if u["id"] == "orc")
    assert orc["armor"] == 0 and orc["intent"] is None  # it telegraphs only what it can play


def test_under_soft_the_same_move_is_played_into_nothing() -> None:
    s = hidden_party("soft")
    s.events("play", card="h1")
    events = s.events("end_turn")
    assert of(events, "enemy_acts")[0]["target"] is None and of(events, "armor")
    assert "enemy_holds" not in types(events)


@pytest.mark.parametrize("mode", ["AllEnemies", "RandomOpponent", "SingleEnemy"])
def test_under_strict_a_response_with_an_empty_range_cannot_be_declared(mode: str) -> None:
    """Item 2: an "all ~" (or random) response needs one legal target, as a card does."""
    quake = move("quake", mode, action("DealDamage", amount=2, source="Target"))
    strike = card("strike", "SingleEnemy", action("DealDamage", amount=1, source="Target"))
    units = [unit("hero", "player", statuses={"ward": 1}), unit("orc", moves=["quake"])]
    doc = battle_doc([strike], units=units, rules="strict", statuses=[WARD], moves=[quake],
                     hand=["strike"])  # fmt: skip
    s = Session(doc)
    s.ok("activate", card="h1", target="orc")
    target = "hero" if mode == "SingleEnemy" else None
    code, where = ("cut", "target") if mode == "SingleEnemy" else ("cut", "move")
    error = s.refused("respond", code, where, unit="orc", move="quake", target=target)
    assert "no legal target" in error["message"] or "not a valid target" in error["message"]
    assert "enemy_responds" not in types(s.events("pass"))  # the AI obeys the same law
    soft = Session({**doc, "rules": "soft"})
    soft.ok("activate", card="h1", target="orc")
    if mode != "SingleEnemy":  # soft: played into an empty range
        assert of(soft.events("respond", unit="orc", move="quake"), "enemy_responds")


# -- 3. a runtime-chosen single target is single-target ------------------------------------
def test_a_random_pick_of_one_is_a_single_target_effect_for_protection() -> None:
    """Item 3: "Effects that Target a Single Card" are "effects that can only choose 1 card
    as its target": a Random Opponent of count 1 can only choose one, so a unit protected
    from single-target effects is not a candidate; a pick of two is not single-target."""
    one = card("one", "RandomOpponent", action("DealDamage", amount=3, source="Target"))
    two = card("two", "RandomOpponent", action("DealDamage", amount=3, source="Target"),
               target_count=2)  # fmt: skip
    units = [unit("hero", "player"), unit("orc", statuses={"veil": 1}), unit("imp")]
    for rules in ("strict", "soft"):
        doc = battle_doc([one, two], units=units, hand=["one", "two"], rules=rules,
                         statuses=[VEIL])  # fmt: skip
        s = Session(doc)
        assert s.ok("targets", card="h1")["range"] == ["imp"]
        assert s.ok("targets", card="h2")["range"] == ["orc", "imp"]
        for seed in range(12):
            picked = of(Session({**doc, "seed": seed}).events("play", card="h1"), "random_target")
            assert picked[0]["unit"] == "imp"
        events = s.events("play", card="h2")
        assert sorted(e["unit"] for e in of(events, "damage")) == ["imp", "orc"]


def test_a_veiled_last_enemy_makes_a_random_single_card_unplayable_under_strict() -> None:
    one = card("one", "RandomOpponent", action("DealDamage", amount=3, source="Target"))
    units = [unit("hero", "player"), unit("orc", statuses={"veil": 1})]
    s = Session(battle_doc([one], units=units, hand=["one"], rules="strict", statuses=[VEIL]))
    assert s.ok("targets", card="h1")["reason"] == (
        "no legal target: Veil on Orc (will not be the target of a single-target effect)"
    )
    s.refused("play", "not_playable", "card", card="h1")


# -- 4. "all Characters and Operations" ------------------------------------------------------
def test_card_targets_may_name_several_card_types() -> None:
    """Item 4: "For effects that target multiple card types such as 'all Characters and
    Operations' etc., it can also be played and resolved as long as just 1 card of any card
    type exists"."""
    sweep = card(
        "sweep",
        "None",
        {"id": "pile", "type": "CardSource", "source": "DiscardPile"},
        {"id": "both", "type": "Filter", "where": {"type": ["character", "operation"]},
         "ports": {"input": "pile"}},
        {"id": "out", "type": "Exhaust", "ports": {"target": "both"}},
        card_targets={"zones": ["discard", "cut"],
                      "where": {"type": ["character", "operation"]}},
    )  # fmt: skip
    kinds = [card("pilot", type="character"), card("raid", type="operation"),
             card("order", type="command")]  # fmt: skip
    for discard, exhausted in ((["raid"], ["x1"]), (["order", "pilot"], ["x2"]), (["order"], [])):
        s = Session(battle_doc([sweep, *kinds], hand=["sweep"], discard=discard, rules="strict"))
        info = s.ok("targets", card="h1")
        if exhausted:
            assert info["playable"], info
            events = s.events("play", card="h1")
            assert [e["card"] for e in of(events, "card_moved") if e["node"] == "out"] == exhausted
        else:
            assert info["reason"] == "no card to target"
            s.refused("play", "not_playable", "card", card="h1")
    state = Session(battle_doc([sweep, *kinds], hand=["sweep"])).state()
    assert state["cards"][-1]["card_targets"]["where"] == {"type": ["character", "operation"]}


# -- 8. AllUnits in battle order ------------------------------------------------------------
def test_all_units_come_in_battle_order() -> None:
    """Item 8: the guide says AllUnits is "Every living player and enemy unit", in no order:
    the runtime gives the battle's order (the document's ``units``), enemies listed first
    included."""
    quake = card("quake", "None", action("DealDamage", amount=1, source="AllUnits"))
    units = [unit("orc"), unit("hero", "player"), unit("imp"), unit("mage", "player")]
    s = Session(battle_doc([quake], units=units, hand=["quake"]))
    assert [e["unit"] for e in of(s.events("play", card="h1"), "damage")] == [
        "orc", "hero", "imp", "mage"]  # fmt: skip


# -- 13. end_turn and the Cut ------------------------------------------------------------------
@pytest.mark.parametrize("rules", ["strict", "soft"])
def test_end_turn_is_refused_while_effects_wait_on_the_cut(rules: str) -> None:
    """Item 13: turn 1's activation used to resolve in turn 2 against a changed battle."""
    strike = card("strike", "SingleEnemy", action("DealDamage", amount=2, source="Target"))
    s = Session(battle_doc([strike], rules=rules, hand=["strike"]))
    s.ok("activate", card="h1", target="orc")
    error = s.refused("end_turn", "cut", "")
    assert "pass or resolve" in error["message"]
    s.events("resolve")
    assert of(s.events("end_turn"), "turn_started")[0]["turn"] == 2


# -- 14. reserve units never act --------------------------------------------------------------
def test_a_unit_in_the_reserve_never_acts() -> None:
    """Item 14: an enemy sent to the reserve loses its intent and does not act; the runtime
    skips a reserve unit even when its intent was set by hand, and a document with one is
    refused (docs/format.md)."""
    banish = card("banish", "SingleEnemy", action("Withdraw", source="Target"))
    units = [unit("hero", "player"), unit("orc", moves=["bite"])]
    doc = battle_doc([banish], units=units, hand=["banish"], moves=[BITE])
    s = Session(doc)
    s.events("play", card="h1", target="orc")
    events = s.events("end_turn")
    assert "enemy_acts" not in types(events)
    battle = load_battle({**doc, "units": [unit("hero", "player"), unit("orc", moves=["bite"])]})
    orc = battle.unit("orc")
    assert orc is not None and orc.intent is None
    from pybridge.runtime.model import Intent

    orc.intent, orc.zone = Intent("bite", "hero"), Zone.RESERVE
    assert "enemy_acts" not in types(end_turn(battle))
    bad = {**doc, "units": [unit("hero", "player"),
                            unit("orc", moves=["bite"], zone="reserve",
                                 intent={"move": "bite", "target": "hero"})]}  # fmt: skip
    assert refused_document(bad)["where"] == "battle.units[1].intent"
