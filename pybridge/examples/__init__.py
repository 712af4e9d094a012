"""Example documents shipped with the package: the demo's party battle, its duel, and a battle
between two card-playing sides."""

from __future__ import annotations

import json
from importlib import resources
from typing import Any


def _example(name: str) -> dict[str, Any]:
    text = resources.files(__name__).joinpath(name).read_text("utf-8")
    document: dict[str, Any] = json.loads(text)
    return document


def demo_battle() -> dict[str, Any]:
    """The demo battle: a party of three against three enemies, a hand of every target mode."""
    return _example("demo_battle.json")


def duel_battle() -> dict[str, Any]:
    """The demo's duel under the strict law: Captain Aya and Kit against a rival whose units
    answer on the Cut (a flare that calls in the reserve, a drone that blows itself up, a ward
    on another unit), with multi-target, "up to", "all ~" and choose-on-resolve cards."""
    return _example("duel_battle.json")


def rivals_battle() -> dict[str, Any]:
    """Two card-playing sides under the strict law: Captain Aya and Kit against Vex and Rook,
    each side with its own hand, draw pile and energy, taking turns and answering each other
    on the Cut (Countermand negates what waits there; Rally reads its own side's hand)."""
    return _example("rivals_battle.json")
