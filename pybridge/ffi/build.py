"""Build ``libpybridge.so``, the C ABI of :mod:`pybridge.protocol`, with cffi's embedding mode.

``pybridge.h`` is the whole ABI; ``pybridge.c`` implements it and calls one
``extern "Python"`` function, which :mod:`pybridge.ffi.embedded` provides.
``gdextension.c`` makes the same library a Godot 4.4-4.6 GDExtension (entry symbol
``pybridge_gdextension_init``, class ``PyBridge``), declared against ``gdextension_api.h``.
The library embeds the building interpreter: it remembers that interpreter's program path
and ``sys.path`` entries, so rebuild it after moving the project or its venv.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import sysconfig
import tempfile
from collections.abc import Sequence
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
DEFAULT_OUTPUT_DIR = PROJECT_ROOT / "addons" / "pybridge_targeting" / "bin" / "linux"
MODULE_NAME = "_pybridge_cffi"  # the cffi module the library registers in its interpreter

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


def build(output_dir: Path | None = None, flags: Sequence[str] = ()) -> Path:
    """Build the library into ``output_dir`` (default: the Godot addon's ``bin/linux``).

    Intermediate files go to a temporary directory. The library is replaced atomically,
    so a process that has the old one loaded keeps running. Returns the library's path.
    ``flags`` go to the compiler and the linker both (e.g. ``-fsanitize=address``).
    """
    try:
        import cffi  # type: ignore[import-untyped]  # cffi ships no type hints
    except ImportError as exc:
        raise BuildError("building needs cffi and setuptools: pip install 'pybridge[ffi]'") from exc

    libdir = sysconfig.get_config_var("LIBDIR")
    ffibuilder = cffi.FFI()
    ffibuilder.cdef(_CDEF)
    ffibuilder.embedding_init_code(_init_code())
    ffibuilder.set_source(
        MODULE_NAME,
        f'#line 1 "{C_SOURCE.name}"\n' + C_SOURCE.read_text("utf-8"),
        sources=[str(GDEXTENSION_SOURCE)],  # same flags: only the marked symbols export
        include_dirs=[str(FFI_DIR)],
        define_macros=[
            ("PYBRIDGE_VERSION", _c_string(__version__)),
            ("PYBRIDGE_PYTHON", _c_string(sys.executable)),  # unresolved: venv symlinks count
            ("PYBRIDGE_MAX_REQUEST_BYTES", str(protocol.MAX_REQUEST_BYTES)),
        ],
        # Export the ABI and the entry symbol only.
        extra_compile_args=["-fvisibility=hidden", *flags],
        libraries=["dl", "pthread"],
        # The host has no idea where this Python's libpython lives.
        extra_link_args=[*([f"-Wl,-rpath,{libdir}"] if libdir else []), *flags],
    )

    target_dir = DEFAULT_OUTPUT_DIR if output_dir is None else Path(output_dir)
    target_dir.mkdir(parents=True, exist_ok=True)
    library = target_dir / LIBRARY_NAME
    with tempfile.TemporaryDirectory(prefix="pybridge-ffi-") as tmp:
        try:
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


def _cmd_build(args: argparse.Namespace) -> int:
    try:
        library = build(Path(args.output_dir) if args.output_dir else None)
    except (OSError, BuildError) as exc:
        print(f"pybridge build: {exc}", file=sys.stderr)
        return 2
    print(library)
    return 0


def add_build_command(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``pybridge build [--output-dir DIR]``."""
    cmd = subparsers.add_parser("build", help=f"build {LIBRARY_NAME}, the C ABI for Godot")
    cmd.add_argument(
        "--output-dir",
        metavar="DIR",
        help=f"where to put the library (default: {DEFAULT_OUTPUT_DIR.relative_to(PROJECT_ROOT)})",
    )
    cmd.set_defaults(run=_cmd_build)
