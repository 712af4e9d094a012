"""The stdio transport: one JSON request per line in, one JSON response per line out.

For hosts that cannot load a library: Godot's ``OS.execute_with_pipe``, other engines, tools.
Bad lines (invalid UTF-8, not JSON, too long) get error responses; the server only stops at
the end of its input.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import IO, Any

from ..answers import capacity_from
from ..protocol import MAX_REQUEST_BYTES
from ..service import call, keep_answers


def _too_long(length: int) -> str:
    return json.dumps(
        {
            "ok": False,
            "id": None,
            "error": {
                "code": "too_large",
                "where": "",
                "message": f"request line is over {MAX_REQUEST_BYTES} bytes ({length}+)",
            },
        },
        separators=(",", ":"),
    )


def serve(stdin: IO[bytes], stdout: IO[bytes]) -> int:
    """Answer every line of ``stdin`` on ``stdout`` until end of input. Returns the count."""
    answered = 0
    while True:
        line = stdin.readline(MAX_REQUEST_BYTES + 1)
        if not line:
            return answered
        if len(line) > MAX_REQUEST_BYTES and not line.endswith(b"\n"):
            length = len(line)
            while line and not line.endswith(b"\n"):  # skip the rest of the oversized line
                line = stdin.readline(MAX_REQUEST_BYTES + 1)
                length += len(line)
            response = _too_long(length)
        elif not line.strip():
            continue
        else:
            response = call(line.rstrip(b"\r\n"))
        stdout.write(response.encode("utf-8") + b"\n")
        stdout.flush()
        answered += 1


def _cmd_serve(args: argparse.Namespace) -> int:
    keep_answers(capacity_from(os.environ))
    serve(sys.stdin.buffer, sys.stdout.buffer)
    return 0


def add_serve_command(commands: Any) -> None:
    parser = commands.add_parser(
        "serve", help="answer protocol requests, one JSON object per line, on stdin/stdout"
    )
    parser.add_argument(
        "--stdio",
        action="store_true",
        required=True,
        help="use standard input and output (the only transport served)",
    )
    parser.set_defaults(run=_cmd_serve)
