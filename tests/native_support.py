"""What the tests of the native library (C ABI, GDExtension) need: gcc and binutils, which
must be there (these tests fail, never skip, without them), and one way to run a program."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any


def tool(name: str) -> str:
    path = shutil.which(name)
    assert path, f"{name} is needed to test the native library"  # fail, never skip
    return path


def run(
    *argv: str | Path, timeout: float = 120, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(a) for a in argv], capture_output=True, text=True, timeout=timeout,
                          env=env)  # fmt: skip


#: The demo's own extension, and its library of cards that use its words (Scry, Combo).
DEMO = Path(__file__).resolve().parents[1] / "demo_project"
MECHANICS = DEMO / "extensions" / "mechanics.py"
MECHANICS_LIBRARY = DEMO / "cards" / "mechanics.json"


def mechanics_requests() -> list[str]:
    """Requests, one JSON text each, that play the demo's extension cards in a fresh process:
    open (session s1), Foresight (asks its Scry choice), Foresight again with the choice
    answered, Flurry at the orc (Combo), close."""
    from pybridge.examples import demo_battle

    battle = demo_battle()
    battle["piles"] = {"hand": [{"id": "h0", "card": "foresight"}, {"id": "h1", "card": "flurry"}],
                       "draw": [{"id": f"d{i}", "card": "strike"} for i in range(4)]}  # fmt: skip
    library = json.loads(MECHANICS_LIBRARY.read_text("utf-8"))
    requests: list[dict[str, Any]] = [
        {"op": "open", "id": 1, "battle": battle, "libraries": [library]},
        {"op": "play", "id": 2, "session": "s1", "card": "h0"},
        {"op": "play", "id": 3, "session": "s1", "card": "h0", "choices": {"look": ["d1"]}},
        {"op": "play", "id": 4, "session": "s1", "card": "h1", "target": "orc"},
        {"op": "close", "id": 5, "session": "s1"},
    ]
    return [json.dumps(request, separators=(",", ":")) for request in requests]


def check_mechanics_replies(replies: list[dict[str, Any]]) -> None:
    """The answers to :func:`mechanics_requests` of a host that loaded the demo's extension."""
    opened, asked, scried, flurry, closed = replies
    assert opened["ok"], opened
    assert asked["error"]["code"] == "choice_needed" and asked["error"]["choice"]["kind"] == "scry"
    assert "scried" in [e["type"] for e in scried["result"]["events"]], scried
    assert flurry["ok"] and flurry["result"]["state"]["counters"] == {"combo": 2}, flurry
    assert closed["ok"]


def check_refused_without_mechanics(opened: dict[str, Any]) -> None:
    """The answer to the first of :func:`mechanics_requests` where the extension is not loaded:
    refused, naming the word, the card, the node and the missing extension."""
    error = opened["error"]
    assert error["code"] == "invalid_field", opened
    for words in ('"Scry"', "card 'foresight'", "node 'look'", "'demo_mechanics' 1.0",
                  "not loaded"):  # fmt: skip
        assert words in error["message"], error["message"]
