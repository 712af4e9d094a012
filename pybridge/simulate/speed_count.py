"""The bytecode instructions a demo battle executes, on an earlier revision's runtime and on
this checkout's: a count the machine's load does not change, for judging a speed change
where CPU-time ratios move by several percent from run to run.

Each side runs in a child process with its own root first on ``sys.path`` and plays the same
seeds with random legal plays (the engine and ``RandomPolicy``, as :mod:`.speed` times
them) under a tracer that counts every instruction, by the function executing it. Tracing
makes a battle about a hundred times slower, so a few dozen battles are enough.

    python -m pybridge.simulate.speed --count [--base REV] [--battles N]
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from .speed import MAX_TURNS, PROJECT_ROOT, export

#: The steps of the loop an instruction is charged to: the innermost of these functions on
#: its call stack (by name, which both revisions share), else "the rest".
PARTS: dict[str, str] = {
    "run": "Behaviors run (cards, enemy moves, status hooks, reactions)",
    "moves": "the random player choosing a move",
    "choose_intents": "the enemies choosing their intents",
    "move_cards": "cards moved between piles",
    "settle": "settling the battle after a step",
    "check_parts": "the play check",
    "tick": "status hooks at turn boundaries",
    "_activation": "paying and announcing a play",
    "record_play": "simulate's tally of a play's events",
    "draw": "drawing (besides moving the cards)",
    "enemy_phase": "the enemy phase (besides the moves' Behaviors)",
}
REST = "the rest"

#: The child: counts instructions by (module file, function) and by part over ``battles``
#: seeds.
_COUNTING_CHILD = r"""
import json, sys
root, battles, max_turns, parts = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
parts = set(parts.split(","))
sys.path.insert(0, root)
from pybridge.examples import demo_battle
from pybridge.runtime import load_battle
from pybridge.simulate.engine import Prepared, play_battle
from pybridge.simulate.policies import RandomPolicy
from pybridge.simulate.tally import EncounterTally
prepared, tally = Prepared.of("demo", load_battle(demo_battle())), EncounterTally()
play_battle(prepared, 10**6, RandomPolicy(), max_turns, tally)  # compile the Behaviors first
functions, by_part, part_of = {}, {}, {}
def on_call(frame, event, arg):  # a frame starts (or a generator resumes): its part
    name = frame.f_code.co_name
    part = name if name in parts else part_of.get(frame.f_back, "")
    part_of[frame] = part
    key = frame.f_code.co_filename.rpartition("pybridge/")[2] + ":" + name
    frame.f_trace_opcodes, frame.f_trace_lines = True, False
    def local(frame, event, arg):
        if event == "opcode":
            functions[key] = functions.get(key, 0) + 1
            by_part[part] = by_part.get(part, 0) + 1
        elif event == "return":
            part_of.pop(frame, None)
        return local
    return local
sys.settrace(on_call)
for seed in range(battles):
    play_battle(prepared, seed, RandomPolicy(), max_turns, tally)
sys.settrace(None)
print(json.dumps({"functions": functions, "parts": by_part}))
"""


def _count(root: Path, battles: int) -> dict[str, dict[str, int]]:
    done = subprocess.run(
        [sys.executable, "-c", _COUNTING_CHILD, str(root), str(battles), str(MAX_TURNS),
         ",".join(PARTS)],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    if done.returncode != 0:
        raise SystemExit(f"speed: counting under {root} failed: {done.stderr.strip()[-2000:]}")
    counts: dict[str, dict[str, int]] = json.loads(done.stdout.strip().splitlines()[-1])
    return counts


def count_instructions(base: str, battles: int) -> dict[str, Any]:
    """Instructions per battle on ``base`` (``old``) and on this checkout (``new``), with each
    side's functions by their instructions per battle, most first."""
    with tempfile.TemporaryDirectory(prefix="pybridge-count-") as temp:
        export(base, Path(temp))
        sides = {"old": _count(Path(temp), battles), "new": _count(PROJECT_ROOT, battles)}
    result: dict[str, Any] = {"base": base, "battles": battles}
    for side, counts in sides.items():
        result[f"{side}_per_battle"] = sum(counts["functions"].values()) / battles
        ranked = sorted(counts["functions"].items(), key=lambda item: -item[1])
        result[f"{side}_functions"] = [(name, n / battles) for name, n in ranked]
        parts = {PARTS.get(part, REST): n / battles for part, n in counts["parts"].items()}
        result[f"{side}_parts"] = sorted(parts.items(), key=lambda item: -item[1])
    return result


def report(result: dict[str, Any], top: int = 15) -> str:
    """The lines ``--count`` prints."""
    old, new = result["old_per_battle"], result["new_per_battle"]
    lines = [
        f"demo battle, random legal plays, {result['battles']} battles: bytecode instructions "
        "a battle",
        f"  before ({result['base'][:12]}): {old:10,.0f}",
        f"  this checkout:        {new:10,.0f}  ({old / new:.2f}x; 1.5x would be {old / 1.5:,.0f})",
        f"  this checkout's top {top} functions (instructions a battle, share):",
    ]
    for name, per_battle in result["new_functions"][:top]:
        lines.append(f"    {per_battle:9,.0f}  {100 * per_battle / new:4.1f}%  {name}")
    lines.append("  by part (instructions a battle, share), before and now:")
    old_parts = dict(result["old_parts"])
    for part, per_battle in result["new_parts"]:
        before = old_parts.get(part, 0.0)
        lines.append(f"    {before:9,.0f}  {100 * before / old:4.1f}%  {per_battle:9,.0f}  "
                     f"{100 * per_battle / new:4.1f}%  {part}")  # fmt: skip
    return "\n".join(lines)
