"""The demo's party battle through the C host: the simulated Godot engine (tests/c/godot_host.c)
loads libpybridge as its GDExtension, the library loads the extension the demo project names
(through ``PYBRIDGE_EXTENSIONS``, as a desktop bundle of the demo would carry it), and the
battle is opened with the demo's card library, as the party scene opens it. Foresight (Scry),
Drain Touch and Flurry (Combo) are played; every reply is what desktop CPython answers.

Nothing here skips: without gcc these tests fail.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

import pybridge
from pybridge import extensions
from pybridge.demo import DEMO_PROJECT
from pybridge.devtools.build import build as ffi_build

from .demo_support import Desktop, canonical, party_battle, party_libraries
from .godot_host_support import compile_host, parse
from .native_support import run

#: The host plays a scripted battle of the shared example after the requests it is given.
EXAMPLE = Path(pybridge.__file__).parent / "examples" / "demo_battle.json"
FORESIGHT, DRAIN_TOUCH, FLURRY = "h13", "h14", "h15"


@dataclass
class Played:
    """The host's replies, one per request, and what the CPython twin answered."""

    replies: list[dict[str, Any]]
    asked: dict[str, Any]  # the twin's Scry choice
    expected: list[dict[str, Any]]  # the twin's results of the three plays


@pytest.fixture(scope="module")
def host_run(tmp_path_factory: pytest.TempPathFactory) -> Played:
    """The party battle's plays through the host, and the twin's answers to them."""
    work = tmp_path_factory.mktemp("demo_c_host")
    library = ffi_build.build(work / "lib")
    host = compile_host(work / "godot_host")
    twin = Desktop()
    # The Scry is answered as a player would after seeing what it asks: keep the second card.
    asked = twin.refusal("play", card=FORESIGHT)["choice"]
    answer = {asked["key"]: [asked["options"][1]]}
    requests: list[dict[str, Any]] = [
        {"op": "open", "id": 1, "battle": party_battle(), "libraries": party_libraries()},
        {"op": "play", "id": 2, "session": "s1", "card": FORESIGHT},
        {"op": "play", "id": 3, "session": "s1", "card": FORESIGHT, "choices": answer},
        {"op": "play", "id": 4, "session": "s1", "card": DRAIN_TOUCH, "target": "goblin"},
        {"op": "play", "id": 5, "session": "s1", "card": FLURRY, "target": "orc"},
        {"op": "close", "id": 6, "session": "s1"},
    ]
    lines = work / "requests.jsonl"
    lines.write_text("".join(json.dumps(r, separators=(",", ":")) + "\n" for r in requests))
    named = extensions.project_extensions(DEMO_PROJECT)
    assert named, "the demo project names its extension in project.godot"
    env = {**os.environ, "PYBRIDGE_EXTENSIONS": os.pathsep.join(map(str, named)),
           "GODOT_HOST_REQUESTS": str(lines)}  # fmt: skip
    result = run(host, library, "4.6", "local", EXAMPLE, pybridge.__version__, timeout=180,
                 env=env)  # fmt: skip
    seen = parse(result.returncode, result.stdout, result.stderr)
    assert seen.returncode == 0, seen.stderr
    assert seen.summary["strings_live"] == "0" and seen.summary["objects_live"] == "0"
    replies = [seen.reply(f"request{n}") for n in range(1, len(requests) + 1)]
    expected = [twin.play(FORESIGHT, choices=answer), twin.play(DRAIN_TOUCH, "goblin"),
                twin.play(FLURRY, "orc")]  # fmt: skip
    return Played(replies, asked, expected)


def test_the_party_battle_opens_in_the_c_host_with_the_demos_library(host_run: Played) -> None:
    replies = host_run.replies
    opened = replies[0]
    assert opened["ok"] and opened["result"]["session"] == "s1", opened
    hand = {c["id"]: c["card"] for c in opened["result"]["state"]["piles"]["hand"]}
    assert (hand[FORESIGHT], hand[DRAIN_TOUCH], hand[FLURRY]) == ("foresight", "drain_touch",
                                                                   "flurry")  # fmt: skip
    assert replies[-1]["ok"]  # closed


def test_foresight_asks_its_scry_and_plays_with_the_answer(host_run: Played) -> None:
    replies = host_run.replies
    asked = replies[1]
    assert asked["ok"] is False and asked["error"]["code"] == "choice_needed", asked
    choice = asked["error"]["choice"]
    assert choice["kind"] == "scry" and choice["chooses"] == "cards" and choice["card"] == FORESIGHT
    assert choice == host_run.asked
    played = replies[2]["result"]
    assert canonical(played["events"]) == canonical(host_run.expected[0]["events"])
    scried = next(e for e in played["events"] if e["type"] == "scried")
    assert (scried["looked"], scried["kept"], scried["discarded"]) == (3, 1, 2)
    assert played["state"]["piles"]["draw"][0]["id"] == choice["options"][1]
    assert played["state"]["counters"] == {"combo": 1}


def test_drain_touch_and_flurry_play_with_their_events(host_run: Played) -> None:
    drained, flurry = host_run.replies[3]["result"], host_run.replies[4]["result"]
    assert canonical(drained["events"]) == canonical(host_run.expected[1]["events"])
    assert canonical(flurry["events"]) == canonical(host_run.expected[2]["events"])
    (heal,) = [e for e in drained["events"] if e["type"] == "heal"]
    assert heal["unit"] == "cleric" and heal["amount"] > 0
    combo = drained["state"]["counters"]["combo"]
    hits = [e for e in flurry["events"] if e["type"] == "damage" and e["source"] == "knight"]
    assert combo == 2 and [(e["unit"], e["base"]) for e in hits] == [("orc", 3 * combo + 2)]
    assert flurry["state"]["counters"] == {"combo": 3}
