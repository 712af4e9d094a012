"""Non-interference of views (issue #27, item 2): two duels that differ only in cards one
player cannot see give that player byte-identical answers at every step, up to the step that
reveals a differing card to it, and for the whole game when the difference stays in cards it
never sees. Moves are picked by a seeded generator from the runtime's own legal answers.

CI plays ``PYBRIDGE_DUELS`` random duel pairs of each kind (40 by default, about 25 s);
the issue's measure is ``PYBRIDGE_DUELS=500 python -m pytest tests/test_non_interference.py``."""

from __future__ import annotations

import json
import os
import random
from typing import Any

from pybridge.examples import rivals_battle
from pybridge.protocol import Protocol

DUELS = int(os.environ.get("PYBRIDGE_DUELS", "40"))
STEPS = 40
SECRET = "5e" * 32  # both duels of a pair share it, as a resumed match shares its snapshot
CARDS = ("strike", "barrage", "guard", "countermand", "rally")


def duel_document(rng: random.Random) -> dict[str, Any]:
    """The rivals' battle with a random seed and random decks (same instance ids)."""
    battle = rivals_battle()
    battle["seed"], battle["secret"] = rng.randrange(2**32), SECRET
    defined = {c["id"] for c in battle["cards"]}
    for side in battle["sides"]:
        for pile in side["piles"].values():
            for card in pile:
                card["card"] = rng.choice([c for c in CARDS if c in defined])
                card.pop("owner", None)
    return battle


def hidden_from(battle: dict[str, Any], viewer: str) -> list[dict[str, Any]]:
    """The card instances ``viewer`` cannot see in a document: every draw pile, and the
    other side's hand."""
    out = []
    for side in battle["sides"]:
        out += side["piles"]["draw"]
        if side["team"] != viewer:
            out += side["piles"]["hand"]
    return out


def differing(battle: dict[str, Any], rng: random.Random, only: set[str] | None = None
              ) -> dict[str, Any]:  # fmt: skip
    """``battle`` with other cards in some instances the player cannot see."""
    other: dict[str, Any] = json.loads(json.dumps(battle))
    for card in hidden_from(other, "player"):
        if (only is None or card["id"] in only) and rng.random() < 0.5:
            card["card"] = rng.choice([c for c in CARDS if c != card["card"]])
    return other


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

    def step(self, request: dict[str, Any]) -> str:
        """The player's answer to ``request`` and its view after it, as text."""
        answer = self.call(**request, viewers=["player"])
        view = self.call(op="view", viewer="player")
        cut = self.call(op="cut", viewer="player")
        return json.dumps([answer, view, cut], sort_keys=True)


def play_out(protocol: Protocol, battle: dict[str, Any], rng: random.Random
             ) -> tuple[list[dict[str, Any]], list[str], list[set[str]], Duel]:  # fmt: skip
    """The requests of a random duel, the player's answers, and after each step the cards
    revealed to the player so far (their player stint is past 0: they were hidden at first)."""
    duel = Duel(protocol, battle)
    requests, answers, shown = [], [duel.opened], []
    for _ in range(STEPS):
        request = duel.legal(rng)
        if request is None:
            break
        requests.append(request)
        answers.append(duel.step(request))
        stints = duel.call(op="state")["state"]["stints"]
        shown.append({card for card, counts in stints.items() if counts[0] > 0})
    return requests, answers, shown, duel


def test_views_do_not_tell_cards_the_player_cannot_see_until_one_is_revealed() -> None:
    protocol = Protocol(answer_cache=0)
    compared = revealed = 0
    for seed in range(DUELS):
        rng = random.Random(seed)
        battle = duel_document(rng)
        other = differing(battle, rng)
        requests, answers, shown, first = play_out(protocol, battle, rng)
        changed = {a["id"] for a, b in zip(hidden_from(battle, "player"),
                                           hidden_from(other, "player"), strict=True)
                   if a["card"] != b["card"]}  # fmt: skip
        second = Duel(protocol, other)
        assert second.opened == answers[0], seed
        for index, request in enumerate(requests):
            if shown[index] & changed:  # this step shows the player a differing card
                revealed += 1
                break
            assert second.step(request) == answers[index + 1], (seed, index, request)
            compared += 1
        protocol.call(json.dumps({"op": "close", "session": first.session}))
        protocol.call(json.dumps({"op": "close", "session": second.session}))
    assert compared > DUELS and revealed  # the duels got somewhere, and some cards showed


def test_cards_the_player_never_sees_never_change_its_views() -> None:
    protocol = Protocol(answer_cache=0)
    for seed in range(DUELS):
        rng = random.Random(10_000 + seed)
        battle = duel_document(rng)
        requests, answers, _, first = play_out(protocol, battle, random.Random(seed))
        snapshot = first.call(op="state")["state"]
        never = {card for card, stints in snapshot["stints"].items() if stints[0] == 0}
        never |= {c["id"] for c in hidden_from(battle, "player")} - set(snapshot["stints"])
        never &= {c["id"] for c in hidden_from(snapshot, "player")}
        other = differing(battle, rng, never)
        second = Duel(protocol, other)
        assert second.opened == answers[0], seed
        for index, request in enumerate(requests):
            assert second.step(request) == answers[index + 1], (seed, index, request)
        for duel in (first, second):
            protocol.call(json.dumps({"op": "close", "session": duel.session}))
