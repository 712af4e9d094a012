"""The simulated Godot host (tests/c/godot_host.c): how to build it and read what it saw.

The host prints one tab-separated record per line; :func:`parse` turns them into a
:class:`HostRun`. Used by the GDExtension tests and the bundle's test in an empty root.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .native_support import run, tool

HOST_SOURCE = Path(__file__).parent / "c" / "godot_host.c"
CFLAGS = ("-Wall", "-Wextra", "-Werror", "-O2", "-pthread")  # as for the other C programs
#: The C libraries the host links by name, as Godot's own Linux binaries do (they are built
#: against an older glibc, where libdl and libpthread are libraries of their own).
HOST_LIBRARIES = ("-Wl,--no-as-needed", "-lm", "-l:libdl.so.2", "-l:libpthread.so.0")


def compile_host(exe: Path, *flags: str) -> Path:
    result = run(tool("gcc"), *CFLAGS, *flags, "-o", exe, HOST_SOURCE, *HOST_LIBRARIES)
    assert result.returncode == 0, result.stderr
    return exe


def compile_windows_host(exe: Path, *flags: str) -> Path:
    """The same host for Windows x64, cross-compiled with mingw-w64 (C99 printf formats,
    libgcc linked in: it needs no DLL but the system's)."""
    result = run(tool("x86_64-w64-mingw32-gcc"), *CFLAGS[:-1], "-D__USE_MINGW_ANSI_STDIO=1",
                 "-static-libgcc", *flags, "-o", exe, HOST_SOURCE, "-lshell32")  # fmt: skip
    assert result.returncode == 0, result.stderr
    return exe


@dataclass
class HostRun:
    """What the simulated engine saw, parsed from its tab-separated output."""

    returncode: int
    stderr: str
    requested: list[str] = field(default_factory=list)
    unknown: list[str] = field(default_factory=list)
    print_errors: list[str] = field(default_factory=list)
    registered: list[list[str]] = field(default_factory=list)
    methods: dict[str, list[str]] = field(default_factory=dict)
    unregistered: list[str] = field(default_factory=list)
    replies: dict[str, str] = field(default_factory=dict)
    call_errors: dict[str, tuple[int, int, int]] = field(default_factory=dict)
    entry: int | None = None
    summary: dict[str, str] = field(default_factory=dict)
    threads: str = ""
    method_binds: list[list[str]] = field(default_factory=list)
    notifications: list[tuple[int, int]] = field(default_factory=list)  # (what, reversed)

    def reply(self, label: str) -> Any:
        return json.loads(self.replies[label])


def parse(returncode: int, stdout: str, stderr: str) -> HostRun:
    """What the host printed, record by record."""
    seen = HostRun(returncode, stderr)
    for line in stdout.splitlines():
        kind, _, rest = line.partition("\t")
        fields = rest.split("\t")
        if kind == "requested":
            seen.requested.append(rest)
        elif kind == "unknown":
            seen.unknown.append(rest)
        elif kind == "print_error":
            seen.print_errors.append(fields[0])
        elif kind == "registered":
            seen.registered.append(fields)
        elif kind == "method":
            seen.methods[fields[1]] = fields[2:]
        elif kind == "method_bind":
            seen.method_binds.append(fields)
        elif kind == "notification":
            seen.notifications.append((int(fields[0]), int(fields[1])))
        elif kind == "unregistered":
            seen.unregistered.append(rest)
        elif kind == "reply":
            label, _, text = rest.partition("\t")
            seen.replies[label] = text
        elif kind == "call_error":
            seen.call_errors[fields[0]] = (int(fields[1]), int(fields[2]), int(fields[3]))
        elif kind == "entry":
            seen.entry = int(rest)
        elif kind == "summary":
            seen.summary = dict(item.split("=", 1) for item in fields)
        elif kind == "threads":
            seen.threads = rest
    return seen
