"""Build ``libpybridge.so``, the C ABI of :mod:`pybridge.service`, with cffi's embedding mode.

``pybridge.h`` is the whole ABI; ``pybridge.c`` implements it and calls one
``extern "Python"`` function, which :mod:`pybridge.ffi.embedded` provides.
``gdextension.c`` makes the same library a Godot 4.4-4.6 GDExtension (entry symbol
``pybridge_gdextension_init``, class ``PyBridgeNative``), declared against ``gdextension_api.h``.

Two kinds of library come out of :func:`build`. By default it embeds the building
interpreter: it remembers that interpreter's program path and ``sys.path`` entries, so it
runs only on this machine and is rebuilt after moving the project or its venv. With
``bundled=True`` it knows no path of this machine: it finds libpython beside itself
(``$ORIGIN``) and starts an isolated interpreter on the files of :data:`BUNDLE_HOME` beside
itself, which :mod:`pybridge.devtools.build.bundle` lays out. :func:`build_windows` builds the bundled
kind as a Windows x64 DLL with the mingw-w64 cross-compiler, against a Windows CPython
(:mod:`pybridge.devtools.build.windows` fetches and checks it).
"""

from __future__ import annotations

import io
import os
import shlex
import shutil
import subprocess
import sys
import sysconfig
import tempfile
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, nullcontext, redirect_stdout
from pathlib import Path
from typing import Any

from ... import __version__, protocol

#: The C ABI's sources and header (:mod:`pybridge.ffi`), which this module builds.
FFI_DIR = Path(__file__).resolve().parents[2] / "ffi"
PROJECT_ROOT = FFI_DIR.parents[1]
HEADER = FFI_DIR / "pybridge.h"
C_SOURCE = FFI_DIR / "pybridge.c"
GDEXTENSION_SOURCE = FFI_DIR / "gdextension.c"
GDEXTENSION_HEADER = FFI_DIR / "gdextension_api.h"
GDEXTENSION_ENTRY = "pybridge_gdextension_init"  # entry_symbol in the .gdextension file
LIBRARY_NAME = "libpybridge.so"
WINDOWS_LIBRARY_NAME = "pybridge.dll"
MODULE_NAME = "_pybridge_cffi"  # the cffi module the library registers in its interpreter
#: A bundle's interpreter home, a folder beside the library, and its module search path in
#: that folder: the standard library's modules, the shipped package, extension modules.
BUNDLE_HOME = "pybridge_python"
STDLIB_ZIP = f"python{sys.version_info.major}{sys.version_info.minor}.zip"
PAYLOAD_ZIP = "pybridge.zip"
EXTENSIONS_DIR = "lib-dynload"
BUNDLE_PATHS = (STDLIB_ZIP, PAYLOAD_ZIP, EXTENSIONS_DIR)
#: The mingw-w64 cross-compiler of Debian's gcc-mingw-w64-x86-64.
WINDOWS_CC = "x86_64-w64-mingw32-gcc"


def bundle_paths(stdlib_zip: str = STDLIB_ZIP) -> tuple[str, str, str]:
    """A bundle's module search path in its home, for the interpreter whose zip is named."""
    return (stdlib_zip, PAYLOAD_ZIP, EXTENSIONS_DIR)


# What Python sees of the C half: the allocator of responses and the entry point it serves.
_CDEF = """
char *pybridge_copy(const char *data, size_t length);
extern "Python" char *pybridge_py_call(const char *request, size_t length);
"""

# Runs once, in the host's interpreter, on the first pybridge_call().
_INIT_CODE = """\
import site
import sys

# Where the building interpreter found pybridge: an embedded one has no venv of its own.
for path in {site_dirs!r}:
    if path not in sys.path:
        site.addsitedir(path)  # also runs the .pth files (editable installs)
if {root!r} not in sys.path:
    sys.path.insert(0, {root!r})

from {module} import ffi, lib
from pybridge.ffi.embedded import install

install(ffi, lib)
"""

# The same, in a bundle: the interpreter's paths are already the bundle's files, and its
# prefix is the bundle's home, where the game's extension files are packed.
_BUNDLED_INIT_CODE = f"""\
import sys

from {MODULE_NAME} import ffi, lib
from pybridge.ffi.embedded import install

install(ffi, lib, sys.prefix)
"""


class BuildError(Exception):
    """The library could not be built; the message says why."""


def _init_code() -> str:
    paths = sysconfig.get_paths()
    site_dirs = list(dict.fromkeys([paths["purelib"], paths["platlib"]]))
    return _INIT_CODE.format(site_dirs=site_dirs, root=str(PROJECT_ROOT), module=MODULE_NAME)


def _c_string(text: str) -> str:
    """A C string literal of ``text`` in UTF-8 (paths may hold any byte)."""
    plain = {b for b in range(0x20, 0x7F)} - set(b'"\\?')  # '?': no trigraphs
    chars = [
        chr(b) if b in plain else f"\\{b:03o}" for b in text.encode("utf-8", "surrogateescape")
    ]
    return '"' + "".join(chars) + '"'


def _machine_options() -> tuple[list[tuple[str, str]], list[str]]:
    """Macros and link flags of a library for this machine: its Python, by path."""
    libdir = sysconfig.get_config_var("LIBDIR")
    macros = [("PYBRIDGE_PYTHON", _c_string(sys.executable))]  # unresolved: venv symlinks count
    # The host has no idea where this Python's libpython lives.
    return macros, [f"-Wl,-rpath,{libdir}"] if libdir else []


def _bundle_macros(stdlib_zip: str = STDLIB_ZIP) -> list[tuple[str, str]]:
    paths = ", ".join(_c_string(path) for path in bundle_paths(stdlib_zip))
    return [("PYBRIDGE_BUNDLE_HOME", _c_string(BUNDLE_HOME)), ("PYBRIDGE_BUNDLE_PATHS", paths)]


def _bundled_options() -> tuple[list[tuple[str, str]], list[str]]:
    """Macros and link flags of a bundled library: everything relative to itself. The run
    path is a DT_RPATH, which the loader searches before $LD_LIBRARY_PATH, so another
    libpython3.11 on a player's library path cannot take the bundled one's place."""
    return _bundle_macros(), ["-Wl,-rpath,$ORIGIN", "-Wl,--disable-new-dtags"]


def _common_macros() -> list[tuple[str, str]]:
    return [
        ("PYBRIDGE_VERSION", _c_string(__version__)),
        ("PYBRIDGE_MAX_REQUEST_BYTES", str(protocol.MAX_REQUEST_BYTES)),
    ]


def _new_ffi(init_code: str) -> Any:
    """A cffi builder with the ABI's declarations and ``init_code``."""
    try:
        import cffi  # type: ignore[import-untyped]  # cffi ships no type hints
    except ImportError as exc:
        raise BuildError(
            "building needs cffi and setuptools: pip install 'pybridge-targeting[ffi]'"
        ) from exc
    ffibuilder = cffi.FFI()
    ffibuilder.cdef(_CDEF)
    ffibuilder.embedding_init_code(init_code)
    return ffibuilder


def _staged_copy(built: Path, library: Path) -> None:
    """Put ``built`` at ``library`` as a new file (a process with the old one keeps it)."""
    fd, staged = tempfile.mkstemp(prefix=f".{library.name}.", dir=library.parent)
    os.close(fd)
    try:
        shutil.copyfile(built, staged)
        os.chmod(staged, 0o755)
        os.replace(staged, library)  # a new inode: never rewrite a loaded library
    except BaseException:
        Path(staged).unlink(missing_ok=True)
        raise


@contextmanager
def _linker_without_rpath() -> Iterator[None]:
    """Link without the run path some Pythons put in their own link command (pyenv's
    ``-Wl,-rpath,<its lib folder>``): a bundled library must find only the libpython beside
    it. The compiler takes ``$LDSHARED`` over the configured command; it is put back after."""
    configured = sysconfig.get_config_var("LDSHARED") or "gcc -shared"
    words = [w for w in shlex.split(configured) if not w.startswith(("-Wl,-rpath", "-Wl,-R"))]
    saved = os.environ.get("LDSHARED")
    os.environ["LDSHARED"] = shlex.join(words)
    try:
        yield
    finally:
        if saved is None:
            del os.environ["LDSHARED"]
        else:
            os.environ["LDSHARED"] = saved


def build(output_dir: Path, flags: Sequence[str] = (), *, bundled: bool = False) -> Path:
    """Build the library into ``output_dir`` (``pybridge build`` puts it in an addon).

    Intermediate files go to a temporary directory. The library is replaced atomically,
    so a process that has the old one loaded keeps running. Returns the library's path.
    ``flags`` go to the compiler and the linker both (e.g. ``-fsanitize=address``).
    ``bundled`` builds the self-contained kind (see the module's description).
    """
    ffibuilder = _new_ffi(_BUNDLED_INIT_CODE if bundled else _init_code())
    import cffi  # imported by _new_ffi already, whose error says what to install

    macros, link_flags = _bundled_options() if bundled else _machine_options()
    ffibuilder.set_source(
        MODULE_NAME,
        _c_text(),
        sources=[str(GDEXTENSION_SOURCE)],  # same flags: only the marked symbols export
        include_dirs=[str(FFI_DIR)],
        define_macros=[*_common_macros(), *macros],
        # Export the ABI and the entry symbol only.
        extra_compile_args=["-fvisibility=hidden", *flags],
        libraries=["dl", "pthread"],
        extra_link_args=[*link_flags, *flags],
    )

    target_dir = Path(output_dir)
    target_dir.mkdir(parents=True, exist_ok=True)
    library = target_dir / LIBRARY_NAME
    with tempfile.TemporaryDirectory(prefix="pybridge-ffi-") as tmp:
        try:
            with _linker_without_rpath() if bundled else nullcontext():
                built = ffibuilder.compile(tmpdir=tmp, target=LIBRARY_NAME, verbose=False)
        except cffi.VerificationError as exc:
            raise BuildError(f"compiling {LIBRARY_NAME} failed: {exc}") from exc
        _staged_copy(Path(built), library)
    return library


def _c_text() -> str:
    """The C half as cffi's source text."""
    return f'#line 1 "{C_SOURCE.name}"\n' + C_SOURCE.read_text("utf-8")


def cross_compiler() -> str:
    """The mingw-w64 compiler for Windows x64, which must be installed."""
    found = shutil.which(WINDOWS_CC)
    if found is None:
        raise BuildError(
            f"a Windows bundle needs {WINDOWS_CC}: apt-get install gcc-mingw-w64-x86-64"
        )
    return found


def run_compiler(argv: Sequence[str | Path], what: str) -> None:
    result = subprocess.run([str(a) for a in argv], capture_output=True, text=True, timeout=600)
    if result.returncode != 0:
        raise BuildError(f"compiling {what} failed:\n{result.stderr[-4000:]}")


def build_windows(
    output_dir: Path, include_dir: Path, import_library: Path, stdlib_zip: str
) -> Path:
    """Build the bundled kind of library as ``pybridge.dll`` for Windows x64 into
    ``output_dir``: cffi writes the C text of the module, mingw-w64 compiles it with
    ``gdextension.c`` against the Windows CPython's headers (``include_dir``) and links it
    against its import library. The DLL imports python3X.dll, KERNEL32 and msvcrt only:
    libgcc and winpthreads (which cffi's embedding code uses with any compiler but MSVC's)
    are linked in. Returns the DLL's path."""
    ffibuilder = _new_ffi(_BUNDLED_INIT_CODE)
    ffibuilder.set_source(MODULE_NAME, _c_text())
    target_dir = Path(output_dir)
    target_dir.mkdir(parents=True, exist_ok=True)
    library = target_dir / WINDOWS_LIBRARY_NAME
    macros = [*_common_macros(), *_bundle_macros(stdlib_zip)]
    with tempfile.TemporaryDirectory(prefix="pybridge-ffi-windows-") as tmp:
        c_file = Path(tmp) / f"{MODULE_NAME}.c"
        with redirect_stdout(io.StringIO()):  # cffi says "generating ..."
            ffibuilder.emit_c_code(str(c_file))
        built = Path(tmp) / WINDOWS_LIBRARY_NAME
        run_compiler([cross_compiler(), "-shared", "-O2", "-Wall", "-s", "-static-libgcc",
                      "-Wl,--no-insert-timestamp", *(f"-D{k}={v}" for k, v in macros),
                      f"-I{FFI_DIR}", f"-I{include_dir}", c_file, GDEXTENSION_SOURCE,
                      import_library, "-Wl,-Bstatic", "-lwinpthread", "-Wl,-Bdynamic",
                      "-o", built], WINDOWS_LIBRARY_NAME)  # fmt: skip
        _staged_copy(built, library)
    return library
