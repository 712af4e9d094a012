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
import json
import sys
from pathlib import Path
from typing import Any

from .pack import PackError, tell_left_out
from .web import (
    PACKAGE_ROOT,
    Site,
    WebSetupError,
    add_site_arguments,
    node_modules,
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
#: Which icon of the Game Icons set each unit and card of the demo shows.
ART_TABLE = DEMO_PROJECT / "art" / "game_icons.json"
#: The npm package of the Game Icons set (pinned in web/package.json), CC BY 3.0.
ICON_SET = "@iconify-json/game-icons"
#: Where the demo finds its art: ``unit_<unit id>.svg`` and ``card_<card id>.svg``.
ART_RES = "res://art/icons"
#: The colours behind a portrait, by team (the demo's party and enemy colours).
PORTRAIT_COLOURS = {"player": ("#3d8fd1", "#173d5e"), "enemy": ("#d0583a", "#5a2114")}
ICON_INK = "#f6eedc"
CREDIT = (
    "Unit and card icons: Game Icons (game-icons.net) by Lorc, Delapouite and the other "
    "authors of the set, licensed under CC BY 3.0 (creativecommons.org/licenses/by/3.0/); "
    "drawn into portraits and card art for this demo."
)
DEFAULT_SITE = REPO_ROOT / "build" / "demo_site"
DEFAULT_PORT = 8060
#: The demo's window: the page fills the browser window and the project stretches to it.
FILL_WINDOW = 2


def demo_mounts(art: Path | None = None) -> dict[str, Path]:
    """What the pack mounts into the demo project: the addon, the documents of the duel and
    the hot-seat duel, and the folder ``art`` of the demo's icons (:func:`write_demo_art`)."""
    mounts = {ADDON_RES: ADDON_DIR, DUEL_RES: DUEL_FILE, RIVALS_RES: RIVALS_FILE}
    if art is not None:
        mounts[ART_RES] = art
    return mounts


def _svg(width: int, height: int, back: str, icon: str, box: tuple[int, int, int]) -> str:
    x, y, side = box
    body = icon.replace("currentColor", ICON_INK)
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}">{back}'
        f'<g transform="translate({x} {y}) scale({side / 512:.5f})">{body}</g></svg>\n'
    )


def demo_art(table: dict[str, Any], icons: dict[str, Any]) -> dict[str, str]:
    """The demo's art, file name -> SVG text: a portrait per unit of ``table`` (its icon on
    its team's colours) and a strip per card (its icon on a shade the card's frame shows
    through), from ``icons`` (the set's ``icons.json``)."""

    def body(name: str) -> str:
        found = icons["icons"].get(name)
        if found is None:
            raise PackError(f"{ART_TABLE} names the icon {name!r}, which {ICON_SET} lacks")
        return str(found["body"])

    files: dict[str, str] = {}
    for team, units in table["units"].items():
        light, dark = PORTRAIT_COLOURS[team]
        back = (
            '<defs><linearGradient id="b" x1="0" y1="0" x2="0" y2="1">'
            f'<stop offset="0" stop-color="{light}"/><stop offset="1" stop-color="{dark}"/>'
            '</linearGradient></defs><rect width="232" height="200" fill="url(#b)"/>'
        )
        for unit, name in units.items():
            files[f"unit_{unit}.svg"] = _svg(232, 200, back, body(name), (51, 35, 130))
    shade = '<rect width="312" height="102" fill="#000000" fill-opacity="0.28"/>'
    for card, name in table["cards"].items():
        files[f"card_{card}.svg"] = _svg(312, 102, shade, body(name), (116, 6, 90))
    return files


def write_demo_art(out: Path, modules: Path | None = None) -> Path | None:
    """Draw the demo's art (:func:`demo_art`) from the installed icon set into ``out``, with
    the set's credit; ``None`` when the set is not installed (the demo shows initials)."""
    icon_file = (modules or node_modules()) / ICON_SET / "icons.json"
    if not icon_file.is_file():
        return None
    icons = json.loads(icon_file.read_text("utf-8"))
    files = demo_art(json.loads(ART_TABLE.read_text("utf-8")), icons)
    out.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        (out / name).write_text(text, "utf-8")
    (out / "CREDITS.txt").write_text(CREDIT + "\n", "utf-8")
    return out


def prepare_demo_site(root: Path = DEFAULT_SITE, *, modules: Path | None = None) -> Site:
    """Build the demo's web site in ``root``: page, engine, ``index.pck``, Pyodide, package."""
    for needed in (DEMO_PROJECT / "project.godot", ADDON_DIR / "plugin.cfg", PARTY_FILE,
                   *PARTY_LIBRARIES, DUEL_FILE, RIVALS_FILE):  # fmt: skip
        if not needed.is_file():
            raise PackError(f"{needed} is missing: `pybridge demo` needs a source checkout")
    art = write_demo_art(Path(f"{root}_art"), modules)
    if art is None:
        print(f"pybridge demo: {ICON_SET} is not installed (run web/setup.sh): initials, no art")
    return prepare_site(
        Path(root), DEMO_PROJECT, demo_mounts(art), modules=modules,
        canvas_resize_policy=FILL_WINDOW,
    )  # fmt: skip


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
