"""Folder walks: each real folder entered at most once, each link not followed named; every
tool that walks a folder (pack, lint, the native bundle and the addon's platform folders)
walks it this way, so links that loop never keep a command from finishing."""

from __future__ import annotations

import doctest
from collections.abc import Iterable
from pathlib import Path

from pybridge import folders
from pybridge.authoring.cli import _documents
from pybridge.devtools.build.addon import PLATFORM_LIBRARIES, built_platforms, platform_dir
from pybridge.folders import walk


def tree(root: Path, *files: str) -> Path:
    for name in files:
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(name)
    return root


def listed(root: Path, paths: Iterable[Path]) -> list[str]:
    return [path.relative_to(root).as_posix() for path in paths]


def skipped(root: Path, walked: folders.Walk) -> dict[str, str]:
    return {s.path.relative_to(root).as_posix(): s.why for s in walked.skipped}


def test_two_links_to_a_parent_are_skipped_and_named(tmp_path):
    root = tree(tmp_path / "game", "a/b/scene.tscn", "top.gd")
    (root / "a" / "b" / "up").symlink_to("..")
    (root / "a" / "b" / "upup").symlink_to("../..")
    (root / "a" / "loop").symlink_to(root / "a")
    walked = walk(root)
    assert listed(root, walked.files()) == ["top.gd", "a/b/scene.tscn"]
    assert skipped(root, walked) == {
        "a/loop": "a link back to a folder already entered, at a",
        "a/b/up": "a link back to a folder already entered, at a",
        "a/b/upup": "a link back to a folder already entered, at .",
    }
    assert all(s.real.is_dir() for s in walked.skipped)


def test_a_link_out_of_the_tree_is_followed_once(tmp_path):
    """Two links to one folder outside: the first is walked, the second named."""
    shared = tree(tmp_path / "shared", "lib.gd", "deep/more.gd")
    (shared / "deep" / "back").symlink_to(shared)  # a loop inside the linked folder
    root = tree(tmp_path / "game", "main.gd")
    (root / "addons").mkdir()
    (root / "addons" / "first").symlink_to(shared)
    (root / "addons" / "second").symlink_to(shared)
    walked = walk(root)
    assert listed(root, walked.files()) == [
        "main.gd",
        "addons/first/lib.gd",
        "addons/first/deep/more.gd",
    ]
    assert skipped(root, walked) == {
        "addons/second": "a link to a folder already entered, at addons/first",
        "addons/first/deep/back": "a link back to a folder already entered, at addons/first",
    }


def test_a_link_into_the_tree_a_link_to_nothing_and_links_to_files(tmp_path):
    root = tree(tmp_path / "game", "real/a.gd", "b.gd")
    (root / "alias").symlink_to("real")  # sorted before "real": still walked at its own path
    (root / "gone").symlink_to("nowhere")
    (root / "c.gd").symlink_to("b.gd")
    walked = walk(root)
    assert listed(root, walked.files()) == ["b.gd", "c.gd", "real/a.gd"]
    assert skipped(root, walked) == {
        "alias": "a link into the walked folder itself, walked at its own path real",
        "gone": "a link to something that does not exist (or a loop of links)",
    }


def test_folders_the_caller_refuses_are_not_named(tmp_path):
    root = tree(tmp_path / "game", ".godot/x.cfg", "main.gd")
    (root / ".godot" / "up").symlink_to("..")
    walked = walk(root, lambda folder: not folder.name.startswith("."))
    assert listed(root, walked.files()) == ["main.gd"] and walked.skipped == []


def test_lint_searches_a_folder_with_looping_links_once(tmp_path, capsys):
    root = tree(tmp_path / "cards", "a.json", "more/b.json")
    (root / "more" / "up").symlink_to("..")
    (root / "more" / "again").symlink_to("..")
    assert listed(root, (p for _, p, _ in _documents([str(root)]))) == ["a.json", "more/b.json"]
    err = capsys.readouterr().err
    assert f"pybridge lint: skipped {root / 'more' / 'up'}: a link back to a folder" in err
    assert str(root / "more" / "again") in err


def test_the_addons_platform_folders_are_walked_the_same_way(tmp_path):
    tag, library = sorted(PLATFORM_LIBRARIES.items())[0]
    folder = tree(platform_dir(tmp_path, tag), library, "home/python.zip")
    (folder / "home" / "up").symlink_to("..")
    (folder / "home" / "up2").symlink_to("..")
    files = built_platforms(tmp_path)[tag]
    assert listed(folder, files) == [library, "home/python.zip"]


def test_the_modules_example_runs():
    assert doctest.testmod(folders).failed == 0
