"""Every saved battle loads back, through the protocol: the Cut and the counters stop at their
limits, the loader refuses documents no play could produce, a decided battle is settled when
opened, strings every host can read, and tools that say when they checked nothing.

Each test is a reproduction kept from issue 20 (its item number is in the test's docstring).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from pybridge.cli import main
from pybridge.runtime.model import MAX_CUT
from pybridge.runtime.reader import MAX_INT
from pybridge.service import new_protocol

from .builders import action, battle_doc, card, move, party, unit
from .protocol_support import Session, host_safe, refused_document, types

JAB = card("jab", "SingleEnemy", action("DealDamage", amount=1, source="Target"))
STALL = move("stall", "None")
BITE = move("bite", "SingleEnemy", action("DealDamage", amount=1, source="Target"),
            response=False)  # fmt: skip


def cut_battle(rules: str = "strict", hand: int = 40, **kw: Any) -> dict[str, Any]:
    units = [unit("hero", "player"), unit("orc", moves=["stall", "bite"], hp=500, max_hp=500)]
    return battle_doc([JAB], units=units, hand=["jab"] * hand, rules=rules, moves=[STALL, BITE],
                      **kw)  # fmt: skip


def fill_the_cut(s: Session) -> None:
    """32 activate/respond pairs: 64 entries, the enemy's on top."""
    for i in range(1, MAX_CUT // 2 + 1):
        s.quick("activate", card=f"h{i}", target="orc")
        s.quick("respond", unit="orc", move="stall")
    s.ok("state")  # the full Cut reopens


# -- 9. the Cut and the counters stop at their limits ---------------------------------------
@pytest.mark.parametrize("rules", ["strict", "soft"])
def test_the_cut_takes_at_most_64_entries(rules: str) -> None:
    """Item 9: 33 activate/respond pairs used to make a 66-entry Cut whose save could not be
    opened again (every state here is reopened by the Session)."""
    s = Session(cut_battle(rules))
    fill_the_cut(s)
    assert len(s.cut()) == MAX_CUT
    error = s.refused("activate", "cut", "card", card="h33", target="orc")
    assert "the Cut is full (64 entries)" in error["message"]
    resolved = s.events("pass")  # the top entry resolves; there is room again
    assert types(resolved)[0] == "resolving" and len(s.cut()) == MAX_CUT - 1
    s.ok("respond", unit="orc", move="stall")
    s.refused("respond", "cut", "unit", unit="orc", move="stall")  # the top is the enemy's


def test_on_a_full_cut_the_enemies_cannot_answer_and_the_entry_resolves() -> None:
    s = Session(cut_battle())
    fill_the_cut(s)
    state = s.state()
    # The same Cut with the player's entry on top: its first card goes back to the hand,
    # and a new activation joins the top.
    first, *rest = state["cut"]
    top = {**rest[-2], "id": f"e{state['next_entry']}",
           "card": {"id": "h40", "card": "jab"}}  # fmt: skip
    hand = [c for c in state["piles"]["hand"] if c["id"] != "h40"] + [first["card"]]
    doc = {**state, "cut": [*rest, top], "next_entry": state["next_entry"] + 1,
           "piles": {**state["piles"], "hand": hand}}  # fmt: skip
    full = Session(doc)
    assert len(full.cut()) == MAX_CUT and full.cut()[-1]["side"] == "player"
    events = full.events("pass")
    assert "enemy_responds" not in types(events) and events[0]["entry"] == top["id"]


def test_the_entry_and_turn_counters_stop_at_their_limit() -> None:
    """Item 9: one more entry id or turn would make a battle that does not load."""
    s = Session(cut_battle(next_entry=MAX_INT))
    for op, fields in (("play", {"card": "h1", "target": "orc"}),
                       ("activate", {"card": "h1", "target": "orc"})):  # fmt: skip
        error = s.refused(op, "limit_reached", "", **fields)
        assert f"e{MAX_INT}" in error["message"]
    assert s.events("end_turn")
    last = Session(cut_battle(turn=MAX_INT))
    assert "last turn" in last.refused("end_turn", "limit_reached", "")["message"]
    assert last.events("play", card="h1", target="orc")


# -- 10. the loader refuses what no play could produce -----------------------------------------
def entry(entry_id: str = "e1", side: str = "enemy", source: str = "orc", **kw: Any) -> Any:
    return {"id": entry_id, "side": side, "source": source, **kw}


ORC_MOVE: dict[str, Any] = {"move": "stall"}
HERO_CARD: dict[str, Any] = {"card": {"id": "c9", "card": "jab"}}


@pytest.mark.parametrize(
    ("changes", "where", "says"),
    [
        ({"cut": [entry(move="nope")]}, "cut[0].move", "response moves of 'orc'"),
        ({"cut": [entry(move="bite")]}, "cut[0].move", "response moves of 'orc'"),
        ({"cut": [entry(**ORC_MOVE), entry(**ORC_MOVE)]}, "cut[1].id", "duplicate Cut entry"),
        ({"cut": [entry("x1", **ORC_MOVE)]}, "cut[0].id", "e followed by a number"),
        ({"cut": [entry("e01", **ORC_MOVE)]}, "cut[0].id", "e followed by a number"),
        ({"cut": [entry("e5", **ORC_MOVE)], "next_entry": 5}, "next_entry", "above every"),
        ({"cut": [entry(side="player", **ORC_MOVE)]}, "cut[0].side", "side of its source"),
        ({"cut": [entry(side="enemy", source="hero", **HERO_CARD)]}, "cut[0].side", "side of"),
        ({"cut": [entry(**HERO_CARD)]}, "cut[0].source", "a party member"),
        ({"cut": [entry(collected=["ghost"], **ORC_MOVE)]}, "cut[0].collected[0]", "no unit"),
        ({"result": "victory"}, "result", "both sides still stand"),
        ({"result": "defeat"}, "result", "both sides still stand"),
        ({"result": "defeat", "units": [unit("hero", "player", hp=0, max_hp=5),
                                        unit("orc", hp=0, max_hp=5)]}, "result", "victory"),
        ({"result": "victory", "units": [unit("hero", "player"), unit("orc", hp=0, max_hp=5)],
          "cut": [entry(source="hero", side="player", **HERO_CARD)]}, "result", "on the Cut"),
        ({"units": [unit("hero", "player"), unit("orc", moves=["stall"], zone="reserve",
                                                  intent={"move": "stall"})]},
         "units[1].intent", "reserve never acts"),
    ],
)  # fmt: skip
def test_inconsistent_documents_are_refused(changes: dict[str, Any], where: str,
                                            says: str) -> None:  # fmt: skip
    """Item 10: a Cut entry naming an unknown move used to load, and then every Cut step
    failed with internal_error."""
    doc = {**cut_battle(), **changes}
    error = refused_document(doc)
    assert (error["code"], error["where"]) == ("invalid_field", f"battle.{where}"), error
    assert says in error["message"], error


def test_a_consistent_saved_cut_loads() -> None:
    doc = {**cut_battle(hand=1), "cut": [entry("e3", source="hero", side="player", **HERO_CARD),
                                         entry("e4", **ORC_MOVE)]}  # fmt: skip
    s = Session(doc)
    assert s.state()["next_entry"] == 5  # above every entry's number by default
    events = s.events("resolve")
    assert [e["entry"] for e in events if e["type"] == "resolving"] == ["e4", "e3"]


# -- 11. a decided battle, or a fallen active player, is settled when opened -----------------
def test_a_fallen_active_player_passes_the_role_when_opened() -> None:
    """Item 11."""
    units = [unit("hero", "player", hp=0, max_hp=20), unit("mage", "player"), unit("orc")]
    s = Session(battle_doc([JAB], units=units, hand=["jab"]))
    assert s.opened["result"]["events"] == [{"type": "active_player", "unit": "mage"}]
    assert s.state()["active_player"] == "mage"
    assert s.events("play", card="h1", target="orc")  # the mage plays it


@pytest.mark.parametrize(("fallen", "result"), [("enemy", "victory"), ("player", "defeat")])
def test_a_battle_one_side_has_lost_is_decided_when_opened(fallen: str, result: str) -> None:
    units = [unit("hero", "player"), unit("orc", moves=["bite"])]
    for u in units:
        if u["team"] == fallen:
            u["hp"] = 0
    s = Session(battle_doc([JAB], units=units, hand=["jab"], moves=[BITE]))
    assert s.opened["result"]["events"][-1] == {"type": "battle_ended", "result": result,
                                                "turn": 1}  # fmt: skip
    assert "intent" not in types(s.opened["result"]["events"])
    assert s.state()["result"] == result
    s.refused("play", "battle_over", card="h1", target="orc")


# -- 16. strings every host can read -----------------------------------------------------------
def test_document_strings_with_lone_surrogates_are_refused_readably() -> None:
    """Item 16: Godot's JSON parser rejects a lone surrogate, so every response about such a
    battle used to be unreadable to the addon."""
    proto = new_protocol()
    for path, value in (("units[0].name", "Hero \ud800"), ("cards[0].text", "\udfff!"),
                        ("cards[0].name", "x\ud83d")):  # fmt: skip
        doc = battle_doc([dict(JAB)], units=party(), hand=["jab"])
        head, field = path.rsplit(".", 1)
        kind, index = head[:-3], int(head[-2])
        doc[kind][index][field] = value
        text = proto.call(json.dumps({"op": "open", "battle": doc}))
        assert host_safe(text), text
        error = json.loads(text)["error"]
        assert (error["code"], error["where"]) == ("invalid_field", f"battle.{path}")
        assert "lone UTF-16 surrogates" in error["message"] and "\ufffd" in error["message"]
        linted = proto.call(json.dumps({"op": "lint", "document": doc}))
        assert host_safe(linted) and json.loads(linted)["ok"], linted
    doc = battle_doc([dict(JAB)], hand=["jab"])
    doc["units"][0]["name"] = "Hero \ud83d\ude00"  # a real pair is fine
    s = Session(doc)
    assert s.state()["units"][0]["name"] == "Hero \U0001f600"
    keyed = proto.call(json.dumps({"op": "open", "battle": {**doc, "\udc00": 1}}))
    assert host_safe(keyed) and json.loads(keyed)["error"]["code"] == "invalid_field"


# -- 17. tools that check nothing say so --------------------------------------------------------
def test_list_limit_messages_are_not_doubled() -> None:
    """Item 17: the message used to read "...got 65 elements;, got [...]"."""
    doc = battle_doc(units=party() + [unit(f"u{i}") for i in range(59)])
    error = refused_document(doc)
    assert error["message"] == "units: at most 64 elements, got 65"
    doc = battle_doc(units=[unit("hero", "player", statuses={f"s{i}": 1 for i in range(501)})])
    assert refused_document(doc)["message"] == (
        "units[0].statuses: unit 'hero', field 'statuses': at most 500 entries, got 501"
    )


def test_lint_on_a_folder_without_documents_fails(tmp_path: Path, capsys: Any) -> None:
    (tmp_path / "notes.json").write_text('{"not": "a battle"}')
    assert main(["lint", str(tmp_path)]) == 2
    assert "no battle or card library document" in capsys.readouterr().err
    (tmp_path / "battle.json").write_text(json.dumps(cut_battle()))
    assert main(["lint", str(tmp_path)]) in (0, 1)


@pytest.mark.parametrize("argv", [["--seconds", "-5"], ["--seconds", "0"], ["--threads", "-1"],
                                  ["--seconds", "x"]])  # fmt: skip
def test_fuzz_refuses_durations_and_thread_counts_that_check_nothing(
    argv: list[str], capsys: Any
) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["fuzz", *argv])
    assert exited.value.code == 2
    assert "expected" in capsys.readouterr().err
    from pybridge.devtools.fuzzing import run_fuzz

    with pytest.raises(ValueError, match="at least 1 second"):
        run_fuzz(0, 4, 1, None, None)


def test_an_enemy_without_an_intent_stays_without_one_when_reopened() -> None:
    """Item 9: an enemy that arrives mid-turn telegraphs at the next turn start; a saved
    battle says ``"intent": null`` for it and opens unchanged (only a document that gives no
    ``intent`` at all has one chosen when opened)."""
    summon = move("summon", "None", action("Deploy", source="AllReserveAllies"))
    units = [unit("hero", "player"), unit("orc", moves=["summon"]),
             unit("wolf", moves=["bite"], zone="reserve")]  # fmt: skip
    s = Session(battle_doc([JAB], units=units, hand=["jab"], moves=[summon, BITE]))
    assert [e["unit"] for e in s.opened["result"]["events"]] == ["orc"]
    s.ok("activate", card="h1", target="orc")
    s.ok("respond", unit="orc", move="summon")
    s.ok("pass")  # the wolf arrives (Session checks that every state reopens unchanged)
    wolf = next(u for u in s.state()["units"] if u["id"] == "wolf")
    assert (wolf["zone"], wolf["intent"]) == ("field", None)
    s.ok("resolve")
    assert "wolf" not in [e.get("unit") for e in s.events("end_turn") if e["type"] == "enemy_acts"]
    wolf = next(u for u in s.state()["units"] if u["id"] == "wolf")
    intent = {k: v for k, v in wolf["intent"].items() if k != "forecast"}
    assert intent == {"move": "bite", "target": "hero"}  # at the turn start
