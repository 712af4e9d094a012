"""``pybridge dist``: what a release publishes, built and checked by one command.

* the Godot addon as the Asset Library serves it: ``git archive`` of a commit, which
  ``.gitattributes`` trims to ``addons/pybridge_targeting/`` (LICENSE included);
* the sdist and the wheel of the ``pybridge-targeting`` distribution (``python -m build``,
  with this environment's setuptools: no download);

then ``twine check --strict`` on both, and a look inside each: the zip holds the addon and
nothing built from it, the wheel holds the package and its data, and every part carries the
same version.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tarfile
import zipfile
from dataclasses import dataclass, field
from pathlib import Path

from .. import __version__

PROJECT_ROOT = Path(__file__).resolve().parents[2]
DISTRIBUTION = "pybridge-targeting"
ADDON = "addons/pybridge_targeting/"
#: What the Asset Library zip must hold, in the addon folder.
ADDON_FILES = ("plugin.cfg", "plugin.gd", "pybridge_client.gd", "pybridge_battle_view.gd",
               "pybridge_default_theme.tres", "LICENSE", "README.md",
               "web/pybridge_shell.html", "web_export_plugin.gd")  # fmt: skip
#: What ``pybridge build`` writes into the addon: never part of a release.
BUILT = re.compile(r"^addons/pybridge_targeting/(bin/|web/runtime/|pybridge\.gdextension$)")
#: What the wheel must hold.
WHEEL_FILES = ("pybridge/__init__.py", "pybridge/protocol.py", "pybridge/runtime/__init__.py",
               "pybridge/py.typed", "pybridge/examples/demo_battle.json",
               "pybridge/ffi/pybridge.c", "pybridge/ffi/pybridge.h")  # fmt: skip


class DistError(RuntimeError):
    """A step of the release could not run."""


@dataclass
class DistReport:
    files: list[Path] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)


def _run(*argv: str | Path) -> subprocess.CompletedProcess[str]:
    result = subprocess.run([str(a) for a in argv], capture_output=True, text=True,
                            timeout=600, cwd=PROJECT_ROOT)  # fmt: skip
    if result.returncode != 0:
        raise DistError(f"{' '.join(map(str, argv[:4]))} failed:\n{result.stderr[-3000:]}")
    return result


def addon_zip(out_dir: Path, revision: str = "HEAD") -> Path:
    """The addon as the Asset Library serves it: ``git archive`` of ``revision``."""
    path = out_dir / f"pybridge_targeting-{__version__}-godot-addon.zip"
    _run("git", "archive", "--format=zip", f"--output={path}", revision)
    return path


def check_addon_zip(path: Path) -> list[str]:
    names = zipfile.ZipFile(path).namelist()
    outside = [n for n in names if not n.startswith(ADDON) and not ADDON.startswith(n)]
    problems = [f"{path.name}: {n} is outside {ADDON}" for n in outside]
    problems += [f"{path.name}: {n} is built output" for n in names if BUILT.match(n)]
    problems += [f"{path.name}: no {ADDON}{f}" for f in ADDON_FILES if ADDON + f not in names]
    config = zipfile.ZipFile(path).read(ADDON + "plugin.cfg").decode() if not problems else ""
    if config and f'version="{__version__}"' not in config:
        problems.append(f"{path.name}: plugin.cfg does not say version {__version__}")
    return problems


def python_distributions(out_dir: Path) -> list[Path]:
    """The sdist, then the wheel built from it."""
    _run(sys.executable, "-m", "build", "--no-isolation", "--outdir", out_dir, PROJECT_ROOT)
    stem = f"{DISTRIBUTION.replace('-', '_')}-{__version__}"
    built = [out_dir / f"{stem}.tar.gz", out_dir / f"{stem}-py3-none-any.whl"]
    missing = [p.name for p in built if not p.is_file()]
    if missing:
        raise DistError(f"python -m build wrote no {', '.join(missing)}")
    return built


def check_python_distributions(sdist: Path, wheel: Path) -> list[str]:
    result = subprocess.run([sys.executable, "-m", "twine", "check", "--strict", str(sdist),
                             str(wheel)], capture_output=True, text=True, timeout=300)  # fmt: skip
    problems = [] if result.returncode == 0 else [f"twine check: {result.stdout}{result.stderr}"]
    names = set(zipfile.ZipFile(wheel).namelist())
    problems += [f"{wheel.name}: no {f}" for f in WHEEL_FILES if f not in names]
    problems += [f"{wheel.name}: {n} is a test" for n in names if n.startswith("tests/")]
    metadata = zipfile.ZipFile(wheel).read(f"{wheel.name.split('-py3')[0]}.dist-info/METADATA")
    for line in (f"Name: {DISTRIBUTION}", f"Version: {__version__}", "License-Expression: MIT"):
        if line.encode() not in metadata:
            problems.append(f"{wheel.name}: its metadata lacks {line!r}")
    with tarfile.open(sdist) as archive:
        if not any(n.endswith("/LICENSE") for n in archive.getnames()):
            problems.append(f"{sdist.name}: no LICENSE")
    return problems


def dist(out_dir: Path, revision: str = "HEAD") -> DistReport:
    """Build the three parts of a release into ``out_dir`` and check them."""
    out_dir.mkdir(parents=True, exist_ok=True)
    report = DistReport()
    zipped = addon_zip(out_dir, revision)
    report.problems += check_addon_zip(zipped)
    sdist, wheel = python_distributions(out_dir)
    report.problems += check_python_distributions(sdist, wheel)
    report.files = [zipped, sdist, wheel]
    return report


def _cmd_dist(args: argparse.Namespace) -> int:
    try:
        report = dist(Path(args.out), args.revision)
    except (OSError, DistError) as exc:
        print(f"pybridge dist: {exc}", file=sys.stderr)
        return 2
    for path in report.files:
        print(f"{path.stat().st_size:>12,}  {path}")
    for problem in report.problems:
        print(f"pybridge dist: {problem}", file=sys.stderr)
    return 1 if report.problems else 0


def add_dist_command(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``pybridge dist [--out DIR] [--revision REV]``."""
    cmd = subparsers.add_parser(
        "dist", help="build and check a release: the Godot addon zip, the sdist and the wheel"
    )
    cmd.add_argument("--out", default=str(PROJECT_ROOT / "dist"), metavar="DIR",
                     help="where to write them (default: dist/ in the checkout)")  # fmt: skip
    cmd.add_argument("--revision", default="HEAD", metavar="REV",
                     help="the commit whose addon folder is zipped (default: HEAD)")  # fmt: skip
    cmd.set_defaults(run=_cmd_dist)
