"""What the real-engine tests need: Debian's chromium, node, and web/node_modules.

Under CI=true the set-up script runs first and anything still missing fails the run; on a
developer's machine the tests skip with the command to run.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from pybridge.web import GODOT_PACKAGE, WEB_DIR, node_modules

ON_CI = os.environ.get("CI", "").lower() == "true"


def missing_parts() -> list[str]:
    needs = {
        "chromium": shutil.which("chromium"),
        "node": shutil.which("node"),
        "web/node_modules": (node_modules() / GODOT_PACKAGE / "godot" / "index.wasm").is_file()
        and (node_modules() / "playwright-core").is_dir(),
    }
    return [name for name, found in needs.items() if not found]


def require_browser() -> None:
    """Install (on CI) and check the browser parts; fail on CI, skip elsewhere."""
    if ON_CI:
        setup = subprocess.run(
            ["bash", str(WEB_DIR / "setup.sh")], capture_output=True, text=True, timeout=1200
        )
        if setup.returncode != 0:
            pytest.fail(f"web/setup.sh failed:\n{setup.stdout}\n{setup.stderr}")
    if missing := missing_parts():
        message = f"missing {', '.join(missing)}: run web/setup.sh"
        if ON_CI:
            pytest.fail(message)
        pytest.skip(message)


def drive(site_url: str, work: Path, sentinel: str, **options: Any) -> dict[str, Any]:
    """Run web/drive.mjs once on ``site_url`` until the engine prints ``sentinel`` (then its
    ``actions`` and ``screenshot``); returns its JSON report."""
    config = {
        "url": site_url,
        "chromium": shutil.which("chromium"),
        "user_data_dir": str(work / "profile"),
        "report": str(work / "report.json"),
        "sentinel": sentinel,
        "timeout_ms": 120_000,
        **options,
    }
    (work / "drive.json").write_text(json.dumps(config))
    run = subprocess.run(
        [shutil.which("node") or "node", str(WEB_DIR / "drive.mjs"), str(work / "drive.json")],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=WEB_DIR,
    )
    if not (work / "report.json").exists():
        pytest.fail(f"drive.mjs wrote no report (exit {run.returncode}):\n{run.stderr[-4000:]}")
    report: dict[str, Any] = json.loads((work / "report.json").read_text())
    return report
