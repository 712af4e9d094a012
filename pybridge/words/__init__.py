"""The built-in vocabulary, declared through the extension API (:mod:`pybridge.extend`) the
way a game declares its own words: every module here imports only the standard library and
that API (tests/test_vocabulary_boundary.py fails otherwise), so whatever the built-ins do, a
game's extension can do too.

The graph's own grammar (the UnitSource and CardSource nodes, the selectors, Condition,
Branch, Gate, Snapshot and Call) is the runtime's (:mod:`pybridge.runtime.nodes`); the
battle log words the built-in events (:mod:`pybridge.runtime.narrate`) and the describer has
richer phrases for the built-in actions (:mod:`pybridge.authoring.phrases`).
"""

from __future__ import annotations

from pybridge.extend import Words

from . import actions, conditions, describing, events, filters, messages, sources


def register(words: Words) -> None:
    """Declare every built-in word: events first, since actions name the events they emit."""
    messages.register(words)
    describing.register(words)
    events.register(words)
    sources.register(words)
    conditions.register(words)
    filters.register(words)
    actions.register(words)
