"""PB210: card text that drops a restriction of the Behavior's range (tier, tag, status,
health), told in the describer's own words."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import pytest

from pybridge.authoring.describe import describe_card
from pybridge.authoring.lint import lint_card
from pybridge.examples import demo_battle
from pybridge.runtime import load_battle, load_library

DATA = Path(__file__).resolve().parent / "data"

FOES = {"id": "foes", "type": "UnitSource", "source": "AllOpponents"}
HIT = {"id": "hit", "type": "DealDamage", "amount": 8, "ports": {"target": "some"}}


def card(target: str, *nodes: dict[str, Any], text: str, start: str = "hit", **extra: Any) -> Any:
    document = {
        "format": "pybridge/cards@1",
        "cards": [
            {
                "id": "c",
                "name": "C",
                "target": target,
                "text": text,
                "behavior": {"start": start, "nodes": list(nodes)},
                **extra,
            }
        ],
    }
    (definition,) = load_library(document).values()
    return definition


def all_enemies_where(where: dict[str, Any], text: str) -> Any:
    some = {"id": "some", "type": "Filter", "where": where, "ports": {"input": "foes"}}
    return card("AllEnemies", FOES, some, HIT, text=text)


def restriction_findings(definition: Any) -> list[Any]:
    return [d for d in lint_card(definition) if d.code == "PB210"]


#: (where, the describer's words for it, an authored text that states it another way)
KINDS: dict[str, tuple[dict[str, Any], str, str]] = {
    "tier": ({"tier_min": 2}, "of tier 2 or higher", "Deal 8 damage to all tier 2 or higher foes."),
    "exact tier": ({"tier": 3}, "tier 3", "Deal 8 damage to every enemy of tier 3."),
    "tag": ({"tag": "goblin"}, "Goblin", "Deal 8 damage to all Goblins."),
    "status": ({"status": "burn"}, "with Burn", "Deal 8 damage to all Burning enemies."),
    "health": (
        {"hp_percent_max": 50},
        "with at most 50% health",
        "Deal 8 damage to all enemies at most 50% health.",
    ),
    "health span": (
        {"hp_percent_min": 20, "hp_percent_max": 60},
        "with 20% to 60% health",
        "Deal 8 damage to all enemies that have 20% to 60% health.",
    ),
}


@pytest.mark.parametrize("kind", list(KINDS))
def test_each_restriction_the_text_drops_is_reported_with_the_describers_words(kind: str) -> None:
    where, words, _ = KINDS[kind]
    dropped = all_enemies_where(where, "Deal 8 damage to all enemies.")
    (finding,) = restriction_findings(dropped)
    assert (finding.field, finding.path, finding.node) == ("text", "text", None)
    assert f'"{words}"' in finding.message and "'some'" in finding.message
    generated = describe_card(dropped)
    assert words in generated
    assert finding.fix == f'say "{words}" as the describer does (generated: "{generated}")'


@pytest.mark.parametrize("kind", list(KINDS))
def test_a_text_that_states_the_restriction_is_not_reported(kind: str) -> None:
    where, _, other_words = KINDS[kind]
    generated = describe_card(all_enemies_where(where, "x"))
    assert restriction_findings(all_enemies_where(where, generated)) == []
    assert restriction_findings(all_enemies_where(where, other_words)) == []


def test_a_number_must_be_the_same_and_a_short_word_whole() -> None:
    assert restriction_findings(
        all_enemies_where({"tier_min": 2}, "Deal 8 damage to all enemies of tier 20 or higher.")
    )
    assert restriction_findings(all_enemies_where({"tag": "ox"}, "Deal 8 damage to all oxen."))
    assert not restriction_findings(all_enemies_where({"tag": "ox"}, "Deal 8 damage to all Ox."))


def test_restrictions_on_one_unit_the_target_filter_and_several_at_once() -> None:
    burning = {"id": "some", "type": "Filter", "where": {"status": "burn"}, "ports": {"input": "t"}}
    target = {"id": "t", "type": "UnitSource", "source": "Target"}
    one = card("SingleEnemy", target, burning, HIT, text="Deal 8 damage to the selected enemy.")
    (finding,) = restriction_findings(one)
    assert '"has Burn"' in finding.message  # "... to the selected enemy if it has Burn."
    told = card("SingleEnemy", target, burning, HIT, text=describe_card(one))
    assert restriction_findings(told) == []
    aimed = {"id": "hit", "type": "DealDamage", "amount": 8, "source": "Target"}
    big = card("SingleEnemy", aimed, text="Deal 8 damage to the selected enemy.",
               target_filter={"tier_min": 2})  # fmt: skip
    (finding,) = restriction_findings(big)
    assert (
        "the card's target filter" in finding.message and '"of tier 2 or higher"' in finding.message
    )
    assert "of tier 2 or higher" in describe_card(big)
    both = all_enemies_where({"tag": "goblin", "status": "burn"}, "Deal 8 damage to all Goblins.")
    assert ['"with Burn"' in d.message for d in restriction_findings(both)] == [True]


def test_a_condition_is_not_the_range() -> None:
    """A Filter that only a Gate's condition reads restricts when, not whom."""
    some = {"id": "some", "type": "Filter", "where": {"status": "burn"}, "ports": {"input": "foes"}}
    test = {"id": "any", "type": "Condition", "test": "not_empty", "ports": {"input": "some"}}
    gate = {"id": "gate", "type": "Gate", "ports": {"condition": "any"}, "next": "hit"}
    hit = {"id": "hit", "type": "DealDamage", "amount": 8, "source": "AllOpponents"}
    guarded = card("AllEnemies", FOES, some, test, gate, hit, start="gate",
                   text="If an enemy is burning, deal 8 damage to all enemies.")  # fmt: skip
    assert restriction_findings(guarded) == []


def _libraries() -> list[Any]:
    libraries = [load_battle(demo_battle()).library]
    for name in ("clean_cards.json", "broken_cards.json"):
        document = json.loads((DATA / name).read_text("utf-8"))
        libraries.append(load_library(document))
    return [c for library in libraries for c in library.values()]


def test_the_describers_own_text_never_drops_a_restriction() -> None:
    for definition in _libraries():
        rewritten = dataclasses.replace(definition, text=describe_card(definition))
        assert restriction_findings(rewritten) == [], rewritten.text
