"""``pybridge bench --online N``: N scripted duels at once against one real server process
(``pybridge serve --ws``, with its matches in a Redis of its own when ``redis-server`` is
installed) on the loopback.

Each duel's seats think before every move for a random time around ``pace`` seconds (0: flat
out), as players do: the latency targets are about many matches at a human pace, the
throughput (duels per CPU second) holds at any pace. Reported: each move's round trip (an
intent sent to its answer, which the server sends after every viewer's update), p50 and
p99; duels finished per second of the server's CPU time (its process is one event loop: one
core); and what each match holds, as the server's RSS grown per match. The clients run in
this process and share the machine with the server: their own CPU time is reported next to
it.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import resource
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from .stats import percentile

#: What the issue asks of one server core.
TARGETS = {"matches_per_core": 500, "p99_ms": 50.0, "bytes_per_match": 1024 * 1024}
MOST_MOVES = 400  # a duel that has not ended by then is stopped (and counted as not ended)
OPENING = 32  # matches being created at once (connections opened at a time)
WAIT = 60.0


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _raise_open_files(wanted: int) -> None:
    """Two connections a match, in this process and in the server it starts."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != resource.RLIM_INFINITY and soft < wanted:
        top = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
        resource.setrlimit(resource.RLIMIT_NOFILE, (top, hard))


def _stop(process: subprocess.Popen[Any]) -> None:
    if process.poll() is None:
        os.kill(process.pid, signal.SIGTERM)
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            os.kill(process.pid, signal.SIGKILL)
            process.wait(10)


@contextlib.contextmanager
def _redis(folder: Path) -> Iterator[str | None]:
    """A Redis of the bench's own (nothing kept on disk), or None without redis-server."""
    if shutil.which("redis-server") is None:
        yield None
        return
    from redis import ConnectionError as NoRedis
    from redis import Redis

    port = _free_port()
    command = ["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--dir", str(folder)]
    process = subprocess.Popen(
        [*command, "--save", "", "--appendonly", "no"], stdout=subprocess.DEVNULL
    )
    url = f"redis://127.0.0.1:{port}/0"
    try:
        client = Redis.from_url(url)
        deadline = time.monotonic() + WAIT
        while True:
            try:
                client.ping()
                break
            except NoRedis:
                if process.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError("redis-server did not start") from None
                time.sleep(0.02)
        client.close()
        yield url
    finally:
        _stop(process)


@contextlib.contextmanager
def _server(matches: int, redis_url: str | None) -> Iterator[tuple[int, int]]:
    """A ``pybridge serve --ws`` process: its pid and port."""
    port = _free_port()
    code = "import sys; from pybridge.cli import main; sys.exit(main(sys.argv[1:]))"
    command = [sys.executable, "-c", code, "serve", "--ws", "--port", str(port)]
    command += ["--max-matches", str(matches + 1), "--idle", "3600"]
    # Every client of the bench is on the loopback: one address for all of them.
    command += ["--max-per-address", "0", "--matches-per-address", "0"]
    if redis_url is not None:
        command += ["--redis", redis_url, "--lease", "30"]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, text=True)
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        if not line.startswith("pybridge online:"):
            raise RuntimeError(f"the server did not start: {line!r}")
        yield process.pid, port
    finally:
        _stop(process)


def _rss(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    raise RuntimeError("no VmRSS")


def _cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class _Seat:
    """One connection: a reader task hands each answer to the request waiting for it."""

    def __init__(self, connection: Any) -> None:
        self.connection = connection
        self.waiting: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self.result: Any = None
        self.view: dict[str, Any] = {}  # the last state this seat was sent (a view)
        self.step = 0  # and its step
        self._ids = 0
        self._reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        try:
            async for text in self.connection:
                message = json.loads(text)
                if message.get("type") == "update":
                    self.result, self.view = message.get("result"), message["state"]
                    self.step = message["step"]
                    continue
                future = self.waiting.pop(message.get("id"), None)
                if future is not None and not future.done():
                    future.set_result(message)
        except Exception as exc:  # the connection ended: whoever waits hears why
            ended = exc
        else:
            ended = RuntimeError(
                f"the server closed the connection: {self.connection.close_reason}"
            )
        for future in self.waiting.values():
            if not future.done():
                future.set_exception(ended)

    async def send(self, **message: Any) -> dict[str, Any]:
        self._ids += 1
        message["id"] = self._ids
        future = self.waiting[self._ids] = asyncio.get_running_loop().create_future()
        await self.connection.send(json.dumps(message))
        return await asyncio.wait_for(future, WAIT)

    async def ask(self, **request: Any) -> dict[str, Any]:
        answer = await self.send(type="request", request=request)
        if answer.get("type") != "answer":
            raise RuntimeError(f"the server refused {request}: {answer}")
        return answer["response"]  # type: ignore[no-any-return]

    async def close(self) -> None:
        await self.connection.close()
        self._reader.cancel()


async def _seated(url: str) -> dict[str, _Seat]:
    from websockets.asyncio.client import connect

    player = _Seat(await connect(url, max_size=None))
    created = await player.send(type="create")
    if created.get("type") != "joined":
        raise RuntimeError(f"create refused: {created}")
    player.view = created["view"]
    enemy = _Seat(await connect(url, max_size=None))
    joined = await enemy.send(type="join", match=created["match"])
    if joined.get("type") != "joined":
        raise RuntimeError(f"join refused: {joined}")
    enemy.view = joined["view"]
    return {"player": player, "enemy": enemy}


async def _move(seats: dict[str, _Seat], moves: list[float], step: int) -> int:
    """One move of the scripted duel: whoever acts plays a strike or barrage it may play,
    else passes or ends its turn (the questions a client's aiming arrow would ask first; its
    hand read from the state its last update carried, as a client does)."""
    while any(seat.step < step for seat in seats.values()):  # each seat's update of ``step``
        await asyncio.sleep(0.001)
    cut = (await seats["player"].ask(op="cut"))["result"]
    me = seats[cut["side"]]
    request: dict[str, Any] = {"op": "pass" if cut["cut"] else "end_turn"}
    if not cut["cut"]:
        view = me.view
        side = next(s for s in view["sides"] if s["team"] == cut["side"])
        for card in side["piles"]["hand"]:
            if card.get("card") not in ("strike", "barrage"):
                continue
            aim = (await me.ask(op="targets", card=card["id"]))["result"]
            if aim["playable"]:
                target = aim["candidates"][0] if aim["candidates"] else None
                request = {"op": "play", "card": card["id"], "target": target}
                break
    sent = time.perf_counter()
    done = await me.ask(**request)
    moves.append(time.perf_counter() - sent)
    if not done["ok"]:
        raise RuntimeError(f"a scripted move was refused: {done}")
    return int(done["result"]["step"])


async def _duel(
    seats: dict[str, _Seat], moves: list[float], pace: float = 0.0, seed: int = 0
) -> bool:
    think, step = random.Random(seed), 0
    for _ in range(MOST_MOVES):
        if pace > 0:
            await asyncio.sleep(think.uniform(0, 2 * pace))
        step = await _move(seats, moves, step)
        while seats["player"].step < step:
            await asyncio.sleep(0.001)
        if seats["player"].result is not None:
            return True
    return False


async def _load(url: str, matches: int, pid: int, pace: float) -> dict[str, Any]:
    warm = await _seated(url)  # the server's imports and first match, outside the count
    await _duel(warm, [])
    rss_before = _rss(pid)
    opening = asyncio.Semaphore(OPENING)

    async def opened() -> dict[str, _Seat]:
        async with opening:
            return await _seated(url)

    duels = await asyncio.gather(*(opened() for _ in range(matches)))
    rss_seated = _rss(pid)
    moves: list[float] = []
    cpu_before, client_before = _cpu_seconds(pid), time.process_time()
    started = time.perf_counter()
    ended = await asyncio.gather(*(_duel(s, moves, pace, n) for n, s in enumerate(duels)))
    wall = time.perf_counter() - started
    server_cpu = _cpu_seconds(pid) - cpu_before
    client_cpu = time.process_time() - client_before
    rss_played = _rss(pid)
    for seats in [warm, *duels]:
        for seat in seats.values():
            await seat.close()
    ordered = sorted(moves)
    return {
        "matches": matches,
        "pace_seconds": pace,
        "ended": sum(ended),
        "moves": len(moves),
        "move_p50_ms": percentile(ordered, 0.50) * 1000,
        "move_p99_ms": percentile(ordered, 0.99) * 1000,
        "move_max_ms": ordered[-1] * 1000,
        "wall_seconds": wall,
        "server_cpu_seconds": server_cpu,
        "client_cpu_seconds": client_cpu,
        "matches_per_server_cpu_second": sum(ended) / server_cpu if server_cpu else 0.0,
        "matches_per_wall_second": sum(ended) / wall,
        "bytes_per_match_seated": (rss_seated - rss_before) / matches,
        "bytes_per_match_played": (rss_played - rss_before) / matches,
    }


def _load_average() -> list[float]:
    return [round(x, 2) for x in os.getloadavg()]


def run_online(matches: int, pace: float = 0.0) -> dict[str, Any]:
    """The online section: ``matches`` duels at once, played to their end."""
    _raise_open_files(4 * matches + 256)
    load_before = _load_average()
    with (
        tempfile.TemporaryDirectory(prefix="pybridge-bench-online-") as tmp,
        _redis(Path(tmp)) as redis_url,
        _server(matches, redis_url) as (pid, port),
    ):
        result = asyncio.run(_load(f"ws://127.0.0.1:{port}", matches, pid, pace))
    result["load_average"] = {"before": load_before, "after": _load_average()}
    result["cpus"] = len(os.sched_getaffinity(0))
    result["store"] = "redis" if redis_url is not None else "memory (no redis-server)"
    result["targets"] = [
        {
            "name": f"p99 per move under {TARGETS['p99_ms']:g} ms at {matches} matches at once",
            "met": result["move_p99_ms"] < TARGETS["p99_ms"],
        },
        {
            "name": f"at least {TARGETS['matches_per_core']} matches at once on one core",
            "met": matches >= TARGETS["matches_per_core"]
            and result["move_p99_ms"] < TARGETS["p99_ms"],
        },
        {
            "name": "under 1 MB per match (played to its end)",
            "met": result["bytes_per_match_played"] < TARGETS["bytes_per_match"],
        },
    ]
    return result


def render_online(result: dict[str, Any]) -> str:
    mib = 1024 * 1024
    lines = [
        f"### Online: {result['matches']} duels at once on one server process "
        f"(store: {result['store']}), a move every {result['pace_seconds']:g} s or so "
        f"per duel",
        "",
        "| measure | value |",
        "|---|---:|",
        f"| duels ended | {result['ended']} of {result['matches']} |",
        f"| moves | {result['moves']:,} |",
        f"| move p50 | {result['move_p50_ms']:.1f} ms |",
        f"| move p99 | {result['move_p99_ms']:.1f} ms |",
        f"| move max | {result['move_max_ms']:.1f} ms |",
        f"| duels per second of server CPU (one core) | "
        f"{result['matches_per_server_cpu_second']:.1f} |",
        f"| duels per second of wall time | {result['matches_per_wall_second']:.1f} |",
        f"| server CPU / client CPU / wall | {result['server_cpu_seconds']:.1f} s / "
        f"{result['client_cpu_seconds']:.1f} s / {result['wall_seconds']:.1f} s |",
        f"| memory per match, seated | {result['bytes_per_match_seated'] / mib:.3f} MiB |",
        f"| memory per match, played out | {result['bytes_per_match_played'] / mib:.3f} MiB |",
        f"| load average before / after ({result['cpus']} CPUs) | "
        f"{result['load_average']['before'][0]} / {result['load_average']['after'][0]} |",
        "",
    ]
    lines += [f"- {t['name']}: {'yes' if t['met'] else '**no**'}" for t in result["targets"]]
    return "\n".join(lines) + "\n"
