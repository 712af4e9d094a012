"""``pybridge workshop LIBRARY``: the card Workshop in the real Godot 4.6 web engine, saving
back into one card library file.

The Workshop is the addon's scene ``addons/pybridge_targeting/workshop/``, started by the small
Godot project ``workshop_project/`` and packed with the addon into ``index.pck`` beside the
engine, Pyodide and this package (see :mod:`pybridge.web`). Besides the site, the local server
answers one route, ``/library``:

- ``GET /library`` gives the library file's bytes as they are on disk (an empty library when
  the file does not exist yet), its name in the ``X-PyBridge-Library`` header;
- ``POST /library`` replaces the file with the request body, a card library document
  (``application/json``, UTF-8, at most :data:`MAX_LIBRARY_BYTES`), written to a temporary file
  beside it and moved over it, so a failed save leaves the old file whole. Only a body the
  runtime itself can read back is saved: finite numbers (no ``NaN``, ``Infinity`` or ``1e999``),
  nesting at most :data:`MAX_LIBRARY_DEPTH` levels, so the library still fits in a request.

Every refused request is answered with an HTTP status and its reason in plain text, whatever
its headers or body (a ``Content-Length`` that is not ASCII digits, a body that never arrives,
a file that cannot be written).

The server listens on 127.0.0.1 only and writes nothing but that one file. Every other write
(another path, another method) is refused, and so is any request whose ``Host`` is not this
server (a page of another site resolving its name to 127.0.0.1) or whose ``Origin`` is another
site. ``application/json`` is required because a browser asks before sending it from another
origin, and this server never says yes.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import os
import re
import sys
import tempfile
import threading
from collections.abc import Callable, Sequence
from http import HTTPStatus
from pathlib import Path

from . import extensions
from .pack import PackError, tell_left_out
from .protocol import MAX_JSON_DEPTH, MAX_REQUEST_BYTES, json_depth_ok, text_depth_ok
from .runtime.definitions import LIBRARY_FORMAT
from .web import (
    PACKAGE_ROOT,
    PACKAGE_ZIP,
    Site,
    StaticHandler,
    WebSetupError,
    add_site_arguments,
    package_zip,
    prepare_site,
    serve_until_interrupted,
)

REPO_ROOT = PACKAGE_ROOT.parent
WORKSHOP_PROJECT = REPO_ROOT / "workshop_project"
ADDON_DIR = REPO_ROOT / "addons" / "pybridge_targeting"
ADDON_RES = "res://addons/pybridge_targeting"
DEFAULT_SITE = REPO_ROOT / "build" / "workshop_site"
DEFAULT_PORT = 8061
#: The page fills the browser window and the Workshop's controls fill the page.
FILL_WINDOW = 2
#: The one route that reads and writes the library.
LIBRARY_ROUTE = "/library"
#: A saved library may be as large as one protocol request.
MAX_LIBRARY_BYTES = MAX_REQUEST_BYTES
#: A saved library nests at most this deep (its root is level 1, a value inside it level 2,
#: ...): the protocol reads a request nested at most 64 levels, and a library sits two levels
#: down in one (``{"libraries": [LIBRARY]}`` of ``open``).
MAX_LIBRARY_DEPTH = MAX_JSON_DEPTH - 2
#: How long a request may pause before the server answers 408 and hangs up.
REQUEST_TIMEOUT = 30.0
#: The response header that names the library file.
NAME_HEADER = "X-PyBridge-Library"
_LOCAL_HOSTS = ("127.0.0.1", "localhost")


def empty_library_text() -> str:
    """What ``GET /library`` gives while the file does not exist."""
    return json.dumps({"format": LIBRARY_FORMAT, "cards": []}, indent=2) + "\n"


class _Unreadable(ValueError):
    """A JSON value the runtime would refuse to read."""


def _no_constant(name: str) -> object:
    raise _Unreadable(f"the body contains {name}, which JSON does not allow")


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        shown = text if len(text) <= 40 else text[:37] + "..."
        raise _Unreadable(f"the body contains the number {shown}, which is out of range")
    return value


_DECODER = json.JSONDecoder(parse_constant=_no_constant, parse_float=_finite)


def check_library_body(body: bytes) -> str | None:
    """Why ``body`` cannot be saved as a card library, or None. A library with broken cards
    is saved as it is (the Workshop keeps work in progress); the body must only be a JSON
    object in the library format with a list of cards, that the runtime can read back: finite
    numbers, at most :data:`MAX_LIBRARY_DEPTH` levels deep."""
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError:
        return "the body is not UTF-8"
    too_deep = f"the body nests deeper than {MAX_LIBRARY_DEPTH} levels, more than the runtime reads"
    if not text_depth_ok(text, MAX_LIBRARY_DEPTH):
        return too_deep
    try:
        document = _DECODER.decode(text)
    except _Unreadable as exc:
        return str(exc)
    except ValueError as exc:
        return f"the body is not JSON: {exc}"
    if not json_depth_ok(document, MAX_LIBRARY_DEPTH):
        return too_deep
    if not isinstance(document, dict) or document.get("format") != LIBRARY_FORMAT:
        return f'the body is not a card library: expected {{"format": "{LIBRARY_FORMAT}", ...}}'
    if not isinstance(document.get("cards"), list):
        return "the body is not a card library: 'cards' must be a list"
    return None


def write_atomically(path: Path, data: bytes) -> None:
    """Replace ``path`` by ``data``: written beside it, then moved over it."""
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        # mkstemp makes the file readable by its owner only: keep an old file's mode, and give
        # a new one the mode any new file gets here (0o666 less the umask).
        os.chmod(temporary, path.stat().st_mode & 0o777 if path.exists() else _new_file_mode())
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def _new_file_mode() -> int:
    """The mode ``open`` gives a new file: 0o666 less the process's umask (read by setting it,
    as the standard library offers no other way, and set back at once)."""
    mask = os.umask(0o022)
    os.umask(mask)
    return 0o666 & ~mask


#: A Content-Length: ASCII digits only (``str.isdigit`` also takes superscripts and other
#: scripts' digits, which ``int`` then refuses or reads).
_LENGTH = re.compile(r"[0-9]+")


class ExtensionReloader:
    """Keeps the site's ``pybridge.zip`` carrying the game's extension files as they are now:
    called before the page fetches it, it packs them again when one changed since, so that
    reloading the page picks up an edited extension without restarting the server. A file
    that fails to load keeps the zip that was working, and says why on standard error."""

    def __init__(self, site: Path, files: Sequence[Path], project: Path | None) -> None:
        self.site, self.project = site, project
        self.loaded = extensions.load(files)

    def __call__(self) -> None:
        if not self.loaded.changed():
            return
        files = self.loaded.files
        try:
            self.loaded = extensions.load(files)
        except extensions.ExtensionError as exc:
            print(f"pybridge workshop: extension not reloaded: {exc}", file=sys.stderr, flush=True)
            self.loaded = extensions.Loaded(self.loaded.words, files, extensions.stamps(files))
            return
        write_atomically(self.site / PACKAGE_ZIP, package_zip(files, self.project))


def library_handler(
    library: Path,
    limit: int = MAX_LIBRARY_BYTES,
    timeout: float = REQUEST_TIMEOUT,
    before_package: Callable[[], None] | None = None,
) -> type[StaticHandler]:
    """A request handler serving the site and reading and writing ``library`` at
    :data:`LIBRARY_ROUTE`; ``limit`` is the largest body a save may have, ``timeout`` how
    long (in seconds) a request may pause before it is answered 408; ``before_package`` runs
    before ``pybridge.zip`` is served (an :class:`ExtensionReloader`)."""
    library = Path(library).resolve()
    lock = threading.Lock()
    pause = timeout

    class LibraryHandler(StaticHandler):
        # A client that stops sending mid-request is answered and dropped, not waited for.
        timeout = pause

        def parse_request(self) -> bool:
            """The request line and headers; headers that stop coming are answered 408."""
            try:
                return super().parse_request()
            except TimeoutError:
                self._fail(
                    HTTPStatus.REQUEST_TIMEOUT, f"the headers did not arrive within {pause:g} s"
                )
                return False

        def do_GET(self) -> None:
            if self._refused():
                return
            if self._route() != LIBRARY_ROUTE:
                if before_package is not None and self._route() == f"/{PACKAGE_ZIP}":
                    with lock:
                        before_package()
                super().do_GET()
                return
            empty = empty_library_text().encode()
            try:
                with lock:
                    data = library.read_bytes() if library.exists() else empty
            except OSError as exc:
                self._fail(HTTPStatus.INTERNAL_SERVER_ERROR, f"the library cannot be read: {exc}")
                return
            self._answer(HTTPStatus.OK, data, "application/json")

        def do_HEAD(self) -> None:
            if self._refused():
                return
            if self._route() == LIBRARY_ROUTE:
                self._answer(HTTPStatus.METHOD_NOT_ALLOWED, b"", "text/plain")
                return
            super().do_HEAD()

        def do_POST(self) -> None:
            if self._refused():
                return
            if self._route() != LIBRARY_ROUTE:
                self._fail(HTTPStatus.NOT_FOUND, f"only {LIBRARY_ROUTE} can be written")
                return
            try:
                self._save()
            except Exception as exc:  # every request is answered, whatever went wrong
                self._fail(HTTPStatus.INTERNAL_SERVER_ERROR, f"the library was not saved: {exc}")

        def _save(self) -> None:
            kind = self.headers.get("Content-Type", "").split(";")[0].strip().lower()
            if kind != "application/json":
                self._fail(HTTPStatus.UNSUPPORTED_MEDIA_TYPE, "send application/json")
                return
            length = self.headers.get("Content-Length")
            if length is None:
                self._fail(HTTPStatus.LENGTH_REQUIRED, "a Content-Length is required")
                return
            length = length.strip()
            if not _LENGTH.fullmatch(length):
                shown = ascii(length[:40])
                why = f"the Content-Length {shown} is not a number of bytes in ASCII digits"
                self._fail(HTTPStatus.BAD_REQUEST, why)
                return
            digits = length.lstrip("0") or "0"
            if len(digits) > len(str(limit)) or int(digits) > limit:
                too_large = HTTPStatus.REQUEST_ENTITY_TOO_LARGE
                self._fail(too_large, f"a library is at most {limit} bytes")
                return
            size = int(digits)
            try:
                body = self.rfile.read(size)
            except TimeoutError:
                self._fail(
                    HTTPStatus.REQUEST_TIMEOUT, f"the body did not arrive within {pause:g} s"
                )
                return
            if len(body) < size:
                self._fail(
                    HTTPStatus.BAD_REQUEST, f"the body ended after {len(body)} of {size} bytes"
                )
                return
            if (problem := check_library_body(body)) is not None:
                self._fail(HTTPStatus.BAD_REQUEST, problem)
                return
            with lock:
                write_atomically(library, body)
            saved = {"saved": library.name, "bytes": len(body)}
            self._answer(HTTPStatus.OK, json.dumps(saved).encode(), "application/json")

        def _route(self) -> str:
            return self.path.split("?", 1)[0].split("#", 1)[0]

        def _refused(self) -> bool:
            """Refuse requests that do not come from this server's own pages."""
            port = self.server.server_address[1]  # type: ignore[index]
            hosts = {f"{name}:{port}" for name in _LOCAL_HOSTS}
            if self.headers.get("Host", "") not in hosts:
                self._fail(HTTPStatus.FORBIDDEN, "this server answers only its own address")
                return True
            origin = self.headers.get("Origin")
            if origin is not None and origin not in {f"http://{host}" for host in hosts}:
                self._fail(HTTPStatus.FORBIDDEN, "requests from other sites are refused")
                return True
            return False

        def _fail(self, status: HTTPStatus, message: str) -> None:
            self.close_connection = True
            with contextlib.suppress(OSError):  # a client that has gone cannot be told
                self._answer(status, (message + "\n").encode(), "text/plain; charset=utf-8")

        def _answer(self, status: HTTPStatus, data: bytes, kind: str) -> None:
            self.send_response(status)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(data)))
            self.send_header(NAME_HEADER, library.name)
            self.end_headers()
            if self.command != "HEAD":
                self.wfile.write(data)

    return LibraryHandler


def prepare_workshop_site(
    root: Path = DEFAULT_SITE,
    *,
    modules: Path | None = None,
    extension_files: Sequence[Path] = (),
    project: Path | None = None,
) -> Site:
    """Build the Workshop's web site in ``root``: engine, ``index.pck``, Pyodide, ``pybridge``
    with the game's ``extension_files`` (from ``project``), which the page loads."""
    for needed in (WORKSHOP_PROJECT / "project.godot", ADDON_DIR / "plugin.cfg"):
        if not needed.is_file():
            raise PackError(f"{needed} is missing: `pybridge workshop` needs a source checkout")
    return prepare_site(
        Path(root),
        WORKSHOP_PROJECT,
        {ADDON_RES: ADDON_DIR},
        modules=modules,
        canvas_resize_policy=FILL_WINDOW,
        extension_files=extension_files,
        extension_project=project,
    )


def _cmd_workshop(args: argparse.Namespace) -> int:
    library = Path(args.library)
    if library.is_dir() or not library.parent.is_dir():
        print(f"pybridge workshop: {library} is not a file in an existing folder", file=sys.stderr)
        return 2
    project = Path(args.project) if args.project else None
    try:
        files = extensions.from_options(args.project, args.extension)
        reload = ExtensionReloader(Path(args.site), files, project) if files else None
        site = prepare_workshop_site(Path(args.site), extension_files=files, project=project)
    except (OSError, PackError, WebSetupError, extensions.ExtensionError) as exc:
        print(f"pybridge workshop: {exc}", file=sys.stderr)
        return 2
    tell_left_out(site.pack, "workshop")
    state = "editing" if library.exists() else "a new library, written on the first save:"
    print(f"pybridge workshop: {state} {library}")
    if args.no_serve:
        print(f"pybridge workshop: the site is ready in {site.root}")
        return 0
    handler = library_handler(library, before_package=reload)
    return serve_until_interrupted(site.root, args.port, "workshop", handler)


def add_workshop_command(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``pybridge workshop LIBRARY [--port N] [--no-serve] [--site DIR]``."""
    cmd = subparsers.add_parser(
        "workshop",
        help="edit a card library in the Workshop, in the Godot web engine served on 127.0.0.1",
    )
    cmd.add_argument("library", metavar="LIBRARY", help="the card library file to edit and save")
    add_site_arguments(cmd, DEFAULT_PORT, DEFAULT_SITE)
    extensions.add_options(cmd, "edit with")
    cmd.set_defaults(run=_cmd_workshop)
