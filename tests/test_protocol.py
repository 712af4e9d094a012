"""The JSON protocol: the documented examples, errors, atomicity, sessions, threads, stdio."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest

from pybridge import protocol, service
from pybridge.examples import demo_battle
from pybridge.protocol import MAX_REQUEST_BYTES, Protocol

from .stdio_support import serve_stdio

DOC = Path(__file__).resolve().parent.parent / "docs" / "protocol.md"


def matches(documented: Any, actual: Any) -> bool:
    """``"..."`` in the documentation stands for any value (or, last in a list, any tail)."""
    if documented == "...":
        return True
    if isinstance(documented, dict):
        return (
            isinstance(actual, dict)
            and documented.keys() == actual.keys()
            and all(matches(v, actual[k]) for k, v in documented.items())
        )
    if isinstance(documented, list):
        if not isinstance(actual, list):
            return False
        if documented and documented[-1] == "...":
            head = documented[:-1]
            return len(actual) >= len(head) and all(map(matches, head, actual))
        return len(documented) == len(actual) and all(map(matches, documented, actual))
    return bool(documented == actual)


def documented_exchanges() -> list[tuple[str, str]]:
    blocks = re.findall(r"```json (request|response)\n(.*?)```", DOC.read_text("utf-8"), re.S)
    kinds = [kind for kind, _ in blocks]
    assert kinds == ["request", "response"] * (len(blocks) // 2)
    texts = [text for _, text in blocks]
    return list(zip(texts[::2], texts[1::2], strict=True))


def test_every_documented_example_gives_the_documented_response() -> None:
    proto = service.new_protocol()
    exchanges = documented_exchanges()
    assert len(exchanges) >= 10
    ops = set()
    for request, response in exchanges:
        actual = json.loads(proto.call(request))
        assert matches(json.loads(response), actual), (request, actual)
        ops.add(json.loads(request)["op"])
    assert ops == set(json.loads(proto.call('{"op":"version"}'))["result"]["ops"])


def call(proto: Protocol, **request: Any) -> dict[str, Any]:
    result: dict[str, Any] = json.loads(proto.call(json.dumps(request)))
    return result


def open_demo(proto: Protocol) -> str:
    opened = call(proto, op="open", battle=demo_battle())
    assert opened["ok"], opened
    return str(opened["result"]["session"])


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("", "bad_json"),
        ("{", "bad_json"),
        ('{"op": NaN}', "bad_json"),
        ('{"op": "version", "x": Infinity}', "bad_json"),
        ("[1, 2]", "bad_request"),
        ('"version"', "bad_request"),
        ('{"id": 3}', "unknown_op"),
        ('{"op": "fly"}', "unknown_op"),
        ('{"op": 7}', "unknown_op"),
        ('{"op": "state", "session": "nope"}', "unknown_session"),
        ('{"op": "open"}', "invalid_field"),
        ('{"op": "open", "battle": [1]}', "invalid_field"),
        ("[" * 100 + "]" * 100, "bad_request"),
        ('{"op": "version", "x": ' + "[" * 100 + "]" * 100 + "}", "too_deep"),
        ("[" * 100000 + "]" * 100000, "too_deep"),
    ],
)
def test_bad_requests_get_error_responses(text: str, code: str) -> None:
    response = json.loads(Protocol().call(text))
    assert response["ok"] is False and response["error"]["code"] == code, response


def test_bytes_invalid_utf8_and_oversized_requests() -> None:
    proto = Protocol()
    assert json.loads(proto.call(b'{"op":"version","id":"\xc3\xa9"}'))["id"] == "é"
    assert json.loads(proto.call(b"\xff\xfe"))["error"]["code"] == "bad_utf8"
    big = '{"op":"version","pad":"' + "x" * MAX_REQUEST_BYTES + '"}'
    assert json.loads(proto.call(big))["error"]["code"] == "too_large"
    assert json.loads(proto.call(big.encode()))["error"]["code"] == "too_large"


def test_the_request_id_is_echoed_even_on_errors() -> None:
    response = json.loads(Protocol().call('{"op": "fly", "id": {"n": [1]}}'))
    assert response["id"] == {"n": [1]}


@pytest.mark.parametrize(
    ("request_fields", "code", "where"),
    [
        ({"card": "h1"}, "target_required", "target"),
        ({"card": "h1", "target": "knight"}, "not_a_candidate", "target"),
        ({"card": "h1", "target": "dragon"}, "unknown_unit", "target"),
        ({"card": "h2", "target": "orc"}, "target_not_allowed", "target"),
        ({"card": "zz"}, "unknown_card", "card"),
        ({"card": "d1"}, "not_in_hand", "card"),
        ({"card": ["h1"]}, "unknown_card", "card"),
        ({}, "unknown_card", "card"),
    ],
)
def test_refused_plays_change_nothing(
    request_fields: dict[str, Any], code: str, where: str
) -> None:
    proto = Protocol()
    session = open_demo(proto)
    before = call(proto, op="state", session=session)
    for op in ("play", "preview"):
        response = call(proto, op=op, session=session, **request_fields)
        assert response["error"]["code"] == code and response["error"]["where"] == where
    assert call(proto, op="state", session=session) == before


def test_an_internal_fault_mid_play_leaves_the_session_unchanged(monkeypatch) -> None:
    proto = Protocol()
    session = open_demo(proto)
    before = call(proto, op="state", session=session)

    def explode(node, ctx, units):
        units[0].hp = 1  # half-applied, then a fault
        raise RuntimeError("boom")

    from pybridge.words import actions

    monkeypatch.setattr(actions, "living_targets", explode)  # every unit action calls it
    response = call(proto, op="play", session=session, card="h2")
    assert response["error"]["code"] == "internal_error" and "boom" in response["error"]["message"]
    monkeypatch.undo()  # the state's intent forecasts play the enemies' moves too
    assert call(proto, op="state", session=session) == before


class _FailingEncoder:
    """Fails to write any result holding a battle state (as when memory runs out)."""

    def __init__(self, real: Any) -> None:
        self.real = real

    def encode(self, value: Any) -> str:
        if isinstance(value, dict) and "state" in value:
            raise MemoryError("no room for the response")
        return str(self.real.encode(value))


def test_a_response_that_cannot_be_built_changes_nothing(monkeypatch) -> None:
    proto = Protocol()
    session = open_demo(proto)
    before = call(proto, op="state", session=session)
    sessions = len(proto._sessions)
    monkeypatch.setattr(protocol, "_ENCODER", _FailingEncoder(protocol._ENCODER))
    for request in ({"op": "play", "session": session, "card": "h1", "target": "orc"},
                    {"op": "end_turn", "session": session},
                    {"op": "open", "battle": demo_battle()}):  # fmt: skip
        response = call(proto, **request)
        assert response["error"]["code"] == "internal_error", response
        assert "MemoryError" in response["error"]["message"]
    monkeypatch.undo()
    assert call(proto, op="state", session=session) == before
    assert len(proto._sessions) == sessions  # the failed open kept no session


def test_sessions_are_independent() -> None:
    proto = Protocol()
    first, second = open_demo(proto), open_demo(proto)
    assert first != second
    assert call(proto, op="play", session=first, card="h1", target="orc")["ok"]
    one = call(proto, op="state", session=first)["result"]["state"]
    two = call(proto, op="state", session=second)["result"]["state"]
    assert one["units"][4]["hp"] == 32 and two["units"][4]["hp"] == 34
    assert call(proto, op="close", session=first)["ok"]
    assert call(proto, op="state", session=second)["ok"]


def test_open_accepts_its_own_state_back() -> None:
    proto = Protocol()
    session = open_demo(proto)
    call(proto, op="play", session=session, card="h8")
    state = call(proto, op="state", session=session)["result"]["state"]
    copy = call(proto, op="open", battle=state)["result"]["session"]
    assert call(proto, op="state", session=copy)["result"]["state"] == state


def test_many_threads_on_one_protocol() -> None:
    proto = Protocol()
    failures: list[Any] = []

    def worker() -> None:
        session = open_demo(proto)
        for _ in range(30):
            for request in (
                {"op": "targets", "card": "h1"},
                {"op": "preview", "card": "h1", "target": "orc"},
            ):
                response = call(proto, session=session, **request)
                if not response["ok"]:
                    failures.append(response)
        played = call(proto, op="play", session=session, card="h1", target="orc")
        if played["result"]["state"]["units"][4]["hp"] != 32:
            failures.append(played)

    threads = [threading.Thread(target=worker) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failures == []


def test_the_service_call_uses_one_shared_instance_with_every_op() -> None:
    session = json.loads(service.call(json.dumps({"op": "open", "battle": demo_battle()})))
    sid = session["result"]["session"]
    assert json.loads(service.call(json.dumps({"op": "state", "session": sid})))["ok"]
    described = json.loads(service.call(json.dumps({"op": "describe", "session": sid,
                                                    "card": "h1"})))  # fmt: skip
    assert described["ok"] and described["result"]["card"] == "strike"
    assert json.loads(service.call(json.dumps({"op": "close", "session": sid})))["ok"]


def test_the_protocol_alone_knows_only_the_runtime() -> None:
    """protocol.py imports only the runtime: lint and describe come with pybridge.service."""
    code = (
        "import sys, pybridge.protocol as p; "
        "print(sorted(m for m in sys.modules if m.startswith('pybridge.authoring')))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout.strip()  # fmt: skip
    assert out == "[]"
    ops = json.loads(Protocol().call('{"op":"version"}'))["result"]["ops"]
    assert "lint" not in ops and "schema" in ops


# -- stdio ---------------------------------------------------------------------------------
def test_stdio_server_answers_line_by_line_and_survives_bad_lines() -> None:
    lines = [
        b'{"op": "version", "id": 1}',
        b"not json",
        b"",
        b"\xff\xfe",
        json.dumps({"op": "open", "id": 2, "battle": demo_battle()}).encode(),
        b'{"op": "play", "id": 3, "session": "s1", "card": "h1", "target": "orc"}',
        b'{"op": "play", "id": 4, "session": "s1", "card": "h1", "target": "orc"}',
        b"x" * (MAX_REQUEST_BYTES + 10),
        b'{"op": "close", "id": 5, "session": "s1"}',
    ]
    replies, errors = serve_stdio(lines)
    assert [r.get("id") for r in replies] == [1, None, None, 2, 3, 4, None, 5]
    assert [r["ok"] for r in replies] == [True, False, False, True, True, False, False, True]
    assert [r["error"]["code"] for r in replies if not r["ok"]] == [
        "bad_json",
        "bad_utf8",
        "not_in_hand",
        "too_large",
    ]
    assert errors == b""


def test_stdio_server_keeps_a_process_open_for_a_conversation() -> None:
    server = subprocess.Popen(
        [sys.executable, "-m", "pybridge.cli", "serve", "--stdio"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
    )
    assert server.stdin is not None and server.stdout is not None
    try:
        for n in range(3):
            server.stdin.write(json.dumps({"op": "version", "id": n}).encode() + b"\n")
            server.stdin.flush()
            assert json.loads(server.stdout.readline())["id"] == n
    finally:
        server.stdin.close()
        assert server.wait(timeout=30) == 0


@pytest.mark.parametrize(
    "id_text",
    ['"\\ud800"', '["ok", "\\udfff"]', str(2**53 + 1), str(-(10**400)), '{"n": ' + "9" * 30 + "}"],
)
def test_an_id_the_host_could_not_read_back_is_refused_and_not_echoed(id_text: str) -> None:
    response = json.loads(Protocol().call('{"op": "version", "id": ' + id_text + "}"))
    assert response["ok"] is False and response["id"] is None
    assert response["error"]["code"] == "invalid_id" and response["error"]["where"] == "id"


@pytest.mark.parametrize(
    "request_id", [None, True, "r-1", "\U0001f600", 2**53, -2.5, [1, {"a": "b"}]]
)
def test_every_id_a_host_can_read_is_echoed(request_id: object) -> None:
    response = json.loads(Protocol().call(json.dumps({"op": "version", "id": request_id})))
    assert response["ok"] and response["id"] == request_id
