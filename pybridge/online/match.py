"""One online match: the authority's session, its two seats and their tokens, spectators,
the move log and a state hash per step. No I/O: the WebSocket host (:mod:`.server`) moves
the text, this module decides everything a seat may do.

A seat's intent is checked by the protocol itself (the runtime's own errors, worded in the
seat's card ids, forwarded as the protocol answers them) and, once accepted, answers every
viewer from one request.
"""

from __future__ import annotations

import copy
import hashlib
import hmac
import json
import secrets
from dataclasses import dataclass, field
from typing import Any

from ..protocol import Protocol, echoable_id
from ..runtime.document import rng_to_json
from ..runtime.errors import request_value
from ..runtime.rng import Pcg32
from ..runtime.vocabulary import Vocabulary
from ..service import new_protocol

SEATS = ("player", "enemy")
SPECTATOR = "spectator"
#: What a seat may change: each one checked by the runtime for whose turn or priority it is.
#: ``resolve`` is the host's (it resolves the whole Cut for nobody in particular): no intent.
INTENTS = frozenset({"play", "activate", "respond", "pass", "end_turn"})
#: What a seat or a spectator may ask: read only, answered as its viewer sees it.
QUESTIONS = frozenset({"targets", "preview", "cut", "pick", "view", "state"})
#: Answers kept per viewer and state version (the aiming arrow asks again every frame).
KEPT_QUESTIONS = frozenset({"targets", "preview"})
#: At most this many kept answers per match, each for a question of at most this many
#: characters: what one client asks cannot grow the server's memory without end.
KEPT_MOST = 512
KEPT_TEXT = 1024
#: Fields the server fills in: a client never names a session or another viewer.
SERVER_FIELDS = ("session", "viewers")
LOG_FORMAT = "pybridge/match-log@1"
#: A message's largest size in bytes (a request the protocol takes, with room to spare).
MAX_MESSAGE_BYTES = 64 * 1024
IDLE_SECONDS = 300.0
MAX_MATCHES = 256
#: Connections one client address may hold open at once (handshakes included).
MAX_PER_ADDRESS = 64
#: Bytes a connection may leave unread before the server drops it (a client that stopped
#: reading; an honest slow one is far from it: the kernel's buffers come first).
BACKLOG_BYTES = 1024 * 1024
#: Seconds a match stays held with nobody connected to it before the server forgets it.
ABANDON_SECONDS = 300.0
#: Matches that the connections from one client address created and the server still holds.
MATCHES_PER_ADDRESS = 16


@dataclass(frozen=True)
class Limits:
    """What a server bounds: message size, silence, matches, and the page Origins it takes."""

    max_message: int = MAX_MESSAGE_BYTES
    idle: float = IDLE_SECONDS
    max_matches: int = MAX_MATCHES
    #: Allowed Origins besides the loopback pages (exact texts, e.g. ``https://game.example``).
    origins: tuple[str, ...] = ()
    loopback: bool = True
    #: Open connections per client address (0: no bound).
    per_address: int = MAX_PER_ADDRESS
    backlog: int = BACKLOG_BYTES
    #: A match nobody is connected to is forgotten after this many seconds (its log, with
    #: ``--logs``, and with a store its state in Redis, stay).
    abandon: float = ABANDON_SECONDS
    #: Matches created from one client address and still held (0: no bound).
    matches_per_address: int = MATCHES_PER_ADDRESS


def state_hash(snapshot: dict[str, Any]) -> str:
    """The hash of the authority's canonical snapshot: sorted keys, no spaces, UTF-8."""
    text = json.dumps(snapshot, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def error(code: str, message: str, where: str = "", request_id: Any = None) -> dict[str, Any]:
    """A refusal shaped as the protocol's error answer (for what the server itself refuses)."""
    return {
        "ok": False,
        "id": request_id,
        "error": {"code": code, "where": where, "message": message},
    }


class MatchError(Exception):
    """A message the match refuses before the protocol sees it (unknown token, full match)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


@dataclass
class Outcome:
    """What one client message gives: the sender's answer and, after a change, what every
    viewer receives (``updates``: viewer -> message)."""

    answer: dict[str, Any]
    updates: dict[str, dict[str, Any]] = field(default_factory=dict)


#: What a document may hold that a new match never takes from it: its view secret and stints
#: (each match draws its own secret when it opens).
_NEVER_SHARED = ("secret", "stints")


def fresh_start(battle: dict[str, Any], fixed_order: bool = False) -> dict[str, Any]:
    """The document a new match opens: ``battle`` with a seed of its own, drawn from the
    operating system's secure source, and each side's hand and draw pile shuffled together
    with the match's RNG and the hand dealt again from the top (as many cards as it held),
    so that no client can work out a hidden card from the document the server was given.
    Its view secret and stints are left out: the match draws its own when it opens.

    ``fixed_order`` (``serve --ws --fixed-order``) keeps the document's seed, RNG state and
    pile order as written (a tutorial, a scripted test): every match then plays out alike and
    its hidden order is only as secret as the document."""
    fresh = {k: v for k, v in battle.items() if k not in _NEVER_SHARED}
    if fixed_order:
        return fresh
    seed = secrets.randbits(64)
    rng = Pcg32(seed)
    fresh = copy.deepcopy(fresh)  # the server's document is never changed
    sides = fresh.get("sides")
    holders = sides if isinstance(sides, list) else [fresh]
    for holder in holders:
        piles = holder.get("piles") if isinstance(holder, dict) else None
        if not isinstance(piles, dict):
            continue  # not a battle the runtime opens: it refuses it, naming the field
        hand, draw = piles.get("hand", []), piles.get("draw", [])
        if not isinstance(hand, list) or not isinstance(draw, list):
            continue
        cards = [*hand, *draw]
        rng.shuffle(cards)
        if "hand" in piles:
            piles["hand"] = cards[: len(hand)]
        piles["draw"] = cards[len(hand) :]
    fresh["seed"] = seed
    fresh["rng"] = rng_to_json(rng)
    return fresh


class Match:
    """A duel between two seats, watched by any number of spectators."""

    def __init__(
        self,
        name: str,
        battle: dict[str, Any],
        words: Vocabulary | None = None,
        fixed_order: bool = False,
    ) -> None:
        """A new match from ``battle`` (see :func:`fresh_start`): its own seed, hidden
        order and view secret, none of which any view shows."""
        self.name = name
        # One protocol per match: its lock serialises this match only, never the others.
        self.protocol: Protocol = new_protocol(0, words)
        opened = self._call(
            {"op": "open", "battle": fresh_start(battle, fixed_order), "viewers": [SPECTATOR]}
        )
        if not opened["ok"]:
            raise MatchError(opened["error"]["code"], opened["error"]["message"])
        self.session: str = opened["result"]["session"]
        self.tokens: dict[str, str] = {}
        self.step = 0
        start = self.snapshot()
        #: The authority's snapshot after the last step (what a store keeps to resume from).
        self.authority: dict[str, Any] = start
        self.log: dict[str, Any] = {
            "format": LOG_FORMAT,
            "match": name,
            "start": start,
            "hash": state_hash(start),
            "steps": [],
        }
        self._kept: dict[tuple[str, int, str], dict[str, Any]] = {}

    @classmethod
    def resume(
        cls,
        log: dict[str, Any],
        snapshot: dict[str, Any],
        tokens: dict[str, str],
        words: Vocabulary | None = None,
    ) -> Match:
        """The match ``log`` records, opened again from its last ``snapshot`` (its view
        secret included: the same card ids) on another process."""
        steps = log["steps"]
        want = steps[-1]["hash"] if steps else log["hash"]
        if state_hash(snapshot) != want:
            raise MatchError("bad_snapshot", f"match {log['match']!r}: snapshot and log differ")
        match = cls.__new__(cls)
        match.name = log["match"]
        match.protocol = new_protocol(0, words)
        opened = match._call({"op": "open", "battle": snapshot, "viewers": [SPECTATOR]})
        if not opened["ok"]:
            raise MatchError(opened["error"]["code"], opened["error"]["message"])
        match.session = opened["result"]["session"]
        match.tokens = dict(tokens)
        match.step = len(steps)
        match.authority = snapshot
        match.log = log
        match._kept = {}
        return match

    # -- seats -------------------------------------------------------------------------
    def claim(self) -> tuple[str, str]:
        """Take the first free seat: its name and its new token."""
        for seat in SEATS:
            if seat not in self.tokens:
                self.tokens[seat] = secrets.token_urlsafe(24)
                return seat, self.tokens[seat]
        raise MatchError("match_full", f"match {self.name!r} has both its seats taken")

    def seat_of(self, token: object) -> str:
        """The seat a token holds (compared in constant time)."""
        if isinstance(token, str):
            given = token.encode("utf-8", "surrogatepass")  # JSON lets a lone surrogate in
            for seat, held in self.tokens.items():
                if hmac.compare_digest(held.encode(), given):
                    return seat
        raise MatchError("bad_token", f"no seat of match {self.name!r} holds that token")

    @property
    def over(self) -> bool:
        return self.snapshot().get("result") is not None

    # -- what viewers see --------------------------------------------------------------
    def view(self, viewer: str) -> dict[str, Any]:
        answer = self._call({"op": "view", "session": self.session, "viewer": viewer})
        return answer["result"]["view"]  # type: ignore[no-any-return]

    def snapshot(self) -> dict[str, Any]:
        """The authority's snapshot (hidden zones, RNG and view secret included)."""
        answer = self._call({"op": "state", "session": self.session})
        return answer["result"]["state"]  # type: ignore[no-any-return]

    # -- requests ----------------------------------------------------------------------
    def request(self, viewer: str, request: object) -> Outcome:
        """Answer one protocol request from ``viewer`` (a seat or ``spectator``)."""
        if not isinstance(request, dict):
            return Outcome(error("bad_request", "a request is a JSON object"))
        request_id = request.get("id")
        if not echoable_id(request_id):  # the refusals below echo it
            return Outcome(error("invalid_id", "the id must be one a JSON reader reads back", "id"))
        op = request.get("op")
        for name in SERVER_FIELDS:
            if name in request:
                return Outcome(
                    error("invalid_field", f"the server fills in {name!r}", name, request_id)
                )
        if request.get("viewer", viewer) != viewer:
            return Outcome(
                error(
                    "not_your_seat",
                    f"this connection is {viewer!r}: it cannot ask or act for another viewer",
                    "viewer",
                    request_id,
                )
            )
        asked = {**request, "session": self.session, "viewer": viewer}
        if not isinstance(op, str):  # a list or an object cannot be looked up in the sets below
            known = ", ".join(sorted(INTENTS | QUESTIONS))
            message = f"unknown op {request_value(op)} online (known: {known})"
            return Outcome(error("unknown_op", message, "op", request_id))
        if op in QUESTIONS:
            return Outcome(self._question(viewer, op, asked))
        if op in INTENTS:
            if viewer == SPECTATOR:
                return Outcome(
                    error(
                        "not_your_turn",
                        "a spectator only watches: it cannot act",
                        "viewer",
                        request_id,
                    )
                )
            return self._intent(viewer, asked)
        known = ", ".join(sorted(INTENTS | QUESTIONS))
        return Outcome(
            error(
                "unknown_op",
                f"unknown op {request_value(op)} online (known: {known})",
                "op",
                request_id,
            )
        )

    def _question(self, viewer: str, op: str, asked: dict[str, Any]) -> dict[str, Any]:
        if op not in KEPT_QUESTIONS:
            return self._call(asked)
        key = (
            viewer,
            self.step,
            json.dumps({k: v for k, v in asked.items() if k != "id"}, sort_keys=True),
        )
        answer = self._kept.get(key)
        if answer is None:
            answer = self._call({k: v for k, v in asked.items() if k != "id"})
            if len(key[2]) > KEPT_TEXT:  # no arrow asks that: kept, it would only take memory
                return {**answer, "id": asked.get("id")}
            if len(self._kept) >= KEPT_MOST:  # only the current version's answers are any use
                self._kept = {k: v for k, v in self._kept.items() if k[1] == self.step}
                if len(self._kept) >= KEPT_MOST:  # a client asking ever new questions
                    self._kept.clear()
            self._kept[key] = answer
        return {**answer, "id": asked.get("id")}

    def _intent(self, seat: str, asked: dict[str, Any]) -> Outcome:
        """The seat acts as its own viewer (naming cards by its view's ids) and one request
        answers every viewer; the log keeps that request, which replays as it was."""
        request = {k: v for k, v in asked.items() if k != "id"}
        request["viewers"] = [*SEATS, SPECTATOR]
        done = self._call(request)
        if not done["ok"]:
            return Outcome({**done, "id": asked.get("id")})
        return self._committed(seat, request, done["result"]["views"], asked.get("id"))

    def _committed(
        self, seat: str, request: dict[str, Any], views: dict[str, Any], request_id: Any
    ) -> Outcome:
        self.step += 1
        self._kept.clear()
        snapshot = self.authority = self.snapshot()
        logged = {k: v for k, v in request.items() if k != "session"}
        self.log["steps"].append(
            {"step": self.step, "seat": seat, "request": logged, "hash": state_hash(snapshot)}
        )
        result = snapshot.get("result")
        updates = {
            viewer: {
                "type": "update",
                "match": self.name,
                "step": self.step,
                "by": seat,
                "result": result,
                **answer,
            }
            for viewer, answer in views.items()
        }
        # The seat's own events, log and state come with its update, like everyone's.
        return Outcome({"ok": True, "id": request_id, "result": {"step": self.step}}, updates)

    def _call(self, request: dict[str, Any]) -> dict[str, Any]:
        return json.loads(self.protocol.call(json.dumps(request)))  # type: ignore[no-any-return]
