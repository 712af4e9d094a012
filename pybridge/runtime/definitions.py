"""Card, status and enemy-move definitions in the JSON formats (docs/format.md), read and
written, and card library documents (``pybridge/cards@1``).

Reading validates everything and builds new objects only, so a refused definition changes
nothing; each ``*_to_json`` writes the canonical form that reads back identically.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from .calls import check_calls
from .graph import EMPTY_BEHAVIOR, Behavior, parse_behavior
from .kinds import Kind, parse_where, where_to_json
from .migrate import CURRENT, LIBRARY, to_current, versions
from .model import HOOKS, PILES, CardDef, CardTargets, MoveDef, PlayCondition, StatusDef
from .modes import MODE_NAMES, PROTECTIONS
from .reader import MAX_INT, Reader
from .vocabulary import Vocabulary, needed_extensions

LIBRARY_FORMAT = CURRENT[LIBRARY]
MAX_CARDS = 2_000
MAX_DEFINITIONS = 500
MAX_TEXT = 2_000
#: ``art`` fields: a path inside the game's resources, to a file a host loads as a texture.
ART_PREFIX = "res://"
MAX_ART_PATH = 256
ART_EXTENSIONS = ("png", "jpg", "jpeg", "webp", "svg", "bmp", "tga", "tres", "res")

_CARD_KEYS = frozenset(
    {"id", "name", "type", "rarity", "cost", "keywords", "tags", "target", "behavior", "text",
     "playable_if", "target_count", "up_to", "target_filter", "choose_on_resolve",
     "card_targets", "on_lost_target", "owner", "art",
     "text_message"}  # a state's card carries its generated text's sentence: ignored here
)  # fmt: skip
_STATUS_KEYS = frozenset(
    {"id", "name", "text", "hooks", "damage_dealt", "damage_taken", "decay_on", "decay",
     "protection"}
)  # fmt: skip
_MOVE_KEYS = frozenset({"id", "name", "target", "behavior", "text", "weight", "response"})
_CUT_ZONES = (*(p.value for p in PILES), "cut")

D = TypeVar("D", CardDef, StatusDef, MoveDef)


def _behavior(r: Reader, field: str = "behavior", allow_stacks: bool = False) -> Behavior:
    return parse_behavior(r.field(field), allow_stacks) if r.has(field) else EMPTY_BEHAVIOR


def _text(r: Reader) -> str:
    return r.field("text", "").text(MAX_TEXT, allow_empty=True)


def parse_art(r: Reader) -> str | None:
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
    target_filter = _filter(filter_r, "unit")
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
        art=parse_art(r),
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
        card_targets = CardTargets(zones, _filter(ct.field("where", {}), "card"))
    return card_targets


def _filter(r: Reader, what: str) -> dict[str, object]:
    """Filter conditions (the built-in ``where`` keys) limited to those for ``what``
    (``unit`` or ``card``)."""
    from .vocabulary import builtin

    words = builtin()
    allowed = words.unit_filters if what == "unit" else words.card_filters
    where = parse_where(r, built_in_only=True)
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
        protection=_optional_choice(r.field("protection", None), tuple(PROTECTIONS)),
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


def parse_definitions(r: Reader, parse: Callable[[Reader], D], into: dict[str, D],
                       limit: int, what: str) -> None:  # fmt: skip
    first: dict[str, str] = {}
    for dr in r.elements(limit):
        definition = parse(dr)
        if definition.id in into:
            raise dr.field("id").fail(f"duplicate {what} id (the first is {first[definition.id]})")
        into[definition.id], first[definition.id] = definition, dr.path


def load_library(document: object, words: Vocabulary | None = None) -> dict[str, CardDef]:
    """A card library document -> card definitions by id, read with ``words`` (the built-in
    vocabulary by default). ``extensions`` names the extensions (and versions) it needs. A
    document of an older format version is migrated first (:mod:`.migrate`)."""
    document = to_current(document, LIBRARY)
    r = Reader(document, words=words).obj({"format", "cards", "extensions"}, ("format", "cards"))
    r.field("format").choice(versions(LIBRARY))  # an older version was migrated above
    library: dict[str, CardDef] = {}
    with needed_extensions(r):
        parse_definitions(r.field("cards"), parse_card, library, MAX_CARDS, "card")
    # a call to a card the library does not hold is left to the battle that uses it
    check_calls(library, {c: f"cards[{i}]" for i, c in enumerate(library)}, complete=False)
    return library
