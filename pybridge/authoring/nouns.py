"""Noun phrases for what a Behavior's collections hold: "the selected enemy", "all fallen
allies", "the enemy with the lowest health", "a random card from your draw pile".

A chain (a source, then its selectors) becomes one phrase. Who a source names follows its spec
(the Host itself, the submitted selection, the unit it falls back on); what it is called comes
from the words tables of :mod:`.phrases`; selectors are told apart by their facts (a ``where``
filter, a reducing ``limit``, a ``random`` pick), never by their names.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from ..runtime import sources
from ..runtime.context import HostKind
from ..runtime.graph import STACKS, Behavior, Kind, Node
from ..runtime.model import StatusDef
from ..runtime.nodes import Role
from ..runtime.sentences import Said, data, said
from ..runtime.sources import CardWords, UnitWords
from ..runtime.vocabulary import CounterSpec, Message
from ..words.describing import RANKS, ranked_id
from .analysis import (
    OWN_SIDE,
    Chain,
    Standing,
    Subject,
    filters,
    limit_of,
    mode_sides,
    only_orders,
    picks,
    reduces,
    rerolls,
    root_reach,
    unit_reach,
)
from .grammar import conj, indefinite, join, ordinal, plural, span, title
from .phrases import MODE_WORDS, PILE_WORDS, SUPERLATIVES
from .speech import phrase


def status_name(status_id: str, statuses: Mapping[str, StatusDef]) -> str:
    """A status by its name in the battle's definitions, else its id in title case."""
    definition = statuses.get(status_id)
    return definition.name if definition is not None else title(status_id)


# -- context -----------------------------------------------------------------------------------
class Voice(Enum):
    IMPERATIVE = "imperative"  # cards and moves: "Deal 6 damage ..."
    THIRD = "third"  # statuses, about their holder: "takes damage ..."


@dataclass
class Ctx:
    """What the describer knows while it writes one Behavior (a :class:`.phrases.Speaker`)."""

    subject: Subject
    behavior: Behavior
    statuses: Mapping[str, StatusDef]
    voice: Voice = Voice.IMPERATIVE
    status: str | None = None  # the status whose Behavior this is ("amount": "stacks")
    mentioned: set[str] = field(default_factory=set)
    #: The ``describe`` messages of the extension actions said so far, by id.
    messages: dict[str, Message] = field(default_factory=dict)
    #: The battle's counters, by name (their labels name a counter amount).
    counters: Mapping[str, CounterSpec] = field(default_factory=dict)

    @property
    def your(self) -> str:
        return "your" if self.subject.host is HostKind.CARD else "the player's"

    @property
    def their(self) -> str:
        return "your" if self.subject.host is HostKind.CARD else "their"

    def status_name(self, status_id: str) -> str:
        return status_name(status_id, self.statuses)

    def counter(self, amount: Mapping[str, object]) -> Said:
        """A counter amount as its sentence, the counter's name under its label's context
        (a host translates it as the log's counter lines)."""
        told = phrase(counter_amount_words(amount))
        params = told["params"]
        if "counter" in params:
            spec = self.counters.get(str(amount["counter"]))
            label = spec.label if spec is not None else None
            context = label.id if label is not None else f"counter.{amount['counter']}"
            told = said(told["id"], **{**params, "counter": data(context, params["counter"])})
        return told

    def status_param(self, status_id: str) -> dict[str, str]:
        return {"status": status_id, "name": self.status_name(status_id)}

    def amount(self, node: Node, noun: str) -> Said:
        amount = node.fields.get("amount")
        if amount == STACKS:
            if self.status is None:
                return said(f"describe.amount.{noun}.its_stacks")
            return said(f"describe.amount.{noun}.stacks", status=self.status_param(self.status))
        if isinstance(amount, Mapping):  # read from a battle counter
            return said(f"describe.amount.{noun}.counter", counter=self.counter(amount))
        return said(f"describe.amount.{noun}", amount=amount)


def counter_amount_words(amount: Mapping[str, object]) -> str:
    """ "2 times your Combo plus 3": a counter amount in words (the counter's own label)."""
    name = str(amount["counter"]).replace("_", " ").title()
    times, plus = amount.get("times", 1), amount.get("plus", 0)
    text = f"your {name}" if times == 1 else f"{times} times your {name}"
    return text if not plus else f"{text} plus {plus}"


# -- noun phrases ------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Phrase:
    """A noun phrase for a unit or card collection. ``again`` is used after the first mention
    of the same ``key``; ``condition`` ends the clause ("if it has Burn")."""

    text: str
    again: str = ""
    key: str | None = None
    is_self: bool = False
    plural: bool = False
    condition: str = ""
    own_side: bool = False
    #: Its first mention as a sentence, where the describer has a whole message for it.
    said: Said | None = None


@dataclass
class Group:
    """A described collection before it is reduced: "Goblin enemies with Burn"."""

    singular: str
    plural: str
    tail: str = ""  # after the head noun: "in reserve", "waiting to resolve"
    pre: list[str] = field(default_factory=list)
    post: list[tuple[str, str]] = field(default_factory=list)
    #: The qualifiers of a unit group as sentences, one per ``post`` ("with {status}").
    post_said: list[Said] = field(default_factory=list)
    where: str | None = None  # a pile: "your draw pile"
    first: str = "first"  # the word for index 0: "first", "top" (a pile), "leftmost" (hand)
    last: str = "last"
    ends: tuple[str, str] = ("start", "end")  # counting from: "from the top of your draw pile"
    inside: str = "of"  # "the top card of your draw pile", "the leftmost card in your hand"

    def head(self, plural: bool = False) -> str:
        """The noun with its adjectives, without the qualifiers that follow it."""
        words = [*self.pre, self.plural if plural else self.singular]
        return " ".join(words) + (f" {self.tail}" if self.tail else "")

    def qualifiers(self, plural: bool = False) -> str:
        return "".join(" " + (p if plural else s) for s, p in self.post)

    def noun(self, plural: bool = False) -> str:
        return self.head(plural) + self.qualifiers(plural)

    def np(self, before: str, plural: bool = False, prep: str = "from") -> str:
        """``before`` + the noun, its pile ("from your hand"), then its qualifiers: "all cards
        in your hand that cost 1 or less", "a random enemy with Burn"."""
        where = "" if self.where is None else f" {prep} {self.where}"
        return f"{before}{self.head(plural)}{where}{self.qualifiers(plural)}"


def root_group(ctx: Ctx, chain: Chain) -> Group | None:
    """The group a chain's source yields, before its selectors; None for a source that names
    one unit or card (see :func:`single`)."""
    if chain.kind is Kind.UNITS:
        spec = ctx.subject.unit_source(chain.root)
        words = None if spec is None else spec.words
        if words is None or words.noun is None:
            return None
        group = Group(*words.noun, words.tail)
        if words.pre:
            group.pre.append(words.pre)
        if words.team is not None:  # an absolute team, seen from the Host
            _team_noun(ctx, group, words.team)
        return group
    card_spec = ctx.subject.card_source(chain.root)
    card_words = None if card_spec is None else card_spec.words
    if card_words is None or card_words.phrase:
        return None
    if card_words.place is None:
        where = f"{ctx.your} {card_words.where}"
        return Group("card", "cards", where=where, inside=card_words.inside)
    pile = PILE_WORDS[card_words.place]
    return Group(
        "card",
        "cards",
        pile.tail,
        where=f"{ctx.your} {pile.name}" if pile.name else None,
        first=pile.first,
        last=pile.last,
        ends=pile.ends,
        inside=pile.inside,
    )


def selected(ctx: Ctx) -> Phrase:
    """The unit(s) the mode submits through Target: clicked, or chosen at random."""
    subject = ctx.subject
    mode = subject.mode
    assert mode is not None and subject.submits
    words = MODE_WORDS[mode]
    noun = words.noun
    group = Group(noun, plural(noun))
    describe_filter(ctx, group, subject.target_filter, Kind.UNITS)
    count = subject.target_count
    one, many = group.noun(), group.noun(plural=True)
    up_to = "up to " if subject.up_to else ""
    if count == 1:
        first = f"{words.determiner} {one}" if words.determiner else indefinite(one)
        again = first if words.repeat else f"that {noun}"
    else:
        adjective = f"{words.many} " if words.many else ""
        first = f"{up_to}{count} {adjective}{many}"
        again = f"those {plural(noun)}"
    sides = mode_sides(mode.facts.reach)
    own = bool(sides) and sides <= OWN_SIDE
    return Phrase(first, again, "selected", plural=count > 1, own_side=own)


def _named(ctx: Ctx, words: UnitWords | CardWords) -> Said | None:
    """A phrase a source declared as its message, as that message (said by its id, which a
    host translates); None for words in English alone."""
    message = words.message
    if not isinstance(message, Message):
        return None
    ctx.messages[message.id] = message
    return said(message.id)


def _opponent(ctx: Ctx, root: str, words: UnitWords) -> Phrase:
    """A source that reads the submitted unit when it stands on the other side (Opponent): the
    attacker in a reaction, the selection of a mode that reaches only the other side, else the
    unit it falls back on."""
    subject = ctx.subject
    if subject.reaction:
        return Phrase("the attacker", "the attacker", "attacker")
    mode = subject.mode
    sides = mode_sides(mode.facts.reach) if mode is not None and subject.submits else frozenset()
    if sides == {Standing.OTHER}:
        if subject.target_count == 1:
            return selected(ctx)
        noun = MODE_WORDS[mode].noun if mode is not None else "enemy"
        return Phrase(f"the first selected {noun}", f"that {noun}", "selected-first")
    if Standing.OTHER in sides:  # the selection may be on either side
        noun = MODE_WORDS[mode].noun if mode is not None else "unit"
        text = f"the selected {noun} if it is an enemy, otherwise {words.phrase}"
        return Phrase(text, text)
    return Phrase(words.phrase, words.again or words.phrase, "first-enemy", said=_named(ctx, words))


def single(ctx: Ctx, chain: Chain) -> Phrase | None:
    """The phrase for a source that names one unit or card (or the selection), else None."""
    if chain.kind is Kind.CARDS:
        card_spec = ctx.subject.card_source(chain.root)
        card_words = None if card_spec is None else card_spec.words
        if card_words is None or not card_words.phrase:
            return None
        many = bool(card_words.many) and ctx.subject.target_count > 1
        text = card_words.many if many else card_words.phrase
        told = None if many else _named(ctx, card_words)
        return Phrase(text, text, f"source:{chain.root}", plural=many, said=told)
    spec = ctx.subject.unit_source(chain.root)
    words = None if spec is None else spec.words
    if spec is None or words is None:
        return None
    if spec.side is sources.Side.SELF:
        third = ctx.voice is Voice.THIRD and words.third
        text = words.third if third else words.phrase
        told = None if third else _named(ctx, words)
        return Phrase(text, text, "self", is_self=True, own_side=True, said=told)
    if spec.side is sources.Side.SUBMITTED:  # the mode's selection, if it submits one
        if ctx.subject.reaction:  # a reaction submits the attacker
            return Phrase("the attacker", "the attacker", "attacker")
        if ctx.subject.submits:
            return selected(ctx)
        return Phrase(words.phrase, words.phrase, said=_named(ctx, words))
    if spec.selection:
        return _opponent(ctx, chain.root, words)
    if not words.phrase:
        return None
    sides = root_reach(chain.root, ctx.subject).sides
    own = bool(sides) and sides <= OWN_SIDE
    text = words.phrase
    told = _named(ctx, words)
    return Phrase(text, words.again or text, f"source:{chain.root}", own_side=own, said=told)


#: How a chain is reduced: (what keeps: "pick", "take" or "random"; the index or count; the
#: order of a Sort before it: (by, direction, status)).
Order = tuple[str, str, str | None]
Reduction = tuple[str, int, Order | None]


def _reduction(step: Node, order: Order | None) -> Reduction:
    node_type = step.type
    if picks(node_type):
        return "pick", int(step.fields.get("index", 0)), order
    return ("random" if node_type.random else "take"), limit_of(step), order


def chain_phrase(ctx: Ctx, chain: Chain, prep: str = "from") -> Phrase:
    """A noun phrase for everything a chain yields."""
    one = single(ctx, chain)
    group = None if one is not None else root_group(ctx, chain)
    if one is None and group is None:
        return Phrase("nothing", "nothing")
    order: Order | None = None
    reduction: Reduction | None = None
    predicates: list[tuple[str, str, str]] = []
    for step in chain.steps:
        node_type = step.type
        if filters(node_type):
            where: Mapping[str, Any] = step.fields.get("where") or {}
            if group is not None and reduction is None:
                describe_filter(ctx, group, where, chain.kind)
            else:
                predicates.extend(predicates_of(ctx, where))
        elif only_orders(node_type) and reduction is None:
            order = (
                str(step.fields["by"]),
                str(step.fields.get("order") or "asc"),
                step.fields.get("status"),
            )
        elif reduces(node_type) and reduction is None:
            reduction = _reduction(step, order)
    steps = [s.id for s in chain.steps if s.type.role is not Role.SNAPSHOT]
    key: str | None = f"chain:{','.join(steps)}" if steps else f"source:{chain.root}"
    if rerolls(chain):
        key = None  # every pull picks again: two mentions are two different random picks
    if one is not None:
        if not predicates:
            return one
        person = "you" if one.is_self and ctx.voice is Voice.IMPERATIVE else "it"
        if one.plural:
            person = "they"
        condition = if_clause(person, predicates)
        return Phrase(
            one.text, one.again, one.key, one.is_self, one.plural, condition, one.own_side
        )
    assert group is not None
    own = _own_side(ctx, chain)
    text, many = _reduced(ctx, group, reduction, prep)
    condition = ""
    if predicates:
        condition = if_clause("they" if many else "it", predicates)
    again = text
    if key is not None and reduction is not None and reduction[0] == "random":
        again = f"those {group.plural}" if many else f"that {group.singular}"  # snapshotted
    told = _group_said(ctx, group, reduction)
    return Phrase(text, again, key, plural=many, condition=condition, own_side=own, said=told)


def if_clause(person: str, predicates: Sequence[tuple[str, str, str]]) -> str:
    """ " if it has Burn and at most 30% health" """
    said = join([f"{conj(verb, person)} {rest}" for verb, rest, _ in predicates])
    return f" if {person} {said}"


def _own_side(ctx: Ctx, chain: Chain) -> bool:
    if chain.kind is not Kind.UNITS:
        return False
    reach = unit_reach(chain, ctx.subject)
    return bool(reach.sides) and reach.sides <= OWN_SIDE


def _reduced(ctx: Ctx, group: Group, reduction: Reduction | None, prep: str) -> tuple[str, bool]:
    """The group after a pick, a take or a random choice; (text, plural)."""
    if reduction is None:
        return group.np("all ", True, "in" if prep == "of" else prep), True
    how, number, order = reduction
    if how != "pick" and number == 0:
        return group.np("no ", True, prep), True
    if how == "random":
        if number == 1:
            return group.np("a random ", False, prep), False
        return group.np(f"up to {number} random ", True, prep), True
    if how == "take":
        if order is not None:
            sup = _superlative(ctx, order, first=True)
            if number == 1:
                return _ranked(group, "the ", False, sup, prep), False
            return _ranked(group, f"the {number} ", True, sup, prep), True
        if number == 1:
            return _position(group, group.first, False), False
        return _position(group, group.first, True, number), True
    index = number
    if order is not None:
        rank = index if index >= 0 else -index - 1
        sup = _superlative(ctx, order, first=index >= 0)
        if rank:
            sup = sup.replace("the ", f"the {ordinal(rank + 1)} ", 1)
        return _ranked(group, "the ", False, sup, prep), False
    if index == 0:
        return _position(group, group.first, False), False
    if index == -1:
        return _position(group, group.last, False), False
    nth = ordinal(index + 1 if index >= 0 else -index)
    if group.where is None:
        word = nth if index >= 0 else f"{nth} to {group.last}"
        return f"the {word} {group.noun()}", False
    end = group.ends[0] if index >= 0 else group.ends[1]
    where = f"{group.inside} {group.where}"
    return f"the {nth} {group.head()} from the {end} {where}{group.qualifiers()}", False


def _ranked_said(ctx: Ctx, noun: str, reduction: Reduction) -> Said | None:
    """The first (or last) unit of a sorted group ("the enemy with the lowest health")."""
    how, number, order = reduction
    ends = {"take": number == 1, "pick": number in (0, -1)}.get(how)
    if order is None or not ends:  # "the 2nd lowest": no message of its own
        return None
    by, direction, status = order
    low = (direction == "asc") == (how == "take" or number >= 0)
    if by == "status":
        rank = "the least" if low else "the most"
        return said(ranked_id(noun, rank), status=ctx.status_param(str(status)))
    if by not in RANKS:
        return None
    return said(ranked_id(noun, RANKS[by][0 if low else 1]))


def _ranked(group: Group, before: str, many: bool, superlative: str, prep: str) -> str:
    """ "the enemy with the lowest health", "the card with the lowest cost in your hand"."""
    where = "" if group.where is None else f" {'in' if prep == 'of' else prep} {group.where}"
    return f"{before}{group.noun(many)} with {superlative}{where}"


def _position(group: Group, word: str, many: bool, count: int = 1) -> str:
    """ "the first enemy", "the top 2 cards of your draw pile", "the 2 leftmost cards in your
    hand"."""
    if count > 1:
        word = f"{count} {word}" if word.endswith("most") else f"{word} {count}"
    if group.where is None:
        return f"the {word} {group.noun(many)}"
    where = f" {group.inside} {group.where}"
    return f"the {word} {group.head(many)}{where}{group.qualifiers(many)}"


def _superlative(ctx: Ctx, order: Order, first: bool) -> str:
    """What the first (or last) element of a sorted collection has the most or least of."""
    by, direction, status = order
    low = (direction == "asc") == first
    if by == "status":
        name = ctx.status_name(str(status))
        return f"the least {name}" if low else f"the most {name}"
    lowest, highest = SUPERLATIVES.get(by, (f"the lowest {by}", f"the highest {by}"))
    return lowest if low else highest


# -- filters -----------------------------------------------------------------------------------
def _team_noun(ctx: Ctx, group: Group, team: str) -> None:
    """Units of an absolute team, as the Host sees them: enemies, allies, or (when the Host's
    team is unknown) units on that side."""
    host_team = ctx.subject.team
    if host_team is None:
        group.tail = f"on the {team} side"
    else:
        mine = team == host_team.value
        group.singular, group.plural = ("ally", "allies") if mine else ("enemy", "enemies")


def describe_filter(ctx: Ctx, group: Group, where: Mapping[str, Any], kind: Kind) -> None:
    """Narrow a group's description by Filter conditions."""
    if kind is Kind.CARDS:
        describe_card_filter(group, where)
        return
    team = where.get("team")
    if isinstance(team, str) and group.singular == "unit" and not group.tail:
        _team_noun(ctx, group, team)
    if where.get("alive") is False and "fallen" not in group.pre:
        group.pre.insert(0, "fallen")
    tag = where.get("tag")
    if isinstance(tag, str):
        group.pre.append(title(tag))
    if "tier" in where:
        group.pre.append(f"tier {where['tier']}")
    low, high = where.get("tier_min"), where.get("tier_max")
    if low is not None or high is not None:
        tiers = span(low, high, "of tier {} or higher", "of tier {} or lower", "of tier {} to {}")
        group.post.append((tiers, tiers))
        group.post_said.append(_span_said("describe.qualifier.tier", low, high))
    status = where.get("status")
    if isinstance(status, str):
        text = f"with {ctx.status_name(status)}"
        group.post.append((text, text))
        group.post_said.append(said("describe.qualifier.status", status=ctx.status_param(status)))
    low, high = where.get("hp_percent_min"), where.get("hp_percent_max")
    if low is not None or high is not None:
        health = span(
            low,
            high,
            "with at least {}% health",
            "with at most {}% health",
            "with {}% to {}% health",
        )
        group.post.append((health, health))
        group.post_said.append(_span_said("describe.qualifier.health", low, high))


def _span_said(message_id: str, low: object, high: object) -> Said:
    if low is not None and high is not None:
        return said(f"{message_id}.between", low=low, high=high)
    if low is not None:
        return said(f"{message_id}.at_least", low=low)
    return said(f"{message_id}.at_most", high=high)


#: The unit nouns a group has whole messages for, and their plurals.
_GROUP_NOUNS = {"enemy": "enemies", "ally": "allies", "unit": "units"}


def _group_said(ctx: Ctx, group: Group, reduction: Reduction | None) -> Said | None:
    """ "all enemies with Burn", "a random ally of tier 2 or higher", "up to 2 random enemies
    with Burn", "the enemy with the lowest health" as whole messages: a unit group with no
    words before its noun."""
    plain = not group.pre and not group.tail and group.where is None
    if not plain or _GROUP_NOUNS.get(group.singular) != group.plural:
        return None
    if reduction is not None and not group.post:
        return _ranked_said(ctx, group.singular, reduction)
    if not group.post or len(group.post_said) != len(group.post):
        return None
    qualifiers = group.post_said[-1]
    for qualifier in reversed(group.post_said[:-1]):
        qualifiers = said("describe.qualifiers", first=qualifier, rest=qualifiers)
    if reduction is None:
        return said(f"describe.group.all.{group.singular}", qualifiers=qualifiers)
    how, number, _ = reduction
    if how != "random" or number < 1:
        return None
    if number == 1:
        return said(f"describe.group.random.{group.singular}", qualifiers=qualifiers)
    return said(f"describe.group.up_to_random.{group.singular}", count=number,
                qualifiers=qualifiers)  # fmt: skip


def describe_card_filter(group: Group, where: Mapping[str, Any]) -> None:
    card_type = where.get("type")
    if isinstance(card_type, str):
        group.singular = title(card_type)
        group.plural = plural(group.singular)
    for key in ("rarity", "tag"):
        value = where.get(key)
        if isinstance(value, str):
            group.pre.append(title(value))
    keyword = where.get("keyword")
    if isinstance(keyword, str):
        text = f"with {title(keyword)}"
        group.post.append((text, text))
    if "cost" in where:
        group.post.append((f"that costs {where['cost']}", f"that cost {where['cost']}"))
    low, high = where.get("cost_min"), where.get("cost_max")
    if low is not None or high is not None:
        costs = span(low, high, "{} or more", "{} or less", "{} to {}")
        group.post.append((f"that costs {costs}", f"that cost {costs}"))


def predicates_of(ctx: Ctx, where: Mapping[str, Any]) -> list[tuple[str, str, str]]:
    """Filter conditions said of one unit: (verb, rest, negated verb phrase rest)."""
    out: list[tuple[str, str, str]] = []
    for key, want in where.items():
        if key == "status":
            name = ctx.status_name(str(want))
            out.append(("has", name, f"does not have {name}"))
        elif key == "team":
            noun = (
                "an enemy"
                if ctx.subject.team is not None and want != ctx.subject.team.value
                else f"on the {want} side"
            )
            if ctx.subject.team is not None and want == ctx.subject.team.value:
                noun = "an ally"
            out.append(("is", noun, f"is not {noun}"))
        elif key == "tag":
            noun = indefinite(title(str(want)))
            out.append(("is", noun, f"is not {noun}"))
        elif key == "tier":
            out.append(("is", f"tier {want}", f"is not tier {want}"))
        elif key == "tier_min":
            out.append(("is", f"tier {want} or higher", f"is below tier {want}"))
        elif key == "tier_max":
            out.append(("is", f"tier {want} or lower", f"is above tier {want}"))
        elif key == "hp_percent_min":
            out.append(("has", f"at least {want}% health", f"has less than {want}% health"))
        elif key == "hp_percent_max":
            out.append(("has", f"at most {want}% health", f"has more than {want}% health"))
        elif key == "alive":
            out.append(("is", "alive", "has fallen") if want else ("has", "fallen", "is alive"))
        elif key == "type":
            out.append(("is", indefinite(title(str(want))), f"is not a {title(str(want))}"))
        elif key in ("rarity", "keyword"):
            out.append(("is", title(str(want)), f"is not {title(str(want))}"))
        elif key in ("cost", "cost_min", "cost_max"):
            bound = {"cost": "", "cost_min": " or more", "cost_max": " or less"}[key]
            out.append(("costs", f"{want}{bound}", f"does not cost {want}{bound}"))
    return out


def target_said(ctx: Ctx, told: Phrase) -> Said:
    """:func:`target_text` as a sentence."""
    again = told.key is not None and told.key in ctx.mentioned and bool(told.again)
    text = target_text(ctx, told)
    return told.said if told.said is not None and not again else phrase(text)


def target_text(ctx: Ctx, phrase: Phrase) -> str:
    """A phrase as written here: its first words, or ``again`` after the first mention."""
    if phrase.key is not None and phrase.key in ctx.mentioned and phrase.again:
        return phrase.again
    if phrase.key is not None:
        ctx.mentioned.add(phrase.key)
    return phrase.text
