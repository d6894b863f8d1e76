"""Two server processes on one database with Redis fan-out: a spectator on one sees every
action taken on the other, in order, and the match plays to its end across both."""

from __future__ import annotations

import asyncio
import os
import secrets

import pytest
from cardroom_client import Client, create_room, join

REDIS_URL = os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/0")


@pytest.fixture(scope="module")
def redis_url():
    import redis

    try:
        redis.Redis.from_url(REDIS_URL, socket_connect_timeout=1).ping()
    except Exception as error:  # noqa: BLE001
        if os.environ.get("CI") == "true":
            pytest.fail(f"Redis is required in CI and unreachable at {REDIS_URL}: {error}")
        pytest.skip(f"Redis unreachable at {REDIS_URL}: {error}")
    return REDIS_URL


async def test_actions_on_one_process_reach_the_other(database_url, redis_url):
    from tests.conftest import LiveServer

    channel = f"cardroom-test-{secrets.token_hex(4)}"
    a = LiveServer(database_url, redis_url=redis_url, redis_channel=channel).start()
    b = LiveServer(database_url, redis_url=redis_url, redis_channel=channel).start()
    try:
        code = await create_room(a.http, "black_maria", ["open", "open", "bot:rules"],
                                 {"target": 15})
        watcher = Client(b.ws, code, name="watcher")
        await watcher.connect()
        _, t0 = await join(a.http, code, "fan-a", 0)
        _, t1 = await join(b.http, code, "fan-b", 1)
        anna = Client(a.ws, code, t0, name="anna")   # on process A
        boris = Client(b.ws, code, t1, name="boris")  # on process B
        await anna.connect()
        await boris.connect()
        await asyncio.gather(anna.play(timeout=120), boris.play(timeout=120))
        final = await watcher.until(lambda s: s["match"] and s["match"]["finished"])
        assert final["match"]["totals"] == anna.state["match"]["totals"]
        for client in (watcher, anna, boris):
            seqs = [m["seq"] for m in client.messages if m["type"] == "event"]
            assert seqs == sorted(set(seqs))
        watched = [m["seq"] for m in watcher.messages if m["type"] == "event"]
        assert watched == list(range(watched[0], watched[-1] + 1))
        for client in (watcher, anna, boris):
            await client.close()
    finally:
        a.stop()
        b.stop()


class Recorder:
    """A broadcaster that keeps what a process publishes, to hand it to another by hand."""

    local_presence = on_presence = None

    def __init__(self):
        self.notices: list[tuple[str, int, list | None]] = []

    def published(self, code, seq, shared=None):
        self.notices.append((code, seq, shared))

    def presence(self, code, seat, connected):
        pass

    async def close(self):
        pass


@pytest.fixture
def processes(tmp_path):
    """``make(**settings) -> (A, B, recorder)``: two processes' registries on one SQLite
    database, A's notices kept by ``recorder`` to be handed to B by hand."""
    from app.rooms import RoomRegistry
    from app.settings import Settings
    from app.storage.migrate import upgrade
    from app.storage.repository import RoomRepository
    from app.storage.store import Store

    url = f"sqlite:///{tmp_path}/shared.db"
    upgrade(url)
    stores = []

    def make(**more):
        settings = Settings(database_url=url, bot_delay=0, room_idle=0, **{"deal_pause": 0, **more})
        recorder = Recorder()
        stores.extend([Store(url), Store(url)])
        return (RoomRegistry(settings, RoomRepository(stores[-2]), recorder),
                RoomRegistry(settings, RoomRepository(stores[-1])), recorder)

    yield make
    for store in stores:
        store.close()


async def test_shared_actions_apply_without_the_database_and_a_gap_reads_it(processes):
    """Actions and chat lines travel with their notice: the other process applies them
    without reading the database; a notice after a missed one reads what is missing."""
    a, b, recorder = processes()
    room_a = await a.create("marjolet", {"target": 1}, [("open", None), ("open", None)], None)
    for seat in (0, 1):
        await room_a.join(f"p{seat}", seat)
    room_b = await b.get(room_a.code)  # B's replica: the match started, no action yet
    state_a, state_b = room_a.state, room_b.state
    assert state_b.seq == state_a.seq and state_b.match is not None
    for _ in range(6):  # actions taken on A
        seat = state_a.match.to_act()[0]
        await room_a.act(seat, state_a.match.legal_actions(seat)[0],
                         client_id=f"c{state_a.seq}")
    shared = [n for n in recorder.notices if n[2] is not None]
    assert len(shared) == 6 and all(e[1] == "action" for n in shared for e in n[2])

    reads = []
    tail = b.repository.tail
    b.repository.tail = lambda *args: reads.append(args) or tail(*args)
    for code, seq, events in shared[:3]:
        await b.remote_event(code, seq, events)
    assert reads == [] and state_b.seq == shared[2][1] and state_b.action_count == 3
    last = shared[2][2][-1]
    assert state_b.client_ids[last[2]["seat"]][last[3]] == last[0]  # idempotent

    code, seq, events = shared[4]  # the notice of action 4 was lost: 5 has a gap before it
    await b.remote_event(code, seq, events)
    assert len(reads) == 1 and state_b.seq == state_a.seq and state_b.action_count == 6
    await b.remote_event(*shared[5])  # already read with the gap: nothing more to do
    assert len(reads) == 1
    assert state_b.match.view(1) == state_a.match.view(1)


async def test_another_process_counts_its_clocks_from_what_the_storing_one_does(processes):
    """The turn timer and the next deal's countdown count, on every process, from the last
    action, deal or wait: a chat line or a plain ``ready`` stored on A had started them again
    on B alone (B's pages then said another number of seconds than A's)."""
    a, b, recorder = processes(deal_pause=60)
    room_a = await a.create("black_maria", {"target": 500},
                            [("open", None), ("open", None), ("open", None)], None)
    for seat in range(3):
        await room_a.join(f"p{seat}", seat)
    room_b = await b.get(room_a.code)
    state_a = room_a.state

    async def on_b(step) -> bool:
        """Does ``step`` on A, hands its notices to B: whether B's clocks started again."""
        recorder.notices.clear()
        room_b.driver.last_progress = -1.0
        await step()
        for notice in recorder.notices:
            await b.remote_event(*notice)
        assert room_b.state.seq == state_a.seq
        return room_b.driver.last_progress != -1.0

    assert not await on_b(lambda: room_a.say(0, "hello"))
    while not state_a.between_deals:  # (the last card ends the deal: its summary)
        seat = state_a.match.to_act()[0]
        assert await on_b(lambda s=seat: room_a.act(s, state_a.match.legal_actions(s)[0]))
    assert not await on_b(lambda: room_a.ready(0))
    assert await on_b(lambda: room_a.ready(1, wait=True))
    assert not await on_b(lambda: room_a.say(2, "I read too"))


async def test_a_process_lets_go_of_a_room_nobody_there_watches_or_asked_for(processes):
    """Each room's people go to one process (the proxy hashes its code): a replica elsewhere
    would apply every action again. At another process's notice, a process drops a room nobody
    is connected to there that nothing there asked for lately (one it only made, or a lobby
    there only listed), and keeps up to date one it was asked for or one watched there."""
    from app.rooms import Connection
    from app.rooms.registry import KEEP_ASKED

    home, other, recorder = processes()
    made = await other.create("marjolet", {"target": 1}, [("open", None), ("open", None)], None)
    code = made.code
    room = await home.get(code)  # the joins and the sockets come here
    for seat in (0, 1):
        await room.join(f"p{seat}", seat)

    async def discard(text: str) -> None:
        return None

    async def told_of_an_action() -> None:
        seat = room.state.match.to_act()[0]
        await room.act(seat, room.state.match.legal_actions(seat)[0])
        await other.remote_event(*recorder.notices[-1])

    await other.remote_event(*recorder.notices[-1])  # the joins: the maker lets the room go
    assert code not in other.rooms and made.evicted

    asked = await other.get(code)  # a page or a request here: kept up to date for a while
    await told_of_an_action()
    assert other.rooms[code] is asked and asked.state.seq == room.state.seq
    asked.last_asked -= KEEP_ASKED + 1
    await told_of_an_action()
    assert code not in other.rooms

    listed = await other.get(code, asked=False)  # the lobby's list only looks
    await told_of_an_action()
    assert code not in other.rooms and listed.evicted

    watched = await other.get(code)
    watched.last_asked -= KEEP_ASKED + 1
    assert await watched.attach(Connection(discard), None, None)  # a spectator here
    await told_of_an_action()
    assert other.rooms[code] is watched and watched.state.seq == room.state.seq
    for registry in (home, other):
        await registry.close()


async def test_notices_ready_together_travel_as_one_message_and_only_to_others(redis_url):
    """A group commit's notices go out as one Redis message (a publish and a receipt per
    notice had been about half of what Redis cost); a process skips its own messages."""
    import orjson
    import redis.asyncio as redis

    from app.fanout.redis import RedisBroadcaster

    channel = f"cardroom-test-{secrets.token_hex(4)}"
    heard: dict[str, list] = {"a": [], "b": []}

    def recorder(name):
        async def on_remote(code, seq, shared=None):
            heard[name].append((code, seq, shared))
        return on_remote

    listener = redis.from_url(redis_url)
    pubsub = listener.pubsub()
    await pubsub.subscribe(channel)
    a, b = RedisBroadcaster(redis_url, channel), RedisBroadcaster(redis_url, channel)
    try:
        await a.start(recorder("a"))
        await b.start(recorder("b"))
        events = [[seq, "chat", {"text": str(seq)}, None] for seq in (7, 8, 9)]
        for seq in (7, 8, 9):  # within one turn of the event loop, as a group commit's
            a.published("ROOM01", seq, [events[seq - 7]])
        messages = []
        deadline = asyncio.get_running_loop().time() + 10
        while len(heard["b"]) < 3 or not messages:
            assert asyncio.get_running_loop().time() < deadline, (messages, heard)
            message = await pubsub.get_message(ignore_subscribe_messages=True, timeout=0.1)
            if message is not None:
                messages.append(orjson.loads(message["data"]))
        while (message := await pubsub.get_message(ignore_subscribe_messages=True,
                                                   timeout=0.3)) is not None:
            messages.append(orjson.loads(message["data"]))
        assert len(messages) == 1
        assert [n["seq"] for n in messages[0]["notices"]] == [7, 8, 9]
        assert heard["b"] == [("ROOM01", seq, [events[seq - 7]]) for seq in (7, 8, 9)]
        assert heard["a"] == []  # its own
    finally:
        for broadcaster in (a, b):
            await broadcaster.close()
        await pubsub.aclose()
        await listener.aclose()


async def test_sends_to_redis_are_spaced_while_notices_come_together(redis_url, monkeypatch):
    """The first notice after a quiet spell goes at once; once one has been sent, the next
    waits for the interval from it, and those queued meanwhile go with it in one message."""
    import orjson
    import redis.asyncio as redis

    from app.fanout import redis as fanout

    monkeypatch.setattr(fanout, "SEND_INTERVAL", 1.0)
    channel = f"cardroom-test-{secrets.token_hex(4)}"
    listener = redis.from_url(redis_url)
    pubsub = listener.pubsub()
    await pubsub.subscribe(channel)
    sender = fanout.RedisBroadcaster(redis_url, channel)

    async def next_message() -> list[int]:
        deadline = asyncio.get_running_loop().time() + 10
        while (message := await pubsub.get_message(ignore_subscribe_messages=True,
                                                   timeout=0.05)) is None:
            assert asyncio.get_running_loop().time() < deadline
        return [notice["seq"] for notice in orjson.loads(message["data"])["notices"]]

    async def on_remote(code, seq, shared=None):
        pass

    try:
        await sender.start(on_remote)
        sender.published("ROOM01", 1)
        assert await next_message() == [1]  # quiet before it: at once
        sender.published("ROOM01", 2)
        await asyncio.sleep(0.1)  # another turn of the loop, well within the interval
        sender.published("ROOM01", 3)
        assert await next_message() == [2, 3]
        await asyncio.sleep(1.1)  # quiet again
        sender.published("ROOM01", 4)
        started = asyncio.get_running_loop().time()
        assert await next_message() == [4]
        assert asyncio.get_running_loop().time() - started < 0.8  # not held
    finally:
        await sender.close()
        await pubsub.aclose()
        await listener.aclose()


async def test_the_heartbeat_registers_this_process_seats_for_the_others(redis_url):
    """The presence registry the authoritative check reads (before a seat goes to a bot)."""
    from app.fanout.redis import PRESENCE_TTL, RedisBroadcaster

    async def ignore(*args):
        pass

    channel = f"cardroom-test-{secrets.token_hex(4)}"
    a, b = RedisBroadcaster(redis_url, channel), RedisBroadcaster(redis_url, channel)
    a.local_presence = lambda: {"ROOM01": [0, 2], "ROOM02": [1]}
    try:
        await a.start(ignore)
        await b.start(ignore)
        await a._send_heartbeat()
        assert [await b.present_elsewhere("ROOM01", seat) for seat in range(3)] == \
            [True, False, True]
        assert await b.present_elsewhere("ROOM02", 1)
        assert not await a.present_elsewhere("ROOM01", 0)  # itself is not elsewhere
        ttl = await a.redis.ttl(a._key("ROOM02", 1))
        assert PRESENCE_TTL < ttl <= PRESENCE_TTL * 2
    finally:
        for broadcaster in (a, b):
            await broadcaster.redis.delete(*(a._key(code, seat) for code, seat in
                                             (("ROOM01", 0), ("ROOM01", 2), ("ROOM02", 1))))
            await broadcaster.close()


async def test_a_bad_notice_is_skipped_alone_and_an_older_process_is_understood(redis_url):
    """One notice that cannot be applied does not lose those sent with it; a message of a
    process of the version before (one notice, not a list) is read as it was."""
    import orjson
    import redis.asyncio as redis

    from app.fanout.redis import RedisBroadcaster

    channel = f"cardroom-test-{secrets.token_hex(4)}"
    heard = []

    async def on_remote(code, seq, shared=None):
        heard.append((code, seq))

    listener = RedisBroadcaster(redis_url, channel)
    sender = redis.from_url(redis_url)
    try:
        await listener.start(on_remote)
        await sender.publish(channel, orjson.dumps({"origin": "other", "notices": [
            {"code": "ROOM01", "seq": 1}, {"code": "ROOM01", "seq": "not a number"},
            {"code": "ROOM01", "seq": 3}]}))
        await sender.publish(channel, orjson.dumps({"origin": "older", "code": "ROOM02",
                                                    "seq": 5}))
        for _ in range(100):
            if len(heard) == 3:
                break
            await asyncio.sleep(0.05)
        assert heard == [("ROOM01", 1), ("ROOM01", 3), ("ROOM02", 5)]
    finally:
        await listener.close()
        await sender.aclose()


async def test_a_seat_left_on_one_process_is_let_go_by_its_connections_on_the_other(processes):
    """Boris leaves the table on A once the match is over: his connection on B watches from then
    on (it had kept the seat, and been sent the hand of the friend who took it next)."""
    from app.rooms import Connection

    a, b, recorder = processes()
    room_a = await a.create("marjolet", {"target": 1}, [("open", None), ("open", None)], None)
    tokens = [(await room_a.join(f"p{seat}", seat))[1] for seat in (0, 1)]
    state_a = room_a.state
    while not state_a.match.finished:
        seat = state_a.match.to_act()[0]
        await room_a.act(seat, state_a.match.legal_actions(seat)[0])
    room_b = await b.get(room_a.code)
    sent = []
    boris = Connection(lambda text: sent.append(text) or asyncio.sleep(0))
    assert await room_b.attach(boris, tokens[1], None)
    assert boris.seat == 1
    recorder.notices.clear()
    await room_a.leave(1)
    for notice in recorder.notices:
        await b.remote_event(*notice)
    assert room_b.state.seats[1].kind == "open" and boris.seat is None
