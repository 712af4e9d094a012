"""What a translator translates: every message a vocabulary declares and, for a game's data, the
names and texts of its cards, moves, statuses and units (docs/translation.md).

An entry is keyed the way a host looks it up: its context (``msgctxt``: a message id, or
``card.<id>.name`` and the like for data) and its English (``msgid``). A name has a second
entry, ``<context>#gender``, where a language with grammatical gender gives the name's gender;
a sentence that agrees with a name is then chosen by context ``<id>|<param>=<gender>``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from .authoring.describe import describe_card, describe_move, describe_status
from .authoring.grammar import title
from .runtime.model import CardDef, MoveDef, StatusDef
from .runtime.vocabulary import Message, Vocabulary

#: Where the gender of a name is given: the name's context with this suffix.
GENDER = "#gender"
#: The context of a unit's name (units are declared in each battle, named by their English).
UNIT_NAME = "unit.name"
#: The parameter types whose value is a name (with a gender in a gendered language).
NAMED = frozenset({"unit", "card", "status", "move", "name"})


@dataclass(frozen=True, slots=True)
class Entry:
    """One thing to translate. ``plural``: the English for a count other than one, when the
    entry has plural forms; ``params``: each placeholder's type, for the translator."""

    context: str
    english: str
    plural: str = ""
    params: Mapping[str, str] = field(default_factory=dict)
    note: str = ""
    extension: str = ""

    @property
    def comment(self) -> str:
        """The translator's comment: what each placeholder holds, and which one is counted."""
        lines = [self.note] if self.note else []
        if self.params:
            told = ", ".join(f"{{{name}}}: {kind}" for name, kind in self.params.items())
            lines.append(f"placeholders: {told}")
        counted = [n for n, k in self.params.items() if k == "number" and self.plural]
        if counted:
            lines.append(f"plural forms by {{{counted[0]}}}")
        if self.extension:
            lines.append(f"declared by the extension {self.extension}")
        return "\n".join(lines)


def message_entry(message: Message, extension: str = "") -> Entry:
    params = dict(message.params)
    if message.plural:  # the counted number first, so the comment names it
        params = {message.plural: "number", **params}
    return Entry(message.id, message.english, message.english_plural, params, "", extension)


def message_entries(words: Vocabulary) -> list[Entry]:
    """Every message of the vocabulary's table, in the order it was declared."""
    return [
        message_entry(message, words.owner_of("messages", message.id) or "")
        for message in words.messages.values()
    ]


def _name(context: str, english: str, what: str) -> list[Entry]:
    return [
        Entry(context, english, note=f"the name of {what}"),
        Entry(context + GENDER, english,
              note=f"the grammatical gender of {what}'s name in your language (docs/"
              "translation.md); leave the English where your language has none"),
    ]  # fmt: skip


def _text(context: str, english: str, what: str) -> list[Entry]:
    return [Entry(context, english, note=f"the text of {what}")] if english else []


def data_entries(cards: Mapping[str, CardDef], moves: Mapping[str, MoveDef] | None = None,
                 statuses: Mapping[str, StatusDef] | None = None,
                 units: Iterable[str] = ()) -> list[Entry]:  # fmt: skip
    """A game's names and texts: each card's, move's and status's name and text (its authored
    text, else the text the describer writes), and the name of each unit."""
    statuses = statuses or {}
    out: list[Entry] = []
    for card in cards.values():
        out += _name(f"card.{card.id}.name", card.name, f"the card {card.id!r}")
        out += _text(f"card.{card.id}.text", card.text or describe_card(card, statuses),
                     f"the card {card.id!r}")  # fmt: skip
        for keyword in card.keywords:
            out.append(Entry(f"keyword.{keyword}", title(keyword),
                             note=f"the keyword {keyword!r} in generated card text"))  # fmt: skip
        for rule in card.playable_if:
            out.append(Entry(f"card.{card.id}.playable_if", rule.reason,
                             note=f"why the card {card.id!r} cannot be played now"))  # fmt: skip
    for move in (moves or {}).values():
        out += _name(f"move.{move.id}.name", move.name, f"the enemy move {move.id!r}")
        out += _text(f"move.{move.id}.text", move.text or describe_move(move, statuses),
                     f"the enemy move {move.id!r}")  # fmt: skip
    for status in statuses.values():
        out += _name(f"status.{status.id}.name", status.name, f"the status {status.id!r}")
        out += _text(f"status.{status.id}.text",
                     status.text or describe_status(status, statuses),
                     f"the status {status.id!r}")  # fmt: skip
    for name in dict.fromkeys(units):
        out += _name(UNIT_NAME, name, f"the unit {name!r}")
    return _unique(out)


def _unique(entries: list[Entry]) -> list[Entry]:
    """One entry per context and English (two battles naming the same card say it once)."""
    seen: dict[tuple[str, str], Entry] = {}
    for entry in entries:
        seen.setdefault((entry.context, entry.english), entry)
    return list(seen.values())
