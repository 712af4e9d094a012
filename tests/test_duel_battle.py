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


def test_the_duel_opens_with_a_warded_rival_and_a_hound_in_the_reserve() -> None:
    s = Session(duel_battle())
    reasons = hand_reasons(s)
    assert reasons["c1"] == "not enough legal targets"  # Twin Shot: only the Drone
    assert reasons["c5"] == "no card to choose"  # Salvage: no attack in the discard pile
    assert [reasons[c] for c in ("c2", "c3", "c4")] == [None, None, None]
    assert s.ok("targets", card="c3")["candidates"] == ["drone"]


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
    # Now every enemy on the field is warded: no targeting card can be played, "all ~" too.
    reasons = hand_reasons(s)
    assert reasons == {"c1": "no legal target", "c4": "no legal target",
                       "c5": None, "c6": "no legal target"}  # fmt: skip


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


def test_turn_two_a_response_a_ward_that_fails_and_a_two_target_effect_failing_whole() -> None:
    s = Session(duel_battle())
    play_through(s, TURN_1)
    results = play_through(s, TURN_2[:8])
    assert of(results[1], "enemy_responds")[0]["move"] == "aegis"
    assert results[2]["log"][-1]["text"] == "You respond with Strike at Rival Vex."
    assert of(results[3], "enemy_responds")[0]["move"] == "aegis"  # the AI answers again
    assert of(results[5], "damage")[0]["unit"] == "vex"  # the Strike resolves first
    first_ward, twin = results[6], results[7]
    assert of(first_ward, "target_lost")[0]["reason"] == "protected"  # the enemy's fails too
    assert of(first_ward, "effect_failed")[0]["move"] == "aegis"
    assert of(twin, "target_lost") == [
        {"type": "target_lost", "entry": "e8", "unit": "hound", "reason": "protected"}]  # fmt: skip
    assert "damage" not in types(twin["events"])  # the Rival, still a legal target, takes nothing
    s.ok("activate", card="d2")
    assert s.cut()[0]["late_choice"]["candidates"] == ["vex"]  # the Hound is warded
    assert s.ok("pick", entry="e12", chosen=[])["candidates"] == ["vex"]
    results = play_through(s, TURN_2[9:10])
    assert of(results[0], "targets_chosen")[0]["units"] == ["vex"]


def test_suppressing_fire_is_an_up_to_card_confirmed_with_one_target() -> None:
    s = Session(duel_battle())
    play_through(s, [*TURN_1, *TURN_2[:10]])
    picked = s.ok("pick", card="d4", chosen=["vex"])
    assert (picked["can_confirm"], picked["complete"], picked["candidates"]) == (True, False, [])


def test_the_whole_duel_ends_in_victory() -> None:
    s = Session(duel_battle())
    results = play_through(s, DUEL)
    assert results[-1]["state"]["result"] == "victory"
    assert sum(step == END_TURN for step in DUEL) == 2
