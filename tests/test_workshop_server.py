"""The Workshop's local server: it reads and writes one library file and nothing else.

``pybridge workshop LIBRARY`` serves the site and ``/library``: GET gives the file, POST
replaces it. Everything else that would write is refused, and so is any request that does not
come from the server's own pages (another Host, another Origin), and the file is left alone.
"""

from __future__ import annotations

import http.client
import io
import json
import os
import signal
import socket
import subprocess
import sys
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from pybridge.cli import main
from pybridge.runtime import LIBRARY_FORMAT
from pybridge.service import new_protocol
from pybridge.web import serve
from pybridge.workshop import (
    LIBRARY_ROUTE,
    MAX_LIBRARY_DEPTH,
    NAME_HEADER,
    ExtensionReloader,
    check_library_body,
    empty_library_text,
    library_handler,
    write_atomically,
)

from .web_support import require_browser

REPO = Path(__file__).resolve().parent.parent
LIMIT = 2048


def library_text(cards: list[Any]) -> str:
    document = {"format": LIBRARY_FORMAT, "cards": cards}
    answer = json.loads(
        new_protocol().call(json.dumps({"op": "library_text", "document": document}))
    )
    text: str = answer["result"]["text"]
    return text


JAB: dict[str, Any] = {
    "id": "jab", "name": "Jab", "target": "SingleEnemy", "text": "Deal 3 damage.",
    "behavior": {"start": "hit", "nodes": [
        {"id": "hit", "type": "DealDamage", "amount": 3, "source": "Opponent"}]}}  # fmt: skip


class Site:
    def __init__(self, root: Path, library: Path, url: str) -> None:
        self.root, self.library = root, library
        self.host, port = url.removeprefix("http://").rstrip("/").split(":")
        self.port = int(port)

    def request(
        self,
        method: str,
        path: str,
        body: bytes | None = None,
        headers: dict[str, str] | None = None,
    ) -> tuple[int, dict[str, str], bytes]:
        connection = http.client.HTTPConnection(self.host, self.port, timeout=10)
        try:
            connection.request(method, path, body=body, headers=headers or {})
            reply = connection.getresponse()
            return reply.status, dict(reply.getheaders()), reply.read()
        finally:
            connection.close()

    def save(self, body: bytes, **headers: str) -> tuple[int, bytes]:
        sent = {"Content-Type": "application/json", **headers}
        status, _, data = self.request("POST", LIBRARY_ROUTE, body, sent)
        return status, data


@pytest.fixture
def site(tmp_path: Path) -> Iterator[Site]:
    root = tmp_path / "site"
    root.mkdir()
    (root / "index.html").write_text("<!DOCTYPE html><title>workshop</title>")
    library = tmp_path / "cards.json"
    library.write_text(library_text([JAB]), "utf-8")
    with serve(root, handler=library_handler(library, limit=LIMIT)) as url:
        yield Site(root, library, url)


def test_it_listens_on_loopback_and_serves_the_site_and_the_library(site):
    assert site.host == "127.0.0.1"
    status, _, page = site.request("GET", "/")
    assert status == 200 and b"<title>workshop</title>" in page
    status, headers, data = site.request("GET", LIBRARY_ROUTE)
    assert status == 200 and data == site.library.read_bytes()
    assert headers[NAME_HEADER] == "cards.json"
    assert headers["Content-Type"] == "application/json"


def test_a_save_replaces_the_file_with_exactly_the_body(site):
    text = library_text([JAB, {**JAB, "id": "jab_2"}])
    status, data = site.save(text.encode())
    assert status == 200 and json.loads(data) == {"saved": "cards.json", "bytes": len(text)}
    assert site.library.read_text("utf-8") == text
    assert site.request("GET", LIBRARY_ROUTE)[2] == text.encode()
    assert sorted(p.name for p in site.library.parent.iterdir()) == ["cards.json", "site"]


def test_a_library_with_broken_cards_is_saved_as_it_is(site):
    broken = {"format": LIBRARY_FORMAT, "cards": [{"id": "jab", "sourse": "typo"}]}
    body = json.dumps(broken).encode()
    assert site.save(body)[0] == 200 and site.library.read_bytes() == body


@pytest.mark.parametrize(
    ("body", "headers", "status"),
    [
        (b"{}", {"Content-Type": "text/plain"}, 415),
        (b"not json", {}, 400),
        (b"\xff\xfe{}", {}, 400),
        (b'{"format": "pybridge/battle@1", "cards": []}', {}, 400),
        (b'{"format": "pybridge/cards@1", "cards": {}}', {}, 400),
        (b"[1, 2]", {}, 400),
        (b"x" * (LIMIT + 1), {}, 413),
        (b"{}", {"Origin": "http://evil.example"}, 403),
        (b"{}", {"Host": "evil.example"}, 403),
    ],
)
def test_a_refused_save_names_why_and_leaves_the_file_alone(site, body, headers, status):
    before = site.library.read_bytes()
    assert site.save(body, **headers)[0] == status
    assert site.library.read_bytes() == before


@pytest.mark.parametrize(
    "path", ["/", "/cards.json", "/index.html", "/library/x", "/../cards.json", "/library.json"]
)
def test_no_other_path_can_be_written(site, path):
    before = site.library.read_bytes()
    body = library_text([]).encode()
    status, _, _ = site.request("POST", path, body, {"Content-Type": "application/json"})
    assert status == 404
    assert site.library.read_bytes() == before
    assert (site.root / "index.html").read_text().startswith("<!DOCTYPE html>")
    assert sorted(p.name for p in site.root.iterdir()) == ["index.html"]


@pytest.mark.parametrize("method", ["PUT", "DELETE", "PATCH", "OPTIONS", "HEAD"])
def test_no_other_method_touches_the_library(site, method):
    before = site.library.read_bytes()
    status, _, _ = site.request(method, LIBRARY_ROUTE, library_text([]).encode())
    assert status in (405, 501)
    assert site.library.read_bytes() == before


def raw_post(site: Site, head: str, body: bytes) -> int:
    """Send a POST exactly as written (no length added), then stop writing; the status."""
    with socket.create_connection((site.host, site.port), timeout=10) as raw:
        raw.sendall(head.encode() + b"\r\n" + body)
        raw.shutdown(socket.SHUT_WR)
        reply = raw.makefile("rb").readline().decode()
    return int(reply.split()[1])


def test_a_body_without_a_length_or_shorter_than_announced_is_refused(site):
    before = site.library.read_bytes()
    host = f"Host: 127.0.0.1:{site.port}\r\nContent-Type: application/json\r\n"
    assert raw_post(site, f"POST {LIBRARY_ROUTE} HTTP/1.1\r\n{host}", b"{}") == 411
    head = f"POST {LIBRARY_ROUTE} HTTP/1.1\r\n{host}Content-Length: 100\r\n"
    assert raw_post(site, head, b'{"format"') == 400
    assert site.library.read_bytes() == before


def nested(levels: int) -> str:
    """A card library whose ``cards`` list holds lists down to value level ``levels``."""
    inner = levels - 1  # the library is level 1, its cards list level 2
    return f'{{"format": "{LIBRARY_FORMAT}", "cards": {"[" * inner}{"]" * inner}}}'


@pytest.mark.parametrize(
    ("body", "reason"),
    [
        (f'{{"format": "{LIBRARY_FORMAT}", "cards": [], "x": NaN}}', "contains NaN"),
        (f'{{"format": "{LIBRARY_FORMAT}", "cards": [], "x": Infinity}}', "contains Infinity"),
        (f'{{"format": "{LIBRARY_FORMAT}", "cards": [-Infinity]}}', "contains -Infinity"),
        (f'{{"format": "{LIBRARY_FORMAT}", "cards": [], "x": 1e999}}', "1e999, which is out of"),
        (f'{{"format": "{LIBRARY_FORMAT}", "cards": [{{"hp": -1e999}}]}}', "out of range"),
        (nested(MAX_LIBRARY_DEPTH + 1), f"nests deeper than {MAX_LIBRARY_DEPTH} levels"),
        ("[" * 1000 + "]" * 1000, f"nests deeper than {MAX_LIBRARY_DEPTH} levels"),
        ('{"a": "' + "[" * 500 + '", "b": ' + "[" * 70 + "]" * 70 + "}", "nests deeper"),
    ],
)
def test_a_body_the_runtime_could_not_read_back_is_refused_with_its_reason(site, body, reason):
    before = site.library.read_bytes()
    status, data = site.save(body.encode())
    assert status == 400 and reason in data.decode(), data
    assert site.library.read_bytes() == before


def test_the_deepest_library_saved_is_one_the_protocol_reads_inside_a_request(site):
    """The protocol counts a request's levels from 1; ``open`` holds a library two levels
    down, so the deepest saved library still fits, and one level more would not."""
    deepest = nested(MAX_LIBRARY_DEPTH)
    assert site.save(deepest.encode())[0] == 200 and site.library.read_text() == deepest
    for text, fits in ((deepest, True), (nested(MAX_LIBRARY_DEPTH + 1), False)):
        request = f'{{"op": "open", "libraries": [{text}]}}'
        code = json.loads(new_protocol().call(request))["error"]["code"]
        assert (code != "too_deep") is fits, code
    in_a_string = f'{{"format": "{LIBRARY_FORMAT}", "cards": [], "x": "{"[" * 500}"}}'
    assert check_library_body(in_a_string.encode()) is None  # brackets in a string do not nest


def raw_request(site: Site, head: bytes, body: bytes = b"", *, close: bool = True) -> bytes:
    """Send ``head`` and ``body`` exactly as given; stop writing unless ``close`` is False
    (then the server waits for the rest); the whole answer."""
    with socket.create_connection((site.host, site.port), timeout=10) as raw:
        raw.sendall(head + body)
        if close:
            raw.shutdown(socket.SHUT_WR)
        return raw.makefile("rb").read()


def post_head(site: Site, length: bytes | None) -> bytes:
    head = f"POST {LIBRARY_ROUTE} HTTP/1.1\r\nHost: 127.0.0.1:{site.port}\r\n"
    head += "Content-Type: application/json\r\n"
    sized = b"" if length is None else b"Content-Length: " + length + b"\r\n"
    return head.encode() + sized + b"\r\n"


@pytest.mark.parametrize(
    ("length", "status", "reason"),
    [
        ("\u00b2".encode("latin-1"), 400, "not a number of bytes in ASCII digits"),  # superscript 2
        ("\u00b9\u00b2".encode("latin-1"), 400, "ASCII digits"),
        ("\u0661\u0662".encode(), 400, "ASCII digits"),  # Arabic-Indic digits, as UTF-8
        (b"-1", 400, "ASCII digits"),
        (b"0x10", 400, "ASCII digits"),
        (b"9" * 5000, 413, "a library is at most"),  # more digits than int() reads
        (b"0" * 60 + b"2", 400, "the body ended after 0 of 2 bytes"),
    ],
)
def test_every_content_length_gets_an_answer_with_a_reason(site, length, status, reason):
    before = site.library.read_bytes()
    answer = raw_request(site, post_head(site, length))
    assert answer.startswith(f"HTTP/1.0 {status} ".encode()), answer[:80]
    assert reason.encode() in answer
    assert site.library.read_bytes() == before


def test_a_request_that_stops_coming_is_answered_408(tmp_path):
    library = tmp_path / "cards.json"
    library.write_text(library_text([JAB]), "utf-8")
    with serve(tmp_path, handler=library_handler(library, limit=LIMIT, timeout=0.2)) as url:
        site = Site(tmp_path, library, url)
        body = raw_request(site, post_head(site, b"100"), b'{"format"', close=False)
        assert body.startswith(b"HTTP/1.0 408 ") and b"the body did not arrive" in body
        head = f"POST {LIBRARY_ROUTE} HTTP/1.1\r\nHost: 127.0.0.1:{site.port}\r\n".encode()
        headers = raw_request(site, head, close=False)
        assert headers.startswith(b"HTTP/1.0 408 ") and b"the headers did not arrive" in headers
        assert library.read_text("utf-8") == library_text([JAB])


def test_a_library_that_cannot_be_read_or_written_is_answered_500(tmp_path):
    folder = tmp_path / "cards"
    folder.mkdir()
    with serve(tmp_path, handler=library_handler(folder, limit=LIMIT)) as url:
        site = Site(tmp_path, folder, url)
        status, _, data = site.request("GET", LIBRARY_ROUTE)
        assert status == 500 and b"the library cannot be read" in data
    gone = tmp_path / "gone" / "cards.json"
    gone.parent.mkdir()
    with serve(tmp_path, handler=library_handler(gone, limit=LIMIT)) as url:
        gone.parent.rmdir()
        status, data = Site(tmp_path, gone, url).save(library_text([]).encode())
        assert status == 500 and b"the library was not saved" in data


def test_pages_of_other_sites_cannot_read_it_either(site):
    assert site.request("GET", LIBRARY_ROUTE, headers={"Host": "evil.example"})[0] == 403
    status, _, _ = site.request("GET", LIBRARY_ROUTE, headers={"Origin": "http://evil.example"})
    assert status == 403
    # The server's own page may (the browser sends its origin on a POST).
    origin = f"http://127.0.0.1:{site.port}"
    assert site.save(library_text([JAB]).encode(), Origin=origin)[0] == 200


def test_a_missing_library_reads_as_an_empty_one_and_the_first_save_creates_it(tmp_path):
    library = tmp_path / "new.json"
    with serve(tmp_path, handler=library_handler(library)) as url:
        site = Site(tmp_path, library, url)
        status, headers, data = site.request("GET", LIBRARY_ROUTE)
        assert status == 200 and data.decode() == empty_library_text()
        assert headers[NAME_HEADER] == "new.json" and not library.exists()
        assert site.save(data)[0] == 200 and library.read_bytes() == data


def test_writes_replace_the_file_whole(tmp_path):
    target = tmp_path / "cards.json"
    target.write_text("old")
    os.chmod(target, 0o640)
    write_atomically(target, b"new")
    assert target.read_bytes() == b"new" and (target.stat().st_mode & 0o777) == 0o640
    assert [p.name for p in tmp_path.iterdir()] == ["cards.json"]


def test_a_new_library_gets_the_mode_every_new_file_gets(tmp_path):
    # A first save used to leave mkstemp's owner-only mode on the new file.
    mask = os.umask(0o027)
    try:
        write_atomically(tmp_path / "group.json", b"{}")
        os.umask(0o022)
        write_atomically(tmp_path / "cards.json", b"{}")
    finally:
        os.umask(mask)
    assert ((tmp_path / "group.json").stat().st_mode & 0o777) == 0o640
    assert ((tmp_path / "cards.json").stat().st_mode & 0o777) == 0o644
    assert sorted(p.name for p in tmp_path.iterdir()) == ["cards.json", "group.json"]


def test_the_body_check_names_the_problem():
    assert check_library_body(empty_library_text().encode()) is None
    assert "not UTF-8" in str(check_library_body(b"\xff"))
    assert "not JSON" in str(check_library_body(b"{"))
    assert "not a card library" in str(check_library_body(b'{"cards": []}'))


def test_the_command_refuses_a_folder_or_a_missing_folder(tmp_path, capsys):
    assert main(["workshop", str(tmp_path), "--no-serve"]) == 2
    assert main(["workshop", str(tmp_path / "no" / "cards.json"), "--no-serve"]) == 2
    assert "is not a file in an existing folder" in capsys.readouterr().err


def test_the_command_builds_the_site(tmp_path, capsys):
    require_browser()
    library = tmp_path / "cards.json"
    assert main(["workshop", str(library), "--no-serve", "--site", str(tmp_path / "s")]) == 0
    out = capsys.readouterr().out
    assert "a new library, written on the first save" in out
    assert (tmp_path / "s" / "index.pck").is_file() and not library.exists()


def test_the_command_serves_and_saves_until_interrupted(tmp_path):
    require_browser()
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    library = tmp_path / "cards.json"
    library.write_text(library_text([JAB]))
    command = [sys.executable, "-m", "pybridge.cli", "workshop", str(library), "--port", str(port)]
    server = subprocess.Popen(
        [*command, "--site", str(tmp_path / "site")],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=REPO,
    )
    try:
        assert server.stdout is not None
        assert server.stdout.readline().startswith(f"pybridge workshop: editing {library}")
        url = f"http://127.0.0.1:{port}/"
        assert server.stdout.readline().startswith(f"pybridge workshop: open {url} ")
        site = Site(tmp_path / "site", library, url)
        assert site.request("GET", "/index.pck")[2][:4] == b"GDPC"
        text = library_text([{**JAB, "name": "Quick Jab"}])
        assert site.save(text.encode())[0] == 200 and library.read_text() == text
    finally:
        server.send_signal(signal.SIGINT)
        out, err = server.communicate(timeout=30)
    assert server.returncode == 0, err
    assert "pybridge workshop: stopped" in out


GOLD = """
from pybridge.extend import Message
NAME, VERSION = "gold", "1"
def register(words):
    words.counter("gold", doc="gold", label=Message("gold", "Gold"))
"""


def test_the_server_packs_a_changed_extension_again_for_the_next_page_load(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game, root = tmp_path / "game", tmp_path / "site"
    (game / "extensions").mkdir(parents=True)
    root.mkdir()
    extension = game / "extensions" / "gold.py"
    extension.write_text(GOLD)
    (root / "pybridge.zip").write_bytes(b"stale")
    reload = ExtensionReloader(root, [extension], game)
    handler = library_handler(tmp_path / "cards.json", LIMIT, before_package=reload)

    def packed() -> bytes:
        with serve(root, handler=handler) as url:
            status, _, data = Site(root, tmp_path / "cards.json", url).request(
                "GET", "/pybridge.zip"
            )
        assert status == 200
        return data

    assert packed() == b"stale"  # unchanged since the site was built: served as it is
    for text, expected in (
        (GOLD.replace('"gold", doc', '"silver", doc'), b'"silver"'),
        ("def register(words): raise ValueError('typo')\n", b'"silver"'),
    ):
        stamp = extension.stat().st_mtime_ns
        extension.write_text(text)
        while extension.stat().st_mtime_ns == stamp:  # a coarse clock: touch until it moves
            extension.touch()
        zipped = zipfile.ZipFile(io.BytesIO(packed()))
        assert expected in zipped.read("game/extensions/gold.py")
    assert "extension not reloaded" in capsys.readouterr().err  # the broken one: kept the last
