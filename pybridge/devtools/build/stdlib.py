"""The standard-library modules a bundle carries: an import trace plus a short allow-list.

:func:`trace` imports every shipped module from the package's zip alone, in an isolated
interpreter with no site-packages, runs every protocol operation through it, good requests
and bad, and records which modules that imported. :data:`ALWAYS` adds what a trace cannot
see. :func:`select` turns the module names into the source files of this interpreter's
standard library (written into the bundle's zip with their bytecode) and the extension
modules among them (copied beside it).
"""

from __future__ import annotations

import json
import subprocess
import sys
import sysconfig
import zipfile
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ...extensions import MODULE_PREFIX
from ...payload import PACKAGE, add_module, shipped_files

STDLIB_DIR = Path(sysconfig.get_paths()["stdlib"])
EXTENSIONS_DIR = Path(sysconfig.get_config_var("DESTSHARED") or STDLIB_DIR / "lib-dynload")

#: Modules every bundle carries although a trace may not import them, with why.
ALWAYS: dict[str, str] = {
    "encodings.utf_8": "the interpreter's start-up codec: a bundle runs in UTF-8 mode",
    "encodings.aliases": "read by the encodings package when it looks a codec up",
}

#: Modules a traced module may fall back to where the bundle runs, imported by the workout
#: whenever their importer was, with why: the bundle carries no OpenSSL, so there
#: ``hashlib`` (the views' card ids) builds its hashes from these, and fails to import
#: without every one of them.
COMPANIONS: dict[str, tuple[str, ...]] = {
    "hashlib": ("_md5", "_sha1", "_sha256", "_sha512", "_blake2", "_sha3"),
}

#: Traced modules a bundle leaves out, with why (each is imported in a try that does without).
NEVER: dict[str, str] = {
    "_hashlib": "links OpenSSL's libcrypto, which a bundle does not carry: hashlib then uses "
    "the built-in hashes of COMPANIONS",
}

#: The workout the trace runs, in a fresh ``python -I -S -B`` (no bytecode beside an extension
#: file): argv[1] is the package zip, argv[2] the folder of ``_cffi_backend``, stdin
#: ``{"modules": [every shipped module], "extensions": [the game's extension files],
#: "requests": [request texts], "companions": COMPANIONS}`` (answered with those extensions
#: loaded, as the bundle's start-up loads them); it prints ``{"modules": {name: origin},
#: "answers": [...], "extra": {...}}`` (what an epilogue adds, see :func:`trace`).
_WORKOUT = """\
import importlib, json, sys
sys.path[:0] = [sys.argv[1], sys.argv[2]]
import _cffi_backend
work = json.load(sys.stdin)
for name in work["modules"]:
    importlib.import_module(name)
from pybridge.ffi.embedded import entry
if work["extensions"]:
    from pybridge.extensions import load
    entry.use_words(load(work["extensions"]).words)
answers = [entry.call(request) for request in work["requests"]]
answers.append(entry.call(b"\\xff\\xfe not utf-8"))
for importer, companions in work.get("companions", {}).items():
    if importer in sys.modules:
        for name in companions:
            try:
                importlib.import_module(name)
            except ImportError:
                pass  # not built into this interpreter: hashlib does without it
modules = {}
for name, module in sorted(sys.modules.items()):
    spec = getattr(module, "__spec__", None)
    modules[name] = getattr(spec, "origin", None) if spec is not None else None
extra = {}
#EPILOGUE
print(json.dumps({"modules": modules, "answers": answers, "extra": extra}))
"""


class TraceError(RuntimeError):
    """The traced run failed or reached outside the standard library."""


def workout_requests(battle: Mapping[str, Any]) -> list[str]:
    """Requests that take every operation through its good and bad paths on ``battle``."""
    s = "s1"  # the first session a fresh protocol opens
    cards = battle.get("cards")
    first_card: Any = cards[0] if isinstance(cards, list) and cards else {}
    good = [
        {"op": "version", "id": 1},
        {"op": "open", "id": 2, "battle": battle},
        {"op": "targets", "session": s, "card": "h1"},
        {"op": "preview", "session": s, "card": "h1", "target": "orc"},
        {"op": "play", "session": s, "card": "h1", "target": "orc"},
        {"op": "describe", "session": s, "card": "h2"},
        {"op": "describe", "definition": first_card},
        {"op": "lint", "document": battle},
        {"op": "lint", "document": {"format": "pybridge/battle@1", "units": [{"id": 1}]}},
        {"op": "end_turn", "session": s},
        {"op": "state", "session": s},
        {"op": "cut", "session": s},
        {"op": "activate", "session": s, "card": "h3"},
        {"op": "respond", "session": s, "unit": "knight", "move": "nope"},
        {"op": "pass", "session": s, "choices": {}},
        {"op": "resolve", "session": s, "choices": []},
        {"op": "open", "battle": {"units": "not a list"}},
        {"op": "play", "session": "nope", "card": "h1"},
        {"op": "no_such_op", "id": {"deep": [1.5, None, True]}},
        {"op": "close", "session": s},
    ]
    texts = [json.dumps(request) for request in good]
    return [*texts, "not json", "[1, 2]", '{"op": "version", "x": 1e999}', "[" * 300]


def cffi_backend() -> Path:
    """cffi's compiled backend, which the library imports before anything else."""
    try:
        import _cffi_backend  # type: ignore[import-untyped]  # a C extension, no stubs
    except ImportError:
        raise TraceError("cffi is not installed: pip install 'pybridge-targeting[ffi]'") from None
    return Path(_cffi_backend.__file__)


def _module_name(relative: str) -> str:
    """``runtime/play.py`` -> ``pybridge.runtime.play``; ``runtime/__init__.py`` -> the package."""
    parts = [PACKAGE, *relative.removesuffix(".py").split("/")]
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def trace(
    payload_zip: Path,
    battle: Mapping[str, Any],
    *,
    python: Sequence[str] = (sys.executable,),
    backend_dir: Path | None = None,
    host_path: Callable[[Path], str] = str,
    env: Mapping[str, str] | None = None,
    epilogue: str = "",
    extensions: Sequence[Path] = (),
) -> dict[str, Any]:
    """Module name -> origin after the workout, run by this interpreter on ``payload_zip``.

    Another interpreter can run it (the Windows one under Wine): ``python`` is its command,
    ``backend_dir`` the folder of its ``_cffi_backend``, ``host_path`` how it names a path
    of this machine, ``env`` its environment; ``epilogue`` runs after the workout, and what
    it puts in the dict ``extra`` comes back under the key ``""``. ``extensions``: the game's
    extension files, loaded before the requests, so that what they import at load time is
    seen (an import made only while an extension's action runs is not: import at the top)."""
    backend = backend_dir if backend_dir is not None else cffi_backend().parent
    code = _WORKOUT.replace("#EPILOGUE\n", epilogue)
    shipped = [_module_name(name) for name in shipped_files() if name.endswith(".py")]
    result = subprocess.run(
        [*python, "-I", "-S", "-B", "-c", code, host_path(payload_zip), host_path(backend)],
        input=json.dumps(
            {
                "modules": shipped,
                "requests": workout_requests(battle),
                "extensions": [host_path(path) for path in extensions],
                "companions": COMPANIONS,
            }
        ),
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=300,
        env=None if env is None else dict(env),
    )
    if result.returncode != 0:
        raise TraceError(f"the traced run failed:\n{result.stderr[-4000:]}")
    start = result.stdout.find("{")  # after anything the interpreter's host printed first
    if start < 0:
        raise TraceError(f"the traced run printed no report:\n{result.stderr[-4000:]}")
    report = json.loads(result.stdout[start:])
    for answer in report["answers"]:
        if '"code":"internal_error"' in answer:
            raise TraceError(f"the traced run hit an internal error: {answer[:500]}")
    modules: dict[str, Any] = report["modules"]
    if epilogue:
        modules[""] = report["extra"]
    return modules


@dataclass
class Selection:
    """What a bundle carries of the standard library."""

    sources: dict[str, Path] = field(default_factory=dict)  # name in the zip -> source file
    extensions: dict[str, Path] = field(default_factory=dict)  # file name -> extension module
    modules: list[str] = field(default_factory=list)  # module names, sorted


def _source_of(name: str) -> tuple[str, Path] | None:
    """The zip name and file of a pure-Python standard module, or None."""
    relative = Path(*name.split("."))
    for candidate in (relative / "__init__.py", relative.with_suffix(".py")):
        if (STDLIB_DIR / candidate).is_file():
            return candidate.as_posix(), STDLIB_DIR / candidate
    return None


def select(traced: Mapping[str, str | None], also: Iterable[str] = ALWAYS) -> Selection:
    """Files for the traced modules plus ``also``. The shipped package and cffi's backend
    come along separately; anything else from outside the standard library is refused."""
    chosen = Selection()
    wanted = dict(traced) | {name: "always" for name in also}
    for name, origin in sorted(wanted.items()):
        if name in ("__main__", "_cffi_backend") or name.split(".")[0] == "pybridge":
            continue
        if name in NEVER:
            continue
        if name.startswith(MODULE_PREFIX):
            continue  # a game's extension file: packed by itself
        if origin is not None and origin.startswith(f"{EXTENSIONS_DIR}/"):
            chosen.extensions[Path(origin).name] = Path(origin)
            chosen.modules.append(name)
            continue
        inside = origin is not None and origin.startswith(f"{STDLIB_DIR}/")
        if origin not in ("frozen", "built-in", "always", None) and (
            not inside or "site-packages" in origin
        ):
            raise TraceError(f"the runtime imports {name} from {origin}, outside the standard "
                             "library and the shipped package")  # fmt: skip
        found = _source_of(name)
        if found is None:
            if origin in ("frozen", "built-in", None):
                continue  # compiled into libpython, or an alias such as os.path
            raise TraceError(f"no source for the standard module {name} ({origin})")
        # Frozen modules are compiled into libpython too; their sources travel anyway, in
        # case an interpreter is told not to use frozen modules.
        chosen.sources[found[0]] = found[1]
        chosen.modules.append(name)
    return chosen


def write_stdlib_zip(path: Path, sources: Mapping[str, Path]) -> None:
    """The selected sources with their bytecode, stored (zipimport reads it before any
    compression module could load)."""
    with zipfile.ZipFile(path, "w", zipfile.ZIP_STORED) as archive:
        for name, source in sorted(sources.items()):
            add_module(archive, name, source, with_bytecode=True)
        # Packages whose __init__ was not imported still need their folders to exist.
        for folder in sorted({n.rsplit("/", 1)[0] for n in sources if "/" in n}):
            if f"{folder}/__init__.py" not in sources:
                init = STDLIB_DIR / folder / "__init__.py"
                if init.is_file():
                    add_module(archive, f"{folder}/__init__.py", init, with_bytecode=True)
