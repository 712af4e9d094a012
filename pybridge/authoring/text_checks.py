"""The text checks: a definition's player-facing text against its Behavior and target mode
(PB201..PB208, PB210).

What the text promises is read by :mod:`.wording`; what the mode offers comes from its facts
(who chooses, which side) and its words (:data:`.phrases.MODE_WORDS`); what the Behavior covers
comes from :mod:`.analysis`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from ..runtime.graph import Behavior, Kind
from ..runtime.model import StatusDef
from ..runtime.nodes import Role
from .analysis import (
    ALL_SIDES,
    OWN_SIDE,
    Standing,
    Subject,
    action_chain,
    actions,
    condition_chain,
    is_random,
    mode_sides,
    numbers_of,
    read_by_flow,
    unit_reach,
)
from .codes import Scope
from .grammar import indefinite
from .phrases import MODE_WORDS
from .restrictions import dropped
from .wording import claims, editor_terms, numbers, selected_nouns

#: The whole sides card text can promise: the claim, its words, and the sides that cover it.
_WHOLE_SIDES = {
    "all_enemies": ("all enemies", frozenset({Standing.OTHER})),
    "all_allies": ("all allies", OWN_SIDE),
    "all_units": ("all units", ALL_SIDES),
}


def check_text(
    scope: Scope,
    behavior: Behavior | None,
    subject: Subject,
    text: str,
    statuses: Mapping[str, StatusDef] | None,
    generate: Callable[[], str],
    extra_numbers: set[int] | None = None,
) -> None:
    """PB201..PB208 and PB210 on a definition's text. ``generate`` writes the suggested text
    lazily."""

    def suggestion() -> str:
        try:
            generated = str(generate())
        except Exception:  # the suggestion is a courtesy; a checker must not crash on it
            return ""
        return f' (generated: "{generated}")' if generated else ""

    if not text.strip():
        scope.report(
            "PB207",
            f"the {scope.kind} has no player-facing text",
            "write what the player experiences" + suggestion(),
            at="text",
        )
        return
    for term in editor_terms(text):
        scope.report(
            "PB201",
            f"the text uses the editor word {term.word!r} (at character "
            f"{term.start}); card text should describe what the player experiences",
            f"say {term.instead} instead" + suggestion(),
            at="text",
        )
    allowed = set(extra_numbers or ())
    if behavior is not None:
        allowed |= numbers_of(behavior)
    for number, start in numbers(text):
        if number not in allowed:
            scope.report(
                "PB208",
                f"the text says {number} (at character {start}), a number the "
                "definition does not contain",
                "make the text and the fields agree" + suggestion(),
                at="text",
            )
    if behavior is None:
        return
    for restriction in dropped(behavior, subject, text, statuses):
        where = (
            "the card's target filter" if restriction.node is None else f"node {restriction.node!r}"
        )
        scope.report(
            "PB210",
            f'the range is restricted ("{restriction.words}", by {where}), but the text '
            "never says so",
            f'say "{restriction.words}" as the describer does' + suggestion(),
            at="text",
        )
    if subject.mode is None:
        return
    _range_text(scope, behavior, subject, text, suggestion)


def _range_text(
    scope: Scope, behavior: Behavior, subject: Subject, text: str, suggestion: Callable[[], str]
) -> None:
    mode = subject.mode
    assert mode is not None
    words = MODE_WORDS[mode]
    used = read_by_flow(behavior)
    promised = claims(text)
    chains = [c for a in actions(behavior) if (c := action_chain(behavior, a)) is not None]
    chains += [
        c
        for n in behavior.nodes.values()
        if n.type.role is Role.CONDITION
        and n.id in used
        and (c := condition_chain(behavior, n)) is not None
    ]
    reaches = [unit_reach(c, subject) for c in chains if c.kind is Kind.UNITS]
    # "all enemies with Burn" is covered by a filtered side; only a reduced one is not.
    unreduced = [r for r in reaches if r.limit is None]
    # When the mode itself promises the side, PB101/PB109 already report a Behavior that
    # does not cover it; PB202 is for text that promises more than mode and Behavior.
    promised_by_mode = claims(words.shows)
    for claim, (said, sides) in _WHOLE_SIDES.items():
        covered = any(r.sides >= sides for r in unreduced)
        if claim in promised and not covered and claim not in promised_by_mode:
            scope.report(
                "PB202",
                f"the text promises {said}, but no action or condition of the "
                f"Behavior covers {said} (mode {mode.value})",
                "make the Behavior read the whole side, or say what it really "
                "affects" + suggestion(),
                at="text",
            )
    for noun, start in selected_nouns(text):
        fits = mode.requires_target and noun in ("unit", words.noun)
        if not fits:
            offer = (
                "takes no click"
                if not mode.requires_target
                else f"selects {indefinite(words.noun)}"
            )
            scope.report(
                "PB203",
                f"the text names a selected {noun} (at character {start}), "
                f"but the {mode.value} mode {offer}",
                "make the text and the mode agree" + suggestion(),
                at="text",
            )
    chosen = mode_sides(mode.facts.reach) if mode.chooses_units else frozenset()
    if "another_ally" in promised and Standing.SELF in chosen and chosen <= OWN_SIDE:
        scope.report(
            "PB204",
            f'the text says "another ally", but the {mode.value} mode can '
            "pick the card's player too",
            'make the mode OtherAlly, or say "an ally"' + suggestion(),
            at="text",
        )
    random = mode.is_random or is_random(behavior, used)
    if "random" in promised and not random:
        scope.report(
            "PB205",
            "the text says random, but neither the mode nor the Behavior "
            "chooses anything at random",
            "use a Random mode or a RandomElements node, or drop the word" + suggestion(),
            at="text",
        )
    elif random and "random" not in promised:
        how = f"the {mode.value} mode" if mode.is_random else "a RandomElements node"
        scope.report(
            "PB206",
            f"{how} chooses at random, but the text never says so",
            'say "a random ..." so the player knows' + suggestion(),
            at="text",
        )
