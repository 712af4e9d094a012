"""A determinization (issue #28, item 1): one full battle rebuilt from one side's view and a
seed, consistent with the view, assuming of hidden cards only what ``deck_lists`` allows."""

from __future__ import annotations

import inspect
import json
import random
from collections import Counter
from typing import Any

import pytest

from pybridge.ai import apply_action, legal_actions
from pybridge.examples import demo_battle, rivals_battle
from pybridge.runtime import Battle, FormatError, canonical_json, dump_battle, load_battle
from pybridge.runtime.determinize import determinize, same_view
from pybridge.runtime.forecast import forecast_intents
from pybridge.runtime.model import Pile, Team
from pybridge.runtime.turns import start_battle
from pybridge.runtime.views import VIEWERS, current_alias, enable, state_view

SECRET = bytes(range(100, 132))


def opened(document: dict[str, Any], deck_lists: str | None = None) -> Battle:
    if deck_lists is not None:
        document = {**document, "deck_lists": deck_lists}
    battle = load_battle(document)
    enable(battle, SECRET)
    start_battle(battle)
    return battle


def walked(battle: Battle, rng: random.Random, steps: int) -> Battle:
    """``battle`` after up to ``steps`` random legal moves of whoever acts."""
    for _ in range(steps):
        moves = legal_actions(battle)
        if not moves:
            break
        apply_action(battle, rng.choice(moves))
    return battle


def positions(count: int, deck_lists: str | None = None) -> list[Battle]:
    rng = random.Random(count)
    out = []
    for index in range(count):
        document = rivals_battle() if index % 3 else demo_battle()
        out.append(walked(opened(document, deck_lists), rng, rng.randrange(0, 30)))
    return out


def backs(view: dict[str, Any], team: Team) -> set[str]:
    """The ids of ``team``'s cards the view shows only the backs of."""
    sides = view.get("sides") or [{**view, "team": "player"}]
    side = next(s for s in sides if s["team"] == team.value)
    return {e["id"] for pile in side["piles"].values() for e in pile if "card" not in e}


def true_hidden(battle: Battle, viewer: str, team: Team) -> Counter[str]:
    """The definitions of the cards behind those backs, in the true battle."""
    hidden = backs(state_view(battle, VIEWERS[viewer]), team)
    return Counter(battle.cards[c].card.id for c in battle.cards
                   if current_alias(battle, VIEWERS[viewer], c) in hidden)  # fmt: skip


def rebuilt_hidden(rebuilt: Battle, view: dict[str, Any], team: Team) -> Counter[str]:
    """The same in a rebuilt battle, whose instance ids are the view's."""
    return Counter(rebuilt.cards[c].card.id for c in backs(view, team))


@pytest.mark.parametrize("deck_lists", [None, "own", "public"])
def test_the_rebuilt_battle_shows_its_viewer_the_view_it_was_rebuilt_from(
    deck_lists: str | None,
) -> None:
    checked = 0
    for battle in positions(24, deck_lists):
        for name in ("player", "enemy", "spectator") if battle.two_sided else ("player",):
            view = state_view(battle, VIEWERS[name])
            for seed in (1, 2):
                rebuilt = determinize(view, seed)
                assert same_view(rebuilt, name, view), (name, seed)
                assert rebuilt.turn == battle.turn and rebuilt.turn_side is battle.turn_side
                checked += 1
    assert checked > 100


def test_a_view_that_differs_is_told_apart() -> None:
    """The comparison can fail: another position's view is not the rebuilt battle's."""
    battle = opened(rivals_battle())
    view = state_view(battle, VIEWERS["player"])
    rebuilt = determinize(view, 3)
    apply_action(battle, legal_actions(battle)[0])
    assert not same_view(rebuilt, "player", state_view(battle, VIEWERS["player"]))


def test_it_takes_the_view_not_the_battle() -> None:
    """Its only input of the battle is the view: two battles that differ only in cards the
    viewer cannot see give one view and so the same rebuilt battle."""
    assert list(inspect.signature(determinize).parameters) == ["view", "seed", "library", "words"]
    document = rivals_battle()
    other = json.loads(json.dumps(document))
    enemy = other["sides"][1]["piles"]
    enemy["hand"][0]["card"], enemy["draw"][0]["card"] = "mend", "rally"
    first, second = opened(document), opened(other)
    view = state_view(first, VIEWERS["player"])
    assert view == state_view(second, VIEWERS["player"])
    again = determinize(state_view(second, VIEWERS["player"]), 9)
    assert canonical_json(determinize(view, 9)) == canonical_json(again)
    with pytest.raises(FormatError, match="view"):
        determinize(dump_battle(first), 9)  # the battle itself is refused


def test_one_seed_gives_one_battle_and_seeds_vary_the_hidden_cards() -> None:
    view = state_view(opened(rivals_battle()), VIEWERS["player"])
    assert canonical_json(determinize(view, 5)) == canonical_json(determinize(view, 5))
    hands = {tuple(b.cards[c].card.id for c in b.side(Team.ENEMY).piles[Pile.HAND])
             for b in (determinize(view, seed) for seed in range(12))}  # fmt: skip
    assert len(hands) > 3


def test_a_known_deck_list_gives_exactly_the_cards_not_seen() -> None:
    """With public deck lists, each side's hidden cards are its list less what is seen: the
    true hidden cards, in some order. With hidden lists they are any of the battle's cards."""
    for battle in positions(12, "public"):
        for name in ("player", "enemy") if battle.two_sided else ("player",):
            view = state_view(battle, VIEWERS[name])
            rebuilt = determinize(view, 11)
            for team in battle.sides:
                assert rebuilt_hidden(rebuilt, view, team) == true_hidden(battle, name, team)
    battle = opened(rivals_battle())
    view = state_view(battle, VIEWERS["player"])
    assert "deck_list" not in view["sides"][0] and "deck_list" not in view["sides"][1]
    found: Counter[str] = Counter()
    for seed in range(10):
        found += rebuilt_hidden(determinize(view, seed), view, Team.ENEMY)
    assert set(found) <= set(battle.library) and len(found) == len(battle.library)


def test_own_deck_list_is_known_to_its_side_only() -> None:
    battle = opened(rivals_battle(), "own")
    mine = state_view(battle, VIEWERS["player"])
    assert "deck_list" in mine["sides"][0] and "deck_list" not in mine["sides"][1]
    assert len(mine["sides"][0]["deck_list"]) == 12
    assert "deck_list" not in state_view(battle, VIEWERS["spectator"])["sides"][0]
    rebuilt = determinize(mine, 4)
    assert rebuilt_hidden(rebuilt, mine, Team.PLAYER) == true_hidden(battle, "player", Team.PLAYER)


def test_the_document_key_is_saved_and_checked() -> None:
    document = {**rivals_battle(), "deck_lists": "public"}
    battle = load_battle(document)
    assert battle.deck_lists == "public" and dump_battle(battle)["deck_lists"] == "public"
    assert battle.clone().deck_lists == "public"
    assert "deck_lists" not in dump_battle(load_battle(rivals_battle()))
    with pytest.raises(FormatError, match="deck_lists"):
        load_battle({**rivals_battle(), "deck_lists": "everyone"})


def test_a_view_with_forecasts_is_rebuilt_too() -> None:
    """The protocol's views tell each intent's forecast beside it; a battle never holds one."""
    battle = opened(demo_battle())
    view = state_view(battle, VIEWERS["player"], forecast_intents(battle))
    assert any("forecast" in (u["intent"] or {}) for u in view["units"])
    rebuilt = determinize(view, 2)
    assert same_view(rebuilt, "player", state_view(battle, VIEWERS["player"]))
