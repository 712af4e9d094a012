"""Card target modes: the table of target-selection-guide.txt and the GCS mode table."""

from __future__ import annotations

import pytest

from pybridge.runtime import TargetMode, candidates, errors, play, targets
from pybridge.runtime.modes import MODE_NAMES

from .builders import action, card, hp, make_battle, of_type, party, snapshot, unit

ARROW = {"SingleEnemy", "SingleAlly", "OtherAlly", "AnyUnit"}


@pytest.mark.parametrize("mode", [m.value for m in TargetMode])
def test_requires_target_exactly_for_the_arrow_modes(mode: str) -> None:
    # Guide tip: "Single Enemy, Single Ally, Other Ally, and Any Unit display the aiming arrow"
    assert TargetMode(mode).requires_target is (mode in ARROW)


@pytest.mark.parametrize(
    ("gcs", "requires"),
    [("None", False), ("SingleEnemyUnit", True), ("AllEnemyUnits", False), ("Self", False)],
)
def test_gcs_vocabulary_requires_target_exactly_for_single_enemy_unit(gcs: str, requires: bool):
    # GCS: "GCSApi.RequiresTarget returns true exactly for SingleEnemyUnit."
    assert MODE_NAMES[gcs].requires_target is requires


def test_gcs_aliases_and_spaced_names_map_to_the_guide_modes() -> None:
    assert MODE_NAMES["SingleEnemyUnit"] is TargetMode.SINGLE_ENEMY
    assert MODE_NAMES["AllEnemyUnits"] is TargetMode.ALL_ENEMIES
    assert MODE_NAMES["Other Ally"] is TargetMode.OTHER_ALLY


def cands(mode: str, source: str = "hero", dead: tuple[str, ...] = ()) -> list[str]:
    units = [dict(u, hp=0) if u["id"] in dead else u for u in party()]
    b = make_battle(card("c", mode), units=units)
    src = b.unit(source)
    assert src is not None
    return [u.id for u in candidates(b, src, TargetMode(mode))]


# One row per mode of the guide's "Card Target controls player input" table.
@pytest.mark.parametrize(
    ("mode", "expected"),
    [
        ("None", []),
        ("SingleEnemy", ["goblin", "orc", "troll"]),  # select one living enemy
        ("AllEnemies", []),  # select no unit
        ("Self", []),
        ("SingleAlly", ["hero", "mage", "monk"]),  # one living ally, including the source
        ("OtherAlly", ["mage", "monk"]),  # one living ally other than the source
        ("AllAllies", []),
        ("RandomAlly", ["hero", "mage", "monk"]),  # the pool the runtime picks from
        ("RandomOpponent", ["goblin", "orc", "troll"]),
        ("AnyUnit", ["hero", "mage", "monk", "goblin", "orc", "troll"]),  # no team restriction
    ],
)
def test_candidates_per_mode(mode: str, expected: list[str]) -> None:
    assert cands(mode) == expected


@pytest.mark.parametrize(
    "mode", ["SingleEnemy", "SingleAlly", "OtherAlly", "AnyUnit", "RandomAlly", "RandomOpponent"]
)
def test_dead_units_are_never_candidates(mode: str) -> None:
    assert "orc" not in cands(mode, dead=("orc", "mage"))
    assert "mage" not in cands(mode, dead=("orc", "mage"))


def test_ally_modes_are_relative_to_the_source_party() -> None:
    assert cands("SingleAlly", source="mage") == ["hero", "mage", "monk"]
    assert cands("OtherAlly", source="mage") == ["hero", "monk"]


def test_targets_report_range_for_modes_without_a_click() -> None:
    b = make_battle(
        card("all", "AllEnemies"),
        card("me", "Self"),
        card("team", "AllAllies"),
        card("nothing", "None"),
        units=[*party()[:5], unit("troll", hp=0, max_hp=9)],
    )
    assert targets(b, "h1").range == ("goblin", "orc")  # the living enemies it will hit
    assert targets(b, "h2").range == ("hero",)  # Self highlights the source
    assert targets(b, "h3").range == ("hero", "mage", "monk")
    assert targets(b, "h4").range == ()
    for card_id in ("h1", "h2", "h3", "h4"):
        info = targets(b, card_id)
        assert info.requires_target is False and info.candidates == ()


def test_target_info_names_mode_source_and_candidates() -> None:
    b = make_battle(card("jab", "SingleEnemyUnit"))
    info = targets(b, "h1").to_json()
    assert info == {
        "card": "h1",
        "mode": "SingleEnemy",
        "requires_target": True,
        "source": "hero",
        "candidates": ["goblin", "orc", "troll"],
        "range": ["goblin", "orc", "troll"],
        "playable": True,
        "reason": None,
        "reason_message": None,
        "count": 1,
        "up_to": False,
        "count_label": "",
        "count_label_message": None,
        "choose_on_resolve": False,
        "late_choice": None,
        "refusal": None,
        "protected": [],
        "facts": TargetMode.SINGLE_ENEMY.facts.to_json(),  # "SingleEnemyUnit" is its alias
    }


def test_card_owner_is_the_source_member() -> None:
    b = make_battle(
        card("buddy", "OtherAlly"), hand=[{"id": "h1", "card": "buddy", "owner": "monk"}]
    )
    assert targets(b, "h1").source == "monk"
    assert targets(b, "h1").candidates == ("hero", "mage")


hit = action("DealDamage", amount=5, source="Target")


@pytest.mark.parametrize(
    ("mode", "target", "error"),
    [
        ("SingleEnemy", None, errors.TargetRequired),
        ("SingleAlly", None, errors.TargetRequired),
        ("OtherAlly", None, errors.TargetRequired),
        ("AnyUnit", None, errors.TargetRequired),
        ("SingleEnemy", "mage", errors.NotACandidate),  # an ally is not an enemy
        ("SingleEnemy", "dead_imp", errors.NotACandidate),  # dead units cannot be chosen
        ("SingleAlly", "orc", errors.NotACandidate),
        ("OtherAlly", "hero", errors.NotACandidate),  # Other Ally excludes the source
        ("AnyUnit", "dead_imp", errors.NotACandidate),
        ("SingleEnemy", "nobody", errors.UnknownUnit),
        ("SingleEnemy", 42, errors.UnknownUnit),
        ("AllEnemies", "orc", errors.TargetNotAllowed),  # All-modes submit nothing
        ("Self", "hero", errors.TargetNotAllowed),
        ("RandomOpponent", "orc", errors.TargetNotAllowed),  # the runtime chooses
        ("None", "orc", errors.TargetNotAllowed),
    ],
)
def test_bad_plays_are_refused_before_anything_changes(
    mode: str, target: object, error: type[errors.PlayError]
) -> None:
    b = make_battle(
        card("c", mode, hit, cost=1), units=[*party(), unit("dead_imp", hp=0, max_hp=5)]
    )
    before = snapshot(b)
    with pytest.raises(error) as info:
        play(b, "h1", target)
    assert info.value.where == "target"
    if target is not None:
        assert repr(target) in str(info.value)  # the message quotes the input
    assert snapshot(b) == before


def test_unknown_card_not_in_hand_and_energy_are_refused() -> None:
    b = make_battle(card("c", "None", cost=2), discard=["c"], energy=1)
    before = snapshot(b)
    with pytest.raises(errors.UnknownCard, match="'zzz'"):
        play(b, "zzz")
    with pytest.raises(errors.NotInHand, match="discard pile"):
        play(b, "x1")
    with pytest.raises(errors.NotEnoughEnergy, match="costs 2, only 1"):
        play(b, "h1")
    assert snapshot(b) == before


def test_a_dead_source_cannot_play() -> None:
    b = make_battle(
        card("c", "Self"),
        hand=[{"id": "h1", "card": "c", "owner": "monk"}],
        units=[dict(u, hp=0) if u["id"] == "monk" else u for u in party()],
    )
    with pytest.raises(errors.NoSource, match="'monk'"):
        play(b, "h1")


def test_single_enemy_submits_the_clicked_enemy_through_opponent() -> None:
    # Guide: "Single Enemy ... Opponent reads the enemy submitted by the player"
    b = make_battle(
        card("strike", "SingleEnemy", action("DealDamage", amount=6, source="Opponent"))
    )
    play(b, "h1", "troll")
    assert hp(b)["troll"] == 14 and hp(b)["goblin"] == 20


@pytest.mark.parametrize(
    ("mode", "pool"),
    [("RandomAlly", {"hero", "mage", "monk"}), ("RandomOpponent", {"goblin", "orc", "troll"})],
)
def test_random_modes_submit_exactly_one_living_unit_through_target(
    mode: str, pool: set[str]
) -> None:
    chosen = set()
    for seed in range(40):
        b = make_battle(
            card("r", mode, action("ApplyStatus", status="mark", source="Target")),
            units=[
                *party(),
                unit("corpse", hp=0, max_hp=3),
                unit("fallen", "player", hp=0, max_hp=3),
            ],
            seed=seed,
        )
        events = play(b, "h1")
        picked = of_type(events, "random_target")[0]["unit"]
        marked = [u.id for u in b.units if u.statuses.get("mark")]
        assert marked == [picked]
        chosen.add(picked)
    assert chosen == pool  # every living unit of the right side gets picked, no dead one


def test_random_mode_with_an_empty_pool_plays_and_does_nothing() -> None:
    units = [unit("hero", "player"), unit("goblin", hp=0, max_hp=3)]
    b = make_battle(
        card("r", "RandomOpponent", action("DealDamage", amount=3, source="Target")), units=units
    )
    events = play(b, "h1")
    assert of_type(events, "random_target")[0]["unit"] is None
    assert of_type(events, "no_targets") == [
        {"type": "no_targets", "node": "act", "action": "DealDamage"}
    ]


def test_random_choice_is_deterministic_for_a_seed() -> None:
    def pick(seed: int) -> str:
        b = make_battle(card("r", "RandomOpponent", hit), seed=seed)
        return str(of_type(play(b, "h1"), "random_target")[0]["unit"])

    assert [pick(3) for _ in range(5)] == [pick(3)] * 5
    assert len({pick(s) for s in range(20)}) > 1
