"""The built-in actions: damage, armor, healing, statuses, revival, the reserve, and cards
moved between piles (face up or face down), revealed, negated on the Cut and drawn.

All fail soft: each resolves its targets, skips anything dead, missing or invalid (with a
``target_skipped`` event saying why), and continues with what remains, which may be nothing
at all. An empty collection never picks a substitute. Their describe messages are the words
an action says in generated card text where the describer has no richer phrase for it.
"""

from __future__ import annotations

from typing import Final

from pybridge.extend import (
    MAX_COUNT,
    PILES,
    RESOLVING,
    Context,
    Field,
    Message,
    Node,
    Pile,
    Unit,
    Words,
    Zone,
    amount_of,
    attack_bonus,
    default_position,
    draw,
    living_targets,
    move_cards,
    reveal_cards,
)

# Enum members bound once: reading an attribute of an Enum class is slow on CPython 3.11.
_DISCARD: Final = Pile.DISCARD
_EXHAUST: Final = Pile.EXHAUST
_FIELD: Final = Zone.FIELD
_RESERVE: Final = Zone.RESERVE
_PILES = (*(p.value for p in PILES), RESOLVING)
_PILE_STATES = tuple(p.value for p in PILES)
# A pile field names the pile; a card source that reads it is named after it (hand -> HandPile).
_PILE_DOCS = {
    pile: f"the {what} (the one the card source {source} reads)"
    for pile, what, source in (("hand", "hand", "HandPile"), ("draw", "draw pile", "DrawPile"),
                               ("discard", "discard pile", "DiscardPile"),
                               ("exhaust", "exhaust pile", "ExhaustPile"))
}  # fmt: skip


def _says(name: str, english: str, **params: str) -> Message:
    return Message(f"pybridge.describe.{name}", english, {"target": "units", **params})


def _amount(doc: str) -> Field:
    return Field("amount", "amount", doc)


def _status(doc: str = "the status id") -> Field:
    return Field("status", "id", doc, suggests="statuses")


def register(words: Words) -> None:
    # fmt: off
    action = words.action
    # on units
    action("DealDamage", doc="armor absorbs first; 0 HP is a fall", apply=deal_damage,
           acts_on="units", events=("damage", "unit_died", "reaction"),
           fields=[_amount("the damage before status modifiers")],
           describe=_says("deal_damage", "deal {amount} damage to {target}", amount="number"))
    action("GainArmor", doc="armor absorbs damage", apply=gain_armor, acts_on="units",
           events=("armor",), fields=[_amount("the armor gained")],
           describe=_says("gain_armor", "give {target} {amount} armor", amount="number"))
    action("Heal", doc="never above max HP", apply=heal, acts_on="units", events=("heal",),
           fields=[_amount("the HP restored")],
           describe=_says("heal", "heal {target} for {amount}", amount="number"))
    action("ApplyStatus", doc="stacks add up", apply=apply_status, acts_on="units",
           events=("status",),
           fields=[_status(), Field("stacks", "integer", "stacks to add", 1, minimum=1)],
           describe=_says("apply_status", "apply {stacks} {status} to {target}",
                          stacks="number", status="status"))
    action("RemoveStatus", doc="removes stacks of a status", apply=remove_status,
           acts_on="units", events=("status",),
           fields=[_status(), Field("stacks", "integer", "stacks to remove (default: all)",
                                    None, minimum=1)],
           describe=_says("remove_status", "remove {status} from {target}", status="status"))
    action("Revive", doc="fallen units rise with this much HP; armor and statuses cleared",
           apply=revive, acts_on="units", states=("dead",), events=("revived",),
           fields=[Field("hp", "integer", "the HP they rise with", minimum=1)],
           describe=_says("revive", "revive {target} with {hp} HP", hp="number"))
    action("Withdraw", doc="units leave the field for the reserve", apply=withdraw,
           acts_on="units", events=("withdrawn",),
           describe=_says("withdraw", "withdraw {target} to the reserve"))
    action("Deploy", doc="units in the reserve enter the field", apply=deploy,
           acts_on="units", states=("reserve",), events=("deployed",),
           describe=_says("deploy", "deploy {target} from the reserve"))

    # on cards
    action("MoveCard", doc="moves cards to a pile", apply=move_card, acts_on="cards",
           states=_PILES, events=("card_moved",),
           fields=[Field("to", "choice", "the pile", choices=tuple(_PILE_DOCS),
                         choice_docs=_PILE_DOCS),
                   Field("position", "choice", "top or bottom (default: the hand's bottom, "
                         "other piles' top)", None, ("top", "bottom"),
                         choice_docs={"top": "on top: drawn or seen first",
                                      "bottom": "at the bottom: the hand's right end"}),
                   Field("face_down", "boolean", "true: the cards lie face down there (only "
                         "those the battle's visibility.face_down names see their faces; the "
                         "rules read none) until a move or Reveal turns them up; otherwise "
                         "they lie face up", None)],
           describe=_cards("move_card", "put {target} into {to}", to="pile"))
    action("Reveal", doc="turns face-down cards face up where they lie (an event everyone "
           "sees; their faces as their piles show them)",
           apply=reveal, acts_on="cards", states=_PILE_STATES, events=("card_revealed",),
           describe=_cards("reveal", "reveal {target}"))
    action("Discard", doc="moves cards to the top of the discard pile", apply=discard,
           acts_on="cards", states=_PILES, events=("card_moved",),
           describe=_cards("discard", "discard {target}"))
    action("Exhaust", doc="moves cards to the top of the exhaust pile", apply=exhaust,
           acts_on="cards", states=_PILES, events=("card_moved",),
           describe=_cards("exhaust", "exhaust {target}"))
    action("Negate", doc="negates the play of cards waiting on the Cut", apply=negate,
           acts_on="cards", states=("cut",), events=("negated", "card_moved"),
           describe=_cards("negate", "negate {target}"))

    # on the battle itself
    action("Draw", doc="moves cards from the top of the draw pile to the hand",
           apply=draw_cards, states=(), events=("card_moved", "reshuffled", "target_skipped"),
           fields=[Field("count", "integer", "how many cards", maximum=MAX_COUNT)],
           describe=Message("pybridge.describe.draw", "draw {count} cards",
                            {"count": "number"}))
    action("GainEnergy", doc="gains energy for this turn", apply=gain_energy, states=(),
           events=("energy",),
           fields=[Field("amount", "integer", "the energy gained", maximum=99)],
           describe=Message("pybridge.describe.gain_energy", "gain {amount} energy",
                            {"amount": "number"}))
    # fmt: on


def _cards(name: str, english: str, **params: str) -> Message:
    return Message(f"pybridge.describe.{name}", english, {"target": "cards", **params})


# -- on units ------------------------------------------------------------------------------
def deal_damage(node: Node, ctx: Context, units: list[Unit]) -> None:
    base = amount_of(node, ctx)
    node_id, host, events = node.id, ctx.host, ctx.events
    attacks = ctx.attacks
    living = living_targets(node, ctx, units)
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
    for unit in living_targets(node, ctx, units):
        before = unit.armor
        unit.armor = after = min(before + amount, 1_000_000_000)
        ctx.events.append({"type": "armor", "node": node.id, "unit": unit.id,
                           "amount": after - before, "armor_before": before,
                           "armor_after": after})  # fmt: skip


def heal(node: Node, ctx: Context, units: list[Unit]) -> None:
    amount = amount_of(node, ctx)
    for unit in living_targets(node, ctx, units):
        before = unit.hp
        unit.hp = after = min(unit.max_hp, before + amount)
        ctx.events.append({"type": "heal", "node": node.id, "unit": unit.id,
                           "amount": after - before, "hp_before": before,
                           "hp_after": after})  # fmt: skip


def apply_status(node: Node, ctx: Context, units: list[Unit]) -> None:
    status, stacks = node.fields["status"], node.fields["stacks"]
    for unit in living_targets(node, ctx, units):
        total = min(unit.statuses.get(status, 0) + stacks, 1_000_000_000)
        unit.statuses[status] = total
        ctx.events.append({"type": "status", "node": node.id, "unit": unit.id, "status": status,
                           "stacks": stacks, "total": total})  # fmt: skip


def remove_status(node: Node, ctx: Context, units: list[Unit]) -> None:
    status, stacks = node.fields["status"], node.fields["stacks"]
    for unit in living_targets(node, ctx, units):
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
    for unit in living_targets(node, ctx, units):
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


# -- on cards ------------------------------------------------------------------------------
def move_card(node: Node, ctx: Context, cards: list[str]) -> None:
    to = Pile(node.fields["to"])
    move_cards(
        node.id,
        ctx,
        cards,
        to,
        node.fields["position"] or default_position(to),
        face_down=bool(node.fields["face_down"]),
    )


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
        battle.side(entry.side).piles[_DISCARD].insert(0, card)  # its own side's discard
        ctx.emit("negated", node=node.id, card=card, entry=entry.id)
        ctx.emit("card_moved", node=node.id, card=card, **{"from": RESOLVING, "to": "discard"})


def reveal(node: Node, ctx: Context, cards: list[str]) -> None:
    reveal_cards(node.id, ctx, cards)


def discard(node: Node, ctx: Context, cards: list[str]) -> None:
    move_cards(node.id, ctx, cards, _DISCARD, "top")


def exhaust(node: Node, ctx: Context, cards: list[str]) -> None:
    move_cards(node.id, ctx, cards, _EXHAUST, "top")


# -- on the battle -------------------------------------------------------------------------
def draw_cards(node: Node, ctx: Context) -> None:
    draw(node.id, ctx, node.fields["count"])


def gain_energy(node: Node, ctx: Context) -> None:
    side = ctx.battle.side(ctx.host.team)  # the player side's for a Host of a moves team
    before = side.energy
    side.energy = after = min(999, before + node.fields["amount"])
    ctx.events.append({"type": "energy", "node": node.id, "energy_before": before,
                       "energy_after": after})  # fmt: skip
