"""Bridge round trips for ``targets`` and ``preview`` on the 3-vs-3 demo battle, path by path.

Every path answers the same two questions about the same battle (Strike from the knight,
aimed at the orc) and is timed one call at a time:

* ``direct``: :func:`pybridge.runtime.targets` / :func:`~pybridge.runtime.preview` (the floor);
* ``protocol``: :func:`pybridge.protocol.call` with JSON text, in this process;
* ``c_abi``: ``pybridge_call`` + ``pybridge_free`` from a C program (tests/c/bench.c), timed
  with ``clock_gettime`` inside that program;
* ``stdio``: ``pybridge serve --stdio`` in a subprocess: write a line, read the answer line;
* ``web``: GDScript -> ``JavaScriptBridge.eval`` -> Pyodide in the Godot 4.6 web engine
  (see :mod:`pybridge.bench.browser`).

Each path sends ready-made request text and does not parse the answer, as a host would.
The paths other than the browser take turns in rounds, so that a change in the machine's
load during the run reaches all of them alike.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

from .. import protocol
from ..examples import demo_battle
from ..runtime import load_battle, preview, targets
from ..runtime.turns import start_battle
from .plan import C_BENCH_SOURCE, DEMO_CARD, DEMO_TARGET, PACKAGE_ROOT, Plan
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
    "stdio": "stdio subprocess",
    "web": "GDScript -> Pyodide (web)",
}

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
    """:func:`pybridge.protocol.call` in this process, on a session of its own."""

    def __init__(self) -> None:
        self.session = _session_of(protocol.call(open_request()))
        self.texts = requests(self.session)
        for op, text in self.texts.items():
            if not protocol.call(text).startswith('{"ok":true,'):
                raise RuntimeError(f"{op} failed: {protocol.call(text)[:300]}")

    def round(self, calls: int) -> Samples:
        call = protocol.call
        texts = {**self.texts, "version": VERSION_REQUEST}
        return {op: time_calls(partial(call, text), calls) for op, text in texts.items()}

    def close(self) -> None:
        protocol.call(json.dumps({"op": "close", "id": 9, "session": self.session}))


class StdioPath:
    """``pybridge serve --stdio`` in a subprocess: one line out, one line back."""

    def __init__(self) -> None:
        env = {**os.environ, "PYTHONPATH": str(PACKAGE_ROOT.parent)}
        self.server = subprocess.Popen(
            [sys.executable, "-m", "pybridge.cli", "serve", "--stdio"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            env=env,
        )
        assert self.server.stdin is not None and self.server.stdout is not None
        self.to_server, self.from_server = self.server.stdin.fileno(), self.server.stdout
        session = _session_of(self.round_trip(open_request().encode() + b"\n").decode())
        texts = {**requests(session), "version": VERSION_REQUEST}
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
    """A C program calling ``pybridge_call``; each round is one run of tests/c/bench.c."""

    def __init__(self, host: tuple[Path, Path]) -> None:
        self.host = host

    def round(self, calls: int) -> Samples:
        report = run_c_host(*self.host, "latency", calls)
        return {op: report[f"{op}_ns"] for op in (*OPS, "version")}

    def close(self) -> None:
        pass


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
        from ..ffi.build import BuildError, build
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


def run_c_host(
    library: Path,
    program: Path,
    mode: str,
    calls: int,
    on_progress: Callable[[int], None] | None = None,
) -> dict[str, Any]:
    """Run the C program in ``mode`` (``latency`` or ``rss``); returns its JSON report.
    ``on_progress`` hears how many calls are done at each of the rss mode's checkpoints."""
    argv = [str(program), str(library), str(DEMO_FILE), mode, str(calls), DEMO_CARD, DEMO_TARGET]
    if on_progress is None:
        done = subprocess.run(argv, capture_output=True, text=True, timeout=3600)
        code, out, err = done.returncode, done.stdout, done.stderr
    else:  # rss mode: its report is short, so stdout can wait while stderr is read
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
        raise RuntimeError(f"bench.c {mode} failed ({code}): {err[-600:]}")
    report: dict[str, Any] = json.loads(out)
    return report


def _path_entry(samples: Samples | str, floor: dict[str, Summary] | None) -> dict[str, Any]:
    if isinstance(samples, str):
        return {"skipped": samples}
    entry: dict[str, Any] = {}
    for op in OPS:
        summary = summarize_ns(samples[op])
        entry[op] = with_ratios(summary, floor[op] if floor else summary)
    return entry


def check_targets(paths: dict[str, dict[str, Any]]) -> list[dict[str, Any]]:
    """The issue's two bridge targets, per operation, where both paths were measured."""
    checks: list[dict[str, Any]] = []
    c_abi, proto, stdio = paths.get("c_abi", {}), paths.get("protocol", {}), paths.get("stdio", {})
    for op in OPS:
        if op in c_abi and op in proto:
            value = ratio(c_abi[op]["median_us"], proto[op]["median_us"])
            checks.append(
                {
                    "name": f"{op}: C ABI within {C_VS_PROTOCOL_LIMIT}x of protocol.call",
                    "value": value,
                    "limit": C_VS_PROTOCOL_LIMIT,
                    "unit": "x protocol",
                    "met": value <= C_VS_PROTOCOL_LIMIT,
                }
            )
    for op in OPS:
        if op in c_abi and op in stdio:
            value = ratio(stdio[op]["median_us"], c_abi[op]["median_us"])
            checks.append(
                {
                    "name": f"{op}: C ABI at least {STDIO_VS_C_MINIMUM:g}x faster than stdio",
                    "value": value,
                    "limit": STDIO_VS_C_MINIMUM,
                    "unit": "x faster",
                    "met": value >= STDIO_VS_C_MINIMUM,
                }
            )
    return checks


def run_bridge(
    plan: Plan,
    host: tuple[Path, Path] | str,
    web: Callable[[], dict[str, Any] | str],
    progress: Progress,
) -> dict[str, Any]:
    """The bridge section: every path, summarized, with ratios against the direct floor.

    The paths take turns: each of the plan's rounds times a share of the calls on every path,
    so a change in the machine's speed during the run touches all of them alike."""
    calls = plan.bridge_calls
    share = max(1, -(-calls // plan.bridge_rounds))
    paths: dict[str, DirectPath | ProtocolPath | CPath | StdioPath] = {
        "direct": DirectPath(),
        "protocol": ProtocolPath(),
    }
    if not isinstance(host, str):
        paths["c_abi"] = CPath(host)
    paths["stdio"] = StdioPath()
    measured: dict[str, Samples] = {name: {op: [] for op in (*OPS, "version")} for name in paths}
    try:
        done = 0
        while done < calls:
            count = min(share, calls - done)
            progress(f"bridge: calls {done + 1}-{done + count} of {calls} on every path")
            for name, path in paths.items():
                for op, times in path.round(count).items():
                    measured[name][op] += times
            done += count
    finally:
        for path in paths.values():
            path.close()
    floor = {op: summarize_ns(measured["direct"][op]) for op in OPS}
    entries: dict[str, dict[str, Any]] = {}
    for name in PATHS:
        if name == "web":
            continue
        found: Samples | str = measured[name] if name in measured else str(host)
        entries[name] = {"label": PATHS[name], **_path_entry(found, floor)}
        if name in measured and measured[name]["version"]:  # the transport alone
            entries[name]["version"] = summarize_ns(measured[name]["version"])
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
        "calls": calls,
        "rounds": plan.bridge_rounds,
        "paths": entries,
        "targets": check_targets(entries),
    }
