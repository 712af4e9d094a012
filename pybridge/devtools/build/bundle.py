"""``pybridge build --bundle``: the native bridge with its own Python, for players' machines.

A bundle is one platform folder of the addon (``bin/linux.x86_64/``) that runs where no
Python is installed::

    libpybridge.so            the bridge (C ABI and GDExtension); run path $ORIGIN
    libpython3.11.so.1.0      a private copy of this interpreter's libpython
    pybridge_python/          the interpreter's home, its only module search path:
        python311.zip         the standard-library modules the runtime needs (pybridge.devtools.build.stdlib)
        pybridge.zip          the shipped part of this package (pybridge.payload)
        lib-dynload/          the extension modules among them, and cffi's backend
        game/                 the game's extension files, as they lie in its project, and
            extensions.txt    their list, which the library's start-up loads (--project)

At start the library configures an isolated interpreter on exactly these files, found from
its own location (see ``pybridge.c``). Copied libraries lose the run paths of the building
machine (:mod:`pybridge.devtools.build.elf`), and all are stripped of symbols they do not export when
``strip`` exists, which takes libpython from about 23 MB to 6 MB.

:func:`write_platform_bundle` writes the bundle of any platform this machine can build:
Linux for this machine's own architecture, and Windows x64 cross-built
(:mod:`pybridge.devtools.build.windows`).
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import sysconfig
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from ... import extensions
from ...folders import walk
from ...payload import PACKAGE_ROOT, payload_zip
from . import build as ffi_build
from .elf import drop_run_paths
from .stdlib import cffi_backend, select, trace, write_stdlib_zip

#: The battle the stdlib trace plays (any battle with the demo's card and unit ids).
TRACE_BATTLE = PACKAGE_ROOT / "examples" / "demo_battle.json"


@dataclass
class BundleReport:
    """What a bundle holds: every file with its size, and the standard modules chosen."""

    folder: Path
    files: dict[str, int] = field(default_factory=dict)  # path in the folder -> bytes
    stdlib_modules: list[str] = field(default_factory=list)
    stripped: bool = False
    note: str = ""  # how its libraries were treated, when not by `strip`
    platform: str = ""  # the Godot platform tag

    @property
    def total_bytes(self) -> int:
        return sum(self.files.values())


def libpython() -> Path:
    """This interpreter's shared libpython, by the name the library links against."""
    libdir, soname = sysconfig.get_config_var("LIBDIR"), sysconfig.get_config_var("INSTSONAME")
    if not sysconfig.get_config_var("Py_ENABLE_SHARED") or not libdir or not soname:
        raise ffi_build.BuildError(
            "a bundle needs a Python built with a shared libpython (Py_ENABLE_SHARED=1)"
        )
    path = Path(str(libdir)) / str(soname)
    if not path.is_file():
        raise ffi_build.BuildError(f"this Python's libpython is missing: {path}")
    if not _running_on(path) and not _builds_in(path):
        # Its built-in modules would differ from the library's, and the trace, which skips
        # built-in modules, could not tell what a bundle needs.
        raise ffi_build.BuildError(
            f"this Python does not run on its shared libpython ({path}), and some of its "
            "built-in modules are not built into that library; build the bundle with one "
            "that runs on it (a pyenv build) or whose built-ins the library has too "
            "(Debian's python3)"
        )
    return path


#: Built into every libpython without a PyInit_ function of their own.
_CORE_MODULES = frozenset({"builtins", "sys", "_warnings", "marshal", "_imp"})


def _builds_in(library: Path) -> bool:
    """Does ``library`` carry every module built into this interpreter? Debian's python3 is
    linked statically, but its libpython3.11.so is built from the same modules: the trace
    of the one then holds for the other. Read from the library's exported PyInit_
    functions (``nm -D``); without nm, unknown: no."""
    nm = shutil.which("nm")
    if nm is None:
        return False
    result = subprocess.run([nm, "-D", "--defined-only", str(library)],
                            capture_output=True, text=True, timeout=120)  # fmt: skip
    found = {line.rsplit(" PyInit_", 1)[1] for line in result.stdout.splitlines()
             if " PyInit_" in line}  # fmt: skip
    return result.returncode == 0 and set(sys.builtin_module_names) - _CORE_MODULES <= found


#: The C library's own parts, which every Linux has (and must be the system's).
GLIBC = re.compile(r"(ld-linux[-\w.]*|linux-vdso|lib(c|m|dl|pthread|rt|util|resolv))\.so[.\d]*$")


def libraries_beyond_glibc(library: Path) -> list[Path]:
    """The shared libraries ``library`` loads besides glibc's, as ldd resolves them: none for
    a pyenv build; zlib and expat for Debian's libpython3.11, which builds them in."""
    ldd = shutil.which("ldd")
    if ldd is None:
        raise ffi_build.BuildError("a bundle needs ldd to find what libpython links")
    result = subprocess.run([ldd, str(library)], capture_output=True, text=True, timeout=120)
    if result.returncode != 0:
        raise ffi_build.BuildError(f"ldd {library} failed: {result.stderr.strip()}")
    if "not found" in result.stdout:
        raise ffi_build.BuildError(
            f"{library} links a library this machine lacks:\n{result.stdout}"
        )
    found = re.findall(r"^\s*(\S+) => (/\S+) \(0x", result.stdout, re.M)
    return [Path(path) for name, path in found if not GLIBC.match(name)]


def _running_on(library: Path) -> bool:
    """Is ``library`` loaded in this process? (Unknown without /proc: assume so.)"""
    maps = Path("/proc/self/maps")
    if not maps.is_file():
        return True
    loaded = {line.split()[-1] for line in maps.read_text().splitlines() if "libpython" in line}
    return any(Path(name).resolve() == library.resolve() for name in loaded)


def _copy(source: Path, target: Path, strip: str | None, *, own_run_path: bool = False) -> None:
    """Copy a shared object, stripped of what it does not export when ``strip`` is given,
    and without the building machine's run paths (``own_run_path``: keep ours, $ORIGIN)."""
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(source, target)
    target.chmod(0o755)
    if strip is not None:
        result = subprocess.run([strip, "--strip-unneeded", str(target)],
                                capture_output=True, text=True, timeout=120)  # fmt: skip
        if result.returncode != 0:
            raise ffi_build.BuildError(f"strip {target.name} failed: {result.stderr.strip()}")
    if not own_run_path:
        drop_run_paths(target)


def pack_extensions(home: Path, files: Sequence[Path], project: Path | None) -> list[Path]:
    """Copy the game's extension ``files`` into the bundle's ``home`` (each where it lies in
    ``project``, else by its name), with the list the library's start-up loads them from, in
    this order; returns the copies."""
    folder = home / extensions.BUNDLE_FOLDER
    if folder.exists():
        shutil.rmtree(folder)
    named = extensions.packed_names(files, project)
    for source, name in named:
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source, folder / name)
    if named:
        text = extensions.packed_list([name for _, name in named])
        (folder / extensions.BUNDLE_LIST).write_text(text, "utf-8")
    return [folder / name for _, name in named]


def write_bundle(
    folder: Path, extension_files: Sequence[Path] = (), project: Path | None = None
) -> BundleReport:
    """Write a bundle into the empty (or new) ``folder``, carrying the game's
    ``extension_files`` (from ``project``); returns what it holds."""
    strip = shutil.which("strip")
    folder.mkdir(parents=True, exist_ok=True)
    home = folder / ffi_build.BUNDLE_HOME
    home.mkdir(exist_ok=True)
    report = BundleReport(folder, stripped=strip is not None)

    with tempfile.TemporaryDirectory(prefix="pybridge-bundle-") as tmp:
        built = ffi_build.build(Path(tmp), bundled=True)
        _copy(built, folder / ffi_build.LIBRARY_NAME, strip, own_run_path=True)
    _copy(libpython(), folder / libpython().name, strip)
    for library in libraries_beyond_glibc(libpython()):
        _copy(library, folder / library.name, strip)  # found through the bridge's $ORIGIN

    (home / ffi_build.PAYLOAD_ZIP).write_bytes(payload_zip(with_bytecode=True))
    packed = pack_extensions(home, extension_files, project)
    battle = json.loads(TRACE_BATTLE.read_text("utf-8"))
    chosen = select(trace(home / ffi_build.PAYLOAD_ZIP, battle, extensions=packed))
    write_stdlib_zip(home / ffi_build.STDLIB_ZIP, chosen.sources)
    extensions = home / ffi_build.EXTENSIONS_DIR
    extensions.mkdir(exist_ok=True)
    backend = cffi_backend()
    chosen.extensions[backend.name] = backend
    for name, source in chosen.extensions.items():
        _copy(source, extensions / name, strip)

    report.stdlib_modules = chosen.modules
    report.files = {
        path.relative_to(folder).as_posix(): path.stat().st_size
        for path in sorted(walk(folder).files())
    }
    return report


def write_windows_bundle(
    folder: Path, extension_files: Sequence[Path] = (), project: Path | None = None
) -> BundleReport:
    """Write the Windows x64 bundle into the empty (or new) ``folder``, with the game's
    ``extension_files`` packed as in :func:`write_bundle`."""
    from . import windows  # only a Windows build needs its pins and tools

    folder.mkdir(parents=True, exist_ok=True)
    battle = json.loads(TRACE_BATTLE.read_text("utf-8"))
    packed = pack_extensions(folder / ffi_build.BUNDLE_HOME, extension_files, project)
    files, modules = windows.write_bundle(folder, battle, extension_files=packed)
    note = "pybridge.dll and cffi's backend stripped; the signed DLLs as signed"
    return BundleReport(folder, files, modules, stripped=True, note=note)


def write_platform_bundle(
    tag: str, folder: Path, extension_files: Sequence[Path] = (), project: Path | None = None
) -> BundleReport:
    """The bundle for the Godot platform ``tag`` (``linux.x86_64``, ``windows.x86_64``...),
    carrying the game's ``extension_files`` (from ``project``)."""
    write = write_windows_bundle if tag == "windows.x86_64" else write_bundle
    report = write(folder, extension_files, project)
    report.platform = tag
    return report
