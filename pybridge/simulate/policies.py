"""Player policies: who decides the party's plays in a simulated battle.

A policy is any object with a ``choose(battle, rng)`` method (see :class:`Policy`) that
returns the next play, ``(card instance id, target)``, or ``None`` to end the turn. The
target is ``None`` (cards without a unit choice), a unit id, or a list of unit ids (cards
that choose several). The engine plays the move through the runtime, which refuses illegal
ones; enemies act by their telegraphed intents when the turn ends.

Two are built in: ``random`` (a uniformly random playable card, aimed at a uniformly random
candidate, until nothing is playable) and ``greedy`` (one ply: every legal play is tried on
a copy with :func:`pybridge.runtime.preview`, and the one whose events score best is
played). A user's own policy is named on the command line as ``module:attribute``; it is
imported by that name, which the user typed: card data never names code.
"""

from __future__ import annotations

import importlib
import itertools
from collections.abc import Callable
from typing import Protocol, cast, runtime_checkable

from ..runtime import Battle, Event, Pcg32, Pile, PlayError, Team, check_play, preview, targets
from ..runtime.errors import TargetRequired
from ..runtime.modes import candidates
from ..runtime.play import needed_targets, source_of

#: What a policy plays: a card instance id and its target (None, a unit id, or unit ids).
Target = str | list[str] | None
Move = tuple[str, Target]
#: At most this many target combinations are looked at for a card that chooses several.
MAX_COMBINATIONS = 20


@runtime_checkable
class Policy(Protocol):
    """The interface of a player policy.

    ``choose`` is called before every play with the live battle and the policy's own PRNG
    (seeded per battle, so runs repeat exactly; do not use :mod:`random`). It must not
    change the battle: look ahead with :func:`pybridge.runtime.preview`, which works on a
    copy. Return ``(card_id, target)`` or ``None`` to end the turn."""

    def choose(self, battle: Battle, rng: Pcg32) -> Move | None: ...


class PolicyError(ValueError):
    """A policy spec that names nothing usable."""


def aim_options(battle: Battle, card_id: str) -> list[Target]:
    """Every target a card in hand may be given now (by the runtime's own candidates):
    ``[None]`` for a card without a unit choice, each candidate for a single target, and up
    to :data:`MAX_COMBINATIONS` combinations for a card that chooses several. Empty when
    the card cannot be played."""
    info = targets(battle, card_id)
    if not info.playable:
        return []
    if not (info.requires_target or info.choose_on_resolve):
        return [None]
    pool = info.candidates if info.requires_target else info.range
    card = battle.cards[card_id].card
    count = needed_targets(card, len(pool), battle.rules)
    if card.target_count == 1 or count == 1:
        return list(pool)
    combinations = itertools.islice(itertools.combinations(pool, count), MAX_COMBINATIONS)
    return [list(chosen) for chosen in combinations]


def legal_moves(battle: Battle) -> list[Move]:
    """Every legal play now, in hand order (what a custom policy usually starts from)."""
    if battle.result is not None:
        return []
    return [(card_id, target) for card_id in battle.piles[Pile.HAND]
            for target in aim_options(battle, card_id)]  # fmt: skip


class RandomPolicy:
    """A uniformly random playable card at a uniformly random candidate; the turn ends when
    nothing is playable.

    It does not list every legal play first: it draws cards from the hand without
    replacement and asks the runtime's own check (:func:`check_play`, which changes nothing)
    whether the draw is playable. The first playable draw is uniform over the playable cards,
    and most decisions need one or two checks instead of aiming every card in hand."""

    name = "random"

    def choose(self, battle: Battle, rng: Pcg32) -> Move | None:
        if battle.result is not None:
            return None
        hand = list(battle.piles[Pile.HAND])
        below = rng.below
        while hand:
            index = below(len(hand))
            card_id = hand[index]
            hand[index] = hand[-1]
            hand.pop()
            try:
                target = self._aim(battle, card_id, rng)
            except PlayError:
                continue
            return card_id, target
        return None

    @staticmethod
    def _aim(battle: Battle, card_id: str, rng: Pcg32) -> Target:
        """A random legal target for the card, after the runtime's check; PlayError if the
        card cannot be played now."""
        card = battle.cards[card_id]
        definition = card.card
        mode = definition.target
        if not mode.requires_target:  # no choice, or the runtime picks (Random modes)
            check_play(battle, card_id)
            return None
        pool = candidates(battle, source_of(battle, card), mode, definition)
        if not pool:  # as targets() says: not playable without a valid target
            raise TargetRequired(f"card {card_id!r} has no valid target", "target")
        count = needed_targets(definition, len(pool), battle.rules)
        target: Target = pool[rng.below(len(pool))].id if count == 1 else \
            [unit.id for unit in rng.sample(pool, count)]  # fmt: skip
        # A card that chooses on resolution takes its choice then, not when it is checked.
        check_play(battle, card_id, None if definition.choose_on_resolve else target)
        return target


#: How much the greedy policy values each thing a play does (per point, per stack, per unit).
ENEMY_HP = 1.0
ENEMY_ARMOR = 0.5
KILL = 10.0
PARTY_HP = 1.0
PARTY_ARMOR = 0.6
PARTY_DEATH = 25.0
STATUS_STACK = 2.0
REVIVE = 10.0
ENERGY = 2.0
CARD_TO_HAND = 1.5
COST = 0.1


def score_events(battle: Battle, events: list[Event]) -> float:
    """What the greedy policy sees in a play's events: damage and kills on the enemies,
    healing and armor on the party, statuses (debuffs on enemies and buffs on the party
    alike), revivals, energy and cards drawn; minus what the party lost."""
    score = 0.0
    index = battle._index
    for event in events:
        kind = event["type"]
        unit = index.get(event.get("unit") or "")
        ours = unit is not None and unit.team is Team.PLAYER
        if kind == "damage":
            armor = event["armor_before"] - event["armor_after"]
            hp = event["hp_before"] - event["hp_after"]
            if ours:
                score -= PARTY_HP * hp + PARTY_ARMOR * armor
            else:
                score += ENEMY_HP * hp + ENEMY_ARMOR * armor
        elif kind == "unit_died":
            score += -PARTY_DEATH if ours else KILL
        elif kind == "heal" and ours:
            score += PARTY_HP * event["amount"]
        elif kind == "armor" and ours:
            score += PARTY_ARMOR * event["amount"]
        elif kind == "status":
            score += STATUS_STACK * abs(event["stacks"])
        elif kind == "revived":
            score += REVIVE + PARTY_HP * event["hp"]
        elif kind == "energy":
            score += ENERGY * (event["energy_after"] - event["energy_before"])
        elif kind == "card_moved" and event.get("node") is not None and event["to"] == "hand":
            score += CARD_TO_HAND
        elif kind == "card_played":
            score -= COST * (event["energy_before"] - event["energy_after"])
    return score


class GreedyPolicy:
    """One ply: preview every legal play and make the best one while it scores above zero.

    Previews run on copies with the battle's PRNG state copied too, so a random target is
    previewed exactly as it will fall: greedy sees one move ahead, perfectly."""

    name = "greedy"

    def choose(self, battle: Battle, rng: Pcg32) -> Move | None:
        best: Move | None = None
        best_score = 0.0
        for move in legal_moves(battle):
            score = score_events(battle, preview(battle, *move))
            if score > best_score:
                best, best_score = move, score
        return best


class _FunctionPolicy:
    """A plain function ``(battle, rng) -> move`` used as a policy."""

    def __init__(self, function: Callable[[Battle, Pcg32], Move | None], name: str) -> None:
        self.function, self.name = function, name

    def choose(self, battle: Battle, rng: Pcg32) -> Move | None:
        return self.function(battle, rng)


BUILT_IN: dict[str, Callable[[], Policy]] = {"random": RandomPolicy, "greedy": GreedyPolicy}


def policy_factory(spec: str) -> Callable[[], Policy]:
    """What makes a fresh policy for each battle, from ``random``, ``greedy`` or
    ``module:attribute`` naming a Policy class (built with no arguments), a Policy object
    (shared: it must keep no state between battles), or a function ``(battle, rng) ->
    move``. Raises :class:`PolicyError`."""
    if spec in BUILT_IN:
        return BUILT_IN[spec]
    module_name, colon, attribute = spec.partition(":")
    if not colon or not module_name or not attribute:
        raise PolicyError(f"policy {spec!r}: expected one of {', '.join(BUILT_IN)} or "
                          "module:attribute")  # fmt: skip
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise PolicyError(f"policy {spec!r}: cannot import {module_name!r} ({exc})") from exc
    try:
        found = getattr(module, attribute)
    except AttributeError:
        raise PolicyError(f"policy {spec!r}: {module_name!r} has no {attribute!r}") from None
    if isinstance(found, type):
        if not callable(getattr(found, "choose", None)):
            raise PolicyError(f"policy {spec!r}: class {attribute!r} has no choose method")
        return cast(Callable[[], Policy], found)
    if isinstance(found, Policy):
        shared: Policy = found
        return lambda: shared
    if callable(found):
        function_policy = _FunctionPolicy(found, spec)
        return lambda: function_policy
    raise PolicyError(f"policy {spec!r}: expected a class or object with a choose(battle, rng) "
                      "method, or a function (battle, rng) -> move")  # fmt: skip


def load_policy(spec: str) -> Policy:
    """One policy object for ``spec`` (see :func:`policy_factory`)."""
    return policy_factory(spec)()
