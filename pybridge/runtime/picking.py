"""Choosing several targets one at a time: what may be picked next, given what is chosen.

A UI that lets the player pick a multi-target card's units (or a late choice's units or cards)
one by one asks after every pick. The answer is the runtime's: the candidates left (a unit or
card is never chosen twice, and every candidate is legal for this card now), how many the play
needs and may take, and whether it can be confirmed yet (an "up to" card can be confirmed
early). Nothing changes; the play itself checks the whole choice again.
"""

from __future__ import annotations

from dataclasses import dataclass

from .errors import CutError, NotACandidate, TargetNotAllowed, UnknownCard, request_value
from .model import Battle, CardInstance, Unit
from .modes import candidates
from .play import card_in_hand, late_candidates, needed_targets, source_of

#: How many units or cards a choice may hold at most (a card's ``target_count`` is at most 16).
MAX_CHOSEN = 16


@dataclass(frozen=True, slots=True)
class Picking:
    """The state of a choice: ``chosen`` so far, the ``candidates`` for the next pick (empty
    once the choice is full), ``needed`` and ``count`` (the least and most the play takes),
    ``chooses`` (units or cards) and ``can_confirm`` (enough are chosen)."""

    card: str
    entry: str | None
    chooses: str
    chosen: tuple[str, ...]
    candidates: tuple[str, ...]
    needed: int
    count: int

    @property
    def can_confirm(self) -> bool:
        return len(self.chosen) >= self.needed

    @property
    def complete(self) -> bool:
        return len(self.chosen) >= self.count

    def to_json(self) -> dict[str, object]:
        return {
            "card": self.card, "entry": self.entry, "chooses": self.chooses,
            "chosen": list(self.chosen), "candidates": list(self.candidates),
            "needed": self.needed, "count": self.count, "can_confirm": self.can_confirm,
            "complete": self.complete,
        }  # fmt: skip


def pick(battle: Battle, chosen: object, card_id: object = None,
         entry_id: object = None) -> Picking:  # fmt: skip
    """The next pick of the choice a card in hand (``card_id``) makes when played, or of the
    late choice a Cut entry (``entry_id``) makes when it resolves, after ``chosen``."""
    card, source, entry = _chooser(battle, card_id, entry_id)
    definition = card.card
    late = definition.choose_on_resolve
    if late:
        pool = late_candidates(battle, card, source)
    elif definition._arrow:
        pool = [u.id for u in candidates(battle, source, definition.target, definition)]
    else:
        raise TargetNotAllowed(f"card {card.id!r} ({definition.target.value}) chooses no "
                               "target: nothing to pick", "card")  # fmt: skip
    picked = _checked(chosen, pool, definition.target_count, card.id)
    full = len(picked) >= definition.target_count
    left = () if full else tuple(c for c in pool if c not in picked)
    needed = min(needed_targets(definition, len(pool), battle.rules), definition.target_count)
    chooses = "cards" if late and definition.chooses_cards else "units"
    return Picking(card.id, entry, chooses, picked, left, needed, definition.target_count)


def _chooser(battle: Battle, card_id: object, entry_id: object
             ) -> tuple[CardInstance, Unit, str | None]:  # fmt: skip
    if entry_id is None:
        card = card_in_hand(battle, card_id)
        return card, source_of(battle, card), None
    entry = next((e for e in battle.cut if e.id == entry_id), None)
    if entry is None:
        raise CutError(f"no entry {request_value(entry_id)} waits on the Cut", "entry")
    if entry.card is None or not battle.cards[entry.card].card.choose_on_resolve:
        raise TargetNotAllowed(f"entry {entry.id!r} locked its targets when it was activated: "
                               "they cannot be changed", "entry")  # fmt: skip
    source = battle.unit(entry.source)
    if source is None:
        raise UnknownCard(f"entry {entry.id!r} has no source in this battle", "entry")
    return battle.cards[entry.card], source, entry.id


def _checked(chosen: object, pool: list[str], count: int, card: str) -> tuple[str, ...]:
    """``chosen`` as a tuple of ids, each a candidate, none twice, no more than ``count``."""
    if not isinstance(chosen, list) or len(chosen) > min(count, MAX_CHOSEN):
        raise NotACandidate(f"card {card!r} takes at most {count} target(s); chosen must list "
                            f"them, got {chosen!r:.80}", "chosen")  # fmt: skip
    picked: list[str] = []
    for item in chosen:
        if not isinstance(item, str) or item not in pool:
            valid = ", ".join(pool) or "none"
            raise NotACandidate(f"{item!r:.64} is not a candidate for {card!r}; candidates: "
                                f"{valid}", "chosen")  # fmt: skip
        if item in picked:
            raise NotACandidate(f"{item!r} is chosen twice", "chosen")
        picked.append(item)
    return tuple(picked)
