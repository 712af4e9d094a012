"""The bench's printed report: Markdown tables, readable in a terminal and pasteable."""

from __future__ import annotations

from typing import Any

from .bridge import OPS


def _us(value: float) -> str:
    return f"{value:,.1f} us" if value < 10_000 else f"{value / 1000:,.1f} ms"


def _x(value: float) -> str:
    return f"{value:,.2f}x"


def _yes(met: bool) -> str:
    return "yes" if met else "**no**"


def _table(header: list[str], align: str, rows: list[list[str]]) -> list[str]:
    lines = ["| " + " | ".join(header) + " |"]
    lines.append("|" + "|".join("---:" if a == "r" else "---" for a in align) + "|")
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return lines


def _path_rows(paths: dict[str, Any], ask: str) -> list[list[str]]:
    rows = []
    for name, entry in paths.items():
        if "skipped" in entry:
            if ask == "again":
                rows.append([entry["label"], entry["skipped"], *[""] * (3 * len(OPS) - 1)])
            continue
        asked = entry if ask == "again" or name == "direct" else entry.get("first")
        if asked is None:
            continue
        row = [entry["label"]]
        for op in OPS:
            row += [_us(asked[op]["median_us"]), _us(asked[op]["p99_us"]), _x(asked[op]["ratio"])]
        rows.append(row)
    return rows


def bridge_lines(section: dict[str, Any]) -> list[str]:
    lines = [
        f"### Bridge round trip: {section['battle']}, card {section['card']} at "
        f"{section['target']}, {section['calls']:,} calls per operation",
    ]
    header = ["path"]
    for op in OPS:
        header += [f"{op} median", "p99", "x floor"]
    for ask, title in section["asks"].items():
        lines += ["", f"{title}:", ""]
        lines += _table(header, "l" + "rrr" * len(OPS), _path_rows(section["paths"], ask))
    alone = [f"{entry['label']}: {_us(entry['version']['median_us'])}"
             for entry in section["paths"].values() if "version" in entry]  # fmt: skip
    if alone:
        lines += ["", "Transport alone (a `version` request, next to no work in Python), "
                  "median: " + "; ".join(alone) + "."]  # fmt: skip
    web = section["paths"].get("web", {})
    if "eval_floor" in web:
        lines += [
            "",
            f"Web: {web['calls']:,} calls per operation in headless Chromium (Pyodide, "
            f"WebAssembly); an empty `JavaScriptBridge.eval` costs "
            f"{_us(web['eval_floor']['median_us'])} (median); the page's clock ticks in "
            + (
                "5 us steps (cross-origin isolated)."
                if web.get("cross_origin_isolated")
                else "100 us steps (not cross-origin isolated)."
            ),
        ]
    if section["targets"]:
        lines += [
            "",
            f"Each ratio below is the median, over the {section['rounds']} rounds, of the two "
            "paths' ratio within a round (the machine's speed drifts; paths timed in the same "
            "round saw the same machine).",
            "",
            *_table(
                ["target", "measured", "met"],
                "lrl",
                [
                    [c["name"], f"{c['value']:,.2f} {c['unit']}", _yes(c["met"])]
                    for c in section["targets"]
                ],
            ),
        ]
    return lines


def resolution_lines(section: dict[str, Any]) -> list[str]:
    lines = [
        f"### Resolution throughput: {section['plays']:,} plays per scenario, each on a fresh "
        "battle; floor = hand-written Python making the same mutations and events",
        "",
    ]
    rows = []
    for entry in section["scenarios"].values():
        ours, floor = entry["runtime"], entry["floor"]
        rows.append(
            [
                entry["label"],
                _us(ours["median_us"]),
                _us(ours["p99_us"]),
                f"{ours['plays_per_second']:,.0f}",
                _us(floor["median_us"]),
                f"{floor['plays_per_second']:,.0f}",
                _x(entry["ratio"]),
                _x(entry["throughput_ratio"]),
                _yes(entry["met"]),
            ]
        )
    header = [
        "scenario",
        "runtime median",
        "p99",
        "plays/s",
        "floor median",
        "floor plays/s",
        "x floor (per batch)",
        "x floor (plays/s)",
        f"within {_limit(section)}x",
    ]
    note = (f"x floor (per batch): the median, over batches of {section['batch']} plays, of the "
            "runtime's median over the floor's in the batch timed right after it.")  # fmt: skip
    return lines + _table(header, "lrrrrrrrl", rows) + ["", note]


def _limit(section: dict[str, Any]) -> str:
    limit = next(iter(section["scenarios"].values()))["limit"]
    return f"{limit:g}"


def simulation_lines(section: dict[str, Any]) -> list[str]:
    one = section["one_core"]
    lines = [
        f"### Battle simulation: {one['battles']:,} demo battles, random legal plays, at most "
        f"{section['max_turns']} turns",
        "",
    ]
    rows = [
        [
            "one core, in process",
            f"{one['battles_per_second']:,.1f}",
            f"{one['plays_per_second']:,.0f}",
            f"{one['seconds']:,.2f} s",
            "",
        ]
    ]
    for n, run in section["workers"].items():
        rows.append(
            [
                f"{n} worker process{'es' if int(n) > 1 else ''}",
                f"{run['battles_per_second']:,.1f}",
                f"{run['plays_per_second']:,.0f}",
                f"{run['seconds']:,.2f} s",
                _x(section["scaling"][n]),
            ]
        )
    lines += _table(["run", "battles/s", "plays/s", "time", "scaling"], "lrrrr", rows)
    results = ", ".join(f"{k} {v}" for k, v in one["results"].items())
    lines += [
        "",
        f"Outcomes: {results}; {one['mean_turns']:.1f} turns and "
        f"{one['mean_plays']:.1f} plays per battle.",
    ]
    return lines


def memory_lines(section: dict[str, Any]) -> list[str]:
    rows = [
        [
            f"battle loaded from JSON (tracemalloc, {section['battles']:,} held)",
            f"{section['loaded_bytes_per_battle']:,.0f} B",
        ],
        [
            "battle state cloned (what a preview or a session copy adds)",
            f"{section['cloned_bytes_per_battle']:,.0f} B",
        ],
        ["canonical JSON of the state", f"{section['canonical_json_bytes']:,} B"],
    ]
    rss = section["rss"]
    if "skipped" in rss:
        rows.append(["C host RSS over many ABI calls", rss["skipped"]])
    else:
        rows.append(
            [
                f"C host RSS before / after {rss['calls']:,} ABI calls",
                f"{rss['rss_before_kb']:,} kB / {rss['rss_after_kb']:,} kB "
                f"({rss['growth_kb']:+,} kB; "
                f"{rss['growth_after_first_checkpoint_kb']:+,} kB after the first tenth)",
            ]
        )
    lines = ["### Memory", "", *_table(["measure", "value"], "lr", rows)]
    if "note" in rss:
        lines += [
            "",
            f"RSS: {rss['note']}, {rss['calls_per_second']:,.0f} calls/s; checkpoints "
            + ", ".join(f"{c:,}: {kb:,} kB" for c, kb in rss["checkpoints"])
            + ".",
        ]
    return lines


def _words(counted: dict[str, dict[str, int]]) -> str:
    """The extensions' words as counted: ``scried 8 (event); Scry 8 (node type, plays)``."""
    labels = {"events": "event", "choices": "choice made", "counters": "counter change",
              "node_types": "plays running it"}  # fmt: skip
    said = [f"{name} {n:,} ({labels[table]})" for table, words in counted.items()
            for name, n in words.items()]  # fmt: skip
    return "; ".join(said) or "none"


def project_lines(section: dict[str, Any]) -> list[str]:
    loaded = ", ".join(f"{e['name']} {e['version']}" for e in section["extensions"])
    where = f"project {section['project']}" if section["project"] else "the named files"
    lines = [
        f"### A game's own battles: {where}, extensions: {loaded or 'none'}",
        "",
        f"Each battle played to its end (at most {section['max_turns']} turns) with random legal "
        "plays, seed = battle number; a choice an extension asks takes its default answer.",
        "",
    ]
    rows = []
    for name, run in section["battles"].items():
        results = ", ".join(f"{k} {v}" for k, v in run["results"].items())
        rows.append([name, f"{run['battles']:,}", f"{run['battles_per_second']:,.1f}",
                     f"{run['plays_per_second']:,.0f}", f"{run['mean_turns']:.1f}", results,
                     _words(run["extension_words"])])  # fmt: skip
    header = ["battle", "battles", "battles/s", "plays/s", "turns", "outcomes",
              "extension words in play"]  # fmt: skip
    return lines + _table(header, "lrrrrll", rows)


def render(result: dict[str, Any]) -> str:
    env = result["environment"]
    load = env.get("load_average_before")
    lines = [
        f"## pybridge bench ({result['plan']['mode']}): pybridge {env['pybridge']}, "
        f"Python {env['python']}, {env['cpus']} CPUs, {result['seconds']:.0f} s"
        + (f", load average {load[0]:.2f} at the start" if load else ""),
        "",
        *bridge_lines(result["bridge"]),
        "",
        *resolution_lines(result["resolution"]),
        "",
        *simulation_lines(result["simulation"]),
        "",
        *memory_lines(result["memory"]),
    ]
    if "project" in result:
        lines += ["", *project_lines(result["project"])]
    return "\n".join(lines) + "\n"
