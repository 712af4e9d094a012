"""Custom policies the simulate tests name on the command line (``module:attribute``)."""

from __future__ import annotations

from collections.abc import Iterator

from pybridge.runtime import Battle, Pcg32, Pile
from pybridge.simulate.policies import Move, legal_moves


class FirstLegal:
    """The first legal play in hand order (a class: a fresh object plays each battle)."""

    def moves(self, battle: Battle, rng: Pcg32) -> list[Move]:
        return legal_moves(battle)[:1]


def only_strikes(battle: Battle, rng: Pcg32) -> Iterator[Move]:
    """A function policy: Strikes only, at each enemy in turn, without checking anything
    (dead enemies, no energy left): the runtime refuses what is illegal."""
    for card_id in battle.piles[Pile.HAND]:
        if battle.cards[card_id].card.id == "strike":
            for enemy in ("goblin", "orc", "shaman"):
                yield card_id, enemy


class BreaksOnTurnTwo:
    """Raises on the second turn, after having played a card."""

    def moves(self, battle: Battle, rng: Pcg32) -> list[Move]:
        if battle.turn >= 2:
            raise RuntimeError("policy bug on purpose")
        return legal_moves(battle)[:1]


NOT_A_POLICY = 42
