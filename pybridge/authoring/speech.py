"""The describer's text as a sentence tree: every sentence a declared message
(:mod:`pybridge.words.describing`) with typed parameters, and its English rendered from that
tree by the one renderer the log uses (:func:`pybridge.runtime.sentences.english`).

An extension action's words are its own ``describe`` message, which the tree holds by its id;
:class:`Spoken` carries those messages beside the tree so the English renders without the
vocabulary that declared them.
"""

from __future__ import annotations

import re
from collections import ChainMap
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache

from ..runtime.sentences import Said, english, listed, said
from ..runtime.vocabulary import Message, builtin
from ..words.describing import COUNTED_PHRASES, NOUN_PHRASES

__all__ = ["Said", "Spoken", "as_words", "joined", "paragraph", "render"]


@dataclass(frozen=True, slots=True)
class Spoken:
    """A described text: its sentence tree, and the messages of extensions it holds."""

    message: Said
    messages: Mapping[str, Message] = field(default_factory=dict)

    @property
    def text(self) -> str:
        return render(self.message, self.messages)


def render(sentence: Said, extra: Mapping[str, Message] | None = None) -> str:
    """The English of a described sentence."""
    return english(ChainMap(dict(extra or {}), builtin().messages), sentence)


def as_words(text: str) -> Said:
    """A phrase the describer words in English alone (``describe.words``)."""
    return said("describe.words", words=text)


@cache
def _counted() -> tuple[tuple[re.Pattern[str], str], ...]:
    """The counted phrases as patterns, each placeholder a number or a word."""
    out = []
    for told, message_id in COUNTED_PHRASES.items():
        pattern = re.escape(told)
        for name in ("count", "plus"):
            pattern = pattern.replace(re.escape("{" + name + "}"), rf"(?P<{name}>\d+)")
        # a counter's name is its id in title case: "Combo", "Blade Dance"
        pattern = pattern.replace(re.escape("{counter}"), r"(?P<counter>[A-Z]\w*(?: [A-Z]\w*)*)")
        out.append((re.compile(pattern + r"\Z"), message_id))
    return tuple(out)


def phrase(text: str) -> Said:
    """A phrase of who or what, as its whole message where it has one (:data:`pybridge.words.
    describing.NOUN_PHRASES`), else ``describe.words``."""
    if text in NOUN_PHRASES:
        return said(NOUN_PHRASES[text])
    for pattern, message_id in _counted():
        found = pattern.match(text)
        if found is not None:
            params: dict[str, object] = {
                k: int(v) if v.isdigit() else v for k, v in found.groupdict().items()
            }
            return {"id": message_id, "params": params}
    return as_words(text)


def joined(parts: Sequence[Said]) -> Said:
    """Clauses as one: "A, B and C" (``list.*``)."""
    return parts[0] if len(parts) == 1 else listed(list(parts))


def paragraph(sentences: Sequence[Said], extra: Mapping[str, Message] | None = None) -> Said:
    """Sentences as a paragraph: each capitalized and ended with a period (unless its English
    ends with one already)."""
    told = [(s, render(s, extra)) for s in sentences]
    kept = [(s, text) for s, text in told if text]
    if not kept:
        return as_words("")
    done = [
        said("describe.sentence.ended" if text.endswith(".") else "describe.sentence", clause=s)
        for s, text in kept
    ]
    out = done[-1]
    for sentence in reversed(done[:-1]):
        out = said("describe.sentences", first=sentence, rest=out)
    return out
