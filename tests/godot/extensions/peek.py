"""An extension for the addon's engine tests: Peek asks which of the top cards of the draw
pile stay on top, in order; the others go to the bottom. It tells what it did with an event of
its own (``peeked``), whose fields it types, so the addon reads them typed."""

from pybridge.extend import Context, Field, Message, Node, Pile, Words

NAME = "engine_tests"
VERSION = "1"


def register(words: Words) -> None:
    words.choice(
        "peek",
        doc="the cards to keep on top, in order",
        prompt=Message("tests.peek.prompt", "Keep any on top, in order"),
        ordered=True,
    )
    words.event(
        "peeked",
        doc="the top cards of the draw pile were looked at; kept: those kept on top, in order",
        fields=("node", "looked", "kept"),
        field_types={"node": "string", "looked": "int", "kept": "list<string>"},
        narration=None,
    )
    words.action(
        "Peek",
        doc="looks at the top cards of the draw pile and keeps the chosen ones on top",
        fields=[Field("count", "integer", "how many cards", 2, minimum=1, maximum=5)],
        apply=peek,
        asks=("peek",),
        events=("peeked",),
        describe=Message("tests.peek.describe", "peek at {count}", {"count": "number"}),
    )


def peek(node: Node, ctx: Context) -> None:
    draw = ctx.battle.piles[Pile.DRAW]
    looked = draw[: node.fields["count"]]
    kept = ctx.ask("peek", node.id, looked)
    del draw[: len(looked)]
    draw[:0] = kept
    draw.extend(card for card in looked if card not in kept)
    ctx.emit("peeked", node=node.id, looked=len(looked), kept=list(kept))
