"""Limits per client address (app/web/limits.py, docs/security.md#limits): over each one the
sender gets 429 with Retry-After, or a ``rate_limited`` error frame, nothing is stored, and
the others play on. Other addresses come through the proxy header, which the test servers
believe from the loopback (FORWARDED_ALLOW_IPS)."""

from __future__ import annotations

import asyncio
import json
import os
import secrets

import httpx
import pytest
import websockets
from cardroom_client import Client, create_room, join

from app.rooms.registry import TARGET_MAX
from tests.conftest import LiveServer, fresh_sqlite

REDIS_URL = os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/0")


def limited(tmp_path_factory, **settings) -> LiveServer:
    """A live server on a fresh database with the limits on, each off unless it is given."""
    values = {"limits": True, "limit_rooms": "", "limit_joins": "", "limit_sockets": "",
              "limit_chat": "", "limit_names": "", **settings}
    return LiveServer(fresh_sqlite(tmp_path_factory, "limits"), **values).start()


@pytest.fixture
def serve(tmp_path_factory):
    servers = []

    def start(**settings) -> LiveServer:
        servers.append(limited(tmp_path_factory, **settings))
        return servers[-1]

    yield start
    for server in servers:
        server.stop()


def from_(address: str) -> dict:
    return {"X-Forwarded-For": address}


async def open_rooms(http: httpx.AsyncClient) -> set[str]:
    return {r["code"] for r in (await http.get("/api/rooms")).json()["rooms"]}


def assert_limited(r: httpx.Response, reason: str) -> None:
    assert r.status_code == 429, r.text
    assert r.json()["code"] == "rate_limited" and r.json()["reason"] == reason
    assert 1 <= int(r.headers["Retry-After"]) <= 60
    assert r.json()["params"]["seconds"] == int(r.headers["Retry-After"])


async def test_rooms_created_from_one_address_are_limited_and_the_next_is_not_stored(serve):
    server = serve(limit_rooms="3/minute")
    body = {"game": "black_maria"}
    async with httpx.AsyncClient(base_url=server.http) as http:
        for _ in range(3):
            assert (await http.post("/api/rooms", json=body)).status_code == 201
        before = await open_rooms(http)
        assert_limited(await http.post("/api/rooms", json=body), "limit_rooms")
        assert await open_rooms(http) == before and len(before) == 3
        # another address is not limited by this one
        assert (await http.post("/api/rooms", json=body, headers=from_("10.1.1.1"))
                ).status_code == 201


async def test_an_ipv6_client_is_counted_by_its_64_whatever_address_it_takes_in_it(serve):
    """A host given a /64 has 2**64 addresses: one each request had been a limit never
    reached. Another /64, and an IPv4 client written as IPv6, are others."""
    server = serve(limit_rooms="2/minute")
    body = {"game": "black_maria"}
    async with httpx.AsyncClient(base_url=server.http) as http:
        for address in ("2001:db8:1:2::1", "2001:db8:1:2:ffff:1:2:3"):
            assert (await http.post("/api/rooms", json=body, headers=from_(address))).status_code == 201
        assert_limited(await http.post("/api/rooms", json=body, headers=from_("2001:db8:1:2:abcd::9")),
                       "limit_rooms")
        for other in ("2001:db8:1:3::1", "::ffff:10.2.2.2"):
            assert (await http.post("/api/rooms", json=body, headers=from_(other))).status_code == 201
        # (the mapped address is its IPv4 client's: one more from 10.2.2.2 is its third)
        assert (await http.post("/api/rooms", json=body, headers=from_("10.2.2.2"))).status_code == 201
        assert_limited(await http.post("/api/rooms", json=body, headers=from_("10.2.2.2")), "limit_rooms")


async def test_names_claimed_or_changed_from_one_address_are_limited(serve):
    """Each claim stores a player, listed with the others: a script had made a hundred in a
    fifth of a second (and could claim every guest's name). A rename counts too; a name refused
    as taken does not (a player trying names until one was free had been told to wait)."""
    server = serve(limit_names="3/minute")
    async with httpx.AsyncClient(base_url=server.http) as http:
        keys = [(await http.post("/api/me", json={"name": f"Junk {secrets.token_hex(3)}"})).json()["key"]
                for _ in range(2)]
        taken = (await http.get("/api/me", headers={"X-Player-Key": keys[1]})).json()["name"]
        for _ in range(3):
            refused = await http.post("/api/me", json={"name": taken})
            assert refused.status_code == 409 and refused.json()["code"] == "name_claimed"
        renamed = await http.patch("/api/me", json={"name": f"Junk {secrets.token_hex(3)}"},
                                   headers={"X-Player-Key": keys[0]})
        assert renamed.status_code == 200
        name = f"Junk {secrets.token_hex(3)}"
        assert_limited(await http.post("/api/me", json={"name": name}), "limit_names")
        assert_limited(await http.patch("/api/me", json={"name": name},
                                         headers={"X-Player-Key": keys[1]}), "limit_names")
        assert (await http.get(f"/api/players/{name}")).status_code == 404  # (not stored)
        assert (await http.post("/api/me", json={"name": name}, headers=from_("10.1.1.2"))
                ).status_code == 201
        # nor does a burst get past it: counted before the claim, not after
        burst = await asyncio.gather(*(
            http.post("/api/me", json={"name": f"Junk {secrets.token_hex(3)}"},
                      headers=from_("10.1.1.3")) for _ in range(12)))
        assert sorted(r.status_code for r in burst) == [201] * 3 + [429] * 9


async def test_a_forwarded_address_is_believed_only_from_a_trusted_proxy(tmp_path_factory):
    server_untrusting = LiveServer(fresh_sqlite(tmp_path_factory, "untrusting"),
                                   uvicorn_options={"forwarded_allow_ips": "10.9.9.9"},
                                   limits=True, limit_rooms="2/minute", limit_joins="",
                                   limit_sockets="", limit_chat="").start()
    try:
        async with httpx.AsyncClient(base_url=server_untrusting.http) as http:
            for address in ("10.0.0.1", "10.0.0.2"):
                r = await http.post("/api/rooms", json={"game": "marjolet"},
                                    headers=from_(address))
                assert r.status_code == 201
            # a third "address" is the same client to a server that trusts no proxy here
            assert_limited(await http.post("/api/rooms", json={"game": "marjolet"},
                                           headers=from_("10.0.0.3")), "limit_rooms")
    finally:
        server_untrusting.stop()


async def test_joins_from_one_address_are_limited_and_the_seat_stays_free(serve):
    server = serve(limit_joins="2/minute")
    code = await create_room(server.http, "black_maria", ["open"] * 3)
    await join(server.http, code, "Ana")
    await join(server.http, code, "Boris")
    async with httpx.AsyncClient(base_url=server.http) as http:
        assert_limited(await http.post(f"/api/rooms/{code}/join", json={"name": "Vera"}),
                       "limit_joins")
        seats = (await http.get(f"/api/rooms/{code}")).json()["seats"]
        assert [s["kind"] for s in seats] == ["human", "human", "open"]
        r = await http.post(f"/api/rooms/{code}/join", json={"name": "Vera"},
                            headers=from_("10.2.2.2"))
        assert r.status_code == 200


async def refused_socket(url: str, hello: bool = False, code: int = 4429, **options) -> dict:
    """The one frame a refused connection gets (having said ``hello``, or nothing), and its
    close ``code``."""
    async with websockets.connect(url, **options) as ws:
        if hello:
            await ws.send(json.dumps({"type": "hello"}))
        frame = json.loads(await asyncio.wait_for(ws.recv(), 10))
        with pytest.raises(websockets.ConnectionClosed) as closed:
            await asyncio.wait_for(ws.recv(), 10)
    assert closed.value.rcvd.code == code
    return frame


async def test_connections_opened_from_one_address_are_limited(serve):
    server = serve(limit_sockets="3/minute")
    code = await create_room(server.http, "marjolet", ["open", "bot:rules"])
    for _ in range(3):
        client = Client(server.ws, code)
        await client.connect()
        await client.close()
    frame = await refused_socket(f"{server.ws}/ws/{code}")
    assert (frame["type"], frame["code"], frame["reason"]) == ("error", "rate_limited",
                                                                "limit_sockets")
    other = Client(server.ws, code, additional_headers=from_("10.3.3.3"))
    assert (await other.connect())["type"] == "welcome"
    await other.close()


async def test_connections_open_at_once_are_limited_per_address_and_per_room(serve):
    """Per address, every socket open counts; per room, those that said hello, and the
    table's own people always come in (sockets that said nothing had kept them out)."""
    server = serve(limit_open_sockets=2, limit_room_sockets=3)
    code = await create_room(server.http, "marjolet", ["open", "bot:rules"])
    other_room = await create_room(server.http, "marjolet", ["open", "bot:rules"])
    url = f"{server.ws}/ws/{code}"
    async with websockets.connect(url), websockets.connect(url):  # (before their hello)
        frame = await refused_socket(url)
        assert frame["reason"] == "limit_open_sockets" and frame["params"]["count"] == 2
    _, token = await join(server.http, code, "Anna", 0)
    watchers = [Client(server.ws, code, additional_headers=from_(f"10.4.4.{i}")) for i in range(3)]
    for watcher in watchers:
        assert (await watcher.connect())["type"] == "welcome"
    frame = await refused_socket(url, hello=True, additional_headers=from_("10.5.5.5"))
    assert frame["reason"] == "limit_room_sockets" and frame["params"]["count"] == 3
    anna = Client(server.ws, code, token, additional_headers=from_("10.6.6.6"))
    assert (await anna.connect())["state"]["you"]["seat"] == 0  # (her table: she comes in)
    welcome = Client(server.ws, other_room, additional_headers=from_("10.5.5.5"))
    assert (await welcome.connect())["type"] == "welcome"
    for client in (welcome, anna, watchers[0]):
        await client.close()
    # closed: counted no more
    later = Client(server.ws, code)
    assert (await later.connect())["type"] == "welcome"
    for client in (later, *watchers[1:]):
        await client.close()


async def test_a_socket_that_says_nothing_is_closed_and_holds_no_place_at_a_table(serve):
    """Sixty sockets that never said hello had kept a table's own people out of it for as
    long as they stayed open: one that says nothing is closed after HELLO_WITHIN, and counts
    for no room meanwhile."""
    server = serve(limit_room_sockets=1, hello_within=1.0)
    code = await create_room(server.http, "marjolet", ["open", "bot:rules"])
    url = f"{server.ws}/ws/{code}"
    async with websockets.connect(url) as idle:
        watcher = Client(server.ws, code)
        assert (await watcher.connect())["type"] == "welcome"
        frame = json.loads(await asyncio.wait_for(idle.recv(), 10))
        assert (frame["code"], frame["reason"]) == ("hello_first", "hello_late")
        with pytest.raises(websockets.ConnectionClosed) as closed:
            await asyncio.wait_for(idle.recv(), 10)
        assert closed.value.rcvd.code == 4408
    await asyncio.sleep(1.2)  # (the watcher, who said hello, stays past the deadline)
    await watcher.send({"type": "ping"})
    assert (await watcher.expect("pong"))["type"] == "pong"
    await watcher.close()


async def said(client: Client, text: str) -> dict:
    """The answer to a chat line just sent: its event, or an error."""
    while True:
        message = await client.next()
        if message["type"] == "error" or (message["type"] == "event" and
                                          message["event"].get("text") == text):
            return message


async def test_chat_is_limited_per_seat_whatever_the_connections(serve):
    server = serve(limit_chat="4/minute")
    code = await create_room(server.http, "black_maria", ["open", "open", "bot:rules"])
    _, token = await join(server.http, code, "Ana")
    _, other_token = await join(server.http, code, "Boris")
    tabs = [Client(server.ws, code, token, f"Ana {i}") for i in range(3)]
    boris = Client(server.ws, code, other_token, "Boris")
    for client in (*tabs, boris):
        await client.connect()
    refused = 0
    for i in range(9):
        await tabs[i % 3].send({"type": "chat", "text": f"line {i}"})
        message = await said(tabs[i % 3], f"line {i}")
        if message["type"] == "error":
            assert (message["code"], message["reason"]) == ("rate_limited", "limit_chat")
            refused += 1
    assert refused == 5
    await boris.send({"type": "chat", "text": "still here"})
    assert (await said(boris, "still here"))["type"] == "event"
    # what is stored: four lines of Ana's and Boris's
    late = Client(server.ws, code)
    chat = (await late.connect())["state"]["chat"]
    assert [line["text"] for line in chat] == [f"line {i}" for i in range(4)] + ["still here"]
    for client in (*tabs, boris, late):
        await client.close()


async def test_rooms_of_bots_alone_are_bounded_in_number(serve):
    server = serve(bot_tables=1, bot_delay=0.05)
    bots = ["bot:rules", "bot:random"]
    async with httpx.AsyncClient(base_url=server.http) as http:
        body = {"game": "marjolet", "seats": bots, "options": {"target": TARGET_MAX["marjolet"]}}
        assert (await http.post("/api/rooms", json=body)).status_code == 201
        r = await http.post("/api/rooms", json=body)
        assert_limited(r, "bot_tables")
        assert r.json()["params"]["count"] == 1
        # a table with a person is not one of them
        r = await http.post("/api/rooms", json={**body, "seats": ["open", "bot:rules"]})
        assert r.status_code == 201


def last_seq(server: LiveServer, code: str) -> int:
    from sqlalchemy import create_engine, func, select

    from app.storage.models import Room, RoomEvent

    engine = create_engine(server.settings.database_url)
    with engine.connect() as connection:
        return connection.scalar(select(func.max(RoomEvent.seq)).join(
            Room, Room.id == RoomEvent.room_id).where(Room.code == code))


async def evict(server, code: str) -> None:
    """The room let go by the test server's process, as an idle one is."""
    registry = server.app.state.rooms
    registry.evict(registry.rooms[code])


async def test_a_room_of_bots_nobody_watches_pauses_and_plays_on_when_opened(serve):
    server = serve(bot_table_idle=0.5, bot_delay=0.02)
    code = await create_room(server.http, "marjolet", ["bot:rules", "bot:rules"],
                             {"target": TARGET_MAX["marjolet"]})
    seqs = [await asyncio.to_thread(last_seq, server, code)]
    while len(seqs) < 3 or seqs[-3] != seqs[-1]:  # unchanged for a second: paused
        assert len(seqs) < 40, f"the room of bots played on unwatched: {seqs}"
        await asyncio.sleep(0.5)
        seqs.append(await asyncio.to_thread(last_seq, server, code))
    assert seqs[0] < seqs[-1]  # it had played, watched by nobody, for its idle time
    # listed, and so loaded again by a process that had let it go: it does not play for that
    await server.on_its_loop(evict(server, code))
    async with httpx.AsyncClient(base_url=server.http) as http:
        assert code in {r["code"] for r in (await http.get(
            "/api/rooms", params={"open": "false", "limit": 200})).json()["rooms"]}
    await asyncio.sleep(1.5)
    assert await asyncio.to_thread(last_seq, server, code) == seqs[-1], "it played for a listing"
    spectator = Client(server.ws, code)
    await spectator.connect()
    await spectator.until(lambda state: state["seq"] > seqs[-1] + 5)
    await spectator.close()


async def test_limits_are_shared_by_processes_through_redis(tmp_path_factory):
    import redis

    try:
        redis.Redis.from_url(REDIS_URL, socket_connect_timeout=1).ping()
    except Exception as error:  # noqa: BLE001
        if os.environ.get("CI") == "true":
            pytest.fail(f"Redis is required in CI and unreachable at {REDIS_URL}: {error}")
        pytest.skip(f"Redis unreachable at {REDIS_URL}: {error}")
    url, channel = fresh_sqlite(tmp_path_factory, "shared"), f"test-{secrets.token_hex(4)}"
    settings = {"limits": True, "limit_rooms": "3/minute", "redis_url": REDIS_URL,
                "redis_channel": channel}
    a, b = LiveServer(url, **settings).start(), LiveServer(url, **settings).start()
    try:
        async with httpx.AsyncClient() as http:
            for base in (a.http, b.http, a.http):
                r = await http.post(f"{base}/api/rooms", json={"game": "marjolet"})
                assert r.status_code == 201
            assert_limited(await http.post(f"{b.http}/api/rooms", json={"game": "marjolet"}),
                           "limit_rooms")
    finally:
        a.stop()
        b.stop()
