"""The service every transport serves: the protocol with the authoring operations added.

:mod:`pybridge.protocol` knows only the runtime; this module assembles it with the authoring
tools' operations (which card editors such as the Workshop use): ``lint``, ``describe``,
``sandbox`` (a test battle around a card), ``library_text`` (a library's canonical text)
and ``templates`` (the guide's common card shapes to start a card from),
and holds the one shared instance the C ABI, the GDExtension, the stdio server and the
browser call.
"""

from __future__ import annotations

from typing import Any

from .answers import DEFAULT_CAPACITY
from .authoring.describe import spoken_card
from .authoring.ops import MissingField, describe_request, lint_request
from .authoring.templates import templates_request
from .authoring.workbench import library_text, sandbox_battle
from .protocol import Protocol
from .runtime import Battle, CardDef
from .runtime.vocabulary import Vocabulary


def assemble(protocol: Protocol) -> Protocol:
    """Add the authoring operations to ``protocol``, and the describer's sentence to the
    states' cards that have no text of their own (``text_message``)."""

    def describe(request: dict[str, Any]) -> dict[str, Any]:
        battle = protocol.battle_of(request) if "session" in request else None
        return describe_request(request, battle, protocol.words)

    def sandbox(request: dict[str, Any]) -> dict[str, Any]:
        if "card" not in request:
            raise MissingField("missing field 'card' (a card definition)", "card")
        battle = sandbox_battle(request["card"], request.get("library"), request.get("statuses"),
                                protocol.words, request.get("piles"))  # fmt: skip
        return {"battle": battle}

    def text(request: dict[str, Any]) -> dict[str, Any]:
        if "document" not in request:
            raise MissingField("missing field 'document' (a card library)", "document")
        return {"text": library_text(request["document"], protocol.words)}

    def card_text(battle: Battle, card: CardDef) -> object:
        return spoken_card(card, battle.statuses, battle.words).message

    protocol.card_text = card_text
    protocol.register("lint", lambda request: lint_request(request, protocol.words),
                      ("document",))  # fmt: skip
    protocol.register("describe", describe, ("session", "card", "definition"))
    protocol.register("sandbox", sandbox, ("card", "library", "statuses", "piles"))
    protocol.register("library_text", text, ("document",))
    protocol.register("templates", lambda request: templates_request(request, protocol.words),
                      ())  # fmt: skip
    return protocol


def new_protocol(answer_cache: int = DEFAULT_CAPACITY, words: Vocabulary | None = None
                 ) -> Protocol:  # fmt: skip
    """A protocol with every operation, for a host of its own; ``words``: the vocabulary with
    the game's extensions (:func:`pybridge.extensions.load`), the built-in one by default."""
    return assemble(Protocol(answer_cache, words))


_shared = new_protocol()

#: The shared instance's ``call``, which every transport uses (bound directly: hosts call it
#: every frame).
call = _shared.call


def use_words(words: Vocabulary) -> None:
    """Serve the shared instance with ``words`` (a game's extensions loaded): hosts call it
    once at start, before the first request."""
    _shared.use_words(words)


def keep_answers(capacity: int) -> None:
    """Size the shared instance's kept answers (see :meth:`Protocol.keep_answers`); hosts set
    it from the environment with :func:`pybridge.answers.capacity_from`."""
    _shared.keep_answers(capacity)
