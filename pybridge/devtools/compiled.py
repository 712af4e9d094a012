"""The compiled build of the runtime for CPython hosts (mypyc), beside the pure source.

The pure ``.py`` files stay the truth: Pyodide, the web payload and the wheels run them.
``python -m pybridge.devtools.compiled build`` copies the package into ``build/compiled/``
and compiles the runtime's modules there with mypyc (the strict type hints are what it
compiles from); a host runs that copy by putting the directory first on its path (and not
the checkout before it, as ``python -m`` does unless ``-P``)::

    python -m pybridge.devtools.compiled build
    PYTHONPATH=build/compiled pybridge simulate

A compiled module still calls a game's extension code through the runtime's tables (the
vocabulary, the node types), so an extension registered at run time works as it does with
the pure source.

What the runtime's source does for mypyc: a module ``__getattr__`` is bound by assignment,
not defined with ``def`` (mypyc 2.4 crashes importing a module that defines one), no class
is made with ``cls.__new__``, and the constants hot paths read are ``Final`` (compiled code
reads a plain module global from the module's dictionary at every use).
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import sysconfig
import time
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1]
#: Where ``build`` writes by default: beside the package, ignored by git.
BUILD_DIR = PACKAGE.parent / "build" / "compiled"
#: The packages whose modules are compiled: the runtime and its built-in words (which reach it
#: through the extension API, as a game's do). Every other module stays pure.
COMPILED_PACKAGES = ("runtime", "words")
#: Single modules compiled besides: the simulator's battle loop, its policies and tallies
#: (the Policy protocol stays pure: pybridge/simulate/moves.py).
COMPILED_EXTRA = ("pybridge.simulate.engine", "pybridge.simulate.policies",
                  "pybridge.simulate.tally")  # fmt: skip
#: Modules of those packages left pure. The graph's Behavior is named by the model's
#: dataclasses, and the graph imports the model: compiled, the model's dataclasses would take
#: the type object of a class not yet made, and the import crashes (the graph is read when a
#: battle loads; its compiled form runs in resolve). The errors' classes keep their ``code`` as
#: a class attribute, which compiled exception classes lose. The events a host reads
#: (:mod:`pybridge.runtime.units_after`) are a subclass of ``list``, which mypyc cannot make.
PURE_MODULES = frozenset(
    {"pybridge.runtime.graph", "pybridge.runtime.errors", "pybridge.runtime.units_after"}
)
#: The environment variable that asks the test suite to run against the compiled build.
TEST_VARIABLE = "PYBRIDGE_COMPILED"
#: What an extension module's file name ends with on this interpreter.
_SUFFIX = str(sysconfig.get_config_var("EXT_SUFFIX"))


def compiled_modules() -> list[str]:
    """The dotted names of the modules the build compiles."""
    names = []
    for package in COMPILED_PACKAGES:
        for source in sorted((PACKAGE / package).glob("*.py")):
            stem = "" if source.stem == "__init__" else f".{source.stem}"
            if f"pybridge.{package}{stem}" not in PURE_MODULES:
                names.append(f"pybridge.{package}{stem}")
    return names + list(COMPILED_EXTRA)


def is_built(into: Path = BUILD_DIR) -> bool:
    """Whether ``into`` holds a build whose every compiled module is an extension module."""
    return all(_extension(into, name, _SUFFIX).exists() for name in compiled_modules())


def _extension(into: Path, name: str, suffix: str) -> Path:
    parts = name.split(".") + (["__init__"] if _is_package(name) else [])
    return into.joinpath(*parts).with_name(parts[-1] + suffix)


def _is_package(name: str) -> bool:
    return name in {f"pybridge.{package}" for package in COMPILED_PACKAGES}


def build(into: Path = BUILD_DIR) -> float:
    """Copy the package into ``into`` and compile the runtime there; the seconds it took."""
    started = time.perf_counter()
    into = into.resolve()
    if into.exists():
        shutil.rmtree(into)
    into.mkdir(parents=True)
    shutil.copytree(PACKAGE, into / "pybridge",
                    ignore=shutil.ignore_patterns("__pycache__", "*.so", "*.pyd"))  # fmt: skip
    sources = [str(_source(Path(), name)) for name in compiled_modules()]
    # mypyc (shipped with the dev extra's mypy) names modules after the paths it is given,
    # relative to its working directory, and writes each extension beside its source.
    # A module of the copy may import an optional extra that has no stubs (tqdm): no error
    # here, as in the project's mypy settings, which mypyc does not read from the copy.
    command = [sys.executable, "-m", "mypyc", "--ignore-missing-imports", *sources]
    done = subprocess.run(command, cwd=into, capture_output=True, text=True, check=False)
    for scratch in ("build", ".mypy_cache"):  # its C sources, objects and type cache
        shutil.rmtree(into / scratch, ignore_errors=True)
    if done.returncode != 0 or not is_built(into):
        raise SystemExit(f"compiled: mypyc failed:\n{done.stdout[-4000:]}{done.stderr[-4000:]}")
    return time.perf_counter() - started


def loaded_pure() -> list[str]:
    """The compiled modules this process has imported from their ``.py`` source: none when
    the compiled build is first on the path (the runtime and its words are imported here)."""
    import pybridge.runtime
    import pybridge.words  # noqa: F401  (both packages, so the check never finds nothing)

    return [name for name in compiled_modules() if name in sys.modules
            and not str(getattr(sys.modules[name], "__file__", "")).endswith(_SUFFIX)]  # fmt: skip


def _source(into: Path, name: str) -> Path:
    parts = name.split(".") + (["__init__"] if _is_package(name) else [])
    return into.joinpath(*parts).with_suffix(".py")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m pybridge.devtools.compiled",
                                     description=__doc__.split("\n\n")[0])  # fmt: skip
    commands = parser.add_subparsers(dest="command", required=True)
    make = commands.add_parser("build", help="compile the runtime into a directory")
    make.add_argument("--into", type=Path, default=BUILD_DIR, help="default: %(default)s")
    commands.add_parser("include", help="print the C headers' directory mypyc needs")
    args = parser.parse_args(argv)
    if args.command == "include":
        print(sysconfig.get_paths()["include"])
        return 0
    seconds = build(args.into)
    print(f"compiled {len(compiled_modules())} modules into {args.into} in {seconds:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
