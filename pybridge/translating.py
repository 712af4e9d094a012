"""A host's side of translation, in Python: a said sentence in another language, from a PO
catalog, exactly as docs/translation.md describes it (the addon does the same in GDScript
through Godot's TranslationServer). ``pybridge battle --po FILE`` prints a log with it.

Names are looked up by their context (``unit.name``, ``card.<id>.name``...) and their gender
beside them (``#gender``); a sentence by its id, a gender variant first
(``log.damage|unit=m``); a plural form by the catalog's plural rule; sentences within
sentences innermost first. Nothing is joined that the catalog did not word.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from .catalog import GENDER, UNIT_NAME
from .runtime.sentences import CAPITALIZED, capital, is_said

#: A gender that takes no variant (a proper name, or a language without gender).
PROPER = "proper"
_PLACEHOLDER = re.compile(r"\{(\w+)\}")
#: The plural rules this host reads, by the PO header's ``plural=`` expression.
PLURAL_RULES: dict[str, Callable[[int], int]] = {
    "0": lambda n: 0,
    "(n != 1)": lambda n: int(n != 1),
    "n != 1": lambda n: int(n != 1),
    "(n > 1)": lambda n: int(n > 1),
}


class Translator:
    """Translates said sentences with one PO catalog."""

    def __init__(self, path: Path | str) -> None:
        import polib  # a tool's library, never the runtime's

        catalog = polib.pofile(str(path))
        self._entries: dict[tuple[str, str], Any] = {}
        self._by_context: dict[str, Any] = {}
        for entry in catalog:
            self._entries[(entry.msgctxt or "", entry.msgid)] = entry
            self._by_context.setdefault(entry.msgctxt or "", entry)
        rule = catalog.metadata.get("Plural-Forms", "plural=(n != 1);")
        expression = rule.split("plural=", 1)[-1].strip().rstrip(";").strip()
        if expression not in PLURAL_RULES:
            raise ValueError(f"{path}: plural rule {expression!r} is not one this host reads "
                             f"({', '.join(PLURAL_RULES)})")  # fmt: skip
        self.plural = PLURAL_RULES[expression]

    def name(self, value: Mapping[str, Any]) -> tuple[str, str]:
        """A name parameter's translation and its gender (:data:`PROPER` when none given)."""
        context, english = name_context(value), str(value["name"])
        found = self._entries.get((context, english))
        gender = self._entries.get((context + GENDER, english))
        told = found.msgstr if found is not None and found.msgstr else english
        return told, gender.msgstr if gender is not None and gender.msgstr else PROPER

    def say(self, sentence: Mapping[str, Any]) -> str:
        """A said sentence in the catalog's language (its English where it has no entry)."""
        params: Mapping[str, Any] = sentence["params"]
        genders = {k: self.name(v)[1] for k, v in params.items() if _is_name(v)}
        entry = self._entry(sentence["id"], genders)
        if entry is None:
            raise KeyError(f"no translation of {sentence['id']!r}")
        template = entry.msgstr
        if entry.msgid_plural:
            counted = next((v for v in params.values() if isinstance(v, int)), 1)
            template = entry.msgstr_plural[self.plural(counted)]
        filled = {k: self._param(v) for k, v in params.items()}
        text = _PLACEHOLDER.sub(lambda m: filled.get(m.group(1), m.group(0)), template)
        return capital(text) if sentence["id"] in CAPITALIZED else text

    def _entry(self, message_id: str, genders: Mapping[str, str]) -> Any:
        """The sentence's entry: for all its gendered names at once, then each alone in the
        template's order, then the plain id."""
        chosen = [f"{k}={g}" for k, g in genders.items() if g != PROPER]
        contexts = ["|".join([message_id, *chosen]), *(f"{message_id}|{c}" for c in chosen),
                    message_id]  # fmt: skip
        return next((self._by_context[c] for c in contexts if c in self._by_context), None)

    def _param(self, value: Any) -> str:
        if is_said(value):
            return self.say(value)
        if isinstance(value, dict) and "context" in value:  # a game's own text
            found = self._entries.get((value["context"], value["text"]))
            return found.msgstr if found is not None and found.msgstr else str(value["text"])
        if _is_name(value):
            return self.name(value)[0]
        return str(value)


def _is_name(value: object) -> bool:
    return isinstance(value, dict) and "name" in value and "params" not in value


def name_context(value: Mapping[str, Any]) -> str:
    """The catalog context of a name parameter."""
    if "unit" in value:
        return UNIT_NAME
    if "card" in value:
        return f"card.{value['def']}.name"
    if "status" in value:
        return f"status.{value['status']}.name"
    return f"move.{value['move']}.name"
