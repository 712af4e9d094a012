"""Card data is untrusted: nothing in the package can turn it into code, imports or file access.

Two halves: a scan of the package's source (no eval/exec/compile/__import__, no dynamic
import, no pickle/marshal/shelve, no shell or subprocess outside the listed tooling modules,
and a runtime that does no I/O at all), and a malicious battle file played through every
operation under an audit hook that trips on any code execution, import, file or process
access, with a canary file that must never appear.
"""

from __future__ import annotations

import ast
import json
import os
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import pybridge
from pybridge.protocol import Protocol
from pybridge.runtime import FormatError, load_battle
from pybridge.runtime.narrate import narrate_all

from .builders import battle_doc, card, unit

PACKAGE = Path(pybridge.__file__).resolve().parent

#: Calls of these builtins turn text into code.
FORBIDDEN_BUILTINS = {"eval", "exec", "compile", "__import__", "breakpoint"}
#: Modules that deserialize code or objects, or run other programs: never imported...
FORBIDDEN_MODULES = {
    "pickle",
    "cPickle",
    "_pickle",
    "marshal",
    "shelve",
    "dill",
    "cloudpickle",
    "runpy",
    "code",
    "codeop",
    "pty",
    "subprocess",
    "ctypes",
    "multiprocessing",
}
#: ...except by these tooling modules, which never see card data as anything but JSON text.
ALLOWED_IMPORTS: dict[str, dict[str, str]] = {
    "subprocess": {
        "devtools/bench/bridge.py": "runs the stdio server and a small C program to time the "
        "transports",
        "devtools/bench/browser.py": "drives the headless browser that times the web transport",
        "devtools/bench/online.py": "starts redis-server and the WebSocket server whose duels it "
        "times",
        "devtools/fuzzing.py": "runs the fuzzer in a child process, so a crash is caught and "
        "reported",
        "simulate/loopback.py": "starts a Dask scheduler and workers on loopback (tests, scaling)",
        "simulate/speed.py": "reads the earlier revision out of git and times its loop beside "
        "this checkout's, pure and compiled",
        "simulate/speed_web.py": "times both revisions' pure loops in Pyodide under Node.js",
        "simulate/speed_count.py": "counts both revisions' instructions a battle in child "
        "processes",
        "devtools/compiled.py": "runs mypyc on a copy of the runtime's sources",
        "devtools/build/bundle.py": "strips the libraries a bundle carries",
        "devtools/build/build.py": "runs the mingw-w64 cross-compiler for the Windows library",
        "devtools/build/windows.py": "fetches the pinned Windows CPython with pip, checks its "
        "signatures with osslsigncode and lists its exports with the mingw tools",
        "devtools/build/stdlib.py": "traces the package's imports in a fresh interpreter of its "
        "own",
        "devtools/release.py": "runs git archive, python -m build and twine check",
    },
    "ctypes": {
        "devtools/fuzzing.py": "loads libpybridge.so to fuzz its C ABI",
    },
    "multiprocessing": {
        "simulate/local.py": "plays batches of battles in worker processes (parsed documents and "
        "the policy's name travel; no file is unpickled)",
    },
}
#: Modules that import a module named at run time: the one the user typed on the command line.
RUN_TIME_IMPORTS = {
    "simulate/policies.py": "imports the policy module the user names with --policy "
    "module:attribute; card data never names code",
    "extensions.py": "imports the extension modules the game's own project names (its "
    "extension list, or a host's --extension); card data never names code",
}
#: Functions of ``os`` that run programs.
FORBIDDEN_OS = {
    "system",
    "popen",
    "execl",
    "execle",
    "execlp",
    "execlpe",
    "execv",
    "execve",
    "execvp",
    "execvpe",
    "spawnl",
    "spawnle",
    "spawnlp",
    "spawnlpe",
    "spawnv",
    "spawnve",
    "spawnvp",
    "spawnvpe",
    "posix_spawn",
    "posix_spawnp",
    "fork",
    "forkpty",
}
#: What the pure runtime and the protocol may import: the standard library's pure parts.
PURE_IMPORTS = {
    "__future__",
    "contextlib",
    "collections",
    "difflib",
    "collections.abc",
    "dataclasses",
    "enum",
    "json",
    "math",
    "operator",
    "typing",
    "itertools",
    "functools",
    "re",
    "reprlib",
    "threading",
    "types",  # MappingProxyType: the read-only default tables
    "hashlib",  # the views' opaque card ids (HMAC-SHA-256)
    "hmac",
    "copy",  # a determinization deep-copies the plain data of the view it is given
}
PURE_MODULES = ("runtime/", "words/", "extend.py", "protocol.py", "answers.py")
#: ...and what one of them may import besides, with why.
PURE_EXTRA: dict[str, dict[str, str]] = {
    "protocol.py": {
        "sys": "the version answer names the interpreter: version, prefix, path",
        "os": "a battle that gives views draws its secret with os.urandom, once, at the edge",
    },
    "extend.py": {
        "string": "a message's placeholders are checked with string.Formatter",
        "traceback": "a debug build tells an extension's fault with its file and line",
    },
}
#: The pure parts outside runtime/ that pure modules may import: the extension API and the
#: built-in words declared through it (which the runtime's built-in vocabulary is made of).
PURE_PACKAGE = frozenset({"pybridge", "pybridge.extend", "pybridge.words"})


def _pure_package(name: str) -> bool:
    """``pybridge.extend`` or a name it exports (``pybridge.extend.Words``), likewise
    ``pybridge.words``; ``pybridge`` itself only as ``from pybridge import words``; and a
    module of the pure runtime by its absolute name (``pybridge.runtime.vocabulary``, which a
    function imports that way because a relative import asks the package's spec each call)."""
    if name.startswith("pybridge.runtime."):
        return True
    return name in PURE_PACKAGE or name.rpartition(".")[0] in PURE_PACKAGE - {"pybridge"}


def package_sources() -> Iterator[tuple[str, ast.Module]]:
    for path in sorted(PACKAGE.rglob("*.py")):
        relative = path.relative_to(PACKAGE).as_posix()
        yield relative, ast.parse(path.read_text("utf-8"), filename=relative)


def _imports(tree: ast.Module) -> Iterator[tuple[int, str]]:
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            yield node.lineno, node.module
            for alias in node.names:  # ``from importlib import import_module`` and the like
                yield node.lineno, f"{node.module}.{alias.name}"


def _dotted(node: ast.expr) -> str:
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        parts.append(node.id)
    return ".".join(reversed(parts))


def findings(relative: str, tree: ast.Module) -> list[str]:
    found = []
    for line, name in _imports(tree):
        top = name.split(".")[0]
        if top in FORBIDDEN_MODULES and relative not in ALLOWED_IMPORTS.get(top, {}):
            found.append(f"{relative}:{line}: imports {name}")
        if (
            top == "importlib"
            and name not in ("importlib", "importlib.resources")
            and not (name == "importlib.util" and relative in RUN_TIME_IMPORTS)
        ):
            found.append(f"{relative}:{line}: imports {name}")
        if (
            relative.startswith(PURE_MODULES)
            and top not in PURE_IMPORTS
            and name not in PURE_IMPORTS
            and name not in PURE_EXTRA.get(relative, {})
            and not _pure_package(name)
        ):
            found.append(f"{relative}:{line}: the pure runtime imports {name}")
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        name = _dotted(node.func)
        if name in FORBIDDEN_BUILTINS or name in {f"builtins.{b}" for b in FORBIDDEN_BUILTINS}:
            found.append(f"{relative}:{node.lineno}: calls {name}()")
        if (
            name == "importlib.import_module"
            and not (node.args and isinstance(node.args[0], ast.Constant))
            and relative not in RUN_TIME_IMPORTS
        ):
            found.append(f"{relative}:{node.lineno}: imports a module named at run time")
        if name.startswith("os.") and name[3:] in FORBIDDEN_OS:
            found.append(f"{relative}:{node.lineno}: calls {name}()")
        if (
            name in ("getattr", "setattr")
            and len(node.args) >= 2
            and isinstance(node.args[0], ast.Name)
            and node.args[0].id == "builtins"
        ):
            found.append(f"{relative}:{node.lineno}: reaches into builtins with {name}()")
        if relative.startswith(PURE_MODULES) and name in ("open", "input", "print"):
            found.append(f"{relative}:{node.lineno}: the pure runtime calls {name}()")
    return found


def test_the_package_never_turns_data_into_code() -> None:
    sources = list(package_sources())
    assert len(sources) > 20 and any(r == "runtime/document.py" for r, _ in sources)
    problems = [problem for relative, tree in sources for problem in findings(relative, tree)]
    assert problems == []


@pytest.mark.parametrize(
    ("source", "problem"),
    [
        ("eval(text)", "calls eval()"),
        ("exec(text)", "calls exec()"),
        ("compile(text, 'x', 'exec')", "calls compile()"),
        ("__import__(name)", "calls __import__()"),
        ("import builtins\nbuiltins.eval(text)", "calls builtins.eval()"),
        ("getattr(builtins, 'ev' + 'al')", "reaches into builtins"),
        ("import importlib\nimportlib.import_module(name)", "named at run time"),
        ("from importlib import import_module", "imports importlib.import_module"),
        ("import pickle", "imports pickle"),
        ("from marshal import loads", "imports marshal"),
        ("import shelve", "imports shelve"),
        ("import os\nos.system(text)", "calls os.system()"),
        ("import os\nos.popen(text)", "calls os.popen()"),
        ("import subprocess", "imports subprocess"),
        ("import ctypes", "imports ctypes"),
    ],
)
def test_the_scan_catches_each_pattern(source: str, problem: str) -> None:
    found = findings("authoring/example.py", ast.parse(source))
    assert any(problem in f for f in found), found
    assert findings("devtools/fuzzing.py", ast.parse("import subprocess\nimport ctypes")) == []
    assert findings("runtime/x.py", ast.parse("import os"))  # the runtime does no I/O
    assert findings("runtime/x.py", ast.parse("open('f')"))
    assert findings("examples/x.py", ast.parse("from importlib import resources")) == []


# -- a malicious card file ----------------------------------------------------------------------
CANARY = "pybridge-canary"
CODE = f"__import__('os').system('touch {CANARY}') or open('{CANARY}', 'w')"
FORMATS = (
    "{0.__class__.__mro__}",
    "{battle.__dict__}",
    "%s%s%s%n",
    "${jndi:ldap://127.0.0.1}",
    "{{7*7}}",
    "\x00\x1b[2J",
)
#: Free text a strict JSON parser (Godot's) cannot read back: refused wherever it appears.
SURROGATE = "a\ud800b"
PATHS = ("../../etc/passwd", "/etc/passwd", f"./{CANARY}", "C:\\Windows\\win.ini")
KEYS = ("__class__", "__init__", "__proto__", "constructor", "__dict__", "__globals__")


def malicious_battle() -> dict[str, Any]:
    """Every free-text field carries code, format strings or paths; they must load as inert
    text and come back verbatim."""
    texts = [CODE, *FORMATS, *PATHS]
    cards = [
        card(
            f"c{i}",
            "SingleEnemy",
            {"id": "hit", "type": "DealDamage", "amount": 3, "source": "Opponent"},
            name=text[:200],
            text=text,
        )
        for i, text in enumerate(texts)
    ]
    units = [
        unit("hero", "player", 30, name=CODE[:200]),
        unit("imp", name=FORMATS[0]),
        unit("ogre", name=PATHS[0]),
    ]
    statuses = [
        {
            "id": "burn",
            "name": FORMATS[1],
            "text": CODE,
            "hooks": {
                "turn_end": {
                    "start": "b",
                    "nodes": [
                        {"id": "b", "type": "DealDamage", "amount": "stacks", "source": "Self"}
                    ],
                }
            },
        }
    ]
    units[1]["statuses"] = {"burn": 2, "__dict__": 1}
    # Dunder-like words are valid ids: loaded as plain data, never looked up as attributes.
    units.append(unit("__proto__", "enemy", name="__init__", tags=["__class__"]))
    cards.append(
        card(
            "__class__",
            "AllEnemies",
            {"id": "__init__", "type": "ApplyStatus", "status": "__globals__", "source": "Target"},
        )
    )
    doc = battle_doc(cards, units=units, hand=[c["id"] for c in cards], statuses=statuses)
    doc["piles"]["draw"] = [{"id": "__dict__", "card": "__class__"}]
    doc["cards"][0]["behavior"]["nodes"].append(
        {
            "id": "ok",
            "type": "Condition",
            "test": "compare",
            "measure": "energy",
            "op": ">=",
            "value": 0,
        }
    )
    doc["cards"][0]["playable_if"] = [{"condition": "ok", "reason": CODE[:200]}]
    return doc


def refused_variants() -> Iterator[tuple[str, dict[str, Any]]]:
    """Where a value is an id, a node type or a field name, the same payloads are refused."""
    doc = battle_doc([card("c", "None", text=SURROGATE)])
    yield "cards[0].text", doc
    doc = battle_doc()
    doc["units"][0]["name"] = SURROGATE
    yield "units[0].name", doc
    for payload in (CODE, *FORMATS, SURROGATE, *PATHS, *KEYS):
        if payload not in KEYS:  # those are valid ids (see malicious_battle)
            doc = battle_doc([card("c", "None")], hand=["c"])
            doc["units"][0]["id"] = payload
            yield "units[0].id", doc
        doc = battle_doc([card("c", "None", {"id": "a", "type": payload, "source": "Self"})])
        yield "cards[0].behavior.nodes[0].type", doc
        doc = battle_doc(
            [card("c", "None", {"id": "a", "type": "Heal", "amount": 1, "source": payload})]
        )
        yield "cards[0].behavior.nodes[0].source", doc
        doc = battle_doc([card("c", payload[:40])])
        yield "cards[0].target", doc
    for key in KEYS:
        doc = battle_doc([card("c", "None")])
        doc["units"][0][key] = CODE
        yield f"units[0].{key}", doc
        doc = battle_doc([card("c", "None")])
        doc["cards"][0]["behavior"] = {"nodes": [], key: CODE}
        yield f"cards[0].behavior.{key}", doc


class Tripwire:
    """An audit hook that records code execution, imports, and file or process access while
    armed (audit hooks cannot be removed, so it is installed once and disarmed after)."""

    WATCHED = (
        "exec",
        "compile",
        "import",
        "open",
        "os.",
        "subprocess.",
        "shutil.",
        "socket.",
        "ctypes.",
        "pickle.",
        "marshal.",
        "sys.addaudithook",
        "builtins.input",
    )
    _installed: Tripwire | None = None

    def __init__(self) -> None:
        self.armed_thread: int | None = None
        self.seen: list[str] = []

    @classmethod
    def get(cls) -> Tripwire:
        if cls._installed is None:
            cls._installed = cls()
            sys.addaudithook(cls._installed.hook)
        return cls._installed

    def hook(self, event: str, args: tuple[Any, ...]) -> None:
        if self.armed_thread == threading.get_ident() and event.startswith(self.WATCHED):
            self.seen.append(f"{event} {args!r:.200}")


def exercise(proto: Protocol, doc: dict[str, Any]) -> list[dict[str, Any]]:
    """Every operation on the battle; returns the responses."""
    responses = []

    def send(**request: Any) -> dict[str, Any]:
        answer: dict[str, Any] = json.loads(proto.call(json.dumps(request)))
        responses.append(answer)
        return answer

    opened = send(op="open", battle=doc)
    assert opened["ok"], opened
    session = opened["result"]["session"]
    hand = [c["id"] for c in opened["result"]["state"]["piles"]["hand"]]
    for card_id in hand:
        send(op="targets", session=session, card=card_id)
        send(op="preview", session=session, card=card_id, target="imp")
    send(op="play", session=session, card=hand[1], target="imp")
    send(op="activate", session=session, card=hand[2], target="ogre")
    send(op="cut", session=session)
    send(op="resolve", session=session)
    send(op="end_turn", session=session)
    state = send(op="state", session=session)["result"]["state"]
    send(op="open", battle=state)
    send(op="close", session=session)
    return responses


def test_a_malicious_card_file_is_inert(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    exercise(
        Protocol(),
        battle_doc(
            [
                card(
                    "warm",
                    "SingleEnemy",
                    {"id": "h", "type": "DealDamage", "amount": 1, "source": "Opponent"},
                )
            ],
            hand=["warm"] * 3,
        ),
    )
    doc = malicious_battle()
    proto = Protocol()
    tripwire = Tripwire.get()
    tripwire.seen.clear()
    tripwire.armed_thread = threading.get_ident()
    try:
        responses = exercise(proto, doc)
        battle = load_battle(doc)
        lines = narrate_all(
            battle, [e for r in responses for e in r.get("result", {}).get("events", [])]
        )
        refusals = [
            (where, proto.call(json.dumps({"op": "open", "battle": bad})))
            for where, bad in refused_variants()
        ]
    finally:
        tripwire.armed_thread = None
    assert tripwire.seen == []  # no code ran, nothing was imported, opened or started
    assert not (tmp_path / CANARY).exists() and os.listdir(tmp_path) == []
    assert all(r["ok"] or r["error"]["code"] != "internal_error" for r in responses)
    # Free text comes back verbatim, never interpreted.
    played = [
        e
        for r in responses
        if r["ok"]
        for e in r["result"].get("events", [])
        if e["type"] == "card_played"
    ]
    names = {c["name"] for c in doc["cards"]}
    assert played and {e["name"] for e in played} <= names
    state = responses[-3]["result"]["state"]
    assert {c["text"] for c in state["cards"]} == {c.get("text", "") for c in doc["cards"]}
    assert [u["name"] for u in state["units"]] == [u["name"] for u in doc["units"]]
    text = "\n".join(line["text"] for line in lines)
    assert CODE[:200] in text and "<class" not in text and "mappingproxy" not in text
    for where, answer in refusals:
        error = json.loads(answer)["error"]
        assert error["code"] == "invalid_field" and error["where"].startswith(f"battle.{where}")


def test_the_python_loader_refuses_the_same_payloads() -> None:
    for where, doc in refused_variants():
        with pytest.raises(FormatError) as info:
            load_battle(doc)
        assert info.value.where.startswith(where), (where, str(info.value))


def test_the_tripwire_trips(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The audit hook above would have seen code running or a file opening."""
    monkeypatch.chdir(tmp_path)
    tripwire = Tripwire.get()
    tripwire.seen.clear()
    tripwire.armed_thread = threading.get_ident()
    try:
        eval("1 + 1")  # the very thing the package must never do
        Path(CANARY).write_text("x")
    finally:
        tripwire.armed_thread = None
    assert any(e.startswith("exec") for e in tripwire.seen)
    assert any(e.startswith("open") and CANARY in e for e in tripwire.seen)
