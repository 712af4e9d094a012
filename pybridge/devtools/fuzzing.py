"""``pybridge fuzz``: coverage-guided fuzzing of the C ABI, ``pybridge_call``.

The command builds ``libpybridge.so`` (or takes ``--library``) and runs a worker process
that loads it with ctypes and fuzzes it with atheris (libFuzzer for Python): coverage comes
from the instrumented protocol and runtime that the library runs. Inputs are arbitrary bytes
(the ABI reads them up to the first NUL) and, through a JSON-aware mutator, mutated valid
requests: a value swapped for a hostile one (huge or non-finite numbers, long strings,
deep nesting, wrong types, another session's or unit's id), a field dropped or added.

Every response must be UTF-8 JSON of the documented shape, never an ``internal_error``;
a refused request on one of the fuzzer's own sessions must leave its state unchanged; no
input may take longer than a few seconds. Meanwhile several threads call the library at once
with mutated requests (and NULL). A finding is written to the output directory and the
command exits 1. It needs the ``fuzz`` extra (``pip install -e '.[fuzz]'``).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from .fuzz_seeds import fuzzer_battles, seed_requests

#: The last stdout line of a worker: what it did, as JSON.
SUMMARY_PREFIX = "pybridge-fuzz-summary "
MAX_INPUT = 64 * 1024
INPUT_TIMEOUT = 30  # seconds: libFuzzer reports a slower input as a hang
READ_ONLY_OPS = ("version", "state", "targets", "preview", "cut")
OPS = (
    "version",
    "open",
    "close",
    "state",
    "targets",
    "preview",
    "play",
    "end_turn",
    "activate",
    "respond",
    "pass",
    "resolve",
    "cut",
    "lint",
    "describe",
)
HOSTILE: tuple[Any, ...] = (
    None,
    True,
    False,
    0,
    -1,
    2**31,
    2**63,
    -(2**64),
    10**100,
    1e308,
    -1e308,
    5e-324,
    0.5,
    "",
    "x" * 70,
    "x" * 5000,
    "\ud800",
    "\x00",
    "../../etc/passwd",
    "{0.__class__}",
    "__class__",
    "e1",
    "e99",
    "s0",
    "h1",
    "knight",
    "orc",
    "Self",
    "None",
    [],
    {},
    [[[[[[[[[[[[]]]]]]]]]]]],
    ["orc", "orc"],
    ["knight", "cleric", "ranger", "goblin", "orc", "shaman"] * 3,
    {"e1": "orc"},
    {"__class__": 1},
)
DICTIONARY = (
    '"op"',
    '"id"',
    '"session"',
    '"card"',
    '"target"',
    '"unit"',
    '"move"',
    '"choices"',
    '"battle"',
    '"document"',
    '"definition"',
    *(f'"{op}"' for op in OPS),
    '"s1"',
    '"s2"',
    '"s3"',
    '"s4"',
    '"s5"',
    '"h1"',
    '"h2"',
    '"e1"',
    '"orc"',
    '"knight"',
    '"imp"',
    '"ogre"',
    '"ChosenCards"',
    '"choose_on_resolve"',
    '"card_targets"',
    '"next_entry"',
    '"cut"',
    "null",
    "true",
    "false",
    "1e308",
    "1e400",
    "-0",
    "NaN",
    "Infinity",
    '"\\ud800"',
    '"\\u0000"',
    "[[[[[[[[",
    "]]]]]]]]",
    '{"',
    '":',
    "}",
    ",",
)


# -- mutation ---------------------------------------------------------------------------------
def _paths(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [path]
    if isinstance(value, dict):
        for key, item in value.items():
            found += _paths(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found += _paths(item, (*path, index))
    return found


def _replace(value: Any, path: tuple[Any, ...], new: Any) -> Any:
    if not path:
        return new
    head, rest = path[0], path[1:]
    if isinstance(value, dict):
        return {**value, head: _replace(value[head], rest, new)}
    copy = list(value)
    copy[head] = _replace(copy[head], rest, new)
    return copy


def mutate_request(request: Any, rng: random.Random, sessions: list[str]) -> Any:
    """One structured mutation of a decoded request."""
    paths = _paths(request)
    if len(paths) > 2_000:  # a whole battle: stay cheap, mutate near the top
        paths = paths[:2_000]
    path = rng.choice(paths)
    roll = rng.random()
    if roll < 0.45:
        return _replace(request, path, rng.choice(HOSTILE))
    if roll < 0.6 and isinstance(request, dict):
        return {**request, "op": rng.choice(OPS)}
    if roll < 0.7 and isinstance(request, dict) and sessions:
        return {**request, "session": rng.choice(sessions)}
    if roll < 0.8 and path:  # drop a field or an element
        parent = _parents(request, path[:-1])
        if isinstance(parent, dict):
            return _replace(request, path[:-1], {k: v for k, v in parent.items() if k != path[-1]})
        if isinstance(parent, list):
            return _replace(request, path[:-1], parent[: path[-1]] + parent[path[-1] + 1 :])
    if roll < 0.9:  # duplicate a value into another place
        return _replace(request, path, _parents(request, rng.choice(paths)))
    return _replace(request, path, {"__class__": rng.choice(HOSTILE), "id": rng.choice(HOSTILE)})


def _parents(value: Any, path: tuple[Any, ...]) -> Any:
    for key in path:
        value = value[key]
    return value


def mutate_bytes(data: bytes, rng: random.Random) -> bytes:
    """A few byte-level changes, for the threads (the main loop uses libFuzzer's own)."""
    buffer = bytearray(data)
    for _ in range(rng.randint(1, 4)):
        if not buffer:
            buffer.extend(rng.randbytes(4))
        position = rng.randrange(len(buffer))
        choice = rng.random()
        if choice < 0.4:
            buffer[position] = rng.randrange(256)
        elif choice < 0.7:
            del buffer[position : position + rng.randint(1, 8)]
        else:
            buffer[position:position] = rng.choice((b"\xff", b"\xc3", b"[", b'"', b"\\", b"9" * 9))
    return bytes(buffer)


# -- checking -------------------------------------------------------------------------------------
class Finding(Exception):
    """A response broke the contract; the message says how."""


#: What an error may carry beside its code, message and where: a refusal's reason, said.
_SAID = frozenset({"reason", "reason_message"})


def check_response(request: bytes, response: str) -> dict[str, Any]:
    """The contract every answer keeps, whatever was asked."""
    try:
        answer = json.loads(response)
    except ValueError as exc:
        raise Finding(f"the response is not JSON ({exc}): {response[:300]!r}") from None
    if not isinstance(answer, dict) or not isinstance(answer.get("ok"), bool):
        raise Finding(f"the response has no ok: {response[:300]!r}")
    expected = {"ok", "id", "result" if answer["ok"] else "error"}
    if set(answer) != expected:
        raise Finding(f"the response has fields {sorted(answer)}: {response[:300]!r}")
    if not answer["ok"]:
        error = answer["error"]
        if not isinstance(error, dict) or set(error) - _SAID != {"code", "message", "where"}:
            raise Finding(f"malformed error {error!r}")
        said = error.get("reason_message")  # a player's refusal: its reason and its sentence
        if ("reason" in error) != (said is not None) or (
            said is not None and not (isinstance(error["reason"], str) and isinstance(said, dict))
        ):
            raise Finding(f"malformed reason {error!r}")
        if error["code"] == "internal_error":
            raise Finding(f"internal error {error['message']!r} for {request[:300]!r}")
    return answer


class Harness:
    """The library loaded with ctypes, the fuzzer's own sessions, and the checks."""

    def __init__(self, library: Path) -> None:
        import ctypes  # only the fuzzer loads native code

        from ..examples import demo_battle

        self._ctypes = ctypes
        lib = ctypes.CDLL(str(library))
        lib.pybridge_call.restype = ctypes.c_void_p  # keep the pointer: it must be freed
        lib.pybridge_call.argtypes = [ctypes.c_char_p]
        lib.pybridge_free.restype = None
        lib.pybridge_free.argtypes = [ctypes.c_void_p]
        self.lib = lib
        self.battles = fuzzer_battles(demo_battle())
        self.sessions = [self.open(battle) for battle in self.battles]

    def call(self, request: bytes | None) -> str:
        pointer = self.lib.pybridge_call(request)
        if not pointer:
            raise Finding("pybridge_call returned NULL")
        try:
            raw: bytes = self._ctypes.string_at(pointer)
        finally:
            self.lib.pybridge_free(pointer)
        try:
            return raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise Finding(f"the response is not UTF-8: {exc}") from None

    def open(self, battle: dict[str, Any]) -> str:
        answer = json.loads(self.call(json.dumps({"op": "open", "battle": battle}).encode()))
        if not answer["ok"]:
            raise Finding(f"the fuzzer's own battle was refused: {answer['error']}")
        return str(answer["result"]["session"])

    def state(self, session: str) -> str:
        return self.call(json.dumps({"op": "state", "session": session}).encode())

    def run(self, request: bytes, own: list[str], atomic: bool) -> None:
        """Send one input and check the answer. ``own`` are sessions no other caller uses:
        with ``atomic``, a refused or read-only request on one of them must not change it."""
        decoded = _decode(request)
        fields = decoded if isinstance(decoded, dict) else {}
        session, op = fields.get("session"), fields.get("op")
        watched = session if atomic and isinstance(session, str) and session in own else None
        before = self.state(watched) if watched is not None else None
        answer = check_response(request, self.call(request))
        kept = watched is None or (answer["ok"] and op not in READ_ONLY_OPS)
        if not kept and self.state(str(watched)) != before:
            raise Finding(f"a refused or read-only request changed the session: {request!r}")
        result = answer.get("result")
        if answer["ok"] and isinstance(result, dict) and isinstance(result.get("session"), str):
            self.call(json.dumps({"op": "close", "session": result["session"]}).encode())
        if op == "close" and answer["ok"]:  # it may have closed one of ours: open another
            for i, sid in enumerate(own):
                if not json.loads(self.state(sid))["ok"]:
                    own[i] = self.open(self.battles[i % len(self.battles)])


def _decode(request: bytes) -> Any:
    try:
        return json.loads(request)
    except (ValueError, RecursionError):
        return None


# -- the worker -----------------------------------------------------------------------------------
class Storm:
    """Threads calling the library at once with mutated requests on sessions of their own."""

    def __init__(self, harness: Harness, seeds: list[bytes], threads: int, seed: int,
                 out: Path) -> None:  # fmt: skip
        self.harness, self.seeds, self.out = harness, seeds, out
        self.stop = threading.Event()
        self.calls = [0] * threads
        self.failure: str | None = None
        self.workers = [
            threading.Thread(target=self.work, args=(i, seed + i), daemon=True)
            for i in range(threads)
        ]

    def start(self) -> None:
        for worker in self.workers:
            worker.start()

    def finish(self) -> int:
        self.stop.set()
        for worker in self.workers:
            worker.join(INPUT_TIMEOUT)
        return sum(self.calls)

    def work(self, index: int, seed: int) -> None:
        rng = random.Random(seed)
        request: bytes | None = None
        try:
            own = [self.harness.open(b) for b in self.harness.battles]
            while not self.stop.is_set():
                request = self._request(rng, own)
                if request is None:
                    check_response(b"NULL", self.harness.call(None))
                else:
                    self.harness.run(request, own, atomic=False)
                self.calls[index] += 1
        except Finding as finding:
            (self.out / f"finding-thread-{index}.bin").write_bytes(request or b"NULL")
            self.failure = f"thread {index}: {finding}"
        except Exception as exc:  # the harness itself broke: report, do not hide
            self.failure = f"thread {index}: {type(exc).__name__}: {exc}"

    def _request(self, rng: random.Random, own: list[str]) -> bytes | None:
        if rng.random() < 0.01:
            return None
        decoded = json.loads(rng.choice(self.seeds))
        for _ in range(rng.randint(1, 3)):
            decoded = mutate_request(decoded, rng, own)
        if isinstance(decoded, dict) and "session" in decoded:
            decoded["session"] = rng.choice(own)  # leave the other callers' sessions alone
        try:
            data = json.dumps(decoded).encode("utf-8", "surrogatepass")
        except (ValueError, RecursionError):
            data = b"{}"
        return mutate_bytes(data, rng) if rng.random() < 0.3 else data


def _worker(args: argparse.Namespace) -> int:
    try:
        import atheris  # type: ignore[import-untyped,import-not-found,unused-ignore]
    except ImportError:
        print("pybridge fuzz: needs atheris: pip install -e '.[fuzz]'", file=sys.stderr)
        return 2
    with atheris.instrument_imports(include=["pybridge"]):
        # Imported (and so instrumented) before the library's init code imports them too.
        from .. import protocol
        from ..ffi import embedded
    del protocol, embedded

    out = Path(args.output)
    corpus = out / "corpus"
    corpus.mkdir(parents=True, exist_ok=True)
    harness = Harness(Path(args.library))
    from ..examples import demo_battle

    seeds = [json.dumps(r).encode() for r in seed_requests(demo_battle())]
    for i, seed in enumerate(seeds):
        (corpus / f"seed-{i:03d}").write_bytes(seed)
    dictionary = out / "requests.dict"
    dictionary.write_text("".join(json.dumps(t) + "\n" for t in DICTIONARY), "utf-8")
    storm = Storm(harness, seeds, args.threads, args.seed, out)
    main_calls = [0]
    started = time.monotonic()

    def finish(failure: str | None) -> None:
        thread_calls = storm.finish()
        failure = failure or storm.failure
        summary = {
            "executions": main_calls[0],
            "thread_executions": thread_calls,
            "threads": args.threads,
            "seconds": round(time.monotonic() - started, 1),
            "corpus": len(list(corpus.iterdir())),
            "failure": failure,
        }
        print(SUMMARY_PREFIX + json.dumps(summary), flush=True)
        os._exit(1 if failure else 0)  # libFuzzer's loop does not return

    def test_one(data: bytes) -> None:
        request = data.split(b"\0", 1)[0]  # what the C ABI reads of it
        try:
            harness.run(request, harness.sessions, atomic=True)
        except Finding as finding:
            (out / "finding.bin").write_bytes(request)
            finish(str(finding))
        main_calls[0] += 1
        if storm.failure is not None or time.monotonic() - started >= args.seconds:
            finish(None)

    def mutator(data: bytes, max_size: int, seed: int) -> bytes:
        rng = random.Random(seed)
        decoded = _decode(data) if rng.random() < 0.6 else None
        if decoded is None:
            mutated: bytes = atheris.Mutate(data, max_size)
            return mutated
        for _ in range(rng.randint(1, 3)):
            decoded = mutate_request(decoded, rng, harness.sessions)
        try:
            text = json.dumps(decoded).encode("utf-8", "surrogatepass")
        except (ValueError, RecursionError):
            return bytes(atheris.Mutate(data, max_size))
        return text if len(text) <= max_size else bytes(atheris.Mutate(data, max_size))

    argv = [
        sys.argv[0],
        str(corpus),
        f"-dict={dictionary}",
        f"-max_len={MAX_INPUT}",
        f"-timeout={INPUT_TIMEOUT}",
        f"-max_total_time={args.seconds + 60}",
        f"-seed={args.seed}",
        f"-artifact_prefix={out}/",
        "-rss_limit_mb=4096",
        "-print_final_stats=1",
    ]
    storm.start()
    atheris.Setup(argv, test_one, custom_mutator=mutator)
    atheris.Fuzz()
    finish(None)
    return 0


# -- the command ----------------------------------------------------------------------------------
def run_fuzz(
    seconds: int,
    threads: int,
    seed: int,
    library: Path | None,
    output: Path | None,
    log: Callable[[str], None] = print,
) -> int:
    """Build (or take) the library, fuzz it for ``seconds``; 0 when nothing was found."""
    if seconds < 1 or threads < 0:
        raise ValueError(f"fuzzing needs at least 1 second and 0 or more threads, got "
                         f"{seconds} s and {threads} threads")  # fmt: skip
    keep = output is not None
    out = Path(output) if output is not None else Path(tempfile.mkdtemp(prefix="pybridge-fuzz-"))
    out.mkdir(parents=True, exist_ok=True)
    if library is None:
        from .build.build import build

        library = build(out / "lib")
    command = [
        sys.executable,
        "-m",
        "pybridge.devtools.fuzzing",
        "--worker",
        "--library",
        str(library),
        "--output",
        str(out),
        "--seconds",
        str(seconds),
        "--threads",
        str(threads),
        "--seed",
        str(seed),
    ]
    try:
        worker = subprocess.run(
            command, capture_output=True, text=True, timeout=seconds + INPUT_TIMEOUT + 120
        )
    except subprocess.TimeoutExpired:
        log(f"pybridge fuzz: the fuzzer did not finish; its files are in {out}")
        return 1
    lines = [line for line in worker.stdout.splitlines() if line.startswith(SUMMARY_PREFIX)]
    if worker.returncode == 2 and not lines:
        log(worker.stderr.strip())
        return 2
    summary = json.loads(lines[-1][len(SUMMARY_PREFIX) :]) if lines else None
    if worker.returncode == 0 and summary is not None and summary["failure"] is None:
        log(
            f"pybridge fuzz: {summary['executions']} coverage-guided executions and "
            f"{summary['thread_executions']} from {summary['threads']} threads in "
            f"{summary['seconds']} s; corpus {summary['corpus']} inputs; nothing found"
        )
        log(SUMMARY_PREFIX + json.dumps(summary))
        if not keep:
            shutil.rmtree(out, ignore_errors=True)
        return 0
    found = summary["failure"] if summary else f"the worker exited with {worker.returncode}"
    log(f"pybridge fuzz: FOUND: {found}")
    log(worker.stderr[-4000:])
    log(f"pybridge fuzz: inputs and crash files are in {out}")
    if summary is not None:
        log(SUMMARY_PREFIX + json.dumps(summary))
    return 1


def _cmd_fuzz(args: argparse.Namespace) -> int:
    library = Path(args.library) if args.library else None
    output = Path(args.output) if args.output else None
    return run_fuzz(args.seconds, args.threads, args.seed, library, output)


def add_fuzz_command(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``pybridge fuzz [--seconds N] [--threads K] [--seed S] [--library F] [--output D]``."""
    cmd = subparsers.add_parser("fuzz", help="fuzz the C ABI (pybridge_call) with atheris")
    _arguments(cmd)
    cmd.set_defaults(run=_cmd_fuzz)


def _count(minimum: int) -> Callable[[str], int]:
    """An argparse type: a whole number of at least ``minimum`` (a fuzzing run of no time,
    or of -1 threads, would check nothing and say it found nothing)."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
        if value < minimum:
            raise argparse.ArgumentTypeError(f"expected at least {minimum}, got {value}")
        return value

    return parse


def _arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--seconds", type=_count(1), default=60, help="how long to fuzz (default 60)"
    )
    parser.add_argument(
        "--threads",
        type=_count(0),
        default=4,
        help="threads calling the library at the same time (default 4)",
    )
    parser.add_argument("--seed", type=int, default=1, help="the fuzzer's seed (default 1)")
    parser.add_argument(
        "--library",
        metavar="FILE",
        help="fuzz this libpybridge.so (default: build one into the output directory)",
    )
    parser.add_argument(
        "--output",
        metavar="DIR",
        help="keep the corpus and findings here "
        "(default: a temporary directory, kept only for a finding)",
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m pybridge.fuzzing")
    _arguments(parser)
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        return _worker(args)
    return _cmd_fuzz(args)


if __name__ == "__main__":
    raise SystemExit(main())
