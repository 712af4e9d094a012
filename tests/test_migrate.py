"""Documents that age well: every document the project has written opens with today's runtime.

tests/data/golden/ holds the battles and the library as they were at commit 84cdf1c: the two
example battles (pybridge/examples/), the fuzzer's seed battles (pybridge/devtools/fuzz_seeds.py and
fuzz_cases.py of that commit, written out as JSON) and the simulation's card library. Each
opens through ``Protocol().call`` and is dumped in the current format version.
"""

from __future__ import annotations

import copy
import itertools
import json
from pathlib import Path
from typing import Any

import pytest

from pybridge.extend import Message, Words
from pybridge.protocol import Protocol
from pybridge.runtime import migrate
from pybridge.runtime.definitions import LIBRARY_FORMAT, load_library
from pybridge.runtime.document import BATTLE_FORMAT, dump_battle, load_battle
from pybridge.runtime.errors import FormatError
from pybridge.runtime.vocabulary import BUILTIN, Extension

GOLDEN = Path(__file__).parent / "data" / "golden"
BATTLES = sorted(GOLDEN.glob("*_battle_84cdf1c.json"))
LIBRARY = GOLDEN / "simulate_cards_84cdf1c.json"


def _read(path: Path) -> Any:
    return json.loads(path.read_text("utf-8"))


def _call(protocol: Protocol, request: dict[str, Any]) -> dict[str, Any]:
    answer: dict[str, Any] = json.loads(protocol.call(json.dumps(request)))
    assert answer["ok"], answer
    return answer


def test_the_golden_set_holds_the_examples_and_the_fuzz_seeds() -> None:
    names = {p.name.removesuffix("_battle_84cdf1c.json") for p in BATTLES}
    assert names == {"demo", "duel", "fuzz_strict", "fuzz_law", "fuzz_loss", "fuzz_bounds"}
    assert all(_read(p)["format"] == "pybridge/battle@1" for p in BATTLES)
    assert _read(LIBRARY)["format"] == "pybridge/cards@1"


@pytest.mark.parametrize("path", BATTLES, ids=lambda p: p.stem)
def test_every_golden_battle_opens_and_dumps_in_the_current_version(path: Path) -> None:
    protocol = Protocol()
    document = _read(path)
    opened = _call(protocol, {"op": "open", "id": 1, "battle": document})
    session = opened["result"]["session"]
    state = _call(protocol, {"op": "state", "session": session})["result"]["state"]
    assert state["format"] == BATTLE_FORMAT == "pybridge/battle@2"
    # The old document opens as the same battle it would be had it named the current version.
    retagged = _call(protocol, {"op": "open", "battle": {**document, "format": BATTLE_FORMAT}})
    same = _call(protocol, {"op": "state", "session": retagged["result"]["session"]})
    assert same["result"]["state"] == state
    assert dump_battle(load_battle(document))["format"] == BATTLE_FORMAT
    again = _call(protocol, {"op": "open", "battle": state})["result"]["session"]
    assert _call(protocol, {"op": "state", "session": again})["result"]["state"] == state


def test_the_golden_library_opens_beside_a_battle_that_names_its_cards() -> None:
    library = _read(LIBRARY)
    battle = _read(GOLDEN / "fuzz_strict_battle_84cdf1c.json")
    battle["cards"] = []  # its Strike is the library's (the two differ)
    card = next(c["id"] for c in library["cards"] if c["id"] != "strike")
    battle["piles"]["hand"].append({"id": "old", "card": card})
    protocol = Protocol()
    opened = _call(protocol, {"op": "open", "battle": battle, "libraries": [library]})
    session = opened["result"]["session"]
    _call(protocol, {"op": "targets", "session": session, "card": "old"})
    assert set(load_library(library)) == {c["id"] for c in library["cards"]}


def test_every_older_version_has_a_step_to_the_next() -> None:
    for family in (migrate.BATTLE, migrate.LIBRARY):
        known = migrate.versions(family)
        assert known[-1] == migrate.CURRENT[family]
        for older, newer in itertools.pairwise(known):
            assert migrate.STEPS[older].after == newer
    assert migrate.versions(migrate.BATTLE) == ("pybridge/battle@1", "pybridge/battle@2")
    assert migrate.versions(migrate.LIBRARY) == (LIBRARY_FORMAT,)


def test_a_step_changes_nothing_it_was_given() -> None:
    document = _read(GOLDEN / "fuzz_law_battle_84cdf1c.json")
    before = copy.deepcopy(document)
    migrated = migrate.to_current(document, migrate.BATTLE)
    assert document == before
    assert isinstance(migrated, dict) and migrated["format"] == BATTLE_FORMAT
    assert {k: v for k, v in migrated.items() if k != "format"} == {
        k: v for k, v in before.items() if k != "format"
    }


def test_an_at_1_battle_with_counters_and_extensions_keeps_them() -> None:
    # Written between the Vocabulary (cd85190) and @2: an @1 document holding both keys.
    words = BUILTIN.extended()
    extension = Extension("combo_ext", "1.2")
    words.begin(extension)
    Words(words, extension).counter("combo", doc="plays this turn", label=Message("c", "Combo"))
    words.end()
    protocol = Protocol(words=words.seal())
    document = _read(GOLDEN / "fuzz_strict_battle_84cdf1c.json")
    document.update(counters={"combo": 2}, extensions={"combo_ext": "1.2"})
    session = _call(protocol, {"op": "open", "battle": document})["result"]["session"]
    state = _call(protocol, {"op": "state", "session": session})["result"]["state"]
    assert state["format"] == BATTLE_FORMAT and state["counters"] == {"combo": 2}


@pytest.mark.parametrize(
    ("document", "expected"),
    [
        ({"format": "pybridge/battle@9", "units": [], "active_player": "a"},
         "expected one of pybridge/battle@1, pybridge/battle@2"),
        ({"format": "pybridge/cards@1", "units": [], "active_player": "a"},
         "expected one of pybridge/battle@1, pybridge/battle@2"),
        ({"format": 1, "units": [], "active_player": "a"}, "got 1"),
    ],
)  # fmt: skip
def test_a_version_with_no_step_is_refused_by_the_reader(document: Any, expected: str) -> None:
    with pytest.raises(FormatError, match=expected) as caught:
        load_battle(document)
    assert caught.value.where == "format"


def test_a_library_names_only_library_versions() -> None:
    with pytest.raises(FormatError, match="expected one of pybridge/cards@1"):
        load_library({"format": "pybridge/battle@1", "cards": []})
    assert migrate.to_current([1], migrate.LIBRARY) == [1]
