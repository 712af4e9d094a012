"""The demo in German, in the real Godot 4.6 web engine: switched on its start screen, the
party battle's log, a refusal, an intent and a card's name and text read as the demo's
catalog (demo_project/locale/de.po) words them. Each expected string is the Python host's
rendering of the same message with the same catalog (pybridge.translating), never a copy.

Needs Debian's chromium and ``web/node_modules`` (``web/setup.sh``), as tests/test_demo_e2e.py.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from pybridge.demo import DEMO_PROJECT, prepare_demo_site
from pybridge.translating import Translator

from .demo_support import Demo, Desktop, booted_demo
from .engine_session import ARTIFACTS
from .web_support import require_browser

polib = pytest.importorskip("polib")

GERMAN = DEMO_PROJECT / "locale" / "de.po"


@pytest.fixture(scope="module")
def german(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Demo]:
    """The demo booted on its start screen, switched to German, in the party battle."""
    require_browser()
    work: Path = tmp_path_factory.mktemp("demo_german")
    with booted_demo(prepare_demo_site(work / "site"), work, "demo_german_log.txt", "") as demo:
        since = demo.mark()
        demo.do({"click": demo.last("language")["point"]})
        assert demo.wait_for("language", since)["locale"] == "de"
        demo.enter("party")
        yield demo


@pytest.fixture(scope="module")
def host() -> Translator:
    return Translator(GERMAN)


def said(host: Translator, lines: list[dict[str, Any]]) -> list[str]:
    return [host.say(line["message"]) for line in lines]


def test_a_played_card_is_logged_in_german(german: Demo, host: Translator) -> None:
    german.restart()
    since = german.mark()
    played = german.drag(german.card("h1"), german.unit("orc"), "played")
    logged = german.wait_for("logged", since)["lines"]
    expected = said(host, played["result"]["log"])
    assert logged == expected
    assert logged != [line["text"] for line in played["result"]["log"]]  # not the English


def test_the_enemy_turn_is_logged_in_german(german: Demo, host: Translator) -> None:
    german.restart()
    since = german.mark()
    response = german.end_turn()
    shown = [line for logged in german.said("logged", since) for line in logged["lines"]]
    assert shown == said(host, response["result"]["log"])


def test_a_refusal_says_why_in_german(german: Demo, host: Translator) -> None:
    german.restart()
    desktop = Desktop()
    desktop.play("h2", None)
    german.drag(german.card("h2"), german.point("play"), "played")  # Meteor Strike: 1 energy left
    refused = german.drag(german.card("h12"), german.point("play"), "refused")
    answer = desktop.targets("h12")
    expected = host.say(answer["reason_message"])
    assert refused == {"card": "h12", "reason": expected, "code": answer["refusal"]["code"]}
    assert "Energie" in expected  # the catalog's German, not the English "energy"


def test_an_intent_reads_in_german(german: Demo, host: Translator) -> None:
    german.restart()
    units = Desktop().on_session("state")["state"]["units"]
    forecasts = {u["id"]: u["intent"]["forecast"] for u in units if u.get("intent")}
    shown = german.last("intents")
    assert forecasts and set(shown) == set(forecasts)
    for unit, forecast in forecasts.items():
        assert shown[unit]["title"] == host.say(forecast["title_message"])
        assert shown[unit]["label"] == host.say(forecast["label_message"])


def test_a_card_reads_in_german(german: Demo, host: Translator) -> None:
    german.restart()
    since = german.mark()
    german.do({"move": list(german.card("h12"))})
    tip = german.wait_for("tooltip", since)
    cards = Desktop().on_session("state")["state"]["cards"]
    resurrect = next(c for c in cards if c["id"] == "resurrect")
    name = host.name({"card": "h12", "def": "resurrect", "name": resurrect["name"]})[0]
    assert tip["title"] == name != resurrect["name"]
    entry = polib.pofile(str(GERMAN)).find(resurrect["text"], msgctxt="card.resurrect.text")
    assert entry is not None and entry.msgstr
    assert tip["text"].startswith(entry.msgstr)
    german.do({"wait_ms": 150}, {"screenshot": str(ARTIFACTS / "demo_german.png")})


def test_the_language_switches_back_and_forth_in_the_battle(german: Demo, host: Translator) -> None:
    german.restart()
    units = Desktop().on_session("state")["state"]["units"]
    forecasts = {u["id"]: u["intent"]["forecast"] for u in units if u.get("intent")}
    for locale, say in (
        ("en", lambda f: f["title"]),
        ("de", lambda f: host.say(f["title_message"])),
    ):
        since = german.mark()
        german.do({"click": german.last("language")["point"]})
        assert german.wait_for("language", since)["locale"] == locale
        shown = german.said("intents", since)[-1]  # the state shown again in that language
        assert {u: i["title"] for u, i in shown.items()} == {
            u: say(f) for u, f in forecasts.items()
        }


def test_the_engine_reported_no_errors(german: Demo) -> None:
    assert german.errors == []


def test_the_pile_viewer_reads_in_german(german: Demo, host: Translator) -> None:
    """The draw pile's viewer: its title, its note, its Close button and its cards' names and
    texts in German (the catalog's words for the runtime's sentences and the cards)."""
    german.restart()
    since = german.mark()
    german.do({"click": german.last("piles")["draw"]["point"]})
    shown = german.wait_for("pile", since)
    answer, viewer = shown["answer"], shown["shown"]
    assert viewer["title"] == host.say(answer["title_message"]) != answer["title"]
    assert viewer["note"] == host.say(answer["note_message"]) != answer["note"]
    catalog = polib.pofile(str(GERMAN))
    for card, entry in zip(viewer["cards"], answer["cards"], strict=True):
        told = catalog.find(entry["text"], msgctxt=f"card.{entry['card']}.text")
        assert told is not None and card["text"] == told.msgstr, card
    german.do({"wait_ms": 200}, {"screenshot": str(ARTIFACTS / "pile_viewer_german.png")})
    since = german.mark()
    german.do({"key": "Escape"})
    german.wait_for("pile_closed", since)
