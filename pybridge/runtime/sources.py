"""Unit and card sources as specs: what a source declares.

Each spec holds its resolver and the facts the authoring tools and hosts need: which side of the
battle it reaches relative to the Host, which unit states (or card places) it yields, whether
it reads the submitted selection, how many it yields at most, and why it may come back empty.
The built-in sources, the exact resolution rules of both seed documents, are declared in
:mod:`pybridge.words.sources`; a game's in its extensions.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .context import Context
    from .model import Unit


class Side(StrEnum):
    """Which units a unit source reaches, seen from the Host running the Behavior."""

    SELF = "self"  # the Host
    ALLIES = "allies"  # the Host's team, the Host included
    OPPONENTS = "opponents"  # the team opposing the Host
    ALL = "all"  # both teams
    PLAYER_TEAM = "player_team"  # the player team, whoever the Host is
    ENEMY_TEAM = "enemy_team"  # the enemy team, whoever the Host is
    SUBMITTED = "submitted"  # whatever the card, reaction or call submitted


@dataclass(frozen=True, slots=True)
class UnitWords:
    """How generated card text names what a unit source yields: either a group that selectors
    narrow (``noun`` singular and plural, ``pre`` before it, ``tail`` after it, ``team``: an
    absolute team, said relative to the Host: "all allies", "a random fallen ally"), or a
    ``phrase`` for what it names as a whole ("yourself"; ``again`` on a later mention,
    ``third`` in a status's third person). ``message``: the ``vocabulary.Message`` whose
    English is the phrase, which a host translates by its id (a source declared with
    ``describe=Message(...)``). A selection source's phrase is what it says when nothing is
    submitted."""

    noun: tuple[str, str] | None = None
    pre: str = ""
    tail: str = ""
    team: str | None = None
    phrase: str = ""
    again: str = ""
    third: str = ""
    message: Any = None


@dataclass(frozen=True, slots=True)
class CardWords:
    """How generated card text names what a card source yields: the cards of one ``place`` (a
    pile, or ``cut``: "all cards from your hand"), the cards of several (``where``, with
    ``inside``: "your hand and piles"), or one card or a fixed set (``phrase``; ``many`` when
    the card chooses several). ``message``: as :class:`UnitWords`'s."""

    place: str | None = None
    where: str = ""
    inside: str = "of"
    phrase: str = ""
    many: str = ""
    message: Any = None


@dataclass(frozen=True, slots=True)
class UnitSourceSpec:
    """``states``: ``field`` (living, on the field), ``dead``, ``reserve``; ``limit``: at most
    this many units (None: no bound); ``whole``: every unit of its side in those states;
    ``selection``: reads the submitted Target or Attacker; ``empty``: why it may yield nothing
    in a battle that is still going on (None: it never does, but for protection)."""

    name: str
    resolve: Callable[[Context], list[Unit]]
    side: Side
    states: frozenset[str]
    limit: int | None
    whole: bool
    doc: str
    selection: bool = False
    empty: str | None = None
    #: Its words in generated card text (None: it declared none, and is said as "nothing").
    words: UnitWords | None = None

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {
            "name": self.name, "side": self.side.value, "states": sorted(self.states),
            "limit": self.limit, "whole": self.whole, "selection": self.selection,
            "may_be_empty": self.empty, "doc": self.doc}  # fmt: skip
        return _with_message(out, self.words)


@dataclass(frozen=True, slots=True)
class CardSourceSpec:
    """``places``: where its cards are (the piles, ``cut`` for cards waiting to resolve,
    ``resolving`` for the card being played)."""

    name: str
    resolve: Callable[[Context], list[str]]
    places: frozenset[str]
    limit: int | None
    doc: str
    empty: str | None = None
    words: CardWords | None = None

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {
            "name": self.name, "places": sorted(self.places), "limit": self.limit,
            "may_be_empty": self.empty, "doc": self.doc}  # fmt: skip
        return _with_message(out, self.words)


def _with_message(out: dict[str, object], words: UnitWords | CardWords | None) -> dict[str, object]:
    """A source declared with a message naming what it yields says it as ``describe``."""
    if words is not None and words.message is not None:
        out["describe"] = words.message.to_json()
    return out


if TYPE_CHECKING:  # the built-in tables, given by __getattr__ below
    UNIT_SOURCES: dict[str, UnitSourceSpec]
    CARD_SOURCES: dict[str, CardSourceSpec]


def _module_getattr(name: str) -> Any:
    """``UNIT_SOURCES``, ``CARD_SOURCES``: the built-in sources, by name."""
    if name == "UNIT_SOURCES":
        from .vocabulary import builtin

        return builtin().unit_sources
    if name == "CARD_SOURCES":
        from .vocabulary import builtin

        return builtin().card_sources
    raise AttributeError(name)


# Bound, not defined, as __getattr__: mypyc crashes importing a compiled module that
# defines one (see pybridge/devtools/compiled.py).
__getattr__ = _module_getattr
