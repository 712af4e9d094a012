"""The Rivals duel against the search AI, in the real Godot 4.6 web engine (headless Chromium).

From the start screen the test goes into Rivals, takes the opening cover's choice to play
against the AI (Vex's side) and plays Captain Aya's side by mouse as a player would, to the
duel's end: on the Cut it passes, else it plays the first card of its hand the runtime says is
playable (at the first candidate), else it ends its turn. Every move of the AI is checked
against the same duel played in desktop CPython through the same protocol (each one the
runtime accepted, with the same events), and so is every move of the player's. While the AI
thinks the page keeps drawing: its ``thinking`` lines, one a slice, carry frames drawn that
advance from one slice to the next, and the "Vex is thinking..." indicator shows. The AI
thinks with the screen's smallest budget (15 iterations a move) to keep the test's time
modest; one move at the largest (200) is thought first for the screenshot of it thinking.
Screenshots go to ``artifacts/``.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from pybridge.demo import prepare_demo_site

from .demo_support import PREFIX, Demo, RivalsTwin, booted_demo
from .engine_session import ARTIFACTS
from .web_support import require_browser

Doc = dict[str, Any]
#: The budget the duel is played at: the smallest the screen offers.
BUDGET = 15
#: The budget of the one move thought for the screenshot.
DEEP = 200
#: What the indicator says while the AI thinks.
THINKING = ("Vex is thinking...", "Rook is thinking...")
#: The moves a duel may take before the test calls it stuck.
MOST_MOVES = 400


class Twin(RivalsTwin):
    """The duel in desktop CPython, each move of either side made beside the engine's."""

    def result(self) -> str | None:
        result: str | None = self.on_session("state")["state"]["result"]
        return result


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Demo]:
    require_browser()
    work = tmp_path_factory.mktemp("rivals_ai_e2e")
    site = prepare_demo_site(work / "site")
    with booted_demo(site, work, "rivals_ai_e2e_log.txt", "") as driver:
        yield driver


def shot(demo: Demo, name: str) -> Path:
    path = ARTIFACTS / name
    demo.do({"screenshot": str(path)})
    return path


def enter_against_the_ai(demo: Demo, budget: int) -> Doc:
    """From the start screen into Rivals, the AI's budget set to ``budget``, then the choice
    to play against it; the first ``your_move`` line."""
    since = demo.mark()
    demo.do({"click": demo.last("menu")["rivals"]})
    ready = demo.wait_for("ready", since)
    assert (ready["scene"], ready["ai"]) == ("rivals", False)
    handover = demo.wait_for("handover", since)
    assert handover["side"] == "player" and handover["ai"], handover
    text = handover["budget_text"]
    for _ in range(4):
        if f" {budget} iterations" in text:
            break
        mark = demo.mark()
        demo.do({"click": handover["budget"]})
        text = demo.wait_for("budget", mark)["text"]
    assert text == f"Vex thinks: {budget} iterations a move (B)"
    since = demo.mark()
    demo.do({"click": handover["ai"]})
    move = demo.wait_for("your_move", since)
    seat = demo.last("seat")
    assert (seat["side"], seat["acting"], seat["other"]) == ("player", "player", "enemy")
    assert not demo.said("handover", since)  # no cover against the AI
    return move


def human_move(demo: Demo, twin: Twin) -> tuple[str, Doc]:
    """Aya's move by mouse: pass on the Cut, else her first playable card, else End Turn.
    The kind of line its response comes on, and the same move made in the twin."""
    layout = demo.last("seat")["layout"]
    if twin.on_session("cut")["cut"]:
        demo.do({"click": layout["pass"]})
        return "passed", twin.on_session("pass", side="player")
    for card in twin.hand("player"):
        info = twin.targets(card)
        if not info["playable"]:
            continue
        demo.do({"click": layout["cards"][card]})
        fields: Doc = {"side": "player", "card": card}
        if info["requires_target"]:
            target = info["candidates"][0]
            demo.do({"click": layout["units"][target]})
            fields["target"] = [target]
        else:
            demo.do({"click": layout["play"]})
        return "activated", twin.on_session("activate", **fields)
    demo.do({"click": layout["end_turn"]})
    return "turn", twin.on_session("end_turn", side="player")


def check_ai_moves(lines: list[Doc], twin: Twin) -> None:
    """Each AI move was accepted by the runtime and makes the same events in the twin."""
    for line in lines:
        response = line["response"]
        assert response["ok"], line
        move = line["move"]
        assert line["op"] == ("activate" if move["kind"] == "play" else move["kind"])
        fields: Doc = {"side": "enemy"}
        if move["card"] is not None:
            fields["card"] = move["card"]
        if move["target"] is not None:
            fields["target"] = move["target"]
        assert twin.acting() == "enemy"
        expected = twin.on_session(line["op"], **fields)
        assert response["result"]["events"] == expected["events"], line


def thoughts(lines: list[Doc]) -> list[list[Doc]]:
    """The ``thinking`` lines, one list a think: from its start to its end."""
    found: list[list[Doc]] = []
    for line in lines:
        if line["thinking"] and line["progress"] == 0:
            found.append([])
        found[-1].append(line)
    return found


def check_thinking(lines: list[Doc]) -> int:
    """While it thought the page drew frames, one slice after the other, and the indicator
    showed; how many thinks took several slices."""
    sliced = 0
    for think in thoughts(lines):
        assert not think[-1]["thinking"] and not think[-1]["indicator"]["visible"], think
        for line in think[:-1]:
            assert line["indicator"]["visible"], line
            # The side goes by its active player's name: Rook's once Vex has fallen.
            assert line["indicator"]["text"] in THINKING, line
        # The first slice is searched in the frame the think starts in, each next one in a
        # later frame: frames were drawn in between.
        slices = [line for line in think[:-1] if line["progress"] > 0]
        frames = [line["frame"] for line in slices]
        assert frames == sorted(frames) and len(set(frames)) == len(frames), frames
        if len(slices) >= 2:
            sliced += 1
            progress = [line["progress"] for line in slices]
            assert progress == sorted(progress) and 0 < progress[-1] < 1, progress
    return sliced


def test_a_duel_against_the_ai_from_the_start_screen_to_its_end(demo: Demo) -> None:
    assert "rivals" in demo.last("menu")
    # One move thought at the deepest budget, for the screenshot of the AI thinking; then
    # back to the menu in the middle of the next think (M), which stops it.
    enter_against_the_ai(demo, DEEP)
    since = demo.mark()
    demo.do({"click": demo.last("seat")["layout"]["end_turn"]})
    demo.do({"wait_for": f"{PREFIX}thinking ", "from": since})  # it thinks for 50 frames
    shot(demo, "rivals_ai_thinking.png")
    shown = demo.said("thinking", since)[-1]
    assert shown["thinking"] and shown["indicator"]["visible"], shown
    assert shown["indicator"]["text"] == THINKING[0]
    since = demo.mark()
    demo.do({"key": "m"})
    demo.do({"wait_for": f"{PREFIX}menu ", "from": since})

    start = demo.mark()
    enter_against_the_ai(demo, BUDGET)
    twin = Twin()
    checked = start
    for _ in range(MOST_MOVES):
        check_ai_moves(demo.said("ai_move", checked), twin)
        checked = demo.mark()
        seat = demo.last("seat")
        if twin.result() is not None:
            break
        assert twin.acting() == "player"
        assert seat["hand"] == twin.hand("player")
        assert seat["backs"] == len(twin.hand("enemy"))  # Vex's hand: card backs only
        since = demo.mark()
        kind, expected = human_move(demo, twin)
        response = demo.wait_for(kind, since)
        assert response["ok"] and response["result"]["events"] == expected["events"]
        move = demo.wait_for("your_move", since)
        check_ai_moves(demo.said("ai_move", checked), twin)
        checked = demo.mark()
        if move["over"]:
            break
    assert twin.result() in ("victory", "defeat")
    result = demo.wait_for("result", start)
    state = twin.on_session("state")["state"]
    team = "player" if twin.result() == "victory" else "enemy"
    (side,) = [s for s in state["sides"] if s["team"] == team]
    names = {unit["id"]: unit["name"] for unit in state["units"]}
    winner = names[side["active_player"]]  # the side goes by its active player's name
    assert (result["result"], result["title"]) == (twin.result(), f"{winner}'s side wins!")
    ai_moves = demo.said("ai_move", start)
    kinds = {line["move"]["kind"] for line in ai_moves}
    assert {"play", "end_turn"} <= kinds, kinds
    assert check_thinking(demo.said("thinking", start)) >= 3
    shot(demo, "rivals_ai_end.png")
    assert demo.errors == []
    assert not any(text.startswith(f"{PREFIX}error ") for text in demo.lines)
