"""Taking the run paths of the building machine out of a copied shared library.

A Python built with a run path (pyenv builds are) gives libpython and its extension modules
a ``DT_RUNPATH`` naming its own lib folder. In a bundle that folder means nothing, or worse,
something else: :func:`drop_run_paths` removes those entries from the dynamic section, the
way ``chrpath -d`` does, moving the later entries up and ending with one more ``DT_NULL``.
Only 64-bit little-endian ELF files (x86_64, arm64) are handled.
"""

from __future__ import annotations

import struct
from pathlib import Path

_PT_DYNAMIC = 2
_DT_NULL, _DT_RPATH, _DT_RUNPATH = 0, 15, 29
_ENTRY = struct.Struct("<qQ")  # d_tag, d_val
_PROGRAM_HEADER = struct.Struct("<IIQQQQQQ")  # type, flags, offset, vaddr, paddr, filesz, ...


class ElfError(ValueError):
    """Not a file this module can change."""


def _dynamic_section(data: bytes | bytearray, path: Path) -> tuple[int, int]:
    """Offset and size of the dynamic section."""
    if data[:4] != b"\x7fELF" or data[4] != 2 or data[5] != 1:
        raise ElfError(f"{path} is not a 64-bit little-endian ELF file")
    (phoff,) = struct.unpack_from("<Q", data, 32)
    phentsize, phnum = struct.unpack_from("<HH", data, 54)
    for index in range(phnum):
        kind, _, offset, _, _, size, _, _ = _PROGRAM_HEADER.unpack_from(
            data, phoff + index * phentsize
        )
        if kind == _PT_DYNAMIC:
            return offset, size
    raise ElfError(f"{path} has no dynamic section")


def run_path_count(path: Path) -> int:
    """How many DT_RPATH and DT_RUNPATH entries ``path`` has."""
    data = Path(path).read_bytes()
    offset, size = _dynamic_section(data, path)
    tags = [_ENTRY.unpack_from(data, offset + i)[0] for i in range(0, size, _ENTRY.size)]
    return sum(tag in (_DT_RPATH, _DT_RUNPATH) for tag in tags[: tags.index(_DT_NULL) + 1])


def drop_run_paths(path: Path) -> int:
    """Remove every DT_RPATH and DT_RUNPATH entry of ``path`` in place; returns how many."""
    data = bytearray(Path(path).read_bytes())
    offset, size = _dynamic_section(data, path)
    entries = [_ENTRY.unpack_from(data, offset + i) for i in range(0, size, _ENTRY.size)]
    kept = [entry for entry in entries if entry[0] not in (_DT_RPATH, _DT_RUNPATH)]
    dropped = len(entries) - len(kept)
    if dropped:
        kept += [(_DT_NULL, 0)] * dropped
        for index, entry in enumerate(kept):
            _ENTRY.pack_into(data, offset + index * _ENTRY.size, *entry)
        Path(path).write_bytes(bytes(data))
    return dropped
