"""The report's charts, drawn with matplotlib's object API (no pyplot, no global state) and
returned as PNG bytes to embed in the page."""

from __future__ import annotations

import io
from typing import Any

from matplotlib.figure import Figure

STRONG, WEAK, UNCLEAR = "#2e7d32", "#c62828", "#9e9e9e"
DAMAGE, HEALING, ARMOR = "#d84315", "#2e7d32", "#1565c0"


def _png(figure: Figure) -> bytes:
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=110, bbox_inches="tight")
    return buffer.getvalue()


def _height(rows: int) -> float:
    return max(2.4, 0.38 * rows + 1.2)


def card_strength(cards: list[dict[str, Any]]) -> bytes:
    """Win rate when played minus when not (within encounters, combined), in points, with
    95% intervals; green or red where the Cochran-Mantel-Haenszel test finds it significant."""
    rows = [r for r in cards if r["lift"] is not None][::-1]  # strongest at the top
    figure = Figure(figsize=(8, _height(len(rows))))
    axes = figure.subplots()
    names = [r["name"] for r in rows]
    lifts = [100 * r["lift"] for r in rows]
    low = [100 * (r["lift"] - r["lift_low"]) for r in rows]
    high = [100 * (r["lift_high"] - r["lift"]) for r in rows]
    colours = [UNCLEAR if not r["lift_significant"] else STRONG if r["lift"] > 0 else WEAK
               for r in rows]  # fmt: skip
    axes.barh(names, lifts, xerr=[low, high], color=colours, capsize=3, ecolor="#424242")
    axes.axvline(0, color="#424242", linewidth=0.8)
    axes.set_xlabel("win rate when played minus when not played, within encounters "
                    "(percentage points, 95% CI)")  # fmt: skip
    axes.set_title("Card strength: green helps, red hurts, grey is not significant (p >= 0.05)")
    axes.grid(axis="x", alpha=0.3)
    return _png(figure)


def card_output(cards: list[dict[str, Any]]) -> bytes:
    """Damage, healing and armor per play, stacked (a card rarely does more than one)."""
    keys = (("damage_per_play", DAMAGE, "damage"), ("healing_per_play", HEALING, "healing"),
            ("armor_per_play", ARMOR, "armor"))  # fmt: skip
    rows = sorted(cards, key=lambda r: sum(r[key] for key, _, _ in keys))
    figure = Figure(figsize=(8, _height(len(rows))))
    axes = figure.subplots()
    names = [r["name"] for r in rows]
    left = [0.0] * len(rows)
    for key, colour, label in keys:
        values = [r[key] for r in rows]
        axes.barh(names, values, left=left, color=colour, label=label)
        left = [a + b for a, b in zip(left, values, strict=True)]
    axes.set_xlabel("amount per play (damage counts what armor absorbed, not overkill)")
    axes.set_title("What each card does when played (statuses, draws, revivals not shown)")
    axes.legend(loc="lower right")
    axes.grid(axis="x", alpha=0.3)
    return _png(figure)


def encounter_win_rates(encounters: list[dict[str, Any]]) -> bytes:
    rows = [r for r in encounters if r["battles"]][::-1]
    figure = Figure(figsize=(8, _height(len(rows))))
    axes = figure.subplots()
    rates = [100 * r["win_rate"] for r in rows]
    errors = [[100 * (r["win_rate"] - r["win_rate_low"]) for r in rows],
              [100 * (r["win_rate_high"] - r["win_rate"]) for r in rows]]  # fmt: skip
    colours = [WEAK if r["win_rate"] < 0.5 else STRONG for r in rows]
    axes.barh([r["encounter"] for r in rows], rates, xerr=errors, color=colours, capsize=3)
    axes.set_xlim(0, 100)
    axes.set_xlabel("party win rate (%, Wilson 95% CI)")
    axes.set_title("Encounters: red ones the party loses more often than it wins")
    axes.grid(axis="x", alpha=0.3)
    return _png(figure)


def turn_histograms(histograms: dict[str, dict[int, int]]) -> bytes:
    """How many turns battles took, one line per encounter (share of its battles)."""
    figure = Figure(figsize=(8, 3.6))
    axes = figure.subplots()
    for encounter, histogram in histograms.items():
        total = sum(histogram.values())
        if not total:
            continue
        turns = sorted(histogram)
        axes.plot(turns, [100 * histogram[t] / total for t in turns], marker="o",
                  label=encounter)  # fmt: skip
    axes.set_xlabel("turns taken")
    axes.set_ylabel("% of battles")
    axes.set_title("Battle length")
    axes.legend()
    axes.grid(alpha=0.3)
    return _png(figure)
