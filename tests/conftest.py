"""Run order for the two test workers: the longest modules start first.

With ``--dist loadfile`` each module runs whole on one worker, handed out in collection order.
Collected alphabetically, the real-engine modules (minutes each) came last, and one worker
finished them alone while the other idled; started first, the short modules fill in beside them.
"""

from __future__ import annotations

import os

import pytest

#: The slowest modules, slowest first (about 220, 110, 85, 75, 60 and 50 s on two cores).
FIRST = (
    "test_demo_e2e.py",
    "test_duel_e2e.py",
    "test_workshop_e2e.py",
    "test_gdscript.py",
    "test_properties.py",
    "test_addon_guide.py",
)


def _rank(item: pytest.Item) -> int:
    name = item.path.name
    return FIRST.index(name) if name in FIRST else len(FIRST)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    items.sort(key=_rank)  # stable: every other module keeps its place


def pytest_configure(config: pytest.Config) -> None:
    """With PYBRIDGE_COMPILED=1 (``./run test`` sets it for its second pass over the runtime's
    tests, with the compiled build first on PYTHONPATH) every compiled module must come from
    its extension module: a run that would silently test the pure source stops here."""
    from pybridge.devtools.compiled import TEST_VARIABLE, loaded_pure

    if os.environ.get(TEST_VARIABLE) != "1":
        return
    pure = loaded_pure()
    if pure:
        raise pytest.UsageError(
            f"{TEST_VARIABLE}=1, but these modules were imported from source: {', '.join(pure)}"
            " (python -m pybridge.devtools.compiled build; build/compiled first on PYTHONPATH)"
        )


def pytest_report_header(config: pytest.Config) -> str | None:
    from pybridge.devtools.compiled import TEST_VARIABLE, compiled_modules

    if os.environ.get(TEST_VARIABLE) != "1":
        return None
    import pybridge.runtime

    return f"compiled runtime: {len(compiled_modules())} modules, {pybridge.runtime.__file__}"
