"""The addon as tests hold it: a clean copy, and what its written ``.gdextension`` says."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

from pybridge.devtools.build import addon

ADDON = Path(__file__).resolve().parents[1] / "addons" / addon.ADDON_NAME


def copy_addon(target: Path) -> Path:
    """The checkout's addon as a game would hold it: no build output of the checkout."""
    return Path(
        shutil.copytree(ADDON, target, ignore=shutil.ignore_patterns("bin", "*.gdextension"))
    )


def gdextension_dependencies(
    addon_dir: Path, tag: str = "linux.x86_64"
) -> tuple[str, dict[str, str]]:
    """The library and dependencies (path -> target) of platform ``tag`` in the written file."""
    text = (addon_dir / addon.GDEXTENSION_FILE).read_text("utf-8")
    name = re.escape(tag)
    library = re.search(rf'^{name} = "([^"]+)"$', text, re.MULTILINE)
    block = re.search(rf"^{name} = (\{{.*?^\}})", text, re.MULTILINE | re.DOTALL)
    assert library and block, text
    dependencies: dict[str, str] = json.loads(block.group(1))
    return library.group(1), dependencies
