"""The rivals duel played online, end to end: a real ``pybridge serve --ws`` process on the
loopback and two real Godot 4.6 web engines (headless Chromium), one seat each.

Each page goes from the start screen into "Rivals online" (key 4's choice), types the server's
address into the lobby, and one creates the match while the other joins it by its name. The
duel of :data:`~tests.test_rivals_e2e.RIVALS` is then played to its result by mouse, each
step on the page whose side acts: the page holds that side's hand (the server's view of the
seat, its own card ids), the other side's hand is a count of card backs, and the other page
reveals the play once the server reports it. Mid-match Vex's page goes back to the menu,
which closes its socket; Aya plays on meanwhile, and Vex's page resumes its seat with its
token from the lobby and shows the state it missed. Later the network drops Vex's socket (a
relay between its page and the server cuts it) and the page connects again and resumes the
seat with its token on its own. After every step both pages are compared
with the same steps played in desktop CPython (:class:`~tests.test_rivals_e2e.Twin`): whose
move it is, each hand's cards and count, every unit's hit points, the events' kinds. The
server's move log then replays to the same hashes, and the server is stopped by its pid.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest

from pybridge import extensions
from pybridge.demo import prepare_demo_site
from pybridge.online.replay import replay
from pybridge.web import Site

from .demo_support import DEMO_PROJECT, PREFIX, Demo
from .engine_session import ARTIFACTS, engine_session
from .test_rivals_e2e import RIVALS, Step, Twin
from .web_support import require_browser

Doc = dict[str, Any]
OTHER = {"player": "enemy", "enemy": "player"}
#: Before this step (one of Aya's, in turn 3) Vex's page leaves and later resumes its seat.
RECONNECT_BEFORE = 12
#: Before this step (one of Vex's, in turn 4) Vex's socket is cut: its page connects again.
CUT_BEFORE = 17


class Relay:
    """A TCP relay in front of the server, as a network between a page and it: it passes the
    bytes both ways, and :meth:`cut` drops every connection through it (new ones pass)."""

    def __init__(self, port: int) -> None:
        self.target = port
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.url = f"ws://127.0.0.1:{self.listener.getsockname()[1]}"
        self.pairs: list[tuple[socket.socket, socket.socket]] = []
        self.lock = threading.Lock()
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                near, _ = self.listener.accept()
            except OSError:
                return  # closed
            far = socket.create_connection(("127.0.0.1", self.target))
            with self.lock:
                self.pairs.append((near, far))
            for a, b in ((near, far), (far, near)):
                threading.Thread(target=self._pump, args=(a, b), daemon=True).start()

    @staticmethod
    def _pump(source: socket.socket, sink: socket.socket) -> None:
        try:
            while data := source.recv(65536):
                sink.sendall(data)
        except OSError:
            pass
        for each in (source, sink):
            with contextlib.suppress(OSError):
                each.shutdown(socket.SHUT_RDWR)

    def cut(self) -> int:
        """Drop every connection now (no close frame: the page sees the socket die)."""
        with self.lock:
            pairs, self.pairs = self.pairs, []
        for pair in pairs:
            for each in pair:
                with contextlib.suppress(OSError):
                    each.shutdown(socket.SHUT_RDWR)
                each.close()
        return len(pairs)

    def close(self) -> None:
        self.cut()
        self.listener.close()


class Server:
    """``pybridge serve --ws`` in a process of its own, on a free loopback port, with the
    demo's extensions (the page's rules)."""

    def __init__(self, logs: Path) -> None:
        code = "import sys; from pybridge.cli import main; sys.exit(main())"
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-c",
                code,
                "serve",
                "--ws",
                "--port",
                "0",
                "--logs",
                str(logs),
                "--project",
                str(DEMO_PROJECT),
                # The document's own seed and deal: the twin below replays the duel as
                # written (each match's own deal is tests/test_online.py's).
                "--fixed-order",
            ],
            stdout=subprocess.PIPE,
            text=True,
        )
        assert self.process.stdout is not None
        line = self.process.stdout.readline()  # printed once it listens
        assert line.startswith("pybridge online: ws://"), line
        self.url = line.split(": ", 1)[1].strip()

    def stop(self) -> int:
        os.kill(self.process.pid, signal.SIGINT)  # Ctrl+C: the server's own clean stop
        return self.process.wait(timeout=30)


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Site:
    require_browser()
    return prepare_demo_site(tmp_path_factory.mktemp("online_e2e") / "site")


def shot(page: Demo, name: str) -> Path:
    path = ARTIFACTS / name
    page.do({"wait_ms": 120}, {"screenshot": str(path)})
    return path


def type_text(page: Demo, field: str, point: list[int], text: str) -> None:
    """Click a text field, select what it holds and type ``text`` over it, key by key; waits
    until the field holds it."""
    since = page.mark()
    page.do({"click": point})
    assert page.wait_for("focus", since) == {"field": field}
    since = page.mark()
    page.do({"key": "Control+a"}, *[{"key": c} for c in text])
    typed = json.dumps({"field": field, "text": text}, separators=(",", ":"))
    page.do({"wait_for": f"{PREFIX}field {typed}", "from": since})


def enter_lobby(page: Demo) -> Doc:
    since = page.mark()
    page.do({"click": page.last("menu")["online"]})
    ready = page.wait_for("ready", since)
    assert ready["scene"] == "online"
    return ready


def seat_at(page: Demo, step: int, since: int) -> Doc:
    """The first ``seat`` line from ``since`` that shows the match at ``step`` or later."""
    head = f"{PREFIX}seat "
    while True:
        page.do({"wait_for": head, "from": since})
        for index in range(since, len(page.lines)):
            if page.lines[index].startswith(head):
                seat = page.said("seat", index)[0]
                if seat["step"] >= step:
                    return seat
                since = index + 1


def check_seat(seat: Doc, team: str, twin: Twin) -> None:
    """What one page shows is its seat's view of the twin's battle: its own hand's cards in
    order, the other hand as a count, whose move it is, every unit's hit points."""
    state = twin.on_session("state")["state"]
    assert seat["side"] == team and seat["acting"] == twin.acting()
    own = twin.hand(team)
    assert [c["card"] for c in seat["hand"]] == definitions(twin, team)
    assert len(seat["hand"]) == len(own) and len(seat["shown"]) == len(own)
    assert seat["backs"] == len(twin.hand(OTHER[team]))
    assert seat["hp"] == {u["id"]: u["hp"] for u in state["units"]}


def definitions(twin: Twin, team: str) -> list[str]:
    (side,) = [s for s in twin.on_session("state")["state"]["sides"] if s["team"] == team]
    return [str(card["card"]) for card in side["piles"]["hand"]]


def play(page: Demo, step: Step, seat: Doc, twin: Twin, team: str) -> str:
    """Plays ``step`` by mouse on ``page``; the kind of the line its answer comes on. A card
    is the hand's card at the twin's card's place (the page names it by its own view's id)."""
    layout = seat["layout"]
    if step.op == "pass":
        page.do({"click": layout["pass"]})
        return "passed"
    if step.op == "end_turn":
        page.do({"click": layout["end_turn"]})
        return "turn"
    assert step.card is not None
    at = twin.hand(team).index(step.card)
    card = seat["hand"][at]
    assert card["card"] == definitions(twin, team)[at], (card, step)
    page.do({"click": layout["cards"][card["id"]]})
    if twin.targets(step.card)["requires_target"]:
        page.do({"click": layout["units"][step.target]})
    else:
        page.do({"click": layout["play"]})
    return "activated"


def kinds(events: list[Doc]) -> list[str]:
    return [str(e["type"]) for e in events]


def test_two_pages_play_the_duel_online_one_resuming_its_seat(site: Site, tmp_path: Path) -> None:
    logs = tmp_path / "logs"
    for folder in ("aya", "vex"):
        (tmp_path / folder).mkdir()
    server = Server(logs)
    relay = Relay(int(server.url.rsplit(":", 1)[1]))
    try:
        with (
            engine_session(site, tmp_path / "aya", f"{PREFIX}menu ", "online_aya.txt", Demo) as aya,
            engine_session(site, tmp_path / "vex", f"{PREFIX}menu ", "online_vex.txt", Demo) as vex,
        ):
            play_online(server, relay, {"player": aya, "enemy": vex})
    finally:
        relay.close()
        assert server.stop() == 0
    (log,) = logs.glob("*.json")
    words = extensions.load(extensions.project_extensions(DEMO_PROJECT)).words
    done = replay(json.loads(log.read_text("utf-8")), words)
    assert done.mismatch is None and done.steps >= len(RIVALS) - 1, done


def play_online(server: Server, relay: Relay, pages: dict[str, Demo]) -> None:
    aya, vex = pages["player"], pages["enemy"]
    assert "online" in aya.last("menu")
    lobby = enter_lobby(aya)["lobby"]
    type_text(aya, "server", lobby["server"], server.url)
    since = aya.mark()
    aya.do({"click": lobby["create"]})
    joined = aya.wait_for("joined", since)
    assert (joined["seat"], joined["resumed"]) == ("player", False)
    seats = {"player": seat_at(aya, 0, since)}
    lobby = enter_lobby(vex)["lobby"]
    # Vex's page reaches the server through a relay, whose connections the test can cut.
    type_text(vex, "server", lobby["server"], relay.url)
    type_text(vex, "match", lobby["match"], joined["match"])
    since = vex.mark()
    vex.do({"click": lobby["join"]})
    assert vex.wait_for("joined", since)["seat"] == "enemy"
    seats["enemy"] = seat_at(vex, 0, since)
    twin = Twin()
    for team in pages:
        check_seat(seats[team], team, twin)
    assert seats["player"]["banner"] == "Your turn"
    assert seats["enemy"]["banner"] == "Captain Aya is playing..."
    shot(aya, "online_aya_turn.png")
    away = False
    for index, step in enumerate(RIVALS):
        team = twin.acting()
        page, other = pages[team], pages[OTHER[team]]
        if index == CUT_BEFORE:  # the network drops Vex's socket; the page resumes its seat
            assert team == "enemy"
            since = vex.mark()
            assert relay.cut() >= 1
            lost = vex.wait_for("connection", since)
            assert lost["code"] not in (1000, 4001), lost  # no close frame: not a goodbye
            assert vex.wait_for("resumed", since) == {"match": joined["match"], "seat": "enemy"}
            back = max(i for i, t in enumerate(vex.lines) if t.startswith(f"{PREFIX}resumed "))
            seats["enemy"] = seat_at(vex, 0, max(back, since))
            check_seat(seats["enemy"], "enemy", twin)
            shot(vex, "online_vex_reconnected.png")
        if index == RECONNECT_BEFORE:
            assert team == "player"
            since = vex.mark()
            vex.do({"key": "m"})
            vex.wait_for("menu", since)
            away = True
        marks = {t: p.mark() for t, p in pages.items()}
        kind = play(page, step, seats[team], twin, team)
        answer = page.wait_for(kind, marks[team])
        expected = twin.step(step)
        assert answer["ok"] and kinds(answer["result"]["events"]) == kinds(expected["events"])
        at = answer["result"]["step"]
        seats[team] = seat_at(page, at, marks[team])
        check_seat(seats[team], team, twin)
        if not (away and other is vex):
            revealed = other.wait_for("revealed", marks[OTHER[team]])
            assert (revealed["by"], revealed["step"]) == (team, at)
            # The same lines, worded for the other viewer ("You put..." is "Vex puts...").
            assert len(revealed["log"]) == len(answer["result"]["log"])
            assert revealed["events"] == len(answer["result"]["events"])
            seats[OTHER[team]] = seat_at(other, at, marks[OTHER[team]])
            check_seat(seats[OTHER[team]], OTHER[team], twin)
        if index == 0:
            assert seats["enemy"]["backs_text"].startswith("Captain Aya's hand: 4 cards")
            shot(vex, "online_vex_sees_the_play.png")
        if away:  # Vex's page comes back while the match went on
            ready = enter_lobby(vex)
            assert ready["saved"] == {"match": joined["match"], "seat": "enemy"}
            shot(vex, "online_vex_resume.png")
            since = vex.mark()
            vex.do({"click": ready["lobby"]["resume"]})
            rejoined = vex.wait_for("joined", since)
            assert (rejoined["seat"], rejoined["resumed"], rejoined["step"]) == ("enemy", True, at)
            seats["enemy"] = seat_at(vex, at, since)
            check_seat(seats["enemy"], "enemy", twin)
            shot(vex, "online_vex_resumed.png")
            away = False
        if twin.on_session("state")["state"]["result"] is not None:
            break
    assert twin.on_session("state")["state"]["result"] == "defeat"
    titles = {}
    for team, page in pages.items():
        result = page.wait_for("result", 0)
        assert (result["result"], result["seat"]) == ("defeat", team)
        titles[team] = result["title"]
    assert titles == {"player": "Vex's side wins.", "enemy": "You win!"}
    shot(aya, "online_aya_end.png")
    shot(vex, "online_vex_end.png")
    for page in pages.values():
        assert page.errors == []
        assert not any(text.startswith(f"{PREFIX}error ") for text in page.lines)
