"""The Godot side keeps no rule knowledge: it draws what the runtime answers.

No GDScript of the addon (or the demo, or the Workshop's project) spells a target mode, a unit
or card source or a node type: whatever it needs to know about them comes through the protocol
(the mode's facts in ``targets``, the forecast on each intent, the log lines, the preview marks,
``schema``).
"""

from __future__ import annotations

import re
from pathlib import Path

from pybridge.runtime.graph import NODE_TYPES
from pybridge.runtime.mode_table import MODE_NAMES
from pybridge.runtime.sources import CARD_SOURCES, UNIT_SOURCES

ROOT = Path(__file__).resolve().parent.parent
#: Every word of the rules' vocabulary, in every accepted spelling.
RULE_WORDS = frozenset({*MODE_NAMES, *UNIT_SOURCES, *CARD_SOURCES, *NODE_TYPES})
_STRING = re.compile(r'[&^]?"((?:[^"\\\n]|\\.)*)"|\'((?:[^\'\\\n]|\\.)*)\'')


def gdscript_files() -> list[Path]:
    files = [
        *sorted((ROOT / "addons").rglob("*.gd")),
        *sorted((ROOT / "demo_project").rglob("*.gd")),
        *sorted((ROOT / "workshop_project").rglob("*.gd")),
    ]
    assert len(files) >= 30
    return files


def string_literals(source: str) -> list[str]:
    code = "\n".join(line.split("#", 1)[0] if '"' not in line else line
                     for line in source.splitlines())  # fmt: skip
    return [a or b for a, b in _STRING.findall(code)]


def test_no_gdscript_names_a_mode_a_source_or_a_node_type() -> None:
    found = {}
    for path in gdscript_files():
        hits = [s for s in string_literals(path.read_text("utf-8")) if s in RULE_WORDS]
        if hits:
            found[str(path.relative_to(ROOT))] = hits
    assert found == {}


def test_the_check_would_catch_a_mode_name_in_a_match() -> None:
    """The check itself: a mode-name branch, as the old card view had, is found."""
    source = 'match str(card.get("target")):\n\t"SingleEnemy", "AllEnemies":\n\t\tpass\n'
    assert {"SingleEnemy", "AllEnemies"} <= set(string_literals(source)) & RULE_WORDS


def test_the_addon_no_longer_has_its_own_narrator_or_damage_sum() -> None:
    sources = "\n".join(p.read_text("utf-8") for p in gdscript_files())
    assert "RANDOM_MODES" not in sources and "_intent_of" not in sources
    assert not (ROOT / "addons" / "pybridge_targeting" / "battle_narrator.gd").exists()
    assert "describe_all" not in sources
