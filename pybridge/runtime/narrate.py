"""The battle log: the one place that words events as sentences a player reads.

Every host shows these lines (the protocol sends them with every change as ``log``); none
words events itself. A line is ``{"text", "kind", "indent"}``: ``kind`` says what sort of
line it is, for a host to colour (:data:`LINE_KINDS`), and ``indent`` is 1 for what happens
inside a play or a turn. :func:`narrate_all` adds ``event``: the index of the event the line
tells, so a host can play a turn back line by line with what each line changes. Every event
type of :data:`.events.EVENTS` has an entry in :data:`NARRATION`: a function, or None for
bookkeeping nobody needs to read.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from .context import Event
from .model import Battle, Team
from .vocabulary import Message, words_of

Line = dict[str, Any]

#: What each kind of line is about.
LINE_KINDS: dict[str, str] = {
    "play": "a card is played",
    "damage": "damage taken",
    "heal": "HP restored, a unit rising again",
    "buff": "armor, statuses, energy",
    "death": "a unit falls",
    "enemy": "an enemy acts or strikes back",
    "turn": "turns and phases",
    "cut": "the Cut: activations, responses, resolution",
    "fail": "an effect that fails or a target that is lost",
    "result": "the battle's end",
    "info": "everything else worth reading",
    "block": "damage armor absorbs (preview marks)",
}


def _line(text: str, kind: str, indent: int = 1) -> Line:
    return {"text": text, "kind": kind, "indent": indent}


def _unit(battle: Battle, unit_id: object) -> str:
    unit = battle.unit(unit_id) if isinstance(unit_id, str) else None
    return unit.name if unit is not None else str(unit_id)


def _units(battle: Battle, unit_ids: object) -> str:
    names = [_unit(battle, u) for u in unit_ids] if isinstance(unit_ids, list) else []
    if len(names) <= 1:
        return "".join(names) or "no one"
    return ", ".join(names[:-1]) + " and " + names[-1]


#: How a view's log line names a card its viewer cannot see (:mod:`.views`); no card
#: instance id has a space, so it never names a real one.
HIDDEN_CARD = "a card"


def _card(battle: Battle, card_id: object) -> str:
    card = battle.cards.get(card_id) if isinstance(card_id, str) else None
    return card.card.name if card is not None else str(card_id)


def _definition(battle: Battle, card_id: object) -> str:
    """A card definition's name (a Call names the card by its id)."""
    card = battle.library.get(card_id) if isinstance(card_id, str) else None
    return card.name if card is not None else str(card_id)


def _status(battle: Battle, status: object) -> str:
    definition = battle.statuses.get(status) if isinstance(status, str) else None
    return definition.name if definition is not None else str(status).replace("_", " ").title()


def _pile(pile: object) -> str:
    return "the hand" if pile == "hand" else f"the {pile} pile"


def _at(battle: Battle, target: object) -> str:
    return f" on {_unit(battle, target)}" if target is not None else ""


def _damage(b: Battle, e: Event) -> Line:
    taken = e["hp_before"] - e["hp_after"]
    notes = []
    if e["amount"] != e["base"]:
        change = e["amount"] - e["base"]
        notes.append(f"{e['base']} {'+' if change > 0 else '-'} {abs(change)} from statuses")
    if e["blocked"]:
        notes.append(f"{e['blocked']} blocked by armor")
    extra = f" ({'; '.join(notes)})" if notes else ""
    return _line(f"{_unit(b, e['unit'])} takes {taken} damage{extra}, {e['hp_after']} HP left.",
                 "damage")  # fmt: skip


def _played(b: Battle, e: Event) -> Line:
    aim = f" at {_unit(b, e['target'])}" if e.get("target") is not None else ""
    return _line(f"{_unit(b, e['source'])} plays {e['name']}{aim}.", "play", 0)


def _status_change(b: Battle, e: Event) -> Line:
    unit, status = _unit(b, e["unit"]), _status(b, e["status"])
    if e["total"] <= 0:
        return _line(f"{status} wears off {unit}.", "buff")
    if e["stacks"] < 0:
        return _line(f"{unit} loses {-e['stacks']} {status} ({e['total']} left).", "buff")
    return _line(f"{unit} gains {e['stacks']} {status} ({e['total']} total).", "buff")


_SKIPPED = {
    "dead": "has fallen", "missing": "is gone", "left_field": "is not on the field",
    "alive": "is still standing", "on_field": "is already on the field",
    "being_played": "is being played", "not_being_played": "is not being played",
}  # fmt: skip


def _counter(b: Battle, e: Event) -> Line | None:
    if e.get("node") is None:
        return None  # counted by the rules (a card played): the state shows the count
    spec = words_of(b).counters.get(e["counter"])
    label = spec.label.english if spec is not None and spec.label is not None \
        else str(e["counter"]).replace("_", " ").title()  # fmt: skip
    return _line(f"{label} {e['before']} -> {e['after']}.", "buff")


def _skipped(b: Battle, e: Event) -> Line:
    if e["reason"] == "draw_pile_empty":
        return _line(f"The draw pile runs out ({e['available']} of {e['wanted']} drawn).", "info")
    who = _unit(b, e["unit"]) if "unit" in e else _card(b, e.get("card"))
    return _line(f"{who} is skipped: it {_SKIPPED.get(e['reason'], e['reason'])}.", "info")


def _moved(b: Battle, e: Event) -> Line | None:
    if e.get("node") is None:
        return None  # the rules moving the played card, or the turn's draw (summed up)
    how = " face down" if e.get("face_down") else ""
    return _line(f"{_card(b, e['card'])} moves from {_pile(e['from'])} to {_pile(e['to'])}"
                 f"{how}.", "info")  # fmt: skip


#: Who an effect that found nothing was looking for, by what its node acts on.
_NOBODY = {"units": "no one", "cards": "no card"}


def _no_targets(b: Battle, e: Event) -> Line:
    # A player reads the effect, never its node type: say what it looked for.
    spec = words_of(b).node_types.get(str(e.get("action")))
    what = _NOBODY.get(str(getattr(spec, "acts_on", None)), "nothing")
    return _line(f"The effect finds {what} to act on and does nothing.", "info")


def _decayed(b: Battle, e: Event) -> Line:
    unit, status = _unit(b, e["unit"]), _status(b, e["status"])
    if e["stacks_after"] <= 0:
        return _line(f"{status} wears off {unit}.", "buff")
    return _line(f"{unit}'s {status} fades to {e['stacks_after']}.", "buff")


_LOST = {
    "dead": "has fallen", "left_field": "left the field", "protected": "is protected",
    "no_longer_legal": "is no longer a legal target", "missing": "is gone",
}  # fmt: skip
_FAILED = {
    "lost_target": "its target is lost", "no_targets": "nothing is left to target",
    "source_gone": "its user is down",
}  # fmt: skip


def _failed(b: Battle, e: Event) -> Line:
    what = _card(b, e["card"]) if e.get("card") is not None else str(e.get("move"))
    name = b.moves[e["move"]].name if e.get("move") in b.moves else what
    why = _FAILED.get(str(e["reason"]), str(e["reason"]))
    return _line(f"{name} fails: {why}.", "fail")


def _activated(b: Battle, e: Event, who: str = "You") -> Line:
    aim = f" at {_units(b, e['targets'])}" if e.get("targets") else ""
    how = "respond with" if e.get("responding") else "put"
    if who != "You":  # a side named in the third person
        how = "responds with" if e.get("responding") else "puts"
    tail = "" if e.get("responding") else " on the Cut"
    card = _card(b, e["card"])
    return _line(f"{who} {how} {card}{aim}{tail}.", "cut", 0)


def _resolving(b: Battle, e: Event) -> Line:
    return _line(f"{e['name']} resolves.", "cut", 0)


NARRATION: dict[str, Callable[[Battle, Event], Line | None] | None] = {
    "card_played": _played,
    "random_target": lambda b, e: _line(
        f"Fate picks {_unit(b, e['unit'])}." if e.get("unit") else "Fate finds no one to pick.",
        "info",
    ),
    "targets_chosen": lambda b, e: _line(f"Targets: {_units(b, e['units'])}.", "info"),
    "cards_chosen": lambda b, e: _line(
        f"Chosen: {', '.join(_card(b, c) for c in e['cards']) or 'no card'}.", "info"
    ),
    "damage": _damage,
    "unit_died": lambda b, e: _line(f"{_unit(b, e['unit'])} falls.", "death"),
    "armor": lambda b, e: _line(
        f"{_unit(b, e['unit'])} gains {e['amount']} armor ({e['armor_after']} total).", "buff"
    ),
    "heal": lambda b, e: _line(
        f"{_unit(b, e['unit'])} recovers {e['amount']} HP, now {e['hp_after']}.", "heal"
    ),
    "revived": lambda b, e: _line(f"{_unit(b, e['unit'])} rises again with {e['hp']} HP.", "heal"),
    "status": _status_change,
    "withdrawn": lambda b, e: _line(f"{_unit(b, e['unit'])} withdraws to the reserve.", "info"),
    "deployed": lambda b, e: _line(f"{_unit(b, e['unit'])} enters the field.", "info"),
    "card_moved": _moved,
    "reshuffled": lambda b, e: _line(
        f"The discard pile is shuffled into a new draw pile ({e['cards']} cards).", "info"
    ),
    "negated": lambda b, e: _line(f"{_card(b, e['card'])} is negated.", "fail"),
    "card_revealed": lambda b, e: _line(
        f"{_card(b, e['card'])} is turned face up in {_pile(e['pile'])}.", "info"
    ),
    "energy": lambda b, e: _line(f"Energy {e['energy_before']} -> {e['energy_after']}.", "buff"),
    "counter": _counter,
    "choice_made": None,
    "target_skipped": _skipped,
    "no_targets": _no_targets,
    "called": lambda b, e: _line(
        f"{_unit(b, e['unit'])} uses {_definition(b, e['card'])}"
        + (f" on {_units(b, e['targets'])}." if e.get("targets") else "."),
        "info",
    ),
    "branch": None,
    "gate_closed": None,
    "card_resolved": None,
    "turn_ended": lambda b, e: _line(f"Turn {e['turn']}{_for_side(e)} ends.", "turn", 0),
    "enemy_turn": lambda b, e: _line("The enemies act.", "turn", 0),
    "turn_started": lambda b, e: _line(
        f"Turn {e['turn']}{_for_side(e)} begins with {e['energy']} energy.", "turn", 0
    ),
    "intent": lambda b, e: _line(
        f"{_unit(b, e['unit'])} readies {e['name']}"
        + (f" against {_unit(b, e['target'])}." if e.get("target") is not None else "."),
        "info",
    ),
    "enemy_acts": lambda b, e: _line(
        f"{_unit(b, e['unit'])} uses {e['name']}{_at(b, e.get('target'))}.", "enemy", 0
    ),
    "enemy_holds": lambda b, e: _line(
        f"{_unit(b, e['unit'])} holds back {e['name']}: {e['reason']}.", "enemy", 0
    ),
    "status_hook": lambda b, e: _line(
        f"{_status(b, e['status'])} acts on {_unit(b, e['unit'])}.", "buff"
    ),
    "status_decayed": _decayed,
    "reaction": lambda b, e: _line(
        f"{_unit(b, e['unit'])}'s {_status(b, e['status'])} strikes back at "
        f"{_unit(b, e['attacker'])}.",
        "enemy",
    ),
    "active_player": lambda b, e: _line(f"{_unit(b, e['unit'])} takes the lead.", "info"),
    "battle_ended": lambda b, e: _line(
        "Victory! The enemies are defeated."
        if e["result"] == "victory"
        else "Defeat. The party has fallen.",
        "result",
        0,
    ),
    "activated": _activated,
    "enemy_responds": lambda b, e: _line(
        f"{_unit(b, e['unit'])} responds with {e['name']}{_at(b, e.get('target'))}.", "cut", 0
    ),
    "resolving": _resolving,
    "recollected": lambda b, e: _line(f"It now reaches {_units(b, e['units'])}.", "cut"),
    "target_lost": lambda b, e: _line(
        f"{_unit(b, e['unit'])} is lost as a target: it {_LOST.get(e['reason'], e['reason'])}.",
        "fail",
    ),
    "effect_failed": _failed,
}


def render(battle: Battle, message: Message, values: Mapping[str, Any]) -> str:
    """A message's English with its parameters filled from ``values`` (an event's fields):
    units, cards and statuses by name, piles in words, numbers and text as they are."""
    filled: dict[str, str] = {}
    for name, kind in message.params.items():
        value = values.get(name)
        if kind == "unit":
            filled[name] = _unit(battle, value)
        elif kind == "units":
            filled[name] = _units(battle, value)
        elif kind == "card":
            filled[name] = _card(battle, value)
        elif kind == "cards":
            names = [_card(battle, c) for c in value] if isinstance(value, list) else []
            filled[name] = ", ".join(names) or "nothing"
        elif kind == "status":
            filled[name] = _status(battle, value)
        elif kind == "pile":
            filled[name] = _pile(value)
        else:
            filled[name] = str(value)
    return message.english.format_map(filled)


def _extension_line(battle: Battle, event: Event) -> Line | None:
    words = words_of(battle).events.get(event["type"])
    if words is None or words.narration is None:
        return None
    narration = words.narration
    text = render(battle, narration.message, event)
    line = _line(text, narration.kind)
    line["message"] = {
        "id": narration.message.id,
        "params": {k: event.get(k) for k in narration.message.params},
    }
    return line


def narrate(battle: Battle, event: Event) -> Line | None:
    """One line for an event, or None for bookkeeping a player does not need to read."""
    event_type = event.get("type", "")
    if event_type not in NARRATION:
        return _extension_line(battle, event)
    words = NARRATION[event_type]
    return None if words is None else words(battle, event)


def _turn_draw(event: Event) -> bool:
    return (event.get("type") == "card_moved" and event.get("node") is None
            and event.get("from") == "draw" and event.get("to") == "hand")  # fmt: skip


def event_side(battle: Battle, event: Mapping[str, Any]) -> Team | None:
    """The side whose card an event tells of (the card activated or drawn), if any."""
    card_id = event.get("card")
    card = battle.cards.get(card_id) if isinstance(card_id, str) else None
    return card.side if card is not None else None


def _who(battle: Battle, side: Team | None, viewer: Team | None) -> str:
    """Who acts, in a two-sided battle's line: ``You`` for the viewer's own side, the other
    side's active player by name, and for the authority (or a spectator) the side itself."""
    if side is None or side is viewer:
        return "You"
    if viewer is not None:
        return _unit(battle, battle.side(side).active_player)
    return f"The {side.value} side"


def narrate_all(battle: Battle, events: Iterable[Event], viewer: Team | None = None,
                sides: Sequence[Team | None] | None = None) -> list[Line]:  # fmt: skip
    """The log lines for a list of events; the cards a new turn draws are summed up in one.
    Each line's ``event`` is the index in ``events`` of the event it tells (the first drawn
    card's for the summed-up draw). Names are read from ``battle`` (units and cards stay in a
    battle once in it).

    In a two-sided battle a line that tells what a side does says ``You`` only to that side:
    ``viewer`` is whose log it is (None: the authority's, which names both sides), ``sides``
    each event's side (:func:`event_side` of each event when not given: a view's events may
    name a card it cannot see). A one-sided battle's lines say ``You`` to its player."""
    if battle.two_sided and sides is None:
        events = list(events)
        sides = [event_side(battle, event) for event in events]
    lines: list[Line] = []
    drawn = first_drawn = 0

    def flush() -> None:
        nonlocal drawn
        if drawn:
            cards = f"{drawn} card{'s' if drawn != 1 else ''}"
            who = _who(battle, sides[first_drawn], viewer) if sides is not None else "You"
            verb = "draw" if who == "You" else "draws"
            line = _line(f"{who} {verb} {cards}.", "info")
            line["event"] = first_drawn
            lines.append(line)
            drawn = 0

    for index, event in enumerate(events):
        if _turn_draw(event):
            if drawn and sides is not None and sides[index] is not sides[first_drawn]:
                flush()  # one side's draw, then the other's
            if not drawn:
                first_drawn = index
            drawn += 1
            continue
        flush()
        if sides is not None and event.get("type") == "activated":
            line: Line | None = _activated(battle, event, _who(battle, sides[index], viewer))
        else:
            line = narrate(battle, event)
        if line is not None:
            line["event"] = index
            lines.append(line)
    flush()
    return lines


def _status_mark(battle: Battle, e: Event) -> list[Line]:
    return [{"text": f"{e['stacks']:+d} {_status(battle, e['status'])}", "kind": "buff"}]


def _damage_marks(battle: Battle, e: Event) -> list[Line]:
    lost, blocked = e["hp_before"] - e["hp_after"], e["blocked"]
    marks = [{"text": f"-{lost} HP", "kind": "damage"}] if lost or not blocked else []
    if blocked:
        marks.append({"text": f"{blocked} blocked", "kind": "block"})
    return marks


#: The short marks a preview shows over each unit, by event type.
MARKS: dict[str, Callable[[Battle, Event], list[Line]]] = {
    "damage": _damage_marks,
    "heal": lambda b, e: [{"text": f"+{e['amount']} HP", "kind": "heal"}],
    "armor": lambda b, e: [{"text": f"+{e['amount']} Armor", "kind": "buff"}],
    "status": _status_mark,
    "unit_died": lambda b, e: [{"text": "defeated", "kind": "death"}],
    "revived": lambda b, e: [{"text": "revived", "kind": "heal"}],
    "withdrawn": lambda b, e: [{"text": "withdrawn", "kind": "info"}],
    "deployed": lambda b, e: [{"text": "deployed", "kind": "info"}],
}


def preview_marks(battle: Battle, events: Iterable[Event]) -> dict[str, list[Line]]:
    """What a play would do to each unit, as short marks (``{"text", "kind"}``) by unit id,
    in the order it happens: "-6 HP", "4 blocked", "+2 Burn", "defeated"."""
    marks: dict[str, list[Line]] = {}
    for event in events:
        words = MARKS.get(event.get("type", ""))
        if words is not None and "unit" in event:
            marks.setdefault(event["unit"], []).extend(words(battle, event))
    return marks


def _for_side(event: Event) -> str:
    """`` (the enemy side)`` for a turn event of a two-sided battle, which names its side."""
    side = event.get("side")
    return f" (the {side} side)" if side is not None else ""


def cut_prompt(awaiting: str | None, can_respond: bool, two_sided: bool = False) -> str:
    """What the player is asked over the Cut (the ``cut`` answer's ``prompt``), by whose
    answer the top entry waits for (:func:`.cut.awaiting`) and whether the player may
    respond with a card. In a two-sided battle ``awaiting`` is the side holding priority,
    and the prompt addresses it."""
    if two_sided:
        if awaiting is None:
            return "Play a card to start a chain."
        if can_respond:
            return (f"The {awaiting} side's answer: respond with a card, or pass to let it "
                    "resolve.")  # fmt: skip
        return f"The {awaiting} side may pass to let it resolve."
    if awaiting is None:
        return "Play a card to start a chain."
    if awaiting == "enemy":
        return "The opponent may respond. Pass to let them answer."
    if can_respond:
        return "Your answer: respond with a card, or pass to let it resolve."
    return "Pass to let it resolve."
