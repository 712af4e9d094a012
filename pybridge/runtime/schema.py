"""The runtime's whole vocabulary, described from its own tables: the protocol's ``schema``.

Hosts build their menus, forms and palettes from this answer (the Workshop's node palette,
its field editors and port kinds, the Card Target picker), so nothing a host shows is a
hand-copied list. Every part comes from the vocabulary that the runtime itself runs on: the
built-in words and those of the loaded extensions, each of which is marked with its extension.
"""

from __future__ import annotations

from typing import Any

from .conditions import COMPARISONS
from .definitions import LIBRARY_FORMAT
from .document import BATTLE_FORMAT
from .events import FAILURE_REASONS, LOSS_REASONS, SKIP_REASONS
from .filters import WORD_LISTS
from .keywords import KEYWORDS
from .mode_table import MODE_FACTS, MODE_NAMES
from .model import HOOKS, PILES, Rules, Zone
from .narrate import LINE_KINDS
from .nodes import GROUPS, NodeType
from .sentences import CAPITALIZED
from .shapes import SCALARS, SHAPES
from .vocabulary import API_VERSION, BUILTIN, EventWords, Vocabulary

#: Bumped when the shape of the answer changes (not when the vocabulary grows).
SCHEMA_VERSION = 1


def vocabulary(words: Vocabulary | None = None) -> dict[str, Any]:
    """The whole vocabulary as one JSON-ready object (docs/protocol.md, ``schema``)."""
    words = BUILTIN if words is None else words

    def marked(table: str, rows: dict[str, Any]) -> list[dict[str, object]]:
        out = []
        for name, row in rows.items():
            described = row.to_json()
            owner = words.owner_of(table, name)
            if owner:
                described["extension"] = owner
            if table == "messages" and name in CAPITALIZED:
                described["capital"] = True  # whatever fills it, a host writes a capital first
            out.append(described)
        return out

    return {
        "schema_version": SCHEMA_VERSION,
        "api_version": API_VERSION,
        "extensions": [ext.to_json() for ext in words.extensions.values()],
        "formats": {"battle": BATTLE_FORMAT, "library": LIBRARY_FORMAT},
        "modes": [facts.to_json() for facts in MODE_FACTS.values()],
        "mode_names": {name: mode.value for name, mode in MODE_NAMES.items()},
        "unit_sources": marked("unit_sources", words.unit_sources),
        "card_sources": marked("card_sources", words.card_sources),
        "node_groups": list(GROUPS),
        "node_types": [_node_type(words, spec) for spec in words.node_types.values()],
        "conditions": {
            "tests": marked("condition_tests", words.condition_tests),
            "measures": marked("measures", words.measures),
            "comparisons": list(COMPARISONS),
        },
        "filters": {
            "units": marked("unit_filters", words.unit_filters),
            "cards": marked("card_filters", words.card_filters),
        },
        "word_lists": [entry.to_json() for entry in WORD_LISTS.values()],
        "sorts": {
            "units": marked("unit_sorts", words.unit_sorts),
            "cards": marked("card_sorts", words.card_sorts),
        },
        "events": [_event(e) for e in words.events.values()],
        # what a host's typed objects mirror: each answer's shape, field by field with its type
        "shapes": [shape.to_json() for shape in SHAPES.values()],
        "scalar_types": list(SCALARS),
        # a host translates a said sentence by its English template (docs/translation.md)
        "messages": marked("messages", words.messages),
        "choices": [kind.to_json() for kind in words.choices.values()],
        "counters": [counter.to_json() for counter in words.counters.values()],
        "reasons": {"skipped": SKIP_REASONS, "lost": LOSS_REASONS, "failed": FAILURE_REASONS},
        "log_kinds": LINE_KINDS,
        "keywords": KEYWORDS,
        "piles": [pile.value for pile in PILES],
        "zones": [zone.value for zone in Zone],
        "status_hooks": list(HOOKS),
        "rules": [profile.value for profile in Rules],
    }


def _node_type(words: Vocabulary, spec: NodeType) -> dict[str, object]:
    out = spec.to_json()
    if spec.acts_on is not None:  # the sources its source field may name, extensions' too
        out["source"] = {"choices": list(words.sources_for(spec)), "overridden_by": "target"}
    describe = words.describe.get(spec.name)
    if describe is not None:
        out["describe"] = describe.to_json()
    return out


def _event(words: EventWords) -> dict[str, object]:
    out = words.spec.to_json()
    out["visibility"] = words.visibility.value
    if words.narration is not None:
        out["narration"] = words.narration.message.to_json()
        out["kind"] = words.narration.kind
    if words.owner:
        out["extension"] = words.owner
    return out
