"""The addon as tests hold it: a clean copy, and what its written ``.gdextension`` says."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

from pybridge.ffi import addon

ADDON = Path(__file__).resolve().parents[1] / "addons" / addon.ADDON_NAME


def copy_addon(target: Path) -> Path:
    """The checkout's addon as a game would hold it: no build output of the checkout."""
    return Path(
        shutil.copytree(ADDON, target, ignore=shutil.ignore_patterns("bin", "*.gdextension"))
    )


def gdextension_dependencies(addon_dir: Path) -> tuple[str, dict[str, str]]:
    """The linux.x86_64 library and dependencies (path -> target) of the written file."""
    text = (addon_dir / addon.GDEXTENSION_FILE).read_text("utf-8")
    library = re.search(r'^linux\.x86_64 = "([^"]+)"$', text, re.MULTILINE)
    block = re.search(r"^linux\.x86_64 = (\{.*?^\})", text, re.MULTILINE | re.DOTALL)
    assert library and block, text
    dependencies: dict[str, str] = json.loads(block.group(1))
    return library.group(1), dependencies
