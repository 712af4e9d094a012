"""Every headless player aims a card from one answer, :func:`pybridge.runtime.aims.aim_options`:
a card that chooses a card when it resolves (the duel's Salvage) is offered the cards it could
choose, and a card that needs several targets their combinations."""

from __future__ import annotations

import json
from pathlib import Path

from pybridge.ai.search import legal_actions
from pybridge.runtime import Pcg32, Pile, Team, load_battle, play, targets
from pybridge.runtime.aims import aim_options
from pybridge.runtime.model import Battle
from pybridge.runtime.turns import end_turn, start_battle
from pybridge.simulate.policies import legal_moves

DUEL = Path(__file__).resolve().parent.parent / "pybridge" / "examples" / "duel_battle.json"


def _duel_until(wanted: str) -> tuple[Battle, str]:
    """The duel played at random until card ``wanted`` is in hand and playable."""
    battle = load_battle(json.loads(DUEL.read_text("utf-8")))
    start_battle(battle)
    rng = Pcg32(7)
    for _turn in range(40):
        for _play in range(20):
            for card_id in battle.piles[Pile.HAND]:
                card = battle.cards[card_id]
                if card.card.id == wanted and targets(battle, card_id).playable:
                    return battle, card_id
            moves = legal_moves(battle)
            if not moves or battle.result is not None:
                break
            play(battle, *rng.choice(moves))
        assert battle.result is None, "the duel ended before the card could be played"
        end_turn(battle)
    raise AssertionError(f"{wanted} was never playable")


def test_a_card_choosing_a_card_on_resolve_is_offered_the_cards_it_may_choose() -> None:
    battle, salvage = _duel_until("salvage")
    late = targets(battle, salvage).late_choice
    assert late is not None and late.chooses == "cards" and late.candidates
    assert aim_options(battle, salvage) == list(late.candidates)
    assert all(battle.cards[c].card.type == "attack" for c in late.candidates)  # its filter
    assert [(salvage, c) for c in late.candidates] == [m for m in legal_moves(battle)
                                                        if m[0] == salvage]  # fmt: skip
    assert [("play", salvage, c) for c in late.candidates] == [
        a for a in legal_actions(battle) if a[1] == salvage
    ]
    moved = late.candidates[0]
    play(battle, salvage, moved)
    assert moved in battle.piles[Pile.HAND]


def test_a_card_needing_two_targets_is_offered_pairs_of_distinct_candidates() -> None:
    battle, twin = _duel_until("twin_shot")
    info = targets(battle, twin)
    aims = aim_options(battle, twin)
    assert aims and all(isinstance(a, list) and len(a) == 2 and a[0] != a[1] for a in aims)
    assert {u for a in aims if isinstance(a, list) for u in a} <= set(info.candidates)
    assert aim_options(battle, twin, limit=1) == aims[:1]


def test_a_card_that_cannot_be_played_is_offered_nothing() -> None:
    battle = load_battle(json.loads(DUEL.read_text("utf-8")))
    start_battle(battle)
    battle.side(Team.PLAYER).energy = 0
    assert all(aim_options(battle, c) == [] for c in battle.piles[Pile.HAND]
               if battle.cards[c].card.cost > 0)  # fmt: skip
