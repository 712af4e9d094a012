"""``pybridge simulate``: balance at scale. Thousands of battles per encounter, played by a
policy (random, greedy one-ply, or your own) in local processes or on a Dask cluster, with
per-encounter and per-card statistics written as JSON, CSV and an HTML report.

The core (inputs, policies, engine, batches, tallies, statistics) needs only the standard
library and the runtime; the report (matplotlib), the progress bar (tqdm) and the cluster
engine (Dask distributed) come from the ``sim`` extra and are imported only where used.
"""

from __future__ import annotations

import argparse

__all__ = ["add_simulate_command"]


def _cmd_simulate(args: argparse.Namespace) -> int:
    from .cli import run_command

    return run_command(args)


def add_simulate_command(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``pybridge simulate [ENCOUNTER ...] [--library FILE] ...``."""
    from .arguments import add_arguments

    cmd = subparsers.add_parser(
        "simulate",
        help="play many battles per encounter and report which cards and encounters are "
        "strong or weak",
        description="Play N battles per encounter (each with its own seed) with a player "
        "policy, and write per-encounter and per-card statistics as JSON, CSV and an HTML "
        "report. With --compare, say which differences between two runs are significant.",
    )
    add_arguments(cmd)
    cmd.set_defaults(run=_cmd_simulate)
