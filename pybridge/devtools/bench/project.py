"""A game's own battles, played with its own words: ``pybridge bench --project DIR --battle FILE``.

The other sections measure the runtime on the package's demo battle with the built-in
vocabulary. This one reads the game's extension modules (its ``project.godot`` list and any
``--extension`` files, as ``simulate`` and ``lint`` do), its card libraries and its battle
documents, then plays each battle to its end with random legal plays, seed ``i`` for battle
``i``. A choice an extension's action asks (a Scry's "which cards stay on top") takes its
default answer, as a preview's does, so the extension's words run as they do in the game.

Besides the speed, it counts what the extensions' words did: the events they declared, the
choices they declared that were made, the changes of their counters, and the plays of cards
whose Behavior runs one of their node types. A word counted zero times was never played.
"""

from __future__ import annotations

import json
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ... import extensions
from ...autoplay import play_out
from ...runtime import Battle, CardDef, Pcg32, load_battle, load_library
from ...runtime.choices import DEFAULT_ANSWERS
from ...runtime.vocabulary import Vocabulary, extensions_used, words_of
from ...simulate.engine import POLICY_STREAM
from ...simulate.progress import Progress
from .plan import BenchPlan
from .stats import quiet_heap


class ProjectError(ValueError):
    """A game's file that cannot be read: the message names it."""


@dataclass(frozen=True, slots=True)
class GameBattles:
    """What the section plays: the battles, read with the game's words and card libraries."""

    project: str | None
    extension_files: tuple[Path, ...]
    words: Vocabulary | None
    battles: tuple[tuple[Path, Battle], ...]


def _json(path: Path, what: str) -> object:
    try:
        return json.loads(path.read_text("utf-8"))
    except (OSError, ValueError) as exc:
        raise ProjectError(f"{what} {path}: {exc}") from None


def read_game(project: str | None, extension_files: Sequence[str], battles: Sequence[str],
              libraries: Sequence[str] = ()) -> GameBattles:  # fmt: skip
    """Load the game's extensions, then its libraries and battles with them. Raises
    :class:`ProjectError` or :class:`~pybridge.extensions.ExtensionError` naming the file."""
    if not battles:
        raise ProjectError("name the game's battles to play with --battle FILE")
    files = extensions.from_options(project, extension_files)
    words = extensions.load(files).words if files else None
    library: dict[str, CardDef] = {}
    for name in libraries:
        try:
            library.update(load_library(_json(Path(name), "card library"), words))
        except ValueError as exc:
            raise ProjectError(f"card library {name}: {exc}") from None
    read: list[tuple[Path, Battle]] = []
    for name in battles:
        try:
            read.append((Path(name), load_battle(_json(Path(name), "battle"), library, words)))
        except ValueError as exc:
            raise ProjectError(f"battle {name}: {exc}") from None
    return GameBattles(project, tuple(files), words, tuple(read))


def _extension_counts(
    battle: Battle,
    events: Counter[str],
    choices: Counter[str],
    counters: Counter[str],
    node_plays: Counter[str],
) -> dict[str, Any]:
    """What of the counted belongs to an extension, by table, in name order."""
    owners = words_of(battle).owners

    def own(table: str, counted: Counter[str]) -> dict[str, int]:
        return {name: counted[name] for name in sorted(counted) if owners.get((table, name))}

    return {"events": own("events", events), "choices": own("choices", choices),
            "counters": own("counters", counters),
            "node_types": own("node_types", node_plays)}  # fmt: skip


def play_battles(prototype: Battle, battles: int, max_turns: int, progress: bool = False,
                 label: str = "battles") -> dict[str, Any]:  # fmt: skip
    """Play ``battles`` copies of ``prototype`` (seed ``i``) with random legal plays; how fast,
    how they ended, and every event, choice and counter change counted."""
    owners = words_of(prototype).owners
    # The extension node types each card definition runs, found once.
    runs = {cid: sorted({node.type.name for node in card.behavior.nodes.values()
                         if owners.get(("node_types", node.type.name))})
            for cid, card in prototype.library.items()}  # fmt: skip
    events: Counter[str] = Counter()
    choices: Counter[str] = Counter()
    counters: Counter[str] = Counter()
    node_plays: Counter[str] = Counter()
    results: Counter[str] = Counter()
    plays = turns = 0
    with Progress(battles, progress, label) as bar, quiet_heap():
        started = time.perf_counter()
        for seed in range(battles):
            battle = prototype.clone()
            battle.seed, battle.rng = seed, Pcg32(seed)
            battle.answers = DEFAULT_ANSWERS  # choices take their defaults, as in a preview
            for kind, happened in play_out(battle, max_turns, Pcg32(seed, POLICY_STREAM)):
                for event in happened:
                    kind_of = event["type"]
                    events[kind_of] += 1
                    if kind_of == "choice_made":
                        choices[event["choice"]] += 1
                    elif kind_of == "counter":
                        counters[event["counter"]] += 1
                    elif kind_of == "card_played" and kind == "play":
                        node_plays.update(runs.get(battle.cards[event["card"]].card.id, ()))
                plays += kind == "play"
            results[battle.result or "undecided"] += 1
            turns += battle.turn
            bar.advance(1)
        seconds = time.perf_counter() - started
    return {
        "battles": battles,
        "seconds": seconds,
        "battles_per_second": battles / seconds,
        "plays_per_second": plays / seconds,
        "mean_turns": turns / battles,
        "plays": plays,
        "results": dict(sorted(results.items())),
        "events": dict(sorted(events.items())),
        "extension_words": _extension_counts(prototype, events, choices, counters, node_plays),
    }


def run_project(game: GameBattles, plan: BenchPlan, say: Callable[[str], None]) -> dict[str, Any]:
    """Every battle of ``game``, ``plan.battles`` times each."""
    loaded = [] if game.words is None else list(game.words.extensions.values())
    out: dict[str, Any] = {
        "project": game.project,
        "extensions": [
            {**extension.to_json(), "file": str(path)}
            for extension, path in zip(loaded, game.extension_files, strict=True)
        ],
        "max_turns": plan.max_turns,
        "battles": {},
    }
    for path, battle in game.battles:
        say(f"project: {plan.battles} battles of {path.name}")
        played = play_battles(battle, plan.battles, plan.max_turns, plan.progress, path.name)
        out["battles"][str(path)] = {"extensions_used": extensions_used(battle), **played}
    return out
