"""The law explains itself: a refusal names the unit a status protects and the status, and the
enemies' response chooser makes no response that would come to nothing."""

from __future__ import annotations

from typing import Any

import pytest

from pybridge.examples import duel_battle
from pybridge.runtime import load_battle
from pybridge.runtime.cut import comes_to_nothing
from pybridge.runtime.modes import PROTECTIONS

from .builders import action, battle_doc, card, move, unit
from .protocol_support import Session

HIT = card("hit", "SingleEnemy", action("DealDamage", amount=3, source="Target"))
TWIN = card("twin", "SingleEnemy", action("DealDamage", amount=3, source="Target"),
            target_count=2)  # fmt: skip
SWEEP = card("sweep", "AllEnemies", action("DealDamage", amount=1, source="AllOpponents"))


def shielded(protection: str, rules: str = "strict") -> dict[str, Any]:
    """The hero against an imp and an orc whose status (``Shell``) has ``protection``."""
    shell = {"id": "shell", "name": "Shell", "protection": protection}
    units = [unit("hero", "player"), unit("imp"), unit("orc", statuses={"shell": 1})]
    return battle_doc([HIT, TWIN, SWEEP], units=units, hand=["hit", "twin", "sweep"],
                      rules=rules, statuses=[shell])  # fmt: skip


@pytest.mark.parametrize("protection", list(PROTECTIONS))
def test_every_protection_is_named_with_its_unit_in_each_refusal(protection: str) -> None:
    s = Session(shielded(protection))
    shield = {"unit": "orc", "status": "shell", "protection": protection}
    words = f"Shell on Orc ({PROTECTIONS[protection]})"
    # A playable card says who is out of reach; aiming at that unit is refused by name.
    hit = s.ok("targets", card="h1")
    assert (hit["playable"], hit["candidates"], hit["protected"]) == (True, ["imp"], [shield])
    refused = s.refused("play", "not_a_candidate", "target", card="h1", target="orc")
    assert words in refused["message"] and "candidates: imp" in refused["message"]
    twin = s.ok("targets", card="h2")
    if protection == "single":  # a two-target effect is no single-target one: not covered
        assert (twin["playable"], twin["candidates"], twin["protected"]) == (
            True, ["imp", "orc"], [])  # fmt: skip
        return
    # Two targets but one legal: the strict law's refusal names the protection.
    assert twin["reason"] == f"not enough legal targets: {words}"
    told = dict(twin["refusal"])
    assert told.pop("message") == twin["reason_message"]
    assert twin["reason_message"]["id"] == "refusal.explained"
    assert told == {"code": "not_enough_legal_targets", "text": twin["reason"],
                    "protected": [shield]}  # fmt: skip
    refused = s.refused("play", "not_playable", "card", card="h2", target=["imp", "orc"])
    assert refused["message"].endswith(f"cannot be played: {twin['reason']}")


@pytest.mark.parametrize("protection", list(PROTECTIONS))
def test_with_the_last_unit_protected_the_refusal_says_whose_status_stops_the_card(
    protection: str,
) -> None:
    document = shielded(protection)
    document["units"] = [u for u in document["units"] if u["id"] != "imp"]
    s = Session(document)
    words = f"Shell on Orc ({PROTECTIONS[protection]})"
    assert s.ok("targets", card="h1")["reason"] == f"no legal target: {words}"
    sweep = s.ok("targets", card="h3")
    if protection == "all":  # an area skips the unit too: nothing is left in its range
        assert sweep["refusal"]["code"] == "no_legal_target"
        assert sweep["reason"] == f"no legal target: {words}"
    else:  # "single" covers single-target effects only
        assert (sweep["playable"], sweep["range"], sweep["protected"]) == (True, ["orc"], [])


def test_under_soft_rules_an_arrow_card_with_no_candidate_names_the_protection() -> None:
    document = shielded("all", rules="soft")
    document["units"] = [u for u in document["units"] if u["id"] != "imp"]
    info = Session(document).ok("targets", card="h1")
    assert info["reason"] == f"no valid target: Shell on Orc ({PROTECTIONS['all']})"
    assert info["refusal"]["code"] == "no_valid_target"


def test_a_refusal_without_a_protection_has_a_code_and_no_units() -> None:
    document = shielded("all")
    document["cards"][0] = {**HIT, "cost": 2}
    document["energy"] = 1
    info = Session(document).ok("targets", card="h1")
    assert info["refusal"] == {"code": "energy", "text": "needs 2 energy, 1 left", "protected": [],
                               "message": {"id": "refusal.energy",
                                           "params": {"cost": 2, "energy": 1}}}  # fmt: skip
    assert Session(shielded("all")).ok("targets", card="h1")["refusal"] is None


def test_an_enemy_response_aimed_at_a_protected_unit_is_refused_by_name() -> None:
    ward = {"id": "ward", "name": "Ward", "protection": "all"}
    bash = move("bash", "SingleEnemy", action("DealDamage", amount=2, source="Target"))
    units = [unit("hero", "player", statuses={"ward": 1}), unit("mage", "player"),
             unit("orc", moves=["bash"])]  # fmt: skip
    s = Session(battle_doc([HIT], units=units, hand=["hit"], rules="strict", moves=[bash],
                           statuses=[ward]))  # fmt: skip
    s.ok("activate", card="h1", target="orc")
    error = s.refused("respond", "cut", "target", unit="orc", move="bash", target="hero")
    assert (
        "Ward on Hero (will not be the target of any effect); candidates: mage" in error["message"]
    )


# -- the response chooser ----------------------------------------------------------------------
def flares_waiting(s: Session) -> list[str]:
    return [e["id"] for e in s.cut() if e.get("move") == "flare"]


def test_the_beacon_does_not_answer_every_pass_with_a_flare_that_would_come_to_nothing() -> None:
    """The Beacon's flare calls the Hound in and burns the Beacon out. With one flare waiting
    on the Cut, a second would only take its place (the first then fails, its user down):
    the Beacon makes it no more, and the next enemy with a response that changes something
    answers instead."""
    s = Session(duel_battle())
    s.ok("activate", card="c2")  # Barrage
    first = s.ok("pass")["events"]
    assert [e["move"] for e in first if e["type"] == "enemy_responds"] == ["flare"]
    s.ok("activate", card="c3", target="drone")
    answer = [e for e in s.ok("pass")["events"] if e["type"] == "enemy_responds"]
    assert [(e["unit"], e["move"]) for e in answer] == [("drone", "self_destruct")]
    assert len(flares_waiting(s)) == 1
    # A second Self-Destruct does change something: it hits before the Strike kills the Drone.
    s.ok("activate", card="c7", target="drone")
    answer = [e for e in s.ok("pass")["events"] if e["type"] == "enemy_responds"]
    assert [(e["unit"], e["move"]) for e in answer] == [("drone", "self_destruct")]
    assert len(flares_waiting(s)) == 1
    failed = []
    while s.cut():
        failed += [e for e in s.ok("pass")["events"] if e["type"] == "effect_failed"]
    # Only the first Self-Destruct fails (the second blew the Drone up); no flare fails.
    assert [e["move"] for e in failed if e["move"] is not None] == ["self_destruct"]
    hound = next(u for u in s.state()["units"] if u["id"] == "hound")
    assert hound["zone"] == "field"  # the one flare made did call it


def test_comes_to_nothing_judges_by_the_cut_as_it_stands() -> None:
    battle = load_battle(duel_battle())
    from pybridge.runtime.cut import activate, pass_priority

    activate(battle, "c2")
    assert not comes_to_nothing(battle, "beacon", "flare", None)  # it calls the Hound in
    pass_priority(battle)
    activate(battle, "c3", "drone")
    before = battle.rng.state, battle.cut[:]
    assert comes_to_nothing(battle, "beacon", "flare", None)  # the waiting flare does that
    assert not comes_to_nothing(battle, "drone", "self_destruct", None)  # it hits first
    assert (battle.rng.state, battle.cut) == before  # judged on copies


def test_every_card_the_duel_refuses_on_its_way_says_why() -> None:
    """The demo duel from its start to victory: at every step, every card of the hand the
    runtime will not let be played says why, with a code, and a card refused for want of a
    target names the status and the units it protects, never the bare "no legal target"."""
    from .duel_script import DUEL, play_through

    session = Session(duel_battle())
    statuses = [s["name"] for s in duel_battle()["statuses"]]
    units = [u["name"] for u in duel_battle()["units"]]
    refused = 0
    for step in [None, *DUEL]:
        if step is not None:
            play_through(session, [step])
        if session.state()["result"] is not None:
            break
        for entry in session.state()["piles"]["hand"]:
            aim = session.ok("targets", card=entry["id"])
            if aim["playable"]:
                continue
            refused += 1
            refusal = aim["refusal"]
            assert refusal["code"] and refusal["text"] == aim["reason"], aim
            assert aim["reason"].rstrip(".") not in ("no legal target", "not enough legal targets")
            if refusal["code"] in ("no_legal_target", "not_enough_legal_targets"):
                assert any(f"{s} on " in aim["reason"] for s in statuses), aim
                assert any(name in aim["reason"] for name in units), aim
    assert refused > 10
