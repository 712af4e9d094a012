"""What a simulation runs on: a card library and encounters (battle documents), read from
files and checked card by card, so that one broken card or encounter is named precisely and
the rest still runs.

A :class:`SimulationSpec` holds the documents themselves (plain JSON data), which is what
worker processes and cluster workers receive; each loads them once (see
:func:`prototypes_of`).
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .. import extensions
from ..runtime import LIBRARY_FORMAT, Battle, CardDef, FormatError, load_battle, load_library
from ..runtime.vocabulary import Vocabulary

_INDEX = re.compile(r"^cards\[0\]\.?")


class InputError(ValueError):
    """A file that cannot be used at all (unreadable, not JSON, not a card library)."""


@dataclass(frozen=True, slots=True)
class Problem:
    """Something the simulation could not use, named by encounter, card and battle seed
    where they apply. The run goes on without it; the results list it."""

    message: str
    encounter: str | None = None
    card: str | None = None
    seed: int | None = None

    def to_json(self) -> dict[str, Any]:
        return {"encounter": self.encounter, "card": self.card, "seed": self.seed,
                "message": self.message}  # fmt: skip

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Problem:
        return cls(str(data["message"]), data.get("encounter"), data.get("card"),
                   data.get("seed"))  # fmt: skip


@dataclass(frozen=True, slots=True)
class EncounterSource:
    id: str
    origin: str  # the file it came from, as given
    document: dict[str, Any]


@dataclass(frozen=True, slots=True)
class SimulationSpec:
    """The card documents of a library (each checked on its own) and the encounters, read
    with the game's extension files (paths every worker reads: a cluster's workers need them
    at the same place)."""

    library_cards: tuple[dict[str, Any], ...]
    encounters: tuple[EncounterSource, ...]
    library_origin: str | None = None
    digest: str = field(default="", compare=False)
    extension_files: tuple[str, ...] = ()

    @classmethod
    def of(cls, library_cards: list[dict[str, Any]], encounters: list[EncounterSource],
           library_origin: str | None = None, extension_files: tuple[str, ...] = ()
           ) -> SimulationSpec:  # fmt: skip
        parts: list[Any] = [library_cards, [(e.id, e.document) for e in encounters]]
        if extension_files:
            parts.append(list(extension_files))
        text = json.dumps(parts, sort_keys=True, separators=(",", ":"))
        digest = hashlib.sha256(text.encode("utf-8")).hexdigest()
        return cls(tuple(library_cards), tuple(encounters), library_origin, digest,
                   tuple(extension_files))  # fmt: skip

    def words(self) -> Vocabulary | None:
        """The vocabulary with the spec's extensions (None: the built-in one)."""
        if not self.extension_files:
            return None
        try:
            return extensions.load(list(self.extension_files)).words
        except extensions.ExtensionError as exc:
            raise InputError(str(exc)) from None


def read_json(path: Path, what: str) -> Any:
    try:
        return json.loads(path.read_text("utf-8"))
    except OSError as exc:
        raise InputError(f"{what} {str(path)!r}: cannot read it ({exc.strerror})") from exc
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise InputError(f"{what} {str(path)!r}: not JSON ({exc})") from exc


def read_library(path: Path) -> list[dict[str, Any]]:
    """The card documents of a ``pybridge/cards@1`` library (checked later, one by one)."""
    return library_cards(read_json(path, "card library"), path)


def library_cards(document: object, path: Path | str) -> list[dict[str, Any]]:
    """The card documents of a ``pybridge/cards@1`` library read from ``path``."""
    if not isinstance(document, dict) or document.get("format") != LIBRARY_FORMAT:
        raise InputError(f"card library {str(path)!r}: expected a JSON object with "
                         f"\"format\": \"{LIBRARY_FORMAT}\"")  # fmt: skip
    cards = document.get("cards")
    if not isinstance(cards, list):
        raise InputError(f'card library {str(path)!r}: expected a list of cards in "cards"')
    return [card if isinstance(card, dict) else {"card": card} for card in cards]


def encounter_files(paths: list[Path]) -> list[Path]:
    """The given files, with every ``*.json`` of a given directory in name order."""
    found: list[Path] = []
    for path in paths:
        found.extend(sorted(path.glob("*.json")) if path.is_dir() else [path])
    return found


def read_encounters(paths: list[Path]) -> list[EncounterSource]:
    """One encounter per battle document; its id is the file name without ``.json``."""
    encounters: list[EncounterSource] = []
    seen: dict[str, str] = {}
    for path in encounter_files(paths):
        encounter_id = path.stem
        if encounter_id in seen:
            raise InputError(f"encounter {encounter_id!r}: both {seen[encounter_id]!r} and "
                             f"{str(path)!r} have this name")  # fmt: skip
        seen[encounter_id] = str(path)
        document = read_json(path, f"encounter {encounter_id!r}:")
        if not isinstance(document, dict):
            raise InputError(f"encounter {encounter_id!r} ({str(path)!r}): expected a battle "
                             "document (a JSON object)")  # fmt: skip
        encounters.append(EncounterSource(encounter_id, str(path), document))
    if not encounters:
        raise InputError("no encounters: give battle documents or directories holding them")
    return encounters


def _card_id(document: dict[str, Any]) -> str | None:
    value = document.get("id")
    return value if isinstance(value, str) else None


@dataclass
class CardPool:
    """Cards of one or more libraries, loaded card by card (with ``words``): the good cards,
    and a problem per broken card id (or per position, for a card without an id). A card id
    defined twice, in one library or in two, is a problem, and neither definition is used."""

    words: Vocabulary | None = None
    library: dict[str, CardDef] = field(default_factory=dict)
    broken: dict[str, Problem] = field(default_factory=dict)
    first: dict[str, tuple[str, int]] = field(default_factory=dict)

    def add(self, cards: Sequence[dict[str, Any]], origin: str | None = None) -> None:
        """Check and add the card documents of the library ``origin`` names."""
        origin = origin or "the library"
        for index, document in enumerate(cards):
            card_id = _card_id(document)
            key = card_id or f"cards[{index}]"
            try:
                (card,) = load_library({"format": LIBRARY_FORMAT, "cards": [document]},
                                       self.words).values()  # fmt: skip
            except FormatError as exc:
                where = _INDEX.sub("", exc.where)
                detail = f"{where}: {exc.message}" if where else exc.message
                self.broken[key] = Problem(f"card library {origin!r}: card {key!r} (cards"
                                           f"[{index}]) is broken: {detail}",
                                           card=card_id)  # fmt: skip
                continue
            if card.id in self.library or card.id in self.broken:
                self.broken[card.id] = Problem(f"card library {origin!r}: card {card.id!r} "
                                               f"(cards[{index}]) is defined twice"
                                               f"{self._first(card.id, origin)}",
                                               card=card.id)  # fmt: skip
                self.library.pop(card.id, None)
                continue
            self.library[card.id], self.first[card.id] = card, (origin, index)

    def _first(self, card_id: str, origin: str) -> str:
        if card_id not in self.first:
            return ""
        where, index = self.first[card_id]
        library = "" if where == origin else f"card library {where!r}, "
        return f" (the first is {library}cards[{index}])"


def check_library(spec: SimulationSpec, words: Vocabulary | None = None
                  ) -> tuple[dict[str, CardDef], dict[str, Problem]]:  # fmt: skip
    """Load the library card by card (with ``words``): the good cards, and a problem per
    broken card id (or per position, for a card without an id)."""
    pool = CardPool(words)
    pool.add(spec.library_cards, spec.library_origin)
    return pool.library, pool.broken


def read_libraries(paths: Sequence[Path], words: Vocabulary | None = None) -> CardPool:
    """The cards of the card libraries at ``paths``, checked card by card; raises
    :class:`InputError` for a file that is not a card library."""
    pool = CardPool(words)
    for path in paths:
        pool.add(read_library(path), str(path))
    return pool


def load_encounter(source: EncounterSource, library: dict[str, CardDef],
                   broken: dict[str, Problem], words: Vocabulary | None = None
                   ) -> Battle | Problem:  # fmt: skip
    """The encounter's battle, or the problem naming the encounter and the card."""
    try:
        return load_battle(source.document, library, words)
    except FormatError as exc:
        card = exc.value if isinstance(exc.value, str) and exc.where.endswith(".card") else None
        message = f"encounter {source.id!r} ({source.origin}): {exc}"
        if card is not None and card in broken:
            message += f" (the library's card {card!r} is broken, see above)"
        return Problem(message, encounter=source.id, card=card)


def prototypes_of(spec: SimulationSpec) -> tuple[dict[str, Battle], list[Problem]]:
    """Every encounter that loads, by id, and the problems of the library and the rest."""
    words = spec.words()
    library, broken = check_library(spec, words)
    problems = list(broken.values())
    battles: dict[str, Battle] = {}
    for source in spec.encounters:
        loaded = load_encounter(source, library, broken, words)
        if isinstance(loaded, Problem):
            problems.append(loaded)
        else:
            battles[source.id] = loaded
    return battles, problems


def read_spec(library: Path | None, encounters: list[Path],
              extension_files: list[Path] | None = None) -> SimulationSpec:  # fmt: skip
    """The spec of the files given, read with ``extension_files`` (checked here: a file that
    does not load is an :class:`InputError`)."""
    cards = read_library(library) if library is not None else []
    files = tuple(str(Path(f).resolve()) for f in extension_files or [])
    spec = SimulationSpec.of(cards, read_encounters(encounters),
                             None if library is None else str(library), files)  # fmt: skip
    spec.words()
    return spec
