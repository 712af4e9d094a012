"""Write a card's player-facing text from its Behavior, in gameplay language.

The seeds' text guidance: describe what the player experiences, not the editor configuration.
"Deal 8 damage to the selected enemy.", not "Deal 8 to Opponent."; "Gain 6 armor.", not "Apply
armor to Self."; "Draw 2 cards from your draw pile.", not "Move 2 card refs."; "Apply 2 Burn to
all enemies.", not "Add status to unit collection."

The describer reads the same things the runtime resolves: the card's target mode (who is "the
selected enemy", "another ally", "a random enemy"), each action's connected ``target`` port or
else its ``source`` field, the selector chain behind a port ("the enemy with the lowest
health", "a random card from your draw pile", "up to 2 random enemies"), Branch and Gate
conditions ("If you are below half health, ... Otherwise, ..."), ``playable_if`` conditions,
keywords, and status names from the battle's status definitions.

>>> from pybridge.examples import demo_battle
>>> from pybridge.runtime import load_battle
>>> battle = load_battle(demo_battle())
>>> describe_card(battle.library["execute"], battle.statuses)
'Deal 10 damage to the enemy with the lowest health.'
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from ..runtime.graph import NODE_TYPES, STACKS, Behavior, Kind, Node
from ..runtime.model import CardDef, CardTargets, MoveDef, StatusDef
from ..runtime.modes import TargetMode
from .analysis import (
    OWN_SIDE,
    Chain,
    Host,
    Subject,
    action_chain,
    condition_chain,
    rerolls,
    unit_reach,
)

__all__ = [
    "describe_behavior",
    "describe_card",
    "describe_move",
    "describe_status",
    "status_name",
]


def describe_card(card: CardDef, statuses: Mapping[str, StatusDef] | None = None) -> str:
    """The player-facing text of a card: playability, effects, keywords."""
    ctx = _Ctx(Subject.of_card(card), card.behavior, statuses or {})
    sentences = []
    if card.playable_if:
        conditions = [_condition(ctx, rule.condition) for rule in card.playable_if]
        sentences.append("can only be played if " + _join(conditions))
    if card.card_targets is not None:
        sentences.append(_card_targets_needed(card.card_targets))
    sentences.extend(_arm(ctx, card.behavior.start, top=True))
    if card.choose_on_resolve:
        many = card.target_count > 1
        sentences.append(f"choose {'its targets' if many else 'its target'} as it resolves")
    if card.on_lost_target == "fail":
        sentences.append("if a target is lost before it resolves, it has no effect")
    elif card.on_lost_target == "skip":
        sentences.append("a target lost before it resolves is skipped; the rest still happens")
    sentences.extend(_title(keyword) for keyword in card.keywords)
    return _paragraph(sentences)


#: Where a card of a ``card_targets`` zone is, as a player reads it.
_ZONE_PLACES = {"hand": "in your hand", "draw": "in your draw pile",
                "discard": "in your discard pile", "exhaust": "in your exhaust pile",
                "cut": "waiting to resolve"}  # fmt: skip


def _card_targets_needed(spec: CardTargets) -> str:
    """``card_targets``: "can only be played while there is an Attack waiting to resolve"."""
    group = _Group("card", "cards")
    _describe_card_filter(group, spec.where)
    noun = group.noun()
    places = [_ZONE_PLACES.get(zone, f"in the {zone}") for zone in spec.zones]
    return f"can only be played while there is {_article(noun)}{noun} " + _join(places, "or")


def describe_move(move: MoveDef, statuses: Mapping[str, StatusDef] | None = None) -> str:
    """An enemy move's text, seen from the enemy (its "enemies" are the party)."""
    ctx = _Ctx(Subject.of_move(move), move.behavior, statuses or {})
    return _paragraph(_arm(ctx, move.behavior.start, top=True))


def describe_behavior(
    behavior: Behavior, subject: Subject, statuses: Mapping[str, StatusDef] | None = None
) -> str:
    """Any Behavior, for any Host: a card's, a move's, or a status hook's."""
    voice = _Voice.THIRD if subject.host is Host.STATUS else _Voice.IMPERATIVE
    ctx = _Ctx(subject, behavior, statuses or {}, voice=voice)
    return _paragraph(_arm(ctx, behavior.start, top=True))


_HOOK_OPENINGS = {
    "turn_start": "at the start of its turn, ",
    "turn_end": "at the end of its turn, ",
    "attacked": "when attacked, ",
}
_HOOK_TIMES = {"turn_start": "at the start of its turn", "turn_end": "at the end of its turn"}


def describe_status(status: StatusDef, statuses: Mapping[str, StatusDef] | None = None) -> str:
    """A status's text: its hooks (with the holder as "it"), damage modifiers, decay."""
    known = dict(statuses or {})
    known.setdefault(status.id, status)
    name = status.name
    sentences: list[str] = []
    decay = "wears off" if status.decay is None else f"goes down by {status.decay}"
    decay_told = False
    for hook, opening in _HOOK_OPENINGS.items():
        behavior = status.hooks.get(hook)
        if behavior is None:
            continue
        ctx = _Ctx(Subject(Host.STATUS, hook=hook), behavior, known, _Voice.THIRD, status.id)
        parts = _arm(ctx, behavior.start, top=False)
        if not parts:
            continue
        text = opening + _join(parts)
        if status.decay_on == hook:
            text += f", then {name} {decay}"
            decay_told = True
        sentences.append(text)
    for amount, what in ((status.damage_dealt, "attacks deal"), (status.damage_taken, "takes")):
        if amount:
            more = "more" if amount > 0 else "less"
            tail = " from attacks" if what == "takes" else ""
            sentences.append(f"{what} {abs(amount)} {more} damage{tail} per {name}")
    protection = status.protection
    if protection == "all":
        sentences.append("cannot be targeted")
    elif protection == "single":
        sentences.append("cannot be targeted by effects that target a single unit")
    if status.decay_on in _HOOK_TIMES and not decay_told:
        sentences.append(f"{decay} {_HOOK_TIMES[status.decay_on]}")
    return _paragraph(sentences)


def status_name(status_id: str, statuses: Mapping[str, StatusDef]) -> str:
    """A status by its name in the battle's definitions, else its id in title case."""
    definition = statuses.get(status_id)
    return definition.name if definition is not None else _title(status_id)


# -- context -----------------------------------------------------------------------------------
class _Voice(Enum):
    IMPERATIVE = "imperative"  # cards and moves: "Deal 6 damage ..."
    THIRD = "third"  # statuses, about their holder: "takes damage ..."


@dataclass
class _Ctx:
    subject: Subject
    behavior: Behavior
    statuses: Mapping[str, StatusDef]
    voice: _Voice = _Voice.IMPERATIVE
    status: str | None = None  # the status whose Behavior this is ("amount": "stacks")
    mentioned: set[str] = field(default_factory=set)

    @property
    def your(self) -> str:
        return "your" if self.subject.host is Host.CARD else "the player's"

    def status_name(self, status_id: str) -> str:
        return status_name(status_id, self.statuses)


# -- noun phrases ------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class _Phrase:
    """A noun phrase for a unit or card collection. ``again`` is used after the first mention
    of the same ``key``; ``condition`` ends the clause ("if it has Burn")."""

    text: str
    again: str = ""
    key: str | None = None
    is_self: bool = False
    plural: bool = False
    condition: str = ""
    own_side: bool = False


@dataclass
class _Group:
    """A described collection before it is reduced: "Goblin enemies with Burn"."""

    singular: str
    plural: str
    tail: str = ""  # after the head noun: "in reserve", "waiting to resolve"
    pre: list[str] = field(default_factory=list)
    post: list[tuple[str, str]] = field(default_factory=list)
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


_UNIT_GROUPS = {
    "AllOpponents": ("enemy", "enemies", ""),
    "AllAllies": ("ally", "allies", ""),
    "AllUnits": ("unit", "units", ""),
    "AllDeadAllies": ("ally", "allies", ""),
    "AllReserveAllies": ("ally", "allies", "in reserve"),
}
_PILES = {
    "HandPile": "hand",
    "DrawPile": "draw pile",
    "DiscardPile": "discard pile",
    "ExhaustPile": "exhaust pile",
    "AllPiles": "hand and piles",
}


def _root_group(ctx: _Ctx, root: str) -> _Group | None:
    if root in _UNIT_GROUPS:
        singular, plural, tail = _UNIT_GROUPS[root]
        group = _Group(singular, plural, tail)
        if root == "AllDeadAllies":
            group.pre.append("fallen")
        return group
    if root == "AllEnemies":  # the enemy team, whoever the Host is
        host = ctx.subject.host
        if host is Host.CARD:
            return _Group("enemy", "enemies")
        if host is Host.MOVE:
            return _Group("ally", "allies")
        return _Group("unit", "units", "on the enemy side")
    if root == "HandPile":  # index 0 is the left end of the hand
        return _Group(
            "card",
            "cards",
            where=f"{ctx.your} hand",
            first="leftmost",
            last="rightmost",
            ends=("left", "right"),
            inside="in",
        )
    if root == "AllPiles":
        return _Group("card", "cards", where=f"{ctx.your} {_PILES[root]}", inside="in")
    if root in _PILES:
        return _Group(
            "card",
            "cards",
            where=f"{ctx.your} {_PILES[root]}",
            first="top",
            last="bottom",
            ends=("top", "bottom"),
        )
    if root == "CutCards":
        return _Group("card", "cards", "waiting to resolve", first="newest", last="oldest")
    return None


def _selected(ctx: _Ctx) -> _Phrase:
    """The unit(s) the mode submits through Target: clicked, or chosen at random."""
    subject = ctx.subject
    mode = subject.mode
    if not subject.submits or mode is None:
        return _Phrase("no one", "no one")
    noun = {
        TargetMode.SINGLE_ENEMY: "enemy",
        TargetMode.RANDOM_OPPONENT: "enemy",
        TargetMode.ANY_UNIT: "unit",
    }.get(mode, "ally")
    group = _Group(noun, _plural(noun))
    _describe_filter(ctx, group, subject.target_filter, Kind.UNITS)
    count = subject.target_count
    one, many = group.noun(), group.noun(plural=True)
    up_to = "up to " if subject.up_to else ""
    if count == 1:
        first = {
            TargetMode.SINGLE_ENEMY: f"the selected {one}",
            TargetMode.OTHER_ALLY: f"another {one}",
            TargetMode.ANY_UNIT: f"any {one}",
            TargetMode.RANDOM_ALLY: f"a random {one}",
            TargetMode.RANDOM_OPPONENT: f"a random {one}",
        }.get(mode, _indefinite(one))
        again = first if mode is TargetMode.SINGLE_ENEMY else f"that {noun}"
    else:
        first = {
            TargetMode.SINGLE_ENEMY: f"{up_to}{count} selected {many}",
            TargetMode.OTHER_ALLY: f"{up_to}{count} other {many}",
            TargetMode.RANDOM_ALLY: f"{up_to}{count} random {many}",
            TargetMode.RANDOM_OPPONENT: f"{up_to}{count} random {many}",
        }.get(mode, f"{up_to}{count} {many}")
        again = f"those {_plural(noun)}"
    own = mode in (TargetMode.SINGLE_ALLY, TargetMode.OTHER_ALLY, TargetMode.RANDOM_ALLY)
    return _Phrase(first, again, "selected", plural=count > 1, own_side=own)


def _opponent(ctx: _Ctx) -> _Phrase:
    subject = ctx.subject
    if subject.reaction:
        return _Phrase("the attacker", "the attacker", "attacker")
    mode = subject.mode
    if mode in (TargetMode.SINGLE_ENEMY, TargetMode.RANDOM_OPPONENT):
        selected = _selected(ctx)
        if subject.target_count == 1:
            return selected
        return _Phrase("the first selected enemy", "that enemy", "selected-first")
    if mode is TargetMode.ANY_UNIT:
        text = "the selected unit if it is an enemy, otherwise the first enemy"
        return _Phrase(text, text)
    return _Phrase("the first enemy", "that enemy", "first-enemy")


def _self(ctx: _Ctx) -> _Phrase:
    text = "itself" if ctx.voice is _Voice.THIRD else "yourself"
    return _Phrase(text, text, "self", is_self=True, own_side=True)


def _single(ctx: _Ctx, root: str) -> _Phrase | None:
    if root == "Self":
        return _self(ctx)
    if root == "Target":
        return _selected(ctx)
    if root == "Opponent":
        return _opponent(ctx)
    if root == "ActivePlayer":
        own = ctx.subject.host is Host.CARD
        return _Phrase("the active party member", "the active party member", "active", own_side=own)
    if root == "ThisCard":
        return _Phrase("this card", "this card", "this-card")
    if root == "ChosenCards":  # chosen when the card resolves (choose_on_resolve)
        many = ctx.subject.target_count > 1
        text = "the chosen cards" if many else "the chosen card"
        return _Phrase(text, text, "chosen-cards", plural=many)
    return None


def _chain_phrase(ctx: _Ctx, chain: Chain, prep: str = "from") -> _Phrase:
    """A noun phrase for everything a chain yields."""
    single = _single(ctx, chain.root)
    group = None if single is not None else _root_group(ctx, chain.root)
    if single is None and group is None:
        return _Phrase("nothing", "nothing")
    order: tuple[str, str, str | None] | None = None
    reduction: tuple[str, int, tuple[str, str, str | None] | None] | None = None
    predicates: list[tuple[str, str, str]] = []
    for step in chain.steps:
        name = step.type.name
        if name == "Filter":
            where: Mapping[str, Any] = step.fields.get("where") or {}
            if group is not None and reduction is None:
                _describe_filter(ctx, group, where, chain.kind)
            else:
                predicates.extend(_predicates(ctx, where))
        elif name == "Sort" and reduction is None:
            order = (
                str(step.fields["by"]),
                str(step.fields.get("order") or "asc"),
                step.fields.get("status"),
            )
        elif name in ("PickElement", "Take", "RandomElements") and reduction is None:
            number = int(step.fields.get("index" if name == "PickElement" else "count", 0))
            reduction = (name, number, order)
    steps = [s.id for s in chain.steps if s.type.name != "Snapshot"]
    key: str | None = f"chain:{','.join(steps)}" if steps else f"source:{chain.root}"
    if rerolls(chain):
        key = None  # every pull picks again: two mentions are two different random picks
    if single is not None:
        if not predicates:
            return single
        person = "you" if single.is_self and ctx.voice is _Voice.IMPERATIVE else "it"
        if single.plural:
            person = "they"
        condition = _if_clause(person, predicates)
        return _Phrase(
            single.text,
            single.again,
            single.key,
            single.is_self,
            single.plural,
            condition,
            single.own_side,
        )
    assert group is not None
    own = _own_side(ctx, chain)
    text, plural = _reduced(ctx, group, reduction, prep)
    condition = ""
    if predicates:
        condition = _if_clause("they" if plural else "it", predicates)
    again = text
    if key is not None and reduction is not None and reduction[0] == "RandomElements":
        again = f"those {group.plural}" if plural else f"that {group.singular}"  # snapshotted
    return _Phrase(text, again, key, plural=plural, condition=condition, own_side=own)


def _if_clause(person: str, predicates: Sequence[tuple[str, str, str]]) -> str:
    """ " if it has Burn and at most 30% health" """
    said = _join([f"{_conj(verb, person)} {rest}" for verb, rest, _ in predicates])
    return f" if {person} {said}"


def _own_side(ctx: _Ctx, chain: Chain) -> bool:
    if chain.kind is not Kind.UNITS:
        return False
    reach = unit_reach(chain, ctx.subject)
    return bool(reach.sides) and reach.sides <= OWN_SIDE


def _reduced(
    ctx: _Ctx,
    group: _Group,
    reduction: tuple[str, int, tuple[str, str, str | None] | None] | None,
    prep: str,
) -> tuple[str, bool]:
    """The group after PickElement, Take or RandomElements; (text, plural)."""
    if reduction is None:
        return group.np("all ", True, "in" if prep == "of" else prep), True
    name, number, order = reduction
    if name in ("RandomElements", "Take") and number == 0:
        return group.np("no ", True, prep), True
    if name == "RandomElements":
        if number == 1:
            return group.np("a random ", False, prep), False
        return group.np(f"up to {number} random ", True, prep), True
    if name == "Take":
        if order is not None:
            sup = _superlative(ctx, order, first=True)
            if number == 1:
                return _ranked(group, "the ", False, sup, prep), False
            return _ranked(group, f"the {number} ", True, sup, prep), True
        if number == 1:
            return _position(group, group.first, False), False
        return _position(group, group.first, True, number), True
    index = number  # PickElement
    if order is not None:
        rank = index if index >= 0 else -index - 1
        sup = _superlative(ctx, order, first=index >= 0)
        if rank:
            sup = sup.replace("the ", f"the {_ordinal(rank + 1)} ", 1)
        return _ranked(group, "the ", False, sup, prep), False
    if index == 0:
        return _position(group, group.first, False), False
    if index == -1:
        return _position(group, group.last, False), False
    nth = _ordinal(index + 1 if index >= 0 else -index)
    if group.where is None:
        word = nth if index >= 0 else f"{nth} to {group.last}"
        return f"the {word} {group.noun()}", False
    end = group.ends[0] if index >= 0 else group.ends[1]
    where = f"{group.inside} {group.where}"
    return f"the {nth} {group.head()} from the {end} {where}{group.qualifiers()}", False


def _ranked(group: _Group, before: str, plural: bool, superlative: str, prep: str) -> str:
    """ "the enemy with the lowest health", "the card with the lowest cost in your hand"."""
    where = "" if group.where is None else f" {'in' if prep == 'of' else prep} {group.where}"
    return f"{before}{group.noun(plural)} with {superlative}{where}"


def _position(group: _Group, word: str, plural: bool, count: int = 1) -> str:
    """ "the first enemy", "the top 2 cards of your draw pile", "the 2 leftmost cards in your
    hand"."""
    if count > 1:
        word = f"{count} {word}" if word.endswith("most") else f"{word} {count}"
    if group.where is None:
        return f"the {word} {group.noun(plural)}"
    where = f" {group.inside} {group.where}"
    return f"the {word} {group.head(plural)}{where}{group.qualifiers(plural)}"


_SUPERLATIVES = {
    "hp": ("the lowest health", "the highest health"),
    "max_hp": ("the lowest maximum health", "the highest maximum health"),
    "armor": ("the least armor", "the most armor"),
    "tier": ("the lowest tier", "the highest tier"),
    "hp_percent": ("the lowest health percentage", "the highest health percentage"),
    "cost": ("the lowest cost", "the highest cost"),
}


def _superlative(ctx: _Ctx, order: tuple[str, str, str | None], first: bool) -> str:
    """What the first (or last) element of a sorted collection has the most or least of."""
    by, direction, status = order
    low = (direction == "asc") == first
    if by == "status":
        name = ctx.status_name(str(status))
        return f"the least {name}" if low else f"the most {name}"
    lowest, highest = _SUPERLATIVES.get(by, (f"the lowest {by}", f"the highest {by}"))
    return lowest if low else highest


def _describe_filter(ctx: _Ctx, group: _Group, where: Mapping[str, Any], kind: Kind) -> None:
    """Narrow a group's description by Filter conditions."""
    if kind is Kind.CARDS:
        _describe_card_filter(group, where)
        return
    team = where.get("team")
    if isinstance(team, str) and group.singular == "unit" and not group.tail:
        host_team = ctx.subject.team
        if host_team is None:
            group.tail = f"on the {team} side"
        else:
            mine = team == host_team.value
            group.singular, group.plural = ("ally", "allies") if mine else ("enemy", "enemies")
    if where.get("alive") is False and "fallen" not in group.pre:
        group.pre.insert(0, "fallen")
    tag = where.get("tag")
    if isinstance(tag, str):
        group.pre.append(_title(tag))
    if "tier" in where:
        group.pre.append(f"tier {where['tier']}")
    low, high = where.get("tier_min"), where.get("tier_max")
    if low is not None or high is not None:
        span = _span(low, high, "of tier {} or higher", "of tier {} or lower", "of tier {} to {}")
        group.post.append((span, span))
    status = where.get("status")
    if isinstance(status, str):
        text = f"with {ctx.status_name(status)}"
        group.post.append((text, text))
    low, high = where.get("hp_percent_min"), where.get("hp_percent_max")
    if low is not None or high is not None:
        span = _span(
            low,
            high,
            "with at least {}% health",
            "with at most {}% health",
            "with {}% to {}% health",
        )
        group.post.append((span, span))


def _describe_card_filter(group: _Group, where: Mapping[str, Any]) -> None:
    card_type = where.get("type")
    if isinstance(card_type, str):
        group.singular = _title(card_type)
        group.plural = _plural(group.singular)
    for key in ("rarity", "tag"):
        value = where.get(key)
        if isinstance(value, str):
            group.pre.append(_title(value))
    keyword = where.get("keyword")
    if isinstance(keyword, str):
        text = f"with {_title(keyword)}"
        group.post.append((text, text))
    if "cost" in where:
        group.post.append((f"that costs {where['cost']}", f"that cost {where['cost']}"))
    low, high = where.get("cost_min"), where.get("cost_max")
    if low is not None or high is not None:
        span = _span(low, high, "{} or more", "{} or less", "{} to {}")
        group.post.append((f"that costs {span}", f"that cost {span}"))


def _span(low: object, high: object, at_least: str, at_most: str, between: str) -> str:
    if low is not None and high is not None:
        return between.format(low, high)
    return at_least.format(low) if low is not None else at_most.format(high)


def _predicates(ctx: _Ctx, where: Mapping[str, Any]) -> list[tuple[str, str, str]]:
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
            noun = _indefinite(_title(str(want)))
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
            out.append(("is", _indefinite(_title(str(want))), f"is not a {_title(str(want))}"))
        elif key in ("rarity", "keyword"):
            out.append(("is", _title(str(want)), f"is not {_title(str(want))}"))
        elif key in ("cost", "cost_min", "cost_max"):
            bound = {"cost": "", "cost_min": " or more", "cost_max": " or less"}[key]
            out.append(("costs", f"{want}{bound}", f"does not cost {want}{bound}"))
    return out


# -- clauses -----------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class _Clause:
    """One action in words. ``form``: "to" (verb body prep target), "give" (verb target body),
    "object" (verb target body), "plain" (verb body)."""

    verb: str
    body: str
    form: str
    target: _Phrase | None = None
    prep: str = "to"
    subject: str | None = None


def _amount(ctx: _Ctx, node: Node, noun: str) -> str:
    amount = node.fields.get("amount")
    if amount == STACKS:
        name = ctx.status_name(ctx.status) if ctx.status is not None else "stacks"
        return f"{noun} equal to its {name}"
    return f"{amount} {noun}"


def _action_clause(ctx: _Ctx, node: Node) -> _Clause | None:
    name = node.type.name
    fields = node.fields
    if name == "Draw":
        count = int(fields["count"])
        body = f"{count} {'card' if count == 1 else 'cards'} from {_their(ctx)} draw pile"
        return _Clause("draw", body, "plain", subject=_player(ctx))
    if name == "GainEnergy":
        return _Clause("gain", f"{fields['amount']} energy", "plain", subject=_player(ctx))
    chain = action_chain(ctx.behavior, node)
    if chain is None:
        return None
    if chain.kind is Kind.CARDS:
        return _card_clause(ctx, node, _chain_phrase(ctx, chain, "from"))
    target = _chain_phrase(ctx, chain)
    own = target.own_side
    if name == "DealDamage":
        if target.is_self:
            return _Clause("take", _amount(ctx, node, "damage"), "plain", target)
        prep = "back to" if target.key == "attacker" else "to"
        return _Clause("deal", _amount(ctx, node, "damage"), "to", target, prep)
    if name == "GainArmor":
        if target.is_self:
            return _Clause("gain", _amount(ctx, node, "armor"), "plain", target)
        return _Clause("give", _amount(ctx, node, "armor"), "give", target)
    if name == "Heal":
        if target.is_self:
            return _Clause("restore", _amount(ctx, node, "health"), "plain", target)
        return _Clause("restore", _amount(ctx, node, "health"), "to", target)
    if name == "ApplyStatus":
        body = f"{fields['stacks']} {ctx.status_name(str(fields['status']))}"
        if target.is_self:
            return _Clause("gain", body, "plain", target)
        if own:
            return _Clause("give", body, "give", target)
        return _Clause("apply", body, "to", target)
    if name == "RemoveStatus":
        stacks = fields.get("stacks")
        status = ctx.status_name(str(fields["status"]))
        body = f"all {status}" if stacks is None else f"{stacks} {status}"
        if target.is_self:
            return _Clause("remove", f"{body} from {target.text}", "plain", target)
        return _Clause("remove", body, "to", target, "from")
    if name == "Revive":
        if target.is_self:
            return _Clause("revive", f"with {fields['hp']} health", "plain", target)
        return _Clause("revive", f" with {fields['hp']} health", "object", target)
    if name == "Withdraw":
        if target.is_self:
            return _Clause("withdraw", "from the field", "plain", target)
        return _Clause("withdraw", " from the field", "object", target)
    if name == "Deploy":
        if target.is_self:
            return _Clause("enter", "the field", "plain", target)
        return _Clause("deploy", "", "object", target)
    return _generic(name, target)


def _card_clause(ctx: _Ctx, node: Node, target: _Phrase) -> _Clause:
    name = node.type.name
    if name == "MoveCard":
        pile = str(node.fields["to"])
        position = node.fields.get("position")
        where = f"{_their(ctx)} {_pile_name(pile)}"
        if pile == "draw" and position != "bottom":
            body = f"on top of {where}"
        elif position == "bottom" and pile != "hand":
            body = f"at the bottom of {where}"
        else:
            body = f"into {where}"
        return _Clause("put", body, "give", target)
    if name in ("Discard", "Exhaust", "Negate"):
        return _Clause(name.lower(), "", "object", target)
    return _generic(name, target)


def _generic(type_name: str, target: _Phrase) -> _Clause:
    """An action this describer has no words for: its type name as plain words."""
    words = re.sub(r"(?<=[a-z])(?=[A-Z])", " ", type_name).lower().split()
    return _Clause(
        words[0] if words else "affect", "".join(" " + w for w in words[1:]), "object", target
    )


def _pile_name(pile: str) -> str:
    return "hand" if pile == "hand" else f"{pile} pile"


def _player(ctx: _Ctx) -> str | None:
    """Draw and energy belong to the player: said directly on a card, named elsewhere."""
    return None if ctx.subject.host is Host.CARD else "the player"


def _their(ctx: _Ctx) -> str:
    return "your" if ctx.subject.host is Host.CARD else "their"


def _target_text(ctx: _Ctx, phrase: _Phrase) -> str:
    if phrase.key is not None and phrase.key in ctx.mentioned and phrase.again:
        return phrase.again
    if phrase.key is not None:
        ctx.mentioned.add(phrase.key)
    return phrase.text


def _verb(ctx: _Ctx, clause: _Clause) -> str:
    if clause.subject is not None:
        return f"{clause.subject} {_third(clause.verb)}"
    return _third(clause.verb) if ctx.voice is _Voice.THIRD else clause.verb


def _render(ctx: _Ctx, clauses: Sequence[_Clause]) -> str:
    """One clause, or several merged ones: same target ("Deal 4 damage and apply 2 Burn to a
    random enemy") or same verb with no target ("Gain 5 armor and 2 Strength")."""
    first = clauses[0]
    if first.form == "to":
        target = first.target
        assert target is not None
        parts = [
            f"{_verb(ctx, c) if i == 0 else _verb_bare(ctx, c)} {c.body}"
            for i, c in enumerate(clauses)
        ]
        return f"{_join(parts)} {first.prep} {_target_text(ctx, target)}{target.condition}"
    if first.form == "plain":
        bodies = _join([c.body for c in clauses])
        condition = first.target.condition if first.target is not None else ""
        return f"{_verb(ctx, first)} {bodies}{condition}"
    target = first.target
    assert target is not None
    text = _target_text(ctx, target)
    if first.form == "give":
        return f"{_verb(ctx, first)} {text} {first.body}{target.condition}"
    return f"{_verb(ctx, first)} {text}{first.body}{target.condition}"


def _verb_bare(ctx: _Ctx, clause: _Clause) -> str:
    return _third(clause.verb) if ctx.voice is _Voice.THIRD else clause.verb


def _mergeable(a: _Clause, b: _Clause) -> bool:
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


def _flush(ctx: _Ctx, pending: list[_Clause], out: list[str]) -> None:
    groups: list[list[_Clause]] = []
    for clause in pending:
        if groups and _mergeable(groups[-1][-1], clause):
            groups[-1].append(clause)
        else:
            groups.append([clause])
    out.extend(_render(ctx, group) for group in groups)
    pending.clear()


def _arm(ctx: _Ctx, node_id: str | None, top: bool) -> list[str]:
    """The flow from ``node_id`` as clauses (each a sentence at the top level)."""
    out: list[str] = []
    pending: list[_Clause] = []
    nodes = ctx.behavior.nodes
    while node_id is not None and node_id in nodes:
        node = nodes[node_id]
        name = node.type.name
        if name == "Branch":
            _flush(ctx, pending, out)
            condition = _condition(ctx, node.ports.get("condition"))
            then = _arm(ctx, node.exits.get("then"), top=False)
            otherwise = _arm(ctx, node.exits.get("else"), top=False)
            if then and otherwise:
                glue = ". Otherwise, " if top else "; otherwise, "
                out.append(f"if {condition}, {_join(then)}{glue}{_join(otherwise)}")
            elif then:
                out.append(f"if {condition}, {_join(then)}")
            elif otherwise:
                out.append(f"unless {condition}, {_join(otherwise)}")
        elif name == "Gate":
            _flush(ctx, pending, out)
            condition = _condition(ctx, node.ports.get("condition"))
            rest = _arm(ctx, node.next, top=False)
            if rest:
                out.append(f"if {condition}, {_join(rest)}")
            return out
        elif node.type.flow and name != "Snapshot":
            clause = _action_clause(ctx, node)
            if clause is not None:
                pending.append(clause)
        node_id = node.next
    _flush(ctx, pending, out)
    return out


# -- conditions --------------------------------------------------------------------------------
_QUANTITY = {
    ">=": "at least {}",
    ">": "more than {}",
    "<=": "at most {}",
    "<": "{less} than {}",
    "==": "exactly {}",
    "!=": "other than {}",
}


def _quantity(op: str, value: object, less: str = "less") -> str:
    return _QUANTITY[op].replace("{less}", less).format(value)


def _condition(ctx: _Ctx, node_id: str | None) -> str:
    """A Condition node as a clause that can follow "if"."""
    node = ctx.behavior.nodes.get(node_id or "")
    if node is None or node.type.name != "Condition":
        return "it can"
    fields = node.fields
    test = fields["test"]
    chain = condition_chain(ctx.behavior, node)
    if test in ("empty", "not_empty") and chain is not None:
        return _exists(ctx, chain, negate=test == "empty")
    if test == "compare":
        return _compare(ctx, fields, chain)
    if chain is None:
        return "it can"
    phrase = _chain_phrase(ctx, chain, "in")  # every unit of the input must pass the test
    person = _person(ctx, phrase)
    if test == "alive":
        return f"{_subject_text(ctx, phrase)} {_conj('is', person)} alive"
    name = ctx.status_name(str(fields["status"]))
    return f"{_subject_text(ctx, phrase)} {_conj('has', person)} {name}"


def _exists(ctx: _Ctx, chain: Chain, negate: bool) -> str:
    """ "there is an enemy with Burn", "your draw pile is empty", "the selected enemy has Burn"."""
    steps = tuple(
        s
        for s in chain.steps
        if not (
            s.type.name in ("Sort", "Snapshot")
            or (s.type.name in ("Take", "RandomElements") and int(s.fields["count"]) >= 1)
            or (s.type.name == "PickElement" and int(s.fields["index"]) in (0, -1))
        )
    )
    chain = Chain(chain.kind, chain.root, chain.root_node, steps, chain.via_port)
    single = _single(ctx, chain.root)
    if single is not None:
        where: dict[str, Any] = {}
        for step in steps:
            if step.type.name == "Filter":
                where.update(step.fields.get("where") or {})
        person = _person(ctx, single)
        subject = _subject_text(ctx, single)
        predicates = _predicates(ctx, where)
        if not predicates:
            return f"{subject} {_conj('is', person)} {'not ' if negate else ''}there"
        if negate:
            return f"{subject} " + " or ".join(_conj_phrase(neg, person) for *_, neg in predicates)
        return f"{subject} " + _join([f"{_conj(v, person)} {rest}" for v, rest, _ in predicates])
    group = _root_group(ctx, chain.root)
    if group is None:
        return "there is nothing" if negate else "there is something"
    plain = not steps
    for step in steps:
        if step.type.name == "Filter":
            _describe_filter(ctx, group, step.fields.get("where") or {}, chain.kind)
    if any(s.type.name != "Filter" for s in steps):
        text = _chain_phrase(ctx, chain, "in").text
        return f"{text} is {'not ' if negate else ''}there"
    if plain and group.where is not None:
        return f"{group.where} is {'empty' if negate else 'not empty'}"
    if negate:
        return group.np("there is no ", prep="in")
    return group.np("there is " + _article(group.head()), prep="in")


def _first_unit(ctx: _Ctx, chain: Chain) -> _Phrase:
    """What a unit measure reads: the first unit of the chain."""
    phrase = _chain_phrase(ctx, chain, "in")
    if not phrase.plural or _single(ctx, chain.root) is not None:
        return phrase
    first = Node("(first)", NODE_TYPES["PickElement"], {"index": 0}, {})
    return _chain_phrase(
        ctx,
        Chain(chain.kind, chain.root, chain.root_node, (*chain.steps, first), chain.via_port),
        "in",
    )


def _compare(ctx: _Ctx, fields: Mapping[str, Any], chain: Chain | None) -> str:
    measure, op, value = fields["measure"], fields["op"], fields["value"]
    you = "you" if ctx.subject.host is Host.CARD else "the player"
    person = "you" if you == "you" else "it"
    your = "your" if you == "you" else "their"
    if measure == "energy":
        return f"{you} {_conj('has', person)} {_quantity(op, value)} energy"
    if measure == "hand_size":
        cards = "card" if value == 1 else "cards"
        have = _conj("has", person)
        return f"{you} {have} {_quantity(op, value, 'fewer')} {cards} in {your} hand"
    if measure == "turn":
        return {
            ">=": f"it is turn {value} or later",
            ">": f"it is after turn {value}",
            "<=": f"it is turn {value} or earlier",
            "<": f"it is before turn {value}",
            "==": f"it is turn {value}",
            "!=": f"it is not turn {value}",
        }[op]
    if chain is None:
        return "it can"
    if measure == "count":
        return _count(ctx, chain, op, value)
    phrase = _first_unit(ctx, chain)
    subject, person = _subject_text(ctx, phrase), _person(ctx, phrase)
    has, is_ = _conj("has", person), _conj("is", person)
    if measure == "hp_percent":
        return f"{subject} {is_} {_health_share(op, value)}"
    if measure == "hp":
        return f"{subject} {has} {_quantity(op, value)} health"
    noun = "armor" if measure == "armor" else ctx.status_name(str(fields.get("status")))
    if (op, value) in (("==", 0), ("<=", 0), ("<", 1)):
        return f"{subject} {has} no {noun}"
    if (op, value) in ((">", 0), (">=", 1), ("!=", 0)):
        return f"{subject} {has} {noun}"
    return f"{subject} {has} {_quantity(op, value)} {noun}"


def _health_share(op: str, value: object) -> str:
    share = {50: "half health", 100: "full health"}.get(value if isinstance(value, int) else -1)
    what = share or f"{value}% health"
    if value == 100 and op in (">=", "=="):
        return "at full health"
    return {
        "<": f"below {what}",
        "<=": f"at or below {what}",
        ">": f"above {what}",
        ">=": f"at or above {what}",
        "==": f"at exactly {what}",
        "!=": f"not at exactly {what}",
    }[op]


def _count(ctx: _Ctx, chain: Chain, op: str, value: object) -> str:
    group = _root_group(ctx, chain.root)
    if group is None:
        phrase = _chain_phrase(ctx, chain, "in")
        return f"the number of {phrase.text} is {_quantity(op, value, 'fewer')}"
    for step in chain.steps:
        if step.type.name == "Filter":
            _describe_filter(ctx, group, step.fields.get("where") or {}, chain.kind)
    if (op, value) in (("==", 0), ("<", 1), ("<=", 0)):
        return group.np("there is no ", prep="in")
    if (op, value) in ((">", 0), (">=", 1), ("!=", 0)):
        return group.np("there is " + _article(group.head()), prep="in")
    one = value == 1
    verb = "is" if one else "are"
    return group.np(f"there {verb} {_quantity(op, value, 'fewer')} ", not one, "in")


def _person(ctx: _Ctx, phrase: _Phrase) -> str:
    if phrase.is_self:
        return "you" if ctx.voice is _Voice.IMPERATIVE else "it"
    return "they" if phrase.plural else "it"


def _subject_text(ctx: _Ctx, phrase: _Phrase) -> str:
    """A phrase as the subject of a condition ("you", "it", "the selected enemy")."""
    if phrase.is_self:
        return "you" if ctx.voice is _Voice.IMPERATIVE else "it"
    return _target_text(ctx, phrase)


# -- words -------------------------------------------------------------------------------------
_CONJUGATION = {"is": "are", "has": "have", "does": "do", "costs": "cost"}


def _conj(verb: str, person: str) -> str:
    """A third-person verb for "it", or its plain form for "you" and "they"."""
    return verb if person == "it" else _CONJUGATION.get(verb, verb)


def _conj_phrase(phrase: str, person: str) -> str:
    verb, _, rest = phrase.partition(" ")
    return f"{_conj(verb, person)} {rest}".strip()


def _third(verb: str) -> str:
    """The third-person singular of a verb: deals, applies, draws, gains."""
    if verb.endswith("y") and verb[-2:-1] not in "aeiou":
        return verb[:-1] + "ies"
    if verb.endswith(("s", "sh", "ch", "x")):
        return verb + "es"
    return verb + "s"


def _plural(noun: str) -> str:
    if noun.endswith("y") and noun[-2:-1].lower() not in "aeiou":
        return noun[:-1] + "ies"
    if noun.endswith(("s", "sh", "ch", "x")):
        return noun + "es"
    return noun + "s"


def _article(noun: str) -> str:
    return "an " if noun[:1].lower() in "aeiou" else "a "


def _indefinite(noun: str) -> str:
    return _article(noun) + noun


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def _title(ident: str) -> str:
    """An id as words: ``basic_attack`` -> ``Basic Attack``, ``Exhaust`` stays."""
    words = re.split(r"[_\-.:\s]+", ident)
    return " ".join(w[:1].upper() + w[1:] for w in words if w)


def _join(parts: Sequence[str], conjunction: str = "and") -> str:
    if len(parts) <= 1:
        return "".join(parts)
    return ", ".join(parts[:-1]) + f" {conjunction} " + parts[-1]


def _paragraph(sentences: Sequence[str]) -> str:
    """Sentences as a paragraph: each capitalized and ended with a period."""
    done = (s[:1].upper() + s[1:] + ("" if s.endswith(".") else ".") for s in sentences if s)
    return " ".join(done)
