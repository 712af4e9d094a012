"""Driving the demo (demo_project/ with the addon) in the real Godot 4.6 web engine.

The demo opens on its start screen, which prints ``PYBRIDGE menu`` with the points of its two
choices; :func:`booted` serves a site, boots it and goes into the party battle or the duel.
Both scenes print ``PYBRIDGE <kind> <json>`` lines (demo_project/README.md): :class:`Demo`
reads them and sends mouse and key actions. :class:`Desktop` is the same battle in this
process's CPython, through the same JSON protocol, to compare with.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from pybridge import extensions
from pybridge.demo import PARTY_FILE, PARTY_LIBRARIES
from pybridge.examples import rivals_battle
from pybridge.protocol import Protocol
from pybridge.web import Site, StaticHandler

from .engine_session import EngineSession, engine_session

PREFIX = "PYBRIDGE "
DRAG_STEPS = 3  # pointer moves per drag: each costs an engine frame, slow in software WebGL
#: The lines that carry the screen's layout (a ``cut`` line carries it too, in the duel).
LAYOUT_KINDS = ("layout", "ready", "settled", "cut")

Point = tuple[int, int]


#: The demo's own extensions, which its page loads too (demo_project/project.godot).
DEMO_PROJECT = Path(__file__).resolve().parent.parent / "demo_project"


def party_battle() -> dict[str, Any]:
    """The party battle's document as the demo holds it (a fresh copy)."""
    document: dict[str, Any] = json.loads(PARTY_FILE.read_text("utf-8"))
    return document


def party_libraries() -> list[dict[str, Any]]:
    """The card libraries the party scene opens its battle with."""
    return [json.loads(path.read_text("utf-8")) for path in PARTY_LIBRARIES]


class Desktop:
    """A battle in this process's CPython, through the same JSON protocol, read with the
    demo's own extensions as the page reads it; by default the party battle with its card
    libraries, as the party scene opens it."""

    def __init__(
        self, document: dict[str, Any] | None = None, libraries: list[dict[str, Any]] | None = None
    ) -> None:
        words = extensions.load(extensions.project_extensions(DEMO_PROJECT)).words
        self.protocol = Protocol(words=words)
        if document is None:
            document, libraries = party_battle(), party_libraries()
        opened = self.call("open", battle=document, libraries=libraries or [])
        self.session: str = opened["session"]

    def call(self, op: str, **fields: Any) -> dict[str, Any]:
        response = json.loads(self.protocol.call(json.dumps({"op": op, **fields})))
        assert response["ok"], response
        result: dict[str, Any] = response["result"]
        return result

    def refusal(self, op: str, **fields: Any) -> dict[str, Any]:
        """The error of a request on the session that the runtime refuses (a choice_needed)."""
        request = {"op": op, "session": self.session, **fields}
        response = json.loads(self.protocol.call(json.dumps(request)))
        assert not response["ok"], response
        error: dict[str, Any] = response["error"]
        return error

    def on_session(self, op: str, **fields: Any) -> dict[str, Any]:
        return self.call(op, session=self.session, **fields)

    def targets(self, card: str) -> dict[str, Any]:
        return self.on_session("targets", card=card)

    def play(
        self, card: str, target: str | None = None, choices: dict[str, Any] | None = None
    ) -> dict[str, Any]:
        fields: dict[str, Any] = {"card": card}
        if target is not None:
            fields["target"] = target
        if choices is not None:
            fields["choices"] = choices
        return self.on_session("play", **fields)

    def end_turn(self) -> dict[str, Any]:
        return self.on_session("end_turn")


class RivalsTwin(Desktop):
    """The rivals duel in desktop CPython, beside the engine's: whose move it is and each
    side's hand, as the runtime answers them."""

    def __init__(self) -> None:
        super().__init__(rivals_battle())

    def acting(self) -> str:
        side: str = self.on_session("cut")["side"]
        return side

    def hand(self, team: str) -> list[str]:
        (side,) = [s for s in self.on_session("state")["state"]["sides"] if s["team"] == team]
        return [card["id"] for card in side["piles"]["hand"]]


def canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=True)


def sha256(value: Any) -> str:
    return hashlib.sha256(canonical(value).encode()).hexdigest()


class Demo(EngineSession):
    """The running demo: send mouse and key actions, read what the engine printed."""

    def said(self, kind: str, since: int = 0) -> list[dict[str, Any]]:
        """The JSON of every ``PYBRIDGE <kind>`` line printed at or after index ``since``."""
        head = f"{PREFIX}{kind} "
        return [json.loads(t[len(head) :]) for t in self.lines[since:] if t.startswith(head)]

    def wait_for(self, kind: str, since: int) -> dict[str, Any]:
        self.do({"wait_for": f"{PREFIX}{kind} ", "from": since})
        found = self.said(kind, since)
        assert found, f"no {kind} line after {since}: {self.lines[since:]}"
        return found[-1]

    def last(self, kind: str) -> dict[str, Any]:
        found = self.said(kind)
        assert found, f"the demo printed no {kind} line"
        return found[-1]

    @property
    def layout(self) -> dict[str, Any]:
        for text in reversed(self.lines):
            for kind in LAYOUT_KINDS:
                if text.startswith(f"{PREFIX}{kind} "):
                    found: dict[str, Any] = json.loads(text[len(PREFIX) + len(kind) + 1 :])
                    found = found if kind == "layout" else found["layout"]
                    return found
        raise AssertionError("the demo printed no layout")

    def card(self, card_id: str) -> Point:
        x, y = self.layout["cards"][card_id]
        return x, y

    def unit(self, unit_id: str) -> Point:
        x, y = self.layout["units"][unit_id]
        return x, y

    def point(self, name: str) -> Point:
        x, y = self.layout[name]
        return x, y

    def restart(self) -> dict[str, Any]:
        """A fresh battle: click Restart and wait for the new ready line."""
        since = self.mark()
        self.do({"click": list(self.point("restart"))})
        return self.wait_for("ready", since)

    def drag(self, start: Point, end: Point, kind: str) -> dict[str, Any]:
        """Drag from ``start`` to ``end``; the JSON of the ``kind`` line it caused."""
        since = self.mark()
        self.do({"drag": [*start, *end, DRAG_STEPS]})
        return self.wait_for(kind, since)

    def end_turn(self, skip: bool = True) -> dict[str, Any]:
        """Click End Turn; skip the playback (Space) unless told not to; wait until the new
        state shows. The runtime's response (the ``turn`` line)."""
        since = self.mark()
        self.do({"click": list(self.point("end_turn"))})
        response = self.wait_for("turn", since)
        if skip:
            self.do({"key": "Space"})
        self.wait_for("settled", since)
        return response

    def hover(self, card_id: str) -> list[str]:
        """Point at a card; the unit ids it lit."""
        since = self.mark()
        self.do({"move": list(self.card(card_id))})
        lit = self.wait_for("highlight", since)
        assert lit["card"] == card_id, lit
        units: list[str] = lit["units"]
        return units

    def enter(self, scene: str) -> dict[str, Any]:
        """From the start screen, click ``scene`` (``party`` or ``duel``); its ready line."""
        since = self.mark()
        self.do({"click": self.last("menu")[scene]})
        return self.wait_for("ready", since)


@contextmanager
def booted(
    site: Site, work: Path, log_name: str, handler: type[StaticHandler] = StaticHandler
) -> Iterator[Demo]:
    """Serve ``site`` (with ``handler``) and boot it in Chromium; yields a driver once the
    ready line is out (a project that opens on its battle, as the Workshop's does)."""
    with engine_session(site, work, f"{PREFIX}ready ", log_name, Demo, handler) as driver:
        yield driver


@contextmanager
def booted_demo(site: Site, work: Path, log_name: str, scene: str) -> Iterator[Demo]:
    """Serve the demo's ``site``, boot it in Chromium and go from its start screen into
    ``scene`` (``party`` or ``duel``; ``""`` stays on the start screen); yields a driver once
    that scene is ready."""
    with engine_session(site, work, f"{PREFIX}menu ", log_name, Demo) as driver:
        if scene:
            driver.enter(scene)
        yield driver
