"""Replaying a match's move log (:data:`pybridge.online.match.LOG_FORMAT`): its start
snapshot opened again, each step's request applied as the authority applied it, and the
state hash compared after each one."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from ..runtime.vocabulary import Vocabulary
from ..service import new_protocol
from .match import LOG_FORMAT, state_hash


@dataclass(frozen=True)
class Replayed:
    """How a replay went: the steps that matched, and the first one that did not."""

    steps: int
    mismatch: int | None = None
    reason: str = ""


def replay(log: Any, words: Vocabulary | None = None) -> Replayed:
    """Replay ``log`` (a parsed match log); step 0 is the start snapshot."""
    if not isinstance(log, dict) or log.get("format") != LOG_FORMAT:
        return Replayed(0, 0, f"not a match log (format {LOG_FORMAT!r} expected)")
    protocol = new_protocol(0, words)

    def call(request: dict[str, Any]) -> dict[str, Any]:
        return json.loads(protocol.call(json.dumps(request)))  # type: ignore[no-any-return]

    def hashed(session: str) -> str:
        return state_hash(call({"op": "state", "session": session})["result"]["state"])

    opened = call({"op": "open", "battle": log.get("start")})
    if not opened["ok"]:
        return Replayed(0, 0, f"the start snapshot does not open: {opened['error']['message']}")
    session = opened["result"]["session"]
    if hashed(session) != log.get("hash"):
        return Replayed(0, 0, "the start snapshot's hash differs")
    steps = log.get("steps")
    if not isinstance(steps, list):
        return Replayed(0, 1, "the log has no list of steps")
    for number, step in enumerate(steps, 1):
        if not isinstance(step, dict) or not isinstance(step.get("request"), dict):
            return Replayed(number - 1, number, "the step has no request")
        done = call({**step["request"], "session": session})
        if not done["ok"]:
            return Replayed(number - 1, number, f"refused: {done['error']['message']}")
        got = hashed(session)
        if got != step.get("hash"):
            return Replayed(
                number - 1, number, f"hash differs (logged {step.get('hash')}, replayed {got})"
            )
    return Replayed(len(steps))
