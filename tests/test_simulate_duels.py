"""``pybridge simulate --duel`` (issue #28, item 2): controllers against each other on a
two-sided battle, with a win rate and its confidence interval."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pybridge.cli import main
from pybridge.examples import demo_battle


def test_a_duel_run_reports_the_first_controllers_record(tmp_path: Path,
                                                         capsys: pytest.CaptureFixture[str]
                                                         ) -> None:  # fmt: skip
    code = main(["simulate", "--duel", "ai:4", "random", "--battles", "4", "--seed", "3",
                 "--out", str(tmp_path)])  # fmt: skip
    assert code == 0
    written = json.loads((tmp_path / "duels.json").read_text("utf-8"))
    assert written["games"] == 4
    assert written["wins"] + written["losses"] + written["draws"] == 4
    low, high = written["interval"]
    assert 0 <= low <= written["win_rate"] <= high <= 1
    shown = capsys.readouterr().out
    assert f"{written['wins']} won" in shown and "95 % CI" in shown


def test_the_same_seed_gives_the_same_record(tmp_path: Path) -> None:
    runs = []
    for name in ("one", "two"):
        assert main(["simulate", "--duel", "greedy", "random", "--battles", "6", "--seed", "9",
                     "--out", str(tmp_path / name)]) == 0  # fmt: skip
        runs.append(json.loads((tmp_path / name / "duels.json").read_text("utf-8")))
    assert runs[0] == runs[1]


@pytest.mark.parametrize("spec", ["wizard", "ai:many"])
def test_an_unknown_controller_is_refused(spec: str, tmp_path: Path) -> None:
    assert main(["simulate", "--duel", spec, "random", "--battles", "2",
                 "--out", str(tmp_path)]) == 2  # fmt: skip


def test_a_one_sided_battle_is_no_duel(tmp_path: Path) -> None:
    one_sided = tmp_path / "party.json"
    one_sided.write_text(json.dumps(demo_battle()), "utf-8")
    assert main(["simulate", "--duel", "greedy", "random", str(one_sided), "--battles", "2",
                 "--out", str(tmp_path)]) == 2  # fmt: skip
