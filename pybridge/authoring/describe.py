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

This module is the public entry. The work is split by job: :mod:`.grammar` (plurals, articles,
verb forms), :mod:`.phrases` (the words for every mode, source, pile and action),
:mod:`.nouns` (what a chain of selectors yields, as a noun phrase) and :mod:`.clauses`
(actions and conditions as sentences).

>>> from pybridge.examples import demo_battle
>>> from pybridge.runtime import load_battle
>>> battle = load_battle(demo_battle())
>>> describe_card(battle.library["execute"], battle.statuses)
'Deal 10 damage to the enemy with the lowest health.'
"""

from __future__ import annotations

from collections.abc import Mapping

from ..runtime.graph import Behavior
from ..runtime.model import CardDef, CardTargets, MoveDef, StatusDef
from ..runtime.sentences import data, said
from ..runtime.vocabulary import Message, Vocabulary
from .analysis import Subject
from .clauses import arm, condition_text
from .grammar import article, join, title
from .nouns import Ctx, Group, Voice, describe_card_filter, status_name
from .phrases import PILE_WORDS
from .speech import Said, Spoken, joined, paragraph, phrase

__all__ = [
    "describe_behavior",
    "describe_card",
    "describe_move",
    "describe_status",
    "spoken_card",
    "spoken_move",
    "spoken_status",
    "status_name",
]


def describe_card(card: CardDef, statuses: Mapping[str, StatusDef] | None = None) -> str:
    """The player-facing text of a card: playability, effects, keywords."""
    return spoken_card(card, statuses).text


def spoken_card(
    card: CardDef, statuses: Mapping[str, StatusDef] | None = None, words: Vocabulary | None = None
) -> Spoken:
    """A card's text as a sentence tree (``.message``) with its English (``.text``); ``words``:
    the vocabulary it was read with, whose counters' labels name a counter amount."""
    ctx = Ctx(Subject.of_card(card), card.behavior, statuses or {})
    ctx.counters = words.counters if words is not None else {}
    sentences: list[Said] = []
    if card.playable_if:
        conditions = [condition_text(ctx, rule.condition) for rule in card.playable_if]
        sentences.append(said("describe.playable_if", conditions=joined(conditions)))
    if card.card_targets is not None:
        sentences.append(_card_targets_needed(card.card_targets))
    sentences.extend(arm(ctx, card.behavior.start, top=True))
    if card.choose_on_resolve:
        many = card.target_count > 1
        choose = "describe.resolve.choose_targets" if many else "describe.resolve.choose_target"
        sentences.append(said(choose))
    if card.on_lost_target == "fail":
        sentences.append(said("describe.resolve.lost_fails"))
    elif card.on_lost_target == "skip":
        sentences.append(said("describe.resolve.lost_skipped"))
    sentences.extend(
        said("describe.keyword", keyword=data(f"keyword.{keyword}", title(keyword)))
        for keyword in card.keywords
    )
    return Spoken(paragraph(sentences, ctx.messages), dict(ctx.messages))


def _card_targets_needed(spec: CardTargets) -> Said:
    """``card_targets``: "can only be played while there is an Attack waiting to resolve"."""
    group = Group("card", "cards")
    describe_card_filter(group, spec.where)
    noun = group.noun()
    places = [
        PILE_WORDS[zone].zone if zone in PILE_WORDS else f"in the {zone}" for zone in spec.zones
    ]
    cards = phrase(f"{article(noun)}{noun} " + join(places, "or"))
    return said("describe.card_targets", cards=cards)


def describe_move(move: MoveDef, statuses: Mapping[str, StatusDef] | None = None) -> str:
    """An enemy move's text, seen from the enemy (its "enemies" are the party)."""
    return spoken_move(move, statuses).text


def spoken_move(move: MoveDef, statuses: Mapping[str, StatusDef] | None = None) -> Spoken:
    ctx = Ctx(Subject.of_move(move), move.behavior, statuses or {})
    sentences = arm(ctx, move.behavior.start, top=True)
    return Spoken(paragraph(sentences, ctx.messages), dict(ctx.messages))


def describe_behavior(
    behavior: Behavior, subject: Subject, statuses: Mapping[str, StatusDef] | None = None
) -> str:
    """Any Behavior, for any Host: a card's, a move's, or a status hook's."""
    voice = Voice.THIRD if subject.on_status else Voice.IMPERATIVE
    ctx = Ctx(subject, behavior, statuses or {}, voice=voice)
    sentences = arm(ctx, behavior.start, top=True)
    return Spoken(paragraph(sentences, ctx.messages), dict(ctx.messages)).text


_HOOKS = ("turn_start", "turn_end", "attacked")
_HOOK_TIMES = ("turn_start", "turn_end")


def describe_status(status: StatusDef, statuses: Mapping[str, StatusDef] | None = None) -> str:
    """A status's text: its hooks (with the holder as "it"), damage modifiers, decay."""
    return spoken_status(status, statuses).text


def spoken_status(status: StatusDef, statuses: Mapping[str, StatusDef] | None = None) -> Spoken:
    known = dict(statuses or {})
    known.setdefault(status.id, status)
    name = {"status": status.id, "name": status.name}
    messages: dict[str, Message] = {}
    sentences: list[Said] = []
    decay = (
        said("describe.status.wears_off")
        if status.decay is None
        else said("describe.status.goes_down", by=status.decay)
    )
    decay_told = False
    for hook in _HOOKS:
        behavior = status.hooks.get(hook)
        if behavior is None:
            continue
        ctx = Ctx(Subject.of_hook(hook, behavior.words), behavior, known, Voice.THIRD, status.id)
        parts = arm(ctx, behavior.start, top=False)
        messages.update(ctx.messages)
        if not parts:
            continue
        effect = joined(parts)
        if status.decay_on == hook:
            effect = said("describe.status.then_decays", effect=effect, status=name, decay=decay)
            decay_told = True
        sentences.append(said(f"describe.status.on.{hook}", effect=effect))
    for amount, what in ((status.damage_dealt, "dealt"), (status.damage_taken, "taken")):
        if amount:
            more = "more" if amount > 0 else "less"
            sentences.append(
                said(f"describe.status.{what}.{more}", amount=abs(amount), status=name)
            )
    protection = status.protection
    if protection in ("all", "single"):
        sentences.append(said(f"describe.status.protected.{protection}"))
    if status.decay_on in _HOOK_TIMES and not decay_told:
        sentences.append(said(f"describe.status.decays.{status.decay_on}", decay=decay))
    return Spoken(paragraph(sentences, messages), messages)
