"""The C ABI: libpybridge.so built with cffi, driven by C programs and through ctypes.

Nothing here skips: without gcc these tests fail, because the ABI would be untested.
"""

from __future__ import annotations

import ctypes
import json
import os
import subprocess
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

import pybridge
from pybridge import protocol, service
from pybridge.cli import main
from pybridge.devtools.build import build as ffi_build

from .native_support import (
    MECHANICS,
    check_mechanics_replies,
    check_refused_without_mechanics,
    mechanics_requests,
    run,
    tool,
)

C_DIR = Path(__file__).parent / "c"
BATTLE = Path(pybridge.__file__).parent / "examples" / "demo_battle.json"
ABI = {"pybridge_version", "pybridge_call", "pybridge_free"}
CFLAGS = ("-Wall", "-Wextra", "-Werror", "-O2", "-pthread")  # our C stays warning-free

Call = Callable[[bytes | None], str]


@pytest.fixture(scope="session")
def library(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return ffi_build.build(tmp_path_factory.mktemp("lib"))


@pytest.fixture(scope="session")
def programs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    gcc, out = tool("gcc"), tmp_path_factory.mktemp("c")
    built = {}
    for source in sorted(C_DIR.glob("*.c")):
        exe = out / source.stem
        cmd: list[str | Path] = [gcc, *CFLAGS, "-o", exe, source, "-ldl"]
        result = run(*cmd)
        assert result.returncode == 0, result.stderr
        built[source.stem] = exe
    return built


@pytest.fixture(scope="session")
def abi(library: Path) -> ctypes.CDLL:
    """The library loaded into this Python process (its init code runs in our interpreter)."""
    lib = ctypes.CDLL(str(library))  # releases the GIL per call, like a native host thread
    lib.pybridge_version.restype = ctypes.c_void_p
    lib.pybridge_version.argtypes = []
    lib.pybridge_call.restype = ctypes.c_void_p  # keep the pointer: it must be freed
    lib.pybridge_call.argtypes = [ctypes.c_char_p]
    lib.pybridge_free.restype = None
    lib.pybridge_free.argtypes = [ctypes.c_void_p]
    return lib


@pytest.fixture
def call(abi: ctypes.CDLL) -> Call:
    def call(request: bytes | None) -> str:
        response = abi.pybridge_call(request)
        assert response, "pybridge_call returned NULL"
        try:
            return ctypes.string_at(response).decode("utf-8")  # strict: must be UTF-8
        finally:
            abi.pybridge_free(response)

    return call


def _request(op: str, request_id: Any = 1, **fields: Any) -> bytes:
    return json.dumps({"op": op, "id": request_id, **fields}).encode()


def _battle_document() -> Any:
    return json.loads(BATTLE.read_text("utf-8"))


@pytest.fixture
def session(call: Call) -> Iterator[str]:
    opened = json.loads(call(_request("open", battle=_battle_document())))
    assert opened["ok"], opened
    yield opened["result"]["session"]
    call(_request("close", session=opened["result"]["session"]))


def _unit(state: dict[str, Any], unit_id: str) -> dict[str, Any]:
    unit: dict[str, Any] = next(u for u in state["units"] if u["id"] == unit_id)
    return unit


# -- the C programs ---------------------------------------------------------------------------


def test_smoke_program_plays_strike_at_the_orc(library: Path, programs: dict[str, Path]) -> None:
    result = run(programs["smoke"], library, BATTLE, str(protocol.MAX_REQUEST_BYTES))
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr
    lines = dict(line.split("\t", 1) for line in result.stdout.splitlines())
    assert lines["version"] == pybridge.__version__
    responses = {label: json.loads(text) for label, text in lines.items() if label != "version"}

    opened = responses["open"]["result"]["state"]
    assert (_unit(opened, "orc")["hp"], _unit(opened, "orc")["armor"]) == (34, 4)
    played = responses["play"]["result"]
    damage = next(e for e in played["events"] if e["type"] == "damage")
    assert (damage["unit"], damage["amount"], damage["blocked"]) == ("orc", 6, 4)
    orc = _unit(played["state"], "orc")
    assert (orc["hp"], orc["armor"]) == (34 - (6 - 4), 0)

    # The C host gets what Python gets for the same requests on a fresh battle.
    session = json.loads(service.call(_request("open", battle=_battle_document())))
    session_id = session["result"]["session"]
    try:
        for label, request_id, fields in [
            ("targets", 2, {"card": "h1"}),
            ("play", 3, {"card": "h1", "target": "orc"}),
        ]:
            request = _request(label, request_id, session=session_id, **fields)
            assert responses[label] == json.loads(service.call(request))
    finally:
        service.call(_request("close", session=session_id))

    codes = {
        label: responses[label]["error"]["code"]
        for label in responses
        if label not in ("open", "targets", "play", "close")
    }
    assert codes == {
        "null": "null_request",
        "bad_utf8": "bad_utf8",
        "not_json": "bad_json",
        "too_large": "too_large",
        "at_limit": "bad_json",  # exactly at the limit is read
    }


@pytest.mark.parametrize("start", ["warm", "cold"])
def test_stress_program_threads_on_their_own_sessions(
    library: Path, programs: dict[str, Path], start: str
) -> None:
    threads, rounds = 8, 300
    argv: list[str | Path] = [programs["stress"], library, BATTLE, str(threads), str(rounds)]
    result = run(*argv, *(["cold"] if start == "cold" else []))
    assert result.returncode == 0, result.stdout + result.stderr
    words = result.stdout.split()
    stats = dict(zip(words[::2], words[1::2], strict=True))
    assert int(stats["calls"]) == threads * (1 + 2 * rounds + 2)
    assert stats["failures"] == "0"
    print(result.stdout.strip())  # the rate, visible with pytest -s


def test_a_failed_start_answers_with_an_error(
    tmp_path: Path, programs: dict[str, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(
        ffi_build, "_init_code", lambda: "raise RuntimeError('simulated start-up failure')\n"
    )
    broken = ffi_build.build(tmp_path)
    version = '{"op":"version","id":1}'
    result = run(programs["call"], broken, version, version)
    assert result.returncode == 0, result.stderr
    responses = [json.loads(line) for line in result.stdout.splitlines()]
    assert [r["error"]["code"] for r in responses] == ["runtime_unavailable"] * 2
    assert result.stderr.count("simulated start-up failure") == 1  # not retried per call


def _with_extensions(*files: Path) -> dict[str, str]:
    return {**os.environ, "PYBRIDGE_EXTENSIONS": os.pathsep.join(map(str, files))}


def test_a_c_program_plays_the_games_extension_words(
    library: Path, programs: dict[str, Path]
) -> None:
    result = run(programs["call"], library, *mechanics_requests(), env=_with_extensions(MECHANICS))
    assert result.returncode == 0, result.stderr
    check_mechanics_replies([json.loads(line) for line in result.stdout.splitlines()])


def test_a_library_using_an_extension_not_loaded_is_refused_through_the_abi(
    library: Path, programs: dict[str, Path]
) -> None:
    environ = {k: v for k, v in os.environ.items() if k != "PYBRIDGE_EXTENSIONS"}
    result = run(programs["call"], library, mechanics_requests()[0], env=environ)
    assert result.returncode == 0, result.stderr
    check_refused_without_mechanics(json.loads(result.stdout))


def test_an_extension_that_does_not_load_fails_the_start_naming_it(
    tmp_path: Path, library: Path, programs: dict[str, Path]
) -> None:
    broken = tmp_path / "broken.py"
    broken.write_text("NAME = 'broken'\n")  # no register(words)
    version = '{"op":"version","id":1}'
    result = run(programs["call"], library, version, version, env=_with_extensions(broken))
    assert result.returncode == 0, result.stderr
    responses = [json.loads(line) for line in result.stdout.splitlines()]
    assert [r["error"]["code"] for r in responses] == ["runtime_unavailable"] * 2
    assert result.stderr.count(f"{broken}: an extension module defines register(words)") == 1


def test_only_the_abi_is_exported(library: Path) -> None:
    result = run(tool("nm"), "-D", "--defined-only", library)
    exported = {line.split()[-1] for line in result.stdout.splitlines() if " T " in line}
    assert exported == ABI | {ffi_build.GDEXTENSION_ENTRY, f"PyInit_{ffi_build.MODULE_NAME}"}
    header = ffi_build.HEADER.read_text("utf-8")
    assert all(f"{name}(" in header for name in ABI)


# -- through ctypes, inside this Python process -----------------------------------------------


def test_version_is_one_static_string(abi: ctypes.CDLL) -> None:
    first, second = abi.pybridge_version(), abi.pybridge_version()
    assert first == second  # the same address: nothing to free, lives forever
    assert ctypes.string_at(first).decode() == pybridge.__version__


def test_round_trip_matches_python(call: Call, session: str) -> None:
    for request in [
        _request("targets", session=session, card="h1"),
        _request("preview", session=session, card="h1", target="orc"),
        _request("state", session=session),
    ]:
        # One process, one protocol: the session opened through C is Python's too.
        assert call(request) == service.call(request)
    played = json.loads(call(_request("play", session=session, card="h1", target="orc")))
    assert played["ok"], played
    assert _unit(played["result"]["state"], "orc")["hp"] == 32


@pytest.mark.parametrize(
    ("request_json", "code"),
    [
        (None, "null_request"),
        (b"\xff\xfe", "bad_utf8"),
        (b'{"op":"version","id":"\xc3"}', "bad_utf8"),
        (b"not json", "bad_json"),
        (b"", "bad_json"),
        (b"[1, 2]", "bad_request"),
        (b" " * (protocol.MAX_REQUEST_BYTES + 1), "too_large"),
        (b'{"op":"launch","id":7}', "unknown_op"),
    ],
)
def test_bad_input_gets_an_error_response(
    call: Call, request_json: bytes | None, code: str
) -> None:
    response = json.loads(call(request_json))
    assert response["ok"] is False
    assert response["error"]["code"] == code
    assert set(response["error"]) == {"code", "message", "where"}


def test_hosts_size_the_kept_answers_from_the_environment(
    library: Path, programs: dict[str, Path]
) -> None:
    version = '{"op":"version"}'
    for setting, kept in ((None, 128), ("0", 0), ("7", 7)):
        env = {k: v for k, v in os.environ.items() if k != "PYBRIDGE_ANSWER_CACHE"}
        env.update({} if setting is None else {"PYBRIDGE_ANSWER_CACHE": setting})
        run = subprocess.run([str(programs["call"]), str(library), version],
                             capture_output=True, text=True, timeout=120, env=env)  # fmt: skip
        assert run.returncode == 0, run.stderr
        assert json.loads(run.stdout)["result"]["kept_answers"] == kept


def test_a_lone_surrogate_id_is_refused_in_valid_utf8(call: Call) -> None:
    # JSON allows "\ud800", Godot's reader does not: the id is refused, not echoed, and the
    # response is still UTF-8.
    response = call(b'{"op":"version","id":"\\ud800!"}')  # a str: decoded as UTF-8 already
    answer = json.loads(response)
    assert answer["id"] is None and answer["error"]["code"] == "invalid_id"


def test_free_ignores_null(abi: ctypes.CDLL) -> None:
    abi.pybridge_free(None)


def test_threads_through_ctypes(call: Call) -> None:
    threads, rounds = 6, 200
    start = threading.Barrier(threads)
    failures: list[str] = []

    def work() -> None:
        start.wait()
        opened = json.loads(call(_request("open", battle=_battle_document())))
        session = opened["result"]["session"]
        targets = _request("targets", session=session, card="h1")
        expected = call(targets)
        for _ in range(rounds):
            if (answer := call(targets)) != expected:
                failures.append(answer)
        played = json.loads(call(_request("play", session=session, card="h1", target="orc")))
        if _unit(played["result"]["state"], "orc")["hp"] != 32:
            failures.append(f"{session}: {played}")
        call(_request("close", session=session))

    workers = [threading.Thread(target=work) for _ in range(threads)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    assert failures == []


# -- building ----------------------------------------------------------------------------------


def test_build_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["build", "--output-dir", str(tmp_path)]) == 0
    printed = Path(capsys.readouterr().out.strip())
    assert printed == tmp_path / "libpybridge.so"
    assert printed.is_file()
    assert [p.name for p in tmp_path.iterdir()] == ["libpybridge.so"]  # nothing staged left


def test_build_command_reports_failure(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def fail(output_dir: Path, flags: object = (), *, bundled: bool = False) -> Path:
        raise ffi_build.BuildError("no compiler")

    monkeypatch.setattr(ffi_build, "build", fail)
    assert main(["build", "--output-dir", str(tmp_path)]) == 2
    assert "pybridge build: no compiler" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []
