"""The command line of ``pybridge simulate`` (argparse only, so building the ``pybridge``
parser imports nothing of the simulation)."""

from __future__ import annotations

import argparse
from pathlib import Path

from .. import extensions

DEFAULT_OUTPUT = Path("artifacts") / "simulate"
#: Seconds ``--cluster`` waits for the scheduler to answer, and then for a first worker.
CONNECT_TIMEOUT = 30.0


def _positive_int(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {text!r}")
    return value


def _seconds(text: str) -> float:
    value = float(text)
    if not 0 < value < 86_400:  # also refuses nan and inf
        raise argparse.ArgumentTypeError(f"must be a number of seconds above 0, got {text!r}")
    return value


def _seed(text: str) -> int:
    value = int(text)
    if not 0 <= value < 2**63:
        raise argparse.ArgumentTypeError(f"must be between 0 and 2**63-1, got {text!r}")
    return value


def policy_spec(args: argparse.Namespace) -> str:
    """The policy as a spec carries it to every worker: ``--policy ai --ai-iterations N`` is
    ``ai@N``; ``--ai-iterations`` with any other policy is refused."""
    iterations = getattr(args, "ai_iterations", None)
    if iterations is None:
        return str(args.policy)
    if args.policy != "ai":
        raise argparse.ArgumentTypeError("--ai-iterations goes with --policy ai")
    return f"ai@{iterations}"


def add_arguments(cmd: argparse.ArgumentParser) -> None:
    cmd.add_argument("encounters", nargs="*", metavar="ENCOUNTER",
                     help="battle documents or directories of them (default: the example "
                     "encounters with the example card library)")  # fmt: skip
    cmd.add_argument("--library", metavar="FILE",
                     help="a pybridge/cards@1 card library the encounters refer to")  # fmt: skip
    cmd.add_argument("--battles", type=_positive_int, default=1000,
                     help="battles per encounter (default 1000)")  # fmt: skip
    cmd.add_argument(
        "--seed",
        type=_seed,
        default=0,
        help="the first battle's seed; battle i has seed SEED + i (default 0)",
    )
    cmd.add_argument("--policy", default="random",
                     help="random, greedy, ai (the search AI), or module:attribute naming "
                     "your own policy (default random)")  # fmt: skip
    cmd.add_argument("--ai-iterations", type=_positive_int, default=None, metavar="N",
                     help="with --policy ai: the search's iterations per decision (default "
                     "50; a seed gives the same decisions at the same budget)")  # fmt: skip
    cmd.add_argument(
        "--max-turns",
        type=_positive_int,
        default=40,
        help="a battle still going after this many turns is undecided (default 40)",
    )
    cmd.add_argument("--workers", type=_positive_int, default=None,
                     help="local worker processes (default: one per CPU)")  # fmt: skip
    cmd.add_argument("--cluster", metavar="ADDRESS",
                     help="run on this Dask scheduler (e.g. tcp://10.0.0.5:8786)")  # fmt: skip
    cmd.add_argument("--connect-timeout", type=_seconds, default=CONNECT_TIMEOUT,
                     metavar="SECONDS",
                     help="with --cluster: give up when the scheduler has not answered, or no "
                     "worker has joined, within this many seconds "
                     f"(default {CONNECT_TIMEOUT:g})")  # fmt: skip
    cmd.add_argument(
        "--batch-size",
        type=_positive_int,
        default=None,
        help="battles per task (default: at most 100, and 8 tasks per worker)",
    )
    extensions.add_options(cmd, "play with")
    cmd.add_argument("--out", default=str(DEFAULT_OUTPUT),
                     help=f"output directory (default {DEFAULT_OUTPUT})")  # fmt: skip
    cmd.add_argument("--no-report", action="store_true", help="skip the HTML report")
    cmd.add_argument("--no-progress", action="store_true", help="no progress bar")
    cmd.add_argument("--duel", nargs=2, metavar=("FIRST", "SECOND"),
                     help="a duel instead of encounters: FIRST against SECOND (random, greedy "
                     "or ai:N), --battles games on the rivals duel or the one two-sided "
                     "battle given, sides swapped every other game")  # fmt: skip
    cmd.add_argument("--compare", nargs=2, metavar=("BEFORE", "AFTER"),
                     help="compare two runs (results.json files or their directories) "
                     "instead of running")  # fmt: skip
