"""The self-contained native bundle (``pybridge build --bundle``), run where no Python exists.

One bundle is built per module, into a copy of a Godot project with the addon and the demo's
extension file (named in its project.godot, packed into the bundle), by the Python that runs
the tests; a second one, whose project names no extension, by a virtualenv of Debian's own
python3 (a static executable beside a shared libpython) plays in an empty root of its own. An
empty root then gets only: the bundle, laid out beside the "game" the way Godot's export copies
the ``.gdextension`` library and its ``[dependencies]``; the simulated Godot host
(tests/c/godot_host.c, compiled); and the C libraries the host links, found with ldd. The host
plays the demo's extension cards and the scripted battle there under chroot (or, without the
right to chroot, in a user namespace with ``unshare --root``). Nothing here skips: without gcc,
ldd or any way to change the root these tests fail.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

import pybridge
from pybridge import extensions, payload
from pybridge.cli import main
from pybridge.devtools.build import addon, bundle, elf, stdlib
from pybridge.devtools.build import build as ffi_build

from .addon_support import copy_addon, gdextension_dependencies
from .godot_host_support import HostRun, compile_host, parse
from .native_support import (
    MECHANICS,
    check_mechanics_replies,
    check_refused_without_mechanics,
    mechanics_requests,
    run,
    tool,
)

ROOT = Path(__file__).resolve().parents[1]
BATTLE = Path(pybridge.__file__).parent / "examples" / "demo_battle.json"
GAME = "/game"  # where the game lies inside the empty root
SIZE_GOAL = 25 * 1000 * 1000  # bytes, uncompressed
#: What a game must not carry: developer tools and demo data.
LEFT_BEHIND = re.compile(
    r"pybridge/(bench/|fuzzing|ffi/(build|bundle|addon|command|stdlib)|pack|web|demo|cli"
    r"|autoplay|narrate|examples/|transports/|authoring/cli)"
)


#: A game's project.godot that names its extension file once.
WITH_EXTENSIONS = ('config_version=5\n\n[application]\nconfig/name="g"\n\n[pybridge]\n\n'
                   'extensions=PackedStringArray("res://extensions/mechanics.py")\n')  # fmt: skip


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    game = tmp_path_factory.mktemp("bundle") / "game_project"
    (game / "extensions").mkdir(parents=True)
    shutil.copyfile(MECHANICS, game / "extensions" / "mechanics.py")
    (game / "project.godot").write_text(WITH_EXTENSIONS)
    copy_addon(game / addon.ADDON_IN_PROJECT)
    assert main(["build", "--bundle", "--project", str(game)]) == 0
    return game


@pytest.fixture(scope="module")
def platform_folder(project: Path) -> Path:
    return addon.platform_dir(project / addon.ADDON_IN_PROJECT, "linux.x86_64")


def exported_like_godot(addon_dir: Path, game: Path, tag: str = "linux.x86_64") -> None:
    """Copy the library and its dependencies beside ``game`` as Godot's PC export does: each
    file into the export folder joined with its target."""
    library, dependencies = gdextension_dependencies(addon_dir, tag)
    game.mkdir(parents=True, exist_ok=True)
    shutil.copy2(addon_dir / library, game / Path(library).name)
    for source, target in dependencies.items():
        (game / target).mkdir(parents=True, exist_ok=True)
        shutil.copy2(addon_dir / source, game / target / Path(source).name)


def linked_libraries(program: Path) -> list[Path]:
    """The shared libraries ``program`` loads, as ldd resolves them (the loader included)."""
    result = run(tool("ldd"), program)
    assert result.returncode == 0, result.stderr
    return [Path(p) for p in re.findall(r"(/\S+) \(0x", result.stdout)]


def make_empty_root(project: Path, root: Path) -> Path:
    """``root`` with only the exported game, the host and the C libraries it links."""
    game = root / GAME.lstrip("/")
    exported_like_godot(project / addon.ADDON_IN_PROJECT, game)
    host = compile_host(game / "godot_host")
    shutil.copyfile(BATTLE, game / "demo_battle.json")
    (game / "requests.jsonl").write_text("\n".join(mechanics_requests()) + "\n", "utf-8")
    for library in linked_libraries(host):
        inside = root / library.relative_to("/")
        inside.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(library, inside)  # follows symlinks: the file under the linked name
    return root


@pytest.fixture(scope="module")
def empty_root(project: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_empty_root(project, tmp_path_factory.mktemp("empty_root"))


def in_root(root: Path, *argv: str, **env: str) -> subprocess.CompletedProcess[str]:
    """Run ``argv`` with ``root`` as its root directory: chroot, else a user namespace."""
    attempts = [[tool("chroot"), str(root)], [tool("unshare"), "--map-root-user", f"--root={root}"]]
    failures = []
    for prefix in attempts:
        result = subprocess.run([*prefix, *argv], capture_output=True, text=True, timeout=120,
                                env={"PATH": "/nowhere", **env})  # fmt: skip
        if result.returncode != 125 and "Operation not permitted" not in result.stderr[:300]:
            return result
        failures.append(f"{prefix[0]}: {result.stderr.strip()}")
    pytest.fail("cannot change the root directory here:\n" + "\n".join(failures))


def play_in_root(root: Path) -> HostRun:
    """The host plays the demo's extension cards (reply request1...), then the battle."""
    result = in_root(root, f"{GAME}/godot_host", f"{GAME}/{ffi_build.LIBRARY_NAME}", "4.6",
                     "local", f"{GAME}/demo_battle.json", pybridge.__version__,
                     GODOT_HOST_REQUESTS=f"{GAME}/requests.jsonl")  # fmt: skip
    return parse(result.returncode, result.stdout, result.stderr)


@pytest.fixture(scope="module")
def battle_in_root(empty_root: Path) -> HostRun:
    return play_in_root(empty_root)


# -- where no Python is installed --------------------------------------------------------------


def test_the_root_holds_only_the_bundle_the_host_and_its_c_libraries(empty_root: Path) -> None:
    files = sorted("/" + p.relative_to(empty_root).as_posix() for p in empty_root.rglob("*")
                   if p.is_file())  # fmt: skip
    outside_game = [f for f in files if not f.startswith(GAME + "/")]
    assert outside_game and all(re.search(r"/(ld-linux|lib(c|m|dl|pthread))[-.]", f)
                                for f in outside_game), outside_game  # fmt: skip
    assert not any("python" in f for f in outside_game)


def test_a_scripted_battle_in_the_empty_root(battle_in_root: HostRun) -> None:
    run = battle_in_root
    assert run.returncode == 0, run.stderr
    assert run.print_errors == []
    assert run.reply("targets")["result"]["candidates"] == ["goblin", "orc", "shaman"]
    damage = next(e for e in run.reply("play")["result"]["events"] if e["type"] == "damage")
    assert (damage["unit"], damage["hp_before"], damage["hp_after"]) == ("orc", 34, 32)
    assert run.reply("describe")["result"]["text"] == "Deal 15 damage to all enemies."
    assert run.reply("lint")["result"]["diagnostics"][0]["code"] == "PB002"
    assert run.reply("end_turn")["ok"] and run.reply("close")["ok"]
    assert run.threads == "4\t50\tbad=0"
    assert run.summary["strings_live"] == "0" and run.summary["objects_live"] == "0"


def test_the_games_extension_plays_in_the_empty_root(battle_in_root: HostRun) -> None:
    check_mechanics_replies([battle_in_root.reply(f"request{n}") for n in range(1, 6)])


def test_the_bundle_packs_the_projects_extension_files_beside_the_library(
    project: Path, platform_folder: Path
) -> None:
    game = platform_folder / ffi_build.BUNDLE_HOME / extensions.BUNDLE_FOLDER
    assert (game / extensions.BUNDLE_LIST).read_text("utf-8") == "extensions/mechanics.py\n"
    assert (game / "extensions" / "mechanics.py").read_bytes() == MECHANICS.read_bytes()
    packed = sorted(p.name for p in game.rglob("*") if p.is_file())
    assert packed == [extensions.BUNDLE_LIST, "mechanics.py"]  # no bytecode beside it
    # Listed under [dependencies]: Godot's export copies it beside the game.
    text = (project / addon.ADDON_IN_PROJECT / addon.GDEXTENSION_FILE).read_text("utf-8")
    inside = f"{ffi_build.BUNDLE_HOME}/{extensions.BUNDLE_FOLDER}/extensions"
    assert f'"bin/linux.x86_64/{inside}/mechanics.py": "{inside}"' in text


def test_the_interpreter_lives_inside_the_bundle(battle_in_root: HostRun) -> None:
    python = battle_in_root.reply("protocol_version")["result"]["python"]
    home = f"{GAME}/{ffi_build.BUNDLE_HOME}"
    assert python["home"] == home
    assert python["path"] == [f"{home}/{name}" for name in ffi_build.BUNDLE_PATHS]
    assert python["version"] == ".".join(map(str, sys.version_info[:3]))


def test_as_godot_opens_it_and_with_a_stray_libpython_on_the_library_path(
    empty_root: Path,
) -> None:
    # Godot's Linux build opens extensions with RTLD_DEEPBIND; a player's LD_LIBRARY_PATH may
    # name another libpython3.11 (here a broken one): the bundle's own is still the one used.
    decoy = empty_root / "decoy"
    decoy.mkdir()
    (decoy / bundle.libpython().name).write_bytes(b"not a library")
    try:
        result = in_root(empty_root, f"{GAME}/godot_host", f"{GAME}/{ffi_build.LIBRARY_NAME}",
                         "4.4", "deepbind", f"{GAME}/demo_battle.json", pybridge.__version__,
                         LD_LIBRARY_PATH="/decoy")  # fmt: skip
    finally:
        shutil.rmtree(decoy)
    run = parse(result.returncode, result.stdout, result.stderr)
    assert run.returncode == 0, run.stderr
    assert run.reply("protocol_version")["result"]["python"]["home"].startswith(GAME)


# -- what the bundle holds -----------------------------------------------------------------


def test_the_gdextension_names_only_the_platform_built(project: Path) -> None:
    text = (project / addon.ADDON_IN_PROJECT / addon.GDEXTENSION_FILE).read_text("utf-8")
    assert re.findall(r"^(\w+\.\w+) = \"", text, re.M) == ["linux.x86_64"]
    assert "windows" not in text


def test_bundle_size(platform_folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    sizes = {p.relative_to(platform_folder).as_posix(): p.stat().st_size
             for p in sorted(platform_folder.rglob("*")) if p.is_file()}  # fmt: skip
    total = sum(sizes.values())
    with capsys.disabled():
        print(f"\nbundle: {total:,} bytes in {len(sizes)} files (goal {SIZE_GOAL:,})")
    assert total <= SIZE_GOAL, sizes
    assert sizes[ffi_build.LIBRARY_NAME] < 200_000  # stripped: the C half and cffi's glue


def test_the_package_zip_carries_the_runtime_without_developer_tools(
    platform_folder: Path,
) -> None:
    archive = zipfile.ZipFile(platform_folder / ffi_build.BUNDLE_HOME / ffi_build.PAYLOAD_ZIP)
    names = set(archive.namelist())
    for needed in ("protocol", "answers", "runtime/play", "authoring/lint", "authoring/describe",
                   "ffi/embedded"):  # fmt: skip
        assert f"pybridge/{needed}.py" in names and f"pybridge/{needed}.pyc" in names
    assert [n for n in names if LEFT_BEHIND.match(n)] == []


def test_the_stdlib_zip_is_trimmed_and_stored(platform_folder: Path) -> None:
    home = platform_folder / ffi_build.BUNDLE_HOME
    archive = zipfile.ZipFile(home / ffi_build.STDLIB_ZIP)
    names = set(archive.namelist())
    assert {"json/__init__.py", "json/decoder.pyc", "encodings/utf_8.py", "re/_parser.py",
            "dataclasses.py", "typing.py"} <= names  # fmt: skip
    for unwanted in ("asyncio/", "email/", "http/", "unittest/", "tkinter/", "sqlite3/", "ssl"):
        assert not any(n.startswith(unwanted) for n in names), unwanted
    assert {i.compress_type for i in archive.infolist()} == {zipfile.ZIP_STORED}
    extensions = sorted(p.name.split(".")[0] for p in (home / ffi_build.EXTENSIONS_DIR).iterdir())
    assert "_cffi_backend" in extensions and "_json" in extensions
    hashes = set(stdlib.COMPANIONS["hashlib"])  # hashlib's built-in hashes, no OpenSSL
    assert hashes <= set(extensions) and "_hashlib" not in extensions
    assert len(set(extensions) - hashes) < 12, extensions


def test_no_path_of_the_building_machine_inside(platform_folder: Path) -> None:
    runpath = run(tool("readelf"), "-d", platform_folder / ffi_build.LIBRARY_NAME).stdout
    assert re.findall(r"\((?:RPATH|RUNPATH)\)\s+Library \w+: \[(.*)\]", runpath) == ["$ORIGIN"]
    checkout_and_venv = {str(ROOT), sys.prefix}  # sys.prefix is the venv when there is one
    machine = checkout_and_venv | {sys.base_prefix, str(Path(sys.executable).parent)}
    ours = {ffi_build.LIBRARY_NAME, ffi_build.PAYLOAD_ZIP, ffi_build.STDLIB_ZIP}
    game = platform_folder / ffi_build.BUNDLE_HOME / extensions.BUNDLE_FOLDER  # the game's files
    for path in sorted(p for p in platform_folder.rglob("*") if p.is_file()):
        data = path.read_bytes()
        if path.name in ours or game in path.parents:
            assert [m for m in machine if m.encode() in data] == [], path
        else:
            # Copied libraries may still hold their build prefix as text (libpython's unused
            # default home, say), but no run path, and nothing of this checkout or venv.
            assert elf.run_path_count(path) == 0, path
            assert [m for m in checkout_and_venv if m.encode() in data] == [], path


@pytest.mark.parametrize(
    ("remove", "reason"),
    [
        (ffi_build.BUNDLE_HOME, "the bundled Python is missing"),
        (f"{ffi_build.BUNDLE_HOME}/{ffi_build.STDLIB_ZIP}", "the bundled Python is incomplete"),
    ],
)
def test_a_damaged_bundle_is_reported_not_a_crash(
    platform_folder: Path, tmp_path: Path, remove: str, reason: str
) -> None:
    damaged = Path(shutil.copytree(platform_folder, tmp_path / "damaged"))
    target = damaged / remove
    shutil.rmtree(target) if target.is_dir() else target.unlink()
    host = compile_host(tmp_path / "godot_host")
    result = run(host, damaged / ffi_build.LIBRARY_NAME, "4.6", "local", BATTLE,
                 pybridge.__version__, "unavailable")  # fmt: skip
    seen = parse(result.returncode, result.stdout, result.stderr)
    assert seen.returncode == 0, seen.stderr
    assert reason in seen.stderr and str(damaged) in seen.stderr
    assert seen.reply("unavailable_call")["error"]["code"] == "runtime_unavailable"
    assert os.path.exists(damaged / ffi_build.LIBRARY_NAME)


def test_a_python_not_running_on_its_libpython_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    assert bundle._builds_in(bundle.libpython())  # every built-in module is in the library
    monkeypatch.setattr(bundle, "_running_on", lambda library: False)
    monkeypatch.setattr(sys, "builtin_module_names", (*sys.builtin_module_names, "_elsewhere"))
    with pytest.raises(ffi_build.BuildError, match="does not run on its shared libpython"):
        bundle.libpython()


def test_a_module_missing_from_the_table_fails_the_build(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # protocol.py imports answers.py: a table that leaves it behind cannot ship.
    monkeypatch.setattr(payload, "LEFT_BEHIND", (*payload.LEFT_BEHIND, ("answers.py", "test")))
    zipped = tmp_path / ffi_build.PAYLOAD_ZIP
    zipped.write_bytes(payload.payload_zip(with_bytecode=False))
    assert "pybridge/answers.py" not in zipfile.ZipFile(zipped).namelist()
    with pytest.raises(stdlib.TraceError, match=r"No module named 'pybridge\.answers'"):
        stdlib.trace(zipped, json.loads(BATTLE.read_text("utf-8")))


# -- built from Debian's own python3 -------------------------------------------------------

#: Debian's python3: a static executable beside a shared libpython3.11.so built from the same
#: modules. A virtualenv of it gets the pinned cffi and setuptools (the [ffi] extra).
DEBIAN_PYTHON = Path("/usr/bin/python3")
FFI_PINS = ("cffi==2.1.1", "setuptools==84.2.1")


@pytest.fixture(scope="module")
def debian_project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    assert DEBIAN_PYTHON.is_file(), "Debian's python3 is needed (apt-get install python3)"
    work = tmp_path_factory.mktemp("debian")
    venv = work / "venv"
    made = run(DEBIAN_PYTHON, "-m", "venv", venv)
    assert made.returncode == 0, made.stderr
    installed = run(venv / "bin" / "python", "-m", "pip", "install", "--quiet", *FFI_PINS,
                    timeout=600)  # fmt: skip
    assert installed.returncode == 0, installed.stderr
    game = work / "game_project"
    game.mkdir()
    (game / "project.godot").write_text('config_version=5\n\n[application]\nconfig/name="g"\n')
    copy_addon(game / addon.ADDON_IN_PROJECT)
    built = subprocess.run([venv / "bin" / "python", "-m", "pybridge.cli", "build", "--bundle",
                            "--project", game], capture_output=True, text=True, timeout=600,
                           env={**os.environ, "PYTHONPATH": str(ROOT)})  # fmt: skip
    assert built.returncode == 0, built.stderr
    assert "libpython3.11.so.1.0" in built.stdout
    return game


def test_debian_python3_is_static_with_a_shared_libpython() -> None:
    check = "import sysconfig; print(sysconfig.get_config_var('Py_ENABLE_SHARED'))"
    assert run(DEBIAN_PYTHON, "-c", check).stdout.strip() == "1"
    maps = run(DEBIAN_PYTHON, "-c", "print(open('/proc/self/maps').read())").stdout
    assert "libpython3" not in maps  # the executable has its own copy: the old refusal's case


def test_a_bundle_from_debian_python3_plays_in_the_empty_root(
    debian_project: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    root = make_empty_root(debian_project, tmp_path_factory.mktemp("debian_root"))
    seen = play_in_root(root)
    assert seen.returncode == 0, seen.stderr
    assert seen.print_errors == []
    check_refused_without_mechanics(seen.reply("request1"))  # its project names none
    damage = next(e for e in seen.reply("play")["result"]["events"] if e["type"] == "damage")
    assert (damage["unit"], damage["hp_before"], damage["hp_after"]) == ("orc", 34, 32)
    assert seen.threads == "4\t50\tbad=0"
    python = seen.reply("protocol_version")["result"]["python"]
    assert python["home"] == f"{GAME}/{ffi_build.BUNDLE_HOME}"
    debian = run(DEBIAN_PYTHON, "-c", "import platform; print(platform.python_version())")
    assert python["version"] == debian.stdout.strip()
    folder = addon.platform_dir(debian_project / addon.ADDON_IN_PROJECT, "linux.x86_64")
    total = sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())
    assert total <= SIZE_GOAL


# -- built from an interpreter itself, with no virtualenv ----------------------------------
def _bare_interpreters() -> list[tuple[str, Path, str]]:
    """(name, interpreter, extra import path): Debian's python3 and the interpreter this test
    suite's virtualenv was made from (pyenv's here), each run directly, with the pinned cffi
    of the suite's virtualenv on its path (both are CPython 3.11: one wheel serves both).
    Debian's own python3-cffi would not do: its backend links the system's libffi, which a
    bundle does not carry."""
    base = Path(getattr(sys, "_base_executable", sys.executable))
    site = next(p for p in sys.path if p.endswith("site-packages"))
    return [("debian", DEBIAN_PYTHON, site), ("base", base, site)]


@pytest.mark.parametrize(("name", "python", "extra"), _bare_interpreters(),
                         ids=[n for n, _, _ in _bare_interpreters()])  # fmt: skip
def test_a_bundle_builds_from_the_interpreter_itself_and_plays_in_the_empty_root(
    name: str, python: Path, extra: str, tmp_path_factory: pytest.TempPathFactory
) -> None:
    work = tmp_path_factory.mktemp(f"bare_{name}")
    game = work / "game_project"
    game.mkdir()
    (game / "project.godot").write_text('config_version=5\n\n[application]\nconfig/name="g"\n')
    copy_addon(game / addon.ADDON_IN_PROJECT)
    path = os.pathsep.join(p for p in (str(ROOT), extra) if p)
    built = subprocess.run([python, "-m", "pybridge.cli", "build", "--bundle", "--project", game],
                           capture_output=True, text=True, timeout=600,
                           env={**os.environ, "PYTHONPATH": path})  # fmt: skip
    assert built.returncode == 0, built.stderr
    seen = play_in_root(make_empty_root(game, work / "root"))
    assert seen.returncode == 0, seen.stderr
    damage = next(e for e in seen.reply("play")["result"]["events"] if e["type"] == "damage")
    assert (damage["unit"], damage["hp_before"], damage["hp_after"]) == ("orc", 34, 32)
    version = run(python, "-c", "import platform; print(platform.python_version())")
    assert seen.reply("protocol_version")["result"]["python"]["version"] == version.stdout.strip()
