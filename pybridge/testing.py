"""Testing a game's own cards with pytest (docs/testing-your-cards.md).

Installed with the package as a pytest plugin. In a test module of a Godot project (or any
folder under one), the ``game`` fixture is a :class:`Game` read with the extensions the
project lists, talking to the runtime through the same protocol every host uses::

    def test_flurry_grows_with_combo(game):
        duel = game.open("battles/duel.json", libraries=["cards/mechanics.json"])
        duel.play("flurry_1", target="goblin").expect_event("damage", amount=2)

The project is the nearest folder holding ``project.godot`` above the test, or the one given
with ``--pybridge-project`` or the ``pybridge_project`` ini setting.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from . import extensions
from .protocol import Protocol
from .service import new_protocol

__all__ = ["Game", "RequestFailed", "Result", "Session", "find_project"]


class RequestFailed(AssertionError):
    """A request the runtime refused when the test expected it to succeed."""

    def __init__(self, request: Mapping[str, Any], error: Mapping[str, Any]) -> None:
        super().__init__(f"{request.get('op')} refused: {error.get('code')}: "
                         f"{error.get('message')}")  # fmt: skip
        self.error = dict(error)


@dataclass
class Result:
    """One answer: ``ok`` and its ``result`` (events, log, state) or its ``error``."""

    request: dict[str, Any]
    ok: bool
    result: dict[str, Any] = field(default_factory=dict)
    error: dict[str, Any] = field(default_factory=dict)

    @property
    def events(self) -> list[dict[str, Any]]:
        events: list[dict[str, Any]] = self.result.get("events", [])
        return events

    @property
    def log(self) -> list[str]:
        """The log lines a player reads, as text."""
        return [line["text"] for line in self.result.get("log", [])]

    @property
    def state(self) -> dict[str, Any]:
        state: dict[str, Any] = self.result.get("state", {})
        return state

    def events_of(self, event_type: str, **fields: Any) -> list[dict[str, Any]]:
        """The events of a type whose fields have these values."""
        return [e for e in self.events if e.get("type") == event_type
                and all(e.get(k) == v for k, v in fields.items())]  # fmt: skip

    def expect_event(self, event_type: str, **fields: Any) -> dict[str, Any]:
        """The first event of a type with these field values; fails the test when none."""
        found = self.events_of(event_type, **fields)
        if not found:
            seen = [e.get("type") for e in self.events]
            raise AssertionError(f"no {event_type} event with {fields} (events: {seen})")
        return found[0]

    def expect_no_event(self, event_type: str, **fields: Any) -> None:
        found = self.events_of(event_type, **fields)
        if found:
            raise AssertionError(f"unexpected {event_type} event: {found[0]}")

    def expect_log(self, text: str) -> None:
        """Some log line contains ``text``."""
        if not any(text in line for line in self.log):
            raise AssertionError(f"no log line contains {text!r}: {self.log}")

    def expect_error(self, code: str) -> dict[str, Any]:
        if self.ok or self.error.get("code") != code:
            raise AssertionError(f"expected error {code!r}, got "
                                 f"{self.error if not self.ok else 'success'}")  # fmt: skip
        return self.error


class Session:
    """An open battle: every method sends one request and returns its :class:`Result`;
    a refused request fails the test unless ``expect`` names its error code."""

    def __init__(self, game: Game, session: str, opened: Result) -> None:
        self.game, self.id, self.opened = game, session, opened

    def send(self, op: str, expect: str | None = None, **fields: Any) -> Result:
        return self.game.send({"op": op, "session": self.id, **fields}, expect)

    def play(self, card: str, target: Any = None, choices: Mapping[str, Any] | None = None,
             expect: str | None = None) -> Result:  # fmt: skip
        fields: dict[str, Any] = {"card": card}
        if target is not None:
            fields["target"] = target
        if choices is not None:
            fields["choices"] = dict(choices)
        return self.send("play", expect, **fields)

    def activate(self, card: str, target: Any = None, expect: str | None = None) -> Result:
        fields: dict[str, Any] = {"card": card}
        if target is not None:
            fields["target"] = target
        return self.send("activate", expect, **fields)

    def pass_priority(self, choices: Mapping[str, Any] | None = None,
                      expect: str | None = None) -> Result:  # fmt: skip
        return self.send("pass", expect, choices=dict(choices or {}))

    def resolve(self, choices: Mapping[str, Any] | None = None, expect: str | None = None
                ) -> Result:  # fmt: skip
        return self.send("resolve", expect, choices=dict(choices or {}))

    def end_turn(self, expect: str | None = None) -> Result:
        return self.send("end_turn", expect)

    def targets(self, card: str) -> dict[str, Any]:
        return self.send("targets", card=card).result

    def preview(self, card: str, target: Any = None) -> Result:
        return self.send("preview", card=card, target=target)

    @property
    def state(self) -> dict[str, Any]:
        state: dict[str, Any] = self.send("state").result["state"]
        return state

    def unit(self, unit_id: str) -> dict[str, Any]:
        """One unit's state; fails the test naming the units there are when none has the id."""
        units: list[dict[str, Any]] = self.state["units"]
        for unit in units:
            if unit["id"] == unit_id:
                return unit
        there = ", ".join(repr(u["id"]) for u in units) or "none"
        raise AssertionError(f"no unit {unit_id!r} in the battle (units: {there})")

    def pile(self, pile: str) -> list[str]:
        """The card instance ids of a pile, top first."""
        return [card["id"] for card in self.state["piles"][pile]]


class Game:
    """The runtime as a game's tests see it: the project's extensions loaded, its files
    read relative to the project."""

    def __init__(self, project: Path | None, extension_files: Sequence[Path] = ()) -> None:
        self.project = project
        files = list(extension_files)
        if project is not None and not files:
            files = extensions.project_extensions(project)
        self.words = extensions.load(files).words if files else None
        self.protocol: Protocol = new_protocol(words=self.words)

    def path(self, name: str | Path) -> Path:
        path = Path(name)
        if path.is_absolute() or self.project is None:
            return path
        return self.project / path

    def document(self, document: str | Path | Mapping[str, Any]) -> Any:
        """A JSON document: a path (relative to the project) or the document itself."""
        if isinstance(document, Mapping):
            return dict(document)
        return json.loads(self.path(document).read_text("utf-8"))

    def send(self, request: Mapping[str, Any], expect: str | None = None) -> Result:
        result = self._answer(request)
        if expect is not None:
            result.expect_error(expect)
        elif not result.ok:
            raise RequestFailed(request, result.error)
        return result

    def _answer(self, request: Mapping[str, Any]) -> Result:
        """The answer to one request, taken as it is (a refusal too)."""
        answer = json.loads(self.protocol.call(json.dumps(request)))
        return Result(dict(request), answer["ok"], answer.get("result", {}),
                      answer.get("error", {}))  # fmt: skip

    def open(self, battle: str | Path | Mapping[str, Any],
             libraries: Sequence[str | Path | Mapping[str, Any]] = ()) -> Session:  # fmt: skip
        request = {"op": "open", "battle": self.document(battle),
                   "libraries": [self.document(lib) for lib in libraries]}  # fmt: skip
        opened = self.send(request)
        return Session(self, opened.result["session"], opened)

    def lint(self, document: str | Path | Mapping[str, Any]) -> list[dict[str, Any]]:
        diagnostics: list[dict[str, Any]] = self.send(
            {"op": "lint", "document": self.document(document)}
        ).result["diagnostics"]
        return diagnostics

    def assert_library_clean(self, library: str | Path | Mapping[str, Any]) -> None:
        """Every card of the library lints clean (no diagnostic at all) and its authored text
        is the text the runtime writes from its Behavior."""
        document = self.document(library)
        found = self.lint(document)
        problems = [_finding(d) for d in found]
        named = {d["id"] for d in found if d.get("id") is not None}
        for index, card in enumerate(document.get("cards", [])):
            ident = card.get("id") if isinstance(card, Mapping) else None
            said = f"card {ident!r}" if isinstance(ident, str) else f"cards[{index}]"
            described = self._answer({"op": "describe", "definition": card})
            if not described.ok:  # lint names a card that does not load; others are said here
                if ident not in named:
                    problems.append(f"{said}: cannot be described: "
                                    f"{described.error.get('message')}")  # fmt: skip
            elif described.result["text"] != described.result["authored"]:
                problems.append(f"{said}: its text {described.result['authored']!r} is not "
                                f"what it does: {described.result['text']!r}")  # fmt: skip
        if problems:
            raise AssertionError("the library is not clean:\n  " + "\n  ".join(problems))


def _finding(diagnostic: Mapping[str, Any]) -> str:
    """A lint diagnostic as one line naming its card (move, status) and where in it."""
    ident, message = diagnostic.get("id"), str(diagnostic["message"])
    what = f"{diagnostic.get('kind') or 'card'} {ident!r}" if ident is not None else "the library"
    if message.startswith(what):  # the loader's message names it already
        return f"{diagnostic['code']} {message}"
    where = ", ".join(f"{key} {diagnostic[key]!r}" for key in ("node", "field")
                      if diagnostic.get(key))  # fmt: skip
    return f"{diagnostic['code']} {what}{f' ({where})' if where else ''}: {message}"


def find_project(start: Path) -> Path | None:
    """The nearest folder at or above ``start`` that holds a ``project.godot``."""
    for folder in (start, *start.parents):
        if (folder / "project.godot").is_file():
            return folder
    return None


# -- the pytest plugin ----------------------------------------------------------------------
def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("pybridge", "pybridge targeting: a game's own cards")
    group.addoption("--pybridge-project", metavar="DIR",
                    help="the Godot project whose extensions the game fixture loads")  # fmt: skip
    parser.addini("pybridge_project", "the Godot project whose extensions the game fixture loads")


@pytest.fixture
def pybridge_project(request: pytest.FixtureRequest) -> Path | None:
    """The Godot project the tests are about."""
    config = request.config
    given = config.getoption("--pybridge-project")
    if given:  # the command line's: relative to where pytest runs
        return Path(str(given)).resolve()
    setting = config.getini("pybridge_project")
    if setting:  # the ini file's: relative to the folder of that file
        base = config.inipath.parent if config.inipath is not None else config.rootpath
        return (base / str(setting)).resolve()
    return find_project(Path(str(request.path)).parent)


@pytest.fixture
def game(pybridge_project: Path | None) -> Iterator[Game]:
    """The runtime with the project's extensions, fresh for each test."""
    yield Game(pybridge_project)
