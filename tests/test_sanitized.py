"""The C half of libpybridge (pybridge.c, gdextension.c) under AddressSanitizer and
UndefinedBehaviorSanitizer: the library and the C hosts are built with both, and every host
must finish cleanly. An out-of-bounds access, a use after free, a double free or undefined
behaviour in our C ends the host with a report instead.

Leak detection is off: the embedded Python is never finalized (it lives as long as the
host), so everything it allocated is still there at exit. The simulated engine host counts
its own Strings, StringNames and objects instead (tests/test_gdextension.py).
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

import pybridge
from pybridge import protocol
from pybridge.devtools.build import build as ffi_build

from .native_support import run, tool

C_DIR = Path(__file__).parent / "c"
BATTLE = Path(pybridge.__file__).parent / "examples" / "demo_battle.json"
SANITIZE = ("-fsanitize=address,undefined", "-fno-sanitize-recover=undefined",
            "-fno-omit-frame-pointer")  # fmt: skip
ENVIRONMENT = {
    **os.environ,
    "ASAN_OPTIONS": "detect_leaks=0:abort_on_error=0:exitcode=86",
    "UBSAN_OPTIONS": "print_stacktrace=1:halt_on_error=1",
}
REPORTS = ("ERROR: AddressSanitizer", "runtime error:", "SUMMARY: UndefinedBehaviorSanitizer")


@pytest.fixture(scope="module")
def sanitized(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The sanitized library and every C host, built with the sanitizers."""
    gcc = tool("gcc")
    out = tmp_path_factory.mktemp("sanitized")
    built = {"library": ffi_build.build(out / "lib", flags=SANITIZE)}
    for name in ("smoke", "stress", "call", "godot_host"):
        exe = out / name
        compiled = run(gcc, "-Wall", "-Wextra", "-Werror", "-O1", "-g", "-pthread", *SANITIZE,
                       "-o", exe, C_DIR / f"{name}.c", "-ldl")  # fmt: skip
        assert compiled.returncode == 0, compiled.stderr
        built[name] = exe
    return built


def run_clean(*argv: str | Path) -> subprocess.CompletedProcess[str]:
    """Run a sanitized host; it must exit 0 with no sanitizer report."""
    result = subprocess.run([str(a) for a in argv], capture_output=True, text=True,
                            timeout=300, env=ENVIRONMENT)  # fmt: skip
    reports = [line for line in result.stderr.splitlines() if any(r in line for r in REPORTS)]
    assert reports == [], result.stderr[-4000:]
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-2000:]
    return result


def test_the_smoke_host_with_hostile_requests(sanitized: dict[str, Path]) -> None:
    # NULL, invalid UTF-8, not JSON, over the size limit and exactly at it.
    run_clean(sanitized["smoke"], sanitized["library"], BATTLE, str(protocol.MAX_REQUEST_BYTES))


@pytest.mark.parametrize("start", ["warm", "cold"])
def test_eight_threads_at_once(sanitized: dict[str, Path], start: str) -> None:
    cold = ["cold"] if start == "cold" else []
    result = run_clean(sanitized["stress"], sanitized["library"], BATTLE, "8", "100", *cold)
    assert "failures 0" in result.stdout


def test_the_smallest_host(sanitized: dict[str, Path]) -> None:
    requests = ['{"op":"version","id":1}', '{"op":"targets"', "\u00e9" * 1000, "[" * 300]
    result = run_clean(sanitized["call"], sanitized["library"], *requests)
    replies = [json.loads(line) for line in result.stdout.splitlines()]
    assert [r["ok"] for r in replies] == [True, False, False, False]


@pytest.mark.parametrize("version", ["4.4", "4.5", "4.6"])
def test_the_simulated_engine(sanitized: dict[str, Path], version: str) -> None:
    # RTLD_DEEPBIND is left out: AddressSanitizer refuses libraries loaded with it.
    result = run_clean(sanitized["godot_host"], sanitized["library"], version, "local", BATTLE,
                       pybridge.__version__)  # fmt: skip
    summary = next(line for line in result.stdout.splitlines() if line.startswith("summary"))
    assert "strings_live=0" in summary and "objects_live=0" in summary
