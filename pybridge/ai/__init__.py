"""A search AI that decides from one side's view only (standard library only: it runs
wherever the runtime does, Pyodide included). See docs/ai.md.

>>> from pybridge.ai import decide, legal_actions
"""

from .search import Action, Decision, Search, apply_action, decide, legal_actions, score
from .seat import in_battle_ids, seat_move

__all__ = ["Action", "Decision", "Search", "apply_action", "decide", "in_battle_ids",
           "legal_actions", "score", "seat_move"]  # fmt: skip
