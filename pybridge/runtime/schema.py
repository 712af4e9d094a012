"""The runtime's whole vocabulary, described from its own tables: the protocol's ``schema``.

Hosts build their menus, forms and palettes from this answer (the Workshop's node palette,
its field editors and port kinds, the Card Target picker), so nothing a host shows is a
hand-copied list. Every part comes from the table that the runtime itself runs on.
"""

from __future__ import annotations

from typing import Any

from .conditions import COMPARISONS, CONDITION_TESTS, MEASURES
from .definitions import LIBRARY_FORMAT
from .document import BATTLE_FORMAT
from .events import EVENTS, FAILURE_REASONS, LOSS_REASONS, SKIP_REASONS
from .filters import CARD_FILTERS, CARD_SORTS, UNIT_FILTERS, UNIT_SORTS
from .keywords import KEYWORDS
from .mode_table import MODE_FACTS, MODE_NAMES
from .model import HOOKS, PILES, Rules, Zone
from .narrate import LINE_KINDS
from .nodes import GROUPS, NODE_TYPES
from .sources import CARD_SOURCES, UNIT_SOURCES

#: Bumped when the shape of the answer changes (not when the vocabulary grows).
SCHEMA_VERSION = 1


def vocabulary() -> dict[str, Any]:
    """The whole vocabulary as one JSON-ready object (docs/protocol.md, ``schema``)."""
    return {
        "schema_version": SCHEMA_VERSION,
        "formats": {"battle": BATTLE_FORMAT, "library": LIBRARY_FORMAT},
        "modes": [facts.to_json() for facts in MODE_FACTS.values()],
        "mode_names": {name: mode.value for name, mode in MODE_NAMES.items()},
        "unit_sources": [spec.to_json() for spec in UNIT_SOURCES.values()],
        "card_sources": [spec.to_json() for spec in CARD_SOURCES.values()],
        "node_groups": list(GROUPS),
        "node_types": [spec.to_json() for spec in NODE_TYPES.values()],
        "conditions": {
            "tests": [test.to_json() for test in CONDITION_TESTS.values()],
            "measures": [m.to_json() for m in MEASURES.values()],
            "comparisons": list(COMPARISONS),
        },
        "filters": {
            "units": [key.to_json() for key in UNIT_FILTERS.values()],
            "cards": [key.to_json() for key in CARD_FILTERS.values()],
        },
        "sorts": {
            "units": [key.to_json() for key in UNIT_SORTS.values()],
            "cards": [key.to_json() for key in CARD_SORTS.values()],
        },
        "events": [spec.to_json() for spec in EVENTS.values()],
        "reasons": {"skipped": SKIP_REASONS, "lost": LOSS_REASONS, "failed": FAILURE_REASONS},
        "log_kinds": LINE_KINDS,
        "keywords": KEYWORDS,
        "piles": [pile.value for pile in PILES],
        "zones": [zone.value for zone in Zone],
        "status_hooks": list(HOOKS),
        "rules": [profile.value for profile in Rules],
    }
