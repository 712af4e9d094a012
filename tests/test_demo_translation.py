"""The demo's second language (issue #24, point 4): demo_project/locale/de.po translates every
message the demo can show and the demo's names and texts, with German's plural and gender.

A test fails when a message of the template lacks a German translation (an empty msgstr, a
placeholder missing or extra), when a gender is not one German has, and when the German a host
would show for a played-out battle is not a whole, grammatical sentence. The host's side is
:class:`pybridge.translating.Translator`, which translates as docs/translation.md says a host
does (the addon does the same through Godot's TranslationServer).
"""

from __future__ import annotations

import json
import re
import string
from functools import cache
from pathlib import Path
from typing import Any

import polib
import pytest

from pybridge.catalog import GENDER, NAMED, Entry
from pybridge.extensions import load, project_extensions
from pybridge.messages_command import catalog
from pybridge.protocol import Protocol
from pybridge.translating import Translator

ROOT = Path(__file__).resolve().parent.parent
DEMO = ROOT / "demo_project"
GERMAN = DEMO / "locale" / "de.po"
#: What the demo opens: the party battle with its library, the duel and the rivals' duel (and
#: the example battle ``pybridge battle`` plays).
DEMO_DOCUMENTS = (
    DEMO / "cards" / "mechanics.json",
    ROOT / "pybridge" / "examples" / "demo_battle.json",
    DEMO / "battles" / "party_battle.json",
    ROOT / "pybridge" / "examples" / "duel_battle.json",
    ROOT / "pybridge" / "examples" / "rivals_battle.json",
)
GENDERS = frozenset({"m", "f", "n", "proper"})


def demo_catalog() -> list[Entry]:
    """What ``pybridge messages --project demo_project --library ...`` exports for the demo."""
    words = load(project_extensions(DEMO)).words
    documents = [json.loads(p.read_text("utf-8")) for p in DEMO_DOCUMENTS]
    return catalog(words, documents)


@cache
def german() -> polib.POFile:
    return polib.pofile(str(GERMAN))


def _placeholders(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}


def _forms(entry: polib.POEntry) -> list[str]:
    if entry.msgid_plural:
        return [entry.msgstr_plural[i] for i in sorted(entry.msgstr_plural)]
    return [entry.msgstr]


def test_the_catalog_says_it_is_german_with_two_plural_forms() -> None:
    assert german().metadata["Language"] == "de"
    assert german().metadata["Plural-Forms"] == "nplurals=2; plural=(n != 1);"


def test_every_message_and_name_of_the_demo_has_a_german_translation() -> None:
    translated = {(e.msgctxt, e.msgid): e for e in german()}
    missing = []
    for entry in demo_catalog():
        found = translated.get((entry.context, entry.english))
        if found is None or not all(_forms(found)):
            missing.append(entry.context)
            continue
        assert (found.msgid_plural or "") == entry.plural, entry.context
        if entry.context.endswith(GENDER):
            assert found.msgstr in GENDERS, (entry.context, found.msgstr)
            continue
        wanted = _placeholders(entry.english)
        for form in _forms(found):
            assert _placeholders(form) == wanted, (entry.context, form)
    assert not missing, f"no German for {missing}"


def test_every_gender_variant_translates_a_message_by_a_name_it_takes() -> None:
    template = {e.context: e for e in demo_catalog()}
    variants = [e for e in german() if "|" in e.msgctxt]
    assert len(variants) > 50
    for entry in variants:
        base, *choices = entry.msgctxt.split("|")
        assert base in template, entry.msgctxt
        for choice in choices:
            param, _, gender = choice.partition("=")
            assert template[base].params.get(param) in NAMED, entry.msgctxt
            assert gender in GENDERS - {"proper"}, entry.msgctxt
        wanted = _placeholders(template[base].english)
        assert all(_placeholders(form) == wanted for form in _forms(entry)), entry.msgctxt


# -- what a host shows ---------------------------------------------------------------------
def _log(document: Path, requests: list[dict[str, Any]]) -> list[dict[str, Any]]:
    proto = Protocol()
    battle = json.loads(document.read_text("utf-8"))
    opened = json.loads(proto.call(json.dumps({"op": "open", "battle": battle})))
    assert opened["ok"], opened
    lines = list(opened["result"]["log"])
    for request in requests:
        answer = json.loads(proto.call(json.dumps({**request, "session": "s1"})))
        assert answer["ok"], answer
        lines += answer["result"]["log"]
    return lines


@pytest.fixture(scope="module")
def host() -> Translator:
    return Translator(GERMAN)


def test_a_german_player_reads_whole_sentences_with_the_right_article(host: Translator) -> None:
    example = ROOT / "pybridge" / "examples" / "demo_battle.json"
    lines = _log(example, [{"op": "play", "card": "h1", "target": "goblin"},
                           {"op": "end_turn"}])  # fmt: skip
    told = [host.say(line["message"]) for line in lines]
    dash = "\N{EN DASH}"  # German sets a second name apart with a dash
    assert f"Der Goblin bereitet Hieb vor {dash} Ziel: Waldläufer." in told
    assert f"Der Ritter spielt Schlag {dash} Ziel: Goblin." in told
    assert "Der Goblin erleidet 6 Schaden, noch 12 LP." in told
    assert f"Die Goblin-Schamanin setzt Feuerstoß ein {dash} Ziel: Ritter." in told
    assert "Der Ritter erhält 2 Brennen (insgesamt 2)." in told
    assert any(re.fullmatch(r"Du ziehst \d Karten\.", t) for t in told), told


def test_german_counts_and_genders_choose_their_forms(host: Translator) -> None:
    one = {"id": "log.draw.you", "params": {"count": 1}}
    assert (host.say(one), host.say({**one, "params": {"count": 5}})) == (
        "Du ziehst 1 Karte.", "Du ziehst 5 Karten.")  # fmt: skip
    for name, said in (("Cleric", "Die Klerikerin fällt."), ("Signal Beacon", "Das Signalfeuer "
                       "fällt."), ("Captain Aya", "Hauptfrau Aya fällt.")):  # fmt: skip
        falls = {"id": "log.falls", "params": {"unit": {"unit": "u", "name": name}}}
        assert host.say(falls) == said
    aimed = {"id": "intent.at", "params": {"unit": {"unit": "k", "name": "Knight"}}}
    assert host.say(aimed) == "gegen den Ritter"


def test_a_cards_own_reason_reads_in_german(host: Translator) -> None:
    battle = json.loads((DEMO / "battles" / "party_battle.json").read_text("utf-8"))
    battle["piles"]["hand"].append({"id": "coup", "card": "coup_de_grace"})
    library = json.loads((DEMO / "cards" / "mechanics.json").read_text("utf-8"))
    proto = Protocol(words=load(project_extensions(DEMO)).words)
    opened = json.loads(proto.call(json.dumps({"op": "open", "battle": battle,
                                               "libraries": [library]})))  # fmt: skip
    assert opened["ok"], opened
    answer = json.loads(proto.call(json.dumps({"op": "targets", "session": "s1",
                                               "card": "coup"})))["result"]  # fmt: skip
    assert answer["reason"] == "No enemy is below half health."
    assert host.say(answer["reason_message"]) == "Kein Gegner ist unter halben Leben."


def test_every_line_of_the_demo_duel_reads_in_german(host: Translator) -> None:
    duel = ROOT / "pybridge" / "examples" / "duel_battle.json"
    lines = _log(duel, [{"op": "activate", "card": "c2"}, {"op": "pass"}, {"op": "pass"},
                        {"op": "pass"}])  # fmt: skip
    told = [host.say(line["message"]) for line in lines]
    assert len(told) == len(lines) > 3
    assert not any(re.search(r"[{}]", t) for t in told), told


def test_the_battle_command_prints_the_log_in_german(capsys: pytest.CaptureFixture[str]) -> None:
    from pybridge.cli import main

    assert main(["battle", "--max-turns", "2", "--po", str(GERMAN)]) == 0
    printed = capsys.readouterr().out.splitlines()
    assert "  Der Goblin erleidet 6 Schaden, noch 12 LP." in printed
    assert "Runde 1 endet." in printed


#: The demo's own words in German: what its start screen, party battle and duel show, not
#: the runtime's (their labels, the addon's, the runtime's keyword texts).
OWN_WORDS = DEMO / "locale" / "demo.de.po"
ADDON = ROOT / "addons" / "pybridge_targeting"
_TR = re.compile(r'\btr\("((?:[^"\\]|\\.)*)"')
_SCENE_TEXT = re.compile(r'^text = "((?:[^"\\]|\\.)*)"$', re.M | re.S)


def _unescaped(text: str) -> str:
    return text.replace('\\"', '"').replace("\\n", "\n")


def words_shown_of_their_own() -> set[str]:
    """The ``tr()`` words of the scripts the party battle and the duel run (the addon's but
    the Workshop's, the two scenes' and the start screen's, the pile counters' of the party
    battle and the hot-seat duel, and the shared ones the duel runs: its Menu, refusals, failed
    requests, missing document), their scenes' texts and the keywords' texts, but the demo's
    title (a name)."""
    scripts = [p for p in ADDON.rglob("*.gd") if "workshop" not in p.relative_to(ADDON).parts]
    scripts += [DEMO / name for name in ("main.gd", "duel.gd", "start.gd", "ui/energy_orb.gd")]
    scripts += [DEMO / "ui" / name for name in ("demo_piles.gd", "demo_rival_piles.gd")]
    shared = ("demo_menu.gd", "demo_sides.gd", "demo_battle_file.gd", "demo_lines.gd")
    scripts += [DEMO / "ui" / name for name in shared]
    found = {_unescaped(w) for p in scripts for w in _TR.findall(p.read_text("utf-8"))}
    for scene in (DEMO / "main.tscn", DEMO / "duel.tscn", DEMO / "start.tscn"):
        found |= {_unescaped(w) for w in _SCENE_TEXT.findall(scene.read_text("utf-8"))}
    keywords = json.loads(Protocol().call('{"op": "schema"}'))["result"]["keywords"]
    found |= {*keywords, *keywords.values()}
    return found - {"PyBridge Targeting"}


def test_every_word_of_the_demos_own_it_shows_has_german() -> None:
    shown = words_shown_of_their_own()
    assert {"End Turn", "THE CUT", "Exhaust", "Turn %d"} <= shown  # the search finds them
    own = {e.msgid: e.msgstr for e in polib.pofile(str(OWN_WORDS)) if e.msgstr}
    assert sorted(shown - set(own)) == []
    for english, told in own.items():  # each %d and %s kept, in order
        assert re.findall(r"%[ds]", told) == re.findall(r"%[ds]", english), english
