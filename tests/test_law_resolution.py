"""The strict law at resolution, through the protocol: late choices whose candidates vanish,
choosing cards on resolve, locked targets, losses, and preview agreeing with play.

Each test is a reproduction kept from issue 20 (its item number is in the test's docstring).
"""

from __future__ import annotations

from typing import Any

import pytest

from .builders import action, battle_doc, card, move, unit
from .protocol_support import Session, types

WARD = {"id": "ward", "name": "Ward", "protection": "all"}
MARK = {"id": "mark", "name": "Mark"}
HIDE = move("hide", "Self", action("ApplyStatus", status="ward", source="Self"))
LATE = card(
    "late",
    "SingleEnemy",
    {"id": "hit", "type": "DealDamage", "amount": 5, "source": "Target"},
    {"id": "guard", "type": "GainArmor", "amount": 3, "source": "Self"},
    choose_on_resolve=True,
)
JAB = card("jab", "SingleEnemy", action("DealDamage", amount=1, source="Target"))


def of(events: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    return [e for e in events if e["type"] == kind]


# -- 1. a late choice whose candidates are gone fails (strict) or does nothing (soft) --------
def hiding_orc(rules: str) -> Session:
    """The orc is the only enemy; its own AI answers a late Strike by warding itself."""
    units = [unit("hero", "player"), unit("orc", moves=["hide"])]
    doc = battle_doc([LATE, JAB], units=units, hand=["late", "jab"], rules=rules,
                     statuses=[WARD], moves=[HIDE])  # fmt: skip
    return Session(doc)


@pytest.mark.parametrize("finish", ["pass", "resolve"])
def test_a_late_choice_with_no_candidate_left_fails_under_strict(finish: str) -> None:
    """Item 1: the enemy AI's own protection response used to deadlock the Cut."""
    s = hiding_orc("strict")
    s.ok("activate", card="h1")
    responded = s.events("pass")  # the AI answers: the orc wards itself
    assert of(responded, "enemy_responds")[0]["move"] == "hide"
    late = {"at": "resolution", "chooses": "units", "zones": ["field"], "candidates": ["orc"]}
    assert s.cut()[0]["late_choice"] == late and s.cut()[1]["late_choice"] is None
    assert s.ok("cut")["awaiting_choice"] is None  # the orc's ward waits on top
    s.events("pass")  # the ward resolves: no enemy can be chosen any more
    assert s.cut()[0]["late_choice"] == {**late, "candidates": []}
    assert s.ok("cut")["awaiting_choice"] is None  # nothing to choose: nothing waits
    s.refused(finish, "not_a_candidate", "choices.e1", choices={"e1": "orc"})
    events = s.events(finish)
    assert of(events, "effect_failed") == [{"type": "effect_failed", "entry": "e1", "card": "h1",
                                           "move": None, "reason": "no_targets"}]  # fmt: skip
    assert "armor" not in types(events)  # nothing of it applies
    assert s.cut() == [] and s.state()["piles"]["discard"][0]["id"] == "h1"
    assert s.ok("targets", card="h2")["reason"] == (  # the orc is warded, and it says so
        "no legal target: Ward on Orc (will not be the target of any effect)"
    )
    assert s.events("end_turn")  # the battle goes on


def test_a_late_choice_with_no_candidate_left_does_nothing_under_soft() -> None:
    """Item 1, soft: the effect resolves with nothing chosen; what needs no choice applies."""
    s = hiding_orc("soft")
    s.ok("activate", card="h1")
    s.events("pass")
    s.events("pass")
    events = s.events("pass")
    assert of(events, "targets_chosen") == [{"type": "targets_chosen", "card": "h1", "units": []}]
    assert of(events, "no_targets")[0]["node"] == "hit" and of(events, "armor")
    assert "effect_failed" not in types(events) and s.cut() == []


def test_a_late_choice_still_waits_for_an_answer_while_a_candidate_exists() -> None:
    s = hiding_orc("strict")
    assert s.ok("cut")["awaiting_choice"] is None  # nothing waits on an empty Cut
    s.ok("activate", card="h1")
    assert s.ok("cut")["awaiting_choice"] == "e1"  # a host asks the player, not the refusal
    s.refused("resolve", "target_required", "choices.e1")
    events = s.events("resolve", choices={"e1": "orc"})
    assert of(events, "targets_chosen")[0]["units"] == ["orc"]
    assert of(events, "damage")[0]["unit"] == "orc"


# -- 5. choosing cards on resolution -------------------------------------------------------
DIG = card(
    "dig",
    "None",
    {"id": "take", "type": "MoveCard", "to": "hand", "source": "ChosenCards"},
    choose_on_resolve=True,
    card_targets={"zones": ["draw"], "where": {"type": "attack"}},
)
ATTACK, SKILL = card("blade", type="attack"), card("salve", type="skill")
SWEEP = move("sweep", "None", action("Exhaust", source="DrawPile"))


def digger(rules: str, draw: list[str]) -> Session:
    units = [unit("hero", "player"), unit("orc", moves=["sweep"])]
    doc = battle_doc([DIG, ATTACK, SKILL], units=units, hand=["dig"], draw=draw, rules=rules,
                     moves=[SWEEP])  # fmt: skip
    return Session(doc)


def test_a_card_chooses_cards_from_a_face_down_pile_when_it_resolves() -> None:
    """Item 5: "Effects that targets locations where cards are managed face-down, or states
    'choose ~' in its text, chooses the targets only when resolving"."""
    s = digger("strict", ["salve", "blade", "blade"])
    info = s.ok("targets", card="h1")
    assert info["choose_on_resolve"] and not info["requires_target"] and info["playable"]
    assert info["late_choice"] == {"at": "resolution", "chooses": "cards", "zones": ["draw"],
                                   "candidates": ["d2", "d3"]}  # fmt: skip
    s.refused("activate", "target_not_allowed", "target", card="h1", target="d2")
    s.ok("activate", card="h1")
    assert s.ok("cut")["awaiting_choice"] == "e1"  # a choice of cards waits too
    s.refused("resolve", "target_required", "choices.e1")
    s.refused("resolve", "not_a_candidate", "choices.e1", choices={"e1": "d1"})  # a skill
    s.refused("resolve", "unknown_card", "choices.e1", choices={"e1": "zz"})
    s.refused("resolve", "not_a_candidate", "choices.e1", choices={"e1": ["d2", "d3"]})
    events = s.events("resolve", choices={"e1": "d3"})
    assert of(events, "cards_chosen") == [{"type": "cards_chosen", "card": "h1", "cards": ["d3"]}]
    moved = of(events, "card_moved")[0]
    assert (moved["card"], moved["from"], moved["to"]) == ("d3", "draw", "hand")


def test_a_card_choice_in_an_immediate_play_is_its_target() -> None:
    s = digger("soft", ["salve", "blade"])
    s.refused("play", "target_required", "target", card="h1")
    s.refused("play", "not_a_candidate", "target", card="h1", target="d1")
    assert s.ok("preview", card="h1", target="d2")["events"] == s.events(
        "play", card="h1", target="d2"
    )
    assert [c["id"] for c in s.state()["piles"]["hand"]] == ["d2"]


@pytest.mark.parametrize("rules", ["strict", "soft"])
def test_a_card_choice_with_nothing_to_choose(rules: str) -> None:
    """It "cannot be played if no targets exist when playing the effect"; cards gone by the
    time it resolves make it fail (strict) or choose nothing (soft)."""
    s = digger(rules, ["salve"])
    assert s.ok("targets", card="h1")["reason"] == "no card to choose"
    s.refused("activate", "not_playable", "card", card="h1")
    s = digger(rules, ["blade"])
    s.ok("activate", card="h1")
    s.ok("respond", unit="orc", move="sweep")
    events = s.events("resolve")  # the sweep exhausts the draw pile first
    if rules == "strict":
        assert of(events, "effect_failed")[0]["reason"] == "no_targets"
    else:
        assert of(events, "cards_chosen")[0]["cards"] == []
        assert of(events, "no_targets")[0]["node"] == "take"
    assert s.cut() == []


def test_a_late_card_choice_waiting_on_the_cut_is_saved_and_reopened() -> None:
    s = digger("strict", ["blade"])
    s.ok("activate", card="h1")
    state = s.state()
    again = Session(state)
    assert again.state() == state
    assert again.events("resolve", choices={"e1": "d1"}) == s.events(
        "resolve", choices={"e1": "d1"}
    )


@pytest.mark.parametrize(
    ("patch", "where"),
    [
        ({"card_targets": None}, "cards[0].choose_on_resolve"),
        ({"target_count": 2, "choose_on_resolve": None}, "cards[0].target_count"),
    ],
)
def test_choose_on_resolve_needs_units_or_cards_to_choose(patch: dict[str, Any],
                                                         where: str) -> None:  # fmt: skip
    from .protocol_support import refused_document

    bad = {k: v for k, v in {**DIG, **patch}.items() if v is not None}
    assert refused_document(battle_doc([bad]))["where"] == "battle." + where


# -- 6. targets, once locked, cannot be changed --------------------------------------------
@pytest.mark.parametrize("op", ["pass", "resolve"])
def test_a_choice_for_a_locked_entry_or_no_entry_is_refused(op: str) -> None:
    """Item 6: such a choice used to be answered ok and silently dropped."""
    s = hiding_orc("strict")
    s.ok("activate", card="h2", target="orc")
    error = s.refused(op, "target_not_allowed", "choices.e1", choices={"e1": "orc"})
    assert "locked" in error["message"] and "cannot be changed" in error["message"]
    error = s.refused(op, "cut", "choices.e7", choices={"e7": "orc"})
    assert "no entry" in error["message"]
    s.ok("respond", unit="orc", move="hide")
    s.refused(op, "target_not_allowed", "choices.e2", choices={"e2": "orc"})  # a move's
    s.ok(op)


# -- 7. behaviours whose code no test exercised ------------------------------------------------
def test_a_target_that_became_irrelevant_is_lost() -> None:
    """Item 7: "has become an irrelevant target": the strike may only target marked units."""
    marked = dict(JAB, target_filter={"status": "mark"})
    cleanse = move("cleanse", "Self", action("RemoveStatus", status="mark", source="Self"))
    units = [unit("hero", "player"), unit("orc", statuses={"mark": 1}, moves=["cleanse"])]
    s = Session(battle_doc([marked], units=units, rules="strict", statuses=[MARK],
                           moves=[cleanse], hand=["jab"]))  # fmt: skip
    s.ok("activate", card="h1", target="orc")
    s.ok("respond", unit="orc", move="cleanse")
    events = s.events("resolve")
    assert of(events, "target_lost") == [{"type": "target_lost", "entry": "e1", "unit": "orc",
                                          "reason": "no_longer_legal"}]  # fmt: skip
    assert of(events, "effect_failed")[0]["lost"] == [{"unit": "orc", "reason": "no_longer_legal"}]
    assert "damage" not in types(events)


@pytest.mark.parametrize("rules", ["strict", "soft"])
def test_a_random_target_is_locked_at_activation_and_can_be_lost(rules: str) -> None:
    """Item 7: the runtime's pick is made once, when the card is activated; a lost pick is
    not replaced by another at resolution."""
    gamble = card("gamble", "RandomOpponent", action("DealDamage", amount=4, source="Target"))
    retreat = move("retreat", "OtherAlly", action("Withdraw", source="Target"))
    units = [unit("hero", "player"), unit("orc", moves=["retreat"]),
             unit("imp", moves=["retreat"])]  # fmt: skip
    s = Session(battle_doc([gamble], units=units, rules=rules, moves=[retreat], hand=["gamble"]))
    picked = of(s.events("activate", card="h1"), "random_target")[0]["unit"]
    assert s.cut()[0]["targets"] == [picked]
    other = "imp" if picked == "orc" else "orc"
    s.ok("respond", unit=other, move="retreat", target=picked)
    events = s.events("resolve")
    assert of(events, "target_lost")[0] == {"type": "target_lost", "entry": "e1",
                                            "unit": picked, "reason": "left_field"}  # fmt: skip
    assert "random_target" not in types(events) and "damage" not in types(events)
    assert ("effect_failed" in types(events)) is (rules == "strict")


@pytest.mark.parametrize("rules", ["strict", "soft"])
def test_an_all_card_effect_over_locations_is_checked_again_at_resolution(rules: str) -> None:
    """Item 7: "it can be played and resolved as long as just 1 card exists in any of the
    given locations": a response that empties them makes a strict one fail."""
    purge = card("purge", "None", action("Exhaust", source="DiscardPile"),
                 card_targets={"zones": ["discard"], "where": {"type": "curse"}})  # fmt: skip
    curse = card("curse", type="curse")
    recycle = move("recycle", "None", action("MoveCard", to="draw", source="DiscardPile"))
    units = [unit("hero", "player"), unit("orc", moves=["recycle"])]
    s = Session(battle_doc([purge, curse], units=units, rules=rules, moves=[recycle],
                           hand=["purge"], discard=["curse"]))  # fmt: skip
    s.ok("activate", card="h1")
    s.ok("respond", unit="orc", move="recycle")
    events = s.events("resolve")
    if rules == "strict":
        assert of(events, "effect_failed")[0]["reason"] == "no_targets"
    else:
        assert "effect_failed" not in types(events)


def test_actions_skip_units_that_left_the_field() -> None:
    """Item 7: a unit sent to the reserve mid-Behavior is skipped (``left_field``)."""
    feint = card("feint", "SingleEnemy", {"id": "away", "type": "Withdraw", "source": "Target"},
                 {"id": "hit", "type": "DealDamage", "amount": 5, "source": "Target"})  # fmt: skip
    s = Session(battle_doc([feint], hand=["feint"]))
    events = s.events("play", card="h1", target="orc")
    assert {"type": "target_skipped", "node": "hit", "unit": "orc",
            "reason": "left_field"} in events  # fmt: skip
    assert "damage" not in types(events)


def test_a_connected_port_that_yields_nothing_does_not_fall_back_to_the_field() -> None:
    """Item 7: "Target port connected -> Use the unit or collection supplied by the
    connection", even when that collection is empty."""
    dragons = card(
        "dragonbane",
        "None",
        {"id": "foes", "type": "UnitSource", "source": "AllOpponents"},
        {"id": "dragons", "type": "Filter", "where": {"tag": "dragon"}, "ports": {"input": "foes"}},
        {"id": "hit", "type": "DealDamage", "amount": 9, "source": "AllOpponents",
         "ports": {"target": "dragons"}},
    )  # fmt: skip
    s = Session(battle_doc([dragons], hand=["dragonbane"]))
    events = s.events("play", card="h1")
    assert of(events, "no_targets") == [{"type": "no_targets", "node": "hit",
                                         "action": "DealDamage"}]  # fmt: skip
    assert "damage" not in types(events)


# -- 15. preview agrees with play; targets says where a late choice comes from ----------------
def every_kind_of_card() -> list[dict[str, Any]]:
    hit = {"id": "hit", "type": "DealDamage", "amount": 3, "source": "Target"}
    guard = {"id": "guard", "type": "GainArmor", "amount": 2, "source": "Self"}
    cards = [card(f"m_{m}", m, dict(hit), dict(guard)) for m in (
        "None", "SingleEnemy", "AllEnemies", "Self", "SingleAlly", "OtherAlly", "AllAllies",
        "RandomAlly", "RandomOpponent", "AnyUnit")]  # fmt: skip
    lucky = card("lucky", "None", {"id": "foes", "type": "UnitSource", "source": "AllOpponents"},
                 {"id": "one", "type": "RandomElements", "ports": {"input": "foes"}},
                 {"id": "any", "type": "Condition", "test": "not_empty", "ports": {"input": "one"}},
                 {"id": "hit", "type": "DealDamage", "amount": 2, "ports": {"target": "one"}},
                 playable_if=[{"condition": "any", "reason": "no foe"}])  # fmt: skip
    return [
        *cards,
        card("twin", "SingleEnemy", dict(hit), target_count=2),
        card("upto", "SingleEnemy", dict(hit), target_count=3, up_to=True),
        card("late", "SingleEnemy", dict(hit), dict(guard), choose_on_resolve=True),
        card("scatter", "RandomOpponent", dict(hit), target_count=2, keywords=["Exhaust"]),
        DIG,
        card("purge", "None", action("Exhaust", source="DiscardPile"),
             card_targets={"zones": ["discard"], "where": {"type": ["attack", "curse"]}}),
        lucky,
        ATTACK,
    ]  # fmt: skip


def submission(info: dict[str, Any]) -> Any:
    late = info["late_choice"]
    pool = late["candidates"] if late is not None else info["candidates"]
    if not pool:
        return None
    return pool[0] if info["count"] == 1 else pool[: info["count"]]


@pytest.mark.parametrize("rules", ["strict", "soft"])
def test_preview_agrees_with_play_for_every_kind_of_card(rules: str) -> None:
    """Item 15: a preview is the play on a copy, whatever the card (it used to refuse every
    card that chooses on resolve)."""
    cards = every_kind_of_card()
    units = [unit("hero", "player"), unit("mage", "player"), unit("orc"), unit("imp")]
    doc = battle_doc(cards, units=units, rules=rules, hand=[c["id"] for c in cards[:-1]],
                     draw=["blade"], discard=["blade"], seed=11)  # fmt: skip
    hand = [c["id"] for c in doc["piles"]["hand"]]
    late_kinds, played_ok = set(), 0
    for card_id in hand:
        probe = Session(doc)
        info = probe.ok("targets", card=card_id)
        if info["late_choice"] is not None:
            late_kinds.add(info["late_choice"]["chooses"])
        chosen = submission(info)
        for target in (chosen, "hero", ["orc", "orc"], None):
            previewed = probe.call("preview", card=card_id, target=target)
            played = Session(doc).call("play", card=card_id, target=target)
            if played["ok"]:
                played_ok += target == chosen
                told = [{k: v for k, v in e.items() if k != "unit_after"}  # a play's only
                        for e in played["result"]["events"]]  # fmt: skip
                assert previewed["ok"] and previewed["result"]["events"] == told, (card_id, target)
            else:
                assert previewed == played, (card_id, target)
        assert probe.ok("targets", card=card_id) == info  # the preview changed nothing
    assert late_kinds == {"units", "cards"} and played_ok >= len(hand) - 1


def test_targets_tells_where_a_late_unit_choice_comes_from() -> None:
    s = hiding_orc("strict")
    info = s.ok("targets", card="h1")
    assert (info["requires_target"], info["candidates"], info["range"]) == (False, [], ["orc"])
    assert info["late_choice"] == {"at": "resolution", "chooses": "units", "zones": ["field"],
                                   "candidates": ["orc"]}  # fmt: skip
    assert s.ok("targets", card="h2")["late_choice"] is None


def test_docs_format_names_every_skip_loss_and_failure_reason() -> None:
    """Item 7: docs/format.md listed four of the eight reasons an action skips a target."""
    from pathlib import Path

    from pybridge.runtime.events import EVENTS, FAILURE_REASONS, LOSS_REASONS, SKIP_REASONS

    doc = (Path(__file__).resolve().parent.parent / "docs" / "format.md").read_text("utf-8")
    rows = {line.split("|")[1].strip(" `"): line for line in doc.splitlines()
            if line.startswith("| `")}  # fmt: skip
    for event, reasons in (("target_skipped", SKIP_REASONS), ("target_lost", LOSS_REASONS),
                           ("effect_failed", FAILURE_REASONS)):  # fmt: skip
        missing = [r for r in reasons if f"`{r}`" not in rows[event]]
        assert missing == [], (event, missing)
    assert {"enemy_holds", "cards_chosen"} <= set(EVENTS) & set(rows)
