"""Online duels over WebSocket (issue #27, item 3): an in-process server on the loopback,
real clients of the same library, the runtime's own refusals forwarded, and the move log
replayed to the same hashes."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

from pybridge.cli import main
from pybridge.examples import rivals_battle
from pybridge.online.match import Limits, fresh_start
from pybridge.online.replay import replay
from pybridge.online.server import Host, bound_port, start
from pybridge.protocol import Protocol
from tests.test_non_interference import authority_ids_in

WAIT = 10.0  # the longest any awaited state may take before a test fails


class Client:
    """A player's or spectator's connection: answers by id, updates kept as they come."""

    def __init__(self, connection: ClientConnection) -> None:
        self.connection = connection
        self.updates: list[dict[str, Any]] = []
        self.received: list[dict[str, Any]] = []  # every message, in order
        self._ids = 0

    async def send(self, **message: Any) -> dict[str, Any]:
        self._ids += 1
        message["id"] = self._ids
        await self.connection.send(json.dumps(message))
        while True:
            reply = await self.receive()
            if reply.get("type") != "update" and reply.get("id") == self._ids:
                return reply

    async def receive(self) -> dict[str, Any]:
        text = await asyncio.wait_for(self.connection.recv(), WAIT)
        reply: dict[str, Any] = json.loads(text)
        self.received.append(reply)
        if reply.get("type") == "update":
            self.updates.append(reply)
        return reply

    async def ask(self, **request: Any) -> dict[str, Any]:
        answer = await self.send(type="request", request=request)
        assert answer["type"] == "answer", answer
        return answer["response"]  # type: ignore[no-any-return]

    async def until_step(self, step: int) -> dict[str, Any]:
        """The update of ``step``, waiting for it."""
        while not self.updates or self.updates[-1]["step"] < step:
            await self.receive()
        return next(u for u in self.updates if u["step"] == step)


Server = Callable[..., Awaitable[Client]]


@asynccontextmanager
async def serving(
    tmp_path: Path,
    limits: Limits | None = None,
    fixed_order: bool = False,
    battle: dict[str, Any] | None = None,
) -> AsyncIterator[tuple[Host, Callable[..., Awaitable[Client]]]]:
    host = Host(battle or rivals_battle(), limits, logs=tmp_path, fixed_order=fixed_order)
    server = await start(host)
    url = f"ws://127.0.0.1:{bound_port(server)}"
    opened: list[ClientConnection] = []

    async def client(**options: Any) -> Client:
        connection = await connect(url, **options)
        opened.append(connection)
        return Client(connection)

    try:
        yield host, client
    finally:
        for connection in opened:
            await connection.close()
        server.close()
        await server.wait_closed()


def hand(view: dict[str, Any], team: str) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = next(
        s["piles"]["hand"] for s in view["sides"] if s["team"] == team
    )
    return found


async def seated(client: Callable[..., Awaitable[Client]]) -> tuple[Client, Client, str]:
    aya, vex = await client(), await client()
    created = await aya.send(type="create")
    assert created["type"] == "joined" and created["seat"] == "player", created
    joined = await vex.send(type="join", match=created["match"])
    assert joined["seat"] == "enemy" and joined["token"] != created["token"]
    aya.token, vex.token = created["token"], joined["token"]  # type: ignore[attr-defined]
    aya.view, vex.view = created["view"], joined["view"]  # type: ignore[attr-defined]
    return aya, vex, created["match"]


async def take_turn(seats: dict[str, Client], step: int) -> int:
    """One move by whoever acts now (a strike or barrage if one is playable, else pass or
    end the turn), asked of the runtime through the server; returns the new step."""
    cut = (await seats["player"].ask(op="cut"))["result"]
    seat = cut["side"]
    me = seats[seat]
    view = (await me.ask(op="view"))["result"]["view"]
    if not cut["cut"]:
        for card in hand(view, seat):
            if card.get("card") not in ("strike", "barrage"):
                continue
            aim = (await me.ask(op="targets", card=card["id"]))["result"]
            if aim["playable"]:
                target = aim["candidates"][0] if aim["candidates"] else None
                done = await me.ask(op="play", card=card["id"], target=target)
                assert done["ok"], done
                return int(done["result"]["step"])
    done = await me.ask(op="pass" if cut["cut"] else "end_turn")
    assert done["ok"], done
    return int(done["result"]["step"])


async def play_out(seats: dict[str, Client], watchers: list[Client], most: int = 200) -> int:
    step = 0
    for _ in range(most):
        step = await take_turn(seats, step)
        updates = [await c.until_step(step) for c in (*seats.values(), *watchers)]
        assert len({u["by"] for u in updates}) == 1
        if updates[0]["result"] is not None:
            return step
    raise AssertionError("the duel did not end")


def test_two_clients_play_a_duel_to_the_end_and_its_log_replays(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    async def duel() -> tuple[int, str]:
        async with serving(tmp_path) as (_, client):
            aya, vex, match = await seated(client)
            watcher = await client()
            assert (await watcher.send(type="spectate", match=match))["seat"] == "spectator"
            last = await play_out({"player": aya, "enemy": vex}, [watcher])
            results = {c.updates[-1]["result"] for c in (aya, vex, watcher)}
            assert len(results) == 1 and results != {None}
            # Each seat's last update is its own view: its hand faces, the other's backs.
            final = {seat: c.updates[-1]["state"] for seat, c in (("player", aya), ("enemy", vex))}
            assert final["player"]["view"]["viewer"] == "player"
            assert all(set(c) == {"id"} for c in hand(final["player"], "enemy"))
            # No client is told a card by the battle's own instance id (log lines and their
            # sentences included): it could follow a card through the hidden piles.
            battle = rivals_battle()
            ids = {c["id"] for s in battle["sides"] for p in s["piles"].values() for c in p}
            for seat in (aya, vex, watcher):
                assert seat.received and not authority_ids_in(seat.received, ids)
            assert any(line["message"]["params"].get("card") for u in aya.updates
                       for line in u["log"])  # fmt: skip
            return last, match

    last, match = asyncio.run(duel())
    log_file = tmp_path / f"{match}.json"
    log = json.loads(log_file.read_text("utf-8"))
    assert len(log["steps"]) == last and replay(log).mismatch is None
    assert main(["replay", str(log_file)]) == 0
    assert f"{last} steps" in capsys.readouterr().out
    # A tampered log: a strike's target changed at one step (or its hash) is named.
    log["steps"][1]["hash"] = "0" * 64
    tampered = tmp_path / "tampered.json"
    tampered.write_text(json.dumps(log), "utf-8")
    assert main(["replay", str(tampered)]) == 1
    assert "step 2" in capsys.readouterr().err
    log = json.loads(log_file.read_text("utf-8"))
    log["steps"][0]["request"]["op"] = (
        "end_turn" if log["steps"][0]["request"]["op"] == "play" else "play"
    )
    assert replay(log).mismatch == 1


def test_a_seat_reconnects_with_its_token_and_gets_its_view_back(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with serving(tmp_path) as (_, client):
            aya, vex, match = await seated(client)
            step = await take_turn({"player": aya, "enemy": vex}, 0)
            before = (await vex.until_step(step))["state"]
            await vex.connection.close()
            again = await client()
            resumed = await again.send(type="join", match=match, token=vex.token)  # type: ignore[attr-defined]
            assert resumed["seat"] == "enemy" and "token" not in resumed
            assert resumed["view"] == before and resumed["step"] == step
            wrong = await (await client()).send(type="join", match=match, token="forged")
            assert wrong["type"] == "error" and wrong["error"]["code"] == "bad_token"
            full = await (await client()).send(type="join", match=match)
            assert full["error"]["code"] == "match_full"
            # The seat goes on: the next move reaches the new connection.
            step = await take_turn({"player": aya, "enemy": again}, step)
            assert (await again.until_step(step))["state"]["view"]["viewer"] == "enemy"

    asyncio.run(scenario())


def own_refusal(host: Host, match: str, viewer: str, **request: Any) -> dict[str, Any]:
    """The runtime's refusal of ``request`` by ``viewer``, asked of a protocol of its own
    opened from the authority's snapshot (its view secret included: the same card ids)."""
    protocol = Protocol()
    opened = json.loads(
        protocol.call(json.dumps({"op": "open", "battle": host.rooms[match].match.snapshot()}))
    )
    answer = json.loads(
        protocol.call(
            json.dumps({**request, "session": opened["result"]["session"], "viewer": viewer})
        )
    )
    assert not answer["ok"], answer
    return answer["error"]  # type: ignore[no-any-return]


def test_acting_for_the_other_seat_out_of_turn_or_at_a_forged_target_is_refused(
    tmp_path: Path,
) -> None:
    async def scenario() -> None:
        async with serving(tmp_path, fixed_order=True) as (host, client):  # strikes in hand
            aya, vex, match = await seated(client)
            strike = next(c for c in hand(aya.view, "player") if c["card"] == "strike")  # type: ignore[attr-defined]
            as_other = await aya.ask(op="end_turn", viewer="enemy")
            assert as_other["error"]["code"] == "not_your_seat"
            side = await aya.ask(op="end_turn", side="enemy")
            assert side["error"]["code"] == "invalid_field" and side["error"]["where"] == "side"
            out_of_turn = await vex.ask(op="end_turn")
            assert out_of_turn["error"] == own_refusal(host, match, "enemy", op="end_turn")
            forged = await aya.ask(op="play", card=strike["id"], target="kit")
            assert forged["error"]["code"] == "not_a_candidate"
            assert forged["error"] == own_refusal(
                host, match, "player", op="play", card=strike["id"], target="kit"
            )
            theirs = next(c for c in hand(vex.view, "enemy") if c["card"] == "strike")  # type: ignore[attr-defined]
            stolen = await aya.ask(op="play", card=theirs["id"], target="vex")
            real = await aya.ask(op="play", card="a1", target="vex")  # an instance id
            assert not stolen["ok"] and not real["ok"]
            # Nothing changed: no step, and the same refusal as the protocol's own.
            assert host.rooms[match].match.step == 0 and not aya.updates
            assert (await aya.ask(op="play", card=strike["id"], target="vex"))["ok"]

    asyncio.run(scenario())


def test_a_card_that_searches_a_seats_draw_pile_is_that_seats_choice_alone(
    tmp_path: Path,
) -> None:
    """The player's Tutor (it puts an attack from its draw pile into its hand, chosen as it
    resolves) over the wire: the enemy seat sees no candidate, cannot pick or answer for the
    player, and its pass leaves the choice to the player, who sees what its search finds."""
    battle = rivals_battle()
    battle["cards"].append({
        "id": "tutor", "name": "Tutor", "type": "skill", "rarity": "common", "cost": 0,
        "target": "None", "text": "Put an attack from your draw pile into your hand.",
        "choose_on_resolve": True,
        "card_targets": {"zones": ["draw"], "where": {"type": "attack"}},
        "behavior": {"start": "m", "nodes": [
            {"id": "c", "type": "CardSource", "source": "ChosenCards"},
            {"id": "m", "type": "MoveCard", "to": "hand", "ports": {"target": "c"}}]}})  # fmt: skip
    battle["sides"][0]["piles"]["hand"][0]["card"] = "tutor"

    async def scenario() -> None:
        async with serving(tmp_path, fixed_order=True, battle=battle) as (host, client):
            aya, vex, match = await seated(client)
            tutor = next(c for c in hand(aya.view, "player") if c["card"] == "tutor")  # type: ignore[attr-defined]
            assert (await aya.ask(op="activate", card=tutor["id"]))["ok"]
            cut = (await vex.ask(op="cut"))["result"]
            late = cut["cut"][0]["late_choice"]
            assert cut["awaiting_choice"] == "e1" and late["candidates"] == []
            assert "faces" not in late
            mine = (await aya.ask(op="cut"))["result"]["cut"][0]["late_choice"]
            assert sorted(mine["faces"].values()) == ["barrage", "strike", "strike", "strike"]
            step = host.rooms[match].match.step
            picked = await vex.ask(op="pick", entry="e1")
            assert picked["error"]["code"] == "cut"
            answered = await vex.ask(op="pass", choices={"e1": mine["candidates"][:1]})
            assert "the player side's" in answered["error"]["message"]
            assert host.rooms[match].match.step == step  # nothing changed
            assert (await vex.ask(op="pass"))["ok"]  # the player's to choose now
            again = await vex.ask(op="pass")
            assert "waits for the player side" in again["error"]["message"]
            done = await aya.ask(op="pass", choices={"e1": mine["candidates"][:1]})
            assert done["ok"], done
            assert not any("faces" in json.dumps(u) for u in vex.updates)

    asyncio.run(scenario())


def test_a_spectator_sees_no_hand_and_cannot_act(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with serving(tmp_path) as (_, client):
            aya, vex, match = await seated(client)
            watcher = await client()
            joined = await watcher.send(type="spectate", match=match)
            step = await take_turn({"player": aya, "enemy": vex}, 0)
            seen = (await watcher.until_step(step))["state"]
            for view in (joined["view"], seen):
                for team in ("player", "enemy"):
                    assert hand(view, team) and all(set(c) == {"id"} for c in hand(view, team))
            refused = await watcher.ask(op="end_turn")
            assert refused["error"]["code"] == "not_your_turn"

    asyncio.run(scenario())


def test_oversize_bad_origin_idle_and_garbage_are_handled(tmp_path: Path) -> None:
    async def scenario() -> None:
        limits = Limits(max_message=4096)
        async with serving(tmp_path, limits) as (_, client):
            aya, _, _ = await seated(client)
            garbage = await aya.send(type="request", request="not an object")
            assert garbage["response"]["error"]["code"] == "bad_request"
            await aya.connection.send("{not json")
            assert (await aya.receive())["error"]["code"] == "bad_json"
            big = await client()
            await big.connection.send(json.dumps({"type": "create", "pad": "x" * 8000}))
            with pytest.raises(ConnectionClosed):
                await big.receive()
            assert big.connection.close_code == 1009  # message too big
            with pytest.raises(InvalidStatus) as refused:
                await client(origin="https://elsewhere.example")
            assert refused.value.response.status_code == 403
            assert b"origin not allowed" in refused.value.response.body
            assert (await client(origin="http://localhost:8060")) is not None
            # The match the others played is unharmed.
            assert (await aya.ask(op="end_turn"))["ok"]

    asyncio.run(scenario())


def test_an_idle_client_is_closed_with_a_reason(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with serving(tmp_path, Limits(idle=0.3)) as (_, client):
            quiet = await client()
            with pytest.raises(ConnectionClosed):
                await quiet.connection.recv()  # nothing sent: the idle timeout closes it
            assert quiet.connection.close_code == 4000
            assert "idle" in (quiet.connection.close_reason or "")

    asyncio.run(scenario())


@pytest.mark.parametrize("deflate", [False, True])
def test_messages_are_deflated_only_when_the_server_is_asked_to(deflate: bool) -> None:
    async def scenario() -> list[str]:
        server = await start(Host(rivals_battle(), deflate=deflate))
        try:
            url = f"ws://127.0.0.1:{bound_port(server)}"
            async with connect(url) as connection:  # the client offers permessage-deflate
                await connection.send(json.dumps({"type": "create", "id": 1}))
                joined = json.loads(await asyncio.wait_for(connection.recv(), WAIT))
                assert joined["type"] == "joined" and joined["view"]["view"]["viewer"] == "player"
                return [type(e).__name__ for e in connection.protocol.extensions]
        finally:
            server.close()
            await server.wait_closed()

    extensions = asyncio.run(scenario())
    assert extensions == (["PerMessageDeflate"] if deflate else [])


def test_a_serving_process_keeps_its_loaded_objects_out_of_the_collector() -> None:
    code = (
        "import gc; from pybridge.online.server import YOUNG_GENERATION, tune_collector; "
        "before = gc.get_threshold(); tune_collector(); "
        "print(before[0], gc.get_threshold()[0] == YOUNG_GENERATION, gc.get_freeze_count() > 0, "
        "gc.get_threshold()[1:] == before[1:])"
    )
    shown = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert shown.stdout.split() == ["700", "True", "True", "True"]


async def until(check: Callable[[], bool]) -> None:
    """Wait until ``check`` holds (a failure guard of WAIT seconds, no fixed sleep)."""
    async with asyncio.timeout(WAIT):
        while not check():
            await asyncio.sleep(0.01)


def test_a_match_nobody_is_connected_to_is_forgotten_and_a_returning_seat_keeps_it(
    tmp_path: Path,
) -> None:
    async def scenario() -> None:
        async with serving(tmp_path, Limits(abandon=0.3)) as (host, client):
            aya, vex, name = await seated(client)
            kept_token = vex.token  # type: ignore[attr-defined]
            await aya.connection.close()
            await vex.connection.close()
            back = await client()  # a seat coming back within the time keeps the match
            joined = await back.send(type="join", match=name, token=kept_token)
            assert joined["type"] == "joined" and joined["seat"] == "enemy"
            await asyncio.sleep(0.6)  # past the abandon time, with a seat connected
            assert name in host.rooms
            await back.connection.close()
            await until(lambda: name not in host.rooms)  # nobody left: forgotten
            late = await client()
            refused = await late.send(type="join", match=name, token=kept_token)
            assert refused["type"] == "error" and refused["error"]["code"] == "unknown_match"

    asyncio.run(scenario())


def test_one_address_cannot_fill_the_server_with_matches_it_leaves(tmp_path: Path) -> None:
    async def scenario() -> None:
        limits = Limits(matches_per_address=3, abandon=0.3)
        async with serving(tmp_path, limits) as (host, client):
            for _ in range(3):  # created and left at once, as a hostile client would
                creator = await client()
                assert (await creator.send(type="create"))["type"] == "joined"
                await creator.connection.close()
            refused = await (await client()).send(type="create")
            assert refused["type"] == "error" and refused["error"]["code"] == "too_many_matches"
            assert "3 matches" in refused["error"]["message"]
            await until(lambda: not host.rooms)  # all three abandoned: forgotten
            assert (await (await client()).send(type="create"))["type"] == "joined"

    asyncio.run(scenario())


def dealt(snapshot: dict[str, Any]) -> list[list[str]]:
    """Each side's hand and draw pile, by instance id, in order: the match's hidden deal."""
    return [
        [c["id"] for pile in ("hand", "draw") for c in s["piles"][pile]] for s in snapshot["sides"]
    ]


def test_every_match_deals_anew_and_keeps_its_seed_and_secret_from_every_client(
    tmp_path: Path,
) -> None:
    """Two matches from one document (a saved state holding a view secret) get their own
    seed, RNG, deal and secret; the document's are never used, and no client hears them."""
    document = rivals_battle() | {"secret": "5e" * 32, "stints": {}}
    written = json.loads(json.dumps(document))

    async def scenario() -> list[tuple[dict[str, Any], list[dict[str, Any]]]]:
        found = []
        async with serving(tmp_path) as (host, client):
            host.battle = document
            for _ in range(2):
                aya, vex, match = await seated(client)
                watcher = await client()
                seen = [aya.view, vex.view]  # type: ignore[attr-defined]
                seen.append((await watcher.send(type="spectate", match=match))["view"])
                step = await take_turn({"player": aya, "enemy": vex}, 0)
                seen += [(await c.until_step(step))["state"] for c in (aya, vex, watcher)]
                found.append((host.rooms[match].match.log["start"], seen))
        return found

    (one, seen_one), (two, seen_two) = asyncio.run(scenario())
    assert document == written  # the server's document is never changed
    for snapshot, seen in ((one, seen_one), (two, seen_two)):
        assert snapshot["secret"] != document["secret"] and snapshot["seed"] != document["seed"]
        text = json.dumps(seen)
        for hidden in (snapshot["secret"], snapshot["rng"]["state"], str(snapshot["seed"])):
            assert hidden not in text
        assert '"seed"' not in text and '"secret"' not in text and '"rng"' not in text
        # The same cards, dealt in another order than the document's.
        assert [sorted(d) for d in dealt(snapshot)] == [sorted(d) for d in dealt(document)]
        assert dealt(snapshot) != dealt(document)
    assert one["secret"] != two["secret"] and one["seed"] != two["seed"]
    assert dealt(one) != dealt(two)
    # What a client of one match is told says nothing of the other's secret or seed.
    for hidden in (two["secret"], two["rng"]["state"]):
        assert hidden not in json.dumps(seen_one)


def test_fixed_order_keeps_the_documents_deal_but_not_its_secret(tmp_path: Path) -> None:
    document = rivals_battle() | {"secret": "5e" * 32, "stints": {}}

    async def scenario() -> list[dict[str, Any]]:
        async with serving(tmp_path, fixed_order=True) as (host, client):
            host.battle = document
            names = [(await seated(client))[2] for _ in range(2)]
            return [host.rooms[name].match.snapshot() for name in names]

    one, two = asyncio.run(scenario())
    for snapshot in (one, two):
        assert snapshot["seed"] == document["seed"] and dealt(snapshot) == dealt(document)
    assert len({one["secret"], two["secret"], document["secret"]}) == 3


def test_the_servers_refusals_quote_a_long_value_briefly_and_in_jsons_words(
    tmp_path: Path,
) -> None:
    """An op, message type or match name of 50,000 characters is quoted to about 80, and a
    value that is not a string is written as JSON writes it (null, not Python's None)."""
    long = "x" * 50_000

    async def scenario() -> list[dict[str, Any]]:
        async with serving(tmp_path) as (_, client):
            aya, _, _ = await seated(client)
            stranger = await client()
            return [
                (await aya.ask(op=long))["error"],
                (await aya.ask(op=None))["error"],
                (await aya.ask(op=[long]))["error"],
                (await aya.ask(op="targets", card=long))["error"],
                (await aya.ask(op="targets", card=None))["error"],
                (await aya.send(type=long))["error"],
                (await aya.send(type=None))["error"],
                (await stranger.send(type="join", match=long))["error"],
            ]

    refusals = asyncio.run(scenario())
    for refusal in refusals:
        assert "x" * 81 not in refusal["message"] and len(refusal["message"]) < 400, refusal
        assert "None" not in refusal["message"], refusal
    assert [r["code"] for r in refusals] == [
        "unknown_op", "unknown_op", "unknown_op", "unknown_card", "unknown_card",
        "unknown_type", "unknown_type", "unknown_match",
    ]  # fmt: skip
    assert "unknown op null online" in refusals[1]["message"]
    assert "no card instance null" in refusals[4]["message"]
    assert "unknown message type null" in refusals[6]["message"]


def test_a_fresh_start_deals_the_same_cards_in_unpredictable_orders() -> None:
    """Each match's deal keeps the document's cards, hand sizes and units, and is drawn anew:
    forty matches give forty different deals, none the document's."""
    document = rivals_battle()
    deals_made = [fresh_start(document) for _ in range(40)]
    deals = {json.dumps(dealt(made)) for made in deals_made}
    assert len(deals) == 40 and json.dumps(dealt(document)) not in deals
    for made in deals_made:
        assert made["units"] == document["units"] and "secret" not in made
        assert [sorted(d) for d in dealt(made)] == [sorted(d) for d in dealt(document)]
        for mine, theirs in zip(made["sides"], document["sides"], strict=True):
            assert len(mine["piles"]["hand"]) == len(theirs["piles"]["hand"])
    assert len({made["seed"] for made in deals_made}) == 40
    assert fresh_start(document, fixed_order=True) == document
