"""What a filter key's values are drawn from (its ``suggests``, a word list of the schema), so
an editor can offer the tags, keywords and statuses a game uses while a designer types one.

The built-in keys say it through the extension API, as a game's own key can; each word list
says where the words in use are found (a field of the cards, of a battle's units, a table of
the battle or of the schema), and those places hold what the keys test.
"""

from __future__ import annotations

import json
import textwrap
from pathlib import Path
from typing import Any

import pytest

from pybridge import extensions
from pybridge.extend import Field
from pybridge.runtime.definitions import _CARD_KEYS
from pybridge.runtime.document import _BATTLE_KEYS, _UNIT_KEYS, load_battle
from pybridge.runtime.filters import WORD_LISTS, card_predicate, unit_predicate
from pybridge.runtime.schema import vocabulary
from pybridge.service import new_protocol

from .test_addon_rules import ROOT, string_literals

SCHEMA = vocabulary()
DRAW = {"id": "d", "type": "Draw", "count": 1}
CARD = {"id": "probe", "name": "Probe", "type": "skill", "rarity": "rare", "cost": 1,
        "keywords": ["Exhaust"], "tags": ["card_draw"], "target": "None", "text": "Draw 1.",
        "behavior": {"start": "d", "nodes": [DRAW]}}  # fmt: skip


def suggested(kind: str, schema: dict[str, Any] = SCHEMA) -> dict[str, str]:
    return {k["name"]: k["suggests"] for k in schema["filters"][kind] if "suggests" in k}


def sandbox() -> dict[str, Any]:
    answer = json.loads(new_protocol().call(json.dumps({"op": "sandbox", "card": CARD})))
    battle: dict[str, Any] = answer["result"]["battle"]
    return battle


def test_the_built_in_keys_on_a_library_word_say_which_word_list() -> None:
    assert suggested("units") == {"tag": "unit_tags", "status": "statuses"}
    assert suggested("cards") == {"type": "card_types", "rarity": "rarities",
                                  "keyword": "keywords", "tag": "card_tags"}  # fmt: skip
    # Only keys that take a typed word suggest: a choice lists its values, a number has none.
    for kind in ("units", "cards"):
        for key in SCHEMA["filters"][kind]:
            assert ("suggests" in key) == (key["type"] == "id"), key


def test_each_word_list_names_places_the_documents_have() -> None:
    lists = {entry["name"]: entry for entry in SCHEMA["word_lists"]}
    assert lists.keys() == WORD_LISTS.keys()
    for entry in lists.values():
        places = {place: entry[place] for place in ("cards", "units", "battle", "schema")
                  if place in entry}  # fmt: skip
        assert places and entry["doc"], entry
        assert places.get("cards", "id") in _CARD_KEYS
        assert places.get("units", "id") in _UNIT_KEYS
        assert places.get("battle", "units") in _BATTLE_KEYS
        assert places.get("schema", "rules") in SCHEMA


def test_the_words_found_where_a_list_says_are_the_words_its_key_tests() -> None:
    battle = sandbox()
    units, loaded = battle["units"], load_battle(battle).units
    lists = {entry["name"]: entry for entry in SCHEMA["word_lists"]}
    for key_name, list_name in suggested("units").items():
        field = lists[list_name]["units"]
        words = {word for unit in units for word in unit.get(field, {})}
        assert len(words) >= 2, (key_name, words)
        for word in words:  # every word gathered keeps some unit, a made-up one none
            assert any(map(unit_predicate({key_name: word}), loaded)), (key_name, word)
        assert not any(map(unit_predicate({key_name: "no_such_word"}), loaded)), key_name
    # The statuses a battle defines are a table of rows named by id.
    assert {row["id"] for row in battle[lists["statuses"]["battle"]]} >= {
        word for unit in units for word in unit.get("statuses", {})
    }
    assert lists["keywords"]["schema"] == "keywords" and SCHEMA["keywords"]


def test_a_card_key_tests_the_card_field_its_list_reads() -> None:
    loaded = load_battle(sandbox())
    probe = next(c for c in loaded.cards.values() if c.card.id == CARD["id"])
    lists = {entry["name"]: entry for entry in SCHEMA["word_lists"]}
    for key_name, list_name in suggested("cards").items():
        value = CARD[lists[list_name]["cards"]]  # the word as the card's JSON spells it
        word = value[0] if isinstance(value, list) else value
        assert card_predicate({key_name: word})(probe), (key_name, word)
        assert not card_predicate({key_name: "no_such_word"})(probe), key_name


def test_the_status_fields_of_node_types_say_so_too() -> None:
    suggesting = {(spec["name"], f["name"]): f["suggests"] for spec in SCHEMA["node_types"]
                  for f in spec["fields"] if "suggests" in f}  # fmt: skip
    on_a_status = ("ApplyStatus", "RemoveStatus", "Condition", "Sort")
    assert suggesting == {(name, "status"): "statuses" for name in on_a_status}
    # Every field on a status says it; and only id fields suggest.
    for spec in SCHEMA["node_types"]:
        for f in spec["fields"]:
            assert (f["name"] == "status") == ("suggests" in f), (spec["name"], f)
            assert "suggests" not in f or f["type"] == "id", f
    with pytest.raises(ValueError, match="suggests 'status' is not a word list"):
        Field("status", "id", "a typo", suggests="status")
    assert Field("element", "id", "x", suggests="unit_tags").to_json()["suggests"] == "unit_tags"


GAME_KEYS = """
from pybridge.extend import Words

NAME, VERSION = "elements", "0.1"


def register(words: Words) -> None:
    words.unit_filter("element", doc="units of this element", type="id",
                      test=lambda want: lambda unit: want in unit.tags, suggests="unit_tags")
    words.card_filter("school", doc="cards of this school", type="id",
                      test=lambda want: lambda card: want in card.card.tags,
                      suggests="card_tags")
    words.card_filter("plain", doc="no word list", type="id",
                      test=lambda want: lambda card: True)
"""


def test_a_games_filter_key_says_its_word_list_the_same_way(tmp_path: Path) -> None:
    path = tmp_path / "elements.py"
    path.write_text(GAME_KEYS, "utf-8")
    schema = vocabulary(extensions.load([path]).words)
    assert suggested("units", schema)["element"] == "unit_tags"
    assert suggested("cards", schema)["school"] == "card_tags"
    assert "plain" not in suggested("cards", schema)
    school = next(k for k in schema["filters"]["cards"] if k["name"] == "school")
    assert school["extension"] == "elements"


def test_a_key_naming_no_word_list_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "typo.py"
    path.write_text(textwrap.dedent('''
        def register(words):
            words.unit_filter("element", doc="x", type="id", suggests="unit_tag",
                              test=lambda want: lambda unit: True)
        '''), "utf-8")  # fmt: skip
    with pytest.raises(extensions.ExtensionError, match="suggests 'unit_tag' is not a word list"):
        extensions.load([path])


def test_the_workshop_gathers_the_words_without_naming_a_filter_key() -> None:
    """Which keys suggest, and what, is the schema's answer: the GDScript that offers the
    words spells no filter key, no word list and no place the words are read from."""
    keys = {key["name"] for kind in ("units", "cards") for key in SCHEMA["filters"][kind]}
    places = {e[p] for e in SCHEMA["word_lists"] for p in ("cards", "units", "battle") if p in e}
    # A key's own facts are read by their names (its "type" is its value type, not the key).
    facts = {fact for kind in ("units", "cards") for key in SCHEMA["filters"][kind] for fact in key}
    spelled = (keys | set(WORD_LISTS) | places) - facts
    workshop = ROOT / "addons" / "pybridge_targeting" / "workshop"
    names = ("where_editor", "word_lists", "completer", "field_editor")
    for name in (f"pybridge_{name}.gd" for name in names):
        literals = string_literals((workshop / name).read_text("utf-8"))
        assert literals and not spelled & set(literals), (name, spelled & set(literals))
    assert {"tag", "status", "keyword", "card_tags", "statuses"} <= spelled
