"""The demo duel (pybridge/examples/duel_battle.json) exercises every rule of the strict law
when played as tests/duel_script.py plays it: this checks each moment through the protocol,
so the real-engine tests can rely on the document."""

from __future__ import annotations

from typing import Any

from pybridge.authoring.lint import lint_document
from pybridge.examples import duel_battle

from .duel_script import DUEL, END_TURN, TURN_1, TURN_2, play_through
from .protocol_support import Doc, Session, types


def of(result: Doc, kind: str) -> list[Doc]:
    return [e for e in result["events"] if e["type"] == kind]


def hand_reasons(s: Session) -> dict[str, Any]:
    return {c["id"]: s.ok("targets", card=c["id"])["reason"] for c in s.state()["piles"]["hand"]}


def test_the_duel_is_strict_and_lint_clean() -> None:
    document = duel_battle()
    assert document["rules"] == "strict"
    assert lint_document(document) == []


WARDED = "(will not be the target of any effect)"


def test_the_duel_opens_with_a_warded_rival_and_a_hound_in_the_reserve() -> None:
    s = Session(duel_battle())
    reasons = hand_reasons(s)
    # Twin Shot: only the Drone; the refusal names the units the Ward keeps out of reach.
    twin = f"not enough legal targets: Ward on Signal Beacon and Rival Vex {WARDED}"
    assert reasons["c1"] == twin
    assert reasons["c5"] == "no card to choose"  # Salvage: no attack in the discard pile
    assert [reasons[c] for c in ("c2", "c3", "c4", "c6")] == [None, None, None, None]
    strike = s.ok("targets", card="c3")
    assert strike["candidates"] == ["drone"]
    # Playable, yet two enemies are out of reach: the answer says which and why.
    assert strike["protected"] == [
        {"unit": "beacon", "status": "ward", "protection": "all"},
        {"unit": "vex", "status": "ward", "protection": "all"},
    ]
    refused = s.refused("activate", "not_a_candidate", "target", card="c3", target="vex")
    assert f"Ward on Rival Vex {WARDED}; candidates: drone" in refused["message"]


def test_turn_one_an_arrival_a_fall_a_ward_then_nothing_to_target() -> None:
    s = Session(duel_battle())
    results = play_through(s, TURN_1[:12])
    barrage_pushed, flare, flare_resolves, barrage = results[:4]
    assert barrage_pushed["events"][-1]["collected"] == ["drone"]
    assert of(flare, "enemy_responds")[0]["move"] == "flare"
    assert of(flare_resolves, "deployed")[0]["unit"] == "hound"
    # The "all ~" Barrage collects again as it resolves: the Hound that entered is hit.
    assert of(barrage, "recollected")[0]["units"] == ["drone", "hound"]
    assert {e["unit"] for e in of(barrage, "damage")} == {"drone", "hound"}
    # The Drone blows itself up in answer to the Strike: its locked target is down.
    strike_at_drone = results[7]
    assert of(strike_at_drone, "target_lost") == [
        {"type": "target_lost", "entry": "e3", "unit": "drone", "reason": "dead"}]  # fmt: skip
    assert of(strike_at_drone, "effect_failed")[0]["reason"] == "lost_target"
    # The Rival wards the Hound on the Cut: the Strike aimed at it is lost.
    (ward,) = of(results[9], "enemy_responds")
    assert (ward["unit"], ward["move"], ward["target"]) == ("vex", "aegis", "hound")
    assert of(results[11], "target_lost")[0]["reason"] == "protected"
    # Now every enemy on the field is warded: no card that targets one can be played, and
    # the refusal says whose Ward stops it.
    info = s.ok("targets", card="c1")
    assert info["reason"] == f"no legal target: Ward on Rival Vex and War Hound {WARDED}"
    assert info["refusal"].pop("message") == info["reason_message"]
    assert info["refusal"] == {"code": "no_legal_target", "text": info["reason"], "protected": [
        {"unit": "vex", "status": "ward", "protection": "all"},
        {"unit": "hound", "status": "ward", "protection": "all"}]}  # fmt: skip
    refused = s.refused("activate", "not_playable", "card", card="c1", target=["vex", "hound"])
    assert refused["message"].endswith(f"cannot be played: {info['reason']}")


def test_after_the_ward_turn_one_still_offers_a_choice_for_the_last_energy() -> None:
    s = Session(duel_battle())
    play_through(s, TURN_1[:12])
    assert s.state()["energy"] == 1
    reasons = hand_reasons(s)
    assert reasons == {"c1": reasons["c1"], "c4": None, "c5": None, "c6": None}
    assert reasons["c1"] is not None and reasons["c1"].startswith("no legal target: Ward on")
    # Field Dressing heals the ally chosen; Brace arms both: each changes what the Blast does.
    heal = s.ok("targets", card="c4")
    assert heal["candidates"] == ["aya", "kit"]
    healed = s.ok("preview", card="c4", target="kit")["events"]
    assert [(e["type"], e["unit"]) for e in healed if e["type"] == "heal"] == [("heal", "kit")]
    braced = s.ok("preview", card="c6")["events"]
    assert {e["unit"] for e in braced if e["type"] == "armor"} == {"aya", "kit"}


def test_salvage_chooses_an_attack_of_the_discard_pile_as_it_resolves() -> None:
    s = Session(duel_battle())
    play_through(s, TURN_1[:12])
    s.ok("activate", card="c5")
    s.refused("pass", "target_required", "choices.e7")
    late = s.cut()[0]["late_choice"]
    assert late == {"at": "resolution", "chooses": "cards", "zones": ["discard"],
                    "candidates": ["c7", "c3", "c2"]}  # fmt: skip
    assert "x1" in [c["id"] for c in s.state()["piles"]["discard"]]  # Brace: not an attack
    resolved = s.ok("pass", choices={"e7": ["c3"]})
    assert of(resolved, "cards_chosen")[0]["cards"] == ["c3"]
    assert "c3" in [c["id"] for c in resolved["state"]["piles"]["hand"]]


def test_turn_two_a_response_left_unanswered_and_a_two_target_effect_failing_whole() -> None:
    s = Session(duel_battle())
    play_through(s, TURN_1)
    results = play_through(s, TURN_2[:6])
    assert of(results[1], "enemy_responds")[0]["move"] == "aegis"
    assert results[2]["log"][-1]["text"] == "You respond with Strike at Rival Vex."
    # A second ward on the Hound would come to nothing (the first then fails): none is made,
    # and the pass resolves the Strike.
    assert of(results[3], "enemy_responds") == []
    assert of(results[3], "damage")[0]["unit"] == "vex"
    ward, twin = results[4], results[5]
    assert of(ward, "status")[0]["unit"] == "hound"
    assert of(twin, "target_lost") == [
        {"type": "target_lost", "entry": "e8", "unit": "hound", "reason": "protected"}]  # fmt: skip
    assert "damage" not in types(twin["events"])  # the Rival, still a legal target, takes nothing
    s.ok("activate", card="d2")
    assert s.cut()[0]["late_choice"]["candidates"] == ["vex"]  # the Hound is warded
    assert s.ok("pick", entry="e11", chosen=[])["candidates"] == ["vex"]
    results = play_through(s, TURN_2[7:8])
    assert of(results[0], "targets_chosen")[0]["units"] == ["vex"]


def test_suppressing_fire_is_an_up_to_card_confirmed_with_one_target() -> None:
    s = Session(duel_battle())
    play_through(s, [*TURN_1, *TURN_2[:8]])
    picked = s.ok("pick", card="d4", chosen=["vex"])
    assert (picked["can_confirm"], picked["complete"], picked["candidates"]) == (True, False, [])


def test_the_whole_duel_ends_in_victory() -> None:
    s = Session(duel_battle())
    results = play_through(s, DUEL)
    assert results[-1]["state"]["result"] == "victory"
    assert sum(step == END_TURN for step in DUEL) == 2
