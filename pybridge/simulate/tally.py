"""Mergeable counts: what a batch of battles adds up to, per encounter and per card.

Every field is a sum (or a histogram of counts), so tallies merge by addition in any order:
the same seeds give the same totals whether one process, several, or a cluster played them.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, fields
from typing import Any

RESULTS = ("victory", "defeat", "undecided")


@dataclass(slots=True, init=False)
class CardTally:
    """One card definition in one encounter. Amounts are summed over its plays:
    ``damage`` is what its hits took from enemies (armor and HP, no overkill), ``healing``
    and ``armor`` what it gave its own side, ``damage_taken`` what its side lost during its
    plays (reactions such as Thorns). ``effective_plays`` counts plays that changed the
    battle (damage, healing, armor, a status, a card moved, a unit revived ...)."""

    plays: int
    damage: int
    damage_squares: int  # per play, for the variance of damage per play
    healing: int
    armor: int
    damage_taken: int
    effective_plays: int
    battles: int  # battles whose deck held the card
    battles_played: int
    wins: int  # victories among those battles
    wins_played: int

    # Written out rather than generated: every battle makes one per card played, and a
    # compiled build runs a dataclass's generated __init__ as Python.
    def __init__(self, plays: int = 0, damage: int = 0, damage_squares: int = 0,
                 healing: int = 0, armor: int = 0, damage_taken: int = 0,
                 effective_plays: int = 0, battles: int = 0, battles_played: int = 0,
                 wins: int = 0, wins_played: int = 0) -> None:  # fmt: skip
        self.plays, self.damage, self.damage_squares = plays, damage, damage_squares
        self.healing, self.armor, self.damage_taken = healing, armor, damage_taken
        self.effective_plays, self.battles, self.battles_played = (
            effective_plays, battles, battles_played,
        )  # fmt: skip
        self.wins, self.wins_played = wins, wins_played

    def add(self, other: CardTally) -> None:
        for name in _CARD_FIELDS:
            setattr(self, name, getattr(self, name) + getattr(other, name))

    def add_plays(self, other: CardTally) -> None:
        """Add one battle's plays (the per-play fields only), spelled out: it runs for
        every card played in every battle."""
        self.plays += other.plays
        self.damage += other.damage
        self.damage_squares += other.damage_squares
        self.healing += other.healing
        self.armor += other.armor
        self.damage_taken += other.damage_taken
        self.effective_plays += other.effective_plays

    def to_json(self) -> dict[str, int]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> CardTally:
        return cls(**{name: int(data.get(name, 0)) for name in _CARD_FIELDS})


_CARD_FIELDS = tuple(f.name for f in fields(CardTally))


@dataclass(slots=True)
class EncounterTally:
    """One encounter: results, turns and HP left, a turn histogram, and its cards."""

    battles: int = 0
    victory: int = 0
    defeat: int = 0
    undecided: int = 0
    turns: int = 0
    turns_squares: int = 0
    hp_left: int = 0  # the party's HP at the end, summed over battles
    hp_left_squares: int = 0
    win_hp_left: int = 0  # the same over victories only
    plays: int = 0
    turn_histogram: dict[int, int] = field(default_factory=dict)
    cards: dict[str, CardTally] = field(default_factory=dict)

    def add(self, other: EncounterTally) -> None:
        for name in _SCALAR_FIELDS:
            setattr(self, name, getattr(self, name) + getattr(other, name))
        for turn, count in other.turn_histogram.items():
            self.turn_histogram[turn] = self.turn_histogram.get(turn, 0) + count
        for card_id, card in other.cards.items():
            mine = self.cards.get(card_id)
            if mine is None:
                self.cards[card_id] = mine = CardTally()
            mine.add(card)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {name: getattr(self, name) for name in _SCALAR_FIELDS}
        out["turn_histogram"] = {str(t): n for t, n in sorted(self.turn_histogram.items())}
        out["cards"] = {cid: card.to_json() for cid, card in sorted(self.cards.items())}
        return out

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> EncounterTally:
        tally = cls()
        for name in _SCALAR_FIELDS:
            setattr(tally, name, int(data.get(name, 0)))
        tally.turn_histogram = {int(t): int(n) for t, n in data.get("turn_histogram", {}).items()}
        tally.cards = {cid: CardTally.from_json(c) for cid, c in data.get("cards", {}).items()}
        return tally


_SCALAR_FIELDS = tuple(
    f.name for f in fields(EncounterTally) if f.name not in ("turn_histogram", "cards")
)


def merge_into(totals: dict[str, EncounterTally], part: dict[str, EncounterTally]) -> None:
    """Add a batch's tallies (by encounter id) to running totals."""
    for encounter_id, tally in part.items():
        mine = totals.get(encounter_id)
        if mine is None:
            totals[encounter_id] = mine = EncounterTally()
        mine.add(tally)
