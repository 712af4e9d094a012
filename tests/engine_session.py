"""A Godot project running in the real engine (headless Chromium), driven line by line.

:func:`engine_session` serves a prepared site, boots it with ``web/drive.mjs`` in interactive
mode and yields an :class:`EngineSession` once the engine printed the sentinel: ``do()`` runs
mouse, key, wait and screenshot actions in the page and collects every line the engine
printed since. One boot serves a whole test module.
"""

from __future__ import annotations

import json
import queue
import shutil
import subprocess
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

import pytest

from pybridge.web import WEB_DIR, Site, StaticHandler, serve

ARTIFACTS = Path(__file__).resolve().parent.parent / "artifacts"
WIDTH, HEIGHT = 1280, 720


class EngineSession:
    """The running page: send actions, read what the engine printed."""

    def __init__(
        self, process: subprocess.Popen[str], answers: queue.Queue[str], report: Path
    ) -> None:
        self.process = process
        self.answers = answers
        self.report = report
        self.lines: list[str] = []
        self.errors: list[str] = []
        self._next = 1

    def receive(self, timeout: float = 180.0) -> dict[str, Any]:
        try:
            text = self.answers.get(timeout=timeout)
        except queue.Empty:
            pytest.fail(f"the driver said nothing for {timeout} s")
        if not text:
            self.process.wait(timeout=60)
            found = json.loads(self.report.read_text()) if self.report.exists() else {}
            pytest.fail(
                f"the driver exited: {found.get('failure')}\n"
                f"printed: {found.get('printed', [])[-10:]}\nerrors: {found.get('errors')}"
            )
        answer: dict[str, Any] = json.loads(text)
        self.lines += answer.get("printed", [])
        self.errors += answer.get("errors", [])
        return answer

    def do(self, *actions: dict[str, Any]) -> None:
        """Run ``actions`` in the page (see web/drive.mjs); fail on a failed wait."""
        command = {"id": self._next, "actions": list(actions)}
        self._next += 1
        assert self.process.stdin is not None
        self.process.stdin.write(json.dumps(command) + "\n")
        self.process.stdin.flush()
        answer = self.receive()
        assert answer["ok"], f"{answer['failure']}\nlast lines: {self.lines[-8:]}"

    def mark(self) -> int:
        return len(self.lines)

    def after(self, start: str, since: int = 0) -> list[str]:
        """What follows ``start`` on every line that starts with it, from index ``since``."""
        return [t[len(start) :] for t in self.lines[since:] if t.startswith(start)]

    def wait_line(self, start: str, since: int) -> str:
        """Wait for a line starting with ``start`` at or after ``since``; the rest of it."""
        self.do({"wait_for": start, "from": since})
        found = [t for t in self.after(start, since)]
        assert found, f"no line starting {start!r} after {since}: {self.lines[since:]}"
        return found[0]


def _pump(stream: Any, answers: queue.Queue[str]) -> None:
    for text in stream:
        answers.put(text)
    answers.put("")


S = TypeVar("S", bound=EngineSession)


@contextmanager
def engine_session(
    site: Site,
    work: Path,
    sentinel: str,
    log_name: str,
    kind: type[S],
    handler: type[StaticHandler] = StaticHandler,
) -> Iterator[S]:
    """Serve ``site`` (with ``handler``, e.g. one that also takes the Workshop's saves) and boot
    it in Chromium; yields a ``kind`` session once ``sentinel`` is printed. The lines it
    printed are kept in ``artifacts/<log_name>``."""
    started = time.monotonic()
    ARTIFACTS.mkdir(exist_ok=True)
    with serve(site.root, handler=handler) as url:
        config = {
            "url": url,
            "chromium": shutil.which("chromium"),
            "user_data_dir": str(work / "profile"),
            "report": str(work / "report.json"),
            "sentinel": sentinel,
            "timeout_ms": 120_000,
            "width": WIDTH,
            "height": HEIGHT,
            "interactive": True,
            "fail_on_script_error": True,
        }
        (work / "drive.json").write_text(json.dumps(config))
        with (work / "driver.log").open("w") as log:
            process = subprocess.Popen(
                [
                    shutil.which("node") or "node",
                    str(WEB_DIR / "drive.mjs"),
                    str(work / "drive.json"),
                ],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=log,
                text=True,
                cwd=WEB_DIR,
            )
            answers: queue.Queue[str] = queue.Queue()
            threading.Thread(target=_pump, args=(process.stdout, answers), daemon=True).start()
            session = kind(process, answers, work / "report.json")
            try:
                session.receive(timeout=240)
                booted = time.monotonic() - started
                print(f"\n{log_name}: built, served and booted to {sentinel!r} in {booted:.1f} s")
                yield session
            finally:
                assert process.stdin is not None
                process.stdin.close()
                try:
                    process.wait(timeout=60)
                except subprocess.TimeoutExpired:
                    process.kill()
                    process.wait()
                (ARTIFACTS / log_name).write_text("\n".join(session.lines) + "\n")
                print(f"{log_name}: whole module {time.monotonic() - started:.1f} s")
