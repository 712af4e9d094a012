"""The describer's words: one table per vocabulary, one row per target mode, pile and action
node type. A unit or card source declares its own words where it is declared (its
``describe``: :mod:`pybridge.words.sources` for the built-ins, a game's extension for its own).

The rules (who is selected, which side a source reaches, what an action affects) come from the
runtime's specs; these tables only say how the player reads each thing. Adding a target mode or
an action node type means adding its row here: :func:`missing_words` names every mode, source
and action without words, and the test suite fails while it names any.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Protocol

from ..runtime.graph import Node
from ..runtime.mode_table import TargetMode
from ..runtime.model import PILES
from ..runtime.nodes import NODE_TYPES, NodeType, Role
from ..runtime.sentences import Said, said
from ..runtime.sources import CARD_SOURCES, UNIT_SOURCES, CardSourceSpec, UnitSourceSpec
from ..words.describing import RANKS


# -- target modes ------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class ModeWords:
    """How card text names what a target mode offers.

    ``noun``: one unit of the mode's reach ("enemy", "ally", "unit"; empty for None and Self);
    ``shows``: the range the mode shows, as the player reads it ("all enemies", "the selected
    enemy"). For a mode that submits units: ``determiner`` comes before the noun ("the
    selected", "a random"; empty: "a" or "an"), ``many`` before several of them ("2 selected
    enemies"), and ``repeat`` says a later mention repeats the first words ("the selected
    enemy") rather than "that enemy"."""

    noun: str
    shows: str
    determiner: str = ""
    many: str = ""
    repeat: bool = False


MODE_WORDS: dict[TargetMode, ModeWords] = {
    TargetMode.NONE: ModeWords("", "no unit"),
    TargetMode.SINGLE_ENEMY: ModeWords(
        "enemy", "the selected enemy", "the selected", "selected", repeat=True
    ),
    TargetMode.ALL_ENEMIES: ModeWords("enemy", "all enemies"),
    TargetMode.SELF: ModeWords("", "yourself"),
    TargetMode.SINGLE_ALLY: ModeWords("ally", "an ally"),
    TargetMode.OTHER_ALLY: ModeWords("ally", "another ally", "another", "other"),
    TargetMode.ALL_ALLIES: ModeWords("ally", "all allies"),
    TargetMode.RANDOM_ALLY: ModeWords("ally", "a random ally", "a random", "random"),
    TargetMode.RANDOM_OPPONENT: ModeWords("enemy", "a random enemy", "a random", "random"),
    TargetMode.ANY_UNIT: ModeWords("unit", "any unit", "any"),
}


# -- piles --------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class PileWords:
    """A place cards are in. ``name``: the player's pile ("draw pile"; empty: not a pile, said
    with ``tail``); ``first``/``last``: its ends as element positions ("top", "leftmost");
    ``ends``: counting from ("from the top"); ``inside``: "the top card of your draw pile"."""

    name: str
    first: str = "first"
    last: str = "last"
    ends: tuple[str, str] = ("start", "end")
    inside: str = "of"
    tail: str = ""

    @property
    def zone(self) -> str:
        """Where a card of this place is: "in your hand", "waiting to resolve"."""
        return f"in your {self.name}" if self.name else self.tail


PILE_WORDS: dict[str, PileWords] = {
    # index 0 is the left end of the hand
    "hand": PileWords("hand", "leftmost", "rightmost", ("left", "right"), "in"),
    "draw": PileWords("draw pile", "top", "bottom", ("top", "bottom")),
    "discard": PileWords("discard pile", "top", "bottom", ("top", "bottom")),
    "exhaust": PileWords("exhaust pile", "top", "bottom", ("top", "bottom")),
    "cut": PileWords("", "newest", "oldest", tail="waiting to resolve"),
}


# -- sort keys ---------------------------------------------------------------------------------
#: What the first and last element of a sorted collection have: (lowest, highest), the unit
#: ranks the describer's messages are declared with and a card's cost. Sorting by a status
#: says its name ("the most Burn").
SUPERLATIVES: dict[str, tuple[str, str]] = {
    **RANKS,
    "cost": ("the lowest cost", "the highest cost"),
}


# -- actions -----------------------------------------------------------------------------------
class Speaker(Protocol):
    """What an action's words need from the describer."""

    @property
    def their(self) -> str:
        """Whose piles: "your" on a card, "their" elsewhere."""
        ...

    def amount(self, node: Node, noun: str) -> Said:
        """ "6 damage", or "damage equal to its Burn" for ``"amount": "stacks"``."""
        ...

    def status_param(self, status_id: str) -> dict[str, str]:
        """A status as a name parameter."""
        ...


@dataclass(frozen=True, slots=True)
class Verb:
    """One way to say an action. ``form``: "to" (verb body prep units: "deal 6 damage to"),
    "give" (verb units body: "give an ally 5 armor"), "object" (verb units body: "revive X
    with 10 health"), "plain" (verb body: the units are the Host, or there are none).
    ``body``: this use's own body: the action's (``"body"``), the action's from the units
    (``"from"``) or its own message."""

    verb: str
    form: str
    prep: str = "to"
    body: str = "body"


@dataclass(frozen=True, slots=True)
class ActionWords:
    """How card text says an action. ``body`` says what it does from its fields ("6
    damage"; None: nothing more than the verb); ``other``: on the units or cards it acts on;
    ``itself``: on the Host alone ("Gain 5 armor."); ``ally``: on units of the Host's side
    ("Give another ally 2 Strength."); ``attacker``: on the attacker, in a reaction;
    ``player``: it acts on the player (draw, energy), named outside the player's own cards
    ("The player draws ...")."""

    body: Callable[[Speaker, Node], Said | None]
    other: Verb
    itself: Verb | None = None
    ally: Verb | None = None
    attacker: Verb | None = None
    player: bool = False


def _amount(noun: str) -> Callable[[Speaker, Node], Said]:
    return lambda speaker, node: speaker.amount(node, noun)


def _status(speaker: Speaker, node: Node) -> Said:
    status = speaker.status_param(str(node.fields["status"]))
    return said("describe.body.stacks", stacks=node.fields["stacks"], status=status)


def _removed(speaker: Speaker, node: Node) -> Said:
    stacks = node.fields.get("stacks")
    status = speaker.status_param(str(node.fields["status"]))
    if stacks is None:
        return said("describe.body.all_status", status=status)
    return said("describe.body.stacks", stacks=stacks, status=status)


#: The piles a card is moved to that have words of their own.
_MOVED_TO = ("hand", "draw", "discard", "exhaust")


def _moved(speaker: Speaker, node: Node) -> Said:
    pile, position = str(node.fields["to"]), node.fields.get("position")
    face = ".face_down" if node.fields.get("face_down") else ""
    where = "into"
    if pile == "draw" and position != "bottom":
        where = "onto"
    elif position == "bottom" and pile != "hand":
        where = "under"
    if pile not in _MOVED_TO:  # a pile with no words: said as it is
        how = " face down" if face else ""
        english = {"onto": "on top of", "under": "at the bottom of", "into": "into"}[where]
        return said("describe.words", words=f"{english} {speaker.their} {pile}{how}")
    return said(f"describe.body.{where}.{speaker.their}.{pile}{face}")


def _drawn(speaker: Speaker, node: Node) -> Said:
    return said(f"describe.body.draw.{speaker.their}", count=int(node.fields["count"]))


def _nothing(speaker: Speaker, node: Node) -> Said | None:
    return None


def _fixed(message_id: str) -> Callable[[Speaker, Node], Said]:
    return lambda speaker, node: said(message_id)


_PLAIN = "plain"
ACTION_WORDS: dict[str, ActionWords] = {
    "DealDamage": ActionWords(
        _amount("damage"),
        Verb("deal", "to"),
        itself=Verb("take", _PLAIN),
        attacker=Verb("deal", "to", "back_to"),
    ),
    "GainArmor": ActionWords(_amount("armor"), Verb("give", "give"), Verb("gain", _PLAIN)),
    "Heal": ActionWords(_amount("health"), Verb("restore", "to"), Verb("restore", _PLAIN)),
    "ApplyStatus": ActionWords(
        _status, Verb("apply", "to"), Verb("gain", _PLAIN), ally=Verb("give", "give")
    ),
    "RemoveStatus": ActionWords(
        _removed,
        Verb("remove", "to", "from"),
        Verb("remove", _PLAIN, body="from"),
    ),
    "Revive": ActionWords(
        lambda speaker, node: said("describe.body.with_health", hp=node.fields["hp"]),
        Verb("revive", "object"),
        Verb("revive", _PLAIN),
    ),
    "Withdraw": ActionWords(
        _fixed("describe.body.from_the_field"), Verb("withdraw", "object"), Verb("withdraw", _PLAIN)
    ),
    "Deploy": ActionWords(
        _nothing, Verb("deploy", "object"), Verb("enter", _PLAIN, body="describe.body.the_field")
    ),
    "MoveCard": ActionWords(_moved, Verb("put", "give")),
    "Discard": ActionWords(_nothing, Verb("discard", "object")),
    "Exhaust": ActionWords(_nothing, Verb("exhaust", "object")),
    "Negate": ActionWords(_nothing, Verb("negate", "object")),
    "Reveal": ActionWords(_nothing, Verb("reveal", "object")),
    "Draw": ActionWords(_drawn, Verb("draw", _PLAIN), player=True),
    "GainEnergy": ActionWords(
        lambda speaker, node: said("describe.amount.energy", amount=node.fields["amount"]),
        Verb("gain", _PLAIN),
        player=True,
    ),
    # a Call runs another card's Behavior: said by that card's id, as the describer knows no
    # library
    "Call": ActionWords(
        lambda speaker, node: said("describe.body.effect_of", card=str(node.fields["card"])),
        Verb("use", _PLAIN),
    ),
}


# -- coverage ----------------------------------------------------------------------------------
def missing_words(
    modes: Iterable[StrEnum] = TargetMode,
    node_types: Mapping[str, NodeType] = NODE_TYPES,
    unit_sources: Mapping[str, UnitSourceSpec] = UNIT_SOURCES,
    card_sources: Mapping[str, CardSourceSpec] = CARD_SOURCES,
) -> list[str]:
    """Every target mode, action node type and pile that has no words here, every unit or card
    source that declared none (and every card source whose words name a place it is not in or
    that has no words). Empty when the words are whole."""
    worded = {mode.value for mode in MODE_WORDS}
    out = [f"target mode {mode.value}" for mode in modes if mode.value not in worded]
    out += [
        f"action {name}"
        for name, spec in node_types.items()
        if spec.role is Role.ACTION and name not in ACTION_WORDS
    ]
    out += [f"unit source {name}" for name, spec in unit_sources.items() if spec.words is None]
    out += [f"pile {pile.value}" for pile in PILES if pile.value not in PILE_WORDS]
    for name, card_spec in card_sources.items():
        words = card_spec.words
        if words is None:
            out.append(f"card source {name}")
        elif words.place is not None and (
            words.place not in card_spec.places or words.place not in PILE_WORDS
        ):
            out.append(f"card source {name} (place {words.place})")
    return out
