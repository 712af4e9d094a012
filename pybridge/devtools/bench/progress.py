"""A plain-text progress line on stderr, rewritten in place with a carriage return."""

from __future__ import annotations

import sys
import time
from typing import TextIO


class ProgressBar:
    """``[#####.....]  120/600 battles  48.1/s``; redrawn at most ten times a second."""

    def __init__(
        self,
        total: int,
        unit: str,
        enabled: bool = True,
        stream: TextIO | None = None,
        width: int = 30,
    ) -> None:
        self.total, self.unit, self.enabled, self.width = max(1, total), unit, enabled, width
        self.stream = stream if stream is not None else sys.stderr
        self.done = 0
        self.started = time.perf_counter()
        self._drawn = 0.0

    def advance(self, count: int = 1) -> None:
        self.done += count
        now = time.perf_counter()
        if self.enabled and (now - self._drawn >= 0.1 or self.done >= self.total):
            self._drawn = now
            self._draw(now)

    def _draw(self, now: float) -> None:
        filled = self.width * min(self.done, self.total) // self.total
        rate = self.done / max(now - self.started, 1e-9)
        bar = "#" * filled + "." * (self.width - filled)
        self.stream.write(f"\r[{bar}] {self.done:>6}/{self.total} {self.unit} {rate:8.1f}/s ")
        self.stream.flush()

    def close(self) -> None:
        if self.enabled:
            self._draw(time.perf_counter())
            self.stream.write("\n")
            self.stream.flush()


def status(message: str, enabled: bool = True) -> None:
    """One line saying what the bench is doing now."""
    if enabled:
        print(f"pybridge bench: {message}", file=sys.stderr, flush=True)
