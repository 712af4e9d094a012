"""One concept, one type: no two classes of the package share a name, and no enum repeats
another's members (issue 23 merged three enums for a unit's side, two classes named Reach and
an authoring Host beside the runtime's HostKind; this keeps such twins from coming back).

The package is read as source, not imported, so a class defined in any module (or inside a
function) is seen, and the optional dependencies of some tooling modules are not needed.
"""

from __future__ import annotations

import ast
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "pybridge"
_ENUM_BASES = frozenset({"Enum", "StrEnum", "IntEnum", "Flag", "IntFlag"})
#: Enums whose members are all members of another, each with the reason they stay apart.
DISTINCT_SUBSETS = {
    # Where a unit is kept (a dead unit stays on the field) against the states an authoring
    # chain can hold, which tell the dead apart because sources and actions do.
    ("pybridge.runtime.model.Zone", "pybridge.authoring.analysis.State"),
}


@dataclass(frozen=True)
class Found:
    name: str
    module: str
    line: int
    members: frozenset[str] | None  # an enum's member names and values; None for a class

    @property
    def where(self) -> str:
        return f"{self.module}.{self.name} (line {self.line})"


def _module(path: Path, root: Path) -> str:
    return ".".join(path.relative_to(root.parent).with_suffix("").parts)


def _members(node: ast.ClassDef) -> frozenset[str] | None:
    """An enum's members, by name and value (``SELF = "self"`` gives both), or None when
    ``node`` is no enum."""
    bases = {b.id if isinstance(b, ast.Name) else getattr(b, "attr", "") for b in node.bases}
    if not bases & _ENUM_BASES:
        return None
    found: set[str] = set()
    for statement in node.body:
        if isinstance(statement, ast.Assign) and len(statement.targets) == 1:
            target = statement.targets[0]
            if isinstance(target, ast.Name) and not target.id.startswith("_"):
                found.add(target.id.lower())
                if isinstance(statement.value, ast.Constant):
                    found.add(str(statement.value.value).lower())
    return frozenset(found)


def classes(root: Path = PACKAGE) -> list[Found]:
    found: list[Found] = []
    for path in sorted(root.rglob("*.py")):
        tree = ast.parse(path.read_text("utf-8"), str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef):
                found.append(Found(node.name, _module(path, root), node.lineno, _members(node)))
    return found


def shared_names(found: list[Found]) -> dict[str, list[str]]:
    by_name: dict[str, list[str]] = defaultdict(list)
    for item in found:
        by_name[item.name].append(item.where)
    return {name: places for name, places in by_name.items() if len(places) > 1}


def repeated_members(found: list[Found]) -> list[str]:
    """Pairs of enums where one's members are all the other's (the same set, or a subset
    that is not known to be a different concept)."""
    enums = [item for item in found if item.members]
    out: list[str] = []
    for a in enums:
        for b in enums:
            assert a.members is not None and b.members is not None
            if a is b or not a.members <= b.members:
                continue
            if a.members == b.members and a.where > b.where:
                continue  # the same pair, said once
            if (f"{a.module}.{a.name}", f"{b.module}.{b.name}") in DISTINCT_SUBSETS:
                continue
            verb = "are those of" if a.members == b.members else "are all in"
            out.append(f"{a.where}'s members {verb} {b.where}'s")
    return out


def test_no_two_classes_share_a_name() -> None:
    assert shared_names(classes()) == {}


def test_no_enum_repeats_another() -> None:
    assert repeated_members(classes()) == []


def test_every_known_distinct_pair_still_exists() -> None:
    """An allowance for a pair that is gone would let a new twin in under its names."""
    names = {f"{item.module}.{item.name}" for item in classes() if item.members}
    for pair in DISTINCT_SUBSETS:
        assert set(pair) <= names, pair


# -- the checks themselves find twins ----------------------------------------------------------
_TWINS = {
    "runtime/sources.py": 'from enum import StrEnum\n\nclass Side(StrEnum):\n    SELF = "self"\n',
    "authoring/analysis.py": "import enum\n\nclass Side(enum.StrEnum):\n    OWN = 'own'\n",
    "runtime/context.py": (
        "from enum import StrEnum\n\nclass HostKind(StrEnum):\n"
        '    CARD = "card"\n    MOVE = "move"\n    REACTION = "reaction"\n'
    ),
    "authoring/lint.py": (
        'from enum import Enum\n\nclass Host(Enum):\n    CARD = "card"\n    MOVE = "move"\n'
    ),
    "bench/plan.py": "def make():\n    class Plan:\n        pass\n",
    "simulate/batches.py": "class Plan:\n    pass\n",
}


@pytest.fixture
def twins(tmp_path: Path) -> list[Found]:
    for name, text in _TWINS.items():
        path = tmp_path / "pybridge" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, "utf-8")
    return classes(tmp_path / "pybridge")


def test_the_checks_name_twins(twins: list[Found]) -> None:
    shared = shared_names(twins)
    assert sorted(shared) == ["Plan", "Side"]
    assert shared["Plan"] == ["pybridge.bench.plan.Plan (line 2)",
                              "pybridge.simulate.batches.Plan (line 1)"]  # fmt: skip
    assert repeated_members(twins) == [
        "pybridge.authoring.lint.Host (line 3)'s members are all in "
        "pybridge.runtime.context.HostKind (line 3)'s"
    ]
