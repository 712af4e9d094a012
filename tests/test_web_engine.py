"""Our own Godot project in the real Godot 4.6 web runtime (headless Chromium), with Python.

One tiny project is packed, served and booted once per module; the tests read what the engine
printed. The engine tests need Debian's chromium and ``web/node_modules`` (``web/setup.sh``
installs both): under CI=true the fixture runs that script and a missing piece is a failure;
elsewhere it is a skip.
"""

from __future__ import annotations

import json
import struct
import subprocess
import sys
import urllib.request
import zipfile
from pathlib import Path
from typing import Any

import pytest

from pybridge import __version__
from pybridge.pack import CLASS_CACHE, read_pack
from pybridge.web import (
    GODOT_PACKAGE,
    WebSetupError,
    index_html,
    package_zip,
    prepare_site,
    serve,
)

from .web_support import drive, require_browser

REPO = Path(__file__).resolve().parent.parent
ARTIFACTS = REPO / "artifacts"
SENTINEL = "TINY_DONE"

TINY: dict[str, str] = {
    "project.godot": """config_version=5

[application]
config/name="pybridge tiny"
run/main_scene="res://main.tscn"

[rendering]
renderer/rendering_method="gl_compatibility"
""",
    "main.tscn": """[gd_scene load_steps=2 format=3]

[ext_resource type="Script" path="res://main.gd" id="1"]

[node name="Main" type="Node2D"]
script = ExtResource("1")
""",
    "main.gd": """extends Node2D

var lines: PackedStringArray = []


func _ready() -> void:
\tsay("tiny: ready")
\tsay("tiny: reply " + ask('{"op":"version","id":1}'))
\tsay("tiny: bad op " + ask('{"op":"no_such_op","id":2}'))
\tvar user: GDScript = load("res://uses_probe.gd")
\tsay("tiny: probe " + (user.new().run() if user else "missing"))
\tfor entry in ProjectSettings.get_global_class_list():
\t\tsay("tiny: global class %s at %s" % [entry["class"], entry["path"]])
\tprint("TINY_DONE")


func ask(request: String) -> String:
\treturn str(JavaScriptBridge.eval("pybridge_call(%s)" % JSON.stringify(request), true))


func say(line: String) -> void:
\tprint(line)
\tlines.append(line.left(70))
\tqueue_redraw()


func _input(event: InputEvent) -> void:
\tif event is InputEventMouseButton and event.pressed:
\t\tsay("tiny: click at %s" % event.position)


func _draw() -> void:
\tdraw_rect(Rect2(20, 20, 600, 48), Color(0.15, 0.45, 0.85))
\tdraw_string(ThemeDB.fallback_font, Vector2(36, 53), "pybridge tiny: Godot + Pyodide", \\
\t\t\tHORIZONTAL_ALIGNMENT_LEFT, -1, 22)
\tfor i in lines.size():
\t\tdraw_string(ThemeDB.fallback_font, Vector2(24, 100 + 22 * i), lines[i], \\
\t\t\t\tHORIZONTAL_ALIGNMENT_LEFT, -1, 13)
""",
    # Names the addon's global class directly: compiles only if the class cache was loaded.
    "uses_probe.gd": """extends RefCounted


func run() -> String:
\treturn PybridgeProbe.new().hello()
""",
}

ADDON: dict[str, str] = {
    "probe.gd": """class_name PybridgeProbe
extends RefCounted


func hello() -> String:
\treturn "probe ok from " + get_script().resource_path
""",
}


def write_tree(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, "utf-8")
    return root


# -- without a browser -----------------------------------------------------------------------


def test_package_zip_imports_the_protocol(tmp_path):
    (tmp_path / "pybridge.zip").write_bytes(package_zip())
    names = zipfile.ZipFile(tmp_path / "pybridge.zip").namelist()
    assert "pybridge/protocol.py" in names and "pybridge/runtime/__init__.py" in names
    assert not any("__pycache__" in n for n in names)
    code = (
        "import sys; sys.path.insert(0, sys.argv[1]); import pybridge.service as p; "
        "assert p.__file__.startswith(sys.argv[1]), p.__file__; "
        'print(p.call(\'{"op":"version","id":7}\'))'
    )
    out = subprocess.run(
        [sys.executable, "-I", "-c", code, str(tmp_path / "pybridge.zip")],
        capture_output=True,
        text=True,
        check=True,
        cwd=tmp_path,
    ).stdout
    assert json.loads(out)["ok"] is True


def test_index_html_is_wired():
    page = index_html(["--verbose"])
    for piece in (
        'loadPyodide({ indexURL: here + "pyodide/" })',
        "window.pybridge_call = ",
        'py.pyimport("pybridge.service").call',
        '"executable": "index"',
        '"--verbose"',
        'startGame({ mainPack: "game.pck" })',
        "onPrint:",
        "onPrintError:",
        "window.godot_output",
    ):
        assert piece in page
    assert "</script" not in index_html(["</script>"]).split("const engine = new Engine(")[1][:200]


def test_prepare_site_checks_the_pinned_wasm(tmp_path):
    fake = tmp_path / "modules"
    godot = fake / GODOT_PACKAGE / "godot"
    godot.mkdir(parents=True)
    (godot / "index.wasm").write_bytes(b"\0asm not the real engine")
    project = write_tree(tmp_path / "p", TINY)
    with pytest.raises(WebSetupError, match="SHA-256"):
        prepare_site(tmp_path / "site", project, modules=fake)
    with pytest.raises(WebSetupError, match=r"missing: run web/setup\.sh"):
        prepare_site(tmp_path / "site", project, modules=tmp_path / "empty")


def test_server_serves_wasm_with_its_type(tmp_path):
    (tmp_path / "x.wasm").write_bytes(b"\0asm")
    (tmp_path / "a.pck").write_bytes(b"GDPC")
    with serve(tmp_path) as url:
        assert url.startswith("http://127.0.0.1:")
        with urllib.request.urlopen(url + "x.wasm", timeout=10) as reply:
            assert reply.headers["Content-Type"] == "application/wasm"
            assert reply.read() == b"\0asm"
        with urllib.request.urlopen(url + "a.pck", timeout=10) as reply:
            assert reply.read() == b"GDPC"


# -- in the engine ---------------------------------------------------------------------------


@pytest.fixture(scope="session")
def browser_ready() -> None:
    require_browser()


@pytest.fixture(scope="module")
def tiny(browser_ready: None, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """Boot the tiny project once; click it once; keep the report and a screenshot."""
    work = tmp_path_factory.mktemp("web_engine")
    project = write_tree(work / "tiny", TINY)
    addon = write_tree(work / "outside" / "pybridge_targeting", ADDON)
    site = prepare_site(work / "site", project, {"res://addons/pybridge_targeting": addon})
    ARTIFACTS.mkdir(exist_ok=True)
    shot = ARTIFACTS / "web_engine_tiny.png"
    shot.unlink(missing_ok=True)
    with serve(site.root) as url:
        report = drive(
            url,
            work,
            SENTINEL,
            screenshot=str(shot),
            actions=[{"click": [320, 300]}, {"wait_for": "tiny: click at"}, {"wait_ms": 100}],
        )
    report["screenshot"], report["pack"] = shot, site.root / "game.pck"
    timing = report["timing"]
    print(
        f"\nweb engine: loaded {timing.get('engine_loaded')} ms, python ready "
        f"{timing.get('python_ready')} ms, engine started "
        f"{timing.get('engine_started')} ms, sentinel after {timing.get('sentinel_ms')} ms "
        f"(page load to '{SENTINEL}'), whole run {timing.get('total_ms')} ms"
    )
    (ARTIFACTS / "web_engine_tiny.json").write_text(json.dumps(report, indent=2, default=str))
    assert report["ok"], f"{report['failure']}\nprinted: {report['printed']}\n{report['errors']}"
    return report


def line(report: dict[str, Any], prefix: str) -> str:
    found: list[str] = [text for text in report["printed"] if text.startswith(prefix)]
    assert found, f"no line starting {prefix!r} in {report['printed']}"
    return found[0].removeprefix(prefix)


def test_engine_boots_and_calls_python(tiny):
    assert tiny["printed"][0].startswith("Godot Engine v4.6")
    reply = json.loads(line(tiny, "tiny: reply "))
    assert reply["ok"] is True and reply["id"] == 1
    assert reply["result"]["version"] == __version__


def test_protocol_errors_come_back_as_responses(tiny):
    reply = json.loads(line(tiny, "tiny: bad op "))
    assert reply["ok"] is False and reply["id"] == 2
    assert "no_such_op" in reply["error"]["message"]


def test_class_name_from_a_mounted_addon_resolves(tiny):
    path = "res://addons/pybridge_targeting/probe.gd"
    assert line(tiny, "tiny: probe ") == f"probe ok from {path}"
    assert line(tiny, "tiny: global class PybridgeProbe at ") == path
    assert CLASS_CACHE in read_pack(tiny["pack"])


def test_scripted_click_reaches_gdscript(tiny):
    assert line(tiny, "tiny: click at ") == "(320.0, 300.0)"


def test_no_errors_and_a_screenshot(tiny):
    assert tiny["errors"] == [] and tiny["page_errors"] == []
    assert [c for c in tiny["console"] if c["type"] == "error"] == []
    png = Path(tiny["screenshot"]).read_bytes()
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    assert struct.unpack(">II", png[16:24]) == (640, 360)
