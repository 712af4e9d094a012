"""Every target a card in hand may be played at now, from the runtime's own ``targets``: what
a headless player (the demo log's autoplay, ``simulate``'s policies, the search AI) picks
from, so that none of them aims a card another way than the rules allow.
"""

from __future__ import annotations

import itertools

from .model import Battle, CardInstance, Unit
from .modes import candidates
from .play import member_of, needed_targets, targets

#: A card's target as ``play`` takes it: None, a unit or card id, or a list of them.
Target = str | list[str] | None

#: How many combinations of a card that chooses several targets are offered at most.
MAX_COMBINATIONS = 20


def aim_options(battle: Battle, card_id: str, limit: int = MAX_COMBINATIONS) -> list[Target]:
    """Every target ``card_id`` may be given now: ``[None]`` for a card that takes no choice,
    each candidate for a single choice, and up to ``limit`` combinations for a card that
    chooses several. A card that chooses when it resolves (units or cards) is offered what it
    could choose now (``late_choice``). Empty when the card cannot be played."""
    info = targets(battle, card_id)
    if not info.playable:
        return []
    if info.choose_on_resolve and info.late_choice is not None:
        pool = info.late_choice.candidates
    elif info.requires_target:
        pool = info.candidates
    else:
        return [None]
    card = battle.cards[card_id].card
    count = needed_targets(card, len(pool), battle.rules)
    if card.target_count == 1 or count == 1:
        return list(pool)
    return [list(chosen) for chosen in
            itertools.islice(itertools.combinations(pool, count), limit)]  # fmt: skip


def arrow_targets(battle: Battle, card: CardInstance) -> tuple[list[Unit], int]:
    """The units ``card``'s arrow may choose now (the legality function's candidates, in
    battle order) and how many a play submits (``needed_targets``): what a player aiming at
    random draws from. ``([], 0)`` when there is nothing to choose: its member is down, or no
    unit is a candidate (``targets`` says why it cannot be played). It asks nothing else of
    the card (energy, conditions): the play's own check does."""
    source = member_of(battle, card)
    if source is None:  # its member is down
        return [], 0
    definition = card.card
    pool = candidates(battle, source, definition.target, definition)
    return pool, needed_targets(definition, len(pool), battle.rules) if pool else 0
