"""The JSON formats for battles and card libraries (docs/format.md), loaded and dumped.

Loading validates everything and builds new objects only, so a refused document loads
nothing. :func:`dump_battle` writes the one canonical form that loads back identically.
"""

from __future__ import annotations

import json
from collections.abc import Mapping

from .errors import FormatError
from .graph import EMPTY_BEHAVIOR, parse_behavior
from .model import PILES, Battle, CardDef, CardInstance, Pile, Team, Unit
from .modes import MODE_NAMES
from .reader import MAX_INT, Reader
from .rng import Pcg32

BATTLE_FORMAT = "pybridge/battle@1"
LIBRARY_FORMAT = "pybridge/cards@1"
MAX_UNITS = 64
MAX_CARDS = 2_000
MAX_TEXT = 2_000
_U64 = (1 << 64) - 1

_CARD_KEYS = frozenset(
    {"id", "name", "type", "rarity", "cost", "keywords", "tags", "target", "behavior", "text"}
)
_UNIT_KEYS = frozenset({"id", "name", "team", "hp", "max_hp", "armor", "statuses", "tags", "tier"})
_BATTLE_KEYS = frozenset(
    {
        "format",
        "seed",
        "rng",
        "turn",
        "energy",
        "max_energy",
        "draw_per_turn",
        "reshuffle",
        "active_player",
        "units",
        "cards",
        "piles",
    }
)


# -- cards --------------------------------------------------------------------------------
def parse_card(r: Reader) -> CardDef:
    r.obj(_CARD_KEYS, ("id", "name", "target"))
    return CardDef(
        id=r.field("id").ident(),
        name=r.field("name").text(),
        type=r.field("type", "skill").ident(),
        rarity=r.field("rarity", "common").ident(),
        cost=r.field("cost", 0).integer(0, 99),
        keywords=r.field("keywords", []).str_list(),
        tags=r.field("tags", []).str_list(),
        target=r.field("target").choice(MODE_NAMES),
        behavior=parse_behavior(r.field("behavior")) if r.has("behavior") else EMPTY_BEHAVIOR,
        text=r.field("text", "").text(MAX_TEXT, allow_empty=True),
    )


def _parse_cards(r: Reader, into: dict[str, CardDef]) -> None:
    for cr in r.elements(MAX_CARDS):
        card = parse_card(cr)
        if card.id in into:
            raise cr.field("id").fail("duplicate card id")
        into[card.id] = card


def load_library(document: object) -> dict[str, CardDef]:
    """A card library document -> card definitions by id."""
    r = Reader(document).obj({"format", "cards"}, ("format", "cards"))
    r.field("format").choice((LIBRARY_FORMAT,))
    library: dict[str, CardDef] = {}
    _parse_cards(r.field("cards"), library)
    return library


def card_to_json(card: CardDef) -> dict[str, object]:
    return {
        "id": card.id,
        "name": card.name,
        "type": card.type,
        "rarity": card.rarity,
        "cost": card.cost,
        "keywords": list(card.keywords),
        "tags": list(card.tags),
        "target": card.target.value,
        "behavior": card.behavior.to_json(),
        "text": card.text,
    }


# -- units --------------------------------------------------------------------------------
def parse_unit(r: Reader) -> Unit:
    r.obj(_UNIT_KEYS, ("id", "name", "team", "hp", "max_hp"))
    max_hp = r.field("max_hp").integer(1, MAX_INT)
    hp_r = r.field("hp")
    hp = hp_r.integer(0, MAX_INT)
    if hp > max_hp:
        raise hp_r.fail(f"hp cannot exceed max_hp ({max_hp})")
    statuses: dict[str, int] = {}
    for name, stacks in r.field("statuses", {}).items():
        Reader(name, stacks.path).ident()
        statuses[name] = stacks.integer(1, MAX_INT)
    return Unit(
        id=r.field("id").ident(),
        name=r.field("name").text(),
        team=r.field("team").choice({t.value: t for t in Team}),
        hp=hp,
        max_hp=max_hp,
        armor=r.field("armor", 0).integer(0, MAX_INT),
        statuses=statuses,
        tags=r.field("tags", []).str_list(),
        tier=r.field("tier", 1).integer(0, 1000),
    )


def unit_to_json(unit: Unit) -> dict[str, object]:
    return {
        "id": unit.id,
        "name": unit.name,
        "team": unit.team.value,
        "hp": unit.hp,
        "max_hp": unit.max_hp,
        "armor": unit.armor,
        "statuses": dict(sorted(unit.statuses.items())),
        "tags": list(unit.tags),
        "tier": unit.tier,
    }


# -- battles ------------------------------------------------------------------------------
def load_battle(document: object, library: Mapping[str, CardDef] | None = None) -> Battle:
    """A battle document -> a Battle. ``library`` supplies cards the document does not define."""
    r = Reader(document).obj(_BATTLE_KEYS, ("format", "units", "active_player"))
    r.field("format").choice((BATTLE_FORMAT,))
    cards: dict[str, CardDef] = dict(library or {})
    own: dict[str, CardDef] = {}
    _parse_cards(r.field("cards", []), own)
    for card_id, card in own.items():
        if card_id in cards and cards[card_id] != card:
            raise FormatError("cards", card_id, "card id also defined differently in the library")
        cards[card_id] = card

    units: list[Unit] = []
    seen_units: set[str] = set()
    for ur in r.field("units").elements(MAX_UNITS):
        unit = parse_unit(ur)
        if unit.id in seen_units:
            raise ur.field("id").fail("duplicate unit id")
        seen_units.add(unit.id)
        units.append(unit)
    by_id = {u.id: u for u in units}
    if not any(u.team is Team.PLAYER for u in units):
        raise r.field("units").fail("expected at least one player unit")

    active_r = r.field("active_player")
    active = active_r.ident()
    if active not in by_id or by_id[active].team is not Team.PLAYER:
        raise active_r.fail("expected the id of a player unit")

    instances: dict[str, CardInstance] = {}
    piles: dict[Pile, list[str]] = {pile: [] for pile in PILES}
    piles_r = r.field("piles", {}).obj({p.value for p in PILES})
    for pile in PILES:
        for ir in piles_r.field(pile.value, []).elements(MAX_CARDS):
            instance = _parse_instance(ir, cards, by_id)
            if instance.id in instances:
                raise ir.field("id").fail("duplicate card instance id")
            instances[instance.id] = instance
            piles[pile].append(instance.id)
    if len(instances) > MAX_CARDS:
        raise piles_r.fail(f"at most {MAX_CARDS} card instances")

    seed = r.field("seed", 0).integer(0, _U64)
    rng = Pcg32(seed)
    if r.has("rng"):
        rng_r = r.field("rng").obj({"state", "inc"}, ("state", "inc"))
        rng = Pcg32.from_state(_hex64(rng_r.field("state")), _hex64(rng_r.field("inc")))
    max_energy = r.field("max_energy", 3).integer(0, 99)
    return Battle(
        units=units,
        library=cards,
        cards=instances,
        piles=piles,
        active_player=active,
        seed=seed,
        rng=rng,
        turn=r.field("turn", 1).integer(1, MAX_INT),
        energy=r.field("energy", max_energy).integer(0, 999),
        max_energy=max_energy,
        draw_per_turn=r.field("draw_per_turn", 5).integer(0, 50),
        reshuffle=r.field("reshuffle", True).boolean(),
    )


def _parse_instance(
    r: Reader, cards: Mapping[str, CardDef], units: Mapping[str, Unit]
) -> CardInstance:
    r.obj({"id", "card", "owner"}, ("id", "card"))
    card_r = r.field("card")
    card_id = card_r.ident()
    if card_id not in cards:
        raise card_r.fail("no card with this id in the battle's cards or the library")
    owner = None
    if r.has("owner"):
        owner_r = r.field("owner")
        owner = owner_r.ident()
        if owner not in units or units[owner].team is not Team.PLAYER:
            raise owner_r.fail("expected the id of a player unit")
    return CardInstance(id=r.field("id").ident(), card=cards[card_id], owner=owner)


def _hex64(r: Reader) -> int:
    text = r.text(max_len=16)
    try:
        value = int(text, 16)
    except ValueError:
        raise r.fail("expected 1 to 16 hexadecimal digits") from None
    return value


def dump_battle(battle: Battle) -> dict[str, object]:
    """The canonical JSON-ready form: everything needed to continue the battle identically."""
    piles: dict[str, list[dict[str, str]]] = {}
    for pile in PILES:
        entries = []
        for card_id in battle.piles[pile]:
            instance = battle.cards[card_id]
            entry = {"id": instance.id, "card": instance.card.id}
            if instance.owner is not None:
                entry["owner"] = instance.owner
            entries.append(entry)
        piles[pile.value] = entries
    return {
        "format": BATTLE_FORMAT,
        "seed": battle.seed,
        "rng": {"state": f"{battle.rng.state:016x}", "inc": f"{battle.rng.inc:016x}"},
        "turn": battle.turn,
        "energy": battle.energy,
        "max_energy": battle.max_energy,
        "draw_per_turn": battle.draw_per_turn,
        "reshuffle": battle.reshuffle,
        "active_player": battle.active_player,
        "units": [unit_to_json(u) for u in battle.units],
        "cards": [card_to_json(c) for c in sorted(battle.library.values(), key=lambda c: c.id)],
        "piles": piles,
    }


def canonical_json(battle: Battle) -> str:
    """One stable text per state: sorted keys, no spaces. Equal states give equal text."""
    return json.dumps(
        dump_battle(battle), sort_keys=True, separators=(",", ":"), ensure_ascii=False
    )
