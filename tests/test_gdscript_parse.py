"""The GDScript that no engine here can run, checked by the GDScript parser (gdtoolkit).

No desktop Godot 4 can be installed on this machine, and the Godot web runtime has no editor:
the editor side of the addon (the Workshop's main-screen tab, the Card Libraries dock, the
unsaved-changes prompt when the editor closes) is checked by parsing it. Everything else the
Workshop uses runs in the real engine in tests/test_workshop_e2e.py. Every script the
Workshop uses must be ``@tool``: in the editor a script without it is a placeholder whose
code never runs.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from gdtoolkit.formatter import format_code
from gdtoolkit.linter import DEFAULT_CONFIG, lint_code
from gdtoolkit.parser import parser

ROOT = Path(__file__).resolve().parent.parent
ADDON = ROOT / "addons" / "pybridge_targeting"
PLUGIN = ADDON / "plugin.gd"
#: The Workshop's own scripts: formatted by gdformat and clean under gdlint.
WORKSHOP_SCRIPTS = [
    *sorted((ADDON / "workshop").glob("*.gd")),
    PLUGIN,
    ROOT / "workshop_project" / "main.gd",
]
ALL_SCRIPTS = sorted(
    {*ADDON.rglob("*.gd"), *(ROOT / "demo_project").rglob("*.gd"), *WORKSHOP_SCRIPTS}
)


def functions(path: Path) -> dict[str, Any]:
    """Top-level function name -> its header (name, arguments, return type)."""
    found = {}
    for statement in parser.parse(path.read_text("utf-8")).children:
        if statement.data in ("func_def", "static_func_def"):
            header = statement.children[0]
            found[str(header.children[0])] = header
    return found


def return_type(header: Any) -> str:
    return str(header.children[-1]) if len(header.children) > 2 else ""


@pytest.mark.parametrize("path", ALL_SCRIPTS, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_script_parses(path: Path) -> None:
    parser.parse(path.read_text("utf-8"))


@pytest.mark.parametrize("path", WORKSHOP_SCRIPTS, ids=lambda p: str(p.relative_to(ROOT)))
def test_the_workshop_scripts_are_formatted_and_lint_clean(path: Path) -> None:
    code = path.read_text("utf-8")
    assert format_code(code, max_line_length=100) == code, "run gdformat"
    assert [str(problem) for problem in lint_code(code, DEFAULT_CONFIG)] == []


def test_every_addon_script_runs_in_the_editor() -> None:
    not_tool = [
        str(p.relative_to(ROOT))
        for p in sorted(ADDON.rglob("*.gd"))
        if not p.read_text("utf-8").startswith("@tool")
    ]
    assert not_tool == []


def test_the_plugin_adds_the_workshop_as_a_main_screen_tab() -> None:
    source = PLUGIN.read_text("utf-8")
    assert "extends EditorPlugin" in source
    found = functions(PLUGIN)
    assert return_type(found["_has_main_screen"]) == "bool"
    assert return_type(found["_get_plugin_name"]) == "String"
    assert return_type(found["_get_plugin_icon"]) == "Texture2D"
    assert return_type(found["_make_visible"]) == "void"
    # The unsaved-changes prompt when the editor closes, and Save All saving the library.
    assert return_type(found["_get_unsaved_status"]) == "String"
    assert "_save_external_data" in found
    assert "EditorInterface.get_editor_main_screen().add_child(_workshop)" in source
    assert "add_control_to_dock(DOCK_SLOT_RIGHT_UL, _dock)" in source
    assert "remove_control_from_docks(_dock)" in source
    scene = ADDON / "workshop" / "pybridge_workshop.tscn"
    assert f'preload("res://{scene.relative_to(ROOT).as_posix()}")' in source
    assert 'path="res://addons/pybridge_targeting/workshop/pybridge_workshop.gd"' in (
        scene.read_text("utf-8")
    )


def test_the_check_catches_a_script_the_parser_refuses() -> None:
    with pytest.raises(Exception, match="Unexpected"):
        parser.parse("func broken(:\n\tpass\n")
