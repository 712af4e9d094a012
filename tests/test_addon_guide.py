"""The addon guide's steps, followed on a fresh project folder in the real Godot 4.6 engine.

docs/addon-guide.md prints every file of its project in a code block whose info string names
the file (```` ```gdscript res://my_card.gd ````). This module writes those blocks, and
nothing else, into an empty folder; mounts the addon and the battle document the guide has
the reader copy; packs the folder and boots it once in headless Chromium; then looks at the
screen: the guide's own card scene and Theme must be what shows, and aiming must play.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from pybridge.demo import ADDON_DIR, ADDON_RES, BATTLE_FILE, FILL_WINDOW
from pybridge.web import prepare_site

from .engine_session import ARTIFACTS, HEIGHT, WIDTH, EngineSession, engine_session
from .guide_support import printed_files, write_printed
from .png_support import colour_pixels, read_png
from .web_support import require_browser

REPO = Path(__file__).resolve().parent.parent
GUIDE = REPO / "docs" / "addon-guide.md"
#: The second language the guide's project names (its res://locale/de.po).
GERMAN = REPO / "demo_project" / "locale" / "de.po"
OPENED = "battle opened: "
#: Colours the guide's Theme gives: the card panel, the aimed card's border, the arrow.
CARD_GREEN = (20, 77, 51)
ARROW_GREEN = (115, 255, 140)


def guide_files() -> dict[str, str]:
    return printed_files(GUIDE)


def write_project(root: Path) -> Path:
    return write_printed(GUIDE, root)


def test_the_guide_prints_a_whole_project() -> None:
    files = guide_files()
    assert set(files) == {
        "res://project.godot",
        "res://main.tscn",
        "res://main.gd",
        "res://my_card.gd",
        "res://my_card.tscn",
        "res://my_theme.tres",
    }
    scene = files["res://main.tscn"]
    for res in re.findall(r'path="(res://[^"]+)"', scene):
        assert res in files or res.startswith(ADDON_RES), res
    assert 'battle_file = "res://battle.json"' in scene
    # Every class or theme type the guide names exists in the addon, spelled as the addon
    # spells it (the arrow's and the tooltip's theme types outlived their classes).
    addon = "\n".join(p.read_text("utf-8") for p in ADDON_DIR.rglob("*.gd"))
    for name in set(re.findall(r"\bPyBridge[A-Z]\w+", GUIDE.read_text("utf-8"))):
        assert f"class_name {name}\n" in addon or f'THEME_TYPE := &"{name}"' in addon, name


def test_the_guides_gdscript_passes_the_linter(tmp_path: Path) -> None:
    project = write_project(tmp_path / "fresh")
    scripts = [str(p) for p in sorted(project.glob("*.gd"))]
    tools = Path(sys.executable).parent
    for tool in (["gdlint"], ["gdformat", "--check"]):
        run = subprocess.run([str(tools / tool[0]), *tool[1:], *scripts],
                             capture_output=True, text=True, cwd=REPO)  # fmt: skip
        assert run.returncode == 0, run.stdout + run.stderr


def booted_guide(work: Path, args: list[str]) -> Iterator[EngineSession]:
    """The guide's project, packed with the addon, the battle and the catalog the reader
    copies, and booted with ``args``."""
    require_browser()
    project = write_project(work / "fresh")
    mounts = {ADDON_RES: ADDON_DIR, "res://battle.json": BATTLE_FILE, "res://locale/de.po": GERMAN}
    site = prepare_site(work / "site", project, mounts, args=args,
                        canvas_resize_policy=FILL_WINDOW)  # fmt: skip
    with engine_session(site, work, OPENED, "addon_guide_log.txt", EngineSession) as session:
        yield session


@pytest.fixture(scope="module")
def guide(tmp_path_factory: pytest.TempPathFactory) -> Iterator[EngineSession]:
    """The guide's project, booted once."""
    yield from booted_guide(tmp_path_factory.mktemp("addon_guide"), [])


@pytest.fixture(scope="module")
def german_guide(tmp_path_factory: pytest.TempPathFactory) -> Iterator[EngineSession]:
    """The guide's project started in its second language (``--language de``)."""
    yield from booted_guide(tmp_path_factory.mktemp("addon_guide_de"), ["--language", "de"])


def test_the_custom_card_scene_and_theme_show_and_aiming_plays(guide: EngineSession) -> None:
    layout: dict[str, Any] = json.loads(guide.after(OPENED)[0])
    cards, units = layout["cards"], layout["units"]
    assert len(cards) == 12 and len(units) == 6
    opened = ARTIFACTS / "addon_guide.png"
    aimed = ARTIFACTS / "addon_guide_aim.png"
    guide.do({"wait_ms": 200}, {"screenshot": str(opened)})
    # The hand is the guide's card scene in the guide's Theme: its green panel, everywhere.
    for x, y in cards.values():
        assert colour_pixels(opened, (x - 6, y - 6, x + 6, y + 6), CARD_GREEN, 14) > 20, (x, y)
    # Strike dragged onto the Goblin: the arrow in the Theme's green, then the play.
    since = guide.mark()
    strike, goblin = cards["h1"], units["goblin"]
    guide.do(
        {"down": strike},
        {"move": [(strike[0] + goblin[0]) // 2, (strike[1] + goblin[1]) // 2]},
        {"move": goblin},
        {"wait_ms": 250},
        {"screenshot": str(aimed)},
        {"up": goblin},
        {"wait_for": "played ", "from": since},
    )
    assert guide.after("played ", since) == ["h1 at goblin"]
    assert "Knight plays Strike at Goblin." in guide.lines[since:]
    # The guide's playback handler flashed the Goblin, and the play waited for the flash.
    assert guide.lines.index("hit goblin", since) < guide.lines.index("played h1 at goblin", since)
    left, right = strike[0] + 60, goblin[0] - 60
    assert colour_pixels(aimed, (left, 0, right, HEIGHT), ARROW_GREEN, 40) > 1500
    assert read_png(aimed)[:2] == (WIDTH, HEIGHT)


def test_the_engine_reported_no_errors(guide: EngineSession) -> None:
    assert [e for e in guide.errors if "ERROR" in e] == []


def desktop(proto: Any, op: str, **fields: Any) -> dict[str, Any]:
    """The same request to the runtime in this process (the guide's project loads no
    extension); its result."""
    result: dict[str, Any] = json.loads(proto.call(json.dumps({"op": op, **fields})))["result"]
    return result


def test_the_guides_project_plays_in_german(german_guide: EngineSession) -> None:
    pytest.importorskip("polib")
    from pybridge.protocol import Protocol
    from pybridge.translating import Translator

    layout: dict[str, Any] = json.loads(german_guide.after(OPENED)[0])
    strike, goblin = layout["cards"]["h1"], layout["units"]["goblin"]
    since = german_guide.mark()
    german_guide.do({"click": strike}, {"click": goblin}, {"wait_for": "played ", "from": since})
    proto = Protocol()
    session = desktop(proto, "open", battle=json.loads(BATTLE_FILE.read_text("utf-8")))["session"]
    played = desktop(proto, "play", session=session, card="h1", target="goblin")
    host = Translator(GERMAN)
    expected = [host.say(line["message"]) for line in played["log"]]
    shown = german_guide.lines[since:]
    assert expected and all(line in shown for line in expected), (expected, shown)
    assert "Knight plays Strike at Goblin." not in shown
    german_guide.do({"wait_ms": 200}, {"screenshot": str(ARTIFACTS / "addon_guide_german.png")})
    assert [e for e in german_guide.errors if "ERROR" in e] == []
