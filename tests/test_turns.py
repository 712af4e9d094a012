"""The turn step: discard (Retain stays), next turn, refill energy, draw."""

from __future__ import annotations

from pybridge.runtime import Pile, play
from pybridge.runtime.turns import end_turn

from .builders import card, make_battle, of_type


def test_end_turn_discards_refills_and_draws() -> None:
    b = make_battle(
        card("a", cost=2),
        card("keep", keywords=["Retain"]),
        hand=["a", "keep", "a"],
        draw=["a"] * 6,
        energy=3,
        draw_per_turn=4,
    )
    play(b, "h1")
    events = end_turn(b)
    assert (b.turn, b.energy) == (2, 3)
    assert b.piles[Pile.HAND] == ["h2", "d1", "d2", "d3", "d4"]
    assert b.piles[Pile.DISCARD] == ["h3", "h1"]
    assert [e["type"] for e in events][:2] == ["turn_ended", "card_moved"]
    assert of_type(events, "turn_started") == [{"type": "turn_started", "turn": 2, "energy": 3}]
