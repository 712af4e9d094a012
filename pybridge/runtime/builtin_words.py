"""The built-in vocabulary put together: the graph's grammar (:mod:`.nodes`) and the built-in
words, which :mod:`pybridge.words` declares through the extension API as any game would."""

from __future__ import annotations

from .nodes import CALL, GRAMMAR
from .vocabulary import API_VERSION, BUILT_IN, Extension, Vocabulary

#: Who declares the built-in words: no extension (``""``).
CORE = Extension(BUILT_IN, API_VERSION, "the built-in vocabulary")


def build() -> Vocabulary:
    """A sealed vocabulary of the grammar and the built-in words."""
    from pybridge import words
    from pybridge.extend import Words

    vocabulary = Vocabulary()
    for spec in GRAMMAR:
        vocabulary.add_node_type(spec)
    words.register(Words(vocabulary, CORE))
    vocabulary.add_node_type(CALL)
    return vocabulary.seal()
