"""Per-viewer views (issue #27, item 2): what each side and a spectator may see of a battle,
its events and its log; opaque card ids; the snapshot apart from every view."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pybridge.examples import demo_battle, rivals_battle
from pybridge.extensions import load
from pybridge.protocol import Protocol

EXTENSION = """
from pybridge.extend import Message, Words

NAME = "peeks"
VERSION = "1"


def register(words: Words) -> None:
    words.counter("ledger", doc="kept from the players", visibility="no_one",
                  label=Message("peeks.ledger", "Ledger"))
    words.counter("pact", doc="the sides' own", visibility="owner",
                  label=Message("peeks.pact", "Pact"))
    words.event("peeked", doc="its side looked", fields=("node",), visibility="owner",
                narration=Message("peeks.peeked", "A peek."))
    words.event("noted", doc="bookkeeping", fields=("node",), visibility="no_one",
                narration=Message("peeks.noted", "A note."))
    words.action("Peek", doc="peeks, notes and counts", apply=peek,
                 events=("peeked", "noted", "counter"),
                 describe=Message("peeks.describe", "peek"))


def peek(node, ctx):
    ctx.emit("peeked", node=node.id)
    ctx.emit("noted", node=node.id)
    ctx.add_to_counter("ledger", 1, node=node.id)
    ctx.add_to_counter("pact", 1, node=node.id)
"""


class Session:
    def __init__(
        self,
        battle: dict[str, Any],
        protocol: Protocol | None = None,
        viewers: list[str] | None = None,
    ) -> None:
        self.protocol = protocol or Protocol()
        opened = {"viewers": viewers} if viewers else {}
        self.id = self.ok(op="open", battle=battle, **opened)["session"]

    def call(self, **request: Any) -> dict[str, Any]:
        if hasattr(self, "id"):  # open takes no session
            request.setdefault("session", self.id)
        return json.loads(self.protocol.call(json.dumps(request)))  # type: ignore[no-any-return]

    def ok(self, **request: Any) -> dict[str, Any]:
        answer = self.call(**request)
        assert answer["ok"], answer
        return answer["result"]  # type: ignore[no-any-return]

    def view(self, viewer: str) -> dict[str, Any]:
        return self.ok(op="view", viewer=viewer)["view"]  # type: ignore[no-any-return]


def piles(view: dict[str, Any], team: str) -> dict[str, list[dict[str, Any]]]:
    found: dict[str, list[dict[str, Any]]] = next(
        s["piles"] for s in view["sides"] if s["team"] == team
    )
    return found


def real_hand(session: Session, team: str) -> list[str]:
    state = session.ok(op="state")["state"]
    side = next(s for s in state["sides"] if s["team"] == team)
    return [c["id"] for c in side["piles"]["hand"]]


def test_each_zone_shows_what_its_visibility_allows() -> None:
    session = Session(rivals_battle())
    view = session.view("player")
    mine, theirs = piles(view, "player"), piles(view, "enemy")
    state = session.ok(op="state")["state"]
    real = {s["team"]: s["piles"] for s in state["sides"]}
    assert [c["card"] for c in mine["hand"]] == [c["card"] for c in real["player"]["hand"]]
    for pile in (theirs["hand"], mine["draw"], theirs["draw"]):
        assert pile and all(set(c) == {"id"} for c in pile)  # card backs: a count and ids
    assert len(theirs["hand"]) == len(real["enemy"]["hand"])
    assert len(mine["draw"]) == len(real["player"]["draw"])
    spectator = session.view("spectator")
    for team in ("player", "enemy"):
        assert all(set(c) == {"id"} for c in piles(spectator, team)["hand"])


def test_no_view_holds_the_seed_the_rng_or_the_secret() -> None:
    session = Session(rivals_battle())
    session.ok(op="end_turn", viewer="player")
    snapshot = session.ok(op="state")["state"]
    assert {"seed", "rng", "secret", "stints"} <= set(snapshot)
    for viewer in ("player", "enemy", "spectator"):
        text = json.dumps(session.view(viewer))
        assert snapshot["secret"] not in text and snapshot["rng"]["state"] not in text
        assert '"seed"' not in text and '"rng"' not in text and '"secret"' not in text


def test_ids_are_opaque_and_new_on_reveal_and_on_hiding() -> None:
    session = Session(rivals_battle())
    state = session.ok(op="state")["state"]
    instance_ids = {c["id"] for s in state["sides"] for p in s["piles"].values() for c in p}
    before = session.view("enemy")
    ids = {c["id"] for s in before["sides"] for p in s["piles"].values() for c in p}
    assert not ids & instance_ids and len(ids) == len(instance_ids)
    # Each viewer knows a card by its own id.
    player_ids = {c["id"] for p in piles(session.view("player"), "player").values() for c in p}
    assert not player_ids & ids
    backs = {c["id"] for c in piles(before, "player")["hand"]}
    first = real_hand(session, "player")[0]
    target = session.ok(op="targets", card=first)["candidates"][0]
    played = session.ok(op="play", card=first, target=target, viewers=["player", "enemy"])
    seen = played["views"]["enemy"]["state"]
    discard = piles(seen, "player")["discard"]
    assert [c["card"] for c in discard] == ["strike"]  # revealed: face up, under a new id
    assert discard[0]["id"] not in backs
    assert {c["id"] for c in piles(seen, "player")["hand"]} < backs  # the others keep theirs


def test_the_owner_follows_its_card_from_hand_to_the_cut_and_the_discard() -> None:
    session = Session(rivals_battle())
    hand = piles(session.view("player"), "player")["hand"]
    strike = next(c for c in hand if c["card"] == "strike")
    aim = session.ok(op="targets", viewer="player", card=strike["id"])
    assert aim["card"] == strike["id"] and aim["playable"]
    done = session.ok(op="play", viewer="player", card=strike["id"], target=aim["candidates"][0])
    played = next(e for e in done["events"] if e["type"] == "card_played")
    assert played["card"] == strike["id"]
    assert strike["id"] in [c["id"] for c in piles(done["state"], "player")["discard"]]
    # The enemy never held the id: it cannot name the player's cards.
    refused = session.call(op="targets", viewer="enemy", card=strike["id"])
    assert not refused["ok"]


def test_a_card_drawn_is_revealed_only_to_its_owner() -> None:
    session = Session(rivals_battle())
    answer = session.ok(op="end_turn", viewers=["player", "enemy", "spectator"])["views"]
    enemy_hand = {c["id"]: c for c in piles(answer["enemy"]["state"], "enemy")["hand"]}
    drawn = [e["card"] for e in answer["enemy"]["events"]
             if e["type"] == "card_moved" and e["to"] == "hand"]  # fmt: skip
    assert drawn and all("card" in enemy_hand[d] for d in drawn)
    for viewer in ("player", "spectator"):
        theirs = [e["card"] for e in answer[viewer]["events"]
                  if e["type"] == "card_moved" and e["to"] == "hand"]  # fmt: skip
        assert len(theirs) == len(drawn) and not set(theirs) & set(drawn)
        backs = {c["id"] for c in piles(answer[viewer]["state"], "enemy")["hand"]}
        assert set(theirs) <= backs


def test_open_refuses_a_view_and_a_snapshot_resumes_the_same_views() -> None:
    session = Session(rivals_battle())
    session.ok(op="end_turn", viewer="player")
    opening = {"op": "open", "battle": session.view("enemy")}
    refused = json.loads(session.protocol.call(json.dumps(opening)))
    assert not refused["ok"] and refused["error"]["where"] == "battle.view"
    assert "view" in refused["error"]["message"]
    resumed = Session(session.ok(op="state")["state"])
    for viewer in ("player", "enemy", "spectator"):
        assert resumed.view(viewer) == session.view(viewer)


def test_without_a_viewer_every_answer_is_the_authoritys() -> None:
    plain, viewed = Session(rivals_battle()), Session(rivals_battle())
    viewed.view("player")
    card = real_hand(plain, "player")[0]
    for session in (plain, viewed):
        session.ok(op="play", card=card, target="vex")
    state = plain.ok(op="state")["state"]
    assert "secret" not in state and "stints" not in state
    other = viewed.ok(op="state")["state"]
    assert {k: v for k, v in other.items() if k not in ("secret", "stints")} == state


def test_log_lines_never_name_a_hidden_card() -> None:
    session = Session(demo_battle())
    done = session.ok(op="end_turn", viewer="player")
    assert done["log"] and all("?" not in line["text"] for line in done["log"])
    view = session.ok(op="view", viewer="player")["view"]
    assert all(set(c) == {"id"} for c in view["piles"]["draw"])
    assert "seed" not in view and "rng" not in view  # a one-sided battle hides the same


def rivals_with_peek() -> dict[str, Any]:
    battle = rivals_battle()
    battle["cards"].append({
        "id": "peek", "name": "Peek", "type": "skill", "rarity": "common", "cost": 0,
        "target": "None", "text": "Peek.",
        "behavior": {"start": "p", "nodes": [{"id": "p", "type": "Peek"}]},
    })  # fmt: skip
    player = next(s for s in battle["sides"] if s["team"] == "player")
    player["piles"]["hand"].insert(0, {"id": "pk", "card": "peek"})
    return battle


def test_extension_visibility_is_kept_in_views(tmp_path: Path) -> None:
    module = tmp_path / "peeks.py"
    module.write_text(EXTENSION, "utf-8")
    protocol = Protocol(words=load([module]).words)
    session = Session(rivals_with_peek(), protocol)
    done = session.ok(op="play", card="pk", viewers=["player", "enemy", "spectator"])["views"]
    for viewer, answer in done.items():
        types = [e["type"] for e in answer["events"]]
        counted = {e["counter"] for e in answer["events"] if e["type"] == "counter"}
        assert "noted" not in types and "ledger" not in counted  # no_one: no view
        assert ("peeked" in types) is (viewer == "player")  # owner: its side only
        assert "ledger" not in answer["state"].get("counters", {})
        assert ("pact" in answer["state"].get("counters", {})) is (viewer != "spectator")
        assert ("A peek." in [line["text"] for line in answer["log"]]) is (viewer == "player")
    assert session.ok(op="state")["state"]["counters"]["ledger"] == 1


def rivals_with_dig() -> dict[str, Any]:
    """Rivals with Dig in Aya's hand: it chooses an attack from her face-down draw pile when
    it resolves."""
    battle = rivals_battle()
    battle["cards"].append({
        "id": "dig", "name": "Dig", "type": "skill", "rarity": "common", "cost": 0,
        "target": "None", "text": "Choose an attack in your draw pile: put it into your hand.",
        "choose_on_resolve": True, "card_targets": {"zones": ["draw"], "where": {"type": "attack"}},
        "behavior": {"start": "take", "nodes": [
            {"id": "take", "type": "MoveCard", "to": "hand", "source": "ChosenCards"}]},
    })  # fmt: skip
    player = next(s for s in battle["sides"] if s["team"] == "player")
    player["piles"]["hand"].insert(0, {"id": "dg", "card": "dig"})
    return battle


def test_a_viewer_picks_units_by_its_own_card_ids() -> None:
    session = Session(rivals_battle())
    strike = next(c for c in piles(session.view("player"), "player")["hand"]
                  if c["card"] == "strike")  # fmt: skip
    first = session.ok(op="pick", viewer="player", card=strike["id"], chosen=[])
    plain = session.ok(op="pick", card="a1", chosen=[])
    assert first == {**plain, "card": strike["id"]}
    assert first["candidates"] == ["vex", "rook"] and not first["can_confirm"]
    full = session.ok(op="pick", viewer="player", card=strike["id"], chosen=["rook"])
    assert full["chosen"] == ["rook"] and full["candidates"] == [] and full["complete"]
    # The real instance id is the authority's, and the enemy never held the player's id.
    for viewer, card in (("player", "a1"), ("enemy", strike["id"])):
        refused = session.call(op="pick", viewer=viewer, card=card, chosen=[])
        assert not refused["ok"] and refused["error"]["where"] == "card", refused


def test_a_viewer_picks_cards_of_a_late_choice_by_its_own_ids() -> None:
    session = Session(rivals_with_dig())
    dig = next(c for c in piles(session.view("player"), "player")["hand"] if c["card"] == "dig")
    aim = session.ok(op="targets", viewer="player", card=dig["id"])
    offered = aim["late_choice"]["candidates"]
    first = session.ok(op="pick", viewer="player", card=dig["id"], chosen=[])
    assert first["chooses"] == "cards" and first["candidates"] == offered
    real = session.ok(op="pick", card="dg", chosen=[])["candidates"]
    assert len(real) == len(offered) and not set(real) & set(offered)
    picked = session.ok(op="pick", viewer="player", card=dig["id"], chosen=[offered[1]])
    assert picked["chosen"] == [offered[1]] and picked["complete"]
    # A real id is no id of the viewer's: refused as any card that is not a candidate.
    refused = session.call(op="pick", viewer="player", card=dig["id"], chosen=[real[1]])
    assert not refused["ok"] and refused["error"]["where"] == "chosen", refused


def test_a_refusal_told_to_a_viewer_names_cards_by_its_ids() -> None:
    """A refusal's text and the sentences of its details name a card by the id the viewer
    knows it by now (the one its view shows), never by the instance's own; anything else is
    told as it is."""
    from pybridge.runtime.document import load_battle
    from pybridge.runtime.sentences import card, said
    from pybridge.runtime.views import PLAYER, enable, state_view, told_to

    battle = load_battle(rivals_battle())
    enable(battle, b"k" * 32)
    shown = piles(state_view(battle, PLAYER), "player")["hand"][0]["id"]
    given: dict[str, Any] = {"reason_message": said("x", cards=[card(battle, "a1")], unit="a1"),
                             "where": ["a1", 3, None]}  # fmt: skip
    message = told_to(battle, PLAYER, "card 'a1' cannot be played at 'vex'")
    details = told_to(battle, PLAYER, given)
    assert message == f"card {shown!r} cannot be played at 'vex'"
    params = details["reason_message"]["params"]
    assert params["cards"] == [{"card": shown, "def": "strike", "name": "Strike"}]
    assert params["unit"] == "a1"  # a unit's parameter is no card's
    assert details["where"] == ["a1", 3, None]  # a bare string that is no card's sentence
    assert given["reason_message"]["params"]["cards"][0]["card"] == "a1"  # a copy
