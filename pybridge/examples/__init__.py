"""Example documents shipped with the package: the demo battle, and for ``pybridge simulate``
the demo's cards as a card library with three encounters that use them."""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path
from typing import Any

_HERE = Path(__file__).resolve().parent
#: The demo's fifteen cards as a ``pybridge/cards@1`` library.
EXAMPLE_LIBRARY = _HERE / "cards.json"
#: Battle documents whose cards come from the example library: the demo battle
#: (goblin_camp), an easier one and a harder one.
EXAMPLE_ENCOUNTERS = _HERE / "encounters"


def demo_battle() -> dict[str, Any]:
    """The demo battle: a party of three against three enemies, a hand of every target mode."""
    text = resources.files(__name__).joinpath("demo_battle.json").read_text("utf-8")
    document: dict[str, Any] = json.loads(text)
    return document
