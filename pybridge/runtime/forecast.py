"""What each telegraphed enemy intent will do: the numbers a UI shows in its intent bubble.

The forecast plays the end of the turn on a copy of the battle, exactly as ``end_turn`` would
now, and reads off what each enemy's move did: damage after every modifier (Strength, Weak and
the like) with the armor that blocks it, armor, healing and the statuses it applies. So the
number a player sees is the number the move then deals, as long as nothing changes before the
turn ends (every change to the battle renews the forecast). An enemy that falls first, or
whose move finds no legal target, is forecast not to act.

A forecast given for a viewer knows only what that viewer may know (:func:`.views.known_to`):
the turn is told up to where it would first draw from the RNG or read a card hidden from the
viewer, and a move that goes past that point is forecast as far as it got, with ``random``
or ``hidden`` saying why no more is told (both null in a forecast told whole).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .context import Event
from .cut import resolve_all
from .errors import TargetingError
from .hiding import Known
from .model import Battle, Team
from .narrate import narrate_all
from .sentences import Said, said, say
from .sentences import move as move_named
from .sentences import unit as unit_named
from .turns import end_turn

Forecast = dict[str, Any]

#: Events that end one enemy's move in the enemy phase.
_MOVE_ENDS = frozenset({"enemy_acts", "status_hook", "turn_started", "battle_ended"})


#: A run of the end of the turn on a copy, appending its events to the list it is given.
Run = Callable[[Battle, list[Event]], object]


def forecast_intents(battle: Battle, known: Callable[[Run], Known] | None = None,
                     told: Callable[[list[Event]], list[dict[str, Any]]] | None = None
                     ) -> dict[str, Forecast]:  # fmt: skip
    """For every enemy with an intent: the forecast of its move, by unit id. ``known``
    plays the end of the turn on a copy as far as a viewer may know it, and ``told`` gives
    the log lines of events as that viewer reads them (:func:`.views.forecasts_for`);
    without them, the authority's forecast, told whole."""
    waiting = [u for u in battle.team(Team.ENEMY) if u.intent is not None and u.alive]
    if battle.result is not None or not waiting:
        return {}
    if known is None:
        events: list[Event] = []
        _turn_on_a_copy(battle.clone(), events)
        seen = Known(events)
    else:
        seen = known(_turn_on_a_copy)
    moves, ended = _segments(seen.events)
    lines = told if told is not None else lambda events: narrate_all(battle, events)
    out = {}
    for unit in waiting:
        move = moves.get(unit.id)
        cut = seen.stopped and unit.id not in ended
        out[unit.id] = _forecast(battle, unit.id, move, lines, seen if cut else None)
    return out


def _turn_on_a_copy(copy: Battle, events: list[Event]) -> None:
    """The events of ending the turn now, on a copy; none when the turn cannot end now."""
    try:
        if copy.cut:
            events += resolve_all(copy)
        events += end_turn(copy)
    except TargetingError:
        events.clear()


def _segments(events: list[Event]) -> tuple[dict[str, list[Event]], set[str]]:
    """Each enemy's ``enemy_acts`` event and what followed it, up to the next move or hook,
    and the enemies whose segment such an event ended (the others may go on past the
    events given)."""
    moves: dict[str, list[Event]] = {}
    ended: set[str] = set()
    current: list[Event] | None = None
    acting = ""
    for event in events:
        kind = event["type"]
        if kind == "enemy_acts" or kind in _MOVE_ENDS:
            if current is not None:
                ended.add(acting)
            current = None
        if kind == "enemy_acts":
            acting = event["unit"]
            current = moves[acting] = [event]
        elif current is not None:
            current.append(event)
    return moves, ended


def _forecast(battle: Battle, unit_id: str, move: list[Event] | None,
              told: Callable[[list[Event]], list[dict[str, Any]]],
              cut: Known | None) -> Forecast:  # fmt: skip
    """One enemy's forecast; ``cut``: what stopped the turn before its move was told whole
    (its move is then told as far as it got: what follows is the RNG's or a hidden card's)."""
    unit = battle.unit(unit_id)
    assert unit is not None and unit.intent is not None
    definition = battle.moves.get(unit.intent.move)
    named = definition.name if definition is not None else unit.intent.move
    name = move_named(battle, unit.intent.move, named)
    bare = said("intent.title_bare", move=name)
    random = None if cut is None or not cut.random else {"from": None, "count": None}
    hidden = None if cut is None else cut.hidden
    if cut is not None:
        rest = move[1:] if move else []
        lines = told(rest)
        out = {"acts": move is not None, "kind": "other", "effects": _effects(unit_id, rest),
               "lines": [line["text"] for line in lines],
               "line_messages": [line["message"] for line in lines],
               "random": random, "hidden": hidden}  # fmt: skip
        unknown = said("intent.random" if random is not None else "intent.hidden")
        return _worded(battle, out, None, bare, unknown)
    if not move:
        idle = {"acts": False, "kind": "none", "effects": [], "lines": [], "random": None,
                "hidden": None}  # fmt: skip
        return _worded(battle, idle, None, bare, said("intent.idle"))
    acts, rest = move[0], move[1:]
    effects = _effects(unit_id, rest)
    kind, label = _headline(battle, unit_id, effects)
    detail = _detail(battle, unit_id, effects, acts.get("target"))
    riders = _riders(battle, effects)
    if riders is not None:
        detail = said("intent.with", detail=detail, riders=riders)
    title = bare if label is None else said("intent.title", move=name, label=label)
    lines = told(rest)
    out = {"acts": True, "kind": kind, "effects": effects,
           "lines": [line["text"] for line in lines],
           "line_messages": [line["message"] for line in lines],
           "random": None, "hidden": None}  # fmt: skip
    return _worded(battle, out, label, title, detail)


def _worded(battle: Battle, out: Forecast, label: Said | None, title: Said,
            detail: Said) -> Forecast:  # fmt: skip
    """The forecast's words, each as English beside its sentence (``*_message``)."""
    out["label"] = "" if label is None else say(battle, label)
    out["title"], out["detail"] = say(battle, title), say(battle, detail)
    out["label_message"], out["title_message"], out["detail_message"] = label, title, detail
    if not out["acts"]:
        out["line_messages"] = []
    return out


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


def _headline(battle: Battle, unit_id: str,
              effects: list[dict[str, Any]]) -> tuple[str, Said | None]:  # fmt: skip
    """The kind of move and its number: damage per hit (x hits on one unit), else armor,
    healing or the stacks it gives."""
    hits = [e for e in effects if e["type"] == "damage"]
    if hits:
        amounts = {e["amount"] for e in hits}
        targets = {e["unit"] for e in hits}
        if len(amounts) == 1:
            amount = hits[0]["amount"]
            repeat = len(hits) // len(targets)
            if repeat > 1:
                return "attack", said("intent.hits", amount=amount, repeat=repeat)
            return "attack", said("intent.amount", amount=amount)
        summed = said("number", n=hits[-1]["amount"])
        for index in range(len(hits) - 2, -1, -1):  # mypyc cannot iterate reversed() of Any
            summed = said("list.plus", first=said("number", n=hits[index]["amount"]), rest=summed)
        return "attack", summed
    for kind, word in (("armor", "defend"), ("heal", "heal")):
        found = [e for e in effects if e["type"] == kind]
        if found:
            return word, said("intent.amount", amount=found[0]["amount"])
    statuses = [e for e in effects if e["type"] == "status" and e["stacks"] > 0]
    if statuses:
        first = statuses[0]
        target = battle.unit(first["unit"])
        enemy = battle.unit(unit_id)
        own = target is not None and enemy is not None and target.team is enemy.team
        given = said("stacks", stacks=first["stacks"], status=_status(battle, first["status"]))
        return ("buff" if own else "debuff"), given
    return "other", None


def _status(battle: Battle, status_id: str) -> dict[str, Any]:
    """A status by name; one the battle does not define is named by its id."""
    definition = battle.statuses.get(status_id)
    return {"status": status_id, "name": definition.name if definition else status_id}


def _detail(battle: Battle, unit_id: str, effects: list[dict[str, Any]], target: object) -> Said:
    """Who the move reaches, as a sentence."""
    reached = list(dict.fromkeys(e["unit"] for e in effects))
    if not reached:
        named = battle.unit(target) if isinstance(target, str) else None
        return said("intent.at", unit=unit_named(battle, target)) if named is not None \
            else said("intent.no_effect")  # fmt: skip
    if reached == [unit_id]:
        return said("intent.itself")
    units = [u for u in (battle.unit(r) for r in reached) if u is not None]
    if len(units) == 1:
        return said("intent.at", unit=unit_named(battle, units[0].id))
    teams = {u.team for u in units}
    enemy = battle.unit(unit_id)
    if len(teams) == 1 and enemy is not None:
        team = next(iter(teams))
        whole = all(u.id in reached for u in battle.living(team))
        if team is enemy.team:
            return said("intent.all_allies") if whole \
                else said("intent.some_allies", count=len(units))  # fmt: skip
        return said("intent.whole_party") if whole \
            else said("intent.some_party", count=len(units))  # fmt: skip
    return said("intent.some_units", count=len(units))


def _riders(battle: Battle, effects: list[dict[str, Any]]) -> Said | None:
    """The statuses an attack also gives, as a sentence: "2 Burn and 1 Weak"."""
    given = [e for e in effects if e["type"] == "status" and e["stacks"] > 0]
    if not given or not any(e["type"] == "damage" for e in effects):
        return None
    seen: dict[tuple[int, str], Said] = {}
    for e in given:
        status = _status(battle, e["status"])
        seen.setdefault((e["stacks"], status["name"]),
                        said("stacks", stacks=e["stacks"], status=status))  # fmt: skip
    items = list(seen.values())
    joined = items[-1]
    for item in reversed(items[:-1]):
        joined = said("list.and_chain", first=item, rest=joined)
    return joined
