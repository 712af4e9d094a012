"""The strict law's hard cases (issue 20) as battles ``pybridge fuzz`` keeps open, and labelled
requests that reach each case when they are sent in order.

:func:`law_battle` (the fuzzer's session ``s3``): late choices of units and cards, locked
targets, an "all ~" over several card types, a target that became irrelevant, ``end_turn``
while the Cut holds effects, and a lone enemy whose own AI wards it against a late choice.
:func:`loss_battle` (``s4``): AllUnits in battle order, actions skipping a unit that left the
field, a connected port that yields nothing, a random single pick among enemies veiled against
single-target effects, a random target lost before resolution, and an "all ~ in these
locations" emptied by a response. :func:`bounds_battle` (``s5``): two Cut entries that each
fit the work budget of a request, and together do not.

Each request comes with a label (empty for requests that only lead up to a case);
tests/test_saved_battles.py checks what each labelled request is answered.
"""

from __future__ import annotations

import itertools
from typing import Any

Doc = dict[str, Any]
#: A request and the case it reaches ("" for one that only leads up to a case).
Case = tuple[str, Doc]


def unit(uid: str, team: str = "enemy", **extra: Any) -> Doc:
    return {"id": uid, "name": uid.title(), "team": team, "hp": 20, "max_hp": 20, **extra}


def chain(*nodes: Doc) -> Doc:
    """A Behavior running ``nodes`` one after the other."""
    chained = [dict(n) for n in nodes]
    for first, second in itertools.pairwise(chained):
        first["next"] = second["id"]
    return {"start": chained[0]["id"], "nodes": chained} if chained else {"nodes": []}


def act(node_id: str, node_type: str, **fields: Any) -> Doc:
    return {"id": node_id, "type": node_type, **fields}


def card(cid: str, target: str, *nodes: Doc, **extra: Any) -> Doc:
    return {"id": cid, "name": cid.title(), "target": target, "behavior": chain(*nodes), **extra}


def move(mid: str, target: str, *nodes: Doc, response: bool = True) -> Doc:
    return {"id": mid, "name": mid.title(), "target": target, "behavior": chain(*nodes),
            "response": response}  # fmt: skip


def battle(seed: int, units: list[Doc], cards: list[Doc], hand: list[str], **extra: Any) -> Doc:
    """A strict battle; the hand holds ``c1``, ``c2``... of the ``hand`` card ids."""
    piles = {"hand": [{"id": f"c{i}", "card": c} for i, c in enumerate(hand, 1)],
             **extra.pop("piles", {})}  # fmt: skip
    return {"format": "pybridge/battle@1", "seed": seed, "rules": "strict",
            "active_player": "hero", "units": units, "cards": cards, "piles": piles,
            **extra}  # fmt: skip


HIT = act("hit", "DealDamage", amount=4, source="Target")
#: "All ~ over several card types": discard and Cut cards that are attacks or curses.
PURGE = card("purge", "None", act("out", "Exhaust", source="DiscardPile"),
             card_targets={"zones": ["discard", "cut"],
                           "where": {"type": ["attack", "curse"]}})  # fmt: skip
HEX = card("hex", "None", type="curse")


def law_battle() -> Doc:
    """A lone orc that can ward itself; the hero's late choices, locked and marked targets."""
    cards = [
        card("late", "SingleEnemy", HIT, act("guard", "GainArmor", amount=2, source="Self"),
             choose_on_resolve=True),
        card("dig", "None", act("take", "MoveCard", to="hand", source="ChosenCards"),
             choose_on_resolve=True, target_count=2, up_to=True,
             card_targets={"zones": ["draw"], "where": {"type": "attack"}}),
        PURGE,
        card("jab", "SingleEnemy", HIT, type="attack"),
        card("brand", "SingleEnemy", HIT, target_filter={"status": "mark"}),
        HEX,
    ]  # fmt: skip
    moves = [
        move("hide", "Self", act("w", "ApplyStatus", status="ward", source="Self")),
        move("cleanse", "Self", act("c", "RemoveStatus", status="mark", source="Self")),
        move("bite", "SingleEnemy", HIT, response=False),
    ]
    units = [unit("hero", "player"), unit("mage", "player"),
             unit("orc", statuses={"mark": 1}, moves=["hide", "cleanse", "bite"]),
             unit("wolf", zone="reserve", moves=["bite"])]  # fmt: skip
    statuses = [{"id": "ward", "name": "Ward", "protection": "all"}, {"id": "mark", "name": "Mark"}]
    piles = {"draw": [{"id": "d1", "card": "jab"}, {"id": "d2", "card": "late"}],
             "discard": [{"id": "x1", "card": "hex"}]}  # fmt: skip
    return battle(5, units, cards, ["late", "dig", "purge", "jab", "brand"], moves=moves,
                  statuses=statuses, piles=piles)  # fmt: skip


def law_cases(session: str) -> list[Case]:
    """Requests on :func:`law_battle` opened as ``session``. Entry ids (a play takes one
    too): e1 the purge, e2 the jab, e3 the brand, e4 the orc's cleanse, e5 the dig, e6 the
    late card, e7 the orc's hide."""
    s = {"session": session}
    return [
        ("", {"op": "targets", **s, "card": "c1"}),
        ("", {"op": "targets", **s, "card": "c2"}),
        ("several card types: playable", {"op": "targets", **s, "card": "c3"}),
        ("", {"op": "preview", **s, "card": "c1", "target": "orc"}),
        ("", {"op": "preview", **s, "card": "c2", "target": ["d1"]}),
        ("several card types: a curse only", {"op": "play", **s, "card": "c3"}),
        ("", {"op": "activate", **s, "card": "c4", "target": "orc"}),
        ("locked card target", {"op": "resolve", **s, "choices": {"e2": "orc"}}),
        ("choice for no entry", {"op": "resolve", **s, "choices": {"e9": "orc"}}),
        ("end_turn while the Cut waits", {"op": "end_turn", **s}),
        ("play while the Cut waits", {"op": "play", **s, "card": "c5", "target": "orc"}),
        ("", {"op": "resolve", **s}),
        ("", {"op": "activate", **s, "card": "c5", "target": "orc"}),
        ("", {"op": "respond", **s, "unit": "orc", "move": "cleanse"}),
        ("target became irrelevant", {"op": "resolve", **s}),
        ("", {"op": "activate", **s, "card": "c2"}),
        ("cards chosen on resolve", {"op": "resolve", **s, "choices": {"e5": ["d1"]}}),
        ("", {"op": "activate", **s, "card": "c1"}),
        ("", {"op": "cut", **s}),
        ("the enemy AI wards its lone unit", {"op": "pass", **s}),
        ("locked move target", {"op": "pass", **s, "choices": {"e7": "orc"}}),
        ("", {"op": "pass", **s, "choices": {"e6": "orc"}}),
        ("late choice: not a candidate", {"op": "resolve", **s, "choices": {"e6": "orc"}}),
        ("late choice: no candidate left", {"op": "resolve", **s}),
        ("end_turn after the Cut", {"op": "end_turn", **s}),
        ("", {"op": "state", **s}),
    ]


def loss_battle() -> Doc:
    """An imp listed first, veiled orc and ogre, a rat; the orc answers with a retreat of an
    ally or by recycling the discard pile."""
    foes = act("foes", "UnitSource", source="AllOpponents")
    dragons = act("dragons", "Filter", where={"tag": "dragon"}, ports={"input": "foes"})
    smite = act("hit", "DealDamage", amount=9, source="AllOpponents", ports={"target": "dragons"})
    cards = [
        card("quake", "None", act("q", "DealDamage", amount=1, source="AllUnits")),
        card("feint", "SingleEnemy", act("away", "Withdraw", source="Target"), HIT),
        {**card("dragonbane", "None"),
         "behavior": {"start": "hit", "nodes": [foes, dragons, smite]}},
        card("gamble", "RandomOpponent", HIT),
        PURGE,
        HEX,
    ]  # fmt: skip
    moves = [
        move("retreat", "OtherAlly", act("r", "Withdraw", source="Target")),
        move("recycle", "None", act("m", "MoveCard", to="draw", source="DiscardPile")),
    ]
    veiled = {"veil": 1}
    units = [unit("imp"), unit("hero", "player"),
             unit("orc", statuses=veiled, moves=["retreat", "recycle"]),
             unit("ogre", statuses=veiled), unit("rat")]  # fmt: skip
    return battle(3, units, cards, ["quake", "feint", "dragonbane", "gamble", "purge"],
                  moves=moves, statuses=[{"id": "veil", "name": "Veil", "protection": "single"}],
                  piles={"discard": [{"id": "x1", "card": "hex"}]})  # fmt: skip


def loss_cases(session: str) -> list[Case]:
    """Requests on :func:`loss_battle` opened as ``session``. Entry ids: e1 to e3 the plays,
    e4 the gamble, e5 the orc's retreat, e6 the purge, e7 the orc's recycle."""
    s = {"session": session}
    return [
        ("AllUnits in battle order", {"op": "play", **s, "card": "c1"}),
        ("left the field mid-Behavior", {"op": "play", **s, "card": "c2", "target": "rat"}),
        ("connected port yields nothing", {"op": "play", **s, "card": "c3"}),
        ("random single pick: range", {"op": "targets", **s, "card": "c4"}),
        ("random single pick", {"op": "activate", **s, "card": "c4"}),
        ("", {"op": "respond", **s, "unit": "orc", "move": "retreat", "target": "imp"}),
        ("random target lost", {"op": "resolve", **s}),
        ("", {"op": "activate", **s, "card": "c5"}),
        ("", {"op": "respond", **s, "unit": "orc", "move": "recycle"}),
        ("all in locations emptied", {"op": "resolve", **s}),
        ("", {"op": "end_turn", **s}),
    ]


def bounds_battle() -> Doc:
    """Two pokes at an orc whose spite reacts to every hit with a Behavior at the evaluation
    limit: one poke resolves well within a request's work budget, two do not. The orc's stall
    gains it a point of armor: a response that changed nothing would not be made."""
    depth, actions = 43, 45  # a Sort chain and the actions reading it: about 2,048 evaluations
    sorts = [act("s0", "UnitSource", source="Self")]
    sorts += [act(f"s{i}", "Sort", by="hp", ports={"input": f"s{i - 1}"})
              for i in range(1, depth + 1)]  # fmt: skip
    reads = chain(*[act(f"a{i}", "RemoveStatus", status="none", ports={"target": f"s{depth}"})
                    for i in range(actions)])  # fmt: skip
    spite = {"id": "spite", "name": "Spite",
             "hooks": {"attacked": {**reads, "nodes": sorts + reads["nodes"]}}}  # fmt: skip
    poke = card("poke", "None", *[act(f"p{i}", "DealDamage", amount=0, source="AllOpponents")
                                  for i in range(55)])  # fmt: skip
    units = [unit("hero", "player"), unit("orc", statuses={"spite": 1}, moves=["stall"])]
    return battle(1, units, [poke], ["poke", "poke"], statuses=[spite],
                  moves=[move("stall", "None", act("g", "GainArmor", amount=1,
                                                   source="Self"))])  # fmt: skip


def bounds_cases(session: str) -> list[Case]:
    """Requests on :func:`bounds_battle` opened as ``session``: a Cut of two pokes, each
    answered by the orc's AI with a stall, resolved in one request (refused), then a poke
    alone, then the rest: a stall and a poke."""
    s = {"session": session}
    return [
        ("", {"op": "activate", **s, "card": "c1"}),
        ("", {"op": "pass", **s}),
        ("", {"op": "activate", **s, "card": "c2"}),
        ("", {"op": "pass", **s}),
        ("one work budget per request", {"op": "resolve", **s}),
        ("", {"op": "pass", **s}),
        ("one entry fits the budget", {"op": "pass", **s}),
        ("so do a poke and a stall", {"op": "resolve", **s}),
    ]
