"""Our own Godot project in the real Godot 4.6 web runtime (headless Chromium), with Python.

One tiny project is packed, served behind the addon's Web export page and booted once per
module; the tests read what the engine printed and look at the page while it loads (the
server holds ``pybridge.zip`` back for a moment). The engine tests need Debian's chromium and
``web/node_modules`` (``web/setup.sh`` installs both): under CI=true the fixture runs that
script and a missing piece is a failure; elsewhere it is a skip.
"""

from __future__ import annotations

import configparser
import json
import re
import struct
import subprocess
import sys
import time
import urllib.request
import zipfile
from pathlib import Path
from typing import Any

import pytest

from pybridge import __version__
from pybridge.cli import main
from pybridge.pack import CLASS_CACHE, read_pack
from pybridge.web import (
    GODOT_PACKAGE,
    PYODIDE_FILES,
    SHELL,
    SHELL_RES,
    WebSetupError,
    _Handler,
    export_config,
    fill_shell,
    node_modules,
    package_zip,
    prepare_site,
    serve,
)

from .addon_support import copy_addon
from .png_support import read_png
from .web_support import drive as drive_page
from .web_support import require_browser

REPO = Path(__file__).resolve().parent.parent
MECHANICS = REPO / "demo_project" / "extensions" / "mechanics.py"
ARTIFACTS = REPO / "artifacts"
SENTINEL = "TINY_DONE"

TINY: dict[str, str] = {
    "project.godot": """config_version=5

[application]
config/name="pybridge tiny"
run/main_scene="res://main.tscn"

[rendering]
renderer/rendering_method="gl_compatibility"

[pybridge]
extensions=PackedStringArray("res://extensions/mechanics.py")
""",
    # The demo's own extension, which the page must load before the first request.
    "extensions/mechanics.py": MECHANICS.read_text("utf-8"),
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
\tvar schema: Dictionary = JSON.parse_string(ask('{"op":"schema","id":3}'))
\tvar names: Array = schema["result"]["node_types"].map(func(t: Dictionary) -> String: \\
\t\t\treturn t["name"])
\tsay("tiny: extension node Scry " + str(names.has("Scry")))
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
    assert "pybridge/service.py" in names and not any("/bench/" in n for n in names)
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


def test_the_package_zip_carries_the_games_extension_files(tmp_path):
    project = write_tree(tmp_path / "game", {"extensions/mechanics.py": MECHANICS.read_text()})
    files = [project / "extensions" / "mechanics.py"]
    (tmp_path / "pybridge.zip").write_bytes(package_zip(files, project))
    site = tmp_path / "site"
    zipfile.ZipFile(tmp_path / "pybridge.zip").extractall(site)  # as the page unpacks it
    assert (site / "game" / "extensions.txt").read_text() == "extensions/mechanics.py\n"
    code = (  # what the page runs before the first request
        "import sys; sys.path.insert(0, sys.argv[1]); from pybridge import extensions, service; "
        "service.use_words(extensions.load(extensions.bundled(sys.argv[1])).words); "
        'print(service.call(\'{"op":"schema"}\'))'
    )
    out = subprocess.run([sys.executable, "-I", "-c", code, str(site)], capture_output=True,
                         text=True, check=True, cwd=tmp_path).stdout  # fmt: skip
    types = [t["name"] for t in json.loads(out)["result"]["node_types"]]
    assert "Scry" in types
    assert "from pybridge import extensions" in SHELL.read_text("utf-8")


#: What Godot's Web export fills in a custom HTML shell (EditorExportPlatformWeb::_fix_html).
GODOT_PLACEHOLDERS = {"$GODOT_URL", "$GODOT_PROJECT_NAME", "$GODOT_HEAD_INCLUDE", "$GODOT_CONFIG",
                      "$GODOT_SPLASH_COLOR", "$GODOT_SPLASH_CLASSES", "$GODOT_SPLASH",
                      "$GODOT_THREADS_ENABLED"}  # fmt: skip


def test_the_shell_uses_only_placeholders_godot_fills():
    used = set(re.findall(r"\$GODOT_[A-Z_]+", SHELL.read_text("utf-8")))
    assert used <= GODOT_PLACEHOLDERS
    assert {"$GODOT_URL", "$GODOT_CONFIG", "$GODOT_THREADS_ENABLED"} <= used


def test_the_shell_filled_as_the_export_fills_it():
    config = export_config("index", ["--verbose"], 2, {"index.pck": 10, "index.wasm": 20})
    page = fill_shell(SHELL.read_text("utf-8"), name="index", project_name="My Game",
                      config=config, head_include="<!-- head -->")  # fmt: skip
    assert "$GODOT_" not in page
    assert '<script src="index.js"></script>' in page and "<title>My Game</title>" in page
    assert "<!-- head -->" in page and "const GODOT_THREADS_ENABLED = false;" in page
    assert f"const GODOT_CONFIG = {json.dumps(config)};" in page
    for piece in (
        'const ENTRY_MODULE = "pybridge.service";',  # the one name of the door into Python
        'pyodide: "pyodide/", package: "pybridge.zip"',
        "loadPyodide({ indexURL: base })",
        "window.pybridge_call = (request) => call(String(request));",
        'engine.start({ args: ["--main-pack", mainPack',
        "const mainPack = GODOT_CONFIG.mainPack ||",
        'id="pybridge-fill"',
    ):
        assert piece in page, piece
    hostile = fill_shell(SHELL.read_text("utf-8"), name="index", project_name="x",
                         config=export_config("index", ["</script>"], 0, {}))  # fmt: skip
    assert "</script>" not in hostile.split("const GODOT_CONFIG = ")[1].split(";")[0]


def test_the_demo_has_a_web_export_preset_with_the_shell():
    presets = configparser.ConfigParser(interpolation=None)
    presets.read(REPO / "demo_project" / "export_presets.cfg", encoding="utf-8")
    preset, options = presets["preset.0"], presets["preset.0.options"]
    assert preset["platform"] == '"Web"'
    assert options["html/custom_html_shell"] == f'"{SHELL_RES}"'
    assert REPO / SHELL_RES.removeprefix("res://") == SHELL  # the addon's page, in the project
    assert options["variant/thread_support"] == "false"  # the official runtime has no threads
    assert options["variant/extensions_support"] == "false"
    # The native library, its .gdextension and the page's own files stay out of the pack (a
    # .gdextension without a web library would stop the export with an error).
    excluded = {f.strip() for f in preset["exclude_filter"].strip('"').split(",")}
    assert {"addons/pybridge_targeting/pybridge.gdextension", "addons/pybridge_targeting/bin/*",
            "addons/pybridge_targeting/web/*"} <= excluded  # fmt: skip


def test_build_web_writes_the_runtime_the_page_loads(tmp_path, capsys):
    require_browser()  # the runtime's files come from web/node_modules
    addon = copy_addon(tmp_path / "addon")
    assert main(["build", "--web", "--addon", str(addon)]) == 0
    runtime = addon / "web" / "runtime"
    assert capsys.readouterr().out.strip() == str(runtime)
    assert (runtime / ".gdignore").is_file()  # the editor does not import it
    pyodide = node_modules() / "pyodide"
    for name in PYODIDE_FILES:
        copied = runtime / "pyodide" / name
        assert not copied.is_symlink() and copied.read_bytes() == (pyodide / name).read_bytes()
    assert (runtime / "pybridge.zip").read_bytes() == package_zip()
    (runtime / "stale.txt").write_text("from an older build")
    assert main(["build", "--web", "--addon", str(addon)]) == 0
    assert not (runtime / "stale.txt").exists()
    assert main(["build", "--web", "--output-dir", str(tmp_path / "export")]) == 0
    assert (tmp_path / "export" / "pybridge.zip").is_file()
    assert not (tmp_path / "export" / ".gdignore").exists()
    assert main(["build", "--web", "--addon", str(addon), "--node-modules", str(tmp_path)]) == 2
    assert "run web/setup.sh" in capsys.readouterr().err
    # A game's own project: its extension files travel in the zip the page loads.
    files = {
        "project.godot": TINY["project.godot"],
        "extensions/mechanics.py": MECHANICS.read_text("utf-8"),
    }
    game = write_tree(tmp_path / "game", files)
    copy_addon(game / "addons" / "pybridge_targeting")
    assert main(["build", "--web", "--project", str(game)]) == 0
    zipped = game / "addons" / "pybridge_targeting" / "web" / "runtime" / "pybridge.zip"
    assert "game/extensions/mechanics.py" in zipfile.ZipFile(zipped).namelist()


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


def drive(site_url: str, work: Path, **options: Any) -> dict[str, Any]:
    """Run web/drive.mjs on ``site_url`` until the tiny project is done; its JSON report."""
    return drive_page(site_url, work, SENTINEL, **options)


class _SlowPackage(_Handler):
    """Holds ``pybridge.zip`` back, so the page is seen while it still loads."""

    def do_GET(self) -> None:
        if self.path.endswith("/pybridge.zip"):
            time.sleep(HOLD_PACKAGE_S)
        super().do_GET()


HOLD_PACKAGE_S = 2.5


@pytest.fixture(scope="module")
def tiny(browser_ready: None, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """Boot the tiny project once, looking at the page while it loads; click it once; keep
    the report and the screenshots."""
    work = tmp_path_factory.mktemp("web_engine")
    project = write_tree(work / "tiny", TINY)
    addon = write_tree(work / "outside" / "pybridge_targeting", ADDON)
    site = prepare_site(work / "site", project, {"res://addons/pybridge_targeting": addon})
    ARTIFACTS.mkdir(exist_ok=True)
    shot, loading = ARTIFACTS / "web_engine_tiny.png", ARTIFACTS / "web_engine_loading.png"
    shot.unlink(missing_ok=True)
    loading.unlink(missing_ok=True)
    with serve(site.root, handler=_SlowPackage) as url:
        report = drive(
            url,
            work,
            screenshot=str(shot),
            while_loading=[{"loading_at": 50}, {"screenshot": str(loading)}],
            actions=[{"click": [320, 300]}, {"wait_for": "tiny: click at"}, {"wait_ms": 100}],
        )
    report["screenshot"], report["loading"] = shot, loading
    report["pack"] = site.root / "index.pck"
    timing = report["timing"]
    print(
        f"\nweb engine: loaded {timing.get('engine_loaded')} ms, python ready "
        f"{timing.get('python_ready')} ms (package held back {HOLD_PACKAGE_S} s), engine "
        f"started {timing.get('engine_started')} ms, sentinel after "
        f"{timing.get('sentinel_ms')} ms (page load to '{SENTINEL}'), whole run "
        f"{timing.get('total_ms')} ms"
    )
    (ARTIFACTS / "web_engine_tiny.json").write_text(json.dumps(report, indent=2, default=str))
    assert report["ok"], f"{report['failure']}\nprinted: {report['printed']}\n{report['errors']}"
    return report


def test_a_page_without_the_package_says_what_to_do(browser_ready, tmp_path):
    site = prepare_site(tmp_path / "site", write_tree(tmp_path / "tiny", TINY))
    (site.root / "pybridge.zip").unlink()
    with serve(site.root) as url:
        report = drive(url, tmp_path, timeout_ms=90_000)
    assert report["ok"] is False and "page failed" in report["failure"]
    assert report["state"].startswith("failed: Error: pybridge.zip: 404")
    assert "(run `pybridge build --web`)" in report["state"]
    assert report["printed"] == []  # the engine never started


def line(report: dict[str, Any], prefix: str) -> str:
    found: list[str] = [text for text in report["printed"] if text.startswith(prefix)]
    assert found, f"no line starting {prefix!r} in {report['printed']}"
    return found[0].removeprefix(prefix)


def test_engine_boots_and_calls_python(tiny):
    assert tiny["printed"][0].startswith("Godot Engine v4.6")
    reply = json.loads(line(tiny, "tiny: reply "))
    assert reply["ok"] is True and reply["id"] == 1
    assert reply["result"]["version"] == __version__


def test_the_page_loads_the_projects_extensions_before_the_first_request(tiny):
    assert line(tiny, "tiny: extension node Scry ") == "true"


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


def test_the_page_shows_its_progress_while_it_loads(tiny):
    width, height, pixels = read_png(tiny["loading"])
    assert (width, height) == (640, 360)
    # Not a black page: the status panel's background, the title and the bar are drawn.
    assert sum(pixels) / len(pixels) > 20
    # The bar (440 px wide here), under the title in the middle, filled at least half way
    # (its rounded end and the gradient's edge pixels aside).
    filled = max(sum(1 for x in range(width) if _violet(pixels, (row * width + x) * 3))
                 for row in range(height * 2 // 5, height * 2 // 3))  # fmt: skip
    assert filled > 180, f"at most {filled} pixels in a row of the bar are filled"
    assert tiny["timing"]["python_ready"] >= HOLD_PACKAGE_S * 1000


def _violet(pixels: bytes, at: int) -> bool:
    """The bar's fill (a violet gradient, 7d6bff to c3a6ff)."""
    r, g, b = pixels[at : at + 3]
    return b > 230 and 100 < r < 215 and 90 < g < 180 and b > r > g


def test_no_errors_and_a_screenshot(tiny):
    assert tiny["errors"] == [] and tiny["page_errors"] == []
    assert [c for c in tiny["console"] if c["type"] == "error"] == []
    png = Path(tiny["screenshot"]).read_bytes()
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    assert struct.unpack(">II", png[16:24]) == (640, 360)
