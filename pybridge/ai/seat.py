"""The authority's side of the AI: it hands the AI a view and takes its move back.

The AI (:mod:`.search`) names cards by the view's ids; the authority maps them back to its
instances with :func:`pybridge.runtime.views.real_id`, which takes only ids the viewer
knows. The battle never reaches the search."""

from __future__ import annotations

from ..runtime import Battle
from ..runtime.cut_answers import acting_side
from ..runtime.views import VIEWERS, Viewer, enable, real_id, state_view
from .search import Action, Decision, decide


def in_battle_ids(battle: Battle, viewer: Viewer, action: Action) -> Action:
    """``action`` (in ``viewer``'s ids) with the battle's own card ids."""
    kind, card, target = action
    real_card = None if card is None else str(real_id(battle, viewer, card))
    if isinstance(target, list):
        return kind, real_card, [str(real_id(battle, viewer, t, backs=True)) for t in target]
    if isinstance(target, str):
        return kind, real_card, str(real_id(battle, viewer, target, backs=True))
    return kind, real_card, target


def seat_move(battle: Battle, seed: int, iterations: int,
              secret: bytes | None = None) -> tuple[Decision, Action]:  # fmt: skip
    """The acting side's decision, from its own view of ``battle``, and the move in the
    battle's ids. A battle that gives no views yet is given ``secret`` first (the host
    draws it at random; the AI never sees it)."""
    if battle.secret is None:
        if secret is None:
            raise ValueError("the battle gives no views yet: pass the secret to give it one")
        enable(battle, secret)
    viewer = VIEWERS[acting_side(battle).value]
    decision = decide(state_view(battle, viewer), seed, iterations, words=battle.words)
    return decision, in_battle_ids(battle, viewer, decision.action)
