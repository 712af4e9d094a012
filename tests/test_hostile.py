"""Hostile input at every boundary: each is refused with an error that names the field and the
value, in bounded time, and changes nothing.

The time limits here only detect hangs (a request that never answers); they are generous on
purpose and are not performance claims.
"""

from __future__ import annotations

import functools
import json
import math
import os
import platform
import re
import subprocess
import sys
import textwrap
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from pybridge import answers, protocol, service
from pybridge.examples import demo_battle, rivals_battle
from pybridge.protocol import MAX_MESSAGE, MAX_REQUEST_BYTES, MAX_SESSIONS, MAX_WHERE, Protocol
from pybridge.runtime import FormatError, load_battle, load_library
from pybridge.runtime.definitions import MAX_CARDS
from pybridge.runtime.document import MAX_STATUS_IDS, MAX_UNITS
from pybridge.runtime.graph import MAX_NODES

from .builders import battle_doc, card, party, unit
from .stdio_support import serve_stdio

ROOT = Path(__file__).resolve().parent.parent
HANG = 10.0  # seconds: a hostile request that takes longer is treated as a hang


def answered_within(seconds: float, work: Callable[[], Any]) -> Any:
    """Run ``work`` in a thread; fail if it has not returned after ``seconds``."""
    outcome: list[Any] = []
    failure: list[BaseException] = []

    def run() -> None:
        try:
            outcome.append(work())
        except BaseException as exc:  # reported below, in the test's thread
            failure.append(exc)

    worker = threading.Thread(target=run, daemon=True)
    started = time.monotonic()
    worker.start()
    worker.join(seconds)
    assert not worker.is_alive(), f"no answer after {seconds} s (a hang)"
    if failure:
        raise failure[0]
    assert time.monotonic() - started < seconds
    return outcome[0]


def strict_doc() -> dict[str, Any]:
    """A small strict battle with an enemy response move, so Cut requests have something to
    work on."""
    blink = {
        "id": "blink",
        "name": "Blink",
        "target": "OtherAlly",
        "response": True,
        "behavior": {
            "start": "away",
            "nodes": [{"id": "away", "type": "Withdraw", "source": "Target"}],
        },
    }
    strike = card(
        "strike",
        "SingleEnemy",
        {"id": "hit", "type": "DealDamage", "amount": 6, "source": "Opponent"},
        cost=1,
    )
    units = [unit("hero", "player", 30), unit("imp", hp=10, moves=["blink"]), unit("ogre")]
    return battle_doc(
        [strike],
        units=units,
        hand=["strike", "strike"],
        draw=["strike"],
        rules="strict",
        moves=[blink],
    )


class Harness:
    """One protocol with an open session whose state every hostile request must leave as it
    was; a failed ``open`` must not even use up a session id."""

    def __init__(self) -> None:
        self.proto = Protocol()
        opened = self.send({"op": "open", "battle": strict_doc()})
        assert opened["ok"], opened
        self.session = opened["result"]["session"]
        activated = self.send(
            {"op": "activate", "session": self.session, "card": "h1", "target": "ogre"}
        )
        assert activated["ok"], activated  # a Cut entry waits: respond/pass/resolve have work
        self.opened = 1

    def raw(self, text: str | bytes) -> dict[str, Any]:
        answer = answered_within(HANG, lambda: self.proto.call(text))
        assert isinstance(answer, str)
        response: dict[str, Any] = json.loads(answer)
        assert answer.isascii()
        return response

    def send(self, request: dict[str, Any]) -> dict[str, Any]:
        return self.raw(json.dumps(request))

    def state(self) -> str:
        return self.proto.call(json.dumps({"op": "state", "session": self.session}))

    def refused(self, text: str | bytes, code: str, where: str = "", says: str = "") -> None:
        """``text`` is answered with an error ``code`` at ``where``, and nothing changed."""
        before = self.state()
        response = self.raw(text)
        assert response["ok"] is False, response
        error = response["error"]
        # a refusal a player can meet adds its reason, said (docs/protocol.md, "play")
        assert set(error) - {"reason", "reason_message"} == {"code", "message", "where"}
        assert ("reason" in error) == ("reason_message" in error), error
        assert error["code"] == code, error
        assert error["where"] == where, error
        assert says in error["message"], error
        assert len(error["message"]) <= MAX_MESSAGE and len(error["where"]) <= MAX_WHERE
        assert "x" * 81 not in error["message"], "a long value is quoted to about 80 characters"
        assert self.state() == before
        # No session was created either: the next one gets the next id.
        probe = self.send({"op": "open", "battle": battle_doc()})
        self.opened += 1
        assert probe["result"]["session"] == f"s{self.opened}"
        self.send({"op": "close", "session": probe["result"]["session"]})


@pytest.fixture(scope="module")
def harness() -> Harness:
    return Harness()


def with_session(harness: Harness, request: dict[str, Any]) -> str:
    return json.dumps({"session": harness.session, **request})


def open_text(mutate: Callable[[dict[str, Any]], object]) -> str:
    doc = strict_doc()
    mutate(doc)
    return json.dumps({"op": "open", "battle": doc})


# -- the request text ----------------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "code", "says"),
    [
        ("", "bad_json", "not JSON"),
        ("{", "bad_json", "not JSON"),
        ('{"op": "version",}', "bad_json", "not JSON"),
        ("{'op': 'version'}", "bad_json", "not JSON"),
        ('{"op": "version"} {"op": "version"}', "bad_json", "Extra data"),
        ('\ufeff{"op": "version"}', "bad_json", "BOM"),
        ('{"op": "version", "id": NaN}', "bad_json", "NaN"),
        ('{"op": "version", "id": Infinity}', "bad_json", "Infinity"),
        ('{"op": "version", "id": -Infinity}', "bad_json", "-Infinity"),
        ('{"op": "version", "id": 1e400}', "bad_json", "1e400"),
        ('{"op": "version", "id": -1e400}', "bad_json", "-1e400"),
        ('{"op": "version", "id": [0.5, 2E+999]}', "bad_json", "2E+999"),
        ('{"op": "version", "id": ' + "9" * 5000 + "}", "bad_json", "digits"),
        ("null", "bad_request", "got null"),
        ("123", "bad_request", "got a number"),
        ('"version"', "bad_request", "got a string"),
        ("[]", "bad_request", "got an array"),
        ("[" * 100_000, "too_deep", "deeper than 64"),
        ("[" * 300 + "]" * 300, "too_deep", "deeper than 64"),
        ('{"op": "version", "id": ' + "[" * 65 + "]" * 65 + "}", "too_deep", "64"),
        ('{"op": "version", "id": ' + '{"a": ' * 300 + "1" + "}" * 300 + "}", "too_deep", "64"),
        ('{"op": "version", "id": "' + "[" * 100_000 + '"}', "", ""),  # brackets in a string
        ('{"op": "version", "id": "\\"' + "[" * 1000 + '"}', "", ""),  # after an escaped quote
    ],
)
def test_malformed_request_text(harness: Harness, text: str, code: str, says: str) -> None:
    if not code:  # not hostile after all: brackets inside a string do not nest
        assert harness.raw(text)["ok"] is True
        return
    harness.refused(text, code, "", says)


@pytest.mark.parametrize(
    ("data", "code"),
    [
        (b"\xff\xfe", "bad_utf8"),
        (b'{"op": "version", "id": "\xed\xa0\x80"}', "bad_utf8"),  # an encoded surrogate
        (b'{"op": "version", "id": "\xc0\xaf"}', "bad_utf8"),  # an overlong form
        (b" " * (MAX_REQUEST_BYTES + 1), "too_large"),
    ],
)
def test_unreadable_request_bytes(harness: Harness, data: bytes, code: str) -> None:
    harness.refused(data, code)


def test_numbers_json_allows_but_python_must_not_mangle(harness: Harness) -> None:
    answer = harness.raw('{"op": "version", "id": -0.0}')
    assert answer["ok"] and math.copysign(1, answer["id"]) == -1
    assert harness.raw('{"op": "version", "id": 1e308}')["id"] == 1e308
    # An integer a host reads as a double would come back changed: refused, not echoed.
    huge = harness.raw('{"op": "version", "id": ' + "9" * 4000 + "}")
    assert huge["id"] is None and huge["error"]["code"] == "invalid_id"


def test_lone_surrogates_and_nul_are_inert(harness: Harness) -> None:
    answer = harness.raw('{"op": "version", "id": "\\u0000x"}')
    assert answer["ok"] and answer["id"] == "\x00x"
    # Godot's JSON reader refuses a lone surrogate: such an id is refused, not echoed.
    lone = harness.raw('{"op": "version", "id": "\\ud800\\u0000"}')
    assert lone["id"] is None and lone["error"]["code"] == "invalid_id"


# -- request fields ------------------------------------------------------------------------
HUGE = "x" * 1_000_000


@pytest.mark.parametrize(
    ("request_fields", "code", "where", "says"),
    [
        ({"op": "fly"}, "unknown_op", "op", "'fly'"),
        ({"op": "__init__"}, "unknown_op", "op", "'__init__'"),
        ({"op": "_commit"}, "unknown_op", "op", "'_commit'"),
        ({"op": "_sessions"}, "unknown_op", "op", "'_sessions'"),
        ({"op": "call"}, "unknown_op", "op", "'call'"),
        ({"op": HUGE}, "unknown_op", "op", "xxx..."),
        ({"op": 7}, "unknown_op", "op", "7"),
        ({"op": None}, "unknown_op", "op", "op null"),
        ({"op": ["play"]}, "unknown_op", "op", '["play"]'),
        ({"op": {"op": "play"}}, "unknown_op", "op", '{"op": "play"}'),
        ({"op": "state", "session": HUGE}, "unknown_session", "session", "xxx..."),
        ({"op": "state", "session": 10**100}, "unknown_session", "session", "1000"),
        ({"op": "state", "session": ["s1"]}, "unknown_session", "session", '["s1"]'),
        ({"op": "state", "session": None}, "unknown_session", "session", "session null"),
        ({"op": "close", "session": {"s1": 1}}, "unknown_session", "session", '{"s1": 1}'),
        ({"op": "open"}, "invalid_field", "battle", "missing"),
        ({"op": "open", "battle": None}, "invalid_field", "battle", "expected an object"),
        ({"op": "open", "battle": 10**100}, "invalid_field", "battle", "expected an object"),
        ({"op": "open", "battle": HUGE}, "invalid_field", "battle", "expected an object"),
        ({"op": "open", "battle": [[[[1]]]]}, "invalid_field", "battle", "expected an object"),
    ],
)
def test_wrong_ops_sessions_and_battles(
    harness: Harness, request_fields: dict[str, Any], code: str, where: str, says: str
) -> None:
    harness.refused(json.dumps(request_fields), code, where, says)


@pytest.mark.parametrize(
    ("request_fields", "code", "where", "says"),
    [
        # The Cut holds the player's entry, so plays are refused whatever their arguments;
        # activate, respond and pass/resolve reach their argument checks.
        ({"op": "play", "card": "h2"}, "cut", "card", "waiting on the Cut"),
        ({"op": "activate", "card": HUGE}, "cut", "card", "top of the Cut is yours"),
        ({"op": "targets", "card": HUGE}, "unknown_card", "card", "xxx..."),
        ({"op": "targets", "card": 10**100}, "unknown_card", "card", "1000"),
        ({"op": "targets", "card": 1e308}, "unknown_card", "card", "1e+308"),
        ({"op": "targets", "card": ["h2"]}, "unknown_card", "card", '["h2"]'),
        ({"op": "targets", "card": {"id": "h2"}}, "unknown_card", "card", '{"id": "h2"}'),
        ({"op": "targets", "card": True}, "unknown_card", "card", "instance true"),
        ({"op": "targets", "card": "__class__"}, "unknown_card", "card", "'__class__'"),
        ({"op": "targets", "card": "d1"}, "not_in_hand", "card", "draw pile"),
        (
            {"op": "preview", "card": "h2", "target": ["ogre"] * 100_000},
            "not_a_candidate",
            "target",
            "at most 16",
        ),
        ({"op": "respond", "unit": HUGE, "move": "blink"}, "unknown_unit", "unit", "xxx..."),
        ({"op": "respond", "unit": 10**100, "move": "blink"}, "unknown_unit", "unit", "1000"),
        ({"op": "respond", "unit": "imp", "move": HUGE}, "cut", "move", "xxx..."),
        ({"op": "respond", "unit": "imp", "move": ["blink"]}, "cut", "move", '["blink"]'),
        (
            {"op": "respond", "unit": "imp", "move": "blink", "target": 1e308},
            "cut",
            "target",
            "1e+308",
        ),
        (
            {"op": "respond", "unit": "imp", "move": "blink", "target": ["x"] * 17},
            "not_a_candidate",
            "target",
            "at most 16",
        ),
        ({"op": "pass", "choices": []}, "invalid_field", "choices", "got []"),
        ({"op": "pass", "choices": HUGE}, "invalid_field", "choices", "xxx..."),
        ({"op": "resolve", "choices": 10**100}, "invalid_field", "choices", "1000"),
        (
            {"op": "resolve", "choices": {f"e{i}": "ogre" for i in range(65)}},
            "invalid_field",
            "choices",
            "at most 64",
        ),
        (
            {"op": "resolve", "choices": {"e1": ["ogre"] * 17}},
            "not_a_candidate",
            "choices.e1",
            "at most 16",
        ),
    ],
)
def test_wrong_play_arguments(
    harness: Harness, request_fields: dict[str, Any], code: str, where: str, says: str
) -> None:
    harness.refused(with_session(harness, request_fields), code, where, says)


# -- battle documents ----------------------------------------------------------------------
def _set(path: str, value: Any) -> Callable[[dict[str, Any]], None]:
    def mutate(doc: dict[str, Any]) -> None:
        keys: list[Any] = [
            int(k) if k.isdigit() else k for k in path.replace("]", "").replace("[", ".").split(".")
        ]
        target: Any = doc
        for key in keys[:-1]:
            target = target[key]
        target[keys[-1]] = value

    return mutate


def _nodes(*nodes: dict[str, Any], start: str | None = "a") -> dict[str, Any]:
    behavior: dict[str, Any] = {"nodes": list(nodes)}
    if start is not None:
        behavior["start"] = start
    return behavior


def _hit(node_id: str = "a", **fields: Any) -> dict[str, Any]:
    return {"id": node_id, "type": "DealDamage", "amount": 1, "source": "Opponent", **fields}


def _chain(length: int, flows: int) -> dict[str, Any]:
    """``flows`` actions that each read a chain of ``length`` data nodes."""
    nodes: list[dict[str, Any]] = [{"id": "n0", "type": "UnitSource", "source": "AllUnits"}]
    for i in range(1, length):
        nodes.append({"id": f"n{i}", "type": "Sort", "by": "hp", "ports": {"input": f"n{i - 1}"}})
    for j in range(flows):
        action = {
            "id": f"a{j}" if j else "a",
            "type": "GainArmor",
            "amount": 1,
            "ports": {"target": f"n{length - 1}"},
        }
        if j + 1 < flows:
            action["next"] = f"a{j + 1}"
        nodes.append(action)
    return _nodes(*nodes)


BEHAVIOR = "cards[0].behavior"
DEEP = [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]


@pytest.mark.parametrize(
    ("mutate", "where", "says"),
    [
        # numbers
        (_set("units[0].hp", 10**100), "units[0].hp", "0..1000000000, got 1000"),
        (_set("units[0].hp", 1e308), "units[0].hp", "got 1e+308"),
        (_set("units[0].hp", -1e308), "units[0].hp", "got -1e+308"),
        (_set("units[0].hp", 2.5), "units[0].hp", "expected an integer, got 2.5"),
        (_set("units[0].max_hp", True), "units[0].max_hp", "expected an integer, got true"),
        (_set("seed", 2**64), "seed", "got 18446744073709551616"),
        (_set("seed", -1), "seed", "got -1"),
        (_set("energy", 10**100), "energy", "0..999"),
        (_set("turn", 0), "turn", "got 0"),
        (_set("cards[0].cost", 1e308), "cards[0].cost", "0..99"),
        (
            _set("cards[0].behavior.nodes[0].amount", 10**100),
            "cards[0].behavior.nodes[0].amount",
            "0..1000000",
        ),
        (_set("cards[0].target_count", 17), "cards[0].target_count", "1..16"),
        (_set("rng", {"state": "-1", "inc": "1"}), "rng.state", "hexadecimal"),
        (_set("rng", {"state": "0x1", "inc": "1"}), "rng.state", "hexadecimal"),
        (_set("rng", {"state": "1_0", "inc": "1"}), "rng.state", "hexadecimal"),
        (_set("rng", {"state": " 1", "inc": "1"}), "rng.state", "hexadecimal"),
        (_set("rng", {"state": "1" * 17, "inc": "1"}), "rng.state", "at most 16"),
        # strings
        (_set("units[0].name", "x" * 201), "units[0].name", "at most 200 characters"),
        (_set("units[0].name", ""), "units[0].name", "non-empty"),
        (_set("units[0].id", "x" * 65), "units[0].id", "at most 64 characters"),
        (_set("units[0].id", "../../etc/passwd"), "units[0].id", "an id of ASCII letters"),
        (_set("units[0].id", "héro"), "units[0].id", "an id of ASCII letters"),
        (_set("units[0].id", "a b"), "units[0].id", "an id of ASCII letters"),
        (_set("cards[0].text", "x" * 2001), "cards[0].text", "at most 2000 characters"),
        (_set("units[0]." + "k" * 100_000, 1), "units[0]." + "k" * 61 + "...", "unknown field"),
        (
            _set("units[0].statuses", {"k" * 100_000: 1}),
            "units[0].statuses." + "k" * 61 + "...",
            "at most 64 characters",
        ),
        (_set("format", "pybridge/battle@1" + "x" * 100_000), "format", "pybridge/battle@1"),
        # types and nesting
        (_set("units", {"0": {}}), "units", "expected a list"),
        (_set("units[0]", [1]), "units[0]", "expected an object"),
        (_set("units[0].name", DEEP), "units[0].name", "expected a string"),
        (_set("units[0].tags", "tag"), "units[0].tags", "expected a list"),
        (_set("piles", []), "piles", "expected an object"),
        (_set("cards[0].behavior", "eval('1')"), BEHAVIOR, "expected an object"),
        (_set("units[0].__class__", 1), "units[0].__class__", "unknown field"),
        # unknown node types
        (
            _set("cards[0].behavior.nodes[0].type", "Nuke"),
            BEHAVIOR + ".nodes[0].type",
            'got "Nuke"',
        ),
        (
            _set("cards[0].behavior.nodes[0].type", "__class__"),
            BEHAVIOR + ".nodes[0].type",
            'got "__class__"',
        ),
        (
            _set("cards[0].behavior.nodes[0].type", "eval"),
            BEHAVIOR + ".nodes[0].type",
            'got "eval"',
        ),
        # graphs: cycles, dangling references, size
        (
            _set(BEHAVIOR, _nodes(_hit(next="b"), _hit("b", next="a"))),
            BEHAVIOR + ".nodes[1].next",
            "may not loop or merge",
        ),
        (
            _set(BEHAVIOR, _nodes(_hit(next="a"))),
            BEHAVIOR + ".nodes[0].next",
            "may not loop or merge",
        ),
        (
            _set(BEHAVIOR, _nodes(_hit(), _hit("b", next="c"), _hit("c", next="b"))),
            BEHAVIOR + ".nodes[1].id",
            "part of a loop",
        ),
        (
            _set(
                BEHAVIOR,
                _nodes(
                    {"id": "f", "type": "Filter", "where": {}, "ports": {"input": "f"}},
                    _hit(ports={"target": "f"}),
                ),
            ),
            BEHAVIOR + ".nodes[0].ports",
            "cycle",
        ),
        (
            _set(
                BEHAVIOR,
                _nodes(
                    {"id": "f", "type": "Take", "count": 1, "ports": {"input": "g"}},
                    {"id": "g", "type": "Take", "count": 1, "ports": {"input": "f"}},
                    _hit(ports={"target": "f"}),
                ),
            ),
            BEHAVIOR + ".nodes[0].ports",
            "cycle",
        ),
        (
            _set(BEHAVIOR, _nodes(_hit(ports={"target": "ghost"}))),
            BEHAVIOR + ".nodes[0].ports.target",
            "no node with this id",
        ),
        (
            _set(BEHAVIOR, _nodes(_hit(next="ghost"))),
            BEHAVIOR + ".nodes[0].next",
            "no node with this id",
        ),
        (
            _set(BEHAVIOR, _nodes(_hit(), start="ghost")),
            BEHAVIOR + ".start",
            "no node with this id",
        ),
        (_set(BEHAVIOR, _nodes(_hit(), start=None)), BEHAVIOR + ".start", "missing"),
        (
            _set(BEHAVIOR, _nodes(_hit(ports={"input": "a"}))),
            BEHAVIOR + ".nodes[0].ports.input",
            "unknown field",
        ),
        (
            _set(BEHAVIOR, _nodes(*[_hit(f"n{i}") for i in range(MAX_NODES + 1)], start="n0")),
            BEHAVIOR + ".nodes",
            f"at most {MAX_NODES} elements",
        ),
        (_set(BEHAVIOR, _chain(64, 33)), BEHAVIOR, "on every read), got 2145"),
        (_set(BEHAVIOR, _nodes(_hit("a" * 65))), BEHAVIOR + ".nodes[0].id", "at most 64"),
        # collection sizes
        (
            _set("units", party() + [unit(f"u{i}") for i in range(MAX_UNITS)]),
            "units",
            f"at most {MAX_UNITS} elements",
        ),
        (
            _set("cards", [card(f"c{i}") for i in range(MAX_CARDS + 1)]),
            "cards",
            f"at most {MAX_CARDS} elements",
        ),
        (
            _set("piles.draw", [{"id": f"d{i}", "card": "strike"} for i in range(MAX_CARDS + 1)]),
            "piles.draw",
            f"at most {MAX_CARDS} elements",
        ),
        (
            _set("piles.discard", [{"id": f"x{i}", "card": "strike"} for i in range(MAX_CARDS)]),
            "piles",
            f"at most {MAX_CARDS} card instances",
        ),
        (_set("units[0].tags", [f"t{i}" for i in range(65)]), "units[0].tags", "at most 64"),
        (
            _set("units[0].statuses", {f"s{i}": 1 for i in range(MAX_STATUS_IDS + 1)}),
            "units[0].statuses",
            f"at most {MAX_STATUS_IDS} entries",
        ),
        (
            _set(
                "cards",
                [
                    card(
                        f"c{i}",
                        "None",
                        *[
                            {
                                "id": f"n{j}",
                                "type": "ApplyStatus",
                                "status": f"s{i}_{j}",
                                "source": "Self",
                            }
                            for j in range(10)
                        ],
                    )
                    for i in range(51)
                ],
            ),
            "statuses",
            f"at most {MAX_STATUS_IDS} distinct status ids",
        ),
        (
            _set("cards[0].playable_if", [{"condition": "c", "reason": "r"}] * 17),
            "cards[0].playable_if",
            "at most 16",
        ),
        (
            _set(
                "cut",
                [
                    {"id": f"e{i}", "side": "enemy", "source": "imp", "move": "blink"}
                    for i in range(65)
                ],
            ),
            "cut",
            "at most 64",
        ),
    ],
)
def test_hostile_battle_documents(
    harness: Harness, mutate: Callable[[dict[str, Any]], None], where: str, says: str
) -> None:
    text = open_text(mutate)
    assert len(text) <= MAX_REQUEST_BYTES
    harness.refused(text, "invalid_field", "battle." + where, says)


def test_the_python_api_refuses_values_json_cannot_carry() -> None:
    for value in (math.nan, math.inf, -math.inf, 10**5000, b"12", {1, 2}, object()):
        doc = battle_doc()
        doc["units"][0]["hp"] = value
        with pytest.raises(FormatError) as info:
            answered_within(HANG, functools.partial(load_battle, doc))
        assert info.value.where == "units[0].hp"
        assert len(str(info.value)) < 300
    with pytest.raises(FormatError, match="expected an object"):
        load_library([{"format": "pybridge/cards@1"}])


def test_session_limit() -> None:
    proto = Protocol()
    small = json.dumps({"op": "open", "battle": battle_doc()})
    sessions = [json.loads(proto.call(small))["result"]["session"] for _ in range(MAX_SESSIONS)]
    assert len(set(sessions)) == MAX_SESSIONS
    refused = json.loads(proto.call(small))
    assert refused["error"]["code"] == "too_many_sessions"
    assert json.loads(proto.call(json.dumps({"op": "close", "session": sessions[0]})))["ok"]
    assert json.loads(proto.call(small))["ok"]  # closing one makes room again


def test_a_maximal_request_is_answered_in_bounded_time() -> None:
    """A battle at every limit at once still loads (or is refused) without hanging."""
    nodes = _chain(44, 45)["nodes"]  # 44 + 45 nodes, 45 * 45 = 2025 evaluations
    cards = [card(f"c{i}", "AllEnemies", behavior=_nodes(*nodes)) for i in range(40)]
    units = [unit(f"p{i}", "player", 10**9) for i in range(32)]
    units += [unit(f"e{i}", "enemy", 10**9) for i in range(32)]
    hand = [{"id": f"h{i}", "card": f"c{i % 40}"} for i in range(MAX_CARDS)]
    doc = battle_doc(cards, units=units, active_player="p0")
    doc["piles"]["hand"] = hand
    text = json.dumps({"op": "open", "battle": doc})
    assert len(text) <= MAX_REQUEST_BYTES
    proto = Protocol()
    opened = json.loads(answered_within(HANG, lambda: proto.call(text)))
    assert opened["ok"], opened["error"]
    session = opened["result"]["session"]
    request = json.dumps({"op": "play", "session": session, "card": "h0"})
    played = json.loads(answered_within(HANG, lambda: proto.call(request)))
    assert played["ok"], played


def test_docs_limits_match_the_code() -> None:
    """Each documented limit with a constant is that constant's value."""
    from pybridge.runtime import definitions, document, graph, kinds, model, reader, resolve
    from pybridge.runtime import guards as event_guards

    modules = {"protocol": protocol, "document": document, "definitions": definitions,
               "graph": graph, "reader": reader, "resolve": resolve, "answers": answers,
               "kinds": kinds, "model": model, "guards": event_guards}  # fmt: skip
    checked = 0
    for line in (ROOT / "docs" / "limits.md").read_text("utf-8").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        names = re.findall(r"`(\w+)\.([A-Z_]+)`", line)
        if len(cells) < 3 or not names:
            continue
        span = re.search(r"\d[\d,]*\.\.(\d[\d,]*)", cells[1])  # a range: its upper end
        number = span.group(1) if span else re.findall(r"\d[\d,]*", cells[1])[0]
        documented = int(number.replace(",", ""))
        for module, name in names:
            assert getattr(modules[module], name) == documented, (module, name, documented)
            checked += 1
    assert checked >= 20


# -- the module-level entry point and the stdio server -----------------------------------
def test_out_of_range_numbers_do_not_kill_the_stdio_server() -> None:
    lines = [b'{"op": "version", "id": 1e400}', b'{"op": "version", "id": 2}']
    replies, errors = serve_stdio(lines)
    assert [r["ok"] for r in replies] == [False, True]
    assert replies[0]["error"]["code"] == "bad_json" and replies[1]["id"] == 2
    assert errors == b""


def test_the_python_entry_point_takes_only_json_text() -> None:
    proto: Any = Protocol()  # hosts calling from Python may pass anything
    for wrong in (None, 7, {"op": "version"}, ["op"], object()):
        answer = json.loads(proto.call(wrong))
        assert answer["error"]["code"] == "bad_request", answer
    assert json.loads(proto.call(bytearray(b'{"op": "version"}')))["ok"]


def test_the_shared_entry_point_never_raises() -> None:
    for text in ('{"op": "version", "id": 1e999}', "[" * 10**6, '{"op": "' + HUGE + '"}'):
        assert json.loads(service.call(text))["ok"] is False


# -- the C ABI under fuzzing ------------------------------------------------------------------
ATHERIS_PLATFORM = sys.platform == "linux" and platform.machine() == "x86_64"


@pytest.mark.skipif(not ATHERIS_PLATFORM, reason="atheris ships wheels for Linux x86_64 only")
def test_a_short_fuzzing_run_of_the_c_abi_finds_nothing(tmp_path: Path) -> None:
    """``pybridge fuzz``: coverage-guided inputs from atheris plus four threads calling at once
    (mutated requests, NULL, broken UTF-8); the long runs are for ``pybridge fuzz --seconds``."""
    seconds = int(os.environ.get("PYBRIDGE_FUZZ_SECONDS", "20"))
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "pybridge.cli",
            "fuzz",
            "--seconds",
            str(seconds),
            "--threads",
            "4",
            "--output",
            str(tmp_path),
        ],
        capture_output=True,
        text=True,
        timeout=seconds + 300,
        cwd=ROOT,
    )
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    summary = json.loads(run.stdout.splitlines()[-1].split(" ", 1)[1])
    assert summary["failure"] is None
    assert summary["executions"] > 100 and summary["thread_executions"] > 100, summary
    assert summary["corpus"] > 60  # the seeds, and what coverage added


def test_the_fuzzer_checks_would_catch_a_broken_answer() -> None:
    """Positive controls for the fuzzer's oracle and a look at its JSON-aware mutator."""
    import random

    from pybridge.devtools.fuzz_seeds import seed_requests
    from pybridge.devtools.fuzzing import Finding, check_response, mutate_request

    for broken in ("", "not json", "[]", '{"ok": true}', '{"ok": 1, "id": null, "result": {}}',
                   '{"ok": false, "id": null, "error": {"code": "x"}}',
                   '{"ok": false, "id": null, "error": {"code": "internal_error", "message": '
                   '"KeyError", "where": ""}}'):  # fmt: skip
        with pytest.raises(Finding):
            check_response(b"{}", broken)
    assert check_response(b"{}", Protocol().call("{}"))["error"]["code"] == "unknown_op"
    rng = random.Random(5)
    seeds = seed_requests(demo_battle())
    mutated = [mutate_request(rng.choice(seeds), rng, ["s1"]) for _ in range(300)]
    assert len({json.dumps(m) for m in mutated}) > 250  # varied
    answers = [json.loads(Protocol().call(json.dumps(m))) for m in mutated]
    codes = {a["error"]["code"] for a in answers if not a["ok"]}
    assert len(codes) >= 5, codes  # refused for many reasons, not all at the door


# -- read-only requests ----------------------------------------------------------------------
def _lucky_card() -> dict[str, Any]:
    """A card playable only if a random enemy can be picked: asking about it draws from the
    battle's PRNG."""
    return card(
        "lucky",
        "None",
        {"id": "foes", "type": "UnitSource", "source": "AllOpponents"},
        {"id": "pick", "type": "RandomElements", "count": 1, "ports": {"input": "foes"}},
        {"id": "ok", "type": "Condition", "test": "not_empty", "ports": {"input": "pick"}},
        {"id": "hit", "type": "DealDamage", "amount": 1, "source": "AllOpponents"},
        playable_if=[{"condition": "ok", "reason": "no enemy to pick"}],
    )


def test_asking_about_a_card_never_changes_the_session() -> None:
    proto = Protocol()
    opened = json.loads(
        proto.call(
            json.dumps(
                {"op": "open", "battle": battle_doc([_lucky_card()], hand=["lucky", "lucky"])}
            )
        )
    )
    session = opened["result"]["session"]
    state = json.dumps({"op": "state", "session": session})
    before = proto.call(state)
    for op, asked in (("targets", {"card": "h1"}), ("preview", {"card": "h1"}), ("cut", {}),
                      ("state", {})):  # fmt: skip
        answer = json.loads(proto.call(json.dumps({"op": op, "session": session, **asked})))
        assert answer["ok"], answer
        assert proto.call(state) == before, op


@pytest.mark.parametrize(
    "request_fields",
    [
        {"op": "targets", "viewer": "enemy", "card": "a1"},  # refused: no such view id
        {"op": "targets", "viewer": "player", "card": "nowhere"},
        {"op": "view", "viewer": "enemy"},
        {"op": "view", "viewer": "spectator"},
        {"op": "state", "viewer": "player"},
        {"op": "cut", "viewer": "player"},
        {"op": "pile", "viewer": "player", "pile": "discard"},
        {"op": "pick", "viewer": "player", "card": "nowhere"},
        {"op": "play", "viewer": "enemy", "card": "nowhere"},  # refused: a change
        {"op": "end_turn", "viewer": "enemy", "viewers": ["player", "enemy"]},  # not its turn
    ],
)
def test_the_first_request_naming_a_viewer_leaves_the_saved_state_as_it_was(
    request_fields: dict[str, Any],
) -> None:
    """A battle draws its view secret when a request first names a viewer; a request that
    changes nothing (a view, a refusal) leaves the snapshot byte for byte as it was: the
    secret enters it with the battle's next change."""
    proto = Protocol()
    opened = json.loads(proto.call(json.dumps({"op": "open", "battle": rivals_battle()})))
    session = opened["result"]["session"]
    state = json.dumps({"op": "state", "session": session})
    before = proto.call(state)
    proto.call(json.dumps({**request_fields, "session": session}))
    assert proto.call(state) == before
    view = json.dumps({"op": "view", "session": session, "viewer": "player"})
    hand = json.loads(proto.call(view))["result"]["view"]["sides"][0]["piles"]["hand"]
    assert proto.call(state) == before
    # The next change keeps the secret (and the ids it gave) in the snapshot.
    played = {"op": "play", "session": session, "viewer": "player", "target": "vex"}
    strike = next(c["id"] for c in hand if c["card"] == "strike")
    assert json.loads(proto.call(json.dumps({**played, "card": strike})))["ok"]
    after = json.loads(proto.call(state))["result"]["state"]
    assert "secret" in after and "stints" in after
    again = json.loads(proto.call(json.dumps({"op": "open", "battle": after})))["result"]
    seen = json.dumps({"op": "view", "session": again["session"], "viewer": "player"})
    assert json.loads(proto.call(seen)) == json.loads(proto.call(view))


def test_a_battle_opened_for_viewers_holds_its_secret_from_the_start() -> None:
    proto = Protocol()
    opened = {"op": "open", "battle": rivals_battle(), "viewers": ["spectator"]}
    session = json.loads(proto.call(json.dumps(opened)))["result"]["session"]
    state = json.loads(proto.call(json.dumps({"op": "state", "session": session})))["result"]
    assert "secret" in state["state"]


def test_runtime_targets_does_not_draw_from_the_battle_prng() -> None:
    from pybridge.runtime import canonical_json, targets

    battle = load_battle(battle_doc([_lucky_card()], hand=["lucky"]))
    before = canonical_json(battle)
    targets(battle, "h1")
    assert canonical_json(battle) == before


_REACTION_STORM = textwrap.dedent(
    """
    import json, sys
    from pybridge.protocol import Protocol
    doc = json.loads(sys.stdin.read())
    proto = Protocol()
    session = json.loads(proto.call(json.dumps({"op": "open", "battle": doc})))
    print(session["ok"], flush=True)
    sid = session["result"]["session"]
    answer = json.loads(proto.call(json.dumps({"op": "play", "session": sid, "card": "h1"})))
    print("answered", answer["ok"], flush=True)
    """
)


def reaction_storm() -> dict[str, Any]:
    """A battle inside every load-time limit whose one play runs for minutes: 256 attacks on
    32 enemies, each attack running a reaction Behavior at the evaluation limit."""
    spite = {"id": "spite", "name": "Spite", "hooks": {"attacked": _chain(44, 45)}}
    units = [unit(f"p{i}", "player", 10**9) for i in range(32)]
    units += [unit(f"e{i}", "enemy", 10**9, statuses={"spite": 1}) for i in range(32)]
    attacks = [
        {"id": f"n{i}", "type": "DealDamage", "amount": 0, "source": "AllOpponents"}
        for i in range(MAX_NODES)
    ]
    storm = card("storm", "None", *attacks)
    return battle_doc([storm], units=units, hand=["storm"], active_player="p0", statuses=[spite])


def test_a_valid_battle_cannot_keep_a_play_busy_for_minutes() -> None:
    doc = reaction_storm()
    load_battle(doc)  # inside every load-time limit
    worker = subprocess.Popen(
        [sys.executable, "-c", _REACTION_STORM],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        cwd=ROOT,
    )
    try:
        output, _ = worker.communicate(json.dumps(doc), timeout=HANG / 2)
    except subprocess.TimeoutExpired:
        output = "no answer"
    finally:
        worker.kill()
        worker.wait()
    assert "answered False" in output, output  # refused with work_limit, in time


def test_the_work_limit_refusal_changes_nothing() -> None:
    from pybridge.protocol import Protocol

    proto = Protocol()
    opened = json.loads(proto.call(json.dumps({"op": "open", "battle": _small_storm()})))
    sid = opened["result"]["session"]
    before = proto.call(json.dumps({"op": "state", "session": sid}))
    answer = json.loads(proto.call(json.dumps({"op": "play", "session": sid, "card": "h1"})))
    assert answer["error"]["code"] == "work_limit", answer
    assert proto.call(json.dumps({"op": "state", "session": sid})) == before


def _small_storm() -> dict[str, Any]:
    """The storm with fewer attack nodes: still over the request budget, quick to refuse."""
    doc = reaction_storm()
    nodes = doc["cards"][0]["behavior"]["nodes"][:24]
    nodes[-1].pop("next", None)
    doc["cards"][0]["behavior"]["nodes"] = nodes
    return doc


def test_a_saved_battle_keeps_its_response_moves() -> None:
    """Found by the property tests: ``state`` dropped a move's ``response`` flag, so a battle
    saved mid-fight and opened again let its enemies answer nothing on the Cut."""
    proto = Protocol()
    opened = json.loads(proto.call(json.dumps({"op": "open", "battle": strict_doc()})))
    state = opened["result"]["state"]
    assert [m["response"] for m in state["moves"]] == [True]
    reopened = json.loads(proto.call(json.dumps({"op": "open", "battle": state})))
    assert reopened["result"]["state"] == state
