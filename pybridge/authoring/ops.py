"""The protocol's authoring operations, ``lint`` and ``describe`` (docs/protocol.md).

Both are read-only: ``lint`` checks a battle or card library document given in the request,
``describe`` writes the text of a card instance of an open session or of a card definition
given in the request. Refusals raise :class:`TargetingError` subclasses, which the protocol
turns into error responses with their code and ``where``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..runtime.definitions import parse_card
from ..runtime.errors import TargetingError, UnknownCard
from ..runtime.model import Battle
from ..runtime.reader import Reader
from ..runtime.vocabulary import Vocabulary
from .describe import spoken_card
from .lint import lint_document, summary


class MissingField(TargetingError):
    code = "invalid_field"


def lint_request(request: Mapping[str, Any], words: Vocabulary | None = None) -> dict[str, Any]:
    """``{"document": <battle or library>}`` -> its diagnostics and a count per severity.
    A document the loader refuses is a PB002 diagnostic, not a failed request."""
    if "document" not in request:
        raise MissingField("missing field 'document' (a battle or card library)", "document")
    diagnostics = lint_document(request["document"], None, words)
    return {"diagnostics": [d.to_json() for d in diagnostics], "summary": summary(diagnostics)}


def describe_request(request: Mapping[str, Any], battle: Battle | None,
                     words: Vocabulary | None = None) -> dict[str, Any]:  # fmt: skip
    """``{"session", "card": <instance id>}`` or ``{"definition": <card definition>}`` ->
    the card's generated text, beside the text its author wrote."""
    if battle is not None:
        card_id = request.get("card")
        instance = battle.cards.get(card_id) if isinstance(card_id, str) else None
        if instance is None:
            raise UnknownCard(f"no card instance {card_id!r} in this battle", "card")
        definition, statuses = instance.card, battle.statuses
    elif "definition" in request:
        definition, statuses = (
            parse_card(Reader(request["definition"], "definition", words=words)),
            {},
        )
    else:
        raise MissingField(
            "describe needs a session and a card instance id, or a card definition",
            "definition",
        )
    spoken = spoken_card(definition, statuses, battle.words if battle is not None else words)
    return {
        "card": definition.id,
        "name": definition.name,
        "text": spoken.text,
        "text_message": spoken.message,
        "authored": definition.text,
    }
