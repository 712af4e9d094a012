"""The demo's art: every unit and card of its battles has an icon in ``art/game_icons.json``,
drawn into an SVG the pack carries with the set's credit; a missing icon is named."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from pybridge.demo import (
    ART_TABLE,
    CREDIT,
    DUEL_FILE,
    ICON_SET,
    PARTY_FILE,
    PARTY_LIBRARIES,
    RIVALS_FILE,
    demo_art,
    demo_mounts,
    write_demo_art,
)
from pybridge.pack import PackError

TABLE: dict[str, Any] = json.loads(ART_TABLE.read_text("utf-8"))
ICON = {"body": '<path fill="currentColor" d="M0 0h512v512H0z"/>'}


def fake_icons() -> dict[str, Any]:
    names = [name for team in TABLE["units"].values() for name in team.values()]
    return {"icons": {name: ICON for name in [*names, *TABLE["cards"].values()]}}


def test_every_unit_and_card_of_the_demo_has_an_icon() -> None:
    units: dict[str, str] = {}
    cards: set[str] = set()
    for path in (PARTY_FILE, *PARTY_LIBRARIES, DUEL_FILE, RIVALS_FILE):
        document = json.loads(path.read_text("utf-8"))
        units.update({unit["id"]: unit["team"] for unit in document.get("units", [])})
        found = document.get("cards", [])
        cards.update(card["id"] for card in (found.values() if isinstance(found, dict) else found))
    assert {unit: team for team, ids in TABLE["units"].items() for unit in ids} == units
    assert set(TABLE["cards"]) == cards


def test_the_icons_are_drawn_in_the_demos_colours() -> None:
    files = demo_art(TABLE, fake_icons())
    knight, goblin, strike = (
        files["unit_knight.svg"],
        files["unit_goblin.svg"],
        files["card_strike.svg"],
    )
    assert 'width="232" height="200"' in knight and "#3d8fd1" in knight  # the party's blue
    assert "#d0583a" in goblin and "#3d8fd1" not in goblin
    assert 'width="312" height="102"' in strike  # the card's art strip, three times over
    assert "currentColor" not in knight + strike


def test_an_icon_the_set_lacks_is_named() -> None:
    icons = fake_icons()
    del icons["icons"][TABLE["cards"]["hex"]]
    with pytest.raises(PackError, match=TABLE["cards"]["hex"]):
        demo_art(TABLE, icons)


def test_the_art_is_written_with_its_credit_and_mounted(tmp_path: Path) -> None:
    modules = tmp_path / "modules"
    assert write_demo_art(tmp_path / "art", modules) is None  # not installed: initials
    (modules / ICON_SET).mkdir(parents=True)
    (modules / ICON_SET / "icons.json").write_text(json.dumps(fake_icons()))
    art = write_demo_art(tmp_path / "art", modules)
    assert art is not None and (art / "unit_orc.svg").is_file()
    assert (art / "CREDITS.txt").read_text("utf-8").strip() == CREDIT
    assert "CC BY 3.0" in CREDIT and "Game Icons" in CREDIT
    assert demo_mounts(art)["res://art/icons"] == art
