"""A simple player for headless battles: the demo log, simulations and benchmarks.

Each turn it plays the first playable card of its hand, aiming as a sensible player would
(the weakest enemy, the most wounded ally), until nothing is playable, then ends the turn.
With an ``rng`` it plays random legal moves instead.
"""

from __future__ import annotations

from collections.abc import Iterator

from .runtime import Battle, Event, Pcg32, Pile, Team, play, targets
from .runtime.aims import Target, aim_options
from .runtime.play import TargetInfo, needed_targets
from .runtime.turns import end_turn, start_battle


def choose_target(battle: Battle, info: TargetInfo, rng: Pcg32 | None = None) -> Target:
    if not info.requires_target and not info.choose_on_resolve:
        return None
    card = battle.cards[info.card].card
    if not info.requires_target or needed_targets(card, len(info.candidates), battle.rules) > 1:
        # It chooses when it resolves (cards from a pile, say), or it needs several targets:
        # one of the runtime's own choices.
        aims = aim_options(battle, info.card)
        return rng.choice(aims) if rng is not None else aims[0]
    if rng is not None:
        return rng.choice(info.candidates)
    units = [u for u in battle.units if u.id in info.candidates]
    source = battle.unit(info.source)
    foes = [u for u in units if source is not None and u.team is not source.team]
    if foes:
        return min(foes, key=lambda u: (u.hp, battle.units.index(u))).id
    return min(units, key=lambda u: (u.hp_percent, battle.units.index(u))).id


def next_play(battle: Battle, rng: Pcg32 | None = None) -> tuple[str, Target] | None:
    """The card (and target) to play next, or None to end the turn."""
    if battle.result is not None:
        return None
    options = []
    for card_id in battle.piles[Pile.HAND]:
        info = targets(battle, card_id)
        if info.playable:
            options.append(info)
    if not options:
        return None
    info = rng.choice(options) if rng is not None else options[0]
    return info.card, choose_target(battle, info, rng)


def play_out(battle: Battle, max_turns: int = 50, rng: Pcg32 | None = None
             ) -> Iterator[tuple[str, list[Event]]]:  # fmt: skip
    """Play the battle to its end (or ``max_turns``), yielding ("play"|"turn", events)."""
    yield "start", start_battle(battle)
    while battle.result is None and battle.turn <= max_turns:
        for _ in range(100):  # a turn has at most as many plays as the hand allows
            choice = next_play(battle, rng)
            if choice is None or battle.result is not None:
                break
            yield "play", play(battle, *choice)
        if battle.result is None:
            yield "turn", end_turn(battle)


def living_summary(battle: Battle) -> str:
    parts = []
    for team in Team:
        units = [f"{u.name} {u.hp}/{u.max_hp}" + (f" [{u.armor} armor]" if u.armor else "")
                 + ("" if u.alive else " (down)") for u in battle.team(team)]  # fmt: skip
        parts.append(f"{team.value}: " + ", ".join(units))
    return " | ".join(parts)
