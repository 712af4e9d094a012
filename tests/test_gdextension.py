"""libpybridge as a Godot GDExtension, driven by a simulated engine host (tests/c/godot_host.c).

No desktop Godot 4 can run here, so the host plays the engine's part as the GDExtension
interface documents it: it serves the interface functions by name, holds real 8-byte
Strings and StringNames and 24-byte Variants, and uses the registered class the way the
engine does. Nothing here skips: without gcc these tests fail.
"""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path
from typing import Any

import pytest

import pybridge
from pybridge.devtools.build import build as ffi_build

from .godot_host_support import CFLAGS, HOST_SOURCE, HostRun, compile_host, parse
from .native_support import MECHANICS, check_mechanics_replies, mechanics_requests, run, tool

ROOT = Path(__file__).resolve().parents[1]
BATTLE = Path(pybridge.__file__).parent / "examples" / "demo_battle.json"
DOC = ROOT / "docs" / "gdextension.md"
ABI = {"pybridge_version", "pybridge_call", "pybridge_free"}
STRICT = ("-std=c11", "-Wpedantic", "-Wconversion", "-Wshadow", "-Wstrict-prototypes")

# Asked for by the library in every supported version, besides the registration function.
COMMON = [
    "print_error",
    "get_godot_version",
    "classdb_register_extension_class_method",
    "classdb_unregister_extension_class",
    "classdb_construct_object2",
    "object_set_instance",
    "string_name_new_with_latin1_chars",
    "string_new_with_utf8_chars_and_len2",
    "string_to_utf8_chars",
    "variant_get_type",
    "variant_destroy",
    "get_variant_from_type_constructor",
    "get_variant_to_type_constructor",
    "variant_get_ptr_destructor",
    "variant_stringify",
    "classdb_get_method_bind",
    "object_method_bind_ptrcall",
]
REGISTER = {
    "4.4": "classdb_register_extension_class4",
    "4.5": "classdb_register_extension_class5",
    "4.6": "classdb_register_extension_class5",
}


def _run(*argv: str | Path) -> subprocess.CompletedProcess[str]:
    return run(*argv, timeout=180)


@pytest.fixture(scope="session")
def library(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return ffi_build.build(tmp_path_factory.mktemp("gdextension-lib"))


@pytest.fixture(scope="session")
def broken_library(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A library whose embedded Python fails to start. The patch ends with the build: later
    builds in the session (the bench's, say) must get the real start-up code."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(
            ffi_build, "_init_code", lambda: "raise RuntimeError('simulated start-up failure')\n"
        )
        return ffi_build.build(tmp_path_factory.mktemp("gdextension-broken"))


@pytest.fixture(scope="session")
def host(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return compile_host(tmp_path_factory.mktemp("host") / "godot_host")


def _host(host: Path, library: Path, version: str, mode: str = "local", *extra: str) -> HostRun:
    result = _run(host, library, version, mode, BATTLE, pybridge.__version__, *extra)
    return parse(result.returncode, result.stdout, result.stderr)


def _unit(state: dict[str, Any], unit_id: str) -> dict[str, Any]:
    unit: dict[str, Any] = next(u for u in state["units"] if u["id"] == unit_id)
    return unit


def _no_leaks(run: HostRun) -> None:
    assert run.summary == {
        "strings_live": "0",
        "names_live": "0",
        "objects_live": "0",
        "print_errors": str(len(run.print_errors)),
    }


# -- the engine's view ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("version", "mode"), [("4.6", "local"), ("4.6", "deepbind"), ("4.5", "local"), ("4.4", "local")]
)
def test_the_engine_plays_strike_at_the_orc(
    host: Path, library: Path, version: str, mode: str
) -> None:
    run = _host(host, library, version, mode)
    assert run.returncode == 0, run.stderr
    assert run.entry == 1
    assert run.unknown == []
    assert run.print_errors == []

    # Registered once, at SCENE level, through the function this version offers.
    assert run.registered == [
        ["PyBridgeNative", "RefCounted", REGISTER[version], "exposed=1", "virtual=0", "abstract=0",
         "runtime=0"]
    ]  # fmt: skip
    assert run.methods == {
        "call_json": ["flags=1", "return=4", "arg=request:4"],  # (request: String) -> String
        "version": ["flags=5", "return=4"],  # const, () -> String
    }
    assert run.unregistered == ["PyBridgeNative"]

    # The same answers Python gives, through both calling conventions.
    assert run.replies["version_call"] == run.replies["version_ptrcall"] == pybridge.__version__
    opened = run.reply("open")["result"]["state"]
    assert (_unit(opened, "orc")["hp"], _unit(opened, "orc")["armor"]) == (34, 4)
    assert run.reply("targets")["result"]["candidates"] == ["goblin", "orc", "shaman"]
    played = run.reply("play")["result"]
    damage = next(e for e in played["events"] if e["type"] == "damage")
    assert (damage["unit"], damage["amount"], damage["blocked"]) == ("orc", 6, 4)
    assert (damage["hp_before"], damage["hp_after"]) == (34, 32)
    assert _unit(played["state"], "orc")["hp"] == 32
    assert run.reply("close")["ok"] is True

    # Text that is not ASCII survives String -> UTF-8 -> String.
    assert run.reply("unicode")["id"] == "\u00e9\u2192\U0001f600"
    assert run.reply("not_json")["error"]["code"] == "bad_json"
    assert run.reply("empty")["error"]["code"] == "bad_json"
    assert run.reply("null_args")["error"]["code"] == "null_request"

    # Wrong calls are call errors for the engine to report, never a crash.
    too_few, too_many, invalid_argument, string = 4, 3, 2, 4
    assert run.call_errors == {
        "too_few": (too_few, 0, 1),
        "too_many": (too_many, 0, 1),
        "version_too_many": (too_many, 0, 0),
        # nil and objects are what the engine does not convert to a String
        "from_nil": (invalid_argument, 0, string),
        "from_object": (invalid_argument, 0, string),
    }
    # Anything else is converted as the engine's String(value) does, then answered.
    for label, kind in (("from_int", "a number"), ("from_float", "a number"),
                        ("from_bool", "a boolean")):  # fmt: skip
        assert run.reply(label)["error"] == {
            "code": "bad_request",
            "message": f"request must be a JSON object, got {kind}",
            "where": "",
        }
    from_dictionary = run.reply("from_dictionary")  # { "op": "version", "id": 9 }
    assert from_dictionary["ok"] is True and from_dictionary["id"] == 9

    # The authoring operations and the turn loop answer through the engine too.
    assert run.reply("describe")["result"]["text"] == "Deal 15 damage to all enemies."
    assert run.reply("lint")["result"]["diagnostics"][0]["code"] == "PB002"
    assert run.reply("end_turn")["ok"] is True
    python = run.reply("protocol_version")["result"]["python"]
    assert python["path"] and python["version"].startswith("3.")
    assert run.threads == "4\t50\tbad=0"
    _no_leaks(run)


def test_the_engine_plays_the_games_extension_words(
    host: Path, library: Path, tmp_path: Path
) -> None:
    requests = tmp_path / "requests.jsonl"
    requests.write_text("\n".join(mechanics_requests()) + "\n", "utf-8")
    env = {**os.environ, "PYBRIDGE_EXTENSIONS": str(MECHANICS),
           "GODOT_HOST_REQUESTS": str(requests)}  # fmt: skip
    result = run(host, library, "4.6", "local", BATTLE, pybridge.__version__, timeout=180, env=env)
    seen = parse(result.returncode, result.stdout, result.stderr)
    assert seen.returncode == 0, seen.stderr
    check_mechanics_replies([seen.reply(f"request{n}") for n in range(1, 6)])
    assert seen.reply("play")["ok"]  # the scripted battle after them, on the built-in cards
    _no_leaks(seen)


@pytest.mark.parametrize("version", ["4.6", "4.4"])
def test_new_objects_get_postinitialize_as_godot_cpp_sends_it(
    host: Path, library: Path, version: str
) -> None:
    run = _host(host, library, version)
    assert run.returncode == 0, run.stderr
    # Object.notification, looked up once by the hash the engine publishes...
    assert run.method_binds == [["Object", "notification", "4023243586"]]
    # ...and sent once: the host creates one object that asks for it and one that does not
    # (each checks its own count; the host fails the run otherwise).
    assert run.notifications == [(0, 0)]  # (NOTIFICATION_POSTINITIALIZE, not reversed)


@pytest.mark.parametrize("version", ["4.6", "4.4"])
def test_the_library_asks_only_for_what_this_version_has(
    host: Path, library: Path, version: str
) -> None:
    run = _host(host, library, version)
    assert run.returncode == 0, run.stderr
    # get_godot_version comes first: it decides between ..._class4 and ..._class5.
    assert run.requested[:2] == ["print_error", "get_godot_version"]
    assert sorted(run.requested) == sorted([*COMMON, REGISTER[version]])
    assert run.unknown == []


def test_godot_43_is_refused_with_a_reason(host: Path, library: Path) -> None:
    run = _host(host, library, "4.3")
    assert run.returncode == 0, run.stderr
    assert run.entry == 0
    assert run.requested == ["print_error", "get_godot_version"]
    assert run.print_errors == ["PyBridge needs Godot 4.4 or newer, this is 4.3"]
    assert run.registered == []
    _no_leaks(run)


def test_a_failed_python_start_is_reported_once(host: Path, broken_library: Path) -> None:
    run = _host(host, broken_library, "4.6", "local", "unavailable")
    assert run.returncode == 0, run.stderr
    assert "simulated start-up failure" in run.stderr  # the reason, once, on stderr
    assert run.stderr.count("simulated start-up failure") == 1
    labels = ["unavailable_call", "unavailable_ptrcall", "unavailable_again"]
    assert [run.reply(label)["error"]["code"] for label in labels] == ["runtime_unavailable"] * 3
    assert len(run.print_errors) == 1
    assert "runtime_unavailable" in run.print_errors[0]
    # The class stays usable: version() needs no Python.
    assert run.replies["version_call"] == pybridge.__version__
    assert run.unregistered == ["PyBridgeNative"]
    _no_leaks(run)


# -- the library and its files ----------------------------------------------------------------


def test_exports_the_abi_and_the_entry_symbol_only(library: Path) -> None:
    result = _run(tool("nm"), "-D", "--defined-only", library)
    exported = {line.split()[-1] for line in result.stdout.splitlines() if " T " in line}
    assert exported == ABI | {ffi_build.GDEXTENSION_ENTRY, f"PyInit_{ffi_build.MODULE_NAME}"}


def test_the_extension_c_is_warning_free_under_strict_flags() -> None:
    # cffi compiles quietly, so check the GDExtension half (and the header) here.
    result = _run(
        tool("gcc"),
        *CFLAGS,
        *STRICT,
        "-fsyntax-only",
        "-DPYBRIDGE_MAX_REQUEST_BYTES=4194304",
        "-I",
        ffi_build.FFI_DIR,
        ffi_build.GDEXTENSION_SOURCE,
    )
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""


def test_library_and_host_share_one_header() -> None:
    host = HOST_SOURCE.read_text("utf-8")
    extension = ffi_build.GDEXTENSION_SOURCE.read_text("utf-8")
    assert '#include "../../pybridge/ffi/gdextension_api.h"' in host
    assert '#include "gdextension_api.h"' in extension
    assert ffi_build.GDEXTENSION_HEADER.is_file()
    headers = [h.read_text("utf-8") for h in sorted(HOST_SOURCE.parent.glob("host_*.h"))]
    assert len(headers) == 2
    for source in (host, *headers, extension):  # none declares interface types of its own
        assert not re.search(r"typedef[^;]*\bGDExtension", source)


def test_the_doc_lists_the_functions_the_host_recorded(host: Path, library: Path) -> None:
    text = DOC.read_text("utf-8")
    section = text.split("<!-- interface-functions -->")[1].split("<!-- /interface-functions")[0]
    documented = set(re.findall(r"^\| `([a-z0-9_]+)`", section, re.MULTILINE))
    recorded = set()
    for version in ("4.6", "4.4"):
        run = _host(host, library, version)
        assert run.returncode == 0, run.stderr
        recorded |= set(run.requested)
    assert documented == recorded
