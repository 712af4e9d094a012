"""The search AI (issue #28, item 2): it decides from its own view only, makes only the
runtime's legal moves, and one seed and one budget give one decision everywhere."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from pybridge.ai import Action, Decision, apply_action, decide, legal_actions, seat_move
from pybridge.examples import demo_battle, duel_battle, rivals_battle
from pybridge.runtime import Battle, Pile, PlayError, Team, load_battle
from pybridge.runtime.turns import start_battle
from pybridge.runtime.views import VIEWERS, enable, state_view

SECRET = bytes(range(7, 39))
ROOT = Path(__file__).resolve().parent.parent


def opened(document: dict[str, Any]) -> Battle:
    battle = load_battle(document)
    enable(battle, SECRET)
    start_battle(battle)
    return battle


def ai_move(battle: Battle, seed: int, iterations: int) -> tuple[Decision, Action]:
    """The acting side's decision from its view, and that move in the battle's own ids."""
    return seat_move(battle, seed, iterations)


def test_it_only_ever_makes_legal_moves() -> None:
    """Over many random positions of the rivals duel, the demo encounter and the one-sided
    duel (the strict law, late choices), the move it picks is one the runtime lists as legal
    in the true battle, and the runtime accepts it."""
    rng = random.Random(28)
    kinds: set[str] = set()
    documents = [demo_battle, duel_battle, rivals_battle, rivals_battle]
    for index in range(48):
        battle = opened(documents[index % 4]())
        for _ in range(rng.randrange(0, 40)):
            moves = legal_actions(battle)
            if not moves:
                break
            apply_action(battle, rng.choice(moves))
        if battle.result is not None:
            continue
        decision, move = ai_move(battle, index, 6)
        assert move in legal_actions(battle), (index, decision)
        try:
            apply_action(battle, move)
        except PlayError as exc:  # pragma: no cover - the assertion names the position
            pytest.fail(f"position {index}: {decision} refused: {exc}")
        kinds.add(decision.kind)
    assert {"play", "end_turn"} <= kinds


def test_it_answers_on_the_cut_and_passes() -> None:
    """On the other side's entry it chooses between a response and a pass, both legal."""
    battle = opened(rivals_battle())
    apply_action(battle, ("end_turn", None, None))
    strike = next(c for c in battle.side(Team.ENEMY).piles[Pile.HAND]
                  if battle.cards[c].card.id == "strike")  # fmt: skip
    apply_action(battle, ("activate", strike, "aya"))  # Vex's Strike, waiting on the Cut
    kinds = {ai_move(battle, seed, 12)[1][0] for seed in range(6)}
    assert kinds <= {"activate", "pass"} and kinds
    assert all(m[0] in ("activate", "pass") for m in legal_actions(battle))
    assert any(m[0] == "activate" for m in legal_actions(battle))  # Aya's Countermand


def test_it_never_peeks() -> None:
    """Two battles that differ only in cards the AI cannot see (the other side's hand and
    both draw piles) give the same decision, for the same seed and budget."""
    document = rivals_battle()
    other = json.loads(json.dumps(document))
    enemy, own = other["sides"][1]["piles"], other["sides"][0]["piles"]
    for entry, card in zip(enemy["hand"], ["mend", "mend", "barrage", "barrage", "guard"],
                           strict=True):  # fmt: skip
        entry["card"] = card
        entry.pop("owner", None)
    own["draw"][0]["card"] = enemy["draw"][0]["card"] = "rally"
    first, second = opened(document), opened(other)
    for seed in range(4):
        assert ai_move(first, seed, 30)[0] == ai_move(second, seed, 30)[0]
    # ... and the enemy, deciding in its turn, does not see the player's hand either.
    for battle in (first, second):
        apply_action(battle, ("end_turn", None, None))
    changed = json.loads(json.dumps(document))
    changed["sides"][0]["piles"]["hand"][1]["card"] = "mend"
    third = opened(changed)
    apply_action(third, ("end_turn", None, None))
    assert ai_move(first, 3, 30)[0] == ai_move(third, 3, 30)[0]


def test_what_it_sees_matters() -> None:
    """The test above can fail: with both rivals nearly down, it finds the Barrage that wins
    at once (a position it sees)."""
    document = rivals_battle()
    for unit in document["units"]:
        if unit["team"] == "enemy":
            unit["hp"] = 3
    battle = opened(document)
    decision, move = ai_move(battle, 1, 60)
    kind, card, _ = move
    assert kind == "play" and card is not None, decision
    assert battle.cards[card].card.id == "barrage", decision
    apply_action(battle, move)
    assert battle.result == "victory"


def test_its_first_iterations_try_the_best_move_one_ahead() -> None:
    """The root's prior (each move judged one move ahead on the first sample) orders what the
    first iterations try, so even a budget of one or two iterations takes the Barrage that
    wins at once; tried in a random order, as before the prior, most seeds missed it."""
    document = rivals_battle()
    for unit in document["units"]:
        if unit["team"] == "enemy":
            unit["hp"] = 3
    battle = opened(document)
    for seed in range(6):
        for iterations in (1, 2):
            decision, (kind, card, _) = ai_move(battle, seed, iterations)
            assert kind == "play" and card is not None, decision
            assert battle.cards[card].card.id == "barrage", (seed, iterations, decision)


def test_one_seed_and_budget_give_one_decision_in_any_process() -> None:
    battle = opened(rivals_battle())
    view = state_view(battle, VIEWERS["player"])
    here = decide(view, 42, 25).to_json()
    assert decide(view, 42, 25).to_json() == here
    script = "\n".join(["import json, sys", "from pybridge.ai import decide",
                         "view = json.load(sys.stdin)",
                         "print(json.dumps(decide(view, 42, 25).to_json()))"])  # fmt: skip
    for hash_seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        out = subprocess.run([sys.executable, "-c", script], input=json.dumps(view), env=env,
                             capture_output=True, text=True, check=True, cwd=ROOT)  # fmt: skip
        assert json.loads(out.stdout) == here


def test_it_refuses_to_move_out_of_turn() -> None:
    battle = opened(rivals_battle())
    with pytest.raises(ValueError, match="player side's move"):
        decide(state_view(battle, VIEWERS["enemy"]), 1, 5)
    with pytest.raises(ValueError, match="iterations"):
        decide(state_view(battle, VIEWERS["player"]), 1, 0)
