"""What the runtime checks of an extension's code while it runs: the events its actions emit
(declared, listed, fields and types, the request's event limit) and what its unit sources
return; each fault is an ``extension_error`` naming the extension, the word, the card and the
node, with ``where`` their path, and the battle is left as it was."""

from __future__ import annotations

import json
import textwrap
import time
import warnings
from pathlib import Path
from typing import Any

import pytest

from pybridge import extensions
from pybridge.runtime.guards import MAX_EVENTS
from pybridge.service import new_protocol

EMITTERS = '''
"""Actions that emit events, well and badly."""
from pybridge.extend import Message

NAME, VERSION = "emitters", "1.0"


def register(words):
    words.event("tick", doc="a tick", fields=("node", "n"),
                field_types={"node": "string", "n": "int"},
                narration=Message("emitters.tick", "Tick {n}.", {"n": "number"}))
    words.event("haunt", doc="a unit is haunted", fields=("node", "unit"),
                narration=Message("emitters.haunt", "{unit} is haunted.", {"unit": "unit"}))
    act = words.action
    act("Good", doc="x", apply=lambda n, c: c.emit("tick", node=n.id, n=1), events=("tick",),
        describe=Message("emitters.good", "good"))
    act("Undeclared", doc="x", apply=lambda n, c: c.emit("nosuch", node=n.id),
        describe=Message("emitters.undeclared", "undeclared"))
    act("Missing", doc="x", apply=lambda n, c: c.emit("tick", node=n.id), events=("tick",),
        describe=Message("emitters.missing", "missing"))
    act("WrongType", doc="x", apply=lambda n, c: c.emit("tick", node=n.id, n="three"),
        events=("tick",), describe=Message("emitters.wrong", "wrong"))
    act("Extra", doc="x", apply=lambda n, c: c.emit("tick", node=n.id, n=1, z=2),
        events=("tick",), describe=Message("emitters.extra", "extra"))
    act("Unlisted", doc="x", apply=lambda n, c: c.emit("tick", node=n.id, n=1),
        describe=Message("emitters.unlisted", "unlisted"))
    act("ListUnit", doc="x", apply=lambda n, c: c.emit("haunt", node=n.id, unit=["imp"]),
        events=("haunt",), describe=Message("emitters.list", "list"))
    act("Flood", doc="x", apply=flood, events=("tick",),
        describe=Message("emitters.flood", "flood"))
    act("Pour", doc="x", apply=pour, events=("tick",), describe=Message("emitters.pour", "pour"))
    words.unit_source("Ids", doc="x", resolve=lambda ctx: ["imp"], side="opponents")
    words.unit_source("Nothing", doc="x", resolve=lambda ctx: None, side="opponents")
    words.unit_source("Copies", doc="x", side="opponents",
                      resolve=lambda ctx: [u.clone() for u in ctx.battle.units])


def flood(node, ctx):
    for i in range(10**6):  # far past the event limit: refused as soon as it is passed
        ctx.emit("tick", node=node.id, n=i)


def pour(node, ctx):
    for i in range(LIMIT + 1):  # past the limit by another door than ctx.emit
        ctx.events.append({"type": "tick", "node": node.id, "n": i})
'''.replace("LIMIT", str(MAX_EVENTS))


@pytest.fixture(scope="module")
def words(tmp_path_factory: pytest.TempPathFactory) -> Any:
    path = tmp_path_factory.mktemp("guards") / "emitters.py"
    path.write_text(textwrap.dedent(EMITTERS), "utf-8")
    return extensions.load([path]).words


def call(protocol: Any, **request: Any) -> dict[str, Any]:
    answer: dict[str, Any] = json.loads(protocol.call(json.dumps(request)))
    return answer


def play(words: Any, node: dict[str, Any]) -> tuple[dict[str, Any], bool]:
    """Play a card whose Behavior is ``node``: the answer, and whether the battle changed."""
    battle = {
        "format": "pybridge/battle@2", "active_player": "hero",
        "units": [{"id": "hero", "name": "Hero", "team": "player", "hp": 30, "max_hp": 30},
                  {"id": "imp", "name": "Imp", "team": "enemy", "hp": 10, "max_hp": 10}],
        "cards": [{"id": "k", "name": "K", "cost": 1, "target": "None", "text": "",
                   "behavior": {"start": "b", "nodes": [node]}}],
        "piles": {"hand": [{"id": "c1", "card": "k"}]},
    }  # fmt: skip
    protocol = new_protocol(words=words)
    call(protocol, op="open", battle=battle)
    before = call(protocol, op="state", session="s1")
    answer = call(protocol, op="play", session="s1", card="c1")
    return answer, call(protocol, op="state", session="s1") != before


def test_a_well_declared_event_is_emitted(words: Any) -> None:
    answer, _ = play(words, {"id": "b", "type": "Good"})
    assert {"type": "tick", "node": "b", "n": 1} in answer["result"]["events"]
    assert "Tick 1." in [line["text"] for line in answer["result"]["log"]]


@pytest.mark.parametrize(
    ("action", "named"),
    [
        ("Undeclared", ["'nosuch'", "no declared event type"]),
        ("Missing", ["'tick'", "tick.n: missing"]),
        ("WrongType", ["'tick'", "tick.n: 'three' is no int"]),
        ("Extra", ["'tick'", "tick.z: not a field"]),
        ("Unlisted", ["'tick'", "its events= does not list"]),
        ("ListUnit", ["'haunt'", "haunt.unit: ['imp'] is no string"]),
    ],
)
def test_an_event_that_does_not_fit_its_declaration_is_refused(
    words: Any, action: str, named: list[str]
) -> None:
    answer, changed = play(words, {"id": "b", "type": action})
    error = answer["error"]
    assert error["code"] == "extension_error", error
    for part in ("extension 'emitters'", f"action {action!r}", "node 'b'", "card 'k'", *named):
        assert part in error["message"], (part, error)
    assert error["where"] == "cards.k.nodes.b"
    assert not changed


@pytest.mark.parametrize("action", ["Flood", "Pour"])
def test_the_event_limit_holds_for_an_extension_s_events(words: Any, action: str) -> None:
    started = time.perf_counter()
    answer, changed = play(words, {"id": "b", "type": action})
    assert answer["error"]["code"] == "work_limit", answer["error"]
    assert f"more than {MAX_EVENTS} events" in answer["error"]["message"]
    assert not changed
    assert time.perf_counter() - started < 10  # refused at the limit, not after a million


@pytest.mark.parametrize(
    ("source", "returned"), [("Ids", "['imp']"), ("Nothing", "None"), ("Copies", "[Unit(")]
)
def test_a_unit_source_must_return_the_battle_s_units(
    words: Any, source: str, returned: str
) -> None:
    answer, changed = play(words, {"id": "b", "type": "DealDamage", "amount": 3, "source": source})
    error = answer["error"]
    assert error["code"] == "extension_error", error
    for part in ("extension 'emitters'", f"source {source!r}", "node 'b'", "card 'k'", returned,
                 "expected a list of the battle's units"):  # fmt: skip
        assert part in error["message"], (part, error)
    assert error["where"] == "cards.k.nodes.b"
    assert not changed


def test_the_built_in_actions_emit_unchecked(words: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    from pybridge.runtime import guards

    def refuse(*args: Any) -> None:
        raise AssertionError("a built-in action's event was checked")

    monkeypatch.setattr(guards.Emitting, "add", refuse)
    answer, changed = play(words, {"id": "b", "type": "DealDamage", "amount": 3,
                                   "source": "AllOpponents"})  # fmt: skip
    assert answer["ok"] and changed, answer


@pytest.mark.parametrize(
    ("loaded", "wanted", "opens"),
    [
        ("1.0", "1.0", True),
        ("1.2", "1.0", True),  # a minor version only adds words
        ("1.10", "1.9", True),  # numbers, not text
        ("1.0", "1.2", False),  # the document uses a newer minor version
        ("2.0", "1.0", False),  # a major version may change or take words away
        ("0.1", "0.2", False),
        ("beta", "beta", True),
        ("beta", "1.0", False),  # not dotted numbers: the same version only
    ],
)
def test_a_document_names_the_extension_version_it_opens_with(
    tmp_path: Path, loaded: str, wanted: str, opens: bool
) -> None:
    path = tmp_path / "versioned.py"
    path.write_text(f'"""v"""\nNAME, VERSION = "versioned", {loaded!r}\n'
                    "def register(words):\n    pass\n", "utf-8")  # fmt: skip
    protocol = new_protocol(words=extensions.load([path]).words)
    library = {"format": "pybridge/cards@1", "extensions": {"versioned": wanted}, "cards": []}
    battle = {
        "format": "pybridge/battle@2",
        "active_player": "hero",
        "units": [{"id": "hero", "name": "Hero", "team": "player", "hp": 3, "max_hp": 3}],
    }
    answer = call(protocol, op="open", battle=battle, libraries=[library])
    assert answer["ok"] is opens, answer
    if not opens:
        error = answer["error"]
        assert (error["code"], error["where"]) == (
            "invalid_field",
            "libraries[0].extensions.versioned",
        )
        assert f"needs extension 'versioned' {wanted}, and {loaded} is loaded" in error["message"]


@pytest.mark.parametrize(
    ("body", "said"),
    [
        ('words.condition("c", doc="x")', "condition 'c': give one of test and compile "
         "(neither given)"),
        ('words.condition("c", doc="x", test=f, compile=f)', "(both given)"),
        ('words.unit_sort("k", doc="x")', "sort key 'k': give one of key and compile "
         "(neither given)"),
        ('words.unit_source("X", doc="x", resolve=f, side="enemies")', "unit source 'X': side "
         "'enemies' is not one of 'self', 'allies', 'opponents', 'all', 'player_team', "
         "'enemy_team', 'submitted'"),
        ('words.choice("c", doc="x", prompt=Message("p.c", "C"), visibility="all")',
         "choice 'c': visibility 'all' is not one of 'owner', 'everyone', 'no_one'"),
    ],
)  # fmt: skip
def test_a_declaration_that_is_refused_says_what_it_takes(
    tmp_path: Path, body: str, said: str
) -> None:
    path = tmp_path / "declared.py"
    path.write_text('"""d"""\nfrom pybridge.extend import Message\nNAME, VERSION = "d", "1"\n'
                    f"def f(*args):\n    return True\ndef register(words):\n    {body}\n",
                    "utf-8")  # fmt: skip
    with pytest.raises(extensions.ExtensionError) as refused:
        extensions.load([path])
    assert said in str(refused.value)


def test_an_extension_without_name_or_version_loads_with_a_warning(tmp_path: Path) -> None:
    path = tmp_path / "plain.py"
    path.write_text('"""p"""\ndef register(words):\n    pass\n', "utf-8")
    with pytest.warns(extensions.ExtensionWarning, match="no NAME and no VERSION") as said:
        loaded = extensions.load([path])
    assert "named 'plain', version '0'" in str(said[0].message)
    assert loaded.words.extensions["plain"].version == "0"
    path.write_text('"""p"""\nNAME, VERSION = "plain", "1"\ndef register(words):\n    pass\n')
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        extensions.load([path])
