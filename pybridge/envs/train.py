"""A learner in under two minutes of CPU, NumPy only (``python -m pybridge.envs.train``):
a linear softmax policy over the legal slots, trained by REINFORCE against the random
policy, then played against it on games it never trained on, beside an untrained one.

The policy scores slot ``a`` of observation ``x`` as ``W[a] · x + b[a]`` and picks among the
legal slots only; each finished game moves every choice's log-probability by the game's
result less a running mean (the baseline)."""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from .gym_env import DuelEnv

Vector = npt.NDArray[np.float64]


@dataclass
class Policy:
    weights: Vector
    bias: Vector

    @classmethod
    def zero(cls, observations: int, actions: int) -> Policy:
        return cls(np.zeros((actions, observations)), np.zeros(actions))

    def probabilities(self, observation: Vector, mask: npt.NDArray[np.int8]) -> Vector:
        logits = self.weights @ observation + self.bias
        logits = np.where(mask > 0, logits, -np.inf)
        logits -= logits.max()
        odds = np.exp(logits)
        return odds / odds.sum()  # type: ignore[no-any-return]


def play(env: DuelEnv, policy: Policy, rng: np.random.Generator, seed: int, learn: bool
         ) -> tuple[float, list[tuple[Vector, npt.NDArray[np.int8], int]]]:  # fmt: skip
    """One game: its result for the learner and, with ``learn``, every choice it made."""
    observation, info = env.reset(seed=seed)
    choices: list[tuple[Vector, npt.NDArray[np.int8], int]] = []
    while True:
        x = observation.astype(np.float64)
        mask = info["action_mask"]
        odds = policy.probabilities(x, mask)
        action = int(rng.choice(len(odds), p=odds))
        if learn:
            choices.append((x, mask, action))
        observation, reward, terminated, truncated, info = env.step(action)
        if terminated or truncated:
            return float(reward), choices


def train(games: int, rate: float = 0.05, seed: int = 0) -> tuple[Policy, float]:
    env = DuelEnv(opponent="random")
    policy = Policy.zero(*env.sizes)
    rng = np.random.default_rng(seed)
    baseline = 0.0
    started = time.process_time()
    for game in range(games):
        result, choices = play(env, policy, rng, seed * 1_000_003 + game, learn=True)
        advantage = result - baseline
        baseline += 0.05 * (result - baseline)
        for x, mask, action in choices:
            odds = policy.probabilities(x, mask)
            grad = -odds
            grad[action] += 1.0  # d log p(action) / d logits
            policy.weights += rate * advantage * np.outer(grad, x)
            policy.bias += rate * advantage * grad
    return policy, time.process_time() - started


def win_rate(policy: Policy, games: int, seed: int) -> float:
    env = DuelEnv(opponent="random")
    rng = np.random.default_rng(seed)
    wins = sum(play(env, policy, rng, 10**9 + seed * 7919 + g, learn=False)[0] > 0
               for g in range(games))  # fmt: skip
    return wins / games


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m pybridge.envs.train", description=__doc__)
    parser.add_argument("--games", type=int, default=600, help="training games")
    parser.add_argument("--eval", type=int, default=300, help="evaluation games each")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    untrained = Policy.zero(*DuelEnv().sizes)
    before = win_rate(untrained, args.eval, args.seed)
    policy, seconds = train(args.games, seed=args.seed)
    after = win_rate(policy, args.eval, args.seed)
    print(f"trained on {args.games} games in {seconds:.1f} s of CPU")
    print(f"against random, on {args.eval} new games: untrained {before:.1%}, trained {after:.1%}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
