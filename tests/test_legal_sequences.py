"""Property: no legal request sequence makes a battle that ``open`` refuses (issue 20, item 9).

Random valid battles (the strategy of tests/test_properties.py) in each rule profile, driven
by legal requests chosen from what the protocol says is possible now: cards the ``targets``
answer calls playable, aimed at its candidates (a late choice's too); activations when the
Cut allows one; enemy responses; ``pass`` and ``resolve`` answering the ``late_choice`` the
``cut`` answer shows; ``end_turn``. Every state a response returns must open again and dump to
the same canonical text, and every request the law refuses must change nothing.

Examples per profile: half of ``PYBRIDGE_PROPERTY_EXAMPLES`` (default 100), derandomized.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pybridge.protocol import Protocol

from .test_properties import EXAMPLES, PROPERTIES, battles

Doc = dict[str, Any]
LEGAL = settings(PROPERTIES, max_examples=max(10, EXAMPLES // 2))


class Driver:
    """One battle, the requests sent to it, and the reopening check after each."""

    def __init__(self, doc: Doc) -> None:
        self.proto = Protocol()
        opened = self.send({"op": "open", "battle": doc})
        assert opened["ok"], opened
        self.session = opened["result"]["session"]
        self.reopens(opened["result"]["state"])
        self.changes = 0

    def send(self, request: Doc) -> Doc:
        answer: Doc = json.loads(self.proto.call(json.dumps(request)))
        return answer

    def ask(self, op: str, **fields: Any) -> Doc:
        return self.send({"op": op, "session": self.session, **fields})

    def reopens(self, state: Doc) -> None:
        again = json.loads(Protocol().call(json.dumps({"op": "open", "battle": state})))
        assert again["ok"], (again, state)
        assert json.dumps(again["result"]["state"], sort_keys=True) == json.dumps(
            state, sort_keys=True
        )
        assert again["result"]["events"] == []  # a saved battle is already settled

    def change(self, op: str, **fields: Any) -> Doc:
        """Send a change: a success's state reopens; a refusal changes nothing."""
        before = self.ask("state")["result"]["state"]
        answer = self.ask(op, **fields)
        assert answer["ok"] or answer["error"]["code"] != "internal_error", answer
        if answer["ok"]:
            self.changes += 1
            self.reopens(answer["result"]["state"])
        else:
            assert self.ask("state")["result"]["state"] == before, answer
        return answer


Draw = Callable[[st.SearchStrategy[Any]], Any]


def pick(draw: Draw, pool: list[str], count: int) -> Any:
    if not pool:
        return None
    start = draw(st.integers(0, len(pool) - 1))
    chosen = (pool[start:] + pool[:start])[:count]
    return chosen[0] if count == 1 else chosen


def choices_for(draw: Draw, cut: list[Doc], every: bool) -> dict[str, Any]:
    """Answers for the top late entry (``pass``) or every late entry (``resolve``), picked
    from the candidates the ``cut`` answer shows."""
    late = [e for e in (cut if every else cut[-1:]) if e["late_choice"] is not None]
    return {e["id"]: pick(draw, e["late_choice"]["candidates"], 1) for e in late
            if e["late_choice"]["candidates"]}  # fmt: skip


def step(draw: Draw, driver: Driver) -> None:
    """One legal request chosen from what the battle allows now."""
    state = driver.ask("state")["result"]["state"]
    if state["result"] is not None:
        return
    cut = driver.ask("cut")["result"]["cut"]
    hand = [c["id"] for c in state["piles"]["hand"]]
    infos = {card: driver.ask("targets", card=card)["result"] for card in hand}
    playable = [card for card, info in infos.items() if info["playable"]]
    options = ["end_turn"] if not cut else ["pass", "pass", "resolve"]
    if playable and (not cut or cut[-1]["side"] == "enemy"):
        options += ["card"] * 4
    enemies = [u for u in state["units"] if u["team"] == "enemy" and u["hp"] > 0
               and u["zone"] == "field" and u["moves"]]  # fmt: skip
    if cut and cut[-1]["side"] == "player" and enemies:
        options.append("respond")
    op = draw(st.sampled_from(options))
    if op == "card":
        card = draw(st.sampled_from(playable))
        info = infos[card]
        late = info["late_choice"]
        pool = late["candidates"] if late else info["candidates"]
        target = pick(draw, pool, info["count"]) if (late or info["requires_target"]) else None
        if not cut and draw(st.booleans()):
            driver.change("play", card=card, target=target)
        else:
            driver.change("activate", card=card, target=None if late else target)
    elif op == "respond":
        enemy = draw(st.sampled_from(enemies))
        units = [u["id"] for u in state["units"]]
        target = draw(st.one_of(st.none(), st.sampled_from(units)))
        driver.change("respond", unit=enemy["id"], move=draw(st.sampled_from(enemy["moves"])),
                      target=target)  # fmt: skip
    elif op == "end_turn":
        driver.change("end_turn")
    else:
        answer = driver.change(op, choices=choices_for(draw, cut, op == "resolve"))
        if not answer["ok"] and op == "resolve":
            driver.change("pass", choices=choices_for(draw, cut, False))


@st.composite
def plays(draw: st.DrawFn, rules: str) -> tuple[Doc, int]:
    doc = draw(battles())
    return {**doc, "rules": rules}, draw(st.integers(6, 16))


@pytest.mark.parametrize("rules", ["soft", "strict"])
def test_every_state_a_legal_sequence_returns_opens_again(rules: str) -> None:
    @LEGAL
    @given(plays(rules), st.data())
    def run(scenario: tuple[Doc, int], data: st.DataObject) -> None:
        doc, steps = scenario
        driver = Driver(doc)
        for _ in range(steps):
            step(data.draw, driver)

    run()
