"""Who sees a card where, and the record of each card's stints: the one part of the views
(:mod:`.views`) the rules call, where a card changes zone, in a battle that gives views.

A card may lie face down (``CardInstance.face_down``), in any pile: then only those the
battle's ``face_down`` names may see its face, however public its pile is, and the rules
read none of its faces (no filter key holds for it, Sort keeps it apart), so nothing they
answer tells what it is until it is turned face up. Any move turns a card face up unless
the move puts it face down; playing it does too.

Kept apart from :mod:`.views` so the rules import only the model for it."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Final

from .model import RESOLVING, Battle, Pile, Team

#: Each viewer's bit in a set of viewers: the two sides and a spectator.
VIEWER_BITS = {"player": 1, "enemy": 2, "spectator": 4}
_TEAM_BIT = {Team.PLAYER: 1, Team.ENEMY: 2}
_ALL: Final = 7

#: One stint entry of a request's journal: where in the events it happened (the index the
#: move's own event takes), the card, its stints and who saw it before and after.
Change = tuple[int, str, tuple[int, int, int], tuple[int, int, int], int, int]


def seen_by(battle: Battle, side: Team, zone: object, face_down: bool = False) -> int:
    """The viewers (a bit set) who see the face of a ``side`` card in ``zone``: a played card
    is seen by all, a pile's cards as the battle's ``visibility`` says; a face-down card by
    no more than that, and only by its side when the battle's ``face_down`` is ``owner``."""
    if zone is None or zone == RESOLVING:
        return _ALL
    rule = battle.visibility[zone if isinstance(zone, Pile) else Pile(str(zone))]
    mask = _ALL if rule == "everyone" else _TEAM_BIT[side] if rule == "owner" else 0
    if face_down:
        mask &= _TEAM_BIT[side] if battle.face_down == "owner" else 0
    return mask


def turn(battle: Battle, card_id: str, face_down: bool) -> bool:
    """Lay the card face down or face up where it is; whether it lay face down before.

    Instances are immutable and a clone shares the battle's ``cards``, so the battle gets a
    new mapping (a preview's turn never reaches the battle it was cloned from)."""
    instance = battle.cards[card_id]
    was = instance.face_down
    if was is not face_down:
        battle.cards = {**battle.cards, card_id: replace(instance, face_down=face_down)}
    return was


def moved(battle: Battle, card_id: str, before: object, after: object, at: int,
          was_face_down: bool | None = None) -> None:  # fmt: skip
    """A card went from zone ``before`` to ``after`` (a pile, or ``RESOLVING``; the same one
    when it was only turned over): each viewer it was revealed to or hidden from starts a new
    stint with it. ``at``: the index in the request's events of the event telling the move;
    ``was_face_down``: how it lay before, when the move turned it (it lies as its instance
    says now). Called by the rules only when the battle has a secret."""
    instance = battle.cards.get(card_id)
    if instance is None:
        return
    now = instance.face_down
    old_mask = seen_by(battle, instance.side, before, now if was_face_down is None
                       else was_face_down)  # fmt: skip
    new_mask = seen_by(battle, instance.side, after, now)
    if old_mask == new_mask:
        return
    flipped = old_mask ^ new_mask
    old = battle.stints.get(card_id, (0, 0, 0))
    new = (old[0] + (flipped & 1), old[1] + (flipped >> 1 & 1), old[2] + (flipped >> 2 & 1))
    battle.stints[card_id] = new
    if battle.journal is not None:
        battle.journal.append((at, card_id, old, new, old_mask, new_mask))


@dataclass(slots=True)
class Known:
    """What a run on a copy of the battle tells one viewer (:func:`.views.known_to`): its
    ``events`` up to where the run would first depend on what the viewer may not know, and
    why they stop there: ``random``, a draw of the battle's RNG, or ``hidden``, a read of a
    pile or card hidden from the viewer (``{"side", "pile"}``: the side and pile it lies in).
    Neither: nothing was left out. The authority's runs are known whole."""

    events: list[dict[str, Any]]
    random: bool = False
    hidden: dict[str, str] | None = None

    @property
    def stopped(self) -> bool:
        return self.random or self.hidden is not None
