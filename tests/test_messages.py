"""Every word a player reads comes as a message (issue #24, point 4): each text the runtime
answers carries its message, whose English rendered from the message table is exactly the
text; the table refuses a bad message by its id; ``pybridge messages`` exports it whole."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import polib
import pytest

from pybridge.autoplay import next_play
from pybridge.catalog import GENDER, UNIT_NAME
from pybridge.cli import main
from pybridge.devtools.fuzz_seeds import fuzzer_battles, seed_requests
from pybridge.examples import demo_battle, duel_battle, rivals_battle
from pybridge.extend import Message, Words
from pybridge.extensions import load
from pybridge.messages_command import catalog, pot
from pybridge.protocol import Protocol
from pybridge.runtime import load_battle
from pybridge.runtime.model import Pile
from pybridge.runtime.narrate import HIDDEN_CARD, narrate
from pybridge.runtime.sentences import english, is_said, opening_hidden_card
from pybridge.runtime.vocabulary import BUILTIN, Extension, Vocabulary, VocabularyError
from tests.duel_script import DUEL, request_of
from tests.protocol_support import Session
from tests.test_law_everyone import hidden_party

Doc = dict[str, Any]
ROOT = Path(__file__).resolve().parent.parent
DEMO = ROOT / "demo_project"
EVERYONE = ["player", "enemy", "spectator"]

#: The keys that hold a message beside a text (never walked for texts of their own).
_SAID_KEYS = frozenset({"message", "reason_message", "prompt_message", "line_messages",
                        "label_message", "title_message", "detail_message",
                        "activate_reason_message", "end_turn_reason_message",
                        "count_label_message", "action_message"})  # fmt: skip


def _texts(value: Any) -> Iterator[tuple[str, Any]]:
    """Every (text, message) an answer holds: log lines and marks (``text`` and ``kind``),
    refusals (``code``, ``text``, ``protected``), a targets answer's reason, a cut answer's
    prompt, a forecast's words and lines. A text with no message beside it yields None."""
    if isinstance(value, list):
        for item in value:
            yield from _texts(item)
        return
    if not isinstance(value, dict):
        return
    if isinstance(value.get("text"), str) and ("kind" in value or "protected" in value):
        yield value["text"], value.get("message")
    if "playable" in value and isinstance(value.get("reason"), str):
        yield value["reason"], value.get("reason_message")
    if "chooser" in value and "aliases" in value:  # a mode's facts
        yield value["label"], value.get("label_message")
        yield value["action"], value.get("action_message")
    if "playable" in value and value.get("count_label"):
        yield value["count_label"], value.get("count_label_message")
    if "can_pass" in value:
        yield value["prompt"], value.get("prompt_message")
        for reason in ("activate_reason", "end_turn_reason"):
            if value[reason] is not None:
                yield value[reason], value.get(f"{reason}_message")
    if "acts" in value and "title" in value:
        yield value["title"], value.get("title_message")
        yield value["detail"], value.get("detail_message")
        if value["label"]:
            yield value["label"], value.get("label_message")
        assert len(value["lines"]) == len(value["line_messages"])
        yield from zip(value["lines"], value["line_messages"], strict=True)
    for key, item in value.items():
        if key not in _SAID_KEYS:
            yield from _texts(item)


def check_said(answers: list[Any], messages: dict[str, Message]) -> int:
    """Assert every text of ``answers`` is its message's English; the number checked."""
    count = 0
    for text, said in _texts(answers):
        assert is_said(said), f"no message beside {text!r}"
        assert said["id"] in messages, f"{said['id']!r} is not in the message table"
        assert english(messages, said) == text, (text, said)
        count += 1
    return count


def _call(proto: Protocol, request: Doc) -> Doc:
    answer: Doc = json.loads(proto.call(json.dumps(request)))
    return answer


def _autoplay(document: Doc, turns: int = 30, words: Vocabulary | None = None,
              libraries: list[Doc] | None = None) -> list[Doc]:  # fmt: skip
    """A battle played to its end through the protocol: every change, every card's
    ``targets`` and a ``preview`` of each play, the Cut's answer each step (a choice an
    action asks is answered with the fewest options it takes)."""
    proto = Protocol(words=words)
    opened = _call(proto, {"op": "open", "battle": document, "libraries": libraries or []})
    assert opened["ok"], opened
    session = opened["result"]["session"]
    answers = [opened]
    for _ in range(200):
        state = _call(proto, {"op": "state", "session": session})
        answers.append(state)
        battle = load_battle(state["result"]["state"], None, words)
        if battle.result is not None or battle.turn > turns:
            break
        for card in battle.side(battle.turn_side).piles[Pile.HAND]:
            answers.append(_call(proto, {"op": "targets", "session": session, "card": card}))
        answers.append(_call(proto, {"op": "cut", "session": session}))
        choice = next_play(battle)
        if choice is None:
            answers.append(_call(proto, {"op": "end_turn", "session": session}))
            continue
        card, target = choice
        play = {"op": "play", "session": session, "card": card, "target": target}
        answers.append(_call(proto, {**play, "op": "preview"}))
        done = _call(proto, play)
        if not done["ok"] and done["error"]["code"] == "choice_needed":
            asked = done["error"]["choice"]
            answers.append({"ok": True, "result": {"choice": asked}})
            choices = {asked["key"]: asked["options"][: asked["minimum"]]}
            done = _call(proto, {**play, "choices": choices})
        answers.append(done)
    return answers


def test_every_text_of_the_demo_battle_played_out_is_its_message() -> None:
    answers = _autoplay(demo_battle())
    assert all(a["ok"] for a in answers), [a for a in answers if not a["ok"]][:1]
    assert check_said(answers, BUILTIN.messages) > 100
    ids = {s["id"] for _, s in _texts(answers) if is_said(s)}
    assert {"refusal.energy", "log.victory", "log.damage_noted", "mark.blocked"} <= ids


def test_every_text_of_the_demo_projects_battle_is_its_message() -> None:
    """The demo's own battle, with its extension (scry, drain, the combo counter)."""
    words = load([DEMO / "extensions" / "mechanics.py"]).words
    battle = json.loads((DEMO / "battles" / "party_battle.json").read_text("utf-8"))
    library = json.loads((DEMO / "cards" / "mechanics.json").read_text("utf-8"))
    answers = _autoplay(battle, words=words, libraries=[library])
    assert all(a["ok"] for a in answers), [a for a in answers if not a["ok"]][:1]
    assert check_said(answers, words.messages) > 100
    ids = {s["id"] for _, s in _texts(answers) if is_said(s)}
    assert "demo.scry.done" in ids, sorted(ids)


def test_every_text_of_the_fuzz_seeds_is_its_message() -> None:
    proto = Protocol()
    answers = [_call(proto, {"op": "open", "battle": b}) for b in fuzzer_battles(demo_battle())]
    answers += [_call(proto, r) for r in seed_requests(demo_battle())]
    ids = {s["id"] for _, s in _texts(answers) if is_said(s)}
    assert check_said(answers, BUILTIN.messages) > 50
    # The seeds reach fizzles, marks, intents, a counted draw and the Cut's prompt.
    assert {"mark.damage", "prompt.cut.start", "intent.with", "log.reshuffled"} <= ids
    assert any(i.startswith("fizzle.") for i in ids), sorted(ids)


def test_every_text_of_the_duel_is_its_message_for_every_viewer() -> None:
    session = Session(duel_battle())
    answers = [session.opened]
    for step in DUEL:
        top = session.cut()[-1]["id"] if step.choice else None
        op, fields = request_of(step, top)
        hand = [c["id"] for c in session.ok("state")["state"]["piles"]["hand"]]
        answers += [session.call("targets", card=card) for card in hand]
        answers.append(session.call("cut"))
        answers.append(session.call(op, **fields))
    assert all(a["ok"] for a in answers)
    assert check_said(answers, BUILTIN.messages) > 100
    ids = {s["id"] for _, s in _texts(answers) if is_said(s)}
    wanted = {"log.target_lost.protected", "refusal.explained", "prompt.cut.respond",
              "cut.yours", "cut.waiting"}  # fmt: skip
    assert wanted <= ids


def test_every_text_of_the_rivals_duel_is_its_message_in_every_view() -> None:
    proto = Protocol()
    opened = _call(proto, {"op": "open", "battle": rivals_battle(), "viewers": EVERYONE})
    assert opened["ok"], opened
    session = opened["result"]["session"]
    answers = [opened]
    for _ in range(6):
        answers.append(_call(proto, {"op": "end_turn", "session": session,
                                     "viewers": EVERYONE}))  # fmt: skip
    assert check_said(answers, BUILTIN.messages) > 10


def test_a_game_extension_narrates_through_its_own_message() -> None:
    loaded = load([DEMO / "extensions" / "mechanics.py"])
    assert "demo.scry.done" in loaded.words.messages
    assert loaded.words.owner_of("messages", "demo.scry.done") == "demo_mechanics"


# -- the message table refuses bad messages, naming them -------------------------------------
def _words() -> Words:
    vocabulary = BUILTIN.extended()
    extension = Extension("game", "1.0")
    vocabulary.begin(extension)
    return Words(vocabulary, extension)


def test_a_message_with_an_unknown_param_type_is_refused_by_its_id() -> None:
    with pytest.raises(ValueError, match=r"'game\.hit'.*parameter 'who' has type 'hero'"):
        _words().message(Message("game.hit", "{who} hits.", {"who": "hero"}))


def test_a_placeholder_with_no_param_is_refused_by_its_id() -> None:
    with pytest.raises(ValueError, match=r"'game\.hit'.*\{who\} must be a plain placeholder"):
        _words().message(Message("game.hit", "{who} hits.", {}))


def test_a_duplicate_id_is_refused_naming_who_declared_it() -> None:
    words = _words()
    words.message(Message("game.hit", "{who} hits.", {"who": "unit"}))
    words.message(Message("game.hit", "{who} hits.", {"who": "unit"}))  # the same: taken once
    with pytest.raises(VocabularyError, match=r"message 'game\.hit' is already declared by game"):
        words.message(Message("game.hit", "{who} strikes.", {"who": "unit"}))
    with pytest.raises(VocabularyError, match=r"message 'log\.damage' is already declared by "
                       r"the built-in vocabulary"):  # fmt: skip
        words.message(Message("log.damage", "Ouch."))


def test_a_plural_must_name_a_number_param() -> None:
    with pytest.raises(ValueError, match=r"'game\.n'.*plural 'who' must name a number"):
        _words().message(Message("game.n", "{who}", {"who": "unit"}, "who", "{who}s"))
    with pytest.raises(ValueError, match=r"'game\.n'.*give plural and english_plural together"):
        _words().message(Message("game.n", "{n}", {"n": "number"}, "n"))


def test_every_built_in_message_renders_with_its_params() -> None:
    assert isinstance(BUILTIN, Vocabulary)
    for message in BUILTIN.messages.values():
        params = {name: 2 if kind == "number" else {"name": "X"}
                  for name, kind in message.params.items()}  # fmt: skip
        assert "{" not in english(BUILTIN.messages, {"id": message.id, "params": params})


# -- the template lists every message ---------------------------------------------------------
def test_the_pot_lists_every_message_and_the_games_names() -> None:
    words = load([DEMO / "extensions" / "mechanics.py"]).words
    library = json.loads((DEMO / "cards" / "mechanics.json").read_text("utf-8"))
    battle = json.loads((DEMO / "battles" / "party_battle.json").read_text("utf-8"))
    template = polib.pofile(pot(catalog(words, [library, battle])))
    entries = {(e.msgctxt, e.msgid): e for e in template}
    for message in words.messages.values():
        entry = entries[(message.id, message.english)]
        assert entry.msgid_plural == message.english_plural
        for name, kind in message.params.items():
            assert f"{{{name}}}: {kind}" in entry.comment
    assert entries[("demo.scry.done", words.messages["demo.scry.done"].english)]
    assert entries[("log.draw.you", "You draw {count} card.")].msgid_plural
    card = next(iter(library["cards"]))
    assert (f"card.{card['id']}.name", card["name"]) in entries
    assert (f"card.{card['id']}.name{GENDER}", card["name"]) in entries
    assert (f"card.{card['id']}.text", card["text"]) in entries
    units = {u["name"] for u in battle["units"]}
    assert units <= {msgid for ctx, msgid in entries if ctx == UNIT_NAME}


def test_the_command_writes_the_template_and_the_csv(tmp_path: Path, capsys) -> None:
    out = tmp_path / "pybridge.pot"
    assert main(["messages", "-o", str(out)]) == 0
    written = polib.pofile(str(out))
    assert {e.msgctxt for e in written} == set(BUILTIN.messages)
    assert main(["messages", "--format", "csv"]) == 0
    rows = list(csv.reader(io.StringIO(capsys.readouterr().out)))
    assert rows[0] == ["id", "english", "english_plural", "params", "comment"]
    assert [row[0] for row in rows[1:]] == list(BUILTIN.messages)
    assert main(["messages", "--library", str(tmp_path / "none.json")]) == 2


def test_an_enemy_that_holds_back_says_why_as_a_message() -> None:
    s = hidden_party("strict")
    s.events("play", card="h1")  # the hero is warded: the bite has no legal target
    answer = s.ok("end_turn")
    assert check_said([answer], BUILTIN.messages) > 0
    (held,) = [line for line in answer["log"] if line["message"]["id"] == "log.enemy_holds"]
    assert held["message"]["params"]["reason"]["id"] == "refusal.explained"


def test_a_line_a_view_opens_with_a_hidden_card_says_so_as_its_message() -> None:
    battle = load_battle(rivals_battle())
    moved = {"type": "card_moved", "node": "n", "card": HIDDEN_CARD, "from": "hand",
             "to": "discard"}  # fmt: skip
    line = narrate(battle, moved)
    assert line is not None and line["text"] == "a card moves from the hand to the discard pile."
    opened = opening_hidden_card(line["message"])
    assert english(BUILTIN.messages, opened) == "A card moves from the hand to the discard pile."


def test_a_choice_an_action_asks_comes_with_its_prompt_as_a_message() -> None:
    words = load([DEMO / "extensions" / "mechanics.py"]).words
    battle = json.loads((DEMO / "battles" / "party_battle.json").read_text("utf-8"))
    library = json.loads((DEMO / "cards" / "mechanics.json").read_text("utf-8"))
    proto = Protocol(words=words)
    opened = _call(proto, {"op": "open", "battle": battle, "libraries": [library]})
    foresight = next(c["id"] for c in battle["piles"]["hand"] if c["card"] == "foresight")
    asked = _call(proto, {"op": "play", "session": opened["result"]["session"],
                          "card": foresight})  # fmt: skip
    assert asked["error"]["code"] == "choice_needed", asked
    choice = asked["error"]["choice"]
    prompt = choice["prompt_message"]
    assert prompt["id"] == choice["prompt"]["id"] == "demo.scry.prompt"
    assert english(words.messages, prompt) == choice["prompt"]["english"]
