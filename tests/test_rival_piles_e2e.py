"""The pile viewer in the hot-seat duel, in the real Godot 4.6 web engine (issue #24, point 5):
the side at the device opens its own Draw, Discard and Exhaust and the other side's Hand, Draw,
Discard and Exhaust by their counters, always as itself. What the viewer shows is exactly the
runtime's ``pile`` answer to that side (compared with the same answer in desktop CPython), the
other side's hand and draw pile only as counts; after the "pass the device" cover the other
player asks as its own side. Screenshots go to artifacts/ (rivals_pile_*.png)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from pybridge.demo import prepare_demo_site

from .demo_support import PREFIX, Demo, RivalsTwin, booted_demo
from .engine_session import ARTIFACTS
from .web_support import require_browser

Doc = dict[str, Any]
OUTSIDE = [12, 12]  # a point on the viewer's shade, outside its panel


@pytest.fixture(scope="module")
def rivals(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Demo]:
    """The demo in the hot-seat duel, Captain Aya at the device."""
    require_browser()
    work = tmp_path_factory.mktemp("rival_piles_e2e")
    with booted_demo(prepare_demo_site(work / "site"), work, "rival_piles_log.txt", "") as demo:
        since = demo.mark()
        demo.do({"click": demo.last("menu")["rivals"]})
        assert demo.wait_for("ready", since)["scene"] == "rivals"
        _take(demo, demo.wait_for("handover", since), "player")
        yield demo


def _take(demo: Demo, handover: Doc, side: str) -> Doc:
    """Take the device for ``side`` at the hand-over; the counters' line once shown."""
    assert handover["side"] == side and handover["battle_visible"] is False
    since = demo.mark()
    demo.do({"click": handover["take"]})
    piles = demo.wait_for("rival_piles", since)
    assert piles["side"] == side
    return piles


def _open(demo: Demo, row: str, pile: str) -> Doc:
    """Click the counter of ``pile`` in ``row`` (``own`` or ``other``); the ``pile`` line."""
    counters = demo.last("rival_piles")
    since = demo.mark()
    demo.do({"click": counters[row][pile]["point"]})
    shown = demo.wait_for("pile", since)
    side = counters["side"] if row == "own" else counters["other_side"]
    assert shown["viewer"] == counters["side"]  # always as the side at the device
    assert (shown["answer"]["pile"], shown["answer"]["side"]) == (pile, side)
    assert shown["shown"]["visible"] is True
    assert shown["answer"]["count"] == counters[row][pile]["count"]
    return shown


def _close(demo: Demo, pile: str) -> None:
    since = demo.mark()
    demo.do({"click": OUTSIDE})
    assert demo.wait_for("pile_closed", since) == {"pile": pile}


def _as_runtime_answers(shown: Doc, twin: RivalsTwin) -> list[Doc]:
    """The viewer shows the engine's answer, which is the runtime's answer to that side:
    the same cards in the same order (the ids are each battle's own), the same words."""
    answer, cards = shown["answer"], shown["shown"]["cards"]
    assert [c["id"] for c in cards] == [c["id"] for c in answer["cards"]]
    assert [c["card"] for c in cards] == [c.get("card", "") for c in answer["cards"]]
    assert [c["text"] for c in cards if not c["face_down"]] == [
        c["text"] for c in answer["cards"] if "card" in c
    ]  # English, the battle's own texts
    desktop = twin.on_session(
        "pile", viewer=shown["viewer"], pile=answer["pile"], side=answer["side"]
    )
    for key in ("count", "seen", "ordered", "title", "note"):
        assert answer[key] == desktop[key], key
    assert [c.get("card") for c in answer["cards"]] == [c.get("card") for c in desktop["cards"]]
    assert shown["shown"]["title"] == answer["title"]
    assert shown["shown"]["note"] == answer["note"]
    cards_answered: list[Doc] = answer["cards"]
    return cards_answered


def _only_a_count(shown: Doc) -> None:
    answer = shown["answer"]
    assert (answer["seen"], answer["cards"], shown["shown"]["cards"]) == (False, [], [])
    assert shown["shown"]["note"] == "You may not see these cards."


def _click(demo: Demo, point: list[float], kind: str) -> Doc:
    since = demo.mark()
    demo.do({"click": point})
    found = demo.wait_for(kind, since)
    assert found["ok"], found
    return found


def test_each_side_views_its_piles_and_the_other_sides_as_the_runtime_lets_it(
    rivals: Demo,
) -> None:
    twin = RivalsTwin()
    rivals.do({"wait_ms": 150}, {"screenshot": str(ARTIFACTS / "rivals_pile_counters.png")})
    # Captain Aya at the device: her hand shows; her draw pile is hidden (a count), Vex's
    # hand and draw pile are counts, and nothing has been discarded yet.
    shown = _open(rivals, "own", "draw")
    _only_a_count(shown)
    assert shown["shown"]["whose"] == "Your side (Captain Aya)"
    _as_runtime_answers(shown, twin)
    _close(rivals, "draw")
    shown = _open(rivals, "other", "hand")
    _only_a_count(shown)
    assert shown["answer"]["count"] == 5 and shown["shown"]["whose"] == "Vex's side"
    assert shown["shown"]["title"] == "Cards in the hand: 5"
    _as_runtime_answers(shown, twin)
    rivals.do({"wait_ms": 150}, {"screenshot": str(ARTIFACTS / "rivals_pile_other_hand.png")})
    _close(rivals, "hand")
    # Aya plays Barrage; Vex takes the device and passes, and it resolves into her discard.
    layout = rivals.last("seat")["layout"]
    since = rivals.mark()
    rivals.do({"click": layout["cards"]["a2"]}, {"click": layout["play"]})
    assert rivals.wait_for("activated", since)["ok"]
    twin.on_session("activate", side="player", card="a2")
    piles = _take(rivals, rivals.wait_for("handover", since), "enemy")
    # Vex at the device: Aya's Barrage waits on the Cut, her hand is a count to Vex.
    shown = _open(rivals, "other", "hand")
    _only_a_count(shown)
    assert shown["viewer"] == "enemy" and shown["shown"]["whose"] == "Captain Aya's side"
    _as_runtime_answers(shown, twin)
    _close(rivals, "hand")
    since = rivals.mark()
    _click(rivals, rivals.last("seat")["layout"]["pass"], "passed")
    twin.on_session("pass", side="enemy")
    rivals.do({"wait_for": f"{PREFIX}step ", "from": since}, {"key": "Escape"})
    piles = _take(rivals, rivals.wait_for("handover", since), "player")
    assert piles["own"]["discard"]["count"] == 1
    # Aya again: her discard holds Barrage, top first, with its text.
    shown = _open(rivals, "own", "discard")
    cards = _as_runtime_answers(shown, twin)
    assert [(c["card"], c["name"]) for c in cards] == [("barrage", "Barrage")]
    assert shown["answer"]["ordered"] is True
    assert shown["shown"]["cards"][0]["text"] == "Deal 3 damage to all enemies."
    _close(rivals, "discard")
    # She ends her turn: Vex takes the device and sees Aya's discard (open to both sides),
    # her hand and draw pile only as counts, and its own piles as itself.
    since = rivals.mark()
    rivals.do({"click": rivals.last("seat")["layout"]["end_turn"]})
    assert rivals.wait_for("turn", since)["ok"]
    twin.on_session("end_turn", side="player")
    rivals.do({"wait_for": f"{PREFIX}step ", "from": since}, {"key": "Escape"})
    piles = _take(rivals, rivals.wait_for("handover", since), "enemy")
    assert (piles["other_side"], piles["other"]["discard"]["count"]) == ("player", 1)
    shown = _open(rivals, "other", "discard")
    assert shown["viewer"] == "enemy"
    cards = _as_runtime_answers(shown, twin)
    assert [c["card"] for c in cards] == ["barrage"]
    rivals.do({"wait_ms": 150}, {"screenshot": str(ARTIFACTS / "rivals_pile_other_discard.png")})
    _close(rivals, "discard")
    for row, pile in (("other", "hand"), ("other", "draw"), ("own", "draw")):
        shown = _open(rivals, row, pile)
        _only_a_count(shown)
        _as_runtime_answers(shown, twin)
        _close(rivals, pile)
    shown = _open(rivals, "own", "exhaust")
    assert shown["answer"]["side"] == "enemy" and shown["shown"]["whose"] == "Your side (Vex)"
    assert shown["shown"]["note"] == "No cards here."
    _close(rivals, "exhaust")
    assert rivals.errors == []
    assert not any(text.startswith(f"{PREFIX}error ") for text in rivals.lines)
