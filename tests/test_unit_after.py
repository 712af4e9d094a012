"""Events tell the unit they changed as it is after them (``unit_after``), so a host plays a
request back by showing each one, never by knowing what an event type does to a unit.

Only a request whose events a host reads pays for it: the runtime's own calls (the simulation's
loop, previews) give plain event lists.
"""

from __future__ import annotations

import json
from typing import Any

from pybridge.examples import demo_battle
from pybridge.protocol import Protocol
from pybridge.runtime import Pile, load_battle, play, targets
from pybridge.runtime.model import Team
from pybridge.runtime.units_after import unit_looks

from .builders import action, battle_doc, card, unit
from .protocol_support import Session

LOOKS = ("hp", "max_hp", "armor", "statuses", "alive", "zone", "intent")


def looks(state_unit: dict[str, Any]) -> dict[str, Any]:
    """A state's unit as ``unit_after`` tells it (the intent without its forecast)."""
    intent = state_unit.get("intent")
    return {
        "hp": state_unit["hp"], "max_hp": state_unit["max_hp"], "armor": state_unit["armor"],
        "statuses": state_unit["statuses"], "alive": state_unit["hp"] > 0,
        "zone": state_unit["zone"],
        "intent": None if intent is None else {"move": intent["move"], "target": intent["target"]},
    }  # fmt: skip


def played_back(before: dict[str, Any], events: list[dict[str, Any]]) -> dict[str, Any]:
    """The units of ``before`` with each event's ``unit_after`` shown in turn, as a host does."""
    units = {u["id"]: looks(u) for u in before["units"]}
    for event in events:
        if "unit_after" in event:
            units[event["unit"]] = event["unit_after"]
    return units


def test_playing_the_units_after_back_ends_on_the_state_the_runtime_sent() -> None:
    s = Session(demo_battle())
    state, requests = s.opened["result"]["state"], 0
    for _ in range(40):
        if state["result"] is not None:
            break
        hand = [c["id"] for c in state["piles"]["hand"]]
        infos = [s.ok("targets", card=c) for c in hand]
        playable = [i for i in infos if i["playable"]]
        if playable and requests % 3 != 2:
            info = playable[0]
            target = info["candidates"][0] if info["requires_target"] else None
            op = "activate" if requests % 2 else "play"
            result = s.ok(op, card=info["card"], target=target)
            if op == "activate":
                later = s.ok("pass")  # the enemies answer, or it resolves
                result = {**later, "events": result["events"] + later["events"]}
        else:
            result = s.ok("end_turn") if not state["cut"] else s.ok("resolve")
        requests += 1
        final = {u["id"]: looks(u) for u in result["state"]["units"]}
        shown = played_back(state, result["events"])
        for uid, after in final.items():  # the enemy phase drops a fallen enemy's intent
            if not after["alive"]:  # untold; nothing draws a fallen unit's intent
                shown[uid]["intent"] = after["intent"]
        assert shown == final
        state = result["state"]
    assert requests >= 10


def test_only_an_event_that_changed_its_unit_tells_it() -> None:
    s = Session(demo_battle())
    state = s.opened["result"]["state"]
    hit = next(c["id"] for c in state["piles"]["hand"] if s.ok("targets", card=c["id"])["playable"]
               and s.ok("targets", card=c["id"])["requires_target"])  # fmt: skip
    target = s.ok("targets", card=hit)["candidates"][0]
    events = s.events("play", card=hit, target=target)
    for event in events:
        if event["type"] in ("damage", "status", "armor", "heal"):
            assert event["unit_after"]["hp"] == event.get("hp_after", event["unit_after"]["hp"])
        if event["type"] in ("card_played", "card_moved", "card_resolved", "unit_died"):
            assert "unit_after" not in event
    assert any("unit_after" in e for e in events)


def test_a_revive_tells_what_it_did_to_armor_and_statuses() -> None:
    """The playback used to replay this itself (armor to 0, statuses cleared)."""
    raise_dead = card("raise", "None", action("Revive", hp=7, source="AllDeadAllies"))
    fallen = unit("mage", "player", hp=0, max_hp=20, armor=4, statuses={"burn": 2})
    doc = battle_doc([raise_dead], units=[unit("hero", "player"), fallen, unit("imp")],
                     hand=["raise"])  # fmt: skip
    events = Session(doc).events("play", card="h1")
    revived = next(e for e in events if e["type"] == "revived")
    assert revived["unit_after"] == {"hp": 7, "max_hp": 20, "armor": 0, "statuses": {},
                                     "alive": True, "zone": "field", "intent": None}  # fmt: skip


def test_the_runtimes_own_calls_give_plain_events() -> None:
    battle = load_battle(demo_battle())
    hand = battle.sides[Team.PLAYER].piles[Pile.HAND]
    aimed = next(c for c in hand if targets(battle, c).requires_target)
    events = play(battle, aimed, targets(battle, aimed).candidates[0])
    assert type(events) is list and events
    assert not any("unit_after" in e for e in events) and not battle.unit_after


def test_unit_looks_are_what_a_state_unit_tells() -> None:
    battle = load_battle(demo_battle())
    opened = json.loads(Protocol().call(json.dumps({"op": "open", "battle": demo_battle()})))
    for state_unit, model in zip(opened["result"]["state"]["units"], battle.units, strict=True):
        assert tuple(unit_looks(model)) == LOOKS
        assert looks(state_unit)["max_hp"] == unit_looks(model)["max_hp"]
