"""docs/extensions.md, followed on an empty folder: its own files, and nothing else, make a
game whose custom cards play, lint clean and pass the game's own pytest tests, and whose battle
screen plays them in the real Godot 4.6 engine and through the desktop bundle's C ABI.

Every file of the guide's game is printed in a code block whose info string names it
(```` ```python res://extensions/gold.py ````); this module writes those blocks into a fresh
folder, copies the addon in as the guide says, and runs what the guide tells the reader to run:
``pybridge build --web`` before packing the folder for the web runtime in headless Chromium,
where Shakedown is dragged onto the field; ``pybridge build --bundle``, whose library the
simulated Godot host (tests/c/godot_host.c) loads as the editor would, with no Python of this
machine in its environment, and plays the cards through.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import pybridge
from pybridge import extensions
from pybridge.devtools.build import addon
from pybridge.devtools.build import build as ffi_build
from pybridge.devtools.build.command import WEB_RUNTIME
from pybridge.examples import demo_battle
from pybridge.service import new_protocol
from pybridge.web import PACKAGE_ZIP, prepare_site

from .addon_support import copy_addon
from .engine_session import ARTIFACTS, EngineSession, engine_session
from .godot_host_support import HostRun, compile_host, parse
from .guide_support import printed_files, write_printed
from .native_support import run
from .web_support import require_browser

REPO = Path(__file__).resolve().parent.parent
GUIDE = REPO / "docs" / "extensions.md"
BATTLE = Path(pybridge.__file__).parent / "examples" / "demo_battle.json"
ENCOUNTER = "res://battles/gold_mine.json"
OPENED = "battle opened: "


def guide_files() -> dict[str, str]:
    return printed_files(GUIDE)


def write_game(root: Path) -> Path:
    return write_printed(GUIDE, root)


def game_with_addon(root: Path) -> Path:
    """The guide's folder after the first step of its section 6: the addon copied in."""
    game = write_game(root)
    copy_addon(game / addon.ADDON_IN_PROJECT)
    return game


def pybridge_command(game: Path, *argv: str) -> str:
    """``pybridge ARGV``, run in ``game`` as the guide's reader runs it; what it printed."""
    done = subprocess.run([sys.executable, "-m", "pybridge.cli", *argv], cwd=game,
                          env={**os.environ, "PYTHONPATH": str(REPO)}, capture_output=True,
                          text=True, timeout=600)  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def encounter() -> dict[str, Any]:
    found: dict[str, Any] = json.loads(guide_files()[ENCOUNTER])
    return found


def loot() -> dict[str, int]:
    """What Shakedown loots from each enemy of the guide's encounter, in the battle's order:
    its amount (read from the guide's library) times the enemy's tier."""
    library = json.loads(guide_files()["res://cards/gold.json"])
    shakedown = next(c for c in library["cards"] if c["id"] == "shakedown")
    amount: int = shakedown["behavior"]["nodes"][0]["amount"]
    return {unit["name"]: amount * unit.get("tier", 1) for unit in encounter()["units"]
            if unit["team"] == "enemy"}  # fmt: skip


def gold_label(root: Path) -> str:
    """The label the guide's extension gives its gold counter (the English of its message)."""
    words = extensions.load(extensions.project_extensions(write_game(root))).words
    schema = json.loads(new_protocol(words=words).call('{"op": "schema"}'))["result"]
    (gold,) = [c for c in schema["counters"] if c["name"] == "gold"]
    english: str = gold["label"]["english"]
    return english


def looted_lines() -> list[str]:
    """The extension's narration of that loot, one line per enemy."""
    return [f"The party loots {gold} gold from {name}." for name, gold in loot().items()]


def test_the_guide_prints_a_whole_game_with_one_extension_file() -> None:
    files = guide_files()
    assert set(files) == {"res://project.godot", "res://extensions/gold.py",
                          "res://cards/gold.json", "res://tests/test_gold.py",
                          "res://battles/gold_mine.json", "res://main.tscn",
                          "res://main.gd"}  # fmt: skip
    assert [f for f in files if f.startswith("res://extensions/")] == ["res://extensions/gold.py"]


def test_the_guides_commands_name_only_files_the_guide_writes() -> None:
    """Each file a ``pybridge`` command of the guide names (in a shell block or inline) is one
    the guide prints, so the reader who follows it has it."""
    text = GUIDE.read_text("utf-8")
    commands = [" ".join(c.split()) for c in re.findall(r"`(pybridge [^`]+)`", text)]
    commands += re.findall(r"^(pybridge .+)$", text, re.MULTILINE)
    named = {word for command in commands for word in command.split()
             if re.fullmatch(r"[\w./-]+\.(json|py|gd|tscn)", word)}  # fmt: skip
    assert "cards/gold.json" in named and "battles/gold_mine.json" in named, commands
    written = {name.removeprefix("res://") for name in guide_files()}
    assert named <= written, named - written


def test_the_guides_gdscript_passes_the_linter(tmp_path: Path) -> None:
    scripts = [str(p) for p in sorted(write_game(tmp_path).glob("*.gd"))]
    assert scripts
    tools = Path(sys.executable).parent
    for tool in (["gdlint"], ["gdformat", "--check"]):
        linted = subprocess.run([str(tools / tool[0]), *tool[1:], *scripts],
                                capture_output=True, text=True, cwd=REPO)  # fmt: skip
        assert linted.returncode == 0, linted.stdout + linted.stderr


def test_the_guide_game_plays_its_custom_cards(tmp_path: Path) -> None:
    game = write_game(tmp_path)
    words = extensions.load(extensions.project_extensions(game)).words
    protocol = new_protocol(words=words)
    battle = demo_battle()
    battle["piles"] = {"hand": [{"id": "h0", "card": "shakedown"}]}
    library = json.loads((game / "cards" / "gold.json").read_text("utf-8"))
    opened = json.loads(protocol.call(json.dumps({"op": "open", "battle": battle,
                                                  "libraries": [library]})))  # fmt: skip
    session = opened["result"]["session"]
    played = json.loads(protocol.call(json.dumps({"op": "play", "session": session,
                                                  "card": "h0"})))  # fmt: skip
    assert played["ok"], played
    looted = [line for line in played["result"]["log"] if "loots" in line["text"]]
    assert looted and looted[0]["message"]["id"] == "gold_rush.looted"
    assert played["result"]["state"]["counters"]["gold"] > 0


def test_the_guide_commands_and_the_game_tests_pass(tmp_path: Path) -> None:
    game = write_game(tmp_path)
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    lint = ["lint", "--project", ".", "cards/gold.json"]
    describe = ["describe", "--project", ".", "--file", "cards/gold.json", "--all"]
    for command in (lint, describe):
        done = subprocess.run([sys.executable, "-m", "pybridge.cli", *command], cwd=game,
                              env=env, capture_output=True, text=True, timeout=120)  # fmt: skip
        assert done.returncode == 0, done.stdout + done.stderr
    assert "0 with a generated text that differs" in done.stdout, done.stdout
    tests = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                            "-p", "no:xdist", "tests"], cwd=game, env=env, capture_output=True,
                           text=True, timeout=300)  # fmt: skip
    assert tests.returncode == 0, tests.stdout + tests.stderr
    assert "2 passed" in tests.stdout, tests.stdout


# -- the guide's battle screen in the real engine (Godot 4.6 web runtime, Pyodide) -----------


@pytest.fixture(scope="module")
def screen(tmp_path_factory: pytest.TempPathFactory) -> Iterator[EngineSession]:
    """The guide's folder, its web runtime built by the guide's command, packed and booted."""
    require_browser()
    work = tmp_path_factory.mktemp("extension_guide_web")
    game = game_with_addon(work / "game")
    pybridge_command(game, "build", "--web", "--project", ".")
    built = game / addon.ADDON_IN_PROJECT / WEB_RUNTIME / PACKAGE_ZIP
    packed = zipfile.ZipFile(built).read(f"{extensions.BUNDLE_FOLDER}/extensions/gold.py")
    assert packed.decode("utf-8") == guide_files()["res://extensions/gold.py"]
    site = prepare_site(work / "site", game)
    # The page gets the pybridge.zip that command built, as the addon's export plugin copies it.
    (site.root / PACKAGE_ZIP).unlink()
    shutil.copyfile(built, site.root / PACKAGE_ZIP)
    with engine_session(site, work, OPENED, "extension_guide_log.txt", EngineSession) as session:
        yield session


def test_shakedown_dragged_onto_the_field_loots_and_golden_blow_spends_the_gold(
    screen: EngineSession, tmp_path: Path
) -> None:
    """The encounter opened with the library plays both cards; the counters' gold chip shows
    the label the extension declares and the gold the state carries after each play."""
    layout: dict[str, Any] = json.loads(screen.after(OPENED)[0])
    label = gold_label(tmp_path)
    cards, units = layout["cards"], layout["units"]
    assert set(cards) == {"h0", "h1"} and set(units) == {u["id"] for u in encounter()["units"]}
    looted = looted_lines()
    gold = sum(loot().values())
    # Shakedown (all enemies) dragged onto the field between the two rows.
    since = screen.mark()
    screen.do({"drag": [*cards["h0"], 640, 300]}, {"wait_for": "played h0", "from": since})
    played = screen.lines[since:]
    assert "Knight plays Shakedown." in played
    assert [line for line in played if line.startswith("The party loots")] == looted
    assert screen.after("played ", since) == [f"h0, {label} {gold}"]
    screen.do({"wait_ms": 200}, {"screenshot": str(ARTIFACTS / "extension_guide.png")})
    # Golden Blow, the hand's first card now, aimed by its key and clicked onto the Ogre.
    since = screen.mark()
    # The key is read once the view takes input again: the click waits for the aim it starts.
    screen.do({"key": "1"}, {"wait_for": "aiming h1", "from": since})
    screen.do({"click": units["ogre"]}, {"wait_for": "played h1", "from": since})
    ogre = next(u for u in encounter()["units"] if u["id"] == "ogre")
    assert [line for line in screen.lines[since:] if not line.startswith("aiming ")][:2] == [
        "Knight plays Golden Blow at Ogre.",
        f"Ogre takes {gold + 3} damage, {ogre['hp'] - gold - 3} HP left.",
    ]
    assert screen.after("played ", since) == [f"h1, {label} {gold}"]


def test_the_engine_reported_no_errors(screen: EngineSession) -> None:
    assert [e for e in screen.errors if "ERROR" in e] == []


# -- the guide's game as a desktop bundle, through the C ABI -----------------------------------


@pytest.fixture(scope="module")
def bundled(tmp_path_factory: pytest.TempPathFactory) -> HostRun:
    """The guide's folder built with ``pybridge build --bundle --project .``; the simulated
    Godot host loads the bundle's library from the addon, as the editor does, with no Python
    of this machine in its environment, and sends the game's requests: open the encounter with
    the library, Shakedown, Golden Blow at the Ogre, close (replies request1..4)."""
    work = tmp_path_factory.mktemp("extension_guide_bundle")
    game = game_with_addon(work / "game")
    pybridge_command(game, "build", "--bundle", "--project", ".")
    folder = addon.platform_dir(game / addon.ADDON_IN_PROJECT, addon.this_platform())
    library = json.loads(guide_files()["res://cards/gold.json"])
    requests: list[dict[str, Any]] = [
        {"op": "open", "id": 1, "battle": encounter(), "libraries": [library]},
        {"op": "play", "id": 2, "session": "s1", "card": "h0"},
        {"op": "play", "id": 3, "session": "s1", "card": "h1", "target": "ogre"},
        {"op": "close", "id": 4, "session": "s1"},
    ]
    (work / "requests.jsonl").write_text("".join(json.dumps(r) + "\n" for r in requests))
    host = compile_host(work / "godot_host")
    env = {"PATH": "/nowhere", "GODOT_HOST_REQUESTS": str(work / "requests.jsonl")}
    result = run(host, folder / ffi_build.LIBRARY_NAME, "4.6", "local", BATTLE,
                 pybridge.__version__, timeout=180, env=env)  # fmt: skip
    seen = parse(result.returncode, result.stdout, result.stderr)
    assert seen.returncode == 0, seen.stderr
    assert seen.reply("protocol_version")["result"]["python"]["home"].startswith(str(folder))
    return seen


def test_the_bundle_plays_the_guides_cards_through_the_c_host(bundled: HostRun) -> None:
    opened, looted, blow, closed = (bundled.reply(f"request{n}") for n in range(1, 5))
    assert opened["ok"], opened
    assert looted["ok"], looted
    lines = [line["text"] for line in looted["result"]["log"]]
    expected = looted_lines()
    assert [line for line in lines if line.startswith("The party loots")] == expected
    narrated = [line for line in looted["result"]["log"] if line["text"] in expected]
    assert {line["message"]["id"] for line in narrated} == {"gold_rush.looted"}
    gold = sum(loot().values())
    assert looted["result"]["state"]["counters"] == {"gold": gold}
    damage = [e for e in blow["result"]["events"] if e["type"] == "damage"]
    assert [(e["unit"], e["amount"]) for e in damage] == [("ogre", gold + 3)], blow
    assert closed["ok"] and bundled.print_errors == []
