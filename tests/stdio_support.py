"""``pybridge serve --stdio`` as a host runs it: a subprocess fed request lines."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Mapping, Sequence
from typing import Any


def serve_stdio(
    lines: Sequence[bytes], environment: Mapping[str, str] | None = None
) -> tuple[list[dict[str, Any]], bytes]:
    """Send ``lines`` to a new server, to the end of its input: its replies, parsed, and
    what it wrote on stderr. The server must exit 0."""
    run = subprocess.run(
        [sys.executable, "-m", "pybridge.cli", "serve", "--stdio"],
        input=b"".join(line + b"\n" for line in lines),
        env={**os.environ, **(environment or {})},
        capture_output=True,
        timeout=60,
        check=True,
    )
    return [json.loads(line) for line in run.stdout.splitlines()], run.stderr
