"""Status Behaviors at turn boundaries: each runs with the status's owner as Host, then
statuses that decay on that hook lose stacks. Statuses without a definition are inert
counters (a filter or condition can still read them)."""

from __future__ import annotations

from typing import Final

from .context import Context, HostKind
from .model import Team, statuses_in_order
from .resolve import run

_STATUS: Final = HostKind.STATUS  # bound once: reading an Enum class attribute is slow on 3.11


def tick(ctx: Context, team: Team, hook: str) -> None:
    """Run the ``hook`` ("turn_start" or "turn_end") of every living ``team`` unit's statuses,
    in battle order and, per unit, in status-name order (stable across save and load)."""
    battle = ctx.battle
    for unit in battle._teams[team]:  # the roster is fixed when the battle is made: no copy
        if not unit.statuses:  # most units carry none: skip the sort
            continue
        for status in statuses_in_order(unit.statuses):
            definition = battle.statuses.get(status)
            if definition is None or not unit.alive or unit.statuses.get(status, 0) <= 0:
                continue
            behavior = definition.hooks.get(hook)
            if behavior is not None:
                ctx.events.append({"type": "status_hook", "unit": unit.id, "status": status,
                                   "hook": hook})  # fmt: skip
                run(behavior, ctx.child(unit, _STATUS, status=status))
            if definition.decay_on == hook and unit.alive and status in unit.statuses:
                had = unit.statuses[status]
                left = 0 if definition.decay is None else max(0, had - definition.decay)
                if left:
                    unit.statuses[status] = left
                else:
                    del unit.statuses[status]
                ctx.events.append({"type": "status_decayed", "unit": unit.id, "status": status,
                                   "stacks_before": had, "stacks_after": left})  # fmt: skip
