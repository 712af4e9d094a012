"""``pybridge lint`` and ``pybridge describe``: the checker and the describer on files.

``pybridge lint PATH...`` checks battle and card library documents (or every ``*.json``
document of ours under a directory), prints each diagnostic with its file, JSON path, card,
node, field, message and fix, then a summary line. Exit status: 0 without errors, 1 with
errors, 2 when a file cannot be read, no document was found, or the command is misused.
``--format json`` prints one JSON object for tools and the Godot editor.

``pybridge describe CARD_ID [--file PATH]`` prints the text the describer writes for a card
(or an enemy move or a status) of the demo battle or of a document; ``--all`` prints every
definition with its authored text and the generated one.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from .. import extensions
from ..examples import demo_battle
from ..folders import walk
from ..runtime.definitions import LIBRARY_FORMAT, load_library
from ..runtime.document import load_battle
from ..runtime.errors import TargetingError
from ..runtime.migrate import BATTLE, LIBRARY, versions
from ..runtime.model import CardDef, MoveDef, StatusDef
from ..runtime.vocabulary import Vocabulary
from ..simulate.inputs import CardPool, InputError, library_cards, read_libraries
from .describe import describe_card, describe_move, describe_status
from .lint import Diagnostic, Severity, lint_document, summary

#: Every version of a document lint reads (older ones are migrated when read).
_FORMATS = (*versions(BATTLE), *versions(LIBRARY))
_RANK = {Severity.INFO: 0, Severity.WARNING: 1, Severity.ERROR: 2}


def add_authoring_commands(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``pybridge lint`` and ``pybridge describe``."""
    lint = subparsers.add_parser(
        "lint",
        help="check cards, moves and statuses against the targeting contract",
        description="Check battle and card library documents: target modes against Behavior "
        "sources, card text against what the Behavior does, selector chains that may come "
        "back empty. Exit status 0: no errors; 1: errors; 2: unreadable files, no document "
        "found, or bad usage.",
    )
    lint.add_argument("paths", nargs="+", metavar="PATH", help="JSON documents or directories")
    lint.add_argument("--format", choices=("text", "json"), default="text", help="output format")
    lint.add_argument(
        "--min-severity",
        choices=tuple(s.value for s in Severity),
        default="info",
        help="hide diagnostics below this severity (the exit status still counts errors)",
    )
    _library_option(lint, "the battles")
    extensions.add_options(lint)
    lint.set_defaults(run=_cmd_lint)
    describe = subparsers.add_parser(
        "describe",
        help="write a card's player-facing text from its Behavior",
        description="Print the text written from a card's Behavior (or an enemy move's or a "
        "status's) in gameplay language.",
    )
    describe.add_argument("card", nargs="?", metavar="CARD_ID", help="a card, move or status id")
    describe.add_argument("--file", help="battle or card library document (default: the demo)")
    describe.add_argument(
        "--all", action="store_true", help="every definition: authored and generated text"
    )
    _library_option(describe, "the --file battle")
    extensions.add_options(describe)
    describe.set_defaults(run=_cmd_describe, parser=describe)


def _library_option(parser: argparse.ArgumentParser, battles: str) -> None:
    parser.add_argument("--library", metavar="FILE", action="append", default=[],
                        help=f"a card library {battles} name cards from, as simulate and bench "
                        "take it (again for more)")  # fmt: skip


def _words(args: argparse.Namespace) -> Vocabulary | None:
    files = extensions.from_options(args.project, args.extension)
    return extensions.load(files).words if files else None


def _libraries(args: argparse.Namespace, words: Vocabulary | None) -> CardPool:
    """The cards of the ``--library`` files, checked card by card; each broken card is said
    on standard error (a battle naming it is refused, pointing there)."""
    pool = read_libraries([Path(name) for name in args.library], words)
    for problem in pool.broken.values():
        print(f"pybridge {args.command}: {problem.message}", file=sys.stderr)
    return pool


# -- lint --------------------------------------------------------------------------------------
def _documents(paths: list[str]) -> Iterator[tuple[str, Path, bool]]:
    """(shown name, path, named explicitly) for every file to check."""
    for name in paths:
        path = Path(name)
        if path.is_dir():
            walked = walk(path)
            for found in sorted(p for p in walked.files() if p.suffix == ".json"):
                yield str(found), found, False
            for skipped in walked.skipped:
                print(f"pybridge lint: skipped {skipped}", file=sys.stderr)
        else:
            yield name, path, True


def _unreadable(name: str, why: str) -> Diagnostic:
    return Diagnostic(
        "PB001",
        Severity.ERROR,
        why,
        "give a battle or card library document in JSON (docs/format.md)",
        name,
        "document",
    )


def _cmd_lint(args: argparse.Namespace) -> int:
    try:
        words = _words(args)
        pool = _libraries(args, words)
    except (extensions.ExtensionError, InputError) as exc:
        print(f"pybridge lint: {exc}", file=sys.stderr)
        return 2
    diagnostics: list[Diagnostic] = []
    documents: list[tuple[str, object]] = []
    unreadable = False
    for name, path, explicit in _documents(args.paths):
        try:
            document = json.loads(path.read_text("utf-8"))
        except (OSError, UnicodeDecodeError, ValueError, RecursionError) as exc:
            if explicit or not isinstance(exc, ValueError):
                diagnostics.append(_unreadable(name, _why(exc)))
                unreadable = True
            continue
        if not explicit and not (
            isinstance(document, Mapping) and document.get("format") in _FORMATS
        ):
            continue  # some other JSON file in a directory
        documents.append((name, document))
    # The card libraries checked with the battles lend them the cards they do not define
    # themselves (a battle that defines its cards needs none); their own problems are
    # reported where they are defined. --library files are what the battles are opened with.
    found = CardPool(words)
    for name, document in documents:
        if isinstance(document, Mapping) and document.get("format") == LIBRARY_FORMAT:
            with contextlib.suppress(InputError):  # not a list of cards: linted below
                found.add(library_cards(document, name), name)
    checked = [name for name, _ in documents]
    unusable = {card: problem.message for card, problem in {**found.broken, **pool.broken}.items()}
    for name, document in documents:
        own = _own_cards(document)
        library = {**{k: v for k, v in found.library.items() if k not in own}, **pool.library}
        diagnostics.extend(lint_document(document, name, words, library, unusable))
    if not checked and not unreadable:  # checking nothing must not look like a clean bill
        print(f"pybridge lint: no battle or card library document in {', '.join(args.paths)}",
              file=sys.stderr)  # fmt: skip
        return 2
    counts = summary(diagnostics)
    floor = _RANK[Severity(args.min_severity)]
    shown = [d for d in diagnostics if _RANK[d.severity] >= floor]
    if args.format == "json":
        out = {
            "files": checked,
            "diagnostics": [d.to_json() for d in shown],
            "summary": {**counts, "files": len(checked)},
        }
        print(json.dumps(out, indent=2, ensure_ascii=False))
    else:
        for d in shown:
            print(_text(d))
        print(_summary_line(counts, len(checked)))
    if unreadable:
        return 2
    return 1 if counts[Severity.ERROR.value] else 0


def _own_cards(document: object) -> set[object]:
    """The ids of the cards a battle document defines itself."""
    cards = document.get("cards") if isinstance(document, Mapping) else None
    if not isinstance(cards, list):
        return set()
    return {card.get("id") for card in cards if isinstance(card, Mapping)}


def _why(exc: BaseException) -> str:
    if isinstance(exc, OSError):
        return f"cannot read the file: {exc.strerror or exc}"
    if isinstance(exc, UnicodeDecodeError):
        return f"the file is not UTF-8: {exc}"
    if isinstance(exc, RecursionError):
        return "the JSON nests too deeply"
    return f"the file is not JSON: {exc}"


def _text(d: Diagnostic) -> str:
    where = f"{d.file}:{d.path}" if d.path else f"{d.file}"
    lines = [f"{where}: {d.severity.value} {d.code}: {d.message}"]
    location = d.location()
    if location:
        lines.append(f"    at {location}")
    lines.append(f"    fix: {d.fix}")
    return "\n".join(lines)


def _summary_line(counts: Mapping[str, int], files: int) -> str:
    def plural(n: int, word: str) -> str:
        return f"{n} {word}" + ("" if n == 1 or word == "info" else "s")

    parts = [plural(counts[s.value], s.value) for s in (Severity.ERROR, Severity.WARNING)]
    parts.append(f"{counts[Severity.INFO.value]} info")
    return f"{', '.join(parts)} in {plural(files, 'file')}"


# -- describe ----------------------------------------------------------------------------------
def _load(file: str | None, words: Vocabulary | None = None,
          library: Mapping[str, CardDef] | None = None,
          ) -> tuple[dict[str, CardDef], dict[str, MoveDef], dict[str, StatusDef]]:  # fmt: skip
    """The definitions of the document (a battle opened with ``library``, or a library)."""
    document: Any = demo_battle() if file is None else json.loads(Path(file).read_text("utf-8"))
    if isinstance(document, Mapping) and document.get("format") in versions(LIBRARY):
        return load_library(document, words), {}, {}
    battle = load_battle(document, library, words)
    return battle.library, battle.moves, battle.statuses


def _cmd_describe(args: argparse.Namespace) -> int:
    if not args.all and args.card is None:
        args.parser.error("give a CARD_ID or --all")
    try:
        words = _words(args)
        cards, moves, statuses = _load(args.file, words, _libraries(args, words).library)
    except (extensions.ExtensionError, InputError) as exc:
        print(f"pybridge describe: {exc}", file=sys.stderr)
        return 2
    except (OSError, ValueError, RecursionError) as exc:
        where = f" ({exc.where})" if isinstance(exc, TargetingError) and exc.where else ""
        hint = ""
        if not args.library and where.endswith(".card)") and "no card with this id" in str(exc):
            hint = " (name the card library the battle is opened with: --library FILE)"
        print(f"pybridge describe: {args.file}{where}: {exc}{hint}", file=sys.stderr)
        return 2
    texts: list[tuple[str, str, str, str, str]] = []
    for card in cards.values():
        texts.append(("card", card.id, card.name, card.text, describe_card(card, statuses)))
    for move in moves.values():
        texts.append(("move", move.id, move.name, move.text, describe_move(move, statuses)))
    for status in statuses.values():
        made = describe_status(status, statuses)
        texts.append(("status", status.id, status.name, status.text, made))
    if not args.all:
        for _, ident, _, _, generated in texts:
            if ident == args.card:
                print(generated)
                return 0
        known = ", ".join(sorted(cards)) or "none"
        source = args.file or "the demo battle"
        print(
            f"pybridge describe: no card, move or status {args.card!r} in {source} "
            f"(cards: {known})",
            file=sys.stderr,
        )
        return 2
    differ = 0
    for kind, ident, name, authored, generated in texts:
        print(f"{kind} {ident} ({name})")
        print(f"  authored:  {authored or '(none)'}")
        same = generated == authored
        differ += not same
        print(f"  generated: {'same' if same else generated or '(nothing)'}")
    print(f"{len(texts)} definitions, {differ} with a generated text that differs")
    return 0
