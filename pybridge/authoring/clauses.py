"""Sentences from a Behavior: each action as a clause, consecutive clauses merged, Branch and
Gate as "if ..., ... Otherwise, ...", and Condition nodes as what follows "if".

An action is said with its row of :data:`.phrases.ACTION_WORDS` (chosen by whether it acts on
the Host, the attacker, the Host's side or anyone else); flow nodes are told apart by their
role, never by their names.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..runtime.context import HostKind
from ..runtime.graph import NODE_TYPES, Node
from ..runtime.nodes import Role
from ..runtime.sentences import said
from ..words.describing import OPS
from .analysis import (
    Chain,
    action_chain,
    condition_chain,
    filters,
    limit_of,
    only_orders,
    picks,
    reduces,
)
from .grammar import article, conj, conj_phrase, join, quantity, third
from .nouns import (
    Ctx,
    Phrase,
    Voice,
    chain_phrase,
    describe_filter,
    predicates_of,
    root_group,
    single,
    target_said,
    target_text,
)
from .phrases import ACTION_WORDS
from .speech import Said, as_words, joined, phrase, render


# -- actions -----------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Clause:
    """One action in words. ``form``: "to" (verb body prep target), "give" (verb target body),
    "object" (verb target body), "plain" (verb body); "declared" (an extension's own message,
    ``said``) and "generic" (an action with no words: its type name, ``body`` the words after
    the verb)."""

    verb: str
    body: Said | None
    form: str
    target: Phrase | None = None
    prep: str = "to"
    subject: str | None = None
    said: Said | None = None
    generic: str = ""


def _body(template: str, body: Said | None, target: Phrase) -> Said | None:
    """A verb's own body: the action's, the action's from the units ("remove 2 Burn from
    yourself"), or a message of its own ("enter the field")."""
    if template == "body":
        return body
    if template == "from":
        return said("describe.body.from", body=body, target=phrase(target.text))
    return said(template)


def _declared(ctx: Ctx, node: Node, target: Phrase | None) -> Clause:
    """An extension action said with the words it declared: its message, the node's fields
    (a counter amount in words) and ``{target}`` the units or cards it acts on."""
    message = node.type.describe
    ctx.messages[message.id] = message
    params: dict[str, object] = {}
    for name, kind in message.params.items():
        value = node.fields.get(name)
        if name == "target":
            if target is not None and target.said is not None:
                params[name] = target.said  # a whole message: a source's own words
            else:
                params[name] = phrase(target.text if target is not None else "it")
        elif isinstance(value, Mapping) and "counter" in value:
            params[name] = ctx.counter(value)
        elif kind == "number" and isinstance(value, int):
            params[name] = value
        else:
            params[name] = as_words(str(value))
    sentence: Said = {"id": message.id, "params": params}
    verb, _, rest = render(sentence, ctx.messages).partition(" ")
    return Clause(verb, None, "declared", said=sentence, generic=rest)


def action_clause(ctx: Ctx, node: Node) -> Clause | None:
    words = ACTION_WORDS.get(node.type.name)
    chain = action_chain(ctx.behavior, node)
    if words is None and node.type.describe is not None:
        return _declared(ctx, node, None if chain is None else chain_phrase(ctx, chain, "from"))
    if chain is None:  # it acts on no units or cards: on the player, or on the battle
        if words is None:
            return None
        subject = _player(ctx) if words.player else None
        return Clause(words.other.verb, words.body(ctx, node), "plain", subject=subject)
    target = chain_phrase(ctx, chain, "from")
    if words is None:
        return _generic(node.type.name, target)
    verb = words.other
    if target.is_self and words.itself is not None:
        verb = words.itself
    elif target.key == "attacker" and words.attacker is not None:
        verb = words.attacker
    elif target.own_side and words.ally is not None:
        verb = words.ally
    body = _body(verb.body, words.body(ctx, node), target)
    return Clause(verb.verb, body, verb.form, target, verb.prep)


def _generic(type_name: str, target: Phrase) -> Clause:
    """An action this describer has no words for: its type name as plain words."""
    words = re.sub(r"(?<=[a-z])(?=[A-Z])", " ", type_name).lower().split()
    verb = words[0] if words else "affect"
    return Clause(verb, None, "generic", target, generic="".join(" " + w for w in words[1:]))


def _player(ctx: Ctx) -> str | None:
    """Draw and energy belong to the player: said directly on a card, named elsewhere."""
    return None if ctx.subject.host is HostKind.CARD else "the player"


def _verb_id(ctx: Ctx, kind: str, clause: Clause, subject: bool = True) -> str:
    """The message of a verb's use: ``describe.act.deal``, ``.third`` ("deals"), ``.player``
    ("the player draws")."""
    suffix = ""
    if subject and clause.subject is not None:
        suffix = ".player"
    elif ctx.voice is Voice.THIRD:
        suffix = ".third"
    head, _, tail = kind.partition(".")
    return f"describe.{head}.{clause.verb}{suffix}" + (f".{tail}" if tail else "")


def _with_condition(clause: Said, target: Phrase | None) -> Said:
    if target is None or not target.condition:
        return clause
    condition = as_words(target.condition.removeprefix(" if "))
    return said("describe.clause.if", clause=clause, condition=condition)


def _render(ctx: Ctx, clauses: Sequence[Clause]) -> Said:
    """One clause, or several merged ones: same target ("Deal 4 damage and apply 2 Burn to a
    random enemy") or same verb with no target ("Gain 5 armor and 2 Strength")."""
    first = clauses[0]
    if any(c.form == "declared" for c in clauses):
        return _declared_render(ctx, clauses)
    if first.form == "to":
        target = first.target
        assert target is not None
        parts = [
            said(_verb_id(ctx, "act", c, subject=i == 0), body=c.body)
            for i, c in enumerate(clauses)
        ]
        told = said(f"describe.to.{first.prep}", actions=joined(parts),
                    target=target_said(ctx, target))  # fmt: skip
        return _with_condition(told, target)
    if first.form == "plain":
        bodies = [c.body for c in clauses if c.body is not None]
        if not bodies:  # a verb with nothing to say after it
            return as_words(f"{first.verb} ")
        told = said(_verb_id(ctx, "act", first), body=joined(bodies))
        return _with_condition(told, first.target)
    target = first.target
    assert target is not None
    text = target_said(ctx, target)
    if first.form == "generic":
        verb = third(first.verb) if ctx.voice is Voice.THIRD else first.verb
        return as_words(f"{verb} {render(text)}{first.generic}{target.condition}")
    if first.form == "give":
        told = said(_verb_id(ctx, "give", first), target=text, body=first.body)
    elif first.body is not None:
        told = said(_verb_id(ctx, "object.with", first), target=text, body=first.body)
    else:
        told = said(_verb_id(ctx, "object", first), target=text)
    return _with_condition(told, target)


def _declared_render(ctx: Ctx, clauses: Sequence[Clause]) -> Said:
    """An extension's action: its own message when it stands alone on a card or a move; merged
    with the actions of the same verb before and after it ("scry 3 and 2"), or said by a
    status's holder ("scries 3"), its English as the describer joins it."""
    first = clauses[0]
    alone = len(clauses) == 1 and first.subject is None and ctx.voice is Voice.IMPERATIVE
    if alone and first.said is not None and first.generic:
        return first.said
    bodies = [c.generic if c.body is None else render(c.body) for c in clauses]
    verb = third(first.verb) if ctx.voice is Voice.THIRD else first.verb
    if first.subject is not None:
        verb = f"{first.subject} {third(first.verb)}"
    return as_words(f"{verb} {join(bodies)}")


def _as_plain(clause: Clause) -> Clause:
    if clause.form != "declared":
        return clause
    return Clause(clause.verb, None, "plain", subject=clause.subject)


def _mergeable(a: Clause, b: Clause) -> bool:
    if a.form == "declared" or b.form == "declared":  # an extension's action is said plainly
        a, b = _as_plain(a), _as_plain(b)
    if a.form != b.form or a.subject != b.subject:
        return False
    if a.form == "to":
        return bool(
            a.target is not None
            and b.target is not None
            and a.target.key is not None
            and a.target.key == b.target.key
            and a.target.text == b.target.text
            and a.prep == b.prep
            and not a.target.condition
            and not b.target.condition
        )
    if a.form != "plain" or a.verb != b.verb:
        return False
    if a.target is None or b.target is None:
        return a.target is None and b.target is None
    return a.target.is_self and b.target.is_self and not (a.target.condition or b.target.condition)


def _flush(ctx: Ctx, pending: list[Clause], out: list[Said]) -> None:
    groups: list[list[Clause]] = []
    for clause in pending:
        if groups and _mergeable(groups[-1][-1], clause):
            groups[-1].append(clause)
        else:
            groups.append([clause])
    out.extend(_render(ctx, group) for group in groups)
    pending.clear()


def arm(ctx: Ctx, node_id: str | None, top: bool) -> list[Said]:
    """The flow from ``node_id`` as clauses (each a sentence at the top level)."""
    out: list[Said] = []
    pending: list[Clause] = []
    nodes = ctx.behavior.nodes
    while node_id is not None and node_id in nodes:
        node = nodes[node_id]
        role = node.type.role
        if role is Role.BRANCH:
            _flush(ctx, pending, out)
            condition = condition_text(ctx, node.ports.get("condition"))
            then = arm(ctx, node.exits.get("then"), top=False)
            otherwise = arm(ctx, node.exits.get("else"), top=False)
            if then and otherwise:
                both = "describe.branch.both" if top else "describe.branch.both.inner"
                out.append(said(both, condition=condition, then=joined(then),
                                otherwise=joined(otherwise)))  # fmt: skip
            elif then:
                out.append(said("describe.branch.then", condition=condition, then=joined(then)))
            elif otherwise:
                out.append(
                    said("describe.branch.unless", condition=condition, otherwise=joined(otherwise))
                )
        elif role is Role.GATE:
            _flush(ctx, pending, out)
            condition = condition_text(ctx, node.ports.get("condition"))
            rest = arm(ctx, node.next, top=False)
            if rest:
                out.append(said("describe.branch.then", condition=condition, then=joined(rest)))
            return out
        elif role is Role.ACTION:
            clause = action_clause(ctx, node)
            if clause is not None:
                pending.append(clause)
        node_id = node.next
    _flush(ctx, pending, out)
    return out


# -- conditions --------------------------------------------------------------------------------
def condition_text(ctx: Ctx, node_id: str | None) -> Said:
    """A Condition node as a clause that can follow "if"."""
    node = ctx.behavior.nodes.get(node_id or "")
    if node is None or node.type.role is not Role.CONDITION:
        return phrase("it can")
    fields = node.fields
    test = fields["test"]
    chain = condition_chain(ctx.behavior, node)
    if test in ("empty", "not_empty") and chain is not None:
        return phrase(_exists(ctx, chain, negate=test == "empty"))
    if test == "compare":
        return _compare(ctx, fields, chain)
    if chain is None:
        return phrase("it can")
    told = chain_phrase(ctx, chain, "in")  # every unit of the input must pass the test
    person, subject = _teller(ctx, told)
    if test == "alive":
        return said(f"describe.if.alive.{person}", **subject)
    status = ctx.status_param(str(fields["status"]))
    return said(f"describe.if.stacks.some.{person}", **subject, status=status)


def _teller(ctx: Ctx, told: Phrase) -> tuple[str, dict[str, Said]]:
    """Whom a condition tells of, as the persons of its messages: "you" (no subject), "one"
    or "many" (with the subject's phrase)."""
    person = _person(ctx, told)
    if person == "you":
        return "you", {}
    subject = phrase("it") if told.is_self else target_said(ctx, told)
    return ("one" if person == "it" else "many"), {"subject": subject}


def _keeps_existence(step: Node) -> bool:
    """Does the step leave "is there anything?" unchanged: ordering, a snapshot, keeping at
    least one element, or picking either end?"""
    node_type = step.type
    if only_orders(node_type) or node_type.role is Role.SNAPSHOT:
        return True
    if picks(node_type):
        return int(step.fields["index"]) in (0, -1)
    return reduces(node_type) and limit_of(step) >= 1


def _exists(ctx: Ctx, chain: Chain, negate: bool) -> str:
    """ "there is an enemy with Burn", "your draw pile is empty", "the selected enemy has Burn"."""
    steps = tuple(s for s in chain.steps if not _keeps_existence(s))
    chain = Chain(chain.kind, chain.root, chain.root_node, steps, chain.via_port)
    one = single(ctx, chain)
    if one is not None:
        where: dict[str, Any] = {}
        for step in steps:
            if filters(step.type):
                where.update(step.fields.get("where") or {})
        person = _person(ctx, one)
        subject = _subject_text(ctx, one)
        predicates = predicates_of(ctx, where)
        if not predicates:
            return f"{subject} {conj('is', person)} {'not ' if negate else ''}there"
        if negate:
            return f"{subject} " + " or ".join(conj_phrase(neg, person) for *_, neg in predicates)
        return f"{subject} " + join([f"{conj(v, person)} {rest}" for v, rest, _ in predicates])
    group = root_group(ctx, chain)
    if group is None:
        return "there is nothing" if negate else "there is something"
    plain = not steps
    for step in steps:
        if filters(step.type):
            describe_filter(ctx, group, step.fields.get("where") or {}, chain.kind)
    if any(not filters(s.type) for s in steps):
        text = chain_phrase(ctx, chain, "in").text
        return f"{text} is {'not ' if negate else ''}there"
    if plain and group.where is not None:
        return f"{group.where} is {'empty' if negate else 'not empty'}"
    if negate:
        return group.np("there is no ", prep="in")
    return group.np("there is " + article(group.head()), prep="in")


#: The selector that picks one element by position: what a unit measure reads is the first.
_PICK = next(t for t in NODE_TYPES.values() if picks(t))


def _first_unit(ctx: Ctx, chain: Chain) -> Phrase:
    """What a unit measure reads: the first unit of the chain."""
    phrase = chain_phrase(ctx, chain, "in")
    if not phrase.plural or single(ctx, chain) is not None:
        return phrase
    first = Node("(first)", _PICK, {"index": 0}, {})
    return chain_phrase(
        ctx,
        Chain(chain.kind, chain.root, chain.root_node, (*chain.steps, first), chain.via_port),
        "in",
    )


def _compare(ctx: Ctx, fields: Mapping[str, Any], chain: Chain | None) -> Said:
    measure, op, value = fields["measure"], fields["op"], fields["value"]
    name = OPS[op]
    you = "you" if ctx.subject.host is HostKind.CARD else "player"
    if measure == "energy":
        return said(f"describe.if.energy.{name}.{you}", amount=value)
    if measure == "hand_size":
        return said(f"describe.if.hand.{name}.{you}", count=value)
    if measure == "turn":
        return said(f"describe.if.turn.{name}", turn=value)
    if chain is None:
        return phrase("it can")
    if measure == "count":
        return phrase(_count(ctx, chain, op, value))
    person, subject = _teller(ctx, _first_unit(ctx, chain))
    if measure == "hp_percent":
        if value == 100 and op in (">=", "=="):
            return said(f"describe.if.health_share.at_full.{person}", **subject)
        share = {50: "half", 100: "full"}.get(value if isinstance(value, int) else -1)
        if share is None:
            return said(f"describe.if.health_share.{name}.percent.{person}", **subject,
                        percent=value)  # fmt: skip
        return said(f"describe.if.health_share.{name}.{share}.{person}", **subject)
    if measure == "hp":
        return said(f"describe.if.hp.{name}.{person}", **subject, hp=value)
    kind, noun = "armor", {}
    if measure != "armor":
        kind, noun = "stacks", {"status": ctx.status_param(str(fields.get("status")))}
    if (op, value) in (("==", 0), ("<=", 0), ("<", 1)):
        return said(f"describe.if.{kind}.none.{person}", **subject, **noun)
    if (op, value) in ((">", 0), (">=", 1), ("!=", 0)):
        return said(f"describe.if.{kind}.some.{person}", **subject, **noun)
    return said(f"describe.if.{kind}.{name}.{person}", **subject, **noun, **{kind: value})


def _count(ctx: Ctx, chain: Chain, op: str, value: object) -> str:
    group = root_group(ctx, chain)
    if group is None:
        phrase = chain_phrase(ctx, chain, "in")
        return f"the number of {phrase.text} is {quantity(op, value, 'fewer')}"
    for step in chain.steps:
        if filters(step.type):
            describe_filter(ctx, group, step.fields.get("where") or {}, chain.kind)
    if (op, value) in (("==", 0), ("<", 1), ("<=", 0)):
        return group.np("there is no ", prep="in")
    if (op, value) in ((">", 0), (">=", 1), ("!=", 0)):
        return group.np("there is " + article(group.head()), prep="in")
    one = value == 1
    verb = "is" if one else "are"
    return group.np(f"there {verb} {quantity(op, value, 'fewer')} ", not one, "in")


def _person(ctx: Ctx, phrase: Phrase) -> str:
    if phrase.is_self:
        return "you" if ctx.voice is Voice.IMPERATIVE else "it"
    return "they" if phrase.plural else "it"


def _subject_text(ctx: Ctx, phrase: Phrase) -> str:
    """A phrase as the subject of a condition ("you", "it", "the selected enemy")."""
    if phrase.is_self:
        return "you" if ctx.voice is Voice.IMPERATIVE else "it"
    return target_text(ctx, phrase)
