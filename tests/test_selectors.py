"""Selectors: Filter keeps matches, Sort orders stably, Pick/Take/Random reduce; they compose."""

from __future__ import annotations

from typing import Any

import pytest

from pybridge.runtime import Battle, Context
from pybridge.runtime.resolve import evaluate

from .builders import card, make_battle, unit

UNITS = [
    unit("hero", "player", hp=30, max_hp=40, tags=["human"], tier=1),
    unit("mage", "player", hp=0, max_hp=20, tags=["elf"]),
    unit("goblin", hp=5, max_hp=10, tags=["goblin"], tier=1, statuses={"burn": 2}),
    unit("orc", hp=18, max_hp=20, armor=3, tags=["orc", "brute"], tier=2),
    unit("troll", hp=9, max_hp=30, tags=["brute"], tier=3, statuses={"burn": 1}),
    unit("imp", hp=18, max_hp=18, tier=1),
]


def run_units(source: str, *chain: dict[str, Any], host: str = "hero") -> list[str]:
    """Evaluate ``UnitSource(source) -> chain...`` and return the unit ids."""
    return [u.id for u in _run(card_chain("UnitSource", source, chain), host)]


def card_chain(kind: str, source: str, chain: tuple[dict[str, Any], ...]) -> Battle:
    nodes: list[dict[str, Any]] = [{"id": "n0", "type": kind, "source": source}]
    for i, node in enumerate(chain, 1):
        nodes.append({"id": f"n{i}", **node, "ports": {"input": f"n{i - 1}"}})
    return _battle(nodes)


def _battle(nodes: list[dict[str, Any]]) -> Battle:
    cards = [
        card("probe", "None", *nodes),
        card("cheap", cost=0, type="attack", rarity="common", tags=["basic_attack"]),
        card("pricey", cost=3, type="power", rarity="rare", keywords=["Exhaust"]),
        card("mid", cost=1, type="attack", rarity="uncommon", keywords=["Retain"]),
    ]
    return make_battle(
        *cards, units=UNITS, hand=["probe"], draw=["cheap", "pricey", "mid", "cheap", "mid"]
    )


def _run(b: Battle, host: str = "hero") -> list[Any]:
    behavior = b.cards["h1"].card.behavior
    last = list(behavior.nodes)[-1]
    host_unit = b.unit(host)
    assert host_unit is not None
    return evaluate(behavior, last, Context(battle=b, host=host_unit))


def run_cards(source: str, *chain: dict[str, Any]) -> list[str]:
    return list(_run(card_chain("CardSource", source, chain)))


def filt(**where: Any) -> dict[str, Any]:
    return {"type": "Filter", "where": where}


# -- Filter keeps the matching elements (it filters in, not out) ---------------------------
@pytest.mark.parametrize(
    ("where", "expected"),
    [
        ({"team": "enemy"}, ["goblin", "orc", "troll", "imp"]),
        ({"team": "player"}, ["hero"]),
        ({"tag": "brute"}, ["orc", "troll"]),
        ({"tier": 1}, ["hero", "goblin", "imp"]),
        ({"tier_min": 2}, ["orc", "troll"]),
        ({"tier_max": 2, "team": "enemy"}, ["goblin", "orc", "imp"]),
        ({"status": "burn"}, ["goblin", "troll"]),
        ({"hp_percent_max": 50}, ["goblin", "troll"]),
        ({"hp_percent_min": 90}, ["orc", "imp"]),
        ({"alive": True}, ["hero", "goblin", "orc", "troll", "imp"]),
        ({"tag": "nothing"}, []),
    ],
)
def test_filter_units(where: dict[str, Any], expected: list[str]) -> None:
    assert run_units("AllUnits", filt(**where)) == expected


def test_filter_alive_false_keeps_the_dead_from_dead_allies() -> None:
    assert run_units("AllDeadAllies", filt(alive=False)) == ["mage"]
    assert run_units("AllDeadAllies", filt(alive=True)) == []


@pytest.mark.parametrize(
    ("where", "expected"),
    [
        ({"type": "attack"}, ["d1", "d3", "d4", "d5"]),
        ({"rarity": "rare"}, ["d2"]),
        ({"keyword": "Retain"}, ["d3", "d5"]),
        ({"tag": "basic_attack"}, ["d1", "d4"]),
        ({"cost": 1}, ["d3", "d5"]),
        ({"cost_min": 1}, ["d2", "d3", "d5"]),  # a cost threshold
        ({"cost_max": 0}, ["d1", "d4"]),
        ({"type": "attack", "cost_min": 1}, ["d3", "d5"]),  # conditions combine with AND
    ],
)
def test_filter_cards(where: dict[str, Any], expected: list[str]) -> None:
    assert run_cards("DrawPile", filt(**where)) == expected


# -- Sort ----------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("sort", "expected"),
    [
        ({"by": "hp"}, ["goblin", "troll", "orc", "imp", "hero"]),  # stable: orc before imp
        ({"by": "hp", "order": "desc"}, ["hero", "orc", "imp", "troll", "goblin"]),
        ({"by": "max_hp"}, ["goblin", "imp", "orc", "troll", "hero"]),
        ({"by": "armor", "order": "desc"}, ["orc", "hero", "goblin", "troll", "imp"]),
        ({"by": "tier", "order": "desc"}, ["troll", "orc", "hero", "goblin", "imp"]),
        ({"by": "hp_percent"}, ["troll", "goblin", "hero", "orc", "imp"]),
        (
            {"by": "status", "status": "burn", "order": "desc"},
            ["goblin", "troll", "hero", "orc", "imp"],
        ),
    ],
)
def test_sort_units(sort: dict[str, Any], expected: list[str]) -> None:
    assert run_units("AllUnits", {"type": "Sort", **sort}) == expected


def test_sort_cards_by_cost_is_stable() -> None:
    assert run_cards("DrawPile", {"type": "Sort", "by": "cost"}) == ["d1", "d4", "d3", "d5", "d2"]
    assert run_cards("DrawPile", {"type": "Sort", "by": "cost", "order": "desc"}) == [
        "d2",
        "d3",
        "d5",
        "d1",
        "d4",
    ]


# -- Pick Element, Take, Random Elements ---------------------------------------------------
@pytest.mark.parametrize(
    ("index", "expected"), [(0, ["goblin"]), (2, ["troll"]), (-1, ["imp"]), (4, []), (-5, [])]
)
def test_pick_element(index: int, expected: list[str]) -> None:
    assert run_units("AllOpponents", {"type": "PickElement", "index": index}) == expected


@pytest.mark.parametrize(
    ("count", "expected"), [(0, []), (2, ["goblin", "orc"]), (9, ["goblin", "orc", "troll", "imp"])]
)
def test_take(count: int, expected: list[str]) -> None:
    assert run_units("AllOpponents", {"type": "Take", "count": count}) == expected


def test_random_elements_are_distinct_and_from_the_input() -> None:
    # "two random cards in hand": a collection into Random Elements with count 2
    for seed in range(30):
        b = _battle(
            [
                {"id": "n0", "type": "CardSource", "source": "DrawPile"},
                {"id": "n1", "type": "RandomElements", "count": 2, "ports": {"input": "n0"}},
            ]
        )
        b.rng = type(b.rng)(seed)
        picked = _run(b)
        assert len(picked) == 2 and len(set(picked)) == 2
        assert set(picked) <= {"d1", "d2", "d3", "d4", "d5"}


def test_random_elements_with_count_above_size_returns_everything_once() -> None:
    picked = run_units("AllOpponents", {"type": "RandomElements", "count": 10})
    assert sorted(picked) == ["goblin", "imp", "orc", "troll"]


def test_random_elements_of_an_empty_collection_is_empty() -> None:
    assert (
        run_units("AllOpponents", filt(tag="dragon"), {"type": "RandomElements", "count": 1}) == []
    )


def test_selectors_compose_lowest_hp_brute() -> None:
    # GCS: "All Enemies into Filter (Alive) into Sort (HP) into Pick Element"
    assert run_units(
        "AllEnemies",
        filt(alive=True, tag="brute"),
        {"type": "Sort", "by": "hp"},
        {"type": "PickElement", "index": 0},
    ) == ["troll"]
