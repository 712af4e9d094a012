"""What a card editor needs beside lint and describe: a sandbox battle around the card being
edited, and a library's canonical text for saving it.

The sandbox is built by the runtime, not by the editor: a party of three (one of them fallen,
one more waiting in the reserve) against three enemies of different HP, armor, tier and tags,
the library's cards in the draw pile, and the edited card alone in the hand with energy to
spare, so that every source, selector and action has something to act on.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from ..runtime.definitions import LIBRARY_FORMAT, card_to_json, parse_card
from ..runtime.document import BATTLE_FORMAT
from ..runtime.errors import TargetingError
from ..runtime.reader import Reader
from ..runtime.vocabulary import Vocabulary

#: The edited card's instance id in the sandbox.
SANDBOX_CARD = "sandbox"
#: How many library cards the sandbox's draw pile holds at most.
MAX_DRAW = 20
#: How many cards a pile the designer sets may hold.
MAX_PILE = 60
#: The piles a designer may fill, in the order a sandbox shows them.
PILE_NAMES = ("hand", "draw", "discard", "exhaust")

_PARTY = [
    {"id": "knight", "name": "Knight", "team": "player", "hp": 40, "max_hp": 40,
     "tags": ["human", "melee"]},
    {"id": "cleric", "name": "Cleric", "team": "player", "hp": 18, "max_hp": 30,
     "tags": ["human", "caster"]},
    {"id": "ranger", "name": "Ranger", "team": "player", "hp": 28, "max_hp": 28,
     "tags": ["elf", "ranged"]},
    {"id": "squire", "name": "Squire", "team": "player", "hp": 0, "max_hp": 20,
     "tags": ["human"]},
    {"id": "scout", "name": "Scout", "team": "player", "hp": 16, "max_hp": 16,
     "tags": ["elf"], "zone": "reserve"},
]  # fmt: skip
_ENEMIES = [
    {"id": "goblin", "name": "Goblin", "team": "enemy", "hp": 18, "max_hp": 18,
     "tags": ["goblin"], "tier": 1},
    {"id": "orc", "name": "Orc Brute", "team": "enemy", "hp": 34, "max_hp": 34, "armor": 4,
     "tags": ["orc", "brute"], "tier": 2, "statuses": {"thorns": 2}},
    {"id": "shaman", "name": "Goblin Shaman", "team": "enemy", "hp": 9, "max_hp": 22,
     "tags": ["goblin", "caster"], "tier": 2, "statuses": {"burn": 1}},
]  # fmt: skip
_STATUSES: list[dict[str, Any]] = [
    {"id": "burn", "name": "Burn", "text": "Takes damage at the start of its turn.",
     "decay_on": "turn_start"},
    {"id": "strength", "name": "Strength", "text": "Deals 1 more damage per stack.",
     "damage_dealt": 1},
    {"id": "thorns", "name": "Thorns", "text": "Strikes back at attackers.",
     "hooks": {"attacked": {"start": "hit", "nodes": [
         {"id": "hit", "type": "DealDamage", "amount": "stacks", "source": "Opponent"}]}}},
    {"id": "weak", "name": "Weak", "text": "Deals 2 less damage per stack.",
     "damage_dealt": -2, "decay_on": "turn_end"},
]  # fmt: skip


def sandbox_battle(card: object, library: object = None, statuses: object = None,
                   words: Vocabulary | None = None, piles: object = None
                   ) -> dict[str, Any]:  # fmt: skip
    """A battle document with the card definition ``card`` alone in the hand. ``library``: a
    card library document whose loadable cards fill the draw pile; ``statuses``: status
    definitions the card uses, beside the sandbox's own; ``piles``: what the designer puts in
    the piles instead, pile name -> card ids (of ``card`` or the library's cards), the hand's
    after the edited card. Raises a :class:`~pybridge.runtime.errors.TargetingError` naming
    the card when it does not load, or the pile entry that names no card.
    ``words``: the vocabulary with the game's extensions (the built-in one by default)."""
    edited = parse_card(Reader(card, "card", words=words))
    cards = {edited.id: card_to_json(edited)}
    for other in _library_cards(library, words):
        cards.setdefault(str(other["id"]), other)
    draw = [c for c in cards if c != edited.id][:MAX_DRAW]
    chosen = _chosen_piles(piles, cards)
    own: dict[str, object] = {str(s["id"]): s for s in _STATUSES}
    if isinstance(statuses, list):
        own.update({str(s.get("id")): s for s in statuses if isinstance(s, Mapping)})
    needed = {} if words is None else extensions_needed(words, cards.values())
    return {
        **({"extensions": needed} if needed else {}),
        "format": BATTLE_FORMAT,
        "seed": 1,
        "energy": 10,
        "max_energy": 10,
        "active_player": "knight",
        "units": [dict(u) for u in (*_PARTY, *_ENEMIES)],
        "statuses": list(own.values()),
        "cards": list(cards.values()),
        "piles": {
            "hand": [{"id": SANDBOX_CARD, "card": edited.id}, *chosen.get("hand", [])],
            "draw": chosen.get("draw", [{"id": f"d{i + 1}", "card": c}
                                        for i, c in enumerate(draw)]),
            "discard": chosen.get("discard", []),
            "exhaust": chosen.get("exhaust", []),
        },
    }  # fmt: skip


def _chosen_piles(piles: object, cards: Mapping[str, object]) -> dict[str, list[dict[str, str]]]:
    """The piles a designer set (pile -> card ids) as pile entries with fresh instance ids;
    ``{}`` when none were given."""
    if piles is None:
        return {}
    if not isinstance(piles, Mapping):
        raise TargetingError("expected piles as {pile: [card ids]}", "piles")
    out: dict[str, list[dict[str, str]]] = {}
    for pile, ids in piles.items():
        if pile not in PILE_NAMES:
            raise TargetingError(
                f"unknown pile {pile!r}: expected one of {', '.join(PILE_NAMES)}", "piles"
            )
        if not isinstance(ids, list) or len(ids) > MAX_PILE:
            raise TargetingError(f"expected at most {MAX_PILE} card ids", f"piles.{pile}")
        for i, card_id in enumerate(ids):
            if not isinstance(card_id, str) or card_id not in cards:
                raise TargetingError(
                    f"no card {card_id!r} in the library (or the edited card)",
                    f"piles.{pile}[{i}]",
                )
        out[pile] = [{"id": f"{pile}_{i + 1}", "card": c} for i, c in enumerate(ids)]
    return out


def _library_cards(library: object, words: Vocabulary | None) -> list[dict[str, Any]]:
    """The cards of a library document that load, in their canonical form (broken ones are
    left out: the sandbox plays the edited card)."""
    found = library.get("cards") if isinstance(library, Mapping) else None
    out = []
    for i, raw in enumerate(found if isinstance(found, list) else []):
        try:
            out.append(card_to_json(parse_card(Reader(raw, f"cards[{i}]", words=words))))
        except TargetingError:
            continue
    return out


def library_text(document: object, words: Vocabulary | None = None) -> str:
    """The canonical text of a card library document: each card that loads in its canonical
    form (every field, in the format's order), a card that does not exactly as it was, two
    spaces of indent and a final newline. A library saved in this form and saved again
    without edits gives the same bytes."""
    if not isinstance(document, Mapping) or not isinstance(document.get("cards"), list):
        raise TargetingError('expected a card library: {"format", "cards": [...]}', "document")
    cards = []
    for i, raw in enumerate(document["cards"]):
        try:
            cards.append(card_to_json(parse_card(Reader(raw, f"cards[{i}]", words=words))))
        except TargetingError:
            cards.append(raw)
    head: dict[str, object] = {"format": LIBRARY_FORMAT}
    if isinstance(document.get("extensions"), Mapping) and document["extensions"]:
        head["extensions"] = dict(document["extensions"])  # kept: what the library needs
    text = json.dumps({**head, "cards": cards}, indent=2, ensure_ascii=False)
    return text + "\n"


def extensions_needed(words: Vocabulary, cards: Any) -> dict[str, str]:
    """The loaded extensions whose node types the card documents name, with versions."""
    used: set[str] = set()
    for card in cards:
        behavior = card.get("behavior", {}) if isinstance(card, Mapping) else {}
        for node in behavior.get("nodes", []) if isinstance(behavior, Mapping) else []:
            owner = words.owner_of("node_types", str(node.get("type", "")))
            if owner:
                used.add(owner)
    return {name: words.extensions[name].version for name in sorted(used)}
