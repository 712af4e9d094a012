"""Who sees a card where, and the record of each card's stints: the one part of the views
(:mod:`.views`) the rules call, where a card changes zone, in a battle that gives views.

Kept apart from :mod:`.views` so the rules import only the model for it."""

from __future__ import annotations

from .model import RESOLVING, Battle, Pile, Team

#: Each viewer's bit in a set of viewers: the two sides and a spectator.
VIEWER_BITS = {"player": 1, "enemy": 2, "spectator": 4}
_TEAM_BIT = {Team.PLAYER: 1, Team.ENEMY: 2}
_ALL = 7

#: One stint entry of a request's journal: where in the events it happened (the index the
#: move's own event takes), the card, its stints and who saw it before and after.
Change = tuple[int, str, tuple[int, int, int], tuple[int, int, int], int, int]


def seen_by(battle: Battle, side: Team, zone: object) -> int:
    """The viewers (a bit set) who see the face of a ``side`` card in ``zone``: a played card
    is seen by all, a pile's cards as the battle's ``visibility`` says."""
    if zone is None or zone == RESOLVING:
        return _ALL
    rule = battle.visibility[zone if isinstance(zone, Pile) else Pile(str(zone))]
    if rule == "everyone":
        return _ALL
    return _TEAM_BIT[side] if rule == "owner" else 0


def moved(battle: Battle, card_id: str, before: object, after: object, at: int) -> None:
    """A card went from zone ``before`` to ``after`` (a pile, or ``RESOLVING``): each viewer
    it was revealed to or hidden from starts a new stint with it. ``at``: the index in the
    request's events of the event telling the move. Called by the rules only when the battle
    has a secret."""
    instance = battle.cards.get(card_id)
    if instance is None:
        return
    old_mask = seen_by(battle, instance.side, before)
    new_mask = seen_by(battle, instance.side, after)
    if old_mask == new_mask:
        return
    flipped = old_mask ^ new_mask
    old = battle.stints.get(card_id, (0, 0, 0))
    new = (old[0] + (flipped & 1), old[1] + (flipped >> 1 & 1), old[2] + (flipped >> 2 & 1))
    battle.stints[card_id] = new
    if battle.journal is not None:
        battle.journal.append((at, card_id, old, new, old_mask, new_mask))
