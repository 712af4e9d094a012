"""The extension API: a game's own words in Python (docs/extensions.md).

An extension module defines ``register(words)``; the host calls it with a :class:`Words`
object once, before it serves its first request, and every document it reads may then name
what the module declared::

    from pybridge.extend import Field, Message, Words

    NAME, VERSION = "my_game", "1.0"

    def register(words: Words) -> None:
        words.counter("gold", doc="gold the party carries", label=Message("my_game.gold", "Gold"))

Extension code is the game's own code: it runs inside the rules, so it must be deterministic
(randomness only from ``ctx.battle.rng``), do no I/O and import only the standard library and
this module. What it raises fails the request with ``extension_error`` (naming the extension,
the card and the node) and changes nothing.
"""

from __future__ import annotations

import math
import string
import traceback
from collections.abc import Callable, Iterable, Mapping
from enum import StrEnum
from typing import Any, TypeVar

from .runtime.conditions import COMPARISONS, ConditionTest, Measure
from .runtime.context import Context
from .runtime.effects import (
    amount_of,
    attack_bonus,
    default_position,
    draw,
    living_targets,
    move_cards,
    reveal_cards,
    targetable,
)
from .runtime.errors import ExtensionFailed, TargetingError
from .runtime.events import EventSpec
from .runtime.filters import MAX_BOUND, FilterKey, SortKey
from .runtime.graph import Node
from .runtime.guards import MAX_EVENTS, Emitting, failure, too_many_events
from .runtime.kinds import MAX_AMOUNT, MAX_COUNT, REQUIRED, STACKS, FieldSpec, Kind, PortSpec
from .runtime.mode_table import MODE_FACTS
from .runtime.model import PILES, RESOLVING, Battle, Pile, Team, Unit, Zone
from .runtime.modes import PROTECTIONS
from .runtime.narrate import LINE_KINDS
from .runtime.nodes import NodeType, Role
from .runtime.shapes import check_type
from .runtime.sources import CardSourceSpec, CardWords, Side, UnitSourceSpec, UnitWords
from .runtime.vocabulary import (
    API_VERSION,
    BUILT_IN,
    PARAM_TYPES,
    ChoiceKind,
    CounterSpec,
    Extension,
    Message,
    Narration,
    Visibility,
    Vocabulary,
)

__all__ = [
    "API_VERSION",
    "COMPARISONS",
    "MAX_AMOUNT",
    "MAX_COUNT",
    "MODE_FACTS",
    "PILES",
    "PROTECTIONS",
    "REQUIRED",
    "RESOLVING",
    "STACKS",
    "Battle",
    "CardWords",
    "Context",
    "Field",
    "Message",
    "Node",
    "Pile",
    "Team",
    "Unit",
    "UnitWords",
    "Visibility",
    "Words",
    "Zone",
    "amount_of",
    "attack_bonus",
    "default_position",
    "draw",
    "living_targets",
    "move_cards",
    "reveal_cards",
    "targetable",
]

#: What an action acts on: units, cards, or (None) the battle itself.
_ACTS_ON = {"units": Kind.UNITS, "cards": Kind.CARDS, None: None}
_STATES = frozenset({"field", "dead", "reserve", "hand", "draw", "discard", "exhaust", "cut",
                     "resolving"})  # fmt: skip


#: A node field, as the built-ins declare theirs. ``type``: ``integer``
#: (``minimum..maximum``), ``amount`` (an integer, ``"stacks"`` in a status Behavior, or a
#: counter: ``{"counter": "combo"}``), ``choice`` (one of ``choices``, each described in
#: ``choice_docs``), ``id`` or ``boolean``.
Field = FieldSpec
_FIELD_TYPES = ("integer", "amount", "choice", "id", "boolean")


def _checked_field(spec: FieldSpec) -> FieldSpec:
    """An extension's field: a type it may declare, and every choice described."""
    if spec.type not in _FIELD_TYPES:
        raise ValueError(f"field {spec.name!r}: unknown type {spec.type!r}")
    missing = [c for c in spec.choices if c not in spec.choice_docs]
    if spec.type == "choice" and missing:
        raise ValueError(f"field {spec.name!r}: describe every choice ({', '.join(missing)})")
    return spec


class Words:
    """The vocabulary an extension's ``register`` function declares its words into."""

    def __init__(self, vocabulary: Vocabulary, extension: Extension, debug: bool = False) -> None:
        self._vocabulary = vocabulary
        self.extension = extension
        self._debug = debug
        # The built-in words are the runtime's own: a fault in one is the runtime's
        # (internal_error), so they run unwrapped.
        self._guarded = extension.name != BUILT_IN

    # -- actions ---------------------------------------------------------------------------
    def action(self, name: str, *, doc: str, apply: Callable[..., None],
               describe: Message, fields: Iterable[Field] = (), acts_on: str | None = None,
               states: Iterable[str] = ("field",), events: Iterable[str] = (),
               asks: Iterable[str] = ()) -> None:  # fmt: skip
        """An action node. ``apply(node, ctx, targets)`` for one that ``acts_on`` units or
        cards (its ``source`` field or ``target`` port say which), ``apply(node, ctx)`` for
        one on the battle itself. ``states``: the unit states or card places it affects;
        ``events``: the event types it emits; ``asks``: the kinds of choice it may ask
        (``ctx.ask``); ``describe``: its words in generated card text (its parameters name
        the node's fields)."""
        declared = tuple(fields)
        check_message(describe, f"action {name!r}",
                      fields=(*(f.name for f in declared), "target"))  # fmt: skip
        kind = _ACTS_ON.get(acts_on, "bad")
        if kind == "bad":
            raise ValueError(f"action {name!r}: acts_on is 'units', 'cards' or None")
        wanted = frozenset(states)
        if not wanted <= _STATES:
            raise ValueError(f"action {name!r}: unknown states {sorted(wanted - _STATES)}")
        emitted = tuple(events)
        for event_type in emitted:
            if event_type not in self._vocabulary.events:
                raise ValueError(f"action {name!r} emits {event_type!r}: declare the event first")
        for choice in asks:
            if choice not in self._vocabulary.choices:
                raise ValueError(f"action {name!r} asks {choice!r}: declare the choice first")
        ports: dict[str, PortSpec] = {}
        if isinstance(kind, Kind):
            what = "units" if kind is Kind.UNITS else "cards"
            ports["target"] = PortSpec(
                frozenset({kind}),
                required=False,
                doc=f"the {what} to act on; outranks the source field",
            )
            emitted = (*emitted, "target_skipped", "no_targets")
        spec = NodeType(name, Role.ACTION, doc, tuple(_checked_field(f) for f in declared), ports,
                        exits=("next",), acts_on=kind if isinstance(kind, Kind) else None,
                        states=wanted, events=emitted, apply=self._guard(name, apply, emitted),
                        asks=tuple(asks), extension=self.extension.name)  # fmt: skip
        self._vocabulary.add_node_type(spec, describe)

    # -- messages, events, choices, counters ---------------------------------------------
    def message(self, message: Message) -> None:
        """A sentence the extension's code or its words show a player (a log line told by
        ``ctx``, a refusal): it joins the message table, which ``pybridge messages`` exports
        for translators (docs/translation.md)."""
        check_message(message, f"extension {self.extension.name or 'pybridge'!r}")
        self._vocabulary.add_message(message)

    def messages(self, messages: Iterable[Message]) -> None:
        for message in messages:
            self.message(message)

    def event(self, type: str, *, doc: str, fields: Iterable[str], narration: Message | None,
              kind: str = "info", visibility: str = "everyone",
              field_types: Mapping[str, str] | None = None) -> None:  # fmt: skip
        """An event type of the extension's own. ``narration``: its log line (each parameter
        names an event field), None for bookkeeping; ``kind``: the line's kind
        (``schema``'s ``log_kinds``); ``visibility``: who may see it; ``field_types``: field
        name -> its type (``int``, ``string``, ``list<string>``, ``string?``...: docs/protocol.md,
        ``schema``), ``any`` for a field it leaves out, so a host reads its values typed."""
        fields = tuple(fields)
        types = dict(field_types or {})
        for name, type_text in types.items():
            if name not in fields:
                raise ValueError(f"event {type!r}: field_types names {name!r}, which is not "
                                 f"one of its fields ({', '.join(fields)})")  # fmt: skip
            try:
                check_type(type_text)
            except ValueError as error:
                raise ValueError(f"event {type!r}, field {name!r}: {error}") from None
        if narration is not None:
            check_message(narration, f"event {type!r}", fields=fields)
        if kind not in LINE_KINDS:
            raise ValueError(f"event {type!r}: kind is one of {', '.join(LINE_KINDS)}")
        told = None if narration is None else Narration(narration, kind)
        self._vocabulary.add_event(
            EventSpec(type, fields, doc, tuple(types.get(f, "any") for f in fields)),
            told,
            _one_of(Visibility, visibility, f"event {type!r}: visibility"),
        )

    def choice(self, name: str, *, doc: str, prompt: Message, ordered: bool = False,
               visibility: str = "owner") -> None:  # fmt: skip
        """A kind of choice an action may ask while it resolves: the prompt the player reads,
        whether the order of the answer matters (first is top), who sees the options."""
        check_message(prompt, f"choice {name!r}")
        seen = _one_of(Visibility, visibility, f"choice {name!r}: visibility")
        self._vocabulary.add_choice(ChoiceKind(name, doc, prompt, ordered, seen))

    def counter(self, name: str, *, doc: str, label: Message, default: int = 0,
                minimum: int = 0, maximum: int = 1_000_000, reset: str | None = None,
                counts: Iterable[str] = (), visibility: str = "everyone") -> None:  # fmt: skip
        """A battle counter. ``reset="turn_start"`` sets it back to ``default`` as each turn
        begins; ``counts``: event types that add one each. A Condition's ``compare`` reads it
        as a measure of the same name, and an ``amount`` as ``{"counter": name}``."""
        check_message(label, f"counter {name!r}")
        if reset not in (None, "turn_start"):
            raise ValueError(f"counter {name!r}: reset is None or 'turn_start'")
        if not minimum <= default <= maximum:
            raise ValueError(f"counter {name!r}: default outside {minimum}..{maximum}")
        seen = _one_of(Visibility, visibility, f"counter {name!r}: visibility")
        spec = CounterSpec(name, doc, default, minimum, maximum, reset, tuple(counts), label,
                           seen)  # fmt: skip
        self._vocabulary.add_counter(spec)

        def read(fields: Mapping[str, Any], items: list[Any], ctx: Context) -> float:
            return ctx.counter(name)

        self._vocabulary.add_measure(Measure(name, "battle", f"the counter: {doc}", read))

    # -- sources, conditions, filters, sorts ----------------------------------------------
    def unit_source(self, name: str, *, doc: str, resolve: Callable[[Context], list[Unit]],
                    side: str, states: Iterable[str] = ("field",), limit: int | None = None,
                    whole: bool = False, selection: bool = False, empty: str | None = None,
                    describe: Message | UnitWords | None = None) -> None:  # fmt: skip
        """A unit source: ``resolve(ctx)`` lists units; ``side`` (``self``, ``allies``,
        ``opponents``, ``all``, ``player_team``, ``enemy_team``, ``submitted``) is what it
        reaches from the Host and ``limit`` how many units it yields at most, which lint's
        contract checks read; ``describe``: its words in generated card text, a Message
        naming what it yields ("the most poisoned enemy", no parameters) or
        :class:`UnitWords` for a group that selectors narrow (``noun=("ally", "allies")``:
        "all allies", "a random ally"). Without words the describer says "nothing" and lint
        reports it (PB211). ``resolve`` must return a list of the battle's own units (of
        ``ctx.battle.units``: not ids, not copies, not None), else ``extension_error``."""
        words = self._source_words(name, describe, UnitWords)
        if not isinstance(words, UnitWords | None):
            raise TypeError(f"unit source {name!r}: describe is a Message or UnitWords")
        guarded = resolve
        if self._guarded:  # the built-in sources are the runtime's: trusted, never checked

            def checked(ctx: Context) -> list[Unit]:
                units = resolve(ctx)
                if not _battle_units(units, ctx.battle):
                    raise TypeError(f"it returned {units!r:.80}; expected a list of the "
                                    "battle's units (of ctx.battle.units)")  # fmt: skip
                return units

            guarded = self._guard_call(name, checked, word=f"source {name!r}")
        reach = _one_of(Side, side, f"unit source {name!r}: side")
        spec = UnitSourceSpec(name, guarded, reach, frozenset(states), limit, whole, doc,
                              selection, empty, words)  # fmt: skip
        self._vocabulary.add_unit_source(spec)

    def card_source(self, name: str, *, doc: str, resolve: Callable[[Context], list[str]],
                    places: Iterable[str], limit: int | None = None, empty: str | None = None,
                    describe: Message | CardWords | None = None) -> None:  # fmt: skip
        """A card source: ``resolve(ctx)`` lists card instance ids; ``places``: where they
        are (piles, ``cut``, ``resolving``); ``describe``: its words in generated card text, a
        Message naming what it yields ("the cheapest card in your hand") or
        :class:`CardWords` (``place="hand"``: "all cards from your hand")."""
        wanted = frozenset(places)
        words = self._source_words(name, describe, CardWords)
        if not isinstance(words, CardWords | None):
            raise TypeError(f"card source {name!r}: describe is a Message or CardWords")
        if words is not None and words.place is not None and words.place not in wanted:
            raise ValueError(
                f"card source {name!r}: its words name the place {words.place!r}, "
                f"which is not one of its places ({', '.join(sorted(wanted))})"
            )
        guarded = self._guard_call(name, resolve, _ids, "a list of card instance ids",
                                   f"source {name!r}")  # fmt: skip
        self._vocabulary.add_card_source(
            CardSourceSpec(name, guarded, wanted, limit, doc, empty, words)
        )

    def _source_words(self, name: str, describe: object,
                      words: type[UnitWords] | type[CardWords]) -> object:  # fmt: skip
        """A source's words: a Message becomes the phrase it names (its message joins the
        message table, where translators find it)."""
        if not isinstance(describe, Message):
            return describe
        check_message(describe, f"source {name!r}")
        if describe.params:
            raise ValueError(f"source {name!r}: message {describe.id!r} names what the source "
                             "yields and takes no parameters")  # fmt: skip
        self._vocabulary.add_message(describe)
        return words(phrase=describe.english, message=describe)

    def condition(self, name: str, *, doc: str,
                  test: Callable[[Mapping[str, Any], list[Any], Context], bool] | None = None,
                  compile: Callable[[Mapping[str, Any]], Callable[[list[Any], Context], bool]]
                  | None = None, uses: Iterable[str] = (),
                  units_only: bool = False) -> None:  # fmt: skip
        """A Condition test: ``test(fields, items, ctx)`` with the Condition's fields, its
        input collection and the context, or ``compile(fields)``, which builds
        ``check(items, ctx)`` once per node; ``uses``: the Condition fields it takes;
        ``units_only``: its input must hold units."""
        if (test is None) == (compile is None):
            given = "both" if test is not None else "neither"
            raise ValueError(f"condition {name!r}: give one of test and compile ({given} given)")
        if compile is not None:
            make = self._guard_maker(name, compile, lambda r: isinstance(r, bool), "a bool")
        else:
            assert test is not None
            guarded = self._guard_call(name, test)

            def make(fields: Mapping[str, Any]) -> Callable[[list[Any], Context], bool]:
                return lambda items, ctx: bool(guarded(fields, items, ctx))

        self._vocabulary.add_condition_test(
            ConditionTest(name, doc, frozenset(uses), make, units_only)
        )

    def measure(self, name: str, *, doc: str, reads: str,
                value: Callable[[Mapping[str, Any], list[Any], Context], float | None],
                needs_status: bool = False) -> None:  # fmt: skip
        """A number ``compare`` reads: ``reads`` is ``input``, ``unit`` or ``battle``;
        ``needs_status``: it reads the Condition's ``status`` field."""
        if reads not in ("input", "unit", "battle"):
            raise ValueError(f"measure {name!r}: reads is 'input', 'unit' or 'battle'")
        guarded = self._guard_call(name, value, _number, "a number or None")
        self._vocabulary.add_measure(Measure(name, reads, doc, guarded, needs_status))

    def unit_filter(self, name: str, *, doc: str, type: str,
                    test: Callable[[Any], Callable[[Unit], bool]],
                    choices: Iterable[str] = (), minimum: int = -MAX_BOUND,
                    maximum: int = MAX_BOUND, suggests: str = "") -> None:  # fmt: skip
        """A filter key for units in Filter nodes: ``test(value)`` builds the unit test;
        ``type`` is ``choice`` (one of ``choices``), ``id``, ``boolean`` or ``integer`` (in
        ``minimum..maximum``); ``suggests``: the word list its values are drawn from
        (``unit_tags``, ``statuses``...: the schema's ``word_lists``), which editors offer."""
        key = FilterKey(name, type, self._guard_maker(name, test), doc, tuple(choices),
                        minimum, maximum, suggests)  # fmt: skip
        self._vocabulary.add_filter(key, "units")

    def card_filter(self, name: str, *, doc: str, type: str,
                    test: Callable[[Any], Callable[[Any], bool]],
                    choices: Iterable[str] = (), minimum: int = -MAX_BOUND,
                    maximum: int = MAX_BOUND, suggests: str = "") -> None:  # fmt: skip
        key = FilterKey(name, type, self._guard_maker(name, test), doc, tuple(choices),
                        minimum, maximum, suggests)  # fmt: skip
        self._vocabulary.add_filter(key, "cards")

    def unit_sort(self, name: str, *, doc: str, key: Callable[[Unit], int | float] | None = None,
                  compile: Callable[[Mapping[str, Any]], Callable[[Unit], int | float]]
                  | None = None, needs_status: bool = False) -> None:  # fmt: skip
        """A key Sort may order units by: ``key(unit)`` is a number, or ``compile(fields)``
        builds that key from the Sort node's fields; ``needs_status``: it reads the Sort's
        ``status`` field."""
        self._vocabulary.add_sort(self._sort_key(name, doc, key, compile, needs_status), "units")

    def card_sort(self, name: str, *, doc: str, key: Callable[[Any], int | float] | None = None,
                  compile: Callable[[Mapping[str, Any]], Callable[[Any], int | float]]
                  | None = None) -> None:  # fmt: skip
        self._vocabulary.add_sort(self._sort_key(name, doc, key, compile, False), "cards")

    def _sort_key(self, name: str, doc: str, key: Callable[[Any], int | float] | None,
                  compile: Callable[[Mapping[str, Any]], Callable[[Any], int | float]] | None,
                  needs_status: bool) -> SortKey:  # fmt: skip
        if (key is None) == (compile is None):
            given = "both" if key is not None else "neither"
            raise ValueError(f"sort key {name!r}: give one of key and compile ({given} given)")
        if compile is not None:
            return SortKey(name, doc, self._guard_maker(name, compile, _number_only, "a number"),
                           needs_status)  # fmt: skip
        assert key is not None
        guarded = self._guard_call(name, key, _number_only, "a number")
        return SortKey(name, doc, lambda fields: guarded, needs_status)

    def _guard_maker(self, name: str, make: Callable[[Any], Callable[..., Any]],
                     returns: Callable[[Any], bool] = lambda r: isinstance(r, bool),
                     what: str = "a bool") -> Callable[[Any], Callable[..., Any]]:  # fmt: skip
        """A builder (a filter key's ``test(value)``, a ``compile(fields)``) whose building
        and whose built functions are guarded."""
        if not self._guarded:
            return make
        build = self._guard_call(name, make, callable, "a function")

        def made(value: Any) -> Callable[..., Any]:
            return self._guard_call(name, build(value), returns, what)

        return made

    # -- faults ----------------------------------------------------------------------------
    def _guard(self, name: str, apply: Callable[..., None],
               events: Iterable[str] = ()) -> Callable[..., None]:  # fmt: skip
        """``apply`` whose faults become ``extension_error`` and whose ``ctx.emit`` checks each
        event against its declaration, the action's ``events`` and the request's event limit
        (:mod:`pybridge.runtime.guards`)."""
        if not self._guarded:
            return apply
        extension, debug, listed = self.extension.name, self._debug, frozenset(events)
        word = f"action {name!r}"

        def guarded(node: Node, ctx: Context, *rest: Any) -> None:
            outer = ctx.emitting
            ctx.emitting = Emitting(extension, word, node.id, listed)
            try:
                apply(node, ctx, *rest)
            except TargetingError:
                raise  # the runtime's own refusals (a choice needed, a bad answer) pass
            except (Exception, SystemExit) as exc:
                raise _failed(extension, word, ctx, node.id, exc, debug) from None
            finally:
                ctx.emitting = outer
            if len(ctx.events) > MAX_EVENTS:  # events added by another door than ctx.emit
                raise too_many_events()

        return guarded

    def _guard_call(self, name: str, function: Callable[..., Any],
                    returns: Callable[[Any], bool] | None = None, what: str = "",
                    word: str = "") -> Callable[..., Any]:  # fmt: skip
        """``function`` whose faults (and, with ``returns``, a result it does not accept)
        become ``extension_error``."""
        if not self._guarded:
            return function
        extension, debug = self.extension.name, self._debug
        word = word or repr(name)

        def guarded(*args: Any) -> Any:
            try:
                result = function(*args)
                if returns is not None and not returns(result):
                    raise TypeError(f"it returned {result!r:.80}; expected {what}")
                return result
            except TargetingError:
                raise
            except (Exception, SystemExit) as exc:
                ctx = next((a for a in args if isinstance(a, Context)), None)
                raise _failed(extension, word, ctx, None, exc, debug) from None

        return guarded


def check_message(message: Message, whose: str, fields: tuple[str, ...] | None = None) -> None:
    """A message a player reads must be whole: an id, English whose every placeholder is a
    plain ``{name}`` among its typed parameters (no conversions, formats or attributes) and,
    for ``fields``, parameters that name them. Every error names the message's id."""
    if not isinstance(message, Message) or not message.id or not message.english:
        raise ValueError(f"{whose}: give a Message with an id and its English")
    about = f"{whose}: message {message.id!r}"
    for name, kind in message.params.items():
        if kind not in PARAM_TYPES:
            raise ValueError(f"{about}: parameter {name!r} has type {kind!r}; types: "
                             f"{', '.join(PARAM_TYPES)}")  # fmt: skip
        if fields is not None and name not in fields:
            raise ValueError(f"{about}: parameter {name!r} names no field ({', '.join(fields)})")
    if message.plural and message.params.get(message.plural) != "number":
        raise ValueError(f"{about}: plural {message.plural!r} must name a number parameter")
    if bool(message.plural) != bool(message.english_plural):
        raise ValueError(f"{about}: give plural and english_plural together")
    for english in (message.english, message.english_plural):
        try:
            parts = list(string.Formatter().parse(english))
        except ValueError as exc:
            raise ValueError(f"{about}: {exc}") from None
        for _, field_name, spec, conversion in parts:
            if field_name is None:
                continue
            if spec or conversion or field_name not in message.params:
                raise ValueError(f"{about}: {{{field_name}}} must be a plain placeholder "
                                 "named in its params")  # fmt: skip


_E = TypeVar("_E", bound=StrEnum)


def _one_of(kind: type[_E], value: str, what: str) -> _E:
    """``value`` as a member of ``kind``, else a ValueError naming every value it may be."""
    try:
        return kind(value)
    except ValueError:
        allowed = ", ".join(repr(member.value) for member in kind)
        raise ValueError(f"{what} {value!r} is not one of {allowed}") from None


def _battle_units(result: Any, battle: Battle) -> bool:
    """Is ``result`` a list of ``battle``'s own units (not ids, not copies)?"""
    index = battle._index
    return isinstance(result, list) and all(
        isinstance(u, Unit) and index.get(u.id) is u for u in result
    )


def _ids(result: Any) -> bool:
    return isinstance(result, list) and all(isinstance(c, str) for c in result)


def _number(result: Any) -> bool:
    return result is None or _number_only(result)


def _number_only(result: Any) -> bool:
    return isinstance(result, (int, float)) and not isinstance(result, bool) and \
        math.isfinite(result)  # fmt: skip


def _failed(extension: str, word: str, ctx: Context | None, node: str | None,
            exc: BaseException, debug: bool) -> ExtensionFailed:  # fmt: skip
    trace = "".join(traceback.format_exception(exc)) if debug else ""
    return failure(extension, word, ctx, node, f"{type(exc).__name__}: {exc}", trace)
