"""Walking a folder tree: each real folder is entered at most once, and each link not followed
is named.

Links are followed, since a project may link its addon in from elsewhere, but never twice into
one folder. Walking ``root`` skips, and records in :attr:`Walk.skipped`:

- a folder already entered (by its real identity, device and inode): a link back to a parent,
  a second link to one folder, a folder reached again through another link;
- a link that leads inside the walked tree itself: its folder is walked at its own path;
- a link to something that does not exist (or to a loop of links), and a folder that cannot
  be read.

Every tool that walks a folder (``pybridge pack``, and ``demo``, ``workshop`` and
``build --bundle``, which pack or list folders the same way; ``lint`` on a folder) walks it
with :func:`walk`, so a project with two links to a parent folder finishes like any other.

>>> import tempfile
>>> root = Path(tempfile.mkdtemp())
>>> (root / "scenes").mkdir()
>>> (root / "scenes" / "main.tscn").write_text("")
0
>>> (root / "scenes" / "up").symlink_to("..")
>>> walked = walk(root)
>>> [path.relative_to(root).as_posix() for path in walked.files()]
['scenes/main.tscn']
>>> [(s.path.relative_to(root).as_posix(), s.why) for s in walked.skipped]
[('scenes/up', 'a link back to a folder already entered, at .')]
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path


@dataclass(frozen=True, slots=True)
class Skipped:
    """A folder the walk did not enter: where it was met, where it leads, and why not."""

    path: Path
    real: Path
    why: str

    def __str__(self) -> str:
        return f"{self.path}: {self.why}"


@dataclass
class Walk:
    """A walk of ``root``, top down, folders and files in name order. ``enter(folder)`` may
    refuse a folder (hidden ones, ``node_modules``...) before it is entered; that is the
    caller's choice and is not recorded. :attr:`skipped` fills as the walk goes."""

    root: Path
    enter: Callable[[Path], bool] | None = None
    skipped: list[Skipped] = field(default_factory=list)

    def __iter__(self) -> Iterator[tuple[Path, list[str]]]:
        """Each folder entered, with the names of the files in it (links to files included)."""
        self.skipped.clear()
        root = Path(self.root)
        real_root = Path(os.path.realpath(root))
        try:
            entered = {_identity(root): root}
        except OSError as exc:
            self.skipped.append(Skipped(root, real_root, f"cannot be read: {exc.strerror}"))
            return
        pending = [root]
        while pending:
            folder = pending.pop()
            try:
                with os.scandir(folder) as scan:
                    entries = sorted(scan, key=lambda e: e.name)
            except OSError as exc:
                self.skipped.append(Skipped(folder, folder, f"cannot be read: {exc.strerror}"))
                continue
            names, inner = [], []
            for entry in entries:
                path = Path(entry.path)
                kind = _kind(entry)
                if kind == "file":
                    names.append(entry.name)
                elif kind == "folder":
                    if self.enter is None or self.enter(path):
                        inner.append(path)
                elif kind == "broken":
                    target = Path(os.readlink(path))
                    why = "a link to something that does not exist (or a loop of links)"
                    self.skipped.append(Skipped(path, target, why))
            yield folder, names
            pending.extend(reversed(self._entered(inner, entered, root, real_root)))

    def _entered(
        self,
        folders: list[Path],
        entered: dict[tuple[int, int], Path],
        root: Path,
        real_root: Path,
    ) -> list[Path]:
        """The folders among ``folders`` to enter, in order; the others are recorded."""
        out = []
        for path in folders:
            real = Path(os.path.realpath(path))
            try:
                identity = _identity(path)
            except OSError as exc:
                self.skipped.append(Skipped(path, real, f"cannot be read: {exc.strerror}"))
                continue
            if identity in entered:
                seen = entered[identity]
                if seen in path.parents:
                    what = "a link back to a folder"
                else:
                    what = "a link to a folder" if path.is_symlink() else "a folder"
                where = seen.relative_to(root).as_posix() if seen.is_relative_to(root) else seen
                self.skipped.append(Skipped(path, real, f"{what} already entered, at {where}"))
            elif path.is_symlink() and real.is_relative_to(real_root):
                inside = real.relative_to(real_root).as_posix()
                why = f"a link into the walked folder itself, walked at its own path {inside}"
                self.skipped.append(Skipped(path, real, why))
            else:
                entered[identity] = path
                out.append(path)
        return out

    def files(self) -> Iterator[Path]:
        """Every file of the walk, in walk order."""
        for folder, names in self:
            for name in names:
                yield folder / name


def walk(root: Path, enter: Callable[[Path], bool] | None = None) -> Walk:
    """A walk of ``root`` (see :class:`Walk`); iterate it, then read its ``skipped``."""
    return Walk(Path(root), enter)


def _kind(entry: os.DirEntry[str]) -> str:
    """ "file", "folder", "broken" (a link that leads to nothing), or "other" (a socket...)."""
    try:
        if entry.is_file():
            return "file"
        if entry.is_dir():
            return "folder"
    except OSError:  # a loop of links
        pass
    return "broken" if entry.is_symlink() else "other"


def _identity(path: Path) -> tuple[int, int]:
    """The real folder ``path`` leads to, as the file system knows it."""
    stat = os.stat(path)
    return stat.st_dev, stat.st_ino
