"""The runtime's vocabulary is declared once, complete, and described truthfully by ``schema``.

These tests fail when a target mode lacks its fact row, an event type is missing from the
events table, the narrator or docs/format.md, or when the schema stops being enough to build
a valid node of every type (what the Workshop builds its palette and forms from).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from pybridge.examples import demo_battle
from pybridge.protocol import Protocol
from pybridge.runtime import TargetMode, load_battle
from pybridge.runtime.events import EVENTS
from pybridge.runtime.graph import NODE_TYPES, parse_behavior
from pybridge.runtime.mode_table import MODE_FACTS, MODE_NAMES, Chooser, Reach
from pybridge.runtime.narrate import NARRATION
from pybridge.runtime.reader import Reader
from pybridge.runtime.schema import vocabulary

from .builders import card, make_battle, party

ROOT = Path(__file__).resolve().parent.parent


def schema() -> dict[str, Any]:
    answer = json.loads(Protocol().call('{"op": "schema", "id": 1}'))
    assert answer["ok"], answer
    result: dict[str, Any] = answer["result"]
    return result


def test_every_mode_has_exactly_one_fact_row() -> None:
    assert set(MODE_FACTS) == set(TargetMode)
    assert all(row.mode is mode for mode, row in MODE_FACTS.items())
    names = [m["mode"] for m in schema()["modes"]]
    assert names == [m.value for m in TargetMode]


def test_the_facts_say_what_both_seed_documents_say() -> None:
    """'Single Enemy, Single Ally, Other Ally, and Any Unit display the aiming arrow' (guide);
    'RequiresTarget returns true exactly for SingleEnemyUnit' among the GCS modes."""
    arrow = {m for m in TargetMode if m.requires_target}
    assert arrow == {TargetMode.SINGLE_ENEMY, TargetMode.SINGLE_ALLY, TargetMode.OTHER_ALLY,
                     TargetMode.ANY_UNIT}  # fmt: skip
    gcs = {name: MODE_NAMES[name] for name in ("None", "SingleEnemyUnit", "AllEnemyUnits", "Self")}
    assert [name for name, mode in gcs.items() if mode.requires_target] == ["SingleEnemyUnit"]
    assert {m for m in TargetMode if m.is_random} == {TargetMode.RANDOM_ALLY,
                                                      TargetMode.RANDOM_OPPONENT}  # fmt: skip
    assert {m for m in TargetMode if m.is_area} == {TargetMode.ALL_ENEMIES, TargetMode.ALL_ALLIES}
    assert MODE_FACTS[TargetMode.OTHER_ALLY].reach is Reach.OTHER_ALLY
    assert MODE_FACTS[TargetMode.NONE].chooser is Chooser.NOBODY


def test_a_new_mode_row_changes_legality_without_touching_the_rules(monkeypatch) -> None:
    """Legality reads the facts: a mode whose row says "the player picks an ally other than
    the source" behaves as Other Ally, whatever it is called."""
    other = MODE_FACTS[TargetMode.OTHER_ALLY]
    monkeypatch.setitem(MODE_FACTS, TargetMode.SINGLE_ALLY, other)
    battle = make_battle(card("heal", "SingleAlly"), units=party())
    from pybridge.runtime import targets

    info = targets(battle, "h1")
    assert info.source not in info.candidates and info.candidates


def test_every_emitted_event_type_is_in_the_table_and_every_table_row_has_narration() -> None:
    emitted: set[str] = set()
    for path in (ROOT / "pybridge" / "runtime").glob("*.py"):
        text = path.read_text("utf-8")
        emitted |= set(re.findall(r'emit\(\s*"([a-z_]+)"', text))
        emitted |= set(re.findall(r'\{"type": "([a-z_]+)"', text))
    assert emitted <= set(EVENTS), emitted - set(EVENTS)
    assert set(NARRATION) == set(EVENTS)
    for spec in NODE_TYPES.values():
        assert set(spec.events) <= set(EVENTS), spec.name


def test_docs_format_lists_every_event_type_and_skip_reason() -> None:
    from pybridge.runtime.events import LOSS_REASONS, SKIP_REASONS

    doc = (ROOT / "docs" / "format.md").read_text("utf-8")
    table = doc[doc.index("## Events") :]
    rows = {cell for line in table.splitlines() for cell in re.findall(r"^\| `([a-z_]+)`", line)}
    missing = set(EVENTS) - rows - {"withdrawn", "deployed"}
    assert "`withdrawn`, `deployed`" in table and not missing, missing
    for reason in (*SKIP_REASONS, *LOSS_REASONS):
        assert f"`{reason}`" in table, reason


def _value_for(field: dict[str, Any]) -> Any:
    """A valid value of a field, chosen from the schema alone."""
    if not field["required"]:
        return field["default"]
    if field["type"] == "choice":
        return field["choices"][0]
    if field["type"] in ("integer", "amount"):
        return max(field["minimum"], 1)
    if field["type"] == "id":
        return "burn"
    if field["type"] == "boolean":
        return False
    return {}


@pytest.mark.parametrize("name", list(NODE_TYPES))
def test_the_schema_is_enough_to_build_a_valid_node_of_every_type(name: str) -> None:
    types = {t["name"]: t for t in schema()["node_types"]}
    node_type = types[name]
    node: dict[str, Any] = {"id": "n", "type": name}
    for field in node_type["fields"]:
        value = _value_for(field)
        if value is not None:
            node[field["name"]] = value
    nodes = [node]
    producer = {"units": "UnitSource", "cards": "CardSource", "condition": "Condition"}
    ports = {}
    for port in node_type["ports"]:
        kind = "units" if "units" in port["accepts"] else port["accepts"][0]
        feeder: dict[str, Any] = {"id": f"in_{port['name']}", "type": producer[kind]}
        if kind == "condition":
            feeder.update(test="not_empty", ports={"input": "src"})
            nodes.append({"id": "src", "type": "UnitSource", "source": "Self"})
        else:
            feeder["source"] = "Self" if kind == "units" else "HandPile"
        nodes.append(feeder)
        if port["required"] or "acts_on" not in node_type:  # a condition's input, too
            ports[port["name"]] = feeder["id"]
    if "acts_on" in node_type:
        node["source"] = node_type["source"]["choices"][0]
    if ports:
        node["ports"] = ports
    flow = [n for n in nodes if NODE_TYPES[n["type"]].flow]
    behavior = {"nodes": nodes, "start": flow[0]["id"]} if flow else {"nodes": nodes}
    parsed = parse_behavior(Reader(behavior, "behavior"), allow_stacks=True)
    assert parsed.nodes["n"].type.name == name


def test_the_schema_answer_is_the_tables_and_is_given_once() -> None:
    protocol = Protocol()
    first = protocol.call('{"op": "schema", "id": 1}')
    again = protocol.call('{"op": "schema", "id": 2}')
    assert (
        json.loads(first)["result"]
        == json.loads(again)["result"]
        == json.loads(json.dumps(vocabulary()))
    )
    found = json.loads(first)["result"]
    assert [t["name"] for t in found["node_types"]] == list(NODE_TYPES)
    assert {e["type"] for e in found["events"]} == set(EVENTS)
    groups = {t["group"] for t in found["node_types"]}
    assert groups == set(found["node_groups"])


def test_targets_carries_the_facts_of_the_cards_mode() -> None:
    protocol = Protocol()
    session = json.loads(protocol.call(json.dumps({"op": "open", "battle": demo_battle()})))
    sid = session["result"]["session"]
    battle = load_battle(demo_battle())
    for instance in battle.piles[next(iter(battle.piles))]:
        answer = json.loads(protocol.call(json.dumps({"op": "targets", "session": sid,
                                                      "card": instance})))  # fmt: skip
        mode = battle.cards[instance].card.target
        assert answer["result"]["facts"] == mode.facts.to_json()
