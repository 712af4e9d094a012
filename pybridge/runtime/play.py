"""What a card may target and whether it may be played: the checks before anything changes.

Every check happens before anything changes, so a refused play leaves the battle exactly as
it was. Activation and resolution (and so :func:`play` and :func:`preview`) live in
:mod:`pybridge.runtime.cut`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from .context import Context
from .errors import (
    BattleOver,
    CutError,
    NoSource,
    NotACandidate,
    NotEnoughEnergy,
    NotInHand,
    NotPlayable,
    TargetNotAllowed,
    TargetRequired,
    UnknownCard,
    UnknownUnit,
    request_value,
)
from .model import (
    RESOLVING,
    Battle,
    CardDef,
    CardInstance,
    Pile,
    Rules,
    StatusDef,
    Team,
    Unit,
    Zone,
)
from .modes import (
    PROTECTIONS,
    TargetMode,
    affected_range,
    candidates,
    is_valid_target,
    protections,
)
from .resolve import holds
from .sentences import Said, data, english, listed, said, say
from .sentences import status as status_named
from .sentences import unit as unit_named
from .vocabulary import builtin

# Enum members bound once: reading an attribute of an Enum class is slow on CPython 3.11.
_HAND: Final = Pile.HAND
_SOFT: Final = Rules.SOFT
_STRICT: Final = Rules.STRICT
_FIELD: Final = Zone.FIELD
_PLAYER: Final = Team.PLAYER
_PILE_NAMES: Final = frozenset(pile.value for pile in Pile)
_SUBMITTED_MANY: Final = (list, tuple)


@dataclass(frozen=True, slots=True)
class LateChoice:
    """Where the choice of a card that chooses on resolve comes from: units or cards, from
    which zones, and what could be chosen now. The choice itself is made at resolution."""

    chooses: str  # "units" or "cards"
    zones: tuple[str, ...]
    candidates: tuple[str, ...]

    def to_json(self) -> dict[str, object]:
        return {"at": "resolution", "chooses": self.chooses, "zones": list(self.zones),
                "candidates": list(self.candidates)}  # fmt: skip


@dataclass(frozen=True, slots=True)
class Shield:
    """A unit a status keeps out of an effect's reach: which unit, which status."""

    unit: str
    status: str
    protection: str

    def to_json(self) -> dict[str, object]:
        return {"unit": self.unit, "status": self.status, "protection": self.protection}


@dataclass(frozen=True, slots=True)
class Refusal:
    """Why a card (or a move) may not be played now: a stable ``code``, the runtime's
    ``text`` (the ``reason`` a UI shows) and the protected units behind it, if any."""

    code: str
    text: str
    shields: tuple[Shield, ...] = ()
    #: The text as a message (docs/translation.md): its id and typed parameters.
    message: Said | None = None

    def to_json(self) -> dict[str, object]:
        return {"code": self.code, "text": self.text,
                "protected": [s.to_json() for s in self.shields],
                "message": self.message}  # fmt: skip


def said_refusal(battle: Battle, code: str, sentence: Said,
            shields: tuple[Shield, ...] = ()) -> Refusal:  # fmt: skip
    """A refusal whose text is its sentence's English."""
    return Refusal(code, say(battle, sentence), shields, sentence)


def shields_of(battle: Battle, source: Unit, mode: TargetMode,
               definition: CardDef | None = None) -> tuple[Shield, ...]:  # fmt: skip
    """The units ``mode`` would reach but a status protects, as :class:`Shield` records."""
    return tuple(Shield(unit.id, status.id, status.protection or "")
                 for unit, status in protections(battle, source, mode, definition))  # fmt: skip


def shields_said(battle: Battle, shields: tuple[Shield, ...]) -> Said:
    """The protections as a sentence, one clause a status: "Ward on Signal Beacon and Rival
    Vex (will not be the target of any effect)"; clauses joined by semicolons."""
    units: dict[str, list[dict[str, object]]] = {}
    for shield in shields:
        units.setdefault(shield.status, []).append(unit_named(battle, shield.unit))
    clauses = []
    for status_id, names in units.items():
        status: StatusDef = battle.statuses[status_id]
        key = status.protection if status.protection in PROTECTIONS else "other"
        protects = said(f"refusal.shield.{key}")
        clauses.append(said("refusal.shield", status=status_named(battle, status_id),
                            units=listed(names), protects=protects))  # fmt: skip
    joined = clauses[-1]
    for clause in reversed(clauses[:-1]):
        joined = said("list.semicolon", first=clause, rest=joined)
    return joined


def shields_text(battle: Battle, shields: tuple[Shield, ...]) -> str:
    """:func:`shields_said`'s English."""
    return say(battle, shields_said(battle, shields))


def explained(battle: Battle, code: str, shields: tuple[Shield, ...]) -> Refusal:
    """The refusal ``code`` (its sentence ``refusal.<code>``), naming the protections behind
    it when there are any."""
    sentence = said(f"refusal.{code}")
    if shields:
        sentence = said("refusal.explained", reason=sentence,
                        shields=shields_said(battle, shields))  # fmt: skip
    return said_refusal(battle, code, sentence, shields)


@dataclass(frozen=True, slots=True)
class TargetInfo:
    """What the UI needs to aim a card."""

    card: str
    mode: TargetMode
    requires_target: bool
    source: str
    candidates: tuple[str, ...]
    range: tuple[str, ...]
    playable: bool
    reason: str | None
    count: int = 1
    up_to: bool = False
    choose_on_resolve: bool = False
    late_choice: LateChoice | None = None
    refusal: Refusal | None = None
    #: The units the card's mode would reach but a status protects (whether it is playable
    #: or not): what a UI says when the arrow is released on one of them.
    shields: tuple[Shield, ...] = ()

    def count_said(self) -> Said | None:
        """How many units it takes, as a card's band shows it beside the mode: ``up to N``,
        a multiplication sign and N, or nothing (None) for one unit."""
        if self.up_to:
            return said("count.up_to", count=self.count)
        return said("count.times", count=self.count) if self.count > 1 else None

    def count_label(self) -> str:
        """:meth:`count_said`'s English ("" for one unit)."""
        label = self.count_said()
        return "" if label is None else english(builtin().messages, label)

    def to_json(self) -> dict[str, object]:
        late = self.late_choice
        return {
            "card": self.card, "mode": str(self.mode), "requires_target": self.requires_target,
            "source": self.source, "candidates": list(self.candidates),
            "range": list(self.range), "playable": self.playable, "reason": self.reason,
            "reason_message": None if self.refusal is None else self.refusal.message,
            "count": self.count, "up_to": self.up_to, "count_label": self.count_label(),
            "count_label_message": self.count_said(),
            "choose_on_resolve": self.choose_on_resolve,
            "late_choice": None if late is None else late.to_json(),
            "refusal": None if self.refusal is None else self.refusal.to_json(),
            "protected": [s.to_json() for s in self.shields],
            "facts": self.mode.facts.to_json(),
        }  # fmt: skip


@dataclass(frozen=True, slots=True)
class CheckedPlay:
    card: CardInstance
    source: Unit
    targets: tuple[Unit, ...]


def card_in_hand(battle: Battle, card_id: object) -> CardInstance:
    if battle.result is not None:
        raise BattleOver(f"the battle is over ({battle.result})", "")
    if not isinstance(card_id, str) or card_id not in battle.cards:
        raise UnknownCard(f"no card instance {request_value(card_id)} in this battle", "card")
    card = battle.cards[card_id]
    if card_id not in battle.sides[card.side].piles[_HAND]:
        raise NotInHand(f"card {card_id!r} is not in {_hand_of(battle, card)} (it is in "
                        f"{_where_is(battle, card_id)})", "card")  # fmt: skip
    return card


def _hand_of(battle: Battle, card: CardInstance) -> str:
    return f"the {card.side.value} side's hand" if battle.two_sided else "the hand"


def acting_refused(battle: Battle, card: CardInstance) -> Said | None:
    """Why, in a two-sided battle, the side holding ``card`` may not act now: on an empty Cut
    only the side whose turn it is acts, on a Cut only the side holding priority (the one that
    did not put the top entry there). None when it may (and always in a one-sided battle).
    The reason is a sentence: :func:`acting_reason` is its English."""
    if not battle.two_sided:
        return None
    side = card.side
    if not battle.cut:
        if side is not battle.turn_side:
            return said("refusal.not_your_turn", side=said(f"side.{battle.turn_side.value}"))
        return None
    holder = battle.cut[-1].side.opposite
    if side is not holder:
        return said("refusal.priority", side=said(f"side.{holder.value}"))
    return None


def check_acting(battle: Battle, card: CardInstance, what: str = "played") -> None:
    """Raise the refusal :func:`acting_refused` gives, naming the card."""
    reason = acting_refused(battle, card)
    if reason is not None:
        error = NotPlayable if not battle.cut else CutError
        text = say(battle, reason)
        raise error(f"card {card.id!r} cannot be {what}: {text}", "card").telling(reason, text)


def _where_is(battle: Battle, card_id: str) -> str:
    pile = battle.pile_of(card_id)
    if pile == RESOLVING:
        return "play, waiting to resolve"
    return "no pile" if pile is None else f"the {getattr(pile, 'value', pile)} pile"


def affordable(battle: Battle, card: CardInstance) -> bool:
    """Whether the card's side has the energy its cost asks now (a card that costs more is
    refused: ``NotEnoughEnergy``). The play check, ``targets`` and ``simulate``'s random
    player all ask this one rule."""
    return card.card.cost <= battle.sides[card.side].energy


def member_of(battle: Battle, card: CardInstance) -> Unit | None:
    """The member who plays the card (its owner if it has one, else its side's active
    player) when that member is in play; None when it is down (:func:`source_of` refuses)."""
    source = battle._index.get(card.owner or battle.sides[card.side].active_player)
    return source if source is not None and source.in_play else None


def source_of(battle: Battle, card: CardInstance) -> Unit:
    """The member who plays the card: its owner if it has one, else its side's active player."""
    source = member_of(battle, card)
    if source is not None:
        return source
    source_id = card.owner or battle.sides[card.side].active_player
    down = said("refusal.source_down", unit=unit_named(battle, source_id))
    raise NoSource(f"card {card.id!r} is played by {source_id!r}, who is down",
                   "card").telling(down, say(battle, down))  # fmt: skip


def unmet_condition(battle: Battle, card: CardInstance, source: Unit) -> str | None:
    """The reason of the first ``playable_if`` condition that does not hold, else None.
    Conditions see the battle before the play: the source as Host, no submitted target."""
    definition = card.card
    if not definition.playable_if:
        return None
    ctx = Context(battle=battle, host=source, this_card=card.id)
    rng = battle.rng
    state, inc = rng.state, rng.inc  # asking about a card must not change later random draws
    try:
        for rule in definition.playable_if:
            if not holds(definition.behavior, rule.condition, ctx):
                return rule.reason
        return None
    finally:
        rng.state, rng.inc = state, inc


def _zone_cards(battle: Battle, zone: str, this_card: str | None) -> list[str]:
    """The cards in ``zone``: the Cut's, or the pile of the side ``this_card`` belongs to."""
    if zone == "cut":
        return [e.card for e in battle.cut if e.card is not None]
    side = _PLAYER if this_card is None else battle.cards[this_card].side
    return battle.sides[side].piles[Pile(zone)]


def card_targets_exist(battle: Battle, definition: CardDef, this_card: str | None) -> bool:
    """For a card that targets cards: does one card of the right type exist in any zone? The
    card itself never counts: "a card being played does not exist in either Hand or Field"."""
    spec = definition.card_targets
    if spec is None:
        return True
    cards = battle.cards
    for zone in spec.zones:
        held = _zone_cards(battle, zone, this_card)
        if any(c != this_card and spec.matches(cards[c]) for c in held):
            return True
    return False


def choosable_cards(battle: Battle, definition: CardDef, this_card: str | None) -> list[str]:
    """The cards a card that chooses cards may choose now: those of its ``card_targets`` in
    its zones (in the order of its zones, each pile from its top), never the card itself."""
    spec = definition.card_targets
    if spec is None:
        return []
    cards = battle.cards
    return [c for zone in spec.zones for c in _zone_cards(battle, zone, this_card)
            if c != this_card and spec.matches(cards[c])]  # fmt: skip


def late_candidates(battle: Battle, card: CardInstance, source: Unit) -> list[str]:
    """What a card that chooses on resolve could choose now: unit ids or card ids."""
    definition = card.card
    if definition.chooses_cards:
        return choosable_cards(battle, definition, card.id)
    return [u.id for u in candidates(battle, source, definition.target, definition)]


def late_choice(battle: Battle, card: CardInstance, source: Unit) -> LateChoice | None:
    """Where the late choice of ``card`` comes from and what it could choose now (None for a
    card that does not choose on resolve)."""
    definition = card.card
    if not definition.choose_on_resolve:
        return None
    candidates_now = tuple(late_candidates(battle, card, source))
    spec = definition.card_targets
    if definition.chooses_cards and spec is not None:
        return LateChoice("cards", spec.zones, candidates_now)
    return LateChoice("units", (_FIELD.value,), candidates_now)


def searches_hidden(battle: Battle, definition: CardDef) -> bool:
    """Does a card that chooses cards on resolve search a pile the other side may not look
    through (its ``card_targets`` zones hold one whose ``visibility`` is not ``everyone``)?
    Then what it may choose is its owner's to see as it resolves, and the other side learns
    not even whether there is anything to choose."""
    spec = definition.card_targets
    return definition.chooses_cards and spec is not None and any(
        zone in _PILE_NAMES and battle.visibility[Pile(zone)] != "everyone"
        for zone in spec.zones)  # fmt: skip


def nothing_to_choose(battle: Battle, card: CardInstance, source: Unit) -> bool:
    """Can a late choice not be made at all (too few candidates for the card's count)?"""
    pool = len(late_candidates(battle, card, source))
    return pool < needed_targets(card.card, pool, battle.rules)  # always at least 1


def needed_targets(definition: CardDef, available: int, rules: Rules) -> int:
    """How many units a play must submit: ``target_count`` (or 1..count when ``up_to``);
    under soft rules, fewer when fewer exist."""
    if definition.up_to:
        return 1
    if rules is _SOFT:
        return max(1, min(definition.target_count, available))
    return definition.target_count


def unit_law_refusal(battle: Battle, source: Unit, mode: TargetMode,
                     definition: CardDef | None = None) -> Refusal | None:  # fmt: skip
    """Why an effect in ``mode`` may not be declared under strict rules: not enough legal
    units to choose (the runtime's random picks included), or an "all ~" range that is empty;
    the units a status protects are named. The same law holds for a player's card
    (``definition``) and an enemy's move (None)."""
    facts = mode.facts
    if facts.chooses_units:
        pool = candidates(battle, source, mode, definition)
        need = 1 if definition is None else needed_targets(definition, len(pool), battle.rules)
        if len(pool) < need:
            code = "not_enough_legal_targets" if pool else "no_legal_target"
            return explained(battle, code, shields_of(battle, source, mode, definition))
    elif facts.has_range and not affected_range(battle, source, mode, definition):
        shields = shields_of(battle, source, mode, definition)
        return explained(battle, "no_legal_target", shields)
    return None


def unit_law_reason(battle: Battle, source: Unit, mode: TargetMode,
                    definition: CardDef | None = None) -> str | None:  # fmt: skip
    """:func:`unit_law_refusal`'s text."""
    refusal = unit_law_refusal(battle, source, mode, definition)
    return None if refusal is None else refusal.text


def strict_refusal(battle: Battle, card: CardInstance, source: Unit) -> Refusal | None:
    """Why a targeting effect may not even be declared under strict rules: no legal target.
    This holds for "all ~" effects too, and for effects that choose on resolution."""
    definition = card.card
    refusal = unit_law_refusal(battle, source, definition.target, definition)
    if refusal is not None:
        return refusal
    if definition.chooses_cards:
        if nothing_to_choose(battle, card, source):
            return said_refusal(battle, "no_card_to_choose", said("refusal.no_card_to_choose"))
        return None
    if not card_targets_exist(battle, definition, card.id):
        return said_refusal(battle, "no_card_to_target", said("refusal.no_card_to_target"))
    return None


def strict_reason(battle: Battle, card: CardInstance, source: Unit) -> str | None:
    """:func:`strict_refusal`'s text."""
    refusal = strict_refusal(battle, card, source)
    return None if refusal is None else refusal.text


def soft_refusal(battle: Battle, card: CardInstance, source: Unit,
                 pool: list[Unit]) -> Refusal | None:  # fmt: skip
    """Why a card may not be played under soft rules: an arrow card (or one choosing on
    resolve) with nothing to choose. ``pool``: its candidates, for an arrow mode."""
    definition = card.card
    if definition._arrow and not pool:
        shields = shields_of(battle, source, definition.target, definition)
        return explained(battle, "no_valid_target", shields)
    if definition.chooses_cards and nothing_to_choose(battle, card, source):
        return said_refusal(battle, "no_card_to_choose", said("refusal.no_card_to_choose"))
    return None


def soft_reason(battle: Battle, card: CardInstance, source: Unit, pool: list[Unit]) -> str | None:
    """:func:`soft_refusal`'s text."""
    refusal = soft_refusal(battle, card, source, pool)
    return None if refusal is None else refusal.text


def not_playable(card: CardInstance, refusal: Refusal, now: str = "") -> NotPlayable:
    """The refusal of a play, in the words ``targets`` gives as its reason."""
    return NotPlayable(f"card {card.id!r} cannot be played{now}: {refusal.text}",
                       "card").telling(refusal.message, refusal.text)  # fmt: skip


def targets(battle: Battle, card_id: object) -> TargetInfo:
    """How a card in hand may be aimed now. A card whose member has fallen is reported as not
    playable (with the reason) rather than refused, so a UI can grey it out."""
    card = card_in_hand(battle, card_id)
    definition = card.card
    mode = definition.target
    side = battle.sides[card.side]
    source_id = card.owner or side.active_player
    source = battle.unit(source_id)
    if source is None or not source.in_play:
        down = said_refusal(battle, "source_down", said("refusal.source_down",
                                                   unit=unit_named(battle, source_id)))  # fmt: skip
        return TargetInfo(card.id, mode, mode.requires_target, source_id, (), (), False,
                          down.text, definition.target_count, definition.up_to,
                          definition.choose_on_resolve, refusal=down)  # fmt: skip
    requires_target = definition._arrow
    # Only arrow modes have candidates; their range is exactly those candidates.
    pool = candidates(battle, source, mode, definition) if requires_target else []
    acting = acting_refused(battle, card)
    energy = side.energy
    refused: Refusal | None = None
    if acting is not None:
        refused = said_refusal(battle, "not_acting", acting)
    elif not affordable(battle, card):
        refused = said_refusal(battle, "energy", said("refusal.energy", cost=definition.cost,
                                                 energy=energy))  # fmt: skip
    elif battle.rules is _STRICT:
        refused = strict_refusal(battle, card, source)
    elif (requires_target and not pool) or definition.choose_on_resolve:
        refused = soft_refusal(battle, card, source, pool)
    if refused is None:
        unmet = unmet_condition(battle, card, source)
        own = data(f"card.{definition.id}.playable_if", unmet or "")
        refused = None if unmet is None else \
            said_refusal(battle, "condition", said("refusal.condition", reason=own))  # fmt: skip
    reason = None if refused is None else refused.text
    arrow = requires_target and not definition.choose_on_resolve
    reach = pool if requires_target else affected_range(battle, source, mode, definition)
    late = late_choice(battle, card, source) if definition.choose_on_resolve else None
    return TargetInfo(
        card=card.id,
        mode=mode,
        requires_target=arrow,
        source=source.id,
        candidates=tuple(u.id for u in pool) if arrow else (),
        range=tuple(u.id for u in reach),
        playable=reason is None,
        reason=reason,
        count=definition.target_count,
        up_to=definition.up_to,
        choose_on_resolve=definition.choose_on_resolve,
        late_choice=late,
        refusal=refused,
        shields=shields_of(battle, source, mode, definition),
    )


def submitted_units(target: object) -> list[object]:
    """A submitted target as a list: nothing, one unit id, or a list of them."""
    if target is None:
        return []
    return list(target) if isinstance(target, _SUBMITTED_MANY) else [target]


def check_play(battle: Battle, card_id: object, target: object = None) -> CheckedPlay:
    """Validate a play without changing anything; raise a :class:`PlayError` if refused.

    ``target`` is a unit id, or a list of unit ids for cards that choose several."""
    return CheckedPlay(*check_parts(battle, card_id, target))


def check_parts(battle: Battle, card_id: object, target: object = None
                ) -> tuple[CardInstance, Unit, tuple[Unit, ...]]:  # fmt: skip
    """:func:`check_play`'s answer as a plain tuple: (card, source, targets). Plays use it,
    since a frozen dataclass costs more to build than the rest of a small play's checks."""
    # card_in_hand(), check_acting() and source_of(), whose errors they raise, with the usual
    # case inline: on an empty Cut, a card in the hand of the side whose turn it is (a card
    # is only ever in its own side's piles, so that side acts now; a one-sided battle's turn
    # is always its player's).
    side = battle.sides[battle.turn_side]
    if battle.result is None and isinstance(card_id, str) and card_id in side.piles[_HAND] \
            and not battle.cut:  # fmt: skip
        card = battle.cards[card_id]
    else:
        card = card_in_hand(battle, card_id)
        side = battle.sides[card.side]
        check_acting(battle, card)  # on a Cut, only the side holding priority acts
    source = member_of(battle, card) or source_of(battle, card)  # source_of() refuses
    definition = card.card
    mode = definition.target
    if not affordable(battle, card):
        short = said("refusal.energy", cost=definition.cost, energy=side.energy)
        raise NotEnoughEnergy(
            f"card {card.id!r} costs {definition.cost}, only {side.energy} energy left", "card"
        ).telling(short, say(battle, short))
    if battle.rules is _STRICT:
        refusal = strict_refusal(battle, card, source)
        if refusal is not None:
            raise not_playable(card, refusal)
    elif definition.choose_on_resolve:  # it "cannot be played if no targets exist"
        pool = [] if not definition._arrow else candidates(battle, source, mode, definition)
        refusal = soft_refusal(battle, card, source, pool)
        if refusal is not None:
            raise not_playable(card, refusal)
    unmet = unmet_condition(battle, card, source) if definition.playable_if else None
    if unmet is not None:
        own = said("refusal.condition", reason=data(f"card.{definition.id}.playable_if", unmet))
        raise not_playable(card, said_refusal(battle, "condition", own), " now")
    if definition._one_pick and isinstance(target, str):
        # The usual single target, accepted as chosen_units() would accept it (which, for
        # anything else, also raises the right error).
        unit = battle._index.get(target)
        if unit is not None and is_valid_target(battle, source, mode, unit, definition):
            return card, source, (unit,)
    submitted = submitted_units(target)
    if not definition._arrow or definition.choose_on_resolve:
        if submitted:
            when = " until it resolves" if definition.choose_on_resolve else ""
            raise TargetNotAllowed(f"card {card.id!r} ({mode.value}) takes no submitted "
                                   f"target{when}, got {target!r}", "target")  # fmt: skip
        return card, source, ()
    return card, source, chosen_units(battle, card, source, submitted, "target")


def chosen_units(battle: Battle, card: CardInstance, source: Unit, submitted: list[object],
                 where: str) -> tuple[Unit, ...]:  # fmt: skip
    """Check a submitted choice of units against the card's count and the legality function."""
    definition = card.card
    mode = definition.target
    # The candidates matter only for how many a soft multi-target play needs, and for the
    # messages; they are the same whenever they are computed (nothing changes meanwhile).
    count = definition.target_count
    if definition.up_to or count == 1:
        need = 1  # what needed_targets says for these, whatever the rules
    else:
        counts_pool = battle.rules is _SOFT
        available = len(candidates(battle, source, mode, definition)) if counts_pool else 0
        need = needed_targets(definition, available, battle.rules)
    if not submitted:
        raise TargetRequired(f"card {card.id!r} ({mode.value}) needs a target", where)
    if len(submitted) > count or len(submitted) < need:
        wanted = f"{need} to {count}" if definition.up_to else str(need)
        raise NotACandidate(f"card {card.id!r} takes {wanted} target(s), got "
                            f"{len(submitted)}: {submitted!r}", where)  # fmt: skip
    units: list[Unit] = []
    index = battle._index  # what Battle.unit() reads
    for unit_id in submitted:
        unit = index.get(unit_id) if isinstance(unit_id, str) else None
        if unit is None:
            raise UnknownUnit(f"no unit {request_value(unit_id)} in this battle", where)
        if unit in units:
            raise NotACandidate(f"{unit_id!r} is chosen twice", where)
        if not is_valid_target(battle, source, mode, unit, definition):
            raise not_a_candidate(battle, source, mode, unit, definition, card.id, where)
        units.append(unit)
    return tuple(units)


def chosen_cards(battle: Battle, card: CardInstance, submitted: list[object],
                 where: str) -> tuple[str, ...]:  # fmt: skip
    """Check a choice of cards (a card that chooses cards on resolve) against its count and
    its ``card_targets``: distinct card instances that it may choose now."""
    definition = card.card
    pool = choosable_cards(battle, definition, card.id)
    count = definition.target_count
    need = needed_targets(definition, len(pool), battle.rules)
    if not submitted:
        raise TargetRequired(f"card {card.id!r} chooses {count} card(s) when it resolves",
                             where)  # fmt: skip
    if len(submitted) > count or len(submitted) < need:
        wanted = f"{need} to {count}" if definition.up_to else str(need)
        raise NotACandidate(f"card {card.id!r} takes {wanted} card(s), got "
                            f"{len(submitted)}: {submitted!r}", where)  # fmt: skip
    chosen: list[str] = []
    allowed = set(pool)
    for card_id in submitted:
        if not isinstance(card_id, str) or card_id not in battle.cards:
            raise UnknownCard(f"no card instance {request_value(card_id)} in this battle", where)
        if card_id in chosen:
            raise NotACandidate(f"{card_id!r} is chosen twice", where)
        if card_id not in allowed:
            shown = ", ".join(pool[:20]) + (", ..." if len(pool) > 20 else "") or "none"
            raise NotACandidate(f"{card_id!r} is not a card {card.id!r} may choose; "
                                f"candidates: {shown}", where)  # fmt: skip
        chosen.append(card_id)
    return tuple(chosen)


def not_a_candidate(battle: Battle, source: Unit, mode: TargetMode, unit: Unit,
                    definition: CardDef | None, what: str,
                    where: str) -> NotACandidate:  # fmt: skip
    """The refusal of ``unit`` as a target of ``what`` (a card or a move id): the candidates,
    and the status that protects it when one does."""
    pool = candidates(battle, source, mode, definition)
    valid = ", ".join(u.id for u in pool) or "none"
    shields = tuple(s for s in shields_of(battle, source, mode, definition) if s.unit == unit.id)
    why = f": {shields_text(battle, shields)}" if shields else ""
    told = said("refusal.not_a_target", unit=unit_named(battle, unit.id))
    if shields:
        told = said("refusal.explained", reason=told, shields=shields_said(battle, shields))
    error = NotACandidate(f"{unit.id!r} is not a valid target for {what!r} ({mode.value}){why}; "
                          f"candidates: {valid}", where)  # fmt: skip
    return error.telling(told, say(battle, told))
