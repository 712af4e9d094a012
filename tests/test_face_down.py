"""Face-down cards (issue #27, item 2): a card instance that lies face down in a pile whose
other cards are seen, who sees its face, how it is put face down and revealed, its view ids,
and that no answer of the rules tells what it is until it is turned up."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from pybridge.examples import rivals_battle
from pybridge.protocol import Protocol
from pybridge.runtime.context import Context
from pybridge.runtime.determinize import determinize, same_view
from pybridge.runtime.document import canonical_json, dump_battle, load_battle
from pybridge.runtime.effects import draw
from pybridge.runtime.errors import FormatError
from pybridge.runtime.kinds import Kind
from pybridge.runtime.model import Pile, Team
from pybridge.runtime.selectors import compile_sort, select
from pybridge.runtime.views import VIEWERS, enable, state_view

from .test_views import Session, piles


def card(card_id: str, *nodes: dict[str, Any], **fields: Any) -> dict[str, Any]:
    """A 0-cost skill of the rivals' duel that runs ``nodes`` (the last one starts)."""
    return {"id": card_id, "name": card_id.title(), "type": "skill", "rarity": "common",
            "cost": 0, "target": "None", "text": card_id,
            "behavior": {"start": nodes[-1]["id"], "nodes": list(nodes)}, **fields}  # fmt: skip


def source(pile: str) -> dict[str, Any]:
    return {"id": "cards", "type": "CardSource", "source": pile}


#: Set the first card of the hand face down into the discard pile.
CONCEAL = card("conceal", source("HandPile"),
               {"id": "first", "type": "Take", "count": 1, "ports": {"input": "cards"}},
               {"id": "set", "type": "MoveCard", "to": "discard", "face_down": True,
                "ports": {"target": "first"}})  # fmt: skip
#: Turn the top card of the discard pile face down where it lies.
TURN = card("turn", source("DiscardPile"),
            {"id": "top", "type": "Take", "count": 1, "ports": {"input": "cards"}},
            {"id": "set", "type": "MoveCard", "to": "discard", "face_down": True,
             "ports": {"target": "top"}})  # fmt: skip
#: Reveal every face-down card of the discard pile.
UNVEIL = card("unveil", source("DiscardPile"),
              {"id": "show", "type": "Reveal", "ports": {"target": "cards"}})  # fmt: skip
#: Take the first attack of the discard pile back into the hand.
SALVAGE = card(
    "salvage",
    source("DiscardPile"),
    {"id": "attacks", "type": "Filter", "where": {"type": "attack"}, "ports": {"input": "cards"}},
    {"id": "first", "type": "Take", "count": 1, "ports": {"input": "attacks"}},
    {"id": "back", "type": "MoveCard", "to": "hand", "ports": {"target": "first"}},
)
#: Take the cheapest card of the discard pile back into the hand.
CHEAPEST = card(
    "cheapest",
    source("DiscardPile"),
    {"id": "sorted", "type": "Sort", "by": "cost", "ports": {"input": "cards"}},
    {"id": "first", "type": "Take", "count": 1, "ports": {"input": "sorted"}},
    {"id": "back", "type": "MoveCard", "to": "hand", "ports": {"target": "first"}},
)
#: Under strict rules, playable only with an attack in the discard pile to choose.
RECALL = card("recall", {"id": "back", "type": "MoveCard", "to": "hand",
                         "source": "ChosenCards"},
              choose_on_resolve=True, target_count=1,
              card_targets={"zones": ["discard"], "where": {"type": "attack"}})  # fmt: skip
EXTRA = (CONCEAL, TURN, UNVEIL, SALVAGE, CHEAPEST, RECALL)


def duel(
    enemy_hand: list[str], discard: list[tuple[str, str, bool]], face_down: str | None = None
) -> dict[str, Any]:
    """The rivals' duel with the extra cards, the enemy holding ``enemy_hand`` first, its
    discard pile ``discard`` (id, card, face down?), the turn the enemy's; ``face_down``: who
    sees the faces of face-down cards, if the document says."""
    battle = rivals_battle()
    battle["cards"] += copy.deepcopy(list(EXTRA))
    battle["turn_side"] = "enemy"
    battle["secret"] = "5e" * 32  # one key for every duel: equal views compare equal
    enemy = battle["sides"][1]["piles"]
    enemy["hand"][:0] = [{"id": f"x{i}", "card": c} for i, c in enumerate(enemy_hand)]
    enemy["discard"] = [{"id": i, "card": c, **({"face_down": True} if down else {})}
                        for i, c, down in discard]  # fmt: skip
    if face_down is not None:
        battle["visibility"] = {"face_down": face_down}
    return battle


def discard_of(view: dict[str, Any], team: str = "enemy") -> list[dict[str, Any]]:
    return piles(view, team)["discard"]


def snapshot(session: Session) -> dict[str, Any]:
    return session.ok(op="state")["state"]  # type: ignore[no-any-return]


# -- the document ----------------------------------------------------------------------------
def test_a_face_down_card_and_who_sees_it_load_and_dump_back_byte_identical() -> None:
    document = duel([], [("d1", "strike", False), ("d2", "guard", True)], face_down="no_one")
    battle = load_battle(document)
    assert battle.cards["d2"].face_down and not battle.cards["d1"].face_down
    assert battle.face_down == "no_one"
    dumped = dump_battle(battle)
    sides: list[dict[str, Any]] = dumped["sides"]  # type: ignore[assignment]
    enemy = next(s for s in sides if s["team"] == "enemy")
    assert enemy["piles"]["discard"] == [
        {"id": "d1", "card": "strike"},
        {"id": "d2", "card": "guard", "face_down": True},
    ]
    assert dumped["visibility"] == {"hand": "owner", "draw": "no_one", "discard": "everyone",
                                    "exhaust": "everyone", "face_down": "no_one"}  # fmt: skip
    text = canonical_json(battle)
    assert canonical_json(load_battle(json.loads(text))) == text


def test_a_battle_without_face_down_cards_dumps_without_the_keys() -> None:
    plain = rivals_battle()
    text = canonical_json(load_battle(plain))
    assert "face_down" not in text and '"visibility"' not in text
    plain["visibility"] = {"face_down": "owner"}  # the default, said
    assert canonical_json(load_battle(plain)) == text


@pytest.mark.parametrize(
    ("change", "path"),
    [
        (lambda b: b.__setitem__("visibility", {"face_down": "everyone"}),
         "visibility.face_down"),
        (lambda b: b["sides"][1]["piles"]["discard"][0].__setitem__("face_down", "yes"),
         "sides[1].piles.discard[0].face_down"),
        (lambda b: b.__setitem__("cut", [{"id": "e1", "side": "enemy", "source": "vex",
                                          "card": {"id": "c9", "card": "strike",
                                                   "face_down": True}}]),
         "cut[0].card.face_down"),
    ],
)  # fmt: skip
def test_what_a_document_may_not_say_of_face_down_cards(change: Any, path: str) -> None:
    document = duel([], [("d1", "strike", True)])
    change(document)
    with pytest.raises(FormatError) as refused:
        load_battle(document)
    assert refused.value.where == path


# -- views -----------------------------------------------------------------------------------
def test_a_face_down_card_is_a_back_in_its_place_to_whoever_may_not_see_it() -> None:
    session = Session(duel([], [("d1", "strike", False), ("d2", "guard", True),
                                ("d3", "barrage", False)]))  # fmt: skip
    for viewer in ("player", "spectator"):
        shown = discard_of(session.view(viewer))
        assert [c.get("card") for c in shown] == ["strike", None, "barrage"]  # the order kept
        assert set(shown[1]) == {"id", "face_down"} and shown[1]["face_down"] is True
    own = discard_of(session.view("enemy"))  # its owner may look at it (the default)
    assert own[1]["card"] == "guard" and own[1]["face_down"] is True
    no_one = Session(duel([], [("d2", "guard", True)], face_down="no_one"))
    assert set(discard_of(no_one.view("enemy"))[0]) == {"id", "face_down"}


def test_a_card_gets_a_new_id_when_it_is_turned_face_down_and_again_when_revealed() -> None:
    session = Session(duel(["turn", "unveil"], [("d1", "strike", False)]))
    before = discard_of(session.view("player"))[0]["id"]
    own = discard_of(session.view("enemy"))[0]["id"]
    turned = session.ok(op="play", card="x0", side="enemy", viewers=["player"])["views"]
    hidden = next(c for c in discard_of(turned["player"]["state"]) if c.get("face_down"))
    assert hidden["id"] != before and "card" not in hidden
    moved = next(e for e in turned["player"]["events"] if e["type"] == "card_moved"
                 and e.get("face_down"))  # fmt: skip
    assert moved["card"] == hidden["id"]
    # The player watched it turn: the event names it, under the id of the back it now sees.
    assert "Strike moves from the discard pile to the discard pile face down." in [
        line["text"] for line in turned["player"]["log"]]  # fmt: skip
    assert own in [c["id"] for c in discard_of(session.view("enemy"))]  # it never lost sight
    shown = session.ok(op="play", card="x1", side="enemy", viewers=["player"])["views"]
    events = shown["player"]["events"]
    revealed = next(e for e in events if e["type"] == "card_revealed")
    face_up = next(c for c in discard_of(shown["player"]["state"]) if c["id"] == revealed["card"])
    assert face_up == {"id": revealed["card"], "card": "strike"}
    assert revealed["card"] not in (before, hidden["id"])
    assert "Strike is turned face up in the discard pile." in [
        line["text"] for line in shown["player"]["log"]]  # fmt: skip
    assert not any(c.get("face_down") for c in discard_of(snapshot(session)))


def test_a_face_down_card_played_or_moved_face_up_is_revealed() -> None:
    document = duel(["conceal", "salvage"], [])
    document["sides"][1]["piles"]["hand"].insert(2, {"id": "s1", "card": "strike"})
    session = Session(document)
    session.ok(op="play", card="x0", side="enemy")  # sets salvage face down: no attack
    state = snapshot(session)
    assert next(s for s in state["sides"] if s["team"] == "enemy")["piles"]["discard"][1] == \
        {"id": "x1", "card": "salvage", "face_down": True}  # fmt: skip
    # Played from the hand face down (as a document may have it), a card lies face up.
    document = duel(["rally"], [])
    document["sides"][1]["piles"]["hand"][0]["face_down"] = True
    session = Session(document)
    played = session.ok(op="play", card="x0", side="enemy", viewers=["player"])["views"]
    assert "Vex plays Rally." in [line["text"] for line in played["player"]["log"]]
    assert discard_of(played["player"]["state"])[0]["card"] == "rally"
    assert "face_down" not in json.dumps([s["piles"] for s in snapshot(session)["sides"]])


def test_a_move_without_face_down_turns_the_card_up_for_all_to_see() -> None:
    document = duel(["cheapest"], [("d1", "guard", True)])
    document["cards"][-2]["behavior"]["nodes"][-1]["to"] = "exhaust"  # cheapest: to exhaust
    session = Session(document)
    seen = session.ok(op="play", card="x0", side="enemy", viewers=["player"])["views"]
    assert piles(seen["player"]["state"], "enemy")["exhaust"][0]["card"] == "guard"
    assert "Guard moves from the discard pile to the exhaust pile." in [
        line["text"] for line in seen["player"]["log"]]  # fmt: skip


def test_a_reshuffle_turns_the_discard_pile_face_up() -> None:
    document = duel([], [("d1", "guard", True), ("d2", "strike", False)])
    document["sides"][1]["piles"]["draw"] = []
    battle = load_battle(document)
    vex = battle.unit("vex")
    assert vex is not None
    draw(None, Context(battle=battle, host=vex), 1)
    assert not any(battle.cards[c].face_down for c in battle.cards)


# -- nothing the rules answer tells a face-down card's face -----------------------------------
@pytest.mark.parametrize("hidden", ["strike", "guard"])
def test_a_filter_never_keeps_a_face_down_card(hidden: str) -> None:
    """A filter on type over a pile holding a face-down card keeps the same cards whatever
    it is: here no attack, so salvage takes nothing back."""
    session = Session(duel(["salvage"], [("d1", hidden, True), ("d2", "guard", False)]))
    seen = session.ok(op="play", card="x0", side="enemy", viewers=["player"])["views"]
    assert [e["type"] for e in seen["player"]["events"]] == [
        "card_played", "no_targets", "card_moved", "card_resolved"]  # fmt: skip


def test_sort_puts_face_down_cards_last_in_the_order_they_came() -> None:
    battle = load_battle(duel([], [("d1", "strike", False), ("d2", "rally", True),
                                   ("d3", "guard", False), ("d4", "rally", False)]))  # fmt: skip
    cards = battle.side(Team.ENEMY).piles[Pile.DISCARD]
    host = battle.unit("vex")
    assert host is not None
    ctx = Context(battle=battle, host=host)
    ascending = select(compile_sort, {"by": "cost", "order": "asc"}, Kind.CARDS, cards, ctx)
    descending = select(compile_sort, {"by": "cost", "order": "desc"}, Kind.CARDS, cards, ctx)
    assert ascending == ["d4", "d1", "d3", "d2"] and descending == ["d1", "d3", "d4", "d2"]


def test_which_cards_a_choice_may_take_never_tells_a_face_down_card() -> None:
    """Recall (strict: it needs an attack in the discard pile to choose) is not playable over
    a face-down attack, and its candidates never list one, whatever it is; once revealed, it
    is a candidate like any other."""
    answers = []
    for hidden in ("strike", "guard"):
        document = duel(["recall", "unveil"], [("d1", hidden, True), ("d2", "barrage", False)])
        session = Session(document)
        aim = session.ok(op="targets", card="x0")
        assert aim["late_choice"]["candidates"] == ["d2"]
        refused = session.call(op="play", card="x0", side="enemy", target=["d1"])
        assert not refused["ok"] and "candidates: d2" in refused["error"]["message"]
        played = session.ok(op="play", card="x0", side="enemy", target=["d2"],
                            viewers=["player"])["views"]["player"]  # fmt: skip
        answers.append((aim, json.dumps(played, sort_keys=True)))
    assert answers[0] == answers[1]
    session = Session(duel(["unveil", "recall"], [("d1", "strike", True)]))
    assert session.ok(op="targets", card="x1")["playable"] is False
    session.ok(op="play", card="x0", side="enemy")
    assert session.ok(op="targets", card="x1")["playable"] is True


def test_a_preview_stops_before_it_would_turn_up_a_card_its_viewer_may_not_see() -> None:
    document = duel(["unveil"], [("d1", "strike", True)], face_down="no_one")
    session = Session(document)
    hand = piles(session.view("enemy"), "enemy")["hand"]
    unveil = next(c["id"] for c in hand if c.get("card") == "unveil")
    seen = session.ok(op="preview", card=unveil, viewer="enemy")
    assert [e["type"] for e in seen["events"]] == ["card_played"]
    authority = session.ok(op="preview", card="x0")
    assert "card_revealed" in [e["type"] for e in authority["events"]]
    owner = Session(duel(["unveil"], [("d1", "strike", True)]))  # its owner sees it: all told
    hand = piles(owner.view("enemy"), "enemy")["hand"]
    unveil = next(c["id"] for c in hand if c.get("card") == "unveil")
    told = owner.ok(op="preview", card=unveil, viewer="enemy")
    assert "card_revealed" in [e["type"] for e in told["events"]]


def test_a_viewer_cannot_name_a_face_down_card_it_may_not_see() -> None:
    session = Session(duel([], [("d1", "strike", True)]))
    back = discard_of(session.view("player"))[0]["id"]
    answer = session.call(op="preview", card=back, viewer="player")
    assert not answer["ok"] and back in json.dumps(answer["error"])


def test_the_schema_declares_the_words() -> None:
    schema = json.loads(Protocol().call('{"op": "schema"}'))["result"]
    reveal = next(t for t in schema["node_types"] if t["name"] == "Reveal")
    assert reveal["doc"] and "card_revealed" in reveal["events"]
    move = next(t for t in schema["node_types"] if t["name"] == "MoveCard")
    face_down = next(f for f in move["fields"] if f["name"] == "face_down")
    assert face_down["type"] == "boolean" and "face down" in face_down["doc"]
    events = {e["type"]: e for e in schema["events"]}
    assert events["card_revealed"]["fields"] == ["node", "card", "pile"]
    assert "face_down" in events["card_moved"]["fields"]


@pytest.mark.parametrize("up", [(), ("d2",)])
def test_a_determinization_keeps_face_down_cards_face_down_in_their_place(
    up: tuple[str, ...],
) -> None:
    """A search rebuilding the battle from the player's view gives each face-down back a
    card, face down where the back is (a visible pile keeps its order, even when it holds
    only backs), and the rebuilt battle shows the player the view it came from."""
    cards = (("d1", "guard"), ("d2", "strike"), ("d3", "rally"), ("d4", "guard"))
    battle = load_battle(duel([], [(i, c, i not in up) for i, c in cards]))
    enable(battle, bytes(range(16)))
    view = state_view(battle, VIEWERS["player"])
    backs = [c["id"] for c in discard_of(view)]
    for seed in range(6):
        rebuilt = determinize(view, seed)
        discard = rebuilt.side(Team.ENEMY).piles[Pile.DISCARD]
        assert discard == backs  # the view's ids, in the pile's own order
        assert [not rebuilt.cards[c].face_down for c in discard] == [
            i in up for i, _ in cards]  # fmt: skip
        assert same_view(rebuilt, "player", view)
