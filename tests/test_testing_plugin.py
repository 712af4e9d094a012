"""The pytest plugin a game tests its cards with (pybridge.testing, docs/testing-your-cards.md):
its failures name the card and the unit, and its ini setting is read from the ini's folder."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from pybridge.examples import demo_battle
from pybridge.testing import Game

ROOT = Path(__file__).resolve().parents[1]


def card(ident: str, target: str, text: str, node: dict[str, object]) -> dict[str, object]:
    behavior = {"start": "hit", "nodes": [{"id": "hit", **node}]}
    return {"id": ident, "name": ident.title(), "target": target, "text": text,
            "behavior": behavior}  # fmt: skip


#: Deals its damage to one enemy while its mode and text promise them all (PB101, and its text
#: is not what it does).
FAKE_QUAKE = card("fake_quake", "AllEnemies", "Deal 4 damage to all enemies.",
                  {"type": "DealDamage", "amount": 4, "source": "Opponent"})  # fmt: skip
#: A node type with a typo: the card does not load.
TYPO = card("typo", "AllEnemies", "Deal 4 damage.",
            {"type": "DealDamag", "amount": 4, "source": "AllOpponents"})  # fmt: skip
#: A clean card whose text says something else.
WORDY = card("wordy", "SingleEnemy", "Deal 6 damage to the selected enemy. Probably.",
             {"type": "DealDamage", "amount": 6, "source": "Opponent"})  # fmt: skip


def test_a_library_with_a_card_that_does_not_load_still_reports_every_card_by_id() -> None:
    library = {"format": "pybridge/cards@1", "cards": [FAKE_QUAKE, TYPO, WORDY]}
    with pytest.raises(AssertionError) as failed:
        Game(None).assert_library_clean(library)
    lines = str(failed.value).splitlines()[1:]
    assert len(lines) == 4, lines
    assert lines[0].startswith("  PB101 card 'fake_quake' (node 'hit', field 'source'): ")
    assert lines[1].startswith("  PB002 card 'typo', node 'hit', field 'type': ")
    assert lines[2].startswith("  card 'fake_quake': its text 'Deal 4 damage to all enemies.'")
    assert lines[3].startswith("  card 'wordy': its text ")
    assert "None" not in str(failed.value)


def test_a_unit_that_is_not_there_is_named_with_the_units_there_are() -> None:
    fight = Game(None).open(demo_battle())
    assert fight.unit("goblin")["hp"] > 0
    with pytest.raises(AssertionError, match=r"no unit 'gobln' in the battle \(units: "
                       r"'knight', 'cleric', 'ranger', 'goblin', 'orc', 'shaman'\)"):  # fmt: skip
        fight.unit("gobln")


def test_the_ini_settings_project_is_relative_to_the_ini_file(tmp_path: Path) -> None:
    game = tmp_path / "game"
    (game / "extensions").mkdir(parents=True)
    (game / "project.godot").write_text(
        '[pybridge]\n\nextensions=PackedStringArray("res://extensions/gold.py")\n', "utf-8"
    )
    (game / "extensions" / "gold.py").write_text(textwrap.dedent('''
        from pybridge.extend import Message
        NAME, VERSION = "gold", "1"
        def register(words):
            words.counter("gold", doc="gold", label=Message("gold", "Gold"))
        '''), "utf-8")  # fmt: skip
    checks = tmp_path / "checks"
    (checks / "tests").mkdir(parents=True)
    (checks / "pytest.ini").write_text("[pytest]\npybridge_project = ../game\n", "utf-8")
    (checks / "tests" / "test_it.py").write_text(textwrap.dedent('''
        def test_the_games_extension_is_loaded(game, pybridge_project):
            assert pybridge_project.name == "game", pybridge_project
            counters = game.send({"op": "schema"}).result["counters"]
            assert [c["name"] for c in counters] == ["gold"]
        '''), "utf-8")  # fmt: skip
    # Run from a folder that is neither the ini's nor the project's.
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                           "-p", "no:xdist", "-c", str(checks / "pytest.ini"),
                           str(checks / "tests")], cwd=tmp_path, capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=120)  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    assert "1 passed" in done.stdout
