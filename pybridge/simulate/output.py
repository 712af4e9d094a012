"""Writing a run: ``results.json`` (everything, loadable again for ``--compare``), CSV tables
(encounters, cards, cards per encounter) and the lines printed at the end of a run."""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any

from .results import RunResult, card_encounter_rows, card_rows, encounter_rows, strongest

RESULTS_FILE = "results.json"
CSV_FILES = ("encounters.csv", "cards.csv", "card_encounters.csv")


def write_csv(path: Path, rows: list[dict[str, Any]]) -> None:
    with path.open("w", newline="", encoding="utf-8") as handle:
        if not rows:
            return
        writer = csv.DictWriter(handle, fieldnames=list(rows[0]))
        writer.writeheader()
        for row in rows:
            writer.writerow({k: _cell(v) for k, v in row.items()})


def _cell(value: Any) -> Any:
    return f"{value:.6g}" if isinstance(value, float) else ("" if value is None else value)


def write_results(result: RunResult, directory: Path) -> list[Path]:
    """results.json and the CSV tables; the paths written."""
    directory.mkdir(parents=True, exist_ok=True)
    json_path = directory / RESULTS_FILE
    json_path.write_text(json.dumps(result.to_json(), indent=1) + "\n", "utf-8")
    tables = (encounter_rows(result), card_rows(result), card_encounter_rows(result))
    written = [json_path]
    for name, rows in zip(CSV_FILES, tables, strict=True):
        write_csv(directory / name, rows)
        written.append(directory / name)
    return written


def _percent(value: float | None) -> str:
    return "-" if value is None else f"{100 * value:5.1f}%"


def summary_lines(result: RunResult) -> list[str]:
    """What the terminal shows: encounters, the top and bottom cards, the verdicts."""
    lines = [f"{result.played} battles, policy {result.policy}, seeds from {result.first_seed}"]
    lines.append(f"{'encounter':<24} {'battles':>7} {'win rate (95% CI)':>26} {'turns':>6} "
                 f"{'HP left':>8}")  # fmt: skip
    for row in encounter_rows(result):
        ci = f"{_percent(row['win_rate'])} ({_percent(row['win_rate_low'])}-" \
             f"{_percent(row['win_rate_high'])})"  # fmt: skip
        turns = "-" if row["mean_turns"] is None else f"{row['mean_turns']:.1f}"
        hp = "-" if row["mean_hp_left"] is None else f"{row['mean_hp_left']:.1f}"
        lines.append(f"{row['encounter']:<24} {row['battles']:>7} {ci:>26} {turns:>6} {hp:>8}")
    cards = card_rows(result)
    lines.append(f"{'card':<20} {'plays':>7} {'win% played':>11} {'not played':>10} "
                 f"{'lift':>7} {'p':>7}")  # fmt: skip
    for row in cards:
        lift = "-" if row["lift"] is None else f"{100 * row['lift']:+6.1f}"
        p_value = "-" if row["lift"] is None else f"{row['lift_p']:.3f}"
        flag = "  never useful" if row["never_useful"] else ""
        lines.append(f"{row['name'][:20]:<20} {row['plays']:>7} "
                     f"{_percent(row['win_rate_played']):>11} "
                     f"{_percent(row['win_rate_not_played']):>10} {lift:>7} "
                     f"{p_value:>7}{flag}")  # fmt: skip
    best = strongest(cards)
    verdict = "none stands out significantly"
    if best:
        verdict = (
            f"{best['name']} (win rate {100 * best['lift']:+.1f} points when played, "
            f"Cochran-Mantel-Haenszel test over encounters, p = {best['lift_p']:.2g})"
        )
    lines.append(f"strongest card: {verdict}")
    useless = [r["name"] for r in cards if r["never_useful"]]
    lines.append("never useful: " + (", ".join(useless) if useless else "none"))
    timing = result.timing
    if not result.played:
        lines.append("no battle was played")
    elif timing.wall_seconds > 0:
        lines.append(f"{result.played / timing.wall_seconds:.0f} battles/s on {timing.slots} "
                     f"{timing.engine} worker(s); {timing.batches} batches, scheduling "
                     f"overhead {100 * timing.overhead:.1f}%")  # fmt: skip
    return lines
