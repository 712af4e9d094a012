"""The Call node: one Behavior runs the Behavior of a card of the battle, named by its id.

"A Behavior of the library" is the Behavior of a card definition the battle holds: one of its
``cards`` or of the card library it was opened with (``Battle.library``), named by the card's
id. The call runs it as part of the caller's run: the same Host, the same kind of Host (a
card's call attacks, a status's does not), the same Attacker, card, choices and Cut entry; its
Target is what the Call's ``target`` port yields, else the caller's own (locked) targets. It
shares the caller's events and work: each call charges the called Behavior's load-time bound
plus its depth (a call from a call counts 2, and so on).

Calls are checked when they are loaded (:func:`call_problems`): a card that calls a card the
battle does not hold is refused, a cycle of calls (``a -> b -> a``) is refused naming it, and
so is a chain of calls deeper than :data:`MAX_CALL_DEPTH`. A library alone is checked for the
calls whose both ends it holds (a library card may call a card the battle defines).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .context import Context
from .errors import FormatError, WorkLimit

if TYPE_CHECKING:
    from .graph import Behavior, Node
    from .model import CardDef, Unit

#: How deep calls may nest: a card calling a card calling a card is depth 3.
MAX_CALL_DEPTH = 8


def call(node: Node, ctx: Context, targets: list[Unit] | None = None) -> None:
    """Run the called card's Behavior with the caller's Host; ``targets``: what the Call's
    ``target`` port yields (None: unconnected, the caller's targets)."""
    from .resolve import charge, run  # resolve compiles the node specs that name this function

    card_id = node.fields["card"]
    depth = ctx.depth + 1
    if depth > MAX_CALL_DEPTH:  # loading refuses deeper chains: a battle built in code
        raise WorkLimit(f"calls would nest more than {MAX_CALL_DEPTH} deep (node "
                        f"{node.id!r} calls {card_id!r}); nothing was applied", "")  # fmt: skip
    submitted = ctx.targets if targets is None else tuple(targets)
    ctx.emit("called", node=node.id, card=card_id, unit=ctx.host.id,
             targets=[u.id for u in submitted], depth=depth)  # fmt: skip
    definition = ctx.battle.library.get(card_id)
    if definition is None:  # loading refuses it: a battle built in code
        return
    child = Context(ctx.battle, ctx.host, submitted, ctx.attacker, ctx.this_card, ctx.kind,
                    ctx.status, ctx.events, ctx.work, ctx.chosen)  # fmt: skip
    child.entry = ctx.entry
    child.depth = depth
    charge(ctx, depth)
    run(definition.behavior, child)


def calls_of(behavior: Behavior) -> list[tuple[int, Node]]:
    """The Call nodes of ``behavior`` with their positions in its ``nodes`` list."""
    return [(i, n) for i, n in enumerate(behavior.nodes.values()) if n.type.apply is call]


class CallRefused(FormatError):
    """A document refused for its calls: a cycle, a chain too deep, or an unknown card."""


@dataclass(frozen=True, slots=True)
class CallProblem:
    """A refused call: ``where`` is the JSON path of the Call's ``card`` field (or of the
    definition when it is not in the document), ``card`` the definition holding it."""

    where: str
    card: str
    node: str
    value: str
    message: str

    def error(self) -> FormatError:
        subject = f"card {self.card!r}, node {self.node!r}" if self.card else f"node {self.node!r}"
        return CallRefused.stated(self.where, self.message, self.value, subject)


def call_problems(
    cards: Mapping[str, CardDef],
    paths: Mapping[str, str],
    others: Iterable[tuple[str, Behavior]] = (),
    complete: bool = True,
) -> list[CallProblem]:
    """What is wrong with the calls of ``cards`` (by id) and of ``others`` (statuses and moves:
    (path, Behavior)). ``paths``: each card's path in the document ("cards[2]"); a card not in
    it is named by id. ``complete``: every card a call may name is in ``cards`` (a battle),
    else calls to other cards are left to the battle (a library)."""
    problems: list[CallProblem] = []

    def at(card_id: str, index: int) -> str:
        return f"{paths[card_id]}.behavior.nodes[{index}].card" if card_id in paths else "cards"

    edges: dict[str, list[tuple[str, int, Node]]] = {}
    for card_id, card in cards.items():
        found = edges[card_id] = []
        for index, node in calls_of(card.behavior):
            callee = str(node.fields["card"])
            if callee in cards:
                found.append((callee, index, node))
            elif complete:
                problems.append(CallProblem(
                    at(card_id, index), card_id, node.id, callee,
                    "no card with this id in the battle's cards or the library"))  # fmt: skip
    depth: dict[str, int] = {}  # the deepest chain of calls a card's run makes
    on_path: list[str] = []

    def visit(root: str) -> None:
        """Depth-first from ``root``, with a stack of its own rather than Python's: a chain
        of thousands of calls is walked (and refused, naming where) like a short one. Each
        frame: a card on the current path, its next edge, the deepest chain below it yet."""
        depth[root] = -1  # on the current path
        on_path.append(root)
        frames: list[tuple[str, int, int]] = [(root, 0, 0)]
        while frames:
            card_id, position, deepest = frames[-1]
            if position == len(edges[card_id]):  # every callee seen: the card is done
                frames.pop()
                on_path.pop()
                depth[card_id] = deepest
                if frames:
                    caller, at_edge, below_caller = frames[-1]
                    frames[-1] = (caller, at_edge, max(below_caller, 1 + deepest))
                continue
            frames[-1] = (card_id, position + 1, deepest)
            callee, index, node = edges[card_id][position]
            below = depth.get(callee)
            if below == -1:
                cycle = " -> ".join([*on_path[on_path.index(callee) :], callee])
                message = f"calls form a cycle: {cycle}"
                problems.append(CallProblem(at(card_id, index), card_id, node.id, callee, message))
            elif below is None:
                depth[callee] = -1
                on_path.append(callee)
                frames.append((callee, 0, 0))
            else:
                frames[-1] = (card_id, position + 1, max(deepest, 1 + below))

    for card_id in cards:
        if card_id not in depth:
            visit(card_id)
    behaviors = [(c, f"{paths[c]}.behavior" if c in paths else "cards", cards[c].behavior)
                 for c in cards]  # fmt: skip
    behaviors += [("", prefix, behavior) for prefix, behavior in others]
    for card_id, prefix, behavior in behaviors:
        for index, node in calls_of(behavior):
            callee = str(node.fields["card"])
            if complete and not card_id and callee not in cards:  # a move's or a status's call
                problems.append(CallProblem(
                    f"{prefix}.nodes[{index}].card", "", node.id, callee,
                    "no card with this id in the battle's cards or the library"))  # fmt: skip
            nested = 1 + depth.get(callee, -1)
            if nested > MAX_CALL_DEPTH:
                where = f"{prefix}.nodes[{index}].card" if prefix != "cards" else prefix
                below = _deepest(callee, edges, depth, MAX_CALL_DEPTH + 1)
                cut = " -> ..." if nested > len(below) else ""  # the first steps tell it
                chain = " -> ".join([card_id or node.id, *below]) + cut
                problems.append(CallProblem(
                    where, card_id, node.id, callee,
                    f"calls would nest {nested} deep from here (at most {MAX_CALL_DEPTH}): "
                    f"{chain}"))  # fmt: skip
    return problems


def _deepest(card_id: str, edges: Mapping[str, list[tuple[str, int, Node]]],
             depth: Mapping[str, int], most: int) -> list[str]:  # fmt: skip
    """The deepest chain of calls from ``card_id``, its first ``most`` cards (a chain of
    thousands would make each of its cards' refusals as long, and their sum quadratic)."""
    chain = [card_id]
    while depth.get(chain[-1], 0) > 0 and len(chain) < most:
        wanted = depth[chain[-1]] - 1
        chain.append(next(c for c, _, _ in edges[chain[-1]] if depth.get(c) == wanted))
    return chain


def check_calls(
    cards: Mapping[str, CardDef],
    paths: Mapping[str, str],
    others: Iterable[tuple[str, Behavior]] = (),
    complete: bool = True,
) -> None:
    """Refuse the first problem :func:`call_problems` finds."""
    problems = call_problems(cards, paths, others, complete)
    if problems:
        raise problems[0].error()
