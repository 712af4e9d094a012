"""The addon's GDScript unit tests, in the real Godot 4.6 engine (its web runtime, headless).

``tests/godot/`` is a small Godot project: ``runner.tscn`` runs every ``test_*`` method of
every ``test_*.gd`` there and prints one ``PYBRIDGE_TEST <json>`` line per test. It is packed
with the addon and the demo battle and booted once for this module; each GDScript test is
one pytest test here, named after it. Neither GUT nor gdUnit4 is used: both are installed
from GitHub or the Godot asset library, not from a package registry, so they cannot be
pinned and installed the way every other dependency of this repository is.

Needs Debian's chromium and ``web/node_modules`` (``web/setup.sh``): under CI=true the
fixture runs that script and a missing piece is a failure; elsewhere it is a skip.
"""

from __future__ import annotations

import json
import re
import time
from pathlib import Path
from typing import Any

import pytest

from pybridge.demo import (
    ADDON_DIR,
    ADDON_RES,
    BATTLE_FILE,
    BATTLE_RES,
    DUEL_FILE,
    DUEL_RES,
    RIVALS_FILE,
    RIVALS_RES,
)
from pybridge.web import prepare_site, serve

from .web_support import drive, require_browser

GODOT_TESTS = Path(__file__).resolve().parent / "godot"
#: The demo's German catalog, which tests/godot/test_sentences.gd loads from its .po file.
GERMAN_FILE = Path(__file__).resolve().parent.parent / "demo_project" / "locale" / "de.po"
GERMAN_RES = "res://locale/de.po"
ARTIFACTS = Path(__file__).resolve().parent.parent / "artifacts"
LINE = "PYBRIDGE_TEST "
DONE = "PYBRIDGE_TESTS_DONE "


def declared_tests() -> list[str]:
    """``suite::test`` for every ``func test_*`` of every suite, as the runner will run them."""
    found = []
    for path in sorted(GODOT_TESTS.glob("test_*.gd")):
        for name in re.findall(r"^func (test_\w+)\(", path.read_text("utf-8"), re.M):
            found.append(f"{path.stem}::{name}")
    return found


@pytest.fixture(scope="module")
def results(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """Pack and boot the test project once; every result line by ``suite::test``."""
    require_browser()
    work = tmp_path_factory.mktemp("gdscript")
    started = time.monotonic()
    mounts = {ADDON_RES: ADDON_DIR, BATTLE_RES: BATTLE_FILE, DUEL_RES: DUEL_FILE,
              RIVALS_RES: RIVALS_FILE, GERMAN_RES: GERMAN_FILE}  # fmt: skip
    site = prepare_site(work / "site", GODOT_TESTS, mounts)
    with serve(site.root) as url:
        report = drive(url, work, DONE, timeout_ms=240_000, width=1280, height=720)
    ARTIFACTS.mkdir(exist_ok=True)
    (ARTIFACTS / "gdscript_tests.json").write_text(json.dumps(report, indent=2))
    assert report["ok"], f"{report['failure']}\nprinted: {report['printed'][-20:]}"
    by_name = {}
    for text in report["printed"]:
        if text.startswith(LINE):
            line = json.loads(text[len(LINE) :])
            by_name[f"{line['suite']}::{line['test']}"] = line
    done = [json.loads(t[len(DONE) :]) for t in report["printed"] if t.startswith(DONE)]
    print(f"\ngdscript: {len(by_name)} tests in {time.monotonic() - started:.1f} s")
    return {"tests": by_name, "done": done[0], "errors": report["errors"]}


@pytest.mark.parametrize("name", declared_tests())
def test_gdscript(results: dict[str, Any], name: str) -> None:
    line = results["tests"].get(name)
    assert line is not None, f"the runner did not run {name}"
    assert line["ok"], "\n".join(line["failures"])


def test_every_suite_ran_and_no_script_failed(results: dict[str, Any]) -> None:
    declared = declared_tests()
    assert len(declared) >= 30
    assert sorted(results["tests"]) == sorted(declared)
    assert results["done"]["passed"] + results["done"]["failed"] == len(declared)
    script_errors = [e for e in results["errors"] if "SCRIPT ERROR" in e or "Parse Error" in e]
    assert script_errors == []
