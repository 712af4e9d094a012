"""The PCK writer and reader: layout, checksums, what is packed, global classes, the CLI."""

from __future__ import annotations

import hashlib
import struct
from pathlib import Path

import pytest

from pybridge.cli import main
from pybridge.pack import (
    ALIGNMENT,
    CLASS_CACHE,
    PackError,
    class_cache,
    pack_project,
    read_entries,
    read_pack,
    res_path,
    script_class,
    write_pack,
)

PROJECT = 'config_version=5\n\n[application]\nconfig/name="t"\nrun/main_scene="res://main.tscn"\n'


def make_project(root: Path, files: dict[str, str | bytes]) -> Path:
    for name, content in {"project.godot": PROJECT, **files}.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        data = content.encode() if isinstance(content, str) else content
        path.write_bytes(data)
    return root


def test_round_trip_keeps_every_byte(tmp_path):
    files = {f"res://f{n}.bin": bytes(range(n % 256)) * (n + 1) for n in range(40)}
    files["res://dir/ünïcode name.txt"] = "héllo".encode()
    files["res://empty"] = b""
    size = write_pack(tmp_path / "a.pck", files)
    assert size == (tmp_path / "a.pck").stat().st_size
    assert read_pack(tmp_path / "a.pck") == files


def test_header_md5_offsets_and_padding(tmp_path):
    files = {"res://a.txt": b"abc", "res://bb/c.gd": b"x" * 33, "res://dddd": b""}
    write_pack(tmp_path / "p.pck", files)
    blob = (tmp_path / "p.pck").read_bytes()
    magic, version, major, minor, patch, flags, base = struct.unpack_from("<4s5IQ", blob)
    assert (magic, version, (major, minor), flags) == (b"GDPC", 2, (4, 6), 2)
    assert patch == 0
    assert blob[32:96] == bytes(64)  # 16 reserved u32
    assert struct.unpack_from("<I", blob, 96) == (3,)
    assert base % ALIGNMENT == 0
    at = 100
    for path in files:
        (length,) = struct.unpack_from("<I", blob, at)
        stored = blob[at + 4 : at + 4 + length]
        assert length % 4 == 0 and stored.rstrip(b"\0") == path.removeprefix("res://").encode()
        at += 40 + length
    entries = read_entries(tmp_path / "p.pck")
    assert [e.path for e in entries] == list(files)
    for entry in entries:
        data = files[entry.path]
        assert entry.md5 == hashlib.md5(data).digest()
        assert entry.size == len(data)
        assert entry.offset % ALIGNMENT == 0 and entry.offset >= base
        end = entry.offset + entry.size
        assert blob[end : end + (-end % ALIGNMENT)] == bytes(-end % ALIGNMENT)
    assert entries[0].offset == base


def test_corrupt_data_is_reported(tmp_path):
    write_pack(tmp_path / "p.pck", {"res://a.txt": b"hello"})
    blob = bytearray((tmp_path / "p.pck").read_bytes())
    blob[read_entries(tmp_path / "p.pck")[0].offset] ^= 0xFF
    (tmp_path / "p.pck").write_bytes(bytes(blob))
    with pytest.raises(PackError, match=r"MD5 mismatch for res://a\.txt"):
        read_pack(tmp_path / "p.pck")


def test_not_a_pack(tmp_path):
    (tmp_path / "x.pck").write_bytes(b"PK\x03\x04 not a pack")
    with pytest.raises(PackError, match="no GDPC magic"):
        read_pack(tmp_path / "x.pck")
    (tmp_path / "y.pck").write_bytes(b"GDPC" + struct.pack("<5IQ", 9, 4, 6, 0, 0, 0) + bytes(80))
    with pytest.raises(PackError, match="version 9"):
        read_pack(tmp_path / "y.pck")


def test_missing_project_godot_names_the_path(tmp_path):
    (tmp_path / "main.gd").write_text("extends Node\n")
    with pytest.raises(PackError) as caught:
        pack_project(tmp_path, tmp_path / "out.pck")
    assert str(tmp_path / "project.godot") in str(caught.value)
    assert not (tmp_path / "out.pck").exists()


def test_bad_res_paths():
    assert res_path("addons/x/") == res_path("res://addons/x") == "res://addons/x"
    assert res_path("res://") == "res://"
    for bad in ("res://a/../b", "a//b", "./a"):
        with pytest.raises(PackError, match="bad res:// path"):
            res_path(bad)


def test_what_is_packed(tmp_path):
    project = make_project(
        tmp_path / "game",
        {
            "main.tscn": "[gd_scene format=3]\n",
            "main.gd": "extends Node\n",
            "art/icon.png": b"\x89PNG fake",
            ".godot/editor/x.cfg": "editor",
            ".hidden": "x",
            "export_presets.cfg": "[preset.0]\n",
            "tools/__pycache__/a.pyc": b"",
            "notes/.gdignore": "",
            "notes/todo.txt": "skip me",
            "scene.tscn~": "backup",
            "addons/x/bin/linux/libx.so": b"\x7fELF",
            "addons/x/bin/windows/x.dll": b"MZ",
            "addons/x/bin/macos/libx.dylib": b"\xcf\xfa",
            "dlc/extra.pck": b"GDPC",
        },
    )
    info = pack_project(project, tmp_path / "out.pck")
    packed = read_pack(tmp_path / "out.pck")
    assert set(packed) == {
        "res://project.godot",
        "res://main.tscn",
        "res://main.gd",
        "res://art/icon.png",  # never imported by an editor: packed as it is
        CLASS_CACHE,
    }
    assert packed["res://project.godot"] == PROJECT.encode()  # text, not project.binary
    assert packed[CLASS_CACHE] == b"list=[]\n"
    assert info.files == list(packed) and info.size == (tmp_path / "out.pck").stat().st_size
    assert info.left_out == {}


def _import_file(importer: str, *paths: str) -> str:
    keys = ["path", *(f"path.{k}" for k in ("s3tc", "etc2"))]
    lines = [f'{key}="{path}"' for key, path in zip(keys, paths, strict=False)]
    return "[remap]\n\n" + f'importer="{importer}"\ntype="Thing"\n' + "\n".join(lines) + "\n"


def test_imported_assets_travel_as_the_export_packs_them(tmp_path):
    ctex = "res://.godot/imported/icon.svg-218a8f2b.ctex"
    project = make_project(
        tmp_path / "game",
        {
            "icon.svg": "<svg/>",
            "icon.svg.import": _import_file("texture", ctex),
            ".godot/imported/icon.svg-218a8f2b.ctex": b"GST2 data",
            "sky.png": b"png",  # two VRAM variants, only one imported so far
            "sky.png.import": _import_file(
                "texture",
                "res://.godot/imported/sky.s3tc.ctex",
                "res://.godot/imported/sky.etc2.ctex",
            ),
            ".godot/imported/sky.s3tc.ctex": b"s3tc",
            "hit.wav": b"RIFF",  # never opened in an editor: no imported data
            "hit.wav.import": _import_file("wav", "res://.godot/imported/hit.wav-77.sample"),
            "data.bin": b"raw",
            "data.bin.import": _import_file("keep"),
            "notes.txt": "x",
            "notes.txt.import": _import_file("skip"),
            ".godot/uid_cache.bin": b"uids",
        },
    )
    info = pack_project(project, tmp_path / "out.pck")
    packed = read_pack(tmp_path / "out.pck")
    assert packed[ctex] == b"GST2 data" and "res://icon.svg.import" in packed
    assert "res://icon.svg" not in packed  # the export packs the imported data, not the source
    assert packed["res://.godot/imported/sky.s3tc.ctex"] == b"s3tc"
    assert "res://sky.png" not in packed and "res://sky.png.import" in packed
    assert packed["res://data.bin"] == b"raw" and "res://data.bin.import" in packed
    assert not {"res://notes.txt", "res://notes.txt.import"} & set(packed)
    assert packed["res://.godot/uid_cache.bin"] == b"uids"
    assert not {"res://hit.wav", "res://hit.wav.import"} & set(packed)
    assert info.left_out == {
        "res://hit.wav": "never imported: res://.godot/imported/hit.wav-77.sample does not "
        "exist; open the project in the Godot editor once (or run `godot --headless "
        "--import`), then pack again"
    }


def test_a_pack_inside_the_project_never_packs_itself(tmp_path, capsys):
    project = make_project(tmp_path / "game", {"main.gd": "extends Node\n"})
    out = project / "build" / "game.pck"
    sizes = []
    for _ in range(3):
        assert main(["pack", str(project), str(out)]) == 0
        sizes.append(out.stat().st_size)
    assert sizes[0] == sizes[1] == sizes[2]
    assert not [p for p in read_pack(out) if p.endswith(".pck")]
    (project / "renamed.bin").write_bytes(out.read_bytes())  # an output under another name
    pack_project(project, project / "renamed.bin")
    assert "res://renamed.bin" not in read_pack(project / "renamed.bin")
    assert capsys.readouterr().err == ""


def test_native_libraries_and_their_gdextension_stay_out(tmp_path, capsys):
    gdextension = (
        '[configuration]\nentry_symbol = "init"\n\n[libraries]\n\n'
        'linux.x86_64 = "bin/linux.x86_64/libx.so"\n'
        '; windows.x86_64 = "bin/windows/x.dll"\n\n[dependencies]\n\n'
        'linux.x86_64 = {\n"bin/linux.x86_64/libpython3.11.so.1.0": "",\n'
        '"bin/linux.x86_64/home/python311.zip": "home"\n}\n'
    )
    project = make_project(
        tmp_path / "game",
        {
            "addons/x/x.gdextension": gdextension,
            "addons/x/bin/linux.x86_64/libx.so": b"\x7fELF",
            "addons/x/bin/linux.x86_64/libpython3.11.so.1.0": b"\x7fELF",
            "addons/x/bin/linux.x86_64/home/python311.zip": b"PK",
            "addons/x/x.gd": "extends Node\n",
        },
    )
    out = tmp_path / "out.pck"
    assert main(["pack", str(project), str(out)]) == 0
    assert not [p for p in read_pack(out) if "/bin/" in p or p.endswith(".gdextension")]
    assert "res://addons/x/x.gd" in read_pack(out)
    err = capsys.readouterr().err
    assert "left out res://addons/x/x.gdextension: a native extension's description" in err
    assert ("left out res://addons/x/bin/linux.x86_64/home/python311.zip: a native "
            "library's file, listed by res://addons/x/x.gdextension") in err  # fmt: skip
    assert "libpython3.11.so.1.0: a native library's file" in err


def test_mounts_from_outside_the_project(tmp_path):
    project = make_project(
        tmp_path / "game", {"addons/pybridge_targeting/old.gd": "extends Node\n"}
    )
    addon = make_project(tmp_path / "addon", {"bridge.gd": "class_name Bridge\nextends Node\n"})
    (addon / "project.godot").unlink()
    (tmp_path / "one.txt").write_text("single file")
    mounts = {"res://addons/pybridge_targeting": addon, "extra/one.txt": tmp_path / "one.txt"}
    info = pack_project(project, tmp_path / "out.pck", mounts)
    packed = read_pack(tmp_path / "out.pck")
    assert packed["res://addons/pybridge_targeting/bridge.gd"].startswith(b"class_name Bridge")
    assert "res://addons/pybridge_targeting/old.gd" in packed
    assert packed["res://extra/one.txt"] == b"single file"
    assert info.classes == {"Bridge": "res://addons/pybridge_targeting/bridge.gd"}
    with pytest.raises(PackError, match="does not exist"):
        pack_project(project, tmp_path / "out.pck", {"res://x": tmp_path / "nowhere"})


def test_mounted_file_replaces_the_project_copy(tmp_path):
    project = make_project(tmp_path / "game", {"addons/a/x.gd": "extends Node # old\n"})
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "x.gd").write_text("extends Node # new\n")
    pack_project(project, tmp_path / "out.pck", {"addons/a": tmp_path / "a"})
    assert read_pack(tmp_path / "out.pck")["res://addons/a/x.gd"].endswith(b"# new\n")


def test_links_are_followed_but_each_folder_is_packed_once(tmp_path, capsys):
    """Two links to a parent folder once made the walk run forever; now each real folder is
    entered once and every link not followed is named, in the pack and by the command."""
    project = make_project(tmp_path / "game", {"scenes/main.tscn": "[gd_scene]\n"})
    (project / "scenes" / "up").symlink_to("..")
    (project / "scenes" / "again").symlink_to("..")
    (project / "scenes" / "gone").symlink_to("nowhere")
    addon = make_project(tmp_path / "shared", {"a.gd": "extends Node\n"})
    (addon / "project.godot").unlink()
    (project / "addons").mkdir()
    (project / "addons" / "linked").symlink_to(addon)  # a linked-in addon is packed
    (project / "addons" / "twice").symlink_to(addon)
    info = pack_project(project, tmp_path / "out.pck")
    assert sorted(read_pack(tmp_path / "out.pck")) == [
        CLASS_CACHE,
        "res://addons/linked/a.gd",
        "res://project.godot",
        "res://scenes/main.tscn",
    ]
    back = f"a link back to a folder already entered, at .; it leads to {project}"
    assert info.left_out == {
        "res://addons/twice": "a link to a folder already entered, at addons/linked; it leads "
        f"to {addon}",
        "res://scenes/again": back,
        "res://scenes/gone": "a link to something that does not exist (or a loop of links); it "
        "leads to nowhere",
        "res://scenes/up": back,
    }
    assert main(["pack", str(project), str(tmp_path / "out.pck")]) == 0
    err = capsys.readouterr().err
    assert "pybridge pack: left out res://scenes/up: a link back to a folder already" in err
    assert "pybridge pack: left out res://addons/twice: " in err


def test_script_class_header_forms():
    found = script_class(
        "res://a.gd",
        '@tool\n@icon("res://i.svg")\nclass_name Aimer extends Node2D # the arrow\n'
        "class Inner:\n\tclass_name NotThis\n",
    )
    assert found is not None
    assert (found.name, found.extends, found.icon, found.is_tool) == (
        "Aimer",
        "Node2D",
        "res://i.svg",
        True,
    )
    assert script_class("res://b.gd", "extends Node\nfunc f():\n\tpass\n") is None
    assert script_class("res://c.gd", "# class_name Commented\nextends Node\n") is None
    late = script_class("res://d.gd", "extends Node\nvar x := 1\nclass_name TooLate\n")
    assert late is None
    abstract = script_class("res://e.gd", "@abstract class_name Shape\n")
    assert abstract is not None and abstract.is_abstract and abstract.extends == ""


def test_class_cache_format_and_bases():
    scripts = {
        "res://base.gd": "class_name Unit\nextends Node2D\n",
        "res://hero.gd": 'class_name Hero\nextends "res://base.gd"\n',
        "res://sub/plain.gd": "extends Hero\n",
        "res://sub/boss.gd": "class_name Boss\nextends 'plain.gd'\n",
        "res://none.gd": "class_name Helper\n",
    }
    text, names = class_cache(scripts)
    assert names == {
        "Unit": "res://base.gd",
        "Hero": "res://hero.gd",
        "Boss": "res://sub/boss.gd",
        "Helper": "res://none.gd",
    }
    assert text.startswith(b"list=[{\n") and text.endswith(b"}]\n")
    assert (
        b'{\n"base": &"Hero",\n"class": &"Boss",\n"icon": "",\n"is_abstract": false,\n'
        b'"is_tool": false,\n"language": &"GDScript",\n"path": "res://sub/boss.gd"\n}'
    ) in text
    assert b'"base": &"Unit",\n"class": &"Hero"' in text
    assert b'"base": &"RefCounted",\n"class": &"Helper"' in text
    with pytest.raises(PackError, match="class_name Unit is declared twice"):
        class_cache({**scripts, "res://again.gd": "class_name Unit\n"})


def test_cli_pack(tmp_path, capsys):
    project = make_project(tmp_path / "game", {"main.gd": "class_name Main\nextends Node\n"})
    (tmp_path / "addon").mkdir()
    (tmp_path / "addon" / "b.gd").write_text("class_name B\n")
    out = tmp_path / "out" / "game.pck"
    code = main(["pack", str(project), str(out), "--mount", f"res://addons/b={tmp_path / 'addon'}"])
    assert code == 0
    printed = capsys.readouterr().out
    assert "4 files" in printed and "2 global classes" in printed
    assert "res://addons/b/b.gd" in read_pack(out)
    assert main(["pack", str(tmp_path / "nope"), str(out)]) == 2
    assert str(tmp_path / "nope" / "project.godot") in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["pack", str(project), str(out), "--mount", "no-equals-sign"])
