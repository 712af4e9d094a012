"""``pybridge serve --ws`` and ``pybridge replay LOG``. The WebSocket library is imported
only when the server starts (it is the ``online`` extra; the runtime never needs it)."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import sys
from pathlib import Path
from typing import Any

from .. import extensions
from ..examples import rivals_battle
from .match import (
    ABANDON_SECONDS,
    BACKLOG_BYTES,
    IDLE_SECONDS,
    MATCHES_PER_ADDRESS,
    MAX_MATCHES,
    MAX_MESSAGE_BYTES,
    MAX_PER_ADDRESS,
    Limits,
)
from .replay import replay

LEASE_SECONDS = 5.0  # the store's default, named here so --help needs no Redis client


def add_ws_options(parser: argparse.ArgumentParser, transports: Any) -> None:
    """Add ``--ws`` and its options to the ``serve`` command."""
    transports.add_argument(
        "--ws", action="store_true", help="serve online duels over WebSocket (docs/online.md)"
    )
    online = parser.add_argument_group("online duels (--ws)")
    online.add_argument("--host", default="127.0.0.1", help="address to listen on")
    online.add_argument("--port", type=int, default=8765, help="port (0: any free one)")
    online.add_argument(
        "--battle",
        type=Path,
        help="battle document every match starts from (default: the rivals duel), each with "
        "its own seed, shuffled hands and draw piles, and view secret",
    )
    online.add_argument(
        "--fixed-order",
        action="store_true",
        help="start every match with the battle's own seed and pile order, as written (a "
        "tutorial, a test): any client that has the document knows the hidden cards",
    )
    online.add_argument(
        "--allow-origin",
        action="append",
        default=[],
        metavar="ORIGIN",
        help="a page Origin allowed to connect (repeatable; loopback pages are)",
    )
    online.add_argument(
        "--no-loopback-origins",
        action="store_true",
        help="refuse loopback pages too unless --allow-origin names them",
    )
    online.add_argument(
        "--idle",
        type=float,
        default=IDLE_SECONDS,
        help="close a connection silent this many seconds",
    )
    online.add_argument(
        "--max-message", type=int, default=MAX_MESSAGE_BYTES, help="largest message in bytes"
    )
    online.add_argument(
        "--deflate",
        action="store_true",
        help="compress messages for clients that offer it (fewer bytes, more server CPU)",
    )
    online.add_argument("--logs", type=Path, help="folder to keep each match's move log in")
    online.add_argument(
        "--max-matches", type=int, default=MAX_MATCHES, help="matches this process holds at most"
    )
    online.add_argument(
        "--max-per-address",
        type=int,
        default=MAX_PER_ADDRESS,
        metavar="N",
        help="connections one client address may hold open at once (0: no bound)",
    )
    online.add_argument(
        "--abandon",
        type=float,
        default=ABANDON_SECONDS,
        metavar="S",
        help="forget a match nobody has been connected to for this many seconds",
    )
    online.add_argument(
        "--matches-per-address",
        type=int,
        default=MATCHES_PER_ADDRESS,
        metavar="N",
        help="matches one client address may have created and the server still holds (0: no bound)",
    )
    online.add_argument(
        "--max-backlog",
        type=int,
        default=BACKLOG_BYTES,
        metavar="BYTES",
        help="drop a connection that leaves more than this unread (a client that stopped reading)",
    )
    online.add_argument(
        "--redis",
        metavar="URL",
        help="keep the matches in Redis (redis://HOST:PORT/DB) and share --port with the "
        "other processes started so (docs/online.md, 'Several processes')",
    )
    online.add_argument(
        "--lease",
        type=float,
        default=LEASE_SECONDS,
        help="seconds a killed process's matches wait before another takes them on",
    )
    run = parser.get_default("run")

    def serve(args: argparse.Namespace) -> int:
        return _cmd_serve_ws(args) if args.ws else int(run(args))

    parser.set_defaults(run=serve)


def _cmd_serve_ws(args: argparse.Namespace) -> int:
    try:
        from .server import Host, run  # the online extra: imported only to serve
    except ImportError as exc:
        print(f"pybridge serve --ws: {exc} (install the 'online' extra)", file=sys.stderr)
        return 2
    try:
        battle = json.loads(args.battle.read_text("utf-8")) if args.battle else rivals_battle()
        files = extensions.from_options(args.project, args.extension)
        words = extensions.load(files).words if files else None
    except (OSError, ValueError, extensions.ExtensionError) as exc:
        print(f"pybridge serve --ws: {exc}", file=sys.stderr)
        return 2
    if args.logs is not None:
        args.logs.mkdir(parents=True, exist_ok=True)
    limits = Limits(
        max_message=args.max_message,
        idle=args.idle,
        origins=tuple(args.allow_origin),
        loopback=not args.no_loopback_origins,
        max_matches=args.max_matches,
        per_address=args.max_per_address,
        abandon=args.abandon,
        matches_per_address=args.matches_per_address,
        backlog=args.max_backlog,
    )
    store = None
    if args.redis:
        try:
            from .store import Store
        except ImportError as exc:
            print(f"pybridge serve --ws: {exc} (install the 'online' extra)", file=sys.stderr)
            return 2
        store = Store(args.redis, args.lease)
    with contextlib.suppress(KeyboardInterrupt):  # Ctrl+C stops the server
        host = Host(
            battle, limits, words, args.logs, store, args.deflate, fixed_order=args.fixed_order
        )
        asyncio.run(run(host, args.host, args.port))
    return 0


def add_replay_command(commands: Any) -> None:
    parser = commands.add_parser(
        "replay", help="replay an online match's move log and check its state hashes"
    )
    parser.add_argument("log", type=Path, help="a match log (serve --ws --logs)")
    extensions.add_options(parser, "load")
    parser.set_defaults(run=_cmd_replay)


def _cmd_replay(args: argparse.Namespace) -> int:
    try:
        log = json.loads(args.log.read_text("utf-8"))
        files = extensions.from_options(args.project, args.extension)
        words = extensions.load(files).words if files else None
    except (OSError, ValueError, extensions.ExtensionError) as exc:
        print(f"pybridge replay: {exc}", file=sys.stderr)
        return 2
    done = replay(log, words)
    if done.mismatch is not None:
        print(f"pybridge replay: step {done.mismatch}: {done.reason}", file=sys.stderr)
        return 1
    print(f"{done.steps} steps replayed, every state hash matches")
    return 0
