"""Generated card text as whole translatable sentences (issue #24, point 4): the describer
gives a tree of declared messages, its English rendered from that tree alone, and a host that
translates the tree by its ids words a card no catalog has an entry for.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from functools import cache
from typing import Any

import pytest

from pybridge.authoring.describe import spoken_card
from pybridge.authoring.phrases import ACTION_WORDS
from pybridge.authoring.speech import Spoken, phrase, render
from pybridge.catalog import message_entries
from pybridge.extensions import load, project_extensions
from pybridge.runtime.definitions import parse_card
from pybridge.runtime.reader import Reader
from pybridge.runtime.vocabulary import builtin
from pybridge.translating import Translator

from .describe_corpus import DEMO, GOLDEN, described
from .test_demo_translation import DEMO_DOCUMENTS, GERMAN


@cache
def corpus() -> tuple[tuple[str, Spoken], ...]:
    return tuple(described())


def _nodes(sentence: Any) -> Iterator[dict[str, Any]]:
    """Every sentence of a tree, the root first."""
    if isinstance(sentence, dict) and "id" in sentence and "params" in sentence:
        yield sentence
        for value in sentence["params"].values():
            yield from _nodes(value)


def test_the_english_of_every_described_card_is_unchanged() -> None:
    pinned = json.loads(GOLDEN.read_text("utf-8"))
    texts = {where: spoken.text for where, spoken in corpus()}
    assert len(texts) > 500
    assert texts == pinned


def test_every_text_is_the_english_of_its_tree_of_declared_messages() -> None:
    words = load(project_extensions(DEMO)).words
    for where, spoken in corpus():
        ids = [node["id"] for node in _nodes(spoken.message)]
        assert ids and all(i in words.messages for i in ids), (where, ids)
        assert render(spoken.message, words.messages) == spoken.text, where
        # the tree is JSON a host is sent as it is
        assert json.loads(json.dumps(spoken.message)) == spoken.message


def test_a_games_extension_action_says_its_own_describe_message_in_the_tree() -> None:
    words = load(project_extensions(DEMO)).words
    definition = {
        "id": "siphon", "name": "Siphon", "target": "SingleEnemy",
        "behavior": {"start": "a", "nodes": [
            {"id": "a", "type": "Drain", "amount": 4, "source": "Opponent"}]},
    }  # fmt: skip
    spoken = spoken_card(parse_card(Reader(definition, "definition", words=words)))
    assert spoken.text == "Drain 4 health from the selected enemy."
    drained = spoken.message["params"]["clause"]
    assert drained["id"] == words.describe["Drain"].id
    assert drained["params"] == {
        "amount": 4,
        "target": {"id": "describe.target.selected_enemy", "params": {}},
    }


def test_the_describers_messages_are_in_the_exported_table() -> None:
    contexts = {entry.context: entry for entry in message_entries(builtin())}
    assert contexts["describe.to.to"].english == "{actions} to {target}"
    drawn = contexts["describe.body.draw.your"]
    assert drawn.plural == "{count} cards from your draw pile"
    assert {"describe.target.all_enemies", "describe.noun.lowest_health_enemy",
            "describe.branch.both", "describe.keyword"} <= set(contexts)  # fmt: skip


# -- the demo's German -------------------------------------------------------------------------
@pytest.fixture(scope="module")
def host() -> Translator:
    return Translator(GERMAN)


def _demo() -> list[tuple[str, Spoken]]:
    files = {p.relative_to(DEMO.parent).as_posix() for p in DEMO_DOCUMENTS}
    return [(w, s) for w, s in corpus() if w.split(":")[0] in files]


def test_every_demo_text_renders_in_german_with_no_english_left(host: Translator) -> None:
    demo = _demo()
    assert len(demo) > 60
    for where, spoken in demo:
        ids = {node["id"] for node in _nodes(spoken.message)}
        assert "describe.words" not in ids, (where, spoken.text)  # no phrase left in English
        german = host.say(spoken.message)
        assert not re.search(r"[{}]", german), (where, german)
        english_words = {"the", "to", "and", "damage", "health", "enemy", "ally", "your"}
        assert not english_words & set(re.findall(r"\w+", german.lower())), (where, german)


@pytest.mark.parametrize(
    ("card", "german"),
    [
        ("strike", "Füge 6 Schaden zu \N{EN DASH} Ziel: der gewählte Gegner."),
        ("second_wind",
         "Wenn du unter halben Leben bist, stelle 8 Leben wieder her. Sonst erhalte 5 Rüstung."),
        ("twin_shot", "Füge 4 Schaden zu \N{EN DASH} Ziel: 2 gewählte Gegner."),
        ("resurrect", "Belebe mit 10 Leben wieder: der erste gefallene Verbündete. Verbannen."),
        ("rally", "Wirf alle Karten aus deiner Hand ab. Ziehe 2 Karten aus deinem "
                  "Nachziehstapel."),
        # the counter's name is its label's translation
        ("flurry", "Füge Schaden in Höhe von 3 \N{MULTIPLICATION SIGN} Kombo plus 2 zu "
                   "\N{EN DASH} Ziel: der gewählte Gegner."),
    ],
)  # fmt: skip
def test_german_generated_text_reads_whole(host: Translator, card: str, german: str) -> None:
    found = [s for w, s in _demo() if w.endswith(f": card {card}")]
    assert found and all(host.say(s.message) == german for s in found)


def test_a_count_of_one_takes_the_german_singular(host: Translator) -> None:
    definition = {
        "id": "peek", "name": "Peek", "target": "None",
        "behavior": {"start": "a", "nodes": [{"id": "a", "type": "Draw", "count": 1}]},
    }  # fmt: skip
    spoken = spoken_card(parse_card(Reader(definition, "definition")))
    assert spoken.text == "Draw 1 card from your draw pile."
    assert host.say(spoken.message) == "Ziehe 1 Karte aus deinem Nachziehstapel."


def test_a_phrase_is_a_counted_message_only_where_its_words_are_that_message() -> None:
    assert phrase("3 times your Combo plus 2") == {
        "id": "describe.counter.times_plus",
        "params": {"count": 3, "counter": "Combo", "plus": 2},
    }
    # "your ..." names a pile here, not a counter
    assert phrase("your discard pile is not empty") == {
        "id": "describe.if.discard.not_empty",
        "params": {},
    }
    assert phrase("your Rage Meter")["params"] == {"counter": "Rage Meter"}
    assert phrase("your rage meter")["id"] == "describe.words"
    assert phrase("up to 3 selected enemies")["params"] == {"count": 3}


def test_a_filtered_group_is_one_message_with_its_qualifiers(host: Translator) -> None:
    definition = {
        "id": "purge", "name": "Purge", "target": "AllEnemies",
        "behavior": {"start": "hit", "nodes": [
            {"id": "all", "type": "UnitSource", "source": "AllOpponents"},
            {"id": "f", "type": "Filter", "where": {"status": "burn", "tier_min": 2},
             "ports": {"input": "all"}},
            {"id": "hit", "type": "DealDamage", "amount": 5, "ports": {"target": "f"}}]},
    }  # fmt: skip
    spoken = spoken_card(parse_card(Reader(definition, "definition")))
    assert spoken.text == "Deal 5 damage to all enemies of tier 2 or higher with Burn."
    target = spoken.message["params"]["clause"]["params"]["target"]
    assert target["id"] == "describe.group.all.enemy"
    assert host.say(spoken.message) == (
        "Füge 5 Schaden zu \N{EN DASH} Ziel: alle Gegner ab Stufe 2 mit Brennen."
    )


def test_every_phrase_of_the_corpus_is_a_message_of_its_own() -> None:
    """No card, move or status of the corpus keeps a phrase in English alone (an empty text,
    a status with nothing to tell, is the one ``describe.words``)."""
    left = {
        node["params"]["words"]
        for _, spoken in corpus()
        for node in _nodes(spoken.message)
        if node["id"] == "describe.words"
    }
    assert left == {""}


def test_an_extension_action_merges_with_its_own_verb_as_before() -> None:
    words = load(project_extensions(DEMO)).words
    nodes = [{"id": "a", "type": "Scry", "count": 3, "next": "b"},
             {"id": "b", "type": "Scry", "count": 2, "next": "c"},
             {"id": "c", "type": "Draw", "count": 2}]  # fmt: skip
    definition = {"id": "x", "name": "X", "target": "None",
                  "behavior": {"start": "a", "nodes": nodes}}  # fmt: skip
    spoken = spoken_card(parse_card(Reader(definition, "definition", words=words)), {}, words)
    assert spoken.text == "Scry 3 and 2. Draw 2 cards from your draw pile."
    first, rest = spoken.message["params"]["first"], spoken.message["params"]["rest"]
    assert first["params"]["clause"] == {
        "id": "describe.words",
        "params": {"words": "scry 3 and 2"},
    }
    assert rest["params"]["clause"]["id"] == "describe.act.draw"


def test_every_use_of_every_action_verb_has_its_messages() -> None:
    messages = builtin().messages
    for name, row in ACTION_WORDS.items():
        for verb in (row.other, row.itself, row.ally, row.attacker):
            if verb is None:
                continue
            # an object verb says its body after the units ("with") or has none
            kinds = {"to": ["act"], "plain": ["act"], "give": ["give"],
                     "object": ["object", "object.with"]}[verb.form]  # fmt: skip
            said = [
                all(f"describe.{kind.partition('.')[0]}.{verb.verb}{suffix}{tail}" in messages
                    for suffix in ("", ".third"))
                for kind in kinds
                for tail in [f".{kind.partition('.')[2]}" if "." in kind else ""]
            ]  # fmt: skip
            assert any(said), (name, verb)
            if verb.form == "to":
                assert f"describe.to.{verb.prep}" in messages, name
        if row.player:
            assert f"describe.act.{row.other.verb}.player" in messages, name
