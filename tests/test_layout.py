"""The package's folders say what ships in a game and what is public.

What ships is :mod:`pybridge.payload`'s table; the developer tools live in
``pybridge/devtools/``, and nothing that ships imports them; the import paths a game uses are
few, each named here with the doc that describes it.
"""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

from pybridge import payload

PACKAGE = Path(payload.__file__).resolve().parent
ROOT = PACKAGE.parent
ARCHITECTURE = ROOT / "docs" / "architecture.md"
#: The import paths a game's code uses (the command line's module behind the ``pybridge``
#: command), each with the doc that describes it.
PUBLIC = {
    "pybridge.extend": "docs/extensions.md",
    "pybridge.protocol": "docs/protocol.md",
    "pybridge.testing": "docs/testing-your-cards.md",
    "pybridge.cli": "README.md",
}


def _imports(path: Path, root: Path = ROOT) -> set[str]:
    """The package modules a file imports, absolute, relative ones resolved."""
    module = ".".join(path.relative_to(root).with_suffix("").parts)
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    package = package.removesuffix(".__init__")
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                target = ".".join([*base, *([node.module] if node.module else [])])
            else:
                target = node.module or ""
            found.add(target)
            found.update(f"{target}.{alias.name}" for alias in node.names)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return {name for name in found if name.startswith("pybridge")}


def test_nothing_that_ships_imports_a_developer_tool() -> None:
    shipped = payload.shipped_files()
    assert "runtime/vocabulary.py" in shipped and "words/actions.py" in shipped
    reaching = {
        name: sorted(i for i in _imports(PACKAGE / name) if i.startswith("pybridge.devtools"))
        for name in shipped
    }
    assert {name: found for name, found in reaching.items() if found} == {}


def test_no_developer_tool_ships() -> None:
    assert not [name for name in payload.shipped_files() if name.startswith("devtools/")]
    tools = {p.relative_to(PACKAGE).as_posix() for p in (PACKAGE / "devtools").rglob("*.py")}
    assert {"devtools/bench/run.py", "devtools/fuzzing.py", "devtools/build/build.py",
            "devtools/release.py"} <= tools  # fmt: skip


def test_the_check_notices_a_shipped_module_reaching_a_tool(tmp_path: Path) -> None:
    module = PACKAGE / "runtime" / "model.py"
    assert not any(i.startswith("pybridge.devtools") for i in _imports(module))
    fake = tmp_path / "pybridge" / "runtime" / "fake.py"
    fake.parent.mkdir(parents=True)
    fake.write_text("from ..devtools.bench import run\n", "utf-8")
    assert "pybridge.devtools.bench.run" in _imports(fake, tmp_path)


@pytest.mark.parametrize("module, doc", sorted(PUBLIC.items()))
def test_each_public_import_path_exists_and_the_architecture_doc_lists_it(
    module: str, doc: str
) -> None:
    importlib.import_module(module)
    listed = ARCHITECTURE.read_text("utf-8")
    table = listed[listed.index("## What ships, what is public") :]
    table = table[: table.index("\n## ")]
    row = next((line for line in table.splitlines() if f"`{module}`" in line), "")
    assert row.endswith(f"| {doc} |"), row
    assert (ROOT / doc).exists()
