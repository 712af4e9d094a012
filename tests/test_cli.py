"""The ``pybridge battle`` command prints a readable log of the demo battle."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from pybridge.cli import main

EXAMPLES = Path(__file__).resolve().parent.parent / "pybridge" / "examples"


def test_demo_battle_log_reads_like_a_battle(capsys) -> None:
    assert main(["battle"]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert lines[0].startswith("Turn 1. player: Knight 40/40, Cleric 24/30, Ranger 28/28")
    assert "  Goblin readies Slash against Ranger." in lines  # telegraphed before the first play
    assert "Ranger plays Meteor Strike." in lines
    assert "  Orc Brute takes 11 damage (4 blocked by armor), 23 HP left." in lines
    assert "  Orc Brute's Thorns strikes back at Ranger." in lines
    assert "Goblin Shaman uses Firebolt on Knight." in lines
    assert "Turn 2 begins with 3 energy." in lines
    assert "  Burn acts on Knight." in lines
    assert "  You draw 5 cards." in lines
    assert lines[-2] == "Victory! The enemies are defeated."
    assert lines[-1].startswith("Result: victory after")


@pytest.mark.parametrize("name", ["demo_battle", "duel_battle", "rivals_battle"])
def test_every_example_battle_plays_out_to_its_result(name: str, capsys) -> None:
    """The duel's cards choose several targets under strict rules (Twin Shot takes two) and
    choose a card when they resolve (Salvage): the log's player gives each what it needs."""
    assert main(["battle", str(EXAMPLES / f"{name}.json")]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[-1].startswith("Result: ")
    if name == "duel_battle":
        assert any(" plays Twin Shot at " in line for line in lines)


def test_battle_file_with_an_error_exits_2_and_names_the_field(tmp_path: Path) -> None:
    doc = {
        "format": "pybridge/battle@1",
        "active_player": "a",
        "units": [{"id": "a", "name": "A", "team": "player", "hp": -1, "max_hp": 3}],
    }
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(doc))
    run = subprocess.run(
        [sys.executable, "-m", "pybridge.cli", "battle", str(path)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 2
    assert "units[0].hp" in run.stderr and "got -1" in run.stderr


def run_with_closed_output(*args: str, stdin: bytes = b"") -> tuple[int, bytes]:
    """Run ``pybridge ARGS`` whose reader has gone before it writes (``| head`` that quit)."""
    process = subprocess.Popen(
        [sys.executable, "-m", "pybridge.cli", *args],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert process.stdout is not None
    process.stdout.close()
    _, errors = process.communicate(stdin, timeout=60)
    return process.returncode, errors


def test_a_closed_output_pipe_ends_the_command_quietly() -> None:
    code, errors = run_with_closed_output("battle")
    assert (code, errors) == (141, b"")
    code, errors = run_with_closed_output("serve", "--stdio", stdin=b'{"op":"version"}\n')
    assert (code, errors) == (141, b"")
