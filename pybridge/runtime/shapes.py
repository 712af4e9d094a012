"""The typed shapes of what a host reads: each object the protocol hands out (a unit, a card of
a pile, a side, a battle state, a Cut entry, a ``targets`` answer, an event, the answer of a
change, the ``cut`` answer, a refusal) named field by
field with its type, in the protocol's ``schema`` (``shapes``; each event type's
``field_types``). A host builds typed objects from them (the addon's ``PyBridge.Unit``,
``PyBridge.Event``...), and tests hold every answer the runtime gives to them.

A type is written as text:

- ``int``, ``float``, ``bool``, ``string``: a JSON number that is whole (``int``), any number,
  true or false, a string;
- ``list<T>`` and ``map<T>`` (an object with string keys): of values of type ``T``;
- ``object``: a JSON object whose own keys are not typed here (a message, a forecast, a card
  definition); ``any``: any JSON value;
- the name of a shape of this module (``unit``, ``card``...): an object of that shape;
- ``T?``: the value may be null, or its key left out (a host reads the type's default).
"""

from __future__ import annotations

from dataclasses import dataclass

from .model import PILES

#: The types a value can have that are no shape.
SCALARS = ("int", "float", "bool", "string", "object", "any")


@dataclass(frozen=True, slots=True)
class FieldShape:
    name: str
    type: str
    doc: str

    def to_json(self) -> dict[str, str]:
        return {"name": self.name, "type": self.type, "doc": self.doc}


@dataclass(frozen=True, slots=True)
class Shape:
    name: str
    doc: str
    fields: tuple[FieldShape, ...]

    def to_json(self) -> dict[str, object]:
        return {"name": self.name, "doc": self.doc, "fields": [f.to_json() for f in self.fields]}

    def field(self, name: str) -> FieldShape | None:
        return next((f for f in self.fields if f.name == name), None)


def _shape(name: str, doc: str, *fields: tuple[str, str, str]) -> Shape:
    return Shape(name, doc, tuple(FieldShape(*f) for f in fields))


_INTENT_FIELDS = (
    ("move", "string", "the move the enemy will use"),
    ("target", "string?", "the unit it aims at (null: none, or chosen when it acts)"),
)
_LOOKS = (
    ("hp", "int", "health"),
    ("max_hp", "int", "the most health it can have"),
    ("armor", "int", "armor, spent before health"),
    ("statuses", "map<int>", "status id -> stacks"),
    ("zone", "string", "where it stands: field or reserve (schema's zones)"),
    ("intent", "intent?", "the move an enemy telegraphs (null: none)"),
)

#: Every shape, by name, in the order ``schema`` lists them.
SHAPES: dict[str, Shape] = {
    s.name: s
    for s in (
        _shape(
            "unit", "a unit of a battle state (docs/format.md)",
            ("id", "string", "its id"),
            ("name", "string", "its name"),
            ("team", "string", "player or enemy"),
            *_LOOKS,
            ("tags", "list<string>", "its tags"),
            ("tier", "int", "its tier (1: a regular unit)"),
            ("moves", "list<string>", "the ids of an enemy's moves"),
            ("art", "string?", "the path of its portrait"),
        ),
        _shape(
            "intent", "the move an enemy telegraphs",
            *_INTENT_FIELDS,
            ("forecast", "object?", "what the move will do, worded (protocol: state)"),
        ),
        _shape(
            "unit_after", "what an event's unit looks like after it (protocol: play)",
            *_LOOKS,
            ("alive", "bool", "whether it stands (health above 0)"),
        ),
        _shape(
            "card", "a card instance in a pile or on the Cut (a card back has only its id)",
            ("id", "string", "the instance's id (a view's own id in a view)"),
            ("card", "string?", "its card definition's id (null: a card back)"),
            ("owner", "string?", "the unit that plays it"),
            ("face_down", "bool?", "true when it lies face down"),
        ),
        _shape(
            "piles", "a side's piles, each top first",
            *((pile.value, "list<card>", f"the {pile.value} pile") for pile in PILES),
        ),
        _shape(
            "side", "a card-playing side (one-sided battles keep it at the state's top level)",
            ("team", "string", "player or enemy"),
            ("active_player", "string", "the unit that plays its cards"),
            ("energy", "int", "energy left this turn"),
            ("max_energy", "int", "energy each turn starts with"),
            ("draw_per_turn", "int", "cards drawn each turn"),
            ("hand_at_turn_end", "string?", "keep or discard (a one-sided battle: discard)"),
            ("piles", "piles", "its piles"),
        ),
        _shape(
            "cut_entry", "an effect waiting on the Cut (protocol: cut)",
            ("id", "string", "its id, e followed by a number"),
            ("side", "string", "the side that put it on the Cut"),
            ("source", "string", "the unit that plays it"),
            ("targets", "list<string>", "its locked targets"),
            ("collected", "list<string>", "the range an all ~ effect collected"),
            ("answered", "bool", "whether the enemies had their chance to respond (two "
             "sides: the other side passed and it waits for its owner's choice)"),
            ("card", "card?", "its card (null for a move)"),
            ("move", "string?", "its move (null for a card)"),
            ("late_choice", "late_choice?", "what a card that chooses on resolve may choose "
             "now (the cut answer only)"),
        ),
        _shape(
            "state", "a battle state, or a view (protocol: state, view)",
            ("turn", "int", "the turn, from 1"),
            ("turn_side", "string?", "whose turn it is (two sides only)"),
            ("result", "string?", "victory, defeat, or null while it goes on"),
            ("rules", "string", "the rule profile: soft or strict"),
            ("reshuffle", "bool", "whether an empty draw pile takes the discard pile"),
            ("next_entry", "int", "the number of the next Cut entry"),
            ("units", "list<unit>", "every unit, in order"),
            ("sides", "list<side>?", "the two card-playing sides (two sides only)"),
            ("active_player", "string?", "the player side's (one side only)"),
            ("energy", "int?", "the player side's (one side only)"),
            ("max_energy", "int?", "the player side's (one side only)"),
            ("draw_per_turn", "int?", "the player side's (one side only)"),
            ("piles", "piles?", "the player side's (one side only)"),
            ("cut", "list<cut_entry>", "what waits on the Cut, bottom first"),
            ("counters", "map<int>?", "the battle counters extensions declare"),
            ("cards", "list<object>", "the card definitions (docs/format.md)"),
            ("statuses", "list<object>", "the status definitions"),
            ("moves", "list<object>", "the move definitions"),
            ("view", "object?", "whose view it is (a view only)"),
            ("format", "string?", "the document's format (not in a view)"),
            ("seed", "int?", "the battle's seed (not in a view)"),
            ("rng", "object?", "the random generator's state (not in a view)"),
            ("extensions", "object?", "the extensions it needs"),
            ("visibility", "object?", "who sees each pile"),
            ("deck_lists", "string?", "whose deck lists a side knows"),
            ("secret", "string?", "the view ids' secret (not in a view)"),
            ("stints", "object?", "the view ids' counts (not in a view)"),
        ),
        _shape(
            "targets", "what a card may target now (protocol: targets)",
            ("card", "string", "the card instance"),
            ("mode", "string", "its target mode"),
            ("requires_target", "bool", "whether the player aims it at a unit"),
            ("source", "string", "the unit that plays it"),
            ("candidates", "list<string>", "the units it may be aimed at"),
            ("range", "list<string>", "the units its mode reaches"),
            ("affects", "list<string>", "the units a play now acts on (what a UI lights)"),
            ("random", "object?", "for a viewer: affects stops where the RNG decides"),
            ("hidden", "object?", "for a viewer: affects stops at a card it cannot see"),
            ("playable", "bool", "whether it can be played now"),
            ("reason", "string?", "why not, in the runtime's words"),
            ("reason_message", "object?", "the same as a message"),
            ("refusal", "object?", "why not: code, text, message, protected"),
            ("count", "int", "how many units a play takes"),
            ("up_to", "bool", "whether fewer (at least one) may be taken"),
            ("count_label", "string", "count worded for a card's band"),
            ("count_label_message", "object?", "the same as a message"),
            ("choose_on_resolve", "bool", "whether it chooses when it resolves"),
            ("late_choice", "late_choice?", "where that choice comes from"),
            ("protected", "list<object>", "units a status keeps out of its reach"),
            ("facts", "object", "its mode's facts (schema's modes)"),
        ),
        _shape(
            "late_choice", "where the choice of a card that chooses on resolve comes from "
            "(protocol: targets, cut)",
            ("at", "string", "when it is made: resolution"),
            ("chooses", "string", "units or cards"),
            ("zones", "list<string>", "the piles its cards come from (cards only)"),
            ("candidates", "list<string>", "what could be chosen now (a viewer's: those it "
             "sees; its owner's: every card the search finds, in id order)"),
            ("faces", "map<string>?", "its owner's view: the card each candidate it could "
             "not see otherwise is, by id (the search shows them)"),
        ),
        _shape(
            "asked_choice", "a choice an action asks while it resolves (the choice of a "
            "choice_needed error; docs/extensions.md)",
            ("key", "string", "where a request's choices answers it"),
            ("kind", "string", "the choice kind (schema's choices)"),
            ("node", "string", "the node that asks it"),
            ("entry", "string?", "the Cut entry that resolves (null: a play)"),
            ("side", "string", "the side that makes it (player or enemy): only it answers"),
            ("card", "string?", "the card whose Behavior asks it"),
            ("chooses", "string", "units or cards"),
            ("zones", "list<string>", "the piles its cards are in (cards only)"),
            ("prompt", "object", "what the player is asked, as the schema words it"),
            ("prompt_message", "object", "the same as a message"),
            ("options", "list<string>", "what may be chosen, in the runtime's order (none "
             "for a viewer the choice's visibility does not show them to)"),
            ("count", "int", "how many options there are"),
            ("faces", "map<string>?", "the card each option is, by option id, where the "
             "visibility shows it to the viewer (a request with a viewer)"),
            ("minimum", "int", "the fewest to choose"),
            ("maximum", "int", "the most to choose"),
            ("ordered", "bool", "whether the order of the answer matters"),
            ("visibility", "string", "who sees the options"),
        ),
        _shape(
            "pick", "the next pick of a choice (protocol: pick)",
            ("card", "string?", "the card that chooses (a card or a Cut entry's choice)"),
            ("entry", "string?", "the Cut entry that chooses as it resolves"),
            ("key", "string?", "an asked choice's key"),
            ("kind", "string?", "an asked choice's kind"),
            ("ordered", "bool?", "an asked choice's: whether the order matters"),
            ("chooses", "string", "units or cards"),
            ("chosen", "list<string>", "what is chosen so far, in order"),
            ("candidates", "list<string>", "what may be picked next (none once full)"),
            ("needed", "int", "the fewest the choice takes"),
            ("count", "int", "the most the choice takes"),
            ("can_confirm", "bool", "whether enough are chosen to confirm"),
            ("complete", "bool", "whether as many as it takes are chosen"),
        ),
        _shape(
            "log_line", "a line of the battle log (protocol: play, end_turn)",
            ("text", "string", "the line in English"),
            ("kind", "string", "what it tells (schema's log_kinds)"),
            ("indent", "int", "how far it is indented under the line it belongs to"),
            ("message", "object?", "the line as a message (docs/translation.md)"),
            ("event", "int?", "the index of the first event it tells"),
        ),
        _shape(
            "step", "a step of a playback as a host shows it: a log line and the events from "
            "the one it tells up to the next line's",
            ("op", "string", "the request it answers: end_turn, pass, play, activate"),
            ("index", "int", "its place in the playback, from 0"),
            ("count", "int", "how many steps the playback has"),
            ("line", "log_line?", "its log line (null: events with no line)"),
            ("events", "list<event>", "the events it tells"),
            ("cut", "bool", "whether it shows something of the Cut"),
        ),
        _shape(
            "outcome", "what a request that changes the battle answers (protocol: open, play, "
            "end_turn, activate, respond, pass, resolve)",
            ("events", "list<event>", "what happened, in order"),
            ("log", "list<log_line>", "the battle log's lines that tell those events"),
            ("state", "state", "the battle state after it"),
            ("session", "string?", "the new session (open only)"),
        ),
        _shape(
            "cut_status", "what waits on the Cut and what the player may do now (protocol: cut)",
            ("cut", "list<cut_entry>", "the entries, bottom first, each with its late_choice"),
            ("side", "string?", "the side the answer is for (two sides only)"),
            ("awaiting", "string?", "whose answer the top entry waits for (null: empty)"),
            ("awaiting_choice", "string?", "the entry that waits for a choice, or null"),
            ("can_activate", "bool", "whether a card may be activated now"),
            ("activate_reason", "string?", "why not, in the runtime's words"),
            ("activate_reason_message", "object?", "the same as a message"),
            ("can_respond", "bool", "whether a card may respond to what waits"),
            ("can_pass", "bool", "whether something waits to be passed on"),
            ("can_end_turn", "bool", "whether the turn may end now"),
            ("end_turn_reason", "string?", "why not, the message end_turn would be refused with"),
            ("end_turn_reason_message", "object?", "the same as a message"),
            ("prompt", "string", "the line to ask the player with"),
            ("prompt_message", "object", "the same as a message"),
        ),
        _shape(
            "refusal", "why a request was refused: a failure's error (protocol: error codes)",
            ("code", "string", "a stable snake_case word (the error codes)"),
            ("message", "string", "for the developer, in English, quoting the request's ids"),
            ("where", "string", "the request's field it names (target, card, battle.units[2])"),
            ("reason", "string?", "the words a player reads, when a player can meet it"),
            ("reason_message", "object?", "the same as a message"),
            ("choice", "asked_choice?", "the choice to make first (choice_needed only)"),
            ("extension_traceback", "string?", "where an extension's code failed"),
        ),
        _shape(
            "event", "what every event has, beside its type's fields (schema's events)",
            ("type", "string", "the event type"),
            ("unit_after", "unit_after?", "its unit after it (requests that change the battle)"),
        ),
    )
}  # fmt: skip


def check_type(text: str, shapes: dict[str, Shape] = SHAPES) -> str:
    """``text`` when it is a type this module reads, else a ValueError naming it."""
    inner = text[:-1] if text.endswith("?") else text
    for wrap in ("list<", "map<"):
        if inner.startswith(wrap) and inner.endswith(">"):
            check_type(inner[len(wrap) : -1], shapes)
            return text
    if inner not in SCALARS and inner not in shapes:
        raise ValueError(f"unknown type {text!r}: one of {', '.join(SCALARS)}, a shape "
                         f"({', '.join(shapes)}), list<T>, map<T>, or T? (T or null)")  # fmt: skip
    return text


def mismatch(value: object, type_text: str, path: str = "value",
             shapes: dict[str, Shape] = SHAPES) -> str | None:  # fmt: skip
    """Where ``value`` (JSON) does not fit ``type_text``, or None when it does. An object of a
    shape may not hold a key the shape does not name."""
    if type_text.endswith("?"):
        return None if value is None else mismatch(value, type_text[:-1], path, shapes)
    fits: dict[str, bool] = {
        "int": isinstance(value, int) and not isinstance(value, bool),
        "float": isinstance(value, (int, float)) and not isinstance(value, bool),
        "bool": isinstance(value, bool), "string": isinstance(value, str),
        "object": isinstance(value, dict), "any": True,
    }  # fmt: skip
    if type_text in fits:
        return None if fits[type_text] else f"{path}: {value!r} is no {type_text}"
    if type_text.startswith("list<"):
        if not isinstance(value, list):
            return f"{path}: {value!r} is no list"
        inner = type_text[5:-1]
        found = (mismatch(v, inner, f"{path}[{i}]", shapes) for i, v in enumerate(value))
        return next((m for m in found if m), None)
    if type_text.startswith("map<"):
        if not isinstance(value, dict):
            return f"{path}: {value!r} is no map"
        inner = type_text[4:-1]
        found = (mismatch(v, inner, f"{path}.{k}", shapes) for k, v in value.items())
        return next((m for m in found if m), None)
    return shape_mismatch(value, shapes[type_text], path, shapes)


def shape_mismatch(value: object, shape: Shape, path: str = "value",
                   shapes: dict[str, Shape] = SHAPES, extra: dict[str, str] | None = None
                   ) -> str | None:  # fmt: skip
    """Where ``value`` does not fit ``shape`` (and the ``extra`` fields, name -> type)."""
    if not isinstance(value, dict):
        return f"{path}: {value!r} is no {shape.name}"
    types = {f.name: f.type for f in shape.fields} | (extra or {})
    for key in value:
        if key not in types:
            return f"{path}.{key}: not a field of {shape.name}"
    for name, type_text in types.items():
        if name not in value and not type_text.endswith("?"):
            return f"{path}.{name}: missing"
        found = mismatch(value.get(name), type_text, f"{path}.{name}", shapes)
        if found:
            return found
    return None


def event_mismatch(event: dict[str, object], field_types: dict[str, dict[str, str]],
                   path: str = "event") -> str | None:  # fmt: skip
    """Where ``event`` does not fit its type's ``field_types`` (``schema``'s, by type)."""
    declared = field_types.get(str(event.get("type")))
    if declared is None:
        return f"{path}: undeclared event type {event.get('type')!r}"
    return shape_mismatch(event, SHAPES["event"], path, extra=declared)
