"""Kept answers to ``targets``/``preview``: reused only while the battle is unchanged, always
equal to a fresh answer, bounded, and never kept for an error."""

from __future__ import annotations

import json
from typing import Any

import pytest

from pybridge import answers, protocol
from pybridge.answers import CAPACITY_VARIABLE, AnswerCache, capacity_from, question
from pybridge.examples import demo_battle
from pybridge.protocol import Protocol
from pybridge.runtime import Pcg32

from .stdio_support import serve_stdio


def ask(proto: Protocol, **request: Any) -> str:
    return proto.call(json.dumps(request))


def answer(proto: Protocol, **request: Any) -> dict[str, Any]:
    result: dict[str, Any] = json.loads(ask(proto, **request))
    return result


def open_demo(proto: Protocol) -> str:
    return str(answer(proto, op="open", battle=demo_battle())["result"]["session"])


def test_a_repeated_question_is_answered_from_the_cache_with_its_own_id() -> None:
    proto = Protocol()
    session = open_demo(proto)
    first = ask(proto, op="targets", id=1, session=session, card="h1")
    hits = proto._answers.hits
    second = ask(proto, op="targets", id="frame-2", session=session, card="h1")
    assert proto._answers.hits == hits + 1
    assert json.loads(second)["id"] == "frame-2"
    assert json.loads(first)["result"] == json.loads(second)["result"]
    assert second == first.replace('"id":1,', '"id":"frame-2",')


def test_a_change_to_the_battle_renews_the_answers() -> None:
    proto = Protocol()
    session = open_demo(proto)
    look = {"op": "preview", "session": session, "card": "h2"}  # Meteor Strike, all enemies

    def goblin_hp(reply: dict[str, Any]) -> int:
        events = reply["result"]["events"]
        return int(next(e for e in events if e.get("unit") == "goblin")["hp_before"])

    before = answer(proto, **look)
    assert answer(proto, op="targets", session=session, card="h1")["ok"]
    assert answer(proto, op="play", session=session, card="h1", target="goblin")["ok"]
    # The same question after the goblin took a Strike: its answer shows the new HP.
    assert goblin_hp(answer(proto, **look)) < goblin_hp(before)
    # h1 left the hand: the answer kept about it is not reused.
    gone = answer(proto, op="targets", session=session, card="h1")
    assert gone["ok"] is False and gone["error"]["code"] == "not_in_hand"


def test_a_refused_play_keeps_the_answers() -> None:
    proto = Protocol()
    session = open_demo(proto)
    first = ask(proto, op="targets", session=session, card="h1")
    refused = answer(proto, op="play", session=session, card="h1", target="knight")
    assert refused["ok"] is False
    hits = proto._answers.hits
    assert ask(proto, op="targets", session=session, card="h1") == first
    assert proto._answers.hits == hits + 1


def test_errors_are_never_kept() -> None:
    proto = Protocol()
    session = open_demo(proto)
    for _ in range(2):
        refused = answer(proto, op="preview", session=session, card="h1", target="knight")
        assert refused["error"]["code"] == "not_a_candidate"
        assert answer(proto, op="targets", session=session, card="nope")["ok"] is False
    assert len(proto._answers) == 0


def test_an_internal_fault_is_not_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    proto = Protocol()
    session = open_demo(proto)

    def explode(*args: object) -> None:
        raise RuntimeError("boom")

    monkeypatch.setattr(protocol, "targets", explode)
    assert answer(proto, op="targets", session=session, card="h1")["error"]["code"] == (
        "internal_error"
    )
    monkeypatch.undo()
    assert answer(proto, op="targets", session=session, card="h1")["ok"]


def test_sessions_keep_their_own_answers_and_closing_forgets_them() -> None:
    proto = Protocol()
    first, second = open_demo(proto), open_demo(proto)
    assert answer(proto, op="play", session=first, card="h1", target="orc")["ok"]
    one = answer(proto, op="preview", session=first, card="h2")["result"]
    two = answer(proto, op="preview", session=second, card="h2")["result"]
    assert one != two  # the first session's orc is already hurt
    assert answer(proto, op="close", session=first)["ok"]
    assert all(key[1] != first for key in proto._answers._answers)
    assert answer(proto, op="targets", session=first, card="h2")["error"]["code"] == (
        "unknown_session"
    )


def test_cached_and_uncached_protocols_answer_a_whole_battle_identically() -> None:
    """Two protocols, one keeping answers and one not, get the same requests: a battle of
    random legal plays with every card asked about (twice) before each play."""
    kept, fresh = Protocol(), Protocol(answer_cache=0)
    sessions = [open_demo(kept), open_demo(fresh)]
    assert sessions[0] == sessions[1]
    session, rng, compared = sessions[0], Pcg32(7), 0

    def both(**request: Any) -> dict[str, Any]:
        nonlocal compared
        text = json.dumps({**request, "session": session})
        reply = kept.call(text)
        assert reply == fresh.call(text), request
        compared += 1
        result: dict[str, Any] = json.loads(reply)
        return result

    for _ in range(40):
        state = both(op="state")["result"]["state"]
        if state["result"] is not None:
            break
        playable = []
        for card in [c["id"] for c in state["piles"]["hand"]]:
            for _ in range(2):
                info = both(op="targets", card=card)
                for unit in info["result"]["candidates"] if info["ok"] else []:
                    both(op="preview", card=card, target=unit)
            if info["ok"] and info["result"]["playable"]:
                playable.append(info["result"])
        if not playable:
            both(op="end_turn")
            continue
        chosen = rng.choice(playable)
        target = rng.choice(chosen["candidates"]) if chosen["requires_target"] else None
        both(op="play", card=chosen["card"], target=target)
    assert compared > 200
    assert kept._answers.hits > 100 and fresh._answers.hits == 0


def test_the_cache_is_bounded_and_least_recently_used_goes_first() -> None:
    cache = AnswerCache(capacity=2)
    keys = [("targets", "s1", f"h{n}", None) for n in range(3)]
    cache.put(keys[0], 1, "a")
    cache.put(keys[1], 1, "b")
    assert cache.get(keys[0], 1) == "a"  # keys[1] is now the least recently used
    cache.put(keys[2], 1, "c")
    assert len(cache) == 2 and cache.get(keys[1], 1) is None
    assert cache.get(keys[0], 1) == "a" and cache.get(keys[2], 1) == "c"
    assert cache.get(keys[0], 2) is None  # another generation of the battle
    cache.put(keys[0], 1, "x" * (answers.MAX_ANSWER + 1))
    assert cache.get(keys[0], 1) == "a"  # too long to keep: the old answer stays
    with pytest.raises(ValueError, match="capacity"):
        AnswerCache(capacity=-1)


@pytest.mark.parametrize(
    ("request_fields", "key"),
    [
        ({"session": "s1", "card": "h1"}, ("targets", "s1", "h1", None)),
        ({"session": "s1", "card": "h1", "target": "orc"}, ("targets", "s1", "h1", "orc")),
        (
            {"session": "s1", "card": "h1", "target": ["a", "b"]},
            ("targets", "s1", "h1", ("a", "b")),
        ),
        ({"session": "s1", "card": ["h1"]}, None),
        ({"session": 1, "card": "h1"}, None),
        ({"session": "s1", "card": "h1", "target": {"x": 1}}, None),
        ({"session": "s1", "card": "h1", "target": ["a", 2]}, None),
    ],
)
def test_only_well_typed_questions_have_a_key(
    request_fields: dict[str, Any], key: tuple[Any, ...] | None
) -> None:
    assert question("targets", request_fields) == key


@pytest.mark.parametrize(
    ("setting", "capacity"),
    [(None, 128), ("0", 0), ("16", 16), (" 4096 ", 4096), ("4097", 128), ("-1", 128),
     ("lots", 128), ("", 128), ("١٢", 128), ("9" * 5000, 128)],
)  # fmt: skip
def test_hosts_size_the_shared_cache_from_the_environment(
    setting: str | None, capacity: int
) -> None:
    environment = {} if setting is None else {CAPACITY_VARIABLE: setting}
    assert capacity_from(environment) == capacity


def test_the_stdio_server_sizes_its_kept_answers_from_the_environment() -> None:
    for setting, kept in (("0", 0), ("bad", 128), ("300", 300)):
        (reply,), _ = serve_stdio([b'{"op":"version"}'], {CAPACITY_VARIABLE: setting})
        assert reply["result"]["kept_answers"] == kept


def test_resizing_drops_what_was_kept() -> None:
    proto = Protocol()
    session = open_demo(proto)
    ask(proto, op="targets", session=session, card="h1")
    assert len(proto._answers) == 1
    proto.keep_answers(0)
    ask(proto, op="targets", session=session, card="h1")
    assert len(proto._answers) == 0
    assert answer(proto, op="version")["result"]["kept_answers"] == 0
