"""Every object the protocol hands a host fits the typed shape ``schema`` gives it (its
``shapes``, and each event type's ``field_types``): the states, views, ``targets`` and ``cut``
answers and events of whole games of the examples, one-sided, on the Cut, two-sided and with
the demo's extension. A host's typed objects (the addon's PyBridge.Unit...) are built from those
shapes, so what they read is what the runtime writes.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from pybridge import extensions
from pybridge.examples import demo_battle, duel_battle, rivals_battle
from pybridge.protocol import Protocol
from pybridge.runtime.shapes import SHAPES, check_type, event_mismatch, mismatch
from pybridge.service import new_protocol

ROOT = Path(__file__).resolve().parents[1]
DEMO = ROOT / "demo_project"
MECHANICS = DEMO / "extensions" / "mechanics.py"
PARTY = json.loads((DEMO / "battles" / "party_battle.json").read_text("utf-8"))
LIBRARY = json.loads((DEMO / "cards" / "mechanics.json").read_text("utf-8"))

Doc = dict[str, Any]


class Game:
    """A battle played through the protocol by a plain player: the first card it can play
    without a choice, at its first candidate, else a pass, else the end of the turn. With a
    ``viewer``, that seat's view and Cut are asked after each step too."""

    def __init__(self, protocol: Protocol, battle: Doc, libraries: list[Doc] | None = None,
                 on_cut: bool = False, viewer: str | None = None) -> None:  # fmt: skip
        self.protocol, self.on_cut, self.viewer = protocol, on_cut, viewer
        self.answers: list[tuple[str, Doc]] = []
        opened = self.send("open", battle=battle, libraries=libraries or [])
        self.session = opened["session"]
        self.state: Doc = opened["state"]

    def send(self, op: str, **fields: Any) -> Doc:
        answer: Doc = json.loads(self.protocol.call(json.dumps({"op": op, **fields})))
        assert answer["ok"], answer
        self.answers.append((op, answer["result"]))
        result: Doc = answer["result"]
        return result

    def ask(self, op: str, **fields: Any) -> Doc:
        return self.send(op, session=self.session, **fields)

    def hand(self) -> list[str]:
        cut = self.ask("cut")
        if "sides" in self.state:
            side = next(s for s in self.state["sides"] if s["team"] == cut["side"])
            return [c["id"] for c in side["piles"]["hand"]]
        return [c["id"] for c in self.state["piles"]["hand"]]

    def step(self) -> None:
        for card in self.hand():
            info = self.ask("targets", card=card)
            if info["playable"] and (info["count"] > 1 or info["late_choice"] is not None):
                self.ask("pick", card=card, chosen=[])  # a choice's first pick
            if info["playable"] and info["count"] == 1 and info["late_choice"] is None:
                fields: Doc = {"card": card}
                if info["requires_target"]:
                    fields["target"] = info["candidates"][0]
                answer = json.loads(self.protocol.call(json.dumps(
                    {"op": "activate" if self.on_cut else "play", "session": self.session,
                     **fields})))  # fmt: skip
                if answer["ok"]:  # a card that asks a choice as it resolves is left alone
                    self.answers.append(("play", answer["result"]))
                    self.state = answer["result"]["state"]
                    return
        if self.ask("cut")["can_pass"]:
            self.state = self.ask("pass")["state"]
        else:
            self.state = self.ask("end_turn")["state"]

    def play(self, steps: int = 40) -> list[tuple[str, Doc]]:
        for _ in range(steps):
            if self.state["result"] is not None:
                break
            self.step()
            if self.viewer is not None:  # what a seat reads: its view, its cards' answers
                view = self.ask("state", viewer=self.viewer)["state"]
                self.ask("cut", viewer=self.viewer)
                own = next(s for s in view["sides"] if s["team"] == self.viewer)
                for card in own["piles"]["hand"][:2]:
                    self.ask("targets", card=card["id"], viewer=self.viewer)
        return self.answers


def games() -> Iterator[tuple[str, Protocol, Game]]:
    plain = Protocol()
    yield "demo", plain, Game(plain, demo_battle())
    yield "duel", plain, Game(plain, duel_battle(), on_cut=True)
    yield "rivals", plain, Game(plain, rivals_battle(), on_cut=True)
    yield "rivals_view", plain, Game(plain, rivals_battle(), on_cut=True, viewer="player")
    mechanics = new_protocol(words=extensions.load([MECHANICS]).words)
    yield "party", mechanics, Game(mechanics, PARTY, [LIBRARY])


def schema_of(protocol: Protocol) -> Doc:
    answer: Doc = json.loads(protocol.call('{"op": "schema"}'))["result"]
    return answer


def misfits(protocol: Protocol, answers: list[tuple[str, Doc]]) -> list[str]:
    """Where each answer does not fit the shape ``schema`` gives it."""
    schema = schema_of(protocol)
    types = {e["type"]: e["field_types"] for e in schema["events"]}
    found = []
    for i, (op, result) in enumerate(answers):
        at = f"{i}:{op}"
        if "state" in result:
            found.append(mismatch(result["state"], "state", f"{at}.state"))
        for j, event in enumerate(result.get("events", [])):
            found.append(event_mismatch(event, types, f"{at}.events[{j}]"))
        for j, line in enumerate(result.get("log", [])):
            found.append(mismatch(line, "log_line", f"{at}.log[{j}]"))
        if op == "targets":
            found.append(mismatch(result, "targets", at))
        if op == "pick":
            found.append(mismatch(result, "pick", at))
        if op == "cut":
            found.append(mismatch(result, "cut_status", at))
        if op in CHANGES:
            found.append(mismatch({**result, "events": []}, "outcome", at))  # events: above
    return [f for f in found if f]


#: The requests that change the battle: each answers an outcome.
CHANGES = ("open", "play", "end_turn", "activate", "respond", "pass", "resolve")


@pytest.mark.parametrize("name", ["demo", "duel", "rivals", "rivals_view", "party"])
def test_every_answer_of_a_whole_game_fits_its_shape(name: str) -> None:
    protocol, game = next((p, g) for n, p, g in games() if n == name)
    answers = game.play()
    ops = {op for op, _ in answers}
    assert {"targets", "cut", "play", "end_turn"} <= ops, ops
    if name == "duel":  # its Salvage chooses on resolve: the late choice and its pick
        assert "pick" in ops and any(r.get("late_choice") for _, r in answers)
    events = [e["type"] for _, r in answers for e in r.get("events", [])]
    assert "damage" in events and any("unit_after" in e for _, r in answers
                                      for e in r.get("events", []))  # fmt: skip
    assert misfits(protocol, answers) == []


def test_every_refusal_fits_the_refusal_shape() -> None:
    """A failure's error, whichever its kind: a player's refusal with its reason, a developer's
    mistake, a choice to make first, a request that is no JSON."""
    protocol = new_protocol(words=extensions.load([MECHANICS]).words)
    game = Game(protocol, PARTY, [LIBRARY])
    hand = game.state["piles"]["hand"]
    foresight = next(c["id"] for c in hand if c["card"] == "foresight")
    requests = [
        {"op": "play", "session": game.session, "card": "nowhere"},
        {"op": "play", "session": game.session, "card": foresight},
        {"op": "pass", "session": "no_such_session"},
        {"op": "play", "session": game.session, "card": hand[0]["id"], "target": "nobody"},
    ]
    errors = [json.loads(protocol.call(json.dumps(r)))["error"] for r in requests]
    errors.append(json.loads(protocol.call("{"))["error"])
    strict = Game(Protocol(), demo_battle())
    strike = next(c for c in strict.state["piles"]["hand"] if c["card"] == "strike")
    wrong = {"op": "play", "session": strict.session, "card": strike["id"], "target": "knight"}
    errors.append(json.loads(strict.protocol.call(json.dumps(wrong)))["error"])
    codes = [e["code"] for e in errors]
    assert codes == ["unknown_card", "choice_needed", "unknown_session", "unknown_unit",
                     "bad_json", "not_a_candidate"], codes  # fmt: skip
    assert errors[1]["choice"]["options"] and errors[5]["reason_message"]["id"]
    assert [mismatch(e, "refusal", f"error[{i}]") for i, e in enumerate(errors)] == [None] * 6


def test_the_party_game_emits_the_extensions_event_with_its_typed_fields() -> None:
    protocol = new_protocol(words=extensions.load([MECHANICS]).words)
    battle = dict(PARTY)
    game = Game(protocol, battle, [LIBRARY])
    hand = [c["id"] for c in game.state["piles"]["hand"]]
    foresight = next(c["id"] for c in game.state["piles"]["hand"] + game.state["piles"]["draw"]
                     if c["card"] == "foresight")  # fmt: skip
    assert foresight in hand or foresight  # the party battle deals it in its first hand
    asked = json.loads(protocol.call(json.dumps(
        {"op": "play", "session": game.session, "card": foresight})))  # fmt: skip
    if asked["ok"]:
        pytest.skip("foresight asked nothing")
    choice = asked["error"]["choice"]
    assert mismatch(choice, "asked_choice", "choice") is None
    game.ask("pick", choice=choice, chosen=choice["options"][:1])
    played = game.ask("play", card=foresight, choices={choice["key"]: choice["options"][:1]})
    scried = next(e for e in played["events"] if e["type"] == "scried")
    assert isinstance(scried["looked"], int) and scried["kept"] == 1
    assert misfits(protocol, game.answers) == []


def test_a_misfit_is_named_by_its_path() -> None:
    game = Game(Protocol(), demo_battle())
    state = json.loads(json.dumps(game.state))
    assert mismatch(state, "state") is None
    state["units"][0]["hp"] = 4.5
    assert mismatch(state, "state") == "value.units[0].hp: 4.5 is no int"
    state["units"][0]["hp"] = 4
    state["units"][1]["sheen"] = True
    assert mismatch(state, "state") == "value.units[1].sheen: not a field of unit"
    del state["units"][1]["sheen"], state["turn"]
    assert mismatch(state, "state") == "value.turn: missing"
    types = {"damage": {"unit": "string", "amount": "int"}}
    assert event_mismatch({"type": "damage", "unit": "imp", "amount": "4"}, types) == \
        "event.amount: '4' is no int"  # fmt: skip
    assert event_mismatch({"type": "boom"}, types) == "event: undeclared event type 'boom'"
    assert event_mismatch({"type": "damage", "unit": "imp", "amount": 4, "extra": 1},
                          types) == "event.extra: not a field of event"  # fmt: skip


def test_the_schema_lists_the_shapes_and_every_type_it_names_is_read() -> None:
    schema = schema_of(Protocol())
    assert [s["name"] for s in schema["shapes"]] == list(SHAPES)
    assert {p: [f["name"] for f in next(s for s in schema["shapes"] if s["name"] == "piles")
                ["fields"]] for p in ["piles"]}["piles"] == schema["piles"]  # fmt: skip
    for shape in schema["shapes"]:
        for field in shape["fields"]:
            assert check_type(field["type"]) == field["type"]
    for event in schema["events"]:
        assert list(event["field_types"]) == event["fields"], event["type"]
        for type_text in event["field_types"].values():
            check_type(type_text)
    with pytest.raises(ValueError, match="unknown type 'integer'"):
        check_type("list<integer>")


def test_an_extension_event_declares_its_field_types_and_defaults_to_any(tmp_path: Path) -> None:
    def load(field_types: object) -> Protocol:
        source = tmp_path / "ext.py"
        source.write_text(
            "from pybridge.extend import Message\n"
            "NAME, VERSION = 'ext', '1'\n"
            "def register(words):\n"
            "    words.event('rang', doc='a bell rang', fields=('node', 'times'),\n"
            f"                narration=None, field_types={field_types!r})\n",
            "utf-8",
        )
        return new_protocol(words=extensions.load([source]).words)

    def rang(protocol: Protocol) -> Doc:
        event: Doc = next(e for e in schema_of(protocol)["events"] if e["type"] == "rang")
        return event

    assert rang(load(None))["field_types"] == {"node": "any", "times": "any"}
    assert rang(load({"times": "int"}))["field_types"] == {"node": "any", "times": "int"}
    with pytest.raises(extensions.ExtensionError, match="'count', which is not one of"):
        load({"count": "int"})
    with pytest.raises(extensions.ExtensionError, match="field 'times': unknown type 'number'"):
        load({"times": "number"})


# -- the addon's typed objects mirror the shapes ----------------------------------------------

#: The addon's namespace class: its constants are the objects a game is handed.
NAMESPACE = ROOT / "addons" / "pybridge_targeting" / "pybridge.gd"
_GD_SCALARS = {"int": "int", "float": "float", "bool": "bool", "string": "String",
               "object": "Dictionary", "any": "Variant"}  # fmt: skip


def namespace_members() -> dict[str, Path]:
    """``PyBridge.X`` -> the script the namespace's constant ``X`` preloads."""
    text = NAMESPACE.read_text("utf-8")
    found = re.findall(r'^const (\w+) := preload\("res://(.+?)"\)', text, re.M)
    return {f"PyBridge.{name}": ROOT / path for name, path in found}


def typed_classes() -> dict[str, dict[str, Any]]:
    """Each typed class of the addon (a member of the namespace that names the shapes it
    mirrors): its ``SHAPES``, ``INLINE``, ``LEFT_OUT``, ``OWN``, ``RENAMED`` and ``CLASSES``
    constants and its declared properties (name -> GDScript type), read from its source."""
    found = {}
    members = namespace_members()
    for name, path in members.items():
        text = path.read_text("utf-8")
        assert not re.search(r"^class_name ", text, re.M), f"{name} has a global name too"
        if not re.search(r"^const SHAPES := ", text, re.M):
            continue

        def const(key: str, text: str = text) -> Any:
            match = re.search(rf"^const {key} := (\[.*?\]|\{{.*?\}})\n", text, re.M | re.S)
            if not match:
                return [] if key in ("SHAPES", "INLINE") else {}
            literal = re.sub(r'preload\("res://(.+?)"\)', r'"\1"', match[1])
            literal = re.sub(r",(\s*[\]}])", r"\1", literal)  # GDScript allows a last comma
            return json.loads(literal)

        by_path = {p.relative_to(ROOT).as_posix(): n for n, p in members.items()}
        found[name] = {
            "shapes": const("SHAPES"), "inline": const("INLINE"),
            "left_out": const("LEFT_OUT"), "own": const("OWN"), "renamed": const("RENAMED"),
            "classes": {k: by_path.get(v, v) for k, v in const("CLASSES").items()},
            "properties": dict(re.findall(r"^var (\w+): ([\w\[\]., ]+?)(?: =|$)", text, re.M)),
        }  # fmt: skip
    return found


def gdscript_type(type_text: str, classes: dict[str, str]) -> str:
    """The GDScript type a property of the schema type ``type_text`` declares."""
    kind = type_text.removesuffix("?")
    if kind in _GD_SCALARS:
        return _GD_SCALARS[kind]
    if kind == "list<string>":
        return "PackedStringArray"
    if kind.startswith("list<"):
        return f"Array[{gdscript_type(kind[5:-1], classes)}]"
    if kind.startswith("map<"):
        return f"Dictionary[String, {gdscript_type(kind[4:-1], classes)}]"
    return classes.get(kind, "Dictionary")


def drift(classes: dict[str, dict[str, Any]], shapes: dict[str, Any]) -> list[str]:
    """Where a typed class and the shapes it mirrors disagree: a field with no property (and
    not left out), a property of another type, a property of no field."""
    by_shape = {shape: name for name, c in classes.items() for shape in c["shapes"]}
    found = []
    for name, c in classes.items():
        assert c["shapes"], f"{name} names no shape"
        fields: dict[str, str] = {}
        for shape in c["shapes"]:
            for field in shapes[shape]["fields"]:
                if field["name"] in c["inline"]:
                    inner = shapes[field["type"].removesuffix("?")]["fields"]
                    fields.update({f["name"]: f["type"] for f in inner})
                else:
                    fields.setdefault(field["name"], field["type"])
        fields = {c["renamed"].get(f, f): type_text for f, type_text in fields.items()}
        for field, type_text in fields.items():
            declared = c["properties"].get(field)
            if field in c["left_out"]:
                if declared is not None:
                    found.append(f"{name}.{field}: left out, yet declared")
            elif declared is None:
                found.append(f"{name}: no property for the field {field} ({type_text})")
            elif declared != gdscript_type(type_text, by_shape):
                found.append(f"{name}.{field}: declared {declared}, the schema's {type_text} "
                             f"is {gdscript_type(type_text, by_shape)}")  # fmt: skip
        for prop in c["properties"]:
            if prop not in fields and prop not in c["own"]:
                found.append(f"{name}.{prop}: no field of {', '.join(c['shapes'])}")
        # the reader finds the class of a property holding one typed object in CLASSES
        holds_one = {p: t for p, t in c["properties"].items() if t.startswith("PyBridge.")}
        if c["classes"] != holds_one:
            found.append(f"{name}.CLASSES: {c['classes']}, its properties hold {holds_one}")
    return found


def test_the_addons_typed_classes_mirror_the_schemas_shapes() -> None:
    classes = typed_classes()
    assert set(classes) == {f"PyBridge.{name}" for name in (
        "BattleState", "Card", "CutEntry", "Event", "Side", "Targets", "Unit", "LateChoice",
        "AskedChoice", "Step", "Choice", "LogLine", "Outcome", "CutStatus", "Refusal")}  # fmt: skip
    shapes = {s["name"]: s for s in schema_of(Protocol())["shapes"]}
    assert drift(classes, shapes) == []
    assert classes["PyBridge.Unit"]["properties"]["hp"] == "int"
    assert classes["PyBridge.Side"]["properties"]["hand"] == "Array[PyBridge.Card]"
    assert classes["PyBridge.Targets"]["properties"]["late_choice"] == "PyBridge.LateChoice"
    assert classes["PyBridge.Step"]["properties"]["events"] == "Array[PyBridge.Event]"
    assert classes["PyBridge.Step"]["properties"]["line"] == "PyBridge.LogLine"
    assert classes["PyBridge.Outcome"]["properties"]["log_lines"] == "Array[PyBridge.LogLine]"
    assert classes["PyBridge.Refusal"]["properties"]["choice"] == "PyBridge.AskedChoice"
    assert classes["PyBridge.Choice"]["properties"]["card_id"] == "String"  # pick's card
    assert classes["PyBridge.CutEntry"]["classes"] == {
        "card": "PyBridge.Card",
        "late_choice": "PyBridge.LateChoice",
    }


def test_the_drift_check_names_a_field_that_changed_or_went_missing() -> None:
    classes = typed_classes()
    shapes = {s["name"]: json.loads(json.dumps(s)) for s in schema_of(Protocol())["shapes"]}
    unit = shapes["unit"]["fields"]
    next(f for f in unit if f["name"] == "hp")["type"] = "float"
    unit.append({"name": "luck", "type": "int", "doc": ""})
    classes["PyBridge.Card"]["properties"]["shine"] = "bool"
    next(f for f in shapes["pick"]["fields"] if f["name"] == "needed")["type"] = "string"
    next(f for f in shapes["asked_choice"]["fields"] if f["name"] == "options")["type"] = "int"
    del classes["PyBridge.Targets"]["classes"]["late_choice"]
    found = drift(classes, shapes)
    assert "PyBridge.Choice.needed: declared int, the schema's string is String" in found
    assert "PyBridge.AskedChoice.options: declared PackedStringArray, the schema's int is int" \
        in found  # fmt: skip
    assert "PyBridge.Unit.hp: declared int, the schema's float is float" in found
    assert "PyBridge.Unit: no property for the field luck (int)" in found
    assert "PyBridge.Card.shine: no field of card" in found
    assert ("PyBridge.Targets.CLASSES: {}, its properties hold "
            "{'late_choice': 'PyBridge.LateChoice'}") in found  # fmt: skip


def test_the_shapes_name_the_keys_the_battle_document_reads() -> None:
    """A unit, a side, a Cut entry and a state of the shapes hold exactly what the document's
    reader takes (pybridge.runtime.document), and what an answer adds to it."""
    from pybridge.runtime import document

    def names(shape: str) -> set[str]:
        return {f.name for f in SHAPES[shape].fields}

    assert names("unit") == set(document._UNIT_KEYS)
    assert names("side") == set(document._SIDE_KEYS)
    assert names("state") == set(document._BATTLE_KEYS) | {"view"}  # a view says whose it is
    assert names("cut_entry") == {"id", "side", "source", "card", "move", "targets",
                                  "collected", "answered", "late_choice"}  # fmt: skip
    assert names("unit_after") <= names("unit") | {"alive"}
