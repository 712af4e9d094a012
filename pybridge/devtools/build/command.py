"""``pybridge build``: the native library into a Godot addon (or a folder), for this machine
or, with ``--bundle``, self-contained for players' machines (``--platform``, repeated, for
each platform asked for: this Linux machine's and Windows x64); with ``--web``, the Python
runtime the Web export's page loads."""

from __future__ import annotations

import argparse
import shutil
import sys
from functools import partial
from pathlib import Path

from ... import extensions, web
from . import addon, bundle
from . import build as ffi_build

#: The addon of a source checkout, the default target when there is one.
CHECKOUT_ADDON = ffi_build.PROJECT_ROOT / "addons" / addon.ADDON_NAME
#: Where ``--web`` puts the page's Python runtime in the addon, for its Web export plugin
#: (web_export_plugin.gd) to copy beside the exported page.
WEB_RUNTIME = Path("web") / "runtime"


def write_web_runtime(folder: Path, modules: Path | None, project: Path | None = None) -> Path:
    """A fresh web runtime in ``folder``, hidden from the editor's import (``.gdignore``),
    carrying the extension files ``project`` lists."""
    if folder.exists():
        shutil.rmtree(folder)
    files = extensions.project_extensions(project) if project is not None else []
    web.write_web_runtime(folder, modules, extension_files=files, project=project)
    (folder / ".gdignore").write_text("")
    return folder


def _addon_dir(args: argparse.Namespace) -> Path:
    if args.project:
        found = Path(args.project) / addon.ADDON_IN_PROJECT
    elif args.addon:
        found = Path(args.addon)
    else:
        found = CHECKOUT_ADDON
        if not (found / "plugin.cfg").is_file():
            raise ffi_build.BuildError(
                "say where the addon is: --project GAME_DIR (with the addon in "
                f"{addon.ADDON_IN_PROJECT}) or --addon ADDON_DIR"
            )
    if not (found / "plugin.cfg").is_file():
        raise ffi_build.BuildError(
            f"{found} is not the {addon.ADDON_NAME} addon (no plugin.cfg): copy the addon "
            "folder there first"
        )
    return found


def _write_library(
    folder: Path,
    *,
    tag: str,
    bundled: bool,
    reports: list[bundle.BundleReport],
    project: Path | None = None,
) -> None:
    """Write the chosen kind of library for ``tag`` into ``folder``, keeping a bundle's report;
    a bundle carries the extension files ``project`` lists."""
    if bundled:
        files = extensions.project_extensions(project) if project is not None else []
        reports.append(bundle.write_platform_bundle(tag, folder, files, project))
    else:
        ffi_build.build(folder)


def _platforms(args: argparse.Namespace) -> list[str]:
    """The Godot tags asked for (default: this machine's), each once, in the order given."""
    if not args.platform:
        return [addon.this_platform()]
    tags = list(dict.fromkeys(addon.platform_tag(name) for name in args.platform))
    if not args.bundle and tags != [addon.this_platform()]:
        raise ffi_build.BuildError("--platform other than this machine's needs --bundle (a "
                                   "library for this machine runs only here)")  # fmt: skip
    return tags


def _print_bundle(report: bundle.BundleReport) -> None:
    for name, size in report.files.items():
        print(f"{size:>12,}  {name}")
    stripped = "stripped" if report.stripped else "not stripped: no `strip` here"
    print(f"{report.total_bytes:>12,}  in all ({len(report.stdlib_modules)} standard modules, "
          f"{report.note or 'libraries ' + stripped}) for {report.platform}")  # fmt: skip


def _cmd_build(args: argparse.Namespace) -> int:
    reports: list[bundle.BundleReport] = []
    modules = Path(args.node_modules) if args.node_modules else None
    try:
        tags = [] if args.web else _platforms(args)
        if args.output_dir:
            output = Path(args.output_dir)
            output.mkdir(parents=True, exist_ok=True)
            if args.web:
                print(web.write_web_runtime(output, modules))
            for tag in tags:
                # One platform: the folder itself; several: a folder for each, by tag.
                folder = output if len(tags) == 1 else output / tag
                _write_library(folder, tag=tag, bundled=args.bundle, reports=reports)
                print(folder / addon.PLATFORM_LIBRARIES[tag])
        elif args.web:
            project = Path(args.project) if args.project else None
            print(write_web_runtime(_addon_dir(args) / WEB_RUNTIME, modules, project))
        else:
            addon_dir = _addon_dir(args)
            for tag in tags:
                project = Path(args.project) if args.project else None
                write = partial(_write_library, tag=tag, bundled=args.bundle, reports=reports,
                                project=project)  # fmt: skip
                folder = addon.install_platform(addon_dir, tag, write)
                print(folder / addon.PLATFORM_LIBRARIES[tag])
            written = addon.write_gdextension(addon_dir)
            print(written)
            if args.project and written is not None:
                print(addon.register_extension(Path(args.project), written))
    except (OSError, ffi_build.BuildError, RuntimeError, extensions.ExtensionError) as exc:
        print(f"pybridge build: {exc}", file=sys.stderr)
        return 2
    for report in reports:
        _print_bundle(report)
    return 0


def add_build_command(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``pybridge build [--bundle] [--project DIR | --addon DIR | --output-dir DIR]``."""
    cmd = subparsers.add_parser(
        "build",
        help=f"build {ffi_build.LIBRARY_NAME} (the C ABI and Godot extension) into the addon",
        description="Build the native library into the addon's bin/<platform>/ folder and "
        "write the addon's pybridge.gdextension for the platforms built. By default the "
        "library embeds this machine's Python; --bundle makes it self-contained.",
    )
    kind = cmd.add_mutually_exclusive_group()
    kind.add_argument(
        "--bundle",
        action="store_true",
        help="a self-contained library for players' machines: its own libpython and the "
        "modules it needs, no Python installed (docs/shipping.md)",
    )
    kind.add_argument(
        "--web",
        action="store_true",
        help=f"the Web export's Python instead: Pyodide and {web.PACKAGE_ZIP}, into the "
        f"addon's {WEB_RUNTIME}/ (copied beside the exported page) or --output-dir",
    )
    cmd.add_argument(
        "--node-modules",
        metavar="DIR",
        help="for --web: the node_modules folder holding the npm package pyodide (default: "
        "$PYBRIDGE_NODE_MODULES, else web/node_modules of a checkout)",
    )
    cmd.add_argument(
        "--platform",
        action="append",
        metavar="NAME",
        help="with --bundle, a platform to build for, repeated for several: linux-x86_64 or "
        "linux-arm64 (this machine's) and windows-x86_64 (cross-built with mingw-w64 from "
        "pinned, signature-checked CPython packages; docs/shipping.md). Default: this machine",
    )
    where = cmd.add_mutually_exclusive_group()
    where.add_argument(
        "--project",
        metavar="GAME_DIR",
        help=f"the Godot project whose {addon.ADDON_IN_PROJECT} to build into; also names the "
        f"extension in its {addon.EXTENSION_LIST}, for projects never opened in the editor; "
        "a --bundle carries the extension files its project.godot lists ([pybridge] "
        "extensions)",
    )
    where.add_argument("--addon", metavar="ADDON_DIR", help="the addon folder to build into")
    where.add_argument(
        "--output-dir",
        metavar="DIR",
        help="write the library (and the bundle's files) to DIR only, no .gdextension",
    )
    cmd.set_defaults(run=_cmd_build)
