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
