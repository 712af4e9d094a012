"""The cost of a play through an extension's action next to the same play through a built-in.

``python -m pybridge.devtools.bench.extension_cost``: the bench's single-target attack, played
through the built-in DealDamage and through an extension action that makes the same change and
reports the same event with the public API (``pybridge.extend``), batches alternating in one
run.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from collections.abc import Sequence
from time import perf_counter_ns
from typing import Any

from ...extend import Context, Field, Message, Node, Unit, Words
from ...runtime import Battle, load_battle, play
from ...runtime.vocabulary import BUILTIN, Extension, Vocabulary
from .resolution import arena


def hit(node: Node, ctx: Context, units: list[Unit]) -> None:
    """DealDamage's change and event for a unit without statuses, through the public API."""
    amount = node.fields["amount"]
    for unit in units:
        hp_before, armor_before = unit.hp, unit.armor
        blocked = min(armor_before, amount)
        unit.armor -= blocked
        unit.hp = max(0, hp_before - (amount - blocked))
        ctx.emit("damage", node=node.id, source=ctx.host.id, unit=unit.id, base=amount,
                 amount=amount, blocked=blocked, hp_before=hp_before, hp_after=unit.hp,
                 armor_before=armor_before, armor_after=unit.armor)  # fmt: skip


def words() -> Vocabulary:
    vocabulary = BUILTIN.extended()
    extension = Extension("bench", "1")
    vocabulary.begin(extension)
    Words(vocabulary, extension).action(
        "Hit", doc="deals damage", acts_on="units", apply=hit, events=("damage",),
        fields=[Field("amount", "integer", "the damage", minimum=0)],
        describe=Message("bench.hit", "deal {amount} damage to {target}",
                         {"amount": "number", "target": "units"}),
    )  # fmt: skip
    vocabulary.end()
    return vocabulary.seal()


def battles() -> tuple[Battle, Battle]:
    """The arena with a Strike through DealDamage, and one through the extension's Hit."""
    document = arena()
    built_in = load_battle(document)
    for card in document["cards"]:
        for node in card["behavior"]["nodes"]:
            if node["type"] == "DealDamage":
                node["type"] = "Hit"
    return built_in, load_battle(document, None, words())


def _batch(base: Battle, card: str, target: str, count: int) -> int:
    copies = [base.clone() for _ in range(count)]
    start = perf_counter_ns()
    for battle in copies:
        play(battle, card, target)
    return (perf_counter_ns() - start) // count


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--plays", type=int, default=20_000, help="plays per path")
    args = parser.parse_args(argv)
    built_in, extended = battles()
    card, target = "c1", "orc"
    first = [e for e in play(built_in.clone(), card, target) if e["type"] == "damage"]
    second = [e for e in play(extended.clone(), card, target) if e["type"] == "damage"]
    assert first == second, (first, second)
    batch = 500
    ours: list[int] = []
    theirs: list[int] = []
    for _ in range(max(1, args.plays // batch)):
        ours.append(_batch(built_in, card, target, batch))
        theirs.append(_batch(extended, card, target, batch))
    a, b = statistics.median(ours), statistics.median(theirs)
    ratios = sorted(t / o for o, t in zip(ours, theirs, strict=True))
    out: dict[str, Any] = {"ratio": statistics.median(ratios)}
    print(f"single-target play, median of {len(ours)} batches of {batch}:")
    print(f"  built-in DealDamage   {a / 1000:8.2f} us")
    print(f"  extension action Hit  {b / 1000:8.2f} us")
    print(f"  extension / built-in  {out['ratio']:8.2f}x (median of per-batch ratios)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
