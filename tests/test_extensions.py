"""The extension API (pybridge.extend, pybridge.extensions): a game's own words, loaded per
protocol, refused when missing, failing cleanly, answered through the choice flow, saved with
the battle, and reloaded by the stdio server without a restart."""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path
from typing import Any

import pytest

from pybridge import extensions
from pybridge.examples import demo_battle, rivals_battle
from pybridge.runtime.vocabulary import BUILTIN, CounterSpec, VocabularyError
from pybridge.service import new_protocol

ROOT = Path(__file__).resolve().parents[1]
DEMO = ROOT / "demo_project"
MECHANICS = DEMO / "extensions" / "mechanics.py"
LIBRARY = json.loads((DEMO / "cards" / "mechanics.json").read_text("utf-8"))

BROKEN = '''
"""An extension whose action raises."""
from pybridge.extend import Message, Words

NAME, VERSION = "broken", "0.1"


def register(words: Words) -> None:
    words.action("Explode", doc="raises", describe=Message("broken.explode", "explode"),
                 apply=explode)


def explode(node, ctx):
    ctx.battle.energy = 0  # changed before it raises: the request must still change nothing
    raise RuntimeError("the fuse was wet")
'''


def call(protocol: Any, **request: Any) -> dict[str, Any]:
    answer: dict[str, Any] = json.loads(protocol.call(json.dumps(request)))
    return answer


def mechanics_protocol() -> Any:
    return new_protocol(words=extensions.load([MECHANICS]).words)


def battle_with(hand: list[str], **changes: Any) -> dict[str, Any]:
    battle = demo_battle()
    battle["piles"] = {"hand": [{"id": f"h{i}", "card": c} for i, c in enumerate(hand)],
                       "draw": [{"id": f"d{i}", "card": "strike"} for i in range(4)]}  # fmt: skip
    battle.update(changes)
    return battle


BOMB = {"id": "bomb", "name": "Bomb", "type": "skill", "rarity": "common", "cost": 1,
        "target": "None", "text": "Explode.",
        "behavior": {"start": "boom", "nodes": [{"id": "boom", "type": "Explode"}]}}  # fmt: skip


def bomb_battle() -> dict[str, Any]:
    battle = battle_with([], cards=[*demo_battle()["cards"], BOMB])
    battle["piles"]["hand"] = [{"id": "b1", "card": "bomb"}]
    return battle


def write(path: Path, text: str) -> Path:
    path.write_text(textwrap.dedent(text), "utf-8")
    return path


def test_two_protocols_in_one_process_read_with_their_own_extensions() -> None:
    extended, plain = mechanics_protocol(), new_protocol()
    opened = call(extended, op="open", battle=battle_with(["foresight"]), libraries=[LIBRARY])
    assert opened["ok"], opened
    refused = call(plain, op="open", battle=battle_with(["foresight"]), libraries=[LIBRARY])
    assert not refused["ok"]
    message = refused["error"]["message"]
    for named in ('"Scry"', "card 'foresight'", "node 'look'", "'demo_mechanics' 1.0"):
        assert named in message, message
    assert "Scry" not in [t["name"] for t in call(plain, op="schema")["result"]["node_types"]]


def test_a_word_without_its_extension_is_refused_even_when_the_document_names_none() -> None:
    library = {k: v for k, v in LIBRARY.items() if k != "extensions"}
    refused = call(new_protocol(), op="open", battle=battle_with([]), libraries=[library])
    assert refused["error"]["code"] == "invalid_field"
    message = refused["error"]["message"]
    assert "card 'foresight'" in message and "node 'look'" in message and "Scry" in message


def test_the_schema_lists_extension_words_with_their_extension_and_the_api_version() -> None:
    schema = call(mechanics_protocol(), op="schema")["result"]
    assert schema["api_version"] == "1.4"
    assert schema["extensions"] == [{"name": "demo_mechanics", "version": "1.0",
                                     "doc": "The demo's own mechanics: Scry, a Combo counter "
                                     "and Drain."}]  # fmt: skip
    scry = next(t for t in schema["node_types"] if t["name"] == "Scry")
    assert scry["extension"] == "demo_mechanics" and scry["asks"] == ["scry"]
    assert scry["describe"]["id"] == "demo.scry.describe" and scry["group"] == "actions"
    drain = next(t for t in schema["node_types"] if t["name"] == "Drain")
    assert drain["source"]["choices"][0] == "Self" and drain["acts_on"] == "units"
    scried = next(e for e in schema["events"] if e["type"] == "scried")
    assert scried["narration"]["params"] == {"looked": "number", "kept": "number",
                                             "discarded": "number"}  # fmt: skip
    assert scried["visibility"] == "owner" and scried["extension"] == "demo_mechanics"
    assert scried["field_types"] == {"node": "string", "looked": "int", "kept": "int",
                                     "discarded": "int"}  # fmt: skip
    assert [c["name"] for c in schema["choices"]] == ["scry"]
    combo = schema["counters"][0]
    assert combo["name"] == "combo" and combo["label"]["english"] == "Combo"
    measures = {m["name"]: m for m in schema["conditions"]["measures"]}
    assert measures["combo"]["extension"] == "demo_mechanics"
    condition = next(t for t in schema["node_types"] if t["name"] == "Condition")
    assert "combo" in next(f for f in condition["fields"] if f["name"] == "measure")["choices"]


def test_an_extension_that_raises_fails_the_request_naming_it_and_changes_nothing(
    tmp_path: Path,
) -> None:
    words = extensions.load([write(tmp_path / "broken.py", BROKEN)], debug=True).words
    protocol = new_protocol(words=words)
    battle = bomb_battle()
    session = call(protocol, op="open", battle=battle)["result"]["session"]
    before = call(protocol, op="state", session=session)
    failed = call(protocol, op="play", session=session, card="b1")
    error = failed["error"]
    assert error["code"] == "extension_error"
    for named in ("'broken'", "node 'boom'", "action 'Explode'", "card 'bomb'", "the fuse was wet"):
        assert error["message"].count(named) == 1, error  # each named once
    assert error["where"] == "cards.bomb.nodes.boom"  # a path of ids, as every where is a path
    assert 'broken.py", line' in error["extension_traceback"]
    assert call(protocol, op="state", session=session) == before


def test_a_traceback_is_given_only_in_a_debug_build(tmp_path: Path) -> None:
    words = extensions.load([write(tmp_path / "broken.py", BROKEN)], debug=False).words
    protocol = new_protocol(words=words)
    battle = bomb_battle()
    session = call(protocol, op="open", battle=battle)["result"]["session"]
    error = call(protocol, op="play", session=session, card="b1")["error"]
    assert error["code"] == "extension_error" and "extension_traceback" not in error


def test_a_word_is_declared_once(tmp_path: Path) -> None:
    clash = write(
        tmp_path / "clash.py",
        """
        from pybridge.extend import Message
        def register(words):
            words.counter("Heal", doc="x", label=Message("x", "X"))
            words.action("Heal", doc="x", describe=Message("x", "x"), apply=lambda n, c: None)
        """,
    )
    with pytest.raises(extensions.ExtensionError, match="node type 'Heal' is already declared "
                       "by the built-in vocabulary"):  # fmt: skip
        extensions.load([clash])
    twice = write(
        tmp_path / "twice.py",
        """
        from pybridge.extend import Message
        NAME = "demo_mechanics"
        def register(words):
            pass
        """,
    )
    with pytest.raises(extensions.ExtensionError, match="already loaded"):
        extensions.load([MECHANICS, twice])


def test_declarations_are_checked(tmp_path: Path) -> None:
    bad = write(
        tmp_path / "bad.py",
        """
        from pybridge.extend import Message
        def register(words):
            words.action("Zap", doc="x", describe=Message("x", "zap"), apply=lambda n, c: None,
                         events=("zapped",))
        """,
    )
    with pytest.raises(extensions.ExtensionError, match="emits 'zapped': declare the event"):
        extensions.load([bad])
    no_register = write(tmp_path / "nothing.py", "X = 1\n")
    with pytest.raises(extensions.ExtensionError, match="defines register"):
        extensions.load([no_register])
    with pytest.raises(extensions.ExtensionError, match="no such extension file"):
        extensions.load([tmp_path / "missing.py"])


def test_the_built_in_vocabulary_is_sealed() -> None:
    with pytest.raises(VocabularyError, match="sealed"):
        BUILTIN.add_counter(CounterSpec("gold", "gold"))
    loaded = extensions.load([MECHANICS]).words
    assert "Scry" in loaded.node_types and "Scry" not in BUILTIN.node_types


def test_an_action_choice_on_the_cut_is_answered_under_its_entry_and_node() -> None:
    protocol = mechanics_protocol()
    battle = battle_with(["foresight", "strike"], rules="strict")
    session = call(protocol, op="open", battle=battle, libraries=[LIBRARY])["result"]["session"]
    assert call(protocol, op="activate", session=session, card="h0")["ok"]
    asked = call(protocol, op="resolve", session=session)["error"]
    assert asked["code"] == "choice_needed" and asked["choice"]["key"] == "e1.look"
    assert asked["choice"]["entry"] == "e1" and asked["choice"]["options"] == ["d0", "d1", "d2"]
    wrong = call(protocol, op="resolve", session=session, choices={"e1.nope": []})["error"]
    assert wrong["code"] == "target_not_allowed" and wrong["where"] == "choices.e1.nope"
    done = call(protocol, op="resolve", session=session, choices={"e1.look": ["d1"]})
    assert done["ok"], done
    made = next(e for e in done["result"]["events"] if e["type"] == "choice_made")
    assert made["entry"] == "e1" and made["chosen"] == ["d1"]
    draw = [c["id"] for c in done["result"]["state"]["piles"]["draw"]]
    assert draw == ["d1", "d3"]


def test_a_battle_with_counters_saves_and_opens_again() -> None:
    protocol = mechanics_protocol()
    battle = battle_with(["flurry", "flurry"])
    session = call(protocol, op="open", battle=battle, libraries=[LIBRARY])["result"]["session"]
    state = call(protocol, op="play", session=session, card="h0", target="orc")["result"]["state"]
    assert state["counters"] == {"combo": 1} and state["extensions"] == {"demo_mechanics": "1.0"}
    reopened = call(protocol, op="open", battle=state)
    assert reopened["ok"], reopened
    assert reopened["result"]["state"] == state
    refused = call(new_protocol(), op="open", battle=state)["error"]
    assert "'demo_mechanics' 1.0" in refused["message"] and "not loaded" in refused["message"]
    out_of_range = {**state, "counters": {"combo": -1}}
    assert (
        call(protocol, op="open", battle=out_of_range)["error"]["where"] == "battle.counters.combo"
    )
    unknown = {**state, "counters": {"gold": 1}}
    assert "gold" in call(protocol, op="open", battle=unknown)["error"]["message"]


def test_a_built_in_battle_is_saved_exactly_as_before() -> None:
    state = call(mechanics_protocol(), op="open", battle=demo_battle())["result"]["state"]
    assert "counters" not in state and "extensions" not in state


def test_the_project_names_its_extensions_once() -> None:
    assert extensions.project_extensions(DEMO) == [MECHANICS]


def test_an_extension_path_must_stay_inside_the_project(tmp_path: Path) -> None:
    (tmp_path / "project.godot").write_text('[pybridge]\n\nextensions=PackedStringArray('
                                            '"res://../outside.py")\n')  # fmt: skip
    with pytest.raises(extensions.ExtensionError, match="inside the project"):
        extensions.project_extensions(tmp_path)


def test_the_demo_extension_imports_only_the_standard_library_and_the_extension_api() -> None:
    tree = ast.parse(MECHANICS.read_text("utf-8"))
    imported = {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
    imported |= {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
    assert imported <= {"__future__", "pybridge.extend"}, imported


def test_the_stdio_server_loads_the_project_and_reloads_a_changed_extension(
    tmp_path: Path,
) -> None:
    extension = write(
        tmp_path / "gold.py",
        """
        from pybridge.extend import Message
        NAME, VERSION = "gold", "1"
        def register(words):
            words.counter("gold", doc="gold", label=Message("gold", "Gold"))
        """,
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    server = subprocess.Popen([sys.executable, "-m", "pybridge.cli", "serve", "--stdio",
                               "--extension", str(extension)], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, env=env)  # fmt: skip
    assert server.stdin is not None and server.stdout is not None

    def ask(request: dict[str, Any]) -> dict[str, Any]:
        assert server.stdin is not None and server.stdout is not None
        server.stdin.write(json.dumps(request).encode() + b"\n")
        server.stdin.flush()
        answer: dict[str, Any] = json.loads(server.stdout.readline())
        return answer

    try:
        counters = ask({"op": "schema"})["result"]["counters"]
        assert [c["name"] for c in counters] == ["gold"]
        stamp = extension.stat().st_mtime_ns
        extension.write_text(extension.read_text().replace('"gold", doc', '"silver", doc'))
        while extension.stat().st_mtime_ns == stamp:  # a coarse clock: touch until it moves
            time.sleep(0.01)
            extension.touch()
        counters = ask({"op": "schema"})["result"]["counters"]
        assert [c["name"] for c in counters] == ["silver"]
    finally:
        server.stdin.close()
        server.wait(timeout=30)


def test_pick_answers_an_asked_choice_for_the_pickers() -> None:
    protocol = mechanics_protocol()
    session = call(protocol, op="open", battle=battle_with(["foresight"]),
                   libraries=[LIBRARY])["result"]["session"]  # fmt: skip
    asked = call(protocol, op="play", session=session, card="h0")["error"]["choice"]
    first = call(protocol, op="pick", session=session, choice=asked, chosen=[])["result"]
    assert first["candidates"] == ["d0", "d1", "d2"] and first["can_confirm"]
    assert first["count"] == 3 and first["needed"] == 0 and first["ordered"]
    later = call(protocol, op="pick", session=session, choice=asked, chosen=["d2", "d0"])
    assert later["result"]["candidates"] == ["d1"] and not later["result"]["complete"]
    refused = call(protocol, op="pick", session=session, choice=asked, chosen=["d3"])
    assert refused["error"]["code"] == "not_a_candidate"
    played = call(protocol, op="play", session=session, card="h0",
                  choices={asked["key"]: later["result"]["chosen"]})  # fmt: skip
    assert played["ok"], played


SEER = """
from pybridge.extend import Field, Message, Words

NAME, VERSION = "seer", "1"


def register(words: Words) -> None:
    words.choice("peek", doc="cards to keep on top", ordered=True,
                 prompt=Message("seer.peek", "Keep any on top."))
    words.action("Peek", doc="looks at the top cards", apply=peek, asks=("peek",),
                 fields=[Field("count", "integer", "how many", 2, minimum=1, maximum=5)],
                 describe=Message("seer.peek.describe", "peek at {count}",
                                  {"count": "number"}))


def peek(node, ctx):
    draw = ctx.battle.piles["draw"]
    looked = draw[: node.fields["count"]]
    kept = ctx.ask("peek", node.id, looked)
    del draw[: len(looked)]
    draw[:0] = kept
"""

_PEEK = {"start": "look", "nodes": [{"id": "look", "type": "Peek", "count": 2}]}


def seer_protocol(tmp_path: Path) -> Any:
    return new_protocol(words=extensions.load([write(tmp_path / "seer.py", SEER)]).words)


def test_a_card_asks_the_player_and_an_enemy_reaction_takes_its_default(tmp_path: Path) -> None:
    protocol = seer_protocol(tmp_path)
    battle = battle_with([])
    battle["statuses"] = [{"id": "seer", "name": "Seer", "hooks": {"attacked": _PEEK}}]
    battle["cards"] = [
        *battle["cards"],
        {
            "id": "look_hit",
            "name": "Look",
            "type": "attack",
            "rarity": "common",
            "cost": 0,
            "target": "SingleEnemy",
            "text": "x",
            "behavior": {
                "start": "look",
                "nodes": [
                    {"id": "look", "type": "Peek", "count": 1, "next": "hit"},
                    {"id": "hit", "type": "DealDamage", "amount": 1, "source": "Opponent"},
                ],
            },
        },
    ]
    for unit in battle["units"]:
        if unit["id"] == "orc":
            unit["statuses"] = {"seer": 1}
    battle["piles"]["hand"] = [{"id": "h0", "card": "look_hit"}]
    session = call(protocol, op="open", battle=battle)["result"]["session"]
    first = call(protocol, op="play", session=session, card="h0", target="orc")["error"]
    assert first["choice"]["key"] == "look"
    done = call(protocol, op="play", session=session, card="h0", target="orc",
                choices={"look": ["d0"]})  # fmt: skip
    assert done["ok"], done
    made = [e["chosen"] for e in done["result"]["events"] if e["type"] == "choice_made"]
    assert made == [["d0"], ["d0", "d1"]]  # the orc's own look keeps what it sees


def test_a_choice_at_a_turn_boundary_is_answered_in_end_turn(tmp_path: Path) -> None:
    protocol = seer_protocol(tmp_path)
    battle = battle_with([])
    battle["statuses"] = [{"id": "seer", "name": "Seer", "hooks": {"turn_end": _PEEK}}]
    battle["units"][0]["statuses"] = {"seer": 1}
    knight = battle["units"][0]["id"]
    session = call(protocol, op="open", battle=battle)["result"]["session"]
    asked = call(protocol, op="end_turn", session=session)["error"]["choice"]
    assert asked["key"] == f"{knight}.seer.look"
    done = call(protocol, op="end_turn", session=session, choices={asked["key"]: ["d1"]})
    assert done["ok"], done


def test_an_enemy_that_asks_takes_the_default_answer(tmp_path: Path) -> None:
    protocol = seer_protocol(tmp_path)
    battle = battle_with([])
    battle["statuses"] = [{"id": "seer", "name": "Seer", "hooks": {"turn_start": _PEEK}}]
    for unit in battle["units"]:
        if unit["team"] == "enemy":
            unit["statuses"] = {"seer": 1}
    session = call(protocol, op="open", battle=battle)["result"]["session"]
    done = call(protocol, op="end_turn", session=session)
    assert done["ok"], done
    assert any(e["type"] == "choice_made" for e in done["result"]["events"])


def test_combo_counts_a_card_activated_on_the_cut() -> None:
    protocol = mechanics_protocol()
    battle = battle_with(["flurry", "flurry"], rules="strict")
    session = call(protocol, op="open", battle=battle, libraries=[LIBRARY])["result"]["session"]
    state = call(protocol, op="activate", session=session, card="h0", target="orc")
    assert state["result"]["state"]["counters"] == {"combo": 1}


BAD = """
from pybridge.extend import Message, Words

NAME = "bad"


def register(words: Words) -> None:
    words.counter("gold", doc="gold", label=Message("bad.gold", "Gold"))
    words.action("Odd", doc="does odd things", apply=odd, describe=Message("bad.odd", "odd"))
    words.unit_sort("weird", doc="no number", key=lambda unit: None)


def odd(node, ctx):
    how = ctx.battle.seed % 10
    if how == 1:
        ctx.ask("nope", node.id, [object()])
    if how == 2:
        raise SystemExit(3)
    if how == 3:
        ctx.add_to_counter("gold", 1.5)
    if how == 4:
        ctx.emit("counter", node=node.id, counter="gold", before={1}, after=2)
"""


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_odd_extension_code_is_an_extension_error_never_a_crash(tmp_path: Path, seed: int) -> None:
    protocol = new_protocol(words=extensions.load([write(tmp_path / "bad.py", BAD)]).words)
    card = {**BOMB, "behavior": {"start": "o", "nodes": [{"id": "o", "type": "Odd"}]}}
    battle = bomb_battle()
    battle["cards"] = [*demo_battle()["cards"], card]
    battle["seed"] = seed
    session = call(protocol, op="open", battle=battle)["result"]["session"]
    before = call(protocol, op="state", session=session)
    failed = call(protocol, op="play", session=session, card="b1")
    assert failed["error"]["code"] == "extension_error", failed
    assert call(protocol, op="state", session=session) == before


def test_a_sort_key_that_gives_no_number_is_an_extension_error(tmp_path: Path) -> None:
    protocol = new_protocol(words=extensions.load([write(tmp_path / "bad.py", BAD)]).words)
    card = {
        **BOMB,
        "target": "None",
        "behavior": {
            "start": "hit",
            "nodes": [
                {"id": "all", "type": "UnitSource", "source": "AllEnemies"},
                {"id": "by", "type": "Sort", "by": "weird", "ports": {"input": "all"}},
                {"id": "hit", "type": "DealDamage", "amount": 1, "ports": {"target": "by"}},
            ],
        },
    }
    battle = bomb_battle()
    battle["cards"] = [*demo_battle()["cards"], card]
    session = call(protocol, op="open", battle=battle)["result"]["session"]
    failed = call(protocol, op="play", session=session, card="b1")
    assert failed["error"]["code"] == "extension_error"
    assert (
        "'weird'" in failed["error"]["message"]
        and "expected a number" in failed["error"]["message"]
    )


@pytest.mark.parametrize(("text", "why"), [
    ('NAME = "Gold Rush!"\ndef register(words):\n    pass\n', "NAME 'Gold Rush!'"),
    ('VERSION = "' + "9" * 40 + '"\ndef register(words):\n    pass\n', "VERSION"),
    ("def register(words):\n    undefined_name\n", "NameError"),
    ("from pybridge.extend import Message\ndef register(words):\n"
     "    words.event('e', doc='x', fields=('a',), narration=Message('m', 'Hi {who}'))\n",
     "must be a plain placeholder"),
    ("from pybridge.extend import Message\ndef register(words):\n"
     "    words.event('e', doc='x', fields=('a',), narration=Message('m', '{a:>99}', "
     "{'a': 'number'}))\n", "must be a plain placeholder"),
    ("from pybridge.extend import Message\ndef register(words):\n"
     "    words.event('e', doc='x', fields=('a',), narration=Message('m', 'x {', {}))\n",
     "message 'm'"),
])  # fmt: skip
def test_an_extension_that_cannot_be_taken_is_refused_naming_its_file(
    tmp_path: Path, text: str, why: str
) -> None:
    path = write(tmp_path / "odd.py", text)
    with pytest.raises(extensions.ExtensionError, match=str(path.name)) as refused:
        extensions.load([path])
    assert why in str(refused.value)


def test_a_play_may_answer_a_choice_of_many_options() -> None:
    protocol = mechanics_protocol()
    battle = battle_with(["foresight"])
    battle["piles"]["draw"] = [{"id": f"d{i}", "card": "strike"} for i in range(30)]
    library = json.loads(json.dumps(LIBRARY))
    library["cards"][0]["behavior"]["nodes"][0]["count"] = 10
    session = call(protocol, op="open", battle=battle, libraries=[library])["result"]["session"]
    done = call(protocol, op="play", session=session, card="h0",
                choices={"look": [f"d{i}" for i in range(10)]})  # fmt: skip
    assert done["ok"], done


def test_the_sandbox_and_the_library_text_read_extension_words() -> None:
    protocol = mechanics_protocol()
    sandbox = call(protocol, op="sandbox", card=LIBRARY["cards"][0])
    assert sandbox["ok"], sandbox
    assert sandbox["result"]["battle"]["extensions"] == {"demo_mechanics": "1.0"}
    assert call(protocol, op="open", battle=sandbox["result"]["battle"])["ok"]
    text = json.loads(call(protocol, op="library_text", document=LIBRARY)["result"]["text"])
    assert text["extensions"] == LIBRARY["extensions"]
    assert text["cards"][0]["behavior"] == LIBRARY["cards"][0]["behavior"]


CHOOSY = """
from pybridge.extend import Field, Message


def register(words):
    words.action("Toss", doc="tosses a coin", apply=lambda node, ctx: None,
                 describe=Message("toss", "toss"),
                 fields=[Field("side", "choice", "which face", "heads", ("heads", "tails"),
                               choice_docs=DOCS)])
"""


def test_each_choice_of_a_field_is_described_in_the_schema(tmp_path: Path) -> None:
    docs = '{"heads": "the face with the crown", "tails": "the face with the value"}'
    path = write(tmp_path / "choosy.py", CHOOSY.replace("DOCS", docs))
    schema = call(new_protocol(words=extensions.load([path]).words), op="schema")["result"]
    toss = next(t for t in schema["node_types"] if t["name"] == "Toss")
    side = next(f for f in toss["fields"] if f["name"] == "side")
    assert side["choice_docs"] == {"heads": "the face with the crown",
                                   "tails": "the face with the value"}  # fmt: skip
    half = write(tmp_path / "half.py", CHOOSY.replace("DOCS", '{"heads": "the crown"}'))
    with pytest.raises(extensions.ExtensionError, match=r"describe every choice \(tails\)"):
        extensions.load([half])


def test_an_extension_action_reads_the_piles_of_its_hosts_side() -> None:
    """Scry (the demo's extension) played by the enemy side of a two-sided battle looks at
    the enemy's draw pile through ``ctx.piles``, and leaves the player's alone."""
    protocol = mechanics_protocol()
    battle = rivals_battle()
    enemy = next(s for s in battle["sides"] if s["team"] == "enemy")
    enemy["piles"]["hand"].append({"id": "vs", "card": "foresight"})
    library = json.loads((DEMO / "cards" / "mechanics.json").read_text("utf-8"))
    opened = call(protocol, op="open", battle=battle, libraries=[library])
    session = opened["result"]["session"]
    turn = call(protocol, op="end_turn", session=session)
    sides = {s["team"]: s for s in turn["result"]["state"]["sides"]}
    enemy_draw = [c["id"] for c in sides["enemy"]["piles"]["draw"]]
    player_draw = sides["player"]["piles"]["draw"]
    assert len(enemy_draw) >= 2 and enemy_draw[0].startswith("v")
    asked = call(protocol, op="play", session=session, card="vs")
    assert asked["error"]["code"] == "choice_needed", "the enemy side is a player: it is asked"
    assert asked["error"]["choice"]["options"] == enemy_draw[:3]
    kept = enemy_draw[1]
    played = call(protocol, op="play", session=session, card="vs", choices={"look": [kept]})
    assert played["ok"], played
    sides = {s["team"]: s for s in played["result"]["state"]["sides"]}
    assert sides["enemy"]["piles"]["draw"][0]["id"] == kept
    assert sides["player"]["piles"]["draw"] == player_draw


@pytest.mark.parametrize(("files", "why"), [
    ("missing", "no such extension file"),
    ("syntax", "SyntaxError"),
    ("raises", "RuntimeError: no gold today"),
    ("project", "no project.godot"),
])  # fmt: skip
def test_the_stdio_server_refuses_an_extension_that_does_not_load_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], files: str, why: str
) -> None:
    from pybridge import cli

    write(tmp_path / "syntax.py", "def register(words:\n")
    write(tmp_path / "raises.py", "def register(words):\n    raise RuntimeError('no gold today')\n")
    given = ["--project", str(tmp_path)] if files == "project" else [
        "--extension", str(tmp_path / f"{files}.py")]  # fmt: skip
    assert cli.main(["serve", "--stdio", *given]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.startswith("pybridge serve: ") and why in err, err
    assert err.count("\n") == 1 and "Traceback" not in err
