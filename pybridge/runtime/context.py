"""What a running Behavior knows: the battle, its Host, the submitted Target or Attacker.

Target is what the current card, reaction or call submitted: a card's chosen units, a
reaction's attacker, what a Call node hands the Behavior it runs (:mod:`.calls`)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING, Any, Final

from .model import Battle, Pile, Unit
from .units_after import UnitsAfter

if TYPE_CHECKING:
    from .guards import Emitting
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


# Enum members bound once: reading an attribute of an Enum class is slow on CPython 3.11.
_CARD: Final = HostKind.CARD
_MOVE: Final = HostKind.MOVE


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
    #: The events so far: a list, or the :class:`.units_after.UnitsAfter` a host reads. Typed
    #: ``Any`` on purpose: compiled code appends to a ``list``-typed value with the list's own
    #: C call, which would skip ``UnitsAfter.append``; through ``Any`` it calls the method.
    events: Any
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
    #: While an extension's action runs: what its :meth:`emit` may add (:mod:`.guards`).
    emitting: Emitting | None

    # Written out rather than generated: every play makes a Context, and fresh collections
    # from literals cost a quarter of what default factories do.
    def __init__(self, battle: Battle, host: Unit, targets: tuple[Unit, ...] = (),
                 attacker: Unit | None = None, this_card: str | None = None,
                 kind: HostKind = _CARD, status: str | None = None,
                 events: list[Event] | None = None, work: list[int] | None = None,
                 chosen: tuple[str, ...] = ()) -> None:  # fmt: skip
        # One assignment a line: a tuple packed and unpacked costs more opcodes.
        self.battle = battle
        self.host = host
        self.targets = targets
        self.attacker = attacker
        self.this_card = this_card
        self.kind = kind
        self.status = status
        self.chosen = chosen
        self.entry = None
        self.counted = 0
        self.depth = 0
        self.emitting = None
        if events is None:
            events = UnitsAfter(battle) if battle.unit_after else []
        self.events = events
        self.snapshots = {}
        self.attacked = []
        if work is None:  # a request's own count, or the one a search shares over its moves
            work = [0] if battle.meter is None else battle.meter
        self.work = work

    @property
    def target(self) -> Unit | None:
        """The first submitted unit (most effects submit at most one)."""
        return self.targets[0] if self.targets else None

    @property
    def attacks(self) -> bool:
        kind = self.kind
        return kind is _CARD or kind is _MOVE

    def told(self) -> list[Event]:
        """The events so far, as a request returns them."""
        events: list[Event] = self.events
        return events

    def emit(self, event_type: str, **data: Any) -> None:
        """Report an event. While an extension's action runs, the event is checked against
        its declaration and the request's event limit first (:mod:`.guards`)."""
        emitting = self.emitting
        if emitting is None:
            self.events.append({"type": event_type, **data})
        else:
            emitting.add(self, {"type": event_type, **data})

    def child(self, host: Unit, kind: HostKind, targets: tuple[Unit, ...] = (),
              attacker: Unit | None = None, this_card: str | None = None,
              status: str | None = None, chosen: tuple[str, ...] = ()) -> Context:  # fmt: skip
        """A Context for another Behavior in the same resolution, sharing the event log."""
        # Each argument passed by position: a status hook, a reaction and an enemy's move each
        # make one, and a compiled build calls a constructor given ``**kw`` the slow way.
        child = Context(self.battle, host, targets, attacker, this_card, kind, status,
                        self.events, self.work, chosen)  # fmt: skip
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
            # Imported by its absolute name: a relative import in a function asks the
            # package's spec for its parent on every call, and a measure reads this per test.
            from pybridge.runtime.vocabulary import builtin

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
