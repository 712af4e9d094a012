"""The built-in vocabulary is declared through the public extension API and nothing else.

Every module of ``pybridge.words`` may import the standard library, ``pybridge.extend`` and
its own siblings, and may read no private name (``_index``, ``_value_``) of anything it did not
define: that is what a game's extension may do, so whatever the built-ins do, a game can.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

from pybridge import words
from pybridge.runtime.vocabulary import builtin

WORDS = Path(words.__file__).resolve().parent
MODULES = sorted(WORDS.glob("*.py"))
PUBLIC_API = "pybridge.extend"


def reaches_past_the_api(source: str) -> list[str]:
    """What a module's source imports or reads beyond the extension API, line by line."""
    tree = ast.parse(source)
    found: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if not _allowed(alias.name):
                    found.append(f"line {node.lineno}: import {alias.name}")
        elif isinstance(node, ast.ImportFrom):
            if node.level == 0 and not _allowed(node.module or ""):
                found.append(f"line {node.lineno}: from {node.module} import ...")
            elif node.level > 1:
                found.append(f"line {node.lineno}: a relative import out of the package")
        elif isinstance(node, ast.Attribute) and node.attr.startswith("_"):
            if not (node.attr.startswith("__") and node.attr.endswith("__")):
                found.append(f"line {node.lineno}: reads the private name .{node.attr}")
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and \
                node.func.id in _REFLECTION:  # fmt: skip
            found.append(f"line {node.lineno}: calls {node.func.id}()")
    return found


_REFLECTION = ("getattr", "__import__", "eval", "exec", "globals", "vars")


def _allowed(module: str) -> bool:
    top = module.partition(".")[0]
    return module == PUBLIC_API or (top in sys.stdlib_module_names and top != "importlib")


def test_the_built_in_words_have_modules_to_check() -> None:
    assert {m.stem for m in MODULES} >= {"__init__", "actions", "sources", "conditions",
                                         "filters", "events"}  # fmt: skip


@pytest.mark.parametrize("module", MODULES, ids=lambda m: m.name)
def test_a_built_in_vocabulary_module_reaches_nothing_past_the_extension_api(
    module: Path,
) -> None:
    assert reaches_past_the_api(module.read_text("utf-8")) == []


@pytest.mark.parametrize(
    "line",
    [
        "from pybridge.runtime.model import Unit",
        "import pybridge.runtime.effects",
        "from ..runtime import modes",
        "from pybridge import protocol",
        "import importlib",
        "index = ctx.battle._index",
        "handler = getattr(ctx, 'battle')",
    ],
)
def test_the_check_notices_a_reach_past_the_api(line: str) -> None:
    assert reaches_past_the_api(f"from pybridge.extend import Words\n{line}\n") != []


def test_every_built_in_word_comes_from_a_registration_through_the_api() -> None:
    """Every built-in action, source, test, measure, key and event in the built-in vocabulary
    was declared by ``pybridge.words`` through ``Words`` (the grammar's nodes aside): a
    vocabulary made from the grammar alone lacks each of them."""
    from pybridge.runtime.nodes import CALL, GRAMMAR

    vocabulary = builtin()
    grammar = {spec.name for spec in (*GRAMMAR, CALL)}
    actions = [name for name in vocabulary.node_types if name not in grammar]
    assert len(actions) == 15 and "DealDamage" in actions and "Reveal" in actions
    for name in actions:
        spec = vocabulary.node_types[name]
        assert spec.apply is not None and spec.apply.__module__ == "pybridge.words.actions"
        assert vocabulary.describe[name].id.startswith("pybridge.describe.")
    for table in ("unit_sources", "card_sources", "condition_tests", "measures", "unit_filters",
                  "card_filters", "unit_sorts", "card_sorts", "events"):  # fmt: skip
        assert getattr(vocabulary, table), table
        assert all(owner == "" for (t, _), owner in vocabulary.owners.items() if t == table)


def test_the_built_in_words_loaded_as_an_extension_play_a_battle_exactly_alike() -> None:
    """The same declarations registered as a game's extension (guarded, as every extension
    is) make a vocabulary that plays the demo battle to its end with the same events: the
    extension path is no second-class copy of the built-in one."""
    from pybridge.autoplay import play_out
    from pybridge.examples import demo_battle
    from pybridge.extend import Words
    from pybridge.runtime.document import load_battle
    from pybridge.runtime.nodes import CALL, GRAMMAR
    from pybridge.runtime.vocabulary import Extension, Vocabulary

    as_extension = Vocabulary()
    for spec in GRAMMAR:
        as_extension.add_node_type(spec)
    copy = Extension("copy_of_the_built_ins", "1.0")
    as_extension.begin(copy)
    words.register(Words(as_extension, copy))
    as_extension.end()
    as_extension.add_node_type(CALL)
    as_extension.seal()
    assert as_extension.node_types["DealDamage"].extension == "copy_of_the_built_ins"

    def played(vocabulary: Vocabulary) -> list[tuple[str, list[dict[str, object]]]]:
        battle = load_battle(demo_battle(), words=vocabulary)
        return list(play_out(battle, max_turns=30))

    built_in, extension = played(builtin()), played(as_extension)
    assert len(built_in) > 10 and any(kind == "play" for kind, _ in built_in)
    assert extension == built_in
