"""Example documents shipped with the package (the demo battle)."""

from __future__ import annotations

import json
from importlib import resources
from typing import Any


def demo_battle() -> dict[str, Any]:
    """The demo battle: a party of three against three enemies, a hand of every target mode."""
    text = resources.files(__name__).joinpath("demo_battle.json").read_text("utf-8")
    document: dict[str, Any] = json.loads(text)
    return document
