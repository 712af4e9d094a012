"""Errors raised by the runtime. Every message quotes the offending input.

Each error carries a stable snake_case ``code`` that the protocol forwards unchanged, and a
``where`` (a JSON path such as ``units[2].hp`` or a request field such as ``target``).
"""

from __future__ import annotations

import difflib
import json
import re
import reprlib
from collections.abc import Iterable
from typing import Any, Self

#: A UTF-16 half on its own: strict JSON parsers (Godot's among them) refuse a text holding one.
#: The escapes are the pattern's, not the literal's: mypyc compiles no surrogate in a literal.
LONE_SURROGATE = re.compile(r"[\ud800-\udfff]")


def quote(value: object) -> str:
    """Render an input value for an error message, shortened so huge inputs stay readable and
    with lone surrogates replaced (U+FFFD), so every host can read the message."""
    try:
        text = json.dumps(value, ensure_ascii=False, allow_nan=True, default=repr)
    except (TypeError, ValueError, RecursionError):
        text = repr(type(value))
    text = LONE_SURROGATE.sub("\ufffd", text)
    return text if len(text) <= 80 else text[:77] + "..."


_SHORT = reprlib.Repr()
_SHORT.maxstring = 80


def request_value(value: object) -> str:
    """A request's value as a message quotes it: a string in single quotes (``'a1'``), any
    other value as its JSON text (``null``, ``true``, ``[1]``, not Python's ``None``), each
    shortened to about 80 characters, so a megabyte-long id is never echoed back."""
    if isinstance(value, str):
        return _SHORT.repr(value)
    return quote(value)


class TargetingError(ValueError):
    """Base class: a request or document the runtime refuses. Nothing was changed."""

    code = "invalid"
    #: The message as a sentence a player may read (``{"id", "params"}``), when it is one:
    #: a refusal a UI shows (why a card cannot be activated, why the turn cannot end).
    said: dict[str, object] | None = None
    #: :attr:`said`'s English: the reason a player reads (``message`` is the developer's,
    #: quoting the request).
    reason: str = ""

    def __init__(self, message: str, where: str = "") -> None:
        super().__init__(f"{where}: {message}" if where else message)
        self.message = message
        self.where = where

    def telling(self, sentence: dict[str, object] | None, english: str) -> Self:
        """This error with the reason a player reads: ``sentence`` and its English (none
        when ``sentence`` is None)."""
        if sentence is not None:
            self.said, self.reason = sentence, english
        return self


class FormatError(TargetingError):
    """A battle or card document does not match the documented format.

    ``where`` is the JSON path; ``subject`` names what holds the field by its ids ("card
    'strike', node 'hit'") so a designer finds it without counting list entries."""

    code = "invalid_field"

    def __init__(self, where: str, value: object, expected: str, subject: str = "") -> None:
        super().__init__(_about(subject, where, f"{expected}, got {quote(value)}"), where)
        self.value = value
        self.subject = subject

    @classmethod
    def missing(cls, where: str, why: str = "missing required field",
                subject: str = "") -> FormatError:  # fmt: skip
        return cls.stated(where, why, subject=subject)

    @classmethod
    def stated(cls, where: str, message: str, value: object = None,
               subject: str = "") -> FormatError:  # fmt: skip
        """An error whose message says everything itself (no ", got <value>" appended)."""
        return cls._worded(where, value, _about(subject, where, message), subject)

    @classmethod
    def unknown(cls, where: str, key: str, allowed: Iterable[str], subject: str = "",
                whose: str = "") -> FormatError:  # fmt: skip
        """An unknown field, with the nearest allowed name and the allowed names of
        ``whose`` (the node type, or the kind of object)."""
        names = sorted(allowed)
        near = difflib.get_close_matches(key, names, n=1, cutoff=0.6)
        hint = f"; did you mean {near[0]!r}?" if near else ""
        takes = f"{whose} takes" if whose else "allowed"
        why = f"unknown field{hint} ({takes}: {', '.join(names)})"
        return cls._worded(where, key, _about(subject, where, why), subject)

    @classmethod
    def _worded(cls, where: str, value: object, message: str, subject: str) -> FormatError:
        error = cls(where, value, "")
        error.message, error.subject = message, subject
        error.args = (f"{where}: {message}",)
        return error


def _about(subject: str, where: str, message: str) -> str:
    """``message`` prefixed with the ids of what holds the field, and the field's name."""
    if not subject:
        return message
    field = where.rsplit(".", 1)[-1]
    if field.endswith("]") or not field:
        return f"{subject}: {message}"
    return f"{subject}, field {field!r}: {message}"


class PlayError(TargetingError):
    """A play (or targets/preview request) that the battle refuses."""


class UnknownCard(PlayError):
    code = "unknown_card"


class NotInHand(PlayError):
    code = "not_in_hand"


class UnknownUnit(PlayError):
    code = "unknown_unit"


class TargetRequired(PlayError):
    code = "target_required"


class TargetNotAllowed(PlayError):
    code = "target_not_allowed"


class NotACandidate(PlayError):
    code = "not_a_candidate"


class NotEnoughEnergy(PlayError):
    code = "not_enough_energy"


class NoSource(PlayError):
    code = "no_source"


class BattleOver(PlayError):
    code = "battle_over"


class NotPlayable(PlayError):
    code = "not_playable"


class CutError(PlayError):
    code = "cut"


class WorkLimit(PlayError):
    """A request would do more work than one request may (docs/limits.md)."""

    code = "work_limit"


class LimitReached(PlayError):
    """A battle counter (the turn, the Cut entry ids) is at its limit: going on would make a
    battle that no longer loads (docs/limits.md)."""

    code = "limit_reached"


class ChoiceNeeded(PlayError):
    """An action asks the player a choice that the request does not answer: nothing was
    applied. ``choice`` says what is asked (docs/extensions.md): answer it in the request's
    ``choices`` under ``choice["key"]`` and send the request again."""

    code = "choice_needed"

    def __init__(self, message: str, where: str, choice: dict[str, object]) -> None:
        super().__init__(message, where)
        self.details = {"choice": choice}


class ExtensionFailed(TargetingError):
    """An extension's code raised while it ran: the request changes nothing."""

    code = "extension_error"
    #: What :func:`.guards.failure` made it from, so a caller that knows more (the node a
    #: source ran for) can name it too.
    parts: tuple[str, str, Any, str, str] | None = None

    def __init__(self, message: str, where: str, traceback: str = "") -> None:
        super().__init__(message, where)
        self.details = {"extension_traceback": traceback} if traceback else {}
