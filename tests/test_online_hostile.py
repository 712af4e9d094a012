"""Hostile WebSocket clients against a real ``pybridge serve --ws`` process (issue #27, item 6):
each bug the fuzzer below found, as its own case; a seeded fuzzer of the server's messages;
and clients that flood, hoard connections and stop reading while an honest duel plays on.

What must hold: the process stays up and logs no traceback; every message it takes is
answered (an error with a code) or its connection is closed with a documented code; no byte a
hostile client receives holds another seat's token or card ids, and no view it is given shows
another side's hand faces. CI fuzzes ``PYBRIDGE_HOSTILE`` messages (300, a few seconds), and
half as many against two processes sharing Redis; the long run is ``PYBRIDGE_HOSTILE=5000
python -m pytest tests/test_online_hostile.py -k fuzzed -s``, which prints what it sent and
the answers' codes. ``PYBRIDGE_HOSTILE_SEED`` (27) fixes
every choice the fuzzer makes; the ids and tokens it learns are the server's, drawn at random.
The timeouts only guard against a hang.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import re
import shutil
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

    def __init__(self, folder: Path, *options: str, port: int = 0) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        self.errors = folder / "server.err"
        code = "import sys; from pybridge.cli import main; sys.exit(main())"
        command = [sys.executable, "-c", code, "serve", "--ws", "--port", str(port), *options]
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
def serving(folder: Path, *options: str, port: int = 0) -> Iterator[Served]:
    served = Served(folder, *options, port=port)
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


@contextlib.contextmanager
def sharing_redis(folder: Path, processes: int) -> Iterator[list[Served]]:
    """``processes`` server processes on one port, their matches in a Redis of their own."""
    if shutil.which("redis-server") is None and not os.environ.get("CI"):
        pytest.skip("no redis-server here (CI installs it)")
    from .test_online_redis import free_port, redis_server

    port = free_port()
    with contextlib.ExitStack() as stack:
        url = stack.enter_context(redis_server(folder / "redis"))
        options = ("--redis", url, "--lease", "1")
        yield [
            stack.enter_context(serving(folder / f"process{n}", *options, port=port))
            for n in range(processes)
        ]


def test_a_match_name_redis_cannot_hold_is_an_unknown_match(tmp_path: Path) -> None:
    """Found by fuzzing processes that share Redis: a join naming a match with a lone
    surrogate was asked of Redis, which cannot encode it: the connection failed (1011) and
    the process logged a traceback."""
    with sharing_redis(tmp_path, 1) as (served,):

        async def scenario() -> None:
            connection = await opened(served.url)
            for kind in ("join", "spectate"):
                await connection.send('{"type": "KIND", "match": "m\\ud800"}'.replace("KIND", kind))
                reply = strict(await connection.recv())
                assert reply["error"]["code"] == "unknown_match", reply
            await connection.close()

        asyncio.run(scenario())


# -- the fuzzer ---------------------------------------------------------------------------------
class Probe:
    """A hostile connection: what it sent, every byte it received, its answers."""

    def __init__(self, connection: ClientConnection) -> None:
        self.connection = connection
        self.taken = 0  # messages the server reads (text frames within the bound, binary ones)
        self.spoken: list[bytes] = []
        self.heard: list[bytes] = []
        self.replies: list[dict[str, Any]] = []
        self.cut: int | None = None  # the close code a frame it sent calls for
        self.reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        with contextlib.suppress(ConnectionClosed):
            async for frame in self.connection:
                data = frame.encode() if isinstance(frame, str) else frame
                self.heard.append(data)
                message = strict(data)
                if message.get("type") != "update":
                    self.replies.append(message)

    @property
    def seat(self) -> tuple[str, str] | None:
        joined = next((r for r in self.replies if r.get("type") == "joined"), None)
        return None if joined is None else (joined["match"], joined["seat"])

    async def put(self, frame: str | bytes, text: bool = True) -> None:
        if self.cut is not None or self.connection.close_code is not None:
            return
        data = frame.encode("utf-8", "surrogatepass") if isinstance(frame, str) else frame
        self.spoken.append(data)
        try:
            await self.connection.send(data, text=text)
        except ConnectionClosed:
            return
        if len(data) > MAX_MESSAGE:
            self.cut = 1009
        elif text and not valid_utf8(data):
            self.cut = 1007
        else:
            self.taken += 1

    async def settled(self) -> None:
        """Wait until every message it sent is answered, or it is closed."""
        async with asyncio.timeout(GUARD):
            while self.connection.close_code is None and len(self.replies) < self.taken:
                if self.cut is not None:
                    await self.connection.wait_closed()
                    break
                await asyncio.sleep(0.01)
        if self.connection.close_code is None:
            assert len(self.replies) == self.taken, "more answers than messages"
            return
        await self.reader
        code = self.connection.close_code
        assert code in CLOSES and (self.cut is None or code == self.cut), (code, self.cut)


def valid_utf8(data: bytes) -> bool:
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


OPS = ["view", "state", "cut", "targets", "preview", "pick", "play", "activate", "respond"]
OPS += ["pass", "end_turn", "resolve", "open", "close", "schema", "sandbox", "lint", ""]


class Fuzzer:
    """Seeded messages: real ones mutated (fields dropped, wrong types, huge and odd numbers,
    deep nesting, long strings, unknown ops, other matches' names, forged tokens and card
    ids, replays), and odd frames (binary, invalid UTF-8, empty, over the bound, bursts)."""

    def __init__(self, rng: random.Random, honest: Duel) -> None:
        self.rng = rng
        self.honest = honest
        self.sent: list[str] = []
        self.tokens: list[str] = []  # of the fuzzer's own matches: fair to try anywhere
        self.cards: list[str] = [f"{side}{n}" for side in "av" for n in range(1, 13)]
        self.matches: list[str] = [honest.name, "m0", "m999999", "", "M1", "m1 "]

    def pick(self, items: list[Any]) -> Any:
        """One of ``items`` for one draw of the generator, however many there are: the
        seed fixes every choice even though what the server tells (ids, tokens) varies."""
        return items[int(self.rng.random() * len(items))]

    def learn(self, probe: Probe) -> None:
        for reply in probe.replies[-4:]:
            if reply.get("type") == "joined":
                self.matches.append(reply["match"])
                if "token" in reply:
                    self.tokens.append(reply["token"])
            self.cards += [a.decode() for a in ALIAS.findall(json.dumps(reply).encode())][:8]
        self.cards = self.cards[-200:]

    def odd(self) -> Any:
        rng = self.rng
        choices: list[Any] = [None, True, False, 0, -1, 2**31, 2**63, -(2**64), 1.5, -0.0]
        choices += [1e308, "", "x" * rng.choice([1, 100, 5000, 30_000]), [], {}, [None] * 50]
        choices += ["\u202e\u0000\ud800", "m1", "spectator", "player", "enemy", {"op": "view"}]
        choices += [self.pick(self.cards), self.forged_token(), self.nested(rng.randint(2, 60))]
        choices += [f"k{rng.getrandbits(64):016x}"]  # a card id of the form views give
        return rng.choice(choices)

    def nested(self, depth: int) -> Any:
        value: Any = 1
        for _ in range(depth):
            value = [value] if self.rng.random() < 0.5 else {"a": value}
        return value

    def forged_token(self) -> str:
        rng = self.rng
        if rng.random() < 0.6 and self.tokens:
            token = str(self.pick(self.tokens))
            if rng.random() < 0.3:  # as it was: another match's seat, or its own (a resume)
                return token
            if rng.random() < 0.5:  # one character off, cut short, or padded
                at = rng.randrange(len(token))
                return token[:at] + rng.choice("A_-0") + token[at + 1 :]
            return rng.choice([token[:-1], token + "=", " " + token, token.upper()])
        return rng.choice(["", "x", "null", "a" * 32, f"{rng.getrandbits(192):048x}"])

    def base(self) -> dict[str, Any]:
        rng = self.rng
        kind = rng.choice(["create", "join", "join", "spectate", "request", "request", "request"])
        message: dict[str, Any] = {"type": kind, "id": rng.randint(0, 9999)}
        if kind in ("join", "spectate"):
            message["match"] = self.pick(self.matches)
            if kind == "join" and rng.random() < 0.6:
                message["token"] = self.forged_token()
        if kind == "request":
            op = rng.choice(OPS)
            request: dict[str, Any] = {"op": op, "id": rng.randint(0, 99)}
            if op in ("targets", "preview", "pick", "play", "respond") or rng.random() < 0.2:
                request["card"] = self.pick(self.cards)
            if rng.random() < 0.4:
                request["target"] = rng.choice(["aya", "kit", "vex", "rook", "nobody"])
            if rng.random() < 0.1:
                request["choices"] = {"pick": [self.pick(self.cards)]}
            if rng.random() < 0.1:
                request["unit"], request["move"] = rng.choice(["vex", "rook", "aya"]), "m"
            message["request"] = request
        return message

    def mutate(self, message: dict[str, Any]) -> Any:
        rng = self.rng
        for _ in range(rng.randint(0, 3)):
            inner = message.get("request") if isinstance(message.get("request"), dict) else None
            target = inner if inner is not None and rng.random() < 0.6 else message
            keys = list(target)
            way = rng.random()
            if way < 0.25 and keys:
                del target[rng.choice(keys)]
            elif way < 0.6 and keys:
                target[rng.choice(keys)] = self.odd()
            elif way < 0.75:
                target[rng.choice(["viewer", "viewers", "session", "side", "zz", "token"])] = (
                    self.odd()
                )
            elif way < 0.85:
                target["type" if target is message else "op"] = rng.choice(
                    ["hello", "CREATE", "answer", "update", "joined", "error", "x" * 300]
                )
            elif way < 0.9:
                return rng.choice([[message], "text", 7, None, [[[message]]]])
        return message

    def frame(self) -> tuple[str | bytes, bool]:
        """One frame: its data and whether it goes as text."""
        rng = self.rng
        if rng.random() < 0.08 and self.sent:  # a replay, as it was
            return self.pick(self.sent), True
        text = json.dumps(self.mutate(self.base()))
        way = rng.random()
        if way < 0.04:
            text = text.replace("0", "1" + "0" * rng.choice([400, 5000]), 1)  # a huge integer
        elif way < 0.08:
            text = text.replace("1", rng.choice(["NaN", "Infinity", "-Infinity", "1e999"]), 1)
        elif way < 0.11:
            text = "[" * 3000 + text + "]" * 3000
        elif way < 0.14:
            text = text[: int(rng.random() * (len(text) + 1))]  # cut short
        elif way < 0.16:
            text = ""
        elif way < 0.19:
            return text.encode(), False  # binary
        elif way < 0.205:
            return text.encode()[:-1] + b"\xc3(", True  # invalid UTF-8 in a text frame
        elif way < 0.215:
            text = json.dumps({"type": "create", "pad": "x" * (MAX_MESSAGE + 10)})
        self.sent.append(text)
        self.sent = self.sent[-100:]
        return text, True


def leaks(probe: Probe, secrets: set[bytes]) -> list[bytes]:
    """The secrets among what ``probe`` received that it did not send itself."""
    heard, spoken = b"\n".join(probe.heard), b"\n".join(probe.spoken)
    return sorted(s for s in secrets if s in heard and s not in spoken)


def shown_hands(probe: Probe) -> list[str]:
    """Hand faces of another side than the probe's own, in any view it was given."""
    found: list[str] = []

    def walk(value: Any) -> None:
        if isinstance(value, dict):
            viewer = value.get("view", {}).get("viewer") if "sides" in value else None
            if viewer is not None:
                assert probe.seat is not None and viewer == probe.seat[1], (viewer, probe.seat)
                for side in value["sides"]:
                    for card in side.get("piles", {}).get("hand", []):
                        if side["team"] != viewer and set(card) != {"id"}:
                            found.append(f"{viewer} saw {side['team']}'s {card}")
            for item in value.values():
                walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)

    for text in probe.heard:
        walk(strict(text))
    return found


async def fuzz(url: str, count: int, seed: int) -> tuple[Counter[str], list[Probe], int]:
    """Send ``count`` fuzzed messages while honest duels play in another match; check every
    property; returns the answers' codes, the probes used and the honest moves made."""
    rng = random.Random(seed)
    honest = [await duel(url)]
    fuzzer = Fuzzer(rng, honest[0])
    done = asyncio.Event()

    secrets: set[bytes] = set()

    async def play() -> int:  # one duel after another, until the fuzzer is done
        moves = 0
        while True:
            moves += await play_out(dict(honest[-1].seats), [])
            secrets.update(honest[-1].secrets())
            await honest[-1].close()
            if done.is_set():
                return moves
            honest.append(await duel(url))

    playing = asyncio.create_task(play())
    probes = [Probe(await opened(url)) for _ in range(4)]
    everyone = list(probes)
    sent = 0
    async with asyncio.timeout(GUARD * 4):
        while sent < count:
            slot = rng.randrange(len(probes))
            probe = probes[slot]
            burst = rng.choice([1, 1, 1, 2, 5, 20])
            for _ in range(min(burst, count - sent)):
                data, text = fuzzer.frame()
                await probe.put(data, text)
                sent += 1
            if burst == 1 and rng.random() < 0.5:
                await probe.settled()
                fuzzer.learn(probe)
            if probe.cut is not None or probe.connection.close_code is not None:
                await probe.settled()
                probes[slot] = Probe(await opened(url))
                everyone.append(probes[slot])
        for probe in everyone:
            await probe.settled()
        done.set()
        moves = await playing
    assert all(p.connection.close_code is None or p.cut or p.connection.close_code == 4001
               for p in everyone), [p.connection.close_code for p in everyone]  # fmt: skip
    codes: Counter[str] = Counter()
    for probe in everyone:
        assert not leaks(probe, secrets), leaks(probe, secrets)
        assert not shown_hands(probe), shown_hands(probe)
        for reply in probe.replies:
            kind = reply.get("type")
            assert kind in ("joined", "answer", "error"), reply
            if kind == "error":
                assert reply["error"]["code"] in SERVER_CODES, reply
                codes[reply["error"]["code"]] += 1
            elif kind == "answer":
                response = reply["response"]
                code = "ok" if response["ok"] else response["error"]["code"]
                assert code != "internal_error", reply
                codes[f"answer:{code}"] += 1
            else:
                codes["joined"] += 1
        await probe.connection.close()
    # The fuzzer's own matches: no seat heard another's token or card ids.
    for probe in everyone:
        if probe.seat is None:
            continue
        others = [p for p in everyone if p.seat is not None and p.seat[0] == probe.seat[0]]
        for other in others:
            if other.seat != probe.seat:
                theirs = {t.encode() for r in other.replies for t in [r.get("token")] if t}
                told = set(ALIAS.findall(b"\n".join(other.heard)))  # but not its own echoes
                theirs |= told - set(ALIAS.findall(b"\n".join(other.spoken)))
                assert not leaks(probe, theirs), (probe.seat, other.seat, leaks(probe, theirs))
    return codes, everyone, moves


def test_fuzzed_messages_are_answered_or_closed_and_tell_no_secret(server: Served) -> None:
    codes, probes, moves = asyncio.run(fuzz(server.url, MESSAGES, SEED))
    total = sum(codes.values())
    frames, taken = sum(len(p.spoken) for p in probes), sum(p.taken for p in probes)
    print(f"\n{MESSAGES} messages (seed {SEED}): {frames} frames sent over {len(probes)}")
    print(f"connections (the rest were for a connection a frame had closed), {taken} of them")
    print(f"messages the server takes, {total} answered (the rest went with a connection")
    print(f"closed with a documented code); honest moves meanwhile: {moves};")
    print(f"answers by code: {dict(codes.most_common())}")
    assert total >= MESSAGES // 2  # most messages were taken, not cut with their connection
    assert codes["joined"] and codes["bad_json"] and codes["answer:ok"]
    assert server.alive()


# -- floods while an honest duel plays -----------------------------------------------------------
async def flood(url: str, seed: int) -> None:
    """A client of its own match asking as fast as it can, reading its answers meanwhile."""
    rng = random.Random(seed)
    probe = Probe(await opened(url))
    await probe.put(json.dumps({"type": "create"}))
    await probe.settled()
    while True:
        for _ in range(50):
            op = rng.choice(["view", "targets", "preview", "cut", "state", "end_turn"])
            await probe.put(json.dumps({"type": "request", "request": {"op": op, "card": "k0"}}))
        await probe.settled()  # then again: 50 at a time in flight, for ever


async def oversize(url: str) -> None:
    """A frame over the bound, on one new connection after another."""
    while True:
        connection = await opened(url)
        await connection.send(json.dumps({"type": "create", "pad": "x" * (MAX_MESSAGE + 1)}))
        assert await closed_code(connection) == 1009


async def slow_handshakes(port: int, count: int) -> list[socket.socket]:
    """Sockets that start a handshake and never finish it, or say nothing at all."""
    loop = asyncio.get_running_loop()
    held = []
    for n in range(count):
        raw = socket.socket()
        raw.bind((LURKER, 0))
        raw.setblocking(False)
        await loop.sock_connect(raw, ("127.0.0.1", port))
        if n % 2:
            await loop.sock_sendall(raw, b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: web")
        held.append(raw)
    return held


def test_an_honest_duel_plays_to_its_end_while_hostile_clients_flood(tmp_path: Path) -> None:
    """Floods of requests, frames over the bound, handshakes never finished, spectators that
    stop reading and idle sockets up to the bound of their address, all at once: the duel in
    another match still plays to its end, each of its moves answered and heard by both."""
    bound = 12
    options = ("--max-per-address", str(bound), "--max-backlog", "65536")
    with serving(tmp_path, *options) as served:

        async def scenario() -> int:
            honest = await duel(served.url)
            dropped: list[int | None] = []
            hostile = [asyncio.create_task(flood(served.url, n)) for n in range(3)]
            hostile.append(asyncio.create_task(oversize(served.url)))
            hostile.append(asyncio.create_task(lurk(served.url, honest.name, dropped)))
            half = await slow_handshakes(served.port, bound - 1)  # the lurker has the last
            idle = [await opened(served.url, HOARDER) for _ in range(bound)]
            with pytest.raises((InvalidHandshake, OSError)):
                await opened(served.url, HOARDER)
            try:
                async with asyncio.timeout(GUARD):
                    last = await play_out(dict(honest.seats), [])
                for task in hostile:  # each still at it: none failed or was stopped
                    assert not task.done(), task.exception()
                # Each move was answered (play_out checks it) and heard by both seats, in order.
                for seat in honest.seats.values():
                    assert [u["step"] for u in seat.updates] == list(range(1, last + 1))
            finally:
                for task in hostile:
                    task.cancel()
                await asyncio.gather(*hostile, return_exceptions=True)
                for raw in half:
                    raw.close()
                for connection in idle:
                    await connection.close()
            await honest.close()
            return last

        assert asyncio.run(scenario()) > 0


def test_fuzzed_messages_against_two_processes_sharing_redis(tmp_path: Path) -> None:
    """The same fuzzer against two processes on one port sharing their matches in Redis:
    a connection lands on either, and a join for the other's match is relayed to it."""
    with sharing_redis(tmp_path, 2) as processes:
        codes, probes, moves = asyncio.run(fuzz(processes[0].url, MESSAGES // 2, SEED + 1))
        for served in processes:
            assert served.alive()
    print(f"\nwith Redis: {len(probes)} connections, {moves} honest moves, {dict(codes)}")
    assert codes["joined"] and codes["bad_json"] and codes["answer:ok"]
