"""A card with no text of its own reads in the player's language in battle (issue #24, point
4): every state a host receives gives such a card ``text_message``, the describer's sentence
for it as ``describe`` gives; a card whose text is the game's own gets none (its catalog
translates that text). The state still opens again as a battle."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from pybridge.examples import demo_battle
from pybridge.protocol import Protocol
from pybridge.runtime.sentences import english
from pybridge.runtime.vocabulary import BUILTIN
from pybridge.service import new_protocol

GERMAN = Path(__file__).resolve().parent.parent / "demo_project" / "locale" / "de.po"
Doc = dict[str, Any]


def call(proto: Protocol, op: str, **fields: Any) -> Doc:
    answer = json.loads(proto.call(json.dumps({"op": op, **fields})))
    assert answer["ok"], answer
    result: Doc = answer["result"]
    return result


def untexted() -> Doc:
    """The demo battle with Strike and Defend left without a text of their own."""
    battle = demo_battle()
    for card in battle["cards"]:
        if card["id"] in ("strike", "defend"):
            del card["text"]
    return battle


def cards_of(state: Doc) -> dict[str, Doc]:
    return {card["id"]: card for card in state["cards"]}


def test_a_card_without_text_carries_the_describers_sentence_in_every_state() -> None:
    proto = new_protocol()  # with the authoring operations: describe
    opened = call(proto, "open", battle=untexted())
    session = opened["session"]
    states = [
        opened["state"],
        call(proto, "state", session=session)["state"],
        call(proto, "play", session=session, card="h1", target="goblin")["state"],
        call(proto, "end_turn", session=session)["state"],
        call(proto, "state", session=session, viewer="player")["state"],
    ]
    described = call(proto, "describe", session=session, card="d2")  # a Strike
    for state in states:
        cards = cards_of(state)
        assert cards["strike"]["text"] == ""  # the document: no text of its own
        assert cards["strike"]["text_message"] == described["text_message"]
        assert english(BUILTIN.messages, cards["strike"]["text_message"]) == described["text"]
        assert "text_message" in cards["defend"]
        assert "text_message" not in cards["mend"]  # the game's own text


def test_a_state_with_card_sentences_opens_again_as_the_same_battle() -> None:
    proto = new_protocol()
    state = call(proto, "open", battle=untexted())["state"]
    assert "text_message" in cards_of(state)["strike"]
    again = call(proto, "open", battle=state)["state"]
    assert again == state


def test_the_protocol_alone_gives_no_card_sentences() -> None:
    """protocol.py knows only the runtime: the describer's sentences come with the service."""
    state = call(Protocol(), "open", battle=untexted())["state"]
    assert all("text_message" not in card for card in state["cards"])


def test_the_describers_sentence_reads_in_german() -> None:
    pytest.importorskip("polib")
    from pybridge.translating import Translator

    state = call(new_protocol(), "open", battle=untexted())["state"]
    german = Translator(GERMAN).say(cards_of(state)["strike"]["text_message"])
    assert german and "damage" not in german and "Schaden" in german, german
