"""The one contract every transport uses: a JSON request in, a JSON response out.

``{"op": ..., "id": ...}`` in; ``{"ok": true, "id": ..., "result": ...}`` or
``{"ok": false, "id": ..., "error": {"code", "message", "where"}}`` out. Nothing raises across
this boundary and a failed request changes nothing. See docs/protocol.md.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from typing import Any

from . import __version__
from .runtime import (
    Battle,
    Event,
    TargetingError,
    dump_battle,
    load_battle,
    play,
    preview,
    targets,
)
from .runtime.cut import activate, pass_priority, resolve_all, respond_move
from .runtime.document import cut_entry_to_json
from .runtime.turns import end_turn, start_battle

PROTOCOL_VERSION = 1
MAX_REQUEST_BYTES = 4 * 1024 * 1024
MAX_SESSIONS = 1024
MAX_JSON_DEPTH = 64

Result = dict[str, Any]


class ProtocolError(Exception):
    def __init__(self, code: str, message: str, where: str = "") -> None:
        super().__init__(message)
        self.code, self.message, self.where = code, message, where


def _json_depth_ok(value: object, limit: int) -> bool:
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if depth > limit:
            return False
        if isinstance(item, dict):
            stack.extend((v, depth + 1) for v in item.values())
        elif isinstance(item, list):
            stack.extend((v, depth + 1) for v in item)
    return True


class Protocol:
    """A set of independent battle sessions behind the JSON contract. Thread-safe."""

    def __init__(self) -> None:
        self._sessions: dict[str, Battle] = {}
        self._next_session = 1
        self._lock = threading.Lock()
        self._ops: dict[str, Callable[[dict[str, Any]], Result]] = {
            "version": self._version,
            "open": self._open,
            "close": self._close,
            "state": self._state,
            "targets": self._targets,
            "preview": self._preview,
            "play": self._play,
            "end_turn": self._end_turn,
            "activate": self._activate,
            "respond": self._respond,
            "pass": self._pass,
            "resolve": self._resolve,
            "cut": self._cut,
        }

    # -- the entry point -------------------------------------------------------------------
    def call(self, request_json: str | bytes) -> str:
        """Handle one request; always returns a response text, never raises."""
        request_id: Any = None
        try:
            request = self._parse(request_json)
            request_id = request.get("id")
            op = request.get("op")
            handler = self._ops.get(op) if isinstance(op, str) else None
            if handler is None:
                raise ProtocolError(
                    "unknown_op", f"unknown op {op!r} (known: {', '.join(sorted(self._ops))})", "op"
                )
            with self._lock:
                result = handler(request)
            return _dump({"ok": True, "id": request_id, "result": result})
        except ProtocolError as exc:
            return _error(request_id, exc.code, exc.message, exc.where)
        except TargetingError as exc:
            return _error(request_id, exc.code, str(exc), exc.where)
        except RecursionError:
            return _error(request_id, "too_deep", "request nested too deeply", "")
        except Exception as exc:  # the boundary: nothing escapes to the host
            return _error(request_id, "internal_error", f"{type(exc).__name__}: {exc}", "")

    def _parse(self, request_json: str | bytes) -> dict[str, Any]:
        if isinstance(request_json, bytes):
            if len(request_json) > MAX_REQUEST_BYTES:
                raise ProtocolError(
                    "too_large",
                    f"request is {len(request_json)} bytes, the limit is {MAX_REQUEST_BYTES}",
                )
            try:
                request_json = request_json.decode("utf-8")
            except UnicodeDecodeError as exc:
                raise ProtocolError("bad_utf8", f"request is not UTF-8: {exc}") from None
        if len(request_json) > MAX_REQUEST_BYTES:
            raise ProtocolError(
                "too_large",
                f"request is {len(request_json)} characters, the limit is {MAX_REQUEST_BYTES}",
            )
        try:
            request = json.loads(request_json, parse_constant=_reject_constant)
        except ProtocolError:
            raise
        except RecursionError:
            raise ProtocolError("too_deep", f"request nests deeper than {MAX_JSON_DEPTH}") from None
        except ValueError as exc:
            raise ProtocolError("bad_json", f"request is not JSON: {exc}") from None
        if not isinstance(request, dict):
            raise ProtocolError(
                "bad_request", f"request must be a JSON object, got {type(request).__name__}"
            )
        if not _json_depth_ok(request, MAX_JSON_DEPTH):
            raise ProtocolError("too_deep", f"request nests deeper than {MAX_JSON_DEPTH}")
        return request

    # -- helpers ---------------------------------------------------------------------------
    def _session_id(self, request: dict[str, Any]) -> str:
        session = request.get("session")
        if not isinstance(session, str) or session not in self._sessions:
            raise ProtocolError("unknown_session", f"no open session {session!r}", "session")
        return session

    def _session(self, request: dict[str, Any]) -> Battle:
        return self._sessions[self._session_id(request)]

    # -- operations ------------------------------------------------------------------------
    def _version(self, request: dict[str, Any]) -> Result:
        return {"version": __version__, "protocol": PROTOCOL_VERSION, "ops": sorted(self._ops)}

    def _open(self, request: dict[str, Any]) -> Result:
        if "battle" not in request:
            raise ProtocolError("invalid_field", "missing field 'battle'", "battle")
        if len(self._sessions) >= MAX_SESSIONS:
            raise ProtocolError("too_many_sessions", f"at most {MAX_SESSIONS} open sessions")
        try:
            battle = load_battle(request["battle"])
        except TargetingError as exc:
            raise ProtocolError(exc.code, str(exc), f"battle.{exc.where}") from None
        events = start_battle(battle)
        session = f"s{self._next_session}"
        self._next_session += 1
        self._sessions[session] = battle
        return {"session": session, "events": events, "state": dump_battle(battle)}

    def _close(self, request: dict[str, Any]) -> Result:
        session = self._session_id(request)
        del self._sessions[session]
        return {"closed": session}

    def _state(self, request: dict[str, Any]) -> Result:
        return {"state": dump_battle(self._session(request))}

    def _targets(self, request: dict[str, Any]) -> Result:
        return targets(self._session(request), request.get("card")).to_json()

    def _preview(self, request: dict[str, Any]) -> Result:
        events = preview(self._session(request), request.get("card"), request.get("target"))
        return {"events": events}

    def _play(self, request: dict[str, Any]) -> Result:
        def apply(battle: Battle) -> list[Event]:
            return play(battle, request.get("card"), request.get("target"))

        return self._commit(request, apply)

    def _activate(self, request: dict[str, Any]) -> Result:
        card, target = request.get("card"), request.get("target")
        return self._commit(request, lambda battle: activate(battle, card, target))

    def _respond(self, request: dict[str, Any]) -> Result:
        unit, move, target = request.get("unit"), request.get("move"), request.get("target")
        return self._commit(request, lambda battle: respond_move(battle, unit, move, target))

    def _pass(self, request: dict[str, Any]) -> Result:
        choices = _choices(request)
        return self._commit(request, lambda battle: pass_priority(battle, choices))

    def _resolve(self, request: dict[str, Any]) -> Result:
        choices = _choices(request)
        return self._commit(request, lambda battle: resolve_all(battle, choices))

    def _cut(self, request: dict[str, Any]) -> Result:
        battle = self._session(request)
        return {"cut": [cut_entry_to_json(battle, e) for e in battle.cut]}

    def _end_turn(self, request: dict[str, Any]) -> Result:
        return self._commit(request, end_turn)

    def _commit(self, request: dict[str, Any], change: Callable[[Battle], list[Event]]) -> Result:
        """Apply ``change`` to a copy and keep it only if it succeeds: a failed request, even
        an internal fault halfway through, leaves the session exactly as it was."""
        session = self._session_id(request)
        working = self._sessions[session].clone()
        events = change(working)
        self._sessions[session] = working
        return {"events": events, "state": dump_battle(working)}


def _choices(request: dict[str, Any]) -> dict[str, Any]:
    choices = request.get("choices", {})
    if not isinstance(choices, dict):
        raise ProtocolError("invalid_field", f"choices must map Cut entry ids to unit ids, got "
                            f"{choices!r}", "choices")  # fmt: skip
    return choices


def _reject_constant(name: str) -> Any:
    raise ProtocolError("bad_json", f"request contains {name}, which JSON does not allow")


def _dump(response: dict[str, Any]) -> str:
    # ASCII-only output is valid UTF-8 even when a request smuggled in a lone surrogate.
    return json.dumps(response, separators=(",", ":"), ensure_ascii=True, allow_nan=False)


def _error(request_id: Any, code: str, message: str, where: str) -> str:
    try:
        json.dumps(request_id)
    except (TypeError, ValueError):
        request_id = None
    return _dump(
        {"ok": False, "id": request_id, "error": {"code": code, "message": message, "where": where}}
    )


_default = Protocol()


def call(request_json: str | bytes) -> str:
    """The process-wide protocol instance every transport shares."""
    return _default.call(request_json)
