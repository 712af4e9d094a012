"""Sentences as messages: a message id with typed parameters, and its English rendered from it.

Every text a player reads (a log line, a refusal, a prompt, an intent) is built here as a
``said`` value, ``{"id": ..., "params": {...}}``, beside the English that :func:`english`
renders from the message table (``Vocabulary.messages``): one template, no second English
string. A parameter's value is JSON a host can translate (docs/translation.md):

- a name: ``{"unit": id, "name": ...}``, ``{"card": id, "def": ..., "name": ...}``,
  ``{"status": id, "name": ...}`` or ``{"move": id, "name": ...}``;
- a number as it is (the message's ``plural`` parameter picks the plural form);
- a game's own text: ``{"context": ..., "text": ...}`` (a card's ``playable_if`` reason);
- a sentence of its own, ``{"id", "params"}``: a list of names ("A, B and C"), a pile, a
  counter's label, a clause.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeVar

from .errors import TargetingError
from .model import Battle
from .vocabulary import Message, words_of

Said = dict[str, Any]


def said(message_id: str, **params: Any) -> Said:
    return {"id": message_id, "params": params}


def is_said(value: object) -> bool:
    return isinstance(value, dict) and "id" in value and "params" in value


def english(messages: Mapping[str, Message], sentence: Said) -> str:
    """The English of a said sentence: its message's template (the plural one when its
    ``plural`` count is not one) with every parameter filled, sentences within rendered
    the same way."""
    message = messages[sentence["id"]]
    params: Mapping[str, Any] = sentence["params"]
    template = message.english
    if message.plural and params.get(message.plural) != 1:
        template = message.english_plural
    filled = {name: _filled(messages, params.get(name)) for name in message.params}
    text = template.format_map(filled)
    return capital(text) if sentence["id"] in CAPITALIZED else text


#: Messages that are a whole sentence of a paragraph (a card text's): whatever fills them, a
#: host writes their first letter as a capital (the one rule of writing a host applies).
CAPITALIZED = frozenset({"describe.sentence", "describe.sentence.ended"})


def capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def _filled(messages: Mapping[str, Message], value: object) -> str:
    if isinstance(value, dict):
        if "params" in value:
            return english(messages, value)
        return str(value["name"] if "name" in value else value.get("text", ""))
    return str(value)


def say(battle: Battle, sentence: Said) -> str:
    """:func:`english` with the battle's own message table."""
    return english(words_of(battle).messages, sentence)


_Error = TypeVar("_Error", bound=TargetingError)


def refused(error: type[_Error], battle: Battle, sentence: Said, where: str) -> _Error:
    """An error whose message is a sentence a player reads (``error.said``)."""
    made = error(say(battle, sentence), where)
    made.said, made.reason = sentence, made.message
    return made


# -- names ------------------------------------------------------------------------------------
#: How a view names a card its viewer cannot see (:mod:`.views`).
HIDDEN_CARD_ID = "name.hidden_card"


def opening_hidden_card(sentence: Said) -> Said:
    """``sentence`` with the hidden card that opens it said as a sentence's start ("A card
    moves ..."): the parameter its template opens with."""
    params = dict(sentence["params"])
    for name, value in params.items():
        if is_said(value) and value["id"] == HIDDEN_CARD_ID:
            params[name] = said(HIDDEN_CARD_ID + ".start")
            return {"id": sentence["id"], "params": params}
    return sentence


def unit(battle: Battle, unit_id: object) -> dict[str, Any]:
    found = battle.unit(unit_id) if isinstance(unit_id, str) else None
    return {"unit": unit_id, "name": found.name if found is not None else str(unit_id)}


def card(battle: Battle, card_id: object, hidden: str = "") -> dict[str, Any]:
    """A card instance by name; ``hidden``: the text a view puts for a card it may not show,
    which becomes the hidden-card sentence."""
    found = battle.cards.get(card_id) if isinstance(card_id, str) else None
    if found is None:
        if hidden and card_id == hidden:
            return said(HIDDEN_CARD_ID)
        return {"card": card_id, "def": None, "name": str(card_id)}
    return {"card": card_id, "def": found.card.id, "name": found.card.name}


def cards_renamed(value: Any, rename: Callable[[str], str]) -> Any:
    """``value`` (a sentence, its parameters, lists of them) with the instance id of every
    card named by :func:`card` replaced by ``rename`` of it: a copy where one changes."""
    if isinstance(value, list):
        return [cards_renamed(item, rename) for item in value]
    if not isinstance(value, dict):
        return value
    if "def" in value and "name" in value and isinstance(value.get("card"), str):
        return {**value, "card": rename(value["card"])}
    return {key: cards_renamed(item, rename) for key, item in value.items()}


def definition(battle: Battle, card_id: object) -> dict[str, Any]:
    """A card definition by name (a Call names the card by its definition id)."""
    found = battle.library.get(card_id) if isinstance(card_id, str) else None
    return {"card": None, "def": card_id, "name": found.name if found is not None else str(card_id)}


def status(battle: Battle, status_id: object) -> dict[str, Any]:
    found = battle.statuses.get(status_id) if isinstance(status_id, str) else None
    name = found.name if found is not None else str(status_id).replace("_", " ").title()
    return {"status": status_id, "name": name}


def move(battle: Battle, move_id: object, name: object) -> dict[str, Any]:
    return {"move": move_id, "name": str(name)}


def data(context: str, text: str) -> dict[str, str]:
    """A game's own text (a ``data`` parameter): its English and the context its catalog
    translates it under (``card.<id>.playable_if``)."""
    return {"context": context, "text": text}


def listed(names: Sequence[Any], empty: str = "list.no_one") -> Said:
    """Names (or sentences) as one sentence: "A", "A and B", "A, B and C" — each a whole
    template (``list.two``, ``list.more``), so a translator words the list, not the host."""
    if not names:
        return said(empty)
    if len(names) == 1:
        return said("list.one", item=names[0])
    if len(names) == 2:
        return said("list.two", first=names[0], last=names[1])
    return said("list.more", first=names[0], rest=listed(names[1:]))


def listed_commas(names: Sequence[Any], empty: str) -> Said:
    """Names joined by commas only ("A, B, C"), as the chosen cards are told."""
    if not names:
        return said(empty)
    if len(names) == 1:
        return said("list.one", item=names[0])
    return said("list.comma", first=names[0], rest=listed_commas(names[1:], empty))


def pile(value: object) -> Said:
    return said(f"pile.{value}") if value in _PILES else said("pile.other", pile=str(value))


_PILES = ("hand", "draw", "discard", "exhaust", "cut", "resolving")
