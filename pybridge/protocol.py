"""The one contract every transport uses: a JSON request in, a JSON response out.

``{"op": ..., "id": ...}`` in; ``{"ok": true, "id": ..., "result": ...}`` or
``{"ok": false, "id": ..., "error": {"code", "message", "where"}}`` out. Nothing raises across
this boundary and a failed request changes nothing. See docs/protocol.md.
"""

from __future__ import annotations

import itertools
import json
import math
import os
import re
import sys
import threading
from collections.abc import Callable, Iterable
from typing import Any

from . import __version__
from .ai.search import Search
from .ai.seat import in_battle_ids
from .answers import DEFAULT_CAPACITY, AnswerCache, question
from .runtime import (
    Battle,
    CardDef,
    Event,
    TargetingError,
    Team,
    dump_battle,
    load_battle,
    load_library,
    play,
    preview,
    targets,
)
from .runtime.affects import affected_units
from .runtime.choices import MAX_OPTIONS, pick_asked
from .runtime.cut import activate, owner_chooses, pass_priority, resolve_all, respond_move
from .runtime.cut_answers import (
    acting_side,
    awaiting,
    awaiting_choice,
    cut_view,
    player_moves,
)
from .runtime.errors import LONE_SURROGATE, ChoiceNeeded, ExtensionFailed, request_value
from .runtime.events import first_unplain
from .runtime.forecast import forecast_intents
from .runtime.model import PILES, Pile
from .runtime.narrate import narrate_all, preview_marks
from .runtime.picking import pick
from .runtime.schema import vocabulary
from .runtime.turns import end_turn, end_turn_refused, start_battle
from .runtime.views import (
    VIEWERS,
    Viewer,
    asked_choice_view,
    cut_view_for,
    enable,
    events_view,
    forecasts_for,
    pick_view,
    pile_view,
    preview_view,
    real_id,
    real_ids,
    state_view,
    targets_view,
    told_to,
)
from .runtime.vocabulary import BUILTIN, Vocabulary

PROTOCOL_VERSION = 1
MAX_REQUEST_BYTES = 4 * 1024 * 1024
MAX_SESSIONS = 1024
MAX_JSON_DEPTH = 64
#: The parser never recurses deeper than this: deeper texts are refused before parsing.
PARSE_DEPTH = 4 * MAX_JSON_DEPTH
#: Card libraries one ``open`` may name.
MAX_LIBRARIES = 16
#: A play submits at most this many units (a card's ``target_count`` is at most 16).
MAX_TARGETS = 16
#: ``choices`` answers at most this many Cut entries (the Cut holds at most 64).
MAX_CHOICES = 64
#: Error texts are cut to these lengths, so a huge input is never echoed back whole.
MAX_MESSAGE = 4_096
MAX_WHERE = 256
#: ``think`` searches at most this many iterations for one move (a few seconds of CPU).
MAX_THINK_ITERATIONS = 10_000
#: A result is at most this many characters of JSON (ASCII, so as many bytes); a request whose
#: result would be longer is refused and changes nothing.
MAX_RESPONSE = 32 * 1024 * 1024

Result = dict[str, Any]


class Encoded(str):
    """A result already written as JSON text: a change encodes its result before it keeps
    the new battle, so a response that cannot be built changes nothing."""


Handler = Callable[[dict[str, Any]], "Result | Encoded"]

#: Operations whose answers are kept while their session's battle stays the same.
CACHED_OPS = frozenset({"targets", "preview"})
#: The fields a request of each op may hold besides ``op`` and ``id`` (docs/protocol.md): any
#: other is refused with ``invalid_field``, so a typo ("tagret") is never ignored.
OP_FIELDS: dict[str, frozenset[str]] = {
    op: frozenset(fields.split())
    for op, fields in {
        "version": "", "schema": "",
        "open": "battle libraries viewers",
        "close": "session",
        "state": "session viewer", "view": "session viewer", "cut": "session viewer",
        "pile": "session viewer pile side",
        "targets": "session card viewer",
        "preview": "session card target viewer",
        "play": "session card target side choices viewer viewers",
        "activate": "session card target side viewer viewers",
        "respond": "session unit move target viewer viewers",
        "pass": "session choices side viewer viewers",
        "resolve": "session choices viewer viewers",
        "end_turn": "session choices side viewer viewers",
        "pick": "session chosen choice card entry viewer",
        "think": "session side viewer iterations seed slice",
    }.items()
}  # fmt: skip
#: What every request may hold.
COMMON_FIELDS = frozenset({"op", "id"})


class ProtocolError(Exception):
    def __init__(self, code: str, message: str, where: str = "") -> None:
        super().__init__(message)
        self.code, self.message, self.where = code, message, where


#: A JSON string literal, escapes included; an unterminated one runs to the end of the text
#: (the parser stops there too). Possessive, so scanning stays linear in the text's length.
_JSON_STRING = re.compile(r'"[^"\\]*+(?:\\.[^"\\]*+)*+"?', re.DOTALL)
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")


def text_depth_ok(text: str, limit: int) -> bool:
    """Does the JSON text nest at most ``limit`` levels? Checked before parsing, so the
    parser never recurses deeper (a small thread stack, Pyodide's included, stays safe)."""
    depth = 0
    for bracket in _NOT_BRACKET.sub("", _JSON_STRING.sub("", text)):
        if bracket in "[{":
            depth += 1
            if depth > limit:
                return False
        elif depth:
            depth -= 1
    return True


def json_depth_ok(value: object, limit: int) -> bool:
    """Does every value sit at most ``limit`` levels deep (the root is level 1)?"""
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if depth > limit:
            return False
        if isinstance(item, dict):
            stack.extend((v, depth + 1) for v in item.values())
        elif isinstance(item, list):
            stack.extend((v, depth + 1) for v in item)
    return True


class Protocol:
    """A set of independent battle sessions behind the JSON contract. Thread-safe.

    ``answer_cache`` answers (see :mod:`pybridge.answers`) are kept for ``targets`` and
    ``preview`` questions asked again about an unchanged battle; 0 keeps none. Operations
    beyond the runtime's own (the authoring tools' ``lint`` and ``describe``) are added with
    :meth:`register`, which :mod:`pybridge.service` does for the transports."""

    def __init__(self, answer_cache: int = DEFAULT_CAPACITY,
                 words: Vocabulary | None = None) -> None:  # fmt: skip
        #: The vocabulary every document of this protocol is read with: the built-in one and
        #: the words of the extensions the host loaded (:mod:`pybridge.extensions`).
        self.words = BUILTIN if words is None else words
        self._sessions: dict[str, Battle] = {}
        #: Each session's generation, renewed by every change to its battle.
        self._generations: dict[str, int] = {}
        self._changes = itertools.count(1)
        self._answers = AnswerCache(answer_cache)
        #: Each session's search under way (``think``): the generation it began on, what it
        #: was asked (seed, budget, side) and the search itself.
        self._searches: dict[str, tuple[int, tuple[int, int, str], Search]] = {}
        #: The sentence of a card's generated text (:mod:`pybridge.service` sets the
        #: describer's): each card of a state with no text of its own carries it as
        #: ``text_message``. None: states carry none (this module knows only the runtime).
        self.card_text: Callable[[Battle, CardDef], object] | None = None
        self._next_session = 1
        self._lock = threading.Lock()
        self._ops: dict[str, Handler] = {
            "version": self._version,
            "open": self._open,
            "close": self._close,
            "state": self._state,
            "targets": self._targets,
            "preview": self._preview,
            "play": self._play,
            "end_turn": self._end_turn,
            "activate": self._activate,
            "respond": self._respond,
            "pass": self._pass,
            "resolve": self._resolve,
            "cut": self._cut,
            "schema": self._schema,
            "pick": self._pick,
            "view": self._view,
            "pile": self._pile,
            "think": self._think,
        }
        #: The fields each op takes (None: an op registered without saying).
        self._fields: dict[str, frozenset[str] | None] = dict(OP_FIELDS)
        self._vocabulary: Encoded | None = None

    # -- the entry point -------------------------------------------------------------------
    def call(self, request_json: str | bytes) -> str:
        """Handle one request; always returns a response text, never raises."""
        request_id: Any = None
        request: dict[str, Any] | None = None
        try:
            request = self._parse(request_json)
            request_id = request.get("id")
            if not _echoable(request_id, 0):
                request_id = None
                raise ProtocolError("invalid_id", "the request id must be null, true or false, a "
                                    "string without lone surrogates, a number a double holds "
                                    "exactly, or a list or object of those (its host could not "
                                    "read it back)", "id")  # fmt: skip
            op = request.get("op")
            if not isinstance(op, str) or (handler := self._ops.get(op)) is None:
                raise ProtocolError(
                    "unknown_op",
                    f"unknown op {_short(op)} (known: {', '.join(sorted(self._ops))})",
                    "op",
                )
            fields = self._fields.get(op)
            if fields is not None:
                _only_fields(op, request, fields)
            with self._lock:
                result = self._answer(op, handler, request)
            return f'{{"ok":true,"id":{_id_text(request_id)},"result":{result}}}'
        except ProtocolError as exc:
            return _error(request_id, exc.code, exc.message, exc.where)
        except TargetingError as exc:
            details = dict(getattr(exc, "details", None) or {})
            if exc.said is not None:  # a refusal a player may meet: its reason, said
                details.update(reason=exc.reason, reason_message=exc.said)
            message, details = self._worded(request, (str(exc), details))
            return _error(request_id, exc.code, message, exc.where, details)
        except RecursionError:
            return _error(request_id, "too_deep", "request nested too deeply", "")
        except Exception as exc:  # the boundary: nothing escapes to the host
            try:
                return _error(request_id, "internal_error", f"{type(exc).__name__}: {exc}", "")
            except Exception:
                return _FAILED

    def _worded(self, request: dict[str, Any] | None, refusal: tuple[str, dict[str, Any]]
                ) -> tuple[str, dict[str, Any]]:  # fmt: skip
        """A refusal (its message and details) told to a viewer names cards by that viewer's
        ids: an instance's own id would let it follow the card through hiding."""
        if request is None:
            return refusal
        try:
            viewer = _viewer(request)
        except ProtocolError:
            return refusal
        session = request.get("session")
        with self._lock:
            battle = self._sessions.get(session) if isinstance(session, str) else None
            if viewer is None or battle is None or battle.secret is None:
                return refusal
            return told_to(battle, viewer, refusal[0]), told_to(battle, viewer, refusal[1])

    def _parse(self, request_json: str | bytes) -> dict[str, Any]:
        # Tuples, not ``X | Y``: a union is built anew on every call.
        if isinstance(request_json, (bytearray, memoryview)):
            request_json = bytes(request_json)
        if not isinstance(request_json, (str, bytes)):
            raise ProtocolError("bad_request", f"a request is JSON text (str or bytes), got "
                                f"{type(request_json).__name__}")  # fmt: skip
        if isinstance(request_json, bytes):
            if len(request_json) > MAX_REQUEST_BYTES:
                raise ProtocolError(
                    "too_large",
                    f"request is {len(request_json)} bytes, the limit is {MAX_REQUEST_BYTES}",
                )
            try:
                request_json = request_json.decode("utf-8")
            except UnicodeDecodeError as exc:
                raise ProtocolError("bad_utf8", f"request is not UTF-8: {exc}") from None
        if len(request_json) > MAX_REQUEST_BYTES:
            raise ProtocolError(
                "too_large",
                f"request is {len(request_json)} characters, the limit is {MAX_REQUEST_BYTES}",
            )
        # A text nests at most as deep as it has brackets: most requests need no depth walk.
        brackets = request_json.count("[") + request_json.count("{")
        if brackets > PARSE_DEPTH and not text_depth_ok(request_json, PARSE_DEPTH):
            raise ProtocolError("too_deep", f"request nests deeper than {MAX_JSON_DEPTH}")
        if request_json.startswith("\ufeff"):
            raise ProtocolError("bad_json", "request is not JSON: it starts with a UTF-8 BOM")
        try:
            request = _DECODER.decode(request_json)
        except ProtocolError:
            raise
        except RecursionError:
            raise ProtocolError("too_deep", f"request nests deeper than {MAX_JSON_DEPTH}") from None
        except ValueError as exc:
            raise ProtocolError("bad_json", f"request is not JSON: {exc}") from None
        if not isinstance(request, dict):
            raise ProtocolError(
                "bad_request", f"request must be a JSON object, got {json_type(request)}"
            )
        if brackets >= MAX_JSON_DEPTH and not json_depth_ok(request, MAX_JSON_DEPTH):
            raise ProtocolError("too_deep", f"request nests deeper than {MAX_JSON_DEPTH}")
        return request

    def use_words(self, words: Vocabulary) -> None:
        """Read documents with ``words`` from now on (a reloaded extension): sessions already
        open keep the vocabulary they were opened with."""
        with self._lock:
            self.words = words
            self._vocabulary = None

    def keep_answers(self, capacity: int) -> None:
        """Keep up to ``capacity`` answers from now on (0: none); the kept ones are dropped."""
        answers = AnswerCache(capacity)
        with self._lock:
            self._answers = answers

    def _answer(self, op: str, handler: Handler, request: dict[str, Any]) -> str:
        """The result text of ``request``: kept from an earlier identical question about the
        same generation of the battle when there is one, else computed now."""
        # A viewer's answer is never kept: the cache's questions name no viewer.
        key = question(op, request) if op in CACHED_OPS and "viewer" not in request else None
        generation = self._generations.get(key[1]) if key is not None else None
        if key is None or generation is None:
            return _text(handler(request))
        kept = self._answers.get(key, generation)
        if kept is None:
            kept = _text(handler(request))
            self._answers.put(key, generation, kept)
        return kept

    def register(self, op: str, handler: Handler, fields: Iterable[str] | None = None) -> None:
        """Serve ``op`` with ``handler`` (request -> result); it runs under the protocol's lock
        and may read sessions with :meth:`battle_of`. ``fields``: the fields its requests may
        hold besides ``op`` and ``id`` (any other is refused with ``invalid_field``); None
        leaves them unchecked."""
        if op in self._ops:
            raise ValueError(f"op {op!r} is already served")
        self._ops[op] = handler
        self._fields[op] = None if fields is None else frozenset(fields)

    def fields(self, op: str) -> frozenset[str] | None:
        """The fields a request of ``op`` may hold besides ``op`` and ``id`` (None: unchecked;
        docs/protocol.md, "Request fields")."""
        return self._fields.get(op)

    def battle_of(self, request: dict[str, Any]) -> Battle:
        """The battle of the request's ``session`` (read it, never change it)."""
        return self._session(request)

    # -- helpers ---------------------------------------------------------------------------
    def _session_id(self, request: dict[str, Any]) -> str:
        session = request.get("session")
        if not isinstance(session, str) or session not in self._sessions:
            raise ProtocolError("unknown_session", f"no open session {_short(session)}", "session")
        return session

    def _session(self, request: dict[str, Any]) -> Battle:
        return self._sessions[self._session_id(request)]

    # -- operations ------------------------------------------------------------------------
    def _version(self, request: dict[str, Any]) -> Result:
        return {"version": __version__, "protocol": PROTOCOL_VERSION, "ops": sorted(self._ops),
                "kept_answers": self._answers.capacity, "python": _python()}  # fmt: skip

    def _open(self, request: dict[str, Any]) -> Encoded:
        if "battle" not in request:
            raise ProtocolError("invalid_field", "missing field 'battle'", "battle")
        if len(self._sessions) >= MAX_SESSIONS:
            raise ProtocolError("too_many_sessions", f"at most {MAX_SESSIONS} open sessions")
        viewers = _viewers(request)
        library = _libraries(request.get("libraries", []), self.words)
        try:
            battle = load_battle(request["battle"], library, self.words)
        except TargetingError as exc:
            where = "battle" if exc.where in ("", "document") else f"battle.{exc.where}"
            raise ProtocolError(exc.code, str(exc), where) from None
        session = f"s{self._next_session}"
        battle.unit_after = True  # a host plays the events back (runtime.context.UnitsAfter)
        if viewers:
            _give_views(battle, kept=True)
            battle.journal = []
            turn_side = battle.turn_side
            events = start_battle(battle)
            viewed = _viewed(request, battle, events, viewers, turn_side)
            opened = _encoded({"session": session, **self._texted(battle, viewed)})
            battle.journal = None
        else:
            events = start_battle(battle)
            log = narrate_all(battle, events)
            opened = _encoded({"session": session, "events": events, "log": log,
                               "state": self._texted(battle, state_of(battle))})  # fmt: skip
        battle.unit_after = False
        self._next_session += 1
        self._sessions[session] = battle
        self._generations[session] = next(self._changes)
        return opened

    def _texted(self, battle: Battle, answer: dict[str, Any]) -> dict[str, Any]:
        """``answer`` (a state, or an answer holding ``state`` or each viewer's under
        ``views``) with each card that has no text of its own carrying ``text_message``,
        the sentence :attr:`card_text` gives (ignored when a state is opened again). A card's
        own text is the game's data, which its catalog translates."""
        if self.card_text is None:
            return answer
        states = [answer] if "cards" in answer else [answer.get("state")]
        states += [view.get("state") for view in answer.get("views", {}).values()]
        for state in states:
            if isinstance(state, dict):
                self._say_card_texts(battle, state.get("cards", ()), "id")
        return answer

    def _say_card_texts(self, battle: Battle, cards: Iterable[dict[str, Any]], key: str) -> None:
        """Gives each of ``cards`` (its definition's id under ``key``) that has no text of its
        own ``text_message``, the sentence :attr:`card_text` gives."""
        if self.card_text is None:
            return
        for card in cards:
            definition = battle.library.get(str(card.get(key)))
            if definition is not None and not definition.text and "text_message" not in card:
                card["text_message"] = self.card_text(battle, definition)

    def _close(self, request: dict[str, Any]) -> Result:
        session = self._session_id(request)
        del self._sessions[session]
        del self._generations[session]
        self._searches.pop(session, None)
        self._answers.forget(session)
        return {"closed": session}

    def _state(self, request: dict[str, Any]) -> Result:
        viewer = _viewer(request)
        battle = self._session(request)
        if viewer is None:
            return {"state": self._texted(battle, state_of(battle))}
        return {"state": self._texted(battle, _state_view(battle, viewer))}

    def _view(self, request: dict[str, Any]) -> Result:
        # What one viewer may see now: the state as a view (docs/protocol.md, "Views").
        viewer = _required_viewer(request)
        battle = self._session(request)
        return {"view": self._texted(battle, _state_view(battle, viewer))}

    def _pile(self, request: dict[str, Any]) -> Result:
        # One pile as one viewer may see it, for a pile viewer (docs/protocol.md, "pile").
        battle, viewer = self._session(request), _required_viewer(request)
        pile = request.get("pile")
        if not isinstance(pile, str) or pile not in _PILE_NAMES:
            raise ProtocolError("invalid_field", f"pile must be one of {', '.join(_PILE_NAMES)}, "
                                f"got {_short(pile)}", "pile")  # fmt: skip
        side = _side(request) or viewer.team
        if side is None:
            raise ProtocolError("invalid_field", "a spectator names the side whose pile it views "
                                "(player or enemy)", "side")  # fmt: skip
        if side not in battle.sides:
            raise ProtocolError("invalid_field", f"the {side.value} team plays no cards in this "
                                "battle, so it has no piles", "side")  # fmt: skip
        _give_views(battle)
        answer = pile_view(battle, viewer, side, Pile(pile))
        self._say_card_texts(battle, answer["cards"], "card")  # as a state's cards
        return answer

    def _targets(self, request: dict[str, Any]) -> Result:
        # Reads only: conditions are data nodes, and the PRNG a RandomElements condition
        # draws from is put back (runtime.play.unmet_condition), even after a fault; what a
        # play would affect is previewed on a copy.
        viewer = _viewer(request)
        battle = self._session(request)
        card = request.get("card") if viewer is None else _card_of(battle, viewer, request)
        info = targets(battle, card)
        if viewer is not None:  # what it affects, as far as the viewer may know it
            return targets_view(battle, viewer, info)
        answer = info.to_json()
        answer["affects"] = list(affected_units(battle, info))
        answer["random"] = answer["hidden"] = None  # the authority's answer is whole
        return answer

    def _preview(self, request: dict[str, Any]) -> Result:
        # The runtime checks on the battle (reading only) and plays on its own copy.
        target, viewer = _target(request), _viewer(request)
        battle = self._session(request)
        card = request.get("card") if viewer is None else _card_of(battle, viewer, request)
        if viewer is not None:
            _give_views(battle)
            return preview_view(battle, viewer, card, target, lambda e: preview_marks(battle, e))
        events = preview(battle, card, target)
        return {"events": events, "marks": preview_marks(battle, events)}

    def _play(self, request: dict[str, Any]) -> Encoded:
        card, target, side = self._card(request), _target(request), _acting(request)
        answers = _choices(request, MAX_OPTIONS)  # the choices its actions ask, by node id
        return self._commit(request, lambda battle: play(battle, card, target, side), answers)

    def _activate(self, request: dict[str, Any]) -> Encoded:
        card, target, side = self._card(request), _target(request), _acting(request)
        return self._commit(request, lambda battle: activate(battle, card, target, side))

    def _card(self, request: dict[str, Any]) -> object:
        """The request's ``card``: a viewer names it by the id its view shows."""
        viewer = _viewer(request)
        if viewer is None:
            return request.get("card")
        return _card_of(self._session(request), viewer, request)

    def _respond(self, request: dict[str, Any]) -> Encoded:
        unit, move, target = request.get("unit"), request.get("move"), _target(request)
        return self._commit(request, lambda battle: respond_move(battle, unit, move, target))

    def _pass(self, request: dict[str, Any]) -> Encoded:
        choices, side, viewer = _choices(request), _acting(request), _viewer(request)
        try:
            return self._commit(request, lambda battle: pass_priority(
                battle, _late(battle, viewer, choices), side), choices, late=True)  # fmt: skip
        except ChoiceNeeded as exc:
            # The entry's resolution asks the other side a choice: its owner makes it, so
            # the entry waits for it (runtime.cut.owner_chooses); nothing of it resolves.
            battle = self._session(request)
            asked = exc.details.get("choice", {})
            passer = side or acting_side(battle)
            if not battle.two_sided or asked.get("side") in (None, passer.value):
                raise
            return self._commit(request, lambda working: owner_chooses(working, side))

    def _resolve(self, request: dict[str, Any]) -> Encoded:
        choices, viewer = _choices(request), _viewer(request)
        side = None if viewer is None else _acting(request)  # a spectator never acts
        return self._commit(request, lambda battle: resolve_all(
            battle, _late(battle, viewer, choices), side), choices, late=True)  # fmt: skip

    def _cut(self, request: dict[str, Any]) -> Result:
        viewer = _viewer(request)
        battle = self._session(request)
        entries = cut_view(battle)
        if viewer is not None:
            _give_views(battle)
            entries = cut_view_for(battle, viewer, entries)
        return {"cut": entries, "awaiting": awaiting(battle),
                "awaiting_choice": awaiting_choice(battle),
                **player_moves(battle, end_turn_refused(battle))}  # fmt: skip

    def _pick(self, request: dict[str, Any]) -> Result:
        # Reads only: what a choice made one unit (or card) at a time may take next.
        battle, viewer = self._session(request), _viewer(request)
        chosen = request.get("chosen", [])
        if "choice" in request:  # a choice an action asked as it resolved (choice_needed)
            return pick_asked(request["choice"], chosen)  # a viewer's choice names its ids
        if viewer is None:
            return pick(battle, chosen, request.get("card"), request.get("entry")).to_json()
        _give_views(battle)
        card = _card_of(battle, viewer, request)
        _own_late_choice(battle, viewer, request.get("entry"))
        if isinstance(chosen, list):  # chosen cards by the viewer's ids (units keep theirs)
            chosen = [c if isinstance(c, str) and battle.unit(c) is not None
                      else real_id(battle, viewer, c, backs=True) for c in chosen]  # fmt: skip
        return pick_view(battle, viewer, pick(battle, chosen, card, request.get("entry")))

    def _end_turn(self, request: dict[str, Any]) -> Encoded:
        answers = _choices(request, MAX_OPTIONS)  # what statuses ask at the turn's boundaries
        side = _acting(request)
        return self._commit(request, lambda battle: end_turn(battle, side), answers)

    def _schema(self, request: dict[str, Any]) -> Encoded:
        if self._vocabulary is None:  # the tables never change: described once
            self._vocabulary = _encoded(vocabulary(self.words))
        return self._vocabulary

    def _commit(self, request: dict[str, Any], change: Callable[[Battle], list[Event]],
                answers: dict[str, Any] | None = None, late: bool = False) -> Encoded:  # fmt: skip
        """Apply ``change`` to a copy and keep it only if it succeeds, its response included:
        a failed request, even an internal fault halfway through, leaves the session exactly
        as it was. ``answers``: the request's answers to choices its actions ask (each must
        be asked); ``late``: its keys without a dot are Cut entries' late choices, which the
        Cut checks itself."""
        session = self._session_id(request)
        viewers = _viewers(request)
        if viewers:
            _give_views(self._sessions[session])
        working = self._sessions[session].clone()
        working.secret_kept = True  # a change: the snapshot holds the secret from now on
        turn_side = working.turn_side
        given = answers or {}
        working.unit_after = True  # a host plays the events back (runtime.context.UnitsAfter)
        if viewers:
            working.journal = []
            acting = _viewer(request)  # a seat names cards by its view's ids; a server by its own
            if acting is not None:
                given = real_ids(working, acting, given)
        working.answers = asked = _Answers(given)
        try:
            events = change(working)
        except ChoiceNeeded as exc:
            acting = _viewer(request)
            if acting is None:
                raise
            # As the viewer who asked sees it.
            choice = asked_choice_view(working, acting, exc.details)
            if choice.get("side") == acting.value:
                exc.details = {"choice": choice}
                raise
            raise ChoiceNeeded(_not_yours(choice), exc.where, choice) from None
        finally:
            working.answers, working.unit_after = None, False
        asked.all_asked(late)
        try:
            if viewers:
                done = _encoded(self._texted(working, _viewed(request, working, events,
                                                              viewers, turn_side)))  # fmt: skip
            else:
                done = _encoded({"events": events, "log": narrate_all(working, events),
                                 "state": self._texted(working, state_of(working))})  # fmt: skip
        except (TypeError, ValueError) as exc:
            raise _unplain(working, events, exc) from None
        finally:
            working.journal = None
        self._sessions[session] = working
        self._generations[session] = next(self._changes)
        self._searches.pop(session, None)  # it searched the battle as it was
        return done

    def _think(self, request: dict[str, Any]) -> Result:
        # The search AI's move for the side that acts now, from that side's view only, run at
        # most ``slice`` iterations a call: the search is kept until its budget is spent, and
        # any change to the battle (a new generation) drops it.
        session = self._session_id(request)
        battle = self._sessions[session]
        asked, viewer = _acting(request), _viewer(request)
        iterations = _count(request, "iterations", 1, MAX_THINK_ITERATIONS)
        seed = _count(request, "seed", 0, MAX_EXACT_INT)
        most = _count(request, "slice", 1, MAX_THINK_ITERATIONS, iterations)
        if battle.result is not None:
            raise ProtocolError("battle_over", f"the battle is over ({battle.result}): no move "
                                "to think of")  # fmt: skip
        side = acting_side(battle)
        if asked is not None and asked is not side:
            raise ProtocolError("cut", f"it is the {side.value} side's move, not the "
                                f"{asked.value} side's", "side")  # fmt: skip
        _give_views(battle)
        seat = VIEWERS[side.value]
        generation, key = self._generations[session], (seed, iterations, side.value)
        kept = self._searches.get(session)
        if kept is not None and kept[:2] == (generation, key):
            search = kept[2]
        else:
            try:
                search = Search(state_view(battle, seat), seed, iterations, words=battle.words)
            except TargetingError:
                raise
            except ValueError as exc:  # no move to make: the runtime's checks say none
                raise ProtocolError("cut", str(exc), "side") from None
            self._searches[session] = (generation, key, search)
        search.run(most)
        answer: Result = {"done": search.finished, "side": side.value,
                          "searched": search.searched, "iterations": iterations}  # fmt: skip
        if not search.finished:
            return answer
        del self._searches[session]
        decision = search.decision()
        kind, card, target = decision.action if viewer is not None else in_battle_ids(
            battle, seat, decision.action)  # fmt: skip
        answer["decision"] = decision.to_json()
        answer["move"] = {"kind": kind, "card": card, "target": target}
        return answer


class _Answers(dict[str, Any]):
    """A request's answers to the choices its actions ask, noting which were asked."""

    __slots__ = ("asked",)

    def __init__(self, given: dict[str, Any]) -> None:
        super().__init__(given)
        self.asked: set[str] = set()

    def get(self, key: str, default: Any = None) -> Any:  # the one read choices.ask makes
        self.asked.add(key)
        return super().get(key, default)

    def all_asked(self, late: bool) -> None:
        """Refuse an answer to a choice the request never asked (a typo, a stale key)."""
        for key in self:
            if key not in self.asked and not (late and "." not in key):
                asked = ", ".join(sorted(self.asked)) or "none"
                raise ProtocolError("invalid_field", f"choices: {_short(key)} answers no "
                                    f"choice this request asks (asked: {asked})",
                                    f"choices.{key}")  # fmt: skip


def _only_fields(op: str, request: dict[str, Any], fields: frozenset[str]) -> None:
    """Refuse a field ``op`` does not take, naming it and the fields it does."""
    for name in request:
        if name not in fields and name not in COMMON_FIELDS:
            takes = ", ".join(sorted(fields | COMMON_FIELDS))
            raise ProtocolError("invalid_field", f"{op} takes no field {_short(name)} (it "
                                f"takes {takes})", str(name))  # fmt: skip


def state_of(battle: Battle) -> dict[str, Any]:
    """The battle's state as hosts receive it: the document ``dump_battle`` writes, each
    telegraphed intent carrying its ``forecast`` (what the move will do; ignored when the
    state is opened again)."""
    state = dump_battle(battle)
    forecasts = forecast_intents(battle)
    units: list[dict[str, Any]] = state["units"]  # type: ignore[assignment]
    for unit in units:
        if unit["id"] in forecasts and unit["intent"] is not None:
            unit["intent"]["forecast"] = forecasts[unit["id"]]
    return state


def _python() -> Result:
    """The interpreter that answers, so a host can check where it runs from (a native
    bundle's home and module search path lie inside the bundle)."""
    version = ".".join(str(part) for part in sys.version_info[:3])
    return {"version": version, "home": sys.prefix, "path": list(sys.path)}


def _short(value: object) -> str:
    """A request value quoted for a message (``'s1'``, ``null``), shortened when it is long."""
    return request_value(value)


#: JSON's names for the types a JSON reader gives (a message names the input, not Python).
_JSON_TYPES = {type(None): "null", bool: "a boolean", int: "a number", float: "a number",
               str: "a string", list: "an array", dict: "an object"}  # fmt: skip


def json_type(value: object) -> str:
    """What ``value`` is in JSON's words (``null``, ``an array``), for a refusal."""
    return _JSON_TYPES.get(type(value), type(value).__name__)


def _libraries(documents: object, words: Vocabulary) -> dict[str, CardDef]:
    """The cards of the card libraries (``pybridge/cards@1``) an ``open`` names; a card id
    defined in two libraries is refused, naming both."""
    if not isinstance(documents, list) or len(documents) > MAX_LIBRARIES:
        raise ProtocolError("invalid_field", f"libraries must be a list of at most "
                            f"{MAX_LIBRARIES} card libraries, got {_short(documents)}",
                            "libraries")  # fmt: skip
    cards: dict[str, CardDef] = {}
    found_in: dict[str, int] = {}
    for i, document in enumerate(documents):
        try:
            library = load_library(document, words)
        except TargetingError as exc:
            where = f"libraries[{i}]" + (f".{exc.where}" if exc.where not in ("", "document")
                                         else "")  # fmt: skip
            raise ProtocolError(exc.code, f"library {i}: {exc}", where) from None
        for card_id, card in library.items():
            if card_id in cards:
                raise ProtocolError("invalid_field", f"card {card_id!r} is defined in library "
                                    f"{found_in[card_id]} and again in library {i}",
                                    f"libraries[{i}]")  # fmt: skip
            cards[card_id], found_in[card_id] = card, i
    return cards


_TEAMS = {team.value: team for team in Team}
_PILE_NAMES = tuple(pile.value for pile in PILES)


def _viewer(request: dict[str, Any]) -> Viewer | None:
    """The request's ``viewer``: whose view the answer is (``player``, ``enemy`` or
    ``spectator``); absent: the authority's answer, everything included."""
    viewer = request.get("viewer")
    if viewer is None:
        return None
    if not isinstance(viewer, str) or viewer not in VIEWERS:
        raise ProtocolError("invalid_field", f"viewer must be one of {', '.join(VIEWERS)}, "
                            f"got {_short(viewer)}", "viewer")  # fmt: skip
    return VIEWERS[viewer]


def _required_viewer(request: dict[str, Any]) -> Viewer:
    """The request's ``viewer``, which this operation needs (there is no authority's
    answer to it)."""
    viewer = _viewer(request)
    if viewer is None:
        raise ProtocolError("invalid_field", "missing field 'viewer' (one of "
                            f"{', '.join(VIEWERS)})", "viewer")  # fmt: skip
    return viewer


def _viewers(request: dict[str, Any]) -> list[Viewer]:
    """Who a change answers: the request's ``viewer``, or each of its ``viewers`` (a server
    answering every seat from one request: the answer's ``views``; with a ``viewer`` too,
    that viewer acts and names cards by its own view's ids)."""
    one = _viewer(request)
    if "viewers" not in request:
        return [] if one is None else [one]
    given = request["viewers"]
    if (
        not isinstance(given, list)
        or not given
        or not all(v in VIEWERS for v in given if isinstance(v, str))
        or not all(isinstance(v, str) for v in given)
        or len(set(given)) != len(given)
    ):
        raise ProtocolError("invalid_field", f"viewers must list distinct viewers of "
                            f"{', '.join(VIEWERS)}, got {_short(given)}", "viewers")  # fmt: skip
    return [VIEWERS[v] for v in given]


def _give_views(battle: Battle, kept: bool = False) -> None:
    """A battle gives views from its first one on: it draws its secret then. The snapshot
    holds it (so a resumed match gives the same views) from the battle's next change on, or
    at once when ``kept`` (a battle opened for viewers): a request that changes nothing
    leaves the snapshot byte for byte as it was (docs/robustness.md)."""
    if battle.secret is None:
        enable(battle, os.urandom(32))  # what secrets.token_bytes reads, without base64
        battle.secret_kept = kept


def _state_view(battle: Battle, viewer: Viewer) -> dict[str, Any]:
    _give_views(battle)
    return state_view(battle, viewer, forecasts_for(battle, viewer))


def _viewed(request: dict[str, Any], battle: Battle, events: list[Event],
            viewers: list[Viewer], turn_side: Team) -> dict[str, Any]:  # fmt: skip
    """A change's answer for its viewers: the one viewer's events, log and state, or with
    ``viewers`` each one's under ``views``."""
    dumped = dump_battle(battle)  # one dump for every viewer's view
    answers = {}
    for viewer in viewers:
        shown, lines = events_view(battle, viewer, events, battle.journal or (), turn_side)
        state = state_view(battle, viewer, forecasts_for(battle, viewer), dumped)
        answers[viewer.value] = {"events": shown, "log": lines, "state": state}
    if "viewers" in request:
        return {"views": answers}
    return answers[viewers[0].value]


def _late(battle: Battle, viewer: Viewer | None, choices: dict[str, Any]) -> dict[str, Any]:
    """Late choices as the rules read them: a viewer's card ids become the instances'."""
    return choices if viewer is None else real_ids(battle, viewer, choices)


def _card_of(battle: Battle, viewer: Viewer, request: dict[str, Any]) -> object:
    _give_views(battle)
    return real_id(battle, viewer, request.get("card"))


def _acting(request: dict[str, Any]) -> Team | None:
    """Who a change acts for: its ``side``, else its viewer's (a spectator never acts)."""
    side = _side(request)
    viewer = _viewer(request)
    if viewer is None:
        return side
    if viewer.team is None:
        raise ProtocolError("not_your_turn", "a spectator only watches: it cannot act",
                            "viewer")  # fmt: skip
    if side is not None and side is not viewer.team:
        raise ProtocolError("invalid_field", f"side {side.value!r} is not the viewer's "
                            f"({viewer.value})", "side")  # fmt: skip
    return viewer.team


def _own_late_choice(battle: Battle, viewer: Viewer, entry_id: object) -> None:
    """Refuse a viewer's ``pick`` for a Cut entry's late choice that is the other side's:
    only its owner makes it (and only its owner looks through the piles it searches)."""
    entry = next((e for e in battle.cut if e.id == entry_id), None)
    if entry is not None and entry.card is not None and entry.side is not viewer.team:
        owner = entry.side.value
        raise ProtocolError("cut", f"entry {entry.id!r} chooses for the {owner} side: only the "
                            f"{owner} side picks its choice", "entry")  # fmt: skip


def _not_yours(choice: dict[str, Any]) -> str:
    """The refusal of a request whose resolution asks the other side a choice."""
    side, where = choice.get("side"), choice.get("entry") or "the play"
    return (f"{where} asks the {side} side a choice ({choice.get('kind')}): only the {side} "
            "side makes it")  # fmt: skip


def _side(request: dict[str, Any]) -> Team | None:
    """The request's ``side``: who it acts for (``player`` or ``enemy``), checked by the
    runtime against whose turn it is or who holds priority; absent: whoever acts now."""
    side = request.get("side")
    if side is None:
        return None
    if not isinstance(side, str) or side not in _TEAMS:
        raise ProtocolError("invalid_field", f"side must be one of {', '.join(_TEAMS)}, got "
                            f"{_short(side)}", "side")  # fmt: skip
    return _TEAMS[side]


def _count(request: dict[str, Any], name: str, least: int, most: int,
           default: int | None = None) -> int:  # fmt: skip
    """The request's whole number ``name``, from ``least`` to ``most`` (``default`` when it
    is absent and has one)."""
    value = request.get(name, default)
    if type(value) is float and value.is_integer():
        value = int(value)  # Godot's JSON writes 40 as 40.0
    if type(value) is not int or not least <= value <= most:
        raise ProtocolError("invalid_field", f"{name} must be a whole number from {least} to "
                            f"{most}, got {_short(value)}", name)  # fmt: skip
    return value


def _target(request: dict[str, Any]) -> Any:
    target = request.get("target")
    if isinstance(target, list) and len(target) > MAX_TARGETS:
        raise ProtocolError("not_a_candidate", f"at most {MAX_TARGETS} units may be submitted, "
                            f"got {len(target)}: {_short(target)}", "target")  # fmt: skip
    return target


def _choices(request: dict[str, Any], most: int | None = None) -> dict[str, Any]:
    """The request's ``choices``; ``most``: how many ids one answer may hold (by default a
    late choice's 16, and an action's options under an ``entry.node`` key)."""
    choices = request.get("choices", {})
    if not isinstance(choices, dict):
        late = " (or, in pass and resolve, a Cut entry's id to the unit ids it targets)"
        raise ProtocolError("invalid_field", "choices must map each choice's key (the key its "
                            "choice_needed error gave: a node id, or '<entry>.<node>' on the "
                            "Cut) to the list of ids chosen"
                            f"{late if request.get('op') in ('pass', 'resolve') else ''}, got "
                            f"{_short(choices)}", "choices")  # fmt: skip
    if len(choices) > MAX_CHOICES:
        raise ProtocolError("invalid_field", f"choices answers at most {MAX_CHOICES} Cut "
                            f"entries, got {len(choices)}", "choices")  # fmt: skip
    for entry, chosen in choices.items():
        limit = most if most is not None else MAX_OPTIONS if "." in str(entry) else MAX_TARGETS
        if isinstance(chosen, list) and len(chosen) > limit:
            raise ProtocolError("not_a_candidate", f"at most {limit} may be chosen, got "
                                f"{len(chosen)}", f"choices.{entry}")  # fmt: skip
    return choices


def _reject_constant(name: str) -> Any:
    raise ProtocolError("bad_json", f"request contains {name}, which JSON does not allow")


def _finite_float(text: str) -> float:
    """JSON numbers beyond the double range (``1e400``) would read as infinity: refused."""
    value = float(text)
    if not math.isfinite(value):
        raise ProtocolError("bad_json", f"request contains the number {_short(text)}, "
                            "which is out of range")  # fmt: skip
    return value


# One encoder and one decoder for every call: building them costs more than a small request.
# ASCII-only output is valid UTF-8 even when a request smuggled in a lone surrogate.
_ENCODER = json.JSONEncoder(separators=(",", ":"), ensure_ascii=True, allow_nan=False)
_encode_string: Callable[[str], str] = json.encoder.encode_basestring_ascii
_DECODER = json.JSONDecoder(parse_constant=_reject_constant, parse_float=_finite_float)


#: The largest integer every host's JSON reader holds exactly (Godot's reads numbers as doubles).
MAX_EXACT_INT = 2**53


def _echoable(value: Any, depth: int) -> bool:
    """Can a host's JSON parser read ``value`` back, if the response echoes it?"""
    kind = type(value)
    if value is None or kind is bool:
        return True
    if kind is str:
        return bool(value.isascii() or not LONE_SURROGATE.search(value))
    if kind is int:
        return bool(-MAX_EXACT_INT <= value <= MAX_EXACT_INT)
    if kind is float:
        return math.isfinite(value)
    if depth >= MAX_JSON_DEPTH:
        return False
    if kind is list:
        return all(_echoable(item, depth + 1) for item in value)
    if kind is dict:
        return all(_echoable(item, depth + 1) for item in value.values())
    return False


def echoable_id(value: object) -> bool:
    """Can every host read ``value`` back when an answer echoes it as its ``id``? (The online
    server holds its envelopes' ids to the same rule.)"""
    return _echoable(value, 0)


def _id_text(request_id: Any) -> str:
    """The JSON text of a request's ``id``; the usual kinds without the encoder's overhead."""
    kind = type(request_id)
    if request_id is None:
        return "null"
    if kind is int:
        return int.__repr__(request_id)
    if kind is str:
        return _encode_string(request_id)
    return _ENCODER.encode(request_id)


def _unplain(battle: Battle, events: list[Event], exc: Exception) -> Exception:
    """A response that cannot be written: an extension's event held a value JSON cannot
    carry (named, with its extension), else the fault itself."""
    event = first_unplain(events)
    if event is None:
        return exc
    node = event.get("node")
    owner = ""
    for definition in battle.library.values():
        found = definition.behavior.nodes.get(str(node))
        if found is not None and found.type.extension:
            owner = found.type.extension
            break
    by = f"extension {owner!r}" if owner else "an extension"
    return ExtensionFailed(f"{by} reported event {event.get('type')!r} (node {node!r}) holding "
                           "a value JSON cannot carry (a set, an object, NaN, an integer "
                           "beyond 2^53...); nothing was changed", "")  # fmt: skip


def _encoded(result: Result) -> Encoded:
    return Encoded(_bounded(_ENCODER.encode(result)))


def _text(result: Result | Encoded) -> str:
    return result if isinstance(result, Encoded) else _bounded(_ENCODER.encode(result))


#: Every escape of an encoded text, a surrogate pair as one, so that an escaped backslash
#: followed by "ud800" is not mistaken for an escape.
_ESCAPES = re.compile(r"\\(?:ud[89ab][0-9a-f]{2}\\ud[c-f][0-9a-f]{2}|u[0-9a-f]{4}|.)", re.DOTALL)


def _unpaired(escape: re.Match[str]) -> str:
    text = escape.group()
    return "\\ufffd" if len(text) == 6 and text[2] == "d" and text[3] in "89abcdef" else text


def _bounded(text: str) -> str:
    """A result text within :data:`MAX_RESPONSE`, readable by every host: a lone surrogate
    (which Godot's JSON parser refuses) becomes U+FFFD. Documents cannot hold one, but a
    diagnostic may quote one from a refused document."""
    if len(text) > MAX_RESPONSE:
        raise ProtocolError("too_large", f"the result would be {len(text)} characters, the "
                            f"limit is {MAX_RESPONSE}; nothing was changed")  # fmt: skip
    return _ESCAPES.sub(_unpaired, text) if "\\ud" in text else text


def _dump(response: dict[str, Any]) -> str:
    return _ENCODER.encode(response)


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _error(request_id: Any, code: str, message: str, where: str,
           details: dict[str, Any] | None = None) -> str:  # fmt: skip
    try:
        _ENCODER.encode(request_id)
    except (TypeError, ValueError, RecursionError):
        request_id = None
    message, where = LONE_SURROGATE.sub("\ufffd", message), LONE_SURROGATE.sub("\ufffd", where)
    error = {"code": code, "message": _clip(message, MAX_MESSAGE), "where": _clip(where, MAX_WHERE)}
    if details:
        try:
            _ENCODER.encode(details)
            error.update(details)
        except (TypeError, ValueError, RecursionError):
            pass  # an extension's odd values: the error itself still reaches the host
    return _dump({"ok": False, "id": request_id, "error": error})


# The answer when even an error response cannot be built: the host still gets JSON.
_FAILED = (
    '{"ok":false,"id":null,"error":{"code":"internal_error",'
    '"message":"the response could not be built","where":""}}'
)
