"""Run order for the two test workers: the longest modules start first.

With ``--dist loadfile`` each module runs whole on one worker, handed out in collection order.
Collected alphabetically, the real-engine modules (minutes each) came last, and one worker
finished them alone while the other idled; started first, the short modules fill in beside them.
"""

from __future__ import annotations

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
