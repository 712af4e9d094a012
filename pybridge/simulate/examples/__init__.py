"""The examples ``pybridge simulate`` runs when given nothing: the demo's fifteen cards as a
``pybridge/cards@1`` library, and three battle documents whose cards come from it (the demo
battle as ``goblin_camp``, an easier ``goblin_scouts`` and a harder ``orc_warband``).

They live here rather than beside the demo battle because an encounter that takes its cards
from a library only loads with that library (``pybridge lint`` checks documents one by one).
"""

from __future__ import annotations

from pathlib import Path

_HERE = Path(__file__).resolve().parent
EXAMPLE_LIBRARY = _HERE / "cards.json"
EXAMPLE_ENCOUNTERS = _HERE / "encounters"
