"""Numbers for learners: one side's view as a fixed-length vector, and its legal moves as a
mask over a fixed set of action slots.

The observation is read from the viewer's own view (:func:`pybridge.runtime.views.state_view`)
and nothing else, so a learner sees what a player sees. The mask comes from the runtime's
legal answers (:func:`pybridge.ai.search.legal_actions`), as the aiming arrow's do.

Action slots, for a battle with ``U`` units: slot 0 ends the turn, or passes on the Cut; slot
``1 + h * (1 + U) + t`` plays (or, on the Cut, activates) the card at position ``h`` of the
side's hand, at no target (``t`` 0) or at unit ``t - 1`` in the battle's unit order. A card
that chooses several targets, or a card, offers its first aim the runtime lists at ``t`` 0.
Cards past position ``MAX_HAND - 1`` of the hand cannot be played through the slots.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from ..ai.search import Action, legal_actions
from ..runtime import Battle, Pile, Team
from ..runtime.cut_answers import acting_side

#: The hand positions the action slots reach.
MAX_HAND = 10
#: Every feature lies in [-BOUND, BOUND] (clipped: a unit with 400 hit points stays in).
BOUND = 10.0
#: Scales that keep every feature about in [0, 1] for the demo's numbers.
_HP, _ENERGY, _TURN, _COUNT, _PILE, _STATUS, _CUT = 40.0, 10.0, 30.0, 5.0, 20.0, 10.0, 8.0


@dataclass(frozen=True)
class Encoding:
    """What a battle document's vectors are made of: its units, card definitions and
    statuses, in document order (the same for every game started from that document)."""

    units: tuple[str, ...]
    cards: tuple[str, ...]
    statuses: tuple[str, ...]

    @classmethod
    def of(cls, document: Mapping[str, Any]) -> Encoding:
        return cls(
            units=tuple(str(u["id"]) for u in document["units"]),
            cards=tuple(str(c["id"]) for c in document["cards"]),
            statuses=tuple(sorted(str(s["id"]) for s in document.get("statuses", []))),
        )

    # -- actions ---------------------------------------------------------------------------
    @property
    def actions(self) -> int:
        return 1 + MAX_HAND * (1 + len(self.units))

    def slots(self, battle: Battle) -> dict[int, Action]:
        """The acting side's legal moves by slot (the first move the runtime lists wins a
        slot two moves would share)."""
        hand = battle.side(acting_side(battle)).piles[Pile.HAND]
        found: dict[int, Action] = {}
        for action in legal_actions(battle):
            _, card, target = action
            if card is None:
                found.setdefault(0, action)
                continue
            position = hand.index(card)
            if position >= MAX_HAND:
                continue
            unit = isinstance(target, str) and target in self.units
            aim = self.units.index(target) + 1 if unit else 0
            found.setdefault(1 + position * (1 + len(self.units)) + aim, action)
        return found

    def mask(self, slots: Mapping[int, Action]) -> npt.NDArray[np.int8]:
        mask = np.zeros(self.actions, dtype=np.int8)
        mask[list(slots)] = 1
        return mask

    # -- observations ----------------------------------------------------------------------
    @property
    def size(self) -> int:
        per_unit = 4 + len(self.statuses)
        return len(self.units) * per_unit + 8 + 5 * len(self.cards)

    def observe(self, view: Mapping[str, Any]) -> npt.NDArray[np.float32]:
        """The vector of one viewer's view, from that viewer's seat: its own side first."""
        me = str(view["view"]["viewer"])
        sides = {str(s["team"]): s for s in view["sides"]}
        mine, theirs = sides[me], sides[Team(me).opposite.value]
        out: list[float] = []
        units = {str(u["id"]): u for u in view["units"]}
        for unit_id in self.units:
            unit = units[unit_id]
            alive = unit["zone"] == "field" and unit["hp"] > 0
            out += [float(alive), unit["hp"] / _HP, unit["armor"] / _HP,
                    float(unit["team"] == me)]  # fmt: skip
            out += [unit["statuses"].get(s, 0) / _STATUS for s in self.statuses]
        cut = view["cut"]
        out += [mine["energy"] / _ENERGY, theirs["energy"] / _ENERGY, view["turn"] / _TURN,
                float(view["turn_side"] == me), len(cut) / _CUT,
                float(bool(cut) and cut[-1].get("side") == me),
                len(theirs["piles"]["hand"]) / _PILE,
                len(mine["piles"]["draw"]) / _PILE]  # fmt: skip
        out += self._counts(mine["piles"]["hand"])
        out += self._counts(mine["piles"]["discard"])
        out += self._counts(theirs["piles"]["discard"])
        out += self._counts([e["card"] for e in cut if e.get("side") == me and e.get("card")])
        out += self._counts([e["card"] for e in cut if e.get("side") != me and e.get("card")])
        return np.clip(np.asarray(out, dtype=np.float32), -BOUND, BOUND)

    def _counts(self, cards: Sequence[Mapping[str, Any]]) -> list[float]:
        """How many of each card definition a list shows face up (card backs count none)."""
        counts = dict.fromkeys(self.cards, 0)
        for card in cards:
            name = card.get("card")
            if name in counts:
                counts[name] += 1
        return [counts[c] / _COUNT for c in self.cards]
