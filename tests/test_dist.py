"""A release: the Asset Library zip, the sdist and the wheel, built by ``pybridge dist`` from
this checkout's HEAD and checked (twine's metadata check, the contents of each)."""

from __future__ import annotations

import subprocess
import tomllib
import zipfile
from pathlib import Path

import pytest

import pybridge
from pybridge.cli import main
from pybridge.devtools import release

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> release.DistReport:
    if not (ROOT / ".git").exists():
        pytest.skip("not a git checkout: the addon zip is a git archive")
    return release.dist(tmp_path_factory.mktemp("dist"))


def test_a_release_passes_its_checks(built: release.DistReport) -> None:
    assert built.problems == []
    assert [p.name for p in built.files] == [
        f"pybridge_targeting-{pybridge.__version__}-godot-addon.zip",
        f"pybridge_targeting-{pybridge.__version__}.tar.gz",
        f"pybridge_targeting-{pybridge.__version__}-py3-none-any.whl",
    ]


def test_the_addon_zip_holds_the_addon_folder_alone(built: release.DistReport) -> None:
    names = zipfile.ZipFile(built.files[0]).namelist()
    tracked = subprocess.run(
        ["git", "ls-tree", "-r", "--name-only", "HEAD", "addons/pybridge_targeting"],
        capture_output=True, text=True, check=True, cwd=ROOT,
    ).stdout.split()  # fmt: skip
    assert sorted(n for n in names if not n.endswith("/")) == sorted(tracked)
    assert "addons/pybridge_targeting/LICENSE" in names
    assert not [n for n in names if n.startswith(("pybridge/", "tests/", "docs/", "README"))]


def test_the_zip_check_names_what_is_wrong(tmp_path: Path) -> None:
    bad = tmp_path / "bad.zip"
    with zipfile.ZipFile(bad, "w") as archive:
        archive.writestr("README.md", "the repository's")
        archive.writestr("addons/pybridge_targeting/plugin.cfg", 'version="0.0.1"')
        archive.writestr("addons/pybridge_targeting/bin/linux.x86_64/libpybridge.so", "ELF")
        archive.writestr("addons/pybridge_targeting/pybridge.gdextension", "[configuration]")
    problems = release.check_addon_zip(bad)
    assert "bad.zip: README.md is outside addons/pybridge_targeting/" in problems
    assert "bad.zip: addons/pybridge_targeting/pybridge.gdextension is built output" in problems
    assert "bad.zip: no addons/pybridge_targeting/LICENSE" in problems
    assert any("bin/linux.x86_64/libpybridge.so is built output" in p for p in problems)


def test_every_part_says_the_same_version() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["project"]
    plugin = (ROOT / "addons" / "pybridge_targeting" / "plugin.cfg").read_text("utf-8")
    assert project["name"] == release.DISTRIBUTION
    assert project["version"] == pybridge.__version__
    assert f'version="{pybridge.__version__}"' in plugin
    changelog = (ROOT / "CHANGELOG.md").read_text("utf-8")
    assert f"## {pybridge.__version__} " in changelog


def test_licenses_at_the_root_and_in_the_addon() -> None:
    root = (ROOT / "LICENSE").read_text("utf-8")
    assert root.startswith("MIT License") and "pybridge targeting authors" in root
    assert (ROOT / "addons" / "pybridge_targeting" / "LICENSE").read_text("utf-8") == root


def test_the_docs_install_the_distribution_not_the_other_pybridge() -> None:
    docs = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")),
            *sorted((ROOT / "addons").rglob("README.md"))]  # fmt: skip
    for path in docs:
        text = path.read_text("utf-8")
        for line in text.splitlines():
            if "pip install" in line and "-e" not in line.split("pip install", 1)[1][:4]:
                assert "pybridge-targeting" in line, f"{path.name}: {line.strip()}"


def test_dist_command_reports_a_failed_step(tmp_path: Path, capsys) -> None:
    assert main(["dist", "--out", str(tmp_path), "--revision", "no-such-revision"]) == 2
    assert "pybridge dist: git archive" in capsys.readouterr().err
