"""Player policies: who decides the party's plays in a simulated battle.

A policy is any object with a ``moves(battle, rng)`` method (see :class:`Policy`) that gives
the plays it would make now, in order of preference: ``(card instance id, target)`` pairs,
the target being ``None`` (cards without a unit choice), a unit id, or a list of unit ids
(cards that choose several). The engine plays the first one the runtime accepts (the
runtime's own check is the only legality check) and asks again; when no move is left the
turn ends and the enemies act on their telegraphed intents.

Two are built in: ``random`` (a uniformly random playable card, aimed at a uniformly random
candidate, until nothing is playable) and ``greedy`` (one ply: every legal play is tried on
a copy with :func:`pybridge.runtime.preview`, and the one whose events score best is
played). A user's own policy is named on the command line as ``module:attribute``; it is
imported by that name, which the user typed: card data never names code.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable, Iterable, Iterator
from typing import Final, cast

from ..runtime import (
    Battle,
    CardInstance,
    Event,
    Pcg32,
    Pile,
    Team,
    preview,
)
from ..runtime.aims import aim_options, arrow_targets
from ..runtime.play import affordable
from .moves import Move as Move
from .moves import Policy as Policy
from .moves import Target as Target

# Enum members bound once: reading an attribute of an Enum class is slow on CPython 3.11.
_HAND: Final = Pile.HAND
_PLAYER: Final = Team.PLAYER


class PolicyError(ValueError):
    """A policy spec that names nothing usable."""


def legal_moves(battle: Battle) -> list[Move]:
    """Every legal play now, in hand order (what a custom policy usually starts from)."""
    if battle.result is not None:
        return []
    return [(card_id, target) for card_id in battle.piles[Pile.HAND]
            for target in aim_options(battle, card_id)]  # fmt: skip


class RandomPolicy:
    """A uniformly random playable card at a uniformly random candidate; the turn ends when
    nothing is playable.

    It does not list every legal play first: it offers the cards of the hand in a random
    order (drawn without replacement, lazily), each aimed at a random candidate, and the
    engine's play is the check. The first card the runtime accepts is uniform over the
    playable cards, and a decision costs one or two checks instead of aiming every card.
    It asks the runtime's own answers only: cards the runtime's ``affordable`` refuses are
    passed over without a draw, and an aimed card draws from ``arrow_targets`` (the
    legality function's candidates and the count a play submits)."""

    name = "random"

    def __init__(self) -> None:
        self._battle: Battle | None = None
        self._cards: dict[str, tuple[CardInstance, bool]] = {}

    def _cards_of(self, battle: Battle) -> dict[str, tuple[CardInstance, bool]]:
        """Each card instance with whether it is aimed, worked out once per battle (a mode's
        facts are a table lookup, asked for almost every card tried)."""
        if battle is not self._battle:
            self._battle = battle
            self._cards = {cid: (card, card.card.target.requires_target)
                           for cid, card in battle.cards.items()}  # fmt: skip
        return self._cards

    def moves(self, battle: Battle, rng: Pcg32) -> Iterator[Move]:
        # rng.below called as a method, not bound to a local: compiled, a bound method is a
        # Python object called the slow way.
        cards = self._cards_of(battle)
        hand = [cid for cid in battle.sides[_PLAYER].piles[_HAND]
                if affordable(battle, cards[cid][0])]  # fmt: skip
        while hand:
            left = len(hand)
            index = rng.below(left) if left > 1 else 0  # a draw only where there is a choice
            card_id = hand[index]
            hand[index] = hand[-1]
            hand.pop()
            card, aimed = cards[card_id]
            if not aimed:  # no choice, or the runtime picks (Random modes)
                yield card_id, None
                continue
            pool, count = arrow_targets(battle, card)
            if count == 0:  # nothing to choose: not playable now
                continue
            if count == 1:
                yield card_id, pool[rng.below(len(pool)) if len(pool) > 1 else 0].id
            else:
                yield card_id, [unit.id for unit in rng.sample(pool, count)]


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

    def moves(self, battle: Battle, rng: Pcg32) -> list[Move]:
        best: list[Move] = []
        best_score = 0.0
        for move in legal_moves(battle):
            score = score_events(battle, preview(battle, *move))
            if score > best_score:
                best, best_score = [move], score
        return best


#: The search AI's budget per decision when ``--ai-iterations`` does not say.
AI_ITERATIONS = 50
#: ``ai`` with its budget, as a spec carries it to every worker (``ai@50``).
_AI_SPEC = re.compile(r"ai(?:@([1-9][0-9]{0,6}))?")


class AiPolicy:
    """The search AI (:mod:`pybridge.ai`) playing the party: it decides from the player's
    view only, ``iterations`` iterations a decision, seeded from the policy's PRNG. Its
    end of turn is an empty list of moves. The battle is given a secret for its views,
    drawn from the policy's PRNG, which the AI never sees."""

    name = "ai"

    def __init__(self, iterations: int = AI_ITERATIONS) -> None:
        self.iterations = iterations

    def moves(self, battle: Battle, rng: Pcg32) -> list[Move]:
        from ..ai import seat_move  # the search is loaded only by a run that plays it

        secret = None
        if battle.secret is None:
            secret = b"".join(rng.next_u32().to_bytes(4, "big") for _ in range(4))
        _, (kind, card_id, target) = seat_move(battle, rng.next_u32(), self.iterations, secret)
        if kind != "play" or card_id is None:  # end_turn: nothing more this turn
            return []
        return [(card_id, target)]


class _FunctionPolicy:
    """A plain function ``(battle, rng) -> moves`` used as a policy."""

    def __init__(self, function: Callable[[Battle, Pcg32], Iterable[Move]], name: str) -> None:
        self.function, self.name = function, name

    def moves(self, battle: Battle, rng: Pcg32) -> Iterable[Move]:
        return self.function(battle, rng)


BUILT_IN: dict[str, Callable[[], Policy]] = {"random": RandomPolicy, "greedy": GreedyPolicy}


def policy_factory(spec: str) -> Callable[[], Policy]:
    """What makes a fresh policy for each battle, from ``random``, ``greedy``, ``ai`` (the
    search AI; ``ai@N``: N iterations a decision), or
    ``module:attribute`` naming a Policy class (built with no arguments), a Policy object
    (shared: it must keep no state between battles), or a function ``(battle, rng) ->
    moves``. Raises :class:`PolicyError`."""
    if spec in BUILT_IN:
        return BUILT_IN[spec]
    ai = _AI_SPEC.fullmatch(spec)
    if ai is not None:
        iterations = int(ai.group(1) or AI_ITERATIONS)
        return lambda: AiPolicy(iterations)
    module_name, colon, attribute = spec.partition(":")
    if not colon or not module_name or not attribute:
        raise PolicyError(f"policy {spec!r}: expected one of {', '.join(BUILT_IN)}, ai, ai@N "
                          "or module:attribute")  # fmt: skip
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise PolicyError(f"policy {spec!r}: cannot import {module_name!r} ({exc})") from exc
    try:
        found = getattr(module, attribute)
    except AttributeError:
        raise PolicyError(f"policy {spec!r}: {module_name!r} has no {attribute!r}") from None
    if isinstance(found, type):
        if not callable(getattr(found, "moves", None)):
            raise PolicyError(f"policy {spec!r}: class {attribute!r} has no moves method")
        return cast(Callable[[], Policy], found)
    if isinstance(found, Policy):
        shared: Policy = found
        return lambda: shared
    if callable(found):
        function_policy = _FunctionPolicy(found, spec)
        return lambda: function_policy
    raise PolicyError(f"policy {spec!r}: expected a class or object with a moves(battle, rng) "
                      "method, or a function (battle, rng) -> moves")  # fmt: skip


def load_policy(spec: str) -> Policy:
    """One policy object for ``spec`` (see :func:`policy_factory`)."""
    return policy_factory(spec)()
