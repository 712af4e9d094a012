"""Hostile WebSocket clients against a real ``pybridge serve --ws`` process (issue #27, item 6):
each bug the fuzzer below found, as its own case; a seeded fuzzer of the server's messages;
and clients that flood, hoard connections and stop reading while an honest duel plays on.

What must hold: the process stays up and logs no traceback; every message it takes is
answered (an error with a code) or its connection is closed with a documented code; no byte a
hostile client receives holds another seat's token or card ids, and no view it is given shows
another side's hand faces. CI fuzzes ``PYBRIDGE_HOSTILE`` messages (300, a few seconds); the
long run is ``PYBRIDGE_HOSTILE=5000 python -m pytest tests/test_online_hostile.py -s``, which
prints what it sent and the answers' codes. The timeouts only guard against a hang.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import re
import signal
import socket
import subprocess
import sys
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake

from .test_online import WAIT, Client, hand, play_out

MESSAGES = int(os.environ.get("PYBRIDGE_HOSTILE", "300"))
SEED = int(os.environ.get("PYBRIDGE_HOSTILE_SEED", "27"))
GUARD = 240.0  # seconds: a test still waiting after this is hung, not slow
MAX_MESSAGE = 64 * 1024  # the server's default bound
#: Close codes docs/online.md names: normal, going away, dropped (a client that reads nothing),
#: invalid UTF-8, too big, idle, the seat reconnected elsewhere.
CLOSES = {1000, 1001, 1006, 1007, 1009, 4000, 4001}
#: What the server itself refuses with (docs/online.md, "Errors"); internal_error is a bug.
SERVER_CODES = {
    "bad_json",
    "invalid_id",
    "bad_request",
    "unknown_type",
    "not_joined",
    "already_joined",
    "unknown_match",
    "match_full",
    "bad_token",
    "too_many_matches",
}
ALIAS = re.compile(rb"k[0-9a-f]{16}")
HONEST, HOSTILE, HOARDER, LURKER = "127.0.0.2", "127.0.0.3", "127.0.0.4", "127.0.0.5"


def strict(text: str | bytes) -> Any:
    """JSON as a strict reader takes it (no NaN or Infinity: Godot's and a browser's refuse)."""

    def refuse(name: str) -> Any:
        raise ValueError(f"the server sent {name}, which is not JSON")

    return json.loads(text, parse_constant=refuse)


class Served:
    """``pybridge serve --ws`` in a process of its own on a free loopback port."""

    def __init__(self, folder: Path, *options: str) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        self.errors = folder / "server.err"
        code = "import sys; from pybridge.cli import main; sys.exit(main())"
        command = [sys.executable, "-c", code, "serve", "--ws", "--port", "0", *options]
        with self.errors.open("w") as errors:
            self.process = subprocess.Popen(
                command, stdout=subprocess.PIPE, stderr=errors, text=True
            )
        assert self.process.stdout is not None
        line = self.process.stdout.readline()  # printed once it listens
        assert line.startswith("pybridge online: ws://"), line
        self.url = line.split(": ", 1)[1].strip()
        self.port = int(self.url.rsplit(":", 1)[1])

    def alive(self) -> bool:
        return self.process.poll() is None

    def memory(self) -> int:
        """The process's resident memory in bytes."""
        status = Path(f"/proc/{self.process.pid}/status").read_text()
        return int(next(x for x in status.splitlines() if x.startswith("VmRSS")).split()[1]) * 1024

    def stop(self) -> str:
        """Stop it by its pid (Ctrl+C, its own clean stop) and return what it logged."""
        if self.alive():
            os.kill(self.process.pid, signal.SIGINT)
            try:
                self.process.wait(WAIT * 3)
            except subprocess.TimeoutExpired:
                os.kill(self.process.pid, signal.SIGKILL)
                self.process.wait(WAIT)
        return self.errors.read_text("utf-8", "replace")


@contextlib.contextmanager
def serving(folder: Path, *options: str) -> Iterator[Served]:
    served = Served(folder, *options)
    try:
        yield served
        assert served.alive(), "the server died"
    finally:
        logged = served.stop()
    assert "Traceback" not in logged, logged
    assert served.process.returncode == 0, logged


async def opened(url: str, address: str = HOSTILE, **options: Any) -> ClientConnection:
    return await connect(url, local_addr=(address, 0), **options)


class Honest(Client):
    """A seat that plays by the rules; every byte it received kept, to know its secrets."""

    def __init__(self, connection: ClientConnection) -> None:
        super().__init__(connection)
        self.heard: list[bytes] = []

    async def receive(self) -> dict[str, Any]:
        text = await asyncio.wait_for(self.connection.recv(), WAIT * 3)
        self.heard.append(text.encode() if isinstance(text, str) else text)
        reply: dict[str, Any] = strict(text)
        if reply.get("type") == "update":
            self.updates.append(reply)
        return reply


@dataclass
class Duel:
    """An honest duel: its two seats, its tokens and every card id its seats were told."""

    name: str
    seats: dict[str, Honest]
    tokens: list[str]

    async def close(self) -> None:
        for seat in self.seats.values():
            await seat.connection.close()

    def secrets(self) -> set[bytes]:
        found = {t.encode() for t in self.tokens}
        for seat in self.seats.values():
            for text in seat.heard:
                found.update(ALIAS.findall(text))
        return found


async def duel(url: str) -> Duel:
    aya, vex = Honest(await opened(url, HONEST)), Honest(await opened(url, HONEST))
    created = await aya.send(type="create")
    joined = await vex.send(type="join", match=created["match"])
    assert created["type"] == joined["type"] == "joined", (created, joined)
    seats = {"player": aya, "enemy": vex}
    return Duel(created["match"], seats, [created["token"], joined["token"]])


async def closed_code(connection: ClientConnection) -> int | None:
    async with asyncio.timeout(GUARD):
        await connection.wait_closed()
    return connection.close_code


# -- the bugs the fuzzer found, one case each -------------------------------------------------
@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    with serving(tmp_path_factory.mktemp("hostile")) as served:
        yield served


def test_an_id_no_reader_can_read_back_is_refused_not_echoed(server: Served) -> None:
    """Found: ``{"id": NaN}`` was echoed as ``NaN``, which no JSON reader but Python's takes
    (a browser's or Godot's client would stop at the answer)."""

    async def scenario() -> None:
        connection = await opened(server.url)
        texts = {
            '{"type": "create", "id": NaN}': "bad_json",
            '{"type": "request", "id": -Infinity, "request": {"op": "view"}}': "bad_json",
            '{"type": "create", "id": [1, Infinity]}': "bad_json",
            '{"type": "spectate", "id": 1152921504606846976}': "invalid_id",  # 2**60
            '{"type": "nonsense", "id": "\\ud800"}': "invalid_id",
        }
        for text, code in texts.items():
            await connection.send(text)
            reply = strict(await connection.recv())
            assert reply["type"] == "error" and reply["error"]["code"] == code, (text, reply)
            assert reply["id"] is None
        # The same connection is still served, and a readable id comes back as it was sent.
        await connection.send(json.dumps({"type": "create", "id": 2**53}))
        assert strict(await connection.recv())["id"] == 2**53
        await connection.close()

    asyncio.run(scenario())


def test_a_request_s_own_id_no_reader_can_read_back_is_refused_not_echoed(
    server: Served,
) -> None:
    """Found by the long run: ``1e999`` reads as infinity in Python, and the server's own
    refusals of a request (``unknown_op``, ``not_your_seat``...) echoed the request's ``id``
    unchecked: ``{"op": [], "id": 1e999}`` was answered with ``Infinity``."""

    async def scenario() -> None:
        seat = Honest(await opened(server.url))
        await seat.send(type="create")
        for given in ("1e999", "-1e400", "1152921504606846976", '"\\udc00"', "[1e999]"):
            for op in ('"nonsense"', "[]", '"view", "viewer": "enemy"', '"view"'):
                text = '{"type": "request", "id": 5, "request": {"op": OP, "id": ID}}'
                await seat.connection.send(text.replace("OP", op).replace("ID", given))
                reply = await seat.receive()  # strict: no NaN or Infinity in it
                failed = reply.get("error") or reply["response"]["error"]
                assert failed["code"] in ("bad_json", "invalid_id"), (given, op, reply)
        await seat.connection.send('{"type": "create", "id": 1e999}')
        assert (await seat.receive())["error"]["code"] == "bad_json"
        await seat.connection.close()

    asyncio.run(scenario())


def test_a_token_holding_a_lone_surrogate_is_a_bad_token(server: Served) -> None:
    """Found: a join whose token held a lone surrogate (JSON lets one in) was answered
    ``internal_error`` (the token could not be encoded to be compared)."""

    async def scenario() -> None:
        honest = await duel(server.url)
        connection = await opened(server.url)
        for token in ("\\ud800", "x\\udfff" + "y" * 30):
            text = '{"type": "join", "id": 1, "match": "NAME", "token": "TOKEN"}'
            await connection.send(text.replace("NAME", honest.name).replace("TOKEN", token))
            reply = strict(await connection.recv())
            assert reply["error"]["code"] == "bad_token", reply
        await connection.close()
        await honest.close()

    asyncio.run(scenario())


def test_an_op_that_is_a_list_or_an_object_is_an_unknown_op(server: Served) -> None:
    """Found: a request whose ``op`` was a list or an object was answered ``internal_error``
    (it was looked up in the sets of ops, which hold only what can be hashed)."""

    async def scenario() -> None:
        seat = Honest(await opened(server.url))
        await seat.send(type="create")
        for op in ([], ["view"], {"op": "view"}, [[1]]):
            refused = await seat.ask(op=op)
            assert refused["error"]["code"] == "unknown_op", refused
        assert (await seat.ask(op="view"))["ok"]  # the seat is still served
        await seat.connection.close()

    asyncio.run(scenario())


def test_a_binary_frame_is_refused_and_read_as_nothing(server: Served) -> None:
    """Found: a binary frame was read as JSON (bytes in any UTF), though a message is text."""

    async def scenario() -> None:
        connection = await opened(server.url)
        for frame in (b'{"type": "create", "id": 1}', "{}".encode("utf-16"), b"\xff\xfe", b""):
            await connection.send(frame)
            reply = strict(await connection.recv())
            assert reply["type"] == "error" and reply["error"]["code"] == "bad_request", reply
        await connection.send(json.dumps({"type": "create", "id": 2}))  # it made no match
        assert strict(await connection.recv())["type"] == "joined"
        await connection.close()

    asyncio.run(scenario())


def test_questions_never_asked_twice_do_not_pile_up_in_memory(tmp_path: Path) -> None:
    """Found: the answers kept for the aiming arrow were kept under the whole question, and
    only answers of older states were ever let go: a client asking ever new (padded)
    questions in one state grew the server's memory without end (60 KiB a question)."""
    with serving(tmp_path) as served:

        async def scenario() -> int:
            seat = Honest(await opened(served.url))
            created = await seat.send(type="create")
            card = hand(created["view"], "player")[0]["id"]
            before = served.memory()
            for batch in range(40):
                for n in range(20):
                    pad = f"{batch}-{n}-" + "x" * 60_000
                    request = {"op": "targets", "card": card, "pad": pad}
                    await seat.connection.send(json.dumps({"type": "request", "request": request}))
                for _ in range(20):
                    assert (await seat.receive())["type"] == "answer"
            grown = served.memory() - before
            await seat.connection.close()
            return grown

        grown = asyncio.run(scenario())
    assert grown < 16 * 2**20, f"{grown / 2**20:.1f} MiB kept for 800 questions of 60 KiB"


async def stop_reading(url: str, address: str) -> ClientConnection:
    """A connection that stops reading: a small receive buffer, and the client library's
    queue of one frame (beyond it, the library reads nothing more from the socket)."""
    raw = socket.socket()
    raw.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    raw.bind((address, 0))
    raw.setblocking(False)
    await asyncio.get_running_loop().sock_connect(raw, ("127.0.0.1", int(url.rsplit(":", 1)[1])))
    return await connect(url, sock=raw, max_queue=1, compression=None)


async def lurk(url: str, match: str, dropped: list[int | None]) -> None:
    """Spectate ``match`` and stop reading, answers to big ids piling up; once the server
    drops the connection, do it again, for ever."""
    while True:
        lurker = await stop_reading(url, LURKER)
        try:
            await lurker.send(json.dumps({"type": "spectate", "match": match}))
            filling = asyncio.create_task(fill(lurker, 400))
            dropped.append(await closed_code(lurker))
            filling.cancel()
        finally:
            lurker.transport.abort()


async def fill(connection: ClientConnection, count: int) -> None:
    """Messages the server answers with their 48 KiB ids, sent without reading a reply (on
    a connection without compression: the ids take their whole size on the wire)."""
    with contextlib.suppress(ConnectionClosed):
        for n in range(count):
            await connection.send(json.dumps({"type": "unknown", "id": f"{n}" + "y" * 48_000}))


def test_a_spectator_that_stops_reading_does_not_hold_up_the_duel(tmp_path: Path) -> None:
    """Found: each accepted move waited, under its match's lock, for every connection of the
    match to take its update; a spectator that stopped reading held the duel for as long as
    the keepalive took to notice it (some 40 s a move, again for each new such spectator)."""
    with serving(tmp_path, "--max-backlog", "65536") as served:

        async def scenario() -> list[int | None]:
            honest = await duel(served.url)
            dropped: list[int | None] = []
            lurkers = [asyncio.create_task(lurk(served.url, honest.name, dropped))]
            lurkers.append(asyncio.create_task(lurk(served.url, honest.name, dropped)))
            try:
                async with asyncio.timeout(GUARD):
                    await play_out(dict(honest.seats), [])
                for task in lurkers:  # still lurking, not failed
                    assert not task.done(), task.exception()
                await honest.close()
            finally:
                for task in lurkers:
                    task.cancel()
            return dropped

        dropped = asyncio.run(scenario())
    # The server dropped those that had left most unread (no close frame: they read nothing).
    assert dropped and set(dropped) <= {1006}, dropped


def test_one_address_holds_at_most_its_bound_of_connections(tmp_path: Path) -> None:
    """Found: any number of sockets from one address were held, half-open handshakes too,
    until the process ran out of file descriptors and took no one (honest clients either)."""
    with serving(tmp_path, "--max-per-address", "8") as served:

        async def scenario() -> None:
            half = [socket.create_connection(("127.0.0.1", served.port), WAIT, (HOARDER, 0))]
            half += [socket.create_connection(("127.0.0.1", served.port), WAIT, (HOARDER, 0))]
            half[0].sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")  # and never the rest
            held = [await opened(served.url, HOARDER) for _ in range(6)]
            with pytest.raises((InvalidHandshake, OSError)):
                await opened(served.url, HOARDER)  # the ninth: cut before its handshake
            # Other addresses are not counted with it: an honest duel is made.
            honest = await duel(served.url)
            assert (await honest.seats["player"].ask(op="view"))["ok"]
            # A connection let go is a place free again, once the server has seen it close.
            await held.pop().close()
            async with asyncio.timeout(GUARD):
                while True:
                    with contextlib.suppress(InvalidHandshake, OSError):
                        held.append(await opened(served.url, HOARDER))
                        break
                    await asyncio.sleep(0.05)
            for connection in held:
                await connection.close()
            for raw in half:
                raw.close()
            await honest.close()

        asyncio.run(scenario())
