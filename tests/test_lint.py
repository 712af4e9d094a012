"""The authoring contract checker: one broken card per code, clean cards stay clean, the CLI."""

from __future__ import annotations

import doctest
import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from pybridge.authoring import describe as describe_module
from pybridge.authoring import lint as lint_module
from pybridge.authoring.lint import CODES, Severity, lint_card, lint_document
from pybridge.authoring.wording import editor_terms
from pybridge.examples import demo_battle
from pybridge.runtime import load_library
from pybridge.runtime.modes import TargetMode
from pybridge.runtime.sources import UNIT_SOURCES
from pybridge.service import new_protocol

from .builders import first_flow_node

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data"
BROKEN = DATA / "broken_cards.json"
BROKEN_BATTLE = DATA / "broken_battle.json"
CLEAN = DATA / "clean_cards.json"

#: card id -> the one diagnostic it must give: (code, node, field, path).
BROKEN_CARDS: dict[str, tuple[str, str | None, str, str]] = {
    "pb101_aoe_hits_one": ("PB101", "hit", "source", "cards[0].behavior.nodes[0].source"),
    "pb101_aoe_takes_one": ("PB101", "one", "count", "cards[1].behavior.nodes[1].count"),
    "pb102_selection_unread": ("PB102", None, "target", "cards[2].target"),
    "pb103_random_pick_unread": ("PB103", None, "target", "cards[3].target"),
    "pb104_ally_through_opponent": ("PB104", "heal", "source", "cards[4].behavior.nodes[0].source"),
    "pb105_any_unit_through_opponent": (
        "PB105",
        "burn",
        "source",
        "cards[5].behavior.nodes[0].source",
    ),
    "pb106_target_without_selection": (
        "PB106",
        "hit",
        "source",
        "cards[6].behavior.nodes[0].source",
    ),
    "pb107_opponent_without_selection": (
        "PB107",
        "hit",
        "source",
        "cards[7].behavior.nodes[0].source",
    ),
    "pb108_self_hits_enemies": ("PB108", "hit", "source", "cards[8].behavior.nodes[1].source"),
    "pb109_all_allies_only_self": ("PB109", None, "target", "cards[9].target"),
    "pb110_self_mode_heals_all": ("PB110", "heal", "source", "cards[10].behavior.nodes[0].source"),
    "pb112_revive_the_living": ("PB112", "revive", "source", "cards[11].behavior.nodes[0].source"),
    "pb113_damage_the_fallen": ("PB113", "hit", "source", "cards[12].behavior.nodes[0].source"),
    "pb114_source_ignored": ("PB114", "hit", "source", "cards[13].behavior.nodes[3].source"),
    "pb115_leftover_node": ("PB115", "foes", "id", "cards[14].behavior.nodes[0].id"),
    "pb116_empty_behavior": ("PB116", None, "behavior", "cards[15].behavior"),
    "pb118_playable_reads_target": (
        "PB118",
        "picked",
        "source",
        "cards[16].behavior.nodes[0].source",
    ),
    "pb119_playable_reads_opponent": (
        "PB119",
        "foe",
        "source",
        "cards[17].behavior.nodes[0].source",
    ),
    "pb120_multi_target_through_opponent": (
        "PB120",
        "hit",
        "source",
        "cards[18].behavior.nodes[0].source",
    ),
    "pb121_random_read_twice": ("PB121", "one", "id", "cards[19].behavior.nodes[1].id"),
    "pb201_editor_words": ("PB201", None, "text", "cards[20].text"),
    "pb202_text_promises_all": ("PB202", None, "text", "cards[21].text"),
    "pb203_selected_without_click": ("PB203", None, "text", "cards[22].text"),
    "pb204_another_ally_may_be_you": ("PB204", None, "text", "cards[23].text"),
    "pb205_random_in_name_only": ("PB205", None, "text", "cards[24].text"),
    "pb206_random_untold": ("PB206", None, "text", "cards[25].text"),
    "pb207_no_text": ("PB207", None, "text", "cards[26].text"),
    "pb208_wrong_number": ("PB208", None, "text", "cards[27].text"),
    "pb209_keyword_untold": ("PB209", None, "keywords", "cards[28].keywords"),
    "pb210_restriction_untold": ("PB210", None, "text", "cards[29].text"),
    "pb301_may_find_nothing": (
        "PB301",
        "toss",
        "ports.target",
        "cards[30].behavior.nodes[3].ports.target",
    ),
    "pb302_always_empty": ("PB302", "none", "count", "cards[31].behavior.nodes[1].count"),
}

#: (kind, id) -> the one diagnostic it must give in broken_battle.json.
BROKEN_BATTLE_DEFINITIONS: dict[tuple[str, str], tuple[str, str | None, str, str]] = {
    ("card", "pb117_misspelled_status"): (
        "PB117",
        "singe",
        "status",
        "cards[1].behavior.nodes[0].status",
    ),
    ("status", "pb106_status_reads_target"): (
        "PB106",
        "zap",
        "source",
        "statuses[1].hooks.turn_start.nodes[0].source",
    ),
    ("status", "pb107_status_reads_opponent"): (
        "PB107",
        "jab",
        "source",
        "statuses[2].hooks.turn_end.nodes[0].source",
    ),
    ("status", "pb116_empty_hook"): ("PB116", None, "hooks.turn_end", "statuses[3].hooks.turn_end"),
    ("move", "pb111_huddle"): ("PB111", "armor", "source", "moves[0].behavior.nodes[0].source"),
}


def load(path: Path) -> Any:
    return json.loads(path.read_text("utf-8"))


def by_definition(
    document: Any, file: str | None = None
) -> dict[tuple[str, str | None], list[Any]]:
    out: dict[tuple[str, str | None], list[Any]] = {}
    for d in lint_document(document, file):
        out.setdefault((d.kind, d.id), []).append(d)
    return out


# -- one broken card per code ------------------------------------------------------------------
@pytest.mark.parametrize("card_id", list(BROKEN_CARDS))
def test_each_broken_card_gives_exactly_its_code_at_its_place(card_id: str) -> None:
    found = by_definition(load(BROKEN), "broken_cards.json").get(("card", card_id), [])
    code, node, field, path = BROKEN_CARDS[card_id]
    assert [(d.code, d.node, d.field, d.path) for d in found] == [(code, node, field, path)]
    (diagnostic,) = found
    assert diagnostic.severity is CODES[code].severity
    assert diagnostic.file == "broken_cards.json" and diagnostic.message and diagnostic.fix


def test_the_broken_library_holds_exactly_the_listed_cards() -> None:
    assert [c["id"] for c in load(BROKEN)["cards"]] == list(BROKEN_CARDS)


@pytest.mark.parametrize("key", list(BROKEN_BATTLE_DEFINITIONS))
def test_moves_statuses_and_battle_checks(key: tuple[str, str]) -> None:
    found = by_definition(load(BROKEN_BATTLE), "broken_battle.json").get(key, [])
    code, node, field, path = BROKEN_BATTLE_DEFINITIONS[key]
    assert [(d.code, d.node, d.field, d.path) for d in found] == [(code, node, field, path)]


def test_the_broken_battle_gives_nothing_else() -> None:
    found = by_definition(load(BROKEN_BATTLE))
    assert set(found) == set(BROKEN_BATTLE_DEFINITIONS)


def test_every_code_has_a_broken_example_and_a_documented_entry() -> None:
    tested = {c for c, *_ in BROKEN_CARDS.values()} | {
        c for c, *_ in BROKEN_BATTLE_DEFINITIONS.values()
    }
    tested.add("PB122")  # a cycle of calls refuses its library: tests/test_calls.py
    tested.add("PB211")  # a game source declared without words: tests/test_source_words.py
    assert tested | {"PB001", "PB002"} == set(CODES)
    doc = (ROOT / "docs" / "lint.md").read_text("utf-8")
    documented = dict(re.findall(r"^\*\*(PB\d{3})\*\* \((error|warning|info)\)", doc, re.M))
    assert documented == {code: c.severity.value for code, c in CODES.items()}


# -- clean cards stay clean --------------------------------------------------------------------
def test_the_demo_battle_gives_no_diagnostic() -> None:
    assert lint_document(demo_battle()) == []


def test_the_clean_library_gives_no_diagnostic() -> None:
    assert lint_document(load(CLEAN)) == []


def test_the_mode_source_table_in_the_docs_is_what_the_checker_says() -> None:
    doc = (ROOT / "docs" / "lint.md").read_text("utf-8")
    header = "| source | " + " | ".join(m.value for m in TargetMode) + " |"
    assert header in doc
    rows = doc[doc.index(header) :].splitlines()[2 : 2 + len(UNIT_SOURCES)]
    for row in rows:
        source, *cells = [cell.strip().strip("*") for cell in row.strip("|").split("|")]
        for mode, cell in zip(TargetMode, cells, strict=True):
            card = {
                "id": "c",
                "name": "C",
                "target": mode.value,
                "behavior": {
                    "start": "a",
                    "nodes": [{"id": "a", "type": "Heal", "amount": 5, "source": source}],
                },
            }
            (definition,) = load_library({"format": "pybridge/cards@1", "cards": [card]}).values()
            codes = sorted({d.code for d in lint_card(definition) if d.code.startswith("PB1")})
            assert (" ".join(codes) or "ok") == cell, (source, mode.value)
    assert {r.strip("|").split("|")[0].strip() for r in rows} == set(UNIT_SOURCES)


# -- the rules in more detail ------------------------------------------------------------------
def card(
    target: str, *nodes: dict[str, Any], text: str = "", start: str | None = None, **extra: Any
) -> Any:
    """A one-card library's card; the flow starts at ``start`` or the first flow node."""
    first = first_flow_node(nodes)
    behavior = {"start": start or first, "nodes": list(nodes)}
    document = {
        "format": "pybridge/cards@1",
        "cards": [
            {"id": "c", "name": "C", "target": target, "text": text, "behavior": behavior, **extra}
        ],
    }
    (definition,) = load_library(document).values()
    return definition


def codes(definition: Any) -> list[str]:
    return [d.code for d in lint_card(definition)]


HAND_ATTACK = (
    {"id": "hand", "type": "CardSource", "source": "HandPile"},
    {"id": "attacks", "type": "Filter", "where": {"type": "attack"}, "ports": {"input": "hand"}},
    {"id": "first", "type": "Take", "count": 1, "ports": {"input": "attacks"}},
)
TOSS = {"id": "toss", "type": "Discard", "ports": {"target": "first"}}


def test_a_possibly_empty_chain_is_fine_when_guarded_or_told() -> None:
    unguarded = card("None", *HAND_ATTACK, TOSS, text="Discard the leftmost Attack in your hand.")
    assert codes(unguarded) == ["PB301"]
    some = {"id": "some", "type": "Condition", "test": "not_empty", "ports": {"input": "attacks"}}
    gate = {"id": "gate", "type": "Gate", "ports": {"condition": "some"}, "next": "toss"}
    guarded = card(
        "None",
        *HAND_ATTACK,
        some,
        gate,
        TOSS,
        start="gate",
        text="If there is an Attack in your hand, discard the leftmost Attack in your hand.",
    )
    assert codes(guarded) == []
    playable = card(
        "None",
        *HAND_ATTACK,
        some,
        TOSS,
        text="Discard the leftmost Attack in your hand.",
        playable_if=[{"condition": "some", "reason": "No Attack in hand."}],
    )
    assert codes(playable) == []
    told = card("None", *HAND_ATTACK, TOSS, text="Discard an Attack of your hand if you have one.")
    assert codes(told) == []
    energy = {
        "id": "rich",
        "type": "Condition",
        "test": "compare",
        "measure": "energy",
        "op": ">",
        "value": 0,
    }
    unrelated = {"id": "gate", "type": "Gate", "ports": {"condition": "rich"}, "next": "toss"}
    assert codes(
        card(
            "None",
            *HAND_ATTACK,
            energy,
            unrelated,
            TOSS,
            start="gate",
            text="Discard the leftmost Attack in your hand.",
        )
    ) == ["PB301"]


def test_chains_that_are_always_empty() -> None:
    foes = {"id": "foes", "type": "UnitSource", "source": "AllOpponents"}
    hit = {"id": "hit", "type": "DealDamage", "amount": 5, "ports": {"target": "f"}}
    for where, field in (({"team": "player"}, "where.team"), ({"alive": False}, "where.alive")):
        odd = card(
            "None",
            foes,
            {"id": "f", "type": "Filter", "where": where, "ports": {"input": "foes"}},
            hit,
            text="Deal 5 damage.",
        )
        assert [(d.code, d.node, d.field) for d in lint_card(odd)] == [("PB302", "f", field)]
    foe = {"id": "foes", "type": "UnitSource", "source": "Opponent"}
    second = card(
        "SingleEnemy",
        foe,
        {"id": "f", "type": "PickElement", "index": 1, "ports": {"input": "foes"}},
        hit,
        text="Deal 5 damage.",
    )
    assert [(d.code, d.node, d.field) for d in lint_card(second)] == [("PB302", "f", "index")]
    gone = {"id": "foes", "type": "UnitSource", "source": "AllDeadAllies"}
    alive = {"id": "f", "type": "Filter", "where": {"alive": True}, "ports": {"input": "foes"}}
    some = {"id": "some", "type": "Condition", "test": "not_empty", "ports": {"input": "f"}}
    gate = {"id": "gate", "type": "Gate", "ports": {"condition": "some"}, "next": "draw"}
    draw = {"id": "draw", "type": "Draw", "count": 1}
    never = card(
        "None",
        gone,
        alive,
        some,
        gate,
        draw,
        start="gate",
        text="If a fallen ally is alive, draw 1 card from your draw pile.",
    )
    assert [(d.code, d.node, d.field) for d in lint_card(never)] == [("PB302", "f", "where.alive")]


def test_ranges_a_card_can_cover_beside_its_selection() -> None:
    splash = card(
        "SingleEnemy",
        {"id": "hit", "type": "DealDamage", "amount": 8, "source": "Opponent", "next": "splash"},
        {"id": "splash", "type": "DealDamage", "amount": 2, "source": "AllOpponents"},
        text="Deal 8 damage to the selected enemy and 2 damage to all enemies.",
    )
    assert codes(splash) == []
    aoe_plus_one = card(
        "AllEnemies",
        {"id": "all", "type": "DealDamage", "amount": 3, "source": "AllOpponents", "next": "one"},
        {"id": "one", "type": "DealDamage", "amount": 3, "source": "Opponent"},
        text="Deal 3 damage to all enemies, then 3 more to the first enemy.",
    )
    assert codes(aoe_plus_one) == ["PB107"]  # covered, but the extra hit is a hidden choice
    everyone = card(
        "AllEnemies",
        {"id": "all", "type": "DealDamage", "amount": 3, "source": "AllUnits"},
        text="Deal 3 damage to all units.",
    )
    assert codes(everyone) == ["PB110"]


def test_editor_vocabulary_is_found_and_gameplay_words_are_not() -> None:
    found = {
        text: [t.word for t in editor_terms(text)]
        for text in (
            "Deal 8 to Opponent.",
            "Apply armor to Self.",
            "Move 2 card refs.",
            "Add status to unit collection.",
            "DealDamage to AllOpponents and draw from DrawPile.",
            "Heal the Target for 3.",
            "A SingleEnemy card.",
        )
    }
    assert found == {
        "Deal 8 to Opponent.": ["Opponent"],
        "Apply armor to Self.": ["Self"],
        "Move 2 card refs.": ["card refs"],
        "Add status to unit collection.": ["unit collection"],
        "DealDamage to AllOpponents and draw from DrawPile.": [
            "DealDamage",
            "AllOpponents",
            "DrawPile",
        ],
        "Heal the Target for 3.": ["Target"],
        "A SingleEnemy card.": ["SingleEnemy"],
    }
    for fine in (
        "Target enemy takes 5 damage.",
        "Self-Heal restores 3 health.",
        "Your opponent draws a card.",
        "Exhaust.",
        "Deal 6 damage to all enemies.",
        "Give another ally 6 Armor.",
    ):
        assert editor_terms(fine) == [], fine


def test_a_card_checked_without_a_document_gets_relative_paths() -> None:
    (definition,) = load_library(
        {
            "format": "pybridge/cards@1",
            "cards": [
                {
                    "id": "q",
                    "name": "Q",
                    "target": "AllEnemies",
                    "text": "Deal 8 damage to all enemies.",
                    "behavior": {
                        "start": "hit",
                        "nodes": [
                            {"id": "hit", "type": "DealDamage", "amount": 8, "source": "Opponent"}
                        ],
                    },
                }
            ],
        }
    ).values()
    (diagnostic,) = lint_card(definition)
    assert diagnostic.path == "behavior.nodes[0].source" and diagnostic.file is None
    assert diagnostic.location() == "card q, node hit, field source"
    assert diagnostic.to_json() == {
        "code": "PB101",
        "severity": "error",
        "message": diagnostic.message,
        "fix": diagnostic.fix,
        "file": None,
        "kind": "card",
        "id": "q",
        "node": "hit",
        "field": "source",
        "path": "behavior.nodes[0].source",
    }


def test_a_document_the_loader_refuses_is_one_diagnostic() -> None:
    bad = {
        "format": "pybridge/battle@1",
        "active_player": "a",
        "units": [{"id": "a", "name": "A", "team": "player", "hp": -1, "max_hp": 3}],
    }
    (d,) = lint_document(bad, "bad.json")
    assert (d.code, d.severity, d.kind, d.path, d.file) == (
        "PB002",
        Severity.ERROR,
        "document",
        "units[0].hp",
        "bad.json",
    )
    assert "got -1" in d.message
    assert [d.code for d in lint_document([1, 2])] == ["PB002"]
    assert [d.code for d in lint_document({"format": "pybridge/cards@1"})] == ["PB002"]


def test_the_modules_examples_run() -> None:
    for module in (lint_module, describe_module):
        assert doctest.testmod(module).failed == 0


# -- the protocol ------------------------------------------------------------------------------
def test_lint_op_returns_diagnostics_and_refuses_a_missing_document() -> None:
    proto = new_protocol()
    got = json.loads(proto.call(json.dumps({"op": "lint", "id": 1, "document": load(BROKEN)})))
    assert got["ok"] and len(got["result"]["diagnostics"]) == len(BROKEN_CARDS)
    assert got["result"]["summary"] == {"error": 13, "warning": 16, "info": 3}
    clean = json.loads(proto.call(json.dumps({"op": "lint", "document": demo_battle()})))
    assert clean["result"] == {"diagnostics": [], "summary": {"error": 0, "warning": 0, "info": 0}}
    missing = json.loads(proto.call('{"op": "lint"}'))
    assert missing["error"]["code"] == "invalid_field" and missing["error"]["where"] == "document"


# -- the command -------------------------------------------------------------------------------
def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "pybridge.cli", *args],
        capture_output=True,
        text=True,
        check=False,
        cwd=ROOT,
    )


def test_lint_command_exit_status_and_readable_output() -> None:
    broken = run_cli("lint", "tests/data/broken_cards.json")
    assert broken.returncode == 1
    lines = broken.stdout.splitlines()
    assert lines[0].startswith(
        "tests/data/broken_cards.json:cards[0].behavior.nodes[0].source: error PB101: "
    )
    assert lines[1] == "    at card pb101_aoe_hits_one, node hit, field source"
    assert lines[2].startswith("    fix: read every enemy through AllOpponents")
    assert lines[-1] == "13 errors, 16 warnings, 3 info in 1 file"
    clean = run_cli("lint", "pybridge/examples", "tests/data/clean_cards.json")
    assert clean.returncode == 0, clean.stdout
    examples = len(list((ROOT / "pybridge" / "examples").glob("*.json")))
    assert examples >= 3
    assert clean.stdout == f"0 errors, 0 warnings, 0 info in {examples + 1} files\n"


def test_lint_command_json_format_and_minimum_severity() -> None:
    run = run_cli("lint", "--format", "json", "tests/data/broken_battle.json")
    assert run.returncode == 1  # PB106 is an error
    out = json.loads(run.stdout)
    assert out["files"] == ["tests/data/broken_battle.json"]
    assert out["summary"] == {"error": 1, "warning": 4, "info": 0, "files": 1}
    assert {d["code"] for d in out["diagnostics"]} == {"PB106", "PB107", "PB111", "PB116", "PB117"}
    quiet = run_cli("lint", "--min-severity", "error", "tests/data/broken_cards.json")
    assert quiet.returncode == 1
    shown = re.findall(r": (error|warning|info) PB\d{3}:", quiet.stdout)
    assert shown == ["error"] * 13


def test_lint_command_directories_and_unreadable_files(tmp_path: Path) -> None:
    (tmp_path / "nested").mkdir()
    (tmp_path / "nested" / "cards.json").write_text(BROKEN.read_text("utf-8"), "utf-8")
    (tmp_path / "package.json").write_text('{"name": "not ours"}', "utf-8")
    (tmp_path / "notes.json").write_text("{not json", "utf-8")
    found = run_cli("lint", str(tmp_path))
    assert found.returncode == 1  # the broken library, found recursively; other JSON skipped
    assert found.stdout.splitlines()[-1] == "13 errors, 16 warnings, 3 info in 1 file"
    garbage = run_cli("lint", str(tmp_path / "notes.json"))
    assert garbage.returncode == 2 and "PB001" in garbage.stdout
    missing = run_cli("lint", str(tmp_path / "missing.json"))
    assert missing.returncode == 2 and "error PB001: cannot read the file" in missing.stdout
    refused = run_cli("lint", str(tmp_path / "package.json"))
    assert refused.returncode == 1 and "PB002" in refused.stdout
    usage = run_cli("lint")
    assert usage.returncode == 2


def test_a_battle_is_checked_with_the_card_libraries_checked_beside_it_or_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The demo's party battle names cards of its library by id: linted with the project's
    folder (the library among the documents) or with --library, it is checked clean; alone
    it is refused, saying how to give the library."""
    from pybridge.cli import main

    demo = ROOT / "demo_project"
    battle, library = demo / "battles" / "party_battle.json", demo / "cards" / "mechanics.json"
    assert main(["lint", "--project", str(demo), str(demo)]) == 0
    assert capsys.readouterr().out == "0 errors, 0 warnings, 0 info in 2 files\n"
    assert main(["lint", "--project", str(demo), str(battle), "--library", str(library)]) == 0
    assert capsys.readouterr().out == "0 errors, 0 warnings, 0 info in 1 file\n"
    assert main(["lint", "--project", str(demo), str(battle)]) == 1
    alone = capsys.readouterr().out
    assert 'no card with this id in the battle\'s cards or the library, got "foresight"' in alone
    assert "--library FILE" in alone
    # A card two libraries define cannot be told apart: the battle naming it says so.
    cards = json.loads(library.read_text("utf-8"))
    (tmp_path / "again.json").write_text(json.dumps(cards), "utf-8")
    assert main(["lint", "--project", str(demo), str(battle), str(library),
                 str(tmp_path / "again.json")]) == 1  # fmt: skip
    twice = capsys.readouterr().out
    assert f"card 'foresight' (cards[0]) is defined twice (the first is card library " \
           f"{str(library)!r}, cards[0])" in twice  # fmt: skip
    # A --library file that is not a card library stops the command, naming it.
    assert main(["lint", str(battle), "--library", str(battle)]) == 2
    assert f"card library {str(battle)!r}: expected a JSON object" in capsys.readouterr().err


# -- robustness --------------------------------------------------------------------------------
def test_every_mode_source_and_action_is_checked_and_described_without_failing() -> None:
    """Every target mode x every source x every action, read through the field and through a
    port: the checker reports only known codes and the describer never writes editor words."""
    from pybridge.authoring.describe import describe_card
    from pybridge.runtime.graph import NODE_TYPES, Kind
    from pybridge.runtime.sources import CARD_SOURCES

    fields = {"amount": 3, "status": "burn", "hp": 4, "to": "hand"}
    cards: list[dict[str, Any]] = []
    for name, node_type in NODE_TYPES.items():
        if node_type.acts_on is None:
            continue
        sources = UNIT_SOURCES if node_type.acts_on is Kind.UNITS else CARD_SOURCES
        source_node = "UnitSource" if node_type.acts_on is Kind.UNITS else "CardSource"
        own = {f.name: fields[f.name] for f in node_type.fields if f.name in fields}
        for mode in TargetMode:
            for source in sources:
                action = {"id": "act", "type": name, **own}
                for wired in (False, True):
                    nodes: list[dict[str, Any]] = [{**action, "source": source}]
                    if wired:
                        nodes = [
                            {"id": "src", "type": source_node, "source": source},
                            {"id": "pick", "type": "Take", "count": 1, "ports": {"input": "src"}},
                            {**action, "ports": {"target": "pick"}},
                        ]
                    cards.append(
                        {
                            "id": f"c{len(cards)}",
                            "name": "C",
                            "target": mode.value,
                            "text": "Do it.",
                            "behavior": {"start": "act", "nodes": nodes},
                        }
                    )
    assert len(cards) > 1000
    definitions = [
        d
        for start in range(0, len(cards), 500)  # a library holds at most 2,000 cards
        for d in load_library(
            {"format": "pybridge/cards@1", "cards": cards[start : start + 500]}
        ).values()
    ]
    for definition in definitions:
        assert {d.code for d in lint_card(definition)} <= set(CODES)
        text = describe_card(definition)
        assert text and editor_terms(text) == [], (definition.behavior.to_json(), text)


def test_a_library_is_checked_card_by_card_and_a_refusal_names_its_node() -> None:
    """One broken card hides nothing: the loader's refusal sits on its card, node and field,
    and every other card is checked in full (what an editor shows while a card is broken)."""
    cards = json.loads(json.dumps(demo_battle()["cards"]))
    hit = cards[0]["behavior"]["nodes"][0]
    hit["sourse"] = hit.pop("source")
    cards[1]["behavior"]["nodes"][0]["source"] = "Opponent"  # Meteor Strike reads one enemy
    cards.append(dict(cards[2]))  # a second "defend"
    found = lint_document({"format": "pybridge/cards@1", "cards": cards})
    where = [(d.code, d.kind, d.id, d.node, d.field, d.path) for d in found]
    assert (
        "PB002",
        "card",
        "strike",
        "hit",
        "sourse",
        "cards[0].behavior.nodes[0].sourse",
    ) in where
    assert ("PB101", "card", "meteor_strike", "hit", "source",
            "cards[1].behavior.nodes[0].source") in where  # fmt: skip
    assert ("PB002", "card", "defend", None, "id", f"cards[{len(cards) - 1}].id") in where
    twice = next(d for d in found if d.id == "defend")
    assert "duplicate card id (the first is cards[2])" in twice.message
    assert [d.code for d in found].count("PB002") == 2
    broken = lint_document({"format": "pybridge/cards@1", "cards": "none"})
    assert [(d.code, d.kind, d.path) for d in broken] == [("PB002", "document", "cards")]
