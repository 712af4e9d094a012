"""Activation, the Cut and resolution.

A card (or an enemy's response move) is *activated*: its cost is paid, it leaves the hand
for the Cut, and its targets are chosen and locked. Between activation and resolution the
other side may respond; entries resolve last in, first out. At resolution the locked targets
are checked again with the same legality function: a target that left the field or stopped
being legal is *lost*. Under the ``strict`` profile (or a card's ``on_lost_target: "fail"``)
a lost target makes the whole effect fail; under ``soft`` it is skipped. "All ~" effects are
exempt: they collect their targets again whenever the Cut changes and when they resolve.

:func:`play` is activation and immediate resolution on an empty Cut.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from .context import Context, Event, HostKind
from .errors import BattleOver, CutError, UnknownUnit
from .model import RESOLVING, Battle, CardDef, CutEntry, MoveDef, Pile, Rules, Team, Unit
from .modes import TargetMode, affected_range, candidates, is_protected, is_valid_target
from .outcome import settle
from .play import CheckedPlay, card_targets_exist, check_play, chosen_units
from .resolve import run

Choices = Mapping[str, object]
_ALL_MODES = (TargetMode.ALL_ENEMIES, TargetMode.ALL_ALLIES)


# -- activation ----------------------------------------------------------------------------
def _entry_id(battle: Battle) -> str:
    entry_id = f"e{battle.next_entry}"
    battle.next_entry += 1
    return entry_id


def _collect(battle: Battle, entry: CutEntry) -> tuple[str, ...]:
    """The current range of an "all ~" entry (units of its mode, on the field, targetable)."""
    source = battle.unit(entry.source)
    mode = _mode_of(battle, entry)
    if source is None or mode not in _ALL_MODES:
        return ()
    return tuple(u.id for u in affected_range(battle, source, mode, _card_of(battle, entry)))


def _mode_of(battle: Battle, entry: CutEntry) -> TargetMode:
    if entry.card is not None:
        return battle.cards[entry.card].card.target
    return battle.moves[entry.move or ""].target


def _card_of(battle: Battle, entry: CutEntry) -> CardDef | None:
    return None if entry.card is None else battle.cards[entry.card].card


def _push(battle: Battle, entry: CutEntry, ctx: Context) -> None:
    battle.cut.append(entry)
    # "All ~" effects choose again whenever the Cut changes.
    for i, waiting in enumerate(battle.cut):
        if _mode_of(battle, waiting) in _ALL_MODES:
            collected = _collect(battle, waiting)
            battle.cut[i] = replace(waiting, collected=collected)
            if waiting is not entry:
                ctx.emit("recollected", entry=waiting.id, units=list(collected))


def activate_checked(battle: Battle, checked: CheckedPlay, ctx: Context) -> CutEntry:
    """Pay, move the card onto the Cut, choose random targets, lock the targets."""
    card, source = checked.card, checked.source
    definition = card.card
    battle.piles[Pile.HAND].remove(card.id)
    battle.resolving.append(card.id)
    energy_before = battle.energy
    battle.energy -= definition.cost
    chosen = list(checked.targets)
    ctx.emit("card_played", card=card.id, name=definition.name, source=source.id,
             mode=definition.target.value, target=chosen[0].id if chosen else None,
             energy_before=energy_before, energy_after=battle.energy)  # fmt: skip
    if len(chosen) > 1:
        ctx.emit("targets_chosen", card=card.id, units=[u.id for u in chosen])
    if definition.target.is_random and not definition.choose_on_resolve:
        pool = candidates(battle, source, definition.target, definition)
        pick = battle.rng.sample(pool, definition.target_count) if pool else []
        chosen = pick
        ctx.emit("random_target", card=card.id, mode=definition.target.value,
                 unit=pick[0].id if pick else None)  # fmt: skip
    entry = CutEntry(_entry_id(battle), source.team, source.id, card=card.id,
                     targets=tuple(u.id for u in chosen))  # fmt: skip
    _push(battle, entry, ctx)
    return battle.cut[-1]


def activate(battle: Battle, card_id: object, target: object = None) -> list[Event]:
    """Activate a card from the hand: on an empty Cut it starts a chain; on a Cut whose top
    entry is the enemy's it is a response."""
    if battle.cut and battle.cut[-1].side is Team.PLAYER:
        raise CutError("the top of the Cut is yours: pass to let the other side respond or "
                       "let it resolve", "card")  # fmt: skip
    checked = check_play(battle, card_id, target)
    ctx = Context(battle=battle, host=checked.source, this_card=checked.card.id)
    entry = activate_checked(battle, checked, ctx)
    ctx.emit(
        "activated",
        entry=entry.id,
        card=checked.card.id,
        targets=list(entry.targets),
        collected=list(battle.cut[-1].collected),
        responding=len(battle.cut) > 1,
    )
    return ctx.events


def respond_move(battle: Battle, unit_id: object, move_id: object,
                 target: object = None) -> list[Event]:  # fmt: skip
    """An enemy responds on the Cut with one of its ``response`` moves."""
    _not_over(battle)
    if not battle.cut:
        raise CutError("there is nothing on the Cut to respond to", "unit")
    unit = battle.unit(unit_id) if isinstance(unit_id, str) else None
    if unit is None or unit.team is not Team.ENEMY or not unit.in_play:
        raise UnknownUnit(f"no enemy {unit_id!r} on the field", "unit")
    if battle.cut[-1].side is Team.ENEMY:
        raise CutError("the top of the Cut is already the enemy's", "unit")
    if not isinstance(move_id, str) or move_id not in unit.moves \
            or not battle.moves[move_id].response:  # fmt: skip
        raise CutError(f"{unit_id!r} has no response move {move_id!r}", "move")
    move = battle.moves[move_id]
    chosen: tuple[Unit, ...] = ()
    if move.target.requires_target:
        chosen = _move_targets(battle, unit, move, target)
    elif target is not None:
        raise CutError(f"move {move_id!r} ({move.target.value}) takes no target", "target")
    ctx = Context(battle=battle, host=unit, kind=HostKind.MOVE)
    if move.target.is_random:
        pool = candidates(battle, unit, move.target)
        chosen = (battle.rng.choice(pool),) if pool else ()
    entry = CutEntry(_entry_id(battle), Team.ENEMY, unit.id, move=move.id,
                     targets=tuple(u.id for u in chosen))  # fmt: skip
    _push(battle, entry, ctx)
    ctx.emit("enemy_responds", entry=entry.id, unit=unit.id, move=move.id, name=move.name,
             target=chosen[0].id if chosen else None)  # fmt: skip
    return ctx.events


def _move_targets(battle: Battle, unit: Unit, move: MoveDef, target: object) -> tuple[Unit, ...]:
    chosen = battle.unit(target) if isinstance(target, str) else None
    if chosen is None or not is_valid_target(battle, unit, move.target, chosen):
        valid = ", ".join(u.id for u in candidates(battle, unit, move.target)) or "none"
        raise CutError(f"{target!r} is not a valid target for {move.id!r}; candidates: {valid}",
                       "target")  # fmt: skip
    return (chosen,)


def enemy_responses(battle: Battle) -> list[Event]:
    """The enemies' chance to answer the player's top entry (once per entry): the first living
    enemy with a usable response move responds, aiming with the same legality function."""
    if not battle.cut or battle.cut[-1].side is not Team.PLAYER or battle.cut[-1].answered:
        return []
    battle.cut[-1] = replace(battle.cut[-1], answered=True)
    for enemy in battle.living(Team.ENEMY):
        for move_id in enemy.moves:
            move = battle.moves[move_id]
            if not move.response:
                continue
            pool = candidates(battle, enemy, move.target) if move.target.requires_target else []
            if move.target.requires_target and not pool:
                continue
            target = battle.rng.choice(pool).id if pool else None
            return respond_move(battle, enemy.id, move.id, target)
    return []


# -- resolution ----------------------------------------------------------------------------
def loss_reason(battle: Battle, source: Unit, mode: TargetMode, unit: Unit,
                card: CardDef | None) -> str | None:  # fmt: skip
    """Why a chosen target is lost at resolution, or None if it is still a legal target."""
    if battle.unit(unit.id) is not unit:
        return "missing"
    if not unit.alive:
        return "dead"
    if not unit.in_play:
        return "left_field"
    single = card.single_target if card is not None else mode.requires_target
    if is_protected(battle, unit, single):
        return "protected"
    if not is_valid_target(battle, source, mode, unit, card):
        return "no_longer_legal"
    return None


def _policy(battle: Battle, card: CardDef | None) -> str:
    if card is not None and card.on_lost_target is not None:
        return card.on_lost_target
    return "fail" if battle.rules is Rules.STRICT else "skip"


def resolve_entry(battle: Battle, entry: CutEntry, choices: Choices | None = None,
                  announce: bool = True) -> list[Event]:  # fmt: skip
    """Take ``entry`` off the Cut and resolve it (``announce``: say so with a ``resolving``
    event, as Cut resolution does; an immediate play does not)."""
    entry = next(e for e in battle.cut if e.id == entry.id)  # the current (re-collected) copy
    source = battle.unit(entry.source)
    assert source is not None
    card = _card_of(battle, entry)
    mode = _mode_of(battle, entry)
    kind = HostKind.CARD if entry.card is not None else HostKind.MOVE
    ctx = Context(battle=battle, host=source, this_card=entry.card, kind=kind)
    chosen = [battle.unit(t) for t in entry.targets]
    units = [u for u in chosen if u is not None]
    if card is not None and card.choose_on_resolve:
        submitted = _as_list((choices or {}).get(entry.id))
        units = list(chosen_units(battle, battle.cards[entry.card or ""], source, submitted,
                                  f"choices.{entry.id}"))  # fmt: skip
        ctx.emit("targets_chosen", card=entry.card, units=[u.id for u in units])
    battle.cut.remove(entry)
    if announce:
        name = card.name if card is not None else battle.moves[entry.move or ""].name
        ctx.emit("resolving", entry=entry.id, card=entry.card, move=entry.move, name=name)
    failure = _failure(battle, ctx, entry, source, mode, card, units, announce)
    if failure is None and entry.move is not None and not source.in_play:
        failure = {"reason": "source_gone"}  # a fallen enemy's move fizzles; a card does not
    if failure is None:
        lost = {u.id for u in units if loss_reason(battle, source, mode, u, card)}
        ctx.targets = tuple(u for u in units if u.id not in lost)
        behavior = card.behavior if card is not None else battle.moves[entry.move or ""].behavior
        run(behavior, ctx)
    else:
        ctx.emit("effect_failed", entry=entry.id, card=entry.card, move=entry.move, **failure)
    if entry.card is not None:
        _settle_card(battle, ctx, entry.card)
    settle(ctx)
    return ctx.events


def _failure(battle: Battle, ctx: Context, entry: CutEntry, source: Unit, mode: TargetMode,
             card: CardDef | None, units: list[Unit], announce: bool
             ) -> dict[str, object] | None:  # fmt: skip
    """Check the locked targets; report lost ones; say why the effect fails, if it does."""
    strict = _policy(battle, card) == "fail"
    if mode in _ALL_MODES:
        collected = _collect(battle, entry)
        if announce:
            ctx.emit("recollected", entry=entry.id, units=list(collected))
        if strict and not collected:
            return {"reason": "no_targets"}
        return None
    if card is not None and card.card_targets is not None and strict \
            and not card_targets_exist(battle, card, entry.card):  # fmt: skip
        return {"reason": "no_targets"}
    lost = []
    for unit in units:
        why = loss_reason(battle, source, mode, unit, card)
        if why is not None:
            lost.append({"unit": unit.id, "reason": why})
            ctx.emit("target_lost", entry=entry.id, unit=unit.id, reason=why)
    if strict and lost:
        return {"reason": "lost_target", "lost": lost}
    if strict and (mode.requires_target or mode.is_random) and not units:
        return {"reason": "no_targets"}
    return None


def _settle_card(battle: Battle, ctx: Context, card_id: str) -> None:
    if card_id in battle.resolving:
        battle.resolving.remove(card_id)
        rest = Pile.EXHAUST if "Exhaust" in battle.cards[card_id].card.keywords else Pile.DISCARD
        battle.piles[rest].insert(0, card_id)
        ctx.emit("card_moved", node=None, card=card_id, **{"from": RESOLVING, "to": rest.value})
    ctx.emit("card_resolved", card=card_id)


def _not_over(battle: Battle) -> None:
    if battle.result is not None:
        raise BattleOver(f"the battle is over ({battle.result})", "")


def resolve_top(battle: Battle, choices: Choices | None = None) -> list[Event]:
    _not_over(battle)
    if not battle.cut:
        raise CutError("the Cut is empty", "")
    return resolve_entry(battle, battle.cut[-1], choices)


def resolve_all(battle: Battle, choices: Choices | None = None) -> list[Event]:
    """Resolve the whole Cut, last in first out."""
    events: list[Event] = []
    while battle.cut and battle.result is None:
        events += resolve_top(battle, choices)
    return events


def pass_priority(battle: Battle, choices: Choices | None = None) -> list[Event]:
    """The player passes: the enemies may answer the top entry; if none does, it resolves."""
    _not_over(battle)
    if not battle.cut:
        raise CutError("the Cut is empty: nothing to pass on", "")
    responses = enemy_responses(battle)
    return responses or resolve_top(battle, choices)


# -- plays -----------------------------------------------------------------------------------
def play(battle: Battle, card_id: object, target: object = None) -> list[Event]:
    """Activate a card and resolve it at once. Refused while the Cut holds effects.

    For a card that chooses on resolution, ``target`` is that choice; it is checked before
    anything changes, like every other input."""
    if battle.cut:
        raise CutError("effects are waiting on the Cut: respond with activate, or pass", "card")
    late = isinstance(card_id, str) and card_id in battle.cards \
        and battle.cards[card_id].card.choose_on_resolve  # fmt: skip
    checked = check_play(battle, card_id, None if late else target)
    if late:
        chosen_units(battle, checked.card, checked.source, _as_list(target), "target")
    ctx = Context(battle=battle, host=checked.source, this_card=checked.card.id)
    entry = activate_checked(battle, checked, ctx)
    choices = {entry.id: target} if late else None
    return ctx.events + resolve_entry(battle, entry, choices, announce=False)


def _as_list(target: object) -> list[object]:
    if target is None:
        return []
    return list(target) if isinstance(target, list | tuple) else [target]


def preview(battle: Battle, card_id: object, target: object = None) -> list[Event]:
    """The events a play would produce, computed on a copy: the battle is not changed."""
    check_play(battle, card_id, target)
    copy = battle.clone()
    return play(copy, card_id, target)
