"""Build ``libpybridge.so``, the C ABI of :mod:`pybridge.service`, with cffi's embedding mode.

``pybridge.h`` is the whole ABI; ``pybridge.c`` implements it and calls one
``extern "Python"`` function, which :mod:`pybridge.ffi.embedded` provides.
``gdextension.c`` makes the same library a Godot 4.4-4.6 GDExtension (entry symbol
``pybridge_gdextension_init``, class ``PyBridge``), declared against ``gdextension_api.h``.

Two kinds of library come out of :func:`build`. By default it embeds the building
interpreter: it remembers that interpreter's program path and ``sys.path`` entries, so it
runs only on this machine and is rebuilt after moving the project or its venv. With
``bundled=True`` it knows no path of this machine: it finds libpython beside itself
(``$ORIGIN``) and starts an isolated interpreter on the files of :data:`BUNDLE_HOME` beside
itself, which :mod:`pybridge.ffi.bundle` lays out.
"""

from __future__ import annotations

import os
import shlex
import shutil
import sys
import sysconfig
import tempfile
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, nullcontext
from pathlib import Path

from .. import __version__, protocol

FFI_DIR = Path(__file__).resolve().parent
PROJECT_ROOT = FFI_DIR.parents[1]
HEADER = FFI_DIR / "pybridge.h"
C_SOURCE = FFI_DIR / "pybridge.c"
GDEXTENSION_SOURCE = FFI_DIR / "gdextension.c"
GDEXTENSION_HEADER = FFI_DIR / "gdextension_api.h"
GDEXTENSION_ENTRY = "pybridge_gdextension_init"  # entry_symbol in the .gdextension file
LIBRARY_NAME = "libpybridge.so"
MODULE_NAME = "_pybridge_cffi"  # the cffi module the library registers in its interpreter
#: A bundle's interpreter home, a folder beside the library, and its module search path in
#: that folder: the standard library's modules, the shipped package, extension modules.
BUNDLE_HOME = "pybridge_python"
STDLIB_ZIP = f"python{sys.version_info.major}{sys.version_info.minor}.zip"
PAYLOAD_ZIP = "pybridge.zip"
EXTENSIONS_DIR = "lib-dynload"
BUNDLE_PATHS = (STDLIB_ZIP, PAYLOAD_ZIP, EXTENSIONS_DIR)

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

# The same, in a bundle: the interpreter's paths are already the bundle's files.
_BUNDLED_INIT_CODE = f"""\
from {MODULE_NAME} import ffi, lib
from pybridge.ffi.embedded import install

install(ffi, lib)
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


def _bundled_options() -> tuple[list[tuple[str, str]], list[str]]:
    """Macros and link flags of a bundled library: everything relative to itself. The run
    path is a DT_RPATH, which the loader searches before $LD_LIBRARY_PATH, so another
    libpython3.11 on a player's library path cannot take the bundled one's place."""
    paths = ", ".join(_c_string(path) for path in BUNDLE_PATHS)
    macros = [("PYBRIDGE_BUNDLE_HOME", _c_string(BUNDLE_HOME)), ("PYBRIDGE_BUNDLE_PATHS", paths)]
    return macros, ["-Wl,-rpath,$ORIGIN", "-Wl,--disable-new-dtags"]


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
    try:
        import cffi  # type: ignore[import-untyped]  # cffi ships no type hints
    except ImportError as exc:
        raise BuildError(
            "building needs cffi and setuptools: pip install 'pybridge-targeting[ffi]'"
        ) from exc

    macros, link_flags = _bundled_options() if bundled else _machine_options()
    ffibuilder = cffi.FFI()
    ffibuilder.cdef(_CDEF)
    ffibuilder.embedding_init_code(_BUNDLED_INIT_CODE if bundled else _init_code())
    ffibuilder.set_source(
        MODULE_NAME,
        f'#line 1 "{C_SOURCE.name}"\n' + C_SOURCE.read_text("utf-8"),
        sources=[str(GDEXTENSION_SOURCE)],  # same flags: only the marked symbols export
        include_dirs=[str(FFI_DIR)],
        define_macros=[
            ("PYBRIDGE_VERSION", _c_string(__version__)),
            ("PYBRIDGE_MAX_REQUEST_BYTES", str(protocol.MAX_REQUEST_BYTES)),
            *macros,
        ],
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
        fd, staged = tempfile.mkstemp(prefix=f".{LIBRARY_NAME}.", dir=target_dir)
        os.close(fd)
        try:
            shutil.copyfile(built, staged)
            os.chmod(staged, 0o755)
            os.replace(staged, library)  # a new inode: never rewrite a loaded library
        except BaseException:
            Path(staged).unlink(missing_ok=True)
            raise
    return library
