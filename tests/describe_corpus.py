"""Every card, move and status the project ships or tests with, described: the example
libraries and battles, the demo's cards and battles, the fuzz seeds' battles and definitions,
and the Workshop's templates. ``tests/data/golden/describe_texts.json`` pins their generated
English (``python -m tests.describe_corpus`` writes it again, after a wanted change).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from pybridge.authoring.describe import spoken_card, spoken_move, spoken_status
from pybridge.authoring.speech import Spoken
from pybridge.authoring.templates import card_templates
from pybridge.devtools.fuzz_seeds import fuzzer_battles, law_documents, seed_cases
from pybridge.examples import demo_battle
from pybridge.extensions import load, project_extensions
from pybridge.runtime import load_battle
from pybridge.runtime.definitions import load_library, parse_card
from pybridge.runtime.errors import TargetingError
from pybridge.runtime.migrate import LIBRARY, versions
from pybridge.runtime.reader import Reader
from pybridge.runtime.vocabulary import Vocabulary

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = ROOT / "tests" / "data" / "golden" / "describe_texts.json"
DEMO = ROOT / "demo_project"
FILES = (
    *sorted((ROOT / "pybridge" / "examples").glob("*.json")),
    DEMO / "cards" / "mechanics.json",
    *sorted((DEMO / "battles").glob("*.json")),
    *sorted((ROOT / "tests" / "data").glob("*.json")),
)


def _documents() -> Iterator[tuple[str, Any]]:
    for path in FILES:
        yield path.relative_to(ROOT).as_posix(), json.loads(path.read_text("utf-8"))
    for i, battle in enumerate(fuzzer_battles(demo_battle())):
        yield f"fuzz.battle{i}", battle
    for i, document in enumerate(law_documents()):
        yield f"fuzz.law{i}", document
    for i, (_, request) in enumerate(seed_cases(demo_battle())):
        if isinstance(request.get("battle"), dict):
            yield f"fuzz.seed{i}", request["battle"]
        if isinstance(request.get("definition"), dict):
            yield f"fuzz.seed{i}.definition", {"definition": request["definition"]}


def described() -> Iterator[tuple[str, Spoken]]:
    """(where and what, its described text) for everything of the corpus that loads."""
    words: Vocabulary = load(project_extensions(DEMO)).words
    library: dict[str, Any] = {}
    for where, document in _documents():
        try:
            if "definition" in document:
                card = parse_card(Reader(document["definition"], "definition", words=words))
                yield f"{where}: card {card.id}", spoken_card(card, {}, words)
                continue
            if document.get("format") in versions(LIBRARY):
                cards = load_library(document, words)
                library.update(cards)
                for card in cards.values():
                    yield f"{where}: card {card.id}", spoken_card(card, {}, words)
                continue
            battle = load_battle(document, library, words)
        except (TargetingError, KeyError, TypeError, ValueError):
            continue  # a document the loader refuses (the fuzz seeds hold many)
        for card in battle.library.values():
            yield f"{where}: card {card.id}", spoken_card(card, battle.statuses, words)
        for move in battle.moves.values():
            yield f"{where}: move {move.id}", spoken_move(move, battle.statuses)
        for status in battle.statuses.values():
            yield f"{where}: status {status.id}", spoken_status(status, battle.statuses)
    for template in card_templates(words):
        card = parse_card(Reader(template["card"], "template", words=words))
        yield f"template {template['name']}", spoken_card(card, {}, words)


if __name__ == "__main__":
    texts = {where: spoken.text for where, spoken in described()}
    GOLDEN.write_text(json.dumps(texts, indent=1, ensure_ascii=False) + "\n", "utf-8")
    print(f"{len(texts)} texts")
