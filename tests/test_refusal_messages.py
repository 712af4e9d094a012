"""A refused request a player can meet says why as a sentence (issue #24, point 4): the error
answer carries ``reason``, the English a player reads, and ``reason_message``, its message,
beside the developer's ``message``; a malformed request a developer meets carries neither.
The schema marks the sentences whose first letter a host writes as a capital."""

from __future__ import annotations

import json
from typing import Any

import pytest

from pybridge.examples import demo_battle
from pybridge.protocol import Protocol
from pybridge.runtime.schema import vocabulary
from pybridge.runtime.sentences import CAPITALIZED, english
from pybridge.runtime.vocabulary import BUILTIN

Doc = dict[str, Any]


def refused(battle: Doc, *plays: Doc) -> Doc:
    """The error answer to the last of ``plays`` (the ones before it must be played)."""
    proto = Protocol()
    opened = json.loads(proto.call(json.dumps({"op": "open", "battle": battle})))
    session = opened["result"]["session"]
    answer: Doc = {}
    for play in plays:
        answer = json.loads(proto.call(json.dumps({"op": "play", "session": session, **play})))
    assert not answer["ok"], answer
    error: Doc = answer["error"]
    return error


def with_hand(card: str, owner: str) -> Doc:
    battle = demo_battle()
    battle["piles"]["hand"].append({"id": "x1", "card": card, "owner": owner})
    return battle


def fallen_cleric() -> Doc:
    battle = demo_battle()
    next(u for u in battle["units"] if u["id"] == "cleric")["hp"] = 0
    return battle


CASES = {
    "energy": (demo_battle(), [{"card": "h2"}, {"card": "h12"}], "refusal.energy",
               "needs 2 energy, 1 left"),
    "not a target": (demo_battle(), [{"card": "h1", "target": "knight"}],
                     "refusal.not_a_target", "Knight is not a valid target"),
    "owner down": (fallen_cleric(), [{"card": "h4", "target": "knight"}],
                   "refusal.source_down", "Cleric is down"),
    "condition": (with_hand("coup_de_grace", "knight"), [{"card": "x1"}], "refusal.condition",
                  "No enemy is below half health."),
}  # fmt: skip


@pytest.mark.parametrize("case", CASES)
def test_a_refused_play_says_its_reason_as_a_message(case: str) -> None:
    battle, plays, message_id, reason = CASES[case]
    error = refused(battle, *plays)
    assert error["reason"] == reason
    assert error["reason_message"]["id"] == message_id
    assert english(BUILTIN.messages, error["reason_message"]) == reason
    assert error["message"] != reason  # the developer's text names the request's ids


def test_a_protected_target_names_its_protection_in_the_sentence() -> None:
    battle = demo_battle()
    battle["statuses"].append({"id": "ward", "name": "Ward", "protection": "single"})
    next(u for u in battle["units"] if u["id"] == "goblin")["statuses"] = {"ward": 1}
    error = refused(battle, {"card": "h1", "target": "goblin"})
    said = error["reason_message"]
    assert said["id"] == "refusal.explained"
    assert said["params"]["reason"]["id"] == "refusal.not_a_target"
    assert english(BUILTIN.messages, said) == error["reason"]
    assert "Ward" in error["reason"]


@pytest.mark.parametrize(
    "play",
    [{"card": "nope"}, {"card": "h1"}, {"card": "h1", "target": "nobody"}, {"card": 7}],
)
def test_a_malformed_play_carries_no_reason(play: Doc) -> None:
    error = refused(demo_battle(), play)
    assert "reason" not in error and "reason_message" not in error, error


def test_the_schema_marks_the_sentences_a_host_capitalizes() -> None:
    rows = vocabulary(BUILTIN)["messages"]
    assert isinstance(rows, list)
    assert {row["id"] for row in rows if row.get("capital")} == CAPITALIZED
    assert all(row.get("capital") in (None, True) for row in rows)
