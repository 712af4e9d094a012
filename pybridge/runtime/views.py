"""Per-viewer views: what one side (or a spectator) may see of a battle, its events and log.

The authority holds the battle; a viewer receives a *view*, never the battle. A view leaves
out the seed, the RNG state and the per-battle secret; it shows each pile as its
``visibility`` allows (your own hand face up, the opponent's as card backs, draw piles as
backs in no telling order, a face-down card as a back in its place to whoever may not see
it); events a viewer may not see are left out, and log lines never name a card the viewer
cannot see ("a card").

Card ids in a view are opaque aliases: a keyed hash (HMAC-SHA-256 under ``Battle.secret``)
of the viewer, the card instance and its *stint*, the number of times the card was revealed
to or hidden from that viewer (``Battle.stints``). A hidden card's id tells nothing of
which card it is, and a card gets a new id each time it is revealed or goes into hiding, so
an opponent cannot follow a physical card through a hidden zone. The secret and the stints
live in the snapshot only, so a resumed match gives the same views.

The rules call :func:`moved` where a card changes zone, and only when the battle has a
secret: a battle that never gave a view pays one attribute check per move.
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, NoReturn, TypeVar, cast

from .affects import affected_units
from .context import Context, Event
from .cut import preview
from .document import BATTLE_FORMAT, dump_battle
from .forecast import Forecast, forecast_intents
from .hiding import VIEWER_BITS, Change, Known, seen_by
from .model import PILES, RESOLVING, Battle, CardInstance, Pile, Team, Unit
from .narrate import HIDDEN_CARD, event_side, narrate_all
from .picking import Picking
from .play import TargetInfo, targets
from .rng import Pcg32
from .sentences import cards_renamed, english, opening_hidden_card, said
from .sentences import pile as said_pile
from .vocabulary import Visibility, words_of

#: What a view says it is, in place of a battle's ``format``: no loader reads it as a battle.
VIEW_FORMAT = "pybridge/view@1"


@dataclass(frozen=True, slots=True)
class Viewer:
    """Who a view is for: a card-playing side (``team``), or a spectator (``team`` None) who
    sees only what is public. The three are :data:`PLAYER`, :data:`ENEMY`, :data:`SPECTATOR`."""

    team: Team | None

    @property
    def value(self) -> str:
        return "spectator" if self.team is None else self.team.value

    @property
    def bit(self) -> int:
        """The viewer's bit in the sets :func:`.hiding.seen_by` gives."""
        return VIEWER_BITS[self.value]


PLAYER, ENEMY, SPECTATOR = Viewer(Team.PLAYER), Viewer(Team.ENEMY), Viewer(None)
#: The viewers by name, as requests give them.
VIEWERS: dict[str, Viewer] = {v.value: v for v in (PLAYER, ENEMY, SPECTATOR)}
_INDEX = {PLAYER: 0, ENEMY: 1, SPECTATOR: 2}


def enable(battle: Battle, secret: bytes) -> None:
    """Give ``battle`` the secret its views derive ids from (the host draws it at random,
    once per battle, the first time a view is asked)."""
    if len(secret) < 16:
        raise ValueError("a view secret is at least 16 bytes")
    battle.secret = secret
    battle.stints = {}


def alias(battle: Battle, viewer: Viewer, card_id: str, stints: tuple[int, int, int]) -> str:
    """The id ``viewer`` knows the card by in the stint ``stints`` gives."""
    secret = battle.secret
    if secret is None:
        raise ValueError("the battle gives no views yet (it has no secret)")
    return _keyed(secret, viewer.value, card_id, stints[_INDEX[viewer]])


# An id is a pure function of its key: every view of every battle asks for the same few ids
# again at each step, and an HMAC costs more than the rest of a card's entry.
@functools.lru_cache(maxsize=1 << 16)
def _keyed(secret: bytes, viewer: str, card_id: str, stint: int) -> str:
    message = f"{viewer}|{card_id}|{stint}".encode()
    return "k" + hmac.new(secret, message, hashlib.sha256).hexdigest()[:16]


def current_alias(battle: Battle, viewer: Viewer, card_id: str) -> str:
    return alias(battle, viewer, card_id, battle.stints.get(card_id, (0, 0, 0)))


_QUOTED = re.compile(r"'([^'\\]*)'")


def worded_for(battle: Battle, viewer: Viewer, message: str) -> str:
    """``message`` (a refusal, naming cards by ``repr`` of their ids) with every card
    instance's id replaced by the id ``viewer`` knows the card by now."""

    def known(quoted: re.Match[str]) -> str:
        card_id = quoted.group(1)
        if card_id not in battle.cards:
            return quoted.group()
        return repr(current_alias(battle, viewer, card_id))

    return _QUOTED.sub(known, message)


_Told = TypeVar("_Told")


def told_to(battle: Battle, viewer: Viewer, value: _Told) -> _Told:
    """``value`` (JSON: a refusal's message and details) as ``viewer`` is told it: every
    card a sentence names (:func:`.sentences.card`) and every card a text quotes
    (:func:`worded_for`) by the id the viewer knows it by now, never the instance's own."""
    renamed = cards_renamed(value, lambda card_id: str(_now(battle, viewer, card_id)))
    return cast(_Told, _texts_worded(battle, viewer, renamed))


def _texts_worded(battle: Battle, viewer: Viewer, value: Any) -> Any:
    if isinstance(value, str):
        return worded_for(battle, viewer, value)
    if isinstance(value, list):
        return [_texts_worded(battle, viewer, item) for item in value]
    if isinstance(value, dict):
        return {key: _texts_worded(battle, viewer, item) for key, item in value.items()}
    return value


def visible_now(battle: Battle, viewer: Viewer, card_id: str) -> bool:
    instance = battle.cards[card_id]
    zone = battle.pile_of(card_id)
    return bool(seen_by(battle, instance.side, zone, instance.face_down) & viewer.bit)


def real_id(battle: Battle, viewer: Viewer, given: object, backs: bool = False) -> object:
    """The card instance a viewer's id names: a card the viewer sees face up now (with
    ``backs``, a card back it knows too: a choice's answer, checked against the options the
    rules offered); anything else is returned as it is, for the rules to refuse as they
    refuse any unknown card (a real instance id is never taken from a viewer)."""
    if not isinstance(given, str):
        return given
    for card_id in battle.cards:
        if (backs or visible_now(battle, viewer, card_id)) \
                and current_alias(battle, viewer, card_id) == given:  # fmt: skip
            return card_id
    return f"?{given}" if given in battle.cards else given


def real_ids(battle: Battle, viewer: Viewer, answers: Mapping[str, Any]) -> dict[str, Any]:
    """A request's ``choices`` with the viewer's card ids replaced by the instances'."""
    return {key: [real_id(battle, viewer, item, backs=True) for item in value]
            if isinstance(value, list) else real_id(battle, viewer, value, backs=True)
            for key, value in answers.items()}  # fmt: skip


# -- the state -------------------------------------------------------------------------------
def _card_entry(battle: Battle, viewer: Viewer, instance: CardInstance, zone: object
                ) -> dict[str, object]:  # fmt: skip
    entry: dict[str, object] = {"id": current_alias(battle, viewer, instance.id)}
    if seen_by(battle, instance.side, zone, instance.face_down) & viewer.bit:
        entry["card"] = instance.card.id
        if instance.owner is not None:
            entry["owner"] = instance.owner
    if instance.face_down:  # that it lies face down is no secret: its face may be
        entry["face_down"] = True
    return entry


def _piles(battle: Battle, viewer: Viewer, team: Team, piles: Mapping[Pile, list[str]]
           ) -> dict[str, object]:  # fmt: skip
    """Each pile of ``team``'s side (see :func:`pile_entries`)."""
    return {str(pile): pile_entries(battle, viewer, team, pile, piles[pile]) for pile in PILES}


def in_order(battle: Battle, viewer: Viewer, team: Team, pile: Pile) -> bool:
    """Does ``viewer`` see ``team``'s ``pile`` in its order? Never the draw pile's: the draw
    order is secret to every viewer, however public its cards are; another pile when its
    ``visibility`` lets the viewer see its cards."""
    return pile is not Pile.DRAW and bool(seen_by(battle, team, pile) & viewer.bit)


def unordered(entry: Mapping[str, object]) -> tuple[str, str]:
    """Where a card of a pile shown in no telling order stands: by its card (a card back
    first), then by the viewer's id of it, which tells nothing of where it lies."""
    return str(entry.get("card", "")), str(entry["id"])


def pile_entries(battle: Battle, viewer: Viewer, team: Team, pile: Pile,
                 cards: Sequence[str]) -> list[dict[str, object]]:  # fmt: skip
    """The cards ``cards`` of ``team``'s ``pile`` as ``viewer`` sees them: a card it sees as
    ``{id, card, owner}``, a face-down one it may not see as a card back in its place. A pile
    it sees in order (:func:`in_order`) is listed top first; any other (the draw pile, a pile
    of backs) by :func:`unordered`, which tells nothing of the pile's order."""
    entries = [_card_entry(battle, viewer, battle.cards[c], pile) for c in cards]
    if not in_order(battle, viewer, team, pile):
        entries.sort(key=unordered)
    return entries


def pile_view(battle: Battle, viewer: Viewer, team: Team, pile: Pile) -> dict[str, Any]:
    """A ``pile`` answer: ``team``'s ``pile`` as ``viewer`` may see it, for a pile viewer.

    A pile whose cards the viewer may see lists them as :func:`pile_entries` does, each card
    it sees with its ``name``, ``cost`` and ``text``; a pile it may not see gives only how many
    cards it holds (``seen`` false, no cards). ``ordered`` says whether the list is the pile's
    own order, top first (never for the draw pile). ``title`` names the pile and its count,
    ``note`` says what the list does not tell (or that the pile is empty); both come as
    messages too."""
    words = words_of(battle)
    cards = battle.sides[team].piles[pile]
    seen = bool(seen_by(battle, team, pile) & viewer.bit)
    entries = pile_entries(battle, viewer, team, pile, cards) if seen else []
    for entry in entries:
        if "card" in entry:
            definition = battle.library[str(entry["card"])]
            entry.update(name=definition.name, cost=definition.cost, text=definition.text)
    ordered = seen and in_order(battle, viewer, team, pile)
    title = said("view.pile.title", pile=said_pile(pile), count=len(cards))
    note = said("view.pile.empty" if not cards else "view.pile.ordered" if ordered
                else "view.pile.shuffled" if seen else "view.pile.hidden")  # fmt: skip
    return {"pile": str(pile), "side": team.value, "count": len(cards), "seen": seen,
            "ordered": ordered, "cards": entries,
            "title": english(words.messages, title), "title_message": title,
            "note": english(words.messages, note), "note_message": note}  # fmt: skip


def knows_deck_list(battle: Battle, viewer: Viewer, team: Team) -> bool:
    """Does ``viewer`` know ``team``'s deck list: every list when the battle's ``deck_lists``
    is ``public``, its own side's when it is ``own``, none when it is ``hidden``?"""
    known = battle.deck_lists
    return known == "public" or (known == "own" and viewer.team is team)


def deck_list(battle: Battle, team: Team) -> list[dict[str, str]]:
    """The cards ``team``'s side holds, wherever they are (piles and the Cut), sorted: what
    its deck list tells, with no instance id and no order."""
    entries = []
    for instance in battle.cards.values():
        if instance.side is team:
            entry = {"card": instance.card.id}
            if instance.owner is not None:
                entry["owner"] = instance.owner
            entries.append(entry)
    return sorted(entries, key=lambda e: (e["card"], e.get("owner", "")))


def counter_seen(visibility: Visibility, viewer: Viewer) -> bool:
    """A battle counter is the card-playing sides' together: an ``owner`` counter is seen by
    each side, not by spectators; a ``no_one`` counter by no view."""
    if visibility is Visibility.EVERYONE:
        return True
    return visibility is Visibility.OWNER and viewer.team is not None


def state_view(battle: Battle, viewer: Viewer, forecasts: Mapping[str, object] | None = None,
               dumped: Mapping[str, Any] | None = None) -> dict[str, Any]:  # fmt: skip
    """What ``viewer`` may see of the battle now, shaped as the state hosts draw (without
    ``format``, ``seed``, ``rng``, ``secret`` and ``stints``; ``view`` says whose it is).
    ``dumped``: the battle's :func:`.document.dump_battle` now, when several viewers' views
    are made at once (it is read, never changed: each view copies what it changes)."""
    base = dump_battle(battle) if dumped is None else dumped
    state: dict[str, Any] = {"view": {"format": VIEW_FORMAT, "viewer": viewer.value,
                                      "of": BATTLE_FORMAT}}  # fmt: skip
    state.update((k, v) for k, v in base.items() if k not in _AUTHORITY_ONLY)
    if forecasts:
        state["units"] = [_forecast(unit, forecasts) for unit in state["units"]]
    if not battle.two_sided:
        state["piles"] = _piles(battle, viewer, Team.PLAYER, battle.sides[Team.PLAYER].piles)
        if knows_deck_list(battle, viewer, Team.PLAYER):
            state["deck_list"] = deck_list(battle, Team.PLAYER)
    else:
        sides = []
        for given in state["sides"]:
            team = Team(given["team"])
            side = {**given, "piles": _piles(battle, viewer, team, battle.sides[team].piles)}
            if knows_deck_list(battle, viewer, team):
                side["deck_list"] = deck_list(battle, team)
            sides.append(side)
        state["sides"] = sides
    state["cut"] = [{**shown, "card": _card_entry(battle, viewer, battle.cards[entry.card],
                                                  RESOLVING)}
                    if entry.card is not None else shown
                    for entry, shown in zip(battle.cut, state["cut"], strict=True)]  # fmt: skip
    if "counters" in state:
        specs = words_of(battle).counters
        state["counters"] = {name: value for name, value in state["counters"].items()
                             if name not in specs
                             or counter_seen(specs[name].visibility, viewer)}  # fmt: skip
    return state


#: What only the authority's snapshot holds.
_AUTHORITY_ONLY = frozenset({"format", "seed", "rng", "secret", "stints"})


def _forecast(unit: Mapping[str, Any], forecasts: Mapping[str, object]) -> Mapping[str, Any]:
    """A unit's entry with its intent's forecast told beside it (a copy; the unit as given
    when it has none)."""
    intent = unit.get("intent")
    if intent is None or unit["id"] not in forecasts:
        return unit
    return {**unit, "intent": {**intent, "forecast": forecasts[unit["id"]]}}


# -- events and log lines ---------------------------------------------------------------------
#: The fields of built-in events that name card instances (``called``'s card is a definition).
CARD_FIELDS: dict[str, tuple[str, ...]] = {
    "card_played": ("card",), "random_target": ("card",), "targets_chosen": ("card",),
    "cards_chosen": ("card", "cards"), "card_moved": ("card",), "negated": ("card",),
    "card_revealed": ("card",),
    "target_skipped": ("card",), "card_resolved": ("card",), "activated": ("card",),
    "resolving": ("card",), "effect_failed": ("card",), "choice_made": ("options", "chosen"),
}  # fmt: skip
#: Events that tell a card's own change of sight (a move, a play, a face turned up).
_MOVES = frozenset({"card_moved", "card_played", "card_revealed"})


@dataclass(slots=True)
class _Timeline:
    """Each card's stints and who saw it, event by event, from a request's journal."""

    battle: Battle
    changes: dict[str, list[Change]]

    def at(self, card_id: str, index: int, moving: bool) -> tuple[tuple[int, int, int], int]:
        """The card's stints and viewers at event ``index``; ``moving``: that event tells
        the card's own move, which shows it to whoever saw it on either side of the move,
        under the id of the side they saw it on."""
        changes = self.changes.get(card_id)
        if not changes:
            instance = self.battle.cards[card_id]
            zone = self.battle.pile_of(card_id)
            return (self.battle.stints.get(card_id, (0, 0, 0)),
                    seen_by(self.battle, instance.side, zone, instance.face_down))  # fmt: skip
        stints, mask = changes[0][2], changes[0][4]
        for at, _, old, new, old_mask, new_mask in changes:
            if at < index:
                stints, mask = new, new_mask
            elif at == index and moving:
                return (new, new_mask | old_mask) if new_mask else (old, new_mask | old_mask)
            else:
                break
        return stints, mask


def _owner_side(battle: Battle, event: Mapping[str, Any], acting: Team) -> Team:
    """Whose an event is: the side whose card, move or status is at work (tracked along the
    events by :func:`events_view`)."""
    card = event.get("card")
    if event.get("type") in _ACTS and isinstance(card, str) and card in battle.cards:
        return battle.cards[card].side
    unit = battle.unit(event["unit"]) if isinstance(event.get("unit"), str) else None
    if event.get("type") in _UNIT_ACTS and unit is not None:
        return unit.team
    return acting


_ACTS = frozenset({"card_played", "activated", "resolving"})
_UNIT_ACTS = frozenset({"enemy_acts", "enemy_responds", "enemy_holds", "status_hook",
                        "reaction", "called"})  # fmt: skip


def _visibility(battle: Battle, event: Mapping[str, Any]) -> Visibility:
    words = words_of(battle)
    if event.get("type") == "counter":  # a counter's change is seen as the counter is
        counter = words.counters.get(str(event.get("counter")))
        if counter is not None:
            return counter.visibility
    if event.get("type") == "choice_made":
        kind = words.choices.get(str(event.get("choice")))
        if kind is not None:
            return kind.visibility
    spec = words.events.get(str(event.get("type")))
    return Visibility.EVERYONE if spec is None else spec.visibility


def _card_fields(battle: Battle, event_type: str) -> tuple[str, ...]:
    fields = CARD_FIELDS.get(event_type)
    if fields is not None:
        return fields
    spec = words_of(battle).events.get(event_type)
    if spec is None or spec.narration is None:
        return ()
    params = spec.narration.message.params
    return tuple(name for name, kind in params.items() if kind in ("card", "cards"))


def events_view(battle: Battle, viewer: Viewer, events: Sequence[Mapping[str, Any]],
                journal: Iterable[Change] = (), turn_side: Team | None = None
                ) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:  # fmt: skip
    """The events ``viewer`` may see of those a request gave, and their log lines.

    ``battle`` is the battle after the request, ``journal`` its record of the visibility
    changes the request made (``Battle.journal``). An event whose visibility is ``no_one``
    reaches no view, an ``owner`` one only its side's; card ids become the viewer's ids as
    they were at that event, and a card the viewer could not see is ``a card`` in the log."""
    changes: dict[str, list[Change]] = {}
    for change in journal:
        changes.setdefault(change[1], []).append(change)
    timeline = _Timeline(battle, changes)
    acting = battle.turn_side if turn_side is None else turn_side
    shown: list[dict[str, Any]] = []
    masked: list[dict[str, Any]] = []
    kept: dict[int, int] = {}
    named: dict[int, dict[str, str]] = {}  # each event's cards its line names: their ids
    for index, event in enumerate(events):
        event_type = str(event.get("type"))
        side = _owner_side(battle, event, acting)
        if event_type in _ACTS or event_type in _UNIT_ACTS:
            acting = side
        visibility = _visibility(battle, event)
        if visibility is Visibility.NO_ONE or (
            visibility is Visibility.OWNER and viewer.team is not side
        ):
            masked.append({"type": ""})  # a stand-in: keeps the indices, tells nothing
            continue
        mine, told = dict(event), dict(event)
        moving = event_type in _MOVES
        ids = named[index] = {}
        for name in _card_fields(battle, event_type):
            value = event.get(name)
            if isinstance(value, list):
                pairs = [_aliased(timeline, viewer, item, index, False) for item in value]
                mine[name], told[name] = [p[0] for p in pairs], [p[1] for p in pairs]
                ids.update((item, str(p[0])) for item, p in zip(value, pairs, strict=True)
                           if isinstance(item, str) and p[0] != item)  # fmt: skip
            else:
                mine[name], told[name] = _aliased(timeline, viewer, value, index, moving)
                if isinstance(value, str) and mine[name] != value:
                    ids[value] = str(mine[name])
        kept[index] = len(shown)
        shown.append(mine)
        masked.append(told)
    lines = []
    sides = [event_side(battle, e) for e in events] if battle.two_sided else None
    for line in narrate_all(battle, masked, viewer.team, sides):
        at = line.get("event")
        if at in kept:
            line["event"] = kept[at]
            line["message"] = _named_as_seen(timeline, viewer, line["message"], at, named[at])
            if line["text"].startswith(HIDDEN_CARD):
                line["text"] = line["text"][0].upper() + line["text"][1:]
                line["message"] = opening_hidden_card(line["message"])
            lines.append(line)
    return shown, lines


def _named_as_seen(timeline: _Timeline, viewer: Viewer, sentence: object, index: int,
                   ids: Mapping[str, str]) -> Any:  # fmt: skip
    """A log line's sentence with the cards it names by the viewer's ids, as its event
    holds them (``ids``; a card its event does not hold: the viewer's id of it then), never
    the instances' own ids, which would let a viewer follow a card through hiding."""

    def renamed(card_id: str) -> str:
        found = ids.get(card_id)
        return found if found is not None else str(_aliased(timeline, viewer, card_id, index,
                                                            False)[0])  # fmt: skip

    return cards_renamed(sentence, renamed)


def _aliased(timeline: _Timeline, viewer: Viewer, value: object, index: int, moving: bool
             ) -> tuple[object, object]:  # fmt: skip
    """A card id as the viewer's event holds it, and as its log line reads it."""
    battle = timeline.battle
    if not isinstance(value, str) or value not in battle.cards:
        return value, value
    stints, mask = timeline.at(value, index, moving)
    return alias(battle, viewer, value, stints), value if mask & viewer.bit else HIDDEN_CARD


# -- answers about one card --------------------------------------------------------------------
def targets_view(battle: Battle, viewer: Viewer, info: TargetInfo) -> dict[str, Any]:
    """A ``targets`` answer for ``viewer``, with its card ids (the card, and cards a late
    choice could take). What a play ``affects`` is found by a preview only as far as the
    viewer may know it (:func:`known_to`): ``random`` and ``hidden`` say where it stopped,
    as a preview's do (null: ``affects`` is whole)."""
    known: list[Known] = []

    def previewed() -> list[Event]:
        seen = known_to(battle, viewer, lambda copy, events: preview(copy, info.card, None,
                                                                       events))  # fmt: skip
        known.append(seen)
        return seen.events

    out = info.to_json()
    out["affects"] = list(affected_units(battle, info, previewed))
    out["random"] = random_marker(battle, info.card, known[0]) if known else None
    out["hidden"] = known[0].hidden if known else None
    out["card"] = _now(battle, viewer, info.card)
    late = out.get("late_choice")
    if isinstance(late, dict):
        out["late_choice"] = late_choice_view(battle, viewer, info.card, late)
    return out


def asked_choice_view(battle: Battle, viewer: Viewer, details: dict[str, Any]
                      ) -> dict[str, Any]:  # fmt: skip
    """A choice an action asks (a ``choice_needed`` error's ``details``), as ``viewer`` reads
    it: card options under the viewer's ids, with their faces where its kind's visibility
    shows them to the viewer (``owner``: the side that makes it, ``everyone``, ``no_one``:
    nobody). A viewer that does not make the choice learns only that it waits, of whom and
    of how many options (``count``), unless the kind shows it to everyone."""
    choice = dict(details.get("choice", {}))
    options = choice.get("options", [])
    visibility, mine = choice.get("visibility"), choice.get("side") == viewer.value
    if not (mine or visibility == "everyone"):
        choice["options"], choice["zones"] = [], []  # not even which piles they are in
        options = []
    if isinstance(options, list) and choice.get("chooses") == "cards":
        ids = [current_alias(battle, viewer, o) if o in battle.cards else o for o in options]
        shown = visibility == "everyone" or (mine and visibility == "owner")
        choice["faces"] = {i: battle.cards[o].card.id for i, o in zip(ids, options, strict=True)
                           if shown and o in battle.cards}  # fmt: skip
        choice["options"] = ids
    card = choice.get("card")
    if isinstance(card, str) and card in battle.cards:
        choice["card"] = current_alias(battle, viewer, card)
    return choice


def late_choice_view(battle: Battle, viewer: Viewer, card_id: object,
                     late: dict[str, Any]) -> dict[str, Any]:  # fmt: skip
    """The late choice (``late_choice``) of card ``card_id`` as ``viewer`` sees it.

    A card that chooses cards searches its owner's piles, so it lets its owner look through
    them: its owner sees every candidate, and the face of each it may not see otherwise
    (``faces``, by the viewer's id: the card's search shows them, even in a pile hidden from
    its owner, as a draw pile is by default). Any other viewer sees only the candidates it
    sees anyway: a card back never tells whether it matches. Candidates are listed in id
    order, so none tells the order of its pile."""
    if late.get("chooses") != "cards" or not isinstance(card_id, str) \
            or card_id not in battle.cards:  # fmt: skip
        return late
    looks = viewer.team is battle.cards[card_id].side
    shown, faces = [], {}
    for candidate in late.get("candidates", []):
        seen = visible_now(battle, viewer, candidate)
        if seen or looks:
            shown.append(current_alias(battle, viewer, candidate))
        if looks and not seen:
            faces[shown[-1]] = battle.cards[candidate].card.id
    out = {**late, "candidates": sorted(shown)}
    if faces:
        out["faces"] = dict(sorted(faces.items()))
    return out


def forecasts_for(battle: Battle, viewer: Viewer) -> dict[str, Forecast]:
    """Each telegraphed intent's forecast as ``viewer`` may know it: the end of the turn up
    to where it would first depend on what the viewer may not know (:func:`known_to`), its
    lines as the viewer's log would read them."""
    return forecast_intents(battle, lambda run: known_to(battle, viewer, run),
                            lambda events: events_view(battle, viewer, events)[1])  # fmt: skip


def pick_view(battle: Battle, viewer: Viewer, picking: Picking) -> dict[str, Any]:
    """A ``pick`` answer with the viewer's card ids: the card, and the cards a late choice
    has chosen and may still take (units keep their ids)."""
    out = picking.to_json()
    out["card"] = _now(battle, viewer, picking.card)
    if picking.chooses == "cards":  # the candidates as the card's late choice shows them
        out["chosen"] = [_now(battle, viewer, c) for c in picking.chosen]
        late = {"chooses": "cards", "candidates": list(picking.candidates)}
        out["candidates"] = late_choice_view(battle, viewer, picking.card, late)["candidates"]
    return out


def cut_view_for(battle: Battle, viewer: Viewer, entries: list[dict[str, Any]]
                 ) -> list[dict[str, Any]]:  # fmt: skip
    """The Cut's entries (``cut_answers.cut_view``) with the viewer's card ids."""
    out = []
    for entry, shown in zip(battle.cut, entries, strict=True):
        shown = dict(shown)
        if entry.card is not None:
            shown["card"] = _card_entry(battle, viewer, battle.cards[entry.card], RESOLVING)
        late = shown.get("late_choice")
        if isinstance(late, dict):
            shown["late_choice"] = late_choice_view(battle, viewer, entry.card, late)
        out.append(shown)
    return out


def _now(battle: Battle, viewer: Viewer, value: object) -> object:
    if isinstance(value, str) and value in battle.cards:
        return current_alias(battle, viewer, value)
    return value


# -- what a viewer may know of a run on a copy ----------------------------------------------
class _Stopped(Exception):
    """Raised where a watched run first depends on what its viewer may not know: the run
    goes no further (:func:`known_to` catches it; the rules let it pass)."""


class _Watch:
    """Where a run on a copy first depends on what its viewer may not know, and why
    (``hidden``: the pile read, None: the RNG). ``events``: the event list the run appends
    to now, as its sources last saw it; ``told``: that list and how long it was when the run
    stopped."""

    __slots__ = ("events", "hidden", "stopped", "told", "viewer")

    def __init__(self, viewer: Viewer) -> None:
        self.viewer = viewer
        self.events: Any = None
        self.stopped = False
        self.hidden: dict[str, str] | None = None
        self.told: tuple[list[Event], int] | None = None

    def stop(self, hidden: dict[str, str] | None) -> NoReturn:
        """Stop the run here: nothing after this point is computed."""
        self.stopped, self.hidden = True, hidden
        events = self.events
        self.told = None if events is None else (events, len(events))
        raise _Stopped


class _Watched(Pcg32):
    """A watched copy's RNG: its first draw is where the run stops being the viewer's to
    know. Its copies (the copies the run makes of the battle) note in the same place."""

    __slots__ = ("watch",)

    watch: _Watch

    def __init__(self, state: int, inc: int, watch: _Watch) -> None:
        # The state is given, not seeded (and not by __new__, which a compiled class lacks).
        self.state, self.inc = state, inc
        self.watch = watch

    def copy(self) -> _Watched:
        return _Watched(self.state, self.inc, self.watch)

    def next_u32(self) -> int:
        self.watch.stop(None)  # what it would draw is no viewer's to know


def _unseen(battle: Battle, viewer: Viewer, cards: Sequence[object]) -> dict[str, str] | None:
    """Where the first of ``cards`` lies that ``viewer`` may not read now (a card whose face
    it may not see, or any card of a draw pile, whose order is secret), else None."""
    for card in cards:
        instance = battle.cards.get(card) if isinstance(card, str) else None
        if instance is None:
            continue
        zone = battle.pile_of(instance.id)
        if zone is Pile.DRAW or not seen_by(battle, instance.side, zone, instance.face_down) \
                & viewer.bit:  # fmt: skip
            return {"side": instance.side.value, "pile": str(zone)}
    return None


def _reading(resolve: Callable[[Context], list[str]], watch: _Watch
             ) -> Callable[[Context], list[str]]:  # fmt: skip
    """A card source's resolver that stops the watch where it yields a card hidden from the
    watch's viewer."""

    def read(ctx: Context) -> list[str]:
        watch.events = ctx.events
        cards = resolve(ctx)
        hidden = _unseen(ctx.battle, watch.viewer, cards)
        if hidden is not None:
            watch.stop(hidden)  # raises: what a node makes of it may tell its face
        return cards

    return read


def _looking(resolve: Callable[[Context], list[Unit]], watch: _Watch
             ) -> Callable[[Context], list[Unit]]:  # fmt: skip
    """A unit source's resolver that tells the watch which event list the run appends to."""

    def look(ctx: Context) -> list[Unit]:
        watch.events = ctx.events
        return resolve(ctx)

    return look


def _first_unseen_move(battle: Battle, viewer: Viewer, events: Sequence[Mapping[str, Any]]
                       ) -> int | None:  # fmt: skip
    """The index of the first event that moves a card ``viewer`` may not see now (a card
    drawn from a hidden pile, a face-down card turned up or played), or any card of the draw
    pile (which card lies where in it is secret, however public its cards are), if any: what
    follows may read its face."""
    cards = battle.cards
    for index, event in enumerate(events):
        card = event.get("card")
        if event.get("type") in _MOVES and isinstance(card, str) and card in cards \
                and (battle.pile_of(card) is Pile.DRAW
                     or not visible_now(battle, viewer, card)):  # fmt: skip
            return index
    return None


def known_to(battle: Battle, viewer: Viewer, run: Callable[[Battle, list[Event]], object]
             ) -> Known:  # fmt: skip
    """What ``viewer`` may know of ``run``, played on a copy of ``battle`` (appending its
    events to the list it is given): the one rule of every answer given for a viewer about
    what would happen (a preview, what a card affects, an intent's forecast).

    The events stop where the run would first depend on what the viewer may not know: the
    first draw of the battle's RNG (a random pick, a shuffle, a random selector), the first
    card source that yields a card hidden from the viewer (a card of a pile it may not see,
    a face-down card, any card of a draw pile, whose order is secret: what a node does with
    it may tell its face, as "deal damage to Vex if the top card is an attack" would), or the
    first move of such a card (a card drawn, a face-down card turned up: what follows could
    read its face). :class:`.hiding.Known` says which stopped it. Nothing is computed after
    an RNG draw or a hidden read (either ends the run there), and nothing after a hidden
    move is told, so two battles that differ only in what the viewer may not know give it
    the same answer. (An extension action that reads ``ctx.piles`` itself is not watched;
    only the moves it makes are: docs/extensions.md.)"""
    watch = _Watch(viewer)
    copy = battle.clone()
    copy.rng = _Watched(battle.rng.state, battle.rng.inc, watch)
    words = words_of(battle)
    copy.words = words.with_sources(
        {name: replace(spec, resolve=_looking(spec.resolve, watch))
         for name, spec in words.unit_sources.items()},
        {name: replace(spec, resolve=_reading(spec.resolve, watch))
         for name, spec in words.card_sources.items()},
    )  # fmt: skip
    copy._programs = {}  # compiled with the watched sources (the copy's clones share them)
    events: list[Event] = []
    watch.events = events
    try:
        run(copy, events)
    except _Stopped:
        _keep_told(events, watch.told)
    stop = len(events) if watch.stopped else None
    moved = _first_unseen_move(battle, viewer, events)
    if moved is not None and (stop is None or moved < stop):
        card = battle.cards[str(events[moved]["card"])]
        zone = battle.pile_of(card.id)
        return Known(events[:moved], hidden={"side": card.side.value, "pile": str(zone)})
    if stop is None:
        return Known(events)
    return Known(events[:stop], random=watch.hidden is None, hidden=watch.hidden)


def _keep_told(events: list[Event], told: tuple[list[Event], int] | None) -> None:
    """The events a stopped run had appended to a list of its own, not yet handed back to
    ``events`` (a turn's, whose Context makes its list), kept at the end of ``events``; a
    list already handed back (its first event is there) is not kept twice."""
    if told is None or told[0] is events or not told[1]:
        return
    own, count = told
    first = own[0]
    if all(event is not first for event in events):
        events.extend(own[:count])


def random_marker(battle: Battle, card_id: object, known: Known) -> dict[str, Any] | None:
    """How an answer about playing ``card_id`` says the RNG decides what follows: the units
    a random target is picked from (``from``) and how many (``count``), both null for any
    other draw; None when the RNG did not stop it."""
    if not known.random:
        return None
    definition = battle.cards[str(card_id)].card
    if definition._random and not definition.choose_on_resolve:
        info = targets(battle, card_id)
        return {"from": list(info.range), "count": definition.target_count}
    return {"from": None, "count": None}


def preview_view(battle: Battle, viewer: Viewer, card_id: object, target: object,
                 marks: Callable[[list[dict[str, Any]]], dict[str, Any]]
                 ) -> dict[str, Any]:  # fmt: skip
    """A ``preview`` answer for ``viewer``: its events as the viewer would see them now, up
    to where the play would first depend on what the viewer may not know (:func:`known_to`),
    and the marks of those.

    ``random`` says when the RNG stops it: the units a random target is picked from
    (``from``, as ``targets`` gives its ``range``) and how many (``count``); ``from`` is null
    for any other draw. ``hidden`` says when a card hidden from the viewer stops it: the side
    and pile it lies in. Both are null for a play shown whole. The authority's preview shows
    everything; a client never sees what follows."""
    known = known_to(battle, viewer, lambda copy, events: preview(copy, card_id, target, events))
    shown, _ = events_view(battle, viewer, known.events)
    return {"events": shown, "marks": marks(shown),
            "random": random_marker(battle, card_id, known), "hidden": known.hidden}  # fmt: skip
