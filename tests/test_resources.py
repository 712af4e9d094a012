"""The addon's document Resources in the real engine (the Godot 4.6 web runtime, headless):
every example document and every battle the fuzzer is seeded with is read into Resources
(``PyBridgeBattleResource``, ``PyBridgeLibraryResource``), saved as a ``.tres`` with
ResourceSaver, loaded back with ResourceLoader and written as JSON again, and must come back
exactly as it was given: the same keys, the same values, integers still integers.

The documents are written into a small project of their own (``res://documents/``) beside
``tests/godot/test_resources_roundtrip.gd``, booted once for this module. The Resources' other
behaviour (typed properties, the deck, the battle view opening a Resource) is tested in
tests/godot/test_resources.gd, run by tests/test_gdscript.py.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest

from pybridge.demo import ADDON_DIR, ADDON_RES
from pybridge.devtools.fuzz_seeds import fuzzer_battles
from pybridge.web import prepare_site, serve

from .web_support import drive, require_browser

ROOT = Path(__file__).resolve().parent.parent
ROUND_TRIP = Path(__file__).resolve().parent / "godot" / "test_resources_roundtrip.gd"
LINE = "PYBRIDGE_ROUNDTRIP "
DONE = "PYBRIDGE_ROUNDTRIP_DONE "
PROJECT = """config_version=5

[application]

config/name="PyBridge Resources round trip"
run/main_scene="res://main.tscn"
config/features=PackedStringArray("4.4", "GL Compatibility")

[rendering]

renderer/rendering_method="gl_compatibility"
"""
SCENE = """[gd_scene load_steps=2 format=3]

[ext_resource type="Script" path="res://round_trip.gd" id="1"]

[node name="Main" type="Node"]
script = ExtResource("1")
"""


def example_paths() -> list[Path]:
    """Every example document of the repository: battles and card libraries."""
    folders = ["pybridge/examples", "pybridge/simulate/examples",
               "pybridge/simulate/examples/encounters", "demo_project/battles",
               "demo_project/cards"]  # fmt: skip
    return sorted(p for folder in folders for p in (ROOT / folder).glob("*.json"))


def documents() -> dict[str, Any]:
    """File name in the test project -> document: the examples, then the fuzzer's battles."""
    found: dict[str, Any] = {}
    for path in example_paths():
        document = json.loads(path.read_text("utf-8"))
        kind = "library" if "units" not in document else "battle"
        stem = str(path.relative_to(ROOT).with_suffix("")).replace("/", "_")
        found[f"{kind}_{stem}.json"] = document
    demo = json.loads((ROOT / "pybridge/examples/demo_battle.json").read_text("utf-8"))
    for i, battle in enumerate(fuzzer_battles(demo), 1):
        found[f"battle_fuzz_seed_{i}.json"] = battle
    found["battle_odd_keys.json"] = odd_battle(demo)
    return found


def odd_battle(demo: dict[str, Any]) -> dict[str, Any]:
    """The demo battle with what the Resources must keep although no example has it: a key
    the format does not know (holding a fraction), a value of the wrong type, keys given at
    their defaults, a null intent and an empty list."""
    battle: dict[str, Any] = json.loads(json.dumps(demo))
    battle["flavor"] = {"weight": 1.5, "nested": [0.25, 2, True, None]}
    battle["units"][0]["hp"] = "twelve"
    battle["units"][0]["armor"] = 0
    battle["units"][0]["tier"] = 1
    battle["units"][1]["intent"] = None
    battle["cards"][0]["cost"] = 0
    battle["cards"][0]["tags"] = []
    battle["cards"][0]["type"] = "skill"
    battle["turn"] = 1
    return battle


def same(a: Any, b: Any, path: str = "") -> list[str]:
    """Where ``a`` and ``b`` differ, type included (1 is not 1.0, nor True)."""
    if type(a) is not type(b):
        return [f"{path}: {a!r} ({type(a).__name__}) != {b!r} ({type(b).__name__})"]
    if isinstance(a, dict):
        out = [f"{path}.{k}: only in one" for k in sorted(set(a) ^ set(b))]
        for key in a.keys() & b.keys():
            out += same(a[key], b[key], f"{path}.{key}")
        return out
    if isinstance(a, list):
        if len(a) != len(b):
            return [f"{path}: {len(a)} items != {len(b)}"]
        return [
            d for i, (x, y) in enumerate(zip(a, b, strict=True)) for d in same(x, y, f"{path}[{i}]")
        ]
    return [] if a == b else [f"{path}: {a!r} != {b!r}"]


@pytest.fixture(scope="module")
def round_trips(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """Boot the round-trip project once; each document's line by file name."""
    require_browser()
    work = tmp_path_factory.mktemp("resources")
    project = work / "project"
    (project / "documents").mkdir(parents=True)
    (project / "project.godot").write_text(PROJECT, "utf-8")
    (project / "main.tscn").write_text(SCENE, "utf-8")
    for name, document in documents().items():
        (project / "documents" / name).write_text(json.dumps(document, indent=1), "utf-8")
    started = time.monotonic()
    site = prepare_site(
        work / "site", project, {ADDON_RES: ADDON_DIR, "res://round_trip.gd": ROUND_TRIP}
    )
    with serve(site.root) as url:
        report = drive(url, work, DONE, timeout_ms=120_000, width=640, height=360)
    assert report["ok"], f"{report['failure']}\nprinted: {report['printed'][-20:]}"
    lines = [json.loads(t[len(LINE) :]) for t in report["printed"] if t.startswith(LINE)]
    print(f"\nresources: {len(lines)} documents in {time.monotonic() - started:.1f} s")
    return {"by_file": {line["file"]: line for line in lines}, "errors": report["errors"]}


def test_the_round_trip_covers_every_example_and_every_fuzz_seed() -> None:
    names = set(documents())
    assert len(example_paths()) >= 9
    assert {f"battle_fuzz_seed_{i}.json" for i in range(1, 6)} <= names
    assert any(n.startswith("library_") for n in names)
    assert len(names) == len(example_paths()) + 6


def test_the_comparison_tells_an_integer_from_a_float() -> None:
    assert same({"a": [1]}, {"a": [1.0]}) != []
    assert same(True, 1) != []
    assert same({"a": 1}, {"a": 1, "b": 2}) != []
    assert same({"a": [1, "x"]}, {"a": [1, "x"]}) == []


@pytest.mark.parametrize("name", sorted(documents()))
def test_a_document_comes_back_exactly_through_a_tres(
    round_trips: dict[str, Any], name: str
) -> None:
    line = round_trips["by_file"].get(name)
    assert line is not None, f"the engine did not round-trip {name}"
    assert line["saved"] == "OK"
    kind = "PyBridgeLibraryResource" if name.startswith("library_") else "PyBridgeBattleResource"
    assert line["class"] == kind
    assert "[sub_resource" in line["tres"]  # the parts are Resources, not one Dictionary
    assert same(line["document"], documents()[name]) == []


def test_no_script_failed_during_the_round_trip(round_trips: dict[str, Any]) -> None:
    errors = [e for e in round_trips["errors"] if "SCRIPT ERROR" in e or "Parse Error" in e]
    assert errors == []
