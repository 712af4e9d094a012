"""A request holds only the fields its op takes, its answers only the choices it asks, and the
error codes a request can meet are the ones docs/protocol.md lists."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from pybridge import extensions, protocol
from pybridge.examples import demo_battle
from pybridge.runtime import errors
from pybridge.service import new_protocol

ROOT = Path(__file__).resolve().parent.parent
DEMO = ROOT / "demo_project"
MECHANICS = DEMO / "extensions" / "mechanics.py"
LIBRARY = json.loads((DEMO / "cards" / "mechanics.json").read_text("utf-8"))


def call(proto: Any, **request: Any) -> dict[str, Any]:
    answer: dict[str, Any] = json.loads(proto.call(json.dumps(request)))
    return answer


def opened() -> tuple[Any, dict[str, Any]]:
    proto = new_protocol()
    call(proto, op="open", battle=demo_battle())
    return proto, call(proto, op="state", session="s1")


@pytest.mark.parametrize("op", sorted(protocol.OP_FIELDS))
def test_every_op_refuses_a_field_it_does_not_take(op: str) -> None:
    proto, before = opened()
    session = {"session": "s1"} if "session" in protocol.OP_FIELDS[op] else {}
    answer = call(proto, op=op, **session, tagret="imp")
    error = answer["error"]
    assert error["code"] == "invalid_field" and error["where"] == "tagret", error
    assert f"{op} takes no field 'tagret'" in error["message"]
    for field in protocol.OP_FIELDS[op] | {"op", "id"}:
        assert field in error["message"]
    assert call(proto, op="state", session="s1") == before


def test_the_protocol_doc_lists_each_op_s_fields() -> None:
    text = (ROOT / "docs" / "protocol.md").read_text("utf-8")
    table = text.split("## Request fields", 1)[1].split("\n## ", 1)[0]
    documented = {
        row[0].strip(" `"): set(re.findall(r"`([a-z_]+)`", row[1]))
        for row in (line.split("|")[1:3] for line in table.splitlines() if line.startswith("| `"))
    }  # fmt: skip
    proto = new_protocol()
    served = call(proto, op="version")["result"]["ops"]
    assert sorted(documented) == sorted(served)
    for op in served:
        assert documented[op] == set(proto.fields(op) or ()), op


def test_the_authoring_ops_say_their_fields_too() -> None:
    proto, _ = opened()
    error = call(proto, op="lint", document={}, documnet={})["error"]
    assert error["code"] == "invalid_field" and error["where"] == "documnet"
    assert "takes document, id, op" in error["message"]


def test_a_typo_in_a_play_is_refused_and_changes_nothing() -> None:
    proto, before = opened()
    card = before["result"]["state"]["piles"]["hand"][0]["id"]
    error = call(proto, op="play", session="s1", card=card, tagret="x")["error"]
    assert (error["code"], error["where"]) == ("invalid_field", "tagret"), error
    assert "target" in error["message"]
    assert call(proto, op="state", session="s1") == before


def test_a_host_of_its_own_may_register_an_op_without_saying_its_fields() -> None:
    proto = new_protocol()
    proto.register("echo", lambda request: {"echo": request.get("anything")})
    assert call(proto, op="echo", anything=1, more=2)["result"] == {"echo": 1}


def scry_protocol() -> tuple[Any, str, dict[str, Any]]:
    proto = new_protocol(words=extensions.load([MECHANICS]).words)
    battle = json.loads((DEMO / "battles" / "party_battle.json").read_text("utf-8"))
    call(proto, op="open", battle=battle, libraries=[LIBRARY])
    state = call(proto, op="state", session="s1")
    hand = state["result"]["state"]["piles"]["hand"]
    card = next(c["id"] for c in hand if c["card"] == "foresight")
    return proto, card, state


def test_an_answer_to_a_choice_the_play_does_not_ask_is_refused() -> None:
    proto, card, before = scry_protocol()
    asked = call(proto, op="play", session="s1", card=card)["error"]["choice"]
    first = asked["options"][0]
    answer = call(proto, op="play", session="s1", card=card,
                  choices={asked["key"]: [first], "lok": [first]})  # fmt: skip
    error = answer["error"]
    assert (error["code"], error["where"]) == ("invalid_field", "choices.lok"), error
    assert "'lok' answers no choice this request asks (asked: look)" in error["message"]
    assert call(proto, op="state", session="s1") == before
    defend = next(c["id"] for c in before["result"]["state"]["piles"]["hand"]
                  if c["card"] == "defend")  # fmt: skip
    error = call(proto, op="play", session="s1", card=defend, choices={"look": []})["error"]
    assert (error["code"], error["where"]) == ("invalid_field", "choices.look"), error


def test_one_id_alone_answers_a_choice_as_pick_reads_it() -> None:
    proto, card, _ = scry_protocol()
    asked = call(proto, op="play", session="s1", card=card)["error"]["choice"]
    first = asked["options"][0]
    picked = call(proto, op="pick", session="s1", choice=asked, chosen=first)["result"]
    assert picked["chosen"] == [first]
    alone = call(proto, op="play", session="s1", card=card, choices={"look": first})
    assert alone["ok"], alone
    kept = [e for e in alone["result"]["events"] if e["type"] == "choice_made"]
    assert kept[0]["chosen"] == [first]


def test_choices_that_are_no_object_are_told_what_a_play_s_choices_are() -> None:
    proto, card, _ = scry_protocol()
    message = call(proto, op="play", session="s1", card=card, choices="x")["error"]["message"]
    assert "Cut entry ids to unit ids" not in message
    assert "the key its choice_needed error gave" in message and "list of ids" in message
    message = call(proto, op="resolve", session="s1", choices="x")["error"]["message"]
    assert "a Cut entry's id to the unit ids" in message


def documented_codes() -> set[str]:
    text = (ROOT / "docs" / "protocol.md").read_text("utf-8")
    table = text.split("## Error codes", 1)[1].split("\n## ", 1)[0]
    rows = [line.split("|")[1] for line in table.splitlines() if line.startswith("| `")]
    return {code for row in rows for code in re.findall(r"`([a-z0-9_]+)`", row)}


def test_every_error_code_a_request_can_meet_is_documented() -> None:
    raised = {cls.code for cls in _subclasses(errors.TargetingError) if cls.code != "invalid"}
    source = (ROOT / "pybridge" / "protocol.py").read_text("utf-8")
    raised |= set(re.findall(r'ProtocolError\(\s*"([a-z_]+)"', source))
    raised |= {"bad_utf8", "internal_error", "unknown_op"}
    assert raised - documented_codes() == set()


def _subclasses(cls: type[errors.TargetingError]) -> list[type[errors.TargetingError]]:
    found = [cls]
    for sub in cls.__subclasses__():
        found += _subclasses(sub)
    return found
