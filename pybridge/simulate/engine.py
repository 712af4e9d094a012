"""One simulated battle, start to end, and what its cards did.

The battle is the encounter's prototype copied with its own seed: the battle's PRNG (enemy
intents, random targets, reshuffles) is ``Pcg32(seed)`` and the policy's is a second stream
of the same seed, so a seed gives the same battle on every machine. The party plays what
the policy chooses; ending the turn lets the enemies act on their intents (the runtime's
``end_turn``). Nothing is serialised: the loop reads the runtime's event lists directly.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from ..runtime import Battle, Event, Pcg32, PlayError, Team, play
from ..runtime.choices import DEFAULT_ANSWERS
from ..runtime.turns import end_turn, start_battle
from .policies import Policy
from .tally import CardTally, EncounterTally

#: The policy's PRNG stream (the battle's own uses the runtime's default stream).
POLICY_STREAM: Final = 0x5EED
#: A turn ends after this many plays even if the policy would go on (0-cost loops).
MAX_PLAYS_PER_TURN: Final = 100
#: Events that show a play changed the battle, besides damage, healing and armor.
EFFECT_EVENTS: Final = frozenset({"status", "revived", "withdrawn", "deployed", "energy", "negated",
                           "unit_died", "reshuffled"})  # fmt: skip
#: Every event type record_play reads; the rest (card_played, card_resolved ...) it passes
#: over with one look-up.
_RECORDED: Final = EFFECT_EVENTS | {"damage", "heal", "armor", "card_moved"}


class BattleError(Exception):
    """A battle could not go on: the policy raised (or, a fault, the runtime did)."""

    def __init__(self, message: str, encounter: str, seed: int, card: str | None) -> None:
        super().__init__(message)
        self.message, self.encounter, self.seed, self.card = message, encounter, seed, card


@dataclass(slots=True)
class Prepared:
    """An encounter ready to be played many times."""

    id: str
    battle: Battle
    party: frozenset[str]  # player unit ids
    deck: frozenset[str]  # card definition ids the battle holds

    @classmethod
    def of(cls, encounter_id: str, battle: Battle) -> Prepared:
        party = frozenset(u.id for u in battle.units if u.team is Team.PLAYER)
        deck = frozenset(instance.card.id for instance in battle.cards.values())
        return cls(encounter_id, battle, party, deck)


def fresh_battle(prepared: Prepared, seed: int) -> Battle:
    """The encounter with this seed. A choice an action asks while it resolves (an
    extension's Scry) takes its default answer, as a preview's does: policies choose plays
    and targets, not those answers."""
    battle = prepared.battle.clone()
    battle.seed, battle.rng = seed, Pcg32(seed)
    battle.answers = DEFAULT_ANSWERS
    return battle


def record_play(card: CardTally, events: list[Event], party: frozenset[str]) -> None:
    """Add one play's events to its card: damage its side dealt to the other side, healing
    and armor its side received, what its side lost, and whether anything changed."""
    damage = healing = armor = taken = 0
    effective = False
    for event in events:
        kind = event["type"]
        if kind not in _RECORDED:
            continue
        if kind == "damage":
            dealt = event["hp_before"] - event["hp_after"] + event["blocked"]
            if event["unit"] in party:
                taken += dealt
            elif event["source"] in party:
                damage += dealt
        elif kind == "heal":
            if event["unit"] in party:
                healing += event["amount"]
        elif kind == "armor":
            if event["unit"] in party:
                armor += event["amount"]
        elif kind in EFFECT_EVENTS or (kind == "card_moved" and event["node"] is not None):
            effective = True
    card.plays += 1
    card.damage += damage
    card.damage_squares += damage * damage
    card.healing += healing
    card.armor += armor
    card.damage_taken += taken
    if effective or damage or healing or armor:
        card.effective_plays += 1


def play_battle(prepared: Prepared, seed: int, policy: Policy, max_turns: int,
                tally: EncounterTally) -> str:  # fmt: skip
    """Play the encounter with this seed to its end (or past ``max_turns``: undecided) and
    add it to ``tally``. Returns the result. Raises :class:`BattleError` when the policy
    raises (naming the encounter, the seed, and the card it offered or played last)."""
    battle = fresh_battle(prepared, seed)
    rng = Pcg32(seed, POLICY_STREAM)
    cards, party = battle.cards, prepared.party
    played: dict[str, CardTally] = {}  # this battle's plays, added to the tally at the end
    start_battle(battle)
    plays = 0
    moves = policy.moves
    while _undecided(battle) and battle.turn <= max_turns:
        for _ in range(MAX_PLAYS_PER_TURN):
            # The first move the runtime accepts is played: its check is the legality check.
            card_id: object = None
            playing = False  # an exception while playing is the runtime's, not the policy's
            try:
                for card_id, target in moves(battle, rng):
                    playing = True
                    try:
                        events = play(battle, card_id, target)
                    except PlayError:
                        playing = False
                        continue  # refused: the next one
                    break
                else:
                    break  # nothing left to try: the turn ends
            except Exception as exc:  # a user's policy (or a runtime fault): say where
                raise _failed(exc, prepared.id, seed, battle, card_id, playing) from exc
            definition_id = cards[card_id].card.id
            card = played.get(definition_id)
            if card is None:
                played[definition_id] = card = CardTally()
            record_play(card, events, party)
            plays += 1
            if not _undecided(battle):
                break
        if _undecided(battle):
            end_turn(battle)
    result = battle.result or "undecided"
    _add_battle(tally, prepared, battle, result, played, plays)
    return result


def _undecided(battle: Battle) -> bool:
    """Whether the battle goes on. Asked by a call, not by ``battle.result is None`` in place:
    that would narrow ``battle.result`` to None for the loop's body, which the plays in it
    change, and a compiled build (mypyc) checks the narrowed type as it reads the field."""
    return battle.result is None


def _failed(exc: Exception, encounter: str, seed: int, battle: Battle, last: object,
            playing: bool) -> BattleError:  # fmt: skip
    instance = battle.cards.get(last) if isinstance(last, str) else None
    card = instance.card.id if instance is not None else None
    where = f"at card {card!r} ({last})" if card is not None else "before any card"
    who = "the runtime raised, playing it," if playing else "the policy raised"
    message = f"encounter {encounter!r}, seed {seed}, turn {battle.turn}, {where}: {who} "
    return BattleError(f"{message}{type(exc).__name__}: {exc}", encounter, seed, card)


def _add_battle(tally: EncounterTally, prepared: Prepared, battle: Battle, result: str,
                played: dict[str, CardTally], plays: int) -> None:  # fmt: skip
    """A finished battle into the tally (a failed one adds nothing, not even its plays)."""
    won = result == "victory"
    hp_left = sum(u.hp for u in battle.units if u.id in prepared.party)
    turns = battle.turn
    tally.battles += 1
    setattr(tally, result, getattr(tally, result) + 1)
    tally.turns += turns
    tally.turns_squares += turns * turns
    tally.hp_left += hp_left
    tally.hp_left_squares += hp_left * hp_left
    tally.win_hp_left += hp_left if won else 0
    tally.plays += plays
    tally.turn_histogram[turns] = tally.turn_histogram.get(turns, 0) + 1
    cards = tally.cards
    for definition_id in prepared.deck:
        card = cards.get(definition_id)
        if card is None:
            cards[definition_id] = card = CardTally()
        card.battles += 1
        card.wins += won
        plays_of = played.get(definition_id)
        if plays_of is not None:
            card.add_plays(plays_of)
            card.battles_played += 1
            card.wins_played += won
