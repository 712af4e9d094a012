"""The JSON format for battles (docs/format.md), loaded and dumped; the definitions in it are
read and written by :mod:`.definitions`.

Loading validates everything and builds new objects only, so a refused document loads
nothing. :func:`dump_battle` writes the one canonical form that loads back identically.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Any

from .calls import check_calls
from .definitions import (
    MAX_CARDS,
    MAX_DEFINITIONS,
    card_to_json,
    move_to_json,
    parse_art,
    parse_card,
    parse_definitions,
    parse_move,
    parse_status,
    status_to_json,
)
from .errors import FormatError
from .migrate import BATTLE, CURRENT, to_current, versions
from .model import (
    DEFAULT_VISIBILITY,
    HAND_AT_TURN_END,
    MAX_CUT,
    PILES,
    Battle,
    CardDef,
    CardInstance,
    CutEntry,
    Intent,
    MoveDef,
    Pile,
    Rules,
    SideState,
    StatusDef,
    Team,
    Unit,
    Zone,
)
from .reader import MAX_INT, Reader
from .rng import Pcg32
from .vocabulary import Vocabulary, extensions_used, needed_extensions, words_or_builtin

BATTLE_FORMAT = CURRENT[BATTLE]
MAX_UNITS = 64
#: Distinct status ids in a battle (definitions, unit statuses, ApplyStatus nodes), so no unit
#: can ever carry more than this many and a saved battle always loads back.
MAX_STATUS_IDS = 500
_U64 = (1 << 64) - 1
#: What activation names a Cut entry: ``e`` and its number (``next_entry`` when it was made).
_ENTRY_ID = re.compile(r"e[1-9][0-9]*")

_UNIT_KEYS = frozenset(
    {"id", "name", "team", "hp", "max_hp", "armor", "statuses", "tags", "tier", "moves",
     "intent", "zone", "art"}
)  # fmt: skip
_BATTLE_KEYS = frozenset(
    {"format", "seed", "rng", "turn", "energy", "max_energy", "draw_per_turn", "reshuffle",
     "active_player", "units", "cards", "statuses", "moves", "piles", "result", "rules", "cut",
     "next_entry", "counters", "extensions", "sides", "turn_side", "visibility", "secret",
     "stints", "deck_lists"}
)  # fmt: skip
#: What a pile's ``visibility`` may say: who sees its cards' faces.
ZONE_VISIBILITY = ("everyone", "owner", "no_one")
#: Who may see the face of a face-down card (``visibility.face_down``): its own side, or nobody.
FACE_DOWN_VISIBILITY = ("owner", "no_one")
#: What ``deck_lists`` may say: whose deck lists a side knows (none, its own, or both).
DECK_LISTS = ("hidden", "own", "public")
#: A per-battle secret for view ids: 16 to 64 bytes, written in hexadecimal.
_SECRET = re.compile(r"(?:[0-9a-f]{2}){16,64}")
#: What a ``sides`` entry holds: a card-playing side's own state.
_SIDE_KEYS = frozenset({"team", "piles", "energy", "max_energy", "draw_per_turn",
                        "active_player", "hand_at_turn_end"})  # fmt: skip
#: The battle keys a two-sided battle gives per side instead.
_PER_SIDE = ("piles", "energy", "max_energy", "draw_per_turn", "active_player")


# -- units --------------------------------------------------------------------------------
def parse_unit(r: Reader, moves: Mapping[str, MoveDef]) -> Unit:
    r = r.named("unit")
    r.obj(_UNIT_KEYS, ("id", "name", "team", "hp", "max_hp"), whose="a unit")
    max_hp = r.field("max_hp").integer(1, MAX_INT)
    hp_r = r.field("hp")
    hp = hp_r.integer(0, MAX_INT)
    if hp > max_hp:
        raise hp_r.fail(f"hp cannot exceed max_hp ({max_hp})")
    statuses: dict[str, int] = {}
    for name, stacks in r.field("statuses", {}).items(MAX_STATUS_IDS):
        Reader(name, stacks.path).ident()
        statuses[name] = stacks.integer(1, MAX_INT)
    move_ids = r.field("moves", []).str_list()
    for i, move_id in enumerate(move_ids):
        if move_id not in moves:
            raise r.field("moves").elements()[i].fail("no move with this id in the battle")
    intent = None
    ir = r.field("intent", None)
    if ir.value is not None:
        # A host receives each intent with its ``forecast`` (pybridge.runtime.forecast), which
        # is derived from the battle: a state sent back as it came is read without it.
        ir.obj({"move", "target", "forecast"}, ("move",))
        move_r = ir.field("move")
        if move_r.ident() not in move_ids:
            raise move_r.fail("expected one of this unit's moves")
        target_r = ir.field("target", None)
        intent = Intent(move_r.ident(), None if target_r.value is None else target_r.ident())
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
        moves=move_ids,
        intent=intent,
        zone=r.field("zone", "field").choice({z.value: z for z in Zone}),
        art=parse_art(r),
    )


def unit_to_json(unit: Unit) -> dict[str, object]:
    out: dict[str, object] = {
        "id": unit.id, "name": unit.name, "team": unit.team.value, "hp": unit.hp,
        "max_hp": unit.max_hp, "armor": unit.armor, "statuses": dict(sorted(unit.statuses.items())),
        "tags": list(unit.tags), "tier": unit.tier, "moves": list(unit.moves),
        "intent": None if unit.intent is None
        else {"move": unit.intent.move, "target": unit.intent.target},
        "zone": unit.zone.value,
    }  # fmt: skip
    if unit.art is not None:
        out["art"] = unit.art
    return out


# -- battles ------------------------------------------------------------------------------
def load_battle(document: object, library: Mapping[str, CardDef] | None = None,
                words: Vocabulary | None = None) -> Battle:  # fmt: skip
    """A battle document -> a Battle. ``library`` supplies cards the document does not define;
    ``words``: the vocabulary it is read with (the built-in one by default). A document of an
    older format version is migrated first (:mod:`.migrate`)."""
    if isinstance(document, dict) and "view" in document:
        raise FormatError.stated("view", "this is one viewer's view of a battle, not a battle: "
                                 "a view never opens again; open the authority's snapshot "
                                 "(the state answered without a viewer)")  # fmt: skip
    document = to_current(document, BATTLE)
    r = Reader(document, words=words).obj(_BATTLE_KEYS, ("format", "units"))
    r.field("format").choice(versions(BATTLE))  # an older version was migrated above
    if not r.has("sides"):
        r.field("active_player")  # required of a one-sided battle (raises when missing)
    with needed_extensions(r):
        return _load_battle(r, library)


def _load_battle(r: Reader, library: Mapping[str, CardDef] | None) -> Battle:
    cards: dict[str, CardDef] = dict(library or {})
    own: dict[str, CardDef] = {}
    parse_definitions(r.field("cards", []), parse_card, own, MAX_CARDS, "card")
    for card_id, card in own.items():
        if card_id in cards and cards[card_id] != card:
            raise FormatError("cards", card_id, "card id also defined differently in the library")
        cards[card_id] = card
    statuses: dict[str, StatusDef] = {}
    parse_definitions(r.field("statuses", []), parse_status, statuses, MAX_DEFINITIONS, "status")
    moves: dict[str, MoveDef] = {}
    parse_definitions(r.field("moves", []), parse_move, moves, MAX_DEFINITIONS, "move")

    units: list[Unit] = []
    unit_readers: list[Reader] = r.field("units").elements(MAX_UNITS)
    for ur in unit_readers:
        unit = parse_unit(ur, moves)
        if (twin := next((i for i, u in enumerate(units) if u.id == unit.id), None)) is not None:
            raise ur.field("id").fail(f"duplicate unit id (the first is units[{twin}])")
        units.append(unit)
    by_id = {u.id: u for u in units}
    if not any(u.team is Team.PLAYER for u in units):
        raise r.field("units").fail("expected at least one player unit")
    for unit, ur in zip(units, unit_readers, strict=True):
        if unit.intent is not None and unit.zone is Zone.RESERVE:
            raise ur.field("intent").fail("a unit in the reserve never acts, so it has no intent")
        if unit.intent is not None and unit.intent.target is not None \
                and unit.intent.target not in by_id:  # fmt: skip
            raise ur.field("intent").field("target").fail("no unit with this id")

    two_sided = r.has("sides")
    if two_sided:
        for key in _PER_SIDE:
            if r.has(key):
                raise r.field(key).fail("nothing here: a two-sided battle gives it per side, "
                                        "in sides")  # fmt: skip
        for unit, ur in zip(units, unit_readers, strict=True):
            if unit.moves:
                raise ur.field("moves").fail("no moves: in a two-sided battle both teams play "
                                             "cards")  # fmt: skip
    elif r.has("turn_side"):
        raise r.field("turn_side").fail("nothing here: only a two-sided battle (one with sides) "
                                        "passes the turn")  # fmt: skip

    _check_status_ids(cards, statuses, moves, units)
    others = [(f"moves[{i}].behavior", m.behavior) for i, m in enumerate(moves.values())]
    others += [(f"statuses[{i}].hooks.{hook}", behavior)
               for i, s in enumerate(statuses.values())
               for hook, behavior in s.hooks.items()]  # fmt: skip
    check_calls(cards, {c: f"cards[{i}]" for i, c in enumerate(own)}, others)

    instances: dict[str, CardInstance] = {}
    if two_sided:
        sides = _parse_sides(r.field("sides"), cards, by_id, instances)
    else:
        sides = {Team.PLAYER: _parse_side(r, Team.PLAYER, cards, by_id, instances)}
    turn_side = r.field("turn_side", "player").choice({t.value: t for t in Team})
    if len(instances) > MAX_CARDS:
        raise FormatError.stated("piles", f"at most {MAX_CARDS} card instances, got "
                                 f"{len(instances)}")  # fmt: skip

    cut, resolving = _parse_cut(r.field("cut", []), cards, by_id, moves, instances, two_sided)
    numbers = [int(e.id[1:]) for e in cut]
    next_r = r.field("next_entry", max(numbers, default=0) + 1)
    next_entry = next_r.integer(1, MAX_INT)
    if numbers and next_entry <= max(numbers):
        raise next_r.fail(f"expected a number above every Cut entry's (e{max(numbers)})")
    result = _result(r.field("result", None), units, cut)
    seed = r.field("seed", 0).integer(0, _U64)
    rng = Pcg32(seed)
    if r.has("rng"):
        rng_r = r.field("rng").obj({"state", "inc"}, ("state", "inc"))
        rng = Pcg32.from_state(_hex64(rng_r.field("state")), _hex64(rng_r.field("inc")))
    visibility, face_down = _visibility(r.field("visibility", {}))
    secret, stints = _secret(r, instances)
    readers = zip(units, unit_readers, strict=True)
    unset_intents = tuple(u.id for u, ur in readers if not ur.has("intent"))
    return Battle(
        units=units,
        library=cards,
        cards=instances,
        sides=sides,
        seed=seed,
        rng=rng,
        turn=r.field("turn", 1).integer(1, MAX_INT),
        reshuffle=r.field("reshuffle", True).boolean(),
        statuses=statuses,
        moves=moves,
        result=result,
        rules=r.field("rules", "soft").choice({p.value: p for p in Rules}),
        cut=cut,
        next_entry=next_entry,
        resolving=resolving,
        counters=_counters(r.field("counters", {})),
        turn_side=turn_side,
        visibility=visibility,
        face_down=face_down,
        deck_lists=r.field("deck_lists", "hidden").choice({d: d for d in DECK_LISTS}),
        secret=secret,
        stints=stints,
        words=r.words,
        _unset_intents=unset_intents,
    )


def _parse_sides(r: Reader, cards: Mapping[str, CardDef], units: Mapping[str, Unit],
                 instances: dict[str, CardInstance]) -> dict[Team, SideState]:  # fmt: skip
    """A two-sided battle's ``sides``: one entry for each team, each with its own piles (the
    table the battle keeps, the player's first whatever the document's order)."""
    sides: dict[Team, SideState] = {}
    for sr in r.elements(2):
        sr.obj(_SIDE_KEYS, ("team", "active_player"), whose="a side")
        team_r = sr.field("team")
        team = team_r.choice({t.value: t for t in Team})
        if team in sides:
            raise team_r.fail(f"each team once: the {team.value} team already has a side")
        sides[team] = _parse_side(sr, team, cards, units, instances)
    if len(sides) < 2:
        raise r.fail("two sides, one for each team (player and enemy)")
    return {team: sides[team] for team in Team}


def _parse_side(r: Reader, team: Team, cards: Mapping[str, CardDef], units: Mapping[str, Unit],
                instances: dict[str, CardInstance]) -> SideState:  # fmt: skip
    """One card-playing side: ``r`` is a ``sides`` entry, or the battle itself for the player
    side of a one-sided battle (today's keys). Its cards join ``instances``."""
    active_r = r.field("active_player")
    active = active_r.ident()
    if active not in units or units[active].team is not team:
        raise active_r.fail(f"expected the id of a {team.value} unit")
    piles: dict[Pile, list[str]] = {pile: [] for pile in PILES}
    piles_r = r.field("piles", {}).obj({p.value for p in PILES})
    for pile in PILES:
        for ir in piles_r.field(pile.value, []).elements(MAX_CARDS):
            instance = _parse_instance(ir, cards, units, team)
            if instance.id in instances:
                held = instances[instance.id].side
                first = _first_instance(piles_r, instance.id)
                whose = (f" (the {held.value} side holds it already)" if held is not team
                         else f" (the first is {first})")  # fmt: skip
                raise ir.field("id").fail(f"duplicate card instance id{whose}")
            instances[instance.id] = instance
            piles[pile].append(instance.id)
    max_energy = r.field("max_energy", 3).integer(0, 99)
    # A one-sided battle's keys are the battle's own, which never name it: it discards.
    hand = r.field("hand_at_turn_end", "discard").choice({h: h for h in HAND_AT_TURN_END})
    return SideState(team=team, piles=piles, active_player=active,
                     energy=r.field("energy", max_energy).integer(0, 999),
                     max_energy=max_energy,
                     draw_per_turn=r.field("draw_per_turn", 5).integer(0, 50),
                     hand_at_turn_end=hand)  # fmt: skip


def _visibility(r: Reader) -> tuple[Mapping[Pile, str], str]:
    """The document's ``visibility``: who sees each pile's cards, and who sees the faces of
    face-down cards (``face_down``: ``owner`` by default). A pile it leaves out keeps its
    default (``DEFAULT_VISIBILITY``), and a battle that changes none shares it."""
    r.obj({*(p.value for p in PILES), "face_down"})
    given = {pile: r.field(pile.value).choice({v: v for v in ZONE_VISIBILITY})
             for pile in PILES if r.has(pile.value)}  # fmt: skip
    face_down = r.field("face_down", "owner").choice({v: v for v in FACE_DOWN_VISIBILITY})
    if all(DEFAULT_VISIBILITY[pile] == value for pile, value in given.items()):
        return DEFAULT_VISIBILITY, face_down
    return MappingProxyType({**DEFAULT_VISIBILITY, **given}), face_down


def _first_instance(piles_r: Reader, instance_id: str) -> str:
    """The JSON path of the first card instance with this id in a side's piles."""
    piles = piles_r.value if isinstance(piles_r.value, dict) else {}
    for pile in PILES:
        for index, entry in enumerate(piles.get(pile.value, [])):
            if isinstance(entry, dict) and entry.get("id") == instance_id:
                return f"{piles_r.path}.{pile.value}[{index}]"
    return piles_r.path  # not reached: the duplicate's first is read already


def _secret(r: Reader, instances: Mapping[str, CardInstance]
            ) -> tuple[bytes | None, dict[str, tuple[int, int, int]]]:  # fmt: skip
    """The snapshot's ``secret`` and ``stints`` (see :mod:`.views`): a view's ids follow
    from them, so a resumed match gives the same views."""
    if not r.has("secret"):
        if r.has("stints"):
            raise r.field("stints").fail("nothing here: stints are kept with a secret")
        return None, {}
    secret_r = r.field("secret")
    text = secret_r.text(max_len=128)
    if not _SECRET.fullmatch(text):
        raise secret_r.fail("expected 32 to 128 lowercase hexadecimal digits")
    stints: dict[str, tuple[int, int, int]] = {}
    stints_r = r.field("stints", {}).obj(set(instances))
    for card_id in instances:
        if stints_r.has(card_id):
            counts = [c.integer(0, MAX_INT) for c in stints_r.field(card_id).elements(3)]
            if len(counts) != 3:
                raise stints_r.field(card_id).fail("three counts (player, enemy, spectator)")
            stints[card_id] = (counts[0], counts[1], counts[2])
    return bytes.fromhex(text), stints


def _counters(r: Reader) -> dict[str, int]:
    specs = words_or_builtin(r.words).counters
    out: dict[str, int] = {}
    for name, value in r.items(len(specs) or 1):
        if name not in specs:
            raise FormatError.unknown(value.path, name, specs, r.subject, "a battle's counters")
        spec = specs[name]
        out[name] = value.integer(spec.minimum, spec.maximum)
    return out


def _check_status_ids(cards: Mapping[str, CardDef], statuses: Mapping[str, StatusDef],
                      moves: Mapping[str, MoveDef], units: list[Unit]) -> None:  # fmt: skip
    """Bound the status ids a battle can ever give a unit: those it defines, those its units
    carry, and those its Behaviors apply."""
    behaviors = [c.behavior for c in cards.values()] + [m.behavior for m in moves.values()]
    behaviors += [b for s in statuses.values() for b in s.hooks.values()]
    names = set(statuses).union(*(u.statuses for u in units))
    for behavior in behaviors:  # every status a node names (ApplyStatus gives them)
        names.update(n.fields["status"] for n in behavior.nodes.values()
                     if isinstance(n.fields.get("status"), str))  # fmt: skip
    if len(names) > MAX_STATUS_IDS:
        raise FormatError(
            "statuses",
            len(names),
            f"at most {MAX_STATUS_IDS} distinct status "
            "ids in a battle (definitions, unit statuses and ApplyStatus nodes)",
        )


def _result(r: Reader, units: list[Unit], cut: list[CutEntry]) -> str | None:
    """The ``result``, which must say what the units say: ``victory`` when no enemy stands (on
    the field or in the reserve), else ``defeat`` when no party member does. A battle that is
    decided but says null is settled when it is opened (runtime.turns.start_battle)."""
    if r.value is None:
        return None
    result = str(r.choice(("victory", "defeat")))
    enemies = any(u.hp > 0 and u.team is Team.ENEMY for u in units)
    players = any(u.hp > 0 and u.team is Team.PLAYER for u in units)
    verdict = "victory" if not enemies else "defeat" if not players else None
    if result != verdict:
        raise r.fail("null, as both sides still stand" if verdict is None
                     else f"{verdict}, as the units say")  # fmt: skip
    if cut:
        raise r.fail("null while effects wait on the Cut (a decided battle has spent them)")
    return result


def _parse_cut(r: Reader, cards: Mapping[str, CardDef], units: Mapping[str, Unit],
               moves: Mapping[str, MoveDef], instances: dict[str, CardInstance],
               two_sided: bool = False) -> tuple[list[CutEntry], list[str]]:  # fmt: skip
    """The effects waiting on the Cut; their cards are in neither hand nor any pile. Each entry
    is what activation makes: an id ``e<number>`` (unique, below ``next_entry``), the side of
    its source, a card played by a party member (by a member of either side in a two-sided
    battle) or a response move its enemy source has."""
    entries: list[CutEntry] = []
    resolving: list[str] = []
    for er in r.elements(MAX_CUT):
        er.obj({"id", "side", "source", "card", "move", "targets", "collected", "answered"},
               ("id", "side", "source"))  # fmt: skip
        id_r = er.field("id")
        entry_id = id_r.ident()
        if not _ENTRY_ID.fullmatch(entry_id) or int(entry_id[1:]) > MAX_INT:
            raise id_r.fail("expected e followed by a number (e1, e2, ...)")
        if any(e.id == entry_id for e in entries):
            raise id_r.fail("duplicate Cut entry id")
        source_r = er.field("source")
        source = units.get(source_r.ident())
        if source is None:
            raise source_r.fail("no unit with this id")
        side_r = er.field("side")
        side = side_r.choice({t.value: t for t in Team})
        if side is not source.team:
            raise side_r.fail(f"the side of its source {source.id!r} ({source.team.value})")
        card_id = None
        if er.has("card"):
            if not two_sided and source.team is not Team.PLAYER:
                raise source_r.fail("a card is played by a party member: expected a player unit")
            instance = _parse_instance(er.field("card"), cards, units, source.team, played=True)
            if instance.id in instances:
                raise er.field("card").field("id").fail("duplicate card instance id")
            instances[instance.id] = instance
            resolving.append(instance.id)
            card_id = instance.id
        move = er.field("move", None)
        if (card_id is None) == (move.value is None):
            raise er.fail("expected exactly one of card and move")
        move_id = None if move.value is None else move.ident()
        if move_id is not None and (move_id not in source.moves or not moves[move_id].response):
            raise move.fail(f"one of the response moves of {source.id!r}")
        targets = _unit_ids(er.field("targets", []), 16, units)
        entries.append(CutEntry(
            id=entry_id,
            side=side,
            source=source.id,
            card=card_id,
            move=move_id,
            targets=targets,
            collected=_unit_ids(er.field("collected", []), MAX_UNITS, units),
            answered=er.field("answered", False).boolean(),
        ))  # fmt: skip
    return entries, resolving


def _unit_ids(r: Reader, limit: int, units: Mapping[str, Unit]) -> tuple[str, ...]:
    ids = r.str_list(limit)
    for i, unit_id in enumerate(ids):
        if unit_id not in units:
            raise r.elements()[i].fail("no unit with this id")
    return ids


def cut_entry_to_json(battle: Battle, entry: CutEntry) -> dict[str, object]:
    out: dict[str, object] = {"id": entry.id, "side": entry.side.value, "source": entry.source,
                              "targets": list(entry.targets),
                              "collected": list(entry.collected),
                              "answered": entry.answered}  # fmt: skip
    if entry.card is not None:
        instance = battle.cards[entry.card]
        card: dict[str, str] = {"id": instance.id, "card": instance.card.id}
        if instance.owner is not None:
            card["owner"] = instance.owner
        out["card"] = card
    else:
        out["move"] = entry.move
    return out


def _parse_instance(r: Reader, cards: Mapping[str, CardDef], units: Mapping[str, Unit],
                    side: Team = Team.PLAYER, played: bool = False) -> CardInstance:  # fmt: skip
    """A card instance; ``played``: it is on the Cut, where no card lies face down."""
    r = r.named("card instance")
    r.obj({"id", "card", "owner", "face_down"}, ("id", "card"), whose="a card instance")
    face_down = r.field("face_down", False).boolean()
    if face_down and played:
        raise r.field("face_down").fail("false: a card being played lies face up")
    card_r = r.field("card")
    card_id = card_r.ident()
    if card_id not in cards:
        raise card_r.fail("no card with this id in the battle's cards or the library")
    owner = None
    if r.has("owner"):
        owner_r = r.field("owner")
        owner = owner_r.ident()
        if owner not in units or units[owner].team is not side:
            raise owner_r.fail(f"expected the id of a {side.value} unit")
    elif (default := cards[card_id].owner) is not None:  # the card's own player, by default
        owner = default
        if owner not in units or units[owner].team is not side:
            raise card_r.fail(f"card {card_id!r} is played by {owner!r}, who is not a "
                              f"{side.value} unit of this battle; give the instance an "
                              "owner")  # fmt: skip
    return CardInstance(id=r.field("id").ident(), card=cards[card_id], owner=owner, side=side,
                        face_down=face_down)  # fmt: skip


def _hex64(r: Reader) -> int:
    text = r.text(max_len=16)
    if not all(c in "0123456789abcdefABCDEF" for c in text):
        raise r.fail("expected 1 to 16 hexadecimal digits")
    return int(text, 16)


def _sorted_json(definitions: Mapping[str, Any], to_json: Callable[[Any], dict[str, object]]
                 ) -> list[dict[str, object]]:  # fmt: skip
    return [to_json(d) for _, d in sorted(definitions.items())]


def piles_to_json(battle: Battle, piles: Mapping[Pile, list[str]]) -> dict[str, object]:
    """A side's four piles as a document holds them: each card instance, top first."""
    out: dict[str, object] = {}
    for pile in PILES:
        entries = []
        for card_id in piles[pile]:
            instance = battle.cards[card_id]
            entry: dict[str, object] = {"id": instance.id, "card": instance.card.id}
            if instance.owner is not None:
                entry["owner"] = instance.owner
            if instance.face_down:  # the key only then: a face-up card is as it always was
                entry["face_down"] = True
            entries.append(entry)
        out[pile.value] = entries
    return out


def side_to_json(battle: Battle, side: SideState) -> dict[str, object]:
    """One ``sides`` entry of a two-sided battle."""
    return {"team": side.team.value, "active_player": side.active_player,
            "energy": side.energy, "max_energy": side.max_energy,
            "draw_per_turn": side.draw_per_turn, "hand_at_turn_end": side.hand_at_turn_end,
            "piles": piles_to_json(battle, side.piles)}  # fmt: skip


def rng_to_json(rng: Pcg32) -> dict[str, str]:
    """A generator's state as a battle document holds it (``rng``: 16 hex digits each)."""
    return {"state": f"{rng.state:016x}", "inc": f"{rng.inc:016x}"}


def dump_battle(battle: Battle) -> dict[str, object]:
    """The canonical JSON-ready form: everything needed to continue the battle identically.
    A one-sided battle keeps its side's state at the top level (today's form); a two-sided
    one lists both in ``sides`` and says whose turn it is."""
    player = battle.sides[Team.PLAYER]
    out: dict[str, object] = {
        "format": BATTLE_FORMAT,
        "seed": battle.seed,
        "rng": rng_to_json(battle.rng),
        "turn": battle.turn,
        "energy": player.energy,
        "max_energy": player.max_energy,
        "draw_per_turn": player.draw_per_turn,
        "reshuffle": battle.reshuffle,
        "result": battle.result,
        "rules": battle.rules.value,
        "cut": [cut_entry_to_json(battle, e) for e in battle.cut],
        "next_entry": battle.next_entry,
        "active_player": player.active_player,
        "units": [unit_to_json(u) for u in battle.units],
        "cards": _sorted_json(battle.library, card_to_json),
        "statuses": _sorted_json(battle.statuses, status_to_json),
        "moves": _sorted_json(battle.moves, move_to_json),
        "piles": piles_to_json(battle, player.piles),
        **_extension_parts(battle),
    }
    if battle.two_sided:
        for key in _PER_SIDE:
            del out[key]
        out["sides"] = [side_to_json(battle, side) for side in battle.sides.values()]
        out["turn_side"] = battle.turn_side.value
    if battle.visibility is not DEFAULT_VISIBILITY or battle.face_down != "owner":
        shown = {str(pile): battle.visibility[pile] for pile in PILES}
        if battle.face_down != "owner":  # the default is left out: older dumps stay as they were
            shown["face_down"] = battle.face_down
        out["visibility"] = shown
    if battle.deck_lists != "hidden":
        out["deck_lists"] = battle.deck_lists
    if battle.secret is not None and battle.secret_kept:  # a battle that gave views
        out["secret"] = battle.secret.hex()
        out["stints"] = {card: list(counts) for card, counts in sorted(battle.stints.items())}
    return out


def _extension_parts(battle: Battle) -> dict[str, object]:
    """What only a battle with extension words holds: their counters and the extensions (with
    their versions) it needs to be read again. A built-in battle has neither key."""
    out: dict[str, object] = {}
    if battle.counters:
        out["counters"] = dict(sorted(battle.counters.items()))
    needed = extensions_used(battle)
    if needed:
        out["extensions"] = needed
    return out


def canonical_json(battle: Battle) -> str:
    """One stable text per state: sorted keys, no spaces. Equal states give equal text."""
    return json.dumps(dump_battle(battle), sort_keys=True, separators=(",", ":"),
                      ensure_ascii=False)  # fmt: skip
