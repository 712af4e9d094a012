"""What each telegraphed enemy intent will do: the numbers a UI shows in its intent bubble.

The forecast plays the end of the turn on a copy of the battle, exactly as ``end_turn`` would
now, and reads off what each enemy's move did: damage after every modifier (Strength, Weak and
the like) with the armor that blocks it, armor, healing and the statuses it applies. So the
number a player sees is the number the move then deals, as long as nothing changes before the
turn ends (every change to the battle renews the forecast). An enemy that falls first, or
whose move finds no legal target, is forecast not to act.
"""

from __future__ import annotations

from typing import Any

from .context import Event
from .cut import resolve_all
from .errors import TargetingError
from .model import Battle, Team
from .narrate import narrate_all
from .turns import end_turn

Forecast = dict[str, Any]

#: Events that end one enemy's move in the enemy phase.
_MOVE_ENDS = frozenset({"enemy_acts", "status_hook", "turn_started", "battle_ended"})


def forecast_intents(battle: Battle) -> dict[str, Forecast]:
    """For every enemy with an intent: the forecast of its move, by unit id."""
    waiting = [u for u in battle.team(Team.ENEMY) if u.intent is not None and u.alive]
    if battle.result is not None or not waiting:
        return {}
    events = _turn_on_a_copy(battle)
    moves = _segments(events)
    return {unit.id: _forecast(battle, unit.id, moves.get(unit.id)) for unit in waiting}


def _turn_on_a_copy(battle: Battle) -> list[Event]:
    """The events of ending the turn now, on a copy; none when the turn cannot end now."""
    copy = battle.clone()
    try:
        events = resolve_all(copy) if copy.cut else []
        return events + end_turn(copy)
    except TargetingError:
        return []


def _segments(events: list[Event]) -> dict[str, list[Event]]:
    """Each enemy's ``enemy_acts`` event and what followed it, up to the next move or hook."""
    moves: dict[str, list[Event]] = {}
    current: list[Event] | None = None
    for event in events:
        kind = event["type"]
        if kind == "enemy_acts":
            current = moves[event["unit"]] = [event]
        elif kind in _MOVE_ENDS:
            current = None
        elif current is not None:
            current.append(event)
    return moves


def _forecast(battle: Battle, unit_id: str, move: list[Event] | None) -> Forecast:
    unit = battle.unit(unit_id)
    assert unit is not None and unit.intent is not None
    definition = battle.moves.get(unit.intent.move)
    name = definition.name if definition is not None else unit.intent.move
    if not move:
        return {"acts": False, "kind": "none", "label": "", "title": name,
                "detail": "will not get to act", "effects": [], "lines": []}  # fmt: skip
    acts, rest = move[0], move[1:]
    effects = _effects(unit_id, rest)
    kind, label = _headline(battle, unit_id, effects)
    return {
        "acts": True,
        "kind": kind,
        "label": label,
        "title": f"{name} {label}".strip(),
        "detail": _detail(battle, unit_id, effects, acts.get("target")) + _riders(battle, effects),
        "effects": effects,
        "lines": [line["text"] for line in narrate_all(battle, rest)],
    }


def _effects(unit_id: str, events: list[Event]) -> list[dict[str, Any]]:
    """The move's own effects on units, in order (reactions it provokes are left out)."""
    out: list[dict[str, Any]] = []
    for e in events:
        kind = e["type"]
        if kind == "reaction":
            break  # what follows is the struck unit's answer, not the move
        if kind == "damage" and e["source"] == unit_id:
            lost = e["hp_before"] - e["hp_after"]
            out.append({"type": "damage", "unit": e["unit"], "amount": e["amount"],
                        "blocked": e["blocked"], "hp_loss": lost})  # fmt: skip
        elif kind in ("armor", "heal"):
            out.append({"type": kind, "unit": e["unit"], "amount": e["amount"]})
        elif kind == "status":
            out.append({"type": "status", "unit": e["unit"], "status": e["status"],
                        "stacks": e["stacks"]})  # fmt: skip
    return out


def _headline(battle: Battle, unit_id: str, effects: list[dict[str, Any]]) -> tuple[str, str]:
    """The kind of move and its number: damage per hit (x hits on one unit), else armor,
    healing or the stacks it gives."""
    hits = [e for e in effects if e["type"] == "damage"]
    if hits:
        amounts = {e["amount"] for e in hits}
        targets = {e["unit"] for e in hits}
        if len(amounts) == 1:
            amount = hits[0]["amount"]
            repeat = len(hits) // len(targets)
            return "attack", f"{amount}x{repeat}" if repeat > 1 else str(amount)
        return "attack", "+".join(str(e["amount"]) for e in hits)
    for kind, word in (("armor", "defend"), ("heal", "heal")):
        found = [e for e in effects if e["type"] == kind]
        if found:
            return word, str(found[0]["amount"])
    statuses = [e for e in effects if e["type"] == "status" and e["stacks"] > 0]
    if statuses:
        first = statuses[0]
        target = battle.unit(first["unit"])
        enemy = battle.unit(unit_id)
        own = target is not None and enemy is not None and target.team is enemy.team
        definition = battle.statuses.get(first["status"])
        status = definition.name if definition is not None else first["status"]
        return ("buff" if own else "debuff"), f"{first['stacks']} {status}"
    return "other", ""


def _detail(battle: Battle, unit_id: str, effects: list[dict[str, Any]], target: object) -> str:
    """Who the move reaches, in words."""
    reached = list(dict.fromkeys(e["unit"] for e in effects))
    if not reached:
        named = battle.unit(target) if isinstance(target, str) else None
        return f"at {named.name}" if named is not None else "with no effect"
    if reached == [unit_id]:
        return "on itself"
    units = [u for u in (battle.unit(r) for r in reached) if u is not None]
    if len(units) == 1:
        return f"at {units[0].name}"
    teams = {u.team for u in units}
    enemy = battle.unit(unit_id)
    if len(teams) == 1 and enemy is not None:
        team = next(iter(teams))
        whole = all(u.id in reached for u in battle.living(team))
        if team is enemy.team:
            return "on all its allies" if whole else f"on {len(units)} of its allies"
        return "at the whole party" if whole else f"at {len(units)} party members"
    return f"at {len(units)} units"


def _riders(battle: Battle, effects: list[dict[str, Any]]) -> str:
    """The statuses an attack also gives, as words: ", with 2 Burn"."""
    given = [e for e in effects if e["type"] == "status" and e["stacks"] > 0]
    if not given or not any(e["type"] == "damage" for e in effects):
        return ""
    names = []
    for e in given:
        definition = battle.statuses.get(e["status"])
        names.append(f"{e['stacks']} {definition.name if definition else e['status']}")
    return ", with " + " and ".join(dict.fromkeys(names))
