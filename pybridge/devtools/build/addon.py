"""The native library inside a Godot addon: platform folders, the ``.gdextension`` file that
lists what was built, and the project's ``extension_list.cfg``.

An addon holds one folder per platform it was built for, ``bin/<platform>/`` (for example
``bin/linux.x86_64/``), with the library and, in a bundle, the files it needs. The
``.gdextension`` file is written from those folders, never by hand: a platform without a
built library gets no entry (Godot would log a missing library on every start of an editor on
that platform), every other file of a platform folder is listed under ``[dependencies]`` (so
Godot's export copies it beside the game), and an addon with no library at all gets no
``.gdextension`` file. Godot loads an extension only once ``.godot/extension_list.cfg`` of the
project names it; the editor writes that file when it scans the project, and
:func:`register_extension` writes it for projects that were never opened in an editor.
"""

from __future__ import annotations

import os
import platform
import shutil
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

from ...folders import walk
from .build import GDEXTENSION_ENTRY, LIBRARY_NAME, WINDOWS_LIBRARY_NAME, BuildError

ADDON_NAME = "pybridge_targeting"
GDEXTENSION_FILE = "pybridge.gdextension"
#: Where a project keeps the addon, and the list of extensions Godot loads.
ADDON_IN_PROJECT = Path("addons") / ADDON_NAME
EXTENSION_LIST = Path(".godot") / "extension_list.cfg"
#: The oldest engine the library serves (gdextension.c checks it too).
COMPATIBILITY_MINIMUM = "4.4"

#: Godot platform tag -> the library's file name in ``bin/<tag>/``: what can be built.
PLATFORM_LIBRARIES: dict[str, str] = {
    "linux.x86_64": LIBRARY_NAME,
    "linux.arm64": LIBRARY_NAME,
    "windows.x86_64": WINDOWS_LIBRARY_NAME,
}
#: Platforms built on any Linux machine (cross-compiled), besides this machine's own.
CROSS_BUILT = ("windows.x86_64",)
_MACHINES = {"x86_64": "x86_64", "amd64": "x86_64", "aarch64": "arm64", "arm64": "arm64"}


def this_platform() -> str:
    """The Godot platform tag of this machine, if the library can be built here."""
    machine = _MACHINES.get(platform.machine().lower())
    tag = f"linux.{machine}" if sys.platform.startswith("linux") and machine else ""
    if tag not in PLATFORM_LIBRARIES:
        raise BuildError(
            f"the native library is built on Linux (x86_64 or arm64), not on {sys.platform} "
            f"{platform.machine()}; see docs/windows-macos.md"
        )
    return tag


def platform_tag(name: str) -> str:
    """``windows-x86_64`` (or ``windows.x86_64``) -> the Godot tag ``windows.x86_64``, if
    this machine can build a bundle for it."""
    tag = name.strip().lower().replace("-", ".", 1)
    if tag not in PLATFORM_LIBRARIES:
        known = ", ".join(t.replace(".", "-") for t in PLATFORM_LIBRARIES)
        raise BuildError(f"unknown platform {name!r}: one of {known}")
    if tag not in CROSS_BUILT and tag != this_platform():
        raise BuildError(f"{name} is built on a {tag.replace('.', ' ')} machine; this one "
                         f"builds {this_platform().replace('.', '-')} and "
                         f"{', '.join(t.replace('.', '-') for t in CROSS_BUILT)}")  # fmt: skip
    return tag


def platform_dir(addon_dir: Path, tag: str) -> Path:
    return Path(addon_dir) / "bin" / tag


def install_platform(addon_dir: Path, tag: str, fill: Callable[[Path], object]) -> Path:
    """Replace ``bin/<tag>/`` with what ``fill(folder)`` writes into a fresh folder.

    Files are moved in one by one, each replacing its old copy as a new file, so a process
    that has the old library loaded keeps running; what the new build lacks is removed."""
    target = platform_dir(addon_dir, tag)
    target.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{tag}.", dir=target.parent))
    try:
        fill(staging)
        target.mkdir(exist_ok=True)
        fresh = {entry.name for entry in staging.iterdir()}
        for old in target.iterdir():
            if old.name not in fresh:
                _remove(old)
        for name in sorted(fresh):
            if (staging / name).is_dir() and (target / name).exists():
                _remove(target / name)
            os.replace(staging / name, target / name)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return target


def _remove(path: Path) -> None:
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path)
    else:
        path.unlink()


def built_platforms(addon_dir: Path) -> dict[str, list[Path]]:
    """Platform tag -> the files of its folder (library first), for every platform whose
    library exists in the addon."""
    found: dict[str, list[Path]] = {}
    for tag, library in sorted(PLATFORM_LIBRARIES.items()):
        folder = platform_dir(addon_dir, tag)
        if (folder / library).is_file():
            others = sorted(p for p in walk(folder).files() if p.name != library)
            found[tag] = [folder / library, *others]
    return found


def _quoted(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _target(path: Path, library: Path) -> str:
    """Where an export puts ``path``, relative to the game: where it lies beside the library."""
    folder = path.parent.relative_to(library.parent).as_posix()
    return "" if folder == "." else folder


def gdextension_text(addon_dir: Path) -> str | None:
    """The ``.gdextension`` file for the platforms built in ``addon_dir`` (None: none built).
    Paths are relative to the file, so the addon works wherever the project puts it."""
    platforms = built_platforms(addon_dir)
    if not platforms:
        return None
    libraries, dependencies = [], []
    for tag, (library, *others) in platforms.items():
        libraries.append(f"{tag} = {_quoted(library.relative_to(addon_dir).as_posix())}")
        if others:
            # Each file goes where it lies relative to the library: beside the game once
            # exported, as it lies beside the library in the addon.
            entries = ",\n".join(
                f"{_quoted(p.relative_to(addon_dir).as_posix())}: {_quoted(_target(p, library))}"
                for p in others
            )
            dependencies.append(f"{tag} = {{\n{entries}\n}}")
    lines = [
        "; PyBridgeNative: the pybridge targeting runtime as a native class for Godot 4.4 and later.",
        "; Written by `pybridge build` for the platforms built into this addon; build again",
        "; rather than editing it. GDScript: var reply: String = PyBridgeNative.new().call_json(request)",
        "",
        "[configuration]",
        "",
        f"entry_symbol = {_quoted(GDEXTENSION_ENTRY)}",
        f"compatibility_minimum = {_quoted(COMPATIBILITY_MINIMUM)}",
        "reloadable = false",
        "",
        "[libraries]",
        "",
        *libraries,
    ]
    if dependencies:
        lines += ["", "[dependencies]", "", *dependencies]
    return "\n".join(lines) + "\n"


def write_gdextension(addon_dir: Path) -> Path | None:
    """Write (or, with no platform built, remove) the addon's ``.gdextension`` file."""
    path = Path(addon_dir) / GDEXTENSION_FILE
    text = gdextension_text(addon_dir)
    if text is None:
        path.unlink(missing_ok=True)
        return None
    path.write_text(text, "utf-8")
    return path


def res_path(project_dir: Path, path: Path) -> str:
    """``path`` inside ``project_dir`` as a ``res://`` path."""
    try:
        inner = Path(path).resolve().relative_to(Path(project_dir).resolve())
    except ValueError:
        raise BuildError(f"{path} is not inside the Godot project {project_dir}") from None
    return "res://" + inner.as_posix()


def register_extension(project_dir: Path, gdextension: Path, *, present: bool = True) -> Path:
    """Name ``gdextension`` in the project's ``.godot/extension_list.cfg`` (or, with
    ``present=False``, take it out), keeping the other entries. Returns the list's path."""
    if not (Path(project_dir) / "project.godot").is_file():
        raise BuildError(f"not a Godot project: {Path(project_dir) / 'project.godot'} is missing")
    listed = Path(project_dir) / EXTENSION_LIST
    entry = res_path(project_dir, gdextension)
    old = listed.read_text("utf-8").splitlines() if listed.is_file() else []
    kept = [line.strip() for line in old if line.strip() and line.strip() != entry]
    listed.parent.mkdir(parents=True, exist_ok=True)
    listed.write_text("".join(f"{line}\n" for line in [*kept, *([entry] if present else [])]))
    return listed
