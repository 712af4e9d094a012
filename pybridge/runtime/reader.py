"""A small validating reader for untrusted JSON documents.

Every accessor checks the type and range and raises :class:`FormatError` naming the JSON path
(``units[2].hp``) and the value. Documents are read into new objects only, so a failure
leaves nothing half-loaded.
"""

from __future__ import annotations

import difflib
import math
from collections.abc import Iterator, Mapping
from typing import Any, Final, TypeGuard, TypeVar

from .errors import LONE_SURROGATE, FormatError

MAX_INT: Final = 1_000_000_000
MAX_STRING = 200
MAX_LIST = 10_000
#: A key longer than an id is shortened where it becomes part of a JSON path.
MAX_KEY_IN_PATH = 64

E = TypeVar("E")


def _is_object(value: object) -> TypeGuard[Mapping[Any, Any]]:
    """A JSON object: a dict (the fast, common case) or another mapping."""
    return type(value) is dict or isinstance(value, Mapping)


class Reader:
    """A JSON value with its path. ``Reader(doc, "battle").field("units")`` and so on."""

    __slots__ = ("path", "subject", "value", "words")

    def __init__(self, value: object, path: str = "", subject: str = "",
                 words: Any = None) -> None:  # fmt: skip
        self.value = value
        self.path = path
        #: What holds this value, by its ids ("card 'strike', node 'hit'"), for messages.
        self.subject = subject
        #: The vocabulary the document is read with (a :class:`.vocabulary.Vocabulary`;
        #: None: the built-in one), handed on to every value read from this one.
        self.words = words

    def fail(self, expected: str) -> FormatError:
        return FormatError(self.path or "document", self.value, expected, self.subject)

    def about(self, what: str) -> Reader:
        """This value, known from now on as (part of) ``what``: "card 'strike'"."""
        subject = f"{self.subject}, {what}" if self.subject else what
        return Reader(self.value, self.path, subject, self.words)

    def named(self, kind: str) -> Reader:
        """:meth:`about` the object's own ``id`` ("card 'strike'") when it has a readable one,
        so that even a failure before the id is read names it."""
        value = self.value
        found = value.get("id") if _is_object(value) else None
        if isinstance(found, str) and 0 < len(found) <= MAX_KEY_IN_PATH:
            return self.about(f"{kind} {found!r}")
        return self

    def too_many(self, max_len: int, count: int, what: str) -> FormatError:
        """A list or object over its limit: counted, not quoted (it is long by definition)."""
        return FormatError.stated(self.path or "document", f"at most {max_len} {what}, got "
                                  f"{count}", self.value, self.subject)  # fmt: skip

    # -- objects ---------------------------------------------------------------------------
    def obj(self, allowed: set[str] | frozenset[str], required: tuple[str, ...] = (),
            whose: str = "") -> Reader:  # fmt: skip
        """Check this is an object with only ``allowed`` keys (``whose`` they are, for the
        message: "DealDamage") and every ``required`` one."""
        if not _is_object(self.value):
            raise self.fail("expected an object")
        for key in self.value:
            if not isinstance(key, str) or key not in allowed:
                where = self._child_path(str(key))
                raise FormatError.unknown(where, str(key), allowed, self.subject, whose)
        for key in required:
            if key not in self.value:
                raise FormatError.missing(self._child_path(key), subject=self.subject)
        return self

    def has(self, key: str) -> bool:
        return _is_object(self.value) and key in self.value

    def field(self, key: str, default: Any = ...) -> Reader:
        assert _is_object(self.value)
        if key not in self.value:
            if default is ...:
                raise FormatError.missing(self._child_path(key), subject=self.subject)
            return Reader(default, self._child_path(key), self.subject, self.words)
        return Reader(self.value[key], self._child_path(key), self.subject, self.words)

    def _child_path(self, key: str) -> str:
        if len(key) > MAX_KEY_IN_PATH:
            key = key[: MAX_KEY_IN_PATH - 3] + "..."
        return f"{self.path}.{key}" if self.path else key

    def items(self, max_len: int = MAX_LIST) -> Iterator[tuple[str, Reader]]:
        if not _is_object(self.value):
            raise self.fail("expected an object")
        if len(self.value) > max_len:
            raise self.too_many(max_len, len(self.value), "entries")
        for key, value in self.value.items():
            yield key, Reader(value, self._child_path(str(key)), self.subject, self.words)

    # -- lists -----------------------------------------------------------------------------
    def elements(self, max_len: int = MAX_LIST) -> list[Reader]:
        if not isinstance(self.value, list):
            raise self.fail("expected a list")
        if len(self.value) > max_len:
            raise self.too_many(max_len, len(self.value), "elements")
        path, subject, words = self.path, self.subject, self.words
        return [Reader(v, f"{path}[{i}]", subject, words) for i, v in enumerate(self.value)]

    # -- scalars ---------------------------------------------------------------------------
    def text(self, max_len: int = MAX_STRING, allow_empty: bool = False) -> str:
        value = self.value
        if not isinstance(value, str):
            raise self.fail("expected a string")
        if not value and not allow_empty:
            raise self.fail("expected a non-empty string")
        if len(value) > max_len:
            raise self.fail(f"at most {max_len} characters")
        if not value.isascii() and LONE_SURROGATE.search(value):
            # Strict JSON parsers (Godot's) refuse such a text: every response would be unreadable.
            raise self.fail("text without lone UTF-16 surrogates (U+D800..U+DFFF)")
        return value

    def ident(self) -> str:
        """An id: a non-empty string of letters, digits, ``_``, ``-``, ``.`` or ``:``."""
        value = self.text(max_len=64)
        if not all(c.isascii() and (c.isalnum() or c in "_-.:") for c in value):
            raise self.fail("expected an id of ASCII letters, digits, '_', '-', '.' or ':'")
        return value

    def integer(self, minimum: int = -MAX_INT, maximum: int = MAX_INT) -> int:
        value = self.value
        if isinstance(value, bool) or not isinstance(value, int):
            if isinstance(value, float) and math.isfinite(value) and value.is_integer():
                value = int(value)
            else:
                raise self.fail("expected an integer")
        if not minimum <= value <= maximum:
            raise self.fail(f"expected an integer in {minimum}..{maximum}")
        return value

    def boolean(self) -> bool:
        if not isinstance(self.value, bool):
            raise self.fail("expected true or false")
        return self.value

    def choice(self, choices: Mapping[str, E] | tuple[str, ...]) -> Any:
        value = self.value
        if not isinstance(value, str) or value not in choices:
            names = choices if isinstance(choices, tuple) else tuple(choices)
            near = difflib.get_close_matches(value, names, 1, 0.6) if isinstance(value, str) else []
            hint = f" (did you mean {near[0]!r}?)" if near else ""
            raise self.fail(f"expected one of {', '.join(names)}{hint}")
        return choices[value] if isinstance(choices, Mapping) else value

    def str_list(self, max_len: int = 64) -> tuple[str, ...]:
        items = [item.ident() for item in self.elements(max_len)]
        seen: set[str] = set()
        for item, reader in zip(items, self.elements(max_len), strict=True):
            if item in seen:
                raise reader.fail("duplicate entry")
            seen.add(item)
        return tuple(items)
