"""An extension's code as the rules run it: who ran it, for its errors, and what the events its
actions report must hold (docs/extensions.md, "When an extension fails").

An extension's fault is an ``extension_error`` whose message names the extension, the word,
the node and the card (or status, or move) once, and whose ``where`` is the same place as a
path of ids: ``cards.<card id>.nodes.<node id>``, ``statuses.<status id>.nodes.<node id>``,
``moves.<move id>.nodes.<node id>`` (``units.<host id>`` for a Behavior of none of those).

While an extension's action runs, its context checks each event ``ctx.emit`` adds
(:class:`Emitting`): within the request's event limit, a declared type, one the action lists
in its ``events``, with each declared field and no other, each of its declared type. The
runtime's own actions never pay for it: their context has no such check.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from .errors import ExtensionFailed, WorkLimit
from .shapes import SHAPES, shape_mismatch

if TYPE_CHECKING:
    from .context import Context, Event

#: Events one request may report; past it the request is refused (its response would be huge).
MAX_EVENTS: Final = 50_000

#: The type a narration's parameter kind asks of the event field it names, where the event
#: declares the field without a type (``any``): a unit is told by its id, units by a list.
_PARAM_FIELD_TYPES: Final = {
    "unit": "string", "units": "list<string>", "card": "string", "cards": "list<string>",
    "status": "string", "move": "string", "pile": "string", "counter": "string",
    "name": "string", "text": "string", "number": "float",
}  # fmt: skip


def too_many_events() -> WorkLimit:
    return WorkLimit(f"this request would report more than {MAX_EVENTS} events; nothing was "
                     "applied", "")  # fmt: skip


def _runner(ctx: Context) -> tuple[str, str, str]:
    """What runs the Behavior: its table in a path of ids (``cards``, ``statuses``,
    ``moves``, or ``units`` for none of those), its id there, and it in words."""
    card = ctx.this_card
    if card is not None and card in ctx.battle.cards:
        definition = ctx.battle.cards[card].card.id
        return "cards", definition, f"card {definition!r} (instance {card!r})"
    if ctx.status is not None:
        return "statuses", ctx.status, f"status {ctx.status!r} of {ctx.host.id!r}"
    move = _move(ctx)
    if move is not None:
        return "moves", move, f"move {move!r} of {ctx.host.id!r}"
    return "units", ctx.host.id, f"a Behavior of {ctx.host.id!r}"


def whose(ctx: Context) -> str:
    """What runs the Behavior, in words: a card and its instance, a status, a move."""
    return _runner(ctx)[2]


def place(ctx: Context, node: str | None) -> str:
    """Where the Behavior that runs is, as a path of ids (an ``extension_error``'s ``where``)."""
    table, runner, _ = _runner(ctx)
    path = f"{table}.{runner}"
    return path if node is None else f"{path}.nodes.{node}"


def _move(ctx: Context) -> str | None:
    entry = next((e for e in ctx.battle.cut if e.id == ctx.entry), None)
    return None if entry is None else entry.move


def failure(extension: str, word: str, ctx: Context | None, node: str | None, detail: str,
            trace: str = "") -> ExtensionFailed:  # fmt: skip
    """The ``extension_error`` of ``extension``'s ``word`` ("source 'Strs'", "action 'Loot'")
    in ``node`` of what ``ctx`` runs: ``detail`` says what went wrong."""
    at = "" if node is None else f" in node {node!r}"
    of = "" if ctx is None else f" of {whose(ctx)}"
    failed = ExtensionFailed(f"extension {extension!r} failed: {word}{at}{of}: {detail}",
                             "" if ctx is None else place(ctx, node), trace)  # fmt: skip
    failed.parts = (extension, word, ctx, detail, trace)
    return failed


def at_node(failed: ExtensionFailed, node: str) -> ExtensionFailed:
    """``failed`` (a word that does not know the node it runs for: a source) naming ``node``."""
    if failed.parts is None or "nodes." in failed.where:
        return failed
    extension, word, ctx, detail, trace = failed.parts
    return failure(extension, word, ctx, node, detail, trace)


class Emitting:
    """An extension's action running for ``node``: the events its ``ctx.emit`` may add."""

    __slots__ = ("extension", "listed", "node", "word")

    def __init__(self, extension: str, word: str, node: str, listed: frozenset[str]) -> None:
        self.extension = extension
        self.word = word
        self.node = node
        self.listed = listed

    def add(self, ctx: Context, event: Event) -> None:
        """Add ``event`` to the request's events, or refuse it (nothing applied)."""
        events = ctx.events
        if len(events) >= MAX_EVENTS:
            raise too_many_events()
        problem = self.problem(ctx, event)
        if problem is not None:
            raise failure(self.extension, self.word, ctx, self.node, problem)
        events.append(event)

    def problem(self, ctx: Context, event: Event) -> str | None:
        """What is wrong with ``event`` for this action, in words; None when nothing is."""
        event_type = event["type"]
        declared = ctx.words.events.get(event_type)
        if declared is None:
            return (f"it emitted event {event_type!r}, which is no declared event type "
                    "(declare it with words.event)")  # fmt: skip
        if event_type not in self.listed and declared.owner:
            return (f"it emitted event {event_type!r}, which its events= does not list "
                    f"({', '.join(sorted(self.listed)) or 'none'})")  # fmt: skip
        types = declared.spec.field_types()
        if declared.narration is not None:
            for name, kind in declared.narration.message.params.items():
                if types.get(name) == "any" and kind in _PARAM_FIELD_TYPES:
                    types[name] = _PARAM_FIELD_TYPES[kind]
        found = shape_mismatch(event, SHAPES["event"], event_type, extra=types)
        if found is None:
            return None
        fields = ", ".join(declared.spec.fields) or "none"
        return f"it emitted event {event_type!r} that does not fit its declaration: {found} " \
            f"(fields: {fields})"  # fmt: skip
