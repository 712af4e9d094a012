"""``pybridge simulate --compare BEFORE AFTER``: which differences between two runs (say,
before and after a card change) are statistically significant.

Win rates are compared with the two-proportion z-test (pooled); means (turns, HP left,
damage per play) with Welch's test, read on the normal distribution since runs have hundreds
of battles. Every test is listed with its p-value, and whether it is significant at 0.05
alone and after the Holm-Bonferroni correction for testing many things at once.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from .inputs import InputError
from .results import ALPHA, RunResult, card_strata
from .stats import holm, two_proportion_z, welch_z
from .tally import CardTally, EncounterTally

PROPORTION_TEST = "two-proportion z-test"
MEAN_TEST = "Welch's z-test"


def _proportion(what: str, subject: str, before: tuple[int, int], after: tuple[int, int]
                ) -> dict[str, Any]:  # fmt: skip
    z, p = two_proportion_z(before[0], before[1], after[0], after[1])
    rate_before = before[0] / before[1] if before[1] else None
    rate_after = after[0] / after[1] if after[1] else None
    return {"subject": subject, "measure": what, "test": PROPORTION_TEST,
            "before": rate_before, "after": rate_after, "n_before": before[1],
            "n_after": after[1], "z": z, "p": p}  # fmt: skip


def _mean(what: str, subject: str, before: tuple[float, float, int],
          after: tuple[float, float, int]) -> dict[str, Any]:  # fmt: skip
    z, p = welch_z(before, after)
    return {"subject": subject, "measure": what, "test": MEAN_TEST,
            "before": before[0] / before[2] if before[2] else None,
            "after": after[0] / after[2] if after[2] else None,
            "n_before": before[2], "n_after": after[2], "z": z, "p": p}  # fmt: skip


def _encounter_tests(eid: str, b: EncounterTally, a: EncounterTally) -> list[dict[str, Any]]:
    return [
        _proportion("win rate", eid, (b.victory, b.battles), (a.victory, a.battles)),
        _mean("turns", eid, (b.turns, b.turns_squares, b.battles),
              (a.turns, a.turns_squares, a.battles)),
        _mean("HP left", eid, (b.hp_left, b.hp_left_squares, b.battles),
              (a.hp_left, a.hp_left_squares, a.battles)),
    ]  # fmt: skip


def _card_tests(name: str, b: CardTally, a: CardTally) -> list[dict[str, Any]]:
    return [
        _proportion("win rate when played", name, (b.wins_played, b.battles_played),
                    (a.wins_played, a.battles_played)),
        _proportion("share of battles it is played in", name, (b.battles_played, b.battles),
                    (a.battles_played, a.battles)),
        _mean("damage per play", name, (b.damage, b.damage_squares, b.plays),
              (a.damage, a.damage_squares, a.plays)),
    ]  # fmt: skip


def _summed(strata: list[CardTally]) -> CardTally:
    total = CardTally()
    for stratum in strata:
        total.add(stratum)
    return total


def compare(before: RunResult, after: RunResult) -> dict[str, Any]:
    """Every test, with verdicts; plus warnings when the runs are not like for like."""
    tests: list[dict[str, Any]] = []
    for eid in before.encounters:
        if eid in after.tallies and eid in before.tallies:
            tests += _encounter_tests(eid, before.tallies[eid], after.tallies[eid])
    cards_before, cards_after = card_strata(before), card_strata(after)
    for card_id in sorted(set(cards_before) & set(cards_after)):
        name = after.cards.get(card_id, {}).get("name", card_id)
        tests += _card_tests(name, _summed(cards_before[card_id]), _summed(cards_after[card_id]))
    for test, corrected in zip(tests, holm([t["p"] for t in tests], ALPHA), strict=True):
        test["significant"] = test["p"] < ALPHA
        test["significant_after_holm"] = corrected
    warnings = []
    if before.policy != after.policy:
        warnings.append(f"the runs used different policies ({before.policy} and {after.policy})")
    if (before.first_seed, before.battles) != (after.first_seed, after.battles):
        warnings.append("the runs used different seeds: differences include more chance")
    for run, label in ((before, "before"), (after, "after")):
        if not run.complete:
            warnings.append(f"the {label} run is partial ({run.played} battles)")
    only = sorted(set(before.encounters) ^ set(after.encounters))
    if only:
        warnings.append(f"encounters in one run only: {', '.join(only)}")
    return {"alpha": ALPHA, "tests": tests, "warnings": warnings}


def _show(value: float | None, measure: str) -> str:
    if value is None:
        return "-"
    return f"{100 * value:.1f}%" if "rate" in measure or "share" in measure else f"{value:.2f}"


def lines_of(comparison: dict[str, Any]) -> list[str]:
    tests = comparison["tests"]
    significant = [t for t in tests if t["significant"]]
    lines = [f"{len(tests)} comparisons; {len(significant)} significant at p < "
             f"{comparison['alpha']} (tests named per line; * = still significant after "
             "Holm-Bonferroni)"]  # fmt: skip
    lines += [f"warning: {w}" for w in comparison["warnings"]]
    for t in sorted(significant, key=lambda t: t["p"]):
        mark = "*" if t["significant_after_holm"] else " "
        lines.append(
            f"{mark} {t['subject']:<20} {t['measure']:<33} "
            f"{_show(t['before'], t['measure']):>8} -> "
            f"{_show(t['after'], t['measure']):<8} p = {t['p']:.2g} ({t['test']})"
        )
    if not significant:
        lines.append("no difference is significant")
    return lines


def compare_command(before_path: Path, after_path: Path, out: Path) -> int:
    from .cli import load_result

    try:
        before, after = load_result(before_path), load_result(after_path)
    except InputError as exc:
        print(f"pybridge simulate: {exc}", file=sys.stderr)
        return 2
    comparison = compare(before, after)
    out.mkdir(parents=True, exist_ok=True)
    path = out / "compare.json"
    path.write_text(json.dumps(comparison, indent=1) + "\n", "utf-8")
    for line in lines_of(comparison):
        print(line)
    print(f"wrote {path}")
    return 0
