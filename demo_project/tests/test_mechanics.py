"""The demo's own mechanics (extensions/mechanics.py), tested the way a game tests its cards:
with the ``game`` fixture of pybridge's pytest plugin, which loads the extensions this
project lists in project.godot."""

from __future__ import annotations

from typing import Any

from pybridge.examples import demo_battle
from pybridge.testing import Game

LIBRARY = "cards/mechanics.json"


def trial(hand: list[str], draw: int = 5) -> dict[str, Any]:
    """The demo's party battle with these cards in hand and Strikes in the draw pile."""
    battle = demo_battle()
    battle["piles"] = {
        "hand": [{"id": f"h{i}", "card": card} for i, card in enumerate(hand)],
        "draw": [{"id": f"d{i}", "card": "strike"} for i in range(draw)],
    }
    battle["energy"] = battle["max_energy"] = 9
    return battle


def test_the_library_lints_clean_and_says_what_it_does(game: Game) -> None:
    game.assert_library_clean(LIBRARY)


def test_scry_asks_which_cards_stay_on_top_and_in_which_order(game: Game) -> None:
    battle = game.open(trial(["foresight"]), libraries=[LIBRARY])
    asked = battle.play("h0", expect="choice_needed").error["choice"]
    assert asked["kind"] == "scry" and asked["options"] == ["d0", "d1", "d2"]
    assert asked["ordered"] and asked["visibility"] == "owner"
    assert battle.pile("hand") == ["h0"], "asking changed nothing"
    played = battle.play("h0", choices={"look": ["d2", "d0"]})
    played.expect_event("scried", looked=3, kept=2, discarded=1)
    played.expect_event("card_moved", card="d1", to="discard")
    played.expect_log("You look at the top 3 of your draw pile: 2 kept on top, 1 discarded.")
    assert battle.pile("draw") == ["d2", "d0", "d3", "d4"]


def test_a_scry_answer_that_is_not_among_the_options_is_refused(game: Game) -> None:
    battle = game.open(trial(["foresight"]), libraries=[LIBRARY])
    refused = battle.play("h0", choices={"look": ["d4"]}, expect="not_a_candidate")
    assert "not one of the options" in refused.error["message"]
    battle.play("h0", choices={"look": ["d0", "d0"]}, expect="not_a_candidate")
    assert battle.pile("draw") == ["d0", "d1", "d2", "d3", "d4"]


def test_scry_on_an_empty_draw_pile_does_nothing(game: Game) -> None:
    battle = game.open(trial(["foresight"], draw=0), libraries=[LIBRARY])
    battle.play("h0").expect_event("no_targets", action="Scry")


def test_flurry_grows_with_the_cards_played_before_it_this_turn(game: Game) -> None:
    battle = game.open(trial(["flurry", "flurry", "flurry"]), libraries=[LIBRARY])
    amounts = [battle.play(f"h{i}", target="orc").expect_event("damage")["amount"]
               for i in range(3)]  # fmt: skip
    assert amounts == [2, 5, 8]
    assert battle.state["counters"] == {"combo": 3}
    turn = battle.end_turn()
    turn.expect_event("counter", counter="combo", before=3, after=0)


def test_drain_heals_the_host_by_the_health_it_took(game: Game) -> None:
    battle = game.open(trial(["drain_touch"]), libraries=[LIBRARY])
    before = battle.unit("knight")
    assert before["hp"] == before["max_hp"]
    hurt = demo_battle()
    for unit in hurt["units"]:
        if unit["id"] == "knight":
            unit["hp"] = 30
    hurt["piles"] = {"hand": [{"id": "h0", "card": "drain_touch"}]}
    battle = game.open(hurt, libraries=[LIBRARY])
    played = battle.play("h0", target="goblin")
    taken = played.expect_event("damage", unit="goblin")
    played.expect_event("heal", unit="knight", amount=taken["hp_before"] - taken["hp_after"])


def test_drain_from_full_health_takes_health_and_heals_nothing(game: Game) -> None:
    battle = game.open(trial(["drain_touch"]), libraries=[LIBRARY])
    played = battle.play("h0", target="goblin")
    played.expect_event("damage", unit="goblin")
    played.expect_no_event("heal")
    assert not any("recovers" in line for line in played.log)


def test_a_preview_answers_the_scry_with_its_default(game: Game) -> None:
    battle = game.open(trial(["foresight"]), libraries=[LIBRARY])
    preview = battle.preview("h0")
    assert preview.events_of("scried", kept=3, discarded=0)
    assert battle.pile("draw") == ["d0", "d1", "d2", "d3", "d4"]
