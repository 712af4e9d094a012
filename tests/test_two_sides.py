"""Two card-playing sides (issue #27, item 1): each side's own piles, energy and turn, the
turn passing between them, Host-relative sources following the side, priority on the Cut
alternating under the strict law, and the document that declares the sides."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from pybridge.examples import duel_battle, rivals_battle
from pybridge.protocol import Protocol
from pybridge.runtime import (
    Battle,
    FormatError,
    PlayError,
    Team,
    activate,
    canonical_json,
    dump_battle,
    load_battle,
    pass_priority,
    play,
    preview,
    targets,
)
from pybridge.runtime.cut import respond_move
from pybridge.runtime.cut_answers import awaiting, player_moves
from pybridge.runtime.model import Pile
from pybridge.runtime.turns import end_turn, end_turn_refused

PLAYER, ENEMY = Team.PLAYER, Team.ENEMY
HAND, DRAW, DISCARD = Pile.HAND, Pile.DRAW, Pile.DISCARD


def rivals() -> Battle:
    return load_battle(rivals_battle())


def discarding_rivals() -> Battle:
    """The rivals under the deckbuilder's rule: each side discards its hand at the end of its
    turn and draws 5 (the example, a card game, keeps its hands and draws 2)."""
    document = rivals_battle()
    for side in document["sides"]:
        side["hand_at_turn_end"], side["draw_per_turn"] = "discard", 5
    return load_battle(document)


def hand(battle: Battle, team: Team) -> list[str]:
    return list(battle.side(team).piles[HAND])


def reloaded(battle: Battle) -> Battle:
    return load_battle(json.loads(json.dumps(dump_battle(battle))))


# -- each side's own state -------------------------------------------------------------------
def test_each_side_has_its_own_piles_energy_and_active_player() -> None:
    battle = rivals()
    assert battle.two_sided and battle.turn_side is PLAYER
    assert hand(battle, PLAYER) == ["a1", "a2", "a3", "a4", "a5"]
    assert hand(battle, ENEMY) == ["v1", "v2", "v3", "v4", "v5"]
    assert battle.side(PLAYER).active_player == "aya" and battle.side(ENEMY).active_player == "vex"
    assert battle.cards["v1"].side is ENEMY and battle.cards["a1"].side is PLAYER
    assert battle.pile_of("v6") is DRAW and battle.pile_of("a6") is DRAW


def test_a_side_pays_from_its_own_energy_with_its_own_host() -> None:
    battle = rivals()
    events = play(battle, "a1", "vex")  # Aya's strike
    assert events[0]["source"] == "aya" and events[0]["energy_after"] == 2
    assert battle.side(PLAYER).energy == 2 and battle.side(ENEMY).energy == 3
    assert battle.pile_of("a1") is DISCARD and "a1" in battle.side(PLAYER).piles[DISCARD]
    end_turn(battle)
    events = play(battle, "v1", "aya")  # Vex's strike, aimed at the other side
    assert events[0]["source"] == "vex" and events[0]["energy_after"] == 2
    assert battle.side(ENEMY).energy == 2 and battle.side(PLAYER).energy == 2
    assert battle.unit("aya").hp == 24  # type: ignore[union-attr]
    assert "v1" in battle.side(ENEMY).piles[DISCARD] and "v1" not in battle.piles[DISCARD]


def test_a_card_with_an_owner_is_played_by_that_member_of_its_side() -> None:
    battle = rivals()
    end_turn(battle)
    info = targets(battle, "v3")  # Guard, owned by Rook
    assert info.source == "rook" and info.playable
    events = play(battle, "v3")
    assert battle.unit("rook").armor == 6 and events[0]["source"] == "rook"  # type: ignore[union-attr]


def test_the_turn_passes_from_side_to_side() -> None:
    battle = discarding_rivals()
    events = end_turn(battle)
    assert battle.turn_side is ENEMY and battle.turn == 2
    assert {"type": "turn_ended", "turn": 1, "side": "player"} in events
    assert {"type": "turn_started", "turn": 2, "energy": 3, "side": "enemy"} in events
    assert hand(battle, PLAYER) == []  # the ending side's hand is discarded
    assert battle.side(PLAYER).piles[DISCARD] == ["a5", "a4", "a3", "a2", "a1"]
    assert hand(battle, ENEMY) == ["v1", "v2", "v3", "v4", "v5", "v6", "v7", "v8", "v9", "v10"]
    assert not any(e["type"] in ("enemy_turn", "enemy_acts", "intent") for e in events)
    play(battle, "v1", "aya")
    end_turn(battle)
    assert battle.turn_side is PLAYER and battle.turn == 3
    assert battle.side(ENEMY).energy == 2 and battle.side(PLAYER).energy == 3  # refilled
    assert hand(battle, PLAYER) == ["a6", "a7", "a8", "a9", "a10"]
    assert hand(battle, ENEMY) == []


def test_turn_log_names_the_side() -> None:
    protocol = Protocol()
    opened = json.loads(protocol.call(json.dumps({"op": "open", "battle": rivals_battle()})))
    session = opened["result"]["session"]
    answer = json.loads(protocol.call(json.dumps({"op": "end_turn", "session": session})))
    texts = [line["text"] for line in answer["result"]["log"]]
    assert "Turn 1 (the player side) ends." in texts
    assert "Turn 2 (the enemy side) begins with 3 energy." in texts


def _logs(protocol: Protocol, **request: Any) -> dict[str, list[str]]:
    """The log of a change for each viewer."""
    views = _call(protocol, **request, viewers=["player", "enemy", "spectator"])["result"]
    logs = {viewer: [line["text"] for line in answer["log"]]
            for viewer, answer in views["views"].items()}  # fmt: skip
    return logs


def test_log_lines_say_you_to_the_acting_side_only() -> None:
    """Per viewer "You" is the viewer's own side and the other side is named by its active
    player; the authority's log and a spectator's name each side."""
    protocol, plain = Protocol(), Protocol()
    session = _call(protocol, op="open", battle=rivals_battle())["result"]["session"]
    authority = _call(plain, op="open", battle=rivals_battle())["result"]["session"]

    def both(**request: Any) -> tuple[dict[str, list[str]], list[str]]:
        logs = _logs(protocol, session=session, **request)
        alone = _call(plain, session=authority, **request)["result"]["log"]
        return logs, [line["text"] for line in alone]

    logs, alone = both(op="activate", card="a1", target="vex")
    assert logs["player"][-1] == "You put Strike at Vex on the Cut."
    assert logs["enemy"][-1] == "Captain Aya puts Strike at Vex on the Cut."
    assert logs["spectator"][-1] == alone[-1] == "The player side puts Strike at Vex on the Cut."
    logs, alone = both(op="activate", card="v4", side="enemy")
    assert logs["enemy"][-1] == "You respond with Countermand."
    assert logs["player"][-1] == "Vex responds with Countermand."
    assert alone[-1] == "The enemy side responds with Countermand."
    both(op="pass")
    logs, alone = both(op="end_turn")
    assert "You draw 2 cards." in logs["enemy"] and "Vex draws 2 cards." in logs["player"]
    assert "The enemy side draws 2 cards." in alone
    assert not any(line.startswith("You ") for line in logs["spectator"] + alone)
    logs, alone = both(op="end_turn", side="enemy")
    assert "You draw 2 cards." in logs["player"] and "Captain Aya draws 2 cards." in logs["enemy"]
    assert "The player side draws 2 cards." in alone


def test_a_one_sided_battles_log_still_says_you() -> None:
    protocol = Protocol()
    opened = _call(protocol, op="open", battle=duel_battle())["result"]
    ended = _call(protocol, op="end_turn", session=opened["session"])["result"]
    texts = [line["text"] for line in ended["log"]]
    assert any(text.startswith("You draw ") for text in texts), texts


def test_statuses_turn_hooks_run_for_the_side_whose_turn_starts_and_ends() -> None:
    document = rivals_battle()
    document["statuses"] = [{"id": "ward", "name": "Ward", "protection": "all",
                             "decay_on": "turn_start", "decay": "all"}]  # fmt: skip
    document["units"][2]["statuses"] = {"ward": 1}  # Vex
    document["units"][0]["statuses"] = {"ward": 1}  # Aya
    battle = load_battle(document)
    events = end_turn(battle)  # the enemy side's turn starts: only Vex's ward decays
    decayed = [e["unit"] for e in events if e["type"] == "status_decayed"]
    assert decayed == ["vex"]
    assert battle.unit("aya").statuses == {"ward": 1}  # type: ignore[union-attr]
    events = end_turn(battle)
    assert [e["unit"] for e in events if e["type"] == "status_decayed"] == ["aya"]


def test_a_side_that_keeps_its_hand_answers_on_the_cut_in_the_other_sides_turn() -> None:
    battle = rivals()  # the card game: hands kept, 2 drawn a turn
    assert [battle.side(t).hand_at_turn_end for t in battle.sides] == ["keep"] * 2
    play(battle, "a2")  # Aya spends 1 of her 3 energy and keeps Countermand
    events = end_turn(battle)
    assert hand(battle, PLAYER) == ["a1", "a3", "a4", "a5"]  # kept, nothing discarded
    assert battle.side(PLAYER).piles[DISCARD] == ["a2"]
    assert hand(battle, ENEMY) == ["v1", "v2", "v3", "v4", "v5", "v6", "v7"]
    assert not [e for e in events if e["type"] == "card_moved" and e["to"] == "discard"]
    activate(battle, "v1", "kit")  # Vex's own turn: Aya holds priority over its Strike
    assert battle.priority() is PLAYER and battle.side(PLAYER).energy == 2
    activate(battle, "a4")  # and answers it from her kept hand
    pass_priority(battle)
    kit = battle.unit("kit")
    assert battle.cut == [] and kit is not None and kit.hp == 18  # Vex's Strike is negated
    assert battle.side(PLAYER).energy == 1
    end_turn(battle)
    assert hand(battle, ENEMY) == ["v2", "v3", "v4", "v5", "v6", "v7"]
    assert hand(battle, PLAYER) == ["a1", "a3", "a5", "a6", "a7"]
    assert battle.side(PLAYER).energy == 3


def test_hand_at_turn_end_is_a_side_key_and_dumps_with_it() -> None:
    dumped: Any = dump_battle(discarding_rivals())
    assert [s["hand_at_turn_end"] for s in dumped["sides"]] == ["discard", "discard"]
    for bad in ("hold", 1, None):
        document = rivals_battle()
        document["sides"][1]["hand_at_turn_end"] = bad
        error = _refusal(document)
        assert error.where == "sides[1].hand_at_turn_end", error.where
    one_sided = duel_battle()
    one_sided["hand_at_turn_end"] = "keep"  # a one-sided battle always discards
    assert _refusal(one_sided).where == "hand_at_turn_end"


# -- Host-relative sources -------------------------------------------------------------------
def test_hand_pile_reads_the_hand_of_the_side_that_played_it() -> None:
    battle = discarding_rivals()
    events = play(battle, "a5")  # Aya's Rally: discard her hand, then draw 2
    moved = [e["card"] for e in events if e["type"] == "card_moved" and e["node"] == "toss"]
    assert moved == ["a1", "a2", "a3", "a4"]
    assert hand(battle, PLAYER) == ["a6", "a7"]
    assert hand(battle, ENEMY) == ["v1", "v2", "v3", "v4", "v5"]  # untouched
    end_turn(battle)
    events = play(battle, "v5")  # Vex's Rally reads the enemy side's hand
    moved = [e["card"] for e in events if e["type"] == "card_moved" and e["node"] == "toss"]
    assert moved == ["v1", "v2", "v3", "v4", "v6", "v7", "v8", "v9", "v10"]
    assert hand(battle, ENEMY) == ["v11", "v12"]
    assert set(battle.side(ENEMY).piles[DISCARD]) >= {"v1", "v5"}
    assert not set(battle.side(PLAYER).piles[DISCARD]) & {"v1", "v5"}


def test_measures_and_energy_follow_the_hosts_side() -> None:
    document = rivals_battle()
    document["cards"].append({
        "id": "surge", "name": "Surge", "cost": 0, "target": "None",
        "behavior": {"start": "gain", "nodes": [{"id": "gain", "type": "GainEnergy", "amount": 2}]},
    })  # fmt: skip
    document["sides"][1]["piles"]["hand"].append({"id": "v99", "card": "surge"})
    battle = load_battle(document)
    end_turn(battle)
    events = play(battle, "v99")
    assert next(e for e in events if e["type"] == "energy")["energy_after"] == 5
    assert battle.side(ENEMY).energy == 5 and battle.side(PLAYER).energy == 3


def test_a_one_sided_enemy_move_still_reads_the_players_hand() -> None:
    battle = load_battle(duel_battle())
    assert not battle.two_sided and battle.side(ENEMY).piles is battle.piles
    assert battle.side(ENEMY).energy == battle.energy


# -- priority on the Cut ---------------------------------------------------------------------
def test_priority_alternates_and_a_pass_resolves_the_top_entry() -> None:
    battle = rivals()
    events = activate(battle, "a1", "vex")  # Aya's strike waits on the Cut
    assert battle.cut[-1].side is PLAYER and battle.priority() is ENEMY
    assert awaiting(battle) == "enemy" and player_moves(battle, None)["side"] == "enemy"
    with pytest.raises(PlayError, match="the top of the Cut is yours") as own:
        activate(battle, "a2")
    assert own.value.code == "cut"
    events = activate(battle, "v4")  # Vex answers with Countermand
    assert events[-1]["type"] == "activated" and events[-1]["responding"] is True
    assert battle.cut[-1].side is ENEMY and battle.side(ENEMY).energy == 2
    assert awaiting(battle) == "player" and player_moves(battle, None)["side"] == "player"
    with pytest.raises(PlayError, match="the player side holds priority on the Cut"):
        pass_priority(battle, side=ENEMY)
    events = pass_priority(battle, side=PLAYER)  # the player passes: Countermand resolves
    assert {"type": "negated", "node": "negate", "card": "a1", "entry": "e1"} in events
    assert battle.cut == [] and "a1" in battle.side(PLAYER).piles[DISCARD]
    assert "v4" in battle.side(ENEMY).piles[DISCARD]
    assert battle.unit("vex").hp == 30  # type: ignore[union-attr]


def test_a_pass_resolves_the_lower_entry_after_the_answer() -> None:
    battle = rivals()
    activate(battle, "a1", "vex")
    activate(battle, "v1", "kit")  # Vex answers with a strike of its own
    pass_priority(battle)  # the player passes: Vex's strike resolves
    assert battle.unit("kit").hp == 12  # type: ignore[union-attr]
    assert battle.priority() is ENEMY  # the top is Aya's strike again: Vex's to answer
    with pytest.raises(PlayError, match="the enemy side holds priority"):
        pass_priority(battle, side=PLAYER)
    pass_priority(battle)
    assert battle.cut == [] and battle.unit("vex").hp == 24  # type: ignore[union-attr]


def test_acting_out_of_turn_or_out_of_priority_is_refused_naming_the_card() -> None:
    battle = rivals()
    with pytest.raises(PlayError, match=r"card 'v1' cannot be played: it is the player "
                       r"side's turn") as refused:  # fmt: skip
        play(battle, "v1", "aya")
    assert refused.value.code == "not_playable"
    with pytest.raises(PlayError, match=r"card 'v1' cannot be activated: it is the player side"):
        activate(battle, "v1", "aya")
    with pytest.raises(PlayError, match="card 'v1' cannot be played: it is the player side"):
        preview(battle, "v1", "aya")
    info = targets(battle, "v1")
    assert not info.playable and info.reason == "it is the player side's turn"
    assert targets(battle, "a1").playable
    activate(battle, "a1", "vex")
    activate(battle, "v4")  # the enemy answers; now the player holds priority
    with pytest.raises(PlayError, match="card 'v2' cannot be activated: the top of the Cut is "
                       "yours"):  # fmt: skip
        activate(battle, "v2", "aya")
    assert targets(battle, "v2").reason == "the player side holds priority on the Cut"
    assert targets(battle, "a2").playable  # Barrage, in answer to the enemy's entry
    refused_turn = end_turn_refused(battle)
    assert refused_turn is not None and "wait on the Cut" in refused_turn.message
    with pytest.raises(PlayError, match="both sides respond with cards"):
        respond_move(battle, "vex", "strike")


def test_end_turn_names_whose_turn_it_is() -> None:
    battle = rivals()
    with pytest.raises(PlayError, match="it is the player side's turn") as refused:
        end_turn(battle, ENEMY)
    assert refused.value.where == "side"
    end_turn(battle, PLAYER)
    with pytest.raises(PlayError, match="it is the enemy side's turn"):
        end_turn(battle, PLAYER)


def test_the_strict_law_holds_for_both_sides() -> None:
    battle = rivals()
    reason = "card 'a4' cannot be played: no card to target"  # Countermand on an empty Cut
    with pytest.raises(PlayError, match=reason):
        play(battle, "a4")
    end_turn(battle)
    with pytest.raises(PlayError, match="card 'v4' cannot be played: no card to target"):
        play(battle, "v4")
    assert targets(battle, "v4").reason == "no card to target"
    # the law reads each side's own opponents: with both enemies protected, no strike by Aya
    document = rivals_battle()
    document["statuses"] = [{"id": "ward", "name": "Ward", "protection": "all"}]
    for unit in document["units"][2:]:
        unit["statuses"] = {"ward": 1}
    warded = load_battle(document)
    with pytest.raises(PlayError, match="card 'a1' cannot be played: no legal target"):
        play(warded, "a1", "vex")
    with pytest.raises(PlayError, match="card 'a2' cannot be played: no legal target"):
        play(warded, "a2")  # Barrage: an "all ~" effect with an empty range
    end_turn(warded)
    play(warded, "v1", "aya")  # the enemy side's strike still has its targets


def test_energy_is_checked_per_side() -> None:
    document = rivals_battle()
    document["sides"][1]["energy"] = 0
    battle = load_battle(document)
    activate(battle, "a1", "vex")
    with pytest.raises(PlayError, match="card 'v4' costs 1, only 0 energy left") as refused:
        activate(battle, "v4")
    assert refused.value.code == "not_enough_energy"


def test_the_enemy_side_passes_its_lead_on_when_its_active_player_falls() -> None:
    document = rivals_battle()
    document["units"][2]["hp"] = 5  # Vex
    battle = load_battle(document)
    events = play(battle, "a1", "vex")
    assert {"type": "active_player", "unit": "rook"} in events
    assert battle.side(ENEMY).active_player == "rook" and battle.side(PLAYER).active_player == "aya"
    end_turn(battle)
    assert targets(battle, "v1").source == "rook"


# -- the document ----------------------------------------------------------------------------
def test_a_two_sided_state_dumps_and_loads_back_equal() -> None:
    battle = rivals()
    activate(battle, "a1", "vex")
    activate(battle, "v4")
    dumped = dump_battle(battle)
    assert "sides" in dumped and dumped["turn_side"] == "player"
    for key in ("piles", "energy", "max_energy", "draw_per_turn", "active_player"):
        assert key not in dumped
    again = reloaded(battle)
    assert canonical_json(again) == canonical_json(battle)
    assert again.cards["v4"].side is ENEMY and again.cut[-1].card == "v4"
    pass_priority(battle)
    pass_priority(again)
    end_turn(battle)
    end_turn(again)
    assert canonical_json(reloaded(battle)) == canonical_json(again) == canonical_json(battle)


def test_a_one_sided_battle_dumps_as_before() -> None:
    battle = load_battle(duel_battle())
    dumped = dump_battle(battle)
    assert "sides" not in dumped and "turn_side" not in dumped
    assert dumped["active_player"] == "aya" and dumped["energy"] == battle.energy


# -- one table of sides ----------------------------------------------------------------------
def test_every_side_is_in_one_table_the_players_first() -> None:
    document = rivals_battle()
    document["sides"].reverse()  # the enemy's listed first
    battle = load_battle(document)
    assert list(battle.sides) == [PLAYER, ENEMY]
    assert [side.team for side in battle.sides.values()] == [PLAYER, ENEMY]
    assert battle.side(ENEMY) is battle.sides[ENEMY] and battle.plays_cards(ENEMY)
    assert canonical_json(battle) == canonical_json(rivals())  # saved in the one order
    one_sided = load_battle(duel_battle())
    assert list(one_sided.sides) == [PLAYER] and not one_sided.plays_cards(ENEMY)
    assert one_sided.side(ENEMY) is one_sided.sides[PLAYER]  # a team of moves reads the player's


def test_the_battles_own_side_fields_are_the_player_sides() -> None:
    battle = load_battle(duel_battle())
    player = battle.sides[PLAYER]
    assert battle.piles is player.piles and battle.active_player == player.active_player
    battle.energy, battle.max_energy, battle.draw_per_turn = 1, 4, 2
    battle.active_player = "kit" if player.active_player != "kit" else "aya"
    assert (player.energy, player.max_energy, player.draw_per_turn) == (1, 4, 2)
    assert player.active_player == battle.active_player
    dumped = dump_battle(battle)
    assert (dumped["energy"], dumped["max_energy"], dumped["draw_per_turn"]) == (1, 4, 2)


def test_a_clone_copies_every_side_and_shares_none() -> None:
    battle = rivals()
    battle.sides[ENEMY].hand_at_turn_end, battle.sides[ENEMY].energy = "discard", 1
    before = canonical_json(battle)
    copy_ = battle.clone()
    assert canonical_json(copy_) == before and list(copy_.sides) == [PLAYER, ENEMY]
    for team in (PLAYER, ENEMY):
        mine, theirs = battle.sides[team], copy_.sides[team]
        assert theirs == mine and theirs is not mine
        assert all(theirs.piles[p] is not mine.piles[p] for p in mine.piles)
    play(copy_, "a1", "vex")
    end_turn(copy_)
    copy_.sides[ENEMY].active_player = "rook"
    assert canonical_json(battle) == before and canonical_json(copy_) != before


#: The accessors of the enemy side before every side was in ``Battle.sides`` (deprecated).
OLD_ACCESSORS = ("enemy_side", "piles_for", "energy_of", "set_energy", "active_of",
                 "set_active", "side_state")  # fmt: skip


def test_the_old_side_accessors_still_answer() -> None:
    battle = rivals()
    assert battle.piles_for(ENEMY) is battle.sides[ENEMY].piles
    assert battle.enemy_side is battle.sides[ENEMY]
    assert battle.side_state(PLAYER) is battle.sides[PLAYER]
    assert battle.active_of(ENEMY) == "vex"
    battle.set_energy(ENEMY, 1)
    assert battle.energy_of(ENEMY) == 1 == battle.sides[ENEMY].energy
    battle.set_active(ENEMY, "rook")
    assert battle.sides[ENEMY].active_player == "rook"
    one_sided = load_battle(duel_battle())
    assert one_sided.enemy_side is None and one_sided.piles_for(ENEMY) is one_sided.piles


def test_the_runtime_itself_calls_no_old_accessor(monkeypatch: pytest.MonkeyPatch) -> None:
    def called(*args: object) -> None:
        raise AssertionError("the runtime called a deprecated accessor of Battle")

    for name in OLD_ACCESSORS:
        replacement = property(called) if name == "enemy_side" else called
        monkeypatch.setattr(Battle, name, replacement)
    battle = rivals()
    protocol = Protocol()
    activate(battle, "a1", "vex")
    activate(battle, "v4")  # Countermand: it negates a1 when it resolves
    pass_priority(battle)
    end_turn(battle)
    play(battle, "v1", "aya")
    reloaded(battle)
    session = _call(protocol, op="open", battle=rivals_battle())["result"]["session"]
    for viewer in ("player", "enemy", "spectator"):
        assert _call(protocol, op="view", session=session, viewer=viewer)["ok"]
    played = _call(protocol, op="play", session=session, card="a1", target="vex",
                   viewers=["player", "enemy", "spectator"])  # fmt: skip
    assert played["ok"] and len(played["result"]["views"]) == 3, played
    one_sided = load_battle(duel_battle())
    play(one_sided, "c3", "drone")  # Strike
    end_turn(one_sided)
    with pytest.raises(AssertionError, match="deprecated accessor"):
        one_sided.piles_for(PLAYER)  # the stand-ins are in place


def _refusal(document: dict[str, Any]) -> FormatError:
    with pytest.raises(FormatError) as refused:
        load_battle(document)
    return refused.value


def test_bad_sides_are_refused_naming_the_field() -> None:
    unknown = rivals_battle()
    unknown["sides"][1]["team"] = "neutral"
    error = _refusal(unknown)
    assert error.where == "sides[1].team" and "expected one of player, enemy" in str(error)

    twice = rivals_battle()
    twice["sides"][1]["team"] = "player"
    twice["sides"][1]["active_player"] = "kit"
    error = _refusal(twice)
    assert error.where == "sides[1].team" and "the player team already has a side" in str(error)

    both_hands = rivals_battle()
    both_hands["sides"][1]["piles"]["hand"][0]["id"] = "a1"
    error = _refusal(both_hands)
    assert error.where == "sides[1].piles.hand[0].id"
    assert "duplicate card instance id (the player side holds it already)" in str(error)

    one = rivals_battle()
    del one["sides"][1]
    error = _refusal(one)
    assert error.where == "sides" and "two sides, one for each team" in str(error)

    wrong_active = rivals_battle()
    wrong_active["sides"][1]["active_player"] = "aya"
    error = _refusal(wrong_active)
    assert error.where == "sides[1].active_player" and "an enemy unit" not in str(error)
    assert "expected the id of a enemy unit" in str(error)

    wrong_owner = rivals_battle()
    wrong_owner["sides"][1]["piles"]["hand"][0]["owner"] = "kit"
    error = _refusal(wrong_owner)
    assert error.where == "sides[1].piles.hand[0].owner"


def test_a_two_sided_battle_gives_its_side_state_only_per_side() -> None:
    both = rivals_battle()
    both["energy"] = 3
    error = _refusal(both)
    assert error.where == "energy" and "per side, in sides" in str(error)

    moves = rivals_battle()
    bite = {"id": "b", "type": "DealDamage", "amount": 1, "source": "Target"}
    moves["moves"] = [{"id": "bite", "name": "Bite", "target": "SingleEnemy",
                       "behavior": {"start": "b", "nodes": [bite]}}]  # fmt: skip
    moves["units"][3]["moves"] = ["bite"]
    error = _refusal(moves)
    assert error.where == "units[3].moves" and "both teams play cards" in str(error)

    one_sided = duel_battle()
    one_sided["turn_side"] = "enemy"
    error = _refusal(one_sided)
    assert error.where == "turn_side" and "only a two-sided battle" in str(error)

    bad_turn = rivals_battle()
    bad_turn["turn_side"] = "nobody"
    assert _refusal(bad_turn).where == "turn_side"

    no_active = rivals_battle()
    del no_active["sides"][0]["active_player"]
    assert _refusal(no_active).where == "sides[0].active_player"


def test_a_cut_entry_of_the_enemy_side_may_hold_a_card() -> None:
    battle = rivals()
    activate(battle, "a1", "vex")
    activate(battle, "v4")
    dumped = dump_battle(battle)
    assert load_battle(dumped).cut[-1].side is ENEMY
    one_sided = duel_battle()
    one_sided["cut"] = [{"id": "e1", "side": "enemy", "source": "vex",
                         "card": {"id": "z1", "card": "strike"}}]  # fmt: skip
    error = _refusal(one_sided)
    assert error.where == "cut[0].source" and "expected a player unit" in str(error)


# -- the protocol ----------------------------------------------------------------------------
def _call(protocol: Protocol, **request: Any) -> dict[str, Any]:
    answer: dict[str, Any] = json.loads(protocol.call(json.dumps(request)))
    return answer


def test_the_protocol_shows_each_side_and_acts_for_the_side_that_may() -> None:
    protocol = Protocol()
    opened = _call(protocol, op="open", battle=rivals_battle())
    session = opened["result"]["session"]
    state = opened["result"]["state"]
    assert state["turn_side"] == "player"
    sides = {side["team"]: side for side in state["sides"]}
    assert [c["id"] for c in sides["enemy"]["piles"]["hand"]] == ["v1", "v2", "v3", "v4", "v5"]
    assert sides["player"]["energy"] == 3 and sides["enemy"]["active_player"] == "vex"

    refused = _call(protocol, op="play", session=session, card="v1", target="aya")
    assert refused["error"]["code"] == "not_playable"
    assert "it is the player side's turn" in refused["error"]["message"]
    refused = _call(protocol, op="end_turn", session=session, side="enemy")
    assert refused["error"]["message"] == "side: it is the player side's turn"
    refused = _call(protocol, op="pass", session=session, side="sideways")
    assert refused["error"]["code"] == "invalid_field" and refused["error"]["where"] == "side"
    refused = _call(protocol, op="play", session=session, card="v1", target="aya", side="player")
    assert "belongs to the enemy side" in refused["error"]["message"]

    _call(protocol, op="activate", session=session, card="a1", target="vex", side="player")
    cut = _call(protocol, op="cut", session=session)["result"]
    assert cut["side"] == "enemy" and cut["awaiting"] == "enemy" and cut["can_respond"]
    assert cut["prompt"].startswith("The enemy side's answer")
    answered = _call(protocol, op="activate", session=session, card="v4", side="enemy")
    assert answered["ok"], answered
    passed = _call(protocol, op="pass", session=session)  # the player holds priority
    assert passed["ok"] and any(e["type"] == "negated" for e in passed["result"]["events"])
    ended = _call(protocol, op="end_turn", session=session)
    state = ended["result"]["state"]
    assert state["turn_side"] == "enemy" and state["turn"] == 2
    assert _call(protocol, op="open", battle=state)["ok"]  # open accepts what state returns


def test_the_protocol_keeps_one_sided_answers() -> None:
    protocol = Protocol()
    opened = _call(protocol, op="open", battle=duel_battle())
    session = opened["result"]["session"]
    assert "sides" not in opened["result"]["state"]
    assert "turn_side" not in opened["result"]["state"]
    cut = _call(protocol, op="cut", session=session)["result"]
    assert "side" not in cut
    refused = _call(protocol, op="end_turn", session=session, side="enemy")
    assert "the enemy team plays no cards in this battle" in refused["error"]["message"]
    assert _call(protocol, op="end_turn", session=session, side="player")["ok"]


def test_the_example_is_strict_and_two_sided() -> None:
    document = rivals_battle()
    assert document["rules"] == "strict" and len(document["sides"]) == 2
    battle = load_battle(copy.deepcopy(document))
    assert {u.team for u in battle.units} == {PLAYER, ENEMY}
    assert all(not u.moves for u in battle.units)


def test_the_end_of_a_two_sided_battle_names_the_side_that_won() -> None:
    """Where both sides play cards the result line names the winner, the same for every
    reader; a one-sided battle keeps the party's victory or defeat."""
    from pybridge.runtime.narrate import narrate

    two_sided, one_sided = rivals(), load_battle(duel_battle())
    lines = {result: narrate(two_sided, {"type": "battle_ended", "result": result, "turn": 4})
             for result in ("victory", "defeat")}  # fmt: skip
    assert lines["victory"] is not None and lines["defeat"] is not None
    assert lines["victory"]["text"] == (
        "The player side wins: every unit of the enemy side has fallen.")  # fmt: skip
    assert lines["defeat"]["text"] == (
        "The enemy side wins: every unit of the player side has fallen.")  # fmt: skip
    party = narrate(one_sided, {"type": "battle_ended", "result": "defeat", "turn": 4})
    assert party is not None and party["text"] == "Defeat. The party has fallen."
