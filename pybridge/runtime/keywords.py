"""The card keywords the rules act on, with the words a player reads about them.

A card may carry any keyword (filters and conditions read them); these are the ones the
runtime itself gives a meaning. Hosts show the text as a tooltip (the protocol's ``schema``).
"""

from __future__ import annotations

from typing import Final

#: After it resolves, the card goes to the exhaust pile instead of the discard pile.
EXHAUST: Final = "Exhaust"
#: The card stays in the hand when the turn ends.
RETAIN: Final = "Retain"

KEYWORDS: dict[str, str] = {
    EXHAUST: "After it is played, this card goes to the exhaust pile, out of this battle.",
    RETAIN: "This card stays in your hand at the end of your turn.",
}
