"""Pack a Godot 4 project folder into a ``.pck`` the exported (web) runtime can start.

The layout is PCK format version 2, all little-endian: magic ``GDPC``, u32 version, u32 engine
major, minor, patch, u32 flags (bit 1: file base relative to the pack start), u64 file base,
16 reserved u32, u32 file count, then per file a u32 path length (padded to 4), the path
without ``res://``, u64 offset (from the file base), u64 size, the data's MD5 and u32 flags.

An exported runtime has no editor to scan scripts, so :func:`pack_project` writes
``res://.godot/global_script_class_cache.cfg`` itself from the ``class_name`` lines of the
scripts it packs; that is what makes ``class_name`` work without ``preload``. Imported
assets travel as Godot's export packs them, through their ``.import`` files
(:mod:`pybridge.pack_imports`); what cannot be packed is left out and named. Links are
followed, but each real folder is entered once (:mod:`pybridge.folders`): a link back to a
parent, a second link to one folder or a link to nothing is left out and named too. A pack
never holds another pack, its own earlier output included.
"""

from __future__ import annotations

import argparse
import hashlib
import posixpath
import re
import struct
import sys
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from .folders import walk
from .pack_imports import with_imports, without_native

MAGIC = b"GDPC"
FORMAT_VERSION = 2
ENGINE_VERSION = (4, 6, 0)
FLAG_RELATIVE_BASE = 2
ALIGNMENT = 32
CLASS_CACHE = "res://.godot/global_script_class_cache.cfg"

_SKIP_DIRS = frozenset({"__pycache__", "node_modules"})  # and every hidden one (.godot/)
# Packs (this command's own earlier output among them) and native libraries, which the web
# runtime cannot load: ``pybridge build`` puts them in the addon's bin/ folder, which the
# demo mounts. (A .gdextension file's other files are left out by what it lists.)
_SKIP_SUFFIXES = (".pck", ".tmp", ".pyc", "~", ".so", ".dll", ".dylib")
_SKIP_NAMES = frozenset({"export_presets.cfg"})
_HEAD = struct.Struct("<4s5IQ64xI")  # magic, version, major, minor, patch, flags, base, count


class PackError(ValueError):
    """A project that cannot be packed, or a file that is not a readable pack."""


@dataclass(frozen=True)
class PackEntry:
    path: str  # "res://..."
    offset: int  # absolute, from the start of the pack
    size: int
    md5: bytes


@dataclass
class PackInfo:
    out: Path
    files: list[str] = field(default_factory=list)  # res:// paths, in pack order
    classes: dict[str, str] = field(default_factory=dict)  # class_name -> res:// path
    size: int = 0
    left_out: dict[str, str] = field(default_factory=dict)  # res:// path -> why


def res_path(path: str) -> str:
    """``addons/x`` or ``res://addons/x/`` -> ``res://addons/x`` (``res://`` for the root)."""
    inner = path.removeprefix("res://").strip("/")
    if inner and any(part in ("", ".", "..") for part in inner.split("/")):
        raise PackError(f"bad res:// path {path!r}")
    return "res://" + inner


def _wanted(name: str) -> bool:
    return not name.startswith(".") and name not in _SKIP_NAMES


def _walk(root: Path, prefix: str, left_out: dict[str, str]) -> Iterator[tuple[str, Path]]:
    """The files under ``root`` as ``res://`` paths below ``prefix``; each folder is entered
    once (:mod:`pybridge.folders`), and each folder not entered is named in ``left_out``."""
    if root.is_file():
        yield res_path(prefix), root
        return

    def enter(folder: Path) -> bool:
        name = folder.name
        return name not in _SKIP_DIRS and _wanted(name) and not (folder / ".gdignore").exists()

    walked = walk(root, enter)
    for folder, names in walked:
        for name in names:
            if _wanted(name) and not name.endswith(_SKIP_SUFFIXES):
                rel = (folder / name).relative_to(root).as_posix()
                yield res_path(f"{prefix}/{rel}"), folder / name
    for skipped in walked.skipped:
        rel = skipped.path.relative_to(root).as_posix()
        left_out[res_path(f"{prefix}/{rel}")] = f"{skipped.why}; it leads to {skipped.real}"


def collect(
    project_dir: Path,
    extra: Mapping[str, Path] | None = None,
    left_out: dict[str, str] | None = None,
) -> dict[str, Path]:
    """The files a pack of ``project_dir`` holds, ``res://`` path -> source; mounts win.
    Folders the walk does not enter (a second way into one folder, a link to nothing) are
    named in ``left_out``, ``res://`` path -> why."""
    project_dir = Path(project_dir)
    if not (project_dir / "project.godot").is_file():
        raise PackError(f"not a Godot project: {project_dir / 'project.godot'} is missing")
    skipped: dict[str, str] = {} if left_out is None else left_out
    files = dict(_walk(project_dir, "res://", skipped))
    for target, source in (extra or {}).items():
        if not Path(source).exists():
            raise PackError(f"cannot mount {source} at {res_path(target)}: it does not exist")
        files.update(_walk(Path(source), res_path(target), skipped))
    return files


# -- global script classes -------------------------------------------------------------------

_CLASS = re.compile(r"\bclass_name\s+(\w+)")
_EXTENDS = re.compile(r"""\bextends\s+(\w+(?:\.\w+)*|"[^"]*"|'[^']*')""")
_ICON = re.compile(r"""@icon\(\s*["']([^"']*)["']\s*\)""")
_BODY = ("func ", "static func ", "var ", "const ", "signal ", "enum ", "class ", "@export")


@dataclass(frozen=True)
class ScriptClass:
    name: str
    path: str
    extends: str  # a class name, a quoted script path, or "" (RefCounted)
    icon: str
    is_tool: bool
    is_abstract: bool


def _header(source: str) -> str:
    """The top-level lines before the script's body: annotations, class_name, extends."""
    head: list[str] = []
    for line in source.splitlines():
        code = line.split("#", 1)[0].rstrip()
        if code and code[0] not in " \t":
            if code.startswith(_BODY):
                break
            head.append(code)
    return "\n".join(head)


def script_class(path: str, source: str) -> ScriptClass | None:
    """The global class a GDScript declares, from its top-level lines, or None."""
    head = _header(source)
    found = _CLASS.search(head)
    if found is None:
        return None
    extends, icon = _EXTENDS.search(head), _ICON.search(head)
    return ScriptClass(
        name=found.group(1),
        path=path,
        extends=extends.group(1) if extends else "",
        icon=icon.group(1) if icon else "",
        is_tool=re.search(r"@tool\b", head) is not None,
        is_abstract=re.search(r"@abstract\b", head) is not None,
    )


def _base(cls: ScriptClass, by_path: Mapping[str, ScriptClass], scripts: Mapping[str, str]) -> str:
    """What the engine records as ``base``: the parent's global or native class name."""
    parent, here, seen = cls.extends, cls.path, {cls.path}
    while parent[:1] in ("'", '"'):
        ref = parent[1:-1]
        if not ref.startswith("res://"):
            folder = posixpath.dirname(here.removeprefix("res://"))
            ref = posixpath.normpath(posixpath.join(folder, ref))
        here = res_path(ref)
        if here in by_path:
            return by_path[here].name
        if here in seen or here not in scripts:
            return "RefCounted"
        seen.add(here)
        found = _EXTENDS.search(_header(scripts[here]))
        parent = found.group(1) if found else ""
    return parent.split(".", 1)[0] or "RefCounted"


def _text(value: str) -> str:
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def class_cache(scripts: Mapping[str, str]) -> tuple[bytes, dict[str, str]]:
    """``global_script_class_cache.cfg`` for ``res:// path -> GDScript source``."""
    found = [c for p, s in sorted(scripts.items()) if (c := script_class(p, s)) is not None]
    by_path = {c.path: c for c in found}
    names: dict[str, str] = {}
    for cls in found:
        if cls.name in names:
            raise PackError(
                f"class_name {cls.name} is declared twice: {names[cls.name]} and {cls.path}"
            )
        names[cls.name] = cls.path
    entries = [
        "{\n"
        f'"base": &{_text(_base(c, by_path, scripts))},\n'
        f'"class": &{_text(c.name)},\n'
        f'"icon": {_text(c.icon)},\n'
        f'"is_abstract": {str(c.is_abstract).lower()},\n'
        f'"is_tool": {str(c.is_tool).lower()},\n'
        '"language": &"GDScript",\n'
        f'"path": {_text(c.path)}\n'
        "}"
        for c in found
    ]
    return ("list=[" + ", ".join(entries) + "]\n").encode(), names


# -- writing and reading ---------------------------------------------------------------------


def _pad(n: int, to: int = ALIGNMENT) -> int:
    return -n % to


def write_pack(out: Path, files: Mapping[str, bytes]) -> int:
    """Write ``res:// path -> data`` as a PCK v2 file; returns its size in bytes."""
    records = [(res_path(p).removeprefix("res://").encode(), data) for p, data in files.items()]
    directory = sum(4 + len(p) + _pad(len(p), 4) + 36 for p, _ in records)
    file_base = _HEAD.size + directory + _pad(_HEAD.size + directory)
    index, blobs, offset = bytearray(), bytearray(), 0
    for path, data in records:
        padded = path + bytes(_pad(len(path), 4))
        index += struct.pack("<I", len(padded)) + padded
        index += struct.pack("<QQ", offset, len(data)) + hashlib.md5(data).digest() + bytes(4)
        blobs += data + bytes(_pad(len(data)))
        offset += len(data) + _pad(len(data))
    flags, count = FLAG_RELATIVE_BASE, len(records)
    body = _HEAD.pack(MAGIC, FORMAT_VERSION, *ENGINE_VERSION, flags, file_base, count) + index
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_bytes(body + bytes(file_base - len(body)) + blobs)
    return file_base + len(blobs)


def pack_project(project_dir: Path, out: Path, extra: dict[str, Path] | None = None) -> PackInfo:
    """Pack ``project_dir`` (plus folders mounted at ``res://`` paths) into ``out``. The
    returned :class:`PackInfo` names what was left out and why."""
    target = Path(out).resolve()
    walked: dict[str, str] = {}
    files = collect(project_dir, extra, walked)
    found = {r: p for r, p in files.items() if p.resolve() != target}
    imported, unimported = with_imports(found, Path(project_dir))
    sources, native = without_native(imported)
    data = {path: source.read_bytes() for path, source in sources.items()}
    scripts = {p: d.decode("utf-8", "replace") for p, d in data.items() if p.endswith(".gd")}
    data[CLASS_CACHE], classes = class_cache(scripts)
    info = PackInfo(out=Path(out), files=list(data), classes=classes)
    info.left_out = dict(sorted({**walked, **unimported, **native}.items()))
    info.size = write_pack(info.out, data)
    return info


def read_entries(path: Path) -> list[PackEntry]:
    """The directory of a PCK (format 2 or 3), with absolute offsets."""
    blob = Path(path).read_bytes()
    if len(blob) < _HEAD.size or blob[:4] != MAGIC:
        raise PackError(f"{path}: not a Godot pack (no GDPC magic)")
    version, _major, _minor, _patch, flags, base = struct.unpack_from("<5IQ", blob, 4)
    if version not in (2, 3):
        raise PackError(f"{path}: unsupported pack format version {version}")
    at = 4 + 20 + 8
    if version == 3:
        (at,) = struct.unpack_from("<Q", blob, at)
    else:
        at += 64
    base = base if flags & FLAG_RELATIVE_BASE else 0
    (count,) = struct.unpack_from("<I", blob, at)
    at += 4
    entries = []
    for _ in range(count):
        (length,) = struct.unpack_from("<I", blob, at)
        name = blob[at + 4 : at + 4 + length].rstrip(b"\0").decode()
        offset, size = struct.unpack_from("<QQ", blob, at + 4 + length)
        md5 = blob[at + 20 + length : at + 36 + length]
        at += 40 + length
        entries.append(PackEntry("res://" + name, base + offset, size, md5))
        if base + offset + size > len(blob):
            raise PackError(f"{path}: {name} runs past the end of the pack")
    return entries


def read_pack(path: Path) -> dict[str, bytes]:
    """Every file of a pack, ``res:// path -> data``; raises PackError on a bad MD5."""
    blob = Path(path).read_bytes()
    files = {}
    for entry in read_entries(path):
        data = blob[entry.offset : entry.offset + entry.size]
        if hashlib.md5(data).digest() != entry.md5:
            raise PackError(f"{path}: MD5 mismatch for {entry.path}")
        files[entry.path] = data
    return files


# -- command line ----------------------------------------------------------------------------


def _mount(text: str) -> tuple[str, Path]:
    target, sep, source = text.partition("=")
    if not sep or not target or not source:
        raise argparse.ArgumentTypeError(f"expected RES_PATH=DIR, got {text!r}")
    return target, Path(source)


def _cmd_pack(args: argparse.Namespace) -> int:
    try:
        info = pack_project(Path(args.project), Path(args.out), dict(args.mount))
    except (OSError, PackError) as exc:
        print(f"pybridge pack: {exc}", file=sys.stderr)
        return 2
    counts = f"{len(info.files)} files, {info.size} bytes, {len(info.classes)} global classes"
    print(f"{info.out}: {counts}")
    tell_left_out(info, "pack")
    return 0


def tell_left_out(info: PackInfo, command: str) -> None:
    """Name on stderr, as ``pybridge COMMAND``, each file or folder a pack left out and why."""
    for path, why in info.left_out.items():
        print(f"pybridge {command}: left out {path}: {why}", file=sys.stderr)


def add_pack_command(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``pybridge pack PROJECT_DIR OUT.pck [--mount res_path=dir ...]``."""
    cmd = subparsers.add_parser("pack", help="pack a Godot project folder into a .pck")
    cmd.add_argument("project", metavar="PROJECT_DIR", help="folder holding project.godot")
    cmd.add_argument("out", metavar="OUT.pck", help="the pack to write")
    cmd.add_argument(
        "--mount",
        action="append",
        type=_mount,
        default=[],
        metavar="RES_PATH=DIR",
        help="also pack DIR at RES_PATH, e.g. res://addons/pybridge_targeting=addons/pybridge_targeting",
    )
    cmd.set_defaults(run=_cmd_pack)
