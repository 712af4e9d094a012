"""Bridge round trips for ``targets`` and ``preview`` on the 3-vs-3 demo battle, path by path.

Every path answers the same two questions about the same battle (Strike from the knight,
aimed at the orc) and is timed one call at a time:

* ``direct``: :func:`pybridge.runtime.targets` / :func:`~pybridge.runtime.preview` (the floor);
* ``protocol``: :func:`pybridge.protocol.call` with JSON text, in this process;
* ``c_abi``: ``pybridge_call`` + ``pybridge_free`` from a C program (tests/c/bench.c), timed
  with ``clock_gettime`` inside that program;
* ``stdio``: ``pybridge serve --stdio`` in a subprocess: write a line, read the answer line.
  A pipe round trip costs very different amounts depending on where the OS runs the two
  processes (here about 15-35 us on one core, 100-400 us on two), so the bench pins them:
  ``stdio`` on two cores (as with a game whose main thread keeps its core busy) and
  ``stdio_one_core`` on one, where the machine allows it;
* ``web``: GDScript -> ``JavaScriptBridge.eval`` -> Pyodide in the Godot 4.6 web engine
  (see :mod:`pybridge.devtools.bench.browser`).

Each path sends ready-made request text and does not parse the answer, as a host would.
It asks the same question again and again, as the scene does while a card is dragged, so the
protocol answers all but the first from its kept answers (:mod:`pybridge.answers`). Every
path but the floor and the browser is timed twice: so, and with no kept answers (a
``Protocol(answer_cache=0)``, or ``PYBRIDGE_ANSWER_CACHE=0`` for the C program and the
server), which is what the first ask after each change costs.
The paths other than the browser take turns in rounds, so that a change in the machine's
load during the run reaches all of them alike.
"""

from __future__ import annotations

import json
import os
import shutil
import statistics
import subprocess
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import partial
from pathlib import Path
from typing import Any

from ... import protocol, service
from ...answers import CAPACITY_VARIABLE
from ...examples import demo_battle
from ...runtime import load_battle, preview, targets
from ...runtime.turns import start_battle
from .plan import C_BENCH_SOURCE, DEMO_CARD, DEMO_TARGET, PACKAGE_ROOT, BenchPlan
from .stats import Summary, ratio, summarize_ns, summarize_us, time_calls, with_ratios

OPS = ("targets", "preview")
DEMO_FILE = PACKAGE_ROOT / "examples" / "demo_battle.json"
#: A request that does next to nothing in Python: what a transport alone costs.
VERSION_REQUEST = '{"op":"version","id":3}'
#: Issue targets: the C ABI within 1.3x of the in-process call, and 10x faster than stdio.
C_VS_PROTOCOL_LIMIT = 1.3
STDIO_VS_C_MINIMUM = 10.0

PATHS: dict[str, str] = {
    "direct": "direct Python API (floor)",
    "protocol": "protocol.call, JSON in-process",
    "c_abi": "C ABI from a C program",
    "stdio": "stdio subprocess, server on another core",
    "stdio_one_core": "stdio subprocess, both on one core",
    "web": "GDScript -> Pyodide (web)",
}

#: The two ways a question is asked: again (kept answers) or for the first time.
ASKS: dict[str, str] = {
    "again": "Asked again, as on every frame of a drag (kept answers)",
    "first": "Asked for the first time since the battle changed (no kept answers)",
}
#: Untimed calls of each kind the C host makes before its first round.
C_WARMUP = 200
#: The environment that turns off a subprocess's kept answers.
NO_KEPT_ANSWERS = {CAPACITY_VARIABLE: "0"}

Samples = dict[str, list[int]]  # op -> nanoseconds per call
Progress = Callable[[str], None]


def requests(session: str) -> dict[str, str]:
    """The request text of each timed operation."""
    return {
        "targets": json.dumps(
            {"op": "targets", "id": 1, "session": session, "card": DEMO_CARD},
            separators=(",", ":"),
        ),
        "preview": json.dumps(
            {
                "op": "preview",
                "id": 2,
                "session": session,
                "card": DEMO_CARD,
                "target": DEMO_TARGET,
            },
            separators=(",", ":"),
        ),
    }


def open_request() -> str:
    return json.dumps({"op": "open", "id": 0, "battle": demo_battle()}, separators=(",", ":"))


def _session_of(response: str) -> str:
    answer = json.loads(response)
    if not answer.get("ok"):
        raise RuntimeError(f"open failed: {response[:300]}")
    session: str = answer["result"]["session"]
    return session


class DirectPath:
    """The floor: the runtime's own functions on a battle opened as the protocol opens it.
    (It has no ``version`` request: no transport.)"""

    def __init__(self) -> None:
        self.battle = load_battle(demo_battle())
        start_battle(self.battle)

    def round(self, calls: int) -> Samples:
        battle = self.battle
        return {
            "targets": time_calls(lambda: targets(battle, DEMO_CARD), calls),
            "preview": time_calls(lambda: preview(battle, DEMO_CARD, DEMO_TARGET), calls),
        }

    def close(self) -> None:
        pass


class ProtocolPath:
    """A protocol's ``call`` in this process, on a session of its own: the process-wide
    instance every transport shares, or (``first``) one that keeps no answers."""

    def __init__(self, first: bool = False) -> None:
        self.shared = not first
        self.call = protocol.Protocol(answer_cache=0).call if first else service.call
        self.session = _session_of(self.call(open_request()))
        self.texts = requests(self.session)
        for op, text in self.texts.items():
            if not self.call(text).startswith('{"ok":true,'):
                raise RuntimeError(f"{op} failed: {self.call(text)[:300]}")

    def round(self, calls: int) -> Samples:
        call = self.call
        # The transport alone is timed once, on the shared instance.
        texts = {**self.texts, "version": VERSION_REQUEST} if self.shared else self.texts
        return {op: time_calls(partial(call, text), calls) for op, text in texts.items()}

    def close(self) -> None:
        self.call(json.dumps({"op": "close", "id": 9, "session": self.session}))


def cpu_plan() -> tuple[int, int] | str:
    """(the CPU the bench and every process it times run on, another CPU), or why processes
    cannot be pinned here. The CPUs of a shared machine are not equally fast from moment to
    moment, so paths compared with each other must run on the same one."""
    if not hasattr(os, "sched_setaffinity"):
        return "skipped: this platform cannot pin processes to CPUs"
    cpus = sorted(os.sched_getaffinity(0))
    if len(cpus) < 2:
        return "skipped: one CPU available (the stdio path already shares it)"
    return cpus[0], cpus[1]


@contextmanager
def pinned_to(cpu: int | None) -> Iterator[None]:
    """Run this process on ``cpu`` (None: wherever it ran) for the duration."""
    if cpu is None:
        yield
        return
    own = os.sched_getaffinity(0)
    os.sched_setaffinity(0, {cpu})
    try:
        yield
    finally:
        os.sched_setaffinity(0, own)


class StdioPath:
    """``pybridge serve --stdio`` in a subprocess: one line out, one line back; the server
    is pinned to ``cpu`` when one is given."""

    def __init__(self, cpu: int | None = None, first: bool = False) -> None:
        env = {**os.environ, "PYTHONPATH": str(PACKAGE_ROOT.parent)}
        env.update(NO_KEPT_ANSWERS if first else {})
        self.server = subprocess.Popen(
            [sys.executable, "-m", "pybridge.cli", "serve", "--stdio"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            env=env,
        )
        assert self.server.stdin is not None and self.server.stdout is not None
        self.to_server, self.from_server = self.server.stdin.fileno(), self.server.stdout
        if cpu is not None:
            os.sched_setaffinity(self.server.pid, {cpu})
        session = _session_of(self.round_trip(open_request().encode() + b"\n").decode())
        texts = requests(session) if first else {**requests(session), "version": VERSION_REQUEST}
        self.lines = {op: (text + "\n").encode() for op, text in texts.items()}
        for op, line in self.lines.items():
            if not self.round_trip(line).startswith(b'{"ok":true,'):
                raise RuntimeError(f"stdio {op} failed")

    def round_trip(self, line: bytes) -> bytes:
        os.write(self.to_server, line)
        return self.from_server.readline()

    def round(self, calls: int) -> Samples:
        trip = self.round_trip
        return {op: time_calls(partial(trip, line), calls) for op, line in self.lines.items()}

    def close(self) -> None:
        assert self.server.stdin is not None and self.server.stdout is not None
        self.server.stdin.close()
        self.server.wait(timeout=30)
        self.server.stdout.close()


class CPath:
    """A C program calling ``pybridge_call`` (tests/c/bench.c in its ``rounds`` mode): one
    process, kept warm from round to round like the other paths."""

    def __init__(self, host: tuple[Path, Path], first: bool = False, cpu: int | None = None
                 ) -> None:  # fmt: skip
        library, program = host
        argv = [str(program), str(library), str(DEMO_FILE), "rounds", str(C_WARMUP), DEMO_CARD,
                DEMO_TARGET]  # fmt: skip
        env = {**os.environ, **(NO_KEPT_ANSWERS if first else {})}
        self.first = first
        self.host = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     text=True, env=env)  # fmt: skip
        if cpu is not None:
            os.sched_setaffinity(self.host.pid, {cpu})

    def round(self, calls: int) -> Samples:
        assert self.host.stdin is not None and self.host.stdout is not None
        self.host.stdin.write(f"{calls}\n")
        self.host.stdin.flush()
        line = self.host.stdout.readline()
        if not line:
            raise RuntimeError(f"bench.c stopped (status {self.host.wait()})")
        report = json.loads(line)
        if report["failures"]:
            raise RuntimeError(f"bench.c: {report['failures']} calls failed")
        return {op: report[f"{op}_ns"] for op in (*OPS, *(() if self.first else ("version",)))}

    def close(self) -> None:
        assert self.host.stdin is not None and self.host.stdout is not None
        self.host.stdin.close()
        self.host.wait(timeout=60)
        self.host.stdout.close()


def c_compiler() -> str | None:
    return shutil.which("cc") or shutil.which("gcc")


def build_c_host(workdir: Path) -> tuple[Path, Path] | str:
    """Build libpybridge and the C bench program into ``workdir``: (library, program), or
    the reason they cannot be built."""
    compiler = c_compiler()
    if compiler is None:
        return "skipped: no C compiler"
    if not C_BENCH_SOURCE.is_file():
        return "skipped: tests/c/bench.c is missing"
    try:
        from ..build.build import BuildError, build
    except ImportError as exc:  # pragma: no cover - the module itself is pure Python
        return f"skipped: {exc}"
    try:
        library = build(workdir / "lib")
    except (BuildError, OSError) as exc:
        return f"skipped: {exc}"
    program = workdir / "bench_c"
    compiled = subprocess.run(
        [compiler, "-O2", "-Wall", "-Wextra", "-o", str(program), str(C_BENCH_SOURCE), "-ldl"],
        capture_output=True,
        text=True,
    )
    if compiled.returncode != 0:
        return f"skipped: compiling bench.c failed: {compiled.stderr.strip()[:300]}"
    return library, program


def run_c_rss(
    library: Path, program: Path, calls: int, on_progress: Callable[[int], None]
) -> dict[str, Any]:
    """The C program's resident set size over ``calls`` calls (its ``rss`` mode), as its JSON
    report; ``on_progress`` hears how many calls are done at each checkpoint."""
    argv = [str(program), str(library), str(DEMO_FILE), "rss", str(calls), DEMO_CARD, DEMO_TARGET]
    # The report is short, so stdout can wait while stderr (the checkpoints) is read.
    with subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          text=True) as run:  # fmt: skip
        assert run.stdout is not None and run.stderr is not None
        errors = []
        for line in run.stderr:
            if line.startswith("progress "):
                on_progress(int(line.split()[1]))
            else:
                errors.append(line)
        out, err, code = run.stdout.read(), "".join(errors), run.wait()
    if code != 0:
        raise RuntimeError(f"bench.c rss failed ({code}): {err[-600:]}")
    report: dict[str, Any] = json.loads(out)
    return report


def _path_entry(samples: Samples, rounds: Samples, floor: dict[str, Summary]) -> dict[str, Any]:
    """Each operation's summary, its ratios to the floor, and its median in every round."""
    entry: dict[str, Any] = {}
    for op in OPS:
        entry[op] = with_ratios(summarize_ns(samples[op]), floor[op])
        entry[op]["round_medians_us"] = [m / 1000 for m in rounds[op]]
    return entry


def paired_ratio(slower: Summary, faster: Summary) -> float:
    """How many times ``faster`` one path's median is: the median, over the rounds, of the
    ratio of the two paths' medians in that round. The machine's speed drifts (by up to 2x
    within seconds here), and paths timed in the same round saw the same machine."""
    ours, theirs = slower.get("round_medians_us", []), faster.get("round_medians_us", [])
    if not ours or len(ours) != len(theirs) or min(theirs) <= 0:
        return ratio(slower["median_us"], faster["median_us"])
    return float(statistics.median(a / b for a, b in zip(ours, theirs, strict=True)))


def _asked(entry: dict[str, Any], ask: str) -> dict[str, Any]:
    """A path's summaries for one way of asking (``first`` ones sit under that key)."""
    found: dict[str, Any] = entry if ask == "again" else entry.get("first", {})
    return found


def check_targets(paths: dict[str, dict[str, Any]]) -> list[dict[str, Any]]:
    """The issue's two bridge targets, per way of asking and operation, where both paths
    were measured."""
    checks: list[dict[str, Any]] = []

    def check(name: str, value: float, unit: str, limit: float, met: bool) -> None:
        checks.append({"name": name, "value": value, "limit": limit, "unit": unit, "met": met})

    for ask, said in (("again", "asked again"), ("first", "first ask")):
        c_abi, proto = _asked(paths.get("c_abi", {}), ask), _asked(paths.get("protocol", {}), ask)
        for op in OPS:
            if op in c_abi and op in proto:
                value = paired_ratio(c_abi[op], proto[op])
                check(f"{op}, {said}: C ABI within {C_VS_PROTOCOL_LIMIT}x of protocol.call",
                      value, "x protocol", C_VS_PROTOCOL_LIMIT,
                      value <= C_VS_PROTOCOL_LIMIT)  # fmt: skip
        for name in ("stdio", "stdio_one_core"):
            stdio = _asked(paths.get(name, {}), ask)
            for op in OPS:
                if op in c_abi and op in stdio:
                    value = paired_ratio(stdio[op], c_abi[op])
                    check(f"{op}, {said}: C ABI at least {STDIO_VS_C_MINIMUM:g}x faster than "
                          f"{paths[name]['label']}", value, "x faster", STDIO_VS_C_MINIMUM,
                          value >= STDIO_VS_C_MINIMUM)  # fmt: skip
    return checks


TimedPaths = dict[tuple[str, str], DirectPath | ProtocolPath | CPath | StdioPath]


def _open_paths(
    host: tuple[Path, Path] | str, cpus: tuple[int, int] | str
) -> tuple[TimedPaths, dict[str, str], dict[str, str]]:
    """Every timed path by (name, ask), the reasons of the skipped ones, and the labels.
    With ``cpus``, everything runs on the first but the ``stdio`` server, on the second."""
    paths: TimedPaths = {("direct", "again"): DirectPath()}
    skipped: dict[str, str] = {}
    labels = dict(PATHS)
    for ask in ASKS:
        paths["protocol", ask] = ProtocolPath(first=ask == "first")
    if isinstance(host, str):
        skipped["c_abi"] = host
    else:
        for ask in ASKS:
            paths["c_abi", ask] = CPath(host, ask == "first", None if isinstance(cpus, str)
                                        else cpus[0])  # fmt: skip
    servers: dict[str, int | None]
    if isinstance(cpus, str):
        labels["stdio"] = "stdio subprocess, where the OS runs it"
        skipped["stdio_one_core"] = cpus
        servers = {"stdio": None}
    else:
        servers = {"stdio": cpus[1], "stdio_one_core": cpus[0]}
    for name, cpu in servers.items():
        for ask in ASKS:
            paths[name, ask] = StdioPath(cpu, first=ask == "first")
    return paths, skipped, labels


Measured = dict[tuple[str, str], Samples]  # (path, ask) -> op -> nanoseconds


def _time_rounds(
    paths: TimedPaths, plan: BenchPlan, progress: Progress
) -> tuple[Measured, Measured]:
    """Every call's time on every path, and each path's median in each round; the paths
    take turns, a share of the calls per round. Closes the paths."""
    calls = plan.bridge_calls
    share = max(1, -(-calls // plan.bridge_rounds))
    measured: Measured = {key: {op: [] for op in (*OPS, "version")} for key in paths}
    rounds: Measured = {key: {op: [] for op in OPS} for key in paths}
    try:
        done = 0
        while done < calls:
            count = min(share, calls - done)
            progress(f"bridge: calls {done + 1}-{done + count} of {calls} on every path")
            for key, path in paths.items():
                for op, times in path.round(count).items():
                    measured[key][op] += times
                    if op in OPS:
                        rounds[key][op].append(int(statistics.median(times)))
            done += count
    finally:
        for path in paths.values():
            path.close()
    return measured, rounds


def run_bridge(
    plan: BenchPlan,
    host: tuple[Path, Path] | str,
    web: Callable[[], dict[str, Any] | str],
    progress: Progress,
) -> dict[str, Any]:
    """The bridge section: every path, asked again and asked first, summarized, with ratios
    against the direct floor.

    The paths take turns: each of the plan's rounds times a share of the calls on every path,
    so a change in the machine's speed during the run touches all of them alike."""
    cpus = cpu_plan()
    with pinned_to(None if isinstance(cpus, str) else cpus[0]):
        paths, skipped, labels = _open_paths(host, cpus)
        measured, rounds = _time_rounds(paths, plan, progress)
    floor = {op: summarize_ns(measured["direct", "again"][op]) for op in OPS}
    entries: dict[str, dict[str, Any]] = {}
    for name in PATHS:
        if name == "web":
            continue
        if name in skipped:
            entries[name] = {"label": labels[name], "skipped": skipped[name]}
            continue
        again = measured[name, "again"]
        entries[name] = {"label": labels[name], **_path_entry(again, rounds[name, "again"], floor)}
        if again["version"]:  # the transport alone
            entries[name]["version"] = summarize_ns(again["version"])
        if (name, "first") in measured:
            entries[name]["first"] = _path_entry(
                measured[name, "first"], rounds[name, "first"], floor
            )
    progress("bridge: web engine")
    web_result = web()
    if isinstance(web_result, str):
        entries["web"] = {"label": PATHS["web"], "skipped": web_result}
    else:
        entry: dict[str, Any] = {"label": PATHS["web"]}
        for op in OPS:
            entry[op] = with_ratios(summarize_us(web_result[f"{op}_us"]), floor[op])
        entry["eval_floor"] = summarize_us(web_result["eval_us"])
        entry["calls"] = len(web_result["targets_us"])
        entry["cross_origin_isolated"] = web_result.get("isolated") == "true"
        entries["web"] = entry
    return {
        "battle": "pybridge/examples/demo_battle.json (3 vs 3)",
        "card": DEMO_CARD,
        "target": DEMO_TARGET,
        "calls": plan.bridge_calls,
        "rounds": plan.bridge_rounds,
        "asks": ASKS,
        "paths": entries,
        "targets": check_targets(entries),
    }
