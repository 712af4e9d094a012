"""Playing cards: what a card may target, the checked play, and side-effect-free previews.

Every check happens before anything changes, so a refused play leaves the battle exactly as
it was. The unchecked core (:func:`resolve_play`) is what previews and simulations reuse.
"""

from __future__ import annotations

from dataclasses import dataclass

from .context import Context, Event
from .errors import (
    BattleOver,
    NoSource,
    NotACandidate,
    NotEnoughEnergy,
    NotInHand,
    NotPlayable,
    TargetNotAllowed,
    TargetRequired,
    UnknownCard,
    UnknownUnit,
)
from .model import RESOLVING, Battle, CardInstance, Pile, Unit
from .modes import TargetMode, affected_range, candidates, is_valid_target
from .outcome import settle
from .resolve import holds, run


@dataclass(frozen=True, slots=True)
class TargetInfo:
    """What the UI needs to aim a card."""

    card: str
    mode: TargetMode
    requires_target: bool
    source: str
    candidates: tuple[str, ...]
    range: tuple[str, ...]
    playable: bool
    reason: str | None

    def to_json(self) -> dict[str, object]:
        return {
            "card": self.card,
            "mode": self.mode.value,
            "requires_target": self.requires_target,
            "source": self.source,
            "candidates": list(self.candidates),
            "range": list(self.range),
            "playable": self.playable,
            "reason": self.reason,
        }


@dataclass(frozen=True, slots=True)
class CheckedPlay:
    card: CardInstance
    source: Unit
    target: Unit | None


def card_in_hand(battle: Battle, card_id: object) -> CardInstance:
    if battle.result is not None:
        raise BattleOver(f"the battle is over ({battle.result})", "")
    if not isinstance(card_id, str) or card_id not in battle.cards:
        raise UnknownCard(f"no card instance {card_id!r} in this battle", "card")
    if card_id not in battle.piles[Pile.HAND]:
        raise NotInHand(
            f"card {card_id!r} is not in the hand (it is in {_where_is(battle, card_id)})", "card"
        )
    return battle.cards[card_id]


def _where_is(battle: Battle, card_id: str) -> str:
    pile = battle.pile_of(card_id)
    return "no pile" if pile is None else f"the {getattr(pile, 'value', pile)} pile"


def source_of(battle: Battle, card: CardInstance) -> Unit:
    """The member who plays the card: its owner if it has one, else the active player."""
    source_id = card.owner or battle.active_player
    source = battle.unit(source_id)
    if source is None or not source.alive:
        raise NoSource(f"card {card.id!r} is played by {source_id!r}, who is dead", "card")
    return source


def unmet_condition(battle: Battle, card: CardInstance, source: Unit) -> str | None:
    """The reason of the first ``playable_if`` condition that does not hold, else None.
    Conditions see the battle before the play: the source as Host, no submitted target."""
    definition = card.card
    if not definition.playable_if:
        return None
    ctx = Context(battle=battle, host=source, this_card=card.id)
    for rule in definition.playable_if:
        if not holds(definition.behavior, rule.condition, ctx):
            return rule.reason
    return None


def targets(battle: Battle, card_id: object) -> TargetInfo:
    """How a card in hand may be aimed now. A card whose member has fallen is reported as not
    playable (with the reason) rather than refused, so a UI can grey it out."""
    card = card_in_hand(battle, card_id)
    mode = card.card.target
    source_id = card.owner or battle.active_player
    source = battle.unit(source_id)
    if source is None or not source.alive:
        name = source.name if source is not None else source_id
        return TargetInfo(card.id, mode, mode.requires_target, source_id, (), (), False,
                          f"{name} is down")  # fmt: skip
    reason = None
    if card.card.cost > battle.energy:
        reason = f"needs {card.card.cost} energy, {battle.energy} left"
    elif mode.requires_target and not candidates(battle, source, mode):
        reason = "no valid target"
    else:
        reason = unmet_condition(battle, card, source)
    return TargetInfo(
        card=card.id,
        mode=mode,
        requires_target=mode.requires_target,
        source=source.id,
        candidates=tuple(u.id for u in candidates(battle, source, mode))
        if mode.requires_target
        else (),
        range=tuple(u.id for u in affected_range(battle, source, mode)),
        playable=reason is None,
        reason=reason,
    )


def check_play(battle: Battle, card_id: object, target_id: object = None) -> CheckedPlay:
    """Validate a play without changing anything; raise a :class:`PlayError` if refused."""
    card = card_in_hand(battle, card_id)
    source = source_of(battle, card)
    mode = card.card.target
    if card.card.cost > battle.energy:
        raise NotEnoughEnergy(
            f"card {card.id!r} costs {card.card.cost}, only {battle.energy} energy left", "card"
        )
    unmet = unmet_condition(battle, card, source)
    if unmet is not None:
        raise NotPlayable(f"card {card.id!r} cannot be played now: {unmet}", "card")
    if not mode.requires_target:
        if target_id is not None:
            raise TargetNotAllowed(
                f"card {card.id!r} ({mode.value}) takes no submitted target, got {target_id!r}",
                "target",
            )
        return CheckedPlay(card, source, None)
    if target_id is None:
        raise TargetRequired(f"card {card.id!r} ({mode.value}) needs a target", "target")
    target = battle.unit(target_id) if isinstance(target_id, str) else None
    if target is None:
        raise UnknownUnit(f"no unit {target_id!r} in this battle", "target")
    if not is_valid_target(battle, source, mode, target):
        valid = ", ".join(u.id for u in candidates(battle, source, mode)) or "none"
        raise NotACandidate(
            f"{target_id!r} is not a valid target for {card.id!r} ({mode.value}); "
            f"candidates: {valid}",
            "target",
        )
    return CheckedPlay(card, source, target)


def resolve_play(battle: Battle, checked: CheckedPlay) -> list[Event]:
    """Pay, choose a random target if the mode says so, run the Behavior, settle the card."""
    card, source = checked.card, checked.source
    definition = card.card
    ctx = Context(battle=battle, host=source, target=checked.target, this_card=card.id)
    battle.piles[Pile.HAND].remove(card.id)
    battle.resolving.append(card.id)
    energy_before = battle.energy
    battle.energy -= definition.cost
    ctx.emit(
        "card_played",
        card=card.id,
        name=definition.name,
        source=source.id,
        mode=definition.target.value,
        target=None if checked.target is None else checked.target.id,
        energy_before=energy_before,
        energy_after=battle.energy,
    )
    if definition.target.is_random:
        pool = candidates(battle, source, definition.target)
        chosen = battle.rng.choice(pool) if pool else None
        ctx.target = chosen
        ctx.emit(
            "random_target",
            card=card.id,
            mode=definition.target.value,
            unit=None if chosen is None else chosen.id,
        )
    run(definition.behavior, ctx)
    if card.id in battle.resolving:
        battle.resolving.remove(card.id)
        rest = Pile.EXHAUST if "Exhaust" in definition.keywords else Pile.DISCARD
        battle.piles[rest].insert(0, card.id)
        ctx.emit("card_moved", node=None, card=card.id, **{"from": RESOLVING, "to": rest.value})
    ctx.emit("card_resolved", card=card.id)
    settle(ctx)
    return ctx.events


def play(battle: Battle, card_id: object, target_id: object = None) -> list[Event]:
    """The checked play: refuse bad input before changing anything, then resolve."""
    return resolve_play(battle, check_play(battle, card_id, target_id))


def preview(battle: Battle, card_id: object, target_id: object = None) -> list[Event]:
    """The events a play would produce, computed on a copy: the battle is not changed."""
    checked = check_play(battle, card_id, target_id)
    copy = battle.clone()
    target = None if checked.target is None else copy.unit(checked.target.id)
    return resolve_play(
        copy, CheckedPlay(checked.card, copy.unit(checked.source.id) or checked.source, target)
    )
