"""A determinization: one full battle rebuilt from what one side sees, and a seed.

A search that must not peek (an AI, a hint, an odds display) starts from a view
(:func:`.views.state_view`), never from the battle. :func:`determinize` fills in what the view
leaves out, consistently with it: each card back becomes a card, each hidden pile gets an
order, and the battle gets a PRNG state, all drawn from ``seed``. What it assumes of a hidden
card comes from the document's ``deck_lists`` only, as the view shows it:

- a side whose deck list the viewer knows (``deck_list`` in the view): its hidden cards are
  that list less the side's cards the viewer sees (in its piles and on the Cut);
- any other side: each hidden card is any card of the battle's ``cards`` that side may hold
  (a card whose own player is of the other team is left out).

The rebuilt battle keeps the view's card ids as its instance ids, so a move the search finds
names the viewer's own ids. Its view for that viewer equals the given view up to those ids
(:func:`same_view`): the view's ids are keyed by the authority's secret, which no viewer has.
"""

from __future__ import annotations

import copy
from collections import Counter
from collections.abc import Callable, Mapping
from typing import Any

from .document import BATTLE_FORMAT, load_battle
from .errors import FormatError
from .model import DEFAULT_VISIBILITY, PILES, Battle, CardDef, Pile, Team
from .rng import Pcg32
from .views import VIEW_FORMAT, VIEWERS, Viewer, current_alias, enable, state_view, unordered
from .vocabulary import Vocabulary

#: The stream of the PRNG that draws a determinization (the rebuilt battle's own PRNG is
#: seeded from it too, so one seed gives one whole battle).
DETERMINIZE_STREAM = 0xD37E
_KEYS_LEFT_OUT = ("view", "deck_list")
#: A sample reads its cards from the sampler's definitions, not its own copy of the view's.
_SAMPLE_LEFT_OUT = (*_KEYS_LEFT_OUT, "cards")


def _viewer(view: Mapping[str, Any]) -> Viewer:
    shown = view.get("view")
    if not isinstance(shown, Mapping) or shown.get("format") != VIEW_FORMAT:
        raise FormatError.stated("view", f"expected a view ({VIEW_FORMAT}): what state_view "
                                 "gives one viewer")  # fmt: skip
    viewer = VIEWERS.get(str(shown.get("viewer")))
    if viewer is None:
        raise FormatError.stated("view.viewer", f"expected one of {', '.join(VIEWERS)}")
    return viewer


def _entries(side: Mapping[str, Any]) -> list[dict[str, Any]]:
    """A side's pile entries, every pile in order."""
    return [entry for pile in side["piles"].values() for entry in pile]


def _key(entry: Mapping[str, Any]) -> tuple[str, str | None]:
    return str(entry["card"]), entry.get("owner")


def _holdable(library: Mapping[str, CardDef], units: Mapping[str, str], team: Team
              ) -> list[tuple[str, str | None]]:  # fmt: skip
    """The cards a side of ``team`` may hold, when nothing tells which: every definition
    whose own player, if it names one, is of that team."""
    return [(card_id, None) for card_id, card in sorted(library.items())
            if card.owner is None or units.get(card.owner) == team.value]  # fmt: skip


def determinize(view: Mapping[str, Any], seed: int,
                library: Mapping[str, CardDef] | None = None,
                words: Vocabulary | None = None) -> Battle:  # fmt: skip
    """A battle consistent with ``view`` (one viewer's, from :func:`.views.state_view`): its
    hidden cards and pile orders, and its PRNG, drawn from ``seed``. ``library``: the cards
    the view's battle was opened with beside its own, ``words``: the vocabulary it was read
    with (as :func:`.document.load_battle` takes them). The view is all it reads; it is not
    changed."""
    return Sampler(view, library, words).sample(seed)


class Sampler:
    """Determinizations of one view (:func:`determinize`, one per seed), its card
    definitions read once: a search asks for a new one at every iteration, and reading the
    cards was most of the cost of each."""

    def __init__(self, view: Mapping[str, Any], library: Mapping[str, CardDef] | None = None,
                 words: Vocabulary | None = None) -> None:  # fmt: skip
        self.view = view
        self.library = library
        self.words = words  # a game's extension words the view's battle was read with
        self.viewer = _viewer(view)  # who sees what is in the view already: entries without a card
        self._definitions: Mapping[str, CardDef] | None = None

    def definitions(self) -> Mapping[str, CardDef]:
        """Every card the rebuilt battles hold: the view's own and ``library``'s, read once
        (from a battle with no cards in its piles)."""
        if self._definitions is None:
            view = self.view
            bare = {key: copy.deepcopy(value) for key, value in view.items() if key in (
                "units", "cards", "rules", "statuses", "moves", "extensions")}  # fmt: skip
            bare["format"] = BATTLE_FORMAT
            if "sides" in view:
                bare["sides"] = [{"team": s["team"], "active_player": s["active_player"]}
                                 for s in view["sides"]]  # fmt: skip
            else:
                bare["active_player"] = view["active_player"]
            self._definitions = load_battle(bare, self.library, self.words).library
        return self._definitions

    def sample(self, seed: int) -> Battle:
        rng = Pcg32(seed, DETERMINIZE_STREAM)
        # The cards are read once (``definitions``); each battle takes them as its library.
        document: dict[str, Any] = {key: copy.deepcopy(value) for key, value in
                                    self.view.items() if key not in _SAMPLE_LEFT_OUT}  # fmt: skip
        document["format"] = BATTLE_FORMAT
        document["seed"] = rng.next_u32() << 32 | rng.next_u32()
        sides = document.get("sides")
        if sides is None:  # a one-sided battle: the player side's piles are the battle's own
            given = [(Team.PLAYER, document, self.view.get("deck_list"))]
        else:
            given = [(Team(side["team"]), side, side.pop("deck_list", None)) for side in sides]
        units = {str(u["id"]): str(u["team"]) for u in document["units"]}
        for unit in document["units"]:  # a forecast is told beside an intent, never saved in it
            if isinstance(unit.get("intent"), dict):
                unit["intent"].pop("forecast", None)
        on_cut: dict[str, list[dict[str, Any]]] = {}
        for entry in document.get("cut", []):
            if "card" in entry:
                on_cut.setdefault(str(entry["side"]), []).append(entry["card"])
        for team, side, deck in given:
            _fill(side, team, deck, on_cut.get(team.value, []), self.definitions, units, rng,
                  _in_order(document, self.viewer, team))  # fmt: skip
        return load_battle(document, self.definitions(), self.words)


def _in_order(document: Mapping[str, Any], viewer: Viewer, team: Team) -> set[str]:
    """The piles of ``team``'s side the viewer sees in their order (by the document's
    ``visibility``; never the draw pile, whose order no view tells): a card back in one is a
    face-down card in its place."""
    given = document.get("visibility", {})
    rule = {p.value: str(given.get(p.value, DEFAULT_VISIBILITY[p])) for p in PILES}
    return {pile for pile, who in rule.items() if pile != Pile.DRAW
            and (who == "everyone" or (who == "owner" and viewer.team is team))}  # fmt: skip


def _fill(side: dict[str, Any], team: Team, deck: object, cut_cards: list[dict[str, Any]],
          definitions: Callable[[], Mapping[str, CardDef]], units: Mapping[str, str],
          rng: Pcg32, ordered: set[str]) -> None:  # fmt: skip
    """Give each card back of ``side`` a card, and each hidden pile an order (a pile in
    ``ordered`` the viewer sees in its order, whose card backs are face-down cards, keeps
    it)."""
    entries = _entries(side)
    hidden = [e for e in entries if "card" not in e]
    if hidden:
        _fill_backs(hidden, team, deck, entries + cut_cards, definitions, units, rng)
    for pile, cards in side["piles"].items():
        if cards and pile not in ordered:
            rng.shuffle(cards)  # a pile whose order the view hides gets one


def _fill_backs(hidden: list[dict[str, Any]], team: Team, deck: object,
                known: list[dict[str, Any]], definitions: Callable[[], Mapping[str, CardDef]],
                units: Mapping[str, str], rng: Pcg32) -> None:  # fmt: skip
    """Give each card back of ``hidden`` a card: from the deck list less the ``known`` cards
    when the viewer knows it, else any card the side may hold."""
    pool: list[tuple[str, str | None]] = []
    if isinstance(deck, list):  # the viewer knows this side's list: what it does not see
        left = Counter(_key(e) for e in deck)
        left.subtract(_key(e) for e in known if "card" in e)
        pool = [key for key, count in sorted(left.items(), key=_sort_key) for _ in range(count)
                if count > 0]  # fmt: skip
    rng.shuffle(pool)
    anything: list[tuple[str, str | None]] = []
    for index, entry in enumerate(hidden):
        if index < len(pool):
            card, owner = pool[index]
        else:  # nothing (more) is known of this side's cards: any card it may hold
            anything = anything or _holdable(definitions(), units, team)
            card, owner = anything[rng.below(len(anything))]
        entry["card"] = card
        if owner is not None:
            entry["owner"] = owner


def _sort_key(item: tuple[tuple[str, str | None], int]) -> tuple[str, str]:
    (card, owner), _ = item
    return card, owner or ""


def same_view(battle: Battle, viewer_name: str, view: Mapping[str, Any]) -> bool:
    """Is ``view`` what ``viewer_name`` sees of ``battle`` (a determinization of it), up to
    card ids? ``battle``'s view ids are read back as its instance ids, which are the given
    view's ids, and card backs and the draw pile compared in the order views list them
    in (:func:`.views.unordered`)."""
    viewer = VIEWERS[viewer_name]
    if battle.secret is None:
        enable(battle, bytes(range(16)))
    names = {current_alias(battle, viewer, card_id): card_id for card_id in battle.cards}
    rebuilt = _renamed(state_view(battle, viewer), names)
    return _backs_sorted(rebuilt) == _backs_sorted(copy.deepcopy(dict(view)))


def _renamed(value: Any, names: Mapping[str, str]) -> Any:
    if isinstance(value, dict):
        return {k: names.get(v, v) if k == "id" and isinstance(v, str) else _renamed(v, names)
                for k, v in value.items()}  # fmt: skip
    if isinstance(value, list):
        return [_renamed(item, names) for item in value]
    return value


def _backs_sorted(view: dict[str, Any]) -> dict[str, Any]:
    for side in view.get("sides") or [view]:
        for pile, entries in side["piles"].items():
            if entries and ("card" not in entries[0] or pile == Pile.DRAW):
                side["piles"][pile] = sorted(entries, key=unordered)
    return view
