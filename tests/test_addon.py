"""The native library inside the addon: platform folders, the written ``.gdextension`` file,
the project's ``extension_list.cfg``, ``pybridge build``'s targets, and run-path removal."""

from __future__ import annotations

import ctypes
import re
import subprocess
import sys
from pathlib import Path

import pytest

import pybridge
from pybridge.cli import main
from pybridge.devtools.build import addon, elf
from pybridge.devtools.build import build as ffi_build

from .addon_support import ADDON, copy_addon, gdextension_dependencies
from .native_support import run, tool

ROOT = Path(__file__).resolve().parents[1]


def fake_platform(addon_dir: Path, tag: str, *files: str) -> Path:
    """A platform folder holding a (fake) library and ``files``."""
    folder = addon.platform_dir(addon_dir, tag)
    for name in (ffi_build.LIBRARY_NAME, *files):
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_bytes(b"\x7fELF fake")
    return folder


def project(tmp_path: Path) -> Path:
    game = tmp_path / "game"
    game.mkdir()
    (game / "project.godot").write_text("config_version=5\n")
    copy_addon(game / addon.ADDON_IN_PROJECT)
    return game


# -- the .gdextension file -------------------------------------------------------------------


def test_the_checkout_commits_no_gdextension_file() -> None:
    # Written by the build for the platforms built: a committed one would name a library
    # that a fresh copy of the addon does not have, an error on every editor start.
    for built in (ADDON / addon.GDEXTENSION_FILE, ADDON / "bin" / "linux.x86_64" / "x.so"):
        ignored = subprocess.run(["git", "check-ignore", "-q", str(built)], cwd=ROOT)
        assert ignored.returncode == 0, built


def test_no_library_no_file(tmp_path: Path) -> None:
    addon_dir = copy_addon(tmp_path / "addon")
    assert addon.gdextension_text(addon_dir) is None
    (addon_dir / addon.GDEXTENSION_FILE).write_text("stale")
    assert addon.write_gdextension(addon_dir) is None
    assert not (addon_dir / addon.GDEXTENSION_FILE).exists()
    # A folder without its library is not a built platform.
    (addon.platform_dir(addon_dir, "linux.x86_64") / "pybridge_python").mkdir(parents=True)
    assert addon.gdextension_text(addon_dir) is None


def test_entries_only_for_the_platforms_built(tmp_path: Path) -> None:
    addon_dir = copy_addon(tmp_path / "addon")
    fake_platform(addon_dir, "linux.x86_64", "libpython3.11.so.1.0", "home/a.zip", "home/ext/b.so")
    fake_platform(addon_dir, "linux.arm64")
    text = addon.write_gdextension(addon_dir).read_text("utf-8")  # type: ignore[union-attr]
    libraries = re.findall(r"^(\S+) = \"(\S+)\"$", text.split("[libraries]")[1], re.MULTILINE)
    assert libraries == [
        ("linux.arm64", "bin/linux.arm64/libpybridge.so"),
        ("linux.x86_64", "bin/linux.x86_64/libpybridge.so"),
    ]
    assert "windows" not in text and "macos" not in text
    assert 'entry_symbol = "pybridge_gdextension_init"' in text
    assert 'compatibility_minimum = "4.4"' in text and "reloadable = false" in text
    library, dependencies = gdextension_dependencies(addon_dir)
    assert library == "bin/linux.x86_64/libpybridge.so"
    assert dependencies == {  # each file where it lies beside the library
        "bin/linux.x86_64/home/a.zip": "home",
        "bin/linux.x86_64/home/ext/b.so": "home/ext",
        "bin/linux.x86_64/libpython3.11.so.1.0": "",
    }
    assert "linux.arm64 = {" not in text  # nothing beside that library


def test_install_platform_replaces_the_folder_and_keeps_nothing_stale(tmp_path: Path) -> None:
    addon_dir = copy_addon(tmp_path / "addon")
    folder = fake_platform(addon_dir, "linux.x86_64", "libpython3.11.so.1.0", "home/a.zip")
    old_library = (folder / ffi_build.LIBRARY_NAME).stat().st_ino

    def dev_build(into: Path) -> None:
        (into / ffi_build.LIBRARY_NAME).write_bytes(b"new")

    assert addon.install_platform(addon_dir, "linux.x86_64", dev_build) == folder
    assert sorted(p.name for p in folder.iterdir()) == [ffi_build.LIBRARY_NAME]
    assert (folder / ffi_build.LIBRARY_NAME).read_bytes() == b"new"
    assert (folder / ffi_build.LIBRARY_NAME).stat().st_ino != old_library  # a new file
    assert [p.name for p in folder.parent.iterdir()] == ["linux.x86_64"]  # no staging left

    def failing(into: Path) -> None:
        (into / "half").write_text("x")
        raise ffi_build.BuildError("compiler died")

    with pytest.raises(ffi_build.BuildError):
        addon.install_platform(addon_dir, "linux.x86_64", failing)
    assert (folder / ffi_build.LIBRARY_NAME).read_bytes() == b"new"  # untouched
    assert [p.name for p in folder.parent.iterdir()] == ["linux.x86_64"]


# -- extension_list.cfg ----------------------------------------------------------------------


def test_register_extension(tmp_path: Path) -> None:
    game = project(tmp_path)
    gdextension = game / addon.ADDON_IN_PROJECT / addon.GDEXTENSION_FILE
    listed = addon.register_extension(game, gdextension)
    entry = "res://addons/pybridge_targeting/pybridge.gdextension"
    assert listed == game / ".godot" / "extension_list.cfg"
    assert listed.read_text() == f"{entry}\n"
    listed.write_text("res://other/other.gdextension\n\n")
    addon.register_extension(game, gdextension)
    addon.register_extension(game, gdextension)  # once only
    assert listed.read_text() == f"res://other/other.gdextension\n{entry}\n"
    addon.register_extension(game, gdextension, present=False)
    assert listed.read_text() == "res://other/other.gdextension\n"
    with pytest.raises(ffi_build.BuildError, match="not inside the Godot project"):
        addon.register_extension(game, tmp_path / "elsewhere.gdextension")
    with pytest.raises(ffi_build.BuildError, match="not a Godot project"):
        addon.register_extension(tmp_path, gdextension)


# -- pybridge build ---------------------------------------------------------------------------


def test_build_into_a_project_writes_the_file_and_registers_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game = project(tmp_path)
    assert main(["build", "--project", str(game)]) == 0
    addon_dir = game / addon.ADDON_IN_PROJECT
    library = addon.platform_dir(addon_dir, "linux.x86_64") / ffi_build.LIBRARY_NAME
    assert capsys.readouterr().out.splitlines() == [
        str(library),
        str(addon_dir / addon.GDEXTENSION_FILE),
        str(game / ".godot" / "extension_list.cfg"),
    ]
    text = (addon_dir / addon.GDEXTENSION_FILE).read_text()
    assert 'linux.x86_64 = "bin/linux.x86_64/libpybridge.so"' in text
    assert "[dependencies]" not in text  # this machine's Python: nothing travels with it
    listed = (game / ".godot" / "extension_list.cfg").read_text()
    assert listed == "res://addons/pybridge_targeting/pybridge.gdextension\n"
    lib = ctypes.CDLL(str(library))
    lib.pybridge_version.restype = ctypes.c_char_p
    assert lib.pybridge_version().decode() == pybridge.__version__


def test_build_refuses_unclear_targets(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "empty").mkdir()
    assert main(["build", "--project", str(tmp_path / "empty")]) == 2
    assert "copy the addon folder there first" in capsys.readouterr().err
    assert main(["build", "--addon", str(tmp_path)]) == 2
    assert "no plugin.cfg" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["build", "--addon", str(tmp_path), "--output-dir", str(tmp_path)])


def test_this_platform(monkeypatch: pytest.MonkeyPatch) -> None:
    assert addon.this_platform() in addon.PLATFORM_LIBRARIES
    monkeypatch.setattr(sys, "platform", "win32")
    with pytest.raises(ffi_build.BuildError, match=r"docs/windows-macos\.md"):
        addon.this_platform()


# -- run paths ---------------------------------------------------------------------------------


def test_drop_run_paths(tmp_path: Path) -> None:
    source = tmp_path / "lib.c"
    source.write_text("int answer(void) { return 42; }\n")
    library = tmp_path / "libanswer.so"
    built = run(tool("gcc"), "-shared", "-fPIC", "-o", library, source,
                "-Wl,-rpath,/build/machine/lib:/other", "-Wl,--enable-new-dtags")  # fmt: skip
    assert built.returncode == 0, built.stderr
    assert elf.run_path_count(library) == 1
    assert elf.drop_run_paths(library) == 1
    assert elf.run_path_count(library) == 0 and elf.drop_run_paths(library) == 0
    assert "RUNPATH" not in run(tool("readelf"), "-d", library).stdout
    assert ctypes.CDLL(str(library)).answer() == 42  # still a working library
    (tmp_path / "text").write_text("not elf")
    with pytest.raises(elf.ElfError, match="not a 64-bit little-endian ELF"):
        elf.drop_run_paths(tmp_path / "text")
