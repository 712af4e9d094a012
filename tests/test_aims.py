"""Every headless player aims a card from one answer, :func:`pybridge.runtime.aims.aim_options`:
a card that chooses a card when it resolves (the duel's Salvage) is offered the cards it could
choose, and a card that needs several targets their combinations."""

from __future__ import annotations

import json
from pathlib import Path

from pybridge.ai.search import legal_actions
from pybridge.runtime import Pcg32, Pile, PlayError, Team, load_battle, play, targets
from pybridge.runtime.aims import aim_options, arrow_targets
from pybridge.runtime.model import Battle
from pybridge.runtime.play import affordable, needed_targets
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


def _demo_states() -> list[Battle]:
    """The demo battle at many moments of random play (hands, deaths, statuses, energy)."""
    from pybridge.examples import demo_battle
    from pybridge.simulate.policies import RandomPolicy

    states = []
    for seed in range(6):
        battle = load_battle(demo_battle())
        start_battle(battle)
        policy, rng = RandomPolicy(), Pcg32(seed, 9)
        for _turn in range(12):
            for _play in range(6):
                if battle.result is not None:
                    break
                states.append(battle.clone())
                move = next(iter(policy.moves(battle, rng)), None)
                if move is None:
                    break
                try:
                    play(battle, *move)
                except PlayError:
                    break
            if battle.result is not None:
                break
            end_turn(battle)
    return [*states, _duel_until("twin_shot")[0]]  # a card that needs two targets


def test_the_random_player_draws_from_the_answers_targets_gives() -> None:
    """``arrow_targets`` (what simulate's random player aims from) is ``targets``'s candidates
    with ``needed_targets``'s count, and ``affordable`` is ``targets``'s energy refusal, in
    every state: the player asks the runtime's answers, not copies of them."""
    checked = refused = several = 0
    for battle in _demo_states():
        for card_id in battle.piles[Pile.HAND]:
            card = battle.cards[card_id]
            info = targets(battle, card_id)
            # The rule: a card that costs more than its side's energy left is refused.
            assert affordable(battle, card) is (card.card.cost <= battle.side(card.side).energy)
            code = None if info.refusal is None else info.refusal.code
            if code in (None, "energy"):  # (a fallen member is refused before its energy)
                assert affordable(battle, card) is (code is None)
                refused += code == "energy"
            if not info.requires_target:
                continue
            pool, count = arrow_targets(battle, card)
            assert tuple(u.id for u in pool) == info.candidates
            expected = needed_targets(card.card, len(pool), battle.rules) if pool else 0
            assert count == expected and (count == 0) is (not info.candidates)
            if count > 1:  # the pairs aim_options offers are drawn from the same pool
                aims = aim_options(battle, card_id)
                assert all(isinstance(aim, list) and len(aim) == count for aim in aims)
                several += 1
            checked += 1
    assert checked > 100 and refused > 10 and several  # the states cover every answer


def test_a_card_whose_member_is_down_has_nothing_to_aim_at() -> None:
    from pybridge.examples import demo_battle

    battle = load_battle(demo_battle())
    start_battle(battle)
    aimed = next(c for c in battle.cards.values() if c.card.target.requires_target)
    source = battle.unit(aimed.owner or battle.active_player)
    assert source is not None and arrow_targets(battle, aimed)[1] >= 1
    source.hp = 0
    assert arrow_targets(battle, aimed) == ([], 0)
