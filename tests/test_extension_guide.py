"""docs/extensions.md, followed on an empty folder: its own files, and nothing else, make a
game whose custom cards play, lint clean and pass the game's own pytest tests.

Every file of the guide's game is printed in a code block whose info string names it
(```` ```python res://extensions/gold.py ````); this module writes those blocks into a fresh
folder and runs what the guide tells the reader to run.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from pybridge import extensions
from pybridge.examples import demo_battle
from pybridge.service import new_protocol

from .guide_support import printed_files, write_printed

REPO = Path(__file__).resolve().parent.parent
GUIDE = REPO / "docs" / "extensions.md"


def guide_files() -> dict[str, str]:
    return printed_files(GUIDE)


def write_game(root: Path) -> Path:
    return write_printed(GUIDE, root)


def test_the_guide_prints_a_whole_game_with_one_extension_file() -> None:
    files = guide_files()
    assert set(files) == {"res://project.godot", "res://extensions/gold.py",
                          "res://cards/gold.json", "res://tests/test_gold.py"}  # fmt: skip
    assert [f for f in files if f.startswith("res://extensions/")] == ["res://extensions/gold.py"]


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
