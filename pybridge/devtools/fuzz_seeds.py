"""Seeds for ``pybridge fuzz``: the battles it keeps open and the requests its corpus starts from.

:func:`fuzzer_battles` are the battles the fuzzer opens first, so on a fresh library they are
sessions ``s1`` to ``s5``: the demo battle, the strict Cut battle of docs/protocol.md
(:func:`strict_battle`) and the three battles of the strict law's hard cases (issue 20) in
:mod:`pybridge.fuzz_cases`. :func:`seed_cases` are requests on them, labelled by the case each
reaches when they are sent in order, then documents the loader must refuse or settle
(:func:`law_documents`): a Cut naming unknown moves, duplicate and out-of-order entry ids, a
card entry on the wrong side, intents in the reserve, a result the units contradict, counters
at their limits, a lone surrogate, a full Cut and one entry more, and a unit list one over
its limit. :func:`seed_requests` are the same requests without their labels.
"""

from __future__ import annotations

import copy
from typing import Any

from .fuzz_cases import (
    Case,
    bounds_battle,
    bounds_cases,
    law_battle,
    law_cases,
    loss_battle,
    loss_cases,
    unit,
)

MAX_INT = 1_000_000_000
Doc = dict[str, Any]


def _full_cut(battle: Doc, entries: int) -> Doc:
    doc = copy.deepcopy(battle)
    doc["cut"] = [{"id": f"e{i}", "side": "enemy", "source": "orc", "move": "hide"}
                  for i in range(1, entries + 1)]  # fmt: skip
    return doc


def law_documents() -> list[Doc]:
    """Documents the loader refuses (or, for the decided ones, settles when opened)."""
    base = law_battle()

    def changed(**fields: Any) -> Doc:
        return {**copy.deepcopy(base), **fields}

    orc_entry = {"id": "e1", "side": "enemy", "source": "orc", "move": "hide"}
    card_entry = {"id": "e2", "side": "player", "source": "hero",
                  "card": {"id": "k", "card": "jab"}}  # fmt: skip
    units = copy.deepcopy(base["units"])
    reserve_intent = copy.deepcopy(units)
    wolf = next(u for u in reserve_intent if u.get("zone") == "reserve")
    wolf["intent"] = {"move": "bite", "target": "hero"}
    fallen = copy.deepcopy(units)
    fallen[0]["hp"] = 0
    beaten = [u if u["team"] == "player" else {**u, "hp": 0} for u in copy.deepcopy(units)]
    return [
        changed(cut=[{**orc_entry, "move": "nope"}]),
        changed(cut=[orc_entry, orc_entry]),
        changed(cut=[{**orc_entry, "id": "e7"}], next_entry=3),
        changed(cut=[{**card_entry, "side": "enemy"}]),
        changed(cut=[{**orc_entry, "move": "bite"}]),
        changed(units=reserve_intent),
        changed(result="victory"),
        changed(units=fallen),
        changed(units=beaten),
        changed(units=beaten, result="victory", cut=[card_entry]),
        changed(next_entry=MAX_INT),
        changed(turn=MAX_INT),
        lone_surrogate_document(),
        _full_cut(base, 64),
        _full_cut(base, 65),
        changed(units=units + [unit(f"u{i}") for i in range(65 - len(units))]),
    ]


def lone_surrogate_document() -> Doc:
    """A battle whose hero's name holds half a UTF-16 pair: refused, readably."""
    doc = law_battle()
    doc["units"][0]["name"] = "Hero \ud800"
    return doc


def strict_battle() -> dict[str, Any]:
    """The strict Cut battle of docs/protocol.md: an enemy with a response move."""
    hit = {"id": "hit", "type": "DealDamage", "amount": 6, "source": "Opponent"}
    return {
        "format": "pybridge/battle@1",
        "seed": 3,
        "rules": "strict",
        "active_player": "hero",
        "units": [
            {"id": "hero", "name": "Hero", "team": "player", "hp": 30, "max_hp": 30},
            {
                "id": "imp",
                "name": "Imp",
                "team": "enemy",
                "hp": 10,
                "max_hp": 10,
                "moves": ["blink"],
            },
            {"id": "ogre", "name": "Ogre", "team": "enemy", "hp": 25, "max_hp": 25},
        ],
        "moves": [
            {
                "id": "blink",
                "name": "Blink",
                "target": "OtherAlly",
                "response": True,
                "behavior": {
                    "start": "away",
                    "nodes": [{"id": "away", "type": "Withdraw", "source": "Target"}],
                },
            }
        ],
        "cards": [
            {
                "id": "strike",
                "name": "Strike",
                "cost": 1,
                "target": "SingleEnemy",
                "behavior": {"start": "hit", "nodes": [hit]},
            }
        ],
        "piles": {
            "hand": [{"id": "c1", "card": "strike"}, {"id": "c2", "card": "strike"}],
            "draw": [{"id": "c3", "card": "strike"}],
        },
    }


def fuzzer_battles(demo: Doc) -> list[Doc]:
    """The battles ``pybridge fuzz`` opens first: sessions ``s1`` to ``s5`` of a fresh library."""
    return [demo, strict_battle(), law_battle(), loss_battle(), bounds_battle()]


def seed_cases(demo: Doc) -> list[Case]:
    """Requests on the battles of :func:`fuzzer_battles` (opened as ``s1`` to ``s5``), each
    labelled by the case it reaches when they are sent in this order (or ""), then the
    documents of :func:`law_documents` to open."""
    hand = [c["id"] for c in demo["piles"]["hand"]]
    units = [u["id"] for u in demo["units"]]
    requests: list[Doc] = [
        {"op": "version", "id": 1},
        {"op": "open", "id": 2, "battle": demo},
        {"op": "open", "id": 3, "battle": strict_battle()},
        {"op": "state", "session": "s1"},
        {"op": "cut", "session": "s2"},
        {"op": "end_turn", "session": "s1"},
        {"op": "activate", "session": "s2", "card": "c1", "target": "ogre"},
        {"op": "respond", "session": "s2", "unit": "imp", "move": "blink", "target": "ogre"},
        {"op": "pass", "session": "s2"},
        {"op": "resolve", "session": "s2", "choices": {"e1": "ogre"}},
        {"op": "lint", "document": demo},
        {"op": "describe", "session": "s1", "card": hand[0]},
        {"op": "describe", "definition": demo["cards"][0]},
    ]
    for card in hand:
        requests.append({"op": "targets", "session": "s1", "card": card})
        for target in (None, units[4], units[0]):
            requests.append({"op": "play", "session": "s1", "card": card, "target": target})
            requests.append({"op": "preview", "session": "s1", "card": card, "target": target})
    requests.append({"op": "close", "session": "s1"})  # last: the requests above reach it
    cases: list[Case] = [("", r) for r in requests]
    cases += law_cases("s3") + loss_cases("s4") + bounds_cases("s5")
    cases += [("", {"op": "open", "battle": doc}) for doc in law_documents()]
    cases.append(("", {"op": "lint", "document": lone_surrogate_document()}))
    return cases


def seed_requests(demo: Doc) -> list[Doc]:
    """The requests of :func:`seed_cases`, in order."""
    return [request for _, request in seed_cases(demo)]
