"""Non-interference of views (issue #27, item 2): two duels that differ only in cards one
player cannot see give that player byte-identical answers at every step, up to the step that
reveals a differing card to it, and for the whole game when the difference stays in cards it
never sees. Moves are picked by a seeded generator from the runtime's own legal answers.

The duels hold face-down cards too: each side's discard pile starts with some among face-up
ones, the decks hold cards that set a card face down, reveal them and take an attack back
by a filter, and who sees a face-down card's face (``visibility.face_down``) is drawn per
duel, so a face-down card the player may not see differs between the two duels as well.

CI plays ``PYBRIDGE_DUELS`` random duel pairs of each kind (40 by default, about 25 s);
the issue's measure is ``PYBRIDGE_DUELS=500 python -m pytest tests/test_non_interference.py``."""

from __future__ import annotations

import json
import os
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from pybridge.examples import rivals_battle
from pybridge.protocol import Protocol
from pybridge.runtime.model import Pile

DUELS = int(os.environ.get("PYBRIDGE_DUELS", "40"))
STEPS = 40
SECRET = "5e" * 32  # both duels of a pair share it, as a resumed match shares its snapshot
CARDS = ("strike", "barrage", "guard", "countermand", "rally", "conceal", "unveil",
         "salvage", "sift")  # fmt: skip


def _skill(card_id: str, text: str, *nodes: dict[str, Any]) -> dict[str, Any]:
    return {"id": card_id, "name": card_id.title(), "type": "skill", "rarity": "common",
            "cost": 0, "target": "None", "text": text,
            "behavior": {"start": nodes[-1]["id"], "nodes": list(nodes)}}  # fmt: skip


def _pile(pile: str) -> dict[str, Any]:
    return {"id": "cards", "type": "CardSource", "source": pile}


#: The face-down cards' words, as cards: set one face down, turn them up, and a filter over
#: a pile that holds them (which must keep the same cards whatever a face-down one is).
FACE_DOWN_CARDS = (
    _skill("conceal", "Put the first card of your hand face down into your discard pile.",
           _pile("HandPile"),
           {"id": "first", "type": "Take", "count": 1, "ports": {"input": "cards"}},
           {"id": "set", "type": "MoveCard", "to": "discard", "face_down": True,
            "ports": {"target": "first"}}),
    _skill("unveil", "Reveal the cards of your discard pile.", _pile("DiscardPile"),
           {"id": "show", "type": "Reveal", "ports": {"target": "cards"}}),
    _skill("salvage", "Put the first attack of your discard pile into your hand.",
           _pile("DiscardPile"),
           {"id": "attacks", "type": "Filter", "where": {"type": "attack"},
            "ports": {"input": "cards"}},
           {"id": "first", "type": "Take", "count": 1, "ports": {"input": "attacks"}},
           {"id": "back", "type": "MoveCard", "to": "hand", "ports": {"target": "first"}}),
)  # fmt: skip


#: A draw whose next node reads the hand: what it discards depends on the card drawn.
SIFT = _skill("sift", "Draw 1 card, then discard the attacks in your hand.",
              {"id": "hand", "type": "CardSource", "source": "HandPile"},
              {"id": "attacks", "type": "Filter", "where": {"type": "attack"},
               "ports": {"input": "hand"}},
              {"id": "toss", "type": "MoveCard", "to": "discard", "ports": {"target": "attacks"}},
              {"id": "draw", "type": "Draw", "count": 1, "next": "toss"})  # fmt: skip


def duel_document(rng: random.Random) -> dict[str, Any]:
    """The rivals' battle with a random seed and random decks (same instance ids), each
    discard pile starting with face-down cards among face-up ones."""
    battle = rivals_battle()
    battle["seed"], battle["secret"] = rng.randrange(2**32), SECRET
    battle["cards"] += json.loads(json.dumps([*FACE_DOWN_CARDS, SIFT]))
    battle["visibility"] = {"face_down": rng.choice(["owner", "no_one"])}
    defined = {c["id"] for c in battle["cards"]}
    for side in battle["sides"]:
        side["piles"]["discard"] = [{"id": f"{side['team'][0]}d{i}", "card": "strike",
                                     **({"face_down": True} if rng.random() < 0.6 else {})}
                                    for i in range(rng.randrange(4))]  # fmt: skip
        for pile in side["piles"].values():
            for card in pile:
                card["card"] = rng.choice([c for c in CARDS if c in defined])
                card.pop("owner", None)
    return battle


def hidden_from(battle: dict[str, Any], viewer: str) -> list[dict[str, Any]]:
    """The card instances ``viewer`` cannot see in a document: every draw pile, the other
    side's hand and its face-down cards, and the viewer's own face-down cards when no one
    sees their faces."""
    nobody = battle.get("visibility", {}).get("face_down") == "no_one"
    out = []
    for side in battle["sides"]:
        piles = side["piles"]
        out += piles["draw"]
        mine = side["team"] == viewer
        seen = ("hand", "discard", "exhaust") if mine else ("discard", "exhaust")
        if not mine:
            out += piles["hand"]
        if nobody or not mine:  # the face-down cards of the piles it sees
            out += [c for p in seen for c in piles[p] if c.get("face_down")]
    return out


def differing(battle: dict[str, Any], rng: random.Random, only: set[str] | None = None
              ) -> dict[str, Any]:  # fmt: skip
    """``battle`` with other cards in some instances the player cannot see."""
    other: dict[str, Any] = json.loads(json.dumps(battle))
    for card in hidden_from(other, "player"):
        if (only is None or card["id"] in only) and rng.random() < 0.5:
            card["card"] = rng.choice([c for c in CARDS if c != card["card"]])
    return other


def changed_cards(battle: dict[str, Any], other: dict[str, Any]) -> set[str]:
    """The instances the player cannot see that are other cards in ``other``."""
    return {a["id"] for a, b in zip(hidden_from(battle, "player"),
                                    hidden_from(other, "player"), strict=True)
            if a["card"] != b["card"]}  # fmt: skip


def shown_to_player(state: dict[str, Any]) -> set[str]:
    """The cards a state says were shown to the player so far (their player stint is past
    0: they were hidden at first)."""
    return {card for card, counts in state["stints"].items() if counts[0] > 0}


class Duel:
    def __init__(self, protocol: Protocol, battle: dict[str, Any]) -> None:
        self.protocol = protocol
        opened = self.call(op="open", battle=battle, viewers=["player"])
        self.session = opened["session"]
        self.opened = json.dumps(opened["views"], sort_keys=True)

    def call(self, **request: Any) -> dict[str, Any]:
        if hasattr(self, "session"):
            request["session"] = self.session
        answer = json.loads(self.protocol.call(json.dumps(request)))
        result: dict[str, Any] = answer["result"] if answer["ok"] else {"error": answer["error"]}
        return result

    def cards(self) -> dict[str, str]:
        state = self.call(op="state")["state"]
        return {c["id"]: c["card"] for s in state["sides"] for p in s["piles"].values() for c in p}

    def legal(self, rng: random.Random) -> dict[str, Any] | None:
        """A random legal request of the side that acts now (None: the battle is over)."""
        cut = self.call(op="cut")
        state = self.call(op="state")["state"]
        if state["result"] is not None:
            return None
        side = cut["side"]
        hand = next(s for s in state["sides"] if s["team"] == side)["piles"]["hand"]
        moves: list[dict[str, Any]] = []
        for card in hand:
            aim = self.call(op="targets", card=card["id"])
            if aim.get("playable"):
                target = rng.choice(aim["candidates"]) if aim["candidates"] else None
                op = "activate" if cut["cut"] else "play"
                moves.append({"op": op, "card": card["id"], "target": target, "side": side})
        if cut["can_pass"]:
            moves.append({"op": "pass", "side": side})
        if cut["can_end_turn"]:
            moves += [{"op": "end_turn", "side": side}] * 2
        return rng.choice(moves) if moves else None

    def close(self) -> None:
        self.protocol.call(json.dumps({"op": "close", "session": self.session}))

    def step(self, request: dict[str, Any]) -> str:
        """The player's answer to ``request`` and its view after it, as text."""
        answer = self.call(**request, viewers=["player"])
        view = self.call(op="view", viewer="player")
        cut = self.call(op="cut", viewer="player")
        return json.dumps([answer, view, cut], sort_keys=True)


def face_down(state: dict[str, Any]) -> set[str]:
    """The card instances lying face down in a state."""
    return {c["id"] for s in state["sides"] for p in s["piles"].values() for c in p
            if c.get("face_down")}  # fmt: skip


def play_out(protocol: Protocol, battle: dict[str, Any], rng: random.Random
             ) -> tuple[list[dict[str, Any]], list[str], list[set[str]], Duel,
                        list[set[str]]]:  # fmt: skip
    """The requests of a random duel, the player's answers, after each step the cards
    revealed to the player so far (their player stint is past 0: they were hidden at first),
    the duel, and before each step the cards lying face down."""
    duel = Duel(protocol, battle)
    requests, answers, shown = [], [duel.opened], []
    down = [face_down(duel.call(op="state")["state"])]
    for _ in range(STEPS):
        request = duel.legal(rng)
        if request is None:
            break
        requests.append(request)
        answers.append(duel.step(request))
        state = duel.call(op="state")["state"]
        shown.append(shown_to_player(state))
        down.append(face_down(state))
    return requests, answers, shown, duel, down


def test_views_do_not_tell_cards_the_player_cannot_see_until_one_is_revealed() -> None:
    protocol = Protocol(answer_cache=0)
    compared = revealed = hidden_down = turned_up = 0
    for seed in range(DUELS):
        rng = random.Random(seed)
        battle = duel_document(rng)
        other = differing(battle, rng)
        requests, answers, shown, first, down = play_out(protocol, battle, rng)
        changed = changed_cards(battle, other)
        second = Duel(protocol, other)
        assert second.opened == answers[0], seed
        for index, request in enumerate(requests):
            got = second.step(request)
            if (shown[index] | seen(second)) & changed:  # a differing card shown, in either
                revealed += 1
                turned_up += bool(shown[index] & changed & down[index])  # one lay face down
                break
            assert got == answers[index + 1], (seed, index, request)
            compared += 1
            hidden_down += bool(changed & down[index + 1])  # a differing face-down card
        first.close()
        second.close()
    assert compared > DUELS and revealed  # the duels got somewhere, and some cards showed
    assert hidden_down and turned_up  # steps over differing face-down cards, some turned up


def seen(duel: Duel) -> set[str]:
    """The cards shown to the player so far in ``duel``."""
    return shown_to_player(duel.call(op="state")["state"])


def test_cards_the_player_never_sees_never_change_its_views() -> None:
    """Cards the player never sees in one duel are changed in a second one, played with the
    same requests: the player's views are the same for the whole game, unless the rules show
    one of the changed cards in the second duel (then up to that step)."""
    protocol = Protocol(answer_cache=0)
    stayed = shown_here = 0
    for seed in range(DUELS):
        rng = random.Random(10_000 + seed)
        battle = duel_document(rng)
        requests, answers, _, first, _ = play_out(protocol, battle, random.Random(seed))
        snapshot = first.call(op="state")["state"]
        never = {card for card, stints in snapshot["stints"].items() if stints[0] == 0}
        never |= {c["id"] for c in hidden_from(battle, "player")} - set(snapshot["stints"])
        never &= {c["id"] for c in hidden_from(snapshot, "player")}
        other = differing(battle, rng, never)
        second = Duel(protocol, other)
        assert second.opened == answers[0], seed
        for index, request in enumerate(requests):
            got = second.step(request)
            if seen(second) & never:  # the rules showed one in this duel (a Sift discarded
                shown_here += 1  # the attack it drew): the difference no longer stays hidden
                break
            assert got == answers[index + 1], (seed, index, request)
            stayed += 1
        for duel in (first, second):
            duel.close()
    assert stayed > shown_here * 10  # almost every step compared


#: A random-target card: the runtime picks which rival it hits.
WILD = {
    "id": "wild", "name": "Wild Shot", "type": "attack", "rarity": "common", "cost": 1,
    "target": "RandomOpponent", "text": "Deal 4 damage to a random enemy.",
    "behavior": {"start": "hit", "nodes": [
        {"id": "hit", "type": "DealDamage", "amount": 4, "source": "Target"}]},
}  # fmt: skip


def with_wild_shots(battle: dict[str, Any]) -> dict[str, Any]:
    """``battle`` with a Wild Shot on top of each side's hand."""
    battle["cards"].append(WILD)
    for side in battle["sides"]:
        side["piles"]["hand"].insert(0, {"id": f"w{side['team'][0]}", "card": "wild"})
    return battle


def previews(duel: Duel, viewer: str | None) -> str:
    """Every ``targets`` answer and preview ``viewer`` (None: the authority) can ask of the
    cards it sees in the acting side's hand, aimed at each candidate, as text."""
    side = duel.call(op="cut")["side"]
    seen = duel.call(op="view", viewer=viewer or side)["view"]
    hand = next(s for s in seen["sides"] if s["team"] == side)["piles"]["hand"]
    asked: dict[str, Any] = {"viewer": viewer} if viewer else {}
    if not asked:  # the authority names the real instances, in the same order
        state = duel.call(op="state")["state"]
        hand = next(s for s in state["sides"] if s["team"] == side)["piles"]["hand"]
    out = []
    for card in (c for c in hand if "card" in c):
        aim = duel.call(op="targets", card=card["id"], **asked)
        out.append(aim)  # what it affects is a preview too
        for target in aim.get("candidates") or [None]:
            out.append(duel.call(op="preview", card=card["id"], target=target, **asked))
    return json.dumps(out, sort_keys=True)


def test_previews_never_tell_what_the_rng_decides() -> None:
    """Two duels differing only in their RNG's state give each side identical previews of
    every card it may play at every step, while their battles are the same (the authority's
    previews of a Wild Shot tell the pick, and so differ)."""
    protocol = Protocol(answer_cache=0)
    compared = told = 0
    for seed in range(DUELS):
        rng = random.Random(20_000 + seed)
        battle = with_wild_shots(duel_document(rng))
        other = json.loads(json.dumps(battle))
        other["seed"] = rng.randrange(2**32)
        duels = Duel(protocol, battle), Duel(protocol, other)
        for _ in range(STEPS):
            states = [d.call(op="state")["state"] for d in duels]
            for state in states:
                state.pop("seed"), state.pop("rng")
            if states[0] != states[1] or states[0]["result"] is not None:
                break  # the RNG has decided something: the battles differ from here on
            side = duels[0].call(op="cut")["side"]
            mine = [previews(d, side) for d in duels]
            assert mine[0] == mine[1], (seed, side)
            compared += 1
            told += previews(duels[0], None) != previews(duels[1], None)
            request = duels[0].legal(rng)
            if request is None:
                break
            for duel in duels:
                duel.step(request)
        for duel in duels:
            duel.close()
    assert compared > DUELS and told  # the authority's previews do tell the RNG's picks


def test_a_viewers_preview_of_a_random_pick_shows_the_range_it_comes_from() -> None:
    protocol = Protocol()
    duel = Duel(protocol, with_wild_shots(rivals_battle()))
    hand = next(s for s in duel.call(op="view", viewer="player")["view"]["sides"]
                if s["team"] == "player")["piles"]["hand"]  # fmt: skip
    wild = next(c["id"] for c in hand if c["card"] == "wild")
    authority = duel.call(op="preview", card="wp")
    assert "random_target" in [e["type"] for e in authority["events"]] and authority["marks"]
    seen = duel.call(op="preview", viewer="player", card=wild)
    assert seen["random"] == {"from": ["vex", "rook"], "count": 1}
    assert [e["type"] for e in seen["events"]] == ["card_played"] and seen["marks"] == {}
    strike = next(c["id"] for c in hand if c["card"] == "strike")
    plain = duel.call(op="preview", viewer="player", card=strike, target="vex")
    assert plain["random"] is None and plain["marks"] == {
        "vex": [{"text": "-6 HP", "kind": "damage",
                 "message": {"id": "mark.damage", "params": {"lost": 6}}}]
    }  # fmt: skip


def test_previews_never_tell_cards_the_player_cannot_see() -> None:
    """Two duels differing only in cards the player cannot see give the player identical
    previews of every card it may play, at every one of its steps before a differing card is
    shown to it (a Sift's preview would tell whether the card it draws is an attack)."""
    protocol = Protocol(answer_cache=0)
    compared = 0
    for seed in range(max(DUELS // 8, 4)):
        rng = random.Random(30_000 + seed)
        battle = duel_document(rng)
        for side in battle["sides"]:  # a Sift to play from the start
            side["piles"]["hand"].insert(0, {"id": f"s{side['team'][0]}", "card": "sift"})
        other = differing(battle, rng)
        changed = changed_cards(battle, other)
        duels = Duel(protocol, battle), Duel(protocol, other)
        for _ in range(STEPS):
            state = duels[0].call(op="state")["state"]
            if shown_to_player(state) & changed or state["result"] is not None:
                break  # a differing card was shown to the player: the duels may differ now
            if duels[0].call(op="cut")["side"] == "player":
                assert previews(duels[0], "player") == previews(duels[1], "player"), seed
                compared += 1
            request = duels[0].legal(rng)
            if request is None:
                break
            for duel in duels:
                duel.step(request)
        for duel in duels:
            duel.close()
    assert compared > 4


def _peek_battle(top: str) -> dict[str, Any]:
    """The rivals' duel whose player holds a Peek, with ``top`` on top of its hidden draw
    pile: Peek reads that card (and moves nothing) to choose whom it damages."""
    battle = rivals_battle()
    battle["secret"] = SECRET
    battle["cards"].append(_skill(
        "peek", "If the top card of your draw pile is an attack, deal 1 damage to Vex; "
        "otherwise to Rook.",
        {"id": "foes", "type": "UnitSource", "source": "AllOpponents"},
        {"id": "big", "type": "Sort", "by": "max_hp", "order": "desc", "ports": {"input": "foes"}},
        {"id": "vex", "type": "Take", "count": 1, "ports": {"input": "big"}},
        {"id": "small", "type": "Sort", "by": "max_hp", "order": "asc",
         "ports": {"input": "foes"}},
        {"id": "rook", "type": "Take", "count": 1, "ports": {"input": "small"}},
        {"id": "hit_vex", "type": "DealDamage", "amount": 1, "ports": {"target": "vex"}},
        {"id": "hit_rook", "type": "DealDamage", "amount": 1, "ports": {"target": "rook"}},
        _pile("DrawPile"),
        {"id": "top", "type": "Take", "count": 1, "ports": {"input": "cards"}},
        {"id": "attack", "type": "Filter", "where": {"type": "attack"},
         "ports": {"input": "top"}},
        {"id": "is", "type": "Condition", "test": "not_empty", "ports": {"input": "attack"}},
        {"id": "peek", "type": "Branch", "ports": {"condition": "is"}, "then": "hit_vex",
         "else": "hit_rook"}))  # fmt: skip
    player = battle["sides"][0]
    player["piles"]["hand"][0]["card"] = "peek"
    player["piles"]["draw"][0]["card"] = top
    return battle


def _zap_battle(seed: int) -> dict[str, Any]:
    """The rivals' duel whose player holds a Zap (no target: its Behavior hits a random
    enemy), with ``seed``."""
    battle = rivals_battle()
    battle["seed"], battle["secret"] = seed, SECRET
    battle["cards"].append(
        _skill(
            "zap",
            "Deal 3 damage to a random enemy.",
            {"id": "foes", "type": "UnitSource", "source": "AllOpponents"},
            {"id": "one", "type": "RandomElements", "count": 1, "ports": {"input": "foes"}},
            {"id": "hit", "type": "DealDamage", "amount": 3, "ports": {"target": "one"}},
        )
    )
    battle["sides"][0]["piles"]["hand"][0]["card"] = "zap"
    return battle


def _asked(battle: dict[str, Any], card: str, viewer: str | None) -> tuple[str, dict[str, Any]]:
    """The ``targets`` and ``preview`` answers about the player's first card, and ``view``,
    for ``viewer`` (None: the authority, without the view), as text; and the targets answer."""
    duel = Duel(Protocol(answer_cache=0), battle)
    asked: dict[str, Any] = {}
    if viewer is not None:
        hand = duel.call(op="view", viewer=viewer)["view"]["sides"][0]["piles"]["hand"]
        asked = {"viewer": viewer, "card": next(c["id"] for c in hand if c.get("card") == card)}
    else:
        asked = {"card": battle["sides"][0]["piles"]["hand"][0]["id"]}
    aim = duel.call(op="targets", **asked)
    out = [aim, duel.call(op="preview", **asked)]
    if viewer is not None:
        out.append(duel.call(op="view", viewer=viewer))
    duel.close()
    return json.dumps(out, sort_keys=True), aim


def test_what_a_card_reads_of_a_hidden_pile_reaches_no_viewers_targets_or_preview() -> None:
    """Peek reads the top of the player's draw pile, moving nothing: battles that differ only
    in that card give the player byte-identical targets, preview and view, which say that a
    hidden card stops them; the authority's tell whom Peek would hit."""
    seen = [_asked(_peek_battle(top), "peek", "player") for top in ("strike", "guard")]
    assert seen[0][0] == seen[1][0]
    assert seen[0][1]["affects"] == [] and seen[0][1]["random"] is None
    assert seen[0][1]["hidden"] == {"side": "player", "pile": "draw"}
    preview = json.loads(seen[0][0])[1]
    assert preview["hidden"] == seen[0][1]["hidden"] and preview["marks"] == {}
    told = [_asked(_peek_battle(top), "peek", None)[1] for top in ("strike", "guard")]
    assert [t["affects"] for t in told] == [["vex"], ["rook"]]
    assert told[0]["hidden"] is None and told[0]["random"] is None


def test_what_the_rng_will_decide_reaches_no_viewers_targets() -> None:
    """Zap hits a random enemy: battles that differ only in their RNG's state give the player
    byte-identical targets, preview and view (affects names no unit, and random says why);
    the authority's affects name the unit the play will hit, which differs among them."""
    seen = {_asked(_zap_battle(seed), "zap", "player")[0] for seed in range(4)}
    assert len(seen) == 1
    aim = json.loads(seen.pop())[0]
    assert aim["affects"] == [] and aim["random"] == {"from": None, "count": None}
    told = {tuple(_asked(_zap_battle(seed), "zap", None)[1]["affects"]) for seed in range(4)}
    assert told == {("vex",), ("rook",)}  # seeds 0-3 hit each of them


def _intents_battle(seed: int, top: str) -> dict[str, Any]:
    """A one-sided battle: the Imp strikes the Hero for 6, then the Hex discards the top card
    of the player's hidden draw pile (``top``) and the Wisp zaps a random party member."""

    def move(move_id: str, text: str, *nodes: dict[str, Any]) -> dict[str, Any]:
        return {
            "id": move_id,
            "name": move_id.title(),
            "target": "None",
            "weight": 1,
            "text": text,
            "behavior": {"start": nodes[-1]["id"], "nodes": list(nodes)},
        }

    def enemy(unit_id: str, move_id: str) -> dict[str, Any]:
        return {
            "id": unit_id,
            "name": unit_id.title(),
            "team": "enemy",
            "hp": 10,
            "max_hp": 10,
            "moves": [move_id],
            "intent": {"move": move_id, "target": None},
        }

    return {
        "format": "pybridge/battle@2", "seed": seed, "active_player": "hero", "secret": SECRET,
        "units": [{"id": "hero", "name": "Hero", "team": "player", "hp": 30, "max_hp": 30},
                  {"id": "kit", "name": "Kit", "team": "player", "hp": 30, "max_hp": 30},
                  enemy("imp", "claw"), enemy("hex", "mill"), enemy("wisp", "zap")],
        "moves": [
            move("claw", "Deal 6 damage to the Hero.",
                 {"id": "hero", "type": "UnitSource", "source": "ActivePlayer"},
                 {"id": "hit", "type": "DealDamage", "amount": 6, "ports": {"target": "hero"}}),
            move("mill", "Discard the top card of your draw pile.", _pile("DrawPile"),
                 {"id": "top", "type": "Take", "count": 1, "ports": {"input": "cards"}},
                 {"id": "mill", "type": "MoveCard", "to": "discard",
                  "ports": {"target": "top"}}),
            move("zap", "Deal 5 damage to a random foe.",
                 {"id": "foes", "type": "UnitSource", "source": "AllOpponents"},
                 {"id": "one", "type": "RandomElements", "count": 1,
                  "ports": {"input": "foes"}},
                 {"id": "hit", "type": "DealDamage", "amount": 5, "ports": {"target": "one"}}),
        ],
        "cards": [_skill(card, "Gain 1 armor.", {"id": "armor", "type": "GainArmor",
                                                 "amount": 1, "source": "Self"})
                  for card in ("strike", "secret")],
        "piles": {"hand": [{"id": "c1", "card": "strike"}],
                  "draw": [{"id": "c2", "card": top}, {"id": "c3", "card": "strike"}]},
    }  # fmt: skip


def _forecasts(battle: dict[str, Any], viewer: str | None) -> tuple[str, dict[str, Any]]:
    """The state (the authority's) or the view of ``viewer`` as text, and its forecasts."""
    protocol = Protocol(answer_cache=0)
    session = json.loads(protocol.call(json.dumps({"op": "open", "battle": battle})))
    request = {"session": session["result"]["session"]}
    request |= {"op": "state"} if viewer is None else {"op": "view", "viewer": viewer}
    state = json.loads(protocol.call(json.dumps(request)))["result"]
    units = (state.get("view") or state["state"])["units"]
    return json.dumps(state, sort_keys=True), {u["id"]: u["intent"]["forecast"] for u in units
                                               if u.get("intent")}  # fmt: skip


def test_an_intents_forecast_tells_a_viewer_nothing_hidden_or_random() -> None:
    """Battles that differ only in the player's hidden draw pile or only in the RNG's state
    give the player the same view, forecasts included: the Imp's strike is told whole, the
    Hex's move stops at the hidden card it reads and the Wisp's after it (hidden); the
    authority's forecasts name the card milled and the unit zapped."""
    seen = {_forecasts(_intents_battle(seed, top), "player")[0]
            for seed in range(4) for top in ("strike", "secret")}  # fmt: skip
    assert len(seen) == 1
    forecasts = {u["id"]: u["intent"]["forecast"] for u in json.loads(seen.pop())["view"]["units"]
                 if u.get("intent")}  # fmt: skip
    assert "Secret" not in json.dumps(forecasts) and '"c2"' not in json.dumps(forecasts)
    imp = forecasts["imp"]
    assert imp["label"] == "6" and imp["detail"] == "at Hero"
    assert imp["random"] is None and imp["hidden"] is None
    for cut in (forecasts["hex"], forecasts["wisp"]):
        assert cut["lines"] == [] and cut["line_messages"] == [] and cut["label"] == ""
        assert cut["hidden"] == {"side": "player", "pile": "draw"} and cut["random"] is None
        assert cut["detail"] == "as cards you cannot see will have it"
    told = [_forecasts(_intents_battle(seed, top), None)[1]
            for seed, top in ((0, "secret"), (2, "strike"))]  # fmt: skip
    assert told[0]["hex"]["lines"] == ["Secret moves from the draw pile to the discard pile."]
    assert told[1]["hex"]["lines"] == ["Strike moves from the draw pile to the discard pile."]
    assert told[0]["wisp"]["detail"] != told[1]["wisp"]["detail"]  # at Kit, at Hero
    assert all(f["random"] is None and f["hidden"] is None for t in told for f in t.values())


def test_a_forecast_stops_at_the_rng_for_a_viewer() -> None:
    """Without the Hex, the Wisp's zap is the first thing a viewer may not know: its forecast
    says the RNG decides it, alike for every seed."""
    seen = set()
    for seed in range(4):
        battle = _intents_battle(seed, "secret")
        battle["units"] = [u for u in battle["units"] if u["id"] != "hex"]
        seen.add(json.dumps(_forecasts(battle, "player")[1], sort_keys=True))
    assert len(seen) == 1
    wisp = json.loads(seen.pop())["wisp"]
    assert wisp["random"] == {"from": None, "count": None} and wisp["hidden"] is None
    assert wisp["detail"] == "as chance will have it" and wisp["effects"] == []


# -- choices: a choice is its owner's ---------------------------------------------------------
#: Every viewer of a two-sided battle, as an online server answers them all from one request.
EVERY_VIEWER = ["player", "enemy", "spectator"]
#: The viewers who must learn nothing of the player's hidden cards.
OTHERS = ("enemy", "spectator")
MECHANICS = Path(__file__).resolve().parents[1] / "demo_project" / "extensions" / "mechanics.py"
SCRY = {"id": "scry", "name": "Scry", "type": "skill", "rarity": "common", "cost": 0,
        "target": "None", "text": "Scry 3.",
        "behavior": {"start": "s", "nodes": [{"id": "s", "type": "Scry", "count": 3}]}}  # fmt: skip
TUTOR = {"id": "tutor", "name": "Tutor", "type": "skill", "rarity": "common", "cost": 0,
         "target": "None", "text": "Put an attack from your draw pile into your hand.",
         "choose_on_resolve": True,
         "card_targets": {"zones": ["draw"], "where": {"type": "attack"}},
         "behavior": {"start": "m", "nodes": [
             {"id": "c", "type": "CardSource", "source": "ChosenCards"},
             {"id": "m", "type": "MoveCard", "to": "hand", "ports": {"target": "c"}}]}}  # fmt: skip


def with_card(card: dict[str, Any], draw: list[str]) -> dict[str, Any]:
    """The rivals' duel with ``card`` first in the player's hand and its draw pile dealt
    ``draw`` (top first): the player's hidden cards."""
    battle = rivals_battle()
    battle["secret"] = SECRET
    battle["cards"].append(json.loads(json.dumps(card)))
    piles = battle["sides"][0]["piles"]
    piles["hand"][0]["card"] = card["id"]
    for instance, name in zip(piles["draw"], draw, strict=True):
        instance["card"] = name
    return battle


class Seats(Duel):
    """A duel asked as an online server asks it: a viewer acts, every viewer is answered."""

    def __init__(self, protocol: Protocol, battle: dict[str, Any]) -> None:
        super().__init__(protocol, battle)
        self.texts: list[str] = []  # what the other viewers got, request by request
        self.ids = {c["id"] for s in battle["sides"] for p in s["piles"].values() for c in p}

    def answer(self, viewer: str, **request: Any) -> dict[str, Any]:
        """The whole response to ``request`` from ``viewer`` (a change answers everyone)."""
        if request["op"] in ("activate", "pass", "resolve", "play"):
            request["viewers"] = EVERY_VIEWER
        request.update(session=self.session, viewer=viewer)
        answer: dict[str, Any] = json.loads(self.protocol.call(json.dumps(request)))
        assert not authority_ids_in(answer, self.ids), (request, answer)  # viewers' ids only
        return answer

    def told(self, viewer: str, **request: Any) -> dict[str, Any]:
        """``viewer``'s request; what it and the other viewers learn of it is noted."""
        before = json.dumps(self.call(op="state"), sort_keys=True)
        answer = self.answer(viewer, **request)
        if answer["ok"] and "views" in answer["result"]:
            views = answer["result"]["views"]
            self.texts.append(json.dumps([views[v] for v in OTHERS], sort_keys=True))
        else:
            self.texts.append(json.dumps(answer, sort_keys=True))
            if not answer["ok"]:  # a refusal changes nothing
                assert json.dumps(self.call(op="state"), sort_keys=True) == before, answer
        return answer

    def looks(self) -> None:
        """What the other viewers see now: views and the Cut."""
        for viewer in OTHERS:
            self.told(viewer, op="view")
            self.told(viewer, op="cut")

    def hand_card(self, viewer: str, card: str) -> str:
        hand = next(s for s in self.call(op="view", viewer=viewer)["view"]["sides"]
                    if s["team"] == viewer)["piles"]["hand"]  # fmt: skip
        return str(next(c["id"] for c in hand if c.get("card") == card))


def test_a_choice_an_action_asks_shows_the_other_side_nothing_and_is_its_owners_to_make() -> None:
    """Two duels differing only in the player's draw pile: the player's Scry (its choice kind
    ``owner``) looks at the top three. The enemy and a spectator get byte-identical answers to
    every request while the choice waits; the enemy cannot answer it; its pass leaves the
    entry to the player, whose own answer shows the faces, in order, and resolves it."""
    from pybridge import extensions
    from pybridge.service import new_protocol

    protocol = new_protocol(0, extensions.load([str(MECHANICS)]).words)
    draws = (["strike", "mend", "strike", "guard", "barrage", "countermand", "strike"],
             ["guard", "barrage", "mend", "strike", "strike", "strike", "countermand"])  # fmt: skip
    texts, faces = [], []
    for draw in draws:
        seats = Seats(protocol, with_card(SCRY, draw))
        scry = seats.hand_card("player", "scry")
        assert seats.told("player", op="activate", card=scry)["ok"]
        seats.looks()
        for viewer in OTHERS:
            seats.told(viewer, op="pick", entry="e1")
        for viewer in OTHERS:
            refused = seats.told(viewer, op="resolve")["error"]
            if viewer == "enemy":  # the choice waits for the player: nothing tells its cards
                choice = refused["choice"]
                assert refused["code"] == "choice_needed" and "only the player side" in \
                    refused["message"]  # fmt: skip
                assert (choice["side"], choice["count"], choice["options"], choice["faces"],
                        choice["zones"]) == ("player", 3, [], {}, [])  # fmt: skip
            else:
                assert refused["code"] == "not_your_turn"
        refused = seats.told("enemy", op="pass", choices={"e1.s": []})["error"]
        assert refused["code"] == "cut" and "the player side's" in refused["message"]
        passed = seats.told("enemy", op="pass")
        assert passed["ok"] and passed["result"]["views"]["enemy"]["events"] == []
        seats.looks()
        cut = seats.call(op="cut", viewer="player")
        assert (cut["awaiting"], cut["side"], cut["can_pass"]) == ("player", "player", True)
        countermand = seats.hand_card("enemy", "countermand")
        for request in ({"op": "pass"}, {"op": "pass", "choices": {"e1.s": []}},
                        {"op": "activate", "card": countermand, "target": None},
                        {"op": "resolve", "choices": {"e1.s": []}}):  # fmt: skip
            refused = seats.told("enemy", **request)["error"]
            assert refused["code"] == "cut" and "player side" in refused["message"], refused
        asked = seats.answer("player", op="pass")["error"]["choice"]  # the owner sees them
        assert asked["count"] == 3 and len(asked["options"]) == 3
        faces.append([asked["faces"][o] for o in asked["options"]])
        done = seats.told("player", op="pass", choices={"e1.s": asked["options"][:1]})
        assert done["ok"], done
        texts.append(seats.texts[:-1])  # the resolution itself shows the discarded cards
        seats.close()
    assert faces == [draw[:3] for draw in draws]  # the owner's faces, in draw order
    assert texts[0] == texts[1]  # and the others learnt nothing of them


def test_a_card_that_searches_a_hidden_pile_shows_its_finds_to_its_owner_only() -> None:
    """Three duels whose player draw piles hold one, three and two attacks: the enemy and a
    spectator get byte-identical answers while the Tutor waits on the Cut (no candidate, and
    ``awaiting_choice`` names it whatever the search finds); the enemy cannot pick, answer or
    pass around it; the player sees what its search finds, with faces, in id order."""
    protocol = Protocol(answer_cache=0)
    draws = (["strike", "guard", "guard", "guard", "mend", "guard", "guard"],
             ["guard", "strike", "barrage", "guard", "strike", "mend", "guard"],
             ["guard", "guard", "mend", "strike", "mend", "guard", "strike"])  # fmt: skip
    texts, found = [], []
    for draw in draws:
        seats = Seats(protocol, with_card(TUTOR, draw))
        tutor = seats.hand_card("player", "tutor")
        aim = seats.call(op="targets", viewer="player", card=tutor)["late_choice"]
        assert aim["candidates"] == sorted(aim["candidates"])  # no draw order
        assert seats.told("player", op="activate", card=tutor)["ok"]
        seats.looks()
        for viewer in OTHERS:
            cut = seats.call(op="cut", viewer=viewer)
            nothing = {"at": "resolution", "chooses": "cards", "zones": ["draw"], "candidates": []}
            assert cut["awaiting_choice"] == "e1" and cut["cut"][0]["late_choice"] == nothing
            assert seats.told(viewer, op="pick", entry="e1")["error"]["code"] == "cut"
        refused = seats.told("enemy", op="pass", choices={"e1": aim["candidates"][:1]})
        assert "the player side's" in refused["error"]["message"], refused
        assert seats.told("enemy", op="pass")["ok"]  # the player's to choose now
        seats.looks()
        refused = seats.told("enemy", op="pass")["error"]
        assert refused["code"] == "cut" and "waits for the player side" in refused["message"]
        late = seats.call(op="cut", viewer="player")["cut"][0]["late_choice"]
        assert late["candidates"] == aim["candidates"] == sorted(late.get("faces", {}))
        found.append(sorted(late.get("faces", {}).values()))
        picked = seats.call(op="pick", viewer="player", entry="e1")
        assert picked["candidates"] == late["candidates"]
        done = seats.answer("player", op="pass", choices={"e1": late["candidates"][:1]})
        assert done["ok"], done
        texts.append(seats.texts)
        seats.close()
    assert found == [["strike"], ["barrage", "strike", "strike"], ["strike", "strike"]]
    assert texts[0] == texts[1] == texts[2]


def test_whether_a_search_of_a_hidden_pile_finds_anything_is_not_told_before_its_owner_looks(
) -> None:  # fmt: skip
    """A Tutor on the Cut whose draw pile lost its last attack still waits for its owner's
    choice (the enemy cannot tell it found nothing); over a public draw pile it does not."""
    from pybridge.runtime import activate, load_battle
    from pybridge.runtime.cut_answers import awaiting_choice

    for shown, waits in (("no_one", "e1"), ("everyone", None)):
        document = with_card(TUTOR, ["strike", *["guard"] * 6])
        document["visibility"] = {"draw": shown}
        battle = load_battle(document)
        activate(battle, "a1")
        assert awaiting_choice(battle) == "e1"  # a strike to find
        top = battle.sides[battle.cut[-1].side].piles[Pile.DRAW][0]
        battle.sides[battle.cut[-1].side].piles[Pile.DRAW].remove(top)  # gone before it resolves
        assert awaiting_choice(battle) == waits, shown


GLANCE = """
from pybridge.extend import Message, Pile

NAME, VERSION = "glance", "1"


def register(words):
    for shown, action in (("everyone", "GlanceOpenly"), ("no_one", "GlanceBlindly")):
        words.choice(f"glance_{shown}", doc="cards to keep on top", ordered=True,
                     visibility=shown, prompt=Message(f"glance.{shown}", "Keep any on top."))
        words.action(action, doc="looks at the top two cards", apply=_glance(shown),
                     asks=(f"glance_{shown}",),
                     describe=Message(f"glance.{shown}.describe", "glance"))


def _glance(shown):
    def glance(node, ctx):
        draw = ctx.piles[Pile.DRAW]
        looked = draw[:2]
        kept = ctx.ask(f"glance_{shown}", node.id, looked)
        del draw[:2]
        draw[:0] = kept
    return glance
"""


def test_a_choice_shown_to_everyone_or_no_one_keeps_its_meaning_and_stays_its_owners(
    tmp_path: Path,
) -> None:
    """``everyone``: every viewer sees the options and their faces, yet only the owner
    answers; ``no_one``: the owner gets the options to answer with but no face, the others
    not even the options."""
    from pybridge import extensions
    from pybridge.service import new_protocol

    (tmp_path / "glance.py").write_text(GLANCE, "utf-8")
    protocol = new_protocol(0, extensions.load([str(tmp_path / "glance.py")]).words)
    for action, shown in (("GlanceOpenly", "everyone"), ("GlanceBlindly", "no_one")):
        card = {**SCRY, "id": "glance", "behavior": {"start": "g", "nodes": [
            {"id": "g", "type": action}]}}  # fmt: skip
        seats = Seats(protocol, with_card(card, ["strike", "mend", *["guard"] * 5]))
        assert seats.told("player", op="activate", card=seats.hand_card("player", "glance"))["ok"]
        asked = {v: seats.answer(v, op="resolve")["error"] for v in ("player", "enemy")}
        mine, theirs = asked["player"]["choice"], asked["enemy"]["choice"]
        assert mine["visibility"] == theirs["visibility"] == shown
        assert (mine["side"], mine["count"], len(mine["options"])) == ("player", 2, 2)
        if shown == "everyone":
            assert sorted(mine["faces"].values()) == ["mend", "strike"]
            assert sorted(theirs["faces"].values()) == ["mend", "strike"]
        else:
            assert mine["faces"] == {} and theirs["options"] == [] and theirs["faces"] == {}
        assert "only the player side" in asked["enemy"]["message"]
        assert seats.told("enemy", op="pass")["ok"]  # left to the player
        refused = seats.told("enemy", op="pass", choices={"e1.g": []})["error"]
        assert refused["code"] == "cut", refused
        done = seats.answer("player", op="pass", choices={"e1.g": mine["options"][:1]})
        assert done["ok"], done
        seats.close()


# -- no authority id reaches a viewer ----------------------------------------------------------
def strings(value: Any) -> Iterator[str]:
    """Every string a JSON answer holds, its keys too."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield key
            yield from strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from strings(item)


def authority_ids_in(answer: Any, ids: set[str]) -> set[str]:
    """The instance ids ``answer`` names: a string that is one, or one quoted in a text."""
    found = set()
    for text in strings(answer):
        if text in ids:
            found.add(text)
        elif "'" in text or '"' in text:
            found |= {i for i in ids if f"'{i}'" in text or f'"{i}"' in text}
    return found


def _asked_of_a_viewer(seats: Seats, viewer: str) -> list[dict[str, Any]]:
    """Every reading answer ``viewer`` can ask now: its view, state, the Cut, and what each
    card it sees in its hand targets, previews and picks."""
    out = [seats.answer(viewer, op=op) for op in ("view", "state", "cut")]
    if viewer == "spectator":
        return out
    hand = next(s for s in out[0]["result"]["view"]["sides"]
                if s["team"] == viewer)["piles"]["hand"]  # fmt: skip
    for card in hand:
        aim = seats.answer(viewer, op="targets", card=card["id"])
        out.append(aim)
        candidates = aim["result"].get("candidates") or [None] if aim["ok"] else []
        for target in candidates:
            out.append(seats.answer(viewer, op="preview", card=card["id"], target=target))
        out.append(seats.answer(viewer, op="pick", card=card["id"], chosen=[]))
    for pile in ("hand", "draw", "discard", "exhaust"):
        out.append(seats.answer(viewer, op="pile", pile=pile))
    return out


def _viewers_move(seats: Seats, rng: random.Random) -> tuple[str, dict[str, Any]] | None:
    """A random legal request of the side that acts now, named by its own view's ids."""
    cut = seats.answer("spectator", op="cut")["result"]
    side = cut["side"]
    view = seats.answer(side, op="view")["result"]["view"]
    if view["result"] is not None:
        return None
    hand = next(s for s in view["sides"] if s["team"] == side)["piles"]["hand"]
    moves: list[dict[str, Any]] = []
    for card in hand:
        aim = seats.answer(side, op="targets", card=card["id"])["result"]
        if aim.get("playable"):
            target = rng.choice(aim["candidates"]) if aim["candidates"] else None
            moves.append({"op": "activate" if cut["cut"] else "play", "card": card["id"],
                          "target": target})  # fmt: skip
    if cut["can_pass"]:
        moves.append({"op": "pass"})
    if cut["can_end_turn"]:
        moves += [{"op": "end_turn"}] * 2
    return (side, rng.choice(moves)) if moves else None


def test_no_answer_to_a_viewer_names_a_card_by_the_authoritys_instance_id() -> None:
    """Duels played through their viewers: no answer any viewer gets (views, events, log
    lines and their sentences' parameters, forecasts, the Cut, targets, previews, picks,
    piles, the search's move, refusals and theirs) names a card instance by the battle's own
    id, which would let a client follow it through hidden piles; the authority's own answers
    name them."""
    protocol = Protocol(answer_cache=0)
    told = named = refusals = lines = 0
    for seed in range(max(DUELS // 8, 4)):
        rng = random.Random(seed)
        battle = duel_document(rng)
        ids = {c["id"] for s in battle["sides"] for p in s["piles"].values() for c in p}
        seats = Seats(protocol, battle)
        answers: list[Any] = [seats.answer("player", op="view")]
        opened = protocol.call(json.dumps({"op": "open", "battle": battle,
                                           "viewers": EVERY_VIEWER}))  # fmt: skip
        answers.append(json.loads(opened)["result"]["views"])
        for _ in range(STEPS):
            for viewer in EVERY_VIEWER:
                answers += _asked_of_a_viewer(seats, viewer)
            move = _viewers_move(seats, rng)
            if move is None:
                break
            side, request = move
            other = "enemy" if side == "player" else "player"
            answers.append(seats.answer(side, op="think", iterations=4, seed=seed))
            refused = seats.answer(other, **{**request, "op": "play"} if "card" in request
                                   else {"op": "end_turn"})  # fmt: skip
            refusals += not refused["ok"]
            if "card" in request:  # the other side names a card it sees by its own id
                answers.append(seats.answer(other, op="play", card=request["card"]))
            answer = seats.answer(side, **request, viewers=EVERY_VIEWER)
            assert answer["ok"], (seed, request, answer)
            views = answer["result"]["views"]
            lines += sum(len(v["log"]) for v in views.values())
            answers += [refused, answer]
        for answer in answers:
            leaked = authority_ids_in(answer, ids)
            assert not leaked, (seed, leaked, answer)
            told += 1
        # The authority's own answers name the instances: the walk finds them.
        authority = seats.call(op="state")["state"]
        named += len(authority_ids_in(authority, ids))
        played = json.loads(protocol.call(json.dumps({"op": "end_turn",
                                                      "session": seats.session})))  # fmt: skip
        named += bool(authority_ids_in(played.get("result", {}).get("log", []), ids))
        seats.close()
    assert told > 1000 and lines > 100 and refusals > 10 and named > 20


def test_a_forecast_names_the_cards_a_viewer_sees_by_its_own_ids() -> None:
    """The Hex exhausts the first card of the player's discard pile (the hand it discards
    as the turn ends), which the player sees: its forecast's line names that card, as the
    player's log would, by the id the player knows it by, never by the instance's own id;
    the authority's forecast names the instance."""
    battle = _intents_battle(0, "strike")
    nodes = battle["moves"][1]["behavior"]["nodes"]
    nodes[0]["source"], nodes[2]["to"] = "DiscardPile", "exhaust"
    text, forecasts = _forecasts(battle, "player")
    hand = json.loads(text)["view"]["piles"]["hand"]
    sentence = forecasts["hex"]["line_messages"][0]
    assert forecasts["hex"]["lines"] == ["Strike moves from the discard pile to the exhaust pile."]
    assert sentence["params"]["card"]["card"] == hand[0]["id"] != "c1"
    assert not authority_ids_in(json.loads(text), {"c1", "c2", "c3"})
    _, told = _forecasts(battle, None)
    assert told["hex"]["line_messages"][0]["params"]["card"]["card"] == "c1"
