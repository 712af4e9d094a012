"""Card libraries are first-class: encounters refer to their cards by id, and a document the
loader refuses is named by card, node and field id, with the nearest valid name."""

from __future__ import annotations

import json
from typing import Any

import pytest

from pybridge.examples import demo_battle
from pybridge.protocol import Protocol
from pybridge.runtime import LIBRARY_FORMAT, FormatError, canonical_json, load_battle, load_library


def split_demo() -> tuple[dict[str, Any], dict[str, Any]]:
    """The demo battle as a card library and an encounter that names its cards by id."""
    battle = demo_battle()
    library = {"format": LIBRARY_FORMAT, "cards": battle.pop("cards")}
    return library, battle


def call(protocol: Protocol, **request: Any) -> dict[str, Any]:
    answer: dict[str, Any] = json.loads(protocol.call(json.dumps(request)))
    return answer


def test_an_encounter_opens_with_its_cards_from_a_library() -> None:
    library, encounter = split_demo()
    protocol = Protocol()
    opened = call(protocol, op="open", battle=encounter, libraries=[library])
    assert opened["ok"], opened
    sid = opened["result"]["session"]
    played = call(protocol, op="play", session=sid, card="h1", target="orc")
    assert (
        played["ok"] and played["result"]["log"][0]["text"] == "Knight plays Strike at Orc Brute."
    )
    # The state is self-contained: it reopens without the library.
    again = call(protocol, op="open", battle=played["result"]["state"])
    assert again["ok"], again


def test_without_its_library_the_encounter_names_the_missing_card() -> None:
    _, encounter = split_demo()
    refused = call(Protocol(), op="open", battle=encounter)
    assert refused["error"]["code"] == "invalid_field"
    assert refused["error"]["where"] == "battle.piles.hand[0].card"
    assert refused["error"]["message"].endswith(
        "card instance 'h1', field 'card': no card with this id in the battle's cards or the "
        'library, got "strike"'
    )


def test_cards_spread_over_two_libraries_and_a_card_defined_twice() -> None:
    library, encounter = split_demo()
    first = {"format": LIBRARY_FORMAT, "cards": library["cards"][:5]}
    second = {"format": LIBRARY_FORMAT, "cards": library["cards"][5:]}
    assert call(Protocol(), op="open", battle=encounter, libraries=[first, second])["ok"]
    twice = {"format": LIBRARY_FORMAT, "cards": library["cards"][4:]}
    refused = call(Protocol(), op="open", battle=encounter, libraries=[first, twice])["error"]
    card = library["cards"][4]["id"]
    assert refused["where"] == "libraries[1]"
    assert refused["message"] == f"card {card!r} is defined in library 0 and again in library 1"


def test_a_broken_library_card_refuses_the_battle_naming_card_node_and_field() -> None:
    library, encounter = split_demo()
    node = library["cards"][0]["behavior"]["nodes"][0]
    node["sourse"] = node.pop("source")
    error = call(Protocol(), op="open", battle=encounter, libraries=[library])["error"]
    assert error["where"] == "libraries[0].cards[0].behavior.nodes[0].sourse"
    assert (
        "card 'strike', node 'hit', field 'sourse': unknown field; did you mean 'source'?"
        in (error["message"])
    )
    # Only DealDamage's own fields are listed, not every node type's.
    assert "(DealDamage takes: amount, at, id, next, ports, source, type)" in error["message"]
    assert "measure" not in error["message"]


@pytest.mark.parametrize(
    ("change", "where", "words"),
    [
        (lambda d: d["cards"][1].update(cots=1), "cards[1].cots",
         "card 'meteor_strike', field 'cots': unknown field; did you mean 'cost'?"),
        (lambda d: d["cards"][0]["behavior"]["nodes"][0].update(type="DealDamge"),
         "cards[0].behavior.nodes[0].type", "(did you mean 'DealDamage'?)"),
        (lambda d: d["cards"][0]["behavior"]["nodes"][0].update(amount=-3),
         "cards[0].behavior.nodes[0].amount",
         "card 'strike', node 'hit', field 'amount': expected an integer in 0..1000000"),
        (lambda d: d["units"][1].update(hp="many"), "units[1].hp",
         "unit 'cleric', field 'hp': expected an integer"),
        (lambda d: d["statuses"][0].update(decay_on="dusk"), "statuses[0].decay_on",
         "status 'burn', field 'decay_on': expected one of turn_start, turn_end"),
        (lambda d: d["moves"][0]["behavior"]["nodes"][0].pop("amount"),
         "moves[0].behavior.nodes[0].amount",
         "move 'slash', node 'hit', field 'amount': missing required field"),
        (lambda d: d["cards"][0].update(target="SingleEnmy"), "cards[0].target",
         "(did you mean 'SingleEnemy'?)"),
    ],
)  # fmt: skip
def test_every_loader_error_names_what_holds_the_field(change: Any, where: str, words: str) -> None:
    document = demo_battle()
    change(document)
    with pytest.raises(FormatError) as refused:
        load_battle(document)
    assert refused.value.where == where
    assert words in str(refused.value)


def test_a_library_loads_alone_and_its_errors_name_the_card() -> None:
    library, _ = split_demo()
    assert len(load_library(library)) == len(library["cards"])
    library["cards"][2]["target_count"] = 99
    with pytest.raises(FormatError) as refused:
        load_library(library)
    assert f"card {library['cards'][2]['id']!r}, field 'target_count'" in str(refused.value)


def test_node_positions_are_kept_and_change_nothing_else() -> None:
    document = demo_battle()
    plain = canonical_json(load_battle(demo_battle()))
    for i, node in enumerate(document["cards"][0]["behavior"]["nodes"]):
        node["at"] = [40 * i, -20]
    kept = load_battle(document)
    assert kept.library["strike"].behavior.nodes["hit"].at == (0, -20)
    assert canonical_json(load_battle(json.loads(canonical_json(kept)))) == canonical_json(kept)
    assert canonical_json(kept) != plain
    document["cards"][0]["behavior"]["nodes"][0]["at"] = [1, 2, 3]
    with pytest.raises(FormatError, match=r"node 'hit', field 'at'"):
        load_battle(document)


def test_a_cards_owner_plays_it_when_the_instance_names_none() -> None:
    library, encounter = split_demo()
    defend = next(c for c in library["cards"] if c["id"] == "defend")
    defend["owner"] = "cleric"
    encounter["piles"]["hand"] = [{"id": "h1", "card": "defend"}]
    protocol = Protocol()
    sid = call(protocol, op="open", battle=encounter, libraries=[library])["result"]["session"]
    assert call(protocol, op="targets", session=sid, card="h1")["result"]["source"] == "cleric"
    defend["owner"] = "goblin"
    refused = call(Protocol(), op="open", battle=encounter, libraries=[library])["error"]
    assert refused["where"] == "battle.piles.hand[0].card"
    assert "card 'defend' is played by 'goblin', who is not a player unit" in refused["message"]
