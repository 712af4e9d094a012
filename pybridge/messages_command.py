"""``pybridge messages``: every sentence a player may read, as a gettext template (POT) or CSV.

The template holds the runtime's messages and those of the loaded extensions; with
``--library FILE`` (a card library or a battle, again for more) also the game's card, move and
status names and texts and its units' names (docs/translation.md). A translator copies the
template to ``<language>.po`` and fills it; ``msgmerge`` keeps it up to date.
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from . import __version__, extensions
from .catalog import Entry, data_entries, message_entries
from .runtime import load_battle
from .runtime.definitions import load_library
from .runtime.migrate import LIBRARY, versions
from .runtime.model import CardDef
from .runtime.vocabulary import Vocabulary, builtin


def catalog(words: Vocabulary, documents: Sequence[Mapping[str, Any]] = ()) -> list[Entry]:
    """The entries of a vocabulary's messages and of the documents' names and texts: card
    libraries first, then battles, which may name the libraries' cards."""
    entries = message_entries(words)
    library: dict[str, CardDef] = {}
    for document in documents:
        if document.get("format") in versions(LIBRARY):
            cards = load_library(document, words)
            library.update(cards)
            entries += data_entries(cards)
    for document in documents:
        if document.get("format") not in versions(LIBRARY):
            battle = load_battle(document, library, words)
            entries += data_entries(battle.library, battle.moves, battle.statuses,
                                    (u.name for u in battle.units))  # fmt: skip
    seen: set[tuple[str, str]] = set()
    unique = []
    for entry in entries:
        if (entry.context, entry.english) not in seen:
            seen.add((entry.context, entry.english))
            unique.append(entry)
    return unique


def pot(entries: Sequence[Entry]) -> str:
    """The entries as a gettext template: ``msgctxt`` the id, ``msgid`` the English (with
    ``msgid_plural`` where the entry has plural forms), a translator comment on each."""
    import polib  # a tool's library, never the runtime's

    template = polib.POFile(wrapwidth=0)
    template.metadata = {
        "Project-Id-Version": f"pybridge-targeting {__version__}",
        "MIME-Version": "1.0",
        "Content-Type": "text/plain; charset=UTF-8",
        "Content-Transfer-Encoding": "8bit",
    }
    for entry in entries:
        plural = {"msgid_plural": entry.plural, "msgstr_plural": {0: "", 1: ""}} \
            if entry.plural else {"msgstr": ""}  # fmt: skip
        template.append(polib.POEntry(msgctxt=entry.context, msgid=entry.english,
                                      comment=entry.comment, **plural))  # fmt: skip
    return str(template) + "\n"


#: The columns of the CSV export.
CSV_COLUMNS = ("id", "english", "english_plural", "params", "comment")


def csv_text(entries: Sequence[Entry]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for entry in entries:
        params = " ".join(f"{name}:{kind}" for name, kind in entry.params.items())
        writer.writerow((entry.context, entry.english, entry.plural, params, entry.comment))
    return out.getvalue()


def _cmd_messages(args: argparse.Namespace) -> int:
    try:
        files = extensions.from_options(args.project, args.extension)
        words = extensions.load(files).words if files else builtin()
        documents = [json.loads(Path(f).read_text("utf-8")) for f in args.library]
        entries = catalog(words, documents)
    except extensions.ExtensionError as exc:
        print(f"pybridge messages: {exc}", file=sys.stderr)
        return 2
    except (OSError, ValueError, RecursionError) as exc:
        print(f"pybridge messages: {exc}", file=sys.stderr)
        return 2
    try:
        text = pot(entries) if args.format == "pot" else csv_text(entries)
    except ImportError:
        print("pybridge messages: the POT export needs polib (the [i18n] extra); "
              "--format csv needs nothing more", file=sys.stderr)  # fmt: skip
        return 2
    if args.out:
        Path(args.out).write_text(text, "utf-8")
    else:
        sys.stdout.write(text)
    return 0


def add_messages_command(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``pybridge messages [--format pot|csv] [--library FILE]... [-o OUT]``."""
    cmd = subparsers.add_parser(
        "messages",
        help="export every message players read, for translators (POT or CSV)",
        description="Write a gettext template (or CSV) of every message the runtime and the "
        "extensions declare, and of the names and texts of the given libraries and battles.",
    )
    cmd.add_argument("--format", choices=("pot", "csv"), default="pot", help="output format")
    cmd.add_argument("--library", metavar="FILE", action="append", default=[],
                     help="a card library or battle whose names and texts to add "
                     "(again for more)")  # fmt: skip
    cmd.add_argument("-o", "--out", metavar="FILE", help="write here (default: standard output)")
    extensions.add_options(cmd, "export the messages of")
    cmd.set_defaults(run=_cmd_messages)
