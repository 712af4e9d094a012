"""The battle model: units, card definitions and instances, the four piles, turn and seed.

Plain mutable objects with no behaviour beyond bookkeeping; rules live in the modules that
use them. ``Battle.clone()`` is the cheap deep copy that previews run on.

Every card-playing side is a :class:`SideState` in one table, ``Battle.sides`` (team to
side). The player team's side is always there; a battle has only it (the enemies act through
moves) or the enemy team's too, and then the turn passes between them (``Battle.turn_side``).
A card reaches its own side as ``battle.sides[card.side]``; a Host reaches the side it reads
through ``Battle.side``, which gives a team that plays no cards the player side's.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Final

from .filters import card_predicate, unit_predicate
from .mode_table import TargetMode, single_target
from .rng import Pcg32

if TYPE_CHECKING:
    from .graph import Behavior
# A compiled build (mypyc) looks the dataclasses' annotations up in this module as it loads,
# and the graph imports this module: its Behavior is here by name only.
globals().setdefault("Behavior", "Behavior")


class Team(StrEnum):
    PLAYER = "player"
    ENEMY = "enemy"

    @property
    def opposite(self) -> Team:
        return _ENEMY if self is _PLAYER else _PLAYER


class Pile(StrEnum):
    """The four battle piles. Index 0 of every pile is its top (the next card drawn)."""

    HAND = "hand"
    DRAW = "draw"
    DISCARD = "discard"
    EXHAUST = "exhaust"


PILES: Final[tuple[Pile, ...]] = (Pile.HAND, Pile.DRAW, Pile.DISCARD, Pile.EXHAUST)
#: Who sees each pile's cards by default: your own hand (the opponent sees card backs), no
#: one the draw pile's (its count and backs only), everyone the discard and exhaust piles.
DEFAULT_VISIBILITY: Mapping[Pile, str] = MappingProxyType(
    {Pile.HAND: "owner", Pile.DRAW: "no_one", Pile.DISCARD: "everyone", Pile.EXHAUST: "everyone"}
)
# Enum members bound once: reading an attribute of an Enum class is slow on CPython 3.11.
_PLAYER: Final = Team.PLAYER
_ENEMY: Final = Team.ENEMY
#: Both teams, in declaration order (iterating an Enum class runs Python code every time).
_TEAMS: Final[tuple[Team, ...]] = tuple(Team)


def _anything(item: object) -> bool:
    return True


#: Where a card being played sits: in neither hand nor any other pile until it resolves.
RESOLVING: Final = "resolving"
#: Each place a card may be (a pile, or ``RESOLVING``) as the plain string events name it:
#: a StrEnum's ``str()`` makes a new string every time it is asked. A plain dict, which
#: compiled code reads without a generic call; never changed.
ZONE_NAMES: Final[dict[str, str]] = {**{pile: pile.value for pile in PILES}, RESOLVING: RESOLVING}
#: Entries the Cut holds at most, checked when an entry is pushed and when a battle loads.
MAX_CUT: Final = 64


class Zone(StrEnum):
    """Where a unit is. Effects affect only units on the field unless they say otherwise."""

    FIELD = "field"
    RESERVE = "reserve"


class Rules(StrEnum):
    """The battle's rule profile: ``soft`` (fail soft: lost targets are skipped) or ``strict``
    (targeting law: no play without a legal target, a lost target makes the effect fail)."""

    SOFT = "soft"
    STRICT = "strict"


_FIELD: Final = Zone.FIELD
_SOFT: Final = Rules.SOFT


#: Status hooks: when a status's Behavior runs, with the status's owner as Host.
HOOKS: Final[tuple[str, ...]] = ("turn_start", "turn_end", "attacked")


@dataclass(frozen=True, slots=True, init=False)
class Intent:
    """What an enemy will do on its next turn, shown to the player in advance."""

    move: str
    target: str | None = None

    # Written out rather than generated: every enemy telegraphs one a turn, and a compiled
    # build runs a dataclass's generated __init__ as Python.
    def __init__(self, move: str, target: str | None = None) -> None:
        object.__setattr__(self, "move", move)  # frozen: set once, here
        object.__setattr__(self, "target", target)


@dataclass(slots=True, init=False)
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
    zone: Zone = Zone.FIELD
    #: A ``res://`` path to the unit's portrait, for hosts to draw (the rules never read it).
    art: str | None = None

    # Written out rather than generated: every battle a simulation plays clones its units,
    # and a compiled build runs a dataclass's generated __init__ as Python.
    def __init__(self, id: str, name: str, team: Team, hp: int, max_hp: int, armor: int = 0,
                 statuses: dict[str, int] | None = None, tags: tuple[str, ...] = (),
                 tier: int = 1, moves: tuple[str, ...] = (), intent: Intent | None = None,
                 zone: Zone = _FIELD, art: str | None = None) -> None:  # fmt: skip
        self.id = id
        self.name = name
        self.team = team
        self.hp = hp
        self.max_hp = max_hp
        self.armor = armor
        self.statuses = {} if statuses is None else statuses
        self.tags = tags
        self.tier = tier
        self.moves = moves
        self.intent = intent
        self.zone = zone
        self.art = art

    @property
    def alive(self) -> bool:
        return self.hp > 0

    @property
    def in_play(self) -> bool:
        """Alive and on the field: what effects affect by default."""
        return self.hp > 0 and self.zone is _FIELD

    @property
    def hp_percent(self) -> float:
        return 100.0 * self.hp / self.max_hp

    def clone(self) -> Unit:
        """A copy that shares nothing mutable (every other field is immutable).

        Spelled out field by field rather than with ``dataclasses.replace``, which costs
        several times more; a test checks that every field is copied."""
        return Unit(self.id, self.name, self.team, self.hp, self.max_hp, self.armor,
                    dict(self.statuses), self.tags, self.tier, self.moves, self.intent,
                    self.zone, self.art)  # fmt: skip


def statuses_in_order(statuses: dict[str, int]) -> list[str]:
    """A unit's status names in name order (the order hooks and reactions run in), copied so
    a hook may remove one: a unit carries one status more often than several, and sorting
    one name still costs a sort."""
    return sorted(statuses) if len(statuses) > 1 else list(statuses)


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
    target_count: int = 1
    up_to: bool = False
    target_filter: Mapping[str, object] = field(default_factory=dict)
    choose_on_resolve: bool = False
    card_targets: CardTargets | None = None
    on_lost_target: str | None = None
    #: The party member who plays the card when an instance names none (a unit id).
    owner: str | None = None
    #: A ``res://`` path to the card's art, for hosts to draw (the rules never read it).
    art: str | None = None
    # Caches of what the target mode's facts say, read on every play: whether the player
    # aims (``_arrow``), whether the card takes exactly one submitted unit when played
    # (``_one_pick``), whether the runtime picks at random, :attr:`single_target`, and the
    # compiled ``target_filter``.
    _arrow: bool = field(init=False, repr=False, compare=False, default=False)
    _one_pick: bool = field(init=False, repr=False, compare=False, default=False)
    _random: bool = field(init=False, repr=False, compare=False, default=False)
    _single: bool = field(init=False, repr=False, compare=False, default=False)
    _target_test: Callable[[Unit], bool] = field(init=False, repr=False, compare=False,
                                                 default=_anything)  # fmt: skip

    def __post_init__(self) -> None:
        facts = self.target.facts
        object.__setattr__(self, "_arrow", facts.requires_target)
        one = facts.requires_target and self.target_count == 1 and not self.up_to
        object.__setattr__(self, "_one_pick", one and not self.choose_on_resolve)
        object.__setattr__(self, "_random", facts.random)
        object.__setattr__(self, "_single", single_target(facts, self.target_count))
        object.__setattr__(self, "_target_test", unit_predicate(self.target_filter))

    @property
    def single_target(self) -> bool:
        """Only an effect that can choose exactly one target is a single-target effect, even
        when a multi-target effect happens to choose one (see :func:`mode_table.single_target`)."""
        return self._single

    def target_test(self, unit: Unit) -> bool:
        """Does ``unit`` meet the card's ``target_filter``?"""
        return self._target_test(unit)

    @property
    def chooses_cards(self) -> bool:
        """Does the card choose cards (from its ``card_targets``) when it resolves? Only a
        card whose mode chooses no unit does; otherwise ``choose_on_resolve`` chooses units."""
        return self.choose_on_resolve and self.card_targets is not None \
            and not self.target.chooses_units  # fmt: skip


@dataclass(frozen=True, slots=True)
class CardTargets:
    """A card whose effect targets cards: every card of these types in these zones (``cut``
    being the cards waiting to resolve). Under strict rules one such card must exist. A
    ``type`` condition may list several types ("all Characters and Operations")."""

    zones: tuple[str, ...]
    where: Mapping[str, object] = field(default_factory=dict)
    _test: Callable[[CardInstance], bool] = field(init=False, repr=False, compare=False,
                                                  default=_anything)  # fmt: skip

    def __post_init__(self) -> None:
        object.__setattr__(self, "_test", card_predicate(self.where))

    def matches(self, card: CardInstance) -> bool:
        """Is ``card`` of a type (and so on) this effect targets?"""
        return self._test(card)


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
    protection: str | None = None


@dataclass(frozen=True, slots=True)
class MoveDef:
    """An enemy move: like a card without a cost, run with the acting enemy as Host."""

    id: str
    name: str
    target: TargetMode
    behavior: Behavior
    text: str = ""
    weight: int = 1
    response: bool = False


@dataclass(frozen=True, slots=True)
class CardInstance:
    """One physical card in a battle. ``owner`` is the member who plays it, if fixed; ``side``
    the card-playing side it belongs to: it only ever moves between that side's piles;
    ``face_down``: it lies face down where it is (who sees its face: ``Battle.face_down``), and
    the rules read none of its faces (see :mod:`.hiding`)."""

    id: str
    card: CardDef
    owner: str | None = None
    side: Team = Team.PLAYER
    face_down: bool = False


#: What the end of a side's turn may do to its hand: ``discard`` it (the deckbuilder's rule;
#: ``Retain`` cards stay), or ``keep`` it (a card game's: the hand carries over, so the side
#: not on turn holds cards to answer on the Cut).
HAND_AT_TURN_END = ("discard", "keep")


@dataclass(slots=True)
class SideState:
    """What one card-playing side holds of its own: its four piles, its energy and the member
    who plays its cards when they name no owner. Plain data, saved as one ``sides`` entry."""

    team: Team
    piles: dict[Pile, list[str]]
    active_player: str
    energy: int = 3
    max_energy: int = 3
    draw_per_turn: int = 5
    #: What the end of the side's turn does to its hand (:data:`HAND_AT_TURN_END`).
    hand_at_turn_end: str = "discard"

    def clone(self) -> SideState:
        return SideState(self.team, {pile: list(ids) for pile, ids in self.piles.items()},
                         self.active_player, self.energy, self.max_energy,
                         self.draw_per_turn, self.hand_at_turn_end)  # fmt: skip


@dataclass(frozen=True, slots=True)
class CutEntry:
    """An effect waiting on the Cut: activated, its targets locked, not yet resolved."""

    id: str
    side: Team
    source: str
    card: str | None = None
    move: str | None = None
    targets: tuple[str, ...] = ()
    collected: tuple[str, ...] = ()
    #: One side: the enemies had their chance to respond. Two sides: the other side passed
    #: and the entry waits for its owner's choice (``cut.owner_chooses``).
    answered: bool = False


@dataclass(slots=True, init=False)
class Battle:
    units: list[Unit]
    library: dict[str, CardDef]
    cards: dict[str, CardInstance]
    #: Every card-playing side by team, the player's first and always present (a one-sided
    #: battle has only it). A card instance's ``side`` is always a key here.
    sides: dict[Team, SideState]
    seed: int
    rng: Pcg32
    turn: int = 1
    reshuffle: bool = True
    statuses: dict[str, StatusDef] = field(default_factory=dict)
    moves: dict[str, MoveDef] = field(default_factory=dict)
    result: str | None = None
    rules: Rules = Rules.SOFT
    cut: list[CutEntry] = field(default_factory=list)
    next_entry: int = 1
    resolving: list[str] = field(default_factory=list)
    #: The battle counters extensions declare (gold, combo, ...), by name; a counter that is
    #: not here holds its default.
    counters: dict[str, int] = field(default_factory=dict)
    #: Whose turn it is: always the player team's in a one-sided battle.
    turn_side: Team = Team.PLAYER
    #: Who sees the cards of each pile (``everyone``, ``owner``: the side it belongs to, or
    #: ``no_one``); the document's ``visibility`` (see :mod:`.views`).
    visibility: Mapping[Pile, str] = field(default_factory=lambda: DEFAULT_VISIBILITY)
    #: Who sees the face of a face-down card: its own side (``owner``) or ``no_one``; the
    #: document's ``visibility.face_down``.
    face_down: str = "owner"
    #: Whose deck lists (the cards each side holds, wherever they are) a side knows: none
    #: (``hidden``), its ``own``, or both (``public``); the document's ``deck_lists``. Views
    #: show the lists a viewer knows, and :mod:`.determinize` assumes no more of hidden cards.
    deck_lists: str = "hidden"
    #: The per-battle secret views derive their card ids from (:mod:`.views`); None until a
    #: view is first asked. It is saved in the snapshot and never leaves it.
    secret: bytes | None = None
    #: Each card's stints per viewer (player, enemy, spectator): how often it was revealed to
    #: or hidden from that viewer, so a card gets a new view id each time. Kept with a secret.
    stints: dict[str, tuple[int, int, int]] = field(default_factory=dict)
    #: Whether the snapshot holds the secret: False while a secret drawn by a request that
    #: changed nothing (a view, a refusal) waits for the battle's next change, so that asking
    #: never changes the saved state (docs/robustness.md). Ids given before that change are
    #: not kept by a snapshot: a battle opened from it gives new ones.
    secret_kept: bool = True
    #: The vocabulary the battle was read with (a ``Vocabulary``; None: the built-in one).
    words: Any = field(default=None, repr=False, compare=False)
    #: While a request runs for views: the visibility changes it made, in order (see
    #: :func:`.views.moved`); never saved.
    journal: Any = field(default=None, repr=False, compare=False)
    #: While a request runs whose events a host reads: each event naming a unit tells it as
    #: it is after the event (``unit_after``, see :class:`.context.UnitsAfter`); never saved.
    unit_after: bool = field(default=False, repr=False, compare=False)
    #: The answers this request gives to the choices actions ask for while they resolve
    #: (``{node: answer}`` for a play, ``{"entry.node": answer}`` on the Cut); never saved.
    answers: Any = field(default=None, repr=False, compare=False)
    #: While a search plays on this battle (``pybridge.ai``): the work its requests spend, one
    #: count (``[n]``) shared by every request on it and on its copies, so that the work
    #: bound of one request bounds them all together (docs/limits.md); never saved.
    meter: Any = field(default=None, repr=False, compare=False)
    _index: dict[str, Unit] = field(default_factory=dict, init=False, repr=False)
    #: Compiled Behaviors (see :mod:`pybridge.runtime.resolve`), keyed by ``id(behavior)``
    #: and holding the Behavior itself; shared by clones, like the card definitions.
    _programs: dict[int, Any] = field(default_factory=dict, repr=False, compare=False)
    #: Units whose document gave no ``intent`` at all (``null`` is an intent of none): the
    #: runtime telegraphs theirs when the battle is opened (``turns.start_battle``).
    _unset_intents: tuple[str, ...] = field(default=(), repr=False, compare=False)

    #: Each team's units in battle order: the roster is fixed when the battle is made, so the
    #: checks that read one side (does it still stand, who lives) need not scan the other.
    _teams: dict[Team, list[Unit]] = field(default_factory=dict, init=False, repr=False,
                                           compare=False)  # fmt: skip

    # Written out rather than generated: a simulation clones a battle for every game it
    # plays, and a compiled build runs a dataclass's generated __init__ as Python. The
    # parameters are the fields, with their defaults (a fresh collection where the field's
    # default is one); ``_index`` and ``_teams`` are made from ``units``.
    def __init__(self, units: list[Unit], library: dict[str, CardDef],
                 cards: dict[str, CardInstance], sides: dict[Team, SideState], seed: int,
                 rng: Pcg32, turn: int = 1, reshuffle: bool = True,
                 statuses: dict[str, StatusDef] | None = None,
                 moves: dict[str, MoveDef] | None = None, result: str | None = None,
                 rules: Rules = _SOFT, cut: list[CutEntry] | None = None, next_entry: int = 1,
                 resolving: list[str] | None = None, counters: dict[str, int] | None = None,
                 turn_side: Team = _PLAYER, visibility: Mapping[Pile, str] = DEFAULT_VISIBILITY,
                 face_down: str = "owner", deck_lists: str = "hidden",
                 secret: bytes | None = None, stints: dict[str, tuple[int, int, int]] | None = None,
                 secret_kept: bool = True, words: Any = None, journal: Any = None,
                 unit_after: bool = False, answers: Any = None, meter: Any = None,
                 _programs: dict[int, Any] | None = None,
                 _unset_intents: tuple[str, ...] = ()) -> None:  # fmt: skip
        self.units = units
        self.library = library
        self.cards = cards
        self.sides = sides
        self.seed = seed
        self.rng = rng
        self.turn = turn
        self.reshuffle = reshuffle
        self.statuses = {} if statuses is None else statuses
        self.moves = {} if moves is None else moves
        self.result = result
        self.rules = rules
        self.cut = [] if cut is None else cut
        self.next_entry = next_entry
        self.resolving = [] if resolving is None else resolving
        self.counters = {} if counters is None else counters
        self.turn_side = turn_side
        self.visibility = visibility
        self.face_down = face_down
        self.deck_lists = deck_lists
        self.secret = secret
        self.stints = {} if stints is None else stints
        self.secret_kept = secret_kept
        self.words = words
        self.journal = journal
        self.unit_after = unit_after
        self.answers = answers
        self.meter = meter
        self._programs = {} if _programs is None else _programs
        self._unset_intents = _unset_intents
        self._index = {unit.id: unit for unit in units}
        self._teams = {team: [u for u in units if u.team is team] for team in _TEAMS}

    # -- units -----------------------------------------------------------------------------
    def unit(self, unit_id: str) -> Unit | None:
        return self._index.get(unit_id)

    def team(self, team: Team) -> list[Unit]:
        return list(self._teams[team])

    def living(self, team: Team | None = None) -> list[Unit]:
        """Living units on the field (in battle order), of one team or both."""
        units = self.units if team is None else self._teams[team]
        return [u for u in units if u.in_play]

    def standing(self, team: Team) -> bool:
        """Does the team have a living unit anywhere (field or reserve)?"""
        for u in self._teams[team]:  # noqa: SIM110 (a loop runs faster than any() over a generator)
            if u.hp > 0:
                return True
        return False

    # -- sides -----------------------------------------------------------------------------
    @property
    def two_sided(self) -> bool:
        """Do both teams play cards (each with its own piles, energy and turn)?"""
        return len(self.sides) > 1

    def plays_cards(self, team: Team) -> bool:
        """Does ``team`` have a card-playing side? The player team always does."""
        return team in self.sides

    def side(self, team: Team) -> SideState:
        """The side a Host of ``team`` reads: its own, or the player side for a team that
        plays no cards (an enemy move reading the hand reads the player's)."""
        sides = self.sides
        own = sides.get(team)
        return own if own is not None else sides[_PLAYER]

    # The player side's state under the names it had as the battle's own fields, for code
    # written for one-sided battles (extensions read ``battle.piles`` and ``battle.energy``).
    @property
    def piles(self) -> dict[Pile, list[str]]:
        """The player side's piles (``sides[Team.PLAYER].piles``)."""
        return self.sides[_PLAYER].piles

    @piles.setter
    def piles(self, piles: dict[Pile, list[str]]) -> None:
        self.sides[_PLAYER].piles = piles

    @property
    def energy(self) -> int:
        """The player side's energy left this turn."""
        return self.sides[_PLAYER].energy

    @energy.setter
    def energy(self, energy: int) -> None:
        self.sides[_PLAYER].energy = energy

    @property
    def max_energy(self) -> int:
        """The player side's energy at the start of its turn."""
        return self.sides[_PLAYER].max_energy

    @max_energy.setter
    def max_energy(self, energy: int) -> None:
        self.sides[_PLAYER].max_energy = energy

    @property
    def draw_per_turn(self) -> int:
        """The cards the player side draws at the start of its turn."""
        return self.sides[_PLAYER].draw_per_turn

    @draw_per_turn.setter
    def draw_per_turn(self, count: int) -> None:
        self.sides[_PLAYER].draw_per_turn = count

    @property
    def active_player(self) -> str:
        """The member who plays the player side's cards that name no owner."""
        return self.sides[_PLAYER].active_player

    @active_player.setter
    def active_player(self, unit_id: str) -> None:
        self.sides[_PLAYER].active_player = unit_id

    @property
    def hand_at_turn_end(self) -> str:
        """What the end of the player side's turn does to its hand (:data:`HAND_AT_TURN_END`)."""
        return self.sides[_PLAYER].hand_at_turn_end

    @hand_at_turn_end.setter
    def hand_at_turn_end(self, rule: str) -> None:
        self.sides[_PLAYER].hand_at_turn_end = rule

    # Deprecated (see the changelog): how the enemy side was reached before every side was
    # in ``sides``; kept for code written against them, never called by the runtime.
    @property
    def enemy_side(self) -> SideState | None:
        """Deprecated: ``sides.get(Team.ENEMY)``."""
        return self.sides.get(_ENEMY)

    def piles_for(self, team: Team) -> dict[Pile, list[str]]:
        """Deprecated: ``side(team).piles``."""
        return self.side(team).piles

    def energy_of(self, team: Team) -> int:
        """Deprecated: ``side(team).energy``."""
        return self.side(team).energy

    def set_energy(self, team: Team, energy: int) -> None:
        """Deprecated: assign ``side(team).energy``."""
        self.side(team).energy = energy

    def active_of(self, team: Team) -> str:
        """Deprecated: ``side(team).active_player``."""
        return self.side(team).active_player

    def set_active(self, team: Team, unit_id: str) -> None:
        """Deprecated: assign ``side(team).active_player``."""
        self.side(team).active_player = unit_id

    def side_state(self, team: Team) -> SideState:
        """Deprecated: ``side(team)`` (now the side itself, never a snapshot)."""
        return self.side(team)

    def priority(self) -> Team | None:
        """Who may act on the Cut in a two-sided battle: the side that did not put the top
        entry there (None on an empty Cut, where the turn side acts)."""
        return self.cut[-1].side.opposite if self.cut else None

    # -- cards -----------------------------------------------------------------------------
    def pile_of(self, card_id: str) -> Pile | str | None:
        """The pile holding a card instance, ``RESOLVING`` while it is played, else None."""
        if card_id in self.resolving:
            return RESOLVING
        instance = self.cards.get(card_id)
        piles = self.sides[_PLAYER if instance is None else instance.side].piles
        for pile in PILES:
            if card_id in piles[pile]:
                return pile
        return None

    def clone(self) -> Battle:
        """A deep copy sharing only the immutable card definitions and instances."""
        return Battle(
            units=[u.clone() for u in self.units],
            library=self.library,
            cards=self.cards,
            sides={team: side.clone() for team, side in self.sides.items()},
            seed=self.seed,
            rng=self.rng.copy(),
            turn=self.turn,
            reshuffle=self.reshuffle,
            statuses=self.statuses,
            moves=self.moves,
            result=self.result,
            rules=self.rules,
            cut=list(self.cut),
            next_entry=self.next_entry,
            resolving=list(self.resolving),
            counters=dict(self.counters),
            turn_side=self.turn_side,
            visibility=self.visibility,
            deck_lists=self.deck_lists,
            secret=self.secret,
            stints=dict(self.stints) if self.secret is not None else {},
            secret_kept=self.secret_kept,
            words=self.words,
            face_down=self.face_down,
            meter=self.meter,
            _programs=self._programs,
        )
