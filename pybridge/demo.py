"""``pybridge demo``: the demo battle in the real Godot 4.6 web engine, served on 127.0.0.1.

The demo is the Godot project ``demo_project/`` with the addon ``addons/pybridge_targeting/``
mounted at ``res://addons/pybridge_targeting``, the duel's document
``pybridge/examples/duel_battle.json`` mounted at ``res://battle/duel_battle.json`` and the
hot-seat duel's ``pybridge/examples/rivals_battle.json`` at ``res://battle/rivals_battle.json``
(the party battle, ``res://battles/party_battle.json``, and its card library are the project's own),
packed into ``index.pck`` beside the engine, Pyodide and this package, behind the addon's own Web
export page (see :mod:`pybridge.web`), so the demo is what a Web export of it would be. It
needs a source checkout (the project and the addon are not part of the installed package)
and the browser-side files that ``web/setup.sh`` installs.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from .pack import PackError, tell_left_out
from .web import (
    PACKAGE_ROOT,
    Site,
    WebSetupError,
    add_site_arguments,
    prepare_site,
    serve_until_interrupted,
)

REPO_ROOT = PACKAGE_ROOT.parent
DEMO_PROJECT = REPO_ROOT / "demo_project"
ADDON_DIR = REPO_ROOT / "addons" / "pybridge_targeting"
ADDON_RES = "res://addons/pybridge_targeting"
#: The shared example battle, where the engine's own tests mount it (tests/godot/).
BATTLE_FILE = PACKAGE_ROOT / "examples" / "demo_battle.json"
BATTLE_RES = "res://battle/demo_battle.json"
#: The party battle: the example's party, foes and hand, and the cards of the demo's own
#: extension from its library, which the party scene opens beside it.
PARTY_FILE = DEMO_PROJECT / "battles" / "party_battle.json"
PARTY_RES = "res://battles/party_battle.json"
PARTY_LIBRARIES = (DEMO_PROJECT / "cards" / "mechanics.json",)
DUEL_FILE = PACKAGE_ROOT / "examples" / "duel_battle.json"
DUEL_RES = "res://battle/duel_battle.json"
#: The hot-seat duel between two card-playing sides.
RIVALS_FILE = PACKAGE_ROOT / "examples" / "rivals_battle.json"
RIVALS_RES = "res://battle/rivals_battle.json"
DEFAULT_SITE = REPO_ROOT / "build" / "demo_site"
DEFAULT_PORT = 8060
#: The demo's window: the page fills the browser window and the project stretches to it.
FILL_WINDOW = 2


def demo_mounts() -> dict[str, Path]:
    """What the pack mounts into the demo project: the addon and the documents of the duel
    and the hot-seat duel."""
    return {ADDON_RES: ADDON_DIR, DUEL_RES: DUEL_FILE, RIVALS_RES: RIVALS_FILE}


def prepare_demo_site(root: Path = DEFAULT_SITE, *, modules: Path | None = None) -> Site:
    """Build the demo's web site in ``root``: page, engine, ``index.pck``, Pyodide, package."""
    for needed in (DEMO_PROJECT / "project.godot", ADDON_DIR / "plugin.cfg", PARTY_FILE,
                   *PARTY_LIBRARIES, DUEL_FILE, RIVALS_FILE):  # fmt: skip
        if not needed.is_file():
            raise PackError(f"{needed} is missing: `pybridge demo` needs a source checkout")
    return prepare_site(
        Path(root), DEMO_PROJECT, demo_mounts(), modules=modules, canvas_resize_policy=FILL_WINDOW
    )


def _cmd_demo(args: argparse.Namespace) -> int:
    try:
        site = prepare_demo_site(Path(args.site))
    except (OSError, PackError, WebSetupError) as exc:
        print(f"pybridge demo: {exc}", file=sys.stderr)
        return 2
    print(f"pybridge demo: packed {len(site.pack.files)} files into {site.pack.out}")
    tell_left_out(site.pack, "demo")
    if args.no_serve:
        print(f"pybridge demo: the site is ready in {site.root}")
        return 0
    return serve_until_interrupted(site.root, args.port, "demo")


def add_demo_command(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``pybridge demo [--port N] [--no-serve] [--site DIR]``."""
    cmd = subparsers.add_parser(
        "demo", help="build the demo battle for the Godot web engine and serve it on 127.0.0.1"
    )
    add_site_arguments(cmd, DEFAULT_PORT, DEFAULT_SITE)
    cmd.set_defaults(run=_cmd_demo)
