"""The strict targeting law (gundam-war-play-and-targets.txt), paragraph by paragraph, and Cut
scenarios under both rule profiles."""

from __future__ import annotations

import json
from typing import Any

import pytest

from pybridge.runtime import (
    Battle,
    FormatError,
    Pile,
    activate,
    canonical_json,
    errors,
    load_battle,
    pass_priority,
    play,
    resolve_all,
    targets,
)
from pybridge.runtime.cut import respond_move
from pybridge.runtime.model import Zone

from .builders import action, battle_doc, card, hp, make_battle, move, of_type, unit

WARD = {"id": "ward", "name": "Ward", "protection": "all"}
VEIL = {"id": "veil", "name": "Veil", "protection": "single"}
#: The strict law's refusal when the only enemy is warded: it names the Ward and the unit.
WARD_ON_ORC = "no legal target: Ward on Orc (will not be the target of any effect)"


KILL = move(
    "kill", "SingleEnemy", {"id": "k", "type": "DealDamage", "amount": 99, "source": "Target"}
)
SHIELD_ALLY = move(
    "shield", "OtherAlly", {"id": "w", "type": "ApplyStatus", "status": "ward", "source": "Target"}
)
RETREAT = move("retreat", "OtherAlly", {"id": "r", "type": "Withdraw", "source": "Target"})
REINFORCE = move("reinforce", "None", {"id": "d", "type": "Deploy", "source": "AllReserveAllies"})
COUNTER = move("counterspell", "None", {"id": "n", "type": "Negate", "source": "CutCards"})
SACRIFICE = move(
    "sacrifice", "OtherAlly", {"id": "s", "type": "DealDamage", "amount": 99, "source": "Target"}
)
MOVES = [KILL, SHIELD_ALLY, RETREAT, REINFORCE, COUNTER, SACRIFICE]

STRIKE = card(
    "strike",
    "SingleEnemy",
    {"id": "hit", "type": "DealDamage", "amount": 5, "source": "Target"},
    {"id": "guard", "type": "GainArmor", "amount": 3, "source": "Self"},
)
TWIN = card(
    "twin",
    "SingleEnemy",
    {"id": "hit", "type": "DealDamage", "amount": 5, "source": "Target"},
    target_count=2,
)
VOLLEY = card(
    "volley",
    "AllEnemies",
    {"id": "hit", "type": "DealDamage", "amount": 4, "source": "AllOpponents"},
)


def arena(
    rules: str, *cards: dict[str, Any], units: list[dict[str, Any]] | None = None, **kw: Any
) -> Battle:
    if units is None:
        units = [
            unit("hero", "player"),
            unit("mage", "player"),
            unit("orc", moves=["kill", "shield", "retreat", "reinforce", "counterspell"]),
            unit("imp"),
            unit("wolf", zone="reserve", tags=["beast"]),
        ]
    return make_battle(*cards, units=units, rules=rules, statuses=[WARD, VEIL], moves=MOVES, **kw)


def types(events: list[dict[str, Any]]) -> list[str]:
    return [e["type"] for e in events]


# -- Targeting effects: targets written on the card; choose until every condition is met ----
def test_a_card_that_targets_two_units_needs_two_distinct_legal_targets() -> None:
    b = arena("strict", TWIN)
    assert targets(b, "h1").count == 2
    for bad, code in (
        (["orc"], "not_a_candidate"),
        (["orc", "orc"], "not_a_candidate"),
        (["orc", "imp", "hero"], "not_a_candidate"),
        (["orc", "hero"], "not_a_candidate"),
    ):
        with pytest.raises(errors.PlayError) as info:
            play(b, "h1", bad)
        assert info.value.code == code
    play(b, "h1", ["orc", "imp"])
    assert hp(b)["orc"] == hp(b)["imp"] == 15


def test_up_to_n_accepts_one_to_n() -> None:
    b = arena(
        "strict", dict(TWIN, up_to=True), dict(TWIN, id="twin2", up_to=True), hand=["twin", "twin2"]
    )
    play(b, "h1", ["imp"])
    play(b, "h2", ["orc", "imp"])
    assert hp(b) == {"hero": 20, "mage": 20, "orc": 15, "imp": 10, "wolf": 20}


def test_type_conditions_restrict_the_candidates() -> None:
    beasts_only = dict(STRIKE, target_filter={"tag": "beast"})
    units = [unit("hero", "player"), unit("orc"), unit("wolf", tags=["beast"])]
    b = arena("soft", beasts_only, units=units)
    assert targets(b, "h1").candidates == ("wolf",)
    with pytest.raises(errors.NotACandidate):
        play(b, "h1", "orc")


def test_soft_rules_let_a_two_target_card_take_the_only_one_left() -> None:
    units = [unit("hero", "player"), unit("orc"), unit("imp", hp=0, max_hp=5)]
    assert targets(arena("soft", TWIN, units=units), "h1").playable
    b = arena("soft", TWIN, units=units)
    play(b, "h1", ["orc"])
    strict = arena("strict", TWIN, units=units)
    info = targets(strict, "h1")
    assert (info.playable, info.reason) == (False, "not enough legal targets")


# -- Play and targets: no legal target (or no cost) -> cannot even be declared ---------------
@pytest.mark.parametrize(
    "the_card",
    [
        STRIKE,
        VOLLEY,
        card("gamble", "RandomOpponent", action("DealDamage", amount=1, source="Target")),
    ],
)
def test_strict_refuses_a_targeting_card_with_no_legal_target(the_card) -> None:
    units = [unit("hero", "player"), unit("orc", statuses={"ward": 1})]
    b = arena("strict", the_card, units=units)
    assert (targets(b, "h1").playable, targets(b, "h1").reason) == (False, WARD_ON_ORC)
    before = canonical_json(b)
    with pytest.raises(errors.NotPlayable, match="no legal target"):
        activate(b, "h1", "orc" if the_card is STRIKE else None)
    assert canonical_json(b) == before
    soft = arena("soft", the_card, units=units)
    if the_card is not STRIKE:  # soft: the all/random card plays and does nothing
        play(soft, "h1")
        assert hp(soft)["orc"] == 20


def test_strict_refuses_a_card_whose_cost_cannot_be_paid() -> None:
    b = arena("strict", dict(STRIKE, cost=4))
    with pytest.raises(errors.NotEnoughEnergy):
        activate(b, "h1", "orc")


# -- Field: effects affect only what is in play, other zones only when they say so --------
def test_units_off_the_field_are_not_affected_unless_the_effect_says_so() -> None:
    everyone = card("quake", "None", action("DealDamage", amount=3, source="AllUnits"))
    rally = card("rally", "None", action("Deploy", source="AllReserveAllies"))
    units = [
        unit("hero", "player"),
        unit("squire", "player", zone="reserve"),
        unit("orc"),
        unit("wolf", zone="reserve"),
    ]
    b = arena("strict", everyone, rally, units=units)
    assert targets(b, "h1").playable
    play(b, "h1")
    assert hp(b) == {"hero": 17, "squire": 20, "orc": 17, "wolf": 20}
    play(b, "h2")  # the hero's side only: AllReserveAllies is relative to the Host
    assert b.unit("squire").zone is Zone.FIELD and b.unit("wolf").zone is Zone.RESERVE  # type: ignore[union-attr]


# -- The card being played is in neither hand nor field ------------------------------------
def test_only_effects_on_the_play_can_reach_the_card_being_played() -> None:
    b = arena("strict", STRIKE, card("x"), hand=["strike", "x"])
    activate(b, "h1", "orc")
    assert b.pile_of("h1") == "resolving" and "h1" not in b.piles[Pile.HAND]
    # a response that discards "all cards" and exhausts "the cards being played" by the
    # ordinary card actions cannot touch it; only Negate can
    sweep = move(
        "sweep",
        "None",
        {"id": "s", "type": "Discard", "source": "AllPiles", "next": "e"},
        {"id": "e", "type": "Exhaust", "source": "HandPile"},
    )
    b.moves["sweep"] = load_battle(battle_doc(moves=[sweep])).moves["sweep"]
    b.unit("orc").moves = ("sweep",)  # type: ignore[union-attr]
    events = respond_move(b, "orc", "sweep") + resolve_all(b)
    moved = [e["card"] for e in of_type(events, "card_moved") if e["node"] in ("s", "e")]
    assert moved == ["h2"]  # the other card in hand went; the card being played did not
    assert hp(b)["orc"] == 15  # the strike still resolved


def test_card_actions_on_the_cut_skip_the_card_being_played() -> None:
    grab = move("grab", "None", {"id": "g", "type": "Exhaust", "source": "CutCards"})
    b = arena("soft", STRIKE)
    b.moves["grab"] = load_battle(battle_doc(moves=[grab])).moves["grab"]
    b.unit("orc").moves = ("grab",)  # type: ignore[union-attr]
    activate(b, "h1", "orc")
    events = respond_move(b, "orc", "grab") + resolve_all(b)
    assert {
        "type": "target_skipped",
        "node": "g",
        "card": "h1",
        "reason": "being_played",
    } in events  # only Negate targets "the play"
    assert hp(b)["orc"] == 15


def test_negate_counters_the_play() -> None:
    b = arena("strict", STRIKE)
    activate(b, "h1", "orc")
    events = respond_move(b, "orc", "counterspell") + pass_priority(b)
    assert of_type(events, "negated")[0]["card"] == "h1"
    assert hp(b)["orc"] == 20 and b.piles[Pile.DISCARD] == ["h1"] and b.cut == []
    assert "effect_failed" not in types(events)  # it was never resolved at all


# -- Timing: targets are chosen at activation and cannot change ----------------------------
def test_targets_are_locked_when_activated() -> None:
    b = arena("strict", STRIKE)
    events = activate(b, "h1", "orc")
    assert of_type(events, "activated")[0]["targets"] == ["orc"]
    assert b.cut[0].targets == ("orc",)
    with pytest.raises(errors.CutError):  # no second action on your own entry
        activate(b, "h1", "imp")


# -- The Cut: responses resolve last in, first out -----------------------------------------
def test_the_cut_resolves_last_in_first_out() -> None:
    b = arena("soft", STRIKE, dict(STRIKE, id="parry"), hand=["strike", "parry"])
    activate(b, "h1", "orc")
    respond_move(b, "orc", "shield", "imp")
    activate(b, "h2", "orc")  # the player responds to the response
    assert [e.id for e in b.cut] == ["e1", "e2", "e3"]
    events = resolve_all(b)
    assert [e["entry"] for e in of_type(events, "resolving")] == ["e3", "e2", "e1"]


def test_play_is_refused_while_the_cut_holds_effects_and_pass_resolves() -> None:
    b = arena("soft", STRIKE, card("x"), hand=["strike", "x"])
    activate(b, "h1", "orc")
    with pytest.raises(errors.CutError):
        play(b, "h2")
    events = pass_priority(b)  # the orc (AI) responds first: it has response moves
    assert of_type(events, "enemy_responds")
    while b.cut:
        pass_priority(b)
    assert b.piles[Pile.DISCARD][-1] == "h1"


# -- Loss of targets: the effect fails and nothing of it applies ------------------------------
@pytest.mark.parametrize(
    ("response", "reason"),
    [("sacrifice", "dead"), ("retreat", "left_field"), ("shield", "protected")],
)
def test_a_lost_target_makes_a_strict_effect_fail(response: str, reason: str) -> None:
    # The imp's response kills, moves or protects the orc the strike chose.
    units = [
        unit("hero", "player"),
        unit("orc"),
        unit("imp", moves=["sacrifice", "shield", "retreat"]),
    ]
    b = arena("strict", STRIKE, units=units)
    activate(b, "h1", "orc")
    respond_move(b, "imp", response, "orc")
    events = resolve_all(b)
    failed = of_type(events, "effect_failed")[-1]
    assert failed["reason"] == "lost_target"
    assert failed["lost"] == [{"unit": "orc", "reason": reason}]
    assert of_type(events, "armor") == []  # nothing of it applies, not even the Self armor
    assert b.piles[Pile.DISCARD] == ["h1"]  # the card is spent all the same


def test_the_same_loss_under_soft_rules_skips_and_continues() -> None:
    units = [unit("hero", "player"), unit("orc", moves=["retreat"]), unit("imp", moves=["retreat"])]
    b = arena("soft", STRIKE, units=units)
    activate(b, "h1", "orc")
    respond_move(b, "imp", "retreat", "orc")
    events = resolve_all(b)
    assert of_type(events, "target_lost") == [
        {"type": "target_lost", "entry": "e1", "unit": "orc", "reason": "left_field"}
    ]
    assert "effect_failed" not in types(events)
    assert b.units[0].armor == 3  # the rest of the effect applied
    assert hp(b)["orc"] == 20


def test_soft_opponent_falls_back_when_the_clicked_enemy_died_in_the_cut() -> None:
    # GCS: "the selected enemy if one was clicked and it is still alive, otherwise the first
    # living enemy" -- the soft profile keeps that.
    strike = card("jab", "SingleEnemy", action("DealDamage", amount=5, source="Opponent"))
    b = arena("soft", strike)
    activate(b, "h1", "imp")
    b.unit("imp").hp = 0  # type: ignore[union-attr]
    resolve_all(b)
    assert hp(b)["orc"] == 15


@pytest.mark.parametrize("rules", ["strict", "soft"])
def test_a_player_response_kills_the_enemy_whose_move_waits_on_the_cut(rules: str) -> None:
    units = [unit("hero", "player"), unit("orc", hp=4, max_hp=20, moves=["kill"]), unit("imp")]
    finisher = card("finisher", "SingleEnemy", action("DealDamage", amount=10, source="Target"))
    b = arena(rules, VOLLEY, finisher, units=units, hand=["volley", "finisher"])
    activate(b, "h1")
    respond_move(b, "orc", "kill", "hero")
    activate(b, "h2", "orc")
    events = resolve_all(b)
    assert [e["entry"] for e in of_type(events, "resolving")] == ["e3", "e2", "e1"]
    assert of_type(events, "effect_failed") == [
        {
            "type": "effect_failed",
            "entry": "e2",
            "card": None,
            "move": "kill",
            "reason": "source_gone",
        }
    ]  # the fallen orc's move fizzles
    assert hp(b) == {"hero": 20, "orc": 0, "imp": 16}  # the volley re-collected: only the imp


def test_when_the_battle_ends_mid_cut_the_rest_is_spent() -> None:
    units = [unit("hero", "player", hp=5, max_hp=20), unit("orc", moves=["kill"])]
    b = arena("soft", STRIKE, units=units)
    activate(b, "h1", "orc")
    pass_priority(b)  # the orc answers with its kill
    events = pass_priority(b)
    assert b.result == "defeat" and b.cut == [] and b.piles[Pile.DISCARD] == ["h1"]
    assert events[-1]["type"] == "battle_ended"
    with pytest.raises(errors.BattleOver):
        pass_priority(b)


# -- Multiple targets: one lost target fails the effect; "all ~" is exempt ----------------
def test_one_lost_target_of_two_fails_the_whole_effect_under_strict() -> None:
    b = arena("strict", TWIN)
    activate(b, "h1", ["orc", "imp"])
    respond_move(b, "orc", "retreat", "imp")
    events = resolve_all(b)
    assert of_type(events, "effect_failed")[0]["lost"] == [{"unit": "imp", "reason": "left_field"}]
    assert hp(b)["orc"] == 20


def test_under_soft_the_remaining_target_is_still_hit() -> None:
    b = arena("soft", TWIN)
    activate(b, "h1", ["orc", "imp"])
    respond_move(b, "orc", "retreat", "imp")
    resolve_all(b)
    assert hp(b)["orc"] == 15


def test_all_effects_are_exempt_and_just_lose_the_missing_unit() -> None:
    b = arena("strict", VOLLEY)
    activate(b, "h1")
    respond_move(b, "orc", "retreat", "imp")
    events = resolve_all(b)
    assert "effect_failed" not in types(events)
    assert hp(b) == {"hero": 20, "mage": 20, "orc": 16, "imp": 20, "wolf": 20}


# -- Single-target effects ------------------------------------------------------------------
def test_single_target_protection_only_stops_effects_that_can_choose_exactly_one() -> None:
    units = [unit("hero", "player"), unit("orc", statuses={"veil": 1}), unit("imp")]
    up_to = dict(TWIN, id="twin", up_to=True)
    b = arena("strict", STRIKE, up_to, units=units, hand=["strike", "twin"])
    assert targets(b, "h1").candidates == ("imp",)  # Strike is a single-target effect
    assert targets(b, "h2").candidates == ("orc", "imp")  # up to two is not, even choosing one
    play(b, "h2", ["orc"])
    assert hp(b)["orc"] == 15


def test_veil_gained_after_choosing_loses_a_single_target_but_not_a_multi_target() -> None:
    veil_it = move(
        "veil_it",
        "OtherAlly",
        {"id": "v", "type": "ApplyStatus", "status": "veil", "source": "Target"},
    )
    units = [unit("hero", "player"), unit("orc", moves=["veil_it"]), unit("imp")]
    for the_card, failed in ((STRIKE, True), (dict(TWIN, up_to=True), False)):
        b = load_battle(
            battle_doc(
                [the_card],
                units=units,
                hand=[the_card["id"]],
                rules="strict",
                statuses=[VEIL],
                moves=[veil_it],
            )
        )
        activate(b, "h1", "imp" if the_card is STRIKE else ["imp"])
        respond_move(b, "orc", "veil_it", "imp")
        events = resolve_all(b)
        assert ("effect_failed" in types(events)) is failed


# -- "All ~": collected when played, when the Cut changes, and at resolution ---------------
def test_all_effects_collect_again_so_arrivals_are_included() -> None:
    b = arena("strict", VOLLEY)
    events = activate(b, "h1")
    assert of_type(events, "activated")[0]["collected"] == ["orc", "imp"]
    events = respond_move(b, "orc", "reinforce")
    assert of_type(events, "recollected") == [
        {"type": "recollected", "entry": "e1", "units": ["orc", "imp"]}
    ]
    events = resolve_all(b)  # the reinforcement resolves first: the wolf arrives
    assert of_type(events, "recollected")[-1]["units"] == ["orc", "imp", "wolf"]
    assert hp(b)["wolf"] == 16


def test_all_over_several_locations_needs_just_one_card_anywhere() -> None:
    purge = card("purge", "None", action("Exhaust", source="AllPiles"),
                 card_targets={"zones": ["hand", "discard"],
                               "where": {"type": "curse"}})  # fmt: skip
    curse = card("curse", type="curse")
    b = arena("strict", purge, curse, hand=["purge"], discard=["curse"])
    assert targets(b, "h1").playable
    b2 = arena("strict", purge, curse, hand=["purge"], draw=["curse"])
    assert (targets(b2, "h1").playable, targets(b2, "h1").reason) == (False, "no card to target")
    assert targets(arena("soft", purge, curse, hand=["purge"]), "h1").playable


# -- Choose on resolve --------------------------------------------------------------------
def test_choose_on_resolve_chooses_late_but_needs_a_target_to_be_played() -> None:
    late = dict(STRIKE, id="late", choose_on_resolve=True)
    b = arena("strict", late)
    info = targets(b, "h1")
    assert info.choose_on_resolve and not info.requires_target  # no arrow at play time
    with pytest.raises(errors.TargetNotAllowed):
        activate(b, "h1", "orc")
    activate(b, "h1")
    respond_move(b, "orc", "reinforce")
    pass_priority(b)  # the reinforcement resolves: the wolf arrives
    before = canonical_json(b)
    with pytest.raises(errors.TargetRequired) as info_missing:
        resolve_all(b)
    assert info_missing.value.where == "choices.e1" and canonical_json(b) == before
    resolve_all(b, {"e1": "wolf"})  # chosen now, among what exists now
    assert hp(b)["wolf"] == 15
    warded = arena(
        "strict", late, units=[unit("hero", "player"), unit("orc", statuses={"ward": 1})]
    )
    assert targets(warded, "h1").reason == WARD_ON_ORC


def test_choose_on_resolve_in_an_immediate_play_takes_the_choice_as_target() -> None:
    late = dict(STRIKE, id="late", choose_on_resolve=True)
    b = arena("soft", late)
    play(b, "h1", "imp")
    assert hp(b)["imp"] == 15
    with pytest.raises(errors.NotACandidate):
        play(arena("soft", late), "h1", "hero")


# -- "Will not be the target of" ------------------------------------------------------------
def test_protected_units_count_as_non_existent_when_choosing() -> None:
    units = [unit("hero", "player"), unit("orc", statuses={"ward": 1}), unit("imp")]
    b = arena("soft", STRIKE, VOLLEY, units=units, hand=["strike", "volley"])
    assert targets(b, "h1").candidates == ("imp",)
    assert targets(b, "h2").range == ("imp",)
    play(b, "h2")
    assert hp(b)["orc"] == 20 and hp(b)["imp"] == 16


def test_abolish_all_is_fulfilled_when_all_others_are_abolished() -> None:
    abolish = card(
        "abolish",
        "AllEnemies",
        {"id": "all", "type": "DealDamage", "amount": 99, "source": "AllOpponents"},
        {"id": "foes", "type": "UnitSource", "source": "AllOpponents"},
        {"id": "none_left", "type": "Condition", "test": "empty", "ports": {"input": "foes"}},
        {"id": "bonus", "type": "Gate", "ports": {"condition": "none_left"}, "next": "draw"},
        {"id": "draw", "type": "Draw", "count": 2},
    )
    abolish["behavior"]["nodes"][0]["next"] = "bonus"
    units = [unit("hero", "player"), unit("orc", statuses={"ward": 1}), unit("imp")]
    b = arena("strict", abolish, card("x"), units=units, hand=["abolish"], draw=["x", "x"])
    play(b, "h1")
    assert hp(b)["orc"] == 20 and hp(b)["imp"] == 0
    assert len(b.piles[Pile.HAND]) == 2  # the condition held: the warded orc does not count


def test_protection_gained_after_choosing_removes_it_from_an_all_effect() -> None:
    b = arena("strict", VOLLEY)
    activate(b, "h1")
    respond_move(b, "orc", "shield", "imp")
    events = resolve_all(b)
    assert "effect_failed" not in types(events)
    assert hp(b)["imp"] == 20 and hp(b)["orc"] == 16


# -- Enemies respond with the same legality; per-effect policy; persistence ----------------
def test_enemy_responses_never_aim_at_protected_units() -> None:
    units = [
        unit("hero", "player", statuses={"ward": 1}),
        unit("mage", "player"),
        unit("orc", moves=["kill"]),
    ]
    for seed in range(10):
        b = arena("soft", STRIKE, units=units, seed=seed)
        activate(b, "h1", "orc")
        events = pass_priority(b)
        assert of_type(events, "enemy_responds")[0]["target"] == "mage"
    b = arena("soft", STRIKE, units=units)
    activate(b, "h1", "orc")
    with pytest.raises(errors.CutError, match="not a valid target"):
        respond_move(b, "orc", "kill", "hero")


@pytest.mark.parametrize(
    ("rules", "policy", "fails"), [("strict", "skip", False), ("soft", "fail", True)]
)
def test_a_per_effect_policy_overrides_the_profile(rules: str, policy: str, fails: bool) -> None:
    b = arena(rules, dict(STRIKE, on_lost_target=policy))
    activate(b, "h1", "orc")
    respond_move(b, "orc", "retreat", "imp")
    events = resolve_all(b)  # the imp left the field; the chosen orc did not: nothing is lost
    assert "effect_failed" not in types(events)
    b2 = arena(rules, dict(STRIKE, on_lost_target=policy))
    activate(b2, "h1", "imp")
    respond_move(b2, "orc", "retreat", "imp")  # now the chosen target leaves the field
    events = resolve_all(b2)
    assert ("effect_failed" in types(events)) is fails
    assert (b2.units[0].armor == 0) is fails  # "nothing of it applies" only when it fails


def test_the_cut_is_saved_with_the_battle() -> None:
    b = arena("strict", VOLLEY, TWIN, hand=["volley", "twin"])
    activate(b, "h1")
    respond_move(b, "orc", "kill", "mage")
    text = canonical_json(b)
    again = load_battle(json.loads(text))
    assert canonical_json(again) == text and again.pile_of("h1") == "resolving"
    assert resolve_all(again) == resolve_all(b)


@pytest.mark.parametrize(
    ("patch", "where"),
    [
        ({"target_count": 2, "target": "AllEnemies"}, "cards[0].target_count"),
        ({"choose_on_resolve": True, "target": "None"}, "cards[0].choose_on_resolve"),
        ({"target_filter": {"cost": 1}}, "cards[0].target_filter.cost"),
        ({"card_targets": {"zones": ["graveyard"]}}, "cards[0].card_targets.zones[0]"),
        ({"on_lost_target": "retry"}, "cards[0].on_lost_target"),
    ],
)
def test_bad_targeting_fields_name_the_path(patch: dict[str, Any], where: str) -> None:
    with pytest.raises(FormatError) as info:
        load_battle(battle_doc([dict(STRIKE, **patch)]))
    assert info.value.where == where
