"""The Workshop as a card designer's tool, end to end in the real Godot 4.6 web engine.

One session, in order, on a library holding the guide's Basic Attack (Strike), Defend and a
draw-pile card (Seek: filter the draw pile to Basic Attack, pick one at random, move it to
the hand). Every choice in the forms says what it means; nodes and groups of nodes are
copied, pasted and duplicated with the keys and with the graph's menu, each one undo step.
Then the guide's Meteor Strike is made from the runtime's area-attack template, the draw-pile
card from the selector-chain template by copy and paste, and both are played in a sandbox
whose draw pile the designer filled with Basic Attacks, with the events desktop CPython gives.
The Workshop prints ``PYBRIDGE <kind> <json>`` lines
(workshop_project/main.gd); screenshots go to ``artifacts/workshop_designer_*.png``.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from pybridge.runtime import LIBRARY_FORMAT
from pybridge.service import new_protocol
from pybridge.workshop import library_handler, prepare_workshop_site

from .demo_support import canonical
from .engine_session import ARTIFACTS
from .test_workshop_e2e import (
    NODE_TYPES,
    SCHEMA,
    SETTLE_MS,
    Workshop,
    booted_workshop,
    call,
    written_library,
)
from .web_support import require_browser

RUMMAGE: dict[str, Any] = {
    "id": "seek", "name": "Seek", "target": "None",
    "text": "Put a random Basic Attack from your draw pile into your hand.",
    "behavior": {"start": "move", "nodes": [
        {"id": "pile", "type": "CardSource", "source": "DrawPile", "at": [200, 60]},
        {"id": "keep", "type": "Filter", "where": {"tag": "basic_attack"},
         "ports": {"input": "pile"}, "at": [200, 200]},
        {"id": "pick", "type": "RandomElements", "count": 1, "ports": {"input": "keep"},
         "at": [460, 200]},
        {"id": "move", "type": "MoveCard", "to": "hand", "ports": {"target": "pick"},
         "at": [720, 60]}]},
}  # fmt: skip


TEMPLATES: list[dict[str, Any]] = call("templates")["templates"]


def designer_library() -> dict[str, Any]:
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
             "text": "Gain 5 armor.", "keywords": ["Retain"],
             "behavior": {"start": "guard", "nodes": [
                 {"id": "guard", "type": "GainArmor", "amount": 5, "source": "Self",
                  "at": [60, 80]}]}},
            RUMMAGE,
        ],
    }  # fmt: skip


def without_at(card: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {n["id"]: {k: v for k, v in n.items() if k != "at"} for n in card["behavior"]["nodes"]}


class Designer(Workshop):
    def key(self, key: str) -> dict[str, Any]:
        self.do({"key": key}, {"wait_ms": SETTLE_MS})
        return self.sync()

    def menu(self, point: list[int], label: str) -> dict[str, Any]:
        """Right-click the graph at ``point`` and pick the entry starting with ``label``."""
        since = self.mark()
        self.do({"click": [*point, {"button": "right"}]})
        popup = self.wait_for("popup", since)
        row = next(i for i, text in enumerate(popup["items"]) if text.startswith(label))
        assert row not in popup["skipped"], popup
        downs = len([i for i in range(row + 1) if i not in popup["skipped"]])
        self.do(*[{"key": "ArrowDown"}] * downs, {"key": "Enter"}, {"wait_ms": SETTLE_MS})
        return self.sync()

    def designer_shot(self, name: str) -> Path:
        path = ARTIFACTS / f"workshop_designer_{name}.png"
        self.do({"wait_ms": 150}, {"screenshot": str(path)})
        return path


@pytest.fixture(scope="module")
def library_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return written_library(tmp_path_factory.mktemp("designer_library"), designer_library())


@pytest.fixture(scope="module")
def designer(library_file: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Designer]:
    require_browser()
    work = tmp_path_factory.mktemp("workshop_designer")
    site = prepare_workshop_site(work / "site")
    handler = library_handler(library_file)
    with booted_workshop(site, work, "workshop_designer_log.txt", handler, Designer) as driver:
        yield driver


# -- the session, step by step ----------------------------------------------------------------


def word_docs(kind: str) -> dict[str, str]:
    return {entry["name"]: entry["doc"] for entry in SCHEMA[kind]}


def test_every_choice_in_the_forms_says_what_it_means(designer):
    state = designer.click(designer.points()["library"]["cards"]["2"])
    assert state["card"]["id"] == "seek"
    # A source field lists the runtime's description of each source, and of the chosen one.
    source = state["forms"]["pile"]["source"]
    cards = word_docs("card_sources")
    assert source["item_tips"] == ["", *[cards[name] for name in source["items"][1:]]]
    assert source["tip"].endswith(f"DrawPile: {cards['DrawPile']}")
    # A choice field of the node type says what each choice does (the schema's choice_docs).
    move_to = state["forms"]["move"]["to"]
    to_docs = {f["name"]: f for f in NODE_TYPES["MoveCard"]["fields"]}["to"]["choice_docs"]
    assert move_to["item_tips"][1:] == [to_docs.get(c, "") for c in move_to["items"][1:]]
    assert move_to["tip"].endswith(f"hand: {to_docs['hand']}")
    # A card source and a pile field name the same pile differently: each names the other.
    assert "'draw'" in cards["DrawPile"] and "DrawPile" in to_docs["draw"]
    # Where two sources look alike, each says how it differs from the other.
    units = word_docs("unit_sources")
    assert "AllEnemies" in units["AllOpponents"] and "AllOpponents" in units["AllEnemies"]
    assert "Target" in units["Opponent"] and "Opponent" in units["Target"]
    strike = designer.click(designer.points()["library"]["cards"]["0"])["forms"]["hit"]
    assert (
        strike["source"]["item_tips"][strike["source"]["items"].index("AllEnemies")]
        == (units["AllEnemies"])
    )
    # The palette tells each node type's description.
    assert state["palette_tips"]["Filter"] == NODE_TYPES["Filter"]["doc"]


def test_a_one_node_card_shows_at_full_size(designer):
    # It used to open at 55 % (framed before the graph had its size).
    state = designer.click(designer.points()["library"]["cards"]["0"])
    assert state["card"]["id"] == "strike" and designer.points()["graph"]["zoom"] == 1


def test_a_group_of_nodes_is_copied_into_another_card_with_its_links(designer):
    designer.click(designer.points()["library"]["cards"]["2"])
    assert designer.state["card"]["id"] == "seek"
    # Ctrl+A selects every node (the start node is not one of the card), Ctrl+C copies them.
    designer.click(designer.points()["graph"]["middle"])  # the graph, not a text field
    state = designer.key("Control+a")
    assert sorted(state["selected_nodes"]) == ["keep", "move", "pick", "pile"]
    state = designer.key("Control+c")
    assert [n["id"] for n in state["clipboard"]["nodes"]] == ["pile", "keep", "pick", "move"]
    assert state["clipboard"]["start"] == "move" and not state["dirty"]  # a copy edits nothing
    # Pasted into a new card: the same nodes and links, and the copy of the start is its start.
    designer.click(designer.points()["library"]["new"])
    designer.click(designer.points()["graph"]["middle"])
    state = designer.key("Control+v")
    card = state["card"]
    assert without_at(card) == without_at(RUMMAGE) and card["behavior"]["start"] == "move"
    assert sorted(state["selected_nodes"]) == ["keep", "move", "pick", "pile"]
    assert state["history"]["last"] == "Paste nodes"
    # What the checks say is what lint says about the card on its own.
    alone = call("lint", document={"format": LIBRARY_FORMAT, "cards": [card]})["diagnostics"]
    assert designer.codes() == sorted(d["code"] for d in alone)
    # Placed right of the start node, as they were laid out among themselves.
    at = {n["id"]: n["at"] for n in card["behavior"]["nodes"]}
    was = {n["id"]: n["at"] for n in RUMMAGE["behavior"]["nodes"]}
    shift = [at["pile"][0] - was["pile"][0], at["pile"][1] - was["pile"][1]]
    assert all(at[i] == [was[i][0] + shift[0], was[i][1] + shift[1]] for i in at), (at, was)
    start = designer.node("")["rect"]
    assert designer.node("pile")["rect"][0] > start[0] + start[2]
    designer.designer_shot("1_pasted")


def test_duplicate_copies_the_selection_beside_it_and_undo_takes_it_back(designer):
    # The pasted group is still selected: Ctrl+D copies it under new ids, linked among
    # themselves; the start stays where it was.
    state = designer.key("Control+d")
    nodes = without_at(state["card"])
    assert sorted(nodes) == sorted(["pile", "keep", "pick", "move",
                                    "pile_2", "keep_2", "pick_2", "move_2"])  # fmt: skip
    assert nodes["keep_2"]["ports"] == {"input": "pile_2"}
    assert nodes["move_2"]["ports"] == {"target": "pick_2"}
    assert state["card"]["behavior"]["start"] == "move"
    assert sorted(state["selected_nodes"]) == ["keep_2", "move_2", "pick_2", "pile_2"]
    assert state["history"]["last"] == "Duplicate nodes"
    # No copy covers another node.
    rects = [node["rect"] for node in designer.points()["graph"]["nodes"].values()]
    for i, (x, y, w, h) in enumerate(rects):
        for x2, y2, w2, h2 in rects[i + 1 :]:
            assert x + w <= x2 or x2 + w2 <= x or y + h <= y2 or y2 + h2 <= y, rects
    designer.designer_shot("2_duplicated")
    # One undo step takes the whole copy back.
    designer.click(designer.card_row())
    state = designer.key("Control+z")
    assert sorted(without_at(state["card"])) == ["keep", "move", "pick", "pile"]


def test_the_graph_menu_pastes_one_node_where_it_was_opened(designer):
    # Copy one node: a click selects it alone.
    title = designer.node("keep")["title"]
    designer.click(title)
    assert designer.state["selected_nodes"] == ["keep"]
    state = designer.menu(title, "Copy")
    assert [n["id"] for n in state["clipboard"]["nodes"]] == ["keep"]
    # Paste at an empty spot below the nodes, through the menu.
    graph = designer.points()["graph"]
    lowest = max(n["rect"][1] + n["rect"][3] for n in graph["nodes"].values())
    spot = [graph["middle"][0] - 100, lowest + 30]
    state = designer.menu(spot, "Paste")
    copy = designer.node_data("keep_2")
    # A link to a node that was not copied is not pasted.
    assert "ports" not in copy and copy["where"] == {"tag": "basic_attack"}
    # Its corner is where the menu opened (the view then scrolls it whole into sight).
    rect = designer.node("keep_2")["rect"]
    scrolled = graph["nodes"]["keep"]["rect"][1] - designer.node("keep")["rect"][1]
    assert abs(rect[0] - spot[0]) <= 2 and abs(rect[1] + scrolled - spot[1]) <= 2, (rect, spot)
    assert state["history"]["last"] == "Paste nodes"
    designer.designer_shot("3_menu_paste")


def new_from_template(designer: Designer, label: str) -> dict[str, Any]:
    """Open "New from template..." (it lists the runtime's templates) and pick ``label``."""
    since = designer.mark()
    designer.do({"click": designer.points()["library"]["template"]})
    popup = designer.wait_for("popup", since)
    assert popup["items"] == [t["label"] for t in TEMPLATES]
    downs = popup["items"].index(label) + 1
    designer.do(*[{"key": "ArrowDown"}] * downs, {"key": "Enter"}, {"wait_ms": SETTLE_MS})
    return designer.sync()


def rename(designer: Designer, new_id: str) -> None:
    designer.do({"key": "F2"}, {"wait_ms": SETTLE_MS}, {"key": "Control+a"},
                *[{"key": c} for c in new_id], {"key": "Enter"})  # fmt: skip
    assert designer.sync()["card"]["id"] == new_id


def test_meteor_strike_from_the_area_attack_template(designer):
    state = new_from_template(designer, "Area attack")
    template = next(t["card"] for t in TEMPLATES if t["name"] == "area_attack")
    assert state["card"] == template and state["history"]["last"] == "New card from template"
    rename(designer, "meteor_strike")
    state = designer.type_into(designer.points()["form"]["name"], "Meteor Strike")
    card = state["card"]
    assert (card["target"], card["text"]) == ("AllEnemies", "Deal 15 damage to all enemies.")
    assert without_at(card) == without_at(template) and state["diagnostics"] == []
    assert state["text"]["generated"] == card["text"]
    # Its Card Target names the source that reads what it targets, as the template does.
    assert state["target_meaning"].endswith("Read its targets through AllOpponents.")
    state = designer.choose(designer.points()["form"]["target"],
                            [m["mode"] for m in SCHEMA["modes"]].index("SingleEnemy"))  # fmt: skip
    assert state["target_meaning"].endswith("Read its targets through Opponent or Target.")
    designer.designer_shot("4_single_enemy_suggests_opponent")
    designer.click(designer.card_row())
    state = designer.key("Control+z")
    assert state["card"]["target"] == "AllEnemies"
    # The preview is the addon's own hand card, with what a battle would give it.
    preview = state["preview"]
    mode = next(m for m in SCHEMA["modes"] if m["mode"] == "AllEnemies")
    assert preview["shown"] and preview["title_lines"] == ["Meteor Strike"]
    assert (preview["name"], preview["text"], preview["cost"], preview["type"]) == (
        "Meteor Strike", "Deal 15 damage to all enemies.", 2, "attack")  # fmt: skip
    assert preview["mode_label"] == mode["label"] and preview["facts"] == mode
    designer.designer_shot("4_meteor_strike_template")


def test_the_draw_pile_card_from_the_selector_chain_template_by_copy_and_paste(designer):
    chain = new_from_template(designer, "Selector chain (cards)")["card"]
    # The template's whole chain, copied into a card of its own.
    designer.click(designer.points()["graph"]["middle"])
    designer.key("Control+a")
    designer.key("Control+c")
    designer.click(designer.points()["library"]["new"])
    rename(designer, "rummage")
    designer.type_into(designer.points()["form"]["name"], "Rummage")
    designer.click(designer.points()["graph"]["middle"])
    state = designer.key("Control+v")
    assert without_at(state["card"]) == without_at(chain)
    assert state["forms"]["pick"]["count"]["text"] == "1"  # an integer, shown as one
    assert state["card"]["behavior"]["start"] == chain["behavior"]["start"]
    state = designer.click(designer.points()["text"]["use_generated"])
    assert state["card"]["text"] == chain["text"] and state["diagnostics"] == []
    designer.arrange()
    at = {n["id"]: n["at"] for n in designer.state["card"]["behavior"]["nodes"]}
    assert at["pile"][0] < at["keep"][0] < at["pick"][0] < at["move"][0]
    # Arranged at a readable zoom, the flow's start beside the node it starts: its link runs
    # through no node (it used to cross the whole chain from the far left).
    graph = designer.points()["graph"]
    assert graph["zoom"] >= 0.8, graph["zoom"]
    start, first = graph["nodes"][""]["out"]["start"], graph["nodes"]["move"]["in"][""]
    for node_id, node in graph["nodes"].items():
        if node_id not in ("", "move"):
            assert not crosses(start, first, node["rect"]), (node_id, start, first)
    designer.designer_shot("5_rummage_pasted")


def test_tags_and_keywords_are_suggested_from_the_library_and_the_rules(designer):
    state = designer.click(designer.points()["library"]["cards"]["3"])
    assert state["card"]["id"] == "new_card" and "tags" not in state["card"]
    # The tags the library's cards use, completed with Tab.
    state = designer.type_into(designer.points()["form"]["tags"], "ba")
    assert state["suggestions"]["tags"] == ["basic_attack"]
    state = designer.key("Tab")
    assert state["card"]["tags"] == ["basic_attack"] and state["suggestions"]["tags"] == []
    # The keywords the rules know (and the library's), walked with the arrows.
    keywords = sorted(SCHEMA["keywords"])
    state = designer.type_into(designer.points()["form"]["keywords"], "e")
    assert state["suggestions"]["keywords"] == [k for k in keywords if k.lower().startswith("e")]
    designer.designer_shot("6_keyword_suggestions")
    state = designer.type_into(designer.points()["form"]["keywords"], "Exhaust, r")
    assert state["suggestions"]["keywords"] == ["Retain"]
    designer.do({"key": "ArrowDown"}, {"key": "Enter"})
    state = designer.sync()
    assert state["card"]["keywords"] == ["Exhaust", "Retain"]


def crosses(a: list[int], b: list[int], rect: list[int]) -> bool:
    """Whether the straight segment from ``a`` to ``b`` passes through ``rect``."""
    x, y, w, h = rect
    for step in range(101):
        px, py = a[0] + (b[0] - a[0]) * step / 100, a[1] + (b[1] - a[1]) * step / 100
        if x < px < x + w and y < py < y + h:
            return True
    return False


def open_sandbox(designer: Designer, card_id: str) -> dict[str, Any]:
    designer.click(
        designer.points()["library"]["cards"][str(designer.state["cards"].index(card_id))]
    )
    since = designer.mark()
    designer.do({"key": "F5"})
    opened = designer.wait_for("sandbox", since)
    assert opened["opened"] and opened["error"] == "", opened
    layout: dict[str, Any] = opened["layout"]["sandbox"]
    return layout


def play(designer: Designer, sandbox: dict[str, Any], name: str) -> dict[str, Any]:
    since = designer.mark()
    designer.do({"down": sandbox["cards"]["sandbox"]}, {"move": sandbox["play"]},
                {"wait_ms": 300}, {"up": sandbox["play"]})  # fmt: skip
    played = designer.wait_for("played", since)
    assert played["ok"], played
    designer.designer_shot(name)
    result: dict[str, Any] = played["result"]
    return result


def desktop_play(card: dict[str, Any], library: dict[str, Any], piles: dict[str, Any]
                 ) -> dict[str, Any]:  # fmt: skip
    protocol = new_protocol()
    battle = call("sandbox", card=card, library=library, piles=piles)["battle"]
    opened = json.loads(protocol.call(json.dumps({"op": "open", "battle": battle})))
    played = json.loads(protocol.call(json.dumps(
        {"op": "play", "session": opened["result"]["session"], "card": "sandbox"})))  # fmt: skip
    result: dict[str, Any] = played["result"]
    return result


def test_both_play_in_a_sandbox_whose_draw_pile_holds_basic_attacks(designer):
    sandbox = open_sandbox(designer, "rummage")
    # The designer fills the draw pile with Basic Attacks; Enter deals the sandbox again.
    designer.type_into(sandbox["piles"]["draw"], "strike, strike, strike")
    since = designer.mark()
    designer.do({"key": "Enter"})
    sandbox = designer.wait_for("sandbox", since)["layout"]["sandbox"]
    designer.designer_shot("7_sandbox_piles")
    card = designer.state["card"]
    library = {"format": LIBRARY_FORMAT, "cards": designer.state["library_cards"]}
    piles = {"draw": ["strike", "strike", "strike"]}
    result = play(designer, sandbox, "8_rummage_played")
    assert canonical(result["events"]) == canonical(desktop_play(card, library, piles)["events"])
    moved = [e for e in result["events"] if e["type"] == "card_moved"]
    assert [(e["card"][:5], e["to"]) for e in moved if e["card"] != "sandbox"] == [
        ("draw_", "hand")
    ]
    hand = [c["card"] for c in result["state"]["piles"]["hand"]]
    assert hand.count("strike") == 1
    # Meteor Strike in the same sandbox: the piles stay as the designer set them.
    designer.do({"key": "Escape"})
    designer.sync()
    sandbox = open_sandbox(designer, "meteor_strike")
    card = designer.state["card"]
    result = play(designer, sandbox, "9_meteor_strike_played")
    assert canonical(result["events"]) == canonical(desktop_play(card, library, piles)["events"])
    assert [c["card"] for c in result["state"]["piles"]["draw"]] == ["strike"] * 3
    hits = {e["unit"]: e["amount"] for e in result["events"]
            if e["type"] == "damage" and e["source"] == "knight"}  # fmt: skip
    assert hits == dict.fromkeys(["goblin", "orc", "shaman"], 15)
    designer.do({"key": "Escape"})
    assert designer.sync()["sandbox"] is False  # keys reach the engine after clicks sent later


def test_an_empty_library_shows_no_start_node(designer, library_file):
    library_file.write_text(call("library_text", document={"format": LIBRARY_FORMAT,
                                                           "cards": []})["text"])  # fmt: skip
    since = designer.mark()
    designer.do({"click": designer.points()["reload"]})
    guard = designer.wait_for("guard", since)
    state = designer.click(guard["buttons"]["ok"])
    assert state["cards"] == [] and state["selected"] == -1
    # Nothing to start: no When played node, and the editor says how to begin.
    assert designer.points()["graph"]["nodes"] == {}
    assert "New from template" in state["empty_note"]
    designer.designer_shot("10_empty_library")


def test_the_engine_reported_no_errors(designer):
    assert designer.errors == []
