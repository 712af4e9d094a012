"""What a pack holds of imported assets and native libraries, as Godot's own export decides.

The editor imports an asset (``icon.svg``) into ``res://.godot/imported/`` and writes a
``.import`` file beside it whose ``[remap]`` section names the imported data. An exported
pack carries the ``.import`` file and that data, not the asset itself; the engine loads the
asset through the remap. An asset whose data does not exist (the project was never opened in
an editor) cannot be packed: it is left out, with the reason. Native libraries and the
``.gdextension`` files that list them are left out too: a pack (a web build above all) cannot
load them, and Godot's export copies them beside the game instead.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

IMPORTED = "res://.godot/imported/"
UID_CACHE = "res://.godot/uid_cache.bin"
NEVER_IMPORTED = (
    "never imported: {missing} does not exist; open the project in the Godot editor once "
    "(or run `godot --headless --import`), then pack again"
)
NATIVE = "a native library's file, listed by {listed_by}; exports put it beside the game"

_SECTION = re.compile(r"^\[([^\]]+)\]\s*$")
_PATH_KEY = re.compile(r"""^(path(?:\.\w+)?)\s*=\s*"([^"]*)"\s*$""")
_IMPORTER = re.compile(r"""^importer\s*=\s*"([^"]*)"\s*$""")
_LIBRARY = re.compile(r'=\s*"([^"]*)"')
_DEPENDENCY = re.compile(r'"([^"]*)"\s*:\s*"[^"]*"')


@dataclass(frozen=True)
class Remap:
    """The ``[remap]`` section of a ``.import`` file."""

    importer: str
    paths: tuple[str, ...]  # the imported data, res:// paths


def read_remap(text: str) -> Remap:
    importer, paths, section = "", [], ""
    for line in text.splitlines():
        if found := _SECTION.match(line.strip()):
            section = found.group(1)
        elif section == "remap":
            if found := _IMPORTER.match(line.strip()):
                importer = found.group(1)
            elif (found := _PATH_KEY.match(line.strip())) and found.group(2).startswith(IMPORTED):
                paths.append(found.group(2))
    return Remap(importer, tuple(paths))


def with_imports(
    files: Mapping[str, Path], project_dir: Path
) -> tuple[dict[str, Path], dict[str, str]]:
    """``files`` as an export packs them: each imported asset replaced by its ``.import``
    file and imported data, the project's UID cache added. Returns the files and the
    resources left out, ``res://`` path -> why."""
    packed, left_out = dict(files), {}
    for res, source in files.items():
        if not res.endswith(".import"):
            continue
        asset = res.removesuffix(".import")
        remap = read_remap(source.read_text("utf-8", "replace"))
        if remap.importer == "skip":  # the import settings say: not a resource
            packed.pop(asset, None)
            packed.pop(res)
            continue
        if remap.importer == "keep" or not remap.paths:
            continue  # used as it is: the asset travels with its .import file
        present = {p: project_dir / p.removeprefix("res://") for p in remap.paths}
        missing = [p for p, data in present.items() if not data.is_file()]
        if len(missing) == len(present):
            left_out[asset] = NEVER_IMPORTED.format(missing=missing[0])
            packed.pop(asset, None)
            packed.pop(res)
            continue
        packed.pop(asset, None)
        packed.update({p: data for p, data in present.items() if data.is_file()})
    if (project_dir / UID_CACHE.removeprefix("res://")).is_file():
        packed[UID_CACHE] = project_dir / UID_CACHE.removeprefix("res://")
    return packed, left_out


def _listed(text: str) -> list[str]:
    """The paths a ``.gdextension`` file lists: the values of [libraries] and the keys of the
    dictionaries of [dependencies]."""
    found, section = [], ""
    for line in text.splitlines():
        if header := _SECTION.match(line.strip()):
            section = header.group(1)
        elif line.lstrip().startswith(";"):
            continue
        elif section == "libraries":
            found += _LIBRARY.findall(line)
        elif section == "dependencies":
            found += _DEPENDENCY.findall(line)
    return found


def without_native(files: Mapping[str, Path]) -> tuple[dict[str, Path], dict[str, str]]:
    """``files`` without ``.gdextension`` files and the native files they list; returns the
    files and what was left out, ``res://`` path -> why."""
    native: dict[str, str] = {}
    for res, source in files.items():
        if not res.endswith(".gdextension"):
            continue
        native[res] = "a native extension's description; a pack cannot load native libraries"
        folder = res.rsplit("/", 1)[0]
        for path in _listed(source.read_text("utf-8", "replace")):
            listed = path if path.startswith("res://") else f"{folder}/{path}"
            for other in files:
                if other == listed or other.startswith(listed.rstrip("/") + "/"):
                    native[other] = NATIVE.format(listed_by=res)
    return {r: p for r, p in files.items() if r not in native}, native
