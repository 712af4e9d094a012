"""Driving a battle through the protocol, as a host does: JSON text in, JSON text out.

A :class:`Session` opens a battle and sends requests; ``ok`` expects success, ``refused``
expects an error and checks that the battle did not change, and every state a response
carries is checked to open again and dump identically (a saved battle always loads back).
"""

from __future__ import annotations

import json
import re
from typing import Any

from pybridge.protocol import Protocol

Doc = dict[str, Any]
#: A JSON escape of a UTF-16 half; in a host-safe text they only come in pairs.
_HALF = re.compile(r"\\ud[89a-f][0-9a-f]{2}")
_PAIR = re.compile(r"\\ud[89ab][0-9a-f]{2}\\ud[c-f][0-9a-f]{2}")


def host_safe(text: str) -> bool:
    """Can a strict JSON parser (Godot's) read ``text``: no lone surrogate escape in it?"""
    return not _HALF.search(_PAIR.sub("", text.replace("\\\\", "")))


class Session:
    """One battle opened through :class:`Protocol`."""

    def __init__(self, battle: Doc, proto: Protocol | None = None) -> None:
        self.proto = proto or Protocol()
        self.opened = self.send("open", battle=battle)
        assert self.opened["ok"], self.opened
        self.id: str = self.opened["result"]["session"]
        self.check_reopens(self.opened["result"]["state"])

    def send(self, op: str, **fields: Any) -> Doc:
        text = self.proto.call(json.dumps({"op": op, **fields}))
        assert host_safe(text), text
        answer: Doc = json.loads(text)
        return answer

    def call(self, op: str, **fields: Any) -> Doc:
        return self.send(op, session=self.id, **fields)

    def ok(self, op: str, **fields: Any) -> Doc:
        """The result of a request that must succeed; its state must load back."""
        answer = self.call(op, **fields)
        assert answer["ok"], answer
        result: Doc = answer["result"]
        if "state" in result:
            self.check_reopens(result["state"])
        return result

    def quick(self, op: str, **fields: Any) -> Doc:
        """:meth:`ok` without reopening the state (for long set-up sequences)."""
        answer = self.call(op, **fields)
        assert answer["ok"], answer
        result: Doc = answer["result"]
        return result

    def events(self, op: str, **fields: Any) -> list[Doc]:
        events: list[Doc] = self.ok(op, **fields)["events"]
        return events

    def refused(self, op: str, code: str, where: str | None = None, **fields: Any) -> Doc:
        """The error of a request that must be refused; the battle must not change."""
        before = self.state_text()
        answer = self.call(op, **fields)
        assert not answer["ok"], answer
        error: Doc = answer["error"]
        assert error["code"] == code, error
        if where is not None:
            assert error["where"] == where, error
        assert self.state_text() == before
        return error

    def state(self) -> Doc:
        state: Doc = self.ok("state")["state"]
        return state

    def state_text(self) -> str:
        return self.proto.call(json.dumps({"op": "state", "session": self.id}))

    def cut(self) -> list[Doc]:
        cut: list[Doc] = self.ok("cut")["cut"]
        return cut

    def check_reopens(self, state: Doc) -> None:
        """``state`` opens again (a fresh protocol) and dumps to the same canonical text."""
        again = json.loads(Protocol().call(json.dumps({"op": "open", "battle": state})))
        assert again["ok"], again
        canonical = json.dumps(state, sort_keys=True)
        assert json.dumps(again["result"]["state"], sort_keys=True) == canonical


def types(events: list[Doc]) -> list[str]:
    return [e["type"] for e in events]


def refused_document(battle: Doc) -> Doc:
    """The error ``open`` answers for ``battle`` (which it must refuse)."""
    answer = json.loads(Protocol().call(json.dumps({"op": "open", "battle": battle})))
    assert not answer["ok"], answer["result"]["state"]
    error: Doc = answer["error"]
    return error
