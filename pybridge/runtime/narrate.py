"""The battle log: the one place that words events as sentences a player reads.

Every host shows these lines (the protocol sends them with every change as ``log``); none
words events itself. A line is ``{"text", "kind", "indent", "message"}``: ``message`` is the
sentence (:mod:`.sentences`) whose English ``text`` is, for a host to translate; ``kind``
says what sort of line it is, for a host to colour (:data:`LINE_KINDS`), and ``indent`` is 1
for what happens inside a play or a turn. :func:`narrate_all` adds ``event``: the index of the
event the line tells, so a host can play a turn back line by line with what each line
changes. Every event
type of :data:`.events.EVENTS` has an entry in :data:`NARRATION`: a function, or None for
bookkeeping nobody needs to read.
"""

from __future__ import annotations

from collections import ChainMap
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from .context import Event
from .model import Battle, Team
from .sentences import (
    Said,
    card,
    data,
    definition,
    english,
    listed,
    listed_commas,
    move,
    pile,
    said,
    say,
    status,
    unit,
)
from .vocabulary import Message, builtin, words_of

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


def _told(battle: Battle, sentence: Said, kind: str, indent: int = 1) -> Line:
    """A line: the sentence's English, its kind and indent, and the sentence itself."""
    return {"text": say(battle, sentence), "kind": kind, "indent": indent, "message": sentence}


def _units(battle: Battle, unit_ids: object) -> Said:
    ids = unit_ids if isinstance(unit_ids, list) else []
    return listed([unit(battle, u) for u in ids])


#: How a view's log line names a card its viewer cannot see (:mod:`.views`); no card
#: instance id has a space, so it never names a real one.
HIDDEN_CARD = "a card"


def _card(battle: Battle, card_id: object) -> dict[str, Any]:
    return card(battle, card_id, HIDDEN_CARD)


def _named_card(battle: Battle, e: Event) -> dict[str, Any]:
    """The card an event names by id and by ``name`` (the name it was played under)."""
    named = _card(battle, e.get("card"))
    return {**named, "name": e["name"]} if "name" in named else named


def _side(event: Event) -> Said | None:
    """The side a turn event of a two-sided battle names, None in a one-sided one."""
    value = event.get("side")
    return None if value is None else said(f"side.{value}")


def _ended(b: Battle, e: Event) -> Line:
    """The result: the party's victory or defeat, or, where both sides play cards, which
    side won (each side reads the same line)."""
    won = e["result"] == "victory"
    if not b.two_sided:
        return _told(b, said("log.victory" if won else "log.defeat"), "result", 0)
    winner, loser = ("player", "enemy") if won else ("enemy", "player")
    return _told(b, said("log.side_won", side=said(f"side.{winner}.start"),
                         other=said(f"side.{loser}")), "result", 0)  # fmt: skip


def _damage(b: Battle, e: Event) -> Line:
    taken = e["hp_before"] - e["hp_after"]
    notes: list[Said] = []
    if e["amount"] != e["base"]:
        change = e["amount"] - e["base"]
        notes.append(said("note.raised" if change > 0 else "note.lowered", base=e["base"],
                          change=abs(change)))  # fmt: skip
    if e["blocked"]:
        notes.append(said("note.blocked", blocked=e["blocked"]))
    who = unit(b, e["unit"])
    if not notes:
        return _told(b, said("log.damage", unit=who, taken=taken, hp=e["hp_after"]), "damage")
    told = notes[0] if len(notes) == 1 else said("note.both", first=notes[0], second=notes[1])
    return _told(b, said("log.damage_noted", unit=who, taken=taken, notes=told,
                         hp=e["hp_after"]), "damage")  # fmt: skip


def _played(b: Battle, e: Event) -> Line:
    who, what = unit(b, e["source"]), _named_card(b, e)
    if e.get("target") is not None:
        return _told(b, said("log.play_at", unit=who, card=what, target=unit(b, e["target"])),
                     "play", 0)  # fmt: skip
    return _told(b, said("log.play", unit=who, card=what), "play", 0)


def _status_change(b: Battle, e: Event) -> Line:
    who, what = unit(b, e["unit"]), status(b, e["status"])
    if e["total"] <= 0:
        return _told(b, said("log.status_off", status=what, unit=who), "buff")
    if e["stacks"] < 0:
        return _told(b, said("log.status_lose", unit=who, stacks=-e["stacks"], status=what,
                             total=e["total"]), "buff")  # fmt: skip
    return _told(b, said("log.status_gain", unit=who, stacks=e["stacks"], status=what,
                         total=e["total"]), "buff")  # fmt: skip


def _counter(b: Battle, e: Event) -> Line | None:
    if e.get("node") is None:
        return None  # counted by the rules (a card played): the state shows the count
    spec = words_of(b).counters.get(e["counter"])
    label = said(spec.label.id) if spec is not None and spec.label is not None \
        else said("name.counter", name=str(e["counter"]).replace("_", " ").title())  # fmt: skip
    return _told(b, said("log.counter", counter=label, before=e["before"], after=e["after"]),
                 "buff")  # fmt: skip


def _skipped(b: Battle, e: Event) -> Line:
    if e["reason"] == "draw_pile_empty":
        return _told(b, said("log.draw_pile_empty", available=e["available"],
                             wanted=e["wanted"]), "info")  # fmt: skip
    who = unit(b, e["unit"]) if "unit" in e else _card(b, e.get("card"))
    reason = str(e["reason"])
    if f"log.skipped.{reason}" in words_of(b).messages:
        return _told(b, said(f"log.skipped.{reason}", who=who), "info")
    return _told(b, said("log.skipped", who=who, reason=reason), "info")


def _moved(b: Battle, e: Event) -> Line | None:
    if e.get("node") is None:
        return None  # the rules moving the played card, or the turn's draw (summed up)
    message = "log.moved_face_down" if e.get("face_down") else "log.moved"
    return _told(b, said(message, card=_card(b, e["card"]), from_pile=pile(e["from"]),
                         to_pile=pile(e["to"])), "info")  # fmt: skip


#: What an effect that found nothing was looking for, by what its node acts on.
_NOBODY = {"units": "log.no_targets.units", "cards": "log.no_targets.cards"}


def _no_targets(b: Battle, e: Event) -> Line:
    # A player reads the effect, never its node type: say what it looked for.
    spec = words_of(b).node_types.get(str(e.get("action")))
    message = _NOBODY.get(str(getattr(spec, "acts_on", None)), "log.no_targets.other")
    return _told(b, said(message), "info")


def _decayed(b: Battle, e: Event) -> Line:
    who, what = unit(b, e["unit"]), status(b, e["status"])
    if e["stacks_after"] <= 0:
        return _told(b, said("log.status_off", status=what, unit=who), "buff")
    return _told(b, said("log.status_fades", unit=who, status=what, stacks=e["stacks_after"]),
                 "buff")  # fmt: skip


def _failed(b: Battle, e: Event) -> Line:
    reason = str(e["reason"])
    if e.get("move") in b.moves:
        kind, name = "move", move(b, e["move"], b.moves[e["move"]].name)
    elif e.get("card") is not None:
        kind, name = "card", _card(b, e["card"])
    else:
        kind, name = "move", move(b, e.get("move"), str(e.get("move")))
    if f"fizzle.{kind}.{reason}" in words_of(b).messages:
        return _told(b, said(f"fizzle.{kind}.{reason}", **{kind: name}), "fail")
    return _told(b, said(f"fizzle.{kind}", **{kind: name}, reason=reason), "fail")


def _activated(b: Battle, e: Event, who: Said | None = None) -> Line:
    """``who``: the side that acts, None for the viewer's own (``You``)."""
    form = "respond" if e.get("responding") else ""
    aim = {"targets": _units(b, e["targets"])} if e.get("targets") else {}
    suffix = "_".join(part for part in (form, "at" if aim else "") if part)
    if who is None:
        message = "log.activated.you" + (f"_{suffix}" if suffix else "")
        return _told(b, said(message, card=_card(b, e["card"]), **aim), "cut", 0)
    message = "log.activated.other" + (f"_{suffix}" if suffix else "")
    return _told(b, said(message, who=who, card=_card(b, e["card"]), **aim), "cut", 0)


def _resolving(b: Battle, e: Event) -> Line:
    if e.get("card") is not None:
        return _told(b, said("log.resolving_card", card=_named_card(b, e)), "cut", 0)
    return _told(b, said("log.resolving_move", move=move(b, e.get("move"), e["name"])), "cut", 0)


def _lost(b: Battle, e: Event) -> Line:
    reason, who = str(e["reason"]), unit(b, e["unit"])
    if f"log.target_lost.{reason}" in words_of(b).messages:
        return _told(b, said(f"log.target_lost.{reason}", unit=who), "fail")
    return _told(b, said("log.target_lost", unit=who, reason=reason), "fail")


def _turn(b: Battle, e: Event, message: str, kind: str = "turn", **params: Any) -> Line:
    side = _side(e)
    if side is None:
        return _told(b, said(message, turn=e["turn"], **params), kind, 0)
    return _told(b, said(f"{message}_side", turn=e["turn"], side=side, **params), kind, 0)


def _aimed(b: Battle, e: Event, message: str, aimed: str, kind: str, indent: int) -> Line:
    """A move's line, with its target when it has one (``aimed``: the message then)."""
    who, what = unit(b, e["unit"]), move(b, e.get("move"), e["name"])
    if e.get("target") is not None:
        return _told(b, said(aimed, unit=who, move=what, target=unit(b, e["target"])), kind,
                     indent)  # fmt: skip
    return _told(b, said(message, unit=who, move=what), kind, indent)


def _of_unit(message: str, kind: str = "info") -> Callable[[Battle, Event], Line]:
    return lambda b, e: _told(b, said(message, unit=unit(b, e["unit"])), kind)


# fmt: off
NARRATION: dict[str, Callable[[Battle, Event], Line | None] | None] = {
    "card_played": _played,
    "random_target": lambda b, e: _told(
        b, said("log.fate_picks", unit=unit(b, e["unit"])) if e.get("unit")
        else said("log.fate_none"), "info"),
    "targets_chosen": lambda b, e: _told(b, said("log.targets", units=_units(b, e["units"])),
                                         "info"),
    "cards_chosen": lambda b, e: _told(
        b, said("log.chosen", cards=listed_commas([_card(b, c) for c in e["cards"]],
                                                  "list.no_card")), "info"),
    "damage": _damage,
    "unit_died": _of_unit("log.falls", "death"),
    "armor": lambda b, e: _told(b, said("log.armor", unit=unit(b, e["unit"]), amount=e["amount"],
                                        total=e["armor_after"]), "buff"),
    "heal": lambda b, e: _told(b, said("log.heal", unit=unit(b, e["unit"]), amount=e["amount"],
                                       hp=e["hp_after"]), "heal"),
    "revived": lambda b, e: _told(b, said("log.revived", unit=unit(b, e["unit"]), hp=e["hp"]),
                                  "heal"),
    "status": _status_change,
    "withdrawn": _of_unit("log.withdrawn"),
    "deployed": _of_unit("log.deployed"),
    "card_moved": _moved,
    "reshuffled": lambda b, e: _told(b, said("log.reshuffled", cards=e["cards"]), "info"),
    "negated": lambda b, e: _told(b, said("log.negated", card=_card(b, e["card"])), "fail"),
    "card_revealed": lambda b, e: _told(
        b, said("log.revealed", card=_card(b, e["card"]), pile=pile(e["pile"])), "info"),
    "energy": lambda b, e: _told(b, said("log.energy", before=e["energy_before"],
                                         after=e["energy_after"]), "buff"),
    "counter": _counter,
    "choice_made": None,
    "target_skipped": _skipped,
    "no_targets": _no_targets,
    "called": lambda b, e: _told(
        b, said("log.called_on", unit=unit(b, e["unit"]), card=definition(b, e["card"]),
                targets=_units(b, e["targets"])) if e.get("targets")
        else said("log.called", unit=unit(b, e["unit"]), card=definition(b, e["card"])),
        "info"),
    "branch": None,
    "gate_closed": None,
    "card_resolved": None,
    "turn_ended": lambda b, e: _turn(b, e, "log.turn_ended"),
    "enemy_turn": lambda b, e: _told(b, said("log.enemy_turn"), "turn", 0),
    "turn_started": lambda b, e: _turn(b, e, "log.turn_started", energy=e["energy"]),
    "intent": lambda b, e: _aimed(b, e, "log.intent", "log.intent_at", "info", 1),
    "enemy_acts": lambda b, e: _aimed(b, e, "log.enemy_acts", "log.enemy_acts_on", "enemy", 0),
    "enemy_holds": lambda b, e: _told(
        b, said("log.enemy_holds", unit=unit(b, e["unit"]), move=move(b, e["move"], e["name"]),
                reason=e.get("reason_message") or said("refusal.condition",
                                                       reason=data("", e["reason"]))),
        "enemy", 0),
    "status_hook": lambda b, e: _told(
        b, said("log.status_hook", status=status(b, e["status"]), unit=unit(b, e["unit"])),
        "buff"),
    "status_decayed": _decayed,
    "reaction": lambda b, e: _told(
        b, said("log.reaction", unit=unit(b, e["unit"]), status=status(b, e["status"]),
                attacker=unit(b, e["attacker"])), "enemy"),
    "active_player": _of_unit("log.active_player"),
    "battle_ended": lambda b, e: _ended(b, e),
    "activated": _activated,
    "enemy_responds": lambda b, e: _aimed(b, e, "log.enemy_responds", "log.enemy_responds_on",
                                          "cut", 0),
    "resolving": _resolving,
    "recollected": lambda b, e: _told(b, said("log.recollected", units=_units(b, e["units"])),
                                      "cut"),
    "target_lost": _lost,
    "effect_failed": _failed,
}
# fmt: on


def _param(battle: Battle, kind: str, value: Any) -> Any:
    """An event field as a message parameter of ``kind``: names as names, lists as list
    sentences, a pile or a counter as its sentence, numbers and text as they are."""
    if kind == "unit":
        return unit(battle, value)
    if kind == "units":
        return _units(battle, value)
    if kind == "card":
        return _card(battle, value)
    if kind == "cards":
        cards = value if isinstance(value, list) else []
        return listed_commas([_card(battle, c) for c in cards], "list.nothing")
    if kind == "status":
        return status(battle, value)
    if kind == "move":
        found = battle.moves.get(value) if isinstance(value, str) else None
        return move(battle, value, found.name if found is not None else value)
    if kind == "pile":
        return pile(value)
    if kind == "counter":
        spec = words_of(battle).counters.get(str(value))
        if spec is not None and spec.label is not None:
            return said(spec.label.id)
        return said("name.counter", name=str(value))
    return value


def render(battle: Battle, message: Message, values: Mapping[str, Any]) -> str:
    """A message's English with its parameters filled from ``values`` (an event's fields);
    the message need not be in the battle's table, the sentences it takes are."""
    table = ChainMap({message.id: message}, words_of(battle).messages)
    return english(table, _said_from(battle, message, values))


def _said_from(battle: Battle, message: Message, values: Mapping[str, Any]) -> Said:
    params = {name: _param(battle, kind, values.get(name)) for name, kind in message.params.items()}
    return said(message.id, **params)


def _extension_line(battle: Battle, event: Event) -> Line | None:
    words = words_of(battle).events.get(event["type"])
    if words is None or words.narration is None:
        return None
    narration = words.narration
    return _told(battle, _said_from(battle, narration.message, event), narration.kind)


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


def _who(battle: Battle, side: Team | None, viewer: Team | None) -> Said | None:
    """Who acts, in a two-sided battle's line: None (``You``) for the viewer's own side, the
    other side's active player by name, and for the authority (or a spectator) the side."""
    if side is None or side is viewer:
        return None
    if viewer is not None:
        return said("who.unit", unit=unit(battle, battle.side(side).active_player))
    return said(f"side.{side.value}.start")


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
            who = _who(battle, sides[first_drawn], viewer) if sides is not None else None
            told = said("log.draw.you", count=drawn) if who is None \
                else said("log.draw.other", who=who, count=drawn)  # fmt: skip
            line = _told(battle, told, "info")
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


def _mark(battle: Battle, sentence: Said, kind: str) -> Line:
    return {"text": say(battle, sentence), "kind": kind, "message": sentence}


def _status_mark(battle: Battle, e: Event) -> list[Line]:
    message = "mark.status_lose" if e["stacks"] < 0 else "mark.status_gain"
    return [_mark(battle, said(message, stacks=abs(e["stacks"]),
                               status=status(battle, e["status"])), "buff")]  # fmt: skip


def _damage_marks(battle: Battle, e: Event) -> list[Line]:
    lost, blocked = e["hp_before"] - e["hp_after"], e["blocked"]
    marks = [_mark(battle, said("mark.damage", lost=lost), "damage")] if lost or not blocked \
        else []  # fmt: skip
    if blocked:
        marks.append(_mark(battle, said("mark.blocked", blocked=blocked), "block"))
    return marks


def _plain_mark(message: str, kind: str) -> Callable[[Battle, Event], list[Line]]:
    return lambda b, e: [_mark(b, said(message), kind)]


#: The short marks a preview shows over each unit, by event type.
MARKS: dict[str, Callable[[Battle, Event], list[Line]]] = {
    "damage": _damage_marks,
    "heal": lambda b, e: [_mark(b, said("mark.heal", amount=e["amount"]), "heal")],
    "armor": lambda b, e: [_mark(b, said("mark.armor", amount=e["amount"]), "buff")],
    "status": _status_mark,
    "unit_died": _plain_mark("mark.defeated", "death"),
    "revived": _plain_mark("mark.revived", "heal"),
    "withdrawn": _plain_mark("mark.withdrawn", "info"),
    "deployed": _plain_mark("mark.deployed", "info"),
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


def cut_prompt_said(awaiting: str | None, can_respond: bool, two_sided: bool = False) -> Said:
    """What the player is asked over the Cut (the ``cut`` answer's ``prompt``), by whose
    answer the top entry waits for (:func:`.cut.awaiting`) and whether the player may
    respond with a card. In a two-sided battle ``awaiting`` is the side holding priority,
    and the prompt addresses it."""
    if awaiting is None:
        return said("prompt.cut.start")
    if two_sided:
        side = said(f"side.{awaiting}.start")
        if can_respond:
            return said("prompt.cut.side_respond", side=side)
        return said("prompt.cut.side_pass", side=side)
    if awaiting == "enemy":
        return said("prompt.cut.opponent")
    return said("prompt.cut.respond" if can_respond else "prompt.cut.pass")


def cut_prompt(awaiting: str | None, can_respond: bool, two_sided: bool = False) -> str:
    """:func:`cut_prompt_said`'s English."""
    return english(builtin().messages, cut_prompt_said(awaiting, can_respond, two_sided))
