"""Card templates: the common shapes of the targeting guide, as card definitions a card editor
starts a new card from (the protocol's ``templates``).

Each template is a whole card (Card Target, Behavior with node places, and the text the
runtime writes from that Behavior), so an editor copies it and names no node type itself.
"""

from __future__ import annotations

from typing import Any

from ..runtime.definitions import card_to_json, parse_card
from ..runtime.errors import TargetingError
from ..runtime.mode_table import TargetMode
from ..runtime.reader import Reader
from ..runtime.vocabulary import Vocabulary, words_or_builtin
from .describe import spoken_card

#: How far apart the template's nodes are drawn, left to right (an editor's node is ~230 wide).
_STEP = 280

# name, label, what it is for, the card (without text), in the order an editor lists them.
_SHAPES: list[tuple[str, str, str, dict[str, Any]]] = [
    ("single_target_attack", "Single-target attack",
     "The player aims at one enemy; the damage reads Opponent, the submitted enemy.",
     {"type": "attack", "cost": 1, "target": "SingleEnemy", "behavior": {"start": "hit",
      "nodes": [{"id": "hit", "type": "DealDamage", "amount": 6, "source": "Opponent"}]}}),
    ("area_attack", "Area attack",
     "No arrow: every living enemy is hit, through AllOpponents fed into the target port.",
     {"type": "attack", "cost": 2, "target": "AllEnemies", "behavior": {"start": "hit",
      "nodes": [{"id": "foes", "type": "UnitSource", "source": "AllOpponents"},
                {"id": "hit", "type": "DealDamage", "amount": 15,
                 "ports": {"target": "foes"}}]}}),
    ("self_buff", "Self buff",
     "No arrow: the Host strengthens itself, through Self.",
     {"type": "skill", "cost": 1, "target": "Self", "behavior": {"start": "buff",
      "nodes": [{"id": "buff", "type": "GainArmor", "amount": 5, "source": "Self"}]}}),
    ("selector_chain", "Selector chain (cards)",
     "Filter a pile, pick from what is left, act on it: filter the draw pile to Basic "
     "Attack, pick one at random, move it to the hand.",
     {"type": "skill", "cost": 1, "target": "None", "behavior": {"start": "move",
      "nodes": [{"id": "pile", "type": "CardSource", "source": "DrawPile"},
                {"id": "keep", "type": "Filter", "where": {"tag": "basic_attack"},
                 "ports": {"input": "pile"}},
                {"id": "pick", "type": "RandomElements", "count": 1, "ports": {"input": "keep"}},
                {"id": "move", "type": "MoveCard", "to": "hand",
                 "ports": {"target": "pick"}}]}}),
    ("selector_chain_units", "Selector chain (units)",
     "Sort the enemies by HP, lowest first, take the first and hit it.",
     {"type": "attack", "cost": 1, "target": "None", "behavior": {"start": "hit",
      "nodes": [{"id": "foes", "type": "UnitSource", "source": "AllOpponents"},
                {"id": "order", "type": "Sort", "by": "hp", "order": "asc",
                 "ports": {"input": "foes"}},
                {"id": "first", "type": "Take", "count": 1, "ports": {"input": "order"}},
                {"id": "hit", "type": "DealDamage", "amount": 8,
                 "ports": {"target": "first"}}]}}),
]  # fmt: skip


def card_templates(words: Vocabulary | None = None) -> list[dict[str, Any]]:
    """Every template: ``{"name", "label", "doc", "card", "text_message"}``, the card in its
    canonical form with its generated text (``text_message``: that text's sentence tree) and
    each node drawn one step right of the one before. A template that names a word ``words``
    lacks is left out (a game may leave a built-in out)."""
    out = []
    for name, label, doc, shape in _SHAPES:
        card: dict[str, Any] = {"id": name, "name": label, **shape}
        card["behavior"] = {**shape["behavior"], "nodes": [
            {**node, "at": [_STEP * i, 80]} for i, node in enumerate(shape["behavior"]["nodes"])
        ]}  # fmt: skip
        try:
            definition = parse_card(Reader(card, f"templates.{name}", words=words))
        except TargetingError:  # a vocabulary without one of its words
            continue
        made = card_to_json(definition)
        spoken = spoken_card(definition, {}, words)
        made["text"] = spoken.text
        out.append({"name": name, "label": label, "doc": doc, "card": made,
                    "text_message": spoken.message})  # fmt: skip
    return out


#: The side a unit source names for each side a mode reaches relative to the Host (a mode's
#: ``reach``): the Host-relative one, so a Behavior stays right for a player or enemy Host.
_SIDE_OF_REACH = {"enemy": "opponents", "ally": "allies", "other_ally": "allies", "self": "self"}


def mode_sources(words: Vocabulary | None = None) -> dict[str, list[str]]:
    """For each target mode, the unit sources a Behavior reads its targets through: a mode
    that submits units, the sources that read the selection (on its side, or whatever its
    side); an area or Self mode, the sources of that whole side on the field; a mode that
    targets nothing, none (the Behavior decides)."""
    vocabulary = words_or_builtin(words)
    out: dict[str, list[str]] = {}
    for mode in TargetMode:
        facts = mode.facts
        side = _SIDE_OF_REACH.get(str(facts.reach))
        found = []
        for source in vocabulary.unit_sources.values():
            on_field = tuple(source.states) == ("field",)
            if mode.chooses_units:
                fits = source.selection and str(source.side) in (side, "submitted")
            else:
                fits = source.whole and on_field and side is not None and str(source.side) == side
                fits = fits and (mode.is_area or str(facts.reach) == "self")
            if fits:
                found.append(source.name)
        out[mode.value] = found
    return out


def templates_request(request: dict[str, Any], words: Vocabulary | None = None
                      ) -> dict[str, Any]:  # fmt: skip
    """``{}`` -> ``{"templates": [...], "mode_sources": {mode: [source, ...]}}`` (see
    :func:`card_templates` and :func:`mode_sources`)."""
    del request  # nothing to ask: the templates depend only on the vocabulary
    return {"templates": card_templates(words), "mode_sources": mode_sources(words)}
