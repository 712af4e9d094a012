"""GDScript -> Pyodide round trips in the real Godot 4.6 web engine (headless Chromium).

A tiny Godot project opens the demo battle through ``pybridge_call`` and times N
``JavaScriptBridge.eval("pybridge_call(...)", true)`` calls per operation with
``Time.get_ticks_usec``, plus N evals of the JavaScript expression ``0`` (what the engine's
bridge alone costs), then prints the numbers as one ``BENCH {...}`` line. The site is built
and driven with :mod:`pybridge.web` and ``web/drive.mjs``.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import tempfile
from pathlib import Path
from typing import Any

from ... import web
from ...examples import demo_battle
from .plan import DEMO_CARD, DEMO_TARGET

SENTINEL = "BENCH_DONE"
WARMUP = 20

PROJECT = """config_version=5

[application]
config/name="pybridge bench"
run/main_scene="res://main.tscn"

[rendering]
renderer/rendering_method="gl_compatibility"
"""

SCENE = """[gd_scene load_steps=2 format=3]

[ext_resource type="Script" path="res://bench.gd" id="1"]

[node name="Bench" type="Node"]
script = ExtResource("1")
"""

SCRIPT = """extends Node

const CALLS := $CALLS
const WARMUP := $WARMUP


func _ready() -> void:
\tvar battle := FileAccess.get_file_as_string("res://battle.json")
\tvar opened := ask('{"op":"open","id":0,"battle":' + battle + '}')
\tvar parsed: Variant = JSON.parse_string(opened)
\tif typeof(parsed) != TYPE_DICTIONARY or not parsed.get("ok", false):
\t\tprint("BENCH_FAILED " + opened.left(300))
\t\tprint("$SENTINEL")
\t\treturn
\tvar session: String = parsed["result"]["session"]
\tvar targets := '{"op":"targets","id":1,"session":"%s","card":"$CARD"}' % session
\tvar preview := '{"op":"preview","id":2,"session":"%s","card":"$CARD","target":"$TARGET"}' \\
\t\t\t% session
\tvar checks := [ask(targets).left(11), ask(preview).left(11)]
\tvar result := {
\t\t"checks": checks,
\t\t"isolated": str(JavaScriptBridge.eval("String(window.crossOriginIsolated)", true)),
\t\t"eval_us": time_eval("0"),
\t\t"targets_us": time_eval("pybridge_call(%s)" % JSON.stringify(targets)),
\t\t"preview_us": time_eval("pybridge_call(%s)" % JSON.stringify(preview)),
\t}
\tprint("BENCH " + JSON.stringify(result))
\tprint("$SENTINEL")


func ask(request: String) -> String:
\treturn str(JavaScriptBridge.eval("pybridge_call(%s)" % JSON.stringify(request), true))


func time_eval(code: String) -> Array:
\tfor i in WARMUP:
\t\tJavaScriptBridge.eval(code, true)
\tvar times: Array = []
\ttimes.resize(CALLS)
\tfor i in CALLS:
\t\tvar start := Time.get_ticks_usec()
\t\tJavaScriptBridge.eval(code, true)
\t\ttimes[i] = Time.get_ticks_usec() - start
\treturn times
"""


def missing() -> list[str]:
    """What the web harness lacks here (empty when it can run)."""
    modules = web.node_modules()
    needs = {
        "chromium": shutil.which("chromium"),
        "node": shutil.which("node"),
        "web/node_modules": (modules / web.GODOT_PACKAGE / "godot" / "index.wasm").is_file()
        and (modules / "playwright-core").is_dir(),
    }
    return [name for name, found in needs.items() if not found]


class _IsolatedHandler(web._Handler):
    """The site's handler, plus the headers that make the page cross-origin isolated: only
    then does the browser's clock tick in microseconds instead of 100 us steps."""

    def end_headers(self) -> None:
        self.send_header("Cross-Origin-Opener-Policy", "same-origin")
        self.send_header("Cross-Origin-Embedder-Policy", "require-corp")
        super().end_headers()


def write_project(root: Path, calls: int) -> Path:
    script = SCRIPT
    for key, value in {
        "$CALLS": str(calls),
        "$WARMUP": str(WARMUP),
        "$SENTINEL": SENTINEL,
        "$CARD": DEMO_CARD,
        "$TARGET": DEMO_TARGET,
    }.items():
        script = script.replace(key, value)
    root.mkdir(parents=True, exist_ok=True)
    files = {
        "project.godot": PROJECT,
        "main.tscn": SCENE,
        "bench.gd": script,
        "battle.json": json.dumps(demo_battle(), separators=(",", ":")),
    }
    for name, text in files.items():
        (root / name).write_text(text, "utf-8")
    return root


def bench_web(calls: int, timeout_s: float = 300.0) -> dict[str, Any] | str:
    """The browser's per-call numbers (``targets_us``, ``preview_us``, ``eval_us``), or why
    they could not be measured (``"skipped: ..."``)."""
    if lacking := missing():
        return f"skipped: no browser ({', '.join(lacking)} missing)"
    with tempfile.TemporaryDirectory(prefix="pybridge-bench-web-") as tmp:
        work = Path(tmp)
        project = write_project(work / "project", calls)
        try:
            site = web.prepare_site(work / "site", project)
        except web.WebSetupError as exc:
            return f"skipped: no browser ({exc})"
        config = {
            "chromium": shutil.which("chromium"),
            "user_data_dir": str(work / "profile"),
            "report": str(work / "report.json"),
            "sentinel": SENTINEL,
            "timeout_ms": int(timeout_s * 1000),
        }
        with web.serve(site.root, handler=_IsolatedHandler) as url:
            (work / "drive.json").write_text(json.dumps({"url": url, **config}))
            run = subprocess.run(
                [
                    shutil.which("node") or "node",
                    str(web.WEB_DIR / "drive.mjs"),
                    str(work / "drive.json"),
                ],
                capture_output=True,
                text=True,
                timeout=timeout_s + 60,
                cwd=web.WEB_DIR,
            )
        report_path = work / "report.json"
        if not report_path.is_file():
            return f"skipped: the web driver wrote no report (exit {run.returncode})"
        report = json.loads(report_path.read_text("utf-8"))
    lines = [line for line in report.get("printed", []) if line.startswith("BENCH ")]
    if not report.get("ok") or not lines:
        failure = str(report.get("failure") or report.get("printed", [])[-3:])
        return f"skipped: the web engine failed: {failure[:300]}"
    result: dict[str, Any] = json.loads(lines[0].removeprefix("BENCH "))
    if result.get("checks") != ['{"ok":true,'] * 2:
        return f"skipped: the web engine's calls failed: {result.get('checks')}"
    result["timing_ms"] = report.get("timing", {})
    return result
