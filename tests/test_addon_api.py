"""The addon's public face: docs/addon-guide.md's "Public API" lists exactly the global
classes (``class_name``) of the addon; every other script is an internal preloaded where it
is used. The Workshop (addons/pybridge_targeting/workshop/) is internal too: its panels stay out
of every game's Create Node dialog.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ADDON = ROOT / "addons" / "pybridge_targeting"
GUIDE = ROOT / "docs" / "addon-guide.md"
INTERNAL_FOLDERS = ("battle", "drawing", "transport", "workshop")


def class_names(paths: list[Path]) -> dict[str, Path]:
    found = {}
    for path in paths:
        named = re.search(r"^class_name\s+(\w+)", path.read_text("utf-8"), re.M)
        if named:
            found[named[1]] = path
    return found


def listed_in_guide() -> list[str]:
    text = GUIDE.read_text("utf-8")
    section = text.split("## 10. Public API", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"`(PyBridge\w+)`", section.split("\n- ", 1)[1])


def test_the_guide_lists_exactly_the_addons_global_classes() -> None:
    listed = listed_in_guide()
    assert len(listed) == len(set(listed)), "a class listed twice"
    assert sorted(listed) == sorted(class_names(sorted(ADDON.rglob("*.gd"))))
    # the views, the client, the Resources, the typed objects (the state, its units, sides and
    # cards, targets, late and asked choices, Cut entries, events, playback steps) and what a
    # game is handed
    assert len(listed) <= 30


def test_internals_have_no_class_name_and_are_preloaded_where_used() -> None:
    internals = [p for folder in INTERNAL_FOLDERS for p in sorted((ADDON / folder).glob("*.gd"))]
    assert len(internals) >= 60
    assert class_names(internals) == {}
    users = [*ADDON.rglob("*.gd"), *(ROOT / "tests" / "godot").rglob("*.gd"),
             *(ROOT / "workshop_project").rglob("*.gd")]  # fmt: skip
    # gdformat wraps a long preload over three lines: read it as one
    sources = {p: re.sub(r'\(\s+"(.*?)"\s+\)', r'("\1")', p.read_text("utf-8")) for p in users}
    for internal in internals:
        res = "res://" + internal.relative_to(ROOT).as_posix()
        used = (f'preload("{res}")', f'extends "{res}"')  # a part, or a public class's base
        assert any(u in s for p, s in sources.items() if p != internal for u in used), res


def test_every_preload_names_a_file_that_is_there() -> None:
    """A preload of a moved or missing file would stop the game from parsing."""
    for path in [*ADDON.rglob("*.gd"), *(ROOT / "demo_project").rglob("*.gd"),
                 *(ROOT / "workshop_project").rglob("*.gd"),
                 *(ROOT / "tests" / "godot").rglob("*.gd")]:  # fmt: skip
        for res in re.findall(r'preload\("res://(addons/[^"]+)"\)', path.read_text("utf-8")):
            assert (ROOT / res).exists(), (path, res)


def test_no_part_emits_its_views_signals() -> None:
    """A part tells what happened with its own signals; its view emits them as its own
    (battle/pybridge_relay.gd), so no part reaches into the view to tell the game."""
    emits = re.compile(r"(?<!\w)_?view\.(\w+)\.emit\(")
    assert emits.findall("\t_view.card_refused.emit(card_id, why)") == ["card_refused"]
    assert emits.findall("\tview.choice_ended.emit(choice, false)") == ["choice_ended"]
    internals = [p for folder in INTERNAL_FOLDERS for p in sorted((ADDON / folder).glob("*.gd"))]
    found = {p.name: emits.findall(p.read_text("utf-8")) for p in internals}
    assert {name: hits for name, hits in found.items() if hits} == {}


MAX_LINES = 400


def test_no_gdscript_file_of_the_addon_is_over_400_lines() -> None:
    lines = {
        p.relative_to(ADDON).as_posix(): len(p.read_text("utf-8").splitlines())
        for p in sorted(ADDON.rglob("*.gd"))
    }
    assert len(lines) > 60 and "pybridge_client.gd" in lines
    assert {name: count for name, count in lines.items() if count > MAX_LINES} == {}
