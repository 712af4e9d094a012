"""What a running Behavior knows: the battle, its Host, the submitted Target or Attacker.

Target is what the current card, reaction or call submitted: a card's chosen units, a
reaction's attacker, what a Call node hands the Behavior it runs (:mod:`.calls`)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING, Any

from .model import Battle, Pile, Unit

if TYPE_CHECKING:
    from .vocabulary import Vocabulary

#: A structured event: a JSON-ready dict whose ``type`` names it (see docs/format.md).
Event = dict[str, Any]


class HostKind(StrEnum):
    """Who runs the Behavior. Cards and enemy moves attack; statuses and reactions do not, so
    damage modifiers and reactions apply only to the first two."""

    CARD = "card"
    MOVE = "move"
    STATUS = "status"
    REACTION = "reaction"


class UnitsAfter(list[Event]):
    """A request's events as a host reads them: an event that names a unit (``unit``) whose
    looks changed since it was last told gets ``unit_after``, the unit as it is once the event
    happened (the rules change a unit, then tell it), so a host plays events back by showing
    them, never by knowing what an event type does to a unit. Only a request whose events a
    host reads makes one (``Battle.unit_after``): the simulation's loop pays nothing."""

    __slots__ = ("_index", "_told")

    def __init__(self, battle: Battle) -> None:
        super().__init__()
        self._index = battle._index
        self._told = {unit.id: unit_looks(unit) for unit in battle.units}

    def append(self, event: Event) -> None:
        unit_id = event.get("unit")
        unit = self._index.get(unit_id) if isinstance(unit_id, str) else None
        if unit is not None:
            looks = unit_looks(unit)
            if looks != self._told.get(unit.id):
                self._told[unit.id] = event["unit_after"] = looks
        super().append(event)


def unit_looks(unit: Unit) -> dict[str, object]:
    """What a host draws of ``unit`` that the rules change (``unit_after``)."""
    intent = unit.intent
    return {
        "hp": unit.hp, "max_hp": unit.max_hp, "armor": unit.armor,
        "statuses": dict(sorted(unit.statuses.items())), "alive": unit.alive,
        "zone": unit.zone.value,
        "intent": None if intent is None else {"move": intent.move, "target": intent.target},
    }  # fmt: skip


# Enum members bound once: reading an attribute of an Enum class is slow on CPython 3.11.
_CARD, _MOVE = HostKind.CARD, HostKind.MOVE


@dataclass(slots=True, init=False)
class Context:
    """The Host is the unit running the graph: the playing member for a player card, the owner
    for a status, the acting enemy for an enemy Behavior."""

    battle: Battle
    host: Unit
    targets: tuple[Unit, ...]
    attacker: Unit | None
    this_card: str | None
    kind: HostKind
    status: str | None
    events: list[Event]
    snapshots: dict[str, list[Any]]
    attacked: list[tuple[Unit, Unit]]
    #: Node evaluations spent by this request so far, shared with every child Context (and
    #: with every Cut entry one request resolves).
    work: list[int]
    #: The card instances chosen on resolution (``ChosenCards``), for a card that chooses cards.
    chosen: tuple[str, ...]
    #: The Cut entry resolving (None for an immediate play, a status or a turn step): the
    #: choices its actions ask for are answered under ``"<entry>.<node>"``.
    entry: str | None
    #: How many of ``events`` the battle's counting counters have counted (see outcome.settle).
    counted: int
    #: How deep in Call nodes this run is (0: not called; see :mod:`.calls`).
    depth: int

    # Written out rather than generated: every play makes a Context, and fresh collections
    # from literals cost a quarter of what default factories do.
    def __init__(self, battle: Battle, host: Unit, targets: tuple[Unit, ...] = (),
                 attacker: Unit | None = None, this_card: str | None = None,
                 kind: HostKind = _CARD, status: str | None = None,
                 events: list[Event] | None = None, work: list[int] | None = None,
                 chosen: tuple[str, ...] = ()) -> None:  # fmt: skip
        self.battle, self.host, self.targets, self.attacker = battle, host, targets, attacker
        self.this_card, self.kind, self.status, self.chosen = this_card, kind, status, chosen
        self.entry = None
        self.counted = self.depth = 0
        if events is None:
            events = UnitsAfter(battle) if battle.unit_after else []
        self.events = events
        self.snapshots = {}
        self.attacked = []
        self.work = [0] if work is None else work

    @property
    def target(self) -> Unit | None:
        """The first submitted unit (most effects submit at most one)."""
        return self.targets[0] if self.targets else None

    @property
    def attacks(self) -> bool:
        kind = self.kind
        return kind is _CARD or kind is _MOVE

    def emit(self, event_type: str, **data: Any) -> None:
        self.events.append({"type": event_type, **data})

    def child(self, host: Unit, kind: HostKind, **kw: Any) -> Context:
        """A Context for another Behavior in the same resolution, sharing the event log."""
        child = Context(battle=self.battle, host=host, kind=kind, events=self.events,
                        work=self.work, **kw)  # fmt: skip
        child.entry = self.entry  # its choices are answered under the same Cut entry
        return child

    # -- what extension actions use (pybridge.extend documents these) -----------------------
    @property
    def piles(self) -> dict[Pile, list[str]]:
        """The piles of the Host's side (in a battle where both sides play cards, each has
        its own; a Host whose team plays no cards reads the player side's)."""
        return self.battle.side(self.host.team).piles

    @property
    def words(self) -> Vocabulary:
        """The vocabulary the battle was read with (the built-in one for a battle made in
        code): the sources, measures, counters and choices its documents may name."""
        words: Vocabulary | None = self.battle.words
        if words is None:
            from .vocabulary import builtin

            return builtin()
        return words

    def ask(self, choice: str, node: str, options: list[str], minimum: int = 0,
            maximum: int | None = None) -> list[str]:  # fmt: skip
        """Ask the player the choice ``choice`` (a kind the vocabulary declares) about
        ``options`` (card or unit ids), for node ``node``; see :mod:`.choices`."""
        from .choices import ask

        return ask(self, choice, node, options, minimum, maximum)

    def counter(self, name: str) -> int:
        """The current value of a battle counter."""
        from .vocabulary import counter_value

        return counter_value(self.battle, name)

    def add_to_counter(self, name: str, delta: int, node: str | None = None) -> None:
        """Change a battle counter by ``delta`` (kept within its range; reported)."""
        from .vocabulary import change_counter

        change_counter(self.battle, self.events, name, delta, node)
