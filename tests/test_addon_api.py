"""The addon's public face: docs/addon-guide.md's "Public API" lists exactly the global
classes (``class_name``) of the addon; every other script is an internal preloaded where it
is used. The Workshop (addons/pybridge_targeting/workshop/) is internal too: its panels stay out
of every game's Create Node dialog.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from pybridge.protocol import Protocol

ROOT = Path(__file__).resolve().parent.parent
ADDON = ROOT / "addons" / "pybridge_targeting"
GUIDE = ROOT / "docs" / "addon-guide.md"
NAMESPACE = ADDON / "pybridge.gd"
INTERNAL_FOLDERS = ("battle", "drawing", "transport", "workshop")


def class_names(paths: list[Path]) -> dict[str, Path]:
    found = {}
    for path in paths:
        named = re.search(r"^class_name\s+(\w+)", path.read_text("utf-8"), re.M)
        if named:
            found[named[1]] = path
    return found


def guide_section() -> str:
    text = GUIDE.read_text("utf-8")
    return text.split("## 10. Public API", 1)[1].split("\n## ", 1)[0]


def listed_in_guide() -> list[str]:
    """The global classes the guide lists."""
    section = guide_section().split("The global classes:", 1)[1].split("The namespace's", 1)[0]
    return re.findall(r"`(PyBridge\w*)`", section)


def namespace_members() -> dict[str, Path]:
    """``X`` -> the script the namespace class ``PyBridge`` holds as its constant ``X``."""
    text = NAMESPACE.read_text("utf-8")
    found = re.findall(r'^const (\w+) := preload\("res://(.+?)"\)', text, re.M)
    return {name: ROOT / path for name, path in found}


#: The native classes a global class of the addon may rest on, by kind: the nodes a game places
#: (the Create Node dialog offers a global Node), the Resources the Inspector creates.
NODE_BASES = {"Node", "Control", "PanelContainer", "BoxContainer", "RichTextLabel"}
RESOURCE_BASES = {"Resource"}


def native_base(path: Path) -> str:
    """The native class ``path``'s script rests on, through its ``extends`` bases."""
    base = re.search(r"^extends\s+(\S+)", path.read_text("utf-8"), re.M)
    assert base, path
    if base[1].startswith('"res://'):
        return native_base(ROOT / base[1].strip('"').removeprefix("res://"))
    by_name = class_names(sorted(ADDON.rglob("*.gd")))
    return native_base(by_name[base[1]]) if base[1] in by_name else base[1]


def test_the_guide_lists_exactly_the_addons_global_classes() -> None:
    listed = listed_in_guide()
    assert len(listed) == len(set(listed)), "a class listed twice"
    assert sorted(listed) == sorted(class_names(sorted(ADDON.rglob("*.gd"))))
    # the 7 views, the client, the 7 Resources and the namespace
    assert len(listed) == 16


def test_each_global_class_is_a_node_a_resource_or_the_namespace() -> None:
    """Only what Godot must offer by name is global: a node a game places (a view, the
    client), a Resource the Inspector creates, and the namespace that holds the rest."""
    kinds: dict[str, list[str]] = {"node": [], "resource": [], "namespace": []}
    for name, path in class_names(sorted(ADDON.rglob("*.gd"))).items():
        base = native_base(path)
        if path == NAMESPACE:
            kinds["namespace"].append(name)
            assert not re.search(r"^(var|func|static|signal) ", path.read_text("utf-8"), re.M)
        elif base in NODE_BASES:
            kinds["node"].append(name)
        elif base in RESOURCE_BASES:
            kinds["resource"].append(name)
        else:
            raise AssertionError(f"{name} ({path.name}) is a {base}: make it PyBridge.X")
    assert kinds["namespace"] == ["PyBridge"]
    assert "PyBridgeClient" in kinds["node"] and "PyBridgeBattleView" in kinds["node"]
    assert len(kinds["resource"]) == 7


def test_the_namespace_holds_every_typed_object_the_schemas_shapes_describe() -> None:
    """Each shape the runtime hands out is mirrored by a member of ``PyBridge`` (its
    ``SHAPES``), inlined into one (its ``INLINE``), or kept as the runtime's Dictionary on
    purpose; a new shape with no class fails here. The guide lists every member."""
    schema = json.loads(Protocol().call(json.dumps({"op": "schema", "id": 1})))["result"]
    shapes = {shape["name"] for shape in schema["shapes"]}
    mirrored: set[str] = set()
    listed = guide_section().split("The namespace's members:", 1)[1]
    for name, path in namespace_members().items():
        assert path.exists(), path
        text = path.read_text("utf-8")
        assert not re.search(r"^class_name ", text, re.M), f"PyBridge.{name} is global too"
        assert f"`PyBridge.{name}`" in listed, f"the guide does not list PyBridge.{name}"
        for key in ("SHAPES", "INLINE"):
            const = re.search(rf"^const {key} := (\[.*?\])", text, re.M)
            mirrored.update(json.loads(const[1]) if const else [])
    kept_as_dictionaries = {"intent"}  # a unit's intent: the runtime's words and numbers
    assert shapes - mirrored == kept_as_dictionaries


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


VIEW_PARTS_FOLDERS = ("battle", "drawing")
# A name holds the battle view when it is declared with its class (or, untyped, as a view).
VIEW_HOLDER = re.compile(r"\b(\w+)\s*:\s*PyBridgeBattleView\b|\b(_?view)\s*:\s*Object\b")
# Object's methods that name a member in a string: the member named is what is read.
BY_NAME = "(?:get|set|call|connect|has_signal|has_method)"
GD_STRING = re.compile(r'&?"(?:[^"\\\n]|\\.)*"')


def code_of(source: str) -> str:
    """``source`` without its comments (a ``#`` outside a string ends the line's code)."""
    lines = []
    for line in source.splitlines():
        quoted, kept = False, []
        for i, char in enumerate(line):
            if char == '"' and (i == 0 or line[i - 1] != "\\"):
                quoted = not quoted
            elif char == "#" and not quoted:
                break
            kept.append(char)
        lines.append("".join(kept))
    return "\n".join(lines)


def view_members_read(source: str) -> set[str]:
    """The distinct members of the battle view a script reads, outside comments and strings:
    ``holder.member`` and ``holder.get("member")`` for every name that holds the view (a
    member declared at the top holds it in every function; a parameter or a local, only in
    its own function, where another function may use the name for a card or unit view)."""
    top, *functions = re.split(r"^(?=(?:static )?func )", code_of(source), flags=re.M)
    shared = {a or b for a, b in VIEW_HOLDER.findall(top)}
    read: set[str] = set()
    for scope in [top, *functions]:
        for holder in shared | {a or b for a, b in VIEW_HOLDER.findall(scope)}:
            by_name = rf'(?<![\w.]){holder}\.{BY_NAME}\(\s*&?"(\w+)"'
            read |= set(re.findall(by_name, scope))
            dotted = rf'(?<![\w.]){holder}\.(?!{BY_NAME}\(\s*"")(\w+)'
            read |= set(re.findall(dotted, GD_STRING.sub('""', scope)))
    return read


# The distinct members of PyBridgeBattleView each part of it reads (battle/, drawing/; a part
# not listed reads none). A ceiling that only goes down: lower a number when a part reads
# less, never raise one. The aim: no part reads more than about 6, and the small parts hold
# no view at all; each is given the parts, nodes and Callables it uses instead. The wiring
# (battle/pybridge_battle_wiring.gd) is where that context is made: it is the view's own code
# split out, and its number grows by what the parts stop reading. The setup is the view's
# own too (its _ready and overlays), and the typed twins hear the view's signals.
VIEW_READS_CEILING = {
    "battle_setup": 22,
    "battle_stage": 9,
    "battle_wiring": 40,
    "card_motion": 5,
    "hand_order": 4,
    "pile_picker": 2,
    "pile_viewer": 8,
    "relay": 1,
    "typed_twins": 10,
    "target_marks": 1,
}


def test_no_part_reads_more_of_its_view_than_it_did() -> None:
    sample = (
        "var _view: PyBridgeBattleView = null\n"
        "## _view.documented\n"
        'func f(view: PyBridgeBattleView) -> void:\n\tview.aim.cancel()  # _view.said\n'
        '\tprint("_view.quoted", _view.state, _view.get("schema"), other._view_not)\n'
    )  # fmt: skip
    assert view_members_read(sample) == {"aim", "state", "schema"}
    parts = [p for folder in VIEW_PARTS_FOLDERS for p in sorted((ADDON / folder).glob("*.gd"))]
    assert len(parts) > 25
    counts = {p.stem.removeprefix("pybridge_"): len(view_members_read(p.read_text("utf-8")))
              for p in parts if p.name != "pybridge_battle_view_base.gd"}  # fmt: skip
    assert {name: n for name, n in counts.items() if n} == VIEW_READS_CEILING
