"""What a game carries of this package: one table of the modules a shipped game needs.

The native bundle (``pybridge build --bundle``) and the web page (the Web export's shell,
``pybridge demo``) ship exactly these files, as a zip. Developer tools stay behind: the
benchmarks, fuzzing, the library's build code, pack/web/demo, the command lines, the
simulations. A module a shipped module imports must be in the table too; the bundle's tests
import every shipped module from the zip alone, so a missing row fails them.
"""

from __future__ import annotations

import importlib.util
import io
import marshal
import zipfile
from pathlib import Path

PACKAGE_ROOT = Path(__file__).resolve().parent
#: The package's name inside the zip (and on ``sys.path``).
PACKAGE = PACKAGE_ROOT.name

#: (glob under the package folder, why a shipped game needs it).
SHIPPED: tuple[tuple[str, str], ...] = (
    ("__init__.py", "the package and its version"),
    ("protocol.py", "the JSON contract every transport calls"),
    ("answers.py", "answers kept while a battle stays the same"),
    ("runtime/*.py", "the rules"),
    ("authoring/*.py", "lint and describe, which games' own editors ask for"),
    ("ffi/__init__.py", "the package of the native library's Python half"),
    ("ffi/embedded.py", "the native library's Python half"),
)

#: Files the globs above match that stay behind anyway, with why.
LEFT_BEHIND: tuple[tuple[str, str], ...] = (
    ("authoring/cli.py", "the lint and describe command lines"),
)

#: Every zip entry gets this date, so the same sources give the same zip.
ZIP_DATE = (2020, 1, 1, 0, 0, 0)


def shipped_files() -> list[str]:
    """The shipped files as paths relative to the package folder, sorted."""
    left = {name for name, _ in LEFT_BEHIND}
    found = {
        path.relative_to(PACKAGE_ROOT).as_posix()
        for pattern, _ in SHIPPED
        for path in PACKAGE_ROOT.glob(pattern)
        if path.is_file()
    }
    return sorted(found - left)


def _bytecode(source: bytes, name: str) -> bytes:
    """Unchecked hash-based bytecode of ``source`` (PEP 552: magic, flags 0b01, the source
    hash, the marshalled code). zipimport takes it as it is, whatever date the zip gives the
    source; only an interpreter of this version reads it (others fall back to the source)."""
    code = compile(source, name, "exec", dont_inherit=True)
    flags = (1).to_bytes(4, "little")  # hash-based, not checked against the source
    header = importlib.util.MAGIC_NUMBER + flags + importlib.util.source_hash(source)
    return header + marshal.dumps(code)


def add_module(archive: zipfile.ZipFile, name: str, source: bytes, *, bytecode: bool) -> None:
    """Store ``name`` (``pkg/mod.py``) and, with ``bytecode``, its ``.pyc`` beside it."""
    archive.writestr(zipfile.ZipInfo(name, ZIP_DATE), source)
    if bytecode:
        archive.writestr(zipfile.ZipInfo(name + "c", ZIP_DATE), _bytecode(source, name))


def payload_zip(*, bytecode: bool) -> bytes:
    """The shipped files as a zip that unpacks to ``pybridge/``. Stored, not deflated: the
    native interpreter reads it with zipimport before any compression module exists.
    ``bytecode`` adds ``.pyc`` files for this interpreter's version (the native bundle)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_STORED) as archive:
        for relative in shipped_files():
            name = f"{PACKAGE}/{relative}"
            data = (PACKAGE_ROOT / relative).read_bytes()
            if relative.endswith(".py"):
                add_module(archive, name, data, bytecode=bytecode)
            else:
                archive.writestr(zipfile.ZipInfo(name, ZIP_DATE), data)
    return buffer.getvalue()
