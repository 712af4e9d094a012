"""The ``pile`` answer a pile viewer shows, and the draw order no view tells (issue #24,
point 5): a pile the viewer may see lists its cards with their names, costs and texts (the
draw pile in an order that tells nothing), a pile it may not see only how many cards it
holds. Non-interference: battles that differ only in what the viewer may not know (the draw
order, the seed, the other side's hand) give it byte-identical answers."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from pybridge.examples import rivals_battle
from pybridge.runtime import load_battle
from pybridge.runtime.determinize import determinize, same_view
from pybridge.runtime.model import Pile, Team
from pybridge.runtime.views import PLAYER, enable, state_view, unordered

from .demo_support import Desktop, party_battle, party_libraries

SECRET = "3c" * 32  # the battles of a pair share it, as a resumed match shares its snapshot
PILES = ("hand", "draw", "discard", "exhaust")


def _shuffled_draws(document: dict[str, Any], seed: int) -> dict[str, Any]:
    """``document`` with each draw pile's cards (the same instances) in another order."""
    document = json.loads(json.dumps(document))
    for side in document.get("sides") or [document]:
        random.Random(seed).shuffle(side["piles"]["draw"])
    return document


def _party(seed: int = 0, battle_seed: int | None = None) -> Desktop:
    document = _shuffled_draws(party_battle(), seed) if seed else party_battle()
    document["secret"] = SECRET
    if battle_seed is not None:
        document["seed"] = battle_seed
    return Desktop(document, party_libraries())


def _text(desktop: Desktop, **fields: Any) -> str:
    """The answer's exact text (the request's id left out)."""
    request = json.dumps({"op": "pile", "session": desktop.session, **fields})
    return desktop.protocol.call(request)


def test_the_players_draw_pile_lists_its_cards_by_card_and_id_never_in_draw_order() -> None:
    desktop = _party()
    state = desktop.on_session("state")["state"]
    answer = desktop.on_session("pile", viewer="player", pile="draw")
    draw = state["piles"]["draw"]
    assert answer["pile"] == "draw" and answer["side"] == "player"
    assert answer["seen"] is True and answer["ordered"] is False
    assert answer["count"] == len(answer["cards"]) == len(draw) > 3
    assert answer["title"] == f"Cards in the draw pile: {len(draw)}"
    assert answer["title_message"]["id"] == "view.pile.title"
    assert answer["note_message"]["id"] == "view.pile.shuffled"
    assert answer["cards"] == sorted(answer["cards"], key=unordered)
    assert sorted(c["card"] for c in answer["cards"]) == sorted(c["card"] for c in draw)
    names = {c["id"]: c for c in state["cards"]}
    for card in answer["cards"]:
        definition = names[card["card"]]
        assert (card["name"], card["cost"], card["text"]) == (
            definition["name"], definition["cost"], definition["text"])  # fmt: skip
        assert card["id"].startswith("k")  # the viewer's own id, never the instance's
    # The view of the state lists the draw pile the same way: one implementation.
    view = desktop.on_session("view", viewer="player")["view"]
    assert [c["id"] for c in view["piles"]["draw"]] == [c["id"] for c in answer["cards"]]


def test_a_visible_pile_lists_its_cards_top_first_and_the_played_card_reaches_discard() -> None:
    desktop = _party()
    hand = desktop.on_session("pile", viewer="player", pile="hand")
    assert hand["ordered"] is True and hand["note"] == "Top card first."
    state = desktop.on_session("state")["state"]
    assert [c["card"] for c in hand["cards"]] == [c["card"] for c in state["piles"]["hand"]]
    defend = next(c["id"] for c in state["piles"]["hand"] if c["card"] == "defend")
    desktop.play(defend)
    discard = desktop.on_session("pile", viewer="player", pile="discard")
    assert discard["count"] == 1 and [c["card"] for c in discard["cards"]] == ["defend"]
    assert discard["title"] == "Cards in the discard pile: 1"


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_party_battles_that_differ_in_draw_order_and_seed_answer_byte_identically(
    seed: int,
) -> None:
    one, other = _party(), _party(seed, battle_seed=seed * 7919)
    assert one.on_session("state")["state"]["piles"]["draw"] != (
        other.on_session("state")["state"]["piles"]["draw"])  # fmt: skip
    for desktop in (one, other):  # the same plays, none of which draws
        hand = desktop.on_session("state")["state"]["piles"]["hand"]
        desktop.play(next(c["id"] for c in hand if c["card"] == "defend"))
    for pile in PILES:
        assert _text(one, viewer="player", pile=pile) == _text(other, viewer="player", pile=pile)
    assert json.dumps(one.on_session("view", viewer="player")["view"]["piles"]) == json.dumps(
        other.on_session("view", viewer="player")["view"]["piles"])  # fmt: skip


def test_rivals_that_differ_in_the_enemys_hand_draw_order_and_seed_answer_alike() -> None:
    answers = []
    for draw_seed, hand, seed in (
        (0, ["strike"] * 5, 1),
        (5, ["mend", "rally", "guard", "barrage", "strike"], 99),
    ):
        document = _shuffled_draws(rivals_battle(), draw_seed) if draw_seed else rivals_battle()
        document["seed"], document["secret"] = seed, SECRET
        document["visibility"] = {"draw": "owner"}
        for entry, card in zip(document["sides"][1]["piles"]["hand"], hand, strict=True):
            entry["card"] = card
            entry.pop("owner", None)
        desktop = Desktop(document, [])
        answers.append([_text(desktop, viewer="player", pile=pile, side=side)
                        for side in ("player", "enemy") for pile in PILES])  # fmt: skip
    assert answers[0] == answers[1]
    enemy_hand = json.loads(answers[0][4])["result"]
    assert enemy_hand["seen"] is False and enemy_hand["cards"] == []
    assert enemy_hand["count"] == 5 and enemy_hand["note"] == "You may not see these cards."
    own_draw = json.loads(answers[0][1])["result"]
    assert own_draw["seen"] is True and own_draw["count"] == len(own_draw["cards"]) == 7


def test_a_spectator_sees_counts_of_hidden_piles_and_names_the_side() -> None:
    desktop = Desktop(rivals_battle() | {"secret": SECRET}, [])
    hand = desktop.on_session("pile", viewer="spectator", pile="hand", side="enemy")
    assert (hand["seen"], hand["count"], hand["cards"]) == (False, 5, [])
    draw = desktop.on_session("pile", viewer="enemy", pile="draw")  # its own side by default
    assert (draw["side"], draw["seen"], draw["count"], draw["cards"]) == ("enemy", False, 7, [])


@pytest.mark.parametrize(
    ("fields", "where", "quoted"),
    [
        ({"viewer": "player", "pile": "deck"}, "pile", "'deck'"),
        ({"viewer": "player", "pile": 3}, "pile", "3"),
        ({"viewer": "player", "pile": "draw", "side": "enemy"}, "side", "enemy"),
        ({"viewer": "player", "pile": "draw", "side": "north"}, "side", "'north'"),
        ({"viewer": "spectator", "pile": "draw"}, "side", "spectator"),
        ({"pile": "draw"}, "viewer", "viewer"),
        ({"viewer": "judge", "pile": "draw"}, "viewer", "'judge'"),
    ],
)
def test_bad_input_is_refused_naming_the_field_and_changes_nothing(
    fields: dict[str, Any], where: str, quoted: str
) -> None:
    fresh = Desktop()  # a battle that never gave a view: a refusal draws it no secret
    before = fresh.on_session("state")["state"]
    error = fresh.refusal("pile", **fields)
    assert (error["code"], error["where"]) == ("invalid_field", where)
    assert quoted in error["message"]
    assert fresh.on_session("state")["state"] == before
    assert "secret" not in before


def test_a_preview_stops_before_it_would_draw_from_a_pile_the_viewer_sees() -> None:
    document = rivals_battle()
    document["visibility"] = {"draw": "owner"}
    draw = {"id": "draw", "type": "Draw", "count": 1}
    document["cards"].append({
        "id": "study", "name": "Study", "type": "skill", "rarity": "common", "cost": 0,
        "target": "None", "text": "Draw 1 card.",
        "behavior": {"start": "draw", "nodes": [draw]}})  # fmt: skip
    document["sides"][0]["piles"]["hand"][0]["card"] = "study"
    desktop = Desktop(document, [])
    card = desktop.on_session("view", viewer="player")["view"]["sides"][0]["piles"]["hand"][0]
    preview = desktop.on_session("preview", viewer="player", card=card["id"])
    assert not [e for e in preview["events"] if e.get("type") == "card_moved"]
    authority = desktop.on_session("preview", card="a1")
    assert [e for e in authority["events"] if e.get("type") == "card_moved"]


def test_a_determinization_gives_a_visible_draw_pile_an_order_of_its_own() -> None:
    document = rivals_battle()
    document["visibility"] = {"draw": "owner"}
    battle = load_battle(document)
    enable(battle, bytes(range(32)))
    view = state_view(battle, PLAYER)
    orders = set()
    for seed in range(6):
        rebuilt = determinize(view, seed)
        assert same_view(rebuilt, "player", view)
        orders.add(tuple(rebuilt.sides[Team.PLAYER].piles[Pile.DRAW]))
    assert len(orders) > 1


def test_a_card_with_no_text_of_its_own_carries_its_sentence_in_the_pile_answer() -> None:
    """As a state's cards do (the service's describer): the answer's Strike and Defend, left
    without a text, carry ``text_message``, the same sentence ``describe`` gives, which reads
    in German; a card with its own text carries none (its catalog translates it)."""
    pytest.importorskip("polib")
    from pybridge.examples import demo_battle
    from pybridge.runtime.sentences import english
    from pybridge.runtime.vocabulary import BUILTIN
    from pybridge.service import new_protocol
    from pybridge.translating import Translator

    from .test_card_text_messages import GERMAN

    document = demo_battle()
    for card in document["cards"]:
        if card["id"] in ("strike", "defend"):
            del card["text"]
    proto = new_protocol()

    def call(op: str, **fields: Any) -> dict[str, Any]:
        answer = json.loads(proto.call(json.dumps({"op": op, **fields})))
        assert answer["ok"], answer
        result: dict[str, Any] = answer["result"]
        return result

    session = call("open", battle=document)["session"]
    hand = call("pile", session=session, viewer="player", pile="hand")["cards"]
    described = call("describe", session=session, card="h1")  # a Strike
    untexted = [entry for entry in hand if entry["card"] in ("strike", "defend")]
    assert {entry["card"] for entry in untexted} == {"strike", "defend"}
    for entry in untexted:
        assert entry["text"] == "" and entry["text_message"]["id"] == "describe.sentence"
    strike = next(entry for entry in untexted if entry["card"] == "strike")
    assert strike["text_message"] == described["text_message"]
    assert english(BUILTIN.messages, strike["text_message"]) == described["text"]
    state_cards = {
        c["id"]: c for c in call("state", session=session, viewer="player")["state"]["cards"]
    }
    for entry in untexted:  # the same sentence the state's card carries
        assert entry["text_message"] == state_cards[entry["card"]]["text_message"]
    assert all("text_message" not in e for e in hand if e["card"] not in ("strike", "defend"))
    german = Translator(GERMAN).say(strike["text_message"])
    assert "Schaden" in german and "damage" not in german, german
