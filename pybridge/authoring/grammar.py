"""English grammar for generated card text: plurals, articles, verb forms, lists, ordinals.

Nothing here knows the targeting vocabulary; :mod:`.phrases` holds its words and
:mod:`.clauses` builds sentences from them.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

_CONJUGATION = {"is": "are", "has": "have", "does": "do", "costs": "cost"}
#: A comparison as a quantity: "at least 2", "fewer than 3".
_QUANTITY = {
    ">=": "at least {}",
    ">": "more than {}",
    "<=": "at most {}",
    "<": "{less} than {}",
    "==": "exactly {}",
    "!=": "other than {}",
}


def conj(verb: str, person: str) -> str:
    """A third-person verb for "it", or its plain form for "you" and "they"."""
    return verb if person == "it" else _CONJUGATION.get(verb, verb)


def conj_phrase(phrase: str, person: str) -> str:
    """A verb phrase ("has Burn") conjugated for ``person``."""
    verb, _, rest = phrase.partition(" ")
    return f"{conj(verb, person)} {rest}".strip()


def third(verb: str) -> str:
    """The third-person singular of a verb: deals, applies, draws, gains."""
    if verb.endswith("y") and verb[-2:-1] not in "aeiou":
        return verb[:-1] + "ies"
    if verb.endswith(("s", "sh", "ch", "x")):
        return verb + "es"
    return verb + "s"


def plural(noun: str) -> str:
    if noun.endswith("y") and noun[-2:-1].lower() not in "aeiou":
        return noun[:-1] + "ies"
    if noun.endswith(("s", "sh", "ch", "x")):
        return noun + "es"
    return noun + "s"


#: Vowel letters said with a consonant sound: "a unit", "a one-off".
_CONSONANT_SOUNDS = ("uni", "use", "usu", "eu", "one")


def article(noun: str) -> str:
    """ "a " or "an ", by the sound the noun starts with."""
    word = noun.lower()
    return "an " if word[:1] in "aeiou" and not word.startswith(_CONSONANT_SOUNDS) else "a "


def indefinite(noun: str) -> str:
    return article(noun) + noun


def ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def title(ident: str) -> str:
    """An id as words: ``basic_attack`` -> ``Basic Attack``, ``Exhaust`` stays."""
    words = re.split(r"[_\-.:\s]+", ident)
    return " ".join(w[:1].upper() + w[1:] for w in words if w)


def quantity(op: str, value: object, less: str = "less") -> str:
    """A comparison as a quantity: ``(">=", 2)`` -> "at least 2"."""
    return _QUANTITY[op].replace("{less}", less).format(value)


def span(low: object, high: object, at_least: str, at_most: str, between: str) -> str:
    """A range with either bound or both: "of tier 2 or higher", "with 20% to 50% health"."""
    if low is not None and high is not None:
        return between.format(low, high)
    return at_least.format(low) if low is not None else at_most.format(high)


def join(parts: Sequence[str], conjunction: str = "and") -> str:
    if len(parts) <= 1:
        return "".join(parts)
    return ", ".join(parts[:-1]) + f" {conjunction} " + parts[-1]
