"""What actions do to a battle, shared by the rules and every action (the built-in ones in
:mod:`pybridge.words`, a game's in its extensions), which reach them through
:mod:`pybridge.extend`: the targets still there to act on, an amount field's value, cards moved
between piles and drawn, the units a source may choose. Actions fail soft: each skips anything
dead, missing or invalid (with a ``target_skipped`` event saying why) and goes on with what
remains, which may be nothing at all."""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from .context import Context
from .hiding import moved, turn
from .kinds import MAX_AMOUNT, STACKS
from .model import RESOLVING, ZONE_NAMES, Pile, Team, Unit, Zone
from .modes import is_protected

if TYPE_CHECKING:
    from .graph import Node

# Enum members bound once: reading an attribute of an Enum class is slow on CPython 3.11.
_HAND: Final = Pile.HAND
_DRAW: Final = Pile.DRAW
_DISCARD: Final = Pile.DISCARD
_FIELD: Final = Zone.FIELD
_PLAYER: Final = Team.PLAYER


def living_targets(node: Node, ctx: Context, units: list[Unit]) -> list[Unit]:
    """Drop (and report) targets that are dead, off the field or no longer in the battle;
    dedupe."""
    index = ctx.battle._index  # what Battle.unit() reads
    if len(units) == 1:  # the usual single target: nothing to dedupe
        unit = units[0]
        if index.get(unit.id) is unit and unit.in_play:
            return units
    kept: list[Unit] = []
    seen: set[str] = set()
    for unit in units:
        unit_id = unit.id
        if unit_id in seen:
            continue
        seen.add(unit_id)
        if index.get(unit_id) is not unit:
            ctx.emit("target_skipped", node=node.id, unit=unit_id, reason="missing")
        elif unit.hp <= 0:
            ctx.emit("target_skipped", node=node.id, unit=unit_id, reason="dead")
        elif unit.zone is not _FIELD:
            ctx.emit("target_skipped", node=node.id, unit=unit_id, reason="left_field")
        else:
            kept.append(unit)
    return kept


def targetable(ctx: Context, units: list[Unit]) -> list[Unit]:
    """``units`` without those protected from every effect: a source choosing targets counts
    them as non-existent."""
    for unit in units:  # a unit without statuses has no protection: most often, none has
        if unit.statuses:
            break
    else:
        return units
    battle = ctx.battle
    return [u for u in units if not u.statuses or not is_protected(battle, u, single_target=False)]


def amount_of(node: Node, ctx: Context) -> int:
    """An action's ``amount`` field: a number, the stacks of the status whose Behavior runs, or
    read from a battle counter (``{"counter": name, "times": k, "plus": b}``)."""
    amount = node.fields["amount"]
    if type(amount) is int:
        return amount
    if amount == STACKS:
        return ctx.host.statuses.get(ctx.status or "", 0)
    value = ctx.counter(amount["counter"]) * amount.get("times", 1) + amount.get("plus", 0)
    return int(max(0, min(MAX_AMOUNT, value)))


def attack_bonus(ctx: Context, unit: Unit) -> int:
    """Damage the statuses of attacker and defender add to an attack (per stack)."""
    definitions = ctx.battle.statuses
    bonus = 0
    for status, stacks in ctx.host.statuses.items():
        definition = definitions.get(status)
        if definition is not None:
            bonus += definition.damage_dealt * stacks
    for status, stacks in unit.statuses.items():
        definition = definitions.get(status)
        if definition is not None:
            bonus += definition.damage_taken * stacks
    return bonus


def move_cards(
    node_id: str | None,
    ctx: Context,
    cards: list[str],
    to: Pile,
    position: str,
    face_down: bool = False,
) -> None:
    """Move each card from wherever it is to ``to``; missing cards are skipped. A card moves
    between the piles of the side it belongs to (in a two-sided battle, whoever moves it).
    It lies face up where it arrives, or face down with ``face_down``.

    ``node_id`` is None when the rules (not a Behavior) move the cards."""
    sides = ctx.battle.sides
    if len(sides) > 1:
        _move_by_side(node_id, ctx, cards, to, position, face_down)
        return
    _move_within(node_id, ctx, cards, sides[_PLAYER].piles, to, position, face_down)


def _move_by_side(node_id: str | None, ctx: Context, cards: list[str], to: Pile,
                  position: str, face_down: bool) -> None:  # fmt: skip
    """:func:`move_cards` in a two-sided battle: each side's cards to its own pile ``to``."""
    cards_of = ctx.battle.cards
    for team, side in ctx.battle.sides.items():
        mine = [c for c in cards if c not in cards_of or cards_of[c].side is team]
        if team is not Team.PLAYER:  # an unknown card is reported missing once
            mine = [c for c in mine if c in cards_of]
        if mine:
            _move_within(node_id, ctx, mine, side.piles, to, position, face_down)


def _move_within(node_id: str | None, ctx: Context, cards: list[str],
                 piles: dict[Pile, list[str]], to: Pile, position: str,
                 face_down: bool) -> None:  # fmt: skip
    battle = ctx.battle
    destination = piles[to]
    seen: set[str] = set()
    placed: list[str] = []
    events, to_name = ctx.events, ZONE_NAMES[to]
    for card in cards:
        if card in seen:
            continue
        seen.add(card)
        origin = battle.pile_of(card)
        if origin is None:
            ctx.emit("target_skipped", node=node_id, card=card, reason="missing")
            continue
        if origin == RESOLVING:
            if card != ctx.this_card:
                # Only effects that target "the card being played" reach it (see Negate).
                ctx.emit("target_skipped", node=node_id, card=card, reason="being_played")
                continue
            battle.resolving.remove(card)
        else:
            piles[origin if isinstance(origin, Pile) else Pile(origin)].remove(card)
        placed.append(card)
        was_face_down = turn(battle, card, face_down)
        if battle.secret is not None:  # a battle that gives views: who sees it now
            moved(battle, card, origin, to, len(events), was_face_down)
        event: dict[str, object] = {"type": "card_moved", "node": node_id, "card": card,
                                    "from": ZONE_NAMES[origin], "to": to_name}  # fmt: skip
        if face_down:  # the key only then: a face-up move's event is as it always was
            event["face_down"] = True
        events.append(event)
    if position == "top":
        destination[:0] = reversed(placed)  # the last card moved ends up on top
    else:
        destination.extend(placed)


def reveal_cards(node_id: str | None, ctx: Context, cards: list[str]) -> None:
    """Turn each face-down card face up where it lies (``card_revealed``, which everyone
    sees). A card that is gone is skipped; one face up already is left as it is, quietly, so
    revealing a whole pile tells of its face-down cards only."""
    battle = ctx.battle
    for card in dict.fromkeys(cards):
        zone = battle.pile_of(card)
        if zone is None:
            ctx.emit("target_skipped", node=node_id, card=card, reason="missing")
            continue
        if not battle.cards[card].face_down:
            continue
        turn(battle, card, False)
        if battle.secret is not None:
            moved(battle, card, zone, zone, len(ctx.events), True)
        ctx.emit("card_revealed", node=node_id, card=card, pile=str(zone))


def default_position(to: Pile) -> str:
    """Cards join the hand on the right (its bottom); other piles receive them on top."""
    return "bottom" if to is _HAND else "top"


def draw(node_id: str | None, ctx: Context, count: int, side: Team | None = None) -> None:
    """Move ``count`` cards from the top of ``side``'s draw pile (by default the Host's side,
    see ``Battle.side``) to its hand. When the draw pile runs out and the battle
    reshuffles, the discard pile is shuffled (PRNG) into a new draw pile."""
    battle = ctx.battle
    piles = battle.side(ctx.host.team if side is None else side).piles
    pile = piles[_DRAW]
    if len(pile) < count and battle.reshuffle and piles[_DISCARD]:
        drawn_first = pile[:]
        move_cards(node_id, ctx, drawn_first, _HAND, "bottom")
        count -= len(drawn_first)
        discard = piles[_DISCARD]
        battle.rng.shuffle(discard)
        pile.extend(discard)
        for card in discard:  # a new draw pile lies face up (and hidden as draw piles are)
            was_face_down = turn(battle, card, False)
            if battle.secret is not None:
                moved(battle, card, _DISCARD, _DRAW, len(ctx.events), was_face_down)
        ctx.emit("reshuffled", node=node_id, cards=len(discard))
        discard.clear()
    drawn = pile[:count]
    if len(drawn) < count:
        ctx.emit(
            "target_skipped",
            node=node_id,
            reason="draw_pile_empty",
            wanted=count,
            available=len(drawn),
        )
    move_cards(node_id, ctx, drawn, _HAND, "bottom")
