"""A guide's project, as the guide prints it: every file in a code block whose info string
names it (```` ```gdscript res://my_card.gd ````)."""

from __future__ import annotations

import re
from pathlib import Path

_BLOCK = re.compile(r"^```\w+ (res://\S+)\n(.*?)^```$", re.M | re.S)


def printed_files(guide: Path) -> dict[str, str]:
    """The guide's project: ``res://`` path -> the text of its block."""
    return dict(_BLOCK.findall(guide.read_text("utf-8")))


def write_printed(guide: Path, root: Path) -> Path:
    """Those files, and nothing else, written into ``root``."""
    for res, text in printed_files(guide).items():
        path = root / res.removeprefix("res://")
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, "utf-8")
    return root
