"""The demo battle end to end: demo_project/ with the addon, in the real Godot 4.6 web engine.

The demo is packed and served once per module and driven by web/drive.mjs in interactive
mode (one engine boot; each test restarts the battle with the demo's Restart button). The
demo prints ``PYBRIDGE <kind> <json>`` lines: ``ready`` and ``layout`` give the screen points
of units and cards, ``highlight`` the unit ids lit, ``played`` and ``turn`` the runtime's
exact responses. Expected values come from the same runtime in desktop CPython.

Needs Debian's chromium and ``web/node_modules`` (``web/setup.sh``): under CI=true the
fixture runs that script and a missing piece is a failure; elsewhere it is a skip.
"""

from __future__ import annotations

import json
import re
import signal
import socket
import subprocess
import sys
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from pybridge.cli import main
from pybridge.demo import (
    ADDON_RES,
    BATTLE_RES,
    DEMO_PROJECT,
    DUEL_FILE,
    DUEL_RES,
    FILL_WINDOW,
    PARTY_FILE,
    PARTY_LIBRARIES,
    PARTY_RES,
    RIVALS_FILE,
    RIVALS_RES,
    demo_mounts,
    prepare_demo_site,
)
from pybridge.pack import read_pack
from pybridge.web import prepare_site

from .demo_support import (
    DRAG_STEPS,
    PREFIX,
    Demo,
    Desktop,
    booted_demo,
    canonical,
    party_battle,
    sha256,
)
from .engine_session import ARTIFACTS, HEIGHT, WIDTH
from .png_support import brightness, colour_pixels, read_png
from .web_support import require_browser

REPO = Path(__file__).resolve().parent.parent
ARROW_CARDS = ("h1", "h4", "h5", "h9")  # Single Enemy, Single Ally, Other Ally, Any Unit


@pytest.fixture(scope="module")
def demo_browser_ready() -> None:
    require_browser()


@pytest.fixture(scope="module")
def demo(demo_browser_ready: None, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Demo]:
    """Boot the demo once for the module; yields a driver that is ready to take actions."""
    work = tmp_path_factory.mktemp("demo_e2e")
    with booted_demo(prepare_demo_site(work / "site"), work, "demo_e2e_log.txt", "party") as driver:
        yield driver


def one_blow_from_victory() -> dict[str, Any]:
    """The party battle with every enemy at 1 HP and no armor: Meteor Strike wins it."""
    battle = party_battle()
    for unit in battle["units"]:
        if unit["team"] == "enemy":
            unit["hp"], unit["armor"] = 1, 0
    return battle


@pytest.fixture(scope="module")
def nearly_won(demo_browser_ready: None, tmp_path_factory: pytest.TempPathFactory
               ) -> Iterator[Demo]:  # fmt: skip
    """The demo project and addon as packed for players, on a battle one play from victory."""
    work = tmp_path_factory.mktemp("demo_won")
    battle = work / "battle.json"
    battle.write_text(json.dumps(one_blow_from_victory()))
    site = prepare_site(work / "site", DEMO_PROJECT, {**demo_mounts(), PARTY_RES: battle},
                        canvas_resize_policy=FILL_WINDOW)  # fmt: skip
    with booted_demo(site, work, "demo_won_log.txt", "party") as driver:
        yield driver


# -- the tests ------------------------------------------------------------------------------


def test_the_pack_holds_the_addon_and_the_battle_documents(demo_browser_ready, tmp_path):
    site = prepare_demo_site(tmp_path / "site")
    files = read_pack(site.root / "index.pck")
    # The party battle and its card library are the project's own; the duels are mounted.
    assert files[PARTY_RES] == PARTY_FILE.read_bytes()
    for library in PARTY_LIBRARIES:
        res = "res://" + library.relative_to(DEMO_PROJECT).as_posix()
        assert files[res] == library.read_bytes()
    assert files[DUEL_RES] == DUEL_FILE.read_bytes()
    assert files[RIVALS_RES] == RIVALS_FILE.read_bytes()
    assert BATTLE_RES not in files  # the shared example is not what the party scene opens
    for name in ("plugin.cfg", "plugin.gd", "pybridge_default_theme.tres"):
        assert f"res://addons/pybridge_targeting/{name}" in files
    addon_classes = {c: p for c, p in site.pack.classes.items() if "/addons/" in p}
    assert len(addon_classes) >= 15
    for name, path in addon_classes.items():  # one prefix; files named after their classes
        assert name.startswith("PyBridge"), name
        snake = re.sub(r"(?<!^)(?=[A-Z])", "_", name.removeprefix("PyBridge")).lower()
        # the card editor's, the document Resources' and the typed objects' own folders
        parent = path.split("/")[-2]
        folder = f"{parent}/" if parent in ("workshop", "resources", "typed") else ""
        stem = f"pybridge_{snake}" if snake else "pybridge"  # PyBridge, the namespace
        assert path == f"res://addons/pybridge_targeting/{folder}{stem}.gd", (name, path)
    for needed in (
        "pybridge_cut_view.gd",
        "battle/pybridge_pile_picker.gd",
        "drawing/pybridge_target_marks.gd",
    ):  # internals ship in their folders
        assert f"{ADDON_RES}/{needed}" in files
    assert '"canvasResizePolicy": 2' in (site.root / "index.html").read_text()


def test_demo_command_serves_the_site_until_interrupted(demo_browser_ready, tmp_path):
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    command = [sys.executable, "-m", "pybridge.cli", "demo", "--port", str(port)]
    server = subprocess.Popen(
        [*command, "--site", str(tmp_path / "site")],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=REPO,
    )
    try:
        assert server.stdout is not None
        first = server.stdout.readline()
        assert first.startswith("pybridge demo: packed ") and "index.pck" in first
        url = f"http://127.0.0.1:{port}/"
        assert server.stdout.readline().startswith(f"pybridge demo: open {url} ")
        with urllib.request.urlopen(url, timeout=10) as reply:
            assert b"pybridge_call" in reply.read()
        with urllib.request.urlopen(url + "index.pck", timeout=10) as reply:
            assert reply.read(4) == b"GDPC"
    finally:
        server.send_signal(signal.SIGINT)
        out, err = server.communicate(timeout=30)
    assert server.returncode == 0, err
    assert "pybridge demo: stopped" in out


def test_demo_command_without_serving(demo_browser_ready, tmp_path, capsys):
    assert main(["demo", "--no-serve", "--site", str(tmp_path / "site")]) == 0
    assert (tmp_path / "site" / "index.pck").is_file()
    assert f"the site is ready in {tmp_path / 'site'}" in capsys.readouterr().out


def test_ready_line_gives_the_battle_and_the_layout(demo):
    ready = demo.said("ready")[0]
    assert ready["transport"] == "web"
    assert ready["viewport"] == [WIDTH, HEIGHT] and ready["window"] == [WIDTH, HEIGHT]
    document = party_battle()
    assert ready["hand"] == [c["id"] for c in document["piles"]["hand"]]
    assert {u["id"]: u["hp"] for u in document["units"]} == {
        i: u["hp"] for i, u in ready["units"].items()
    }
    layout = ready["layout"]
    assert set(layout["units"]) == {u["id"] for u in document["units"]}
    assert set(layout["cards"]) == set(ready["hand"])
    points = [*layout["units"].values(), *layout["cards"].values(), layout["end_turn"]]
    assert all(0 <= x < WIDTH and 0 <= y < HEIGHT for x, y in points)


def test_strike_dragged_onto_an_enemy_hits_it(demo):
    demo.restart()
    expected = Desktop().play("h1", "orc")
    since = demo.mark()
    played = demo.drag(demo.card("h1"), demo.unit("orc"), "played")
    assert demo.said("target", since) == [{"card": "h1", "unit": "orc"}]
    assert played["ok"] is True
    events = played["result"]["events"]
    assert events[0]["type"] == "card_played" and events[0]["target"] == "orc"
    # The Strike's own hit (the Orc's Thorns may answer with damage to the Knight).
    hits = [e for e in events if e["type"] == "damage" and e["source"] == "knight"]
    assert [(e["unit"], e["amount"]) for e in hits] == [("orc", 6)]
    orc = demo_unit(party_battle(), "orc")
    assert hits[0]["blocked"] == min(orc["armor"], 6)
    assert hits[0]["hp_after"] == orc["hp"] - (6 - min(orc["armor"], 6))
    state = played["result"]["state"]
    assert demo_unit(state, "orc")["hp"] == hits[0]["hp_after"]
    assert state["energy"] == 2
    assert canonical(events) == canonical(expected["events"])


def test_strike_released_on_empty_space_plays_nothing(demo):
    demo.restart()
    since = demo.mark()
    cancelled = demo.drag(demo.card("h1"), demo.point("empty"), "cancelled")
    hand = [card["id"] for card in party_battle()["piles"]["hand"]]
    assert cancelled == {"card": "h1", "energy": 3, "hand": hand}
    assert demo.said("played", since) == [] and demo.said("target", since) == []
    assert demo.said("aim", since) == [{"card": "h1"}]


def test_meteor_strike_hits_every_living_enemy(demo):
    demo.restart()
    played = demo.drag(demo.card("h2"), demo.point("play"), "played")
    events = played["result"]["events"]
    assert events[0]["type"] == "card_played" and events[0]["target"] is None
    enemies = [u for u in party_battle()["units"] if u["team"] == "enemy" and u["hp"] > 0]
    hits = {e["unit"]: e for e in events if e["type"] == "damage" and e["source"] == "ranger"}
    assert set(hits) == {u["id"] for u in enemies}
    state = played["result"]["state"]
    for enemy in enemies:
        lost = 15 - min(enemy.get("armor", 0), 15)
        assert demo_unit(state, enemy["id"])["hp"] == enemy["hp"] - lost
    assert canonical(events) == canonical(Desktop().play("h2")["events"])


def test_highlights_are_exactly_the_runtime_targets(demo):
    demo.restart()
    desktop = Desktop()
    for card in party_battle()["piles"]["hand"]:
        info = desktop.targets(card["id"])
        want = info["candidates"] if info["requires_target"] else info["affects"]
        assert demo.hover(card["id"]) == (want if info["playable"] else []), card["id"]
    assert demo.hover("h11") == ["goblin"]  # Execute (mode None) lights the enemy it hits
    for card_id in ARROW_CARDS:
        info = desktop.targets(card_id)
        assert info["requires_target"] and info["candidates"]
        assert demo.hover(card_id) == info["candidates"]
        # While the arrow is out the same units stay lit; released back on the hand, it cancels.
        since = demo.mark()
        demo.do(
            {"down": list(demo.card(card_id))},
            {"move": list(demo.point("empty"))},
            {"move": list(demo.unit(info["candidates"][-1]))},
            {"up": list(demo.card(card_id))},
            {"wait_for": f"{PREFIX}cancelled ", "from": since},
        )
        assert demo.said("target", since) == [] and demo.said("played", since) == []
        assert [h["units"] for h in demo.said("highlight", since)] in ([], [info["candidates"]])


def test_click_a_card_then_a_unit_and_the_keyboard(demo):
    demo.restart()
    desktop = Desktop()
    # Click Shield Ally (Other Ally), then click the Ranger.
    since = demo.mark()
    demo.do({"click": list(demo.card("h5"))}, {"click": list(demo.unit("ranger"))})
    played = demo.wait_for("played", since)
    assert played["result"]["events"] == desktop.play("h5", "ranger")["events"]
    # Pick Mend (Single Ally) by its number, Tab to the second candidate, Enter.
    hand = played["result"]["state"]["piles"]["hand"]
    key = str([c["id"] for c in hand].index("h4") + 1)
    candidates = desktop.targets("h4")["candidates"]
    since = demo.mark()
    demo.do({"key": key}, {"key": "Tab"}, {"key": "Enter"})
    played = demo.wait_for("played", since)
    assert demo.said("target", since) == [{"card": "h4", "unit": candidates[1]}]
    assert played["result"]["events"] == desktop.play("h4", candidates[1])["events"]
    # Escape puts an aimed card back.
    since = demo.mark()
    demo.do({"key": "1"}, {"key": "Escape"})
    assert demo.wait_for("cancelled", since)["card"] == "h1"


def test_a_card_without_enough_energy_is_refused(demo):
    demo.restart()
    demo.drag(demo.card("h2"), demo.point("play"), "played")  # 2 of 3 energy
    since = demo.mark()
    refused = demo.drag(demo.card("h12"), demo.point("play"), "refused")
    assert refused["card"] == "h12" and "energy" in refused["reason"]
    assert refused["code"] == "energy"  # the targets answer's refusal code (PyBridge.Refusal)
    assert demo.said("played", since) == []


def test_screenshots_of_the_arrow_and_the_highlights(demo):
    demo.restart()
    hover_shot = ARTIFACTS / "demo_hover.png"
    highlight_shot = ARTIFACTS / "demo_highlights.png"
    arrow_shot = ARTIFACTS / "demo_arrow.png"
    demo.hover("h9")
    demo.do({"wait_ms": 150}, {"screenshot": str(highlight_shot)})
    demo.hover("h1")
    demo.do({"wait_ms": 150}, {"screenshot": str(hover_shot)})
    since = demo.mark()
    demo.do({"down": list(demo.card("h1"))}, {"move": list(demo.point("empty"))},
            {"move": list(demo.unit("orc"))})  # fmt: skip
    # Between the card and the Orc, the only gold that the aim adds to the hovered screen is
    # the arrow's (the lit units' rings are there in both shots).
    left, right = demo.card("h1")[0] + 40, demo.unit("orc")[0] - 90
    shot_when(demo, arrow_shot, lambda: arrow_pixels(arrow_shot, hover_shot, left, right) > 2000)
    demo.do({"up": list(demo.point("empty"))}, {"wait_for": f"{PREFIX}cancelled ", "from": since})
    for shot in (hover_shot, highlight_shot, arrow_shot):
        width, height, _ = read_png(shot)
        assert (width, height) == (WIDTH, HEIGHT)
    assert arrow_pixels(arrow_shot, hover_shot, left, right) > 2000


def shot_when(demo: Demo, shot: Path, drawn: Callable[[], bool]) -> None:
    """Screenshot ``shot`` until ``drawn()`` says the frame shows what the test waits for (the
    engine says nothing when the aim reaches a unit), for at most about three seconds."""
    for _ in range(12):
        demo.do({"wait_ms": 250}, {"screenshot": str(shot)})
        if drawn():
            return


def test_an_invalid_target_is_marked_over_its_portrait(demo):
    demo.restart()
    shot = ARTIFACTS / "demo_invalid_target.png"
    since = demo.mark()
    demo.do({"down": list(demo.card("h1"))}, {"move": list(demo.point("empty"))},
            {"move": list(demo.unit("knight"))})  # Strike: enemies only  # fmt: skip
    # The cross in the invalid colour (ff4d7a) covers the middle of the Knight's portrait.
    x, y = demo.unit("knight")
    box = (x - 15, y - 15, x + 15, y + 15)
    shot_when(demo, shot, lambda: colour_pixels(shot, box, (255, 77, 122), 40) > 200)
    demo.do({"up": list(demo.point("empty"))}, {"wait_for": f"{PREFIX}cancelled ", "from": since})
    assert colour_pixels(shot, box, (255, 77, 122), 40) > 200


def test_a_card_that_costs_too_much_lights_nothing_and_says_why(demo):
    demo.restart()
    demo.drag(demo.card("h2"), demo.point("play"), "played")  # Meteor Strike: 1 energy left
    assert demo.hover("h12") == []  # Resurrect costs 2
    since = demo.mark()
    demo.do({"wait_ms": 150}, {"screenshot": str(ARTIFACTS / "demo_unaffordable.png")})
    assert demo.said("highlight", since) == []


def test_tooltips_explain_cards_keywords_and_statuses(demo):
    demo.restart()
    since = demo.mark()
    demo.do({"move": list(demo.card("h12"))})
    card = demo.wait_for("tooltip", since)
    assert card["title"] == "Resurrect"
    assert card["text"].startswith("Revive the first fallen ally with 10 health.")
    keywords = Desktop().call("schema")["keywords"]
    assert f"Exhaust: {keywords['Exhaust']}" in card["text"]
    demo.do({"wait_ms": 150}, {"screenshot": str(ARTIFACTS / "demo_card_tooltip.png")})
    since = demo.mark()
    demo.do({"move": demo.layout["statuses"]["orc"]["thorns"]})
    status = demo.wait_for("tooltip", since)
    thorns = next(s for s in party_battle()["statuses"] if s["id"] == "thorns")
    assert status == {"title": thorns["name"], "text": thorns["text"]}
    demo.do({"wait_ms": 150}, {"screenshot": str(ARTIFACTS / "demo_status_tooltip.png")})


def test_the_enemy_turn_plays_back_step_by_step_and_a_key_skips_it(demo):
    demo.restart()
    since = demo.mark()
    demo.do({"click": list(demo.point("end_turn"))})
    response = demo.wait_for("turn", since)
    demo.do({"wait_ms": 700}, {"screenshot": str(ARTIFACTS / "demo_enemy_turn.png")})
    demo.wait_for("settled", since)
    played = demo.said("step", since)
    assert [step["line"] for step in played] == log_texts(response)
    assert any(e["type"] == "enemy_acts" for e in response["result"]["events"])
    # The next turn, skipped: Space as soon as the runtime answered shows the rest at once
    # (sent by the driver the moment it sees the answer, with no round trip to this test).
    since = demo.mark()
    demo.do({"click": list(demo.point("end_turn"))}, {"wait_for": f"{PREFIX}turn ", "from": since},
            {"key": "Space"})  # fmt: skip
    response = demo.said("turn", since)[-1]
    demo.wait_for("settled", since)
    skipped = demo.said("step", since)
    assert [step["line"] for step in skipped] == log_texts(response)
    took, took_skipped = (steps[-1]["ms"] - steps[0]["ms"] for steps in (played, skipped))
    print(f"\nenemy turn: played back in {took} ms, skipped in {took_skipped} ms")
    assert took >= 1000 and took_skipped < took / 2


def step_events(response: dict[str, Any]) -> list[list[dict[str, Any]]]:
    """The events of each playback step: a log line's, from the event it tells up to the next
    line's (the first line's from the first event), as the addon splits them."""
    events, lines = response["result"]["events"], response["result"]["log"]
    starts = [0] + [line["event"] for line in lines[1:]]
    return [events[a:b] for a, b in zip(starts, [*starts[1:], len(events)], strict=True)]


def shake_lines(demo: Demo, since: int, kinds: tuple[str, ...]) -> list[str]:
    """The kinds of the demo's lines among ``kinds``, in the order printed."""
    heads = tuple(f"{PREFIX}{kind} " for kind in kinds)
    return [t[len(PREFIX) :].split(" ", 1)[0] for t in demo.lines[since:] if t.startswith(heads)]


def test_each_hit_holds_the_playback_for_the_demos_hit_stop_shake(demo):
    """The demo's playback handler: each damage event of a play or of the enemy turn freezes
    the unit it hit, thuds and shakes the screen (``hit``, then ``hit_over``), and the view
    shows what follows (the play settled, the next step) only once that shake ended."""
    demo.restart()
    since = demo.mark()
    shaking = ARTIFACTS / "demo_hit_stop.png"
    demo.do({"drag": [*demo.card("h2"), *demo.point("play"), DRAG_STEPS]},  # Meteor Strike
            {"wait_for": f"{PREFIX}hit ", "from": since}, {"screenshot": str(shaking)})  # fmt: skip
    played = demo.wait_for("played", since)
    hits = [e for e in played["result"]["events"] if e["type"] == "damage"]
    assert len(hits) >= 3  # every enemy
    assert [h["unit"] for h in demo.said("hit", since)] == [e["unit"] for e in hits]
    assert {h["op"] for h in demo.said("hit", since)} == {"play"}
    # One shake at a time, each over before the next, all over before the play settles.
    assert shake_lines(demo, since, ("hit", "hit_over", "played")) == [
        *["hit", "hit_over"] * len(hits),
        "played",
    ]
    assert read_png(shaking)[:2] == (WIDTH, HEIGHT)
    # The enemy turn, not skipped: a step's hits land before the next step shows.
    since = demo.mark()
    demo.do({"click": list(demo.point("end_turn"))})
    response = demo.wait_for("turn", since)
    demo.wait_for("settled", since)
    expected = []
    for events in step_events(response):
        expected.append("step")
        expected += ["hit", "hit_over"] * sum(e["type"] == "damage" for e in events)
    assert "hit" in expected
    assert shake_lines(demo, since, ("step", "hit", "hit_over", "settled")) == [
        *expected,
        "settled",
    ]
    assert {h["op"] for h in demo.said("hit", since)} == {"end_turn"}


def test_replay_in_pyodide_matches_desktop_cpython(demo):
    """A fixed script of plays and turn ends gives the same events in both Pythons."""
    script: list[tuple[str, str | None]] = [
        ("h1", "orc"),
        ("h8", None),  # Wild Shot: a random enemy
        ("h7", None),  # Inspire: a random ally
        ("h9", "shaman"),
        ("end_turn", None),
        ("d2", "goblin"),
        ("d4", "shaman"),
        ("d3", "cleric"),
        ("end_turn", None),
        ("end_turn", None),  # the draw pile runs out: the discard pile is shuffled in
    ]
    demo.restart()
    browser: list[Any] = []
    for step, target in script:
        if step == "end_turn":
            response = demo.end_turn()
        else:
            end = demo.unit(target) if target else demo.point("play")
            response = demo.drag(demo.card(step), end, "played")
        assert response["ok"], response
        browser.append(response["result"]["events"])
    desktop = Desktop()
    cpython = [
        desktop.end_turn()["events"] if step == "end_turn" else desktop.play(step, target)["events"]
        for step, target in script
    ]
    seen = {e["type"] for events in cpython for e in events}
    assert {"random_target", "reshuffled", "enemy_acts"} <= seen, seen
    print(f"\nreplay: {sum(map(len, browser))} events, SHA-256 {sha256(browser)}")
    assert sha256(browser) == sha256(cpython)


def test_every_intent_number_shown_is_what_the_enemy_then_does(demo):
    """What each intent bubble shows (the runtime's forecast, as the view holds it) against
    the enemy phase that follows, over several turns with plays in between."""
    from .test_forecast import forecast_effects, what_happened

    demo.restart()
    checked = 0
    for turn, play in enumerate([("h1", "goblin"), ("d2", "orc"), None, None]):
        if play is not None:
            demo.drag(demo.card(play[0]), demo.unit(play[1]), "played")
        shown = demo.said("intents")[-1]
        response = demo.end_turn()
        happened = what_happened(response["result"]["events"])
        for unit, bubble in shown.items():
            numbers = forecast_effects({"effects": bubble["effects"]})
            assert numbers == happened.get(unit, []), (turn, unit, bubble, happened)
            assert bubble["label"] in bubble["title"], bubble
            checked += 1
        if response["result"]["state"]["result"] is not None:
            break
    assert checked >= 6


#: The cards of the demo's own extension in the party's hand (demo_project/cards/mechanics.json).
FORESIGHT, DRAIN_TOUCH, FLURRY = "h13", "h14", "h15"


def test_the_demo_extension_cards_play_scry_drain_and_combo(demo):
    """Foresight's Scry asks which of the top cards stay on top (picked in the addon's pile
    picker by clicks), Drain Touch heals its caster by what it took, and Flurry's damage
    follows the Combo counter: each answer is the runtime's, as desktop CPython gives it."""
    demo.restart()
    desktop = Desktop()
    names = {c["id"]: c["card"] for c in party_battle()["piles"]["hand"]}
    assert [names[c] for c in (FORESIGHT, DRAIN_TOUCH, FLURRY)] == ["foresight", "drain_touch",
                                                                     "flurry"]  # fmt: skip
    # The hand with them, Flurry pointed at (lifted, its tooltip out, the enemies it may hit lit).
    assert demo.hover(FLURRY) == desktop.targets(FLURRY)["candidates"]
    demo.do({"wait_ms": 150}, {"screenshot": str(ARTIFACTS / "demo_extension_cards.png")})
    # Foresight, released on the play area: its Scry asks, and the picker lists the top of the
    # draw pile in the runtime's order, every card a candidate.
    asked = desktop.refusal("play", card=FORESIGHT)
    assert asked["code"] == "choice_needed" and asked["choice"]["kind"] == "scry", asked
    options, key = asked["choice"]["options"], asked["choice"]["key"]
    since = demo.mark()
    demo.do({"drag": [*demo.card(FORESIGHT), *demo.point("play"), DRAG_STEPS]})
    shown = demo.wait_for("choice", since)
    picker = shown["picker"]
    assert picker["visible"] and shown["chooses"] == "cards" and shown["chosen"] == []
    assert [c["id"] for c in picker["cards"]] == options == shown["candidates"]
    assert all(c["legal"] for c in picker["cards"])
    assert demo.said("played", since) == []  # nothing is played while the player chooses
    # Keep the second card on top, by a click on it and one on Confirm; the rest go.
    kept = options[1]
    (point,) = [c["point"] for c in picker["cards"] if c["id"] == kept]
    since = demo.mark()
    demo.do({"click": point}, {"wait_for": f'"chosen":["{kept}"]', "from": since})
    picked = [c for c in demo.said("choice", since) if c["chosen"] == [kept]][-1]
    assert picked["can_confirm"] and picked["picker"]["cards"][1]["chosen"] == 1
    demo.do({"wait_ms": 150}, {"screenshot": str(ARTIFACTS / "demo_scry_picker.png")})
    demo.do({"click": picked["picker"]["confirm"]["point"]})
    played = demo.wait_for("played", since)
    assert demo.said("choice_ended", since) == [
        {"card": FORESIGHT, "chosen": [kept], "confirmed": True}
    ]
    expected = desktop.play(FORESIGHT, choices={key: [kept]})
    assert canonical(played["result"]["events"]) == canonical(expected["events"])
    scried = next(e for e in played["result"]["events"] if e["type"] == "scried")
    assert (scried["looked"], scried["kept"], scried["discarded"]) == (3, 1, 2)
    state = played["result"]["state"]
    piles = {name: [c["id"] for c in cards] for name, cards in state["piles"].items()}
    assert piles["draw"][0] == kept and set(options) - {kept} <= set(piles["discard"])
    assert state["counters"] == {"combo": 1}
    # Drain Touch at the Goblin: the Cleric recovers the health it took.
    played = demo.drag(demo.card(DRAIN_TOUCH), demo.unit("goblin"), "played")
    events = played["result"]["events"]
    assert canonical(events) == canonical(desktop.play(DRAIN_TOUCH, "goblin")["events"])
    (hit,) = [e for e in events if e["type"] == "damage"]
    (heal,) = [e for e in events if e["type"] == "heal"]
    assert hit["unit"] == "goblin" and heal["unit"] == "cleric"
    assert heal["amount"] == hit["hp_before"] - hit["hp_after"] > 0
    combo = played["result"]["state"]["counters"]["combo"]
    assert combo == 2
    # Flurry at the Orc: 3 times the Combo (two cards played before it this turn) plus 2.
    played = demo.drag(demo.card(FLURRY), demo.unit("orc"), "played")
    events = played["result"]["events"]
    assert canonical(events) == canonical(desktop.play(FLURRY, "orc")["events"])
    hits = [e for e in events if e["type"] == "damage" and e["source"] == "knight"]
    assert [(e["unit"], e["base"]) for e in hits] == [("orc", 3 * combo + 2)]
    assert played["result"]["state"]["counters"] == {"combo": 3}
    assert demo.said("error", since) == []


def test_the_combo_shown_follows_the_runtimes_counter_and_resets_each_turn(demo):
    """The Combo chip beside the energy (the addon's PyBridgeCounters) shows the label the
    demo's extension declares and the value of the state after every change: 0 when the
    battle opens (the state leaves a counter at its default out), one more per card played,
    what Flurry then reads, and 0 again when the next turn starts, as desktop CPython counts."""
    since = demo.mark()
    demo.restart()
    desktop = Desktop()
    (combo,) = [c for c in desktop.call("schema")["counters"] if c["name"] == "combo"]
    opened = demo.said("counters", since)[-1]
    assert list(opened) == ["combo"] and opened["combo"]["label"] == combo["label"]["english"]
    assert opened["combo"]["value"] == combo["default"] == 0
    assert "combo" not in desktop.on_session("state")["state"].get("counters", {})
    shown = []
    # Strike at the Orc, Quartermaster on the play area, Flurry at the Goblin.
    for card, target in (("h1", "orc"), ("h10", None), (FLURRY, "goblin")):
        since = demo.mark()
        end = demo.unit(target) if target else demo.point("play")
        played = demo.drag(demo.card(card), end, "played")
        expected = desktop.play(card, target)["state"]["counters"]["combo"]
        assert played["result"]["state"]["counters"]["combo"] == expected
        (chip,) = demo.said("counters", since)  # one state, one report
        assert chip["combo"]["value"] == expected, (card, chip)
        shown.append(expected)
        if card == "h10":
            demo.do({"wait_ms": 200}, {"screenshot": str(ARTIFACTS / "demo_combo.png")})
    assert shown == [1, 2, 3]
    flurry = [e for e in played["result"]["events"] if e["type"] == "damage"]
    assert flurry[0]["base"] == 3 * 2 + 2  # the Combo of 2 shown before it was played
    # The next turn: the runtime sets the Combo back, and the chip with it.
    since = demo.mark()
    turn = demo.end_turn()
    assert turn["result"]["state"]["counters"]["combo"] == 0
    assert desktop.end_turn()["state"]["counters"]["combo"] == 0
    assert demo.said("counters", since)[-1]["combo"]["value"] == 0
    # Where it shows: right of the energy orb, between the field and the hand.
    x, y = chip["combo"]["point"]
    units_bottom = max(at[1] for at in demo.layout["units"].values())
    cards_top = min(at[1] for at in demo.layout["cards"].values())
    assert demo.point("end_turn")[0] > x > 200 and units_bottom < y < cards_top


def test_the_engine_reported_no_errors(demo):
    assert demo.errors == []
    assert not any(text.startswith(f"{PREFIX}error ") for text in demo.lines)


def test_the_last_blow_shows_victory_and_play_again_restarts(nearly_won):
    before, after = ARTIFACTS / "demo_before_victory.png", ARTIFACTS / "demo_victory.png"
    nearly_won.do({"wait_ms": 200}, {"screenshot": str(before)})
    played = nearly_won.drag(nearly_won.card("h2"), nearly_won.point("play"), "played")
    assert played["result"]["state"]["result"] == "victory"
    shown = nearly_won.wait_for("result", 0)
    assert shown["result"] == "victory"
    nearly_won.do({"wait_ms": 200}, {"screenshot": str(after)})
    # The overlay dims the battle and writes "Victory!" in gold across the middle.
    assert brightness(after) < 0.8 * brightness(before)
    assert gold_pixels(after, 320, 960) > 3 * gold_pixels(before, 320, 960) + 500
    # While it shows, a drag across the battle behind it plays nothing.
    since = nearly_won.mark()
    nearly_won.do({"drag": [*nearly_won.card("h1"), *nearly_won.unit("orc"), DRAG_STEPS]},
                  {"wait_ms": 300})  # fmt: skip
    assert nearly_won.said("played", since) == [] and nearly_won.said("aim", since) == []
    # Play Again opens the same battle afresh, and it can be won again.
    since = nearly_won.mark()
    nearly_won.do({"click": shown["play_again"]})
    ready = nearly_won.wait_for("ready", since)
    assert ready["turn"] == 1 and "h2" in ready["hand"]
    again = nearly_won.drag(nearly_won.card("h2"), nearly_won.point("play"), "played")
    assert again["result"]["state"]["result"] == "victory"
    assert nearly_won.errors == []
    assert not any(text.startswith(f"{PREFIX}error ") for text in nearly_won.lines)


# -- helpers --------------------------------------------------------------------------------


def gold_pixels(path: Path, left: int, right: int) -> int:
    """Gold pixels (the result's colour, ffd54a, and its antialiased edges) in columns
    ``left``..``right`` of the middle third of the screen."""
    _, _, pixels = read_png(path)
    count = 0
    for y in range(HEIGHT // 3, 2 * HEIGHT // 3):
        for x in range(left, right):
            i = (y * WIDTH + x) * 3
            r, g, b = pixels[i : i + 3]
            if r > 180 and g > 140 and b < 120 and r >= g > b + 60:
                count += 1
    return count


def demo_unit(state: dict[str, Any], unit_id: str) -> dict[str, Any]:
    found: dict[str, Any] = next(u for u in state["units"] if u["id"] == unit_id)
    return {"armor": 0, **found}


def log_texts(response: dict[str, Any]) -> list[str]:
    return [line["text"] for line in response["result"]["log"]]


def arrow_pixels(aimed: Path, plain: Path, left: int, right: int) -> int:
    """Pixels in columns ``left``..``right`` that are gold in ``aimed`` and not in ``plain``."""
    _, _, after = read_png(aimed)
    _, _, before = read_png(plain)
    count = 0
    for y in range(HEIGHT):
        for x in range(left, right):
            i = (y * WIDTH + x) * 3
            r, g, b = after[i : i + 3]
            changed = sum(abs(after[i + k] - before[i + k]) for k in range(3)) > 60
            if changed and r > 150 and g > 90 and b < 120 and r >= g > b + 40:
                count += 1
    return count
