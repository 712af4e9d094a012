"""The search AI in matches (issue #28, item 3): the ``ai`` policy of ``pybridge simulate``
on the demo encounters, and short rivals duels against the baselines (a smoke run at a
small budget: the strength table is measured outside the tests, see docs/ai.md)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pybridge.ai.match import (
    ai_controller,
    greedy_controller,
    iterations_within,
    main,
    match,
    play_duel,
    random_controller,
)
from pybridge.cli import main as pybridge_main
from pybridge.examples import rivals_battle
from pybridge.simulate.policies import AiPolicy, PolicyError, load_policy


def test_the_ai_policy_is_named_with_its_budget() -> None:
    policy = load_policy("ai@7")
    assert isinstance(policy, AiPolicy) and policy.iterations == 7
    assert isinstance(load_policy("ai"), AiPolicy)
    with pytest.raises(PolicyError):
        load_policy("ai@0")


def test_simulate_plays_the_demo_encounters_with_the_ai(tmp_path: Path) -> None:
    code = pybridge_main(["simulate", "--no-progress", "--no-report", "--out", str(tmp_path),
                          "--policy", "ai", "--ai-iterations", "3", "--battles", "1",
                          "--workers", "1", "--max-turns", "6"])  # fmt: skip
    data = json.loads((tmp_path / "results.json").read_text("utf-8"))
    assert code == 0 and data["complete"] and data["policy"] == "ai@3"
    assert data["battles_played"] == 3 and not data["problems"]
    assert sum(e["tally"]["plays"] for e in data["encounters"].values()) > 0
    refused = pybridge_main(["simulate", "--no-progress", "--out", str(tmp_path),
                             "--policy", "random", "--ai-iterations", "3"])  # fmt: skip
    assert refused == 2


def test_a_duel_game_repeats_from_its_seed_and_ends() -> None:
    ai = ai_controller(3)
    first = [play_duel(rivals_battle(), seed, ai, random_controller, 8) for seed in range(2)]
    again = [play_duel(rivals_battle(), seed, ai, random_controller, 8) for seed in range(2)]
    assert first == again and set(first) <= {"victory", "defeat", "draw"}


def test_a_match_swaps_sides_and_counts_every_game() -> None:
    result = match(greedy_controller, random_controller, 4, seed=3)
    assert result.wins + result.losses + result.draws == 4
    low, high = result.interval
    assert 0.0 <= low <= result.wins / 4 <= high <= 1.0


def test_the_bench_and_the_command_answer(capsys: pytest.CaptureFixture[str]) -> None:
    assert iterations_within(0.2, budget=4, repeats=1) >= 1
    assert main(["--games", "2", "--iterations", "2", "--bench-ms", "0",
                 "--against", "random"]) == 0  # fmt: skip
    assert "of 2; win rate" in capsys.readouterr().out
