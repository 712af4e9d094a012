"""What a game carries of this package: one table of the modules a shipped game needs.

The native bundle (``pybridge build --bundle``) and the web page (the Web export's shell,
``pybridge demo``) ship exactly these files, as a zip. Developer tools stay behind: the
benchmarks, fuzzing, the library's build code, pack/web/demo, the command lines, the
simulations. A module a shipped module imports must be in the table too; the bundle's tests
import every shipped module from the zip alone, so a missing row fails them.
"""

from __future__ import annotations

import io
import py_compile
import tempfile
import zipfile
from pathlib import Path

PACKAGE_ROOT = Path(__file__).resolve().parent
#: The package's name inside the zip (and on ``sys.path``).
PACKAGE = PACKAGE_ROOT.name

#: (glob under the package folder, why a shipped game needs it).
SHIPPED: tuple[tuple[str, str], ...] = (
    ("__init__.py", "the package and its version"),
    ("protocol.py", "the JSON contract with the runtime"),
    ("service.py", "the protocol with the authoring operations: what every transport calls"),
    ("answers.py", "answers kept while a battle stays the same"),
    ("extend.py", "the extension API a game's extension modules import"),
    ("extensions.py", "loads the game's extension files into the protocol's vocabulary"),
    ("runtime/*.py", "the rules"),
    ("words/*.py", "the built-in vocabulary, declared through the extension API"),
    ("authoring/*.py", "lint, describe, sandbox and library_text, which editors ask for"),
    ("ai/*.py", "the search AI the protocol's think answers with"),
    ("ffi/__init__.py", "the package of the native library's Python half"),
    ("ffi/embedded.py", "the native library's Python half"),
)

#: Files the globs above match that stay behind anyway, with why.
LEFT_BEHIND: tuple[tuple[str, str], ...] = (
    ("authoring/cli.py", "the lint and describe command lines"),
    ("ai/match.py", "the AI's matches and bench, a developer's command line"),
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


def bytecode(source: Path, name: str) -> bytes:
    """Unchecked hash-based bytecode of the file ``source`` (PEP 552), as ``name`` in
    tracebacks: zipimport takes it as it is, whatever date the zip gives the source. Only an
    interpreter of this version reads it; others fall back to the source."""
    with tempfile.TemporaryDirectory(prefix="pybridge-pyc-") as tmp:
        compiled = Path(tmp) / "module.pyc"
        py_compile.compile(
            str(source), cfile=str(compiled), dfile=name, doraise=True,
            invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH,
        )  # fmt: skip
        return compiled.read_bytes()


def add_module(archive: zipfile.ZipFile, name: str, source: Path, *, with_bytecode: bool) -> None:
    """Store the file ``source`` as ``name`` (``pkg/mod.py``) and, with ``with_bytecode``,
    its ``.pyc`` beside it."""
    archive.writestr(zipfile.ZipInfo(name, ZIP_DATE), source.read_bytes())
    if with_bytecode:
        archive.writestr(zipfile.ZipInfo(name + "c", ZIP_DATE), bytecode(source, name))


def payload_zip(*, with_bytecode: bool) -> bytes:
    """The shipped files as a zip that unpacks to ``pybridge/``. Stored, not deflated: the
    native interpreter reads it with zipimport before any compression module exists.
    ``with_bytecode`` adds ``.pyc`` files for this interpreter's version (the native bundle)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_STORED) as archive:
        for relative in shipped_files():
            name, path = f"{PACKAGE}/{relative}", PACKAGE_ROOT / relative
            if relative.endswith(".py"):
                add_module(archive, name, path, with_bytecode=with_bytecode)
            else:
                archive.writestr(zipfile.ZipInfo(name, ZIP_DATE), path.read_bytes())
    return buffer.getvalue()
