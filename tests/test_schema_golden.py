"""The built-in vocabulary loses no fact in its move onto the extension API: the ``schema``
answer holds every fact of the golden file taken before the move (new facts may be added)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from pybridge.protocol import Protocol
from pybridge.runtime import migrate

GOLDEN = Path(__file__).parent / "data" / "golden" / "schema_84cdf1c.json"
_NAMES = ("name", "type", "mode")
#: Descriptions rewritten on purpose since the golden was taken, by path, with why. Each must
#: still differ from the golden (an entry no longer needed fails) and still say something.
REWORDED: dict[str, str] = {
    "schema.unit_sources['Opponent'].doc": "says how it differs from Target (issue #25)",
    "schema.unit_sources['AllOpponents'].doc": "says how it differs from AllEnemies (#25)",
    "schema.unit_sources['AllEnemies'].doc": "says how it differs from AllOpponents (#25)",
    "schema.unit_sources['Target'].doc": "says how it differs from Opponent (#25)",
}


def _key(item: object) -> tuple[str, Any] | None:
    if isinstance(item, dict):
        for name in _NAMES:
            if name in item:
                return (name, item[name])
    return None


def missing_facts(golden: Any, actual: Any, path: str = "schema",
                  reworded: Mapping[str, str] = REWORDED) -> list[str]:  # fmt: skip
    """Every fact of ``golden`` that ``actual`` lacks, by its path; a path of ``reworded``
    must hold a new, non-empty text instead."""
    if path in reworded:
        if not isinstance(actual, str) or not actual.strip():
            return [f"{path}: a reworded description is empty"]
        return [] if actual != golden else [f"{path}: no longer reworded; drop it from REWORDED"]
    if path.endswith(".doc") and isinstance(golden, str) and isinstance(actual, str) \
            and actual.startswith(golden):  # fmt: skip
        return []  # a description that says more, its old words first: a fact added
    if isinstance(golden, dict):
        if not isinstance(actual, dict):
            return [f"{path}: expected an object"]
        out = []
        for key, value in golden.items():
            if key not in actual:
                out.append(f"{path}.{key}: missing")
            else:
                out += missing_facts(value, actual[key], f"{path}.{key}", reworded)
        return out
    if isinstance(golden, list):
        if not isinstance(actual, list):
            return [f"{path}: expected a list"]
        keyed = {_key(item): item for item in actual if _key(item) is not None}
        out = []
        for i, item in enumerate(golden):
            key = _key(item)
            if key is not None:
                if key not in keyed:
                    out.append(f"{path}[{key[1]!r}]: missing")
                else:
                    out += missing_facts(item, keyed[key], f"{path}[{key[1]!r}]", reworded)
            elif item not in actual:
                out.append(f"{path}[{i}]: {item!r} missing")
        return out
    return [] if golden == actual else [f"{path}: {golden!r} became {actual!r}"]


def schema() -> dict[str, Any]:
    answer = json.loads(Protocol().call('{"op": "schema"}'))
    assert answer["ok"], answer
    result: dict[str, Any] = answer["result"]
    return result


def test_the_schema_holds_every_fact_of_the_golden_file() -> None:
    golden = json.loads(GOLDEN.read_text("utf-8"))
    assert len(golden["node_types"]) == 25 and len(golden["events"]) == 38
    # Format versions move forward by design; what must hold is that the versions written
    # then are still read (tests/test_migrate.py opens the documents themselves).
    formats = golden.pop("formats")
    assert formats["battle"] in migrate.versions(migrate.BATTLE)
    assert formats["library"] in migrate.versions(migrate.LIBRARY)
    assert missing_facts(golden, schema()) == []


def test_the_golden_comparison_notices_a_lost_fact() -> None:
    golden = json.loads(GOLDEN.read_text("utf-8"))
    actual = schema()
    actual["node_types"] = [t for t in actual["node_types"] if t["name"] != "Heal"]
    actual["unit_sources"][0]["side"] = "allies"
    actual["piles"].remove("exhaust")
    found = missing_facts(golden, actual)
    assert "schema.node_types['Heal']: missing" in found
    assert "schema.unit_sources['Self'].side: 'self' became 'allies'" in found
    assert "schema.piles[3]: 'exhaust' missing" in found


def test_a_description_may_grow_but_not_lose_its_words() -> None:
    golden = {"doc": "the current hand"}
    assert missing_facts(golden, {"doc": "the current hand (a pile field's 'hand')"}) == []
    assert missing_facts(golden, {"doc": "the hand"}) != []


def test_a_reworded_description_must_still_differ_and_say_something() -> None:
    golden = json.loads(GOLDEN.read_text("utf-8"))
    golden.pop("formats")
    actual = schema()
    opponent = next(s for s in actual["unit_sources"] if s["name"] == "Opponent")
    was = next(s for s in golden["unit_sources"] if s["name"] == "Opponent")["doc"]
    opponent["doc"] = was
    assert any("no longer reworded" in f for f in missing_facts(golden, actual))
    opponent["doc"] = " "
    assert any("is empty" in f for f in missing_facts(golden, actual))
