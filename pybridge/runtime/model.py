"""The battle model: units, card definitions and instances, the four piles, turn and seed.

Plain mutable objects with no behaviour beyond bookkeeping; rules live in the modules that
use them. ``Battle.clone()`` is the cheap deep copy that previews run on.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING

from .rng import Pcg32

if TYPE_CHECKING:
    from .graph import Behavior
    from .modes import TargetMode


class Team(StrEnum):
    PLAYER = "player"
    ENEMY = "enemy"

    @property
    def opposite(self) -> Team:
        return Team.ENEMY if self is Team.PLAYER else Team.PLAYER


class Pile(StrEnum):
    """The four battle piles. Index 0 of every pile is its top (the next card drawn)."""

    HAND = "hand"
    DRAW = "draw"
    DISCARD = "discard"
    EXHAUST = "exhaust"


PILES: tuple[Pile, ...] = (Pile.HAND, Pile.DRAW, Pile.DISCARD, Pile.EXHAUST)

#: Where a card being played sits: in neither hand nor any other pile until it resolves.
RESOLVING = "resolving"


#: Status hooks: when a status's Behavior runs, with the status's owner as Host.
HOOKS: tuple[str, ...] = ("turn_start", "turn_end", "attacked")


@dataclass(frozen=True, slots=True)
class Intent:
    """What an enemy will do on its next turn, shown to the player in advance."""

    move: str
    target: str | None = None


@dataclass(slots=True)
class Unit:
    id: str
    name: str
    team: Team
    hp: int
    max_hp: int
    armor: int = 0
    statuses: dict[str, int] = field(default_factory=dict)
    tags: tuple[str, ...] = ()
    tier: int = 1
    moves: tuple[str, ...] = ()
    intent: Intent | None = None

    @property
    def alive(self) -> bool:
        return self.hp > 0

    @property
    def hp_percent(self) -> float:
        return 100.0 * self.hp / self.max_hp

    def clone(self) -> Unit:
        return Unit(
            self.id,
            self.name,
            self.team,
            self.hp,
            self.max_hp,
            self.armor,
            dict(self.statuses),
            self.tags,
            self.tier,
        )


@dataclass(frozen=True, slots=True)
class PlayCondition:
    """A Condition node of the card's Behavior that must hold for the card to be played."""

    condition: str
    reason: str


@dataclass(frozen=True, slots=True)
class CardDef:
    """A card definition from a library. Immutable and shared between battles."""

    id: str
    name: str
    type: str
    rarity: str
    cost: int
    keywords: tuple[str, ...]
    tags: tuple[str, ...]
    target: TargetMode
    behavior: Behavior
    text: str
    playable_if: tuple[PlayCondition, ...] = ()


@dataclass(frozen=True, slots=True)
class StatusDef:
    """What a status does: Behaviors on hooks (owner as Host), modifiers and decay.

    ``damage_dealt`` and ``damage_taken`` add that much per stack to attacks the owner makes
    or receives; ``decay`` removes stacks (``None``: all) at the ``decay_on`` hook."""

    id: str
    name: str
    text: str = ""
    hooks: Mapping[str, Behavior] = field(default_factory=dict)
    damage_dealt: int = 0
    damage_taken: int = 0
    decay_on: str | None = None
    decay: int | None = 1


@dataclass(frozen=True, slots=True)
class MoveDef:
    """An enemy move: like a card without a cost, run with the acting enemy as Host."""

    id: str
    name: str
    target: TargetMode
    behavior: Behavior
    text: str = ""
    weight: int = 1


@dataclass(frozen=True, slots=True)
class CardInstance:
    """One physical card in a battle. ``owner`` is the party member who plays it, if fixed."""

    id: str
    card: CardDef
    owner: str | None = None


@dataclass(slots=True)
class Battle:
    units: list[Unit]
    library: dict[str, CardDef]
    cards: dict[str, CardInstance]
    piles: dict[Pile, list[str]]
    active_player: str
    seed: int
    rng: Pcg32
    turn: int = 1
    energy: int = 3
    max_energy: int = 3
    draw_per_turn: int = 5
    reshuffle: bool = True
    statuses: dict[str, StatusDef] = field(default_factory=dict)
    moves: dict[str, MoveDef] = field(default_factory=dict)
    result: str | None = None
    resolving: list[str] = field(default_factory=list)
    _index: dict[str, Unit] = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        self._index = {unit.id: unit for unit in self.units}

    # -- units -----------------------------------------------------------------------------
    def unit(self, unit_id: str) -> Unit | None:
        return self._index.get(unit_id)

    def team(self, team: Team) -> list[Unit]:
        return [u for u in self.units if u.team is team]

    def living(self, team: Team | None = None) -> list[Unit]:
        return [u for u in self.units if u.hp > 0 and (team is None or u.team is team)]

    # -- cards -----------------------------------------------------------------------------
    def pile_of(self, card_id: str) -> Pile | str | None:
        """The pile holding a card instance, ``RESOLVING`` while it is played, else None."""
        if card_id in self.resolving:
            return RESOLVING
        for pile in PILES:
            if card_id in self.piles[pile]:
                return pile
        return None

    def clone(self) -> Battle:
        """A deep copy sharing only the immutable card definitions and instances."""
        return Battle(
            units=[u.clone() for u in self.units],
            library=self.library,
            cards=self.cards,
            piles={pile: list(ids) for pile, ids in self.piles.items()},
            active_player=self.active_player,
            seed=self.seed,
            rng=self.rng.copy(),
            turn=self.turn,
            energy=self.energy,
            max_energy=self.max_energy,
            draw_per_turn=self.draw_per_turn,
            reshuffle=self.reshuffle,
            statuses=self.statuses,
            moves=self.moves,
            result=self.result,
            resolving=list(self.resolving),
        )
