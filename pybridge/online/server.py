"""The WebSocket host of online matches (``pybridge serve --ws``): moves JSON text between
clients and their :class:`~pybridge.online.match.Match`, one message in, one answer out.

Every message gets an answer; a match's protocol calls run in a worker thread under that
match's own lock, so a slow or failing request never stalls another match. Messages are
bounded in size, idle connections are closed, and the Origin of a browser page is checked.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
from dataclasses import dataclass, field
from http import HTTPStatus
from pathlib import Path
from typing import Any

from websockets.asyncio.server import Server, ServerConnection, serve
from websockets.exceptions import ConnectionClosed
from websockets.http11 import Request, Response

from ..runtime.vocabulary import Vocabulary
from .match import SPECTATOR, Limits, Match, MatchError, error

#: Pages served from this machine may connect unless told otherwise (and clients that are
#: not browsers, which send no Origin).
LOOPBACK_ORIGINS = re.compile(r"https?://(localhost|127\.0\.0\.1|\[::1\])(:\d+)?")


@dataclass
class Room:
    """A match and who is connected to it: one connection per seat, any spectators."""

    match: Match
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    seats: dict[str, ServerConnection] = field(default_factory=dict)
    spectators: set[ServerConnection] = field(default_factory=set)


class Host:
    """The matches one server holds, all created from its ``battle`` document."""

    def __init__(
        self,
        battle: dict[str, Any],
        limits: Limits | None = None,
        words: Vocabulary | None = None,
        logs: Path | None = None,
    ) -> None:
        self.battle = battle
        self.limits = limits or Limits()
        self.words = words
        self.logs = logs
        self.rooms: dict[str, Room] = {}
        self._next = 1

    # -- the handshake -----------------------------------------------------------------
    def origin_allowed(self, origin: str | None) -> bool:
        if origin is None or origin in self.limits.origins:
            return True
        return self.limits.loopback and LOOPBACK_ORIGINS.fullmatch(origin) is not None

    def check_origin(self, connection: ServerConnection, request: Request) -> Response | None:
        origin = request.headers.get("Origin")
        if self.origin_allowed(origin):
            return None
        return connection.respond(HTTPStatus.FORBIDDEN, f"origin not allowed: {origin}\n")

    # -- a connection ------------------------------------------------------------------
    async def handle(self, connection: ServerConnection) -> None:
        joined: tuple[Room, str] | None = None
        try:
            while True:
                try:
                    async with asyncio.timeout(self.limits.idle):
                        text = await connection.recv()
                except TimeoutError:
                    await connection.close(4000, f"idle for {self.limits.idle:g} s")
                    return
                answer, joined = await self._answer(connection, text, joined)
                await connection.send(json.dumps(answer))
        except ConnectionClosed:
            pass
        finally:
            if joined is not None:
                self._leave(connection, *joined)

    async def _answer(
        self, connection: ServerConnection, text: str | bytes, joined: tuple[Room, str] | None
    ) -> tuple[dict[str, Any], tuple[Room, str] | None]:
        try:
            message = json.loads(text)
        except (ValueError, RecursionError) as exc:
            return {"type": "error", **error("bad_json", f"message is not JSON: {exc}")}, joined
        if not isinstance(message, dict):
            return {"type": "error", **error("bad_request", "a message is a JSON object")}, joined
        kind, message_id = message.get("type"), message.get("id")
        try:
            if kind in ("create", "join", "spectate"):
                if joined is not None:
                    raise MatchError("already_joined", "this connection is in a match already")
                return await self._join(connection, kind, message)
            if kind == "request":
                if joined is None:
                    raise MatchError("not_joined", "create, join or spectate a match first")
                room, viewer = joined
                async with room.lock:
                    outcome = await asyncio.to_thread(
                        room.match.request, viewer, message.get("request")
                    )
                    if outcome.updates:
                        self._keep_log(room.match)
                        await self._send_updates(room, outcome.updates)
                return {"type": "answer", "id": message_id, "response": outcome.answer}, joined
            raise MatchError(
                "unknown_type",
                f"unknown message type {kind!r} (known: create, join, spectate, request)",
            )
        except MatchError as exc:
            return {"type": "error", **error(exc.code, str(exc), request_id=message_id)}, joined
        except Exception as exc:  # the boundary: a client never crashes the server
            failed = error("internal_error", f"{type(exc).__name__}: {exc}", request_id=message_id)
            return {"type": "error", **failed}, joined

    async def _join(
        self, connection: ServerConnection, kind: str, message: dict[str, Any]
    ) -> tuple[dict[str, Any], tuple[Room, str]]:
        token: str | None = None
        if kind == "create":
            if len(self.rooms) >= self.limits.max_matches:
                raise MatchError("too_many_matches", f"at most {self.limits.max_matches} matches")
            name = f"m{self._next}"
            self._next += 1
            room = Room(await asyncio.to_thread(Match, name, self.battle, self.words))
            self.rooms[name] = room
            self._keep_log(room.match)
        else:
            asked = message.get("match")
            found = self.rooms.get(asked) if isinstance(asked, str) else None
            if found is None:
                raise MatchError("unknown_match", f"no match {str(asked)[:40]!r}")
            room, name = found, found.match.name
        async with room.lock:
            if kind == "spectate":
                viewer = SPECTATOR
                room.spectators.add(connection)
            elif kind == "join" and "token" in message:  # reconnecting: the seat resumes
                viewer = room.match.seat_of(message["token"])
                old = room.seats.get(viewer)
                if old is not None and old is not connection:
                    await old.close(4001, "the seat reconnected from elsewhere")
            else:
                viewer, token = room.match.claim()
            if viewer != SPECTATOR:
                room.seats[viewer] = connection
            view = await asyncio.to_thread(room.match.view, viewer)
        answer: dict[str, Any] = {
            "type": "joined",
            "id": message.get("id"),
            "match": name,
            "seat": viewer,
            "step": room.match.step,
            "view": view,
        }
        if token is not None:
            answer["token"] = token
        return answer, (room, viewer)

    async def _send_updates(self, room: Room, updates: dict[str, dict[str, Any]]) -> None:
        sends = [(c, updates[seat]) for seat, c in room.seats.items() if seat in updates]
        sends += [(c, updates[SPECTATOR]) for c in room.spectators]
        for connection, update in sends:
            with contextlib.suppress(ConnectionClosed):  # it gets its view back on reconnecting
                await connection.send(json.dumps(update))

    def _leave(self, connection: ServerConnection, room: Room, viewer: str) -> None:
        room.spectators.discard(connection)
        if room.seats.get(viewer) is connection:
            del room.seats[viewer]

    def _keep_log(self, match: Match) -> None:
        if self.logs is None:
            return
        path = self.logs / f"{match.name}.json"
        partial = path.with_suffix(".json.part")
        partial.write_text(json.dumps(match.log), "utf-8")
        partial.replace(path)


async def start(host: Host, address: str = "127.0.0.1", port: int = 0) -> Server:
    """Start serving ``host`` (port 0: any free one, see ``server.sockets``)."""
    return await serve(
        host.handle,
        address,
        port,
        max_size=host.limits.max_message,
        process_request=host.check_origin,
    )


def bound_port(server: Server) -> int:
    return int(next(iter(server.sockets)).getsockname()[1])


async def run(host: Host, address: str, port: int) -> None:
    """Serve until cancelled; prints the address it listens on (so a caller knows the port)."""
    server = await start(host, address, port)
    print(f"pybridge online: ws://{address}:{bound_port(server)}", flush=True)
    await server.serve_forever()
