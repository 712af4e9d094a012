"""A Filter's conditions suggest the words the library uses, end to end in the real Godot 4.6
web engine.

The runtime's schema says which word list a filter key's values are drawn from (its
``suggests``) and where those words are; the Workshop names no filter key. On a library whose
cards use the tags ``basic_attack``, ``basic_block`` and ``bash``, a new card filters its draw
pile by tag: the first letters offer the library's tags, the arrows and Tab take one; a second
Filter keeps enemies by status and by unit tag, which offer the sandbox battle's statuses and
unit tags (not the cards' tags), one taken with a click; an ApplyStatus node's status field
offers the statuses too. The saved library holds the exact words. Screenshots go to
``artifacts/workshop_designer_where_*.png``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from . import test_workshop_designer_e2e as designer_e2e
from .engine_session import HEIGHT, WIDTH
from .test_workshop_designer_e2e import Designer, designer_library
from .test_workshop_e2e import SCHEMA, call, choice_index, written_library

#: The designer's session (its fixture), here on this module's library_file.
designer = designer_e2e.designer

CARD_KEYS = [key["name"] for key in SCHEMA["filters"]["cards"]]
UNIT_KEYS = [key["name"] for key in SCHEMA["filters"]["units"]]
SANDBOX = call("sandbox", card=designer_library()["cards"][0])["battle"]
STATUSES = sorted({row["id"] for row in SANDBOX["statuses"]})
UNIT_TAGS = sorted({tag for unit in SANDBOX["units"] for tag in unit.get("tags", [])})


def where_library() -> dict[str, Any]:
    library = designer_library()
    defend = next(card for card in library["cards"] if card["id"] == "defend")
    library["cards"] += [
        {**defend, "id": "brace", "name": "Brace", "tags": ["basic_block"]},
        {**defend, "id": "shield_bash", "name": "Shield Bash", "tags": ["bash", "stun"]},
    ]
    return library


@pytest.fixture(scope="module")
def library_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return written_library(tmp_path_factory.mktemp("where_library"), where_library())


def suggested(designer: Designer, node_id: str, key: str) -> dict[str, Any]:
    found: dict[str, Any] = designer.state["graph_suggestions"][node_id][f"where.{key}"]
    return found


def placed_by_the_field(shown: dict[str, Any]) -> None:
    """The list is inside the window, as wide as its field at least, its rows readable, and
    right under the field, or right above it when the window ends first; never over it."""
    x, y, w, h = shown["rect"]
    fx, fy, fw, fh = shown["field"]
    assert x >= 0 and x + w <= WIDTH and y >= 0 and y + h <= HEIGHT, shown
    assert abs(x - fx) <= 2 and w >= fw - 2, shown
    # Every row shows, with no blank row left under the last.
    rows = shown["rows"]
    pitch = rows[1][1] - rows[0][1] if len(rows) > 1 else 27
    assert pitch >= 20 and len(rows) == len(shown["words"]), shown
    assert rows[-1][1] + pitch / 2 <= y + h <= rows[-1][1] + pitch / 2 + 12, shown
    below, above = abs(y - (fy + fh)) <= 2, abs(y + h - fy) <= 2
    assert below or (above and fy + fh + h > HEIGHT), shown


def filter_fed_by(designer: Designer, source_type: str, source: str) -> tuple[str, str]:
    """A source node reading ``source`` and a Filter linked to it: their ids."""
    pile = designer.add_node(source_type)
    designer.choose(designer.field(pile, "source"), choice_index(source_type, "source", source))
    keep = designer.add_node("Filter")
    designer.arrange()  # every node in view, none on another, to link them
    designer.link(pile, keep, "input")
    return pile, keep


def test_a_card_tag_condition_suggests_the_librarys_tags(designer):
    state = designer.click(designer.points()["library"]["new"])
    assert state["card"]["id"] == "new_card"
    _, keep = filter_fed_by(designer, "CardSource", "DrawPile")
    designer.choose(designer.field(keep, "where.+"), CARD_KEYS.index("tag"))
    assert designer.node_data(keep)["where"] == {"tag": ""}
    designer.type_into(designer.field(keep, "where.tag"), "bas")
    shown = suggested(designer, keep, "tag")
    # Every tag another card lists that starts so, sorted; not the unit tags, no keyword.
    assert shown["words"] == ["bash", "basic_attack", "basic_block"]
    placed_by_the_field(shown)
    designer.designer_shot("where_1_card_tags")
    # The second one with the arrow, taken with Tab: the field holds it, the list is gone.
    designer.key("ArrowDown")
    state = designer.key("Tab")
    assert designer.node_data(keep)["where"] == {"tag": "basic_attack"}
    assert suggested(designer, keep, "tag")["words"] == []
    assert state["focus"]["field"] == "where.tag"
    # A word typed whole offers nothing more; one no card uses offers nothing.
    designer.type_into(designer.field(keep, "where.tag"), "stun")
    assert suggested(designer, keep, "tag")["words"] == []
    designer.type_into(designer.field(keep, "where.tag"), "basic_attack")
    assert designer.node_data(keep)["where"] == {"tag": "basic_attack"}


def test_unit_conditions_suggest_the_sandbox_battles_statuses_and_unit_tags(designer):
    _, keep = filter_fed_by(designer, "UnitSource", "AllEnemies")
    designer.choose(designer.field(keep, "where.+"), UNIT_KEYS.index("status"))
    designer.type_into(designer.field(keep, "where.status"), "t")
    assert suggested(designer, keep, "status")["words"] == [s for s in STATUSES if s[0] == "t"]
    # Taken with a click on its row.
    designer.type_into(designer.field(keep, "where.status"), "b")
    shown = suggested(designer, keep, "status")
    assert shown["words"] == ["burn"], shown
    placed_by_the_field(shown)
    designer.click(shown["rows"][0])
    assert designer.node_data(keep)["where"] == {"status": "burn"}
    # The unit tag key offers the units' tags, not the cards' (both keys are named tag).
    designer.choose(designer.field(keep, "where.+"), UNIT_KEYS.index("tag"))
    designer.type_into(designer.field(keep, "where.tag"), "b")
    words = suggested(designer, keep, "tag")["words"]
    assert words == [t for t in UNIT_TAGS if t.startswith("b")] and "bash" not in words, words
    designer.designer_shot("where_2_unit_tags")
    designer.key("Enter")
    assert designer.node_data(keep)["where"] == {"status": "burn", "tag": words[0]}


def test_a_node_field_on_a_status_suggests_the_statuses_too(designer):
    apply = designer.add_node("ApplyStatus")
    designer.type_into(designer.field(apply, "status"), "we")
    shown = designer.state["graph_suggestions"][apply]["status"]
    assert shown["words"] == [s for s in STATUSES if s.startswith("we")] == ["weak"], shown
    placed_by_the_field(shown)
    designer.designer_shot("where_3_node_status")
    designer.key("Tab")
    assert designer.node_data(apply)["status"] == "weak"


def test_the_saved_library_holds_the_exact_words(designer, library_file):
    since = designer.mark()
    designer.do({"key": "Control+s"})
    saved = designer.wait_for("saved", since)
    document = json.loads(library_file.read_text("utf-8"))
    assert saved["text"] == library_file.read_text("utf-8")
    card = next(c for c in document["cards"] if c["id"] == "new_card")
    nodes = card["behavior"]["nodes"]
    assert [n["status"] for n in nodes if n["type"] == "ApplyStatus"] == ["weak"]
    wheres = sorted((json.dumps(n["where"]) for n in nodes if "where" in n), key=len)
    unit_tag = next(t for t in UNIT_TAGS if t.startswith("b"))
    assert wheres == ['{"tag": "basic_attack"}', json.dumps({"status": "burn", "tag": unit_tag})]


def test_the_engine_reported_no_errors(designer):
    assert designer.errors == []
