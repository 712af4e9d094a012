"""Built-in actions. All fail soft: each resolves its targets, skips anything dead, missing
or invalid (with a ``target_skipped`` event saying why), and continues with what remains,
which may be nothing at all. An empty collection never picks a substitute."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .context import Context
from .kinds import MAX_AMOUNT, STACKS
from .model import RESOLVING, Pile, Unit, Zone

if TYPE_CHECKING:
    from .graph import Node

# Enum members bound once: reading an attribute of an Enum class is slow on CPython 3.11.
_HAND, _DRAW, _DISCARD, _EXHAUST = Pile.HAND, Pile.DRAW, Pile.DISCARD, Pile.EXHAUST
_FIELD, _RESERVE = Zone.FIELD, Zone.RESERVE


def _living_targets(node: Node, ctx: Context, units: list[Unit]) -> list[Unit]:
    """Drop (and report) targets that are dead, off the field or no longer in the battle;
    dedupe."""
    index = ctx.battle._index  # what Battle.unit() reads
    if len(units) == 1:  # the usual single target: nothing to dedupe
        unit = units[0]
        if index.get(unit.id) is unit and unit.hp > 0 and unit.zone is _FIELD:
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


def amount_of(node: Node, ctx: Context) -> int:
    """An action's amount: a number, or the stacks of the status whose Behavior runs."""
    amount = node.fields["amount"]
    if type(amount) is int:
        return amount
    if amount == STACKS:
        return ctx.host.statuses.get(ctx.status or "", 0)
    # read from a battle counter: {"counter": name, "times": k, "plus": b}
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


def deal_damage(node: Node, ctx: Context, units: list[Unit]) -> None:
    base = amount_of(node, ctx)
    node_id, host, events = node.id, ctx.host, ctx.events
    attacks = ctx.attacks
    living = _living_targets(node, ctx, units)
    for unit in living:
        is_attack = attacks and unit.team is not host.team
        if is_attack:  # statuses on either side may change an attack's damage
            bonus = attack_bonus(ctx, unit) if host.statuses or unit.statuses else 0
            amount = max(0, base + bonus)
        else:
            amount = base
        hp_before, armor_before = unit.hp, unit.armor
        blocked = min(armor_before, amount)
        unit.armor = armor = armor_before - blocked
        unit.hp = hp = max(0, hp_before - (amount - blocked))
        events.append({"type": "damage", "node": node_id, "source": host.id, "unit": unit.id,
                       "base": base, "amount": amount, "blocked": blocked,
                       "hp_before": hp_before, "hp_after": hp, "armor_before": armor_before,
                       "armor_after": armor})  # fmt: skip
        if hp == 0:
            events.append({"type": "unit_died", "node": node_id, "unit": unit.id})
        if is_attack:
            ctx.attacked.append((unit, host))


def gain_armor(node: Node, ctx: Context, units: list[Unit]) -> None:
    amount = amount_of(node, ctx)
    for unit in _living_targets(node, ctx, units):
        before = unit.armor
        unit.armor = after = min(before + amount, 1_000_000_000)
        ctx.events.append({"type": "armor", "node": node.id, "unit": unit.id,
                           "amount": after - before, "armor_before": before,
                           "armor_after": after})  # fmt: skip


def heal(node: Node, ctx: Context, units: list[Unit]) -> None:
    amount = amount_of(node, ctx)
    for unit in _living_targets(node, ctx, units):
        before = unit.hp
        unit.hp = after = min(unit.max_hp, before + amount)
        ctx.events.append({"type": "heal", "node": node.id, "unit": unit.id,
                           "amount": after - before, "hp_before": before,
                           "hp_after": after})  # fmt: skip


def apply_status(node: Node, ctx: Context, units: list[Unit]) -> None:
    status, stacks = node.fields["status"], node.fields["stacks"]
    for unit in _living_targets(node, ctx, units):
        total = min(unit.statuses.get(status, 0) + stacks, 1_000_000_000)
        unit.statuses[status] = total
        ctx.events.append({"type": "status", "node": node.id, "unit": unit.id, "status": status,
                           "stacks": stacks, "total": total})  # fmt: skip


def remove_status(node: Node, ctx: Context, units: list[Unit]) -> None:
    status, stacks = node.fields["status"], node.fields["stacks"]
    for unit in _living_targets(node, ctx, units):
        had = unit.statuses.get(status, 0)
        if had == 0:
            continue
        left = 0 if stacks is None else max(0, had - stacks)
        if left:
            unit.statuses[status] = left
        else:
            del unit.statuses[status]
        ctx.emit("status", node=node.id, unit=unit.id, status=status, stacks=left - had, total=left)


def revive(node: Node, ctx: Context, units: list[Unit]) -> None:
    seen: set[str] = set()
    for unit in units:
        if unit.id in seen:
            continue
        seen.add(unit.id)
        if ctx.battle.unit(unit.id) is not unit:
            ctx.emit("target_skipped", node=node.id, unit=unit.id, reason="missing")
        elif unit.alive:
            ctx.emit("target_skipped", node=node.id, unit=unit.id, reason="alive")
        else:
            unit.hp = min(unit.max_hp, node.fields["hp"])
            unit.armor = 0
            unit.statuses.clear()
            ctx.emit("revived", node=node.id, unit=unit.id, hp=unit.hp)


def withdraw(node: Node, ctx: Context, units: list[Unit]) -> None:
    """The unit leaves the field (to its side's reserve); it keeps its HP and statuses."""
    for unit in _living_targets(node, ctx, units):
        unit.zone = _RESERVE
        unit.intent = None
        ctx.emit("withdrawn", node=node.id, unit=unit.id)


def deploy(node: Node, ctx: Context, units: list[Unit]) -> None:
    """A living unit from the reserve enters the field."""
    seen: set[str] = set()
    for unit in units:
        if unit.id in seen:
            continue
        seen.add(unit.id)
        if ctx.battle.unit(unit.id) is not unit or not unit.alive:
            ctx.emit("target_skipped", node=node.id, unit=unit.id, reason="dead")
        elif unit.zone is _FIELD:
            ctx.emit("target_skipped", node=node.id, unit=unit.id, reason="on_field")
        else:
            unit.zone = _FIELD
            ctx.emit("deployed", node=node.id, unit=unit.id)


def move_cards(
    node_id: str | None, ctx: Context, cards: list[str], to: Pile, position: str
) -> None:
    """Move each card from wherever it is to ``to``; missing cards are skipped.

    ``node_id`` is None when the rules (not a Behavior) move the cards."""
    battle = ctx.battle
    destination = battle.piles[to]
    seen: set[str] = set()
    placed: list[str] = []
    events, to_name = ctx.events, str(to)  # a Pile's str() is its value
    for card in cards:
        if card in seen:
            continue
        seen.add(card)
        origin = battle.pile_of(card)
        if origin is None:
            ctx.emit("target_skipped", node=node_id, card=card, reason="missing")
            continue
        if origin == RESOLVING and card != ctx.this_card:
            # Only effects that target "the card being played" reach it (see Negate).
            ctx.emit("target_skipped", node=node_id, card=card, reason="being_played")
            continue
        if origin == RESOLVING:
            battle.resolving.remove(card)
        else:
            battle.piles[origin if isinstance(origin, Pile) else Pile(origin)].remove(card)
        placed.append(card)
        events.append({"type": "card_moved", "node": node_id, "card": card, "from": str(origin),
                       "to": to_name})  # fmt: skip
    if position == "top":
        destination[:0] = reversed(placed)  # the last card moved ends up on top
    else:
        destination.extend(placed)


def default_position(to: Pile) -> str:
    """Cards join the hand on the right (its bottom); other piles receive them on top."""
    return "bottom" if to is _HAND else "top"


def move_card(node: Node, ctx: Context, cards: list[str]) -> None:
    to = Pile(node.fields["to"])
    move_cards(node.id, ctx, cards, to, node.fields["position"] or default_position(to))


def negate(node: Node, ctx: Context, cards: list[str]) -> None:
    """Negate the play of cards waiting on the Cut: they go to the discard pile unresolved."""
    battle = ctx.battle
    for card in dict.fromkeys(cards):
        entry = next((e for e in battle.cut if e.card == card), None)
        if entry is None or card == ctx.this_card:
            ctx.emit("target_skipped", node=node.id, card=card, reason="not_being_played")
            continue
        battle.cut.remove(entry)
        battle.resolving.remove(card)
        battle.piles[_DISCARD].insert(0, card)
        ctx.emit("negated", node=node.id, card=card, entry=entry.id)
        ctx.emit("card_moved", node=node.id, card=card, **{"from": RESOLVING, "to": "discard"})


def discard(node: Node, ctx: Context, cards: list[str]) -> None:
    move_cards(node.id, ctx, cards, _DISCARD, "top")


def exhaust(node: Node, ctx: Context, cards: list[str]) -> None:
    move_cards(node.id, ctx, cards, _EXHAUST, "top")


def draw(node_id: str | None, ctx: Context, count: int) -> None:
    """Move ``count`` cards from the top of the draw pile to the hand. When the draw pile runs
    out and the battle reshuffles, the discard pile is shuffled (PRNG) into a new draw pile."""
    battle = ctx.battle
    pile = battle.piles[_DRAW]
    if len(pile) < count and battle.reshuffle and battle.piles[_DISCARD]:
        drawn_first = pile[:]
        move_cards(node_id, ctx, drawn_first, _HAND, "bottom")
        count -= len(drawn_first)
        discard = battle.piles[_DISCARD]
        battle.rng.shuffle(discard)
        pile.extend(discard)
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


def draw_cards(node: Node, ctx: Context) -> None:
    """The Draw node: :func:`draw` its ``count``."""
    draw(node.id, ctx, node.fields["count"])


def gain_energy(node: Node, ctx: Context) -> None:
    battle = ctx.battle
    before = battle.energy
    battle.energy = min(999, before + node.fields["amount"])
    ctx.events.append({"type": "energy", "node": node.id, "energy_before": before,
                       "energy_after": battle.energy})  # fmt: skip
