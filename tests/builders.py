"""Small builders for battle documents, so each test states only what it is about."""

from __future__ import annotations

import itertools
from collections.abc import Iterable
from typing import Any

from pybridge.runtime import Battle, canonical_json, load_battle
from pybridge.runtime.graph import NODE_TYPES


def unit(
    uid: str, team: str = "enemy", hp: int = 20, max_hp: int | None = None, **extra: Any
) -> dict[str, Any]:
    return {
        "id": uid,
        "name": uid.title(),
        "team": team,
        "hp": hp,
        "max_hp": hp if max_hp is None else max_hp,
        **extra,
    }


def party(*extra_units: dict[str, Any]) -> list[dict[str, Any]]:
    """hero (active), mage and monk against goblin, orc and troll, all at 20 HP."""
    return [
        unit("hero", "player"),
        unit("mage", "player"),
        unit("monk", "player"),
        unit("goblin"),
        unit("orc"),
        unit("troll"),
        *extra_units,
    ]


def action(node_type: str, **fields: Any) -> dict[str, Any]:
    return {"id": "act", "type": node_type, **fields}


def card(cid: str, target: str = "None", *nodes: dict[str, Any], **extra: Any) -> dict[str, Any]:
    """A card whose flow runs its flow nodes in the order given."""
    nodes_list = [dict(n) for n in nodes]
    flow = [n for n in nodes_list if runs_in_flow(n)]
    wired = any(k in n for n in nodes_list for k in ("next", "then", "else"))
    for first, second in itertools.pairwise(flow):
        if not wired:  # an explicitly wired flow is left as written
            first["next"] = second["id"]
    behavior: dict[str, Any] = {"nodes": nodes_list}
    if flow:
        behavior["start"] = flow[0]["id"]
    return {
        "id": cid,
        "name": cid.replace("_", " ").title(),
        "target": target,
        "behavior": behavior,
        **extra,
    }


def move(mid: str, target: str, *nodes: dict[str, Any], response: bool = True) -> dict[str, Any]:
    """An enemy move (a response move unless ``response=False``) running ``nodes`` in order."""
    behavior = card(mid, target, *nodes)["behavior"]
    return {"id": mid, "name": mid.replace("_", " ").title(), "target": target,
            "response": response, "behavior": behavior}  # fmt: skip


def runs_in_flow(node: dict[str, Any]) -> bool:
    """Is ``node`` a flow node (an action, Snapshot, Branch, Gate)? An unknown type counts
    as one, so that the runtime, not the builder, reports it."""
    spec = NODE_TYPES.get(node["type"])
    return spec is None or spec.flow


def first_flow_node(nodes: Iterable[dict[str, Any]]) -> str:
    """The id of the first flow node: where a Behavior of these nodes starts."""
    return str(next(n["id"] for n in nodes if runs_in_flow(n)))


def instances(pile: str, entries: list[Any]) -> list[dict[str, Any]]:
    """Entries are card ids (instance id ``<pile><n>``) or full instance objects."""
    out = []
    for i, entry in enumerate(entries, 1):
        out.append({"id": f"{pile}{i}", "card": entry} if isinstance(entry, str) else entry)
    return out


def battle_doc(
    cards: list[dict[str, Any]] | None = None,
    units: list[dict[str, Any]] | None = None,
    hand: list[Any] | None = None,
    draw: list[Any] | None = None,
    discard: list[Any] | None = None,
    exhaust: list[Any] | None = None,
    **extra: Any,
) -> dict[str, Any]:
    doc: dict[str, Any] = {
        "format": "pybridge/battle@1",
        "seed": 7,
        "active_player": "hero",
        "units": party() if units is None else units,
        "cards": cards or [],
        "piles": {
            "hand": instances("h", hand or []),
            "draw": instances("d", draw or []),
            "discard": instances("x", discard or []),
            "exhaust": instances("e", exhaust or []),
        },
    }
    doc.update(extra)
    return doc


def make_battle(*cards: dict[str, Any], **kw: Any) -> Battle:
    """A battle holding ``cards``, one instance each in hand (``h1``, ``h2``...) unless
    ``hand`` is given."""
    kw.setdefault("hand", [c["id"] for c in cards])
    return load_battle(battle_doc(cards=list(cards), **kw))


def hp(battle: Battle) -> dict[str, int]:
    return {u.id: u.hp for u in battle.units}


def snapshot(battle: Battle) -> str:
    return canonical_json(battle)


def of_type(events: list[dict[str, Any]], event_type: str) -> list[dict[str, Any]]:
    return [e for e in events if e["type"] == event_type]
