"""A seat acting as its own viewer (issue #27, items 2 and 3): a request may give the viewer
who acts (naming cards by that viewer's ids) and the ``viewers`` it answers, as a server
answers every seat from one intent; and a refusal told to a viewer names cards by that
viewer's ids, never by the instances' (which would let it follow a card through hiding)."""

from __future__ import annotations

import json
import random
import re
from typing import Any

from pybridge.examples import rivals_battle
from pybridge.protocol import Protocol
from tests.test_views import Session, piles

EVERYONE = ["player", "enemy", "spectator"]


def instance_ids(session: Session) -> set[str]:
    state = session.ok(op="state")["state"]
    ids = {e["card"]["id"] for e in state["cut"] if e.get("card")}
    for side in state["sides"]:
        ids |= {c["id"] for pile in side["piles"].values() for c in pile}
    return ids


def seen_cards(view: dict[str, Any]) -> list[str]:
    """The ids of every card a view lists, card backs included."""
    return [c["id"] for side in view["sides"] for pile in side["piles"].values() for c in pile]


def test_a_viewer_acts_by_its_own_ids_and_every_viewer_is_answered() -> None:
    one = Session(rivals_battle(), viewers=["player"])  # opened for viewers: draws a secret
    card = piles(one.view("player"), "player")["hand"][0]["id"]
    both = Session(one.ok(op="state")["state"])  # the same secret: the same ids
    alone = one.ok(op="play", viewer="player", card=card, target="vex")
    together = both.ok(op="play", viewer="player", card=card, target="vex", viewers=EVERYONE)
    assert sorted(together["views"]) == sorted(EVERYONE)
    assert together["views"]["player"] == alone
    assert together["views"]["enemy"]["state"] == one.view("enemy")
    assert one.ok(op="state")["state"] == both.ok(op="state")["state"]


def test_an_acting_viewer_cannot_act_for_the_other_side_nor_name_its_real_ids() -> None:
    session = Session(rivals_battle())
    enemy_card = piles(session.view("enemy"), "enemy")["hand"][0]["id"]
    before = session.ok(op="state")["state"]
    real = next(iter(sorted(instance_ids(session))))
    for request in (
        {"viewer": "player", "side": "enemy", "card": enemy_card},
        {"viewer": "enemy", "card": enemy_card},  # not the enemy's turn
        {"viewer": "player", "card": real},  # an instance id is not a view's id
    ):
        answer = session.call(op="play", target="kit", viewers=EVERYONE, **request)
        assert not answer["ok"], (request, answer)
    assert session.ok(op="state")["state"] == before


def test_refusals_told_to_a_viewer_never_name_an_instance_id() -> None:
    """Every card of every pile, played by each seat at each step of seeded random duels
    (most are refused: not its turn, no energy, no target), and no refusal names a card by
    its instance id; each names it by the id the viewer knows it by."""
    rng = random.Random(27)
    refusals = 0
    for _ in range(6):
        battle = rivals_battle()
        battle["seed"] = rng.randrange(2**32)
        session = Session(battle)
        for _ in range(30):
            real = instance_ids(session)
            quoted = re.compile("|".join(re.escape(repr(i)) for i in sorted(real)))
            for viewer in ("player", "enemy"):
                for card in seen_cards(session.view(viewer)):
                    target = rng.choice(["kit", "vex", "nobody"])
                    answer = session.call(op="play", viewer=viewer, card=card, target=target)
                    if answer["ok"]:
                        break
                    refusals += 1
                    assert not quoted.search(answer["error"]["message"]), answer
            state = session.ok(op="state")["state"]
            if state["result"] is not None:
                break
            cut = session.ok(op="cut")
            session.ok(op="pass" if cut["cut"] else "end_turn", side=cut["side"])
    assert refusals > 500


def test_a_refusal_names_the_card_by_the_id_its_viewer_knows() -> None:
    session = Session(rivals_battle())
    card = piles(session.view("enemy"), "enemy")["hand"][0]["id"]
    answer = session.call(op="play", viewer="enemy", card=card)
    assert answer["error"]["code"] == "not_playable"
    assert repr(card) in answer["error"]["message"]
    # The authority's own refusal still names the instance.
    state = session.ok(op="state")["state"]
    enemy = next(s for s in state["sides"] if s["team"] == "enemy")
    real = enemy["piles"]["hand"][0]["id"]
    told = session.call(op="play", card=real, side="enemy")["error"]["message"]
    assert repr(real) in told


def test_viewers_must_still_list_distinct_known_viewers() -> None:
    session = Session(rivals_battle())
    card = piles(session.view("player"), "player")["hand"][0]["id"]
    for given in ([], ["player", "player"], ["nobody"], "player"):
        answer = session.call(op="play", viewer="player", card=card, target="vex", viewers=given)
        assert answer["error"]["code"] == "invalid_field", given
        assert answer["error"]["where"] == "viewers"


def test_a_protocol_answers_the_combined_request_as_text() -> None:
    protocol = Protocol()
    opened = json.loads(protocol.call(json.dumps({"op": "open", "battle": rivals_battle()})))
    session = opened["result"]["session"]
    asked: dict[str, Any] = {"op": "view", "session": session, "viewer": "player"}
    view = json.loads(protocol.call(json.dumps(asked)))["result"]["view"]
    card = piles(view, "player")["hand"][0]["id"]
    request = {"op": "play", "session": session, "viewer": "player", "card": card,
               "target": "vex", "viewers": ["enemy"]}  # fmt: skip
    answer = json.loads(protocol.call(json.dumps(request)))
    assert answer["ok"] and list(answer["result"]["views"]) == ["enemy"]
