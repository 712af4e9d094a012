"""The built-in vocabulary, registered the way an extension registers its words.

Each built-in table (node types, sources, conditions, filters, sorts, events) is registered
row by row into the vocabulary it is given; :data:`.vocabulary.BUILTIN` is the result.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .conditions import CONDITION_TESTS, MEASURES
from .events import EVENTS
from .filters import CARD_FILTERS, CARD_SORTS, UNIT_FILTERS, UNIT_SORTS
from .nodes import NODE_TYPES
from .sources import CARD_SOURCES, UNIT_SOURCES

if TYPE_CHECKING:
    from .vocabulary import Vocabulary


def register(words: Vocabulary) -> None:
    for node_type in NODE_TYPES.values():
        words.add_node_type(node_type)
    for unit_source in UNIT_SOURCES.values():
        words.add_unit_source(unit_source)
    for card_source in CARD_SOURCES.values():
        words.add_card_source(card_source)
    for test in CONDITION_TESTS.values():
        words.add_condition_test(test)
    for measure in MEASURES.values():
        words.add_measure(measure)
    for key in UNIT_FILTERS.values():
        words.add_filter(key, "units")
    for key in CARD_FILTERS.values():
        words.add_filter(key, "cards")
    for sort in UNIT_SORTS.values():
        words.add_sort(sort, "units")
    for sort in CARD_SORTS.values():
        words.add_sort(sort, "cards")
    for event in EVENTS.values():
        words.add_event(event, None)
