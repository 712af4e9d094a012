"""A run's results: its settings, the tallies, the problems met, and how long it took; with
the per-encounter and per-card rows every output (terminal, JSON, CSV, HTML, compare) shows.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..runtime import Battle
from .inputs import Problem
from .stats import mantel_haenszel, mean_interval, wilson
from .tally import CardTally, EncounterTally

RESULTS_FORMAT = "pybridge/simulation@1"
#: A difference whose two-sided p-value is below this is called significant.
ALPHA = 0.05
#: A card's lift needs at least this many battles with it played and without it (in the
#: same encounters); a card played in nearly every battle gets none, rather than a number
#: resting on a handful of battles.
MIN_COMPARED = 30


@dataclass(slots=True)
class Timing:
    wall_seconds: float = 0.0
    compute_seconds: float = 0.0  # summed over batches, inside the workers
    slots: int = 1  # processes (or cluster worker threads) that played
    batches: int = 0
    engine: str = "local"
    cpu_seconds: float = 0.0  # the CPU time of those batches

    @property
    def overhead(self) -> float:
        """The share of worker time not spent playing: scheduling, transfers, start-up and
        the idle tail. 0 when nothing was measured."""
        capacity = self.wall_seconds * self.slots
        return max(0.0, 1.0 - self.compute_seconds / capacity) if capacity > 0 else 0.0

    def to_json(self) -> dict[str, Any]:
        return {"wall_seconds": self.wall_seconds, "compute_seconds": self.compute_seconds,
                "slots": self.slots, "batches": self.batches, "engine": self.engine,
                "scheduling_overhead": self.overhead, "cpu_seconds": self.cpu_seconds}  # fmt: skip


@dataclass(slots=True)
class RunResult:
    policy: str
    battles: int  # asked for, per encounter
    first_seed: int
    max_turns: int
    encounters: dict[str, str]  # id -> file
    cards: dict[str, dict[str, Any]]  # definition id -> name, cost, type, rarity, text
    tallies: dict[str, EncounterTally] = field(default_factory=dict)
    problems: list[Problem] = field(default_factory=list)
    interrupted: bool = False
    timing: Timing = field(default_factory=Timing)

    @property
    def played(self) -> int:
        return sum(t.battles for t in self.tallies.values())

    @property
    def complete(self) -> bool:
        wanted = self.battles * len(self.encounters)
        return not self.interrupted and not self.problems and self.played == wanted

    def to_json(self) -> dict[str, Any]:
        return {
            "format": RESULTS_FORMAT,
            "policy": self.policy,
            "battles_per_encounter": self.battles,
            "first_seed": self.first_seed,
            "max_turns": self.max_turns,
            "complete": self.complete,
            "interrupted": self.interrupted,
            "battles_played": self.played,
            "problems": [p.to_json() for p in self.problems],
            "timing": self.timing.to_json(),
            "encounters": {
                eid: {"file": path, "tally": self.tallies.get(eid, EncounterTally()).to_json()}
                for eid, path in self.encounters.items()
            },
            "cards": self.cards,
            "summary": {"encounters": encounter_rows(self), "cards": card_rows(self)},
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> RunResult:
        if not isinstance(data, dict) or data.get("format") != RESULTS_FORMAT:
            raise ValueError(f"not a simulation result (expected \"format\": "
                             f"\"{RESULTS_FORMAT}\")")  # fmt: skip
        timing = data.get("timing", {})
        return cls(
            policy=data["policy"],
            battles=int(data["battles_per_encounter"]),
            first_seed=int(data["first_seed"]),
            max_turns=int(data["max_turns"]),
            encounters={eid: e["file"] for eid, e in data["encounters"].items()},
            cards=data.get("cards", {}),
            tallies={
                eid: EncounterTally.from_json(e["tally"]) for eid, e in data["encounters"].items()
            },
            problems=[Problem.from_json(p) for p in data.get("problems", [])],
            interrupted=bool(data.get("interrupted", False)),
            timing=Timing(
                float(timing.get("wall_seconds", 0)),
                float(timing.get("compute_seconds", 0)),
                int(timing.get("slots", 1)),
                int(timing.get("batches", 0)),
                str(timing.get("engine", "local")),
                float(timing.get("cpu_seconds", 0)),
            ),
        )


def card_info(battles: dict[str, Battle]) -> dict[str, dict[str, Any]]:
    """Name, cost, type, rarity and text of every card definition the encounters hold."""
    info: dict[str, dict[str, Any]] = {}
    for battle in battles.values():
        for instance in battle.cards.values():
            card = instance.card
            info.setdefault(card.id, {"name": card.name, "cost": card.cost, "type": card.type,
                                      "rarity": card.rarity, "text": card.text})  # fmt: skip
    return dict(sorted(info.items()))


def _rate(successes: int, trials: int) -> dict[str, float | None]:
    low, high = wilson(successes, trials)
    rate = successes / trials if trials else None
    return {"rate": rate, "low": low if trials else None, "high": high if trials else None}


def encounter_rows(result: RunResult) -> list[dict[str, Any]]:
    """Per encounter: win rate with its Wilson 95% interval, turns and party HP left."""
    rows = []
    for eid in result.encounters:
        t = result.tallies.get(eid, EncounterTally())
        win = _rate(t.victory, t.battles)
        turns_low, turns_high = mean_interval(t.turns, t.turns_squares, t.battles)
        hp_low, hp_high = mean_interval(t.hp_left, t.hp_left_squares, t.battles)
        rows.append({
            "encounter": eid, "battles": t.battles, "victories": t.victory,
            "defeats": t.defeat, "undecided": t.undecided, "win_rate": win["rate"],
            "win_rate_low": win["low"], "win_rate_high": win["high"],
            "mean_turns": t.turns / t.battles if t.battles else None,
            "turns_low": turns_low, "turns_high": turns_high,
            "mean_hp_left": t.hp_left / t.battles if t.battles else None,
            "hp_left_low": hp_low, "hp_left_high": hp_high,
            "mean_hp_left_on_victory": t.win_hp_left / t.victory if t.victory else None,
            "plays_per_battle": t.plays / t.battles if t.battles else None,
        })  # fmt: skip
    return rows


def card_strata(result: RunResult) -> dict[str, list[CardTally]]:
    """Each card's tallies, one per encounter that holds it."""
    strata: dict[str, list[CardTally]] = {}
    for tally in result.tallies.values():
        for card_id, card in tally.cards.items():
            strata.setdefault(card_id, []).append(card)
    return strata


def card_row(card_id: str, strata: list[CardTally], info: dict[str, Any]) -> dict[str, Any]:
    """One card over its encounters: plays, amounts per play, win rate when played and when
    not, and the lift: the difference within each encounter, combined (Mantel-Haenszel),
    with the Cochran-Mantel-Haenszel test. Also whether it was ever useful."""
    card = CardTally()
    for stratum in strata:
        card.add(stratum)
    not_played = card.battles - card.battles_played
    played = _rate(card.wins_played, card.battles_played)
    other = _rate(card.wins - card.wins_played, not_played)
    pairs = [(s.wins - s.wins_played, s.battles - s.battles_played, s.wins_played,
              s.battles_played) for s in strata]  # fmt: skip
    # Only encounters where the card was both played and not played, and that were both won
    # and lost, say anything about what the card does to the odds of winning.
    informative = [p for p in pairs if p[1] and p[3] and 0 < p[0] + p[2] < p[1] + p[3]]
    compared = min(sum(p[1] for p in informative), sum(p[3] for p in informative))
    lift = mantel_haenszel(informative) if compared >= MIN_COMPARED else None

    def per_play(amount: int) -> float:
        return amount / card.plays if card.plays else 0.0

    return {
        "card": card_id, "name": info.get("name", card_id), "cost": info.get("cost"),
        "battles": card.battles, "plays": card.plays,
        "plays_per_battle": card.plays / card.battles if card.battles else 0.0,
        "played_in": card.battles_played,
        "damage": card.damage, "healing": card.healing, "armor": card.armor,
        "damage_taken": card.damage_taken,
        "damage_per_play": per_play(card.damage), "healing_per_play": per_play(card.healing),
        "armor_per_play": per_play(card.armor),
        "damage_taken_per_play": per_play(card.damage_taken),
        "effective_plays": card.effective_plays,
        "effective_share": card.effective_plays / card.plays if card.plays else 0.0,
        "win_rate_played": played["rate"], "win_rate_played_low": played["low"],
        "win_rate_played_high": played["high"],
        "win_rate_not_played": other["rate"], "win_rate_not_played_low": other["low"],
        "win_rate_not_played_high": other["high"],
        "lift": None if lift is None else lift.difference,
        "lift_low": None if lift is None else lift.low,
        "lift_high": None if lift is None else lift.high,
        "lift_z": 0.0 if lift is None else lift.z, "lift_p": 1.0 if lift is None else lift.p,
        "lift_significant": lift is not None and lift.p < ALPHA,
        "lift_compared": compared,
        "never_played": card.plays == 0,
        "never_effective": card.plays > 0 and card.effective_plays == 0,
        "never_useful": card.effective_plays == 0,
    }  # fmt: skip


def card_rows(result: RunResult) -> list[dict[str, Any]]:
    """Every card, strongest first: by lift (cards without one last), then by name."""
    rows = [card_row(cid, strata, result.cards.get(cid, {}))
            for cid, strata in card_strata(result).items()]  # fmt: skip
    return sorted(rows, key=lambda r: (r["lift"] is None, -(r["lift"] or 0.0), r["card"]))


def card_encounter_rows(result: RunResult) -> list[dict[str, Any]]:
    rows = []
    for eid, tally in result.tallies.items():
        for card_id, card in sorted(tally.cards.items()):
            info = result.cards.get(card_id, {})
            rows.append({"encounter": eid, **card_row(card_id, [card], info)})
    return rows


def strongest(rows: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The card with the largest significant lift, if any card's lift is significant."""
    significant = [r for r in rows if r["lift_significant"] and (r["lift"] or 0) > 0]
    return max(significant, key=lambda r: r["lift"]) if significant else None
