"""Unit and card sources, row by row from both seed documents."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from pybridge.runtime import Battle, Context, Pile, play
from pybridge.runtime.model import Unit, Zone
from pybridge.runtime.sources import CARD_SOURCES, UNIT_SOURCES, Side

from .builders import action, card, hp, make_battle, of_type, party, unit


def units_of(
    b: Battle, source: str, host: str, target: str | None = None, attacker: str | None = None
) -> list[str]:
    def get(uid: str | None):
        return None if uid is None else b.unit(uid)

    host_unit = b.unit(host)
    assert host_unit is not None
    submitted = get(target)
    chosen = () if submitted is None else (submitted,)
    ctx = Context(battle=b, host=host_unit, targets=chosen, attacker=get(attacker))
    return [u.id for u in UNIT_SOURCES[source].resolve(ctx)]


def with_dead(*dead: str) -> Battle:
    return make_battle(units=[dict(u, hp=0) if u["id"] in dead else u for u in party()])


def _state(u: Unit) -> str:
    return "dead" if not u.alive else ("reserve" if u.zone is Zone.RESERVE else "field")


@pytest.mark.parametrize("source", list(UNIT_SOURCES))
@pytest.mark.parametrize("host", ["hero", "orc"])
def test_a_source_spec_tells_the_truth_about_what_it_yields(source: str, host: str) -> None:
    """The facts lint, describe and the schema read: side, states and limit."""
    b = with_dead("monk", "goblin")
    b.unit("mage").zone = Zone.RESERVE  # type: ignore[union-attr]
    spec = UNIT_SOURCES[source]
    me = b.unit(host)
    assert me is not None
    submitted = "troll" if host == "hero" else "hero"
    got = [u for u in b.units if u.id in units_of(b, source, host, target=submitted)]
    assert all(_state(u) in spec.states for u in got), (source, got)
    if spec.limit is not None:
        assert len(got) <= spec.limit
    sides: dict[Side, Callable[[Unit], bool]] = {
        Side.SELF: lambda u: u is me,
        Side.ALLIES: lambda u: u.team is me.team,
        Side.OPPONENTS: lambda u: u.team is not me.team,
        Side.PLAYER_TEAM: lambda u: u.team.value == "player",
        Side.ENEMY_TEAM: lambda u: u.team.value == "enemy",
        Side.ALL: lambda u: True,
        Side.SUBMITTED: lambda u: u.id == submitted,
    }
    assert all(sides[spec.side](u) for u in got), (source, got)
    if spec.whole and spec.side is not Side.SELF:  # every unit of its side in those states
        want = [u.id for u in b.units if sides[spec.side](u) and _state(u) in spec.states]
        assert sorted(u.id for u in got) == sorted(want), source


# Self: "the player in a player Card, the owner in a Status, or the acting enemy in an Enemy
# Behavior" -- the Host, whoever it is.
@pytest.mark.parametrize("host", ["hero", "monk", "orc"])
def test_self_is_the_host(host: str) -> None:
    assert units_of(with_dead(), "Self", host) == [host]


# Opponent, player Host: "the selected enemy if one was clicked and it is still alive,
# otherwise the first living enemy".
def test_opponent_reads_the_submitted_enemy() -> None:
    assert units_of(with_dead(), "Opponent", "hero", target="troll") == ["troll"]


def test_opponent_falls_back_to_the_first_living_enemy_when_nothing_was_clicked() -> None:
    assert units_of(with_dead("goblin"), "Opponent", "hero") == ["orc"]


def test_opponent_falls_back_when_the_clicked_enemy_died() -> None:
    assert units_of(with_dead("goblin", "troll"), "Opponent", "hero", target="troll") == ["orc"]


def test_opponent_ignores_a_submitted_unit_on_the_hosts_own_side() -> None:
    # "Reads the submitted Target or Attacker on the side opposite the Host"
    assert units_of(with_dead(), "Opponent", "hero", target="mage") == ["goblin"]


def test_opponent_reads_the_attacker() -> None:
    assert units_of(with_dead(), "Opponent", "hero", attacker="orc") == ["orc"]
    assert units_of(with_dead(), "Opponent", "orc", attacker="monk") == ["monk"]


# Opponent, enemy Host: "When the acting unit is an enemy: the player unit."
def test_opponent_of_an_enemy_host_is_the_player_unit() -> None:
    solo = make_battle(units=[unit("hero", "player"), unit("goblin"), unit("orc")])
    assert units_of(solo, "Opponent", "orc") == ["hero"]
    assert units_of(with_dead("hero"), "Opponent", "troll") == ["mage"]


def test_opponent_with_no_living_opponent_is_empty() -> None:
    assert units_of(with_dead("goblin", "orc", "troll"), "Opponent", "hero") == []


# AllUnits: "The player unit plus every living enemy. Dead units are excluded here too."
def test_all_units_is_every_living_unit() -> None:
    assert units_of(with_dead("mage", "orc"), "AllUnits", "hero") == [
        "hero",
        "monk",
        "goblin",
        "troll",
    ]


# ActivePlayer: "The currently active living player member"
def test_active_player() -> None:
    assert units_of(with_dead(), "ActivePlayer", "orc") == ["hero"]
    assert units_of(with_dead("hero"), "ActivePlayer", "mage") == []


# AllAllies / AllOpponents are relative to the Host's team.
@pytest.mark.parametrize(
    ("host", "allies", "opponents"),
    [
        ("hero", ["hero", "monk"], ["goblin", "troll"]),
        ("goblin", ["goblin", "troll"], ["hero", "monk"]),
    ],
)
def test_allies_and_opponents_follow_the_host(
    host: str, allies: list[str], opponents: list[str]
) -> None:
    b = with_dead("mage", "orc")
    assert units_of(b, "AllAllies", host) == allies
    assert units_of(b, "AllOpponents", host) == opponents


# AllEnemies (GCS): "Every living enemy. Dead enemies are always excluded." -- the enemy team,
# whoever the Host is.
@pytest.mark.parametrize("host", ["hero", "orc"])
def test_all_enemies_is_the_living_enemy_team(host: str) -> None:
    assert units_of(with_dead("troll"), "AllEnemies", host) == ["goblin", "orc"]


# AllDeadAllies: "Every dead unit still retained on the Host's team for revival rules"
def test_all_dead_allies() -> None:
    b = with_dead("mage", "orc")
    assert units_of(b, "AllDeadAllies", "hero") == ["mage"]
    assert units_of(b, "AllDeadAllies", "goblin") == ["orc"]
    assert units_of(with_dead(), "AllDeadAllies", "hero") == []


# Target: "The unit explicitly submitted ... without changing its team"
@pytest.mark.parametrize("target", ["mage", "orc", "hero"])
def test_target_is_the_submitted_unit_of_any_team(target: str) -> None:
    assert units_of(with_dead(), "Target", "hero", target=target) == [target]
    assert units_of(with_dead(), "Target", "hero") == []


def test_a_submitted_target_that_died_is_skipped_by_actions() -> None:
    # Two hits on the same Target: the first kills, the second skips it as dead.
    b = make_battle(
        card(
            "double",
            "SingleEnemy",
            {"id": "a", "type": "DealDamage", "amount": 20, "source": "Target"},
            {"id": "b", "type": "DealDamage", "amount": 5, "source": "Target"},
        )
    )
    events = play(b, "h1", "orc")
    assert of_type(events, "unit_died") == [{"type": "unit_died", "node": "a", "unit": "orc"}]
    assert of_type(events, "target_skipped") == [
        {"type": "target_skipped", "node": "b", "unit": "orc", "reason": "dead"}
    ]
    assert hp(b)["orc"] == 0


# -- card sources ---------------------------------------------------------------------------
def piles_battle() -> Battle:
    return make_battle(
        card("a"), card("b"), hand=["a", "b"], draw=["a", "b", "a"], discard=["b"], exhaust=["a"]
    )


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("HandPile", ["h1", "h2"]),
        ("DrawPile", ["d1", "d2", "d3"]),
        ("DiscardPile", ["x1"]),
        ("ExhaustPile", ["e1"]),
        # "The four battle piles together: hand, draw, discard, and exhaust."
        ("AllPiles", ["h1", "h2", "d1", "d2", "d3", "x1", "e1"]),
    ],
)
def test_card_sources_read_their_piles(source: str, expected: list[str]) -> None:
    b = piles_battle()
    ctx = Context(battle=b, host=b.units[0])
    assert CARD_SOURCES[source].resolve(ctx) == expected


def test_this_card_is_the_instance_resolving() -> None:
    b = make_battle(
        card("self_exile", "None", action("Exhaust", source="ThisCard")),
        card("other"),
        hand=["self_exile", "other"],
    )
    events = play(b, "h1")
    moved = of_type(events, "card_moved")
    assert moved == [
        {"type": "card_moved", "node": "act", "card": "h1", "from": "resolving", "to": "exhaust"}
    ]  # and it is not discarded afterwards
    assert b.piles[Pile.EXHAUST] == ["h1"] and b.piles[Pile.DISCARD] == []
    assert b.piles[Pile.HAND] == ["h2"]


def test_hand_means_the_hand_when_the_node_runs() -> None:
    # GCS: "hand" means the hand at the moment the node runs, including cards drawn earlier.
    b = make_battle(
        card(
            "cycle",
            "None",
            action("Draw", count=2),
            {"id": "all_out", "type": "Discard", "source": "HandPile"},
        ),
        card("x"),
        hand=["cycle", "x"],
        draw=["x", "x", "x"],
    )
    play(b, "h1")
    assert b.piles[Pile.HAND] == []
    assert sorted(b.piles[Pile.DISCARD]) == ["d1", "d2", "h1", "h2"]
    assert b.piles[Pile.DRAW] == ["d3"]


def test_snapshot_keeps_the_collection_from_before_a_move() -> None:
    # Guide: "Save a snapshot first when later logic needs the result from before the move"
    b = make_battle(
        card(
            "reshuffle",
            "None",
            {"id": "hand", "type": "CardSource", "source": "HandPile"},
            {"id": "before", "type": "Snapshot", "ports": {"input": "hand"}},
            {"id": "draw", "type": "Draw", "count": 1},
            {"id": "dump", "type": "Exhaust", "ports": {"target": "before"}},
        ),
        card("x"),
        hand=["reshuffle", "x", "x"],
        draw=["x"],
    )
    play(b, "h1")
    assert b.piles[Pile.EXHAUST] == ["h3", "h2"]  # the two cards held before the draw
    assert b.piles[Pile.HAND] == ["d1"]  # the drawn card was not in the snapshot


def test_sources_reevaluated_after_a_move_return_the_new_collection() -> None:
    b = make_battle(
        card(
            "mill",
            "None",
            {"id": "draws", "type": "CardSource", "source": "DrawPile"},
            {"id": "top", "type": "Take", "count": 1, "ports": {"input": "draws"}},
            {"id": "one", "type": "Discard", "ports": {"target": "top"}, "next": "two"},
            {"id": "two", "type": "Discard", "ports": {"target": "top"}},
        ),
        card("x"),
        hand=["mill"],
        draw=["x", "x", "x"],
    )
    play(b, "h1")
    assert b.piles[Pile.DISCARD][1:] == ["d2", "d1"] and b.piles[Pile.DRAW] == ["d3"]


# -- a connected Target port outranks the Source field ---------------------------------------
def test_connected_port_overrides_the_source_field() -> None:
    b = make_battle(
        card(
            "sniper",
            "None",
            {"id": "foes", "type": "UnitSource", "source": "AllOpponents"},
            {"id": "last", "type": "PickElement", "index": -1, "ports": {"input": "foes"}},
            {
                "id": "hit",
                "type": "DealDamage",
                "amount": 4,
                "source": "Self",
                "ports": {"target": "last"},
            },
        )
    )
    play(b, "h1")
    assert hp(b) == {"hero": 20, "mage": 20, "monk": 20, "goblin": 20, "orc": 20, "troll": 16}


def test_unconnected_port_uses_the_source_field() -> None:
    b = make_battle(card("brace", "None", action("GainArmor", amount=3, source="Self")))
    play(b, "h1")
    assert b.units[0].armor == 3
