"""Intent forecasts say what each enemy move will do, after every modifier; the narrator's log
and preview marks are the words every host shows."""

from __future__ import annotations

import json
from typing import Any

import pytest

from pybridge.autoplay import next_play
from pybridge.examples import demo_battle
from pybridge.protocol import Protocol, state_of
from pybridge.runtime import Battle, Pcg32, canonical_json, load_battle, play
from pybridge.runtime.forecast import forecast_intents
from pybridge.runtime.model import Intent
from pybridge.runtime.narrate import narrate_all, preview_marks
from pybridge.runtime.turns import end_turn, start_battle


def demo(seed: int = 0, **changes: Any) -> Battle:
    doc = demo_battle()
    doc["seed"] = seed
    battle = load_battle(doc)
    start_battle(battle)
    return battle


def what_happened(events: list[dict[str, Any]]) -> dict[str, list[tuple[Any, ...]]]:
    """Each enemy's damage and statuses as they happened in an enemy phase."""
    out: dict[str, list[tuple[Any, ...]]] = {}
    current: str | None = None
    for e in events:
        if e["type"] == "enemy_acts":
            current = e["unit"]
            out[current] = []
        elif e["type"] in ("status_hook", "turn_started", "reaction", "battle_ended"):
            current = None
        elif current is not None and e["type"] == "damage" and e["source"] == current:
            out[current].append(("damage", e["unit"], e["amount"], e["hp_before"] - e["hp_after"]))
        elif current is not None and e["type"] in ("armor", "heal"):
            out[current].append((e["type"], e["unit"], e["amount"]))
        elif current is not None and e["type"] == "status":
            out[current].append(("status", e["unit"], e["status"], e["stacks"]))
    return out


def forecast_effects(forecast: dict[str, Any]) -> list[tuple[Any, ...]]:
    out: list[tuple[Any, ...]] = []
    for e in forecast["effects"]:
        if e["type"] == "damage":
            out.append(("damage", e["unit"], e["amount"], e["hp_loss"]))
        elif e["type"] == "status":
            out.append(("status", e["unit"], e["status"], e["stacks"]))
        else:
            out.append((e["type"], e["unit"], e["amount"]))
    return out


@pytest.mark.parametrize("seed", range(12))
def test_every_forecast_is_what_the_move_then_does(seed: int) -> None:
    """Random legal plays for a few turns; before each end of turn, the forecasts equal the
    enemy phase that follows, number for number."""
    battle = demo(seed)
    rng = Pcg32(seed + 99)
    for _ in range(4):
        while battle.result is None and (choice := next_play(battle, rng)) is not None:
            play(battle, *choice)
        if battle.result is not None:
            break
        forecasts = forecast_intents(battle)
        happened = what_happened(end_turn(battle))
        for unit_id, forecast in forecasts.items():
            if forecast["acts"]:
                assert forecast_effects(forecast) == happened[unit_id], (unit_id, forecast)
            else:
                assert unit_id not in happened


def test_strength_weak_and_armor_change_the_forecast_number() -> None:
    battle = demo()
    orc = battle.unit("orc")
    cleric = battle.unit("cleric")
    assert orc is not None and cleric is not None
    orc.intent = Intent("smash", "cleric")
    assert forecast_intents(battle)["orc"]["title"] == "Smash 9"
    orc.statuses["strength"] = 2
    assert forecast_intents(battle)["orc"]["label"] == "11"
    orc.statuses["weak"] = 1  # -2 per stack
    cleric.armor = 5
    forecast = forecast_intents(battle)["orc"]
    assert forecast["label"] == "9" and forecast["effects"][0]["blocked"] == 5
    assert forecast["effects"][0]["hp_loss"] == 4 and forecast["kind"] == "attack"


def test_non_damage_intents_show_their_numbers_in_the_runtimes_words() -> None:
    battle = demo()
    goblin, orc = battle.unit("goblin"), battle.unit("orc")
    assert goblin is not None and orc is not None
    goblin.intent = Intent("guard")
    orc.intent = Intent("war_cry")
    found = forecast_intents(battle)
    assert (found["goblin"]["kind"], found["goblin"]["label"]) == ("defend", "6")
    assert found["goblin"]["detail"] == "on itself" and found["goblin"]["title"] == "Guard 6"
    assert (found["orc"]["kind"], found["orc"]["label"]) == ("buff", "1 Strength")
    assert found["orc"]["detail"] == "on all its allies"


def test_an_attack_names_the_status_it_also_gives() -> None:
    battle = demo()
    shaman, orc = battle.unit("shaman"), battle.unit("orc")
    assert shaman is not None and orc is not None
    shaman.intent = Intent("firebolt", "knight")
    orc.intent = Intent("smash", "cleric")
    forecast = forecast_intents(battle)["shaman"]
    assert forecast["title"] == "Firebolt 4" and forecast["detail"] == "at Knight, with 2 Burn"


def test_a_buff_earlier_in_the_enemy_phase_counts_in_a_later_attack() -> None:
    """The Orc Brute acts before the Goblin Shaman: its War Cry gives every enemy Strength,
    so the Firebolt that follows deals 5, not 4."""
    battle = demo()
    shaman, orc = battle.unit("shaman"), battle.unit("orc")
    assert shaman is not None and orc is not None
    shaman.intent = Intent("firebolt", "knight")
    orc.intent = Intent("war_cry")
    found = forecast_intents(battle)
    assert found["shaman"]["title"] == "Firebolt 5"
    assert found["shaman"]["lines"][0] == "Knight takes 5 damage (4 + 1 from statuses), 35 HP left."


def test_an_enemy_that_falls_before_its_turn_is_forecast_not_to_act() -> None:
    battle = demo()
    goblin = battle.unit("goblin")
    assert goblin is not None
    goblin.hp = 1
    goblin.statuses["burn"] = 3  # burns at the enemies' turn start
    forecast = forecast_intents(battle)["goblin"]
    assert forecast["acts"] is False and forecast["kind"] == "none"
    assert forecast["detail"] == "will not get to act"


def test_a_state_with_forecasts_opens_again_as_the_same_battle() -> None:
    battle = demo(3)
    state = state_of(battle)
    assert all("forecast" in u["intent"] for u in state["units"] if u["intent"])
    again = json.loads(Protocol().call(json.dumps({"op": "open", "battle": state})))
    assert again["ok"], again
    reopened = load_battle(again["result"]["state"])
    assert canonical_json(reopened) == canonical_json(battle)


def test_every_change_answers_with_the_narrators_log() -> None:
    protocol = Protocol()
    opened = json.loads(protocol.call(json.dumps({"op": "open", "battle": demo_battle()})))
    sid = opened["result"]["session"]
    assert [line["text"] for line in opened["result"]["log"]] == [
        "Goblin readies Slash against Ranger.",
        "Orc Brute readies Smash against Cleric.",
        "Goblin Shaman readies Firebolt against Knight.",
    ]
    played = json.loads(protocol.call(json.dumps({"op": "play", "session": sid, "card": "h1",
                                                  "target": "orc"})))["result"]  # fmt: skip
    battle = load_battle(played["state"])
    assert played["log"] == narrate_all(battle, played["events"])
    first = dict(played["log"][0])
    assert first.pop("message")["id"] == "log.play_at"
    assert first == {"text": "Knight plays Strike at Orc Brute.", "kind": "play", "indent": 0,
                     "event": 0}  # fmt: skip
    kinds = {line["kind"] for line in played["log"]}
    assert {"play", "damage", "enemy"} <= kinds  # the Thorns strike back


def test_each_log_line_names_the_event_it_tells() -> None:
    """A host plays a turn back line by line: each line's ``event`` is the index of the event
    it words, in order; the summed-up draw points at the first card drawn."""
    from pybridge.runtime.narrate import narrate

    battle = demo(seed=3)
    events = end_turn(battle)
    lines = narrate_all(battle, events)
    indices = [line["event"] for line in lines]
    assert indices == sorted(indices) and len(set(indices)) == len(indices)
    draws = [line for line in lines if line["text"].startswith("You draw ")]
    assert len(draws) == 1
    first = draws[0]["event"]
    assert (events[first]["from"], events[first]["to"]) == ("draw", "hand")
    assert events[first - 1].get("to") != "hand"  # no earlier card of the same draw
    for line in lines:
        if line not in draws:
            told = narrate(battle, events[line["event"]])
            assert told is not None and told["text"] == line["text"], line
    assert {events[i]["type"] for i in indices} >= {"turn_ended", "enemy_acts", "turn_started"}


def test_preview_marks_are_what_the_play_does_to_each_unit() -> None:
    protocol = Protocol()
    sid = json.loads(protocol.call(json.dumps({"op": "open", "battle": demo_battle()})))["result"][
        "session"
    ]
    answer = json.loads(protocol.call(json.dumps({"op": "preview", "session": sid, "card": "h1",
                                                  "target": "orc"})))["result"]  # fmt: skip
    # Strike deals 6 to the Orc Brute, whose 4 armor blocks 4; its Thorns hit back for 2.
    assert answer["marks"]["orc"] == [
        {"text": "-2 HP", "kind": "damage", "message": {"id": "mark.damage",
                                                        "params": {"lost": 2}}},
        {"text": "4 blocked", "kind": "block", "message": {"id": "mark.blocked",
                                                           "params": {"blocked": 4}}},
    ]  # fmt: skip
    assert [m["text"] for m in answer["marks"]["knight"]] == ["-2 HP"]
    battle = load_battle(demo_battle())
    assert answer["marks"] == preview_marks(battle, answer["events"])
