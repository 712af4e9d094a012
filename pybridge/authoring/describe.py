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
from .analysis import Subject
from .clauses import arm, condition_text
from .grammar import article, join, paragraph, title
from .nouns import Ctx, Group, Voice, describe_card_filter, status_name
from .phrases import PILE_WORDS

__all__ = [
    "describe_behavior",
    "describe_card",
    "describe_move",
    "describe_status",
    "status_name",
]


def describe_card(card: CardDef, statuses: Mapping[str, StatusDef] | None = None) -> str:
    """The player-facing text of a card: playability, effects, keywords."""
    ctx = Ctx(Subject.of_card(card), card.behavior, statuses or {})
    sentences = []
    if card.playable_if:
        conditions = [condition_text(ctx, rule.condition) for rule in card.playable_if]
        sentences.append("can only be played if " + join(conditions))
    if card.card_targets is not None:
        sentences.append(_card_targets_needed(card.card_targets))
    sentences.extend(arm(ctx, card.behavior.start, top=True))
    if card.choose_on_resolve:
        many = card.target_count > 1
        sentences.append(f"choose {'its targets' if many else 'its target'} as it resolves")
    if card.on_lost_target == "fail":
        sentences.append("if a target is lost before it resolves, it has no effect")
    elif card.on_lost_target == "skip":
        sentences.append("a target lost before it resolves is skipped; the rest still happens")
    sentences.extend(title(keyword) for keyword in card.keywords)
    return paragraph(sentences)


def _card_targets_needed(spec: CardTargets) -> str:
    """``card_targets``: "can only be played while there is an Attack waiting to resolve"."""
    group = Group("card", "cards")
    describe_card_filter(group, spec.where)
    noun = group.noun()
    places = [
        PILE_WORDS[zone].zone if zone in PILE_WORDS else f"in the {zone}" for zone in spec.zones
    ]
    return f"can only be played while there is {article(noun)}{noun} " + join(places, "or")


def describe_move(move: MoveDef, statuses: Mapping[str, StatusDef] | None = None) -> str:
    """An enemy move's text, seen from the enemy (its "enemies" are the party)."""
    ctx = Ctx(Subject.of_move(move), move.behavior, statuses or {})
    return paragraph(arm(ctx, move.behavior.start, top=True))


def describe_behavior(
    behavior: Behavior, subject: Subject, statuses: Mapping[str, StatusDef] | None = None
) -> str:
    """Any Behavior, for any Host: a card's, a move's, or a status hook's."""
    voice = Voice.THIRD if subject.on_status else Voice.IMPERATIVE
    ctx = Ctx(subject, behavior, statuses or {}, voice=voice)
    return paragraph(arm(ctx, behavior.start, top=True))


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
        ctx = Ctx(Subject.of_hook(hook), behavior, known, Voice.THIRD, status.id)
        parts = arm(ctx, behavior.start, top=False)
        if not parts:
            continue
        text = opening + join(parts)
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
    return paragraph(sentences)
