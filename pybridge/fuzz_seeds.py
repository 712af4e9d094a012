"""Seeds for ``pybridge fuzz``: the battles it keeps open and the requests its corpus starts from.

:func:`seed_requests` are valid requests on the demo battle (session ``s1``), the strict Cut
battle of docs/protocol.md (:func:`strict_battle`, ``s2``) and a battle of the strict law's
hard cases (issue 20; :func:`law_battle`, ``s3``): a card that chooses a unit on resolve whose
only enemy can ward itself, one that chooses cards from the draw pile on resolve, an "all ~"
over several card types and places, a random single pick, and enemies whose responses ward,
summon and strike. :func:`law_documents` are documents the loader must refuse (or settle): a
Cut naming unknown moves, duplicate and out-of-order entry ids, a card entry on the wrong
side, intents in the reserve, a result the units contradict, counters at their limits, a lone
surrogate, a full Cut and one entry more.
"""

from __future__ import annotations

import copy
import itertools
from typing import Any

Doc = dict[str, Any]
MAX_INT = 1_000_000_000


def _unit(uid: str, team: str = "enemy", **extra: Any) -> Doc:
    return {"id": uid, "name": uid.title(), "team": team, "hp": 20, "max_hp": 20, **extra}


def _behavior(*nodes: Doc) -> Doc:
    chained = [dict(n) for n in nodes]
    for first, second in itertools.pairwise(chained):
        first["next"] = second["id"]
    return {"start": chained[0]["id"], "nodes": chained} if chained else {"nodes": []}


def _act(node_id: str, node_type: str, **fields: Any) -> Doc:
    return {"id": node_id, "type": node_type, **fields}


def _card(cid: str, target: str, *nodes: Doc, **extra: Any) -> Doc:
    return {"id": cid, "name": cid.title(), "target": target, "behavior": _behavior(*nodes),
            **extra}  # fmt: skip


def _move(mid: str, target: str, *nodes: Doc, response: bool = True) -> Doc:
    return {"id": mid, "name": mid.title(), "target": target, "behavior": _behavior(*nodes),
            "response": response}  # fmt: skip


def law_battle() -> Doc:
    hit = _act("hit", "DealDamage", amount=4, source="Target")
    guard = _act("guard", "GainArmor", amount=2, source="Self")
    cards = [
        _card("late", "SingleEnemy", hit, guard, choose_on_resolve=True),
        _card("dig", "None", _act("take", "MoveCard", to="hand", source="ChosenCards"),
              choose_on_resolve=True, target_count=2, up_to=True,
              card_targets={"zones": ["draw"], "where": {"type": "attack"}}),
        _card("purge", "None", _act("out", "Exhaust", source="DiscardPile"),
              card_targets={"zones": ["discard", "cut"], "where": {"type": ["attack", "curse"]}}),
        _card("gamble", "RandomOpponent", hit),
        _card("jab", "SingleEnemy", hit, type="attack"),
    ]  # fmt: skip
    moves = [
        _move("hide", "Self", _act("w", "ApplyStatus", status="ward", source="Self")),
        _move("summon", "None", _act("d", "Deploy", source="AllReserveAllies")),
        _move("quake", "AllEnemies", _act("q", "DealDamage", amount=2, source="AllOpponents")),
        _move("bite", "SingleEnemy", hit, response=False),
    ]
    units = [_unit("hero", "player"), _unit("mage", "player", statuses={"veil": 1}),
             _unit("orc", moves=["hide", "bite"]), _unit("imp", moves=["summon", "quake"]),
             _unit("wolf", zone="reserve", moves=["bite"])]  # fmt: skip
    hand = [{"id": f"c{i}", "card": c["id"]} for i, c in enumerate(cards, 1)]
    return {
        "format": "pybridge/battle@1", "seed": 5, "rules": "strict", "active_player": "hero",
        "units": units, "cards": cards, "moves": moves,
        "statuses": [{"id": "ward", "name": "Ward", "protection": "all"},
                     {"id": "veil", "name": "Veil", "protection": "single"}],
        "piles": {"hand": hand, "draw": [{"id": "d1", "card": "jab"}, {"id": "d2", "card": "late"}],
                  "discard": [{"id": "x1", "card": "jab"}]},
    }  # fmt: skip


def law_requests(session: str) -> list[Doc]:
    """Valid requests on :func:`law_battle` open as ``session``, in an order that plays."""
    s = {"session": session}
    return [
        {"op": "targets", **s, "card": "c1"},
        {"op": "targets", **s, "card": "c2"},
        {"op": "preview", **s, "card": "c1", "target": "orc"},
        {"op": "preview", **s, "card": "c2", "target": ["d1"]},
        {"op": "activate", **s, "card": "c1"},
        {"op": "cut", **s},
        {"op": "pass", **s},
        {"op": "pass", **s, "choices": {"e1": "orc"}},
        {"op": "resolve", **s},
        {"op": "resolve", **s, "choices": {"e1": "imp"}},
        {"op": "resolve", **s, "choices": {"e2": "orc", "e9": "orc"}},
        {"op": "respond", **s, "unit": "imp", "move": "summon"},
        {"op": "respond", **s, "unit": "imp", "move": "quake"},
        {"op": "activate", **s, "card": "c2"},
        {"op": "resolve", **s, "choices": {"e1": ["d1"]}},
        {"op": "play", **s, "card": "c2", "target": ["d1"]},
        {"op": "play", **s, "card": "c3"},
        {"op": "play", **s, "card": "c4"},
        {"op": "end_turn", **s},
        {"op": "state", **s},
    ]


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
    reserve_intent[4]["intent"] = {"move": "bite", "target": "hero"}
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
        changed(units=units + [_unit(f"u{i}") for i in range(60)]),
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


def seed_requests(demo: dict[str, Any]) -> list[dict[str, Any]]:
    """Valid requests on the demo battle (session s1), the strict battle (session s2) and the
    strict law's hard cases (session s3), and the documents of those cases to open."""
    hand = [c["id"] for c in demo["piles"]["hand"]]
    units = [u["id"] for u in demo["units"]]
    requests: list[dict[str, Any]] = [
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
        {"op": "close", "session": "s1"},
        {"op": "lint", "document": demo},
        {"op": "describe", "session": "s1", "card": hand[0]},
        {"op": "describe", "definition": demo["cards"][0]},
    ]
    for card in hand:
        requests.append({"op": "targets", "session": "s1", "card": card})
        for target in (None, units[4], units[0]):
            requests.append({"op": "play", "session": "s1", "card": card, "target": target})
            requests.append({"op": "preview", "session": "s1", "card": card, "target": target})
    requests += law_requests("s3")
    requests += [{"op": "open", "battle": doc} for doc in law_documents()]
    requests.append({"op": "lint", "document": lone_surrogate_document()})
    return requests
