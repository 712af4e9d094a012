"""The JSON formats for battles and card libraries (docs/format.md), loaded and dumped.

Loading validates everything and builds new objects only, so a refused document loads
nothing. :func:`dump_battle` writes the one canonical form that loads back identically.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from .errors import FormatError
from .filters import CARD_FILTER_KEYS, UNIT_FILTER_KEYS
from .graph import EMPTY_BEHAVIOR, Behavior, parse_behavior
from .kinds import Kind, parse_where, where_to_json
from .model import (
    HOOKS,
    MAX_CUT,
    PILES,
    Battle,
    CardDef,
    CardInstance,
    CardTargets,
    CutEntry,
    Intent,
    MoveDef,
    Pile,
    PlayCondition,
    Rules,
    StatusDef,
    Team,
    Unit,
    Zone,
)
from .modes import MODE_NAMES
from .reader import MAX_INT, Reader
from .rng import Pcg32

BATTLE_FORMAT = "pybridge/battle@1"
LIBRARY_FORMAT = "pybridge/cards@1"
MAX_UNITS = 64
MAX_CARDS = 2_000
MAX_DEFINITIONS = 500
#: Distinct status ids in a battle (definitions, unit statuses, ApplyStatus nodes), so no unit
#: can ever carry more than this many and a saved battle always loads back.
MAX_STATUS_IDS = 500
MAX_TEXT = 2_000
#: ``art`` fields: a path inside the game's resources, to a file a host loads as a texture.
ART_PREFIX = "res://"
MAX_ART_PATH = 256
ART_EXTENSIONS = ("png", "jpg", "jpeg", "webp", "svg", "bmp", "tga", "tres", "res")
_U64 = (1 << 64) - 1
#: What activation names a Cut entry: ``e`` and its number (``next_entry`` when it was made).
_ENTRY_ID = re.compile(r"e[1-9][0-9]*")

_CARD_KEYS = frozenset(
    {"id", "name", "type", "rarity", "cost", "keywords", "tags", "target", "behavior", "text",
     "playable_if", "target_count", "up_to", "target_filter", "choose_on_resolve",
     "card_targets", "on_lost_target", "owner", "art"}
)  # fmt: skip
_STATUS_KEYS = frozenset(
    {"id", "name", "text", "hooks", "damage_dealt", "damage_taken", "decay_on", "decay",
     "protection"}
)  # fmt: skip
_MOVE_KEYS = frozenset({"id", "name", "target", "behavior", "text", "weight", "response"})
_CUT_ZONES = (*(p.value for p in PILES), "cut")
_UNIT_KEYS = frozenset(
    {"id", "name", "team", "hp", "max_hp", "armor", "statuses", "tags", "tier", "moves",
     "intent", "zone", "art"}
)  # fmt: skip
_BATTLE_KEYS = frozenset(
    {"format", "seed", "rng", "turn", "energy", "max_energy", "draw_per_turn", "reshuffle",
     "active_player", "units", "cards", "statuses", "moves", "piles", "result", "rules", "cut",
     "next_entry"}
)  # fmt: skip

D = TypeVar("D", CardDef, StatusDef, MoveDef)


def _behavior(r: Reader, field: str = "behavior", allow_stacks: bool = False) -> Behavior:
    return parse_behavior(r.field(field), allow_stacks) if r.has(field) else EMPTY_BEHAVIOR


def _text(r: Reader) -> str:
    return r.field("text", "").text(MAX_TEXT, allow_empty=True)


def _art(r: Reader) -> str | None:
    """An optional ``art`` field: a ``res://`` path to an image a host draws (never read by
    the rules). Only a plain path to an image or texture file is taken."""
    art_r = r.field("art", None)
    if art_r.value is None:
        return None
    path = art_r.text(MAX_ART_PATH)
    inner = path.removeprefix(ART_PREFIX)
    parts = inner.split("/")
    if (
        not path.startswith(ART_PREFIX)
        or not all(c.isascii() and (c.isalnum() or c in "_-./ ") for c in inner)
        or any(part in ("", ".", "..") for part in parts)
        or parts[-1].rpartition(".")[2].lower() not in ART_EXTENSIONS
    ):
        raise art_r.fail(
            f"expected a res:// path to a {', '.join(ART_EXTENSIONS)} file (ASCII letters, "
            "digits, '_', '-', '.', ' ' and '/'; no empty, '.' or '..' part)"
        )
    return path


# -- cards --------------------------------------------------------------------------------
def parse_card(r: Reader) -> CardDef:
    r = r.named("card")
    r.obj(_CARD_KEYS, ("id", "name", "target"), whose="a card")
    behavior = _behavior(r)
    rules = []
    for pr in r.field("playable_if", []).elements(16):
        pr.obj({"condition", "reason"}, ("condition", "reason"))
        cr = pr.field("condition")
        condition = cr.ident()
        if behavior.kinds.get(condition) is not Kind.BOOL:
            raise cr.fail("expected the id of a Condition node of this card's behavior")
        rules.append(PlayCondition(condition, pr.field("reason").text()))
    target = r.field("target").choice(MODE_NAMES)
    filter_r = r.field("target_filter", {})
    target_filter = _filter(filter_r, UNIT_FILTER_KEYS, "unit")
    card_targets = _card_targets(r)
    choose_r = r.field("choose_on_resolve", False)
    choose_on_resolve = choose_r.boolean()
    # A late choice is of units (a mode the player aims) or of cards (its card_targets).
    chooses_cards = card_targets is not None and not target.chooses_units
    if choose_on_resolve and not (target.requires_target or chooses_cards):
        raise choose_r.fail(f"only modes that choose units, or a card with card_targets and a "
                            f"mode that chooses none, can choose on resolve; {target.value} "
                            "does not")  # fmt: skip
    count_r = r.field("target_count", 1)
    count = count_r.integer(1, 16)
    if count > 1 and not (target.requires_target or target.is_random) \
            and not (choose_on_resolve and chooses_cards):  # fmt: skip
        raise count_r.fail(f"only modes that choose units (or a card choosing cards on "
                           f"resolve) take a count, {target.value} does not")  # fmt: skip
    lost_r = r.field("on_lost_target", None)
    return CardDef(
        id=r.field("id").ident(),
        name=r.field("name").text(),
        type=r.field("type", "skill").ident(),
        rarity=r.field("rarity", "common").ident(),
        cost=r.field("cost", 0).integer(0, 99),
        keywords=r.field("keywords", []).str_list(),
        tags=r.field("tags", []).str_list(),
        target=target,
        behavior=behavior,
        text=_text(r),
        playable_if=tuple(rules),
        target_count=count,
        up_to=r.field("up_to", False).boolean(),
        target_filter=target_filter,
        choose_on_resolve=choose_on_resolve,
        card_targets=card_targets,
        on_lost_target=None if lost_r.value is None else lost_r.choice(("fail", "skip")),
        owner=None if r.field("owner", None).value is None else r.field("owner").ident(),
        art=_art(r),
    )


def _card_targets(r: Reader) -> CardTargets | None:
    card_targets = None
    if r.has("card_targets"):
        ct = r.field("card_targets").obj({"zones", "where"}, ("zones",))
        zones = ct.field("zones").str_list(8)
        for i, zone in enumerate(zones):
            if zone not in _CUT_ZONES:
                raise (
                    ct.field("zones").elements()[i].fail(f"expected one of {', '.join(_CUT_ZONES)}")
                )
        card_targets = CardTargets(zones, _filter(ct.field("where", {}), CARD_FILTER_KEYS, "card"))
    return card_targets


def _filter(r: Reader, allowed: frozenset[str], what: str) -> dict[str, object]:
    """Filter conditions (the ``where`` vocabulary) limited to those for ``what``."""
    where = parse_where(r)
    for key in where:
        if key not in allowed:
            raise r.field(key).fail(f"not a {what} filter")
    return where


def card_to_json(card: CardDef) -> dict[str, object]:
    out: dict[str, object] = {
        "id": card.id, "name": card.name, "type": card.type, "rarity": card.rarity,
        "cost": card.cost, "keywords": list(card.keywords), "tags": list(card.tags),
        "target": card.target.value, "behavior": card.behavior.to_json(), "text": card.text,
    }  # fmt: skip
    if card.playable_if:
        out["playable_if"] = [{"condition": p.condition, "reason": p.reason}
                              for p in card.playable_if]  # fmt: skip
    if card.target_count != 1 or card.up_to:
        out["target_count"] = card.target_count
        out["up_to"] = card.up_to
    if card.target_filter:
        out["target_filter"] = dict(card.target_filter)
    if card.choose_on_resolve:
        out["choose_on_resolve"] = True
    if card.card_targets is not None:
        out["card_targets"] = {"zones": list(card.card_targets.zones),
                               "where": where_to_json(card.card_targets.where)}  # fmt: skip
    if card.on_lost_target is not None:
        out["on_lost_target"] = card.on_lost_target
    if card.owner is not None:
        out["owner"] = card.owner
    if card.art is not None:
        out["art"] = card.art
    return out


# -- statuses and enemy moves -----------------------------------------------------------
def parse_status(r: Reader) -> StatusDef:
    r = r.named("status")
    r.obj(_STATUS_KEYS, ("id", "name"), whose="a status")
    hooks = {}
    hr = r.field("hooks", {}).obj(set(HOOKS))
    for hook in HOOKS:
        if hr.has(hook):
            hooks[hook] = parse_behavior(hr.field(hook), allow_stacks=True)
    decay_r = r.field("decay", 1)
    decay_on = r.field("decay_on", None)
    return StatusDef(
        id=r.field("id").ident(),
        name=r.field("name").text(),
        text=_text(r),
        hooks=hooks,
        damage_dealt=r.field("damage_dealt", 0).integer(-1000, 1000),
        damage_taken=r.field("damage_taken", 0).integer(-1000, 1000),
        decay_on=None if decay_on.value is None else decay_on.choice(("turn_start", "turn_end")),
        decay=None if decay_r.value == "all" else decay_r.integer(1, MAX_INT),
        protection=_optional_choice(r.field("protection", None), ("all", "single")),
    )


def _optional_choice(r: Reader, choices: tuple[str, ...]) -> str | None:
    return None if r.value is None else str(r.choice(choices))


def status_to_json(status: StatusDef) -> dict[str, object]:
    return {
        "id": status.id, "name": status.name, "text": status.text,
        "hooks": {hook: b.to_json() for hook, b in status.hooks.items()},
        "damage_dealt": status.damage_dealt, "damage_taken": status.damage_taken,
        "decay_on": status.decay_on, "decay": "all" if status.decay is None else status.decay,
        "protection": status.protection,
    }  # fmt: skip


def parse_move(r: Reader) -> MoveDef:
    r = r.named("move")
    r.obj(_MOVE_KEYS, ("id", "name", "target"), whose="a move")
    return MoveDef(
        id=r.field("id").ident(),
        name=r.field("name").text(),
        target=r.field("target").choice(MODE_NAMES),
        behavior=_behavior(r),
        text=_text(r),
        weight=r.field("weight", 1).integer(1, 1000),
        response=r.field("response", False).boolean(),
    )


def move_to_json(move: MoveDef) -> dict[str, object]:
    return {
        "id": move.id,
        "name": move.name,
        "target": move.target.value,
        "behavior": move.behavior.to_json(),
        "text": move.text,
        "weight": move.weight,
        "response": move.response,
    }


def _parse_definitions(r: Reader, parse: Callable[[Reader], D], into: dict[str, D],
                       limit: int, what: str) -> None:  # fmt: skip
    for dr in r.elements(limit):
        definition = parse(dr)
        if definition.id in into:
            raise dr.field("id").fail(f"duplicate {what} id")
        into[definition.id] = definition


def load_library(document: object) -> dict[str, CardDef]:
    """A card library document -> card definitions by id."""
    r = Reader(document).obj({"format", "cards"}, ("format", "cards"))
    r.field("format").choice((LIBRARY_FORMAT,))
    library: dict[str, CardDef] = {}
    _parse_definitions(r.field("cards"), parse_card, library, MAX_CARDS, "card")
    return library


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
        art=_art(r),
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
def load_battle(document: object, library: Mapping[str, CardDef] | None = None) -> Battle:
    """A battle document -> a Battle. ``library`` supplies cards the document does not define."""
    r = Reader(document).obj(_BATTLE_KEYS, ("format", "units", "active_player"))
    r.field("format").choice((BATTLE_FORMAT,))
    cards: dict[str, CardDef] = dict(library or {})
    own: dict[str, CardDef] = {}
    _parse_definitions(r.field("cards", []), parse_card, own, MAX_CARDS, "card")
    for card_id, card in own.items():
        if card_id in cards and cards[card_id] != card:
            raise FormatError("cards", card_id, "card id also defined differently in the library")
        cards[card_id] = card
    statuses: dict[str, StatusDef] = {}
    _parse_definitions(r.field("statuses", []), parse_status, statuses, MAX_DEFINITIONS, "status")
    moves: dict[str, MoveDef] = {}
    _parse_definitions(r.field("moves", []), parse_move, moves, MAX_DEFINITIONS, "move")

    units: list[Unit] = []
    unit_readers: list[Reader] = r.field("units").elements(MAX_UNITS)
    for ur in unit_readers:
        unit = parse_unit(ur, moves)
        if any(u.id == unit.id for u in units):
            raise ur.field("id").fail("duplicate unit id")
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

    _check_status_ids(cards, statuses, moves, units)

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
        raise FormatError.stated("piles", f"at most {MAX_CARDS} card instances, got "
                                 f"{len(instances)}")  # fmt: skip

    cut, resolving = _parse_cut(r.field("cut", []), cards, by_id, moves, instances)
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
    max_energy = r.field("max_energy", 3).integer(0, 99)
    readers = zip(units, unit_readers, strict=True)
    unset_intents = tuple(u.id for u, ur in readers if not ur.has("intent"))
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
        statuses=statuses,
        moves=moves,
        result=result,
        rules=r.field("rules", "soft").choice({p.value: p for p in Rules}),
        cut=cut,
        next_entry=next_entry,
        resolving=resolving,
        _unset_intents=unset_intents,
    )


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
               moves: Mapping[str, MoveDef], instances: dict[str, CardInstance]
               ) -> tuple[list[CutEntry], list[str]]:  # fmt: skip
    """The effects waiting on the Cut; their cards are in neither hand nor any pile. Each entry
    is what activation makes: an id ``e<number>`` (unique, below ``next_entry``), the side of
    its source, a card played by a party member or a response move its enemy source has."""
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
            instance = _parse_instance(er.field("card"), cards, units)
            if instance.id in instances:
                raise er.field("card").field("id").fail("duplicate card instance id")
            instances[instance.id] = instance
            resolving.append(instance.id)
            card_id = instance.id
        move = er.field("move", None)
        if (card_id is None) == (move.value is None):
            raise er.fail("expected exactly one of card and move")
        if card_id is not None and source.team is not Team.PLAYER:
            raise source_r.fail("a card is played by a party member: expected a player unit")
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


def _parse_instance(
    r: Reader, cards: Mapping[str, CardDef], units: Mapping[str, Unit]
) -> CardInstance:
    r = r.named("card instance")
    r.obj({"id", "card", "owner"}, ("id", "card"), whose="a card instance")
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
    elif (default := cards[card_id].owner) is not None:  # the card's own player, by default
        owner = default
        if owner not in units or units[owner].team is not Team.PLAYER:
            raise card_r.fail(f"card {card_id!r} is played by {owner!r}, who is not a player "
                              "unit of this battle; give the instance an owner")  # fmt: skip
    return CardInstance(id=r.field("id").ident(), card=cards[card_id], owner=owner)


def _hex64(r: Reader) -> int:
    text = r.text(max_len=16)
    if not all(c in "0123456789abcdefABCDEF" for c in text):
        raise r.fail("expected 1 to 16 hexadecimal digits")
    return int(text, 16)


def _sorted_json(definitions: Mapping[str, Any], to_json: Callable[[Any], dict[str, object]]
                 ) -> list[dict[str, object]]:  # fmt: skip
    return [to_json(d) for _, d in sorted(definitions.items())]


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
        "result": battle.result,
        "rules": battle.rules.value,
        "cut": [cut_entry_to_json(battle, e) for e in battle.cut],
        "next_entry": battle.next_entry,
        "active_player": battle.active_player,
        "units": [unit_to_json(u) for u in battle.units],
        "cards": _sorted_json(battle.library, card_to_json),
        "statuses": _sorted_json(battle.statuses, status_to_json),
        "moves": _sorted_json(battle.moves, move_to_json),
        "piles": piles,
    }


def canonical_json(battle: Battle) -> str:
    """One stable text per state: sorted keys, no spaces. Equal states give equal text."""
    return json.dumps(dump_battle(battle), sort_keys=True, separators=(",", ":"),
                      ensure_ascii=False)  # fmt: skip
