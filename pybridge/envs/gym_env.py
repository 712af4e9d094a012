"""A Gymnasium environment: one learner plays one side of a duel against a chosen policy.

Observations are the learner's own view as numbers (:mod:`.encoding`); ``info["action_mask"]``
(and :meth:`DuelEnv.action_masks`) gives the legal slots from the runtime's answers. A slot
with no legal move changes nothing and is told in ``info["illegal"]``. The reward is 1 for a
won game and -1 for a lost one, at its end; a game past ``MAX_TURNS`` turns is truncated.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, SupportsFloat

import gymnasium as gym
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from ..ai.match import Controller, controller_named
from ..examples import rivals_battle
from ..runtime import Pcg32, Team
from .encoding import BOUND
from .game import DuelGame

Observation = npt.NDArray[np.float32]
#: Moves the other side may make in a row before the learner's turn (a safety net).
_MOST_REPLIES = 500


class DuelEnv(gym.Env[Observation, np.int64]):
    """The learner is ``side`` (``player`` or ``enemy``) of ``document`` (the rivals duel by
    default); ``opponent`` plays the other side: ``random``, ``greedy`` or ``ai:N`` (as
    :func:`pybridge.ai.match.controller_named` reads it), or a controller taking the battle
    and a PRNG."""

    metadata = {"render_modes": []}  # noqa: RUF012 (gymnasium's own attribute)

    def __init__(self, document: Mapping[str, Any] | None = None, opponent: str | Controller =
                 "random", side: str = "player") -> None:  # fmt: skip
        self.document = dict(document or rivals_battle())
        self.opponent = controller_named(opponent) if isinstance(opponent, str) else opponent
        self.side = Team(side)
        self.game = DuelGame(self.document, 0)
        encoding = self.game.encoding
        self.observation_space = spaces.Box(-BOUND, BOUND, (encoding.size,), np.float32)
        self.action_space = spaces.Discrete(encoding.actions)
        self._rng = Pcg32(0, 0x6E7)

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[Observation, dict[str, Any]]:  # fmt: skip
        super().reset(seed=seed)
        game_seed = int(self.np_random.integers(0, 2**32))
        self.game = DuelGame(self.document, game_seed)
        self._rng = Pcg32(game_seed, 0x6E7)
        self._reply()
        return self.game.observe(self.side), self._info()

    def step(self, action: np.int64 | int
             ) -> tuple[Observation, SupportsFloat, bool, bool, dict[str, Any]]:  # fmt: skip
        made = self.game.move(int(action))
        if made:
            self._reply()
        info = self._info()
        info["illegal"] = not made
        terminated, truncated = self.game.over, self.game.cut_short
        reward = self.game.reward(self.side)
        return self.game.observe(self.side), reward, terminated, truncated, info

    @property
    def sizes(self) -> tuple[int, int]:
        """The observation's length and the number of action slots."""
        return self.game.encoding.size, self.game.encoding.actions

    def action_masks(self) -> npt.NDArray[np.int8]:
        return self.game.mask(self.side)

    def _reply(self) -> None:
        """The other side moves until it is the learner's move or the game ends."""
        for _ in range(_MOST_REPLIES):
            if self.game.over or self.game.cut_short or self.game.acting is self.side:
                return
            self.game.make(self.opponent(self.game.battle, self._rng))
        raise RuntimeError("the opponent made 500 moves in a row")

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self.game.mask(self.side), "turn": self.game.battle.turn}
