"""``pybridge simulate``: statistics, policies, the engine's bookkeeping, determinism across
batchings and processes, bad input, Ctrl+C, the outputs and ``--compare``.

Runs stay small (tens of battles); no test asserts a wall-clock time.
"""

from __future__ import annotations

import csv
import json
import math
import os
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from pybridge.cli import main
from pybridge.devtools.compiled import TEST_VARIABLE
from pybridge.examples import demo_battle
from pybridge.runtime import Pcg32, load_battle, play, preview, targets
from pybridge.simulate.batches import Job, Plan, run_batch
from pybridge.simulate.compare import compare
from pybridge.simulate.engine import Prepared, play_battle, record_play
from pybridge.simulate.examples import EXAMPLE_ENCOUNTERS, EXAMPLE_LIBRARY
from pybridge.simulate.inputs import prototypes_of, read_spec
from pybridge.simulate.local import Collector, run_local
from pybridge.simulate.policies import (
    GreedyPolicy,
    PolicyError,
    RandomPolicy,
    legal_moves,
    load_policy,
    score_events,
)
from pybridge.simulate.progress import Progress
from pybridge.simulate.results import RunResult, card_info, card_rows, strongest
from pybridge.simulate.stats import holm, mantel_haenszel, two_proportion_z, welch_z, wilson
from pybridge.simulate.tally import CardTally, EncounterTally

from .builders import battle_doc, card, unit

ROOT = Path(__file__).resolve().parents[1]


# -- statistics ---------------------------------------------------------------------------
def test_wilson_interval_matches_the_formula_and_stays_inside_zero_and_one() -> None:
    low, high = wilson(8, 10)
    z = 1.959963984540054
    centre = (0.8 + z * z / 20) / (1 + z * z / 10)
    half = z * math.sqrt(0.8 * 0.2 / 10 + z * z / 400) / (1 + z * z / 10)
    assert (low, high) == pytest.approx((centre - half, centre + half))
    assert wilson(0, 10)[0] == 0.0 and 0 < wilson(0, 10)[1] < 0.35
    assert wilson(10, 10)[1] == 1.0 and 0.65 < wilson(10, 10)[0] < 1
    assert wilson(0, 0) == (0.0, 1.0)


def test_two_proportion_z_test() -> None:
    z, p = two_proportion_z(50, 100, 65, 100)
    pooled = 115 / 200
    expected = 0.15 / math.sqrt(pooled * (1 - pooled) * (2 / 100))
    assert z == pytest.approx(expected) and p == pytest.approx(math.erfc(expected / math.sqrt(2)))
    assert two_proportion_z(65, 100, 50, 100)[0] == pytest.approx(-expected)
    assert two_proportion_z(10, 10, 5, 5) == (0.0, 1.0)  # no variance, no evidence
    assert two_proportion_z(1, 0, 1, 1) == (0.0, 1.0)


def test_mantel_haenszel_sees_through_a_mix_of_easy_and_hard_encounters() -> None:
    # Within each encounter playing the card changes nothing, but it is played mostly in the
    # easy one: pooled, it looks strong (Simpson's paradox); stratified, it does not.
    easy = (18, 20, 72, 80)  # 90% either way
    hard = (32, 80, 8, 20)  # 40% either way
    pooled = two_proportion_z(18 + 32, 100, 72 + 8, 100)
    assert pooled[1] < 0.001
    combined = mantel_haenszel([easy, hard])
    assert combined is not None
    assert combined.difference == pytest.approx(0.0) and combined.p == pytest.approx(1.0)
    one = mantel_haenszel([(40, 100, 55, 100)])
    assert one is not None and one.difference == pytest.approx(0.15)
    assert one.z == pytest.approx(two_proportion_z(40, 100, 55, 100)[0] * math.sqrt(199 / 200))
    assert mantel_haenszel([(3, 3, 0, 0)]) is None  # no battle without the card


def test_welch_and_holm() -> None:
    z, p = welch_z((10.0, 60.0, 5), (20.0, 90.0, 5))  # means 2 and 4, variances 10 and 2.5
    assert z == pytest.approx(2 / math.sqrt(10 / 5 + 2.5 / 5)) and 0 < p < 1
    assert welch_z((1.0, 1.0, 1), (2.0, 4.0, 1)) == (0.0, 1.0)
    assert holm([0.01, 0.04, 0.03], 0.05) == [True, False, False]
    assert holm([0.001, 0.02, 0.04], 0.05) == [True, True, True]


# -- the engine ---------------------------------------------------------------------------
def _demo() -> Prepared:
    return Prepared.of("demo", load_battle(demo_battle()))


def test_a_play_is_credited_with_what_it_did_to_whom() -> None:
    battle = load_battle(demo_battle())
    party = frozenset(u.id for u in battle.units if u.team.value == "player")
    events = play(battle, "h1", "orc")  # Strike: 4 blocked by armor, 2 HP; Thorns hits back 2
    strike = CardTally()
    record_play(strike, events, party)
    assert (strike.plays, strike.damage, strike.damage_taken) == (1, 6, 2)
    assert strike.effective_plays == 1 and strike.healing == strike.armor == 0
    defend = CardTally()
    record_play(defend, play(battle, "h3"), party)
    assert (defend.armor, defend.damage) == (5, 0)


def test_the_same_seeds_give_the_same_battles() -> None:
    prepared = _demo()
    first, second = EncounterTally(), EncounterTally()
    results = [play_battle(prepared, seed, RandomPolicy(), 40, first) for seed in range(12)]
    again = [play_battle(prepared, seed, RandomPolicy(), 40, second) for seed in range(12)]
    assert results == again and first.to_json() == second.to_json()
    assert first.battles == 12 and first.victory + first.defeat + first.undecided == 12
    assert sum(first.turn_histogram.values()) == 12
    assert len(set(results)) > 1 or first.turns != 12 * first.turn_histogram.get(1, 0)


def test_the_random_policy_picks_every_playable_card_and_aims_at_candidates() -> None:
    battle = load_battle(demo_battle())
    playable = {c for c in battle.piles["hand"] if targets(battle, c).playable}  # type: ignore[index]
    chosen: Counter[str] = Counter()
    for seed in range(400):
        moves = RandomPolicy().moves(battle, Pcg32(seed))
        card_id, target = next(iter(moves))
        info = targets(battle, card_id)
        assert info.playable
        if info.requires_target:
            assert target in info.candidates
        else:
            assert target is None
        chosen[card_id] += 1
    assert set(chosen) == playable
    assert min(chosen.values()) > 400 / len(playable) / 2  # roughly uniform


def test_the_random_policy_aims_cards_that_choose_several_or_on_resolution() -> None:
    hit = {"id": "hit", "type": "DealDamage", "amount": 7, "source": "Target"}
    twin = card("twin", "SingleEnemy", hit, cost=1, target_count=2)
    late = card("late", "SingleEnemy", dict(hit, id="hit2"), cost=1, choose_on_resolve=True)
    units = [unit("hero", "player", 30), unit("goblin"), unit("orc"), unit("troll")]
    document = battle_doc(cards=[twin, late], units=units, hand=["twin", "late"],
                          draw=["twin", "late"] * 3)  # fmt: skip
    prepared = Prepared.of("mixed", load_battle(document))
    tally = EncounterTally()
    for seed in range(6):
        assert play_battle(prepared, seed, RandomPolicy(), 20, tally) == "victory"
    assert tally.cards["twin"].plays > 0 and tally.cards["late"].plays > 0
    assert tally.cards["twin"].damage >= 14 * tally.cards["twin"].plays // 2


def test_greedy_plays_the_best_scoring_move_and_beats_random() -> None:
    battle = load_battle(demo_battle())
    best = GreedyPolicy().moves(battle, Pcg32(0))
    scored = {move: score_events(battle, preview(battle, *move)) for move in legal_moves(battle)}
    assert best == [max(scored, key=lambda m: scored[m])]
    assert best[0][0] == "h2"  # Meteor Strike: 15 to every enemy
    spec = read_spec(EXAMPLE_LIBRARY, [EXAMPLE_ENCOUNTERS / "orc_warband.json"])
    wins = {}
    for name in ("random", "greedy"):
        done = run_batch(Job(spec, name, 40), Plan(("orc_warband",), 24, 0).batches(1)[0])
        wins[name] = done.tally.victory
    assert wins["greedy"] > wins["random"]


def test_policies_load_by_name_and_say_what_is_wrong() -> None:
    assert isinstance(load_policy("random"), RandomPolicy)
    assert type(load_policy("tests.simulate_policies:FirstLegal")).__name__ == "FirstLegal"
    assert callable(load_policy("tests.simulate_policies:only_strikes").moves)
    for spec, words in (("best", "expected one of random, greedy"),
                        ("tests.no_such_module:X", "cannot import"),
                        ("tests.simulate_policies:Missing", "has no 'Missing'"),
                        ("tests.simulate_policies:NOT_A_POLICY", "expected a class")):  # fmt: skip
        with pytest.raises(PolicyError, match=words):
            load_policy(spec)


def test_batchings_and_processes_give_the_same_totals() -> None:
    spec = read_spec(EXAMPLE_LIBRARY, [EXAMPLE_ENCOUNTERS])
    job = Job(spec, "random", 40)
    totals = []
    for batch_size, workers in ((30, 1), (7, 1), (None, 2)):
        plan = Plan(tuple(e.id for e in spec.encounters), 30, 5, batch_size)
        result = RunResult("random", 30, 5, 40, {e.id: e.origin for e in spec.encounters}, {})
        collector = Collector(result, Progress(plan.total, enabled=False))
        run_local(job, plan, workers, collector)
        totals.append({k: v.to_json() for k, v in sorted(result.tallies.items())})
        assert result.played == 90 and result.complete
    assert totals[0] == totals[1] == totals[2]


# -- the command --------------------------------------------------------------------------
def _simulate(tmp_path: Path, *args: str) -> tuple[int, dict[str, Any]]:
    code = main(["simulate", "--no-progress", "--out", str(tmp_path), *args])
    return code, json.loads((tmp_path / "results.json").read_text("utf-8"))


def test_one_command_on_the_example_cards_writes_every_output(tmp_path: Path, capsys) -> None:
    code, data = _simulate(tmp_path, "--battles", "40", "--workers", "1")
    assert code == 0 and data["complete"] and data["battles_played"] == 120
    assert set(data["encounters"]) == {"goblin_camp", "goblin_scouts", "orc_warband"}
    out = capsys.readouterr().out
    assert "strongest card:" in out and "win rate (95% CI)" in out
    with (tmp_path / "cards.csv").open() as handle:
        rows = list(csv.DictReader(handle))
    assert {r["card"] for r in rows} == {c["id"] for c in json.loads(
        EXAMPLE_LIBRARY.read_text())["cards"]}  # fmt: skip
    assert {"win_rate_played", "lift", "lift_p", "damage_per_play", "never_useful"} <= set(rows[0])
    with (tmp_path / "encounters.csv").open() as handle:
        assert len(list(csv.DictReader(handle))) == 3
    page = (tmp_path / "report.html").read_text("utf-8")
    assert page.count("data:image/png;base64,") == 4 and "Balance report" in page
    assert RunResult.from_json(data).to_json() == data  # loads back for --compare


def test_the_strongest_card_and_the_useless_one(tmp_path: Path) -> None:
    library = json.loads(EXAMPLE_LIBRARY.read_text("utf-8"))
    dud = {"id": "dud", "name": "Dud", "cost": 0, "target": "None", "text": "Nothing."}
    library["cards"].append(dud)
    (tmp_path / "cards.json").write_text(json.dumps(library))
    encounter = json.loads((EXAMPLE_ENCOUNTERS / "goblin_camp.json").read_text("utf-8"))
    encounter["piles"]["hand"].append({"id": "dud1", "card": "dud"})
    (tmp_path / "camp.json").write_text(json.dumps(encounter))
    code, data = _simulate(tmp_path / "out", "--battles", "300", "--workers", "2",
                           "--library", str(tmp_path / "cards.json"),
                           str(tmp_path / "camp.json"))  # fmt: skip
    assert code == 0
    rows = data["summary"]["cards"]
    best = strongest(rows)
    assert best is not None and best["card"] == "meteor_strike"
    useless = [r["card"] for r in rows if r["never_useful"]]
    assert useless == ["dud"]
    assert next(r for r in rows if r["card"] == "dud")["plays"] > 0  # played, did nothing


def test_when_no_encounter_loads_the_run_says_nothing_was_played_and_writes_no_report(
    tmp_path: Path, capsys
) -> None:
    stray = json.loads((EXAMPLE_ENCOUNTERS / "goblin_scouts.json").read_text("utf-8"))
    stray["piles"]["hand"] = [{"id": "h1", "card": "fireball", "owner": "knight"}]
    (tmp_path / "scouts.json").write_text(json.dumps(stray))
    out = tmp_path / "out"
    code, data = _simulate(out, "--workers", "1", "--library", str(EXAMPLE_LIBRARY),
                           str(tmp_path / "scouts.json"))  # fmt: skip
    assert code == 1 and data["battles_played"] == 0 and not data["complete"]
    assert not (out / "report.html").exists()
    printed = capsys.readouterr()
    assert "fireball" in printed.err and "no battle was played" in printed.out
    assert "battles/s" not in printed.out + printed.err and "report.html" not in printed.out


def test_a_broken_library_card_and_an_unknown_card_are_named_and_the_rest_runs(
    tmp_path: Path, capsys
) -> None:
    library = json.loads(EXAMPLE_LIBRARY.read_text("utf-8"))
    library["cards"][2]["cost"] = "free"  # defend
    library["cards"] += [dict(library["cards"][0], id="spare")] * 2  # a card no one plays, twice
    (tmp_path / "cards.json").write_text(json.dumps(library))
    stray = json.loads((EXAMPLE_ENCOUNTERS / "goblin_scouts.json").read_text("utf-8"))
    stray["piles"]["draw"] = [{"id": "d1", "card": "fireball"}]
    stray["piles"]["hand"] = [p for p in stray["piles"]["hand"] if p["card"] != "defend"]
    (tmp_path / "enc").mkdir()
    (tmp_path / "enc" / "scouts.json").write_text(json.dumps(stray))
    camp = (EXAMPLE_ENCOUNTERS / "goblin_camp.json").read_text("utf-8")
    (tmp_path / "enc" / "camp.json").write_text(camp)
    fine = dict(stray, piles={"hand": [{"id": "h1", "card": "strike", "owner": "knight"}]})
    (tmp_path / "enc" / "fine.json").write_text(json.dumps(fine))
    code, data = _simulate(tmp_path / "out", "--battles", "5", "--workers", "1", "--library",
                           str(tmp_path / "cards.json"), str(tmp_path / "enc"))  # fmt: skip
    assert code == 1 and not data["complete"]
    problems = {(p["encounter"], p["card"]): p["message"] for p in data["problems"]}
    assert "'defend' (cards[2]) is broken: cost" in problems[(None, "defend")]
    assert "encounter 'camp'" in problems[("camp", "defend")]
    last = len(library["cards"]) - 1
    twice = f"'spare' (cards[{last}]) is defined twice (the first is cards[{last - 1}])"
    assert twice in problems[(None, "spare")]
    assert "the library's card 'defend' is broken" in problems[("camp", "defend")]
    assert "fireball" in problems[("scouts", "fireball")] and "piles.draw[0].card" in \
        problems[("scouts", "fireball")]  # fmt: skip
    assert data["encounters"]["fine"]["tally"]["battles"] == 5  # the rest still ran
    assert "cost" in capsys.readouterr().err


def test_a_policy_that_raises_is_named_with_encounter_seed_and_card(tmp_path: Path) -> None:
    code, data = _simulate(tmp_path, "--battles", "6", "--workers", "1", "--seed", "100",
                           "--policy", "tests.simulate_policies:BreaksOnTurnTwo",
                           str(EXAMPLE_ENCOUNTERS / "goblin_camp.json"),
                           "--library", str(EXAMPLE_LIBRARY))  # fmt: skip
    assert code == 1 and not data["complete"]
    (problem,) = data["problems"]
    assert problem["encounter"] == "goblin_camp" and problem["seed"] == 100
    assert "policy raised RuntimeError: policy bug on purpose" in problem["message"]
    assert problem["card"] is None or isinstance(problem["card"], str)
    assert "seed 100, turn 2" in problem["message"]
    tally = data["encounters"]["goblin_camp"]["tally"]
    assert tally["battles"] == 0  # the first battle failed: none finished
    assert sum(c["plays"] for c in tally["cards"].values()) == tally["plays"] == 0


def test_a_function_policy_offering_illegal_moves_only_gets_the_legal_ones(tmp_path) -> None:
    code, data = _simulate(tmp_path, "--battles", "4", "--workers", "1",
                           "--policy", "tests.simulate_policies:only_strikes",
                           str(EXAMPLE_ENCOUNTERS / "goblin_camp.json"),
                           "--library", str(EXAMPLE_LIBRARY))  # fmt: skip
    assert code == 0
    cards = data["encounters"]["goblin_camp"]["tally"]["cards"]
    assert {cid for cid, c in cards.items() if c["plays"]} == {"strike"}


DEMO_PROJECT = Path(__file__).resolve().parents[1] / "demo_project"


def test_the_games_extension_cards_play_with_project(tmp_path: Path, capsys) -> None:
    battle = demo_battle()
    hand = [{"id": "h0", "card": "flurry"}, {"id": "h1", "card": "drain_touch"},
            {"id": "h2", "card": "foresight"}]  # fmt: skip
    battle["piles"] = {"hand": hand, "draw": [{"id": f"d{i}", "card": "strike"} for i in range(4)]}
    (tmp_path / "combo.json").write_text(json.dumps(battle))
    library = DEMO_PROJECT / "cards" / "mechanics.json"
    args = [str(tmp_path / "combo.json"), "--library", str(library), "--battles", "3",
            "--workers", "1", "--no-report"]  # fmt: skip
    code, data = _simulate(tmp_path / "with", *args, "--project", str(DEMO_PROJECT))
    assert code == 0 and data["problems"] == [] and data["battles_played"] == 3
    assert {"flurry", "drain_touch"} <= set(data["cards"])
    # Foresight's Scry asks a choice as it resolves: simulate answers it with its default
    tallies = [e["tally"]["cards"] for e in data["encounters"].values()]
    assert sum(t.get("foresight", {}).get("plays", 0) for t in tallies) >= 3
    code, data = _simulate(tmp_path / "without", *args)
    assert code == 1 and data["battles_played"] == 0  # refused, naming what is missing
    assert any("card 'foresight'" in p["message"] and '"Scry"' in p["message"]
               for p in data["problems"])  # fmt: skip
    broken = tmp_path / "broken.py"
    broken.write_text("NAME = 'broken'\n")
    assert main(["simulate", *args, "--extension", str(broken), "--out", str(tmp_path)]) == 2
    assert "an extension module defines register(words)" in capsys.readouterr().err


def test_bad_arguments_and_files_are_refused_clearly(tmp_path: Path, capsys) -> None:
    assert main(["simulate", "--policy", "nope", "--out", str(tmp_path)]) == 2
    assert "policy 'nope'" in capsys.readouterr().err
    (tmp_path / "x.json").write_text("{not json")
    assert main(["simulate", str(tmp_path / "x.json"), "--out", str(tmp_path)]) == 2
    assert "not JSON" in capsys.readouterr().err
    assert main(["simulate", "--library", str(tmp_path / "x.json"), "--out", str(tmp_path)]) == 2
    assert "card library" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["simulate", "--battles", "0"])


def test_compare_names_the_test_and_finds_a_real_change(tmp_path: Path, capsys) -> None:
    library = json.loads(EXAMPLE_LIBRARY.read_text("utf-8"))
    for entry in library["cards"]:
        if entry["id"] == "strike":
            entry["behavior"]["nodes"][0]["amount"] = 12
    (tmp_path / "buffed.json").write_text(json.dumps(library))
    common = ["--battles", "120", "--workers", "2", "--no-report", str(EXAMPLE_ENCOUNTERS)]
    assert _simulate(tmp_path / "a", *common, "--library", str(EXAMPLE_LIBRARY))[0] == 0
    assert _simulate(tmp_path / "b", *common, "--library", str(EXAMPLE_LIBRARY))[0] == 0
    assert _simulate(tmp_path / "c", *common, "--library", str(tmp_path / "buffed.json"))[0] == 0
    capsys.readouterr()
    assert main(["simulate", "--compare", str(tmp_path / "a"), str(tmp_path / "b" /
                 "results.json"), "--out", str(tmp_path)]) == 0  # fmt: skip
    assert "no difference is significant" in capsys.readouterr().out  # same seeds, same cards
    assert main(["simulate", "--compare", str(tmp_path / "a"), str(tmp_path / "c"),
                 "--out", str(tmp_path)]) == 0  # fmt: skip
    out = capsys.readouterr().out
    assert "Strike" in out and "damage per play" in out and "(Welch's z-test)" in out
    assert "(two-proportion z-test)" in out
    report = json.loads((tmp_path / "compare.json").read_text("utf-8"))
    damage = next(t for t in report["tests"]
                  if t["subject"] == "Strike" and t["measure"] == "damage per play")  # fmt: skip
    assert damage["significant_after_holm"] and damage["after"] > damage["before"]
    assert main(["simulate", "--compare", str(tmp_path / "nothing"), str(tmp_path / "a")]) == 2


def test_comparing_unlike_runs_warns() -> None:
    battles, _ = prototypes_of(read_spec(EXAMPLE_LIBRARY, [EXAMPLE_ENCOUNTERS]))
    before = RunResult("random", 10, 0, 40, {"a": "a.json"}, card_info(battles),
                       tallies={"a": EncounterTally(battles=10, victory=5)})  # fmt: skip
    after = RunResult("greedy", 10, 7, 40, {"a": "a.json"}, card_info(battles),
                      tallies={"a": EncounterTally(battles=10, victory=9)})  # fmt: skip
    warnings = compare(before, after)["warnings"]
    assert any("different policies" in w for w in warnings)
    assert any("different seeds" in w for w in warnings)


def test_card_rows_rank_by_lift_and_flag_unplayed_cards() -> None:
    never = CardTally(battles=100, wins=50)
    good = CardTally(plays=200, battles=100, battles_played=50, wins=60, wins_played=50,
                     effective_plays=200, damage=600)  # fmt: skip
    always = CardTally(plays=300, battles=100, battles_played=90, wins=60, wins_played=50,
                       effective_plays=300)  # fmt: skip
    cards = {"never": never, "good": good, "always": always}
    tally = EncounterTally(battles=100, victory=60, cards=cards)
    result = RunResult("random", 100, 0, 40, {"e": "e.json"}, {"good": {"name": "Good"}},
                       tallies={"e": tally})  # fmt: skip
    rows = {r["card"]: r for r in card_rows(result)}
    assert next(iter(rows)) == "good"
    assert rows["good"]["lift"] == pytest.approx(0.8) and rows["good"]["damage_per_play"] == 3.0
    assert rows["good"]["lift_significant"]
    assert rows["always"]["lift"] is None  # 10 battles without it: too few to compare
    assert rows["never"]["never_played"] and rows["never"]["never_useful"]
    assert rows["never"]["lift"] is None


# -- Ctrl+C -------------------------------------------------------------------------------
def test_ctrl_c_keeps_and_writes_the_battles_that_finished(tmp_path: Path) -> None:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    process = subprocess.Popen(
        [sys.executable, "-m", "pybridge.cli", "simulate", "--battles", "200000", "--workers",
         "2", "--batch-size", "25", "--out", str(tmp_path)],
        stderr=subprocess.PIPE, stdout=subprocess.PIPE, env=env, cwd=ROOT,
    )  # fmt: skip
    assert process.stderr is not None
    seen = b""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:  # wait for the progress bar to count some battles
        chunk = os.read(process.stderr.fileno(), 4096)
        if not chunk:
            break  # it exited: the assertions below say how
        seen += chunk
        if b"/600000 [" in seen and b" 0/600000" not in seen.rsplit(b"\r", 1)[-1]:
            break
    os.kill(process.pid, signal.SIGINT)
    out, err = process.communicate(timeout=60)
    assert process.returncode == 130, (out + seen + err).decode()[-2000:]
    data = json.loads((tmp_path / "results.json").read_text("utf-8"))
    assert data["interrupted"] and not data["complete"]
    assert 0 < data["battles_played"] < 600000
    assert data["battles_played"] % 25 == 0  # whole batches only
    assert data["battles_played"] == sum(e["tally"]["battles"] for e in data["encounters"].values())
    assert (tmp_path / "report.html").exists() and (tmp_path / "cards.csv").exists()
    assert b"interrupted: keeping the" in err and b"Traceback" not in err + seen


def test_the_speed_benchmark_runs_both_revisions(capsys) -> None:
    import sysconfig

    from pybridge.devtools.compiled import BUILD_DIR, is_built
    from pybridge.simulate.speed import DEFAULT_BASE, default_base, measure, profile

    base = default_base()
    if base == "HEAD":
        pytest.skip(f"no {DEFAULT_BASE} in this clone's history")
    assert base.startswith(DEFAULT_BASE) and len(base) == 40
    compiled = BUILD_DIR if is_built(BUILD_DIR) else None  # built by ./run test's second pass
    result = measure(base, battles=9, rounds=3, compiled=compiled)
    assert result["battles"] == 9 and result["old_battles_per_second"] > 0
    assert result["new_battles_per_second"] > 0 and result["ratio_median"] > 0
    # The base's tree was read out of git (it has the engine, so both play the same loop)
    # into a temporary directory that is gone now.
    old = Path(result["old_package"])
    assert old.name == "resolve.py" and not old.exists()
    assert Path(result["new_package"]).exists() and result["new_package"] != str(old)
    if compiled is not None:
        suffix = str(sysconfig.get_config_var("EXT_SUFFIX"))
        assert result["compiled_package"].endswith(suffix) and result["compiled_ratio_median"] > 0
    assert "play_battle" in profile(2)


#: The second pass of ``./run test`` imports the compiled build: what these measure is the pure
#: source (in Pyodide, and as bytecode a tracer counts), which the first pass runs.
_COMPILED_PASS = pytest.mark.skipif(
    os.environ.get(TEST_VARIABLE) == "1", reason="measures the pure source"
)


@_COMPILED_PASS
def test_the_speed_benchmark_runs_both_revisions_in_pyodide(capsys) -> None:
    from pybridge.simulate.speed import DEFAULT_BASE, default_base
    from pybridge.simulate.speed import main as speed_main
    from pybridge.simulate.speed_web import measure_in_pyodide

    base = default_base()
    if base == "HEAD":
        pytest.skip(f"no {DEFAULT_BASE} in this clone's history")
    result = measure_in_pyodide(base, battles=8, rounds=2)
    # Pyodide's own CPython ran both loops (not the CPython running this test), and both
    # sides played the same seeds of the same battle: the same results.
    assert result["python"].startswith("3.") and result["python"] != sys.version.split()[0]
    assert result["battles"] == 8 and result["old_battles_per_second"] > 0
    assert result["new_battles_per_second"] > 0 and result["ratio_min"] <= result["ratio_max"]
    assert result["old_win_rate"] == result["new_win_rate"]
    assert speed_main(["--pyodide", "--battles", "4", "--rounds", "2"]) == 0
    out = capsys.readouterr().out
    assert "in Pyodide (Python 3." in out and f"before ({base[:12]})" in out and "x (median" in out


@_COMPILED_PASS
def test_the_speed_benchmark_counts_both_revisions_instructions(capsys) -> None:
    from pybridge.simulate.speed import DEFAULT_BASE, default_base
    from pybridge.simulate.speed import main as speed_main
    from pybridge.simulate.speed_count import count_instructions

    base = default_base()
    if base == "HEAD":
        pytest.skip(f"no {DEFAULT_BASE} in this clone's history")
    counted = count_instructions(base, battles=2)
    for side in ("old", "new"):
        functions = dict(counted[f"{side}_functions"])
        # Both played whole battles through their own engine and runtime.
        assert functions["simulate/engine.py:play_battle"] > 0
        assert sum(functions.values()) == pytest.approx(counted[f"{side}_per_battle"])
    assert "runtime/effects.py:_move_within" in dict(counted["new_functions"])
    assert "runtime/effects.py:_move_within" not in dict(counted["old_functions"])  # newer
    assert speed_main(["--count", "--battles", "1"]) == 0
    assert "1.5x would be" in capsys.readouterr().out


def test_the_docs_custom_policy_runs(tmp_path: Path, monkeypatch) -> None:
    text = (ROOT / "docs" / "simulate.md").read_text("utf-8")
    source = text.split("```python\n", 1)[1].split("```", 1)[0]
    (tmp_path / "docs_policy.py").write_text(source)
    monkeypatch.syspath_prepend(str(tmp_path))
    out = tmp_path / "out"
    code = main(["simulate", "--policy", "docs_policy:Cautious", "--battles", "3", "--workers",
                 "1", "--no-progress", "--no-report", "--out", str(out)])  # fmt: skip
    assert code == 0
    data = json.loads((out / "results.json").read_text("utf-8"))
    plays = data["encounters"]["goblin_camp"]["tally"]["cards"]
    assert data["complete"] and sum(c["plays"] for c in plays.values()) > 0


_WITHOUT_EXTRA = """
import sys

class WithoutTheSimExtra:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in ("matplotlib", "tqdm", "dask", "distributed"):
            raise ImportError(f"{name} is not installed")

sys.meta_path.insert(0, WithoutTheSimExtra())
from pybridge.cli import main
code = main(sys.argv[1:])
loaded = sorted(m for m in ("matplotlib", "tqdm", "dask", "distributed") if m in sys.modules)
print("loaded:", loaded)
raise SystemExit(code)
"""


def test_a_plain_install_simulates_locally_without_the_sim_extra(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-c", _WITHOUT_EXTRA, "simulate", "--battles", "10", "--workers", "2",
         "--out", str(tmp_path)],
        capture_output=True, text=True, cwd=ROOT, env=dict(os.environ, PYTHONPATH=str(ROOT)),
        check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "loaded: []" in done.stdout
    assert "install the 'sim' extra for a progress bar" in done.stderr
    assert "the HTML report needs the 'sim' extra" in done.stderr
    assert json.loads((tmp_path / "results.json").read_text("utf-8"))["battles_played"] == 30
    assert (tmp_path / "cards.csv").exists() and not (tmp_path / "report.html").exists()
