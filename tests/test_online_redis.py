"""Online matches over several server processes sharing one port and a real Redis (issue #27,
item 5): the process holding a duel is killed mid-match, its seats reconnect with their
tokens, the other process takes the duel on from Redis, and no move is lost."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import queue
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

import pytest
from websockets.asyncio.client import connect

from pybridge.cli import main

from .test_online import WAIT, Client, take_turn

redis = pytest.importorskip("redis")

if shutil.which("redis-server") is None:  # CI installs it (./run test): there it never skips
    pytestmark = pytest.mark.skipif(not os.environ.get("CI"), reason="no redis-server here")

LEASE = 1.0  # seconds: how long the survivor waits for the killed process's lease
KEY = "pybridge:online"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def lines_of(stream: IO[str]) -> queue.Queue[str]:
    """The stream's lines as they come, read in a thread (a pipe read has no timeout)."""
    lines: queue.Queue[str] = queue.Queue()

    def read() -> None:
        for line in stream:
            lines.put(line)
        lines.put("")

    threading.Thread(target=read, daemon=True).start()
    return lines


def stop(process: subprocess.Popen[str]) -> None:
    """Stop a process this test started, by its pid."""
    if process.poll() is None:
        os.kill(process.pid, signal.SIGTERM)
        try:
            process.wait(WAIT)
        except subprocess.TimeoutExpired:
            os.kill(process.pid, signal.SIGKILL)
            process.wait(WAIT)


@contextlib.contextmanager
def redis_server(folder: Path) -> Iterator[str]:
    """A Redis of this test's own, on a free loopback port, keeping nothing on disk."""
    folder.mkdir()
    port = free_port()
    command = ["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--dir", str(folder)]
    command += ["--save", "", "--appendonly", "no"]
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, text=True)
    url = f"redis://127.0.0.1:{port}/0"
    try:
        client = redis.Redis.from_url(url)
        deadline = time.monotonic() + WAIT
        while True:
            try:
                client.ping()
                break
            except redis.ConnectionError:
                assert process.poll() is None and time.monotonic() < deadline, "no redis"
                time.sleep(0.02)
        client.close()
        yield url
    finally:
        stop(process)


@contextlib.contextmanager
def server_process(url: str, port: int, logs: Path) -> Iterator[tuple[subprocess.Popen[str], str]]:
    """``pybridge serve --ws --redis`` on the shared port: the process and its store id."""
    code = "import sys; from pybridge.cli import main; sys.exit(main(sys.argv[1:]))"
    command = [sys.executable, "-c", code, "serve", "--ws", "--port", str(port)]
    command += ["--redis", url, "--lease", str(LEASE), "--logs", str(logs)]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, text=True)
    try:
        assert process.stdout is not None
        lines = lines_of(process.stdout)
        said = [lines.get(timeout=WAIT) for _ in range(2)]
        assert said[0].startswith(f"pybridge online: ws://127.0.0.1:{port}"), said
        yield process, said[1].split()[3].rstrip(",")
    finally:
        stop(process)


async def seat(url: str, message: dict[str, Any]) -> tuple[Client, dict[str, Any]]:
    client = Client(await connect(url))
    joined = await client.send(**message)
    assert joined["type"] == "joined", joined
    return client, joined


async def moves(seats: dict[str, Client], count: int, step: int) -> list[tuple[int, str]]:
    """Up to ``count`` moves (all of them when ``count`` is 0): each accepted step and who
    made it, as the clients heard it."""
    made: list[tuple[int, str]] = []
    while count == 0 or len(made) < count:
        step = await take_turn(seats, step)
        updates = [await c.until_step(step) for c in seats.values()]
        made.append((step, updates[0]["by"]))
        if updates[0]["result"] is not None:
            break
    return made


def test_a_killed_process_s_duel_resumes_on_the_other_and_loses_no_move(tmp_path: Path) -> None:
    port = free_port()
    logs = tmp_path / "logs"
    with (
        redis_server(tmp_path / "redis") as redis_url,
        server_process(redis_url, port, logs) as first,
        server_process(redis_url, port, logs) as second,
    ):
        store = redis.Redis.from_url(redis_url, decode_responses=True)
        url = f"ws://127.0.0.1:{port}"

        async def scenario() -> tuple[str, list[tuple[int, str]]]:
            aya, created = await seat(url, {"type": "create"})
            vex, joined = await seat(url, {"type": "join", "match": created["match"]})
            match = created["match"]
            seats = {"player": aya, "enemy": vex}
            made = await moves(seats, 6, 0)
            holder = store.get(f"{KEY}:lease:{match}")
            killed, survivor = (first, second) if holder == first[1] else (second, first)
            assert holder == killed[1] and survivor[1] != holder
            os.kill(killed[0].pid, signal.SIGKILL)
            killed[0].wait(WAIT)
            for client in seats.values():  # direct or relayed, each connection ends
                await asyncio.wait_for(client.connection.wait_closed(), WAIT)
            # Both seats come back with their tokens on the same address: the survivor
            # takes the duel on once the dead process's lease runs out.
            tokens = {"player": created["token"], "enemy": joined["token"]}
            for name, token in tokens.items():
                seats[name], again = await seat(
                    url, {"type": "join", "match": match, "token": token}
                )
                assert again["seat"] == name and again["step"] == made[-1][0]
                assert "token" not in again
            assert store.get(f"{KEY}:lease:{match}") == survivor[1]
            made += await moves(seats, 0, made[-1][0])
            for client in seats.values():
                await client.connection.close()
            return match, made

        match, made = asyncio.run(scenario())
        assert made[-1][0] > 6 and [s for s, _ in made] == list(range(1, len(made) + 1))
        kept = [json.loads(s) for s in store.lrange(f"{KEY}:steps:{match}", 0, -1)]
        assert [(s["step"], s["seat"]) for s in kept] == made  # every move, in order
        log_file = logs / f"{match}.json"
        log = json.loads(log_file.read_text("utf-8"))
        assert log["steps"] == kept
        snapshot = json.loads(store.hget(f"{KEY}:match:{match}", "snapshot"))
        assert snapshot["result"] is not None
        store.close()
    assert main(["replay", str(log_file)]) == 0


def test_a_seat_asking_a_process_that_does_not_hold_its_match_is_relayed(
    tmp_path: Path,
) -> None:
    from pybridge.examples import rivals_battle
    from pybridge.online.server import Host, bound_port, start, stop
    from pybridge.online.store import Store

    async def scenario(redis_url: str) -> None:
        hosts = [Host(rivals_battle(), store=Store(redis_url, LEASE)) for _ in range(2)]
        servers = [await start(host) for host in hosts]
        urls = [f"ws://127.0.0.1:{bound_port(server)}" for server in servers]
        try:
            aya, created = await seat(urls[0], {"type": "create"})
            vex, joined = await seat(urls[1], {"type": "join", "match": created["match"]})
            assert joined["seat"] == "enemy" and joined["view"]["view"]["viewer"] == "enemy"
            # The second process holds nothing: the first answers through it.
            assert created["match"] in hosts[0].rooms and not hosts[1].rooms
            made = await moves({"player": aya, "enemy": vex}, 2, 0)
            assert [s for s, _ in made] == [1, 2]
            await aya.connection.close()
            await vex.connection.close()
        finally:
            for server in servers:
                await stop(server)
            for host in hosts:
                assert host.store is not None
                await host.store.close()

    with redis_server(tmp_path / "redis") as redis_url:
        asyncio.run(scenario(redis_url))


def test_the_online_bench_plays_its_duels_out_and_reports_each_figure(tmp_path: Path) -> None:
    output = tmp_path / "online.json"
    assert main(["bench", "--online", "2", "--output", str(output)]) == 0
    online = json.loads(output.read_text("utf-8"))["online"]
    assert online["store"] == "redis" and online["matches"] == 2 and online["ended"] == 2
    assert online["moves"] >= 2 * 7  # a duel is more than a few turns
    assert 0 < online["move_p50_ms"] <= online["move_p99_ms"] <= online["move_max_ms"]
    assert online["server_cpu_seconds"] > 0 and online["matches_per_server_cpu_second"] > 0
    assert online["bytes_per_match_played"] > 0  # each match's log and snapshots stay held
    assert next(t["name"] for t in online["targets"]).startswith("p99 per move under 50 ms")


def test_a_process_that_lost_its_lease_writes_nothing_and_sends_its_seats_away(
    tmp_path: Path,
) -> None:
    from pybridge.examples import rivals_battle
    from pybridge.online.server import MOVED, Host, bound_port, start, stop
    from pybridge.online.store import Store

    async def scenario(redis_url: str) -> None:
        host = Host(rivals_battle(), store=Store(redis_url, 30.0))
        server = await start(host)
        url = f"ws://127.0.0.1:{bound_port(server)}"
        store = redis.Redis.from_url(redis_url, decode_responses=True)
        try:
            aya, created = await seat(url, {"type": "create"})
            vex, _ = await seat(url, {"type": "join", "match": created["match"]})
            seats = {"player": aya, "enemy": vex}
            await moves(seats, 1, 0)
            match = created["match"]
            # Another process took the match on (this one was paused past its lease, say).
            store.set(f"{KEY}:lease:{match}", "another-process")
            cut = (await aya.ask(op="cut"))["result"]
            refused = await seats[cut["side"]].send(
                type="request", request={"op": "pass" if cut["cut"] else "end_turn"}
            )
            assert refused["type"] == "error" and refused["error"]["code"] == "match_moved"
            for client in seats.values():
                await asyncio.wait_for(client.connection.wait_closed(), WAIT)
                assert client.connection.close_code == MOVED
            assert match not in host.rooms
            assert store.llen(f"{KEY}:steps:{match}") == 1  # the refused step is not written
        finally:
            store.close()
            await stop(server)
            assert host.store is not None
            await host.store.close()

    with redis_server(tmp_path / "redis") as redis_url:
        asyncio.run(scenario(redis_url))
