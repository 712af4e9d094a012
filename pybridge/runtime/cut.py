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

from collections.abc import Mapping, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import replace
from typing import Final

from .choices import DEFAULT_ANSWERS
from .context import Context, Event, HostKind
from .errors import (
    BattleOver,
    CutError,
    LimitReached,
    NotPlayable,
    PlayError,
    TargetingError,
    TargetNotAllowed,
    UnknownUnit,
    quote,
    request_value,
)
from .hiding import moved, turn
from .keywords import EXHAUST
from .model import (
    MAX_CUT,
    RESOLVING,
    ZONE_NAMES,
    Battle,
    CardDef,
    CardInstance,
    CutEntry,
    MoveDef,
    Pile,
    Rules,
    Team,
    Unit,
)
from .modes import TargetMode, affected_range, candidates, is_protected, is_valid_target
from .outcome import settle
from .play import (
    CheckedPlay,
    card_targets_exist,
    check_parts,
    check_play,
    chosen_cards,
    chosen_units,
    not_a_candidate,
    nothing_to_choose,
    submitted_units,
    unit_law_refusal,
)
from .reader import MAX_INT
from .resolve import run
from .sentences import refused, said
from .vocabulary import count_events

Choices = Mapping[str, object]
# Enum members bound once: reading an attribute of an Enum class is slow on CPython 3.11.
_HAND: Final = Pile.HAND
_DISCARD: Final = Pile.DISCARD
_EXHAUST: Final = Pile.EXHAUST
_PLAYER: Final = Team.PLAYER
_ENEMY: Final = Team.ENEMY
_STRICT: Final = Rules.STRICT
_CARD: Final = HostKind.CARD
_MOVE: Final = HostKind.MOVE


class _Immediate:
    """The entry of an immediate play: what resolution reads of a :class:`CutEntry`. It never
    goes on the Cut, so it need not be a (frozen, and so slower to build) CutEntry."""

    __slots__ = ("card", "id", "move", "source", "targets")

    def __init__(self, entry_id: str, source: str, card: str, targets: tuple[str, ...]) -> None:
        self.id, self.source, self.card, self.targets = entry_id, source, card, targets
        self.move: str | None = None


Entry = CutEntry | _Immediate
_NOTHING_LOST: Final[frozenset[str]] = frozenset()


# -- activation ----------------------------------------------------------------------------
def _entry_id(battle: Battle) -> str:
    if battle.next_entry >= MAX_INT:  # one more and the saved battle would not load
        raise LimitReached(f"every Cut entry id up to e{MAX_INT} is used: this battle takes "
                           "no more plays", "")  # fmt: skip
    entry_id = f"e{battle.next_entry}"
    battle.next_entry += 1
    return entry_id


def _cut_full(battle: Battle, where: str) -> CutError:
    """The refusal of a new entry on a full Cut (a Cut of more entries would not load)."""
    return refused(CutError, battle, said("cut.full", entries=MAX_CUT), where)


def _make_room(battle: Battle, where: str) -> None:
    """Refuse a new entry on a full Cut."""
    if len(battle.cut) >= MAX_CUT:
        raise _cut_full(battle, where)


def _collect(battle: Battle, entry: Entry) -> tuple[str, ...]:
    """The current range of an "all ~" entry (units of its mode, on the field, targetable)."""
    source = battle.unit(entry.source)
    mode = _mode_of(battle, entry)
    if source is None or not mode.is_area:
        return ()
    return tuple(u.id for u in affected_range(battle, source, mode, _card_of(battle, entry)))


def _mode_of(battle: Battle, entry: Entry) -> TargetMode:
    if entry.card is not None:
        return battle.cards[entry.card].card.target
    return battle.moves[entry.move or ""].target


def _card_of(battle: Battle, entry: Entry) -> CardDef | None:
    return None if entry.card is None else battle.cards[entry.card].card


def _push(battle: Battle, entry: CutEntry, ctx: Context) -> None:
    battle.cut.append(entry)
    # "All ~" effects choose again whenever the Cut changes.
    for i, waiting in enumerate(battle.cut):
        if _mode_of(battle, waiting).is_area:
            collected = _collect(battle, waiting)
            battle.cut[i] = _recollected(waiting, collected)
            if waiting is not entry:
                ctx.emit("recollected", entry=waiting.id, units=list(collected))


def _recollected(entry: CutEntry, collected: tuple[str, ...]) -> CutEntry:
    """``replace(entry, collected=collected)``, spelled out (a test checks every field)."""
    return CutEntry(entry.id, entry.side, entry.source, entry.card, entry.move, entry.targets,
                    collected, entry.answered)  # fmt: skip


def activate_checked(battle: Battle, checked: CheckedPlay, ctx: Context) -> CutEntry:
    """Pay, move the card onto the Cut, choose random targets, lock the targets."""
    card, source = checked.card, checked.source
    number, chosen = _activation(battle, card, source, checked.targets, ctx)
    targets = tuple([u.id for u in chosen])
    _push(battle, CutEntry(f"e{number}", source.team, source.id, card.id, None, targets), ctx)
    return battle.cut[-1]


def _activation(battle: Battle, card: CardInstance, source: Unit, targets: tuple[Unit, ...],
                ctx: Context) -> tuple[int, Sequence[Unit]]:  # fmt: skip
    """Pay, take the card out of the hand, choose random targets: the new entry's number
    (its id is ``e<number>``) and the units it locks."""
    definition = card.card
    number = battle.next_entry  # _entry_id(), inline; first: it may refuse
    if number >= MAX_INT:
        _entry_id(battle)  # raises
    battle.next_entry = number + 1
    side = battle.sides[card.side]  # the card's own side pays
    side.piles[_HAND].remove(card.id)
    energy_before = side.energy
    side.energy = energy_after = energy_before - definition.cost
    battle.resolving.append(card.id)
    was_face_down = turn(battle, card.id, False)  # a played card is revealed
    if battle.secret is not None:  # a battle that gives views: the card is seen by all now
        moved(battle, card.id, _HAND, RESOLVING, len(ctx.events), was_face_down)
    chosen: Sequence[Unit] = targets
    mode = str(definition.target)  # a StrEnum's str() is its value
    ctx.events.append({"type": "card_played", "card": card.id, "name": definition.name,
                       "source": source.id, "mode": mode,
                       "target": chosen[0].id if chosen else None,
                       "energy_before": energy_before, "energy_after": energy_after})  # fmt: skip
    if len(chosen) > 1:
        ctx.emit("targets_chosen", card=card.id, units=[u.id for u in chosen])
    if definition._random and not definition.choose_on_resolve:
        pool = candidates(battle, source, definition.target, definition)
        pick = battle.rng.sample(pool, definition.target_count) if pool else []
        chosen = pick
        ctx.events.append({"type": "random_target", "card": card.id, "mode": mode,
                           "unit": pick[0].id if pick else None})  # fmt: skip
    return number, chosen


def activation_refused(battle: Battle, side: Team = _PLAYER) -> PlayError | None:
    """Why ``activate`` is refused now to ``side``, whatever the card: the battle is over, its
    own entry is on top of the Cut (pass first), it is the other side's turn (a two-sided
    battle), or the Cut is full. None when a card may be activated: on an empty Cut (a new
    chain) or on the other side's entry (a response)."""
    if battle.result is not None:
        return battle_over(battle)
    if battle.cut and battle.cut[-1].side is side:
        return refused(CutError, battle, said("cut.yours"), "card")
    if battle.two_sided and battle.cut and battle.cut[-1].answered:
        return owner_chooses_refusal(battle, "card")
    if battle.two_sided and not battle.cut and side is not battle.turn_side:
        turn = said("refusal.not_your_turn", side=said(f"side.{battle.turn_side.value}"))
        return refused(CutError, battle, turn, "card")
    if len(battle.cut) >= MAX_CUT:
        return _cut_full(battle, "card")
    return None


def battle_over(battle: Battle) -> BattleOver:
    """The refusal of any move once the battle has ended."""
    if battle.result in ("victory", "defeat"):
        return refused(BattleOver, battle, said(f"cut.over.{battle.result}"), "")
    return BattleOver(f"the battle is over ({battle.result})", "")


def pass_refused(battle: Battle, side: Team | None = None) -> PlayError | None:
    """Why ``pass`` (and ``resolve``) is refused now: the battle is over, nothing waits on
    the Cut, or ``side`` (when a request names who passes) does not hold priority. None when
    the player (in a two-sided battle, the side holding priority) may pass."""
    if battle.result is not None:
        return BattleOver(f"the battle is over ({battle.result})", "")
    if not battle.cut:
        return CutError("the Cut is empty: nothing to pass on", "")
    top = battle.cut[-1]
    if battle.two_sided and top.answered:  # both sides passed: it waits for its owner's choice
        return side_refused(battle, side, top.side, owner_chooses_refusal(battle, "side").message)
    holder = top.side.opposite
    return side_refused(battle, side, holder, f"the {holder.value} side holds priority on the Cut")


def owner_chooses_refusal(battle: Battle, where: str) -> CutError:
    """The refusal of the other side's move while the top entry of a two-sided battle's Cut
    waits for its owner's choice (both sides passed on it: it resolves as its owner chooses)."""
    top = battle.cut[-1]
    sentence = said("cut.owner_chooses", entry=top.id, side=said(f"side.{top.side.value}"))
    return refused(CutError, battle, sentence, where)


def choice_owner(battle: Battle, key: str) -> Team | None:
    """The side whose choice a ``choices`` key of a Cut entry answers (None: no entry has
    that id): a status's (``<entry>.<unit>.<status>.<node>``) is its unit's side, every other
    (the entry's late choice, a node of its own Behavior) the entry's side. Only that side
    answers it; a side of moves never answers (its choices take their defaults)."""
    entry_id, _, rest = key.partition(".")
    entry = next((e for e in battle.cut if e.id == entry_id), None)
    if entry is None:
        return None
    unit_id, _, status = rest.partition(".")
    unit = battle.unit(unit_id) if status else None
    return unit.team if unit is not None else entry.side


def side_refused(battle: Battle, side: Team | None, acting: Team,
                 why: str) -> PlayError | None:  # fmt: skip
    """Why ``side`` (named by a request; None: whoever acts) may not act when only ``acting``
    may (``why``: "the enemy side holds priority on the Cut")."""
    if side is None:
        return None
    if not battle.plays_cards(side):
        return CutError(f"the {side.value} team plays no cards in this battle: its units "
                        "answer by themselves", "side")  # fmt: skip
    if battle.two_sided and side is not acting:
        return CutError(why, "side")
    return None


def activate(battle: Battle, card_id: object, target: object = None,
             side: Team | None = None) -> list[Event]:  # fmt: skip
    """Activate a card from the hand: on an empty Cut it starts a chain; on a Cut whose top
    entry is the other side's it is a response. ``side``: who the request says activates (the
    card must be that side's)."""
    if side is not None:
        check_side(battle, card_id, side)
    side = _side_of(battle, card_id)
    refused = activation_refused(battle, side)
    if refused is not None:
        if battle.two_sided and isinstance(card_id, str) and refused.where == "card":
            refused = CutError(f"card {card_id!r} cannot be activated: {refused.message}", "card")
        raise refused
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
    _count(battle, ctx.events)
    return ctx.told()


def check_side(battle: Battle, card_id: object, side: Team | None) -> None:
    """Refuse a play or an activation a request makes for ``side`` of a card that belongs to
    the other side (None: no side named)."""
    if side is None:
        return
    refused = side_refused(battle, side, side, "")  # only: does that side play cards?
    if refused is not None:
        raise refused
    held = _side_of(battle, card_id)
    if held is not side and isinstance(card_id, str) and card_id in battle.cards:
        raise NotPlayable(f"card {card_id!r} belongs to the {held.value} side, not the "
                          f"{side.value} side", "card")  # fmt: skip


def _side_of(battle: Battle, card_id: object) -> Team:
    """The side a card belongs to (the player's for a card the battle does not hold, which
    the play check then refuses by name)."""
    card = battle.cards.get(card_id) if isinstance(card_id, str) else None
    return _PLAYER if card is None else card.side


def _count(battle: Battle, events: list[Event]) -> None:
    """A step that settles nothing (an activation, a response) still counts for the battle's
    counting counters."""
    if battle.words is not None and battle.words.counting:
        count_events(battle, events, 0)


def respond_move(battle: Battle, unit_id: object, move_id: object,
                 target: object = None) -> list[Event]:  # fmt: skip
    """An enemy responds on the Cut with one of its ``response`` moves."""
    _not_over(battle)
    if battle.two_sided:
        raise CutError("in a two-sided battle both sides respond with cards (activate); no "
                       "unit has moves", "unit")  # fmt: skip
    if not battle.cut:
        raise CutError("there is nothing on the Cut to respond to", "unit")
    unit = battle.unit(unit_id) if isinstance(unit_id, str) else None
    if unit is None or unit.team is not _ENEMY or not unit.in_play:
        raise UnknownUnit(f"no enemy {request_value(unit_id)} on the field", "unit")
    if battle.cut[-1].side is _ENEMY:
        raise CutError("the top of the Cut is already the enemy's", "unit")
    if not isinstance(move_id, str) or move_id not in unit.moves \
            or not battle.moves[move_id].response:  # fmt: skip
        raise CutError(
            f"{request_value(unit_id)} has no response move {request_value(move_id)}", "move"
        )
    move = battle.moves[move_id]
    chosen: tuple[Unit, ...] = ()
    if move.target.requires_target:
        chosen = _move_targets(battle, unit, move, target)
    elif target is not None:
        raise CutError(
            f"move {request_value(move_id)} ({move.target.value}) takes no target", "target"
        )
    refusal = unit_law_refusal(battle, unit, move.target) if battle.rules is _STRICT else None
    if refusal is not None:  # one law for everyone: as a card, a move needs a legal target
        raise CutError(f"move {move_id!r} cannot be declared: {refusal.text}", "move")
    _make_room(battle, "unit")
    ctx = Context(battle=battle, host=unit, kind=_MOVE)
    if move.target.is_random:
        pool = candidates(battle, unit, move.target)
        chosen = (battle.rng.choice(pool),) if pool else ()
    entry = CutEntry(_entry_id(battle), _ENEMY, unit.id, move=move.id,
                     targets=tuple(u.id for u in chosen))  # fmt: skip
    _push(battle, entry, ctx)
    ctx.emit("enemy_responds", entry=entry.id, unit=unit.id, move=move.id, name=move.name,
             target=chosen[0].id if chosen else None)  # fmt: skip
    _count(battle, ctx.events)
    return ctx.told()


def _move_targets(battle: Battle, unit: Unit, move: MoveDef, target: object) -> tuple[Unit, ...]:
    chosen = battle.unit(target) if isinstance(target, str) else None
    if chosen is None:
        valid = ", ".join(u.id for u in candidates(battle, unit, move.target)) or "none"
        raise CutError(f"{request_value(target)} is not a valid target for {move.id!r}; "
                       f"candidates: {valid}",
                       "target")  # fmt: skip
    if not is_valid_target(battle, unit, move.target, chosen):
        refused = not_a_candidate(battle, unit, move.target, chosen, None, move.id, "target")
        raise CutError(refused.message, "target")
    return (chosen,)


def enemy_responses(battle: Battle) -> list[Event]:
    """The enemies' chance to answer the player's top entry (once per entry): the first living
    enemy with a usable response move responds, aiming with the same legality function. A
    response that would come to nothing (:func:`comes_to_nothing`) is not made."""
    if not battle.cut or battle.cut[-1].side is not _PLAYER or battle.cut[-1].answered:
        return []
    battle.cut[-1] = replace(battle.cut[-1], answered=True)
    if len(battle.cut) >= MAX_CUT:
        return []  # no room for an answer: the entry resolves
    strict = battle.rules is _STRICT
    work = [0]  # one request's budget for judging every response, whatever the Cut holds
    for enemy in battle.living(_ENEMY):
        for move_id in enemy.moves:
            move = battle.moves[move_id]
            if not move.response:
                continue
            pool = candidates(battle, enemy, move.target) if move.target.requires_target else []
            if move.target.requires_target and not pool:
                continue
            if strict and unit_law_refusal(battle, enemy, move.target) is not None:
                continue
            rng = battle.rng
            state, inc = rng.state, rng.inc
            target = rng.choice(pool).id if pool else None
            if comes_to_nothing(battle, enemy.id, move.id, target, work):
                rng.state, rng.inc = state, inc  # a response not made leaves no trace
                continue
            return respond_move(battle, enemy.id, move.id, target)
    return []


def comes_to_nothing(battle: Battle, unit_id: str, move_id: str, target: str | None,
                     work: list[int] | None = None) -> bool:  # fmt: skip
    """Is a response certain to come to nothing: does the Cut, resolved as it stands, end
    the same with it on top as without it? Its effects all fizzle, or only take the place of
    what an entry already waiting would do (a second flare calling the unit the first one
    calls, which then fails with its user down). Judged by the runtime's own activation and
    resolution, on copies, within ``work`` (a request's budget; a fresh one when None); a Cut
    that asks a choice as it resolves, or one past the budget, is not judged (False)."""
    without, answered = battle.clone(), battle.clone()
    without.answers = answered.answers = DEFAULT_ANSWERS  # as a preview answers an action
    budget = [0] if work is None else work
    try:
        respond_move(answered, unit_id, move_id, target)
        for copy in (without, answered):
            while copy.cut and copy.result is None:
                resolve_top(copy, work=budget)
    except TargetingError:  # a choice to make, the budget spent, an extension's fault
        return False
    return _board(without) == _board(answered)


def _board(battle: Battle) -> tuple[object, ...]:
    """What an effect can change, to compare two ends of a Cut (the PRNG and entry ids
    aside: they differ by the response itself, not by what it did)."""
    piles = {pile: list(ids) for pile, ids in battle.piles.items()}
    return (battle.units, piles, battle.energy, battle.result, battle.counters, battle.turn)


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
    single = card.single_target if card is not None else True  # a move chooses one unit
    if unit.statuses and is_protected(battle, unit, single):  # no statuses, no protection
        return "protected"
    if not is_valid_target(battle, source, mode, unit, card):
        return "no_longer_legal"
    return None


def resolve_entry(battle: Battle, entry: CutEntry, choices: Choices | None = None,
                  announce: bool = True, work: list[int] | None = None) -> list[Event]:  # fmt: skip
    """Take ``entry`` off the Cut and resolve it (``announce``: say so with a ``resolving``
    event, as Cut resolution does; an immediate play does not). ``work``: the request's
    evaluation counter, shared by every entry the request resolves."""
    cut = battle.cut
    if not (cut and cut[-1].id == entry.id):  # the top entry is already the current one
        entry = next(e for e in cut if e.id == entry.id)  # the current (re-collected) copy
    source = battle.unit(entry.source)
    assert source is not None
    kind = _CARD if entry.card is not None else _MOVE
    ctx = Context(battle=battle, host=source, this_card=entry.card, kind=kind)
    ctx.entry = entry.id
    if work is not None:
        ctx.work = work
    index = battle._index  # what Battle.unit() reads
    units = [unit for unit in map(index.get, entry.targets) if unit is not None]
    return _resolve(battle, entry, source, units, ctx, choices, announce, fresh=False)


def _resolve(battle: Battle, entry: Entry, source: Unit, units: Sequence[Unit], ctx: Context,
             choices: Choices | None, announce: bool, fresh: bool) -> list[Event]:  # fmt: skip
    """Resolve ``entry`` (taking it off the Cut if it is there), whose locked targets are
    ``units``; its events are added to ``ctx``'s, whose Host is the entry's source.
    ``fresh``: the targets passed the legality function since the battle last changed in any
    way that function reads, so none can be lost (an immediate play)."""
    card = None if entry.card is None else battle.cards[entry.card].card
    mode = card.target if card is not None else _mode_of(battle, entry)
    strict = _fails_on_loss(battle, card)
    failure: dict[str, object] | None = None
    lost: AbstractSet[str] | None = None
    late = card is not None and card.choose_on_resolve
    chosen_event: Event | None = None
    if late:  # chosen now, so nothing chosen can be lost; an empty choice may fail
        units, failure, chosen_event = _choose_late(battle, entry, source, ctx, choices, strict)
        fresh, lost = True, _NOTHING_LOST
    if isinstance(entry, CutEntry):
        battle.cut.remove(entry)
    if announce:
        name = card.name if card is not None else battle.moves[entry.move or ""].name
        ctx.emit("resolving", entry=entry.id, card=entry.card, move=entry.move, name=name)
    if chosen_event is not None:  # told after "resolving": the choice is made as it resolves
        ctx.events.append(chosen_event)
    if failure is not None:
        pass
    elif fresh and not strict:
        failure, lost = None, _NOTHING_LOST  # what _failure() finds: nothing lost, no failure
    else:
        failure, lost = _failure(battle, ctx, entry, source, mode, card, units, announce, fresh,
                                 strict)  # fmt: skip
    if failure is None and entry.move is not None and not source.in_play:
        failure = {"reason": "source_gone"}  # a fallen enemy's move fizzles; a card does not
    if failure is None:
        if lost is None:
            lost = {u.id for u in units if loss_reason(battle, source, mode, u, card)}
        ctx.targets = tuple(u for u in units if u.id not in lost) if lost else tuple(units)
        behavior = card.behavior if card is not None else battle.moves[entry.move or ""].behavior
        run(behavior, ctx)  # charges its cost to the request, both bounds
    else:
        ctx.emit("effect_failed", entry=entry.id, card=entry.card, move=entry.move, **failure)
    if entry.card is not None:
        _card_resolved(battle, entry.card, ctx)
    settle(ctx)
    return ctx.told()


def _card_resolved(battle: Battle, card_id: str, ctx: Context) -> None:
    """A resolved card goes to its pile (unless its Behavior already moved it)."""
    if card_id in battle.resolving:
        battle.resolving.remove(card_id)
        instance = battle.cards[card_id]
        rest = _EXHAUST if EXHAUST in instance.card.keywords else _DISCARD
        battle.sides[instance.side].piles[rest].insert(0, card_id)
        if battle.secret is not None:
            moved(battle, card_id, RESOLVING, rest, len(ctx.events))
        ctx.events.append({"type": "card_moved", "node": None, "card": card_id,
                           "from": RESOLVING, "to": ZONE_NAMES[rest]})  # fmt: skip
    ctx.events.append({"type": "card_resolved", "card": card_id})


def _fails_on_loss(battle: Battle, card: CardDef | None) -> bool:
    """Does a lost target (or no target) fail this effect? The card's ``on_lost_target``,
    else the rules profile (strict fails it)."""
    if card is not None and card.on_lost_target is not None:
        return card.on_lost_target == "fail"
    return battle.rules is _STRICT


def _choose_late(battle: Battle, entry: Entry, source: Unit, ctx: Context,
                 choices: Choices | None, strict: bool
                 ) -> tuple[list[Unit], dict[str, object] | None, Event | None]:  # fmt: skip
    """The choice of a card that chooses on resolve, checked now, before anything changes:
    the chosen units (cards go to ``ctx.chosen``), the failure when nothing can be chosen
    any more, and the event that tells the choice. Then, rather than wait for a choice that
    cannot be given, the effect fails (strict) or resolves with nothing chosen (soft)."""
    instance = battle.cards[entry.card or ""]
    definition = instance.card
    submitted = submitted_units((choices or {}).get(entry.id))
    where = f"choices.{entry.id}"
    impossible = not submitted and nothing_to_choose(battle, instance, source)
    if impossible and strict:
        return [], {"reason": "no_targets"}, None
    if definition.chooses_cards:
        ctx.chosen = () if impossible else chosen_cards(battle, instance, submitted, where)
        return [], None, {"type": "cards_chosen", "card": entry.card, "cards": list(ctx.chosen)}
    units = [] if impossible else list(chosen_units(battle, instance, source, submitted, where))
    return units, None, {"type": "targets_chosen", "card": entry.card,
                         "units": [u.id for u in units]}  # fmt: skip


def _failure(battle: Battle, ctx: Context, entry: Entry, source: Unit, mode: TargetMode,
             card: CardDef | None, units: Sequence[Unit], announce: bool, fresh: bool, strict: bool
             ) -> tuple[dict[str, object] | None, AbstractSet[str] | None]:  # fmt: skip
    """Check the locked targets; report lost ones; say why the effect fails, if it does
    (``strict``: a lost target fails the effect). Also returns the ids of the lost targets
    when it checked them (None when it did not)."""
    if mode.is_area:
        if not (strict or announce):
            return None, None  # nothing would read the collection
        collected = _collect(battle, entry)
        if announce:
            ctx.emit("recollected", entry=entry.id, units=list(collected))
        if strict and not collected:
            return {"reason": "no_targets"}, None
        return None, None
    if card is not None and card.card_targets is not None and strict \
            and not card_targets_exist(battle, card, entry.card):  # fmt: skip
        return {"reason": "no_targets"}, None
    lost = []
    for unit in () if fresh else units:
        why = loss_reason(battle, source, mode, unit, card)
        if why is not None:
            lost.append({"unit": unit.id, "reason": why})
            ctx.emit("target_lost", entry=entry.id, unit=unit.id, reason=why)
    if strict and lost:
        return {"reason": "lost_target", "lost": lost}, None
    if strict and mode.chooses_units and not units:
        return {"reason": "no_targets"}, None
    return None, {str(item["unit"]) for item in lost} if lost else _NOTHING_LOST


def _not_over(battle: Battle) -> None:
    if battle.result is not None:
        raise BattleOver(f"the battle is over ({battle.result})", "")


def resolve_top(battle: Battle, choices: Choices | None = None,
                work: list[int] | None = None) -> list[Event]:  # fmt: skip
    _not_over(battle)
    if not battle.cut:
        raise CutError("the Cut is empty", "")
    return resolve_entry(battle, battle.cut[-1], choices, work=work)


def check_choices(battle: Battle, choices: Choices | None, side: Team | None = None) -> None:
    """Every choice must answer an entry on the Cut that chooses on resolution: targets once
    locked "cannot be changed after [they have] been chosen". ``side``: who answers them
    (a two-sided battle's request that names who acts); each must be that side's choice."""
    for key in choices or {}:
        entry_id, _, node_id = str(key).partition(".")
        entry = next((e for e in battle.cut if e.id == entry_id), None)
        where = f"choices.{key}"
        if entry is None:
            raise CutError(f"no entry {quote(entry_id)} waits on the Cut", where)
        owner = choice_owner(battle, str(key))
        if side is not None and battle.two_sided and owner is not side and owner is not None:
            raise CutError(f"the choice {quote(key)} is the {owner.value} side's: only the "
                           f"{owner.value} side makes it, not the {side.value} side",
                           where)  # fmt: skip
        if node_id:  # the answer to a choice an action of the entry asks as it resolves
            if "." not in node_id:  # a node of the entry's own Behavior (else a status's)
                _check_asking_node(battle, entry, node_id, where)
            continue
        card = None if entry.card is None else battle.cards[entry.card].card
        if card is None or not card.choose_on_resolve:
            what = f"card {entry.card!r}" if entry.card is not None else f"move {entry.move!r}"
            raise TargetNotAllowed(f"entry {entry_id!r} ({what}) locked its targets when it was "
                                   "activated: they cannot be changed", where)  # fmt: skip


def _check_asking_node(battle: Battle, entry: CutEntry, node_id: str, where: str) -> None:
    if entry.card is not None:
        behavior = battle.cards[entry.card].card.behavior
    else:
        behavior = battle.moves[entry.move or ""].behavior
    node = behavior.nodes.get(node_id)
    if node is None or not node.type.asks:
        raise TargetNotAllowed(f"entry {entry.id!r} has no node {node_id!r} that asks a "
                               "choice", where)  # fmt: skip


def owner_chooses(battle: Battle, side: Team | None = None) -> list[Event]:
    """``side`` (None: whoever holds priority) passes on the other side's top entry, whose
    resolution asks its owner a choice: in a two-sided battle the owner makes it, so the entry
    waits for it (``answered``: both sides passed) and the owner's ``pass`` with its answer
    resolves it; the other side may neither answer nor respond meanwhile."""
    refused = pass_refused(battle, side)
    if refused is not None:
        raise refused
    top = battle.cut[-1]
    if not battle.two_sided or top.answered:
        raise CutError(f"entry {top.id!r} does not wait for the other side's choice", "side")
    battle.cut[-1] = replace(top, answered=True)
    return []


def resolve_all(battle: Battle, choices: Choices | None = None,
                side: Team | None = None) -> list[Event]:  # fmt: skip
    """Resolve the whole Cut, last in first out, within one work budget. ``side``: who
    asks (its ``choices`` must be its own)."""
    check_choices(battle, choices, side)
    events: list[Event] = []
    work = [0]
    while battle.cut and battle.result is None:
        events += resolve_top(battle, choices, work)
    return events


def pass_priority(battle: Battle, choices: Choices | None = None,
                  side: Team | None = None) -> list[Event]:  # fmt: skip
    """The player passes: the enemies may answer the top entry; if none does, it resolves.
    In a two-sided battle the side holding priority passes and the top entry resolves (the
    other side had its chance when the entry went on the Cut). A choice is used when its
    entry resolves in this request. ``side``: who the request says passes."""
    refused = pass_refused(battle, side)
    if refused is not None:
        raise refused
    if battle.two_sided:
        top = battle.cut[-1]
        passer = side or (top.side if top.answered else top.side.opposite)
        check_choices(battle, choices, passer)
        if passer is not top.side and _chooses_late(battle, top.card):
            return owner_chooses(battle, passer)  # the card's choice is its owner's to make
        return resolve_top(battle, choices)
    check_choices(battle, choices)
    responses = enemy_responses(battle)
    return responses or resolve_top(battle, choices)


# -- plays -----------------------------------------------------------------------------------
def play(battle: Battle, card_id: object, target: object = None, side: Team | None = None,
         *, events: list[Event] | None = None) -> list[Event]:  # fmt: skip
    """Activate a card and resolve it at once. Refused while the Cut holds effects (and so it
    gives the other side no chance to respond). ``side``: who the request says plays;
    ``events``: the list its events are appended to (a view's preview watches it grow).

    For a card that chooses on resolution, ``target`` is that choice; it is checked before
    anything changes, like every other input."""
    if battle.cut:
        raise CutError("effects are waiting on the Cut: respond with activate, or pass", "card")
    if side is not None:  # a request that names who plays: checked before anything else
        check_side(battle, card_id, side)
    late = _chooses_late(battle, card_id)
    card, source, chosen = check_parts(battle, card_id, None if late else target)
    if late:  # the choice it would make at resolution, checked before anything changes
        if card.card.chooses_cards:
            chosen_cards(battle, card, submitted_units(target), "target")
        else:
            chosen_units(battle, card, source, submitted_units(target), "target")
    return _play_checked(battle, card, source, chosen, target, late, events)


def _chooses_late(battle: Battle, card_id: object) -> bool:
    return isinstance(card_id, str) and card_id in battle.cards \
        and battle.cards[card_id].card.choose_on_resolve  # fmt: skip


def _play_checked(battle: Battle, card: CardInstance, source: Unit, chosen: tuple[Unit, ...],
                  target: object, late: bool, events: list[Event] | None = None
                  ) -> list[Event]:  # fmt: skip
    """Activation and immediate resolution. The play's entry would go on the empty Cut and
    straight off it again with nothing reading the Cut in between, so it skips the Cut (and
    the recollection an "all ~" entry gets there, which resolution does again anyway); one
    Context, whose Host is the source either way, collects the events of both halves."""
    ctx = Context(battle, source, (), None, card.id, events=events)  # no targets yet
    number, units = _activation(battle, card, source, chosen, ctx)
    definition = card.card
    if late or _fails_on_loss(battle, definition):
        entry_id = f"e{number}"
        entry = _Immediate(entry_id, source.id, card.id, tuple([u.id for u in units]))
        choices = {entry_id: target} if late else None
        return _resolve(battle, entry, source, units, ctx, choices, announce=False, fresh=True)
    # Nothing to check: the targets passed the legality function just now and a loss would
    # not fail the effect, so this is what _resolve() does once its checks find nothing.
    ctx.targets = tuple(units)
    run(definition.behavior, ctx)
    _card_resolved(battle, card.id, ctx)
    settle(ctx)
    return ctx.told()


def preview(battle: Battle, card_id: object, target: object = None,
            events: list[Event] | None = None) -> list[Event]:  # fmt: skip
    """The events a play would produce, computed on a copy: the battle is not changed. It
    checks exactly as :func:`play` does, so the two agree for every card. ``events``: the
    list they are appended to, as :func:`play` takes it."""
    cards = battle.cards
    known = cards[card_id].card if isinstance(card_id, str) and card_id in cards else None
    if battle.cut or (known is not None and (known.choose_on_resolve or known.playable_if)):
        copy = battle.clone()
        copy.answers = DEFAULT_ANSWERS  # a choice an action asks is previewed at its default
        return play(copy, card_id, target, events=events)
    card, source, chosen = check_parts(battle, card_id, target)
    copy = battle.clone()
    copy.answers = DEFAULT_ANSWERS
    # Without conditions the check reads the battle and changes nothing, so it would pass
    # on the copy just the same: play the checked card there without checking it again.
    on_copy = tuple([_same_unit(copy, u) for u in chosen])
    return _play_checked(copy, card, _same_unit(copy, source), on_copy, target, False, events)


def _same_unit(copy: Battle, unit: Unit) -> Unit:
    twin = copy.unit(unit.id)
    assert twin is not None
    return twin
