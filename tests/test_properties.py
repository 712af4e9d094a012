"""Property tests: random valid battles driven by random (often invalid) request sequences.

For every battle and every sequence: no exception escapes the protocol; a failed request
leaves the battle byte-for-byte identical; HP stays within [0, max_hp]; dead units are never
candidates; every card instance stays in exactly one place; the same seed and inputs give the
same event log; and the state round-trips through ``state`` -> ``open`` -> ``state`` and
continues identically.

Examples per test: ``PYBRIDGE_PROPERTY_EXAMPLES`` (default 100). The default run is
derandomized, so CI sees the same examples every time; ``PYBRIDGE_PROPERTY_RANDOM=1`` explores
new ones (and keeps failures in hypothesis' example database), e.g. for a long local run:

    PYBRIDGE_PROPERTY_RANDOM=1 PYBRIDGE_PROPERTY_EXAMPLES=5000 pytest tests/test_properties.py
"""

from __future__ import annotations

import itertools
import json
import os
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.database import DirectoryBasedExampleDatabase

from pybridge.protocol import Protocol
from pybridge.runtime.conditions import COMPARISONS as COMPARISON_TESTS
from pybridge.runtime.filters import CARD_SORTS, UNIT_SORTS
from pybridge.runtime.graph import NODE_TYPES
from pybridge.runtime.model import PILES
from pybridge.runtime.modes import MODE_NAMES, TargetMode
from pybridge.runtime.sources import CARD_SOURCES as CARD_SOURCE_SPECS
from pybridge.runtime.sources import UNIT_SOURCES as UNIT_SOURCE_SPECS

UNIT_SOURCES, CARD_SOURCES = tuple(UNIT_SOURCE_SPECS), tuple(CARD_SOURCE_SPECS)
UNIT_SORT_KEYS, CARD_SORT_KEYS = tuple(UNIT_SORTS), tuple(CARD_SORTS)
COMPARISONS, PILE_NAMES = tuple(COMPARISON_TESTS), tuple(p.value for p in PILES)
EXAMPLES = int(os.environ.get("PYBRIDGE_PROPERTY_EXAMPLES", "100"))
EXPLORE = os.environ.get("PYBRIDGE_PROPERTY_RANDOM", "") not in ("", "0")
PROPERTIES = settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize=not EXPLORE,
    database=DirectoryBasedExampleDatabase(".hypothesis/examples") if EXPLORE else None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

Doc = dict[str, Any]

# -- vocabulary ------------------------------------------------------------------------------
STATUS_IDS = ("burn", "strength", "thorns", "weak", "ward", "shield", "regen", "mark")
TAGS = ("beast", "undead", "boss")
KEYWORDS = ("Exhaust", "Retain", "Quick")
CARD_TYPES = ("attack", "skill", "power")
RARITIES = ("common", "rare")
UNIT_ACTIONS = (
    "DealDamage",
    "GainArmor",
    "Heal",
    "ApplyStatus",
    "RemoveStatus",
    "Revive",
    "Withdraw",
    "Deploy",
)
#: Unit actions as drawn: mostly attacks, rarely leaving the field (which idles a party).
UNIT_ACTION_MIX = (
    *UNIT_ACTIONS,
    "DealDamage",
    "DealDamage",
    "DealDamage",
    "GainArmor",
    "Heal",
    "ApplyStatus",
)
CARD_ACTIONS = ("MoveCard", "Discard", "Exhaust", "Negate", "Reveal")
SELECTORS = ("Filter", "Sort", "PickElement", "Take", "RandomElements")
ZONES = (*PILE_NAMES, "cut")


def weighted(draw: st.DrawFn, *options: tuple[int, st.SearchStrategy[Any]]) -> Any:
    """Draw from one of ``options`` chosen by weight (``one_of`` would flatten nested
    choices into equal shares, drowning the valid ones in junk)."""
    roll = draw(st.integers(0, sum(w for w, _ in options) - 1))
    for weight, strategy in options:
        if roll < weight:
            return draw(strategy)
        roll -= weight
    raise AssertionError("weights exhausted")


class Builder:
    """Draws one valid Behavior graph: data chains (sources and selectors), conditions, and a
    flow tree of actions, Snapshot, Draw, GainEnergy, Branch, Gate and Call (of ``calls``,
    cards that call no card before them: the calls never form a cycle)."""

    def __init__(self, draw: st.DrawFn, statuses: tuple[str, ...], allow_stacks: bool,
                 calls: tuple[str, ...] = ()) -> None:  # fmt: skip
        self.draw, self.statuses, self.allow_stacks = draw, statuses, allow_stacks
        self.calls = calls
        self.nodes: list[Doc] = []
        self.data: dict[str, list[str]] = {"units": [], "cards": []}
        self.conditions: list[str] = []

    def _id(self, prefix: str) -> str:
        return f"{prefix}{len(self.nodes)}"

    def _add(self, node: Doc) -> str:
        self.nodes.append(node)
        return str(node["id"])

    # -- data ---------------------------------------------------------------------------------
    def chain(self, kind: str) -> str:
        """A data node yielding ``kind`` ("units" or "cards"); sometimes one already made."""
        draw = self.draw
        reuse: bool = draw(st.booleans())
        if self.data[kind] and reuse:
            reused: str = draw(st.sampled_from(self.data[kind]))
            return reused
        sources = UNIT_SOURCES if kind == "units" else CARD_SOURCES
        node_type = "UnitSource" if kind == "units" else "CardSource"
        current = self._add(
            {"id": self._id("src"), "type": node_type, "source": draw(st.sampled_from(sources))}
        )
        for _ in range(draw(st.integers(0, 2))):
            current = self._add(self.selector(kind, current))
        self.data[kind].append(current)
        return current

    def selector(self, kind: str, upstream: str) -> Doc:
        draw = self.draw
        name = draw(st.sampled_from(SELECTORS))
        node: Doc = {"id": self._id("sel"), "type": name, "ports": {"input": upstream}}
        if name == "Filter":
            node["where"] = draw(unit_filters(self.statuses) if kind == "units" else card_filters())
        elif name == "Sort":
            keys = UNIT_SORT_KEYS if kind == "units" else CARD_SORT_KEYS
            node["by"] = draw(st.sampled_from(keys))
            node["order"] = draw(st.sampled_from(("asc", "desc")))
            if node["by"] == "status":
                node["status"] = draw(st.sampled_from(self.statuses))
        elif name == "PickElement":
            node["index"] = draw(st.integers(-3, 3))
        else:
            node["count"] = draw(st.integers(0, 3))
        return node

    def condition(self) -> str:
        draw = self.draw
        test = draw(st.sampled_from(("empty", "not_empty", "alive", "has_status", "compare")))
        node: Doc = {"id": self._id("cond"), "type": "Condition", "test": test}
        if test in ("empty", "not_empty"):
            node["ports"] = {"input": self.chain(draw(st.sampled_from(("units", "cards"))))}
        elif test in ("alive", "has_status"):
            node["ports"] = {"input": self.chain("units")}
            if test == "has_status":
                node["status"] = draw(st.sampled_from(self.statuses))
        else:
            measure = draw(
                st.sampled_from(
                    ("count", "hp", "hp_percent", "armor", "stacks", "energy", "turn", "hand_size")
                )
            )
            node.update(
                measure=measure,
                op=draw(st.sampled_from(COMPARISONS)),
                value=draw(st.integers(-2, 30)),
            )
            if measure == "stacks":
                node["status"] = draw(st.sampled_from(self.statuses))
            if measure == "count":
                node["ports"] = {"input": self.chain(draw(st.sampled_from(("units", "cards"))))}
            elif measure not in ("energy", "turn", "hand_size"):
                node["ports"] = {"input": self.chain("units")}
        self.conditions.append(node["id"])
        return self._add(node)

    # -- flow ---------------------------------------------------------------------------------
    def sequence(self, depth: int) -> str:
        """One to three flow nodes joined by ``next``; returns the first."""
        ids = [self.step(depth) for _ in range(self.draw(st.integers(1, 3)))]
        for first, second in itertools.pairwise(ids):
            node = next(n for n in self.nodes if n["id"] == first)
            node["next"] = second
        return ids[0]

    def step(self, depth: int) -> str:
        draw = self.draw
        kinds = ["unit", "unit", "unit", "card", "snapshot", "draw", "energy"]
        if depth < 2:
            kinds += ["branch", "gate"]
        if self.calls:
            kinds.append("call")
        kind = draw(st.sampled_from(kinds))
        node_id = self._id("f")
        if kind == "unit":
            return self._add(self.unit_action(node_id))
        if kind == "card":
            return self._add(self.card_action(node_id))
        if kind == "snapshot":
            upstream = self.chain(draw(st.sampled_from(("units", "cards"))))
            kind_of = "units" if upstream in self.data["units"] else "cards"
            snapshot = self._add({"id": node_id, "type": "Snapshot", "ports": {"input": upstream}})
            self.data[kind_of].append(snapshot)
            return snapshot
        if kind == "draw":
            return self._add({"id": node_id, "type": "Draw", "count": draw(st.integers(0, 3))})
        if kind == "energy":
            return self._add(
                {"id": node_id, "type": "GainEnergy", "amount": draw(st.integers(0, 2))}
            )
        if kind == "call":
            called: Doc = {"id": node_id, "type": "Call", "card": draw(st.sampled_from(self.calls))}
            if draw(st.booleans()):
                called["ports"] = {"target": self.chain("units")}
            return self._add(called)
        node: Doc = {
            "id": node_id,
            "type": "Branch" if kind == "branch" else "Gate",
            "ports": {"condition": self.condition()},
        }
        self._add(node)
        if kind == "branch":
            for arm in ("then", "else"):
                if draw(st.booleans()):
                    node[arm] = self.sequence(depth + 1)
        return node_id

    def _target(self, node: Doc, kind: str) -> None:
        draw = self.draw
        if draw(st.booleans()):
            node["ports"] = {"target": self.chain(kind)}
        else:
            node["source"] = draw(
                st.sampled_from(UNIT_SOURCES if kind == "units" else CARD_SOURCES)
            )

    def unit_action(self, node_id: str) -> Doc:
        draw = self.draw
        name = draw(st.sampled_from(UNIT_ACTION_MIX))
        node: Doc = {"id": node_id, "type": name}
        if name in ("DealDamage", "GainArmor", "Heal"):
            amounts = st.integers(1, 12) if draw(st.integers(0, 5)) else st.just(0)
            if self.allow_stacks:
                amounts = st.one_of(amounts, st.just("stacks"))
            node["amount"] = draw(amounts)
        elif name in ("ApplyStatus", "RemoveStatus"):
            node["status"] = draw(st.sampled_from(self.statuses))
            if name == "ApplyStatus" or draw(st.booleans()):
                node["stacks"] = draw(st.integers(1, 3))
        elif name == "Revive":
            node["hp"] = draw(st.integers(1, 50))
        self._target(node, "units")
        return node

    def card_action(self, node_id: str) -> Doc:
        draw = self.draw
        name = draw(st.sampled_from(CARD_ACTIONS))
        node: Doc = {"id": node_id, "type": name}
        if name == "MoveCard":
            node["to"] = draw(st.sampled_from(PILE_NAMES))
            if draw(st.booleans()):
                node["position"] = draw(st.sampled_from(("top", "bottom")))
            if draw(st.booleans()):
                node["face_down"] = draw(st.booleans())
        self._target(node, "cards")
        return node

    def behavior(self) -> Doc:
        if not self.draw(st.integers(0, 9)):
            return {"nodes": []}
        start = self.sequence(0)
        return {"start": start, "nodes": self.nodes}


def unit_filters(statuses: tuple[str, ...]) -> st.SearchStrategy[Doc]:
    return st.fixed_dictionaries(
        {},
        optional={
            "team": st.sampled_from(("player", "enemy")),
            "tag": st.sampled_from(TAGS),
            "tier_min": st.integers(0, 3),
            "tier_max": st.integers(0, 3),
            "status": st.sampled_from(statuses),
            "hp_percent_max": st.integers(0, 100),
            "hp_percent_min": st.integers(0, 100),
            "alive": st.booleans(),
        },
    )


def card_filters() -> st.SearchStrategy[Doc]:
    return st.fixed_dictionaries(
        {},
        optional={
            "type": st.sampled_from(CARD_TYPES),
            "keyword": st.sampled_from(KEYWORDS),
            "cost_max": st.integers(0, 3),
            "cost_min": st.integers(0, 3),
            "rarity": st.sampled_from(RARITIES),
        },
    )


@st.composite
def behaviors(
    draw: st.DrawFn,
    statuses: tuple[str, ...],
    allow_stacks: bool = False,
    calls: tuple[str, ...] = (),
) -> tuple[Doc, list[str]]:
    builder = Builder(draw, statuses, allow_stacks, calls)
    return builder.behavior(), builder.conditions


@st.composite
def card_defs(
    draw: st.DrawFn, card_id: str, statuses: tuple[str, ...], calls: tuple[str, ...] = ()
) -> Doc:
    spelling = draw(st.sampled_from(sorted(MODE_NAMES)))
    mode = MODE_NAMES[spelling]
    behavior, conditions = draw(behaviors(statuses, calls=calls))
    doc: Doc = {
        "id": card_id,
        "name": card_id.title(),
        "target": spelling,
        "cost": draw(st.integers(0, 3)),
        "type": draw(st.sampled_from(CARD_TYPES)),
        "rarity": draw(st.sampled_from(RARITIES)),
        "keywords": draw(st.lists(st.sampled_from(KEYWORDS), unique=True, max_size=2)),
        "behavior": behavior,
    }
    chooses = mode.requires_target or mode.is_random
    if chooses and draw(st.integers(0, 3)) == 0:
        doc["target_count"] = draw(st.integers(1, 3))
        doc["up_to"] = draw(st.booleans())
    if mode.requires_target and draw(st.integers(0, 4)) == 0:
        doc["choose_on_resolve"] = True
    if draw(st.integers(0, 4)) == 0:
        doc["target_filter"] = draw(unit_filters(statuses))
    if draw(st.integers(0, 5)) == 0:
        doc["card_targets"] = {
            "zones": draw(st.lists(st.sampled_from(ZONES), unique=True, min_size=1, max_size=3)),
            "where": draw(card_filters()),
        }
    if draw(st.integers(0, 3)) == 0:
        doc["on_lost_target"] = draw(st.sampled_from(("fail", "skip")))
    if conditions and draw(st.integers(0, 2)) == 0:
        doc["playable_if"] = [{"condition": draw(st.sampled_from(conditions)), "reason": "no"}]
    return doc


@st.composite
def status_defs(
    draw: st.DrawFn, status_id: str, statuses: tuple[str, ...], calls: tuple[str, ...] = ()
) -> Doc:
    doc: Doc = {"id": status_id, "name": status_id.title()}
    hooks = draw(
        st.lists(st.sampled_from(("turn_start", "turn_end", "attacked")), unique=True, max_size=2)
    )
    doc["hooks"] = {
        hook: draw(behaviors(statuses, allow_stacks=True, calls=calls))[0] for hook in hooks
    }
    doc["damage_dealt"] = draw(st.integers(-2, 2))
    doc["damage_taken"] = draw(st.integers(-2, 2))
    doc["decay_on"] = draw(st.sampled_from((None, "turn_start", "turn_end")))
    doc["decay"] = draw(st.one_of(st.integers(1, 2), st.just("all")))
    doc["protection"] = draw(st.sampled_from((None, None, None, "all", "single")))
    return doc


@st.composite
def move_defs(
    draw: st.DrawFn, move_id: str, statuses: tuple[str, ...], calls: tuple[str, ...] = ()
) -> Doc:
    return {
        "id": move_id,
        "name": move_id.title(),
        "target": draw(st.sampled_from([m.value for m in TargetMode])),
        "behavior": draw(behaviors(statuses, calls=calls))[0],
        "weight": draw(st.integers(1, 3)),
        "response": draw(st.booleans()),
    }


@st.composite
def battles(draw: st.DrawFn) -> Doc:
    """A valid battle document: units on both teams with random HP, armor, statuses and
    zones; cards over every target mode; statuses, enemy moves, piles, either rule profile."""
    statuses = STATUS_IDS
    defined = draw(st.lists(st.sampled_from(statuses), unique=True, max_size=5))
    move_ids = [f"m{i}" for i in range(draw(st.integers(0, 4)))]
    card_ids = [f"c{i}" for i in range(draw(st.integers(1, 6)))]
    units: list[Doc] = []
    for team, count in (("player", draw(st.integers(1, 3))), ("enemy", draw(st.integers(1, 4)))):
        for i in range(count):
            max_hp = weighted(draw, (6, st.integers(10, 40)), (1, st.integers(1, 9)))
            unit: Doc = {
                "id": f"{team[0]}{i}",
                "name": f"{team.title()} {i}",
                "team": team,
                "max_hp": max_hp,
                "hp": weighted(draw, (6, st.integers(1, max_hp)), (1, st.just(0))),
                "armor": draw(st.integers(0, 8)),
                "statuses": draw(
                    st.dictionaries(st.sampled_from(statuses), st.integers(1, 4), max_size=3)
                ),
                "tags": draw(st.lists(st.sampled_from(TAGS), unique=True, max_size=2)),
                "tier": draw(st.integers(0, 3)),
                "zone": weighted(draw, (7, st.just("field")), (1, st.just("reserve"))),
            }
            if team == "enemy" and move_ids:
                unit["moves"] = draw(st.lists(st.sampled_from(move_ids), unique=True, max_size=3))
            units.append(unit)
    players = [u["id"] for u in units if u["team"] == "player"]
    active = draw(st.sampled_from(players))
    if draw(st.integers(0, 9)):  # mostly a battle the party can act in
        leader = next(u for u in units if u["id"] == active)
        leader.update(hp=max(1, leader["hp"]), zone="field")
    instances = iter(range(1_000))
    piles: Doc = {}
    for pile in PILE_NAMES:
        piles[pile] = [
            {
                "id": f"{pile[0]}{next(instances)}",
                "card": draw(st.sampled_from(card_ids)),
                **(
                    {"owner": draw(st.sampled_from(players))}
                    if draw(st.integers(0, 3)) == 0
                    else {}
                ),
            }
            for _ in range(draw(st.integers(0 if pile != "hand" else 1, 5)))
        ]
    return {
        "format": "pybridge/battle@1",
        "seed": draw(st.integers(0, 2**64 - 1)),
        "rules": draw(st.sampled_from(("soft", "strict"))),
        "active_player": active,
        "energy": weighted(draw, (5, st.integers(2, 6)), (1, st.integers(0, 1))),
        "max_energy": weighted(draw, (5, st.integers(2, 5)), (1, st.integers(0, 1))),
        "draw_per_turn": weighted(draw, (5, st.integers(2, 6)), (1, st.integers(0, 1))),
        "reshuffle": draw(st.booleans()),
        "units": units,
        # a card calls only cards after it, so calls never form a cycle
        "cards": [
            draw(card_defs(c, statuses, tuple(card_ids[i + 1 :]))) for i, c in enumerate(card_ids)
        ],
        "statuses": [draw(status_defs(s, statuses, tuple(card_ids))) for s in defined],
        "moves": [draw(move_defs(m, statuses, tuple(card_ids))) for m in move_ids],
        "piles": piles,
    }


# -- requests ----------------------------------------------------------------------------------
JUNK = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(2**70), 2**70),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=6),
    st.lists(st.integers(), max_size=3),
    st.dictionaries(st.text(max_size=3), st.integers(), max_size=2),
)
OPS = {
    "play": 4,
    "activate": 4,
    "pass": 3,
    "respond": 3,
    "end_turn": 2,
    "targets": 2,
    "resolve": 2,
    "preview": 1,
    "cut": 1,
    "state": 1,
    "junk": 1,
}


@dataclass(frozen=True)
class Ref:
    """A placeholder resolved against the battle as it is when the request is sent, so that a
    good share of the requests are legal: the k-th card in hand, the k-th candidate of the
    card being played, the k-th enemy and one of its moves."""

    kind: str
    index: int


@st.composite
def request_lists(draw: st.DrawFn, doc: Doc) -> list[Doc]:
    """Requests without a session (the runner adds it): legal ones often, stale or foreign ids
    and junk often too, the request itself malformed now and then."""
    instance_ids = [i["id"] for pile in doc["piles"].values() for i in pile]
    unit_ids = [u["id"] for u in doc["units"]]
    move_ids = [m["id"] for m in doc["moves"]] or ["m0"]
    entries = [f"e{i}" for i in range(1, 6)]
    unit = st.sampled_from(unit_ids)
    index = st.integers(0, 15)

    def ref(kind: str) -> st.SearchStrategy[Ref]:
        return index.map(lambda k: Ref(kind, k))

    def target() -> Any:
        return weighted(
            draw,
            (8, ref("candidate")),
            (3, ref("candidates")),
            (4, st.none()),
            (3, unit),
            (2, st.lists(unit, min_size=1, max_size=3)),
            (2, JUNK),
        )

    ops = [op for op, weight in OPS.items() for _ in range(weight)]
    requests = []
    for _ in range(draw(st.integers(3, 18))):
        op = draw(st.sampled_from(ops))
        request: Doc = {"op": op}
        if op in ("targets", "preview", "play", "activate"):
            request["card"] = weighted(
                draw, (14, ref("hand")), (3, st.sampled_from(instance_ids)), (3, JUNK)
            )
            if op != "targets" and draw(st.integers(0, 5)):
                request["target"] = target()
        elif op == "respond":
            request["unit"] = weighted(draw, (8, ref("enemy")), (2, unit), (1, JUNK))
            request["move"] = weighted(
                draw, (8, ref("move")), (2, st.sampled_from(move_ids)), (1, JUNK)
            )
            if draw(st.integers(0, 3)):
                request["target"] = weighted(draw, (6, unit), (1, JUNK))
        elif op in ("pass", "resolve") and draw(st.booleans()):
            if draw(st.integers(0, 4)):
                request["choices"] = {
                    e: target()
                    for e in draw(st.lists(st.sampled_from(entries), unique=True, max_size=2))
                }
            else:
                request["choices"] = draw(JUNK)
        elif op == "junk":
            request = {
                "op": weighted(draw, (2, st.sampled_from(("open", "fly", "lint"))), (1, JUNK)),
                "battle": draw(JUNK),
            }
        requests.append(request)
    return requests


def resolve_refs(proto: Protocol, session: str, request: Doc, state: Doc) -> Doc:
    """Replace every :class:`Ref` in ``request`` by an id read from the battle now (its
    ``state``, and ``targets``, a read-only request: the checks show it changes nothing)."""

    def ask(**fields: Any) -> Doc:
        answer: Doc = json.loads(proto.call(json.dumps({**fields, "session": session})))
        return answer

    hand = [c["id"] for c in state["piles"]["hand"]]
    units = [u["id"] for u in state["units"]]
    enemies = [u for u in state["units"] if u["team"] == "enemy" and u["hp"] > 0]
    out = dict(request)
    card = out.get("card")
    if isinstance(card, Ref):
        card = out["card"] = hand[card.index % len(hand)] if hand else "no-card"
    chosen: Doc | None = None
    if isinstance(out.get("unit"), Ref):
        chosen = enemies[out["unit"].index % len(enemies)] if enemies else None
        out["unit"] = chosen["id"] if chosen else "no-unit"
    if isinstance(out.get("move"), Ref):
        moves = chosen["moves"] if chosen and chosen["moves"] else ["m0"]
        out["move"] = moves[out["move"].index % len(moves)]

    def pick(value: Any) -> Any:
        if not isinstance(value, Ref):
            return value
        info: Doc = ask(op="targets", card=card) if isinstance(card, str) else {"ok": False}
        if info["ok"] and not info["result"]["requires_target"] and value.index % 4:
            return None  # mostly no target for a card that takes none
        pool = info["result"]["candidates"] if info["ok"] else []
        pool = pool or units
        start = value.index % len(pool)
        if value.kind == "candidate":
            return pool[start]
        count = info["result"]["count"] if info["ok"] else 2
        return (pool[start:] + pool[:start])[:count]

    if "target" in out:
        out["target"] = pick(out["target"])
    if isinstance(out.get("choices"), dict):
        out["choices"] = {entry: pick(chosen) for entry, chosen in out["choices"].items()}
    return out


# -- running and checking -------------------------------------------------------------------
READ_ONLY = {"targets", "preview", "cut", "state"}


@dataclass
class Run:
    proto: Protocol
    session: str
    responses: list[str] = field(default_factory=list)

    def send(self, request: Doc) -> Doc:
        text = self.proto.call(json.dumps({**request, "session": self.session}))
        self.responses.append(text)
        answer: Doc = json.loads(text)
        return answer

    def state_text(self) -> str:
        return self.proto.call(json.dumps({"op": "state", "session": self.session}))


def open_battle(doc: Doc, proto: Protocol | None = None) -> Run:
    proto = proto or Protocol()
    opened = json.loads(proto.call(json.dumps({"op": "open", "battle": doc})))
    assert opened["ok"], opened["error"]  # the strategy only draws valid battles
    run = Run(proto, opened["result"]["session"])
    check_state(json.loads(run.state_text())["result"]["state"])
    return run


def card_places(state: Doc) -> list[str]:
    """Every card instance where it is: the piles, then the Cut."""
    places = [c["id"] for pile in state["piles"].values() for c in pile]
    return places + [e["card"]["id"] for e in state["cut"] if "card" in e]


def check_state(state: Doc) -> None:
    for unit in state["units"]:
        assert 0 <= unit["hp"] <= unit["max_hp"], unit
        assert unit["armor"] >= 0 and all(s >= 1 for s in unit["statuses"].values()), unit
    assert 0 <= state["energy"] <= 999
    places = card_places(state)
    assert len(places) == len(set(places)), places  # each card instance in exactly one place
    assert state["result"] in (None, "victory", "defeat")
    if state["result"] is not None:
        assert state["cut"] == []


def check_events(events: list[Doc]) -> None:
    for event in events:
        if event["type"] in ("damage", "heal"):
            assert event["hp_before"] > 0, event  # a dead unit is never damaged or healed
            assert event["hp_after"] >= 0, event
        if event["type"] == "armor":
            assert 0 <= event["armor_before"] <= event["armor_after"], event


def check_targets(answer: Doc, state: Doc) -> None:
    in_play = {u["id"] for u in state["units"] if u["hp"] > 0 and u["zone"] == "field"}
    result = answer["result"]
    assert set(result["candidates"]) <= in_play, (result, in_play)  # never dead or off-field
    assert set(result["range"]) <= in_play, (result, in_play)
    assert len(result["candidates"]) == len(set(result["candidates"]))


def drive(run: Run, requests: list[Doc]) -> Iterator[tuple[Doc, Doc]]:
    """Send each request, checking the invariants around it; yields (request, response)."""
    before_text = run.state_text()
    cards = set(card_places(json.loads(before_text)["result"]["state"]))
    for planned in requests:
        before = json.loads(before_text)["result"]["state"]
        request = resolve_refs(run.proto, run.session, planned, before)
        answer = run.send(request)
        assert set(answer) == {"ok", "id", "result" if answer["ok"] else "error"}, answer
        if not answer["ok"]:
            error = answer["error"]
            assert error["code"] != "internal_error", (request, error)
            # a refusal a player can meet adds its reason, said (docs/protocol.md, "play")
            assert set(error) - {"reason", "reason_message"} == {"code", "message", "where"}
            assert ("reason" in error) == ("reason_message" in error), error
        after_text = run.state_text()
        if not answer["ok"] or request["op"] in READ_ONLY:
            assert after_text == before_text, request  # byte-for-byte: nothing changed
        after = json.loads(after_text)["result"]["state"]
        check_state(after)
        assert set(card_places(after)) == cards  # no card is made or lost
        if answer["ok"] and "events" in answer["result"]:
            check_events(answer["result"]["events"])
        if answer["ok"] and request["op"] == "targets":
            check_targets(answer, before)
        if answer["ok"] and "state" in answer["result"]:
            assert answer["result"]["state"] == after
        before_text = after_text
        yield request, answer


def log_of(doc: Doc, requests: list[Doc]) -> list[str]:
    run = open_battle(doc)
    for _ in drive(run, requests):
        pass
    return run.responses


@st.composite
def scenarios(draw: st.DrawFn) -> tuple[Doc, list[Doc]]:
    doc = draw(battles())
    return doc, draw(request_lists(doc))


# -- the properties ----------------------------------------------------------------------------
@PROPERTIES
@given(scenarios())
def test_random_requests_keep_every_invariant(scenario: tuple[Doc, list[Doc]]) -> None:
    doc, requests = scenario
    run = open_battle(doc)
    for _ in drive(run, requests):
        pass
    state = json.loads(run.state_text())["result"]["state"]
    # The state round-trips: open accepts it back and gives the same state again.
    copy = open_battle(state, run.proto)
    assert copy.state_text() == run.state_text()


@PROPERTIES
@given(scenarios(), st.data())
def test_same_inputs_same_log_and_a_reloaded_battle_continues_identically(
    scenario: tuple[Doc, list[Doc]], data: st.DataObject
) -> None:
    """Two runs of the same battle and requests give the same responses, event logs included;
    a battle saved part-way (``state``) and opened again answers the rest identically."""
    doc, requests = scenario
    split = data.draw(st.integers(0, len(requests)), label="split")
    first = log_of(doc, requests)
    second = open_battle(doc)
    for _ in drive(second, requests[:split]):
        pass
    assert second.responses == first[:split]  # the same seed and inputs: the same log
    state = json.loads(second.state_text())["result"]["state"]
    reloaded = open_battle(state, second.proto)
    assert reloaded.state_text() == second.state_text()
    for _ in drive(reloaded, requests[split:]):
        pass
    assert reloaded.responses == first[split:]


@PROPERTIES
@given(scenarios())
def test_kept_answers_are_the_answers_a_fresh_protocol_gives(
    scenario: tuple[Doc, list[Doc]],
) -> None:
    """A protocol that keeps targets/preview answers and one that keeps none answer alike:
    the random requests, and after each of them what the scene asks every frame (targets of
    every card in the hand, a preview at its first candidate), twice."""
    doc, requests = scenario
    kept, fresh = open_battle(doc), open_battle(doc, Protocol(answer_cache=0))

    def both(request: Doc) -> Doc:
        answer = kept.send(request)
        assert fresh.send(request) == answer, request
        return answer

    for planned in requests:
        state = json.loads(kept.state_text())["result"]["state"]
        both(resolve_refs(kept.proto, kept.session, planned, state))
        state = json.loads(kept.state_text())["result"]["state"]
        for card in [c["id"] for c in state["piles"]["hand"]] * 2:
            info = both({"op": "targets", "card": card})
            if info["ok"] and info["result"]["candidates"]:
                both({"op": "preview", "card": card, "target": info["result"]["candidates"][0]})
    assert fresh.proto._answers.hits == 0


def test_the_strategies_cover_every_mode_and_node_type() -> None:
    """The battle strategy draws every target mode spelling and every node type."""
    modes: set[str] = set()
    node_types: set[str] = set()

    def behaviors_of(doc: Doc) -> Iterator[Doc]:
        yield from (c["behavior"] for c in doc["cards"])
        yield from (m["behavior"] for m in doc["moves"])
        yield from (b for s in doc["statuses"] for b in s["hooks"].values())

    @settings(PROPERTIES, max_examples=150, derandomize=True, database=None)
    @given(battles())
    def collect(doc: Doc) -> None:
        modes.update(c["target"] for c in doc["cards"])
        modes.update(m["target"] for m in doc["moves"])
        node_types.update(n["type"] for b in behaviors_of(doc) for n in b["nodes"])

    collect()
    assert modes >= set(MODE_NAMES)
    assert node_types == set(NODE_TYPES)
