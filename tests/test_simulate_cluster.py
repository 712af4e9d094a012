"""``pybridge simulate --cluster``: a real Dask cluster on loopback (a scheduler and two
worker processes, started and stopped by pid) plays the same battles as local processes and
gives exactly the same results for the same seeds."""

from __future__ import annotations

import json
import socket
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from pybridge.cli import main
from pybridge.simulate.loopback import LoopbackCluster

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def cluster() -> Iterator[LoopbackCluster]:
    # The workers can import the tests' policies, as an operator installs a custom policy's
    # module on every worker.
    with LoopbackCluster(workers=2, python_path=[ROOT]) as running:
        yield running
    assert not running.processes  # every process we started was stopped


def _run(out: Path, *args: str) -> dict[str, Any]:
    code = main(["simulate", "--battles", "12", "--seed", "40", "--no-progress", "--no-report",
                 "--out", str(out), *args])  # fmt: skip
    assert code == 0
    data: dict[str, Any] = json.loads((out / "results.json").read_text("utf-8"))
    return data


def test_the_cluster_gives_the_local_results_for_the_same_seeds(cluster, tmp_path) -> None:
    remote = _run(tmp_path / "cluster", "--cluster", cluster.address, "--batch-size", "5")
    local = _run(tmp_path / "local", "--workers", "2")
    assert remote["timing"]["engine"] == "dask" and remote["timing"]["slots"] == 2
    assert remote["timing"]["batches"] == 9  # 3 encounters x (5 + 5 + 2 seeds)
    assert remote["battles_played"] == local["battles_played"] == 36
    assert remote["encounters"] == local["encounters"]
    assert remote["summary"] == local["summary"]


def test_a_policy_error_on_the_cluster_is_named_and_the_rest_kept(cluster, tmp_path) -> None:
    out = tmp_path / "broken"
    code = main(["simulate", "--battles", "12", "--no-progress", "--no-report", "--out",
                 str(out), "--cluster", cluster.address, "--batch-size", "4",
                 "--policy", "tests.simulate_policies:BreaksOnTurnTwo"])  # fmt: skip
    data = json.loads((out / "results.json").read_text("utf-8"))
    assert code == 1 and not data["complete"]
    assert any("policy raised RuntimeError" in p["message"] and p["seed"] is not None
               for p in data["problems"])  # fmt: skip


@pytest.fixture
def silent_peer() -> Iterator[str]:
    """A loopback server that accepts every connection and never says a word."""
    server = socket.create_server(("127.0.0.1", 0))
    accepted: list[socket.socket] = []
    stop = threading.Event()

    def accept() -> None:
        server.settimeout(0.05)
        while not stop.is_set():
            try:
                accepted.append(server.accept()[0])
            except TimeoutError:
                continue

    thread = threading.Thread(target=accept, name="silent-peer", daemon=True)
    thread.start()
    try:
        yield f"tcp://127.0.0.1:{server.getsockname()[1]}"
    finally:
        stop.set()
        thread.join()
        for connection in accepted:
            connection.close()
        server.close()


def test_a_peer_that_never_answers_is_given_up_with_a_clear_error(silent_peer, tmp_path, capsys):
    code = main(["simulate", "--battles", "2", "--no-progress", "--no-report",
                 "--out", str(tmp_path), "--cluster", silent_peer,
                 "--connect-timeout", "0.3"])  # fmt: skip
    assert code == 2
    err = capsys.readouterr().err
    assert f"the Dask scheduler at {silent_peer!r} did not answer within 0.3 s" in err
    assert not json.loads((tmp_path / "results.json").read_text("utf-8"))["complete"]


def test_a_closed_port_and_a_bad_timeout_are_refused(tmp_path, capsys):
    with socket.create_server(("127.0.0.1", 0)) as probe:
        closed = f"tcp://127.0.0.1:{probe.getsockname()[1]}"
    code = main(["simulate", "--battles", "2", "--no-progress", "--no-report", "--out",
                 str(tmp_path), "--cluster", closed, "--connect-timeout", "0.3"])  # fmt: skip
    assert code == 2
    assert f"the Dask scheduler at {closed!r}" in capsys.readouterr().err
    for bad in ("0", "-1", "nan", "inf", "soon"):
        with pytest.raises(SystemExit):
            main(["simulate", "--cluster", closed, "--connect-timeout", bad])


def test_a_scheduler_without_workers_is_given_up_too(tmp_path, capsys):
    with LoopbackCluster(workers=0) as lonely:
        code = main(["simulate", "--battles", "2", "--no-progress", "--no-report", "--out",
                     str(tmp_path), "--cluster", lonely.address,
                     "--connect-timeout", "0.5"])  # fmt: skip
    assert code == 2
    assert f"no worker joined the Dask scheduler at {lonely.address!r} within 0.5 s" in (
        capsys.readouterr().err
    )
