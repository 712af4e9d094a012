"""The pile viewer in the real Godot 4.6 web engine (issue #24, point 5): the party battle's
Draw, Discard and Exhaust counters open it by mouse and by key, it shows exactly the runtime's
``pile`` answer in its order (the draw pile never in draw order), a played card shows in the
discard viewer, the battle behind waits while it is open, and Escape, Enter, the Close button
and a click outside close it. Screenshots go to artifacts/ (pile_viewer_*.png)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from pybridge.demo import prepare_demo_site
from pybridge.runtime.views import unordered

from .demo_support import PREFIX, Demo, Desktop, booted_demo
from .engine_session import ARTIFACTS, WIDTH
from .png_support import read_png
from .web_support import require_browser

#: A point outside the viewer's panel, on its shade (the top-left corner of the screen).
OUTSIDE = [12, 12]


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Demo]:
    require_browser()
    work = tmp_path_factory.mktemp("pile_viewer_e2e")
    with booted_demo(prepare_demo_site(work / "site"), work, "pile_viewer_log.txt", "party") as d:
        d.wait_for("piles", 0)
        yield d


def _open(demo: Demo, pile: str, by_key: str = "") -> dict[str, Any]:
    """Open ``pile``'s viewer by its counter (or the key ``by_key``); the ``pile`` line."""
    since = demo.mark()
    if by_key:
        demo.do({"key": by_key})
    else:
        demo.do({"click": demo.last("piles")[pile]["point"]})
    shown = demo.wait_for("pile", since)
    assert shown["answer"]["pile"] == pile and shown["shown"]["visible"] is True
    return shown


def _close(demo: Demo, action: dict[str, Any], pile: str) -> None:
    since = demo.mark()
    demo.do(action)
    assert demo.wait_for("pile_closed", since) == {"pile": pile}


def _same_as_answer(shown: dict[str, Any]) -> list[dict[str, Any]]:
    """The viewer shows the answer's cards, each once, in the answer's order."""
    answer, cards = shown["answer"], shown["shown"]["cards"]
    assert [c["id"] for c in cards] == [c["id"] for c in answer["cards"]]
    assert [c["card"] for c in cards] == [c["card"] for c in answer["cards"]]
    assert shown["shown"]["title"] == answer["title"]  # English: the runtime's own words
    assert shown["shown"]["note"] == answer["note"]
    cards_answered: list[dict[str, Any]] = answer["cards"]
    return cards_answered


def test_the_draw_viewer_shows_the_runtimes_answer_never_the_draw_order(demo: Demo) -> None:
    twin = Desktop()
    draw_order = [c["card"] for c in twin.on_session("state")["state"]["piles"]["draw"]]
    shown = _open(demo, "draw")
    answer = shown["answer"]
    cards = _same_as_answer(shown)
    assert (answer["seen"], answer["ordered"], answer["count"]) == (True, False, len(draw_order))
    assert answer["title"] == f"Cards in the draw pile: {len(draw_order)}"
    assert cards == sorted(cards, key=unordered)
    assert sorted(c["card"] for c in cards) == sorted(draw_order)
    assert [c["card"] for c in cards] != draw_order
    assert all(c["id"].startswith("k") for c in cards)  # the viewer's ids, not the instances'
    for card in shown["shown"]["cards"]:  # each card drawn whole inside the panel
        assert card["size"][0] >= 140 and card["size"][1] >= 200, card
    demo.do({"wait_ms": 200}, {"screenshot": str(ARTIFACTS / "pile_viewer_draw.png")})
    # While it is open the battle behind waits: End Turn's key does nothing.
    since = demo.mark()
    demo.do({"key": "e"}, {"wait_ms": 300})
    assert not demo.said("turn", since)
    _close(demo, {"key": "Escape"}, "draw")


def test_a_played_card_shows_in_the_discard_viewer(demo: Demo) -> None:
    empty = _open(demo, "discard")
    assert (empty["answer"]["count"], empty["answer"]["cards"]) == (0, [])
    _close(demo, {"click": OUTSIDE}, "discard")
    since = demo.mark()
    demo.do({"drag": [*demo.card("h2"), *demo.point("play"), 12]})  # Meteor Strike
    demo.wait_for("played", since)
    demo.do({"wait_for": f"{PREFIX}piles ", "from": since})
    assert demo.last("piles")["discard"]["count"] == 1
    shown = _open(demo, "discard", by_key="s")
    cards = _same_as_answer(shown)
    assert [c["card"] for c in cards] == ["meteor_strike"]
    assert [c["name"] for c in cards] == ["Meteor Strike"]
    assert shown["answer"]["ordered"] is True and shown["answer"]["note"] == "Top card first."
    demo.do({"wait_ms": 200}, {"screenshot": str(ARTIFACTS / "pile_viewer_discard.png")})
    _close(demo, {"click": shown["shown"]["close"]["point"]}, "discard")


def _top_bar_brightness(shot: Path) -> float:
    """The mean brightness of the top bar (the first 50 rows), outside the viewer's panel."""
    _, _, pixels = read_png(shot)
    strip = pixels[: WIDTH * 3 * 50]
    return sum(strip) / len(strip)


def test_the_exhaust_viewer_opens_by_key_and_closes_by_enter(demo: Demo) -> None:
    shown = _open(demo, "exhaust", by_key="x")
    assert shown["answer"]["count"] == 0 and shown["shown"]["cards"] == []
    assert shown["shown"]["title"] == "Cards in the exhaust pile: 0"
    assert shown["shown"]["note"] == "No cards here."
    opened, closed = ARTIFACTS / "pile_viewer_exhaust.png", ARTIFACTS / "pile_viewer_closed.png"
    demo.do({"wait_ms": 150}, {"screenshot": str(opened)})
    _close(demo, {"key": "Enter"}, "exhaust")
    demo.do({"wait_ms": 150}, {"screenshot": str(closed)})
    # The shade dims the battle behind while it is open, and is gone once closed.
    assert _top_bar_brightness(opened) < 0.7 * _top_bar_brightness(closed)
    # The draw pile by key too, and closed: the battle takes its keys again.
    _open(demo, "draw", by_key="d")
    _close(demo, {"key": "Escape"}, "draw")
