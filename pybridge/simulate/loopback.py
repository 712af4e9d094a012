"""A real Dask cluster on this machine's loopback interface, for tests and for measuring
scaling: ``dask scheduler`` and N ``dask worker`` processes (one thread each, no nanny, no
dashboard), started as subprocesses and stopped by their process ids.

Not how a run uses a cluster (``--cluster`` connects to one that already exists); this
stands one up the way an operator would, with the same commands.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from types import TracebackType

START_TIMEOUT = 60.0


def _dask_command() -> list[str]:
    beside = Path(sys.executable).with_name("dask")
    if beside.exists():
        return [str(beside)]
    found = shutil.which("dask")
    if found is None:
        raise RuntimeError("the dask command is not installed (the 'sim' extra)")
    return [found]


class LoopbackCluster:
    """``with LoopbackCluster(workers=2) as cluster: ... cluster.address``."""

    def __init__(self, workers: int = 2, timeout: float = START_TIMEOUT,
                 python_path: list[Path] | None = None) -> None:  # fmt: skip
        """``python_path``: directories the workers can import from (a custom policy's)."""
        self.workers, self.timeout = workers, timeout
        self.env = dict(os.environ)
        if python_path:
            paths = [str(p) for p in python_path] + [self.env.get("PYTHONPATH", "")]
            self.env["PYTHONPATH"] = os.pathsep.join(p for p in paths if p)
        self.processes: list[subprocess.Popen[bytes]] = []
        self.address = ""
        self._temp = tempfile.TemporaryDirectory(prefix="pybridge-dask-")

    def _start(self, *args: str) -> subprocess.Popen[bytes]:
        log = open(Path(self._temp.name) / f"{len(self.processes)}.log", "wb")  # noqa: SIM115
        process = subprocess.Popen([*_dask_command(), *args], stdout=log, stderr=log,
                                   cwd=self._temp.name, env=self.env)  # fmt: skip
        log.close()
        self.processes.append(process)
        return process

    def start(self) -> LoopbackCluster:
        directory = Path(self._temp.name)
        scheduler_file = directory / "scheduler.json"
        self._start("scheduler", "--host", "127.0.0.1", "--port", "0", "--no-dashboard",
                    "--scheduler-file", str(scheduler_file))  # fmt: skip
        self.address = self._wait_for_address(scheduler_file)
        for index in range(self.workers):
            self._start("worker", self.address, "--host", "127.0.0.1", "--nthreads", "1",
                        "--no-nanny", "--no-dashboard", "--name", f"worker-{index}",
                        "--local-directory", str(directory / f"worker-{index}"),
                        "--death-timeout", "30")  # fmt: skip
        if self.workers:  # a scheduler alone is ready once its address is written
            self._wait_for_workers()
        return self

    def _wait_for_address(self, scheduler_file: Path) -> str:
        deadline = time.monotonic() + self.timeout
        while time.monotonic() < deadline:
            self._check_alive()
            try:
                address = str(json.loads(scheduler_file.read_text("utf-8"))["address"])
            except (OSError, ValueError, KeyError):
                time.sleep(0.1)
                continue
            return address
        raise RuntimeError(f"the Dask scheduler did not start in {self.timeout:.0f} s:\n"
                           + self.logs())  # fmt: skip

    def _wait_for_workers(self) -> None:
        from distributed import Client

        with Client(self.address, timeout=self.timeout, set_as_default=False) as client:
            client.wait_for_workers(self.workers, timeout=self.timeout)

    def _check_alive(self) -> None:
        for process in self.processes:
            if process.poll() is not None:
                raise RuntimeError(f"a Dask process exited ({process.returncode}):\n"
                                   + self.logs())  # fmt: skip

    def logs(self) -> str:
        return "\n".join(path.read_text("utf-8", "replace")[-2000:]
                         for path in sorted(Path(self._temp.name).glob("*.log")))  # fmt: skip

    def stop(self) -> None:
        """Workers first, then the scheduler: SIGTERM by pid, SIGKILL if one lingers."""
        for process in reversed(self.processes):
            if process.poll() is None:
                os.kill(process.pid, signal.SIGTERM)
        for process in reversed(self.processes):
            try:
                process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                os.kill(process.pid, signal.SIGKILL)
                process.wait(timeout=15)
        self.processes.clear()
        self._temp.cleanup()

    def __enter__(self) -> LoopbackCluster:
        try:
            return self.start()
        except BaseException:
            self.stop()
            raise

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:  # fmt: skip
        self.stop()
