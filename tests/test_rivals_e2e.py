"""The hot-seat duel end to end, in the real Godot 4.6 web engine (headless Chromium).

Two players share the screen: Captain Aya's side against Vex's, each with its own hand. The
duel of :data:`RIVALS` is played from the start screen to its result by mouse alone: each side
plays its cards, Vex answers Aya's Strike on the Cut with Countermand and Aya's pass resolves
it, and in Vex's own turn Aya answers its Strike with the Countermand her kept hand holds.
Whenever the runtime hands the action to the other side, the screen is covered ("Pass the
device to Vex") until that player clicks, and only then is that side's hand shown. After
every step what the screen shows is compared with the same steps played in desktop CPython through
the same protocol (:class:`Twin`): the runtime's responses, the Cut, whose hand shows and the
other hand's count. Screenshots go to ``artifacts/``.

Needs Debian's chromium and ``web/node_modules`` (``web/setup.sh``): under CI=true the
fixture runs that script and a missing piece is a failure; elsewhere it is a skip.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any, NamedTuple

import pytest

from pybridge.demo import prepare_demo_site

from .demo_support import PREFIX, Demo, RivalsTwin, booted_demo
from .engine_session import ARTIFACTS
from .png_support import colour_pixels
from .web_support import require_browser

Doc = dict[str, Any]
COVER = (13, 10, 23)  # the hand-over's cover, Color(0.05, 0.04, 0.09)


class Step(NamedTuple):
    op: str
    card: str | None = None
    target: str | None = None


def act(card: str, target: str | None = None) -> Step:
    return Step("activate", card, target)


PASS = Step("pass")
END = Step("end_turn")

#: Turn 1: Aya's Strike at Vex, answered by Vex's Countermand, which resolves on Aya's pass
#: and negates it; then Aya's Barrage, and she ends her turn with 1 energy left. Both sides
#: keep their hands (the duel is a card game), so in turn 2, Vex's own, Aya answers Vex's
#: Strike at Kit with the Countermand she kept, and Vex's pass resolves it. Every later turn
#: the side whose turn it is plays from its hand and the other side passes, until Vex's side
#: wins (the draw piles run out and are shuffled back in on the way).
RIVALS = [
    act("a1", "vex"), act("v4"), PASS, act("a2"), PASS, END,
    act("v1", "kit"), act("a4"), PASS, act("v2", "kit"), PASS, END,
    act("a3"), PASS, act("a6", "rook"), PASS, END,
    act("v8", "kit"), PASS, END,
    act("a8", "rook"), PASS, act("a9"), PASS, END,
    act("v10", "kit"), PASS, END,
    END,
    act("v12", "kit"), PASS, act("v10", "aya"), PASS, END,
    act("a12", "rook"), PASS, END,
    act("v8", "aya"), PASS, act("v1", "aya"), PASS, END,
    END,
    act("v2", "aya"), PASS, END,
    END,
    act("v2", "aya"), PASS, act("v12", "aya"), PASS,
]  # fmt: skip
#: The response: Vex's Countermand on Aya's Strike.
RESPONSE = 1
#: The answer in the other side's own turn: Aya's kept Countermand on Vex's Strike, turn 2.
ANSWER_IN_VEX_TURN = 7


class Twin(RivalsTwin):
    """The hot-seat duel in desktop CPython, played step by step beside the engine."""

    def step(self, step: Step) -> Doc:
        """``step`` for the side that acts now, naming it as the engine's requests do."""
        fields: Doc = {"side": self.acting()}
        if step.card is not None:
            fields["card"] = step.card
        if step.target is not None:
            fields["target"] = [step.target]
        return self.on_session(step.op, **fields)


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Demo]:
    require_browser()
    work = tmp_path_factory.mktemp("rivals_e2e")
    with booted_demo(prepare_demo_site(work / "site"), work, "rivals_e2e_log.txt", "") as driver:
        yield driver


def shot(demo: Demo, name: str) -> Path:
    path = ARTIFACTS / name
    demo.do({"wait_ms": 120}, {"screenshot": str(path)})
    return path


def take_device(demo: Demo, handover: Doc) -> Doc:
    """Click the hand-over's button; the ``seat`` line of the side that took the device."""
    since = demo.mark()
    demo.do({"click": handover["take"]})
    return demo.wait_for("seat", since)


def check_seat(seat: Doc, twin: Twin) -> None:
    """The hand shown is the acting side's, the other hand a count of backs, as the runtime
    has them."""
    acting = twin.acting()
    other = "enemy" if acting == "player" else "player"
    assert (seat["side"], seat["acting"], seat["other"]) == (acting, acting, other)
    assert seat["hand"] == twin.hand(acting)
    assert seat["backs"] == len(twin.hand(other))


def test_a_hot_seat_duel_from_the_start_screen_to_its_result(demo: Demo) -> None:
    assert set(demo.last("menu")) == {"party", "duel", "rivals", "online"}
    since = demo.mark()
    demo.do({"click": demo.last("menu")["rivals"]})
    ready = demo.wait_for("ready", since)
    assert ready["scene"] == "rivals" and ready["transport"] == "web"
    assert ready["sides"] == {"player": "Captain Aya", "enemy": "Vex"}
    twin = Twin()
    handover = demo.wait_for("handover", since)
    assert (handover["side"], handover["battle_visible"]) == ("player", False)
    seat = take_device(demo, handover)
    check_seat(seat, twin)
    assert seat["banner"] == "Captain Aya's side: your turn"
    shots = {"handover": 0, "response": 0}
    for index, step in enumerate(RIVALS):
        layout = seat["layout"]
        if index == 0:  # the player side's turn, its Strike lighting the rivals
            demo.do({"move": layout["cards"]["a1"]})
            assert demo.wait_for("highlight", since)["units"] == ["vex", "rook"]
            shot(demo, "rivals_player_turn.png")
        if index == RESPONSE:  # Vex holds priority over Aya's Strike and answers it
            assert seat["banner"] == "Vex's side: your answer on the Cut"
            since = demo.mark()
            demo.do({"move": layout["cards"]["v4"]})
            assert demo.wait_for("highlight", since)["card"] == "v4"
            shot(demo, "rivals_response_on_cut.png")
        if index == ANSWER_IN_VEX_TURN:  # Vex's turn, and Aya holds priority over its Strike
            state = twin.on_session("state")["state"]
            assert (state["turn"], state["turn_side"], seat["side"]) == (2, "enemy", "player")
            assert seat["banner"] == "Captain Aya's side: your answer on the Cut"
            assert "a4" in seat["hand"]  # kept from her own turn
            since = demo.mark()
            demo.do({"move": layout["cards"]["a4"]})
            assert demo.wait_for("highlight", since)["card"] == "a4"
            shot(demo, "rivals_answer_in_other_turn.png")
        since = demo.mark()
        kind = play(demo, step, layout, twin.targets(step.card) if step.card else {})
        response = demo.wait_for(kind, since)
        expected = twin.step(step)
        assert response["ok"] and response["result"]["events"] == expected["events"], step
        if step.op != "activate":  # the rest of its playback at once
            demo.do({"wait_for": f"{PREFIX}step ", "from": since}, {"key": "Escape"})
        if twin.on_session("state")["state"]["result"] is not None:
            break
        acting = twin.acting()
        if acting != seat["side"]:  # the device changes hands
            handover = demo.wait_for("handover", since)
            assert handover["side"] == acting and not handover["battle_visible"]
            name = ready["sides"][acting]
            assert handover["title"] == f"Pass the device to {name}"
            assert not [s for s in demo.said("seat", since)]  # nothing of its hand yet
            if shots["handover"] == 0:
                path = shot(demo, "rivals_handover.png")
                check_covered(path, seat["layout"])
                shots["handover"] += 1
            seat = take_device(demo, handover)
        else:
            seat = demo.wait_for("seat", since)
        check_seat(seat, twin)
        assert demo.last("cut")["answer"] == twin.on_session("cut")
        if index == RESPONSE:  # Aya sees Vex's answer on top of her Strike
            entries = [e["id"] for e in demo.last("cut")["shown"]["entries"]]
            assert len(entries) == 2, entries
            shot(demo, "rivals_answer_waits.png")
        if index == ANSWER_IN_VEX_TURN + 1:  # Vex's pass resolved it: its Strike is negated
            assert [e["type"] for e in expected["events"]].count("negated") == 1
            kit = next(u for u in twin.on_session("state")["state"]["units"] if u["id"] == "kit")
            assert kit["hp"] == kit["max_hp"] and demo.last("cut")["answer"]["cut"] == []
        if index == RESPONSE + 1:  # Aya's pass resolved it: her Strike is negated
            assert [e["type"] for e in expected["events"]].count("negated") == 1
            assert demo.last("cut")["answer"]["cut"] == []
        if step.op == "end_turn" and seat["side"] == "enemy" and shots["response"] == 0:
            shot(demo, "rivals_other_side_turn.png")
            shots["response"] += 1
    state = twin.on_session("state")["state"]
    assert state["result"] == "defeat"
    result = demo.wait_for("result", 0)
    assert (result["result"], result["title"]) == ("defeat", "Vex's side wins!")
    shot(demo, "rivals_end.png")
    assert demo.errors == []
    assert not any(text.startswith(f"{PREFIX}error ") for text in demo.lines)


def play(demo: Demo, step: Step, layout: Doc, info: Doc) -> str:
    """Plays ``step`` by mouse on the screen laid out as ``layout``; the kind of the line its
    response comes on."""
    if step.op == "pass":
        demo.do({"click": layout["pass"]})
        return "passed"
    if step.op == "end_turn":
        demo.do({"click": layout["end_turn"]})
        return "turn"
    assert step.card is not None
    demo.do({"click": layout["cards"][step.card]})
    if info["requires_target"]:
        assert step.target in info["candidates"], info
        demo.do({"click": layout["units"][step.target]})
    else:
        demo.do({"click": layout["play"]})
    return "activated"


def check_covered(path: Path, layout: Doc) -> None:
    """The hand-over's screenshot: where the hand and the units were, only the cover shows
    (around its panel, which sits in the middle of the screen)."""
    for point in [*layout["cards"].values(), *layout["units"].values()]:
        x, y = point
        if 320 < x < 960 and 180 < y < 520:
            continue
        box = (x - 10, y - 10, x + 10, y + 10)
        assert colour_pixels(path, box, COVER, 6) == 400, point
