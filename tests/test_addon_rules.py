"""The Godot side keeps no rule knowledge: it draws what the runtime answers.

No GDScript of the addon (or the demo, or the Workshop's project) spells a target mode, a unit
or card source or a node type: whatever it needs to know about them comes through the protocol
(the mode's facts in ``targets``, the forecast on each intent, the log lines, the preview marks,
``schema``). Nor does it know what an event does to a unit (each event that changed one says how
the unit looks after it, ``unit_after``), or decide anything from a refusal's text: a refusal is
read by its ``code``, its ``message`` (and ``where``) only shown.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

from pybridge.examples import demo_battle
from pybridge.runtime import load_battle
from pybridge.runtime.graph import NODE_TYPES
from pybridge.runtime.mode_table import MODE_NAMES
from pybridge.runtime.sources import CARD_SOURCES, UNIT_SOURCES
from pybridge.runtime.units_after import unit_looks
from pybridge.runtime.vocabulary import builtin

ROOT = Path(__file__).resolve().parent.parent
#: Every word of the rules' vocabulary, in every accepted spelling.
RULE_WORDS = frozenset({*MODE_NAMES, *UNIT_SOURCES, *CARD_SOURCES, *NODE_TYPES})
#: The runtime's event types (its event table): a branch on one may draw, never change a unit.
EVENT_TYPES = frozenset(builtin().events)
#: What the rules change of a unit, as ``unit_after`` tells it.
UNIT_FIELDS = frozenset(unit_looks(load_battle(demo_battle()).units[0]))
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


def found_in_gdscript(check: Callable[[str], list[str]]) -> dict[str, list[str]]:
    """What ``check`` finds in each GDScript file's source, by file; files with none left out."""
    found = {}
    for path in gdscript_files():
        hits = check(path.read_text("utf-8"))
        if hits:
            found[str(path.relative_to(ROOT))] = hits
    return found


def rule_words_named(source: str) -> list[str]:
    """The string literals of ``source`` that spell a word of the rules' vocabulary."""
    return [s for s in string_literals(source) if s in RULE_WORDS]


def test_no_gdscript_names_a_mode_a_source_or_a_node_type() -> None:
    assert found_in_gdscript(rule_words_named) == {}


def test_the_check_would_catch_a_mode_name_in_a_match() -> None:
    """The check itself: a mode-name branch, as the old card view had, is found."""
    source = 'match str(card.get("target")):\n\t"SingleEnemy", "AllEnemies":\n\t\tpass\n'
    assert {"SingleEnemy", "AllEnemies"} <= set(rule_words_named(source))


def test_the_addon_no_longer_has_its_own_narrator_or_damage_sum() -> None:
    sources = "\n".join(p.read_text("utf-8") for p in gdscript_files())
    assert "RANDOM_MODES" not in sources and "_intent_of" not in sources
    assert not (ROOT / "addons" / "pybridge_targeting" / "battle_narrator.gd").exists()
    assert "describe_all" not in sources


# -- events: a branch on an event's type draws; it never changes a unit ------------------------
_WRITES = re.compile(
    r'\[\s*"(?P<key>\w+)"\s*\]\s*(?:=|\+=|-=)(?!=)|\.(?P<attr>\w+)\s*(?:=|\+=|-=)(?!=)'
    r'|\[\s*"(?P<erased>\w+)"\s*\]\.(?:erase|clear)\('
)
_FUNC = re.compile(r"^(?:static\s+)?func\s+(\w+)\s*\(", re.M)


def _code(line: str) -> str:
    """A line without its comment (a # inside a string literal is kept)."""
    return re.sub(r'#[^"\']*$', "", line)


def _depth(line: str) -> int:
    return len(line) - len(line.lstrip("\t"))


def _block(lines: list[str], head: int) -> list[str]:
    """The lines indented under ``lines[head]``."""
    body = []
    for line in lines[head + 1 :]:
        if line.strip() and _depth(line) <= _depth(lines[head]):
            break
        body.append(line)
    return body


def _writes_unit(body: list[str], functions: dict[str, list[str]], seen: frozenset[str]) -> bool:
    """Does ``body`` write a unit field, itself or through a function of its file it calls?"""
    for line in map(_code, body):
        for hit in _WRITES.finditer(line):
            if (hit["key"] or hit["attr"] or hit["erased"]) in UNIT_FIELDS:
                return True
        for name in re.findall(r"\b(\w+)\s*\(", line):
            if (
                name in functions
                and name not in seen
                and _writes_unit(functions[name], functions, seen | {name})
            ):
                return True
    return False


def event_branches_that_change_units(source: str) -> list[str]:
    """The event types whose branch (an arm of a ``match`` on an event's ``type``, or an
    ``if``/``elif`` comparing it) writes a unit field (``UNIT_FIELDS``): what GDScript would
    know of an event's effect on a unit. A branch that only draws (lights a Cut entry, lunges
    an actor, shakes the screen on a hit, picks a colour) is fine."""
    lines = source.splitlines()
    functions = {
        m[1]: _block(lines, source[: m.start()].count("\n")) for m in _FUNC.finditer(source)
    }
    named = {  # constants that hold an event type (const HIT_EVENT := "damage")
        m[1]: m[2]
        for m in re.finditer(r'^const\s+(\w+)\s*(?::\s*\w+\s*)?:?=\s*"(\w+)"', source, re.M)
    }
    found = []
    for index, line in enumerate(lines):
        code = _code(line).strip()
        if code.startswith("match ") and '"type"' in code:
            arms = [i for i in range(index + 1, index + 1 + len(_block(lines, index)))
                    if lines[i].strip() and _depth(lines[i]) == _depth(line) + 1]  # fmt: skip
            for arm in arms:
                words = set(string_literals(lines[arm])) & EVENT_TYPES
                if words and _writes_unit(_block(lines, arm), functions, frozenset()):
                    found.extend(sorted(words))
        elif re.match(r"(el)?if\b", code) and '"type"' in code:
            words = set(string_literals(code)) | {
                named[w] for w in re.findall(r"\w+", code) if w in named
            }
            words &= EVENT_TYPES
            if words and _writes_unit(_block(lines, index), functions, frozenset()):
                found.extend(sorted(words))
    return found


def test_no_gdscript_branch_on_an_event_type_changes_a_unit() -> None:
    assert found_in_gdscript(event_branches_that_change_units) == {}


#: The playback's old per-event match: what a revive does to armor and statuses, in GDScript.
OLD_PLAYBACK = """static func apply(units: Dictionary, events: Array) -> void:
\tfor event: Dictionary in events:
\t\tvar unit: Dictionary = units[str(event.get("unit", ""))]
\t\tmatch str(event.get("type", "")):
\t\t\t"damage":
\t\t\t\tunit["hp"] = event.get("hp_after", unit.get("hp"))
\t\t\t"status":
\t\t\t\t_set_stacks(unit, str(event.get("status")), event.get("total", 0))
\t\t\t"revived":
\t\t\t\tunit["hp"] = event.get("hp", unit.get("hp"))
\t\t\t\tunit["armor"] = 0
\t\t\t\tunit["statuses"] = {}
\t\t\t"resolving":
\t\t\t\tshower.show_resolving(str(event.get("entry")))
\t\tif str(event.get("type")) == "withdrawn":
\t\t\tunit["zone"] = "reserve"
\t\tif str(event.get("type")) == HIT:
\t\t\tshake()


static func _set_stacks(unit: Dictionary, status: String, stacks: Variant) -> void:
\tvar statuses: Dictionary = unit.get("statuses", {}).duplicate()
\tstatuses.erase(status)
\tunit["statuses"] = statuses
"""


def test_the_check_would_catch_the_old_revive_branch() -> None:
    """The check itself: the old playback's branches are found, a status through its helper
    too; a branch that only draws (a Cut marker, a shake on a hit) is not."""
    found = event_branches_that_change_units('const HIT := "damage"\n' + OLD_PLAYBACK)
    assert sorted(found) == ["damage", "revived", "status", "withdrawn"]
    drawing = """\tmatch str(event.get("type", "")):
\t\t"resolving":
\t\t\tshower.show_resolving(str(event.get("entry")))
\t\t"enemy_acts":
\t\t\tlunge(str(event.get("unit")), str(event.get("target")))
\tif str(event.get("type")) == HIT:
\t\tshake()
"""
    assert event_branches_that_change_units('const HIT := "damage"\n' + drawing) == []


# -- refusals: read by their code; their text is only shown -------------------------------------
_TOLD = re.compile(r'(?:\.get\(\s*|\[\s*)"(message|where)"')
_DECIDES = re.compile(
    r"^\s*(?:el)?if\b|^\s*while\b|^\s*match\b|==|!="
    r"|\.(?:begins_with|ends_with|contains|containsn|find|findn|match|matchn|trim_prefix|split)\("
)


def refusal_texts_read_to_decide(source: str) -> list[str]:
    """The lines that decide something from a refusal's ``message`` or ``where`` (compare,
    search, branch on or parse it, or a variable holding it): only its ``code`` may decide.
    Whether there is a message at all (``is_empty()``) says nothing of its text."""
    lines = [_code(line) for line in source.splitlines()]
    assigned = [re.match(r"\s*var\s+(\w+)\b[^=]*=(.*)", line) for line in lines]
    held = {m[1] for m in assigned if m and _TOLD.search(m[2])}
    found = []
    for line, match in zip(lines, assigned, strict=True):
        read = match[2] if match else line  # what a var reads, not its name
        uses = [v for v in held if re.search(rf"\b{v}\b(?!\.is_empty\(\))", read)]
        if not (_TOLD.search(read) or uses):
            continue
        bare = _STRING.sub('""', read)  # words inside a shown text decide nothing
        chosen = re.search(r"\bif\b(.*?)\belse\b", read)  # a value chosen by what it reads
        by_text = chosen is not None and (
            _TOLD.search(chosen[1]) is not None
            or any(re.search(rf"\b{v}\b", chosen[1]) for v in uses)
        )
        if (by_text or _DECIDES.search(bare)) and not re.match(r"\s*for\b", line):
            found.append(line.strip())
    return found


def test_no_gdscript_decides_from_a_refusals_text() -> None:
    assert found_in_gdscript(refusal_texts_read_to_decide) == {}


def test_the_check_would_catch_a_refusal_read_by_its_text() -> None:
    """The check itself: the old Cut flow parsed a refusal's ``where`` for the entry waiting
    for a choice; a message compared or searched is found too; a message shown is not."""
    old_cut_flow = """\tvar error := bridge.last_error
\tvar where := str(error.get("where", ""))
\tif str(error.get("code", "")) == "target_required" and where.begins_with("choices."):
\t\tvar entry := where.trim_prefix("choices.")
"""
    assert len(refusal_texts_read_to_decide(old_cut_flow)) == 2
    compared = '\tif str(bridge.last_error.get("message", "")).contains("no legal target"):\n'
    assert refusal_texts_read_to_decide(compared) == [compared.strip()]
    chosen = '\tvar x := 1 if str(error.get("message", "")).length() > 3 else 2\n'
    assert refusal_texts_read_to_decide(chosen) == [chosen.strip()]
    shown = '\trefused.emit(card_id, str(bridge.last_error.get("message", tr("refused"))))\n'
    assert refusal_texts_read_to_decide(shown) == []
    given = '\tvar text := "" if state.is_empty() else str(error.get("message", "in a"))\n'
    assert refusal_texts_read_to_decide(given) == []
