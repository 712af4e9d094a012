"""The demo's own mechanics: Scry, a Combo counter and Drain.

None of these is in the built-in vocabulary. Scry asks a choice of its own kind (which of the
top cards of the draw pile go back on top, and in which order); Combo counts the cards played
this turn; Drain deals damage and heals the Host by the health it took.
"""

from __future__ import annotations

from pybridge.extend import (
    Context,
    Field,
    Message,
    Node,
    Pile,
    Unit,
    Words,
    amount_of,
    living_targets,
)

NAME = "demo_mechanics"
VERSION = "1.0"


def register(words: Words) -> None:
    words.choice(
        "scry",
        doc="which of the cards looked at go back on top of the draw pile, in order (first is "
        "top); the others are discarded",
        prompt=Message(
            "demo.scry.prompt",
            "Keep any of these on top of your draw pile, in the order you pick them; the rest "
            "are discarded.",
        ),
        ordered=True,
        visibility="owner",
    )
    words.event(
        "scried",
        doc="the player looked at the top cards of the draw pile and kept some on top",
        fields=("node", "looked", "kept", "discarded"),
        field_types={"node": "string", "looked": "int", "kept": "int", "discarded": "int"},
        narration=Message(
            "demo.scry.done",
            "You look at the top {looked} of your draw pile: {kept} kept on top, {discarded} "
            "discarded.",
            {"looked": "number", "kept": "number", "discarded": "number"},
        ),
        visibility="owner",
    )
    words.action(
        "Scry",
        doc="look at the top cards of the draw pile; keep any on top in any order, discard the "
        "rest",
        fields=[Field("count", "integer", "how many cards to look at", 3, minimum=1, maximum=10)],
        apply=scry,
        events=("scried", "card_moved"),
        asks=("scry",),
        describe=Message("demo.scry.describe", "scry {count}", {"count": "number"}),
    )
    words.counter(
        "combo",
        doc="the cards played this turn before the one resolving",
        label=Message("demo.combo", "Combo"),
        reset="turn_start",
        counts=("card_played",),
    )
    words.action(
        "Drain",
        doc="deals damage (armor absorbs first) and heals the Host by the health it took",
        fields=[Field("amount", "amount", "the damage dealt")],
        acts_on="units",
        states=("field",),
        apply=drain,
        events=("damage", "unit_died", "heal"),
        describe=Message(
            "demo.drain.describe",
            "drain {amount} health from {target}",
            {"amount": "number", "target": "units"},
        ),
    )


def scry(node: Node, ctx: Context) -> None:
    draw = ctx.piles[Pile.DRAW]  # the Host's side's draw pile
    looked = draw[: node.fields["count"]]
    if not looked:
        ctx.emit("no_targets", node=node.id, action="Scry")
        return
    kept = ctx.ask("scry", node.id, looked)
    discarded = [card for card in looked if card not in kept]
    del draw[: len(looked)]
    draw[:0] = kept
    ctx.piles[Pile.DISCARD][:0] = reversed(discarded)
    for card in discarded:
        ctx.emit("card_moved", node=node.id, card=card, **{"from": "draw", "to": "discard"})
    ctx.emit("scried", node=node.id, looked=len(looked), kept=len(kept), discarded=len(discarded))


def drain(node: Node, ctx: Context, units: list[Unit]) -> None:
    base = amount_of(node, ctx)  # a number, a status's stacks or a counter
    host = ctx.host
    for unit in living_targets(node, ctx, units):  # the rest are reported as skipped
        hp_before, armor_before = unit.hp, unit.armor
        blocked = min(armor_before, base)
        unit.armor -= blocked
        unit.hp = max(0, hp_before - (base - blocked))
        ctx.emit("damage", node=node.id, source=host.id, unit=unit.id, base=base, amount=base,
                 blocked=blocked, hp_before=hp_before, hp_after=unit.hp,
                 armor_before=armor_before, armor_after=unit.armor)  # fmt: skip
        if unit.hp == 0:
            ctx.emit("unit_died", node=node.id, unit=unit.id)
        before = host.hp
        if host.alive:
            host.hp = min(host.max_hp, before + hp_before - unit.hp)
        if host.hp != before:  # a Host at full health recovers nothing, and says nothing
            ctx.emit("heal", node=node.id, unit=host.id, amount=host.hp - before,
                     hp_before=before, hp_after=host.hp)  # fmt: skip
