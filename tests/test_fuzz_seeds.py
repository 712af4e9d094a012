"""The fuzz corpus is seeded with the cases of issue 20 ("Done when"), and each seed really
reaches its case: the seeds are sent in order through one protocol whose first sessions are
the fuzzer's own battles (as ``pybridge fuzz`` opens them), and every labelled seed must be
answered as the table below says. A change that makes a seed miss its case fails here.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from pybridge.devtools.fuzz_cases import loss_battle, loss_cases
from pybridge.devtools.fuzz_seeds import fuzzer_battles, law_documents, seed_cases
from pybridge.devtools.fuzzing import check_response
from pybridge.examples import demo_battle
from pybridge.protocol import Protocol

Doc = dict[str, Any]
Check = Callable[[Doc], None]
Replayed = list[tuple[str, Doc, Doc]]  # label, request, answer


@pytest.fixture(scope="module")
def replayed() -> Replayed:
    """Every seed, in order, with its answer; no answer is an internal error or malformed."""
    proto = Protocol()
    for number, battle in enumerate(fuzzer_battles(demo_battle()), 1):
        opened = json.loads(proto.call(json.dumps({"op": "open", "battle": battle})))
        assert opened["result"]["session"] == f"s{number}"
    out = []
    for label, request in seed_cases(demo_battle()):
        text = json.dumps(request).encode("utf-8", "surrogatepass")
        out.append((label, request, check_response(text, proto.call(text))))
    return out


# -- what an answer must be ---------------------------------------------------------------------
def refused(code: str, where: str, says: str = "") -> Check:
    def check(answer: Doc) -> None:
        assert not answer["ok"], answer
        error = answer["error"]
        assert (error["code"], error["where"]) == (code, where) and says in error["message"], error

    return check


def result(**fields: Any) -> Check:
    def check(answer: Doc) -> None:
        assert answer["ok"], answer
        assert {k: answer["result"].get(k) for k in fields} == fields, answer["result"]

    return check


def has(*expected: Doc, absent: tuple[str, ...] = ()) -> Check:
    """Each expected event (these fields of one event) is reported; no event of ``absent``."""

    def check(answer: Doc) -> None:
        assert answer["ok"], answer
        events = answer["result"]["events"]
        for wanted in expected:
            assert any(e.items() >= wanted.items() for e in events), (wanted, events)
        assert not [e for e in events if e["type"] in absent], events

    return check


def damaged_in_order(*units: str) -> Check:
    def check(answer: Doc) -> None:
        assert answer["ok"], answer
        hit = [e["unit"] for e in answer["result"]["events"] if e["type"] == "damage"]
        assert hit == list(units)

    return check


def lost(entry: str, unit: str, reason: str) -> tuple[Doc, Doc]:
    """The events of a strict effect failing because its locked target was lost."""
    return ({"type": "target_lost", "entry": entry, "unit": unit, "reason": reason},
            {"type": "effect_failed", "entry": entry, "reason": "lost_target",
             "lost": [{"unit": unit, "reason": reason}]})  # fmt: skip


def failed(entry: str, card: str) -> Doc:
    return {"type": "effect_failed", "entry": entry, "card": card, "reason": "no_targets"}


#: Each labelled seed and its answer, by the issue's item.
EXPECTED: dict[str, Check] = {
    # 1. a late choice whose candidates are gone fails under strict, and leaves the Cut
    "the enemy AI wards its lone unit": has(
        {"type": "enemy_responds", "entry": "e7", "unit": "orc", "move": "hide"}
    ),
    "late choice: not a candidate": refused("not_a_candidate", "choices.e6", "candidates: none"),
    "late choice: no candidate left": has(failed("e6", "c1"), absent=("damage", "armor")),
    # 3. a random pick of one is single-target: the veiled orc and ogre are not in its range
    "random single pick: range": result(range=["imp"], playable=True),
    "random single pick": has({"type": "random_target", "card": "c4", "unit": "imp"}),
    # 4. card targets naming several types: only a curse is in the discard pile
    "several card types: playable": result(card="c3", playable=True, reason=None),
    "several card types: a curse only": has(
        {"type": "card_moved", "node": "out", "card": "x1", "from": "discard", "to": "exhaust"}
    ),
    # 5. choosing cards when the card resolves
    "cards chosen on resolve": has(
        {"type": "cards_chosen", "card": "c2", "cards": ["d1"]},
        {"type": "card_moved", "node": "take", "card": "d1", "from": "draw", "to": "hand"},
    ),
    # 6. locked targets cannot be changed, and a choice must name a waiting entry
    "locked card target": refused("target_not_allowed", "choices.e2", "cannot be changed"),
    "locked move target": refused("target_not_allowed", "choices.e7", "cannot be changed"),
    "choice for no entry": refused("cut", "choices.e9", "no entry"),
    # 7. behaviours whose code no test exercised
    "target became irrelevant": has(*lost("e3", "orc", "no_longer_legal"), absent=("damage",)),
    "random target lost": has(*lost("e4", "imp", "left_field"), absent=("damage",)),
    "all in locations emptied": has(failed("e6", "c5")),
    "left the field mid-Behavior": has(
        {"type": "target_skipped", "node": "hit", "unit": "rat", "reason": "left_field"},
        absent=("damage",),
    ),
    "connected port yields nothing": has(
        {"type": "no_targets", "node": "hit", "action": "DealDamage"}, absent=("damage",)
    ),
    # 8. AllUnits in battle order (an enemy is listed first)
    "AllUnits in battle order": damaged_in_order("imp", "hero", "orc", "ogre", "rat"),
    # 12. one work budget per request
    "one work budget per request": refused("work_limit", "", "more than 200000 units of work"),
    "one entry fits the budget": has({"type": "resolving", "entry": "e3", "card": "c2"}),
    "so do a poke and a stall": has({"type": "resolving", "entry": "e1", "card": "c1"}),
    # 13. end_turn (and play) are refused while effects wait on the Cut
    "end_turn while the Cut waits": refused("cut", "", "pass or resolve"),
    "play while the Cut waits": refused("cut", "card", "waiting on the Cut"),
    "end_turn after the Cut": has({"type": "turn_started", "turn": 2}),
}


def test_every_labelled_seed_reaches_its_case(replayed: Replayed) -> None:
    labels = [label for label, _, _ in replayed if label]
    assert len(labels) == len(set(labels)) and set(labels) == set(EXPECTED)
    for label, request, answer in replayed:
        if label:
            try:
                EXPECTED[label](answer)
            except AssertionError as exc:
                raise AssertionError(f"seed {label!r} {request}: {exc}") from None


def test_the_seeds_reach_the_fuzzers_sessions(replayed: Replayed) -> None:
    """No seed on s1 to s5 finds its session gone (the demo's ``close`` comes last)."""
    gone = [r for _, r, a in replayed if not a["ok"] and a["error"]["code"] == "unknown_session"]
    assert gone == []
    on = {r.get("session") for _, r, _ in replayed}
    assert {"s1", "s2", "s3", "s4", "s5"} <= on


def test_the_random_single_pick_would_take_a_veiled_enemy_without_the_law() -> None:
    """The random pick seed discriminates: with the veils gone, the same requests on the same
    battle pick the orc or the ogre, so the pick of the imp is the single-target law's."""
    doc = loss_battle()
    for unit in doc["units"]:
        unit.pop("statuses", None)
    proto = Protocol()
    assert json.loads(proto.call(json.dumps({"op": "open", "battle": doc})))["ok"]
    for label, request in loss_cases("s1"):
        answer = json.loads(proto.call(json.dumps(request)))
        if label == "random single pick":
            picked = [e["unit"] for e in answer["result"]["events"] if e["type"] == "random_target"]
            assert picked[0] in ("orc", "ogre"), picked
            return
    raise AssertionError("no random single pick among the seeds")


def test_the_fuzz_corpus_is_seeded_with_these_cases(replayed: Replayed) -> None:
    """Done when: "The fuzz corpus is seeded with these cases": the seeds open each document
    of tests/test_saved_battles.py, each refused (or settled) as that file expects, and the
    list-limit message is not doubled (item 17)."""
    documents = law_documents()
    opened = [a for _, r, a in replayed if r["op"] == "open" and r["battle"] in documents]
    assert [a["ok"] or a["error"]["where"] for a in opened] == [
        "battle.cut[0].move", "battle.cut[1].id", "battle.next_entry", "battle.cut[0].side",
        "battle.cut[0].move", "battle.units[3].intent", "battle.result", True, True,
        "battle.result", True, True, "battle.units[0].name", True, "battle.cut", "battle.units",
    ]  # fmt: skip
    assert opened[-1]["error"]["message"] == "units: at most 64 elements, got 65"
