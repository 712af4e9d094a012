"""The docs that describe the code name things that exist."""

from __future__ import annotations

import importlib
import re
from pathlib import Path
from types import ModuleType

import pybridge.runtime

ROOT = Path(__file__).resolve().parent.parent


def _resolve(first: str) -> object | None:
    """``modes`` -> the module ``pybridge.runtime.modes`` (or ``pybridge.modes``); ``Battle``
    -> the runtime's public ``Battle``; None when nothing has that name."""
    for package in ("pybridge.runtime", "pybridge.authoring", "pybridge"):
        try:
            module: ModuleType = importlib.import_module(f"{package}.{first}")
            return module
        except ModuleNotFoundError:
            continue
    for module in (pybridge.runtime, *_runtime_modules()):
        if hasattr(module, first):
            found: object = getattr(module, first)
            return found
    return None


def _runtime_modules() -> list[ModuleType]:
    folder = ROOT / "pybridge" / "runtime"
    return [importlib.import_module(f"pybridge.runtime.{p.stem}") for p in folder.glob("*.py")]


def test_every_dotted_name_in_the_architecture_doc_exists() -> None:
    text = (ROOT / "docs" / "architecture.md").read_text("utf-8")
    cited = set(re.findall(r"`([A-Za-z_][\w]*(?:\.[A-Za-z_]\w*)+)`", text))
    cited = {c for c in cited if not c.endswith((".py", ".md", ".gd", ".h", ".so"))}
    assert len(cited) > 20
    missing = []
    namespace = (ROOT / "addons" / "pybridge_targeting" / "pybridge.gd").read_text("utf-8")
    members = set(re.findall(r"^const (\w+) := preload\(", namespace, re.M))
    for name in sorted(cited):
        first, *rest = name.split(".")
        if first == "PyBridge":  # the addon's namespace class: its members are its constants
            if rest[0] not in members or len(rest) > 1:
                missing.append(name)
            continue
        if first == "pybridge":
            first, rest = ".".join([first, rest[0]]), rest[1:]
            found: object | None = importlib.import_module(first)
        else:
            found = _resolve(first)
        for part in rest:
            found = getattr(found, part, None) if found is not None else None
        if found is None:
            missing.append(name)
    assert missing == [], missing


def test_every_module_the_architecture_doc_lists_exists_and_every_runtime_module_is_listed() -> (
    None
):
    text = (ROOT / "docs" / "architecture.md").read_text("utf-8")
    runtime = text[text.index("## The runtime") : text.index("## Around the runtime")]
    listed = set(re.findall(r"^\| `(\w+)\.py` \|", runtime, re.M))
    present = {p.stem for p in (ROOT / "pybridge" / "runtime").glob("*.py")} - {"__init__"}
    assert listed == present
    around = text[text.index("## Around the runtime") : text.index("## The authoring tools")]
    for path in re.findall(r"^\| `([\w/.]+)` \|", around, re.M):
        assert (ROOT / path).exists(), path
    authoring = text[text.index("## The authoring tools") : text.index("## Where each concept")]
    listed = set(re.findall(r"^\| `(\w+)\.py` \|", authoring, re.M))
    present = {p.stem for p in (ROOT / "pybridge" / "authoring").glob("*.py")} - {"__init__"}
    assert listed == present
