"""The speed benchmark inside Pyodide, the interpreter the browser runs the pure runtime on:
an earlier revision's runtime and this checkout's, both loaded into one Pyodide under Node.js,
take turns playing the same seeds of the demo battle with random legal plays.

The native benchmark (:mod:`.speed`) times the pure runtime on the CPython that runs it; this
one answers the same question on the interpreter a player's browser has (Pyodide's own
CPython, compiled to WebAssembly). Each runtime is its ``pybridge/`` tree (``.py`` and
``.json`` files) unpacked into Pyodide's file system and imported under its own root, in
turn, so both keep their own modules. Pyodide measures wall-clock time only, so the Node
process is pinned to one CPU and the rounds alternate their order.

    python -m pybridge.simulate.speed --pyodide [--base REV] [--battles N] [--rounds R]
"""

from __future__ import annotations

import io
import json
import os
import statistics
import subprocess
import tempfile
import zipfile
from pathlib import Path
from typing import Any

from ..web import node_modules
from .speed import MAX_TURNS, PROJECT_ROOT, export

#: Node's side: starts Pyodide, unpacks each runtime under /runtimes/<side>, runs the timing
#: program below and prints its JSON line.
_NODE_SCRIPT = r"""
import fs from "node:fs";
import { pathToFileURL } from "node:url";
const [pyodideDir, workDir, program] = process.argv.slice(2);
const { loadPyodide } = await import(pathToFileURL(`${pyodideDir}/pyodide.mjs`).href);
const pyodide = await loadPyodide({ indexURL: `${pyodideDir}/` });
for (const side of ["old", "new"]) {
  pyodide.FS.mkdirTree(`/runtimes/${side}`);
  const zip = new Uint8Array(fs.readFileSync(`${workDir}/${side}.zip`));
  pyodide.unpackArchive(zip, "zip", { extractDir: `/runtimes/${side}` });
}
const settings = JSON.parse(fs.readFileSync(`${workDir}/settings.json`, "utf8"));
pyodide.globals.set("SETTINGS", pyodide.toPy(settings));
console.log(await pyodide.runPythonAsync(fs.readFileSync(program, "utf8")));
"""

#: Pyodide's side: each runtime's loop, imported under its own root; then the rounds.
_PROGRAM = r"""
import json, statistics, sys, time

def loop(side):
    for name in [n for n in sys.modules if n == "pybridge" or n.startswith("pybridge.")]:
        del sys.modules[name]  # the other side's modules: each imports its own
    root = f"/runtimes/{side}"
    sys.path.insert(0, root)
    try:
        from pybridge.examples import demo_battle
        from pybridge.runtime import load_battle
        from pybridge.simulate.engine import Prepared, play_battle
        from pybridge.simulate.policies import RandomPolicy
        from pybridge.simulate.tally import EncounterTally
    finally:
        sys.path.remove(root)
    prepared, tally = Prepared.of("demo", load_battle(demo_battle())), EncounterTally()
    max_turns = SETTINGS["max_turns"]

    def play(first, count):
        started = time.perf_counter()
        wins = sum(play_battle(prepared, seed, RandomPolicy(), max_turns, tally) == "victory"
                   for seed in range(first, first + count))
        return time.perf_counter() - started, wins

    play(10**6, 20)  # warm up
    return play

loops = {side: loop(side) for side in ("old", "new")}
per_round, rounds = SETTINGS["per_round"], SETTINGS["rounds"]
seconds = {side: [] for side in loops}
wins = dict.fromkeys(loops, 0)
for index in range(rounds):
    order = ("old", "new") if index % 2 == 0 else ("new", "old")
    for side in order:
        used, won = loops[side](index * per_round, per_round)
        seconds[side].append(used)
        wins[side] += won
json.dumps({"python": sys.version.split()[0], "seconds": seconds, "wins": wins})
"""


def tree_zip(root: Path) -> bytes:
    """The ``.py`` and ``.json`` files of ``root/pybridge`` as a zip that unpacks to
    ``pybridge/``: what the runtime and its simulation loop need, without bytecode caches
    or a compiled build's libraries."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for path in sorted((root / "pybridge").rglob("*")):
            if path.suffix in (".py", ".json") and "__pycache__" not in path.parts:
                archive.write(path, path.relative_to(root).as_posix())
    return buffer.getvalue()


def measure_in_pyodide(base: str, battles: int, rounds: int) -> dict[str, Any]:
    """Play ``battles`` seeds on each side (``old``: the base revision, ``new``: this
    checkout) in one Pyodide, in ``rounds`` rounds whose order alternates."""
    pyodide = node_modules() / "pyodide"
    if not (pyodide / "pyodide.mjs").is_file():
        raise SystemExit(f"speed: no Pyodide at {pyodide}: run web/setup.sh")
    per_round = max(1, battles // rounds)
    cpu = max(os.sched_getaffinity(0))
    with tempfile.TemporaryDirectory(prefix="pybridge-pyodide-") as temp:
        work = Path(temp)
        export(base, work / "base")
        (work / "old.zip").write_bytes(tree_zip(work / "base"))
        (work / "new.zip").write_bytes(tree_zip(PROJECT_ROOT))
        settings = {"per_round": per_round, "rounds": rounds, "max_turns": MAX_TURNS}
        (work / "settings.json").write_text(json.dumps(settings), "utf-8")
        (work / "run.mjs").write_text(_NODE_SCRIPT, "utf-8")
        (work / "program.py").write_text(_PROGRAM, "utf-8")
        done = subprocess.run(
            ["node", str(work / "run.mjs"), str(pyodide), str(work), str(work / "program.py")],
            capture_output=True, text=True, check=False,
            preexec_fn=lambda: os.sched_setaffinity(0, {cpu}),
        )  # fmt: skip
    if done.returncode != 0:
        raise SystemExit(f"speed: Pyodide under Node.js failed: {done.stderr.strip()[-2000:]}")
    answer = json.loads(done.stdout.strip().splitlines()[-1])
    seconds = answer["seconds"]
    ratios = [o / n for o, n in zip(seconds["old"], seconds["new"], strict=True)]
    played = per_round * rounds
    return {
        "base": base, "cpu": cpu, "battles": played, "rounds": rounds, "max_turns": MAX_TURNS,
        "python": answer["python"],
        "old_battles_per_second": played / sum(seconds["old"]),
        "new_battles_per_second": played / sum(seconds["new"]),
        "old_win_rate": answer["wins"]["old"] / played,
        "new_win_rate": answer["wins"]["new"] / played,
        "ratio_median": statistics.median(ratios), "ratio_min": min(ratios),
        "ratio_max": max(ratios),
    }  # fmt: skip


def report(result: dict[str, Any]) -> str:
    """The lines ``--pyodide`` prints."""
    return "\n".join([
        f"demo battle in Pyodide (Python {result['python']}) under Node.js, random legal plays, "
        f"{result['battles']} battles per side in {result['rounds']} alternating rounds on CPU "
        f"{result['cpu']} (wall clock)",
        f"  before ({result['base'][:12]}): {result['old_battles_per_second']:7.1f} battles per "
        "second",
        f"  this checkout:        {result['new_battles_per_second']:7.1f} battles per second, "
        f"{result['ratio_median']:.2f}x (median of rounds; {result['ratio_min']:.2f}x-"
        f"{result['ratio_max']:.2f}x)",
    ])  # fmt: skip
