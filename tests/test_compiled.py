"""The compiled build of the runtime (pybridge/compiled.py): what it compiles, that a run
asked to test it imports it, and that what ships to the browser stays the pure source."""

from __future__ import annotations

import os
import sysconfig
from pathlib import Path

import pybridge
from pybridge import payload
from pybridge.devtools.compiled import (
    BUILD_DIR,
    COMPILED_PACKAGES,
    PURE_MODULES,
    TEST_VARIABLE,
    compiled_modules,
    is_built,
    loaded_pure,
)

PACKAGE = Path(pybridge.__file__).resolve().parent
COMPILED = os.environ.get(TEST_VARIABLE) == "1"


def test_the_build_compiles_the_runtime_and_its_words_but_the_model() -> None:
    names = compiled_modules()
    for package in COMPILED_PACKAGES:
        sources = {p.stem for p in (PACKAGE / package).glob("*.py")}
        compiled = {n.rsplit(".", 1)[-1] for n in names if n.startswith(f"pybridge.{package}.")}
        expected = {s for s in sources if s != "__init__"}
        expected -= {
            m.rsplit(".", 1)[-1] for m in PURE_MODULES if m.startswith(f"pybridge.{package}.")
        }
        assert compiled == expected
        assert f"pybridge.{package}" in names  # the package's __init__ too
    assert "pybridge.runtime.graph" not in names and "pybridge.protocol" not in names


def test_a_run_imports_the_build_it_was_asked_for() -> None:
    """In the pure pass every module comes from source; in the compiled pass (``./run test``
    sets PYBRIDGE_COMPILED=1) none does, the conftest refuses such a run, and this says so."""
    import pybridge.runtime.cut
    import pybridge.runtime.schema
    import pybridge.words.actions  # noqa: F401  (some compiled modules, imported for sure)

    pure = loaded_pure()
    if COMPILED:
        assert pure == []
        assert is_built(PACKAGE.parent)
    else:
        assert {"pybridge.runtime.cut", "pybridge.runtime.schema", "pybridge.words.actions"} <= set(
            pure
        )


def test_an_empty_directory_is_no_build(tmp_path: Path) -> None:
    assert not is_built(tmp_path)
    suffix = str(sysconfig.get_config_var("EXT_SUFFIX"))
    for name in compiled_modules()[:-1]:  # all but one module
        parts = name.split(".") + (["__init__"] if name.count(".") == 1 else [])
        target = tmp_path.joinpath(*parts).with_name(parts[-1] + suffix)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(b"")
    assert not is_built(tmp_path)


def test_the_browser_payload_ships_sources_only() -> None:
    """Pyodide runs the pure runtime: the payload's files are .py files, even when a compiled
    build sits beside the checkout (or is the package this run imported)."""
    shipped = payload.shipped_files()
    assert shipped and all(name.endswith(".py") for name in shipped)
    assert "runtime/model.py" in shipped and "runtime/cut.py" in shipped
    assert BUILD_DIR.parent.name == "build"  # outside the package, so no glob reaches it
