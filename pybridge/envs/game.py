"""One game of a two-sided battle as both environments run it: started from a document and
a seed, moved by slot, read by each side through its own view only."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import numpy.typing as npt

from ..ai.search import Action, apply_action
from ..runtime import Battle, Pcg32, Team, load_battle
from ..runtime.choices import DEFAULT_ANSWERS
from ..runtime.cut_answers import acting_side
from ..runtime.turns import start_battle
from ..runtime.views import VIEWERS, enable, state_view
from .encoding import Encoding

#: A game still going after this many turns is cut short (truncated, a draw).
MAX_TURNS = 30
#: The PRNG stream a game's view secret is drawn from (never shown to a learner).
_SECRET_STREAM = 0x5EC7


class DuelGame:
    """The authority of one game: the battle, which no learner reads, and what each side may
    know of it."""

    def __init__(self, document: Mapping[str, Any], seed: int) -> None:
        self.encoding = Encoding.of(document)
        self.battle: Battle = load_battle({**document, "seed": seed})
        self.battle.answers = DEFAULT_ANSWERS  # a choice an action asks takes its default
        secret = Pcg32(seed, _SECRET_STREAM)
        enable(self.battle, b"".join(secret.next_u32().to_bytes(4, "big") for _ in range(8)))
        start_battle(self.battle)
        self.slots: dict[int, Action] = self.encoding.slots(self.battle)

    @property
    def acting(self) -> Team:
        return acting_side(self.battle)

    @property
    def over(self) -> bool:
        return self.battle.result is not None

    @property
    def cut_short(self) -> bool:
        return not self.over and self.battle.turn > MAX_TURNS

    def reward(self, team: Team) -> float:
        """1 for a won game, -1 for a lost one, 0 while it goes on or ends in a draw."""
        if self.battle.result is None:
            return 0.0
        won = self.battle.result == "victory"
        return 1.0 if won == (team is Team.PLAYER) else -1.0

    def view(self, team: Team) -> dict[str, Any]:
        return state_view(self.battle, VIEWERS[team.value])

    def observe(self, team: Team) -> npt.NDArray[np.float32]:
        return self.encoding.observe(self.view(team))

    def mask(self, team: Team) -> npt.NDArray[np.int8]:
        """The acting side's legal slots; nothing for the side that waits."""
        if team is not self.acting or self.over:
            return np.zeros(self.encoding.actions, dtype=np.int8)
        return self.encoding.mask(self.slots)

    def move(self, slot: int) -> bool:
        """Make the acting side's move in ``slot``; False (nothing changed) when the slot
        holds no legal move."""
        action = self.slots.get(int(slot))
        if action is None or self.over:
            return False
        self.make(action)
        return True

    def make(self, action: Action) -> None:
        """Make a move given as the runtime takes it (an opponent's controller's)."""
        apply_action(self.battle, action)
        self.slots = {} if self.over else self.encoding.slots(self.battle)
