"""A PettingZoo AEC environment: both sides of a duel are agents, each moving in its turn
and on the Cut when it has priority.

Each agent observes ``{"observation": its view as numbers, "action_mask": its legal slots}``
(the mask is all zeros for the agent that waits). A slot with no legal move changes nothing
and is told in ``infos[agent]["illegal"]``. At the end the winner gets 1 and the loser -1; a
game past ``MAX_TURNS`` turns is truncated for both.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from ..examples import rivals_battle
from ..runtime import Team
from .encoding import BOUND
from .game import Game

AGENTS = ["player", "enemy"]


class DuelAEC(AECEnv[str, dict[str, Any], int | None]):
    metadata: ClassVar[dict[str, Any]] = {"name": "pybridge_duel_v0", "render_modes": [],
                                          "is_parallelizable": False}  # fmt: skip

    def __init__(self, document: Mapping[str, Any] | None = None) -> None:
        super().__init__()
        self.document = dict(document or rivals_battle())
        self.possible_agents = list(AGENTS)
        self.game = Game(self.document, 0)
        encoding = self.game.encoding
        observation = spaces.Dict({
            "observation": spaces.Box(-BOUND, BOUND, (encoding.size,), np.float32),
            "action_mask": spaces.Box(0, 1, (encoding.actions,), np.int8),
        })  # fmt: skip
        self.observation_spaces = dict.fromkeys(AGENTS, observation)
        self.action_spaces: dict[str, spaces.Space[Any]] = {
            a: spaces.Discrete(encoding.actions) for a in AGENTS
        }
        self._seeds = np.random.default_rng()

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def observe(self, agent: str) -> dict[str, Any]:
        team = Team(agent)
        return {"observation": self.game.observe(team), "action_mask": self.game.mask(team)}

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._seeds = np.random.default_rng(seed)
        self.game = Game(self.document, int(self._seeds.integers(0, 2**32)))
        self.agents = list(AGENTS)
        self.rewards = dict.fromkeys(AGENTS, 0.0)
        self._cumulative_rewards = dict.fromkeys(AGENTS, 0.0)
        self.terminations = dict.fromkeys(AGENTS, False)
        self.truncations = dict.fromkeys(AGENTS, False)
        self.infos: dict[str, dict[str, Any]] = {a: {"illegal": False} for a in AGENTS}
        self.agent_selection = self.game.acting.value

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        made = action is not None and self.game.move(int(action))
        self.infos = {a: {"illegal": a == agent and not made} for a in self.agents}
        if self.game.over or self.game.cut_short:
            for name in self.agents:
                self.rewards[name] = self.game.reward(Team(name))
                self.terminations[name] = self.game.over
                self.truncations[name] = not self.game.over
            self.agent_selection = agent
        else:
            self.rewards = dict.fromkeys(self.agents, 0.0)
            self.agent_selection = self.game.acting.value
        self._accumulate_rewards()

    def render(self) -> None:
        return None

    def close(self) -> None:
        return None
