"""The editor's operations: a sandbox battle around the edited card, and a library's canonical
text (what the Workshop saves)."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from pybridge.examples import demo_battle
from pybridge.runtime import LIBRARY_FORMAT
from pybridge.service import new_protocol


def demo_library() -> dict[str, Any]:
    return {"format": LIBRARY_FORMAT, "cards": demo_battle()["cards"]}


def call(protocol: Any, **request: Any) -> dict[str, Any]:
    answer: dict[str, Any] = json.loads(protocol.call(json.dumps(request)))
    return answer


@pytest.mark.parametrize("index", range(len(demo_battle()["cards"])))
def test_every_demo_card_can_be_aimed_and_played_in_its_sandbox(index: int) -> None:
    protocol = new_protocol()
    library = demo_library()
    card = library["cards"][index]
    made = call(protocol, op="sandbox", card=card, library=library)
    assert made["ok"], made
    opened = call(protocol, op="open", battle=made["result"]["battle"])
    assert opened["ok"], opened
    sid = opened["result"]["session"]
    info = call(protocol, op="targets", session=sid, card="sandbox")["result"]
    assert info["playable"], (card["id"], info["reason"])
    target = info["candidates"][0] if info["requires_target"] else None
    played = call(protocol, op="play", session=sid, card="sandbox", target=target)
    assert played["ok"], played
    assert played["result"]["log"][0]["text"].startswith(f"Knight plays {card['name']}")


def test_the_sandbox_has_something_for_every_source_to_act_on() -> None:
    made = call(new_protocol(), op="sandbox", card=demo_library()["cards"][0],
                library=demo_library())["result"]["battle"]  # fmt: skip
    units = {u["id"]: u for u in made["units"]}
    assert any(u["hp"] == 0 for u in units.values())  # AllDeadAllies, Revive
    assert any(u.get("zone") == "reserve" for u in units.values())  # Deploy
    assert any(u.get("armor") for u in units.values()) and made["piles"]["draw"]
    assert made["piles"]["hand"] == [{"id": "sandbox", "card": "strike"}]


def test_a_broken_card_gets_no_sandbox_and_the_error_names_it() -> None:
    card = copy.deepcopy(demo_library()["cards"][0])
    card["behavior"]["nodes"][0]["amount"] = "lots"
    error = call(new_protocol(), op="sandbox", card=card)["error"]
    assert error["code"] == "invalid_field" and error["where"] == "card.behavior.nodes[0].amount"
    assert "card 'strike', node 'hit', field 'amount'" in error["message"]
    assert call(new_protocol(), op="sandbox")["error"]["where"] == "card"


def test_saving_a_canonical_library_without_edits_changes_no_byte() -> None:
    protocol = new_protocol()
    first = call(protocol, op="library_text", document=demo_library())["result"]["text"]
    again = call(protocol, op="library_text", document=json.loads(first))["result"]["text"]
    assert again == first and first.endswith("}\n")
    assert json.loads(first)["format"] == LIBRARY_FORMAT


def test_a_broken_card_is_saved_exactly_as_it_was_beside_the_others() -> None:
    library = demo_library()
    library["cards"][1]["behavior"]["nodes"][0]["sourse"] = "AllOpponents"
    text = call(new_protocol(), op="library_text", document=library)["result"]["text"]
    saved = json.loads(text)
    assert saved["cards"][1] == library["cards"][1]
    assert saved["cards"][0]["keywords"] == []  # a loading card is written in full
    bad = call(new_protocol(), op="library_text", document=[1, 2])["error"]
    assert bad["code"] == "invalid" and bad["where"] == "document"


STRIKE = {"id": "strike", "name": "Strike", "type": "attack", "tags": ["basic_attack"],
          "target": "SingleEnemy", "text": "Deal 6 damage to the selected enemy.",
          "behavior": {"start": "hit", "nodes": [
              {"id": "hit", "type": "DealDamage", "amount": 6, "source": "Opponent"}]}}  # fmt: skip


def test_the_templates_are_the_guides_shapes_and_each_loads_checks_clean_and_plays() -> None:
    protocol = new_protocol()
    templates = call(protocol, op="templates")["result"]["templates"]
    assert [t["name"] for t in templates] == ["single_target_attack", "area_attack", "self_buff",
                                              "selector_chain", "selector_chain_units"]  # fmt: skip
    by_name = {t["name"]: t["card"] for t in templates}
    assert by_name["area_attack"]["target"] == "AllEnemies"
    assert by_name["area_attack"]["text"] == "Deal 15 damage to all enemies."
    chain = [n["type"] for n in by_name["selector_chain"]["behavior"]["nodes"]]
    assert chain == ["CardSource", "Filter", "RandomElements", "MoveCard"]
    library = {"format": LIBRARY_FORMAT, "cards": [STRIKE]}
    for template in templates:
        card = template["card"]
        # The text is the runtime's own for the Behavior, and the checker finds nothing.
        assert call(protocol, op="describe", definition=card)["result"]["text"] == card["text"]
        linted = call(protocol, op="lint", document={"format": LIBRARY_FORMAT, "cards": [card]})
        assert linted["result"]["diagnostics"] == [], template["name"]
        # Each node is drawn right of the one before.
        xs = [n["at"][0] for n in card["behavior"]["nodes"]]
        assert xs == sorted(xs) and len(set(xs)) == len(xs)
        battle = call(protocol, op="sandbox", card=card, library=library)["result"]["battle"]
        sid = call(protocol, op="open", battle=battle)["result"]["session"]
        info = call(protocol, op="targets", session=sid, card="sandbox")["result"]
        target = info["candidates"][0] if info["requires_target"] else None
        played = call(protocol, op="play", session=sid, card="sandbox", target=target)
        assert played["ok"] and played["result"]["events"], template["name"]


def test_the_designer_sets_the_sandboxs_piles() -> None:
    protocol = new_protocol()
    rummage = next(t["card"] for t in call(protocol, op="templates")["result"]["templates"]
                   if t["name"] == "selector_chain")  # fmt: skip
    library = {"format": LIBRARY_FORMAT, "cards": [STRIKE, demo_library()["cards"][1]]}
    piles = {"hand": ["strike"], "draw": ["strike", "strike", "strike"], "discard": ["strike"]}
    made = call(protocol, op="sandbox", card=rummage, library=library, piles=piles)
    battle = made["result"]["battle"]
    assert battle["piles"] == {
        "hand": [{"id": "sandbox", "card": "selector_chain"}, {"id": "hand_1", "card": "strike"}],
        "draw": [{"id": f"draw_{i}", "card": "strike"} for i in (1, 2, 3)],
        "discard": [{"id": "discard_1", "card": "strike"}],
        "exhaust": [],
    }
    sid = call(protocol, op="open", battle=battle)["result"]["session"]
    played = call(protocol, op="play", session=sid, card="sandbox")["result"]
    moved = [e for e in played["events"] if e["type"] == "card_moved"]
    assert any(e.get("to") == "hand" and e["card"].startswith("draw_") for e in moved), moved
    # A pile entry that names no card is refused, naming its place; so is an unknown pile.
    bad = call(protocol, op="sandbox", card=rummage, library=library,
               piles={"draw": ["strike", "nothing"]})["error"]  # fmt: skip
    assert bad["where"] == "piles.draw[1]" and "'nothing'" in bad["message"]
    bad = call(protocol, op="sandbox", card=rummage, piles={"deck": []})["error"]
    assert bad["where"] == "piles" and "'deck'" in bad["message"]


def test_a_log_line_never_names_a_node_type() -> None:
    # A draw-pile card that finds no Basic Attack: its log says so in the player's words.
    protocol = new_protocol()
    rummage = next(t["card"] for t in call(protocol, op="templates")["result"]["templates"]
                   if t["name"] == "selector_chain")  # fmt: skip
    library = {"format": LIBRARY_FORMAT, "cards": [STRIKE, demo_library()["cards"][1]]}
    node_types = {n["name"] for n in call(protocol, op="schema")["result"]["node_types"]}
    lines = []
    for piles in ({"draw": [demo_library()["cards"][1]["id"]]}, {"draw": ["strike"]}):
        battle = call(protocol, op="sandbox", card=rummage, library=library, piles=piles)
        sid = call(protocol, op="open", battle=battle["result"]["battle"])["result"]["session"]
        played = call(protocol, op="play", session=sid, card="sandbox")["result"]
        lines.append([line["text"] for line in played["log"]])
    assert "The effect finds no card to act on and does nothing." in lines[0]
    assert "Strike moves from the draw pile to the hand." in lines[1]
    for text in [t for found in lines for t in found]:
        assert not any(name in text.split() for name in node_types), text


def test_each_mode_suggests_the_sources_that_read_its_targets() -> None:
    protocol = new_protocol()
    suggested = call(protocol, op="templates")["result"]["mode_sources"]
    # The guide's table: single-target attacks use Opponent, ally and random modes read the
    # submitted unit through Target, All Enemies goes through AllOpponents, Self through Self.
    assert suggested["SingleEnemy"] == ["Opponent", "Target"]
    assert suggested["AllEnemies"] == ["AllOpponents"] and suggested["Self"] == ["Self"]
    assert suggested["SingleAlly"] == suggested["AnyUnit"] == ["Target"]
    assert suggested["AllAllies"] == ["AllAllies"] and suggested["None"] == []
    # Each suggestion keeps the mode's contract: the checker finds no mode error.
    for mode, sources in suggested.items():
        for source in sources:
            card = {"id": "c", "name": "C", "target": mode, "behavior": {"start": "a", "nodes": [
                {"id": "a", "type": "GainArmor", "amount": 1, "source": source}]}}  # fmt: skip
            found = call(protocol, op="lint", document={"format": LIBRARY_FORMAT, "cards": [card]})
            errors = [d for d in found["result"]["diagnostics"] if d["severity"] == "error"]
            assert errors == [], (mode, source, errors)
