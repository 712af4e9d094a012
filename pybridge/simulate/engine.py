"""One simulated battle, start to end, and what its cards did.

The battle is the encounter's prototype copied with its own seed: the battle's PRNG (enemy
intents, random targets, reshuffles) is ``Pcg32(seed)`` and the policy's is a second stream
of the same seed, so a seed gives the same battle on every machine. The party plays what
the policy chooses; ending the turn lets the enemies act on their intents (the runtime's
``end_turn``). Nothing is serialised: the loop reads the runtime's event lists directly.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..runtime import Battle, Event, Pcg32, PlayError, Team, play
from ..runtime.turns import end_turn, start_battle
from .policies import Move, Policy
from .tally import CardTally, EncounterTally

#: The policy's PRNG stream (the battle's own uses the runtime's default stream).
POLICY_STREAM = 0x5EED
#: A turn ends after this many plays even if the policy would go on (0-cost loops).
MAX_PLAYS_PER_TURN = 100
#: Events that show a play changed the battle, besides damage, healing and armor.
EFFECT_EVENTS = frozenset({"status", "revived", "withdrawn", "deployed", "energy", "negated",
                           "unit_died", "reshuffled"})  # fmt: skip


class BattleError(Exception):
    """A battle could not go on: the policy raised, or chose a play the runtime refused."""

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
    battle = prepared.battle.clone()
    battle.seed, battle.rng = seed, Pcg32(seed)
    return battle


def record_play(card: CardTally, events: list[Event], party: frozenset[str]) -> None:
    """Add one play's events to its card: damage its side dealt to the other side, healing
    and armor its side received, what its side lost, and whether anything changed."""
    damage = healing = armor = taken = 0
    effective = False
    for event in events:
        kind = event["type"]
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
    add it to ``tally``. Returns the result. Raises :class:`BattleError`."""
    battle = fresh_battle(prepared, seed)
    rng = Pcg32(seed, POLICY_STREAM)
    cards = battle.cards
    per_card: dict[str, CardTally] = {}
    start_battle(battle)
    plays = 0
    last: str | None = None  # the card definition played last, for error messages
    while battle.result is None and battle.turn <= max_turns:
        for _ in range(MAX_PLAYS_PER_TURN):
            move = _ask(policy, battle, rng, prepared.id, seed, last)
            if move is None:
                break
            card_id, target = move
            instance = cards.get(card_id) if isinstance(card_id, str) else None
            try:
                events = play(battle, card_id, target)
            except PlayError as exc:
                name = instance.card.id if instance is not None else None
                raise BattleError(f"encounter {prepared.id!r}, seed {seed}: the policy chose "
                                  f"{move!r}, which the runtime refused: {exc}", prepared.id,
                                  seed, name) from exc  # fmt: skip
            assert instance is not None  # play() accepted it
            definition_id = instance.card.id
            card = per_card.get(definition_id)
            if card is None:
                per_card[definition_id] = card = CardTally()
            record_play(card, events, prepared.party)
            plays += 1
            last = definition_id
            if battle.result is not None:
                break
        if battle.result is None:
            end_turn(battle)
    result = battle.result or "undecided"
    _add_battle(tally, prepared, battle, result, per_card, plays)
    return result


def _ask(policy: Policy, battle: Battle, rng: Pcg32, encounter: str, seed: int,
         last: str | None) -> Move | None:  # fmt: skip
    try:
        return policy.choose(battle, rng)
    except Exception as exc:  # a user's policy: say where it failed, whatever it raised
        after = f"after card {last!r}" if last is not None else "before the first play"
        raise BattleError(f"encounter {encounter!r}, seed {seed}, turn {battle.turn} ({after}):"
                          f" the policy raised {type(exc).__name__}: {exc}", encounter, seed,
                          last) from exc  # fmt: skip


def _add_battle(tally: EncounterTally, prepared: Prepared, battle: Battle, result: str,
                per_card: dict[str, CardTally], plays: int) -> None:  # fmt: skip
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
        played = per_card.get(definition_id)
        card.battles += 1
        card.wins += won
        if played is not None:
            card.battles_played += 1
            card.wins_played += won
            card.add(_plays_only(played))


def _plays_only(played: CardTally) -> CardTally:
    """A battle's play counts for a card, without the per-battle fields."""
    played.battles = played.battles_played = played.wins = played.wins_played = 0
    return played
