"""The party battle's screen in the real Godot 4.6 web engine at 1280x720: the fanned hand, a
card dragged along it, cards flying between the hand and the piles, the minimum text sizes
and the units' and cards' icons.

The demo prints a ``motion`` line each time the cards of a new state stop flying (the moves
read from the piles, and what the hand shows: its order, fan, whether every card stands at its
place, the smallest text sizes, which units and cards show a picture) and a ``reordered`` line
when the player moves a card; the tests wait for those lines, never for a time. Screenshots go
to ``artifacts/``.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from pybridge.demo import ICON_SET, prepare_demo_site
from pybridge.web import node_modules

from .demo_support import Demo, booted_demo
from .engine_session import ARTIFACTS
from .png_support import read_png
from .web_support import ON_CI, require_browser


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Demo]:
    require_browser()
    work = tmp_path_factory.mktemp("battle_screen")
    site = prepare_demo_site(work / "site")
    with booted_demo(site, work, "battle_screen_log.txt", "party") as driver:
        yield driver


def dealt(demo: Demo) -> dict[str, Any]:
    """A fresh battle once its opening hand has flown in: the ``motion`` line."""
    since = demo.mark()
    demo.restart()
    return demo.wait_for("motion", since)


def test_the_hand_is_fanned_and_its_cards_are_dealt_from_the_draw_pile(demo: Demo) -> None:
    shown = dealt(demo)
    hand = shown["hand"]
    assert len(hand) == 15 and shown["at_rest"]
    assert [move["card"] for move in shown["moves"]] == hand
    assert {move["from"] for move in shown["moves"]} == {"draw"}
    fan = shown["fan"]
    angles = [fan[card]["angle"] for card in hand]
    assert angles == sorted(angles) and angles[0] < 0 < angles[-1]  # the ends turn outwards
    assert angles[0] == -angles[-1]
    middle = fan[hand[len(hand) // 2]]["y"]
    assert fan[hand[0]]["y"] > middle and fan[hand[-1]]["y"] > middle  # the ends sit lower
    shot = ARTIFACTS / "battle_screen_hand.png"
    demo.do({"screenshot": str(shot)})
    assert read_png(shot)[:2] == (1280, 720)


def test_a_card_dragged_along_the_hand_keeps_its_new_place(demo: Demo) -> None:
    shown = dealt(demo)
    assert shown["hand"][:5] == ["h1", "h2", "h3", "h4", "h5"]
    since = demo.mark()
    demo.do({"drag": [*demo.card("h2"), *demo.card("h5"), 3]})
    moved = demo.wait_for("reordered", since)
    assert moved["hand"][:5] == ["h1", "h3", "h4", "h5", "h2"]
    assert demo.said("played", since) == []  # a drag along the hand plays nothing
    assert demo.said("cancelled", since)  # the aim it started was put back
    since = demo.mark()
    demo.drag(demo.card("h1"), demo.unit("goblin"), "played")  # Strike, dragged onto a unit
    after = demo.wait_for("motion", since)
    assert after["hand"][:4] == ["h3", "h4", "h5", "h2"]  # the order survives the new state
    assert after["moves"] == [{"card": "h1", "from": "hand", "to": "discard", "played": True}]
    assert after["at_rest"]


def test_a_drawn_card_flies_into_the_right_end_of_the_hand(demo: Demo) -> None:
    dealt(demo)
    since = demo.mark()
    demo.do(
        {"drag": [*demo.card("h10"), *demo.point("play"), 3]},  # Quartermaster draws a Strike
        {"wait_for": "PYBRIDGE played ", "from": since},
        {"screenshot": str(ARTIFACTS / "battle_screen_flight.png")},
    )
    shown = demo.wait_for("motion", since)
    played = [move for move in shown["moves"] if move["from"] == "hand"]
    drawn = [move for move in shown["moves"] if move["to"] == "hand"]
    assert played == [{"card": "h10", "from": "hand", "to": "discard", "played": True}]
    assert len(drawn) == 1 and drawn[0]["from"] == "draw"
    assert shown["hand"][-1] == drawn[0]["card"] and shown["at_rest"]
    assert drawn[0]["card"] in demo.layout["cards"]  # it can be clicked where it landed
    counters = demo.said("piles")[-1]
    for pile in ("draw", "discard", "exhaust"):  # each pile's cards fly to its own counter
        assert shown["anchors"][pile] == counters[pile]["point"], pile


def test_card_text_and_floaters_keep_the_minimum_sizes(demo: Demo) -> None:
    shown = dealt(demo)
    minimum = shown["minimum"]
    assert minimum["text"] >= 11 and minimum["floater"] >= 24  # the documented defaults
    assert shown["card_font"] >= min(minimum["text"], minimum["mode"])
    assert shown["floater_font"] >= minimum["floater"]
    since = demo.mark()
    demo.do(
        {"drag": [*demo.card("h2"), *demo.point("play"), 3]},  # Meteor Strike hits all three
        {"wait_for": "PYBRIDGE hit ", "from": since},
        {"screenshot": str(ARTIFACTS / "battle_screen_floaters.png")},
    )
    demo.wait_for("motion", since)
    demo.hover("h12")
    demo.do({"screenshot": str(ARTIFACTS / "battle_screen_hover.png")})


def test_units_and_cards_show_their_icons(demo: Demo) -> None:
    if not (node_modules() / ICON_SET / "icons.json").is_file():
        message = f"{ICON_SET} is not installed: run web/setup.sh"
        if ON_CI:
            pytest.fail(message)
        pytest.skip(message)
    shown = dealt(demo)
    art = shown["art"]
    assert sorted(art["units"]) == ["cleric", "goblin", "knight", "orc", "ranger", "shaman"]
    assert sorted(art["cards"]) == sorted(shown["hand"])
