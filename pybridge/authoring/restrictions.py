"""The restrictions of a Behavior's range, in the describer's words (PB210).

The seeds' Selector guidance: "State the target restriction in the card description". A
restriction is a condition of a ``Filter`` on the units an action affects (or of the card's
``target_filter`` on the unit it submits) by tier, tag, status or health. Its words are the
ones the describer writes for it (:func:`.nouns.describe_filter` for a collection: "all enemies
of tier 2 or higher"; :func:`.nouns.predicates_of` for one unit: "if it has Burn"), so the
checker never words a restriction on its own.

The authored text states a restriction when it holds every content word of the describer's
phrase ("tier", "2", "higher"), whatever their order and glue: "all tier 2 or higher enemies"
states "of tier 2 or higher". A word of three letters or more may end differently ("Burning"
states "Burn", "Goblins" states "Goblin"); a number must be the same.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..runtime.graph import Behavior, Kind
from ..runtime.model import StatusDef
from .analysis import Chain, Subject, action_chain, actions, filters, reduces
from .nouns import Ctx, Group, describe_filter, predicates_of, root_group, single

#: The restrictions card text must state, and the ``where`` keys each is made of.
KINDS: dict[str, tuple[str, ...]] = {
    "tier": ("tier", "tier_min", "tier_max"),
    "tag": ("tag",),
    "status": ("status",),
    "health": ("hp_percent_min", "hp_percent_max"),
}

#: Words that only join a restriction's words: "with at least 50% health" is stated by "at
#: least 50% health", "of tier 2 or higher" by "tier 2 or higher".
_GLUE = frozenset({"a", "an", "the", "of", "or", "to", "with", "is", "has", "at"})
_WORD = re.compile(r"\d+%?|[^\W\d_]+")


@dataclass(frozen=True, slots=True)
class Restriction:
    """One restriction of a range: its kind, the describer's words for it, and the Filter node
    that makes it (None for the card's ``target_filter``)."""

    kind: str
    words: str
    node: str | None = None


def restrictions(
    behavior: Behavior, subject: Subject, statuses: Mapping[str, StatusDef] | None = None
) -> list[Restriction]:
    """The restrictions of every unit range the Behavior's actions affect, in flow order, each
    said once."""
    ctx = Ctx(subject, behavior, statuses or {})
    found: list[Restriction] = []
    selection_read = False
    for action in actions(behavior):
        chain = action_chain(behavior, action)
        if chain is None or chain.kind is not Kind.UNITS:
            continue
        one = single(ctx, chain)
        selection_read = selection_read or (one is not None and one.key == "selected")
        found.extend(_of_chain(ctx, chain, grouped=one is None))
    if selection_read:  # the describer says the target filter with the selection
        found[:0] = _of_where(ctx, subject.target_filter, None, grouped=True)
    out: list[Restriction] = []
    for restriction in found:
        if all((r.kind, r.words) != (restriction.kind, restriction.words) for r in out):
            out.append(restriction)
    return out


def _of_chain(ctx: Ctx, chain: Chain, grouped: bool) -> list[Restriction]:
    """A chain's Filter conditions: said of the collection until a selector reduces it, then of
    each unit it keeps (as the describer's :func:`.nouns.chain_phrase` says them)."""
    grouped = grouped and root_group(ctx, chain) is not None
    out: list[Restriction] = []
    for step in chain.steps:
        if reduces(step.type):
            grouped = False
        elif filters(step.type):
            out.extend(_of_where(ctx, step.fields.get("where") or {}, step.id, grouped))
    return out


def _of_where(
    ctx: Ctx, where: Mapping[str, Any], node: str | None, grouped: bool
) -> list[Restriction]:
    out = []
    for kind, keys in KINDS.items():
        part = {key: where[key] for key in keys if key in where}
        if not part:
            continue
        if grouped:
            group = Group("unit", "units")
            describe_filter(ctx, group, part, Kind.UNITS)
            words = " ".join([*group.pre, *(singular for singular, _ in group.post)])
        else:
            words = " and ".join(f"{verb} {rest}" for verb, rest, _ in predicates_of(ctx, part))
        if words:
            out.append(Restriction(kind, words, node))
    return out


def _words(text: str) -> list[str]:
    return [w.lower() for w in _WORD.findall(text)]


def states(text: str, restriction: Restriction) -> bool:
    """Does ``text`` hold every content word of the restriction's words?"""
    said = _words(text)
    for word in _words(restriction.words):
        if word in _GLUE:
            continue
        if word[0].isdigit():
            if word not in said:
                return False
        elif not any(w == word or (len(word) >= 3 and w.startswith(word)) for w in said):
            return False
    return True


def dropped(
    behavior: Behavior,
    subject: Subject,
    text: str,
    statuses: Mapping[str, StatusDef] | None = None,
) -> list[Restriction]:
    """The restrictions of the Behavior's range that ``text`` does not state."""
    return [r for r in restrictions(behavior, subject, statuses) if not states(text, r)]
