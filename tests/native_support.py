"""What the tests of the native library (C ABI, GDExtension) need: gcc and binutils, which
must be there (these tests fail, never skip, without them), and one way to run a program."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path


def tool(name: str) -> str:
    path = shutil.which(name)
    assert path, f"{name} is needed to test the native library"  # fail, never skip
    return path


def run(*argv: str | Path, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(a) for a in argv], capture_output=True, text=True, timeout=timeout)
