"""A progress bar for long runs (tqdm, from the ``sim`` extra), or nothing without it."""

from __future__ import annotations

import sys
from types import TracebackType
from typing import Any


class Progress:
    """Counts battles as batches finish; draws a tqdm bar on stderr when enabled and tqdm
    is installed."""

    def __init__(self, total: int, enabled: bool, description: str = "battles") -> None:
        self._bar: Any = None
        if enabled:
            try:
                from tqdm import tqdm
            except ImportError:
                print("pybridge simulate: install the 'sim' extra for a progress bar",
                      file=sys.stderr)  # fmt: skip
            else:
                self._bar = tqdm(total=total, unit="battle", desc=description, file=sys.stderr,
                                 dynamic_ncols=True, smoothing=0.1)  # fmt: skip

    def advance(self, battles: int) -> None:
        if self._bar is not None:
            self._bar.update(battles)

    def close(self) -> None:
        if self._bar is not None:
            self._bar.close()
            self._bar = None

    def __enter__(self) -> Progress:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:  # fmt: skip
        self.close()
