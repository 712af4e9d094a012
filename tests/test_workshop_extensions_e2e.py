"""The Workshop on a game's extension words, end to end in the real Godot 4.6 web engine.

``pybridge workshop --project demo_project`` is set up as its command line sets it up: the
site packs the demo's extension module (demo_project/extensions/mechanics.py: Scry, a new
asked choice; a Combo counter; Drain), the page loads it, and the server packs it again when
it changes. The library is the demo's own demo_project/cards/mechanics.json (a copy). No
GDScript names those words: what the Workshop shows of them comes from the runtime's
``schema``, ``lint``, ``describe`` and ``sandbox`` answers, checked here against the same
answers in this process's CPython with the same extension loaded.

One session, in order: the library opens clean with the extension's nodes and their forms;
the palette lists the extension's actions with their descriptions; a Scry node and a Drain
node are added from it, their forms show the declared fields, live lint flags a count out of
range and the generated text uses the extension's describe words; Foresight is played in the
sandbox and Scry's own choice (which cards go back on top, in which order) is answered in the
battle view's pile picker with the mouse and the keyboard, the log telling the extension's
narration; the library is saved with its extension versions. Screenshots go to
``artifacts/workshop_ext_*.png``.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from pybridge import extensions
from pybridge.service import new_protocol
from pybridge.workshop import ExtensionReloader, library_handler, prepare_workshop_site

from .demo_support import DEMO_PROJECT, canonical
from .engine_session import ARTIFACTS
from .test_workshop_e2e import Workshop, booted_workshop
from .web_support import require_browser

LIBRARY = DEMO_PROJECT / "cards" / "mechanics.json"
EXTENSION_FILES = extensions.from_options(str(DEMO_PROJECT), [])
PROTOCOL = new_protocol(words=extensions.load(EXTENSION_FILES).words)


def call(op: str, **fields: Any) -> dict[str, Any]:
    """``op`` in this process's CPython, with the demo's extension loaded."""
    answer = json.loads(PROTOCOL.call(json.dumps({"op": op, **fields})))
    assert answer["ok"], answer
    result: dict[str, Any] = answer["result"]
    return result


SCHEMA = call("schema")
NODE_TYPES = {entry["name"]: entry for entry in SCHEMA["node_types"]}
#: The extension's action words: the module's own, as the schema marks them.
EXTENSION_ACTIONS = sorted(
    name
    for name, spec in NODE_TYPES.items()
    if spec.get("extension") == "demo_mechanics" and spec["role"] == "action"
)


def describe(card: dict[str, Any]) -> str:
    text: str = call("describe", definition=card)["text"]
    return text


class ExtensionWorkshop(Workshop):
    def new_card(self, name: str) -> str:
        """A new card named ``name`` (its id the Workshop's own); its id."""
        before = set(self.state["cards"])
        self.click(self.points()["library"]["new"])
        self.type_into(self.points()["form"]["name"], name)
        assert self.state["card"]["name"] == name
        (card_id,) = set(self.state["cards"]) - before
        assert self.state["card"]["id"] == card_id
        return str(card_id)

    def key(self, key: str) -> dict[str, Any]:
        self.do({"key": key})
        return self.sync()

    def form(self, node_id: str) -> dict[str, Any]:
        """What the node's controls show, by field (its id, ports and exits too)."""
        found: dict[str, Any] = self.state["forms"][node_id]
        return found

    def fields(self, node_id: str) -> set[str]:
        """The fields the node's form edits (not its id, ports or exits)."""
        return {
            name
            for name in self.form(node_id)
            if name != "id" and not name.startswith(("exit.", "ports."))
        }

    def shot(self, name: str) -> Path:
        path = ARTIFACTS / f"workshop_ext_{name}.png"
        self.do({"wait_ms": 150}, {"screenshot": str(path)})
        return path


@pytest.fixture(scope="module")
def library_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("workshop_ext_library") / LIBRARY.name
    shutil.copyfile(LIBRARY, path)
    return path


@pytest.fixture(scope="module")
def workshop(
    library_file: Path, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[ExtensionWorkshop]:
    require_browser()
    work = tmp_path_factory.mktemp("workshop_ext_e2e")
    # As `pybridge workshop LIBRARY --project demo_project` sets it up.
    site = prepare_workshop_site(
        work / "site", extension_files=EXTENSION_FILES, project=DEMO_PROJECT
    )
    reload = ExtensionReloader(site.root, EXTENSION_FILES, DEMO_PROJECT)
    handler = library_handler(library_file, before_package=reload)
    with booted_workshop(site, work, "workshop_ext_e2e_log.txt", handler, ExtensionWorkshop) as s:
        yield s


# -- the session, step by step ----------------------------------------------------------------


def test_the_demo_library_opens_clean_with_the_extension_nodes(workshop):
    ready = workshop.state
    document = json.loads(LIBRARY.read_text("utf-8"))
    assert ready["cards"] == [card["id"] for card in document["cards"]]
    # Not one diagnostic: the page's runtime knows every extension word the cards use.
    assert ready["listed"] == [] and ready["diagnostics"] == []
    assert ready["card"] == document["cards"][0] and ready["card"]["id"] == "foresight"
    look = workshop.form("look")
    assert look["count"]["class"] == "LineEdit" and look["count"]["text"] == "3"
    (count,) = NODE_TYPES["Scry"]["fields"]
    assert look["count"]["tip"] == count["doc"]
    assert ready["text"]["generated"] == describe(document["cards"][0]) == "Scry 3."
    workshop.shot("1_foresight")
    for index, card in enumerate(document["cards"][1:], start=1):
        state = workshop.click(workshop.points()["library"]["cards"][str(index)])
        assert state["card"] == card and state["diagnostics"] == []
        assert state["text"]["generated"] == describe(card), card["id"]
    # Drain's text is the extension's describe words ("drain {amount} health from {target}").
    assert state["text"]["generated"] == "Drain 5 health from the selected enemy."
    drain = workshop.form("drain")
    assert drain["amount"]["text"] == "5" and drain["amount"]["hint"] == "required"
    assert drain["source"]["text"] == "Opponent"
    assert drain["source"]["items"][1:] == NODE_TYPES["Drain"]["source"]["choices"]


def test_the_palette_lists_the_extension_actions_with_their_descriptions(workshop):
    assert EXTENSION_ACTIONS == ["Drain", "Scry"]
    palette = workshop.points()["palette"]
    tips = workshop.state["palette_tips"]
    for name in EXTENSION_ACTIONS:
        assert name in palette, name
        assert tips[name] == NODE_TYPES[name]["doc"]
    # They sit in the actions group, below its heading, as the schema groups them.
    actions = [n for n, spec in NODE_TYPES.items() if spec["group"] == "actions"]
    assert {"Drain", "Scry"} <= set(actions)
    # The search reads the descriptions too: words of Scry's find Scry alone.
    state = workshop.type_into(palette["search"], "keep any on top")
    shown = set(state["layout"]["palette"]) - {"search"}
    assert shown == {"Scry"}, shown
    workshop.shot("2_palette_search")
    workshop.clear(workshop.points()["palette"]["search"])


def test_a_scry_node_from_the_palette_with_its_form_lint_and_text(workshop):
    workshop.new_card("Glimpse")
    look = workshop.add_node("Scry")
    assert workshop.node_data(look) == {
        "id": look,
        "type": "Scry",
        "at": workshop.node_data(look)["at"],
    }
    # The declared field, empty, with its default as the hint and its doc as the tooltip.
    (count,) = NODE_TYPES["Scry"]["fields"]
    form = workshop.form(look)
    assert workshop.fields(look) == {"count"}
    assert form["count"]["class"] == "LineEdit" and form["count"]["text"] == ""
    assert form["count"]["hint"] == f"default {count['default']}" == "default 3"
    assert workshop.codes() == ["PB207"]  # only the card text is still to write
    assert workshop.state["text"]["generated"] == "Scry 3."
    # Beyond the declared maximum: live lint flags the field on its node.
    state = workshop.type_into(workshop.field(look, "count"), str(count["maximum"] + 1))
    assert workshop.node_data(look)["count"] == count["maximum"] + 1
    alone = call("lint", document={"format": "pybridge/cards@1", "cards": [state["card"]],
                                   "extensions": {"demo_mechanics": "1.0"}})  # fmt: skip
    assert alone["diagnostics"], alone
    assert workshop.codes() == sorted(d["code"] for d in alone["diagnostics"])
    assert state["badges"][look] and "count" in state["flagged"][look]
    workshop.shot("3_scry_out_of_range")
    state = workshop.type_into(workshop.field(look, "count"), "2")
    assert workshop.codes() == ["PB207"] and state["badges"][look] == []
    assert state["text"]["generated"] == describe(state["card"]) == "Scry 2."
    state = workshop.click(workshop.points()["text"]["use_generated"])
    assert state["card"]["text"] == "Scry 2." and state["diagnostics"] == []
    workshop.shot("3_scry_node")


def test_a_drain_node_with_its_source_choices_and_text(workshop):
    workshop.new_card("Siphon")
    state = workshop.choose(workshop.points()["form"]["target"],
                            [m["mode"] for m in SCHEMA["modes"]].index("SingleEnemy"))  # fmt: skip
    assert state["card"]["target"] == "SingleEnemy"
    drain = workshop.add_node("Drain")
    form = workshop.form(drain)
    assert workshop.fields(drain) == {"amount", "source"}
    assert set(workshop.form(drain)) >= {"ports.target", "exit.next"}
    assert form["amount"]["hint"] == "required"
    # The source list is the runtime's: the choices Drain's schema row gives, after "none".
    choices = NODE_TYPES["Drain"]["source"]["choices"]
    assert form["source"]["items"][1:] == choices
    # A required amount left out: lint says so on the node.
    assert "amount" in workshop.state["flagged"][drain]
    assert workshop.codes() == ["PB002"]
    workshop.shot("4_drain_amount_missing")
    since = workshop.mark()
    workshop.do({"click": workshop.field(drain, "source")})
    assert workshop.wait_for("popup", since)["items"][1:] == choices
    row = 1 + choices.index("Opponent")
    workshop.do(*[{"key": "ArrowDown"}] * (row + 1), {"key": "Enter"})
    workshop.sync()
    state = workshop.type_into(workshop.field(drain, "amount"), "4")
    assert workshop.node_data(drain)["source"] == "Opponent"
    assert workshop.codes() == ["PB207"] and state["badges"][drain] == []
    assert state["text"]["generated"] == describe(state["card"])
    assert state["text"]["generated"] == "Drain 4 health from the selected enemy."
    state = workshop.click(workshop.points()["text"]["use_generated"])
    assert state["diagnostics"] == []
    workshop.shot("4_drain_node")


def test_save_keeps_the_extension_versions(workshop, library_file):
    since = workshop.mark()
    workshop.do({"key": "Control+s"})
    saved = workshop.wait_for("saved", since)
    text = library_file.read_text("utf-8")
    assert saved["text"] == text
    document = json.loads(text)
    original = json.loads(LIBRARY.read_text("utf-8"))
    # The versions of the extensions the cards were written for stay with them.
    assert document["extensions"] == original["extensions"] == {"demo_mechanics": "1.0"}
    # The demo's cards come back as the runtime writes a library (its own key order, empty
    # lists written out), unchanged.
    written = json.loads(call("library_text", document=original)["text"])
    assert document["cards"][:3] == written["cards"]
    added = {card["name"]: card for card in document["cards"][3:]}
    assert sorted(added) == ["Glimpse", "Siphon"]
    assert added["Glimpse"]["behavior"]["nodes"][0]["count"] == 2
    assert added["Siphon"]["text"] == "Drain 4 health from the selected enemy."
    assert text == call("library_text", document=document)["text"]
    # The saved library is clean for the runtime with the extension loaded.
    assert call("lint", document=document)["diagnostics"] == []


def test_foresight_in_the_sandbox_asks_scry_in_the_pile_picker(workshop, library_file):
    state = workshop.click(workshop.points()["library"]["cards"]["0"])
    card = state["card"]
    assert card["id"] == "foresight"
    since = workshop.mark()
    workshop.do({"key": "F5"})
    opened = workshop.wait_for("sandbox", since)
    assert opened["opened"] and opened["error"] == ""
    sandbox = opened["layout"]["sandbox"]
    # What the runtime asks when the card is played in this process's CPython.
    library = json.loads(library_file.read_text("utf-8"))  # as saved: what the Workshop holds
    battle = call("sandbox", card=card, library=library)["battle"]
    session = call("open", battle=battle)["session"]
    refused = json.loads(PROTOCOL.call(json.dumps(
        {"op": "play", "session": session, "card": "sandbox"})))  # fmt: skip
    assert refused["error"]["code"] == "choice_needed"
    asked = refused["error"]["choice"]
    assert asked["kind"] == "scry" and asked["ordered"] and asked["minimum"] == 0
    # Played on the field: Scry's own choice opens in the battle view's pile picker, the
    # cards looked at in the runtime's order (the top of the draw pile first), all lit.
    since = workshop.mark()
    workshop.do({"down": sandbox["cards"]["sandbox"]}, {"move": sandbox["play"]},
                {"wait_ms": 300}, {"up": sandbox["play"]})  # fmt: skip
    picker = workshop.wait_for("choice", since)
    assert picker["visible"]
    assert [c["id"] for c in picker["cards"]] == asked["options"]
    assert all(c["legal"] and c["chosen"] == 0 for c in picker["cards"])
    prompt = asked["prompt"]["english"]
    assert picker["title"] == f"Foresight: {prompt} (0 chosen)", picker["title"]
    assert picker["confirm"]["enabled"]  # none kept is an answer too (minimum 0)
    assert picker["order"] == "None picked yet"
    workshop.shot("5_scry_picker")
    # The second card by mouse: it is number 1, the top of the pile.
    options = asked["options"]
    assert len(options) == 3  # Scry 3 looks at three of the library's cards
    first, second, third = options
    point = next(c["point"] for c in picker["cards"] if c["id"] == second)
    picker = workshop.click(point)["picker"]
    assert {c["id"]: c["chosen"] for c in picker["cards"]} == {first: 0, second: 1, third: 0}
    assert picker["title"] == f"Foresight: {prompt} (1 chosen)"
    workshop.shot("5_scry_picker_one_kept")
    # Backspace takes it back; the keys point at the first card, Right moves on, Enter picks.
    picker = workshop.key("Backspace")["picker"]
    assert all(c["chosen"] == 0 for c in picker["cards"])
    assert [c["id"] for c in picker["cards"] if c["focused"]] == [first]
    picker = workshop.key("ArrowRight")["picker"]
    assert [c["id"] for c in picker["cards"] if c["focused"]] == [second]
    picker = workshop.key("Enter")["picker"]
    assert {c["id"]: c["chosen"] for c in picker["cards"]} == {first: 0, second: 1, third: 0}
    # The keys go back to the first card still to pick: Enter makes it number 2.
    assert [c["id"] for c in picker["cards"] if c["focused"]] == [first]
    picker = workshop.key("Enter")["picker"]
    assert {c["id"]: c["chosen"] for c in picker["cards"]} == {first: 2, second: 1, third: 0}
    # The picks are listed by name in their order, under the cards.
    names = {c["id"]: c["name"] for c in library["cards"]}
    cards = {c["id"]: c["card"] for c in battle["piles"]["draw"]}
    named = [names[cards[second]], names[cards[first]]]
    assert picker["order"] == f"In order: 1. {named[0]}   2. {named[1]}", picker["order"]
    assert [c["id"] for c in picker["cards"] if c["focused"]] == [third]
    # Past the last lit card the keys reach Confirm; Enter there keeps those two, in that
    # order, and discards the third.
    picker = workshop.key("ArrowRight")["picker"]
    assert picker["confirm"]["focused"] and not any(c["focused"] for c in picker["cards"])
    workshop.shot("5_scry_picker_two_kept")
    since = workshop.mark()
    workshop.do({"key": "Enter"})
    played = workshop.wait_for("played", since)
    assert played["ok"], played
    answer = [second, first]
    desktop = call("play", session=session, card="sandbox", choices={asked["key"]: answer})
    assert canonical(played["result"]["events"]) == canonical(desktop["events"])
    scried = next(e for e in played["result"]["events"] if e["type"] == "scried")
    assert (scried["looked"], scried["kept"], scried["discarded"]) == (3, 2, 1)
    # The log tells it in the extension's words.
    texts = [line["text"] for line in played["result"]["log"]]
    assert texts == [line["text"] for line in desktop["log"]]
    assert "You look at the top 3 of your draw pile: 2 kept on top, 1 discarded." in texts
    assert not workshop.sync()["picker"]["visible"]
    workshop.shot("6_scry_played")


def test_drain_touch_in_the_sandbox_plays_as_on_the_desktop(workshop, library_file):
    state = workshop.click(workshop.sync()["layout"]["sandbox"]["back"])
    assert state["sandbox"] is False
    state = workshop.click(workshop.points()["library"]["cards"]["2"])
    card = state["card"]
    assert card["id"] == "drain_touch"
    library = json.loads(library_file.read_text("utf-8"))
    battle = call("sandbox", card=card, library=library)["battle"]
    session = call("open", battle=battle)["session"]
    target = call("targets", session=session, card="sandbox")["candidates"][0]
    since = workshop.mark()
    workshop.do({"key": "F5"})
    sandbox = workshop.wait_for("sandbox", since)["layout"]["sandbox"]
    since = workshop.mark()
    workshop.do({"drag": [*sandbox["cards"]["sandbox"], *sandbox["units"][target], 6]})
    played = workshop.wait_for("played", since)
    assert played["ok"], played
    desktop = call("play", session=session, card="sandbox", target=target)
    assert canonical(played["result"]["events"]) == canonical(desktop["events"])
    kinds = [e["type"] for e in played["result"]["events"]]
    # It drains its target; its caster recovers only what it has lost (a Host at full
    # health recovers nothing, as the demo's extension says).
    caster_id = card.get("owner") or battle["active_player"]
    caster = next(u for u in battle["units"] if u["id"] == caster_id)
    assert "damage" in kinds and ("heal" in kinds) == (caster["hp"] < caster["max_hp"])
    assert [line["text"] for line in played["result"]["log"]] == [
        line["text"] for line in desktop["log"]
    ]
    workshop.shot("7_drain_played")


def test_the_engine_reported_no_errors(workshop):
    assert workshop.errors == []
    assert not any(text.startswith("PYBRIDGE save_failed ") for text in workshop.lines)
