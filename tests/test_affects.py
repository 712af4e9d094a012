"""What a card lights is what its play would act on: the highlight and the preview's marks
name the same units (a status's reaction aside), for every kind of card."""

from __future__ import annotations

import json
from typing import Any

from pybridge.autoplay import next_play
from pybridge.examples import demo_battle
from pybridge.protocol import Protocol
from pybridge.runtime import Pcg32, canonical_json, load_battle, play, preview, targets
from pybridge.runtime.affects import affected_units, own_events
from pybridge.runtime.narrate import preview_marks
from pybridge.runtime.turns import end_turn, start_battle

from .builders import battle_doc, card, party


def ask(protocol: Protocol, **request: Any) -> dict[str, Any]:
    response = json.loads(protocol.call(json.dumps(request)))
    assert response["ok"], response
    result: dict[str, Any] = response["result"]
    return result


def demo_targets(card_id: str, **changes: Any) -> dict[str, Any]:
    protocol = Protocol()
    document = demo_battle()
    document.update(changes)
    session = ask(protocol, op="open", battle=document)["session"]
    return ask(protocol, op="targets", session=session, card=card_id)


def test_an_execute_like_card_without_a_mode_target_lights_the_unit_it_hits() -> None:
    execute = demo_targets("h11")  # Execute: 10 damage to the enemy with the lowest health
    assert execute["mode"] == "None" and execute["range"] == []
    assert execute["affects"] == ["goblin"]  # 18 HP, against 34 and 22


def test_arrow_random_area_and_draw_cards() -> None:
    assert demo_targets("h1")["affects"] == ["goblin", "orc", "shaman"]  # Strike: candidates
    assert demo_targets("h8")["affects"] == ["goblin", "orc", "shaman"]  # Wild Shot: its range
    assert demo_targets("h6")["affects"] == ["knight", "cleric", "ranger"]  # Prayer
    assert demo_targets("h3")["affects"] == ["knight"]  # Defend
    assert demo_targets("h10")["affects"] == []  # Quartermaster only moves a card


def test_a_reaction_is_marked_where_it_lands_but_not_lit() -> None:
    battle = load_battle(demo_battle())
    events = preview(battle, "h2")  # Meteor Strike; the Orc's Thorns strike the Ranger back
    assert set(preview_marks(battle, events)) == {"goblin", "orc", "shaman", "ranger"}
    assert affected_units(battle, targets(battle, "h2")) == ("goblin", "orc", "shaman")
    own = own_events(battle, events)
    assert [e["type"] for e in events if e not in own] == ["reaction", "damage"]


def test_a_card_that_cannot_be_played_says_its_range() -> None:
    broke = demo_targets("h11", energy=0)
    assert broke["playable"] is False and broke["affects"] == broke["range"] == []
    assert demo_targets("h2", energy=1)["affects"] == ["goblin", "orc", "shaman"]


def test_an_area_card_that_hits_fewer_units_lights_only_those() -> None:
    """An AllEnemies card whose Behavior hits only the first enemy (the lint's PB101 case)."""
    fake = card("fake", "AllEnemies", {"id": "hit", "type": "DealDamage", "amount": 3,
                                       "source": "Opponent"})  # fmt: skip
    battle = load_battle(battle_doc([fake], units=party(), hand=["fake"]))
    info = targets(battle, "h1")
    assert info.range == ("goblin", "orc", "troll")
    assert affected_units(battle, info) == ("goblin",)


def test_lit_units_always_hold_the_marks_of_the_cards_own_effects() -> None:
    """Over random games: for every playable card that aims at nobody, the units it lights
    are exactly the units the preview marks, reactions aside; asking changes nothing."""
    rng = Pcg32(17)
    checked = 0
    for seed in range(6):
        document = demo_battle()
        document["seed"] = seed
        battle = load_battle(document)
        start_battle(battle)
        for _ in range(14):
            if battle.result is not None:
                break
            for card_id in list(battle.piles["hand"]):  # type: ignore[index]
                info = targets(battle, card_id)
                before = canonical_json(battle)
                lit = affected_units(battle, info)
                assert canonical_json(battle) == before
                if not info.playable or info.mode.facts.chooses_units:
                    assert lit == info.range
                    continue
                marked = preview_marks(battle, own_events(battle, preview(battle, card_id)))
                assert set(lit) == set(marked), (card_id, lit, marked)
                checked += 1
            step = next_play(battle, rng)
            if step is None:
                end_turn(battle)
            else:
                play(battle, *step)
    assert checked > 40
