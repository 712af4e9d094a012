"""A vocabulary: every word a battle document may name, with the facts that come with it.

Node types, unit and card sources, condition tests and measures, filter and sort keys, event
types, kinds of player choice and battle counters live in one :class:`Vocabulary`. The
built-in vocabulary, :func:`builtin`, holds the graph's grammar and the built-in words, which
:mod:`pybridge.words` declares through the extension API (:mod:`.builtin_words` puts them
together); a game's extension modules register theirs into a copy of it
(:meth:`Vocabulary.extended`), one copy per protocol instance, so two games with different
extensions can share a process. Documents
are read with a vocabulary (``Reader.words``) and a battle keeps the one it was read with
(``Battle.words``): every rule that looks a word up looks it up there.

A sealed vocabulary never changes. Registration refuses a word that is already taken, naming
who declared it first.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from enum import StrEnum
from functools import cache
from typing import TYPE_CHECKING, Any

from .conditions import ConditionTest, Measure
from .errors import FormatError
from .events import EventSpec
from .filters import FilterKey, SortKey
from .kinds import Kind
from .nodes import NodeType
from .reader import Reader
from .sources import CardSourceSpec, UnitSourceSpec

if TYPE_CHECKING:
    from .context import Event
    from .graph import Node
    from .model import Battle

#: The version of the extension API (pybridge.extend): major.minor; a minor bump only adds.
API_VERSION = "1.4"

#: Who declared a word: "" for the built-in vocabulary, else the extension's name.
BUILT_IN = ""


class Visibility(StrEnum):
    """Who may see an event, a choice or a counter once views are given per player."""

    OWNER = "owner"  # the side it belongs to (the player who chooses, the side that counts)
    EVERYONE = "everyone"
    NO_ONE = "no_one"  # bookkeeping only the authority reads


@dataclass(frozen=True, slots=True)
class Message:
    """A player-facing sentence: a stable ``id``, its English with ``{name}`` placeholders,
    and the type of each parameter (:data:`PARAM_TYPES`). Hosts translate by ``id``; the
    English is the source text (docs/translation.md).

    ``plural`` names the ``number`` parameter whose count picks the plural form, and
    ``english_plural`` is the English for a count other than one (gettext's
    ``msgid_plural``)."""

    id: str
    english: str
    params: Mapping[str, str] = field(default_factory=dict)
    plural: str = ""
    english_plural: str = ""

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {"id": self.id, "english": self.english,
                                  "params": dict(self.params)}  # fmt: skip
        if self.plural:
            out["plural"], out["english_plural"] = self.plural, self.english_plural
        return out


#: Parameter types a message may take: names (``unit``, ``card``, ``status``, ``move``, or
#: ``name``: any of them, or a sentence standing for one), lists of names, a pile, a counter,
#: a number, free text, a game's own text (``data``: a card's ``playable_if`` reason, which
#: its catalog translates by context), and a whole sentence of its own (``message``).
PARAM_TYPES = ("unit", "units", "card", "cards", "status", "move", "name", "pile", "number",
               "counter", "text", "data", "message")  # fmt: skip


@dataclass(frozen=True, slots=True)
class Narration:
    """How an event is told in the log: its message, read from the event's fields (each
    parameter names the event field it reads), and the line's kind (``narrate.LINE_KINDS``)."""

    message: Message
    kind: str = "info"


@dataclass(frozen=True, slots=True)
class EventWords:
    spec: EventSpec
    narration: Narration | None
    visibility: Visibility
    owner: str


@dataclass(frozen=True, slots=True)
class ChoiceKind:
    """A kind of choice an action asks the player for while it resolves.

    ``ordered``: the answer's order matters (the first id is the top of the pile);
    ``minimum``/``maximum`` are read from the ask (how many options may be taken)."""

    name: str
    doc: str
    prompt: Message
    ordered: bool = False
    visibility: Visibility = Visibility.OWNER
    owner: str = BUILT_IN

    def to_json(self) -> dict[str, object]:
        return {"name": self.name, "doc": self.doc, "prompt": self.prompt.to_json(),
                "ordered": self.ordered, "visibility": self.visibility.value,
                "extension": self.owner or None}  # fmt: skip


@dataclass(frozen=True, slots=True)
class CounterSpec:
    """A number the battle keeps (gold, combo, mana of a colour). ``reset``: ``turn_start``
    sets it back to ``default`` when a turn begins, None keeps it; ``counts``: event types
    that add one each (counted after each step, so a card reads those before its own)."""

    name: str
    doc: str
    default: int = 0
    minimum: int = 0
    maximum: int = 1_000_000
    reset: str | None = None
    counts: tuple[str, ...] = ()
    label: Message | None = None
    visibility: Visibility = Visibility.EVERYONE
    owner: str = BUILT_IN

    def to_json(self) -> dict[str, object]:
        return {"name": self.name, "doc": self.doc, "default": self.default,
                "minimum": self.minimum, "maximum": self.maximum, "reset": self.reset,
                "counts": list(self.counts),
                "label": None if self.label is None else self.label.to_json(),
                "visibility": self.visibility.value, "extension": self.owner or None}  # fmt: skip


@dataclass(frozen=True, slots=True)
class Extension:
    """A loaded extension: its name and version, and the words it declared."""

    name: str
    version: str
    doc: str = ""

    def to_json(self) -> dict[str, object]:
        return {"name": self.name, "version": self.version, "doc": self.doc}


class VocabularyError(ValueError):
    """A declaration that cannot be taken (a word already declared, a bad fact)."""


#: Node types whose field choices list other tables: rebuilt whenever those tables grow.
_DERIVED = {
    ("UnitSource", "source"): "unit_sources",
    ("CardSource", "source"): "card_sources",
    ("Condition", "test"): "condition_tests",
    ("Condition", "measure"): "measures",
}


_TABLES = ("node_types", "unit_sources", "card_sources", "condition_tests", "measures",
           "unit_filters", "card_filters", "unit_sorts", "card_sorts", "events", "choices",
           "counters", "describe", "messages", "extensions", "owners")  # fmt: skip


class Vocabulary:
    """Every word documents may name. Built-ins and extensions register the same way."""

    def __init__(self) -> None:
        self.node_types: dict[str, NodeType] = {}
        self.unit_sources: dict[str, UnitSourceSpec] = {}
        self.card_sources: dict[str, CardSourceSpec] = {}
        self.condition_tests: dict[str, ConditionTest] = {}
        self.measures: dict[str, Measure] = {}
        self.unit_filters: dict[str, FilterKey] = {}
        self.card_filters: dict[str, FilterKey] = {}
        self.unit_sorts: dict[str, SortKey] = {}
        self.card_sorts: dict[str, SortKey] = {}
        self.events: dict[str, EventWords] = {}
        self.choices: dict[str, ChoiceKind] = {}
        self.counters: dict[str, CounterSpec] = {}
        #: The describe words of extension node types (the built-ins' live with the describer).
        self.describe: dict[str, Message] = {}
        #: Every sentence a player may read, by id: the built-ins' and each extension's.
        self.messages: dict[str, Message] = {}
        self.extensions: dict[str, Extension] = {}
        #: Who declared each word, by table and name ("" for built-ins).
        self.owners: dict[tuple[str, str], str] = {}
        self._current = BUILT_IN
        self._sealed = False
        # Read by the loader on every node: computed when sealed.
        self.node_keys: frozenset[str] = frozenset()
        self.allowed_keys: dict[str, frozenset[str]] = {}
        self.counting: tuple[CounterSpec, ...] = ()

    # -- registering ---------------------------------------------------------------------
    def extended(self) -> Vocabulary:
        """An unsealed copy to register more words into (this one is not changed)."""
        copy = Vocabulary()
        for name in _TABLES:
            setattr(copy, name, dict(getattr(self, name)))
        return copy

    def begin(self, extension: Extension) -> None:
        """Words registered from now on belong to ``extension``."""
        self._check_open()
        if extension.name in self.extensions:
            raise VocabularyError(f"extension {extension.name!r} is already loaded")
        self.extensions[extension.name] = extension
        self._current = extension.name

    def end(self) -> None:
        self._current = BUILT_IN

    def _check_open(self) -> None:
        if self._sealed:
            raise VocabularyError("this vocabulary is sealed: register words in an extension's "
                                  "register() function, before the protocol starts")  # fmt: skip

    def _take(self, table: str, name: str) -> None:
        self._check_open()
        if not name or not all(c.isascii() and (c.isalnum() or c in "_-.:") for c in name):
            raise VocabularyError(f"{table[:-1].replace('_', ' ')} name {name!r}: use ASCII "
                                  "letters, digits, '_', '-', '.' or ':'")  # fmt: skip
        if (table, name) in self.owners:
            first = self.owners[(table, name)] or "the built-in vocabulary"
            raise VocabularyError(f"{table[:-1].replace('_', ' ')} {name!r} is already declared "
                                  f"by {first}")  # fmt: skip
        self.owners[(table, name)] = self._current

    def owner_of(self, table: str, name: str) -> str | None:
        """Who declared a word ("" built-in), None when nobody did."""
        return self.owners.get((table, name))

    def add_message(self, message: Message) -> None:
        """A sentence for the message table; the same message declared twice (a narration
        reused as a prompt) is taken once, another text under a taken id is refused."""
        if self.messages.get(message.id) == message:
            return
        self._take("messages", message.id)
        self.messages[message.id] = message

    def add_node_type(self, spec: NodeType, describe: Message | None = None) -> None:
        self._take("node_types", spec.name)
        if describe is not None:
            self.add_message(describe)
            spec = dataclasses.replace(spec, describe=describe)
            self.describe[spec.name] = describe
        self.node_types[spec.name] = spec

    def add_unit_source(self, spec: UnitSourceSpec) -> None:
        self._take("unit_sources", spec.name)
        self.unit_sources[spec.name] = spec

    def add_card_source(self, spec: CardSourceSpec) -> None:
        self._take("card_sources", spec.name)
        self.card_sources[spec.name] = spec

    def add_condition_test(self, spec: ConditionTest) -> None:
        self._take("condition_tests", spec.name)
        self.condition_tests[spec.name] = spec

    def add_measure(self, spec: Measure) -> None:
        self._take("measures", spec.name)
        self.measures[spec.name] = spec

    def add_filter(self, spec: FilterKey, of: str) -> None:
        table = "unit_filters" if of == "units" else "card_filters"
        self._take(table, spec.name)
        getattr(self, table)[spec.name] = spec

    def add_sort(self, spec: SortKey, of: str) -> None:
        table = "unit_sorts" if of == "units" else "card_sorts"
        self._take(table, spec.name)
        getattr(self, table)[spec.name] = spec

    def add_event(self, spec: EventSpec, narration: Narration | None,
                  visibility: Visibility = Visibility.EVERYONE) -> None:  # fmt: skip
        self._take("events", spec.type)
        if narration is not None:
            self.add_message(narration.message)
        self.events[spec.type] = EventWords(spec, narration, visibility, self._current)

    def add_choice(self, spec: ChoiceKind) -> None:
        self._take("choices", spec.name)
        self.add_message(spec.prompt)
        self.choices[spec.name] = dataclasses.replace(spec, owner=self._current)

    def add_counter(self, spec: CounterSpec) -> None:
        self._take("counters", spec.name)
        if spec.label is not None:
            self.add_message(spec.label)
        self.counters[spec.name] = dataclasses.replace(spec, owner=self._current)

    def seal(self) -> Vocabulary:
        """Finish: rebuild the choices that list other tables, compute what the loader reads
        on every node, and refuse any further registration."""
        for (type_name, field_name), table in _DERIVED.items():
            spec = self.node_types.get(type_name)
            if spec is not None:
                names = tuple(getattr(self, table))
                fields = tuple(dataclasses.replace(f, choices=names) if f.name == field_name
                               else f for f in spec.fields)  # fmt: skip
                self.node_types[type_name] = dataclasses.replace(spec, fields=fields)
        sort = self.node_types.get("Sort")
        if sort is not None:
            names = (*self.unit_sorts, *(k for k in self.card_sorts if k not in self.unit_sorts))
            fields = tuple(dataclasses.replace(f, choices=names) if f.name == "by" else f
                           for f in sort.fields)  # fmt: skip
            self.node_types["Sort"] = dataclasses.replace(sort, fields=fields)
        self.allowed_keys = {name: _allowed_keys(t) for name, t in self.node_types.items()}
        self.node_keys = frozenset({"id", "type", "at", "source", "ports"}).union(
            *self.allowed_keys.values()
        )
        self.counting = tuple(c for c in self.counters.values() if c.counts)
        self._sealed = True
        return self

    def with_sources(self, unit_sources: dict[str, UnitSourceSpec],
                     card_sources: dict[str, CardSourceSpec]) -> Vocabulary:  # fmt: skip
        """A sealed copy of this vocabulary whose sources are the ones given (each the same
        word, its resolver watched: see :func:`.views.known_to`); this one is not changed."""
        copy = self.extended()
        copy.unit_sources, copy.card_sources = unit_sources, card_sources
        copy.allowed_keys, copy.node_keys = self.allowed_keys, self.node_keys
        copy.counting, copy._sealed = self.counting, True
        return copy

    # -- reading ---------------------------------------------------------------------------
    def sources_for(self, spec: NodeType) -> Mapping[str, UnitSourceSpec | CardSourceSpec]:
        """The sources an action's ``source`` field may name."""
        return self.unit_sources if spec.acts_on is Kind.UNITS else self.card_sources

    def extension_words(self) -> dict[str, list[str]]:
        """Each extension's words by table, for messages and the schema."""
        out: dict[str, list[str]] = {}
        for (table, name), owner in self.owners.items():
            if owner:
                out.setdefault(owner, []).append(f"{table}:{name}")
        return out


def _allowed_keys(ntype: NodeType) -> frozenset[str]:
    allowed = {"id", "type", "at", *(s.name for s in ntype.fields), *ntype.exits}
    if ntype.ports:
        allowed.add("ports")
    if ntype.acts_on is not None:
        allowed.add("source")
    return frozenset(allowed)


def words_of(battle: Battle) -> Vocabulary:
    """The vocabulary a battle was read with (the built-in one for a battle made in code)."""
    words: Vocabulary | None = battle.words
    return builtin() if words is None else words


def words_or_builtin(words: Vocabulary | None) -> Vocabulary:
    return builtin() if words is None else words


# -- documents that need extensions -------------------------------------------------------
@contextmanager
def needed_extensions(r: Reader) -> Iterator[None]:
    """Read a document's ``extensions`` (``{name: version}``, what it needs loaded) around
    the reading of the rest: a word that fails to read is told with the extension that would
    have declared it, and a document whose extensions are not all loaded is refused."""
    words = words_or_builtin(r.words)
    missing: list[str] = []
    ext_r = r.field("extensions", {})
    for name, version in ext_r.items(64):
        Reader(name, version.path).ident()
        wanted = version.text(32)
        loaded = words.extensions.get(name)
        if loaded is None:
            missing.append(f"{name!r} {wanted}")
        elif not version_serves(loaded.version, wanted):
            raise FormatError.stated(version.path, f"the document needs extension {name!r} "
                                     f"{wanted}, and {loaded.version} is loaded: a document "
                                     "opens with the same version, or a newer one of the same "
                                     "major version (its first number)")  # fmt: skip
    try:
        yield
    except FormatError as exc:
        if missing:
            exc.args = (f"{exc.args[0]} (the document needs extension {', '.join(missing)}, "
                        "which is not loaded)",)  # fmt: skip
        raise
    if missing:
        raise FormatError.stated("extensions", f"the document needs extension "
                                 f"{', '.join(missing)}, which is not loaded (name it in the "
                                 "game's extension list)")  # fmt: skip


def version_serves(loaded: str, wanted: str) -> bool:
    """Whether an extension at version ``loaded`` reads a document made for ``wanted``: the
    same version, or, when both are dotted numbers (``1.2``), the same first number and
    ``loaded`` at least as new (a minor version only adds words; a major one may change or
    take them away). Other versions must be the same."""
    if loaded == wanted:
        return True
    have, want = _numbers(loaded), _numbers(wanted)
    if have is None or want is None:
        return False
    return have[0] == want[0] and have >= want


def _numbers(version: str) -> tuple[int, ...] | None:
    parts = version.split(".")
    if not all(part.isdigit() and len(part) <= 9 for part in parts):
        return None
    return tuple(int(part) for part in parts)


def extensions_used(battle: Battle) -> dict[str, str]:
    """The loaded extensions whose words the battle uses, with their versions."""
    words = words_of(battle)
    if not words.extensions:
        return {}
    owners: set[str] = set()
    behaviors = [c.behavior for c in battle.library.values()]
    behaviors += [m.behavior for m in battle.moves.values()]
    behaviors += [b for s in battle.statuses.values() for b in s.hooks.values()]
    for behavior in behaviors:
        for node in behavior.nodes.values():
            owners.update(_node_owners(words, node))
    owners.update(words.owners.get(("counters", name), "") for name in battle.counters)
    owners.discard("")
    return {name: words.extensions[name].version for name in sorted(owners)}


def _node_owners(words: Vocabulary, node: Node) -> Iterator[str]:
    get = words.owners.get
    yield get(("node_types", node.type.name), "")
    table = "unit_sources" if node.type.acts_on is Kind.UNITS or node.type.output is Kind.UNITS \
        else "card_sources"  # fmt: skip
    for source in (node.source, node.fields.get("source")):
        if isinstance(source, str):
            yield get((table, source), "")
    for key, table_name in (("test", "condition_tests"), ("measure", "measures")):
        value = node.fields.get(key)
        if isinstance(value, str):
            yield get((table_name, value), "")
    for value in node.fields.values():
        if isinstance(value, Mapping) and "counter" in value:
            yield get(("counters", str(value["counter"])), "")
        elif isinstance(value, Mapping):
            for key in value:
                yield get(("unit_filters", key), "") or get(("card_filters", key), "")
    by = node.fields.get("by")
    if isinstance(by, str):
        yield get(("unit_sorts", by), "") or get(("card_sorts", by), "")


# -- what counters do ----------------------------------------------------------------------
def count_events(battle: Battle, events: list[Event], since: int) -> None:
    """Add one to each counting counter per event of its types after index ``since``."""
    words = words_of(battle)
    for counter in words.counting:
        added = sum(1 for e in events[since:] if e["type"] in counter.counts)
        if added:
            change_counter(battle, events, counter.name, added, node=None)


def change_counter(battle: Battle, events: list[Event], name: str, delta: int,
                   node: str | None) -> None:  # fmt: skip
    """Add ``delta`` to a counter, kept in its range, and report the change."""
    if type(delta) is not int:
        raise TypeError(f"counter {name!r} changes by a whole number, got {delta!r:.40}")
    spec = words_of(battle).counters[name]
    before = battle.counters.get(name, spec.default)
    after = max(spec.minimum, min(spec.maximum, before + delta))
    if after != before:
        battle.counters[name] = after
        events.append({"type": "counter", "node": node, "counter": name, "before": before,
                       "after": after})  # fmt: skip


def reset_counters(battle: Battle, events: list[Event], when: str) -> None:
    for spec in words_of(battle).counters.values():
        if spec.reset == when:
            before = battle.counters.get(spec.name, spec.default)
            if before != spec.default:
                battle.counters[spec.name] = spec.default
                events.append({"type": "counter", "node": None, "counter": spec.name,
                               "before": before, "after": spec.default})  # fmt: skip


def counter_value(battle: Battle, name: str) -> int:
    spec = words_of(battle).counters[name]
    return battle.counters.get(name, spec.default)


@cache
def builtin() -> Vocabulary:
    """The built-in vocabulary: made on first use (its words are declared through
    :mod:`pybridge.extend`, which imports this module), then sealed; it never changes."""
    from .builtin_words import build

    return build()


if TYPE_CHECKING:  # given by __getattr__ below
    BUILTIN: Vocabulary


def _module_getattr(name: str) -> Any:
    """``BUILTIN``: :func:`builtin`, for ``from .vocabulary import BUILTIN``."""
    if name == "BUILTIN":
        return builtin()
    raise AttributeError(name)


# Bound, not defined, as __getattr__: mypyc crashes importing a compiled module that
# defines one (see pybridge/devtools/compiled.py).
__getattr__ = _module_getattr


__all__ = [
    "API_VERSION",
    "ChoiceKind",
    "CounterSpec",
    "EventWords",
    "Extension",
    "Message",
    "Narration",
    "Visibility",
    "Vocabulary",
    "VocabularyError",
    "builtin",
    "words_of",
]
