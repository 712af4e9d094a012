"""Learning environments (issue #28, item 4): the Gymnasium and PettingZoo environments pass
their libraries' own checkers, their masks are the runtime's legal answers, their
observations never tell a side what it cannot see, and the NumPy learner beats random."""

from __future__ import annotations

import copy
import random
import warnings
from typing import Any

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test

from pybridge.ai.search import legal_actions
from pybridge.envs import MAX_HAND, DuelAEC, DuelEnv
from pybridge.envs.game import DuelGame
from pybridge.envs.train import LinearPolicy, train, win_rate
from pybridge.examples import rivals_battle
from pybridge.runtime import Pile, Team
from pybridge.runtime.cut_answers import acting_side


def test_the_gymnasium_environment_passes_its_checker() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the checker warns of what it finds doubtful
        check_env(DuelEnv(), skip_render_check=True)
        check_env(DuelEnv(opponent="greedy", side="enemy"), skip_render_check=True)


def test_the_pettingzoo_environment_passes_its_api_test() -> None:
    api_test(DuelAEC(), num_cycles=300, verbose_progress=False)


def test_every_slot_is_a_legal_move_and_every_legal_card_has_a_slot() -> None:
    rng = random.Random(28)
    for game_seed in range(6):
        game = DuelGame(rivals_battle(), game_seed)
        for _ in range(300):
            if game.over or game.cut_short:
                break
            legal = legal_actions(game.battle)
            assert all(action in legal for action in game.slots.values())
            hand = game.battle.side(acting_side(game.battle)).piles[Pile.HAND]
            cards = {card for _, card, _ in legal if card is not None}
            slotted = {card for _, card, _ in game.slots.values()}
            assert {c for c in cards if hand.index(c) < MAX_HAND} <= slotted
            assert (0 in game.slots) == any(card is None for _, card, _ in legal)
            mask = game.mask(game.acting)
            assert sorted(np.flatnonzero(mask)) == sorted(game.slots)
            assert not game.mask(game.acting.opposite).any()
            assert game.move(rng.choice(sorted(game.slots)))
        assert game.over or game.cut_short


def test_a_slot_with_no_legal_move_changes_nothing() -> None:
    env = DuelEnv()
    observation, info = env.reset(seed=3)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    before = copy.deepcopy(env.game.battle.side(Team.PLAYER).piles)
    again, reward, terminated, truncated, info = env.step(illegal)
    assert info["illegal"] and reward == 0 and not terminated and not truncated
    assert np.array_equal(again, observation)
    assert env.game.battle.side(Team.PLAYER).piles == before


def _rival_cards_changed(document: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    other = copy.deepcopy(document)
    names = [c["id"] for c in other["cards"]]
    rival = next(s for s in other["sides"] if s["team"] == "enemy")
    for pile in ("hand", "draw"):
        for card in rival["piles"][pile]:
            card["card"] = rng.choice(names)
            card.pop("owner", None)
    return other


def _rival_deck(game: DuelGame) -> list[str]:
    piles = game.battle.side(Team.ENEMY).piles
    return [game.battle.cards[c].card.id for pile in piles.values() for c in pile]


def test_observations_never_tell_the_player_the_rivals_hidden_cards() -> None:
    """Two games that differ only in the rival's hand and draw pile, the rival only passing
    and ending its turns (so none of its cards is ever shown): the player's observation and
    mask are the same at every step of the whole game."""
    rng = random.Random(7)
    for seed in range(4):
        one = DuelGame(rivals_battle(), seed)
        other = DuelGame(_rival_cards_changed(rivals_battle(), rng), seed)
        assert _rival_deck(one) != _rival_deck(other)
        steps = 0
        while not (one.over or one.cut_short):
            assert np.array_equal(one.observe(Team.PLAYER), other.observe(Team.PLAYER))
            assert np.array_equal(one.mask(Team.PLAYER), other.mask(Team.PLAYER))
            assert one.acting is other.acting
            slot = 0 if one.acting is Team.ENEMY else max(one.slots)
            assert one.move(slot) and other.move(slot)
            steps += 1
        assert other.over == one.over and steps > 10


def test_the_numpy_learner_beats_random() -> None:
    untrained = win_rate(LinearPolicy.zero(*DuelEnv().sizes), 60, seed=1)
    policy, _ = train(120, seed=1)
    trained = win_rate(policy, 60, seed=1)
    assert trained > untrained + 0.15, (untrained, trained)


@pytest.mark.parametrize("opponent", ["random", "greedy", "ai:4"])
def test_a_game_against_each_opponent_ends(opponent: str) -> None:
    env = DuelEnv(opponent=opponent)
    _, info = env.reset(seed=11)
    for _ in range(400):
        action = int(np.flatnonzero(info["action_mask"])[0])
        _, reward, terminated, truncated, info = env.step(action)
        if terminated or truncated:
            assert reward in (-1.0, 0.0, 1.0)
            return
    raise AssertionError("the game did not end")
