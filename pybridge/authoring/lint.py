"""The authoring contract checker.

The seeds call targeting "a contract between what a card says, what the player selects, and
what the graph resolves", and name the most common bug: "An AllEnemyUnits card whose only damage
node targets Opponent looks like AoE in the hand and hits one enemy on resolve." The runtime
does what the graph says; this checker reads card definitions (and enemy moves and statuses)
before they ship and reports, per card, where the three parties disagree.

Every diagnostic has a stable code (docs/lint.md lists them all), a fixed severity, a precise
location (file, card, node, field, and the JSON path inside the document) and a suggested fix.

This module is the public entry. The codes and the diagnostics are in :mod:`.codes`, the checks
of a Behavior against its Host and mode in :mod:`.checks`, the checks of the text in
:mod:`.text_checks`.

>>> from pybridge.runtime import load_library
>>> library = load_library({"format": "pybridge/cards@1", "cards": [
...     {"id": "quake", "name": "Quake", "target": "AllEnemies",
...      "text": "Deal 8 damage to all enemies.",
...      "behavior": {"start": "hit", "nodes": [
...          {"id": "hit", "type": "DealDamage", "amount": 8, "source": "Opponent"}]}}]})
>>> [(d.code, d.node, d.field) for d in lint_card(library["quake"])]
[('PB101', 'hit', 'source')]
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..runtime.calls import CallRefused, call_problems
from ..runtime.context import HostKind
from ..runtime.definitions import LIBRARY_FORMAT, MAX_CARDS, load_library, parse_card
from ..runtime.document import load_battle
from ..runtime.errors import FormatError, TargetingError
from ..runtime.model import CardDef, MoveDef, StatusDef
from ..runtime.reader import Reader
from ..runtime.vocabulary import Vocabulary
from .analysis import Subject, numbers_of
from .checks import Checker
from .codes import CODES, Code, Diagnostic, Scope, Severity, indexed, ordered, refused, summary
from .describe import describe_card, describe_move, describe_status
from .text_checks import check_text
from .wording import mentions_keyword

__all__ = [
    "CODES",
    "Code",
    "Diagnostic",
    "Severity",
    "lint_card",
    "lint_document",
    "lint_move",
    "lint_status",
    "summary",
]


# -- public entry points -----------------------------------------------------------------------
def lint_card(
    card: CardDef,
    statuses: Mapping[str, StatusDef] | None = None,
    *,
    file: str | None = None,
    path: str = "",
) -> list[Diagnostic]:
    """Check one card definition. ``statuses``: the battle's status definitions, if known
    (names in suggested texts, and PB117 for statuses it does not define)."""
    scope = Scope("card", card.id, path, file)
    subject = Subject.of_card(card)
    scope.enter(card.behavior, "behavior")
    Checker(
        scope,
        card.behavior,
        subject,
        card.text,
        statuses,
        tuple(p.condition for p in card.playable_if),
    ).run()
    check_text(
        scope,
        card.behavior,
        subject,
        card.text,
        statuses,
        lambda: describe_card(card, statuses),
        extra_numbers={card.cost, subject.target_count},
    )
    for keyword in card.keywords:
        if card.text and not mentions_keyword(card.text, keyword):
            scope.report(
                "PB209",
                f"the card has the keyword {keyword!r}, but its text never "
                "says so; the player cannot know what happens to the card",
                f'end the text with "{keyword}."',
                at="keywords",
            )
    return ordered(scope.out)


def lint_move(
    move: MoveDef,
    statuses: Mapping[str, StatusDef] | None = None,
    *,
    file: str | None = None,
    path: str = "",
) -> list[Diagnostic]:
    """Check an enemy move: the same contract as a card, seen from the enemy."""
    scope = Scope("move", move.id, path, file)
    subject = Subject.of_move(move)
    scope.enter(move.behavior, "behavior")
    Checker(scope, move.behavior, subject, move.text, statuses).run()
    check_text(
        scope, move.behavior, subject, move.text, statuses, lambda: describe_move(move, statuses)
    )
    return ordered(scope.out)


def lint_status(
    status: StatusDef,
    statuses: Mapping[str, StatusDef] | None = None,
    *,
    file: str | None = None,
    path: str = "",
) -> list[Diagnostic]:
    """Check a status: its hooks' Behaviors (no target mode: the owner is the Host) and text."""
    scope = Scope("status", status.id, path, file)
    known = dict(statuses or {})
    known.setdefault(status.id, status)
    hooks = list(status.hooks.items())
    for hook, behavior in hooks:
        scope.enter(behavior, f"hooks.{hook}")
        subject = Subject.of_hook(hook, behavior.words)
        Checker(scope, behavior, subject, status.text, statuses, empty_at=f"hooks.{hook}").run()
    extra = {status.decay or 0, abs(status.damage_dealt), abs(status.damage_taken)}
    check_text(
        scope,
        None,
        Subject(HostKind.STATUS),
        status.text,
        statuses,
        lambda: describe_status(status, known),
        extra_numbers=extra | {n for _, b in hooks for n in numbers_of(b)},
    )
    return ordered(scope.out)


def lint_document(document: object, file: str | None = None, words: Vocabulary | None = None,
                  library: Mapping[str, CardDef] | None = None,
                  unusable: Mapping[str, str] | None = None) -> list[Diagnostic]:  # fmt: skip
    """Check a battle or card library document. A battle the loader refuses becomes one PB002
    diagnostic naming the loader's JSON path and message (and the card, node and field it
    leads to); its piles may name the cards of ``library`` (the card libraries it is opened
    with), which are checked where they are defined, and a card it names that is in
    ``unusable`` (library cards left out, by id, with why) says why. A library is checked
    card by card: a card the loader refuses is one PB002 at its card, node and field, and
    every other card is checked in full."""
    try:
        if isinstance(document, Mapping) and document.get("format") == LIBRARY_FORMAT:
            return _lint_library(document, file, words)
        battle = load_battle(document, library, words)
        library, statuses, moves = battle.library, battle.statuses, battle.moves
    except CallRefused as exc:
        return [refused(file, exc.where, exc.message, document, _CALLS_FIX, "PB122")]
    except TargetingError as exc:
        if exc.where.endswith(".card") and "no card with this id" in exc.message:
            value = exc.value if isinstance(exc, FormatError) else None
            why = (unusable or {}).get(value) if isinstance(value, str) else None
            message = f"{exc.message} ({why})" if why else exc.message
            return [refused(file, exc.where, message, document, _LIBRARY_FIX)]
        return [refused(file, exc.where, exc.message, document)]
    except (RecursionError, ValueError, TypeError, KeyError) as exc:
        return [refused(file, "", f"{type(exc).__name__}: {exc}")]
    assert isinstance(document, Mapping)
    out: list[Diagnostic] = []
    known = statuses or None
    for index, card in indexed(document, "cards", library):
        out.extend(lint_card(card, known, file=file, path=f"cards[{index}]"))
    for index, status in indexed(document, "statuses", statuses):
        out.extend(lint_status(status, known, file=file, path=f"statuses[{index}]"))
    for index, move in indexed(document, "moves", moves):
        out.extend(lint_move(move, known, file=file, path=f"moves[{index}]"))
    return out


#: The fix of a library card the loader refuses: the library's other cards are still checked.
_CARD_REFUSED = "fix the field the loader names; the card's other checks run once it loads"
#: The fix of a battle naming a card it does not define: its library was not given.
_LIBRARY_FIX = (
    "define the card in the battle's cards, or check the battle with the card "
    "library it is opened with (a library among the paths, or --library FILE)"
)
#: The fix of a cycle of calls (PB122).
_CALLS_FIX = ("break the cycle (or shorten the chain): let one of the cards do the effect "
              "itself instead of calling")  # fmt: skip


def _lint_library(document: Mapping[str, Any], file: str | None,
                  words: Vocabulary | None) -> list[Diagnostic]:  # fmt: skip
    """Each card of a library on its own, so one broken card hides nothing else."""
    try:  # the library's own shape (format, the cards list), without its cards
        load_library({**document, "cards": []}, words)
        cards = Reader(document, words=words).field("cards").elements(MAX_CARDS)
    except TargetingError as exc:
        return [refused(file, exc.where, exc.message, document)]
    out: list[Diagnostic] = []
    loaded: dict[str, CardDef] = {}
    paths: dict[str, str] = {}
    for index, entry in enumerate(cards):
        try:
            card = parse_card(entry)
            if card.id in loaded:
                raise entry.field("id").fail(f"duplicate card id (the first is {paths[card.id]})")
        except TargetingError as exc:
            out.append(refused(file, exc.where, exc.message, document, _CARD_REFUSED))
            continue
        loaded[card.id], paths[card.id] = card, f"cards[{index}]"
        out.extend(lint_card(card, None, file=file, path=f"cards[{index}]"))
    for problem in call_problems(loaded, paths, complete=False):
        out.append(refused(file, problem.where, problem.error().message, document, _CALLS_FIX,
                           "PB122"))  # fmt: skip
    return out
