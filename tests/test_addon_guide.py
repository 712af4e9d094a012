"""The addon guide's steps, followed on a fresh project folder in the real Godot 4.6 engine.

docs/addon-guide.md prints every file of its project in a code block whose info string names
the file (```` ```gdscript res://my_card.gd ````), its battle and card library as `.tres`
Resources included. This module writes those blocks, and nothing else, into an empty folder;
mounts the addon and the German catalog the guide has the reader copy; packs the folder and
boots it in headless Chromium; then looks at the screen: the guide's own card scene and Theme
must be what shows, aiming must play, and in German every step of a play and of the enemy
turn must say the runtime's sentence and wait for the game's flash on each hit.
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

from pybridge.demo import ADDON_DIR, ADDON_RES, FILL_WINDOW
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
STATE = "battle state: "
#: The guide's End turn button (main.tscn: 1120..1264 x 16..60).
END_TURN = [1192, 38]
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
        "res://cards/starter_cards.tres",
        "res://battles/goblin_camp.tres",
        "res://locale/game.de.po",
    }
    for name, text in files.items():
        for res in re.findall(r'path="(res://[^"]+)"', text):
            assert res in files or res.startswith(ADDON_RES), (name, res)
            assert res in files or (ADDON_DIR / res.removeprefix(ADDON_RES + "/")).is_file(), res
    # The battle is the Resource and its library, no JSON document.
    scene = files["res://main.tscn"]
    assert 'battle_resource = ExtResource("5_battle")' in scene
    assert "battle_libraries = Array[" in scene and "battle_file" not in scene
    assert 'script_class="PyBridgeLibraryResource"' in files["res://cards/starter_cards.tres"]
    assert 'script_class="PyBridgeBattleResource"' in files["res://battles/goblin_camp.tres"]
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
    """The guide's project, packed with the addon and the catalog the reader copies, and
    booted with ``args``."""
    require_browser()
    project = write_project(work / "fresh")
    mounts = {ADDON_RES: ADDON_DIR, "res://locale/de.po": GERMAN}
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
    assert sorted(cards) == ["h1", "h2", "h3", "h4", "h5"]
    assert sorted(units) == ["cleric", "goblin", "knight", "orc"]
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
    assert "step play 1/2: Knight plays Strike at Goblin." in guide.lines[since:]
    # The guide's playback handler flashed the Goblin, and the play waited for the flash.
    assert guide.lines.index("hit goblin for 6", since) < guide.lines.index(
        "played h1 at goblin", since
    )
    # Its events, typed: the Goblin's health after the hit is an int ("14", never "14.0").
    told = [line for line in guide.lines[since:] if line.startswith("goblin now has ")]
    assert told and re.fullmatch(r"goblin now has \d+ HP", told[0]), told
    left, right = strike[0] + 60, goblin[0] - 60
    assert colour_pixels(aimed, (left, 0, right, HEIGHT), ARROW_GREEN, 40) > 1500
    assert read_png(aimed)[:2] == (WIDTH, HEIGHT)


def test_the_engine_reported_no_errors(guide: EngineSession) -> None:
    assert [e for e in guide.errors if "ERROR" in e] == []


def integral(value: Any) -> Any:
    """``value`` with Godot's whole floats (JSON numbers) as ints, as the runtime reads them."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, list):
        return [integral(v) for v in value]
    if isinstance(value, dict):
        return {k: integral(v) for k, v in value.items()}
    return value


def desktop(proto: Any, op: str, **fields: Any) -> dict[str, Any]:
    """The same request to the runtime in this process (the guide's project loads no
    extension); its result."""
    answer = json.loads(proto.call(json.dumps({"op": op, **fields})))
    assert answer["ok"], answer
    result: dict[str, Any] = answer["result"]
    return result


def expected_steps(result: dict[str, Any], op: str, say: Any) -> list[str]:
    """What the guide's game prints while the view plays ``result`` back: per log line (a
    step, with the events from its ``event`` index to the next line's) its sentence in the
    player's language, then a line for each hit, printed once its flash is over."""
    events, lines = result["events"], result["log"]
    out = []
    for i, line in enumerate(lines):
        start = 0 if i == 0 else line.get("event", 0)
        stop = lines[i + 1].get("event", len(events)) if i + 1 < len(lines) else len(events)
        out.append(f"step {op} {i + 1}/{len(lines)}: {say(line['message'])}")
        for event in events[start:stop]:
            if event["type"] == "damage":
                out.append(f"hit {event['unit']} for {event['amount']}")
    return out


def printed_steps(session: EngineSession, since: int) -> list[str]:
    return [line for line in session.lines[since:] if line.startswith(("step ", "hit "))]


def test_the_guides_project_plays_in_german_and_waits_for_each_hit(
    german_guide: EngineSession,
) -> None:
    """A play and the enemy turn in German: each step shows the runtime's sentence as the
    Python host says it with the same catalog, and each hit's flash ends (the game prints it
    after awaiting its tween) before the view shows the next step."""
    pytest.importorskip("polib")
    from pybridge.protocol import Protocol
    from pybridge.translating import Translator

    layout: dict[str, Any] = json.loads(german_guide.after(OPENED)[0])
    state = integral(json.loads(german_guide.after(STATE)[0]))
    # The runtime opened the Resources: the library's four cards, the battle's units and
    # hand, and the deck dealt under the draw pile.
    assert [c["id"] for c in state["cards"]] == ["defend", "mend", "meteor_strike", "strike"]
    assert [u["id"] for u in state["units"]] == ["knight", "cleric", "goblin", "orc"]
    assert [c["id"] for c in state["piles"]["hand"]] == ["h1", "h2", "h3", "h4", "h5"]
    assert len(state["piles"]["draw"]) == 6
    # Defend has no text of its own: the web runtime sends the describer's sentence for it.
    defend = next(c for c in state["cards"] if c["id"] == "defend")
    assert defend["text"] == "" and defend["text_message"]["id"] == "describe.sentence"
    proto = Protocol()
    session = desktop(proto, "open", battle=state)["session"]
    host = Translator(GERMAN)
    strike, orc = layout["cards"]["h1"], layout["units"]["orc"]

    since = german_guide.mark()
    german_guide.do({"click": strike}, {"click": orc}, {"wait_for": "played ", "from": since})
    played = desktop(proto, "play", session=session, card="h1", target="orc")
    expected = expected_steps(played, "play", host.say)
    # Strike hits the Orc, whose Thorns hit the Knight back: two hits, in two steps.
    assert sum(line.startswith("hit ") for line in expected) == 2, expected
    assert printed_steps(german_guide, since) == expected
    assert "Knight plays Strike at Orc Brute." not in "\n".join(german_guide.lines[since:])

    since = german_guide.mark()
    german_guide.do({"click": END_TURN}, {"wait_for": "turn settled", "from": since})
    ended = desktop(proto, "end_turn", session=session)
    expected = expected_steps(ended, "end_turn", host.say)
    assert sum(line.startswith("hit ") for line in expected) == 2, expected
    assert printed_steps(german_guide, since) == expected
    german_guide.do({"wait_ms": 200}, {"screenshot": str(ARTIFACTS / "addon_guide_german.png")})
    assert [e for e in german_guide.errors if "ERROR" in e] == []
