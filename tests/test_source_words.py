"""A source's words and facts come from the vocabulary that declared it: a game's own unit or
card source is described with the words it declares (``describe=``), lint names it when it
declared none (PB211), and lint's contract checks read its ``limit`` and ``side`` as they read
a built-in source's."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from pybridge.authoring.describe import describe_card, spoken_card
from pybridge.authoring.lint import lint_document
from pybridge.extend import CardWords, Context, Message, Pile, Unit, UnitWords, Words
from pybridge.runtime.definitions import load_library
from pybridge.runtime.vocabulary import BUILTIN, Extension, Vocabulary
from pybridge.service import new_protocol


def _most_hurt(ctx: Context) -> list[Unit]:
    foes = ctx.battle.living(ctx.host.team.opposite)
    return [min(foes, key=lambda unit: unit.hp)] if foes else []


def _cheapest(ctx: Context) -> list[str]:
    return list(ctx.battle.side(ctx.host.team).piles[Pile.HAND])[:1]


def vocabulary(register: Callable[[Words], None]) -> Vocabulary:
    """The built-in words and one game extension, ``game`` 1.0, declared by ``register``."""
    words = BUILTIN.extended()
    extension = Extension("game", "1.0")
    words.begin(extension)
    register(Words(words, extension))
    words.end()
    return words.seal()


def with_words(words: Words) -> None:
    words.unit_source("MostHurt", doc="the opponent with the least health", resolve=_most_hurt,
                      side="opponents", limit=1,
                      describe=Message("game.most_hurt", "the most wounded enemy"))  # fmt: skip
    words.unit_source("Wounded", doc="every wounded ally", resolve=lambda ctx: [],
                      side="allies", whole=False,
                      describe=UnitWords(("ally", "allies"), pre="wounded"))  # fmt: skip
    cheapest = Message("game.cheapest", "the cheapest card in your hand")
    words.card_source("Cheapest", doc="the cheapest card in hand", resolve=_cheapest,
                      places=("hand",), limit=1, describe=cheapest)  # fmt: skip


def without_words(words: Words) -> None:
    words.unit_source("MostHurt", doc="the opponent with the least health", resolve=_most_hurt,
                      side="opponents", limit=1)  # fmt: skip
    words.card_source("Cheapest", doc="the cheapest card in hand", resolve=_cheapest,
                      places=("hand",), limit=1)  # fmt: skip


def card(card_id: str, target: str, text: str, *nodes: dict[str, Any]) -> dict[str, Any]:
    return {"id": card_id, "name": card_id.title(), "type": "skill", "cost": 1,
            "target": target, "text": text,
            "behavior": {"start": nodes[-1]["id"], "nodes": list(nodes)}}  # fmt: skip


def library(*cards: dict[str, Any]) -> dict[str, Any]:
    return {"format": "pybridge/cards@1", "extensions": {"game": "1.0"}, "cards": list(cards)}


HIT = card("finish", "None", "Deal 6 damage to the most wounded enemy.",
           {"id": "hit", "type": "DealDamage", "amount": 6, "source": "MostHurt"})  # fmt: skip
SWEEP = card("sweep", "AllEnemies", "Deal 6 damage to all enemies.",
             {"id": "hit", "type": "DealDamage", "amount": 6, "source": "MostHurt"})  # fmt: skip
TOSS = card("toss", "None", "Discard the cheapest card in your hand.",
            {"id": "toss", "type": "Discard", "source": "Cheapest"})  # fmt: skip
MEND = card("mend", "None", "Restore 3 health to a random wounded ally.",
            {"id": "who", "type": "UnitSource", "source": "Wounded"},
            {"id": "one", "type": "RandomElements", "count": 1, "ports": {"input": "who"}},
            {"id": "heal", "type": "Heal", "amount": 3, "ports": {"target": "one"}})  # fmt: skip


def described(words: Vocabulary, *cards: dict[str, Any]) -> dict[str, str]:
    loaded = load_library(library(*cards), words)
    return {card_id: describe_card(definition) for card_id, definition in loaded.items()}


def codes(words: Vocabulary, *cards: dict[str, Any]) -> list[tuple[str, str | None, str | None]]:
    return [(d.code, d.id, d.node) for d in lint_document(library(*cards), "game.json", words)]


# -- a game source's words ---------------------------------------------------------------------
def test_a_game_source_is_described_with_the_words_it_declares() -> None:
    words = vocabulary(with_words)
    assert described(words, HIT, TOSS, MEND) == {
        "finish": "Deal 6 damage to the most wounded enemy.",
        "toss": "Discard the cheapest card in your hand.",
        "mend": "Restore 3 health to a random wounded ally.",
    }
    assert codes(words, HIT, TOSS, MEND) == []


def test_a_source_s_message_is_in_the_sentence_tree_and_the_message_table() -> None:
    words = vocabulary(with_words)
    spoken = spoken_card(load_library(library(HIT), words)["finish"], None, words)
    assert "game.most_hurt" in json.dumps(spoken.message)
    assert spoken.messages["game.most_hurt"].english == "the most wounded enemy"
    # the message table `pybridge messages` exports for translators
    assert words.owner_of("messages", "game.most_hurt") == "game"
    assert words.messages["game.cheapest"].english == "the cheapest card in your hand"


def test_a_game_source_without_words_describes_as_nothing_and_lint_names_it() -> None:
    words = vocabulary(without_words)
    assert described(words, HIT, TOSS) == {
        "finish": "Deal 6 damage to nothing.",
        "toss": "Discard nothing.",
    }
    found = lint_document(library(HIT, TOSS), "game.json", words)
    named = [d for d in found if d.code == "PB211"]
    assert [(d.id, d.node, d.field) for d in named] == [
        ("finish", "hit", "source"),
        ("toss", "toss", "source"),
    ]
    assert "MostHurt" in named[0].message and "extension 'game'" in named[0].message
    assert "Cheapest" in named[1].message and "describe=" in named[1].fix


# -- a game source's facts ---------------------------------------------------------------------
def test_lint_reads_a_game_source_s_limit_as_a_built_in_s() -> None:
    words = vocabulary(with_words)
    assert codes(words, SWEEP) == [("PB101", "sweep", "hit")]
    opponent = {"id": "hit", "type": "DealDamage", "amount": 6, "source": "Opponent"}
    built_in = card("sweep", "AllEnemies", "Deal 6 damage to all enemies.", opponent)
    assert codes(words, built_in) == [("PB101", "sweep", "hit")]


def test_lint_reads_a_game_source_s_side() -> None:
    def allies(words: Words) -> None:
        words.unit_source("Friends", doc="every ally", resolve=lambda ctx: [], side="allies",
                          whole=True, describe=UnitWords(("ally", "allies")))  # fmt: skip

    friends = {"id": "hit", "type": "DealDamage", "amount": 6, "source": "Friends"}
    hits_friends = card("oops", "AllEnemies", "Deal 6 damage to all allies.", friends)
    assert ("PB109", "oops", None) in codes(vocabulary(allies), hits_friends)


# -- bad words are refused where they are declared ---------------------------------------------
def test_a_source_message_takes_no_parameters() -> None:
    def bad(words: Words) -> None:
        words.unit_source("Who", doc="x", resolve=lambda ctx: [], side="opponents",
                          describe=Message("game.who", "{n} enemies", {"n": "number"}))  # fmt: skip

    with pytest.raises(ValueError, match=r"source 'Who': message 'game\.who' .*no parameters"):
        vocabulary(bad)


def test_a_card_source_s_words_name_one_of_its_places() -> None:
    def bad(words: Words) -> None:
        words.card_source("Top", doc="x", resolve=lambda ctx: [], places=("draw",),
                          describe=CardWords("hand"))  # fmt: skip

    with pytest.raises(ValueError, match=r"card source 'Top': its words name the place 'hand'"):
        vocabulary(bad)


def test_a_unit_source_takes_unit_words() -> None:
    def bad(words: Words) -> None:
        words.unit_source("Who", doc="x", resolve=lambda ctx: [], side="opponents",
                          describe=CardWords(phrase="a card"))  # type: ignore[arg-type]  # fmt: skip

    with pytest.raises(TypeError, match="unit source 'Who': describe is a Message or UnitWords"):
        vocabulary(bad)


def test_the_schema_gives_a_game_source_s_message_and_keeps_the_built_ins_as_they_were() -> None:
    schema = json.loads(new_protocol(words=vocabulary(with_words)).call('{"op": "schema"}'))
    units = {s["name"]: s for s in schema["result"]["unit_sources"]}
    cards = {s["name"]: s for s in schema["result"]["card_sources"]}
    assert units["MostHurt"]["describe"]["id"] == "game.most_hurt"
    assert cards["Cheapest"]["describe"]["english"] == "the cheapest card in your hand"
    assert "describe" not in units["Wounded"] and "describe" not in units["Self"]
