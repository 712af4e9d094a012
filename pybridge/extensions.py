"""Loading a game's extension modules (docs/extensions.md): the one place hosts turn the
game's extension list into a :class:`~pybridge.runtime.vocabulary.Vocabulary`.

A Godot project names its extension files once, in ``project.godot``::

    [pybridge]
    extensions=PackedStringArray("res://extensions/mechanics.py")

Every host reads that list (``--project``) or is given files (``--extension FILE``). Files are
the game's own code, imported here by path; card data never names a module.
"""

from __future__ import annotations

import importlib.util
import os
import re
import sys
import warnings
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING

from .extend import Words

if TYPE_CHECKING:
    import argparse  # only the command lines call add_options: a shipped game never does
from .runtime.vocabulary import BUILTIN, Extension, Vocabulary

#: The project setting that lists a game's extension files.
SETTING = ("pybridge", "extensions")
#: What a library built for this machine (``pybridge build`` without ``--bundle``) loads: the
#: extension files this environment variable names, separated by ``os.pathsep``.
ENVIRONMENT = "PYBRIDGE_EXTENSIONS"
#: In a native bundle's interpreter home (``pybridge build --bundle --project GAME``): the folder
#: holding the game's extension files as they lie in the project, and the list of them (one
#: path in that folder a line, in load order), which the bundle's start-up loads.
BUNDLE_FOLDER = "game"
BUNDLE_LIST = "extensions.txt"
#: The module names extension files are imported under (never a name a game could import).
MODULE_PREFIX = "pybridge_extension_"
_LIST = re.compile(r"^extensions\s*=\s*PackedStringArray\((.*)\)\s*$")
_STRING = re.compile(r'"((?:[^"\\]|\\.)*)"')
_ID = re.compile(r"[A-Za-z0-9_.:-]+")


class ExtensionError(Exception):
    """An extension that cannot be loaded: missing, without ``register``, or a declaration
    the vocabulary refuses. The message names the file."""


class ExtensionWarning(UserWarning):
    """An extension that loads but leaves something to a default a game should set itself:
    a file without ``NAME`` or ``VERSION``."""


@dataclass(frozen=True, slots=True)
class Loaded:
    """A vocabulary and the files it was made from, with their modification times."""

    words: Vocabulary
    files: tuple[Path, ...]
    stamps: tuple[int, ...]

    def changed(self) -> bool:
        return stamps(self.files) != self.stamps


def project_extensions(project: Path) -> list[Path]:
    """The extension files ``project.godot`` lists (``res://`` paths made real)."""
    settings = project / "project.godot"
    if not settings.is_file():
        raise ExtensionError(f"{project}: no project.godot")
    section = ""
    for line in settings.read_text("utf-8").splitlines():
        stripped = line.strip()
        if stripped.startswith("[") and stripped.endswith("]"):
            section = stripped[1:-1]
        elif section == SETTING[0] and (found := _LIST.match(stripped)):
            return [_res_path(project, p) for p in _STRING.findall(found.group(1))]
    return []


def _res_path(project: Path, path: str) -> Path:
    if not path.startswith("res://"):
        raise ExtensionError(f"{project / 'project.godot'}: extension path {path!r} must be a "
                             "res:// path inside the project")  # fmt: skip
    inner = Path(path.removeprefix("res://"))
    if inner.is_absolute() or ".." in inner.parts or inner.suffix != ".py":
        raise ExtensionError(f"{project / 'project.godot'}: extension path {path!r} must name "
                             "a .py file inside the project")  # fmt: skip
    return project / inner


def load(files: Sequence[Path | str], debug: bool | None = None) -> Loaded:
    """The built-in vocabulary extended with each file's words, in order."""
    if debug is None:
        debug = os.environ.get("PYBRIDGE_DEBUG", "") not in ("", "0")
    paths = tuple(Path(f) for f in files)
    words = BUILTIN.extended()
    for path in paths:
        module = _import(path)
        register = getattr(module, "register", None)
        if not callable(register):
            raise ExtensionError(f"{path}: an extension module defines register(words)")
        name = str(getattr(module, "NAME", path.stem))
        version = str(getattr(module, "VERSION", "0"))
        for what, value, longest in (("NAME", name, 64), ("VERSION", version, 32)):
            if not 0 < len(value) <= longest or not _ID.fullmatch(value):
                raise ExtensionError(f"{path}: {what} {value!r} must be 1 to {longest} ASCII "
                                     "letters, digits, '_', '-', '.' or ':' (a saved battle "
                                     "records it)")  # fmt: skip
        unsaid = [what for what in ("NAME", "VERSION") if not hasattr(module, what)]
        if unsaid:
            warnings.warn(ExtensionWarning(
                f"{path}: no {' and no '.join(unsaid)}: the extension is named {name!r}, "
                f"version {version!r}, which a saved battle records; set them in the file"
            ), stacklevel=2)  # fmt: skip
        doc = (module.__doc__ or "").strip().split("\n", 1)[0]
        extension = Extension(name, version, doc)
        try:
            words.begin(extension)
            register(Words(words, extension, debug))
            words.end()
        except Exception as exc:  # the game's code: whatever it raises names the file
            raise ExtensionError(f"{path}: {type(exc).__name__}: {exc}") from None
    return Loaded(words.seal(), paths, stamps(paths))


def _import(path: Path) -> ModuleType:
    if not path.is_file():
        raise ExtensionError(f"{path}: no such extension file")
    name = f"{MODULE_PREFIX}{path.stem}_{abs(hash(str(path.resolve()))) % 10**8}"
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise ExtensionError(f"{path}: not a Python module")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses and typing look a module up by name
    try:
        spec.loader.exec_module(module)
    except Exception as exc:
        del sys.modules[name]
        raise ExtensionError(f"{path}: {type(exc).__name__}: {exc}") from exc
    return module


def stamps(paths: Iterable[Path]) -> tuple[int, ...]:
    return tuple(p.stat().st_mtime_ns if p.is_file() else -1 for p in paths)


def add_options(parser: argparse.ArgumentParser, what: str = "read with") -> None:
    """The command-line options that name a game's extensions: ``--project DIR`` (its
    project.godot's list) and ``--extension FILE`` (repeated); read them with
    :func:`from_options`."""
    parser.add_argument("--project", metavar="DIR",
                        help=f"{what} the extensions the Godot project lists (project.godot, "
                        "[pybridge] extensions)")  # fmt: skip
    parser.add_argument("--extension", metavar="FILE", action="append", default=[],
                        help=f"{what} this extension file (again for more)")  # fmt: skip


def from_options(project: str | None, files: Sequence[str]) -> list[Path]:
    """The files a command line names: a project's list, then ``--extension`` files."""
    found = project_extensions(Path(project)) if project else []
    return [*found, *(Path(f) for f in files)]


def from_environment(environ: Mapping[str, str]) -> list[Path]:
    """The files :data:`ENVIRONMENT` names (none when it is unset or empty)."""
    return [Path(p) for p in environ.get(ENVIRONMENT, "").split(os.pathsep) if p]


def bundled(home: Path | str) -> list[Path]:
    """The extension files packed into the bundle whose interpreter home is ``home`` (or the
    web page's site folder)."""
    home = Path(home)
    listing = home / BUNDLE_FOLDER / BUNDLE_LIST
    if not listing.is_file():
        return []
    lines = listing.read_text("utf-8").splitlines()
    return [home / BUNDLE_FOLDER / line for line in lines if line.strip()]


def packed_names(files: Sequence[Path], project: Path | None) -> list[tuple[Path, str]]:
    """Each extension file with the name it is packed under in :data:`BUNDLE_FOLDER` (a native
    bundle's, the web page's): where it lies in ``project``, else its file name."""
    named: list[tuple[Path, str]] = []
    for source in map(Path, files):
        if not source.is_file():
            raise ExtensionError(f"{source}: no such extension file")
        root = project.resolve() if project is not None else None
        inside = root is not None and root in source.resolve().parents
        name = source.resolve().relative_to(root).as_posix() if root and inside else source.name
        if name in [n for _, n in named] or name == BUNDLE_LIST:
            raise ExtensionError(f"{source}: two extension files would be packed as {name}")
        named.append((source, name))
    return named


def packed_list(names: Sequence[str]) -> str:
    """The text of :data:`BUNDLE_LIST` for the packed ``names``, in load order."""
    return "".join(f"{name}\n" for name in names)


def files_at_start(bundle_home: str | None, environ: Mapping[str, str]) -> list[Path]:
    """What a native library loads when it starts: a bundle's packed files, else (a library
    for this machine) the files :data:`ENVIRONMENT` names."""
    return bundled(Path(bundle_home)) if bundle_home is not None else from_environment(environ)
