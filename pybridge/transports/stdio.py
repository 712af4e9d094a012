"""The stdio transport: one JSON request per line in, one JSON response per line out.

For hosts that cannot load a library: Godot's ``OS.execute_with_pipe``, other engines, tools.
Bad lines (invalid UTF-8, not JSON, too long) get error responses; the server only stops at
the end of its input.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any

from .. import extensions
from ..answers import capacity_from
from ..protocol import MAX_REQUEST_BYTES
from ..service import call, keep_answers, use_words


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


def serve(stdin: IO[bytes], stdout: IO[bytes], before: Callable[[], None] | None = None) -> int:
    """Answer every line of ``stdin`` on ``stdout`` until end of input. Returns the count.
    ``before`` runs before each request (the extension reload check)."""
    answered = 0
    while True:
        line = stdin.readline(MAX_REQUEST_BYTES + 1)
        if not line:
            return answered
        if before is not None:
            before()
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


class Reloader:
    """Keeps the shared protocol's vocabulary made from the game's extension files, made again
    when a file changes (sessions already open keep theirs). A file that fails to load keeps
    the vocabulary that was working, and says why on standard error."""

    def __init__(self, files: list[Path]) -> None:
        self.loaded = extensions.load(files)
        use_words(self.loaded.words)

    def __call__(self) -> None:
        if not self.loaded.changed():
            return
        try:
            self.loaded = extensions.load(self.loaded.files)
        except extensions.ExtensionError as exc:
            print(f"pybridge serve: extension not reloaded: {exc}", file=sys.stderr, flush=True)
            # tried: not again until the file changes once more
            self.loaded = dataclasses.replace(
                self.loaded, stamps=extensions.stamps(self.loaded.files)
            )
            return
        use_words(self.loaded.words)


def _cmd_serve(args: argparse.Namespace) -> int:
    keep_answers(capacity_from(os.environ))
    try:  # a game whose extensions do not load is not served at all, and says why
        files = extensions.from_options(args.project, args.extension)
        reloader = Reloader(files) if files else None
    except extensions.ExtensionError as exc:
        print(f"pybridge serve: {exc}", file=sys.stderr)
        return 2
    serve(sys.stdin.buffer, sys.stdout.buffer, reloader)
    return 0


def add_serve_command(commands: Any) -> tuple[argparse.ArgumentParser, Any]:
    """The ``serve`` command and its group of transports (one of them is given), for the
    other transports (``--ws``, :mod:`pybridge.online.command`) to join."""
    parser = commands.add_parser(
        "serve", help="answer protocol requests: on stdin/stdout, or online duels (--ws)"
    )
    transports = parser.add_mutually_exclusive_group(required=True)
    transports.add_argument(
        "--stdio",
        action="store_true",
        help="use standard input and output, one JSON object per line",
    )
    extensions.add_options(parser, "load")
    parser.set_defaults(run=_cmd_serve)
    return parser, transports
