"""The Workshop's links go around the nodes, in the real Godot 4.6 web engine (issue #25,
point 2: "after Arrange, a flow edge is drawn straight through other nodes").

One session on a library holding the guide's Meteor Strike with a finisher (15 damage to every
enemy, then 5 to the one with the lowest health: the first hit's flow link to the finisher
spans the column of the Sort and Take that choose its target) and the draw-pile card as it was
placed by hand. For every link the graph reports the line its router gives
(``get_connection_line`` with the nodes' real rectangles) and GraphEdit's drawn lines; each must
cross no node but its own two ends, and the drawn lines must be those lines. After Arrange the
view is at a readable zoom (at least ``MIN_FIT_ZOOM``, 80 %). Screenshots go to
``artifacts/workshop_routing_*.png``.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from pybridge.runtime import LIBRARY_FORMAT
from pybridge.workshop import library_handler, prepare_workshop_site

from .demo_support import DRAG_STEPS
from .engine_session import ARTIFACTS
from .test_workshop_designer_e2e import RUMMAGE, Designer
from .test_workshop_e2e import SETTLE_MS, booted_workshop, call, written_library
from .web_support import require_browser

#: The zoom below which a node's text is hard to read (the behavior graph's MIN_FIT_ZOOM).
READABLE_ZOOM = 0.8

METEOR_STRIKE: dict[str, Any] = {
    "id": "meteor_strike", "name": "Meteor Strike", "type": "attack", "cost": 2,
    "target": "AllEnemies",
    "text": "Deal 15 damage to all enemies. Deal 5 damage to the enemy with the lowest health.",
    "behavior": {"start": "hit", "nodes": [
        {"id": "foes", "type": "UnitSource", "source": "AllOpponents", "at": [0, 80]},
        {"id": "hit", "type": "DealDamage", "amount": 15, "ports": {"target": "foes"},
         "next": "finish", "at": [280, 80]},
        {"id": "weakest", "type": "Sort", "by": "hp", "order": "asc",
         "ports": {"input": "foes"}, "at": [280, 320]},
        {"id": "first", "type": "Take", "count": 1, "ports": {"input": "weakest"},
         "at": [560, 320]},
        {"id": "finish", "type": "DealDamage", "amount": 5, "ports": {"target": "first"},
         "at": [840, 80]}]},
}  # fmt: skip

Line = list[list[int]]
Rect = list[int]


class Router(Designer):
    def routing_shot(self, name: str) -> Path:
        path = ARTIFACTS / f"workshop_routing_{name}.png"
        self.do({"wait_ms": 150}, {"screenshot": str(path)})
        return path

    def open_card(self, card_id: str) -> dict[str, Any]:
        row = self.points()["library"]["cards"][str(self.state["cards"].index(card_id))]
        state = self.click(row)
        assert state["card"]["id"] == card_id
        return state

    def links(self) -> list[dict[str, Any]]:
        """Every link with its routed line, once the drawn lines are the routed ones."""
        graph = self.points()["graph"]
        links: list[dict[str, Any]] = graph["links"]
        assert links, graph
        assert_drawn_as_routed(graph["drawn"], [link["line"] for link in links])
        return links


def enters(a: list[int], b: list[int], rect: Rect) -> bool:
    """Whether segment ``a``-``b`` passes through the inside of ``rect`` (a pixel in from its
    border, for the rounding of the points)."""
    x, y, w, h = rect[0] + 1, rect[1] + 1, rect[2] - 2, rect[3] - 2
    low, high = 0.0, 1.0
    for start, delta, lo, hi in ((a[0], b[0] - a[0], x, x + w), (a[1], b[1] - a[1], y, y + h)):
        if delta == 0:
            if not lo < start < hi:
                return False
            continue
        t0, t1 = sorted(((lo - start) / delta, (hi - start) / delta))
        low, high = max(low, t0), min(high, t1)
        if low >= high:
            return False
    return True


def crossed(line: Line, rects: dict[str, Rect]) -> list[str]:
    """The ids of the nodes in ``rects`` that ``line`` passes through."""
    return [
        node_id
        for node_id, rect in rects.items()
        if any(enters(line[i], line[i + 1], rect) for i in range(len(line) - 1))
    ]


def assert_routed_clear(graph: dict[str, Any], links: list[dict[str, Any]]) -> None:
    rects = {node_id: node["rect"] for node_id, node in graph["nodes"].items()}
    for link in links:
        others = {k: r for k, r in rects.items() if k not in (link["from"], link["to"])}
        assert crossed(link["line"], others) == [], link


def assert_drawn_as_routed(drawn: list[Line], routed: list[Line]) -> None:
    """GraphEdit draws each routed line as it is routed now (none is left as it was drawn
    before a node moved)."""
    assert len(drawn) == len(routed), (drawn, routed)
    left = list(routed)
    for line in drawn:
        same = [r for r in left if len(r) == len(line) and all(
            abs(p[0] - q[0]) <= 1 and abs(p[1] - q[1]) <= 1 for p, q in zip(r, line, strict=True))
        ]  # fmt: skip
        assert same, (line, left)
        left.remove(same[0])


def between(links: list[dict[str, Any]], from_id: str, to_id: str) -> dict[str, Any]:
    """The link from node ``from_id`` to node ``to_id``."""
    found: dict[str, Any] = next(k for k in links if (k["from"], k["to"]) == (from_id, to_id))
    return found


def straight_crossings(graph: dict[str, Any], link: dict[str, Any]) -> list[str]:
    """The nodes a straight line between ``link``'s two ports would pass through."""
    rects = {node_id: node["rect"] for node_id, node in graph["nodes"].items()}
    others = {k: r for k, r in rects.items() if k not in (link["from"], link["to"])}
    return crossed([link["line"][0], link["line"][-1]], others)


@pytest.fixture(scope="module")
def library_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    document = {"format": LIBRARY_FORMAT, "cards": [METEOR_STRIKE, RUMMAGE]}
    return written_library(tmp_path_factory.mktemp("routing_library"), document)


@pytest.fixture(scope="module")
def router(library_file: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Router]:
    require_browser()
    work = tmp_path_factory.mktemp("workshop_routing")
    site = prepare_workshop_site(work / "site")
    handler = library_handler(library_file)
    with booted_workshop(site, work, "workshop_routing_log.txt", handler, Router) as driver:
        yield driver


def test_the_card_is_lint_clean_so_the_graph_shows_only_links():
    document = {"format": LIBRARY_FORMAT, "cards": [METEOR_STRIKE]}
    assert call("lint", document=document)["diagnostics"] == []


def test_after_arrange_no_link_crosses_a_node_and_the_zoom_is_readable(router):
    router.open_card("meteor_strike")
    router.routing_shot("1_meteor_as_placed")
    assert_routed_clear(router.points()["graph"], router.links())
    router.arrange()
    graph = router.points()["graph"]
    assert graph["zoom"] >= READABLE_ZOOM, graph["zoom"]
    at = {n["id"]: n["at"] for n in router.state["card"]["behavior"]["nodes"]}
    assert at["foes"][0] < at["hit"][0] == at["weakest"][0] < at["first"][0] < at["finish"][0]
    links = router.links()
    # The flow link from the first hit to the finisher spans Take's column: drawn straight
    # (or as the usual curve) it would cross Take; it goes around.
    long = between(links, "hit", "finish")
    assert straight_crossings(graph, long) == ["first"], long
    assert len(long["line"]) > 2
    assert_routed_clear(graph, links)
    # Links between neighbours keep GraphEdit's curve: smooth, no corners of a route.
    short = between(links, "first", "finish")
    assert straight_crossings(graph, short) == []
    router.routing_shot("2_meteor_arranged")


def test_a_node_moved_by_hand_into_a_link_is_gone_around(router):
    graph = router.points()["graph"]
    long = between(graph["links"], "hit", "finish")
    # Take is dragged by its title so that it sits right on the straight way between the ports.
    a, b = long["line"][0], long["line"][-1]
    x, y, w, h = router.node("first")["rect"]
    title = router.node("first")["title"]
    aim = [(a[0] + b[0]) // 2 - w // 2, (a[1] + b[1]) // 2 - h // 3]
    drop = [title[0] + aim[0] - x, title[1] + aim[1] - y]
    router.do({"drag": [*title, *drop, DRAG_STEPS * 2]}, {"wait_ms": SETTLE_MS})
    state = router.sync()
    assert state["history"]["last"].startswith("Move"), state["history"]
    graph = router.points()["graph"]
    links = router.links()
    long = between(links, "hit", "finish")
    assert straight_crossings(graph, long) == ["first"], (long, graph["nodes"]["first"])
    assert_routed_clear(graph, links)
    router.routing_shot("3_node_moved_into_the_link")


def test_a_card_placed_by_hand_links_around_its_nodes(router):
    # The draw-pile card as placed: the Filter sits under the pile it filters, so the link
    # runs back from the pile's right side to the Filter's left side.
    router.open_card("seek")
    graph = router.points()["graph"]
    links = router.links()
    back = between(links, "pile", "keep")
    assert back["line"][-1][0] < back["line"][0][0]
    assert_routed_clear(graph, links)
    # Nor through its own two ends, apart from where it leaves and enters them.
    rects = {k: n["rect"] for k, n in graph["nodes"].items() if k in ("pile", "keep")}
    assert crossed(back["line"][1:-1], rects) == [], back
    router.routing_shot("4_seek_as_placed")


def test_the_engine_reported_no_errors(router):
    assert router.errors == []
