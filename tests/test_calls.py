"""Target in every context the guide names: a card's submitted units, a reaction's attacker, and
what a Call node hands the Behavior of the card it runs."""

from __future__ import annotations

import json
from typing import Any

import pytest

from pybridge.authoring.describe import describe_card
from pybridge.authoring.lint import lint_document
from pybridge.protocol import Protocol
from pybridge.runtime import FormatError, errors, load_battle, load_library, play
from pybridge.runtime.calls import MAX_CALL_DEPTH
from pybridge.runtime.context import Context
from pybridge.runtime.narrate import narrate_all
from pybridge.runtime.resolve import run
from pybridge.runtime.turns import end_turn, start_battle

from .builders import battle_doc, card, hp, make_battle, move, of_type, unit


def hit(nid: str, amount: int | str, source: str, **extra: Any) -> dict[str, Any]:
    return {"id": nid, "type": "DealDamage", "amount": amount, "source": source, **extra}


def call(nid: str, card_id: str, **extra: Any) -> dict[str, Any]:
    return {"id": nid, "type": "Call", "card": card_id, **extra}


def library(*cards: dict[str, Any]) -> dict[str, Any]:
    return {"format": "pybridge/cards@1", "cards": list(cards)}


BOLT = card("bolt", "SingleEnemy", hit("h", 4, "Target"))


# -- a reaction submits the attacker --------------------------------------------------------
def test_a_reaction_reads_the_attacker_through_target() -> None:
    spikes = {"id": "spikes", "name": "Spikes", "hooks": {"attacked": {
        "start": "p", "nodes": [hit("p", "stacks", "Target")]}}}  # fmt: skip
    units = [unit("hero", "player"), unit("orc", statuses={"spikes": 3})]
    battle = make_battle(BOLT, units=units, statuses=[spikes])
    events = play(battle, "h1", "orc")
    assert of_type(events, "reaction") == [
        {"type": "reaction", "unit": "orc", "status": "spikes", "attacker": "hero"}
    ]
    assert [(e["source"], e["unit"], e["amount"]) for e in of_type(events, "damage")] == [
        ("hero", "orc", 4),
        ("orc", "hero", 3),
    ]


def test_an_enemy_s_attack_submits_the_enemy_to_the_party_s_reaction() -> None:
    spikes = {"id": "spikes", "name": "Spikes", "hooks": {"attacked": {
        "start": "p", "nodes": [hit("p", 2, "Target")]}}}  # fmt: skip
    claw = move("claw", "SingleEnemy", hit("h", 3, "Opponent"), response=False)
    units = [unit("hero", "player", statuses={"spikes": 1}), unit("orc", moves=["claw"])]
    battle = make_battle(units=units, statuses=[spikes], moves=[claw], hand=[])
    start_battle(battle)
    events = end_turn(battle)
    assert of_type(events, "reaction")[0]["attacker"] == "orc"
    assert hp(battle) == {"hero": 17, "orc": 18}


def test_the_lint_and_the_describer_know_a_reaction_s_target() -> None:
    reaction: dict[str, Any] = {"start": "p", "nodes": [hit("p", 1, "Target")]}
    spikes = {"id": "spikes", "name": "Spikes", "hooks": {"attacked": reaction},
              "text": "When attacked, deal 1 damage back to the attacker."}  # fmt: skip
    doc = battle_doc(statuses=[spikes])
    assert [d.code for d in lint_document(doc)] == []
    turn = {**spikes, "id": "jolt", "hooks": {"turn_end": reaction}}
    assert [d.code for d in lint_document(battle_doc(statuses=[turn]))] == ["PB106"]


# -- a call ---------------------------------------------------------------------------------
def test_a_call_runs_the_card_s_behavior_with_the_caller_s_host_and_targets() -> None:
    twice = card("twice", "SingleEnemy", call("c1", "bolt", next="c2"), call("c2", "bolt"))
    battle = make_battle(BOLT, twice, hand=["twice"])
    events = play(battle, "h1", "orc")
    assert hp(battle)["orc"] == 12
    assert of_type(events, "called") == [
        {"type": "called", "node": "c1", "card": "bolt", "unit": "hero", "targets": ["orc"],
         "depth": 1},
        {"type": "called", "node": "c2", "card": "bolt", "unit": "hero", "targets": ["orc"],
         "depth": 1},
    ]  # fmt: skip
    assert [e["source"] for e in of_type(events, "damage")] == ["hero", "hero"]
    lines = [line["text"] for line in narrate_all(battle, events)]
    assert "Hero uses Bolt on Orc." in lines


def test_a_connected_target_port_is_the_called_behavior_s_target() -> None:
    nova = card("nova", "None", {"id": "foes", "type": "UnitSource", "source": "AllOpponents"},
                call("c", "bolt", ports={"target": "foes"}))  # fmt: skip
    battle = make_battle(BOLT, nova, hand=["nova"])
    events = play(battle, "h1")
    assert hp(battle) == {"hero": 20, "mage": 20, "monk": 20, "goblin": 16, "orc": 16,
                          "troll": 16}  # fmt: skip
    assert of_type(events, "called")[0]["targets"] == ["goblin", "orc", "troll"]


def test_an_unconnected_call_with_nothing_submitted_hands_nothing() -> None:
    blank = card("blank", "None", call("c", "bolt"))
    battle = make_battle(BOLT, blank, hand=["blank"])
    events = play(battle, "h1")
    assert of_type(events, "no_targets") == [{"type": "no_targets", "node": "h",
                                              "action": "DealDamage"}]  # fmt: skip


def test_a_called_attack_is_an_attack_and_its_reactions_see_the_caller() -> None:
    thorns = {"id": "thorns", "name": "Thorns", "hooks": {"attacked": {
        "start": "p", "nodes": [hit("p", "stacks", "Target")]}}}  # fmt: skip
    strength = {"id": "strength", "name": "Strength", "damage_dealt": 1}
    relay = card("relay", "SingleEnemy", call("c", "bolt"))
    units = [unit("hero", "player", statuses={"strength": 2}),
             unit("orc", statuses={"thorns": 2})]  # fmt: skip
    battle = make_battle(BOLT, relay, hand=["relay"], units=units, statuses=[thorns, strength])
    play(battle, "h1", "orc")
    assert hp(battle) == {"hero": 18, "orc": 14}  # 4 + 2 Strength; Thorns strikes the hero


def test_an_enemy_move_calls_a_card_with_the_enemy_as_host() -> None:
    lunge = move("lunge", "SingleEnemy", call("c", "bolt"), response=False)
    units = [unit("hero", "player"), unit("orc", moves=["lunge"])]
    battle = make_battle(BOLT, hand=[], units=units, moves=[lunge])
    start_battle(battle)
    events = end_turn(battle)
    assert of_type(events, "called")[0]["unit"] == "orc"
    assert hp(battle)["hero"] == 16


def test_a_reaction_calls_with_the_attacker_as_target() -> None:
    echo = {"id": "echo", "name": "Echo", "hooks": {"attacked": {
        "start": "c", "nodes": [call("c", "bolt")]}}}  # fmt: skip
    units = [unit("hero", "player"), unit("orc", statuses={"echo": 1})]
    battle = make_battle(BOLT, units=units, statuses=[echo])
    events = play(battle, "h1", "orc")
    assert of_type(events, "called")[0]["targets"] == ["hero"]
    assert hp(battle) == {"hero": 16, "orc": 16}
    assert len(of_type(events, "reaction")) == 1  # the reaction's call does not attack


def test_a_library_card_calls_a_card_the_battle_defines() -> None:
    cards = load_library(library(card("relay", "SingleEnemy", call("c", "bolt"))))
    battle = load_battle(battle_doc(cards=[BOLT], hand=["relay"]), cards)
    play(battle, "h1", "orc")
    assert hp(battle)["orc"] == 16


def test_each_call_charges_the_called_behavior_and_its_depth() -> None:
    inner = card("inner", "SingleEnemy", call("c", "bolt"))
    outer = card("outer", "SingleEnemy", call("c", "inner"))
    battle = make_battle(BOLT, inner, outer)

    def spent(card_id: str) -> int:
        orc = battle.unit("orc")
        assert orc is not None
        ctx = Context(battle, battle.units[0], (orc,))
        run(battle.library[card_id].behavior, ctx)
        return ctx.work[0]

    # bolt: its node and the unit it hits; a call: its node, the called run and its depth
    assert spent("bolt") == 2
    assert spent("inner") == 1 + (2 + 1)
    assert spent("outer") == 1 + (1 + (2 + 2) + 1)


# -- refused when loaded --------------------------------------------------------------------
PING = card("ping", "None", call("c", "pong"))
PONG = card("pong", "None", hit("h", 1, "Self", next="c"), call("c", "ping"))


def test_a_library_refuses_a_cycle_of_calls_naming_it() -> None:
    with pytest.raises(FormatError) as refused:
        load_library(library(PING, PONG))
    assert refused.value.where == "cards[1].behavior.nodes[1].card"
    assert "calls form a cycle: ping -> pong -> ping" in refused.value.message
    with pytest.raises(FormatError, match="pong -> pong"):
        load_library(library(card("pong", "None", call("c", "pong"))))
    assert set(load_library(library(PING))) == {"ping"}  # pong may come from the battle


def test_a_battle_refuses_a_cycle_through_its_library() -> None:
    cards = load_library(library(PING))
    with pytest.raises(FormatError) as refused:
        load_battle(battle_doc(cards=[PONG]), cards)
    assert refused.value.where == "cards[0].behavior.nodes[1].card"
    assert "calls form a cycle: ping -> pong -> ping" in refused.value.message


def test_a_battle_refuses_a_call_to_a_card_it_does_not_hold() -> None:
    with pytest.raises(FormatError, match="no card with this id") as refused:
        load_battle(battle_doc(cards=[PING]))
    assert refused.value.where == "cards[0].behavior.nodes[0].card"
    lunge = move("lunge", "None", call("c", "nowhere"))
    with pytest.raises(FormatError, match="no card with this id"):
        load_battle(battle_doc(units=[unit("hero", "player"), unit("orc", moves=["lunge"])],
                               moves=[lunge]))  # fmt: skip


def test_calls_nest_at_most_the_bound() -> None:
    chain = [card(f"c{i}", "None", call("c", f"c{i + 1}")) for i in range(MAX_CALL_DEPTH)]
    chain.append(card(f"c{MAX_CALL_DEPTH}", "None", hit("h", 1, "Self")))
    battle = load_battle(battle_doc(cards=chain, hand=["c0"]))
    events = play(battle, "h1")
    assert [e["depth"] for e in of_type(events, "called")] == list(range(1, MAX_CALL_DEPTH + 1))
    deeper = [card("top", "None", call("c", "c0")), *chain]
    with pytest.raises(FormatError, match=f"nest {MAX_CALL_DEPTH + 1} deep") as refused:
        load_battle(battle_doc(cards=deeper))
    assert refused.value.where == "cards[0].behavior.nodes[0].card"
    assert "top -> c0 -> c1 -> c2" in refused.value.message


def test_a_chain_of_thousands_of_calls_is_refused_naming_where_and_briefly() -> None:
    """The walk over calls keeps its own stack: a chain far past Python's recursion limit is
    refused like a short one, naming the card, node and field, its chain cut short."""
    length = 1500
    chain = [card(f"k{i}", "None", call("c", f"k{i + 1}")) for i in range(length)]
    chain.append(card(f"k{length}", "None", hit("h", 1, "Self")))
    request = {"op": "open", "battle": battle_doc(cards=chain, hand=["k0"])}
    answer = json.loads(Protocol().call(json.dumps(request)))
    assert answer["error"]["code"] == errors.FormatError.code, answer
    assert answer["error"]["where"] == "battle.cards[0].behavior.nodes[0].card"
    message = answer["error"]["message"]
    assert f"card 'k0', node 'c', field 'card': calls would nest {length} deep" in message
    assert message.endswith(f"k{MAX_CALL_DEPTH} -> k{MAX_CALL_DEPTH + 1} -> ...")
    found = lint_document(battle_doc(cards=chain), "battle.json")
    assert {d.code for d in found} == {"PB122"}
    assert (found[0].id, found[0].node, found[0].field) == ("k0", "c", "card")
    # A cycle closing at its far end is found there, the walk's path named in order.
    looped = [*chain[:-1], card(f"k{length}", "None", call("c", "k0"))]
    (cycle,) = [d for d in lint_document(library(*looped), "cards.json") if "cycle" in d.message]
    assert cycle.id == f"k{length}" and cycle.message.endswith(f"k{length} -> k0")


def test_open_refuses_a_cycle_naming_it() -> None:
    request = {"op": "open", "battle": battle_doc(cards=[PONG]), "libraries": [library(PING)]}
    answer = json.loads(Protocol().call(json.dumps(request)))
    assert not answer["ok"]
    assert "calls form a cycle: ping -> pong -> ping" in answer["error"]["message"]
    assert answer["error"]["code"] == errors.FormatError.code


def test_the_work_budget_bounds_many_calls() -> None:
    """Calls multiply runs like reactions do: a fan of calls is bounded by the request's work."""
    nodes: list[dict[str, Any]] = [call(f"c{i}", "fan1") for i in range(200)]
    fans = [card("fan0", "None", *nodes)]
    for level in range(1, 4):
        fans.append(card(f"fan{level}", "None", *[call(f"c{i}", f"fan{level + 1}")
                                                    for i in range(200)]))  # fmt: skip
    fans.append(card("fan4", "None", hit("h", 1, "Self")))
    battle = load_battle(battle_doc(cards=fans, hand=["fan0"]))
    with pytest.raises(errors.WorkLimit, match="nothing was applied"):
        play(battle, "h1")


# -- lint and describe ----------------------------------------------------------------------
def test_lint_reports_a_cycle_as_pb122_in_a_library_and_a_battle() -> None:
    found = lint_document(library(PING, PONG), "cards.json")
    cycle = [d for d in found if d.code == "PB122"]
    assert [(d.id, d.node, d.field, d.path) for d in cycle] == [
        ("pong", "c", "card", "cards[1].behavior.nodes[1].card")
    ]
    assert "ping -> pong -> ping" in cycle[0].message
    (in_battle,) = lint_document(battle_doc(cards=[PING, PONG]), "battle.json")
    assert (in_battle.code, in_battle.id, in_battle.node) == ("PB122", "pong", "c")
    assert "ping -> pong -> ping" in in_battle.message


def test_describe_names_the_called_card() -> None:
    relay = load_library(library(card("relay", "SingleEnemy", call("c", "bolt"))))["relay"]
    assert describe_card(relay) == "Use the effect of bolt."
