"""One bound per request, through the protocol: every Cut entry and every Behavior a request
resolves spends one work budget, an action's units and cards count as work, a request reports
at most so many events, and a result is at most so long. A request past any bound is refused
and changes nothing.

Each test is a reproduction kept from issue 20, item 12.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from pybridge import protocol
from pybridge.runtime.graph import MAX_EVALUATIONS
from pybridge.runtime.guards import MAX_EVENTS
from pybridge.runtime.resolve import MAX_WORK

from .builders import action, battle_doc, card, move, unit
from .protocol_support import Session

STALL = move("stall", "None")


def reaction(evaluations: int) -> dict[str, Any]:
    """A Behavior of about ``evaluations`` node evaluations: actions reading one long chain."""
    depth = 43
    chain: list[dict[str, Any]] = [{"id": "s0", "type": "UnitSource", "source": "Self"}]
    chain += [{"id": f"s{i}", "type": "Sort", "by": "hp", "ports": {"input": f"s{i - 1}"}}
              for i in range(1, depth + 1)]  # fmt: skip
    count = evaluations // (depth + 2)
    acts = [{"id": f"a{i}", "type": "RemoveStatus", "status": "none",
             "ports": {"target": f"s{depth}"}, **({"next": f"a{i + 1}"} if i + 1 < count else {})}
            for i in range(count)]  # fmt: skip
    return {"start": "a0", "nodes": chain + acts}


def stacked(heavy: dict[str, Any], units: list[dict[str, Any]], **kw: Any) -> Session:
    """``heavy`` activated 32 times, each answered by a stall: 64 entries on the Cut."""
    doc = battle_doc([heavy], units=units, hand=[heavy["id"]] * 32, moves=[STALL], **kw)
    s = Session(doc)
    for i in range(1, 33):
        s.quick("activate", card=f"h{i}")
        s.quick("respond", unit="orc", move="stall")
    return s


def test_every_cut_entry_of_a_request_spends_one_budget() -> None:
    """Each entry alone is far below the budget; one ``resolve`` of all of them is not (each
    used to get a fresh budget: one legal resolve ran for 45 s)."""
    spite = {"id": "spite", "name": "Spite", "hooks": {"attacked": reaction(MAX_EVALUATIONS)}}
    poke = card("poke", "None", *[
        {"id": f"p{i}", "type": "DealDamage", "amount": 0, "source": "AllOpponents"}
        for i in range(5)])  # fmt: skip
    units = [unit("hero", "player"), unit("orc", moves=["stall"], statuses={"spite": 1})]
    s = stacked(poke, units, statuses=[spite])
    error = s.refused("resolve", "work_limit", "")
    assert f"more than {MAX_WORK} units of work" in error["message"]
    for _ in range(6):  # one entry per request is well within the budget: cards and the
        s.quick("pass")  # rival's stalls resolve (and the AI answers each card first)
    assert 0 < len(s.cut()) < 64


def test_the_units_an_action_acts_on_are_work() -> None:
    """An action over 64 units is 64 units of work, events or not (a RemoveStatus of a status
    nobody has reports nothing)."""
    sweep = card("sweep", "None", *[
        {"id": f"n{i}", "type": "RemoveStatus", "status": "none", "source": "AllUnits"}
        for i in range(250)])  # fmt: skip
    units = [unit("hero", "player"), unit("orc", moves=["stall"])]
    units += [unit(f"u{i}") for i in range(62)]
    s = stacked(sweep, units)
    s.refused("resolve", "work_limit", "")
    assert s.events("pass")  # one of them: 250 + 250 * 64 units of work


def test_a_request_reports_a_bounded_number_of_events() -> None:
    """A legal play that moved 2,000 cards 255 times used to answer 42 MB after seconds."""
    mover = card("mover", "None", *[
        {"id": f"n{i}", "type": "MoveCard", "to": "discard", "source": "AllPiles"}
        for i in range(255)])  # fmt: skip
    doc = battle_doc([mover, card("f")], hand=["mover"], draw=["f"] * 1999)
    s = Session(doc)
    error = s.refused("play", "work_limit", "", card="h1")
    assert f"more than {MAX_EVENTS} events" in error["message"]
    light = dict(mover, behavior={**mover["behavior"], "nodes": mover["behavior"]["nodes"][:1],
                                  "start": "n0"})  # fmt: skip
    light["behavior"]["nodes"] = [{k: v for k, v in light["behavior"]["nodes"][0].items()
                                   if k != "next"}]  # fmt: skip
    assert len(Session({**doc, "cards": [light, card("f")]}).events("play", card="h1")) > 2000


def test_a_result_longer_than_the_bound_is_refused_and_changes_nothing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    s = Session(battle_doc([card("jab", "SingleEnemy", action("DealDamage", amount=1,
                                                                  source="Target"))],
                           hand=["jab"]))  # fmt: skip
    before = s.state_text()
    size = len(s.proto.call(json.dumps({"op": "state", "session": s.id})))
    monkeypatch.setattr(protocol, "MAX_RESPONSE", size + 100)  # a state fits, a play does not
    error = s.call("play", card="h1", target="orc")["error"]
    assert error["code"] == "too_large" and "nothing was changed" in error["message"]
    assert s.state_text() == before
    monkeypatch.setattr(protocol, "MAX_RESPONSE", 100)
    assert s.call("targets", card="h1")["error"]["code"] == "too_large"
