"""Which units a play now would act on: what a UI lights for a card, so that the lit units
and the preview's marks name the same units.

A card the player aims lights its candidates, and a random pick its range (one of them will
be chosen). Any other card says by its play which units it reaches: Execute ("the enemy with
the lowest health") reaches one enemy though its mode, None, reaches no unit, and an area
card reaches every unit its range holds only as far as its Behavior does. Those cards are
previewed (on a copy) and the units the card's own actions touch are the answer; a status's
reaction to the play (Thorns striking back) is the struck unit's answer, not the card's.
"""

from __future__ import annotations

from collections.abc import Callable

from .context import Event
from .cut import preview
from .errors import TargetingError
from .model import Battle
from .narrate import MARKS
from .play import TargetInfo


def affected_units(battle: Battle, info: TargetInfo,
                   previewed: Callable[[], list[Event]] | None = None
                   ) -> tuple[str, ...]:  # fmt: skip
    """The units a play of ``info.card`` now would act on, in battle order (see the module).
    ``previewed``: the preview's events when they are not the whole preview (a viewer's
    answer knows only as much as its viewer may: :func:`.views.known_to`)."""
    if not info.playable or info.mode.facts.chooses_units:
        return info.range
    try:
        events = preview(battle, info.card) if previewed is None else previewed()
    except TargetingError:  # a play that fails now (a work limit) acts on nothing we can see
        return info.range
    touched = {e["unit"] for e in own_events(battle, events) if e["type"] in MARKS}
    return tuple(u.id for u in battle.units if u.id in touched)


def own_events(battle: Battle, events: list[Event]) -> list[Event]:
    """The events of the play itself, without the reactions it provokes: a ``reaction``
    event and the events of the reacting status's ``attacked`` Behavior that follow it."""
    own: list[Event] = []
    reacting: frozenset[str] = frozenset()  # the node ids of the reaction running now
    for event in events:
        if event["type"] == "reaction":
            status = battle.statuses.get(event["status"])
            hook = status.hooks.get("attacked") if status is not None else None
            reacting = frozenset(hook.nodes) if hook is not None else frozenset()
            continue
        if reacting and event.get("node") in reacting:
            continue
        reacting = frozenset()
        own.append(event)
    return own
