"""The HTML report: one self-contained page (charts embedded as PNG data) that answers the
designer's questions first (the strongest card, the cards that never helped, the encounter
that is too hard) and then shows the tables behind the answers."""

from __future__ import annotations

import base64
import html
from pathlib import Path
from typing import Any

from . import plots
from .results import RunResult, card_rows, encounter_rows, strongest

_STYLE = """
body{font-family:system-ui,sans-serif;margin:2em auto;max-width:1000px;color:#212121}
h1{margin-bottom:.2em} .meta{color:#616161;margin-top:0}
.verdicts{display:grid;grid-template-columns:repeat(3,1fr);gap:12px;margin:1.2em 0}
.verdict{border-radius:8px;padding:12px 14px;background:#f5f5f5}
.verdict b{display:block;font-size:1.25em;margin:.2em 0}
.good{background:#e8f5e9} .bad{background:#ffebee} .warn{background:#fff8e1}
.wide{overflow-x:auto;margin:.6em 0 1.6em}
table{border-collapse:collapse;width:100%;font-size:.82em}
th,td{padding:4px 6px;border-bottom:1px solid #e0e0e0;text-align:right}
th:first-child,td:first-child{text-align:left}
tr.sig-up td:first-child{border-left:4px solid #2e7d32}
tr.sig-down td:first-child{border-left:4px solid #c62828}
tr.useless{color:#9e9e9e}
img{max-width:100%} .problems{background:#ffebee;padding:8px 14px;border-radius:8px}
.note{color:#616161;font-size:.9em}
"""


def _image(png: bytes, alt: str) -> str:
    data = base64.b64encode(png).decode("ascii")
    return f'<img alt="{html.escape(alt)}" src="data:image/png;base64,{data}">'


def _pct(value: float | None, signed: bool = False) -> str:
    if value is None:
        return "&ndash;"
    return f"{100 * value:+.1f}" if signed else f"{100 * value:.1f}%"


def _verdicts(result: RunResult, cards: list[dict[str, Any]],
              encounters: list[dict[str, Any]]) -> str:  # fmt: skip
    best = strongest(cards)
    if best:
        strong = (f'<div class="verdict good">Strongest card<b>{html.escape(best["name"])}</b>'
                  f'wins {_pct(best["lift"], True)} points more often when played '
                  f'(p = {best["lift_p"]:.2g})</div>')  # fmt: skip
    else:
        strong = '<div class="verdict">Strongest card<b>none stands out</b>no card\'s lift ' \
                 "is significant yet: play more battles</div>"  # fmt: skip
    useless = [r["name"] for r in cards if r["never_useful"]]
    weak_sig = [r["name"] for r in cards if r["lift_significant"] and (r["lift"] or 0) < 0]
    if useless:
        dead = (f'<div class="verdict bad">Never useful<b>{html.escape(", ".join(useless))}'
                "</b>never played, or never changed anything when played</div>")  # fmt: skip
    else:
        dead = ('<div class="verdict">Never useful<b>none</b>every card did something; '
                f"played with worse results: {html.escape(', '.join(weak_sig) or 'none')}"
                "</div>")  # fmt: skip
    played = [r for r in encounters if r["battles"]]
    hardest = min(played, key=lambda r: r["win_rate"]) if played else None
    if hardest is None:
        hard = '<div class="verdict">Hardest encounter<b>&ndash;</b></div>'
    else:
        kind = "bad" if hardest["win_rate"] < 0.5 else "warn"
        hard = (f'<div class="verdict {kind}">Hardest encounter<b>'
                f'{html.escape(hardest["encounter"])}</b>won {_pct(hardest["win_rate"])} '
                f'({_pct(hardest["win_rate_low"])}&ndash;{_pct(hardest["win_rate_high"])})'
                "</div>")  # fmt: skip
    return f'<div class="verdicts">{strong}{dead}{hard}</div>'


def _encounter_table(rows: list[dict[str, Any]]) -> str:
    head = ("<tr><th>encounter</th><th>battles</th><th>win rate</th><th>95% CI</th>"
            "<th>defeats</th><th>undecided</th><th>turns</th><th>HP left</th>"
            "<th>HP left on a win</th></tr>")  # fmt: skip
    body = []
    for r in rows:

        def num(key: str, r: dict[str, Any] = r) -> str:
            return "&ndash;" if r[key] is None else f"{r[key]:.1f}"

        body.append(f"<tr><td>{html.escape(r['encounter'])}</td><td>{r['battles']}</td>"
                    f"<td>{_pct(r['win_rate'])}</td><td>{_pct(r['win_rate_low'])}&ndash;"
                    f"{_pct(r['win_rate_high'])}</td><td>{r['defeats']}</td>"
                    f"<td>{r['undecided']}</td><td>{num('mean_turns')}</td>"
                    f"<td>{num('mean_hp_left')}</td><td>{num('mean_hp_left_on_victory')}</td>"
                    "</tr>")  # fmt: skip
    return f'<div class="wide"><table>{head}{"".join(body)}</table></div>'


def _card_table(rows: list[dict[str, Any]]) -> str:
    head = ("<tr><th>card</th><th>cost</th><th>plays</th><th>per battle</th>"
            "<th>damage/play</th><th>healing/play</th><th>armor/play</th><th>taken/play</th>"
            "<th>changed something</th>"
            "<th>win% played</th><th>win% not played</th><th>lift (points)</th><th>p</th>"
            "</tr>")  # fmt: skip
    body = []
    for r in rows:
        up = r["lift_significant"] and (r["lift"] or 0) > 0
        down = r["lift_significant"] and (r["lift"] or 0) < 0
        css = "useless" if r["never_useful"] else "sig-up" if up else "sig-down" if down else ""
        body.append(
            f'<tr class="{css}"><td>{html.escape(r["name"])}</td><td>{r["cost"]}</td>'
            f"<td>{r['plays']}</td><td>{r['plays_per_battle']:.2f}</td>"
            f"<td>{r['damage_per_play']:.1f}</td><td>{r['healing_per_play']:.1f}</td>"
            f"<td>{r['armor_per_play']:.1f}</td>"
            f"<td>{r['damage_taken_per_play']:.1f}</td>"
            f"<td>{_pct(r['effective_share'])}</td>"
            f"<td>{_pct(r['win_rate_played'])} <small>({r['played_in']})</small></td>"
            f"<td>{_pct(r['win_rate_not_played'])} "
            f"<small>({r['battles'] - r['played_in']})</small></td>"
            f"<td>{_lift(r)}</td>"
            f"<td>{'' if r['lift'] is None else format(r['lift_p'], '.3f')}</td></tr>"
        )
    return f'<div class="wide"><table>{head}{"".join(body)}</table></div>'


def _lift(row: dict[str, Any]) -> str:
    if row["lift"] is not None:
        return _pct(row["lift"], True)
    return "<small>played nearly always</small>" if row["plays"] else "<small>never played</small>"


def render(result: RunResult) -> str:
    cards, encounters = card_rows(result), encounter_rows(result)
    problems = ""
    if result.problems or result.interrupted:
        items = [f"<li>{html.escape(p.message)}</li>" for p in result.problems]
        if result.interrupted:
            items.insert(0, "<li>The run was interrupted: these are the battles that "
                            "finished.</li>")  # fmt: skip
        problems = f'<div class="problems"><b>Partial results</b><ul>{"".join(items)}</ul></div>'
    figures = [_image(plots.card_strength(cards), "card strength")] if cards else []
    if cards:
        figures.append(_image(plots.card_output(cards), "what each card does per play"))
    charts_encounters = ""
    if any(r["battles"] for r in encounters):
        histograms = {eid: t.turn_histogram for eid, t in result.tallies.items()}
        charts_encounters = _image(plots.encounter_win_rates(encounters), "encounter win rates") \
            + _image(plots.turn_histograms(histograms), "battle length")  # fmt: skip
    timing = result.timing
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>pybridge simulate report</title>
<style>{_STYLE}</style></head><body>
<h1>Balance report</h1>
<p class="meta">{result.played} battles &middot; policy <b>{html.escape(result.policy)}</b>
&middot; {len(result.encounters)} encounter(s) &middot; seeds {result.first_seed} to
{result.first_seed + result.battles - 1} &middot; at most {result.max_turns} turns &middot;
{timing.engine}, {timing.slots} worker(s), {timing.wall_seconds:.1f} s</p>
{problems}
{_verdicts(result, cards, encounters)}
<h2>Cards</h2>
<p class="note">A card's <i>lift</i> is how much more often the party won in battles where
the card was played than in battles where it was in the deck but not played, compared within
each encounter and combined (Mantel-Haenszel), so easy and hard encounters do not mix. The
verdict is the Cochran-Mantel-Haenszel test (p &lt; 0.05); bars show 95% intervals. A card
played in nearly every battle has too few battles without it to compare (it gets no lift
below 30 battles either way), and a card that only comes out in long or losing battles
inherits their odds (Resurrect needs a fallen ally).</p>
{"".join(figures)}
{_card_table(cards)}
<h2>Encounters</h2>
{charts_encounters}
{_encounter_table(encounters)}
</body></html>
"""


def write_report(result: RunResult, path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(render(result), "utf-8")
    return path
