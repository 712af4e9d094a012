"""The card Workshop end to end, in the real Godot 4.6 web engine, with mouse and keyboard.

``pybridge workshop``'s site (workshop_project/ with the addon) is served once for the module
with the library route, booted once in headless Chromium, and driven like a designer would:
the tests below are one session, in order. A library with a broken card opens with the error
on its node and the card is fixed in place; the guide's Meteor Strike (All Enemies, 15 damage
through AllOpponents) and its "filter the draw pile to Basic Attack -> Random 1 -> Move to
hand" graph are built from the palette; the area card is made to read Opponent and the
contract diagnostic shows on that node, then it is fixed and the text follows; the card is
played in the sandbox; the library is saved and the file compared with the expected document.

The Workshop prints ``PYBRIDGE <kind> <json>`` lines (workshop_project/main.gd); F12 prints
its whole state once every check has run, which is also how a step waits for the engine (key
presses reach the engine a frame after clicks do). Screenshots of every step go to
``artifacts/workshop_*.png``.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

import pytest

from pybridge.runtime import LIBRARY_FORMAT
from pybridge.service import new_protocol
from pybridge.web import Site, StaticHandler
from pybridge.workshop import library_handler, prepare_workshop_site

from .demo_support import DRAG_STEPS, PREFIX, Demo, booted, canonical
from .engine_session import ARTIFACTS
from .web_support import require_browser

Point = list[int]
#: A click reaches the engine a frame before keys typed just before it: let frames pass.
SETTLE_MS = 120
#: The longest one step may take (a loaded machine needs a few seconds, never this).
WAIT_MS = 20_000


def call(op: str, **fields: Any) -> dict[str, Any]:
    answer = json.loads(new_protocol().call(json.dumps({"op": op, **fields})))
    assert answer["ok"], answer
    result: dict[str, Any] = answer["result"]
    return result


SCHEMA = call("schema")
NODE_TYPES = {entry["name"]: entry for entry in SCHEMA["node_types"]}
MODES = [facts["mode"] for facts in SCHEMA["modes"]]


def choice_index(type_name: str, field: str, value: str) -> int:
    """The row of ``value`` in a node field's list (row 0 is "no value")."""
    spec = NODE_TYPES[type_name]
    fields = {f["name"]: f for f in spec["fields"]}
    if "source" in spec:  # an action's source field, which its target port overrides
        fields["source"] = spec["source"]
    choices: list[str] = fields[field]["choices"]
    return 1 + choices.index(value)


def starter_library() -> dict[str, Any]:
    """Two good cards and one the loader refuses (a misspelt field)."""
    return {
        "format": LIBRARY_FORMAT,
        "cards": [
            {"id": "strike", "name": "Strike", "type": "attack", "rarity": "basic", "cost": 1,
             "tags": ["basic_attack"], "target": "SingleEnemy",
             "text": "Deal 6 damage to the selected enemy.",
             "behavior": {"start": "hit", "nodes": [
                 {"id": "hit", "type": "DealDamage", "amount": 6, "source": "Opponent",
                  "at": [60, 80]}]}},
            {"id": "defend", "name": "Defend", "cost": 1, "target": "Self",
             "text": "Gain 5 armor.",
             "behavior": {"start": "guard", "nodes": [
                 {"id": "guard", "type": "GainArmor", "amount": 5, "source": "Self",
                  "at": [60, 80]}]}},
            {"id": "wild_swing", "name": "Wild Swing", "type": "attack", "cost": 1,
             "target": "RandomOpponent", "text": "Deal 5 damage to a random enemy.",
             "behavior": {"start": "hit", "nodes": [
                 {"id": "hit", "type": "DealDamage", "amount": 5, "sourse": "Target",
                  "at": [60, 80]}]}},
        ],
    }  # fmt: skip


class Workshop(Demo):
    """The running Workshop: mouse and keys in, its state out."""

    state: dict[str, Any]

    def do(self, *actions: dict[str, Any]) -> None:
        try:
            super().do(*actions)
        except AssertionError as failure:
            super().do({"screenshot": str(ARTIFACTS / "workshop_failure.png")})
            raise AssertionError(f"{failure}\nengine errors: {self.errors[-12:]}") from None

    def sync(self) -> dict[str, Any]:
        """Wait until the engine has handled everything sent so far; its state then."""
        since = self.mark()
        self.do({"key": "F12"}, {"wait_for": f"{PREFIX}workshop ", "from": since,
                                  "timeout_ms": WAIT_MS})  # fmt: skip
        self.state = self.said("workshop", since)[-1]
        return self.state

    def points(self) -> dict[str, Any]:
        layout: dict[str, Any] = self.state["layout"]
        return layout

    def node(self, node_id: str) -> dict[str, Any]:
        found: dict[str, Any] = self.points()["graph"]["nodes"][node_id]
        return found

    def field(self, node_id: str, field: str) -> Point:
        point: Point = self.node(node_id)["fields"][field]
        return point

    def click(self, point: Point) -> dict[str, Any]:
        self.do({"click": list(point)}, {"wait_ms": SETTLE_MS})
        return self.sync()

    def type_into(self, point: Point, text: str, enter: bool = False) -> dict[str, Any]:
        """Click a text field, select what is there and type ``text``."""
        keys = [{"key": "Space" if c == " " else c} for c in text]
        tail = [{"key": "Enter"}] if enter else []
        self.click(point)  # the engine has handled the click before the first key
        self.do({"key": "Control+a"}, *keys, *tail)
        return self.sync()

    def clear(self, point: Point) -> dict[str, Any]:
        self.click(point)
        self.do({"key": "Control+a"}, {"key": "Delete"})
        return self.sync()

    def wait_for(self, kind: str, since: int) -> dict[str, Any]:
        self.do({"wait_for": f"{PREFIX}{kind} ", "from": since, "timeout_ms": WAIT_MS})
        found = self.said(kind, since)
        assert found, f"no {kind} line after {since}: {self.lines[since:]}"
        return found[-1]

    def choose(self, point: Point, row: int) -> dict[str, Any]:
        """Open the list at ``point`` and pick row ``row`` with the keyboard."""
        since = self.mark()
        self.do({"click": list(point)})
        items = self.wait_for("popup", since)["items"]
        assert row < len(items), (row, items)
        self.do(*[{"key": "ArrowDown"}] * (row + 1), {"key": "Enter"})
        return self.sync()

    def add_node(self, type_name: str) -> str:
        """Click a node type in the palette (finding it by name when it is scrolled away);
        the new node's id."""
        before = {n["id"] for n in self.state["card"]["behavior"]["nodes"]}
        palette = self.points()["palette"]
        if palette[type_name][1] > 690:
            self.type_into(palette["search"], type_name)
            self.click(self.points()["palette"][type_name])
            self.clear(self.points()["palette"]["search"])
        else:
            self.click(palette[type_name])
        added = {str(n["id"]) for n in self.state["card"]["behavior"]["nodes"]} - before
        assert len(added) == 1, (type_name, added)
        return added.pop()

    def drag_node(self, type_name: str) -> str:
        """Drag a node type from the palette into the graph, below the nodes there."""
        before = {n["id"] for n in self.state["card"]["behavior"]["nodes"]}
        graph = self.points()["graph"]
        lowest = max(node["rect"][1] + node["rect"][3] for node in graph["nodes"].values())
        drop = [graph["middle"][0] - 150, lowest + 40]
        start = self.points()["palette"][type_name]
        self.do({"drag": [*start, *drop, DRAG_STEPS * 2]}, {"wait_ms": SETTLE_MS})
        added = {str(n["id"]) for n in self.sync()["card"]["behavior"]["nodes"]} - before
        assert len(added) == 1, (type_name, added)
        node_id = added.pop()
        title = self.node(node_id)["rect"]
        assert abs(title[0] - drop[0]) < 60 and abs(title[1] - drop[1]) < 60, (title, drop)
        return node_id

    def link(self, from_id: str, to_id: str, port: str) -> dict[str, Any]:
        """Drag from ``from_id``'s output to ``to_id``'s port ``port`` ("": its flow entry)."""
        start = self.node(from_id)["out"][""]
        end = self.node(to_id)["in"][port]
        self.do({"drag": [*start, *end, DRAG_STEPS * 2]}, {"wait_ms": SETTLE_MS})
        return self.sync()

    def shot(self, name: str) -> Path:
        path = ARTIFACTS / f"workshop_{name}.png"
        self.do({"wait_ms": 150}, {"screenshot": str(path)})
        return path

    def node_data(self, node_id: str) -> dict[str, Any]:
        found: dict[str, Any] = next(
            n for n in self.state["card"]["behavior"]["nodes"] if n["id"] == node_id
        )
        return found

    def arrange(self) -> dict[str, Any]:
        """Arrange the graph (a tool bar button): every node in view, none on another."""
        state = self.click(self.points()["arrange"])
        graph = self.points()["graph"]
        rects = [node["rect"] for node in graph["nodes"].values()]
        for i, (x, y, w, h) in enumerate(rects):
            for x2, y2, w2, h2 in rects[i + 1 :]:
                assert x + w <= x2 or x2 + w2 <= x or y + h <= y2 or y2 + h2 <= y, rects
        return state

    def card_row(self) -> Point:
        """The edited card's row in the list (a place to click that takes no typing)."""
        point: Point = self.points()["library"]["cards"][str(self.state["selected"])]
        return point

    def codes(self) -> list[str]:
        return sorted(d["code"] for d in self.state["diagnostics"])


def written_library(folder: Path, document: dict[str, Any]) -> Path:
    """``document`` saved in ``folder`` as the Workshop saves it (the runtime's text)."""
    path = folder / "cards.json"
    path.write_text(call("library_text", document=document)["text"], "utf-8")
    return path


Session = TypeVar("Session", bound=Workshop)


@contextmanager
def booted_workshop(site: Site, work: Path, log_name: str, handler: type[StaticHandler],
                    session: type[Session]) -> Iterator[Session]:  # fmt: skip
    """The Workshop's ``site`` booted in Chromium and driven as ``session``, its state the
    ready line's."""
    with booted(site, work, log_name, handler) as driver:
        driver.__class__ = session
        assert isinstance(driver, session)
        driver.state = driver.said("ready")[0]
        yield driver


@pytest.fixture(scope="module")
def library_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return written_library(tmp_path_factory.mktemp("workshop_library"), starter_library())


@pytest.fixture(scope="module")
def workshop(library_file: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Workshop]:
    require_browser()
    work = tmp_path_factory.mktemp("workshop_e2e")
    site = prepare_workshop_site(work / "site")
    handler = library_handler(library_file)
    with booted_workshop(site, work, "workshop_e2e_log.txt", handler, Workshop) as driver:
        yield driver


# -- the session, step by step ----------------------------------------------------------------


def test_a_library_with_a_broken_card_opens_with_the_error_on_its_node(workshop):
    ready = workshop.state
    assert ready["cards"] == ["strike", "defend", "wild_swing"] and ready["selected"] == 0
    assert ready["library"] == "cards.json" and not ready["dirty"]
    assert ready["diagnostics"] == []
    # The broken card is listed, and its error is in the list before anyone opens it.
    refused = [d for d in ready["listed"] if d["code"] == "PB002"]
    assert [(d["card_index"], d["place"]) for d in refused] == [
        (2, {"node": "hit", "field": "sourse"})
    ]
    # The editor's dock, which checks every library of a project, says the same.
    since = workshop.mark()
    workshop.do({"key": "F11"})
    dock = workshop.wait_for("dock", since)
    assert dock["rows"] == [["library", "PB002", 2, {"node": "hit", "field": "sourse"}]]
    assert dock["lines"][0] == "library: 3 cards, 1 errors, 0 other notes"
    assert dock["lines"][1].startswith("PB002  Wild Swing  (wild_swing), node hit, field sourse")
    # A game's battle using the broken card refuses to open, naming the card.
    since = workshop.mark()
    workshop.do({"key": "F10"})
    game = workshop.wait_for("game", since)
    assert not game["opened"] and game["error"]["code"] == "invalid_field"
    assert "card 'wild_swing', node 'hit', field 'sourse'" in game["error"]["message"]
    state = workshop.click(workshop.points()["library"]["cards"]["2"])
    assert state["selected"] == 2 and state["card"]["id"] == "wild_swing"
    assert state["badges"]["hit"] == ["PB002"] and "sourse" in state["flagged"]["hit"]
    assert "did you mean 'source'" in state["diagnostics"][0]["message"]
    assert state["text"]["generated"].startswith("No text until the card loads")
    workshop.shot("1_broken_card")
    # It cannot be tried yet: the sandbox names the card, its node and the field.
    since = workshop.mark()
    workshop.do({"key": "F5"})
    tried = workshop.wait_for("sandbox", since)
    assert not tried["opened"]
    assert "card 'wild_swing', node 'hit', field 'sourse'" in tried["error"]
    workshop.shot("1_broken_card_sandbox")
    workshop.do({"key": "Escape"})
    # Fixed in place: the misspelt field removed, the source chosen.
    workshop.sync()
    state = workshop.click(workshop.field("hit", "sourse.remove"))
    assert "sourse" not in workshop.node_data("hit")
    state = workshop.choose(workshop.field("hit", "source"),
                            choice_index("DealDamage", "source", "Target"))  # fmt: skip
    assert workshop.node_data("hit")["source"] == "Target"
    assert state["badges"]["hit"] == [] and state["diagnostics"] == []
    assert state["text"]["generated"] == "Deal 5 damage to a random enemy."
    workshop.shot("2_broken_card_fixed")
    since = workshop.mark()
    workshop.do({"key": "F10"})
    assert workshop.wait_for("game", since)["opened"] is True


def test_build_meteor_strike_from_the_palette(workshop):
    state = workshop.click(workshop.points()["library"]["new"])
    assert state["card"]["id"] == "new_card" and state["selected"] == 3
    # F2 renames the card's id.
    workshop.do({"key": "F2"}, {"wait_ms": SETTLE_MS}, {"key": "Control+a"},
                *[{"key": c} for c in "meteor_strike"], {"key": "Enter"})  # fmt: skip
    state = workshop.sync()
    assert state["card"]["id"] == "meteor_strike"
    form = workshop.points()["form"]
    workshop.type_into(form["name"], "Meteor Strike")
    workshop.type_into(form["cost"], "2")
    workshop.type_into(form["type"], "attack")
    state = workshop.choose(form["target"], MODES.index("AllEnemies"))
    assert state["card"]["target"] == "AllEnemies"
    assert (state["card"]["name"], state["card"]["cost"]) == ("Meteor Strike", 2)
    foes = workshop.add_node("UnitSource")
    workshop.choose(workshop.field(foes, "source"),
                    choice_index("UnitSource", "source", "AllOpponents"))  # fmt: skip
    hit = workshop.add_node("DealDamage")
    assert workshop.state["card"]["behavior"]["start"] == hit  # the first flow node
    workshop.type_into(workshop.field(hit, "amount"), "15")
    # A unit collection cannot go into a flow entry: the slot types refuse the link.
    before = canonical(workshop.state["card"])
    workshop.do({"drag": [*workshop.node(foes)["out"][""], *workshop.node(hit)["in"][""],
                          DRAG_STEPS * 2]})  # fmt: skip
    assert canonical(workshop.sync()["card"]) == before
    # Into the target port it goes, and the port overrides the source field.
    state = workshop.link(foes, hit, "target")
    assert workshop.node_data(hit)["ports"] == {"target": foes}
    assert state["overridden"][hit] is True and state["overridden"][foes] is False
    # Editor words in the card text are flagged beside it; one click gives the generated text.
    state = workshop.type_into(workshop.points()["text"]["editor"], "Deal 15 to AllOpponents.")
    assert (
        state["text"]["warning"].startswith("PB201: ")
        and "AllOpponents" in (state["text"]["warning"])
    ), (state["text"], state["focus"])
    assert "PB201" in workshop.codes() and state["text"]["use_enabled"]
    workshop.shot("3_editor_words")
    state = workshop.click(workshop.points()["text"]["use_generated"])
    assert state["card"]["text"] == "Deal 15 damage to all enemies."
    assert state["text"]["warning"] == "" and not state["text"]["use_enabled"]
    assert state["diagnostics"] == [], state["diagnostics"]
    workshop.arrange()
    at = {n["id"]: n["at"] for n in workshop.state["card"]["behavior"]["nodes"]}
    assert at[foes][0] < at[hit][0]  # the units flow left to right into the action
    workshop.shot("3_meteor_strike")


def test_build_the_draw_pile_graph(workshop):
    state = workshop.click(workshop.points()["library"]["new"])
    workshop.do({"key": "F2"}, {"wait_ms": SETTLE_MS}, {"key": "Control+a"},
                *[{"key": c} for c in "rummage"], {"key": "Enter"})  # fmt: skip
    workshop.sync()
    workshop.type_into(workshop.points()["form"]["name"], "Rummage")
    pile = workshop.add_node("CardSource")
    workshop.choose(workshop.field(pile, "source"),
                    choice_index("CardSource", "source", "DrawPile"))  # fmt: skip
    keep = workshop.drag_node("Filter")
    workshop.link(pile, keep, "input")
    card_keys = [key["name"] for key in SCHEMA["filters"]["cards"]]
    state = workshop.choose(workshop.field(keep, "where.+"), card_keys.index("tag"))
    assert workshop.node_data(keep)["where"] == {"tag": ""}
    workshop.type_into(workshop.field(keep, "where.tag"), "basic_attack")
    pick = workshop.add_node("RandomElements")
    workshop.link(keep, pick, "input")
    workshop.type_into(workshop.field(pick, "count"), "1")
    move = workshop.add_node("MoveCard")
    workshop.choose(workshop.field(move, "to"), choice_index("MoveCard", "to", "hand"))
    state = workshop.link(pick, move, "target")
    card = state["card"]
    assert card["behavior"]["start"] == move
    nodes = {n["id"]: {k: v for k, v in n.items() if k != "at"} for n in card["behavior"]["nodes"]}
    assert nodes == {
        pile: {"id": pile, "type": "CardSource", "source": "DrawPile"},
        keep: {"id": keep, "type": "Filter", "where": {"tag": "basic_attack"},
               "ports": {"input": pile}},
        pick: {"id": pick, "type": "RandomElements", "count": 1, "ports": {"input": keep}},
        move: {"id": move, "type": "MoveCard", "to": "hand", "ports": {"target": pick}},
    }  # fmt: skip
    state = workshop.click(workshop.points()["text"]["use_generated"])
    expected_text = call("describe", definition=card)["text"]
    assert state["card"]["text"] == expected_text and "random" in expected_text
    # What the Workshop shows is what lint says about the card on its own.
    alone = call("lint", document={"format": LIBRARY_FORMAT, "cards": [state["card"]]})
    assert workshop.codes() == sorted(d["code"] for d in alone["diagnostics"])
    workshop.arrange()
    at = {n["id"]: n["at"] for n in workshop.state["card"]["behavior"]["nodes"]}
    assert at[pile][0] < at[keep][0] < at[pick][0] < at[move][0]
    workshop.shot("4_draw_pile_graph")


def test_the_area_card_reading_opponent_shows_the_contract_error_on_that_node(workshop):
    workshop.click(workshop.points()["library"]["cards"]["3"])
    assert workshop.state["card"]["id"] == "meteor_strike"
    foes = next(n["id"] for n in workshop.state["card"]["behavior"]["nodes"]
                if n["type"] == "UnitSource")  # fmt: skip
    state = workshop.choose(workshop.field(foes, "source"),
                            choice_index("UnitSource", "source", "Opponent"))  # fmt: skip
    assert workshop.node_data(foes)["source"] == "Opponent"
    assert "PB101" in state["badges"][foes] and "source" in state["flagged"][foes]
    mismatch = next(d for d in state["listed"] if d["code"] == "PB101")
    assert mismatch["place"] == {"node": foes, "field": "source"}
    assert "AllEnemies" in mismatch["message"]
    assert state["text"]["generated"] == "Deal 15 damage to the first enemy."
    workshop.shot("5_reads_opponent")
    # Clicking the diagnostic focuses the field it names.
    row = state["listed"].index(mismatch)
    state = workshop.click(workshop.points()["diagnostics"][row])
    assert state["focus"]["node"] == foes and state["focus"]["field"] == "source"


def test_fixing_it_updates_the_text_and_undo_redo_step_through_it(workshop):
    foes = next(n["id"] for n in workshop.state["card"]["behavior"]["nodes"]
                if n["type"] == "UnitSource")  # fmt: skip
    state = workshop.choose(workshop.field(foes, "source"),
                            choice_index("UnitSource", "source", "AllOpponents"))  # fmt: skip
    assert state["badges"][foes] == [] and state["diagnostics"] == []
    assert state["text"]["generated"] == "Deal 15 damage to all enemies."
    assert state["text"]["authored"] == state["text"]["generated"]
    workshop.shot("6_fixed")
    # One choice is one undo step: the fix goes back to the Opponent chosen by the test
    # before, not past it (two choices of the same field are never merged).
    workshop.click(workshop.card_row())  # settled: the engine has reported since the click
    workshop.do({"key": "Control+z"})
    state = workshop.sync()
    assert state["history"]["last"] == f"Edit {foes}.source"
    assert workshop.node_data(foes)["source"] == "Opponent" and "PB101" in state["badges"][foes]
    workshop.do({"key": "Control+Shift+z"})
    state = workshop.sync()
    assert workshop.node_data(foes)["source"] == "AllOpponents" and state["diagnostics"] == []


def test_play_meteor_strike_in_the_sandbox(workshop):
    since = workshop.mark()
    workshop.do({"key": "F5"})
    opened = workshop.wait_for("sandbox", since)
    assert opened["opened"] and opened["error"] == ""
    sandbox = opened["layout"]["sandbox"]
    card = workshop.state["card"]
    workshop.shot("7_sandbox")
    # Held over the battlefield, the card lights every enemy and shows what it will do.
    since = workshop.mark()
    workshop.do({"down": sandbox["cards"]["sandbox"]}, {"move": sandbox["play"]},
                {"wait_ms": 300}, {"screenshot": str(ARTIFACTS / "workshop_7_sandbox_aim.png")},
                {"up": sandbox["play"]})  # fmt: skip
    played = workshop.wait_for("played", since)
    assert played["ok"]
    events = played["result"]["events"]
    # The same play in desktop CPython gives the same events (the draw pile plays no part).
    protocol = new_protocol()
    battle = call("sandbox", card=card)["battle"]
    session = json.loads(protocol.call(json.dumps({"op": "open", "battle": battle})))
    desktop = json.loads(protocol.call(json.dumps(
        {"op": "play", "session": session["result"]["session"], "card": "sandbox"})))  # fmt: skip
    assert canonical(events) == canonical(desktop["result"]["events"])
    hits = {e["unit"]: e["amount"] for e in events if e["type"] == "damage"
            and e["source"] == "knight"}  # fmt: skip
    living = {u["id"] for u in battle["units"] if u["team"] == "enemy" and u["hp"] > 0}
    assert hits == dict.fromkeys(living, 15)
    assert played["result"]["log"][0]["text"] == "Knight plays Meteor Strike."
    workshop.shot("8_sandbox_played")
    workshop.do({"key": "Escape"})
    assert workshop.sync()["sandbox"] is False


def test_save_writes_the_expected_document(workshop, library_file):
    assert workshop.state["dirty"]
    since = workshop.mark()
    workshop.do({"key": "Control+s"})
    saved = workshop.wait_for("saved", since)
    text = library_file.read_text("utf-8")
    assert saved["text"] == text
    document = json.loads(text)
    expected = starter_library()
    expected["cards"][2]["behavior"]["nodes"][0] = {
        "id": "hit",
        "type": "DealDamage",
        "amount": 5,
        "source": "Target",
        "at": [60, 80],
    }
    at = {c["id"]: {n["id"]: n["at"] for n in c["behavior"]["nodes"]} for c in document["cards"]}
    meteor_ids = sorted(at["meteor_strike"])
    expected["cards"].append(
        {
            "id": "meteor_strike",
            "name": "Meteor Strike",
            "type": "attack",
            "cost": 2,
            "target": "AllEnemies",
            "text": "Deal 15 damage to all enemies.",
            "behavior": {
                "start": "deal_damage",
                "nodes": [
                    {
                        "id": "unit_source",
                        "type": "UnitSource",
                        "source": "AllOpponents",
                        "at": at["meteor_strike"]["unit_source"],
                    },
                    {
                        "id": "deal_damage",
                        "type": "DealDamage",
                        "amount": 15,
                        "ports": {"target": "unit_source"},
                        "at": at["meteor_strike"]["deal_damage"],
                    },
                ],
            },
        }
    )
    assert meteor_ids == ["deal_damage", "unit_source"]
    rummage = next(c for c in document["cards"] if c["id"] == "rummage")
    expected["cards"].append({
        "id": "rummage", "name": "Rummage", "target": MODES[0], "text": rummage["text"],
        "behavior": {"start": "move_card", "nodes": [
            {"id": "card_source", "type": "CardSource", "source": "DrawPile"},
            {"id": "filter", "type": "Filter", "where": {"tag": "basic_attack"},
             "ports": {"input": "card_source"}},
            {"id": "random_elements", "type": "RandomElements", "count": 1,
             "ports": {"input": "filter"}},
            {"id": "move_card", "type": "MoveCard", "to": "hand",
             "ports": {"target": "random_elements"}}]}})  # fmt: skip
    for node in expected["cards"][-1]["behavior"]["nodes"]:
        node["at"] = at["rummage"][node["id"]]
    assert text == call("library_text", document=expected)["text"]
    assert workshop.sync()["dirty"] is False
    # Saved again without an edit: not one byte changes.
    since = workshop.mark()
    workshop.do({"key": "Control+s"})
    assert workshop.wait_for("saved", since)["text"] == text
    assert library_file.read_text("utf-8") == text


def test_unsaved_changes_are_guarded(workshop, library_file):
    before = library_file.read_bytes()
    # Typed with a pause longer than UndoRedo's own 800 ms merge window: still one step.
    workshop.type_into(workshop.points()["form"]["name"], "Comet")
    workshop.do({"wait_ms": 1000}, *[{"key": "Space" if c == " " else c} for c in " Strike"])
    state = workshop.sync()
    assert state["dirty"] and "unsaved" in state["title"]
    assert state["card"]["name"] == "Comet Strike"
    since = workshop.mark()
    workshop.do({"click": workshop.points()["reload"]})
    guard = workshop.wait_for("guard", since)
    assert guard["question"] == "Discard the unsaved changes to cards.json?"
    workshop.shot("9_unsaved_guard")
    state = workshop.click(guard["buttons"]["cancel"])
    assert state["dirty"] and state["card"]["name"] == "Comet Strike"
    workshop.click(workshop.card_row())  # settled: the engine has reported since the click
    workshop.do({"key": "Control+z"})
    state = workshop.sync()
    assert state["card"]["name"] == "Meteor Strike" and state["dirty"] is False
    assert library_file.read_bytes() == before


def test_the_engine_reported_no_errors(workshop):
    assert workshop.errors == []
    assert not any(text.startswith(f"{PREFIX}save_failed ") for text in workshop.lines)
