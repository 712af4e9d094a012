"""Choosing several targets one at a time (``pick``), and whose move it is on the Cut
(``awaiting``): what a UI asks so that distinctness and turn order stay the runtime's rules."""

from __future__ import annotations

import pytest

from .builders import action, battle_doc, card, party, unit
from .protocol_support import Session
from .test_law_resolution import ATTACK, DIG, HIDE, JAB, SKILL, WARD, hiding_orc

TWIN = card("twin", "SingleEnemy", action("DealDamage", amount=2, source="Target"),
            target_count=2)  # fmt: skip
UPTO = card("upto", "SingleAlly", action("Heal", amount=3, source="Target"), target_count=3,
            up_to=True)  # fmt: skip


def session(rules: str = "soft") -> Session:
    return Session(battle_doc([TWIN, UPTO], units=party(), hand=["twin", "upto"], rules=rules))


def test_each_pick_narrows_the_candidates_and_a_unit_is_never_chosen_twice() -> None:
    s = session()
    first = s.ok("pick", card="h1", chosen=[])
    assert first["candidates"] == ["goblin", "orc", "troll"] and first["chooses"] == "units"
    assert (first["needed"], first["count"], first["can_confirm"]) == (2, 2, False)
    second = s.ok("pick", card="h1", chosen=["orc"])
    assert second["candidates"] == ["goblin", "troll"] and not second["can_confirm"]
    done = s.ok("pick", card="h1", chosen=["orc", "troll"])
    assert done["candidates"] == [] and done["can_confirm"] and done["complete"]
    s.refused("pick", "not_a_candidate", "chosen", card="h1", chosen=["orc", "orc"])
    s.refused("pick", "not_a_candidate", "chosen", card="h1", chosen=["hero"])
    s.refused("pick", "not_a_candidate", "chosen", card="h1", chosen=["orc", "troll", "goblin"])
    s.refused("pick", "not_a_candidate", "chosen", card="h1", chosen="orc")
    played = s.ok("play", card="h1", target=done["chosen"])
    assert [e["unit"] for e in played["events"] if e["type"] == "damage"] == ["orc", "troll"]


def test_targets_word_how_many_units_a_card_takes_for_its_band() -> None:
    s = session()
    twin, upto = s.ok("targets", card="h1"), s.ok("targets", card="h2")
    assert (twin["count"], twin["up_to"], twin["count_label"]) == (2, False, "\u00d72")
    assert (upto["count"], upto["up_to"], upto["count_label"]) == (3, True, "up to 3")


def test_an_up_to_card_can_be_confirmed_after_one_pick() -> None:
    s = session()
    picked = s.ok("pick", card="h2", chosen=["monk"])
    assert picked["can_confirm"] and not picked["complete"] and picked["needed"] == 1
    assert "monk" not in picked["candidates"] and "hero" in picked["candidates"]


def test_under_soft_rules_a_multi_target_card_needs_only_what_exists() -> None:
    units = [unit("hero", "player"), unit("orc")]
    s = Session(battle_doc([TWIN], units=units, hand=["twin"]))
    assert s.ok("pick", card="h1", chosen=[])["needed"] == 1
    strict = Session(battle_doc([TWIN], units=units, hand=["twin"], rules="strict"))
    assert strict.ok("pick", card="h1", chosen=[])["needed"] == 2


def test_a_late_choice_on_the_cut_is_picked_from_its_candidates() -> None:
    units = [unit("hero", "player"), unit("orc")]
    draw = ["salve", "blade", "blade"]
    s = Session(battle_doc([DIG, ATTACK, SKILL], units=units, hand=["dig"], draw=draw,
                           rules="strict"))  # fmt: skip
    s.ok("activate", card="h1")
    picked = s.ok("pick", entry="e1", chosen=[])
    assert (picked["chooses"], picked["candidates"], picked["entry"]) == ("cards", ["d2", "d3"],
                                                                          "e1")  # fmt: skip
    s.refused("pick", "not_a_candidate", "chosen", entry="e1", chosen=["d1"])  # a skill
    s.refused("pick", "cut", "entry", entry="e9", chosen=[])


def test_a_card_without_a_choice_and_a_locked_entry_have_nothing_to_pick() -> None:
    none = card("quake", "AllEnemies", action("DealDamage", amount=1, source="AllOpponents"))
    s = Session(battle_doc([none, TWIN], units=party(), hand=["quake", "twin"], rules="strict"))
    s.refused("pick", "target_not_allowed", "card", card="h1", chosen=[])
    s.ok("activate", card="h2", target=["orc", "troll"])
    s.refused("pick", "target_not_allowed", "entry", entry="e1", chosen=[])


@pytest.mark.parametrize("rules", ["soft", "strict"])
def test_the_cut_says_whose_answer_the_top_entry_waits_for(rules: str) -> None:
    s = hiding_orc(rules)
    assert s.ok("cut")["awaiting"] is None
    s.ok("activate", card="h1")  # the late Strike: the enemies have not answered yet
    assert s.ok("cut")["awaiting"] == "enemy"
    s.ok("pass")  # the orc answers by hiding: its entry is on top, the player may answer it
    cut = s.ok("cut")
    assert [e["side"] for e in cut["cut"]] == ["player", "enemy"] and cut["awaiting"] == "player"


def test_the_cut_says_what_the_player_may_do_by_the_operations_own_checks() -> None:
    s = hiding_orc("strict")
    moves = ("can_activate", "activate_reason", "can_pass", "can_end_turn")
    assert [s.ok("cut")[k] for k in moves] == [True, None, False, True]
    s.refused("pass", "cut", "")  # nothing to pass on: as can_pass said
    s.ok("activate", card="h1")
    cut = s.ok("cut")
    assert [cut[k] for k in moves[::2]] == [False, True]
    assert not cut["can_end_turn"]
    refused = s.refused("activate", "cut", "card", card="h2")
    assert refused["message"] == f"card: {cut['activate_reason']}"  # the same words
    s.refused("end_turn", "cut", "")
    s.ok("pass")  # the orc answers: the player may respond to its entry
    assert [s.ok("cut")[k] for k in moves] == [True, None, True, False]


def test_the_cut_words_its_prompt_and_says_when_the_player_may_respond() -> None:
    s = hiding_orc("strict")
    asked = ("awaiting", "can_respond", "prompt", "can_end_turn", "end_turn_reason")
    assert [s.ok("cut")[k] for k in asked] == [
        None, False, "Play a card to start a chain.", True, None]  # fmt: skip
    s.ok("activate", card="h1")
    cut = s.ok("cut")
    assert [cut[k] for k in asked[:4]] == [
        "enemy", False, "The opponent may respond. Pass to let them answer.", False]  # fmt: skip
    refused = s.refused("end_turn", "cut", "")
    assert refused["message"] == cut["end_turn_reason"]  # the operation's own words
    s.ok("pass")  # the orc answers: its entry is on top, the player may respond
    cut = s.ok("cut")
    assert [cut[k] for k in asked[:3]] == [
        "player", True, "Your answer: respond with a card, or pass to let it resolve."]  # fmt: skip
    s.ok("pass")  # the ward resolves: the player's answered entry is on top, pass is left
    cut = s.ok("cut")
    assert (cut["can_respond"], cut["prompt"]) == (False, "Pass to let it resolve.")


def test_the_log_tells_the_activation_and_then_a_late_choice_as_it_resolves() -> None:
    s = hiding_orc("soft")
    played = s.ok("activate", card="h1")
    assert [line["text"] for line in played["log"]][-1] == "You put Late on the Cut."
    s.ok("pass")  # the orc hides
    s.ok("pass")  # its ward resolves
    resolved = s.ok("pass")  # the late Strike: nothing is left to choose under soft rules
    kinds = [e["type"] for e in resolved["events"]]
    assert kinds[:2] == ["resolving", "targets_chosen"], kinds
    lines = [line["text"] for line in resolved["log"]]
    assert lines[:2] == ["Late resolves.", "Targets: no one."], lines


def test_a_response_is_told_in_the_second_person() -> None:
    units = [unit("hero", "player"), unit("orc", moves=["hide"])]
    doc = battle_doc([JAB], units=units, hand=["jab", "jab"], rules="strict",
                     statuses=[WARD], moves=[HIDE])  # fmt: skip
    s = Session(doc)
    s.ok("activate", card="h1", target="orc")
    s.ok("pass")  # the orc hides in answer
    responded = s.ok("activate", card="h2", target="orc")
    assert responded["log"][-1]["text"] == "You respond with Jab at Orc."
