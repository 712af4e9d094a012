"""The WebSocket host of online matches (``pybridge serve --ws``): moves JSON text between
clients and their :class:`~pybridge.online.match.Match`, one message in, one answer out.

Every message gets an answer; a match's protocol calls run in a worker thread under that
match's own lock, so a slow or failing request never stalls another match. Messages are
bounded in size, idle connections are closed, and the Origin of a browser page is checked.

With a :class:`~pybridge.online.store.Store` (``--redis``) several processes share one port
(SO_REUSEPORT) and the matches: each match is held by one process at a time (a lease in
Redis), every accepted step is written there before anyone hears of it, a connection for a
match another process holds is relayed to that process, and a match whose process died is
taken on by the next one asked for it, from its last snapshot.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import math
import re
from collections import Counter
from dataclasses import dataclass, field
from http import HTTPStatus
from pathlib import Path
from typing import TYPE_CHECKING, Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.asyncio.server import Server, ServerConnection, serve
from websockets.exceptions import ConnectionClosed
from websockets.http11 import Request, Response

from ..protocol import echoable_id
from ..runtime.errors import request_value
from ..runtime.vocabulary import Vocabulary
from .match import SPECTATOR, Limits, Match, MatchError, error

if TYPE_CHECKING:
    from .store import Store

#: A seat's connection closed because its match moved to another process: reconnect.
MOVED = 1012

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
    #: The client address that created the match ("" for one taken on from a store).
    creator: str = ""
    #: Each time the last connection leaves, a new count: a wait for abandonment that finds
    #: another count when it ends was overtaken by someone coming back.
    emptied: int = 0

    @property
    def empty(self) -> bool:
        return not self.seats and not self.spectators


class Host:
    """The matches one server holds, all created from its ``battle`` document, each with its
    own seed, hidden order and view secret unless ``fixed_order`` (see
    :func:`~pybridge.online.match.fresh_start`)."""

    def __init__(
        self,
        battle: dict[str, Any],
        limits: Limits | None = None,
        words: Vocabulary | None = None,
        logs: Path | None = None,
        store: Store | None = None,
        deflate: bool = False,
        fixed_order: bool = False,
    ) -> None:
        self.battle = battle
        self.fixed_order = fixed_order
        #: Compress messages (permessage-deflate) for clients that offer it: a view is a few
        #: KiB of JSON that deflates to a third, but deflating every update cost a sixth of
        #: the server's time per move, so it is for links where bytes cost more than CPU.
        self.deflate = deflate
        self.limits = limits or Limits()
        self.words = words
        self.logs = logs
        self.store = store
        self.rooms: dict[str, Room] = {}
        self._next = 1
        self._resuming: dict[str, asyncio.Task[None]] = {}
        self._sending: set[asyncio.Task[None]] = set()
        #: Open connections per client address (the handshake's too), bounded by the limits.
        self.peers: Counter[str] = Counter()

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

    def admit(self, address: str) -> bool:
        """Count a new connection from ``address``; False when it is one too many."""
        self.peers[address] += 1
        return not self.limits.per_address or self.peers[address] <= self.limits.per_address

    def release(self, address: str) -> None:
        self.peers[address] -= 1
        if self.peers[address] <= 0:
            del self.peers[address]

    # -- a connection ------------------------------------------------------------------
    async def handle(self, connection: ServerConnection, relay: bool = True) -> None:
        joined: tuple[Room, str] | None = None
        try:
            while True:
                try:
                    async with asyncio.timeout(self.limits.idle):
                        text = await connection.recv()
                except TimeoutError:
                    await connection.close(4000, f"idle for {self.limits.idle:g} s")
                    return
                if joined is None and relay and self.store is not None:
                    upstream = await self._locate(text)
                    if upstream is not None:  # another process holds the match
                        await self._relay(connection, upstream, text)
                        return
                answer, joined = await self._answer(connection, text, joined)
                await connection.send(json.dumps(answer))
                if joined is not None and self.rooms.get(joined[0].match.name) is not joined[0]:
                    # Dropped (match_moved): answered first, then sent to reconnect.
                    await connection.close(MOVED, "the match moved to another process: reconnect")
                    return
        except ConnectionClosed:
            pass
        finally:
            if joined is not None:
                self._leave(connection, *joined)

    async def _answer(
        self, connection: ServerConnection, text: str | bytes, joined: tuple[Room, str] | None
    ) -> tuple[dict[str, Any], tuple[Room, str] | None]:
        if isinstance(text, bytes):  # a binary frame: its bytes are no text the server reads
            refused = error("bad_request", "a message is JSON text in a text frame, not binary")
            return {"type": "error", **refused}, joined
        try:
            message = parse(text)
        except (ValueError, RecursionError) as exc:
            return {"type": "error", **error("bad_json", f"message is not JSON: {exc}")}, joined
        if not isinstance(message, dict):
            return {"type": "error", **error("bad_request", "a message is a JSON object")}, joined
        kind, message_id = message.get("type"), message.get("id")
        if not echoable_id(message_id):  # echoed as it came, a client could not read it back
            refused = error("invalid_id", "the id must be one a JSON reader reads back", "id")
            return {"type": "error", **refused}, joined
        try:
            if kind in ("create", "join", "spectate"):
                if joined is not None:
                    raise MatchError("already_joined", "this connection is in a match already")
                return await self._join(connection, kind, message)
            if kind == "request":
                if joined is None:
                    raise MatchError("not_joined", "create, join or spectate a match first")
                room, viewer = joined
                own: asyncio.Task[None] | None = None
                async with room.lock:
                    outcome = await asyncio.to_thread(
                        room.match.request, viewer, message.get("request")
                    )
                    if outcome.updates:
                        await self._save(room.match, 1, connection)
                        self._keep_log(room.match)
                        own = self._send_updates(room, outcome.updates, connection)
                if own is not None:  # the sender hears of its step before its answer
                    await own
                return {"type": "answer", "id": message_id, "response": outcome.answer}, joined
            raise MatchError(
                "unknown_type",
                f"unknown message type {request_value(kind)} (known: create, join, spectate, "
                "request)",
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
            creator = _address(connection.transport)
            most = self.limits.matches_per_address
            if most and sum(r.creator == creator for r in self.rooms.values()) >= most:
                raise MatchError(
                    "too_many_matches",
                    f"this address created {most} matches the server still holds: finish or "
                    "leave one (a match nobody is connected to is forgotten after "
                    f"{self.limits.abandon:g} s)",
                )
            if self.store is not None:
                name = await self.store.new_name()
                await self.store.take(name)
            else:
                name = f"m{self._next}"
                self._next += 1
            room = Room(
                await asyncio.to_thread(Match, name, self.battle, self.words, self.fixed_order),
                creator=creator,
            )
            if self.store is not None and not await self.store.save(room.match, head=True):
                raise MatchError("match_moved", "the match moved: create it again")
            self.rooms[name] = room
            self._keep_log(room.match)
        else:
            asked = message.get("match")
            found = self.rooms.get(asked) if isinstance(asked, str) else None
            if found is None:
                raise MatchError("unknown_match", f"no match {request_value(asked)}")
            room, name = found, found.match.name
        async with room.lock:
            if kind == "spectate":
                viewer = SPECTATOR
                room.spectators.add(connection)
            elif kind == "join" and "token" in message:  # reconnecting: the seat resumes
                viewer = room.match.seat_of(message["token"])
                old = room.seats.get(viewer)
                if old is not None and old is not connection:  # closed without waiting on it
                    self._later(old.close(4001, "the seat reconnected from elsewhere"))
            else:
                viewer, token = room.match.claim()
                await self._save(room.match, 0, connection)
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

    def _send_updates(
        self, room: Room, updates: dict[str, dict[str, Any]], sender: ServerConnection
    ) -> asyncio.Task[None] | None:
        """Hand each connection its update without waiting for any of them to take it: a
        client that stops reading never holds up its match. Each send starts writing in the
        order made, so a connection's updates keep their order; the sender's is returned."""
        sends = [(c, updates[seat]) for seat, c in room.seats.items() if seat in updates]
        sends += [(c, updates[SPECTATOR]) for c in room.spectators]
        own = None
        for connection, update in sends:
            if connection.transport.get_write_buffer_size() > self.limits.backlog:
                connection.transport.abort()  # it has read nothing for a long while: dropped
                continue
            task = asyncio.create_task(self._deliver(connection, json.dumps(update)))
            self._sending.add(task)
            task.add_done_callback(self._sending.discard)
            if connection is sender:
                own = task
        return own

    def _later(self, work: Any) -> None:
        task = asyncio.ensure_future(work)
        self._sending.add(task)
        task.add_done_callback(self._sending.discard)

    @staticmethod
    async def _deliver(connection: ServerConnection, text: str) -> None:
        with contextlib.suppress(ConnectionClosed):  # it gets its view back on reconnecting
            await connection.send(text)

    def _leave(self, connection: ServerConnection, room: Room, viewer: str) -> None:
        room.spectators.discard(connection)
        if room.seats.get(viewer) is connection:
            del room.seats[viewer]
        if room.empty:
            room.emptied += 1
            self._later(self._forget_if_abandoned(room, room.emptied))

    async def _forget_if_abandoned(self, room: Room, emptied: int) -> None:
        """Forget ``room`` if nobody came back to it for ``abandon`` seconds: an abandoned
        match would otherwise hold its memory and its place under ``max_matches`` for ever
        (a client creating matches and leaving them would soon leave no place to anyone)."""
        await asyncio.sleep(self.limits.abandon)
        name = room.match.name
        if room.emptied != emptied or not room.empty or self.rooms.get(name) is not room:
            return
        del self.rooms[name]
        if self.store is not None:  # its state stays in Redis: a seat's token resumes it
            with contextlib.suppress(Exception):
                await self.store.release([name])

    # -- several processes (a store) ---------------------------------------------------
    async def _locate(self, text: str | bytes) -> ClientConnection | None:
        """For a join or spectate of a match this process does not hold: a connection to
        the process that does, or None once this one holds it (taken on from its last
        snapshot when its process died) or when there is no such match."""
        assert self.store is not None
        try:
            message = parse(text)
        except (ValueError, RecursionError):
            return None
        if not isinstance(message, dict) or message.get("type") not in ("join", "spectate"):
            return None
        name = message.get("match")
        if not isinstance(name, str) or not _utf8(name):  # no match has it, nor could Redis
            return None
        loop = asyncio.get_running_loop()
        deadline = loop.time() + 3 * self.store.lease
        while name not in self.rooms and loop.time() < deadline:
            holder = await self.store.holder(name)
            if holder is None:
                if not await self.store.exists(name):
                    return None
                if await self.store.take(name):
                    await self._resume(name)
            elif holder == self.store.me:
                await self._resume(name)
            else:
                address = await self.store.address_of(holder)
                if address is not None:
                    with contextlib.suppress(OSError):
                        return await connect(address, max_size=self.limits.max_message)
            if name not in self.rooms:
                await asyncio.sleep(0.05)  # its process is gone: its lease runs out soon
        return None

    async def _resume(self, name: str) -> None:
        """Open a match this process has just taken the lease of, once per name."""
        task = self._resuming.get(name)
        if task is None:
            task = self._resuming[name] = asyncio.create_task(self._load(name))
        try:
            await task
        finally:
            self._resuming.pop(name, None)

    async def _load(self, name: str) -> None:
        assert self.store is not None
        if name in self.rooms:
            return
        saved = await self.store.load(name)
        if saved is None:
            return
        match = await asyncio.to_thread(
            Match.resume, saved.log, saved.snapshot, saved.tokens, self.words
        )
        self.rooms[name] = Room(match)
        self._keep_log(match)

    async def _relay(
        self, client: ServerConnection, upstream: ClientConnection, first: str | bytes
    ) -> None:
        """Pass frames both ways until one side closes; the other closes the same way (a
        dead upstream: MOVED, so the client reconnects and lands where the match went)."""

        async def pipe(source: Any, sink: Any) -> None:
            with contextlib.suppress(ConnectionClosed):
                async for frame in source:
                    await sink.send(frame)

        async with upstream:
            await upstream.send(first)
            pipes = [asyncio.create_task(pipe(client, upstream))]
            pipes.append(asyncio.create_task(pipe(upstream, client)))
            await asyncio.wait(pipes, return_when=asyncio.FIRST_COMPLETED)
            for task in pipes:
                task.cancel()
        code, reason = upstream.close_code, upstream.close_reason or ""
        if code is None or code == 1006:
            code, reason = MOVED, "the match's process stopped: reconnect"
        await client.close(code, reason)

    async def _save(self, match: Match, steps: int, asking: ServerConnection) -> None:
        """Write what just changed before anyone hears of it. When that fails (the lease is
        lost, Redis unreachable) the match is dropped here, so that nothing goes on from a
        state Redis does not hold: its seats reconnect and resume from what it does."""
        if self.store is None:
            return
        try:
            saved = await self.store.save(match, steps)
        except Exception:  # Redis unreachable or refusing: the same as a lost lease
            saved = False
        if not saved:
            await self._drop(match.name, asking)
            raise MatchError("match_moved", "the match moved: reconnect with your token")

    async def _drop(self, name: str, asking: ServerConnection | None = None) -> None:
        """Forget a match whose lease this process lost: its seats reconnect elsewhere (the
        one ``asking`` once it has its answer)."""
        room = self.rooms.pop(name, None)
        if room is None:
            return
        for connection in [*room.seats.values(), *room.spectators]:
            if connection is not asking:
                await connection.close(MOVED, "the match moved to another process: reconnect")

    async def keep_leases(self, address: str) -> None:
        """Renew this process's leases (and its address) three times a lease, for ever."""
        assert self.store is not None
        while True:
            try:
                await self.store.announce(address)
                for name in await self.store.renew(list(self.rooms)):
                    await self._drop(name)
            except Exception:  # Redis unreachable: try again; the saves refuse meanwhile
                pass
            await asyncio.sleep(self.store.lease / 3)

    def _keep_log(self, match: Match) -> None:
        if self.logs is None:
            return
        path = self.logs / f"{match.name}.json"
        partial = path.with_suffix(".json.part")
        partial.write_text(json.dumps(match.log), "utf-8")
        partial.replace(path)


async def start(host: Host, address: str = "127.0.0.1", port: int = 0) -> Server:
    """Start serving ``host`` (port 0: any free one, see ``server.sockets``). With a store,
    the port is shared with the other processes (SO_REUSEPORT) and a second, private one
    takes the connections they relay here."""
    server = await serve(
        host.handle,
        address,
        port,
        max_size=host.limits.max_message,
        process_request=host.check_origin,
        reuse_port=host.store is not None,
        create_connection=_bounded(host),
        compression="deflate" if host.deflate else None,
    )
    if host.store is not None:

        async def relayed(connection: ServerConnection) -> None:
            await host.handle(connection, relay=False)

        inner_address = "127.0.0.1" if address in ("", "0.0.0.0", "::") else address
        inner = await serve(relayed, inner_address, 0, max_size=host.limits.max_message)
        url = f"ws://{inner_address}:{bound_port(inner)}"
        await host.store.announce(url)
        keeper = asyncio.create_task(host.keep_leases(url))
        server.pybridge_inner = (inner, keeper)  # type: ignore[attr-defined]
    return server


async def stop(server: Server) -> None:
    """Stop what :func:`start` started: the server, and with a store its private port and
    lease keeper (the leases then run out, and another process takes the matches on)."""
    inner: tuple[Server, asyncio.Task[None]] | None = getattr(server, "pybridge_inner", None)
    servers = [server] if inner is None else [server, inner[0]]
    if inner is not None:
        inner[1].cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await inner[1]
    for each in servers:
        each.close()
        await each.wait_closed()


def _bounded(host: Host) -> type[ServerConnection]:
    """Connections that count themselves against ``host``'s bound per client address, from
    the moment TCP accepts them: one over the bound is cut before its handshake (which is
    what a client holding sockets half open would otherwise keep)."""

    class Bounded(ServerConnection):
        address = ""

        def connection_made(self, transport: asyncio.BaseTransport) -> None:
            super().connection_made(transport)
            self.address = _address(transport)
            if not host.admit(self.address):
                self.transport.abort()

        def connection_lost(self, exc: Exception | None) -> None:
            host.release(self.address)
            super().connection_lost(exc)

    return Bounded


def _address(transport: asyncio.BaseTransport) -> str:
    """A connection's client address, as the bound per address counts it."""
    peer = transport.get_extra_info("peername")
    return str(peer[0]) if peer else ""


def _utf8(text: str) -> bool:
    """Can ``text`` be written as UTF-8? (JSON lets a lone surrogate into a string.)"""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):  # 1e999 reads as infinity
        raise ValueError(f"the number {text[:40]} is out of range")
    return value


def parse(text: str | bytes) -> Any:
    """A client's message as JSON reads it, without NaN or Infinity (which Python's reader
    takes, also as 1e999, and an answer echoing them would not be JSON)."""
    return json.loads(text, parse_constant=_no_constant, parse_float=_finite)


def bound_port(server: Server) -> int:
    return int(next(iter(server.sockets)).getsockname()[1])


#: Objects made young before the collector looks at them (CPython's default is 700).
YOUNG_GENERATION = 50_000


def tune_collector() -> None:
    """Keep the cyclic garbage collector off the moves' critical path.

    A server holds every match's runtime session, snapshot and connections: some 700 tracked
    objects a match. CPython's full collection walks all of them at once, and at 250 matches
    it took about 100 ms (over 400 ms on a busy machine), enough on its own to make every
    move's p99. What is loaded before serving never becomes garbage, so it leaves the
    collector (``gc.freeze``); and a young generation large enough to hold a few moves'
    objects lets them die by reference count before any collection sees them, so they never
    reach the old generation and full collections become rare. Cycles are still collected:
    growing by ``YOUNG_GENERATION`` objects starts a collection, as growing by 700 did."""
    gc.freeze()
    _, middle, old = gc.get_threshold()
    gc.set_threshold(YOUNG_GENERATION, middle, old)


async def run(host: Host, address: str, port: int) -> None:
    """Serve until cancelled; prints the address it listens on (so a caller knows the port)."""
    server = await start(host, address, port)
    tune_collector()
    print(f"pybridge online: ws://{address}:{bound_port(server)}", flush=True)
    if host.store is not None:
        print(f"pybridge online: process {host.store.me}, matches in Redis", flush=True)
    await server.serve_forever()
