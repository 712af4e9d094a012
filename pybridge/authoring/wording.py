"""What card text says: editor vocabulary it should not use, and the ranges it promises.

The seeds' text guidance: "Opponent, UnitSource, CardSource, and node names belong to Editor
configuration and should not appear directly in player-facing card descriptions. Describe the
final target instead, such as "Deal 8 damage to the selected enemy," "Give another ally 6
Armor," or "Restore 4 health to all allies."
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

from ..runtime.graph import NODE_TYPES
from ..runtime.modes import MODE_NAMES
from ..runtime.sources import CARD_SOURCES, UNIT_SOURCES, CardWords, UnitWords
from .phrases import PILE_WORDS

#: Editor phrases from the seeds' "Avoid" column.
_EDITOR_PHRASES = (
    r"card refs?",
    r"unit collections?",
    r"card collections?",
    r"source field",
    r"target port",
    r"target source",
)


def _camel(word: str) -> bool:
    """An editor identifier: CamelCase with at least two capitals and no spaces."""
    return " " not in word and sum(c.isupper() for c in word) >= 2


@cache
def _terms() -> tuple[str, ...]:
    """Every editor identifier: CamelCase source, node type and mode names, and a few more.
    Read from the runtime's schema, so a new source or node type is covered by itself. Names
    that are plain words ("Self", "Target") are found by the rules of :func:`editor_terms`."""
    names = (*UNIT_SOURCES, *CARD_SOURCES, *NODE_TYPES, *MODE_NAMES)
    terms = {name for name in names if _camel(name)}
    terms |= {"Opponent", "UnitSource", "CardSource", "TargetSource", "TargetMode"}
    return tuple(sorted(terms, key=lambda t: (-len(t), t)))


@cache
def _identifiers() -> re.Pattern[str]:
    """Every editor identifier as a whole word, in one pattern (the longest tried first)."""
    alternatives = "|".join(re.escape(term) for term in _terms())
    return re.compile(rf"(?<![A-Za-z])(?:{alternatives})(?![A-Za-z])")


@dataclass(frozen=True, slots=True)
class Term:
    """An editor word found in text, with what to say instead."""

    word: str
    start: int
    instead: str


#: What to say instead of a word, where the describer's own words for it (below) would not
#: read well as advice: the editor's Target and Host, and the sources said better otherwise.
_BETTER = {
    "Opponent": 'the enemy it hits ("the selected enemy", "the first enemy")',
    "AllOpponents": '"all enemies"',
    "AllEnemies": '"all enemies"',
    "AllDeadAllies": '"fallen allies"',
    "Self": '"you" (or "Gain ...")',
    "Target": '"the selected enemy", "an ally", "any unit"',
    "Host": '"you"',
}


def _unit_words(words: UnitWords | None) -> str:
    if words is None:
        return "what the source yields"
    if words.phrase or words.noun is None:
        return f'"{words.phrase}"'
    team = "" if words.team is None else f"{words.team} "
    return f'"{" ".join(p for p in ("all", words.pre, team + words.noun[1], words.tail) if p)}"'


def _card_words(words: CardWords | None) -> str:
    if words is None:
        return "what the source yields"
    if words.phrase:
        return f'"{words.phrase}"' + (f' (or "{words.many}")' if words.many else "")
    if words.place is not None:
        pile = PILE_WORDS[words.place]
        return f'"the cards {pile.tail}"' if not pile.name else f'"your {pile.name}"'
    return f'"the cards {words.inside} your {words.where}"'


def _instead_table() -> dict[str, str]:
    """Every built-in unit and card source, with the words it declared for the describer
    unless :data:`_BETTER` says it better."""
    out = {name: _unit_words(spec.words) for name, spec in UNIT_SOURCES.items()}
    out |= {name: _card_words(spec.words) for name, spec in CARD_SOURCES.items()}
    return out | _BETTER


_INSTEAD = _instead_table()


def editor_terms(text: str) -> list[Term]:
    """Editor vocabulary in ``text``: identifiers, "Self" as a noun, "Target" or "Host"
    capitalized inside a sentence, and the seeds' "Avoid" phrases."""
    found: list[Term] = []
    taken: list[tuple[int, int]] = []

    def add(word: str, start: int) -> None:
        end = start + len(word)
        if any(s < end and start < e for s, e in taken):
            return
        taken.append((start, end))
        found.append(Term(word, start, _INSTEAD.get(word, "gameplay words for what it does")))

    for match in _identifiers().finditer(text):
        add(match.group(0), match.start())
    for match in re.finditer(r"(?<![A-Za-z])Self(?![A-Za-z\-'])", text):
        add("Self", match.start())
    for match in re.finditer(r"(?<![A-Za-z])(Target|Host)(?![A-Za-z])", text):
        if not _sentence_start(text, match.start()):
            add(match.group(1), match.start())
    for phrase in _EDITOR_PHRASES:
        for match in re.finditer(rf"\b{phrase}\b", text, re.IGNORECASE):
            add(match.group(0), match.start())
    return sorted(found, key=lambda t: t.start)


def _sentence_start(text: str, index: int) -> bool:
    before = text[:index].rstrip()
    return not before or before[-1] in ".!?:;(\"'"


# -- what the text promises --------------------------------------------------------------------
_ALL = r"\b(?:all|every|each)(?: (?:living|other|the))?"
CLAIMS: dict[str, re.Pattern[str]] = {
    "all_enemies": re.compile(rf"{_ALL} (?:enem(?:y|ies)|foes?|opponents?)\b", re.I),
    "all_allies": re.compile(
        rf"{_ALL} (?:all(?:y|ies)|party members?)\b|\byour (?:whole )?party\b", re.I
    ),
    "all_units": re.compile(rf"{_ALL} (?:units?|characters?)\b|\beveryone\b", re.I),
    "random": re.compile(r"\brandom(?:ly)?\b", re.I),
    "another_ally": re.compile(r"\banother ally\b|\bother ally\b", re.I),
}
_SELECTED = re.compile(
    r"\b(?:the )?(?:selected|chosen|targeted) (enem(?:y|ies)|all(?:y|ies)|units?|characters?)\b"
    r"|\btarget (enemy|ally|unit|character)\b",
    re.I,
)
#: Words that tell the player an effect may find nothing ("If ...", "a random ...", "up to").
HEDGES = re.compile(
    r"\b(?:if|unless|when|whenever|while|random(?:ly)?|up to|fallen|dead|defeated|in reserve"
    r"|only)\b",
    re.I,
)

#: "all enemies with Burn" finding no one is what the text says; a filtered whole side is told.
ALL_WORDS = re.compile(r"\b(?:all|every|each)\b", re.I)


def claims(text: str) -> set[str]:
    """Which ranges the text promises: all enemies, all allies, all units, random..."""
    return {name for name, pattern in CLAIMS.items() if pattern.search(text)}


def selected_nouns(text: str) -> list[tuple[str, int]]:
    """The nouns of "the selected enemy" / "target ally" phrases: enemy, ally or unit."""
    out = []
    for match in _SELECTED.finditer(text):
        word = (match.group(1) or match.group(2)).lower()
        noun = "enemy" if word.startswith("enem") else "ally" if word.startswith("all") else "unit"
        out.append((noun, match.start()))
    return out


def numbers(text: str) -> list[tuple[int, int]]:
    """Whole numbers in the text with their positions."""
    return [(int(m.group(0)), m.start()) for m in re.finditer(r"(?<![\w.])\d+(?![\w.]*\d)", text)]


def mentions_keyword(text: str, keyword: str) -> bool:
    words = [w for w in re.split(r"[_\-.:\s]+", keyword) if w]
    pattern = r"\b" + r"[\s_-]*".join(re.escape(w) for w in words) + r"\b"
    return bool(words) and re.search(pattern, text, re.I) is not None
