"""The protocol's ``think`` (issue #28, item 3): the search AI's move asked a slice at a time,
so a host keeps drawing frames while it thinks. The same seed and budget give the same move in
one call or in many slices, the move is one the runtime accepts, any change to the session
drops a search under way, and the budget is bounded."""

from __future__ import annotations

import json
import random
from typing import Any

from pybridge import extensions
from pybridge.ai import seat_move
from pybridge.examples import demo_battle, rivals_battle
from pybridge.protocol import MAX_THINK_ITERATIONS, Protocol

from .demo_support import DEMO_PROJECT

Doc = dict[str, Any]


def call(proto: Protocol, **request: Any) -> Doc:
    answer: Doc = json.loads(proto.call(json.dumps(request)))
    return answer


def opened(proto: Protocol, document: Doc | None = None) -> str:
    answer = call(proto, op="open", battle=document or rivals_battle())
    assert answer["ok"], answer
    session: str = answer["result"]["session"]
    return session


def think(proto: Protocol, session: str, seed: int, iterations: int, most: int,
          **fields: Any) -> tuple[Doc, int]:  # fmt: skip
    """Ask until the search is done, ``most`` iterations a call; the last answer and how
    many calls it took."""
    calls = 0
    while True:
        calls += 1
        answer = call(proto, op="think", session=session, seed=seed, iterations=iterations,
                      slice=most, **fields)  # fmt: skip
        assert answer["ok"], answer
        result: Doc = answer["result"]
        assert result["searched"] <= iterations
        if result["done"]:
            return result, calls
        assert result["searched"] == calls * most


def make(proto: Protocol, session: str, move: Doc, **fields: Any) -> Doc:
    """Make ``move`` (a think's answer) with the operation its kind names."""
    request = {"op": move["kind"], "session": session, **fields}
    if move["card"] is not None:
        request["card"] = move["card"]
    if move["target"] is not None:
        request["target"] = move["target"]
    return call(proto, **request)


def advance(proto: Protocol, session: str, rng: random.Random, moves: int) -> None:
    """Play ``moves`` moves of a tiny search from random seeds (a varied position)."""
    for _ in range(moves):
        state = call(proto, op="state", session=session)["result"]["state"]
        if state["result"] is not None:
            return
        result, _ = think(proto, session, rng.randrange(2**32), 2, 2)
        assert make(proto, session, result["move"])["ok"]


def test_the_same_move_in_one_call_or_in_slices_and_as_seat_move_gives_it() -> None:
    rng = random.Random(3)
    for position in range(6):
        proto = Protocol()
        session = opened(proto)
        advance(proto, session, rng, rng.randrange(0, 14))
        if call(proto, op="state", session=session)["result"]["state"]["result"] is not None:
            continue
        seed, budget = rng.randrange(2**53), 24
        whole, calls = think(proto, session, seed, budget, budget)
        assert calls == 1
        for most in (1, 5, 7):
            sliced, calls = think(proto, session, seed, budget, most)
            assert sliced == whole, (position, most)
            if whole["decision"]["visits"]:  # more than one move to weigh: it took slices
                assert calls == -(-budget // most)
        battle = proto.battle_of({"session": session})
        decision, move = seat_move(battle, seed, budget)
        assert whole["decision"] == decision.to_json()
        assert (whole["move"]["kind"], whole["move"]["card"], whole["move"]["target"]) == move


def test_a_duel_of_thinking_sides_plays_to_its_end_with_moves_the_runtime_accepts() -> None:
    """Both sides think; a card the AI plays is put on the Cut (as the demo does), so the
    other side thinks on the Cut too: an answer or a pass."""
    proto = Protocol()
    session = opened(proto)
    kinds: set[str] = set()
    for move_number in range(400):
        state = call(proto, op="state", session=session)["result"]["state"]
        if state["result"] is not None:
            break
        acting = call(proto, op="cut", session=session)["result"]["side"]
        result, _ = think(proto, session, move_number, 6, 4)
        assert result["side"] == acting
        move = result["move"]
        if move["kind"] == "play":
            move = {**move, "kind": "activate"}
        answer = make(proto, session, move, side=acting)
        assert answer["ok"], (result, answer)
        kinds.add(result["move"]["kind"])
    assert state["result"] in ("victory", "defeat")
    assert {"play", "pass", "end_turn"} <= kinds


def test_a_viewer_gets_the_move_in_its_own_ids_and_may_make_it() -> None:
    proto = Protocol()
    session = opened(proto)
    first, _ = think(proto, session, 5, 12, 12, viewer="player")
    assert first["move"] == {k: first["decision"][k] for k in ("kind", "card", "target")}
    hand = call(proto, op="view", session=session, viewer="player")["result"]["view"]
    if first["move"]["card"] is not None:
        ids = [card["id"] for card in hand["sides"][0]["piles"]["hand"]]
        assert first["move"]["card"] in ids  # a view id, not the battle's "a1"...
        assert first["move"]["card"] not in {f"a{i}" for i in range(1, 13)}
    assert first["move"]["kind"] == "play"
    assert make(proto, session, {**first["move"], "kind": "activate"}, viewer="player")["ok"]
    authority, _ = think(proto, session, 5, 12, 12)
    assert authority["side"] == "enemy"  # Aya's card went on the Cut: Vex may answer
    spectator = call(proto, op="think", session=session, seed=1, iterations=4,
                     viewer="spectator")  # fmt: skip
    assert spectator["error"]["code"] == "not_your_turn"
    other = call(proto, op="think", session=session, seed=1, iterations=4, viewer="player")
    assert (other["error"]["code"], other["error"]["where"]) == ("cut", "side")


def test_a_change_to_the_session_drops_the_search_under_way() -> None:
    proto = Protocol()
    session = opened(proto)

    def step(seed: int = 9, budget: int = 20) -> Doc:
        answer = call(proto, op="think", session=session, seed=seed, iterations=budget, slice=4)
        result: Doc = answer["result"]
        return result

    assert [step()["searched"] for _ in range(2)] == [4, 8]
    assert step(seed=10)["searched"] == 4  # another seed: a new search
    assert step()["searched"] == 4  # and back: that one was dropped
    assert step(budget=30)["searched"] == 4
    assert step()["searched"] == 4
    done, _ = think(proto, session, 9, 20, 20)
    assert step()["searched"] == 4  # a finished search is not kept either
    assert make(proto, session, done["move"])["ok"]  # a change: the battle is another one
    assert step()["searched"] == 4
    fresh, _ = think(proto, session, 9, 20, 20)
    other = Protocol()
    again = opened(other)
    assert make(other, again, done["move"])["ok"]
    assert think(other, again, 9, 20, 20)[0]["move"] == fresh["move"]
    call(proto, op="close", session=session)
    assert call(proto, op="think", session=session, seed=9, iterations=20)["error"]["code"] == (
        "unknown_session"
    )


def test_the_budget_the_seed_and_the_slice_are_bounded() -> None:
    proto = Protocol()
    session = opened(proto)
    for field, value in [("iterations", 10**9), ("iterations", 0), ("iterations", "20"),
                         ("iterations", 2.5), ("iterations", True), ("seed", -1),
                         ("seed", 2**60), ("slice", 0), ("slice", MAX_THINK_ITERATIONS + 1),
                         ("iterations", None)]:  # fmt: skip
        request = {"seed": 1, "iterations": 20, field: value}
        answer = call(proto, op="think", session=session, **request)
        assert (answer["ok"], answer["error"]["code"]) == (False, "invalid_field"), request
        assert answer["error"]["where"] == field
    refused = call(proto, op="think", session=session, seed=1, iterations=10**9)
    assert refused["error"]["message"] == (
        "iterations must be a whole number from 1 to 10000, got 1000000000"
    )
    assert call(proto, op="think", session=session, seed=1, iterations=20.0)["ok"]  # Godot's 20
    wrong = call(proto, op="think", session=session, seed=1, iterations=4, side="enemy")
    assert wrong["error"] == {
        "code": "cut",
        "where": "side",
        "message": "it is the player side's move, not the enemy side's",
    }


def test_a_finished_battle_has_nothing_to_think_of_and_a_one_sided_one_thinks_for_the_player(
) -> None:  # fmt: skip
    proto = Protocol()
    document = rivals_battle()
    for unit in document["units"]:
        if unit["team"] == "enemy":
            unit["hp"] = 1
    session = opened(proto, document)
    for _ in range(40):
        state = call(proto, op="state", session=session)["result"]["state"]
        if state["result"] is not None:
            break
        result, _ = think(proto, session, 1, 30, 30)
        assert make(proto, session, result["move"])["ok"]
    assert state["result"] is not None
    over = call(proto, op="think", session=session, seed=1, iterations=4)
    assert over["error"]["code"] == "battle_over"
    party = opened(proto, demo_battle())
    result, _ = think(proto, party, 2, 8, 3)
    assert result["side"] == "player" and make(proto, party, result["move"])["ok"]


def test_it_thinks_with_the_game_s_extension_words() -> None:
    """The demo's duel counts a combo with its own extension: the search reads the view's
    battle with the protocol's words, as the session was opened."""
    words = extensions.load(extensions.project_extensions(DEMO_PROJECT)).words
    proto = Protocol(words=words)
    session = opened(proto)
    first, _ = think(proto, session, 4, 10, 5)
    assert make(proto, session, {**first["move"], "kind": "activate"})["ok"]
    state = call(proto, op="state", session=session)["result"]["state"]
    assert state["counters"] == {"combo": 1} and "demo_mechanics" in state["extensions"]
    answer, _ = think(proto, session, 4, 10, 5)
    assert answer["side"] == "enemy" and make(proto, session, answer["move"])["ok"]


def churning(cards: int) -> Doc:
    """A one-sided battle whose every card moves the whole draw pile (``cards`` cards): each
    play does ``cards`` units of work, so a search runs out of one request's work quickly."""
    source = {"id": "src", "type": "CardSource", "source": "DrawPile"}
    move = {"id": "mv", "type": "MoveCard", "to": "draw", "ports": {"target": "src"}}
    churn = {"id": "churn", "name": "Churn", "cost": 0, "target": "None", "text": "Churn.",
             "behavior": {"start": "mv", "nodes": [source, move]}}  # fmt: skip
    hero = {"id": "hero", "name": "Hero", "team": "player", "hp": 30, "max_hp": 30}
    orc = {"id": "orc", "name": "Orc", "team": "enemy", "hp": 10**6, "max_hp": 10**6}
    piles = {"hand": [{"id": f"h{i}", "card": "churn"} for i in range(8)],
             "draw": [{"id": f"d{i}", "card": "churn"} for i in range(cards)]}  # fmt: skip
    return {"format": "pybridge/battle@2", "seed": 1, "active_player": "hero", "energy": 99,
            "max_energy": 99, "units": [hero, orc], "cards": [churn], "piles": piles}  # fmt: skip


def test_one_think_call_does_at_most_about_one_requests_work() -> None:
    """However large its slice, a call stops once it has spent one request's work budget
    (counted as a play's work is, not by the clock): it answers ``done: false`` and the next
    call goes on; where the calls stop changes nothing of the move, on any machine."""
    budget = 20
    found = []
    for most in (MAX_THINK_ITERATIONS, 1, MAX_THINK_ITERATIONS):
        proto = Protocol()
        session = opened(proto, churning(800))
        searched = []
        while True:
            answer = call(proto, op="think", session=session, seed=5, iterations=budget,
                          slice=most)  # fmt: skip
            assert answer["ok"], answer
            searched.append(answer["result"]["searched"])
            if answer["result"]["done"]:
                break
        result = answer["result"]
        decision, move = seat_move(proto.battle_of({"session": session}), 5, budget)
        assert (result["move"]["kind"], result["move"]["card"], result["move"]["target"]) == move
        assert result["decision"]["visits"] == decision.visits
        found.append((result["move"], result["decision"]["visits"], searched))
    (big, visits, cut), single, again = found
    assert single[:2] == (big, visits) and again == (big, visits, cut)  # on every machine
    assert len(cut) > 1 and cut[0] < budget  # the first call was cut short by its work
