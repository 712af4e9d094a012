"""Counters for the addon's engine tests: Tally adds its amount to a counter everyone sees
(set back each turn) and to one no one sees (the authority's bookkeeping)."""

from pybridge.extend import Context, Field, Message, Node, Words

NAME = "engine_counters"
VERSION = "1"


def register(words: Words) -> None:
    words.counter(
        "tally",
        doc="what Tally added this turn",
        label=Message("tests.tally", "Tally"),
        default=2,
        reset="turn_start",
    )
    words.counter(
        "ledger",
        doc="what Tally ever added, kept from the players",
        label=Message("tests.ledger", "Ledger"),
        visibility="no_one",
    )
    words.action(
        "Tally",
        doc="adds its amount to the tally and the ledger",
        fields=[Field("amount", "integer", "how much", 1, minimum=1, maximum=9)],
        apply=tally,
        events=("counter",),
        describe=Message("tests.tally.describe", "tally {amount}", {"amount": "number"}),
    )


def tally(node: Node, ctx: Context) -> None:
    for counter in ("tally", "ledger"):
        ctx.add_to_counter(counter, node.fields["amount"], node=node.id)
